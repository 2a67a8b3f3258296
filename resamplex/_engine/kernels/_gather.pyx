# cython: language_level=3
"""Nearest-neighbour gather: one pass over the output for any fixed-size dtype.

Entry point: ``gather_run`` (the kernel contract, ``_pass.pxd``), called by the executor.

Preconditions (the planner guarantees them; nothing here is checked):
- ``shape`` is the output shape in iteration order (innermost axis last), every entry >= 1,
  ``1 <= ndim <= 64``;
- ``dst_strides`` are the output's byte strides in the same order, and the output does not
  overlap the input;
- ``offsets[starts[d] + i]`` is the byte offset, relative to ``src``, of the input element that
  output index ``i`` of axis ``d`` reads (index already clamped, times the input's byte stride),
  and ``starts[d + 1] - starts[d] == shape[d]``; or, for an axis that is copied,
  ``starts[d + 1] == starts[d]`` and output index ``i`` reads ``i * src_strides[d]`` (no table,
  so a copied axis of 2^31 elements costs nothing);
- ``itemsize`` bytes at every such address are readable, at every output address writable;
- ``k`` (the kernel contract's field) > 1 only when the innermost axis repeats each input
  element ``k`` times (integer-factor upsampling: output ``i`` reads input ``i // k``),
  ``itemsize`` is 1, 2, 4 or 8 and both rows are contiguous; the row is then written by
  duplication rather than through the table;
- ``n_in`` (wide) > 0 only with ``n_mid`` (width) 4, 8, 16 or 32 (the power of two at or
  above a pixel of 3, 5-7, 9-15 or 17-31 bytes) or 128 (pixels of 2, 4 or 8 bytes, every
  output one tap), a table on the innermost axis and contiguous input and output rows of
  ``itemsize``-byte pixels: for each of the first ``wide`` outputs ``o`` of a row, ``width``
  bytes from ``offsets[o]`` stay inside the input row and ``min(width, 64)`` bytes from
  ``o * itemsize`` inside the output row.

- ``channels`` (the kernel contract's field) > 1: each element is a pixel of ``channels``
  elements of ``itemsize / channels`` bytes, contiguous in the output and ``estride`` bytes
  apart in the input (offsets and strides locate its first element); ``k`` is then 1, there
  is no halving run and no wide move.
- ``plus_zero`` (the kernel contract's field) 4 or 8: each element (pixel) is float32 or
  float64 values next to each other, aligned in the output, and each is stored as ``0.0 + v``.

Elements are moved as bytes (memcpy of a constant size, which compilers turn into one load and
one store), so the copy is bit-exact for every dtype, NaN payloads included.
With ``plus_zero`` each output row just written is then swept once more, while it is in cache,
adding 0.0 to every float: SciPy's order 0 (``t = 0.0 + v``, stored), -0.0 made +0.0 and a
signalling NaN quiet, every other value unchanged.
"""

from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pass cimport KernelTable, PassDesc, PassJob, PHASE_DOWN2
from resamplex._engine._pool cimport run as pool_run


cdef extern from "_gather_simd.h" nogil:
    void rx_repeat(const char* s, char* d, Py_ssize_t n, Py_ssize_t f, Py_ssize_t itemsize)
    void rx_gather_pixels(const char* s, char* d, Py_ssize_t n, const int64_t* off,
                          Py_ssize_t p, Py_ssize_t wide, Py_ssize_t width)
    void rx_even_pixels(const char* s, char* d, Py_ssize_t n, Py_ssize_t p)
    void rx_reverse3(const char* s, char* d, Py_ssize_t n)


cdef inline void _strided_pixels(const char* s, char* d, Py_ssize_t n, const int64_t* off,
                                 int64_t ss, int64_t ds, Py_ssize_t c, Py_ssize_t e,
                                 int64_t es) noexcept nogil:
    # Pixels of c elements of e bytes whose elements lie es bytes apart in the input (a
    # reversed or spaced channel axis: BGR read as RGB, RGB out of RGBA) and next to each
    # other in the output: pixel o reads s + off[o] (s + o * ss without a table).
    cdef Py_ssize_t o, k
    cdef const char* p
    cdef char* q
    if off == NULL and e == 1 and c == 3 and es == -1 and ss == 3 and ds == 3:
        rx_reverse3(s - 2, d, n)  # a whole BGR row viewed as RGB (s: its first view element)
    elif e == 1 and c == 3:
        for o in range(n):
            p = s + (off[o] if off != NULL else o * ss)
            q = d + o * ds
            q[0] = p[0]
            q[1] = p[es]
            q[2] = p[2 * es]
    elif e == 1:
        for o in range(n):
            p = s + (off[o] if off != NULL else o * ss)
            q = d + o * ds
            for k in range(c):
                q[k] = p[k * es]
    elif e == 2:
        for o in range(n):
            p = s + (off[o] if off != NULL else o * ss)
            q = d + o * ds
            for k in range(c):
                memcpy(q + 2 * k, p + k * es, 2)
    elif e == 4:
        for o in range(n):
            p = s + (off[o] if off != NULL else o * ss)
            q = d + o * ds
            for k in range(c):
                memcpy(q + 4 * k, p + k * es, 4)
    elif e == 8:
        for o in range(n):
            p = s + (off[o] if off != NULL else o * ss)
            q = d + o * ds
            for k in range(c):
                memcpy(q + 8 * k, p + k * es, 8)
    else:
        for o in range(n):
            p = s + (off[o] if off != NULL else o * ss)
            q = d + o * ds
            for k in range(c):
                memcpy(q + e * k, p + k * es, e)


cdef inline void _move_elements(const char* s, char* d, Py_ssize_t n, const int64_t* off,
                                int64_t ss, int64_t ds, Py_ssize_t itemsize) noexcept nogil:
    # Elements (whole pixels) that are not contiguous on both sides: element o reads s +
    # off[o] (s + o * ss without a table) and goes to d + o * ds; constant-size moves for the
    # common sizes (every dtype, and RGB and RGBA pixels of them).
    cdef Py_ssize_t o
    if itemsize == 1:
        for o in range(n):
            d[o * ds] = s[off[o] if off != NULL else o * ss]
    elif itemsize == 2:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 2)
    elif itemsize == 3:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 3)
    elif itemsize == 4:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 4)
    elif itemsize == 6:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 6)
    elif itemsize == 8:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 8)
    elif itemsize == 12:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 12)
    elif itemsize == 16:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 16)
    else:
        for o in range(n):
            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), itemsize)


cdef inline void _plus_zero(char* d, Py_ssize_t n, int64_t ds, Py_ssize_t itemsize,
                            int e) noexcept nogil:
    # v = v + 0.0 on every e-byte float of the n elements (itemsize bytes, ds apart) at d: one
    # run where they are contiguous. (The build keeps x + 0.0: no -ffast-math.)
    cdef Py_ssize_t o, i, m = itemsize // e
    cdef float* f
    cdef double* g
    if ds == itemsize:
        m *= n
        n = 1
    for o in range(n):
        if e == 4:
            f = <float*>(d + o * ds)
            for i in range(m):
                f[i] = f[i] + <float>0.0
        else:
            g = <double*>(d + o * ds)
            for i in range(m):
                g[i] = g[i] + 0.0


cdef inline void _gather_row(const char* s, char* d, Py_ssize_t n, const int64_t* off,
                             int64_t ss, int64_t ds, Py_ssize_t itemsize,
                             Py_ssize_t rep, Py_ssize_t wide, Py_ssize_t width,
                             const PassDesc* half, Py_ssize_t c, int64_t es) noexcept nogil:
    # One output row. With a table (off != NULL) element o reads s + off[o], else s + o * ss;
    # c > 1: elements are pixels of c elements es bytes apart in the input (_strided_pixels);
    # rep > 1: the row repeats each element of a contiguous input row rep times; a contiguous
    # output row through a table is a row of whole pixels (rx_gather_pixels: the first `wide`
    # moved `width` bytes at a time).
    # The branch on itemsize is taken once per row, outside the loops.
    if c > 1:
        _strided_pixels(s, d, n, off, ss, ds, c, itemsize // c, es)
    elif rep > 1:
        rx_repeat(s, d, n // rep, rep, itemsize)
    elif off != NULL and ds == itemsize and half is not NULL:
        # a halving run: outputs [lo, hi) read every other pixel from off[lo]
        rx_gather_pixels(s, d, half.lo, off, itemsize, 0, 0)
        rx_even_pixels(s + off[half.lo], d + half.lo * itemsize, half.hi - half.lo, itemsize)
        rx_gather_pixels(s, d + half.hi * itemsize, n - half.hi, off + half.hi, itemsize, 0, 0)
    elif off != NULL and ds == itemsize:
        rx_gather_pixels(s, d, n, off, itemsize, wide, width)
    elif off == NULL and ss == itemsize and ds == itemsize:
        memcpy(d, s, n * itemsize)
    else:
        _move_elements(s, d, n, off, ss, ds, itemsize)


cdef inline void _gather_rows(const char* src, char* dst, Py_ssize_t r0, Py_ssize_t r1,
                              int ndim, const int64_t* shape, const int64_t* sstr,
                              const int64_t* dstr, const int64_t* offsets,
                              const int64_t* starts, Py_ssize_t itemsize,
                              Py_ssize_t rep, Py_ssize_t wide, Py_ssize_t width,
                              const PassDesc* half, Py_ssize_t c, int64_t es,
                              int plus_zero) noexcept nogil:
    # Rows [r0, r1) of the output (all axes but the last, in C order). A row that reads the
    # same input row as the one before it (upsampling an outer axis) is a copy of the output
    # row just written, when rows are contiguous: one memcpy instead of a gather. plus_zero:
    # each row gathered then gets its + 0.0 (_plus_zero); a copied row has it already.
    cdef Py_ssize_t r, rem, q
    cdef int64_t so, do, prev_so = -1, prev_do = 0
    cdef int d
    cdef Py_ssize_t n = shape[ndim - 1]
    cdef int64_t ds = dstr[ndim - 1]
    cdef bint contiguous = ds == itemsize
    cdef const int64_t* last = NULL
    if starts[ndim] > starts[ndim - 1]:
        last = offsets + starts[ndim - 1]
    for r in range(r0, r1):
        rem = r
        so = 0
        do = 0
        for d in range(ndim - 2, -1, -1):
            q = rem % shape[d]
            rem = rem // shape[d]
            if starts[d + 1] > starts[d]:
                so += offsets[starts[d] + q]
            else:
                so += q * sstr[d]
            do += q * dstr[d]
        if contiguous and r > r0 and so == prev_so:
            memcpy(dst + do, dst + prev_do, n * itemsize)
        else:
            _gather_row(src + so, dst + do, n, last, sstr[ndim - 1], ds, itemsize, rep, wide,
                        width, half, c, es)
            if plus_zero:
                _plus_zero(dst + do, n, ds, itemsize, plus_zero)
        prev_so = so
        prev_do = do


cdef void _gather_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                       const void* t2) noexcept nogil:
    cdef const PassJob* j = <const PassJob*>ctx
    cdef const PassDesc* p = j.p
    _gather_rows(j.src, j.dst, lo, hi, p.ndim, p.shape, p.sstr, p.dstr,
                 p.off if p.idx2[p.ndim] > 0 else NULL, p.idx2, p.itemsize, p.k, p.n_in,
                 p.n_mid, p if p.phase == PHASE_DOWN2 else NULL, p.channels, p.estride,
                 p.plus_zero)


cdef void gather_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                     int nthreads) noexcept nogil:
    """Copy ``dst[o_0, ..., o_n] = src[offset of o_0 + ... + offset of o_n]`` (the kernel
    contract, ``_pass.pxd``: ``off`` = offsets, ``idx2`` = starts, ``itemsize``; ``n_in``
    and ``n_mid``: the wide moves of ``rx_gather_pixels``; ``phase`` PHASE_DOWN2: outputs
    ``[lo, hi)`` of each contiguous row read every other pixel, the pixel after the last one
    inside the row too, ``rx_even_pixels``).

    The pool (``_pool.h``) hands out contiguous runs of rows, so each run can reuse the rows
    it just wrote.
    """
    cdef Py_ssize_t rows = 1
    cdef int d
    cdef PassJob j
    for d in range(p.ndim - 1):
        rows *= p.shape[d]
    j.p, j.src, j.dst = p, src, dst
    pool_run(_gather_body, &j, rows, nthreads)


# ---- the kernel table of this module (the executor picks one per instruction-set level) ----

cdef KernelTable _table
_table.gather = gather_run


def kernel_table():
    """This module's entry points (the kernel contract, ``_pass.pxd``) as a PyCapsule named
    ``resamplex.kernels`` holding a ``KernelTable``; the executor (``_exec.pyx``) reads it."""
    return PyCapsule_New(<void*>&_table, b"resamplex.kernels", NULL)

