# cython: language_level=3
"""Fixed-point uint8 pass: integer weights, int32 accumulation, a rounding bias and a shift.

This is the arithmetic of PyTorch's CPU uint8 ``bilinear``/``bicubic`` kernels (and of Pillow and
OpenCV's 8-bit paths): ``acc = 2^(shift-1) + sum_t w[t] * x[t]`` in int32, then
``clamp(acc >> shift, 0, 255)`` with an arithmetic (flooring) shift. Each pass writes uint8, so a
multi-axis resize rounds between passes, exactly like the convention it reproduces.

Entry point: ``fixed_run`` (the kernel contract, ``_pass.pxd``), called by the executor.

Preconditions (the planner guarantees them; nothing here is checked):
- ``shape`` is this pass's output shape in iteration order, every entry >= 1;
- byte strides in the same order; input and output are uint8 and do not overlap;
- CSR taps: output ``o`` of ``axis`` reads byte offsets ``offsets[t]`` for ``t`` in
  ``[ptr[o], ptr[o+1])`` with integer weights ``w[t]``; ``1 <= shift <= 30`` and
  ``sum |w| * 255 + 2^(shift-1)`` fits in int32 (|w| < 2^15 and at most 2^8 taps does);
- ``bufs`` has ``nthreads`` rows of ``shape[-1]`` int32 (or ``shape[-2] * shape[-1]`` for the
  channels-last loop shape).
"""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pool cimport body_fn, run as pool_run
from resamplex._engine._pass cimport KernelTable, PassDesc, PassJob, PHASE_DOWN2, PHASE_UP2


cdef extern from "_fixed_simd.h" nogil:
    int32_t rx_window_u8(const uint8_t* s, const int16_t* w, Py_ssize_t k)
    Py_ssize_t rx_windows_u8(const uint8_t* s, const int64_t* starts, const int16_t* wk,
                             Py_ssize_t k, Py_ssize_t j0, Py_ssize_t j1, int32_t bias, int shift,
                             uint8_t* d)
    void rx_win_phase_u8(const uint8_t* x, Py_ssize_t q, const int16_t* w, Py_ssize_t k,
                         Py_ssize_t n, int32_t bias, int shift, uint8_t* out)
    void rx_zip2_8(const uint8_t* a, const uint8_t* b, uint8_t* out, Py_ssize_t npix,
                   Py_ssize_t c)


cdef inline uint8_t _clip8(int32_t acc, int shift) noexcept nogil:
    acc = acc >> shift
    return <uint8_t>(0 if acc < 0 else (255 if acc > 255 else acc))


cdef inline void _pixels(const uint8_t* s, uint8_t* d, Py_ssize_t n, const Py_ssize_t c,
                         const int64_t* ptr, const int64_t* off, const int32_t* w,
                         int shift) noexcept nogil:
    # Every output pixel of a row of c <= 4 interleaved bytes (c a constant at each call):
    # the c sums in registers, one pass over the taps; the same integer sums.
    cdef Py_ssize_t j, t, k
    cdef const uint8_t* x
    cdef int32_t a[4]
    cdef int32_t wt, bias = (<int32_t>1) << (shift - 1)
    for j in range(n):
        for k in range(c):
            a[k] = bias
        for t in range(ptr[j], ptr[j + 1]):
            x = s + off[t]
            wt = w[t]
            for k in range(c):
                a[k] = a[k] + wt * <int32_t>x[k]
        for k in range(c):
            d[j * c + k] = _clip8(a[k], shift)


cdef inline void _windows(const uint8_t* s, uint8_t* d, int64_t ds, Py_ssize_t j0,
                          Py_ssize_t j1, Py_ssize_t window, const int64_t* starts,
                          const int16_t* wk, int shift) noexcept nogil:
    # outputs [j0, j1) of a row, each a window of bytes (dense int16 weights), ds apart
    cdef Py_ssize_t j = j0
    cdef int32_t bias = (<int32_t>1) << (shift - 1)
    if ds == 1:
        # contiguous outputs: eight a step where the level has them (rx_windows_u8)
        j = rx_windows_u8(s, starts, wk, window, j0, j1, bias, shift, d)
    for j in range(j, j1):
        d[j * ds] = _clip8(bias + rx_window_u8(s + starts[j], wk + j * window, window), shift)


cdef inline void _phase_windows(const PassDesc* p, const uint8_t* s, uint8_t* d,
                                uint8_t* tmp) noexcept nogil:
    # A window row with a x0.5 or x2 run (plan._window_run): outputs in the run read bytes
    # at a fixed stride with the same weights (per phase at x2), so each phase is one
    # vectorised row (rx_win_phase_u8; at x2 the even and odd rows are zipped); the outputs
    # around the run through their windows. The same integer sums.
    cdef Py_ssize_t n = p.shape[p.ndim - 1], a, b, m = p.hi - p.lo, t
    cdef int16_t w16[8]
    cdef int32_t bias = (<int32_t>1) << (p.shift - 1)
    for t in range(8):
        w16[t] = <int16_t>p.rw[t]
    if p.phase == PHASE_DOWN2:
        a = p.lo
        b = p.hi
        rx_win_phase_u8(s + 2 * p.lo + p.pd[0], 2, w16, p.rk, m, bias, p.shift, d + a)
    else:
        a = 2 * p.lo
        b = 2 * p.hi
        rx_win_phase_u8(s + p.lo + p.pd[0], 1, w16, p.rk, m, bias, p.shift, tmp)
        rx_win_phase_u8(s + p.lo + p.pd[1], 1, w16 + 4, p.rk, m, bias, p.shift, tmp + m)
        rx_zip2_8(tmp, tmp + m, d + a, m, 1)
    _windows(s, d, 1, 0, a, p.k, p.idx2, <const int16_t*>p.wq, p.shift)
    _windows(s, d, 1, b, n, p.k, p.idx2, <const int16_t*>p.wq, p.shift)


cdef inline void _fixed_row(const PassDesc* p, const char* src, char* dst, Py_ssize_t r,
                            int ndim, const int64_t* shape, const int64_t* sstr,
                            const int64_t* dstr, int axis, int loop, const int64_t* ptr,
                            const int64_t* off, const int32_t* w, int shift, int32_t* buf,
                            Py_ssize_t window, const int64_t* starts,
                            const int16_t* wk) noexcept nogil:
    cdef Py_ssize_t rem = r, q, o = 0, j, t, n, c, k
    cdef int64_t so = 0, do = 0, ss, ds
    cdef int d, top = ndim - 3 if loop == 1 else ndim - 2
    cdef int32_t acc, wt, bias = (<int32_t>1) << (shift - 1)
    cdef const char* s
    for d in range(top, -1, -1):
        q = rem % shape[d]
        rem = rem // shape[d]
        do += q * dstr[d]
        if d == axis:
            o = q
        else:
            so += q * sstr[d]
    s = src + so
    ss = sstr[ndim - 1]
    ds = dstr[ndim - 1]
    n = shape[ndim - 1]
    if loop == 0 and window > 0 and p.phase != 0:   # contiguous output row with a run
        _phase_windows(p, <const uint8_t*>s, <uint8_t*>(dst + do), <uint8_t*>buf)
    elif loop == 0 and window > 0:   # innermost, each output a window of bytes (dense int16)
        _windows(<const uint8_t*>s, <uint8_t*>(dst + do), ds, 0, n, window, starts, wk, shift)
    elif loop == 0:    # resampled axis innermost: gather per output element
        for j in range(n):
            acc = bias
            for t in range(ptr[j], ptr[j + 1]):
                acc = acc + w[t] * (<const uint8_t*>(s + off[t]))[0]
            (<uint8_t*>(dst + do + j * ds))[0] = _clip8(acc, shift)
    elif loop == 1 and 1 <= n <= 4 and ss == 1 and ds == 1:   # channels-last pixels
        if n == 1:
            _pixels(<const uint8_t*>s, <uint8_t*>(dst + do), shape[ndim - 2], 1, ptr, off, w,
                    shift)
        elif n == 2:
            _pixels(<const uint8_t*>s, <uint8_t*>(dst + do), shape[ndim - 2], 2, ptr, off, w,
                    shift)
        elif n == 3:
            _pixels(<const uint8_t*>s, <uint8_t*>(dst + do), shape[ndim - 2], 3, ptr, off, w,
                    shift)
        else:
            _pixels(<const uint8_t*>s, <uint8_t*>(dst + do), shape[ndim - 2], 4, ptr, off, w,
                    shift)
    elif loop == 1:    # second-innermost with short rows (channels-last)
        c = n
        n = shape[ndim - 2]
        for j in range(n):
            for k in range(c):
                acc = bias
                for t in range(ptr[j], ptr[j + 1]):
                    acc = acc + w[t] * (<const uint8_t*>(s + off[t] + k * ss))[0]
                (<uint8_t*>(dst + do + (j * c + k) * ds))[0] = _clip8(acc, shift)
    elif ss == 1 and ds == 1:  # outer axis, contiguous rows: loops the compiler vectorises
        for j in range(n):
            buf[j] = bias
        for t in range(ptr[o], ptr[o + 1]):
            wt = w[t]
            for j in range(n):
                buf[j] = buf[j] + wt * (<const uint8_t*>(s + off[t]))[j]
        for j in range(n):
            (<uint8_t*>(dst + do))[j] = _clip8(buf[j], shift)
    else:              # outer axis: blend whole rows
        for j in range(n):
            buf[j] = bias
        for t in range(ptr[o], ptr[o + 1]):
            wt = w[t]
            for j in range(n):
                buf[j] = buf[j] + wt * (<const uint8_t*>(s + off[t] + j * ss))[0]
        for j in range(n):
            (<uint8_t*>(dst + do + j * ds))[0] = _clip8(buf[j], shift)


cdef void _fixed_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                      const void* t2) noexcept nogil:
    cdef const PassJob* j = <const PassJob*>ctx
    cdef const PassDesc* p = j.p
    cdef Py_ssize_t r
    for r in range(lo, hi):
        _fixed_row(p, j.src, j.dst, r, p.ndim, p.shape, p.sstr, p.dstr, p.axis, p.loop, p.ptr,
                   p.off, <const int32_t*>p.w, p.shift, <int32_t*>j.bufs + tid * p.buf_len,
                   p.k, p.idx2, <const int16_t*>p.wq)


cdef void fixed_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                    int nthreads) noexcept nogil:
    """Resample ``p.axis`` of a uint8 array in fixed point (see the module docstring): CSR
    table ``ptr``/``off`` (byte offsets), int32 weights ``w``, ``shift``; ``loop``: 0 =
    ``axis`` innermost, 1 = second-innermost (output rows ``shape[-2]*shape[-1]`` long and
    contiguous in ``dst``), 2 = further out; ``bufs``: ``nthreads`` rows of ``buf_len`` int32.
    Loop 0 with ``k`` > 0: output ``j`` reads the ``k`` bytes from ``idx2[j]`` (a byte offset;
    the window lies inside the input row) with the int16 weights ``wq[j*k : (j+1)*k]``.
    """
    cdef Py_ssize_t rows = 1
    cdef int d
    cdef PassJob j
    for d in range(p.ndim - (2 if p.loop == 1 else 1)):
        rows *= p.shape[d]
    j.p, j.src, j.dst, j.bufs = p, src, dst, bufs
    pool_run(_fixed_body, &j, rows, nthreads)


# ---- the kernel table of this module (the executor picks one per instruction-set level) ----

cdef KernelTable _table
_table.fixed = fixed_run


def kernel_table():
    """This module's entry points (the kernel contract, ``_pass.pxd``) as a PyCapsule named
    ``resamplex.kernels`` holding a ``KernelTable``; the executor (``_exec.pyx``) reads it."""
    return PyCapsule_New(<void*>&_table, b"resamplex.kernels", NULL)

