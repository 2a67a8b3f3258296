# cython: language_level=3
"""Float tap pass with a chosen accumulator, association order and store rounding
(docs/engine-passes.md, "float pass").

For output ``o`` of the resampled axis and every element ``j`` of the inner row, with the taps
``t0 < t1 < ... < tk`` of ``o`` and ``p_t = w[t] * (acc_t)x_t[j]`` (one rounding each, in the
accumulator type ``acc_t``, float or double; no fused multiply-add)::

    order 0, sequential:         acc = p_t0;  acc = acc + p_t1;  ...;  acc = acc + p_tk
    order 1, sequential from 0:  acc = 0;     acc = acc + p_t0;  ...;  acc = acc + p_tk
    order 2, nested:             acc = p_tk;  acc = p_t(k-1) + acc;  ...;  acc = p_t0 + acc
    order 3, pairs:              acc = p_t0;  then for each pair (a, b) = (t1, t2), (t3, t4), ...
                                 acc = acc + (x_a + x_b) * w[a]   if w[b] == w[a]
                                 acc = acc + (x_a - x_b) * w[a]   if w[b] == -w[a]
                                 acc = acc + x_a * w[a]           otherwise (x_b not read)
                                 and a last unpaired tap as order 0 does

Order 3 is SciPy's symmetric and antisymmetric correlation (``NI_Correlate1D``: the centre,
then each pair of taps at the same distance summed before it is weighted); ``div`` is not
used with it.

With per-output divisors ``div`` (optional), every product is instead ``(w[t] * x_t[j]) / div[o]``
(two roundings). An output without taps is 0. The value is then stored as ``dst_kind``: a float cast (round to
nearest) for float kinds, else rounded by ``rounding`` (0 half-even, 1 half away from zero,
2 toward zero, 3 ``trunc(v +- 0.5)`` in ``acc_t``) and saturated (NaN -> 0). Storing into an
integer or float32 kind between passes is how a pipeline rounds to its storage type per pass.

The source element is converted to ``acc_t`` first (exact for integers up to 2^24 in float;
float16 through float).

Preconditions: as ``_intpass`` (``(outer, n_in, inner)`` views with contiguous rows, CSR taps
in range, no overlap), weights given in ``acc_t``; ``bufs`` rows of ``inner`` (``loop == 0``)
or ``n_out * inner`` (``loop == 1``) elements of ``acc_t``.
"""

from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t
from libc.math cimport INFINITY
from libc.stdlib cimport free
from libc.string cimport memmove, memset

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pool cimport body_fn, run as pool_run
from resamplex._engine._pass cimport (
    C_DOUBLE, KernelTable, PAIRS_MAX, PassDesc, PassJob, PHASE_RUN, PHASE_UP2,
)

cdef extern from "_floatpass_simd.h" nogil:
    bint rx_short_k_f32(const char* base, Py_ssize_t n_out, int c, int64_t s,
                        const int64_t* ptr, const int64_t* idx, const float* w, int order,
                        float* acc)
    void rx_phase2_f32(const float* v, float* e, Py_ssize_t n, Py_ssize_t da, Py_ssize_t db,
                       float wa, float wb)
    void rx_zip2_f32(const float* a, const float* b, float* out, Py_ssize_t npix,
                     Py_ssize_t c)
    void rx_pairs_f64(double* d, const double* const* x, const double* w, const int* sign,
                      Py_ssize_t k, Py_ssize_t n)
    void rx_dense2_f32(const float* tmp, float* out, Py_ssize_t n, const int64_t* idx,
                       const float* w)
    int32_t* rx_dense_f32_layout(Py_ssize_t n, const int64_t* idx, int64_t n_in, Py_ssize_t k)
    void rx_dense4_f32_pre(const float* tmp, float* out, Py_ssize_t n, const int64_t* idx,
                           const float* w, const int32_t* tab)
    void rx_dense2_f32_pre(const float* tmp, float* out, Py_ssize_t n, const int64_t* idx,
                           const float* w, const int32_t* tab)
    void rx_taps_px_f32(const float* x, float* out, Py_ssize_t n_out, int c, int k,
                        const int64_t* idx, const float* w, int64_t n_in)
    int32_t* rx_taps_px2_f32_layout(Py_ssize_t n_out, int c, int k, const int64_t* idx,
                                    const float* w, int64_t n_in)
    void rx_taps_px2_f32(const float* x, float* out, Py_ssize_t n_out, int c, int k,
                         const int64_t* idx, const float* w, int64_t n_in, const int32_t* tab)
    void rx_dense4_f32(const float* tmp, float* out, Py_ssize_t n, const int64_t* idx,
                       const float* w)
    void rx_dense8_f32(const float* tmp, float* out, Py_ssize_t n, const int64_t* idx,
                       const float* w)

from resamplex._engine._fused cimport f16_t
from resamplex._engine._elem cimport (
    E_U8, E_I8, E_U16, E_I16, E_I32, E_F32, E_F64, E_F16, acc_t, load_t, load_as, store_f_row,
)


cdef inline acc_t _term(acc_t w, const load_t* x, Py_ssize_t j, const acc_t* div,
                        Py_ssize_t o) noexcept nogil:
    if div == NULL:
        return w * load_as(x, j, div)
    return (w * load_as(x, j, div)) / div[o]


cdef inline acc_t _pair(acc_t w, int sign, const load_t* xa, const load_t* xb, Py_ssize_t j,
                        const acc_t* tag) noexcept nogil:
    if sign > 0:
        return (load_as(xa, j, tag) + load_as(xb, j, tag)) * w
    if sign < 0:
        return (load_as(xa, j, tag) - load_as(xb, j, tag)) * w
    return load_as(xa, j, tag) * w


cdef inline int _pair_sign(const acc_t* wts, Py_ssize_t t) noexcept nogil:
    if wts[t + 1] == wts[t]:
        return 1
    if wts[t + 1] == -wts[t]:
        return -1
    return 0


cdef Py_ssize_t _ELEM_SIZE[9]
_ELEM_SIZE[:] = [1, 1, 2, 2, 4, 8, 4, 8, 2]   # bytes of each _elem kind (E_U8 ... E_F16)


cdef inline void _short_k(const load_t* tag, const acc_t* wts, const char* base,
                          Py_ssize_t n_out, const Py_ssize_t c, int64_t s_axis,
                          const int64_t* ptr, const int64_t* idx, int order,
                          acc_t* acc) noexcept nogil:
    # Every output of one outer index for pixels of c <= 4 elements (c a constant at each
    # call), orders 0 and 1 without divisors: the c sums in registers, the element loop
    # unrolled; the same additions as the element-by-element loop of _item.
    cdef Py_ssize_t o, t, ta, tb, k
    cdef const load_t* x
    cdef acc_t a[4]
    cdef acc_t wt
    if load_t is float and acc_t is float:
        # float32 pixels: the c sums in the lanes of a vector (the same operations)
        if rx_short_k_f32(base, n_out, <int>c, s_axis, ptr, idx, wts, order, acc):
            return
    for o in range(n_out):
        ta = ptr[o]
        tb = ptr[o + 1]
        for k in range(c):
            a[k] = 0
        if tb > ta and order == 0:
            x = <const load_t*>(base + idx[ta] * s_axis)
            wt = wts[ta]
            for k in range(c):
                a[k] = wt * load_as(x, k, wts)
            ta = ta + 1
        for t in range(ta, tb):
            x = <const load_t*>(base + idx[t] * s_axis)
            wt = wts[t]
            for k in range(c):
                a[k] = a[k] + wt * load_as(x, k, wts)
        for k in range(c):
            acc[o * c + k] = a[k]


cdef inline void _short_pairs(const load_t* tag, const acc_t* wts, const char* base,
                              Py_ssize_t n_out, const Py_ssize_t c, int64_t s_axis,
                              const int64_t* ptr, const int64_t* idx,
                              acc_t* acc) noexcept nogil:
    # Order 3 (SciPy's pairs) for pixels of c <= 4 elements (c a constant at each call): the
    # c sums in registers; the same additions as order 3 of _item's element loop.
    cdef Py_ssize_t o, t, ta, tb, k
    cdef const load_t* x
    cdef const load_t* xb
    cdef acc_t a[4]
    cdef acc_t wt
    cdef int sign
    for o in range(n_out):
        ta = ptr[o]
        tb = ptr[o + 1]
        for k in range(c):
            a[k] = 0
        if tb > ta:
            x = <const load_t*>(base + idx[ta] * s_axis)
            wt = wts[ta]
            for k in range(c):
                a[k] = wt * load_as(x, k, wts)
            t = ta + 1
            while t + 1 < tb:
                x = <const load_t*>(base + idx[t] * s_axis)
                xb = <const load_t*>(base + idx[t + 1] * s_axis)
                wt = wts[t]
                sign = _pair_sign(wts, t)
                for k in range(c):
                    a[k] = a[k] + _pair(wt, sign, x, xb, k, wts)
                t = t + 2
            if t < tb:
                x = <const load_t*>(base + idx[t] * s_axis)
                wt = wts[t]
                for k in range(c):
                    a[k] = a[k] + wt * load_as(x, k, wts)
        for k in range(c):
            acc[o * c + k] = a[k]


cdef inline void _short_pairs_c(const load_t* tag, const acc_t* wts, const char* base,
                                Py_ssize_t n_out, Py_ssize_t c, int64_t s_axis,
                                const int64_t* ptr, const int64_t* idx,
                                acc_t* acc) noexcept nogil:
    # _short_pairs with c (1 to 4) a constant at each call
    if c == 1:
        _short_pairs(tag, wts, base, n_out, 1, s_axis, ptr, idx, acc)
    elif c == 2:
        _short_pairs(tag, wts, base, n_out, 2, s_axis, ptr, idx, acc)
    elif c == 3:
        _short_pairs(tag, wts, base, n_out, 3, s_axis, ptr, idx, acc)
    else:
        _short_pairs(tag, wts, base, n_out, 4, s_axis, ptr, idx, acc)


cdef inline void _pair_rows(const char* base, const int64_t* idx, int64_t s_axis,
                            const double* wts, Py_ssize_t ta, Py_ssize_t tb,
                            const double** rows, int* signs) noexcept nogil:
    # rx_pairs_f64's arguments for taps [ta, tb) (at most PAIRS_MAX): each tap's float64
    # row, and the sign of each pair that starts at a tap
    cdef Py_ssize_t t
    for t in range(ta, tb):
        rows[t - ta] = <const double*>(base + idx[t] * s_axis)
        signs[t - ta] = _pair_sign(wts, t) if t + 1 < tb else 0


cdef void _item(const load_t* tag, const acc_t* wts, const char* src, char* dst, Py_ssize_t r,
                int loop, Py_ssize_t n_out, Py_ssize_t inner, int64_t s_outer, int64_t s_axis,
                int64_t d_outer, int64_t d_axis, const int64_t* ptr, const int64_t* idx,
                int order, int dst_kind, int rounding, const acc_t* div,
                acc_t* acc) noexcept nogil:
    cdef Py_ssize_t q, o, j, t, o0, o1, ta, tb
    cdef const char* base
    cdef const load_t* x
    cdef const load_t* xb
    cdef acc_t wt, a
    cdef acc_t* row = acc
    cdef int sign
    cdef const double* rows[PAIRS_MAX]
    cdef int signs[PAIRS_MAX]
    # rows stored as the accumulator's own type are summed in place in the output (the
    # store would be a copy)
    cdef bint direct = loop == 0 and ((acc_t is float and dst_kind == E_F32)
                                      or (acc_t is double and dst_kind == E_F64))
    if loop == 0:
        q = r // n_out
        o0 = r - q * n_out
        o1 = o0 + 1
    else:
        q = r
        o0 = 0
        o1 = n_out
    base = src + q * s_outer
    if loop == 1 and inner == 1 and div == NULL and (order == 0 or order == 1):
        # one element per output (a planar row): the same sums without the element loop
        for o in range(o0, o1):
            ta = ptr[o]
            tb = ptr[o + 1]
            a = 0
            if tb > ta and order == 0:
                a = wts[ta] * load_as(<const load_t*>(base + idx[ta] * s_axis), 0, div)
                ta = ta + 1
            for t in range(ta, tb):
                a = a + wts[t] * load_as(<const load_t*>(base + idx[t] * s_axis), 0, div)
            acc[o] = a
        o0 = o1   # only the store below
    elif loop == 1 and 2 <= inner <= 4 and div == NULL and (order == 0 or order == 1):
        if inner == 2:
            _short_k(tag, wts, base, n_out, 2, s_axis, ptr, idx, order, acc)
        elif inner == 3:
            _short_k(tag, wts, base, n_out, 3, s_axis, ptr, idx, order, acc)
        else:
            _short_k(tag, wts, base, n_out, 4, s_axis, ptr, idx, order, acc)
        o0 = o1   # only the store below
    elif loop == 1 and inner <= 4 and div == NULL and order == 3:
        _short_pairs_c(tag, wts, base, n_out, inner, s_axis, ptr, idx, acc)
        o0 = o1   # only the store below
    for o in range(o0, o1):
        ta = ptr[o]
        tb = ptr[o + 1]
        if loop == 0:
            if direct:
                row = <acc_t*>(dst + q * d_outer + o * d_axis)
            if tb == ta or order == 1:
                for j in range(inner):
                    row[j] = 0
            if tb > ta:
                if order == 2:
                    x = <const load_t*>(base + idx[tb - 1] * s_axis)
                    wt = wts[tb - 1]
                    for j in range(inner):
                        row[j] = _term(wt, x, j, div, o)
                    for t in range(tb - 2, ta - 1, -1):
                        x = <const load_t*>(base + idx[t] * s_axis)
                        wt = wts[t]
                        for j in range(inner):
                            row[j] = _term(wt, x, j, div, o) + row[j]
                elif order == 3 and load_t is double and acc_t is double and div == NULL \
                        and tb - ta <= PAIRS_MAX:
                    # float64 rows (SciPy's filters): every tap's row at once, by vectors
                    _pair_rows(base, idx, s_axis, <const double*>wts, ta, tb, rows, signs)
                    rx_pairs_f64(<double*>row, rows, <const double*>(wts + ta), signs,
                                 tb - ta, inner)
                elif order == 3:
                    x = <const load_t*>(base + idx[ta] * s_axis)
                    wt = wts[ta]
                    for j in range(inner):
                        row[j] = wt * load_as(x, j, div)
                    t = ta + 1
                    while t + 1 < tb:
                        x = <const load_t*>(base + idx[t] * s_axis)
                        xb = <const load_t*>(base + idx[t + 1] * s_axis)
                        wt = wts[t]
                        sign = _pair_sign(wts, t)
                        for j in range(inner):
                            row[j] = row[j] + _pair(wt, sign, x, xb, j, div)
                        t = t + 2
                    if t < tb:
                        x = <const load_t*>(base + idx[t] * s_axis)
                        wt = wts[t]
                        for j in range(inner):
                            row[j] = row[j] + wt * load_as(x, j, div)
                elif order == 0 and tb - ta == 2 and div == NULL:
                    # two taps in one sweep: p_t0 + p_t1, as the loop below
                    x = <const load_t*>(base + idx[ta] * s_axis)
                    xb = <const load_t*>(base + idx[ta + 1] * s_axis)
                    wt = wts[ta]
                    a = wts[ta + 1]
                    for j in range(inner):
                        row[j] = wt * load_as(x, j, div) + a * load_as(xb, j, div)
                else:
                    if order == 0:
                        x = <const load_t*>(base + idx[ta] * s_axis)
                        wt = wts[ta]
                        for j in range(inner):
                            row[j] = _term(wt, x, j, div, o)
                        ta = ta + 1
                    for t in range(ta, tb):
                        x = <const load_t*>(base + idx[t] * s_axis)
                        wt = wts[t]
                        for j in range(inner):
                            row[j] = row[j] + _term(wt, x, j, div, o)
            if not direct:
                store_f_row(acc, dst + q * d_outer + o * d_axis, inner, dst_kind, rounding)
        elif order == 3 and tb > ta:
            # taps outside, elements inside (as loop 0 does): the same additions per element
            x = <const load_t*>(base + idx[ta] * s_axis)
            wt = wts[ta]
            for j in range(inner):
                acc[o * inner + j] = wt * load_as(x, j, div)
            t = ta + 1
            while t + 1 < tb:
                x = <const load_t*>(base + idx[t] * s_axis)
                xb = <const load_t*>(base + idx[t + 1] * s_axis)
                wt = wts[t]
                sign = _pair_sign(wts, t)
                for j in range(inner):
                    acc[o * inner + j] = acc[o * inner + j] + _pair(wt, sign, x, xb, j, div)
                t = t + 2
            if t < tb:
                x = <const load_t*>(base + idx[t] * s_axis)
                wt = wts[t]
                for j in range(inner):
                    acc[o * inner + j] = acc[o * inner + j] + wt * load_as(x, j, div)
        else:
            for j in range(inner):
                if tb == ta:
                    a = 0
                elif order == 2:
                    a = _term(wts[tb - 1], <const load_t*>(base + idx[tb - 1] * s_axis), j, div, o)
                    for t in range(tb - 2, ta - 1, -1):
                        a = _term(wts[t], <const load_t*>(base + idx[t] * s_axis), j, div, o) + a
                else:
                    if order == 0:
                        a = _term(wts[ta], <const load_t*>(base + idx[ta] * s_axis), j, div, o)
                        t = ta + 1
                    else:
                        a = 0
                        t = ta
                    while t < tb:
                        a = a + _term(wts[t], <const load_t*>(base + idx[t] * s_axis), j, div, o)
                        t = t + 1
                acc[o * inner + j] = a
    if loop == 1:
        if d_axis == inner * _ELEM_SIZE[dst_kind]:
            # the output rows of q are one contiguous run: one store
            store_f_row(acc, dst + q * d_outer, n_out * inner, dst_kind, rounding)
        else:
            for o in range(n_out):
                store_f_row(acc + o * inner, dst + q * d_outer + o * d_axis, inner, dst_kind,
                            rounding)


cdef inline void _one(int kind, const acc_t* wts, const char* s, char* d, Py_ssize_t r, int loop,
                      Py_ssize_t n_out, Py_ssize_t inner, int64_t s_outer, int64_t s_axis,
                      int64_t d_outer, int64_t d_axis, const int64_t* ptr, const int64_t* idx,
                      int order, int dst_kind, int rounding, const acc_t* div,
                      acc_t* acc) noexcept nogil:
    # _item on one work item of a source of element kind ``kind``
    if kind == E_U8:
        _item(<const uint8_t*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)
    elif kind == E_I8:
        _item(<const int8_t*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)
    elif kind == E_U16:
        _item(<const uint16_t*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)
    elif kind == E_I16:
        _item(<const int16_t*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)
    elif kind == E_I32:
        _item(<const int32_t*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)
    elif kind == E_F16:
        _item(<const f16_t*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)
    elif kind == E_F32:
        _item(<const float*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)
    else:
        _item(<const double*>NULL, wts, s, d, r, loop, n_out, inner, s_outer, s_axis, d_outer,
              d_axis, ptr, idx, order, dst_kind, rounding, div, acc)



cdef struct Items:
    # what the items of _run share (its loop body's context; typed arrays untyped)
    const void* wts
    const char* s
    char* d
    int loop
    Py_ssize_t n_out
    Py_ssize_t inner
    int64_t s_outer
    int64_t s_axis
    int64_t d_outer
    int64_t d_axis
    const int64_t* ptr
    const int64_t* idx
    int order
    int src_kind
    int dst_kind
    int rounding
    const void* div
    void* b
    Py_ssize_t blen


cdef void _run_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const acc_t* t1,
                    const void* t2) noexcept nogil:
    cdef const Items* j = <const Items*>ctx
    cdef Py_ssize_t r
    for r in range(lo, hi):
        _one(j.src_kind, <const acc_t*>j.wts, j.s, j.d, r, j.loop, j.n_out, j.inner, j.s_outer,
             j.s_axis, j.d_outer, j.d_axis, j.ptr, j.idx, j.order, j.dst_kind, j.rounding,
             <const acc_t*>j.div, <acc_t*>j.b + tid * j.blen)


cdef void _run(const acc_t* wts, const char* s, char* d, Py_ssize_t items, int loop,
               Py_ssize_t n_out, Py_ssize_t inner, int64_t s_outer, int64_t s_axis,
               int64_t d_outer, int64_t d_axis, const int64_t* ptr, const int64_t* idx,
               int order, int src_kind, int dst_kind, int rounding, const acc_t* div, acc_t* b,
               Py_ssize_t blen, int nthreads) noexcept nogil:
    cdef Items j
    j.wts, j.s, j.d, j.loop, j.n_out, j.inner = wts, s, d, loop, n_out, inner
    j.s_outer, j.s_axis, j.d_outer, j.d_axis = s_outer, s_axis, d_outer, d_axis
    j.ptr, j.idx = ptr, idx
    j.order, j.src_kind, j.dst_kind, j.rounding = order, src_kind, dst_kind, rounding
    j.div, j.b, j.blen = div, b, blen
    pool_run(<body_fn>_run_body[acc_t], &j, items, nthreads)

cdef void _load_row(int kind, const char* x, double* out, Py_ssize_t n, double scale,
                    double floor) noexcept nogil:
    # one source row as float64 (integers and float32, exact), as a loading pass reads it:
    # max(double(x) * scale, floor)
    cdef Py_ssize_t j
    if kind == E_U8:
        for j in range(n):
            out[j] = <double>(<const uint8_t*>x)[j] * scale
    elif kind == E_I8:
        for j in range(n):
            out[j] = <double>(<const int8_t*>x)[j] * scale
    elif kind == E_U16:
        for j in range(n):
            out[j] = <double>(<const uint16_t*>x)[j] * scale
    elif kind == E_I16:
        for j in range(n):
            out[j] = <double>(<const int16_t*>x)[j] * scale
    elif kind == E_I32:
        for j in range(n):
            out[j] = <double>(<const int32_t*>x)[j] * scale
    else:
        for j in range(n):
            out[j] = <double>(<const float*>x)[j] * scale
    if floor > -INFINITY:
        for j in range(n):
            if out[j] < floor:
                out[j] = floor


cdef void _pairs_run_row(const PassDesc* p, const char* src, char* dst, Py_ssize_t q,
                         double* acc) noexcept nogil:
    # Outer index q of a pairs pass on float64 pixels of c = shape[2] <= 4 elements, loop 1
    # (PHASE_RUN, exact._pairs_run): the outputs [lo, hi) read output lo's taps, each
    # index + (o - lo), with its weights, and the pixels are contiguous along the axis, so
    # the run's elements are one row of rx_pairs_f64 whose tap rows start at output lo's
    # taps; the outputs before and after it as _item computes them. Then _item's store, or
    # (a contiguous float64 output row) the sums go straight into the output row. A source
    # of another kind (integers, float32: contiguous pixels) is read as float64 first, its
    # whole row (n_in pixels) into the scratch after the sums: the values SciPy's line
    # buffer holds.
    cdef Py_ssize_t n_out = p.shape[1], c = p.shape[2], lo = p.lo, hi = p.hi
    cdef Py_ssize_t ta = p.ptr[lo], tb = p.ptr[lo + 1], o
    cdef const double* none = NULL   # _short_pairs' float64 form
    cdef const char* base = src + q * p.sstr[0]
    cdef int64_t s_axis = p.sstr[1]
    cdef const double* w = <const double*>p.w
    cdef const double* rows[PAIRS_MAX]
    cdef int signs[PAIRS_MAX]
    cdef bint direct = p.dst_kind == E_F64 and p.dstr[1] == c * 8
    if p.src_kind != E_F64:
        _load_row(p.src_kind, base, acc + n_out * c, p.n_in * c, 1.0, -INFINITY)
        base = <const char*>(acc + n_out * c)
        s_axis = c * 8
    if direct:
        acc = <double*>(dst + q * p.dstr[0])
    _pair_rows(base, p.off, s_axis, w, ta, tb, rows, signs)
    rx_pairs_f64(acc + lo * c, rows, w + ta, signs, tb - ta, (hi - lo) * c)
    _short_pairs_c(none, w, base, lo, c, s_axis, p.ptr, p.off, acc)
    _short_pairs_c(none, w, base, n_out - hi, c, s_axis, p.ptr + hi, p.off, acc + hi * c)
    if direct:
        return
    if p.dstr[1] == c * _ELEM_SIZE[p.dst_kind]:
        store_f_row(acc, dst + q * p.dstr[0], n_out * c, p.dst_kind, p.rounding)
    else:
        for o in range(n_out):
            store_f_row(acc + o * c, dst + q * p.dstr[0] + o * p.dstr[1], c, p.dst_kind,
                        p.rounding)


cdef void _pairs_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                      const void* t2) noexcept nogil:
    cdef const PassJob* j = <const PassJob*>ctx
    cdef Py_ssize_t q
    for q in range(lo, hi):
        _pairs_run_row(j.p, j.src, j.dst, q, <double*>j.bufs + tid * j.p.buf_len)


cdef void _pairs_runs(const PassDesc* p, const char* src, char* dst, double* b,
                      int nthreads) noexcept nogil:
    cdef PassJob j
    j.p, j.src, j.dst, j.bufs = p, src, dst, b
    pool_run(_pairs_body, &j, p.shape[0], nthreads)


cdef void _ring_rows(const PassDesc* p, const char* src, char* dst, Py_ssize_t r0,
                     Py_ssize_t r1, double* b) noexcept nogil:
    # Output rows [r0, r1) of a loading pass (loop 0, pairs, float64; _pass.pxd lscale):
    # each tap's source row is made once into slot (index mod ring) of the ring and the
    # output row summed from the slots by rx_pairs_f64, as _item sums float64 rows. The
    # planner checked that the taps of one output fall in distinct slots (or share a row).
    cdef Py_ssize_t n_out = p.shape[1], inner = p.shape[2], K = p.ring
    cdef Py_ssize_t r, q, o, t, ta, tb, slot
    cdef int64_t key
    cdef const double* w = <const double*>p.w
    cdef double* ring = b + inner
    cdef int64_t* tags = <int64_t*>(ring + K * inner)
    cdef double* row
    cdef const double* rows[PAIRS_MAX]
    cdef int signs[PAIRS_MAX]
    cdef bint direct = p.dst_kind == E_F64
    for slot in range(K):
        tags[slot] = -1
    for r in range(r0, r1):
        q = r // n_out
        o = r - q * n_out
        ta = p.ptr[o]
        tb = p.ptr[o + 1]
        row = <double*>(dst + q * p.dstr[0] + o * p.dstr[1]) if direct else b
        if tb == ta:
            for t in range(inner):
                row[t] = 0
        else:
            for t in range(ta, tb):
                slot = p.off[t] % K
                key = q * p.sstr[0] + p.off[t] * p.sstr[1]
                if tags[slot] != key:
                    _load_row(p.src_kind, src + key, ring + slot * inner, inner, p.lscale,
                              p.lfloor)
                    tags[slot] = key
                rows[t - ta] = ring + slot * inner
                signs[t - ta] = _pair_sign(w, t) if t + 1 < tb else 0
            rx_pairs_f64(row, rows, w + ta, signs, tb - ta, inner)
        if not direct:
            store_f_row(b, dst + q * p.dstr[0] + o * p.dstr[1], inner, p.dst_kind, p.rounding)


cdef void _ring_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                     const void* t2) noexcept nogil:
    # runs [lo, hi) of `chunks` runs (as even as can be) of the `rows` output rows
    cdef const PassJob* j = <const PassJob*>ctx
    _ring_rows(j.p, j.src, j.dst, j.rows * lo // j.chunks, j.rows * hi // j.chunks,
               <double*>j.bufs + tid * j.p.buf_len)


cdef void _ring_runs(const PassDesc* p, const char* src, char* dst, double* b,
                     int nthreads) noexcept nogil:
    # each thread one contiguous run of output rows (its ring follows the rows it reads)
    cdef Py_ssize_t items = p.shape[0] * p.shape[1]
    cdef int nt = nthreads if nthreads < items else <int>max(1, items)
    cdef PassJob j
    j.p, j.src, j.dst, j.bufs, j.rows, j.chunks = p, src, dst, b, items, nt
    pool_run(_ring_body, &j, nt, nt)


# ---- the executor's entry point (the kernel contract, _pass.pxd: OP_FLOAT) ----

cdef void float_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                    int nthreads) noexcept nogil:
    """One float tap pass of a program (``_pass.pxd``, OP_FLOAT): the arithmetic of the module
    docstring with ``shape``/``sstr``/``dstr`` = ``(outer, n_out, inner)`` around the axis,
    ``off`` the input index of each tap, ``w`` the weights and ``w2`` the divisors (or NULL)
    in the accumulator ``compute`` (double or float), ``finish`` the association order,
    ``rounding`` the store's (``_elem.pxd`` codes); ``bufs``: ``nthreads`` rows of
    ``buf_len`` accumulators. Work items are whole output rows or outer indices."""
    cdef Py_ssize_t n_out = p.shape[1]
    cdef Py_ssize_t items = p.shape[0] * n_out if p.loop == 0 else p.shape[0]
    if p.phase == PHASE_RUN:
        _pairs_runs(p, src, dst, <double*>bufs, nthreads)
    elif p.lscale != 0:
        _ring_runs(p, src, dst, <double*>bufs, nthreads)
    elif p.compute == C_DOUBLE:
        _run(<const double*>p.w, src, dst, items, p.loop, n_out, p.shape[2], p.sstr[0],
             p.sstr[1], p.dstr[0], p.dstr[1], p.ptr, p.off, p.finish, p.src_kind, p.dst_kind,
             p.rounding, <const double*>p.w2, <double*>bufs, p.buf_len, nthreads)
    else:
        _run(<const float*>p.w, src, dst, items, p.loop, n_out, p.shape[2], p.sstr[0],
             p.sstr[1], p.dstr[0], p.dstr[1], p.ptr, p.off, p.finish, p.src_kind, p.dst_kind,
             p.rounding, <const float*>p.w2, <float*>bufs, p.buf_len, nthreads)


# ---- two float passes in one sweep (OP_FLOAT_FUSED) ----

cdef inline void _dense_k(const load_t* x, const acc_t* w1, acc_t* out, Py_ssize_t n_b,
                          const Py_ssize_t c, const Py_ssize_t k, const int64_t* idx,
                          int order) noexcept nogil:
    # A first-pass row of a dense table (k taps per output, k a constant at each call):
    # output element (o, j) = the taps of o over element j of their pixels, in ``order``
    # (0 sequential, 1 from zero, 2 nested), as _item computes it.
    cdef Py_ssize_t o, j, t
    cdef const int64_t* ix
    cdef const acc_t* ww
    cdef acc_t a
    for o in range(n_b):
        ix = idx + o * k
        ww = w1 + o * k
        for j in range(c):
            if order == 2:
                a = ww[k - 1] * load_as(x, ix[k - 1] * c + j, ww)
                for t in range(k - 2, -1, -1):
                    a = ww[t] * load_as(x, ix[t] * c + j, ww) + a
            else:
                if order == 0:
                    a = ww[0] * load_as(x, ix[0] * c + j, ww)
                else:
                    a = 0
                    a = a + ww[0] * load_as(x, ix[0] * c + j, ww)
                for t in range(1, k):
                    a = a + ww[t] * load_as(x, ix[t] * c + j, ww)
            out[o * c + j] = a


cdef inline void _dense_row(const load_t* x, const acc_t* w1, acc_t* out, Py_ssize_t n_b,
                            Py_ssize_t c, Py_ssize_t k, const int64_t* idx,
                            int order, int64_t n_in, const int32_t* pre) noexcept nogil:
    # n_in: the row's pixels; pre: rx_dense2_f32_prep's or rx_dense4_f32_prep's blocks
    # (float32, c 1, k 2 or 4), rx_taps_px2_f32_layout's (float32, c 2 to 4, k 2, 4 or 8),
    # or NULL
    if load_t is float and acc_t is float and pre != NULL and c >= 2:
        # rx_taps_px_f32 (below) two outputs a vector, over the pass's laid-out blocks
        rx_taps_px2_f32(x, out, n_b, <int>c, <int>k, idx, w1, n_in, pre)
    elif load_t is float and acc_t is float and pre != NULL and k == 2:
        rx_dense2_f32_pre(x, out, n_b, idx, w1, pre)
    elif load_t is float and acc_t is float and pre != NULL:
        rx_dense4_f32_pre(x, out, n_b, idx, w1, pre)
    elif load_t is float and acc_t is float and order == 0 and (k == 2 or k == 4 or k == 8) \
            and 2 <= c <= 4:
        # pixels of float32, 2, 4 or 8 taps (OpenCV's linear, cubic, Lanczos-4 at any
        # ratio): an output's elements in one vector of four lanes (rx_taps_px_f32),
        # _dense_k's products and sums in its order
        rx_taps_px_f32(x, out, n_b, <int>c, <int>k, idx, w1, n_in)
    elif load_t is float and acc_t is float and order == 0 and c == 1 and k == 2:
        # single elements of float32, two taps (OpenCV's linear at any ratio): w0 x0 + w1 x1,
        # adjacent pairs from one window load where they fit (the core's kernel, _dense_f32.h)
        rx_dense2_f32(x, out, n_b, idx, w1)
    elif load_t is float and acc_t is float and order == 0 and c == 1 and k == 4:
        # single elements of float32, four taps (OpenCV's cubic): outputs whose taps are
        # adjacent elements summed from two vector gathers of pairs (AVX-512), the others
        # one at a time; _dense_k's products and sums in its order
        rx_dense4_f32(x, out, n_b, idx, w1)
    elif load_t is float and acc_t is float and order == 0 and c == 1 and k == 8:
        # the same with eight taps (OpenCV's Lanczos-4): outputs whose taps are adjacent
        # elements as one vector of products each, 8 x 8 transposed and summed tap by tap
        rx_dense8_f32(x, out, n_b, idx, w1)
    elif k == 2 and c == 3:
        _dense_k(x, w1, out, n_b, 3, 2, idx, order)
    elif k == 2 and c == 4:
        _dense_k(x, w1, out, n_b, 4, 2, idx, order)
    elif k == 2 and c == 1:
        _dense_k(x, w1, out, n_b, 1, 2, idx, order)
    elif k == 4 and c == 3:
        _dense_k(x, w1, out, n_b, 3, 4, idx, order)
    elif k == 8 and c == 3:
        _dense_k(x, w1, out, n_b, 3, 8, idx, order)
    elif k == 4 and c == 4:
        _dense_k(x, w1, out, n_b, 4, 4, idx, order)
    elif k == 8 and c == 4:
        _dense_k(x, w1, out, n_b, 4, 8, idx, order)
    elif k == 4 and c == 1:
        _dense_k(x, w1, out, n_b, 1, 4, idx, order)
    elif k == 8 and c == 1:
        _dense_k(x, w1, out, n_b, 1, 8, idx, order)
    elif k == 2:
        _dense_k(x, w1, out, n_b, c, 2, idx, order)
    elif k == 4:
        _dense_k(x, w1, out, n_b, c, 4, idx, order)
    elif k == 8:
        _dense_k(x, w1, out, n_b, c, 8, idx, order)
    else:
        _dense_k(x, w1, out, n_b, c, k, idx, order)


cdef inline void _short_f32(const float* x, const float* w1, const int64_t* ptr,
                            const int64_t* idx, Py_ssize_t n, Py_ssize_t c,
                            float* out) noexcept nogil:
    # outputs [0, n) of a float32 row through its CSR table (ptr from the first of them),
    # sequential order, pixels of c <= 4 elements: _short_k
    if c == 1:
        _short_k(x, w1, <const char*>x, n, 1, 4, ptr, idx, 0, out)
    elif c == 2:
        _short_k(x, w1, <const char*>x, n, 2, 8, ptr, idx, 0, out)
    elif c == 3:
        _short_k(x, w1, <const char*>x, n, 3, 12, ptr, idx, 0, out)
    else:
        _short_k(x, w1, <const char*>x, n, 4, 16, ptr, idx, 0, out)


cdef inline void _up2_row(const PassDesc* p, const float* x, float* out, Py_ssize_t n_b,
                          Py_ssize_t c, float* tmp) noexcept nogil:
    # A float32 first-pass row (sequential taps, pixels of c <= 4 elements) with a x2 run
    # (exact._up2_run): output pixels 2i and 2i + 1, i in [lo, hi), read pixels
    # i + pd[0], i + pd[1] and i + pd[2], i + pd[3] with the weights pw, so they are two
    # contiguous rows of elements (the same two products and one sum each), zipped by pixel;
    # the outputs around the run through the table. tmp: 2 (hi - lo) c floats.
    cdef Py_ssize_t a = 2 * p.lo, b = 2 * p.hi, m = (p.hi - p.lo) * c
    cdef const float* w1 = <const float*>p.w1
    _short_f32(x, w1, p.ptr2, p.idx2, a, c, out)
    _short_f32(x, w1, p.ptr2 + b, p.idx2, n_b - b, c, out + b * c)
    rx_phase2_f32(x + p.lo * c, tmp, m, p.pd[0] * c, p.pd[1] * c, <float>p.pw[0],
                  <float>p.pw[1])
    rx_phase2_f32(x + p.lo * c, tmp + m, m, p.pd[2] * c, p.pd[3] * c, <float>p.pw[2],
                  <float>p.pw[3])
    rx_zip2_f32(tmp, tmp + m, out + a * c, p.hi - p.lo, c)


cdef inline void _phase_k(const float* x, float* e, Py_ssize_t m, const Py_ssize_t* d,
                          const double* w, Py_ssize_t k, Py_ssize_t c) noexcept nogil:
    # e[j] = (...(p_0 + p_1) + ...) + p_(k-1), p_t = w[t] * x[j + d[t] c]: k sequential taps
    # at fixed offsets, one contiguous row, a tap at a time (the compiler vectorises each)
    cdef Py_ssize_t j, t
    cdef const float* a = x + d[0] * c
    cdef float wt = <float>w[0]
    for j in range(m):
        e[j] = wt * a[j]
    for t in range(1, k):
        a = x + d[t] * c
        wt = <float>w[t]
        for j in range(m):
            e[j] = e[j] + wt * a[j]


cdef inline void _up2_row_k(const PassDesc* p, const float* x, float* out, Py_ssize_t n_b,
                            Py_ssize_t c, float* tmp) noexcept nogil:
    # As _up2_row for k = 4 or 8 sequential taps per output (OpenCV's float cubic and
    # Lanczos4 at x2): output pixel 2i + r, i in [lo, hi), reads pixels i + pdk[k r + t]
    # with the weights pwk[k r + t].
    cdef Py_ssize_t a = 2 * p.lo, b = 2 * p.hi, m = (p.hi - p.lo) * c
    _short_f32(x, <const float*>p.w1, p.ptr2, p.idx2, a, c, out)
    _short_f32(x, <const float*>p.w1, p.ptr2 + b, p.idx2, n_b - b, c, out + b * c)
    _phase_k(x + p.lo * c, tmp, m, p.pdk, p.pwk, p.k, c)
    _phase_k(x + p.lo * c, tmp + m, m, p.pdk + p.k, p.pwk + p.k, p.k, c)
    rx_zip2_f32(tmp, tmp + m, out + a * c, p.hi - p.lo, c)


cdef inline void _dense(int kind, const char* s, const acc_t* w1, acc_t* out, Py_ssize_t n_b,
                        Py_ssize_t c, Py_ssize_t k, const int64_t* idx, int order,
                        int64_t n_in, const int32_t* pre) noexcept nogil:
    if kind == E_U8:
        _dense_row(<const uint8_t*>s, w1, out, n_b, c, k, idx, order, n_in, NULL)
    elif kind == E_I8:
        _dense_row(<const int8_t*>s, w1, out, n_b, c, k, idx, order, n_in, NULL)
    elif kind == E_U16:
        _dense_row(<const uint16_t*>s, w1, out, n_b, c, k, idx, order, n_in, NULL)
    elif kind == E_I16:
        _dense_row(<const int16_t*>s, w1, out, n_b, c, k, idx, order, n_in, NULL)
    elif kind == E_I32:
        _dense_row(<const int32_t*>s, w1, out, n_b, c, k, idx, order, n_in, NULL)
    elif kind == E_F16:
        _dense_row(<const f16_t*>s, w1, out, n_b, c, k, idx, order, n_in, NULL)
    elif kind == E_F32:
        _dense_row(<const float*>s, w1, out, n_b, c, k, idx, order, n_in, pre)
    else:
        _dense_row(<const double*>s, w1, out, n_b, c, k, idx, order, n_in, NULL)


cdef inline void _zero_edges(acc_t* row, Py_ssize_t n_b, Py_ssize_t c, Py_ssize_t lead,
                             Py_ssize_t trail) noexcept nogil:
    # FloatPass zero_edges: the first `lead` and last `trail` outputs (pixels of c elements)
    # of a first-pass row become 0 + their sum, as if summed from +0.0 (-0.0 turns +0.0;
    # nothing else changes: the build keeps signed zeros, no -ffast-math)
    cdef Py_ssize_t j
    cdef acc_t zero = 0
    for j in range(min(lead, n_b) * c):
        row[j] = zero + row[j]
    for j in range(max(n_b - trail, lead) * c, n_b * c):
        row[j] = zero + row[j]


cdef void _band_rows(const acc_t* tag, const PassDesc* p, const char* src, char* dst,
                     Py_ssize_t q, Py_ssize_t o_start, Py_ssize_t o_end, acc_t* acc,
                     char* band, const int32_t* pre) noexcept nogil:
    # Output rows [o_start, o_end) of outer index q. The first pass's rows (the input rows
    # the second pass reads) go into a band of at most p.n_mid rows, each computed once per
    # run: a chunk of outputs takes as many outputs as fit their input rows in the band,
    # keeps the rows it shares with the chunk before (moved to the band's start) and adds
    # the ones its taps read (a row between them that no output reads, as when shrinking,
    # is never computed: `made`, one flag per band row after the band); then the second
    # pass reads the band as if it were the whole intermediate array. The values are those
    # of the two passes run one after the other.
    cdef Py_ssize_t c = p.channels, n_row = p.shape[2], n_b = n_row // c
    cdef Py_ssize_t msz = _ELEM_SIZE[p.mid_kind], dsz = _ELEM_SIZE[p.dst_kind]
    cdef Py_ssize_t ssz = _ELEM_SIZE[p.src_kind]
    cdef Py_ssize_t row_bytes = n_row * msz, cap = p.n_mid
    cdef Py_ssize_t band_lo = 0, band_n = 0, o, o1, oo, t, r, clo, chi, nlo, nhi
    cdef Py_ssize_t keep, start, ob
    cdef const char* sq = src + q * p.sstr[0]
    cdef char* dq = dst + q * p.dstr[0]
    cdef const char* base
    cdef const acc_t* w1 = <const acc_t*>p.w1
    cdef const acc_t* w = <const acc_t*>p.w
    cdef const acc_t* div = <const acc_t*>p.w2
    cdef char* made = band + cap * row_bytes
    o = o_start
    while o < o_end:
        clo = 0
        chi = -1
        o1 = o
        while o1 < o_end:
            nlo, nhi = clo, chi
            for t in range(p.ptr[o1], p.ptr[o1 + 1]):
                r = p.off[t]
                if nhi < nlo:
                    nlo = r
                    nhi = r
                elif r < nlo:
                    nlo = r
                elif r > nhi:
                    nhi = r
            if nhi - nlo + 1 > cap and o1 > o:
                break
            clo, chi = nlo, nhi
            o1 = o1 + 1
        if chi >= clo:
            start = clo
            if band_n > 0 and band_lo <= clo < band_lo + band_n:
                keep = min(band_lo + band_n, chi + 1) - clo
                if clo > band_lo:
                    memmove(band, band + (clo - band_lo) * row_bytes, keep * row_bytes)
                    memmove(made, made + (clo - band_lo), keep)
                start = clo + keep
            memset(made + (start - clo), 0, chi + 1 - start)
            for t in range(p.ptr[o], p.ptr[o1]):
                r = p.off[t]
                if made[r - clo]:
                    continue
                made[r - clo] = 1
                if acc_t is float and p.phase == PHASE_UP2 and p.k >= 4:
                    _up2_row_k(p, <const float*>(sq + r * p.sstr[1]),
                               <float*>(band + (r - clo) * row_bytes), n_b, c, acc)
                elif acc_t is float and p.phase == PHASE_UP2:
                    _up2_row(p, <const float*>(sq + r * p.sstr[1]),
                             <float*>(band + (r - clo) * row_bytes), n_b, c, acc)
                elif p.k > 0:   # dense taps, the band of the accumulator type: in place
                    _dense(p.src_kind, sq + r * p.sstr[1], w1,
                           <acc_t*>(band + (r - clo) * row_bytes), n_b, c, p.k, p.idx2,
                           p.order1, p.n_in, pre)
                    if acc_t is float and p.ktail > 0:
                        # float32 only (the planner's rule): the short outputs at the end
                        _short_f32(<const float*>(sq + r * p.sstr[1]), w1,
                                   p.ptr2 + (n_b - p.ktail), p.idx2, p.ktail, c,
                                   <float*>(band + (r - clo) * row_bytes)
                                   + (n_b - p.ktail) * c)
                elif p.loop == 1:
                    _one(p.src_kind, w1, sq + r * p.sstr[1], band + (r - clo) * row_bytes, 0,
                         1, n_b, c, 0, c * ssz, 0, c * msz, p.ptr2, p.idx2, p.order1,
                         p.mid_kind, 0, <const acc_t*>NULL, acc)
                else:
                    for ob in range(n_b):
                        _one(p.src_kind, w1, sq + r * p.sstr[1],
                             band + (r - clo) * row_bytes, ob, 0, n_b, c, 0, c * ssz, 0,
                             c * msz, p.ptr2, p.idx2, p.order1, p.mid_kind, 0,
                             <const acc_t*>NULL, acc)
                if p.zlead > 0 or p.ztrail > 0:
                    _zero_edges(<acc_t*>(band + (r - clo) * row_bytes), n_b, c, p.zlead,
                                p.ztrail)
            band_lo = clo
            band_n = chi - clo + 1
        # the band seen as the intermediate array: row r at base + r * row_bytes
        base = band - band_lo * row_bytes
        for oo in range(o, o1):
            if p.head > 0:
                _one(p.mid_kind, w, base, dq, oo, 0, p.shape[1], p.head, 0, row_bytes, 0,
                     p.dstr[1], p.ptr, p.off, p.order_head, p.dst_kind, p.rounding, div, acc)
            if n_row > p.head:
                _one(p.mid_kind, w, base + p.head * msz, dq + p.head * dsz, oo, 0,
                     p.shape[1], n_row - p.head, 0, row_bytes, 0, p.dstr[1], p.ptr, p.off,
                     p.finish, p.dst_kind, p.rounding, div, acc)
        o = o1


cdef void _band_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const acc_t* t1,
                     const void* t2) noexcept nogil:
    # item q * chunks + c: run c of output rows (of `chunks` runs of `per` rows) in outer
    # index q
    cdef const PassJob* j = <const PassJob*>ctx
    cdef Py_ssize_t item, q, c
    cdef acc_t* mine = <acc_t*>j.bufs + tid * j.p.buf_len
    for item in range(lo, hi):
        q = item // j.chunks
        c = item - q * j.chunks
        _band_rows(t1, j.p, j.src, j.dst, q, c * j.per, min(j.p.shape[1], (c + 1) * j.per),
                   mine, <char*>(mine + j.n_row), <const int32_t*>j.pre)


cdef void _band_run(const acc_t* tag, const PassDesc* p, const char* src, char* dst,
                    acc_t* b, int nthreads) noexcept nogil:
    # One contiguous run of output rows per thread and outer index (as OP_INT_FUSED): the
    # rows at the edge of a run are computed by both neighbours; the values do not depend
    # on the runs. Per thread: the accumulators of a row (rounded up to 16), then the band.
    # (one thread: one run of every row per outer index)
    cdef Py_ssize_t n_out = p.shape[1], n_row = (p.shape[2] + 15) // 16 * 16
    cdef Py_ssize_t chunks = max(1, min(n_out, <Py_ssize_t>nthreads))
    cdef Py_ssize_t per = (n_out + chunks - 1) // chunks
    cdef PassJob j
    cdef int32_t* pre = NULL
    j.p, j.src, j.dst, j.bufs, j.chunks, j.per, j.n_row = p, src, dst, b, chunks, per, n_row
    if acc_t is float and p.src_kind == E_F32 and p.order1 == 0 and p.phase != PHASE_UP2 \
            and p.k > 0:
        # the first pass's blocks laid out once for all the rows it makes (or NULL: the
        # rows as before)
        if p.channels == 1:
            pre = rx_dense_f32_layout(p.shape[2], p.idx2, p.n_in, p.k)
        elif 2 <= p.channels <= 4:
            pre = rx_taps_px2_f32_layout(p.shape[2] // p.channels, <int>p.channels, <int>p.k,
                                         p.idx2, <const float*>p.w1, p.n_in)
    j.pre = pre
    pool_run(<body_fn>_band_body[acc_t], &j, p.shape[0] * chunks, nthreads)
    free(pre)


cdef void float_fused_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                          int nthreads) noexcept nogil:
    """Two float tap passes in one sweep (``_pass.pxd``, OP_FLOAT_FUSED): the first over the
    inner axis b (``ptr2``/``idx2``/``w1``, order ``order1``, rows of ``channels``-element
    pixels, stored as ``mid_kind``), the second over the axis just outside it (``ptr``/
    ``off``/``w``, divisors ``w2``, order ``order_head`` on the first ``head`` elements of
    each row and ``finish`` on the rest, stored as ``dst_kind`` with ``rounding``).
    ``shape`` = ``(outer, n_out_a, n_out_b * channels)``; ``sstr`` the source's strides over
    (outer, input row); ``dstr`` the output's over (outer, output row). Each input row the
    second pass reads is computed once into a per-thread band of ``n_mid`` rows; ``loop``:
    the first pass's loop (1: a row at once, 0: pixel by pixel); ``k`` > 0: its table has
    ``k`` taps for every output (``idx2`` dense), its order is not ``pairs`` and the band
    holds the accumulator type, so each row is summed straight into the band. Both passes
    compute in ``compute``."""
    if p.compute == C_DOUBLE:
        _band_run(<const double*>NULL, p, src, dst, <double*>bufs, nthreads)
    else:
        _band_run(<const float*>NULL, p, src, dst, <float*>bufs, nthreads)


cdef KernelTable _table
_table.floats = float_run
_table.floats_fused = float_fused_run


def kernel_table():
    """This module's entry points (the kernel contract, ``_pass.pxd``) as a PyCapsule named
    ``resamplex.kernels`` holding a ``KernelTable``; the executor (``_exec.pyx``) reads it."""
    return PyCapsule_New(<void*>&_table, b"resamplex.kernels", NULL)
