# cython: language_level=3
"""Tensor-product pass: up to three adjacent axes resampled at once, non-separably
(docs/engine-passes.md, "product pass").

The source is viewed as ``(outer, D, H, W, inner)`` and the destination as ``(outer, Do, Ho,
Wo, inner)`` (a two-axis product uses ``D = Do = 1`` with one tap of weight 1). Output
``(q, z, y, x, c)`` reads the cartesian product of the CSR taps of ``z``, ``y`` and ``x``,
nested in that order (``x`` fastest). For each term, the coefficient is the product of the
three tap weights taken in the order ``perm`` (``c = w[perm[0]]; c = c * w[perm[1]];
c = c * w[perm[2]]``, with 0 = D, 1 = H, 2 = W), and ``term = c * (acc_t)x``; the terms are
summed in order (``acc = term_0; acc = acc + term_k``), all in the accumulator type (float or
double), with no fused multiply-add. The value is stored as ``dst_kind`` like the float pass
does (``_elem.store_f_row``).

This is the arithmetic of kernels that weigh each of the ``2^k`` corners by the product of
per-axis weights instead of running one pass per axis; the rounding differs from separable
passes, so it needs its own variant.

Preconditions: tables in range, rows of ``inner`` elements contiguous in both arrays, no
overlap; ``bufs`` has ``nthreads`` rows of ``Wo * inner`` accumulators; weights in ``acc_t``.
Entry point: ``product_run``, run by the executor (OP_PRODUCT).
"""

from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pool cimport body_fn, run as pool_run
from resamplex._engine._pass cimport C_DOUBLE, KernelTable, PassDesc, ProductArgs

from libc.stdlib cimport free

from resamplex._engine._fused cimport f16_t
from resamplex._engine._elem cimport (
    E_U8, E_I8, E_U16, E_I16, E_I32, E_F16, E_F32, acc_t, load_t, load_as, store_f_row,
)


cdef extern from "_prodpass_simd.h" nogil:
    int32_t* rx_dense_f32_layout(Py_ssize_t n, const int64_t* idx, int64_t n_in, Py_ssize_t k)
    void rx_prod2_f32(const float* row, float* buf, Py_ssize_t n, const int64_t* idx,
                      const float* w, float a, float b, int where, int first,
                      const int32_t* tab)


cdef struct Geom:
    const char* src
    char* dst
    int64_t s_o, s_d, s_h, s_w, d_o, d_d, d_h, d_w
    Py_ssize_t do_, ho, wo, inner
    const int64_t* pd
    const int64_t* id_
    const int64_t* ph
    const int64_t* ih
    const int64_t* pw
    const int64_t* iw
    int p0, p1, p2, dst_kind, rounding
    # float32 single elements, every output two W taps: the W table's blocks laid out once
    # for the pass (rx_dense2_f32_prep), or NULL
    const int32_t* pre


cdef inline acc_t _coef(int where, acc_t wt, acc_t a, acc_t b) noexcept nogil:
    # a term's coefficient, the W weight `wt` at its place in the product (_row's `where`)
    if where == 0:
        return (wt * a) * b
    if where == 1:
        return (a * wt) * b
    return (a * b) * wt


cdef void _row(const load_t* tag, const acc_t* wd, const acc_t* wh, const acc_t* ww,
               const Geom* g, Py_ssize_t r, acc_t* buf) noexcept nogil:
    # The (z, y) tap pairs are the outer loops and the outputs x the inner one: for every
    # output the terms still come in (z, y, x)-tap order, and the row address and the product
    # of the fixed weights are computed once per pair instead of once per term.
    cdef Py_ssize_t plane = g.do_ * g.ho
    cdef Py_ssize_t q = r // plane, rem = r - q * plane
    cdef Py_ssize_t z = rem // g.ho, y = rem - z * g.ho, x, c, td, th, tw, k
    cdef const char* base = g.src + q * g.s_o
    cdef const char* row
    cdef const load_t* p
    cdef acc_t a, b, coef, term, total
    cdef int where  # position of the W weight in the product: 0 first, 1 second, 2 last
    cdef bint first_pair = True
    where = 0 if g.p0 == 2 else (1 if g.p1 == 2 else 2)
    for x in range(g.wo):
        if g.pw[x + 1] == g.pw[x]:  # no taps on this output: 0
            for c in range(g.inner):
                buf[x * g.inner + c] = 0
    for td in range(g.pd[z], g.pd[z + 1]):
        for th in range(g.ph[y], g.ph[y + 1]):
            # the two fixed weights, in product order
            if (g.p0 == 0) or (g.p0 == 2 and g.p1 == 0):
                a = wd[td]
                b = wh[th]
            else:
                a = wh[th]
                b = wd[td]
            row = base + g.id_[td] * g.s_d + g.ih[th] * g.s_h
            if load_t is float and acc_t is float and g.pre != NULL:
                # float32 elements, two W taps on every output: vectors of outputs over the
                # laid-out blocks (_dense_f32.h), the same products and sums in the same order
                rx_prod2_f32(<const float*>row, buf, g.wo, g.iw, ww, a, b, where,
                             first_pair, g.pre)
                first_pair = False
                continue
            if g.inner == 1:
                # single elements (NCHW): an output's terms of this pair summed in a
                # register, the same additions in the same order
                for x in range(g.wo):
                    tw = g.pw[x]
                    if tw == g.pw[x + 1]:
                        continue
                    if first_pair:
                        total = _coef(where, ww[tw], a, b) * load_as(
                            <const load_t*>(row + g.iw[tw] * g.s_w), 0, wd)
                        tw = tw + 1
                    else:
                        total = buf[x]
                    for tw in range(tw, g.pw[x + 1]):
                        total = total + _coef(where, ww[tw], a, b) * load_as(
                            <const load_t*>(row + g.iw[tw] * g.s_w), 0, wd)
                    buf[x] = total
                first_pair = False
                continue
            for x in range(g.wo):
                for tw in range(g.pw[x], g.pw[x + 1]):
                    coef = _coef(where, ww[tw], a, b)
                    p = <const load_t*>(row + g.iw[tw] * g.s_w)
                    k = x * g.inner
                    if first_pair and tw == g.pw[x]:
                        for c in range(g.inner):
                            buf[k + c] = coef * load_as(p, c, wd)
                    else:
                        for c in range(g.inner):
                            term = coef * load_as(p, c, wd)
                            buf[k + c] = buf[k + c] + term
            first_pair = False
    if first_pair:  # no (z, y) taps at all: every output is 0
        for x in range(g.wo * g.inner):
            buf[x] = 0
    store_f_row(buf, g.dst + q * g.d_o + z * g.d_d + y * g.d_h, g.wo * g.inner, g.dst_kind,
                g.rounding)


cdef struct Rows:
    # what the rows of a parallel pass share (the loop body's context; weights untyped)
    const void* wd
    const void* wh
    const void* ww
    const Geom* g
    void* bufs
    Py_ssize_t blen


cdef void _row_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const load_t* t1,
                    const acc_t* t2) noexcept nogil:
    cdef const Rows* j = <const Rows*>ctx
    cdef Py_ssize_t r
    for r in range(lo, hi):
        _row(t1, <const acc_t*>j.wd, <const acc_t*>j.wh, <const acc_t*>j.ww, j.g, r,
             <acc_t*>j.bufs + tid * j.blen)


cdef void _run(const load_t* tag, const acc_t* wd, const acc_t* wh, const acc_t* ww,
               const Geom* g, Py_ssize_t items, acc_t* bufs, Py_ssize_t blen,
               int nthreads) noexcept nogil:
    cdef Rows j
    j.wd, j.wh, j.ww, j.g, j.bufs, j.blen = wd, wh, ww, g, bufs, blen
    pool_run(<body_fn>_row_body[load_t, acc_t], &j, items, nthreads)


cdef void _dispatch(int src_kind, const acc_t* wd, const acc_t* wh, const acc_t* ww,
                    const Geom* g, Py_ssize_t items, acc_t* bufs, Py_ssize_t blen,
                    int nthreads) noexcept nogil:
    if src_kind == E_U8:
        _run(<const uint8_t*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)
    elif src_kind == E_I8:
        _run(<const int8_t*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)
    elif src_kind == E_U16:
        _run(<const uint16_t*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)
    elif src_kind == E_I16:
        _run(<const int16_t*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)
    elif src_kind == E_I32:
        _run(<const int32_t*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)
    elif src_kind == E_F16:
        _run(<const f16_t*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)
    elif src_kind == E_F32:
        _run(<const float*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)
    else:
        _run(<const double*>NULL, wd, wh, ww, g, items, bufs, blen, nthreads)


cdef void product_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                      int nthreads) noexcept nogil:
    """Resample up to three adjacent axes as the module docstring says (the kernel contract,
    ``_pass.pxd``: OP_PRODUCT, the tables in ``p.prod``; ``shape`` = ``(outer, Do, Ho, Wo,
    inner)``, ``sstr``/``dstr`` the strides over ``(outer, d, h, w)``); weights and ``bufs``
    (``nthreads`` rows of ``buf_len`` = ``Wo * inner``) in the accumulator ``compute``."""
    cdef Geom g
    cdef const ProductArgs* a = &p.prod
    g.src = src
    g.dst = dst
    g.s_o, g.s_d, g.s_h, g.s_w = p.sstr[0], p.sstr[1], p.sstr[2], p.sstr[3]
    g.d_o, g.d_d, g.d_h, g.d_w = p.dstr[0], p.dstr[1], p.dstr[2], p.dstr[3]
    g.do_, g.ho, g.wo, g.inner = p.shape[1], p.shape[2], p.shape[3], p.shape[4]
    g.pd, g.id_, g.ph, g.ih, g.pw, g.iw = a.pd, a.id_, a.ph, a.ih, a.pw, a.iw
    g.p0, g.p1, g.p2 = a.p0, a.p1, a.p2
    g.dst_kind, g.rounding = p.dst_kind, p.rounding
    cdef Py_ssize_t items = p.shape[0] * g.do_ * g.ho, x
    cdef int64_t n_in = 0
    cdef bint dense2 = p.compute != C_DOUBLE and p.src_kind == E_F32 and g.inner == 1 \
        and g.s_w == sizeof(float) and g.wo > 0
    g.pre = NULL
    if dense2:
        for x in range(g.wo + 1):
            if g.pw[x] != 2 * x:
                dense2 = False
                break
    if dense2:
        for x in range(2 * g.wo):
            if g.iw[x] + 1 > n_in:
                n_in = g.iw[x] + 1
        g.pre = rx_dense_f32_layout(g.wo, g.iw, n_in, 2)
    if p.compute == C_DOUBLE:
        _dispatch(p.src_kind, <const double*>a.wd, <const double*>a.wh, <const double*>a.ww,
                  &g, items, <double*>bufs, p.buf_len, nthreads)
    else:
        _dispatch(p.src_kind, <const float*>a.wd, <const float*>a.wh, <const float*>a.ww,
                  &g, items, <float*>bufs, p.buf_len, nthreads)
    free(<void*>g.pre)


cdef KernelTable _table
_table.product = product_run


def kernel_table():
    """This module's entry point (the kernel contract, ``_pass.pxd``) as a PyCapsule named
    ``resamplex.kernels`` holding a ``KernelTable``; the executor (``_exec.pyx``) reads it."""
    return PyCapsule_New(<void*>&_table, b"resamplex.kernels", NULL)
