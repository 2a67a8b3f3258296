# cython: language_level=3
"""Fixed-point uint8 pass: integer weights, int32 accumulation, a rounding bias and a shift.

This is the arithmetic of PyTorch's CPU uint8 ``bilinear``/``bicubic`` kernels (and of Pillow and
OpenCV's 8-bit paths): ``acc = 2^(shift-1) + sum_t w[t] * x[t]`` in int32, then
``clamp(acc >> shift, 0, 255)`` with an arithmetic (flooring) shift. Each pass writes uint8, so a
multi-axis resize rounds between passes, exactly like the convention it reproduces.

Preconditions (the facade guarantees them; nothing here is checked):
- ``shape`` is this pass's output shape in iteration order, every entry >= 1;
- byte strides in the same order; input and output are uint8 and do not overlap;
- CSR taps: output ``o`` of ``axis`` reads byte offsets ``offsets[t]`` for ``t`` in
  ``[ptr[o], ptr[o+1])`` with integer weights ``w[t]``; ``1 <= shift <= 30`` and
  ``sum |w| * 255 + 2^(shift-1)`` fits in int32 (|w| < 2^15 and at most 2^8 taps does);
- ``bufs`` has ``nthreads`` rows of ``shape[-1]`` int32 (or ``shape[-2] * shape[-1]`` for the
  channels-last loop shape).
"""

from cython.parallel cimport prange, threadid
from libc.stdint cimport int32_t, int64_t, uint8_t


cdef inline uint8_t _clip8(int32_t acc, int shift) noexcept nogil:
    acc = acc >> shift
    return <uint8_t>(0 if acc < 0 else (255 if acc > 255 else acc))


cdef inline void _fixed_row(const char* src, char* dst, Py_ssize_t r, int ndim,
                            const int64_t* shape, const int64_t* sstr, const int64_t* dstr,
                            int axis, int loop, const int64_t* ptr, const int64_t* off,
                            const int32_t* w, int shift, int32_t* buf) noexcept nogil:
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
    if loop == 0:      # resampled axis innermost: gather per output element
        for j in range(n):
            acc = bias
            for t in range(ptr[j], ptr[j + 1]):
                acc = acc + w[t] * (<const uint8_t*>(s + off[t]))[0]
            (<uint8_t*>(dst + do + j * ds))[0] = _clip8(acc, shift)
    elif loop == 1:    # second-innermost with short rows (channels-last)
        c = n
        n = shape[ndim - 2]
        for j in range(n):
            for k in range(c):
                acc = bias
                for t in range(ptr[j], ptr[j + 1]):
                    acc = acc + w[t] * (<const uint8_t*>(s + off[t] + k * ss))[0]
                (<uint8_t*>(dst + do + (j * c + k) * ds))[0] = _clip8(acc, shift)
    else:              # outer axis: blend whole rows
        for j in range(n):
            buf[j] = bias
        for t in range(ptr[o], ptr[o + 1]):
            wt = w[t]
            for j in range(n):
                buf[j] = buf[j] + wt * (<const uint8_t*>(s + off[t] + j * ss))[0]
        for j in range(n):
            (<uint8_t*>(dst + do + j * ds))[0] = _clip8(buf[j], shift)


def fixed_pass(size_t src, const int64_t[::1] src_strides, size_t dst,
               const int64_t[::1] dst_strides, const int64_t[::1] shape, int axis, int loop,
               const int64_t[::1] ptr, const int64_t[::1] offsets, const int32_t[::1] weights,
               int shift, int32_t[:, ::1] bufs, int nthreads):
    """Resample ``axis`` of a uint8 array in fixed point (see the module docstring).

    ``loop``: 0 = ``axis`` innermost, 1 = second-innermost (output rows ``shape[-2]*shape[-1]``
    long and contiguous in ``dst``), 2 = further out. GIL released.
    """
    cdef int ndim = shape.shape[0]
    cdef Py_ssize_t rows = 1, r, buf_len = bufs.shape[1]
    cdef int d
    cdef const char* s = <const char*>src
    cdef char* t = <char*>dst
    cdef const int64_t* of = &offsets[0] if offsets.shape[0] else NULL
    cdef const int32_t* w = &weights[0] if weights.shape[0] else NULL
    for d in range(ndim - (2 if loop == 1 else 1)):
        rows *= shape[d]
    with nogil:
        for r in prange(rows, num_threads=nthreads, schedule="static"):
            _fixed_row(s, t, r, ndim, &shape[0], &src_strides[0], &dst_strides[0], axis, loop,
                       &ptr[0], of, w, shift, &bufs[0, 0] + threadid() * buf_len)
