# cython: language_level=3
"""Block-sum pass over two axes at once: each output averages a rectangle of the input, summed
in a prescribed grouping (docs/engine-passes.md, "block pass").

The source is viewed as ``(outer, H, W, inner)`` and the destination as ``(outer, Ho, Wo,
inner)``; output ``(q, y, x, c)`` reads rows ``[ys[y], ys[y] + cy[y])`` and columns
``[xs[x], xs[x] + cx[x])`` of channel ``c``.

- **Full blocks** (``cy[y] == fh`` and ``cx[x] == fw``): the template's groups, in order. Group
  ``g`` is the elements at byte offsets ``goff[k]`` from the block's first element (``dy *
  s_y + dx * s_x`` for block offset ``(dy, dx)``) for ``k`` in ``[gptr[g], gptr[g+1])``,
  summed left to right in the element's own arithmetic (int64 for
  integer data, float for float32, double for float64); then ``acc = acc + group`` in the
  accumulator type (``acc_kind`` 0 int64, 1 float, 2 double), starting from ``acc = 0``
  (``zero``), or else from the first group's sum (OpenCV's 2x2 float vector path: no
  ``0 + `` that would turn a sum of -0.0 into +0.0).
- **Partial blocks**: the elements one by one in row-major order, ``acc = acc + x``.

Finish, ``fin`` for full blocks and ``pfin`` for partial ones: 0 integer,
``v = ((acc + bias) * mult) >> shift`` with ``(bias_f, mult_f, shift_f)`` for full blocks and
``(bias_p[n], mult_p[n], shift_p)`` for a partial block of ``n`` elements; 1 float32,
2 float64: ``v = T(acc) * T(scale_f)`` for full blocks and, for a partial block of ``n``
elements, ``v = T(acc) * (T(1) / T(n))`` (``pop`` 0) or ``T(acc) / T(n)`` (``pop`` 1), with
``T`` float or double. ``v`` is held in a double (exact for every value an integer finish
gives here, |v| < 2^53) and stored as ``dst_kind``: rounded by ``rounding`` (a no-op on
integer finishes) and saturated for integer kinds, cast for float kinds.

Preconditions: every range in bounds, template offsets inside ``fh x fw``, rows of ``inner``
elements contiguous in both arrays, no overlap; no integer overflow; ``bufs`` has ``nthreads``
rows of ``Wo * inner`` doubles. Entry point: ``block_run``, run by the executor (OP_BLOCK).
"""

from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pool cimport body_fn, run as pool_run
from resamplex._engine._pass cimport BlockArgs, KernelTable, PassDesc

cdef extern from "_blockpass_simd.h" nogil:
    void rx_area2x2_f32(const float* r0, const float* r1, float* out, Py_ssize_t wo,
                        Py_ssize_t c, float scale)

from resamplex._engine._elem cimport (
    E_U8, E_I8, E_U16, E_I16, E_I32, E_F32, E_F64, store_f_row,
)


ctypedef fused in_t:
    uint8_t
    int8_t
    uint16_t
    int16_t
    int32_t
    float
    double


ctypedef fused sum_t:
    int64_t
    float
    double


cdef struct Geom:
    const char* src
    char* dst
    int64_t s_outer, s_y, s_x, d_outer, d_y, d_x
    Py_ssize_t ho, wo, inner, fh, fw, ngroups
    const int64_t* ys
    const int64_t* cy
    const int64_t* xs
    const int64_t* cx
    const int64_t* gptr
    const int64_t* goff
    bint regular          # every column a full block, block x at xs[0] + x * fw


cdef struct Finish:
    int fin, pfin, pop, dst_kind, rounding, zero
    int64_t bias_f, mult_f, shift_f, shift_p
    double scale_f
    const int64_t* bias_p
    const int64_t* mult_p


cdef inline sum_t _full(const in_t* tag, const sum_t* stag, const char* p, const Geom* g,
                        ) noexcept nogil:
    cdef sum_t acc = 0
    cdef Py_ssize_t gi, k
    cdef int64_t si
    cdef float sf
    cdef double sd
    for gi in range(g.ngroups):
        k = g.gptr[gi]
        if in_t is float:
            sf = (<const float*>(p + g.goff[k]))[0]
            for k in range(g.gptr[gi] + 1, g.gptr[gi + 1]):
                sf = sf + (<const float*>(p + g.goff[k]))[0]
            acc = acc + <sum_t>sf
        elif in_t is double:
            sd = (<const double*>(p + g.goff[k]))[0]
            for k in range(g.gptr[gi] + 1, g.gptr[gi + 1]):
                sd = sd + (<const double*>(p + g.goff[k]))[0]
            acc = acc + <sum_t>sd
        else:
            si = (<const in_t*>(p + g.goff[k]))[0]
            for k in range(g.gptr[gi] + 1, g.gptr[gi + 1]):
                si = si + (<const in_t*>(p + g.goff[k]))[0]
            acc = acc + <sum_t>si
    return acc


cdef inline sum_t _partial(const in_t* tag, const sum_t* stag, const char* p, const Geom* g,
                           Py_ssize_t ny, Py_ssize_t nx) noexcept nogil:
    cdef sum_t acc = 0
    cdef Py_ssize_t i, j
    for i in range(ny):
        for j in range(nx):
            acc = acc + <sum_t>(<const in_t*>(p + i * g.s_y + j * g.s_x))[0]
    return acc


cdef inline void _quads(const in_t* tag, const char* p, in_t* d, Py_ssize_t wo,
                        const Py_ssize_t c, int64_t step, const int64_t* o, bint pairs,
                        bint zero, in_t scale) noexcept nogil:
    # Every output of a row of full 2x2 blocks of float data, the blocks `step` bytes apart,
    # c channels (a constant at each call), summed in the template's order: two groups of two
    # elements (pairs) or one group of four, in the data's own type; acc = 0 + sum when the
    # accumulator starts from zero (zero), then times scale, stored as the same type.
    cdef Py_ssize_t x, k
    cdef const char* q
    cdef in_t a
    for x in range(wo):
        for k in range(c):
            q = p + x * step + k * <Py_ssize_t>sizeof(in_t)
            if pairs:
                a = (<const in_t*>(q + o[0]))[0] + (<const in_t*>(q + o[1]))[0]
                if zero:
                    a = 0 + a
                a = a + ((<const in_t*>(q + o[2]))[0] + (<const in_t*>(q + o[3]))[0])
            else:
                a = (((<const in_t*>(q + o[0]))[0] + (<const in_t*>(q + o[1]))[0])
                     + (<const in_t*>(q + o[2]))[0]) + (<const in_t*>(q + o[3]))[0]
                if zero:
                    a = 0 + a
            d[x * c + k] = a * scale


cdef inline bint _quad_row(const in_t* tag, const sum_t* stag, const Geom* g, const Finish* f,
                           const char* row, char* out) noexcept nogil:
    # A row of full 2x2 float blocks with regular columns (Geom.regular) through _quads,
    # straight into the output; False when this row, type or template is not such a row.
    cdef bint pairs = g.ngroups == 2 and g.gptr[1] == 2 and g.gptr[2] == 4
    cdef int64_t step = g.fw * g.s_x
    cdef const char* p = row + g.xs[0] * g.s_x
    if not g.regular or g.fh * g.fw != 4 or not (pairs or (g.ngroups == 1 and g.gptr[1] == 4)):
        return False
    if in_t is float and sum_t is float:
        if f.fin != 1 or f.dst_kind != E_F32:
            return False
        if pairs and not f.zero and g.fw == 2 and g.goff[0] == 0 and g.goff[1] == g.s_x \
                and g.goff[2] == g.s_y and g.goff[3] == g.s_y + g.s_x:
            rx_area2x2_f32(<const float*>p, <const float*>(p + g.s_y), <float*>out, g.wo,
                           g.inner, <float>f.scale_f)
        elif g.inner == 1:
            _quads(tag, p, <float*>out, g.wo, 1, step, g.goff, pairs, f.zero, <float>f.scale_f)
        elif g.inner == 3:
            _quads(tag, p, <float*>out, g.wo, 3, step, g.goff, pairs, f.zero, <float>f.scale_f)
        elif g.inner == 4:
            _quads(tag, p, <float*>out, g.wo, 4, step, g.goff, pairs, f.zero, <float>f.scale_f)
        else:
            _quads(tag, p, <float*>out, g.wo, g.inner, step, g.goff, pairs, f.zero,
                   <float>f.scale_f)
        return True
    elif in_t is double and sum_t is double:
        if f.fin != 2 or f.dst_kind != E_F64:
            return False
        _quads(tag, p, <double*>out, g.wo, g.inner, step, g.goff, pairs, f.zero, f.scale_f)
        return True
    return False


cdef void _row(const in_t* tag, const sum_t* stag, const Geom* g, const Finish* f,
               Py_ssize_t r, void* buf) noexcept nogil:
    cdef Py_ssize_t q = r // g.ho, y = r - q * g.ho, x, c, n, ny = g.cy[y], nx
    cdef const char* row = g.src + q * g.s_outer + g.ys[y] * g.s_y
    cdef const char* p
    cdef bint full
    cdef int fin
    cdef sum_t acc
    cdef double* bd = <double*>buf
    cdef float vf
    cdef double vd
    # Two groups of two elements (OpenCV's 2x2 area: the pairs of each row): read directly
    cdef bint pairs = g.ngroups == 2 and g.gptr[1] == 2 and g.gptr[2] == 4
    cdef int64_t o0 = 0, o1 = 0, o2 = 0, o3 = 0
    if ny == g.fh and _quad_row(tag, stag, g, f, row, g.dst + q * g.d_outer + y * g.d_y):
        return
    if pairs:
        o0, o1, o2, o3 = g.goff[0], g.goff[1], g.goff[2], g.goff[3]
    for x in range(g.wo):
        nx = g.cx[x]
        full = ny == g.fh and nx == g.fw
        n = ny * nx
        for c in range(g.inner):
            p = row + g.xs[x] * g.s_x + c * <Py_ssize_t>sizeof(in_t)
            if full and pairs:
                acc = 0
                if (in_t is float or in_t is double) and not f.zero:
                    acc = <sum_t>((<const in_t*>(p + o0))[0] + (<const in_t*>(p + o1))[0])
                elif in_t is float or in_t is double:
                    acc = acc + <sum_t>((<const in_t*>(p + o0))[0] + (<const in_t*>(p + o1))[0])
                    acc = acc + <sum_t>((<const in_t*>(p + o2))[0] + (<const in_t*>(p + o3))[0])
                else:
                    acc = acc + <sum_t>(<int64_t>(<const in_t*>(p + o0))[0]
                                        + (<const in_t*>(p + o1))[0])
                    acc = acc + <sum_t>(<int64_t>(<const in_t*>(p + o2))[0]
                                        + (<const in_t*>(p + o3))[0])
            elif full:
                acc = _full(tag, stag, p, g)
            else:
                acc = _partial(tag, stag, p, g, ny, nx)
            fin = f.fin if full else f.pfin
            if fin == 0:
                if full:
                    bd[x * g.inner + c] = <double>(((<int64_t>acc + f.bias_f) * f.mult_f)
                                                   >> f.shift_f)
                else:
                    bd[x * g.inner + c] = <double>(((<int64_t>acc + f.bias_p[n]) * f.mult_p[n])
                                                   >> f.shift_p)
            elif fin == 1:
                vf = <float>acc
                if full:
                    vf = vf * <float>f.scale_f
                elif f.pop == 0:
                    vf = vf * (<float>1 / <float>n)
                else:
                    vf = vf / <float>n
                bd[x * g.inner + c] = vf
            else:
                vd = <double>acc
                if full:
                    vd = vd * f.scale_f
                elif f.pop == 0:
                    vd = vd * (1.0 / <double>n)
                else:
                    vd = vd / <double>n
                bd[x * g.inner + c] = vd
    store_f_row(bd, g.dst + q * g.d_outer + y * g.d_y, g.wo * g.inner, f.dst_kind, f.rounding)


cdef struct Rows:
    # what the rows of a parallel pass share (the loop body's context)
    const Geom* g
    const Finish* f
    char* bufs
    Py_ssize_t blen


cdef void _row_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const in_t* t1,
                    const sum_t* t2) noexcept nogil:
    cdef const Rows* j = <const Rows*>ctx
    cdef Py_ssize_t r
    for r in range(lo, hi):
        _row(t1, t2, j.g, j.f, r, j.bufs + tid * j.blen * 8)


cdef void _run(const in_t* tag, const sum_t* stag, const Geom* g, const Finish* f,
               Py_ssize_t items, char* bufs, Py_ssize_t blen, int nthreads) noexcept nogil:
    cdef Rows j
    j.g, j.f, j.bufs, j.blen = g, f, bufs, blen
    pool_run(<body_fn>_row_body[in_t, sum_t], &j, items, nthreads)


cdef void _dispatch(const sum_t* stag, int src_kind, const Geom* g, const Finish* f,
                    Py_ssize_t items, char* bufs, Py_ssize_t blen, int nthreads) noexcept nogil:
    if src_kind == E_U8:
        _run(<const uint8_t*>NULL, stag, g, f, items, bufs, blen, nthreads)
    elif src_kind == E_I8:
        _run(<const int8_t*>NULL, stag, g, f, items, bufs, blen, nthreads)
    elif src_kind == E_U16:
        _run(<const uint16_t*>NULL, stag, g, f, items, bufs, blen, nthreads)
    elif src_kind == E_I16:
        _run(<const int16_t*>NULL, stag, g, f, items, bufs, blen, nthreads)
    elif src_kind == E_I32:
        _run(<const int32_t*>NULL, stag, g, f, items, bufs, blen, nthreads)
    elif src_kind == E_F32:
        _run(<const float*>NULL, stag, g, f, items, bufs, blen, nthreads)
    else:
        _run(<const double*>NULL, stag, g, f, items, bufs, blen, nthreads)


cdef void block_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                    int nthreads) noexcept nogil:
    """Average blocks as the module docstring says (the kernel contract, ``_pass.pxd``:
    OP_BLOCK, its geometry and finish in ``p.blk``; ``shape`` = ``(outer, Ho, Wo, inner)``,
    ``sstr``/``dstr`` the strides over ``(outer, y, x)``); ``bufs``: ``nthreads`` rows of
    ``buf_len`` doubles (``Wo * inner``)."""
    cdef Geom g
    cdef Finish f
    cdef const BlockArgs* b = &p.blk
    cdef Py_ssize_t x, items = p.shape[0] * p.shape[1]
    g.src = src
    g.dst = dst
    g.s_outer, g.s_y, g.s_x = p.sstr[0], p.sstr[1], p.sstr[2]
    g.d_outer, g.d_y, g.d_x = p.dstr[0], p.dstr[1], p.dstr[2]
    g.ho, g.wo, g.inner, g.fh, g.fw = p.shape[1], p.shape[2], p.shape[3], b.fh, b.fw
    g.ngroups = b.ngroups
    g.ys, g.cy, g.xs, g.cx, g.gptr, g.goff = b.ys, b.cy, b.xs, b.cx, b.gptr, b.goff
    f.fin, f.pfin, f.pop, f.dst_kind, f.rounding = b.fin, b.pfin, b.pop, p.dst_kind, p.rounding
    f.zero = b.zero
    f.bias_f, f.mult_f, f.shift_f, f.shift_p = b.bias_f, b.mult_f, b.shift_f, b.shift_p
    f.scale_f = b.scale_f
    f.bias_p = b.bias_p
    f.mult_p = b.mult_p
    g.regular = True
    for x in range(g.wo):
        if g.cx[x] != g.fw or g.xs[x] != g.xs[0] + x * g.fw:
            g.regular = False
            break
    if b.acc_kind == 0:
        _dispatch(<const int64_t*>NULL, p.src_kind, &g, &f, items, <char*>bufs, p.buf_len,
                  nthreads)
    elif b.acc_kind == 1:
        _dispatch(<const float*>NULL, p.src_kind, &g, &f, items, <char*>bufs, p.buf_len,
                  nthreads)
    else:
        _dispatch(<const double*>NULL, p.src_kind, &g, &f, items, <char*>bufs, p.buf_len,
                  nthreads)


cdef KernelTable _table
_table.block = block_run


def kernel_table():
    """This module's entry point (the kernel contract, ``_pass.pxd``) as a PyCapsule named
    ``resamplex.kernels`` holding a ``KernelTable``; the executor (``_exec.pyx``) reads it."""
    return PyCapsule_New(<void*>&_table, b"resamplex.kernels", NULL)
