# cython: language_level=3
"""Integer tap pass: exact integer arithmetic with per-tap shifts, a bias, a multiplier and a
final shift (docs/engine-passes.md, "int pass").

For output ``o`` of the resampled axis and every element ``j`` of the inner row::

    acc = sum over taps t of ((x_t[j] >> pre) * w[t]) >> post      (int64, arithmetic shifts)
    v   = ((acc + bias) * mult) >> shift                            (finish 0)
    v   = rintf((float)acc * fmul)                                  (finish 1: float32 finish)
    v   = ((acc + bias) * mult) / 2^shift                           (finish 2: C division,
                                                                     toward zero)
    out = saturate(v) stored as dst_kind

Integer sums are exact, so the tap order does not matter; only the per-tap shifts (which floor
each term) make the taps of one output non-mergeable. This covers fixed-point resizers that
keep an integer intermediate between passes (OpenCV's uint8 linear, cubic, Lanczos and
LINEAR_EXACT paths, Pillow's 8-bit convolution) and integer block sums finished by a float32
multiply.

Preconditions (the pipeline guarantees them; nothing is checked here):
- the source is viewed as ``(outer, n_in, inner)`` with byte strides ``(s_outer, s_axis, size)``
  and the destination as ``(outer, n_out, inner)`` with ``(d_outer, d_axis, size)``: rows of
  ``inner`` elements are contiguous in both; source and destination do not overlap;
- CSR taps: output ``o`` reads input indices ``idx[t]`` (in range) with weights ``w[t]`` for
  ``t`` in ``[ptr[o], ptr[o+1])``; no term or sum overflows int64;
- ``bufs`` has ``nthreads`` rows of ``inner`` int64 (``loop == 0``) or ``n_out * inner``
  (``loop == 1``); every shape entry >= 1.
"""

from libc.math cimport rintf
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pool cimport body_fn, run as pool_run
from resamplex._engine._pass cimport (
    ACC_INT32, KernelTable, PassDesc, PassJob, PHASE_DOWN2, PHASE_NONE, PHASE_UP2,
)

from resamplex._engine._elem cimport (
    E_U8, E_I8, E_U16, E_I16, E_I32, E_I64, store_i64_row,
)

cdef extern from "_intpass_simd.h" nogil:
    bint rx_pairs_px_u8(const uint8_t* base, Py_ssize_t n_out, int c, int64_t s,
                        const int64_t* idx, const int64_t* w, int32_t* acc, int pre,
                        int16_t* out16, int64_t n_in)
    bint rx_taps_px_u8(const uint8_t* base, Py_ssize_t n_out, int c, int64_t s, int k,
                       const int64_t* idx, const int64_t* w, int32_t* acc, int64_t n_in)
    bint rx_taps_px_u8_prep(Py_ssize_t n_out, int c, int64_t s, int k, const int64_t* idx,
                            const int64_t* w, int64_t n_in, int32_t* off, int32_t* pk,
                            int32_t* cw, uint8_t* wide)
    void rx_taps_pre_u8(const uint8_t* base, Py_ssize_t n_out, int c, int k,
                        const int32_t* off, const int32_t* pk, const int32_t* cw,
                        const uint8_t* wide, int32_t* acc)
    bint rx_pairs_px_u8_prep(Py_ssize_t n_out, int c, int64_t s, const int64_t* idx,
                             const int64_t* w, int64_t n_in, int32_t* off, int32_t* pk,
                             uint8_t* adj)
    void rx_pairs_pre_u8(const uint8_t* base, Py_ssize_t n_out, int c, const int32_t* off,
                         const int32_t* pk, const uint8_t* adj, int pre, int16_t* out16)
    void rx_blend2_u8(const int32_t* h0, const int32_t* h1, int32_t w0, int32_t w1,
                      Py_ssize_t m, int32_t bias, int32_t mult, int shift, uint8_t* d)
    void rx_blend4_u8(const int32_t* h0, const int32_t* h1, const int32_t* h2,
                      const int32_t* h3, const int64_t* w, Py_ssize_t m, int32_t bias,
                      int32_t mult, int shift, uint8_t* d)
    void rx_unzip2_8(const uint8_t* inp, uint8_t* a, uint8_t* b, Py_ssize_t npix,
                     Py_ssize_t c)
    void rx_taps4_u8(const uint8_t* p0, const uint8_t* p1, const uint8_t* p2,
                     const uint8_t* p3, const int64_t* w, Py_ssize_t n, int32_t* acc)
    void rx_taps8_u8(const uint8_t** p, const int64_t* w, Py_ssize_t n, int32_t* acc)
    void rx_head4_u8(const int32_t* h0, const int32_t* h1, const int32_t* h2,
                     const int32_t* h3, float w0, float w1, float w2, float w3, Py_ssize_t m,
                     uint8_t* d)
    void rx_pair16_u8(const uint8_t* a, const uint8_t* b, int32_t u, int32_t v, int pre,
                      Py_ssize_t n, int16_t* out)
    void rx_narrow16(const int32_t* h, Py_ssize_t n, int pre, int16_t* out)
    void rx_zip2_16(const int16_t* a, const int16_t* b, int16_t* out, Py_ssize_t npix,
                    Py_ssize_t c)
    void rx_blend2_s16(const int16_t* h0, const int16_t* h1, int32_t w0, int32_t w1,
                       Py_ssize_t m, int32_t bias, int shift, uint8_t* d)


ctypedef fused in_t:
    uint8_t
    int8_t
    uint16_t
    int16_t
    int32_t
    int64_t


ctypedef fused iacc_t:
    int32_t
    int64_t


cdef inline void _finish(iacc_t* acc, Py_ssize_t n, int finish, int64_t bias, int64_t mult,
                         int shift, float fmul) noexcept nogil:
    # In the accumulator's width: an int32 accumulator is chosen only where the planner has
    # bounded every sum, biased and multiplied, inside int32 (exact._int_program).
    cdef Py_ssize_t j
    cdef iacc_t b = <iacc_t>bias, m = <iacc_t>mult
    if finish == 0:
        if mult == 1:
            for j in range(n):
                acc[j] = (acc[j] + b) >> shift
        else:
            for j in range(n):
                acc[j] = ((acc[j] + b) * m) >> shift
    elif finish == 1:
        for j in range(n):
            acc[j] = <iacc_t>rintf(<float>acc[j] * fmul)
    else:
        for j in range(n):
            acc[j] = ((acc[j] + b) * m) / ((<iacc_t>1) << shift)


cdef inline void _store_row(const iacc_t* acc, char* dst, Py_ssize_t n,
                            int kind) noexcept nogil:
    cdef Py_ssize_t j
    if iacc_t is int64_t:
        store_i64_row(acc, dst, n, kind)
    elif kind == E_U8:
        for j in range(n):
            (<uint8_t*>dst)[j] = <uint8_t>(0 if acc[j] < 0 else (255 if acc[j] > 255 else acc[j]))
    elif kind == E_I8:
        for j in range(n):
            (<int8_t*>dst)[j] = <int8_t>(-128 if acc[j] < -128 else
                                         (127 if acc[j] > 127 else acc[j]))
    elif kind == E_U16:
        for j in range(n):
            (<uint16_t*>dst)[j] = <uint16_t>(0 if acc[j] < 0 else
                                             (65535 if acc[j] > 65535 else acc[j]))
    elif kind == E_I16:
        for j in range(n):
            (<int16_t*>dst)[j] = <int16_t>(-32768 if acc[j] < -32768 else
                                           (32767 if acc[j] > 32767 else acc[j]))
    else:   # E_I32 (the planner takes int32 accumulators for these five stores only)
        for j in range(n):
            (<int32_t*>dst)[j] = acc[j]


cdef inline void _short_rows(const in_t* tag, const char* base, Py_ssize_t n_out,
                             const Py_ssize_t c, int64_t s_axis, const int64_t* ptr,
                             const int64_t* idx, const int64_t* w, iacc_t* acc,
                             const Py_ssize_t k) noexcept nogil:
    # Every output of one outer index for rows of c <= 4 elements (the channels of an
    # interleaved pixel) and plain products (no shifts): the sums are held in registers, and
    # with c a constant at each call the element loop disappears. k > 0: every output has k
    # taps (a dense table, ptr unused), a constant at each call too, so the tap loop unrolls.
    cdef Py_ssize_t o, t
    cdef const in_t* x
    cdef iacc_t wt, a0, a1, a2, a3
    for o in range(n_out):
        a0 = a1 = a2 = a3 = 0
        for t in range(o * k if k > 0 else ptr[o], (o + 1) * k if k > 0 else ptr[o + 1]):
            x = <const in_t*>(base + idx[t] * s_axis)
            wt = <iacc_t>w[t]
            a0 = a0 + wt * <iacc_t>x[0]
            if c > 1:
                a1 = a1 + wt * <iacc_t>x[1]
            if c > 2:
                a2 = a2 + wt * <iacc_t>x[2]
            if c > 3:
                a3 = a3 + wt * <iacc_t>x[3]
        acc[o * c] = a0
        if c > 1:
            acc[o * c + 1] = a1
        if c > 2:
            acc[o * c + 2] = a2
        if c > 3:
            acc[o * c + 3] = a3


cdef inline void _short_any(const in_t* tag, const char* base, Py_ssize_t n_out,
                            Py_ssize_t inner, int64_t s_axis, const int64_t* ptr,
                            const int64_t* idx, const int64_t* w, iacc_t* acc,
                            const Py_ssize_t k) noexcept nogil:
    # _short_rows for pixels of 1 to 4 elements, the count a constant at each call (and the
    # taps per output k of a dense table; 0: the CSR ptr)
    if inner == 1:
        _short_rows(tag, base, n_out, 1, s_axis, ptr, idx, w, acc, k)
    elif inner == 2:
        _short_rows(tag, base, n_out, 2, s_axis, ptr, idx, w, acc, k)
    elif inner == 3:
        _short_rows(tag, base, n_out, 3, s_axis, ptr, idx, w, acc, k)
    else:
        _short_rows(tag, base, n_out, 4, s_axis, ptr, idx, w, acc, k)


cdef void _item(const in_t* tag, const char* src, char* dst, Py_ssize_t r, int loop,
                Py_ssize_t n_out, Py_ssize_t inner, int64_t s_outer, int64_t s_axis,
                int64_t d_outer, int64_t d_axis, const int64_t* ptr, const int64_t* idx,
                const int64_t* w, int pre, int post, int64_t bias, int64_t mult, int shift,
                int finish, float fmul, int dst_kind, iacc_t* acc) noexcept nogil:
    # Integer sums are exact, so the taps may be added in any order: each output row (or
    # each output's `inner` elements) gathers tap by tap over contiguous elements.
    cdef Py_ssize_t q, o, j, t, o0, o1
    cdef const char* base
    cdef const in_t* x
    cdef iacc_t wt
    cdef iacc_t* a
    if loop == 0:          # one output row of `inner` elements: blend whole rows
        q = r // n_out
        o0 = r - q * n_out
        o1 = o0 + 1
    else:                  # every output of one outer index
        q = r
        o0 = 0
        o1 = n_out
    base = src + q * s_outer
    if loop == 1 and inner <= 4 and pre == 0 and post == 0:
        _short_any(tag, base, n_out, inner, s_axis, ptr, idx, w, acc, 0)
        o1 = 0             # every output is summed: finish and store below
    for o in range(o0, o1):
        a = acc if loop == 0 else acc + o * inner
        for j in range(inner):
            a[j] = 0
        for t in range(ptr[o], ptr[o + 1]):
            x = <const in_t*>(base + idx[t] * s_axis)
            wt = <iacc_t>w[t]
            if pre == 0 and post == 0:
                for j in range(inner):
                    a[j] = a[j] + wt * <iacc_t>x[j]
            else:
                for j in range(inner):
                    a[j] = a[j] + (((<iacc_t>x[j] >> pre) * wt) >> post)
        if loop == 0:
            _finish(acc, inner, finish, bias, mult, shift, fmul)
            _store_row(acc, dst + q * d_outer + o * d_axis, inner, dst_kind)
    if loop == 1:
        _finish(acc, n_out * inner, finish, bias, mult, shift, fmul)
        for o in range(n_out):
            _store_row(acc + o * inner, dst + q * d_outer + o * d_axis, inner, dst_kind)


# ---- two integer passes in one sweep (OP_INT_FUSED) ----

cdef inline void _pairs(const in_t* tag, const char* base, Py_ssize_t n_out,
                        const Py_ssize_t c, int64_t s_axis, const int64_t* idx,
                        const int64_t* w, int32_t* acc) noexcept nogil:
    # Two taps for every output (a dense table; the planner pads one-tap outputs with a tap
    # of weight 0), pixels of c <= 4 elements, c a constant at each call: no loop over taps.
    cdef Py_ssize_t o
    cdef const in_t* x
    cdef const in_t* y
    cdef int32_t u, v
    for o in range(n_out):
        x = <const in_t*>(base + idx[2 * o] * s_axis)
        y = <const in_t*>(base + idx[2 * o + 1] * s_axis)
        u = <int32_t>w[2 * o]
        v = <int32_t>w[2 * o + 1]
        acc[o * c] = u * <int32_t>x[0] + v * <int32_t>y[0]
        if c > 1:
            acc[o * c + 1] = u * <int32_t>x[1] + v * <int32_t>y[1]
        if c > 2:
            acc[o * c + 2] = u * <int32_t>x[2] + v * <int32_t>y[2]
        if c > 3:
            acc[o * c + 3] = u * <int32_t>x[3] + v * <int32_t>y[3]


cdef inline void _phase_up2(const in_t* tag, const char* base, const PassDesc* p,
                            const Py_ssize_t c, int32_t* acc) noexcept nogil:
    # The x2 run of a dense two-tap table (exact._up2_run): output pixels 2i and 2i + 1,
    # i in [lo, hi), read pixels i + pd[0], i + pd[1] and i + pd[2], i + pd[3] with the
    # weights pq[0..3]; pixels of c <= 4 elements, c a constant at each call. The same sums
    # as _pairs, with affine addresses instead of an index per output (so they vectorise).
    cdef const in_t* x = <const in_t*>base
    cdef Py_ssize_t i, j
    cdef Py_ssize_t d0 = p.pd[0] * c, d1 = p.pd[1] * c, d2 = p.pd[2] * c, d3 = p.pd[3] * c
    cdef int32_t u0 = <int32_t>p.pq[0], v0 = <int32_t>p.pq[1]
    cdef int32_t u1 = <int32_t>p.pq[2], v1 = <int32_t>p.pq[3]
    for i in range(p.lo, p.hi):
        for j in range(c):
            acc[2 * i * c + j] = u0 * <int32_t>x[i * c + d0 + j] + v0 * <int32_t>x[i * c + d1 + j]
            acc[(2 * i + 1) * c + j] = (u1 * <int32_t>x[i * c + d2 + j]
                                        + v1 * <int32_t>x[i * c + d3 + j])


cdef inline void _phase_up2_k4(const in_t* tag, const char* base, const PassDesc* p,
                               const Py_ssize_t c, int32_t* acc) noexcept nogil:
    # As _phase_up2 for four taps per output: output pixel 2i + r, i in [lo, hi), reads
    # pixels i + rd[4r + t] with the weights rw[4r + t] (OpenCV's cubic at x2).
    cdef const in_t* x = <const in_t*>base
    cdef Py_ssize_t i, j
    cdef Py_ssize_t a0 = p.rd[0] * c, a1 = p.rd[1] * c, a2 = p.rd[2] * c, a3 = p.rd[3] * c
    cdef Py_ssize_t b0 = p.rd[4] * c, b1 = p.rd[5] * c, b2 = p.rd[6] * c, b3 = p.rd[7] * c
    cdef int32_t u0 = <int32_t>p.rw[0], u1 = <int32_t>p.rw[1], u2 = <int32_t>p.rw[2]
    cdef int32_t u3 = <int32_t>p.rw[3], v0 = <int32_t>p.rw[4], v1 = <int32_t>p.rw[5]
    cdef int32_t v2 = <int32_t>p.rw[6], v3 = <int32_t>p.rw[7]
    cdef const in_t* y
    for i in range(p.lo, p.hi):
        y = x + i * c
        for j in range(c):
            acc[2 * i * c + j] = (u0 * <int32_t>y[a0 + j] + u1 * <int32_t>y[a1 + j]
                                  + u2 * <int32_t>y[a2 + j] + u3 * <int32_t>y[a3 + j])
            acc[(2 * i + 1) * c + j] = (v0 * <int32_t>y[b0 + j] + v1 * <int32_t>y[b1 + j]
                                        + v2 * <int32_t>y[b2 + j] + v3 * <int32_t>y[b3 + j])


cdef inline void _short_up2_k4(const in_t* tag, const char* base, const PassDesc* p,
                               Py_ssize_t n_out, const Py_ssize_t c, int64_t s_axis,
                               const int64_t* ptr, const int64_t* idx, const int64_t* w,
                               int32_t* acc) noexcept nogil:
    # A four-tap row with a x2 run: the outputs before and after it by _short_rows
    cdef Py_ssize_t a = 2 * p.lo, b = 2 * p.hi
    _short_rows(tag, base, a, c, s_axis, ptr, idx, w, acc, 0)
    _phase_up2_k4(tag, base, p, c, acc)
    _short_rows(tag, base, n_out - b, c, s_axis, ptr + b, idx, w, acc + b * c, 0)


cdef inline void _pairs_up2(const in_t* tag, const char* base, const PassDesc* p,
                            Py_ssize_t n_out, const Py_ssize_t c, int64_t s_axis,
                            const int64_t* idx, const int64_t* w, int32_t* acc) noexcept nogil:
    # A dense two-tap row with an x2 run: the outputs before and after it by _pairs
    cdef Py_ssize_t a = 2 * p.lo, b = 2 * p.hi
    _pairs(tag, base, a, c, s_axis, idx, w, acc)
    _phase_up2(tag, base, p, c, acc)
    _pairs(tag, base, n_out - b, c, s_axis, idx + 2 * b, w + 2 * b, acc + b * c)


cdef inline void _down2_row(const uint8_t* x, const PassDesc* p, Py_ssize_t c,
                            uint8_t* planes, int32_t* acc) noexcept nogil:
    # The x0.5 run of a first pass over uint8 pixels (exact._down2_run): outputs o in
    # [lo, hi) read pixels 2 o + rd[t]. The row is unzipped into its even and odd pixels, so
    # each tap reads one contiguous run of elements: even rd[t] from the even pixels at
    # o + rd[t] / 2, odd from the odd ones at o + (rd[t] - 1) / 2. The same integer sums.
    cdef Py_ssize_t n_in = p.n_in, half = n_in // 2, ne = (n_in + 1) // 2, t, d
    cdef uint8_t* ev = planes
    cdef uint8_t* od = planes + ne * c + 16
    cdef const uint8_t* rows[8]
    rx_unzip2_8(x, ev, od, half, c)
    if n_in % 2:
        memcpy(ev + half * c, x + 2 * half * c, c)
    for t in range(p.rk):
        d = p.rd[t]
        if d & 1:
            rows[t] = od + (p.lo + ((d - 1) >> 1)) * c
        else:
            rows[t] = ev + (p.lo + (d >> 1)) * c
    if p.rk == 4:
        rx_taps4_u8(rows[0], rows[1], rows[2], rows[3], p.rw, (p.hi - p.lo) * c,
                    acc + p.lo * c)
    else:
        rx_taps8_u8(rows, p.rw, (p.hi - p.lo) * c, acc + p.lo * c)


cdef inline void _pairs_any(const in_t* tag, const char* base, Py_ssize_t n_out,
                            Py_ssize_t c, int64_t s_axis, const int64_t* idx,
                            const int64_t* w, int32_t* acc, int64_t n_in) noexcept nogil:
    # _pairs for pixels of 1 to 4 elements, the count a constant at each call; uint8 pixels
    # of 2 to 4 elements one multiply-add of 16-bit pairs each (rx_pairs_px_u8; n_in: the
    # row's pixels)
    if c == 1:
        _pairs(tag, base, n_out, 1, s_axis, idx, w, acc)
    elif c == 2:
        if not (in_t is uint8_t and rx_pairs_px_u8(<const uint8_t*>base, n_out, 2, s_axis,
                                                   idx, w, acc, 0, NULL, n_in)):
            _pairs(tag, base, n_out, 2, s_axis, idx, w, acc)
    elif c == 3:
        if not (in_t is uint8_t and rx_pairs_px_u8(<const uint8_t*>base, n_out, 3, s_axis,
                                                   idx, w, acc, 0, NULL, n_in)):
            _pairs(tag, base, n_out, 3, s_axis, idx, w, acc)
    else:
        if not (in_t is uint8_t and rx_pairs_px_u8(<const uint8_t*>base, n_out, 4, s_axis,
                                                   idx, w, acc, 0, NULL, n_in)):
            _pairs(tag, base, n_out, 4, s_axis, idx, w, acc)


cdef inline void _taps_any(const in_t* tag, const char* base, Py_ssize_t n_out,
                           Py_ssize_t c, Py_ssize_t k, int64_t s_axis, const int64_t* idx,
                           const int64_t* w, int32_t* acc, int64_t n_in) noexcept nogil:
    # _short_rows of a dense table of 4 or 8 taps, pixels of 1 to 4 elements; uint8 pixels
    # two taps per multiply-add of 16-bit pairs (rx_taps_px_u8; the planner keeps the
    # weights in int16; n_in: the row's pixels)
    if in_t is uint8_t and rx_taps_px_u8(<const uint8_t*>base, n_out, <int>c, s_axis, <int>k,
                                         idx, w, acc, n_in):
        return
    if k == 4:
        _short_any(tag, base, n_out, c, s_axis, NULL, idx, w, acc, 4)
    else:
        _short_any(tag, base, n_out, c, s_axis, NULL, idx, w, acc, 8)


cdef inline void _sum_row(const in_t* tag, const PassDesc* p, const char* base,
                          Py_ssize_t n_out, Py_ssize_t inner, int64_t s_axis,
                          const int64_t* ptr, const int64_t* idx, const int64_t* w,
                          int32_t* acc, Py_ssize_t dense, uint8_t* planes,
                          const int32_t* pre) noexcept nogil:
    # Plain sums (no shifts, no finish) of every output of one row, into int32 (the planner
    # bounded them): the first pass of a fused pair. dense == 2, 4 or 8: every output has
    # that many taps (4 and 8: weights within int16). pre: the table of a uint8 pass of 4 or
    # 8 taps laid out for its rows (rx_taps_px_u8_prep: offsets, packed weights, weight
    # pairs, flags), or NULL.
    cdef Py_ssize_t o, t, j
    cdef const in_t* x
    cdef int32_t wt
    cdef int32_t* a
    if dense == 2 and inner <= 4 and p.phase == PHASE_UP2:
        if inner == 1:
            _pairs_up2(tag, base, p, n_out, 1, s_axis, idx, w, acc)
        elif inner == 2:
            _pairs_up2(tag, base, p, n_out, 2, s_axis, idx, w, acc)
        elif inner == 3:
            _pairs_up2(tag, base, p, n_out, 3, s_axis, idx, w, acc)
        else:
            _pairs_up2(tag, base, p, n_out, 4, s_axis, idx, w, acc)
    elif p.phase == PHASE_UP2 and p.rk == 8 and inner <= 4:
        if inner == 1:
            _short_up2_k4(tag, base, p, n_out, 1, s_axis, ptr, idx, w, acc)
        elif inner == 2:
            _short_up2_k4(tag, base, p, n_out, 2, s_axis, ptr, idx, w, acc)
        elif inner == 3:
            _short_up2_k4(tag, base, p, n_out, 3, s_axis, ptr, idx, w, acc)
        else:
            _short_up2_k4(tag, base, p, n_out, 4, s_axis, ptr, idx, w, acc)
    elif in_t is uint8_t and p.phase == PHASE_DOWN2 and inner <= 4:
        _short_any(tag, base, p.lo, inner, s_axis, ptr, idx, w, acc, 0)
        _down2_row(<const uint8_t*>base, p, inner, planes, acc)
        _short_any(tag, base, n_out - p.hi, inner, s_axis, ptr + p.hi, idx, w,
                   acc + p.hi * inner, 0)
    elif dense == 2 and inner <= 4:
        _pairs_any(tag, base, n_out, inner, s_axis, idx, w, acc, p.n_in)
    elif (dense == 4 or dense == 8) and 1 <= inner <= 4:
        if in_t is uint8_t and pre != NULL:
            rx_taps_pre_u8(<const uint8_t*>base, n_out, <int>inner, <int>dense, pre,
                           pre + n_out * dense, pre + 3 * n_out * dense,
                           <const uint8_t*>(pre + 3 * n_out * dense + n_out * (dense // 2)),
                           acc)
        else:
            _taps_any(tag, base, n_out, inner, dense, s_axis, idx, w, acc, p.n_in)
    elif 1 <= inner <= 4:
        _short_any(tag, base, n_out, inner, s_axis, ptr, idx, w, acc, 0)
    else:
        for o in range(n_out):
            a = acc + o * inner
            for j in range(inner):
                a[j] = 0
            for t in range(ptr[o], ptr[o + 1]):
                x = <const in_t*>(base + idx[t] * s_axis)
                wt = <int32_t>w[t]
                for j in range(inner):
                    a[j] = a[j] + wt * <int32_t>x[j]


cdef inline void _narrow_up2(const PassDesc* p, const char* base, int32_t* tmp, int16_t* row,
                             int16_t* spare) noexcept nogil:
    # A first-pass row of a narrow ring (PassDesc.narrow) with a x2 run: its sums shifted
    # right by pre, as int16. The inside of the run is computed as its even and its odd
    # outputs, each one contiguous row of elements (pixel i + pd[0] and i + pd[1] for output
    # 2i, ...), then zipped by pixel; the outputs around it through the table. (Other narrow
    # rows: _sum_row, then rx_narrow16, in _fused_rows.)
    cdef Py_ssize_t n_out = p.shape[2], c = p.shape[3], a = 2 * p.lo, b = 2 * p.hi
    cdef Py_ssize_t m = (p.hi - p.lo) * c
    cdef const uint8_t* x = <const uint8_t*>base
    cdef const int64_t* w2 = <const int64_t*>p.w2
    cdef int16_t* od = spare + m + 8     # 8 elements of slack after each (rx_zip2_16, c == 3)
    _pairs_any(<const uint8_t*>NULL, base, a, c, p.sstr[2], p.idx2, w2, tmp, p.n_in)
    rx_narrow16(tmp, a * c, p.pre, row)
    _pairs_any(<const uint8_t*>NULL, base, n_out - b, c, p.sstr[2], p.idx2 + 2 * b, w2 + 2 * b,
               tmp, p.n_in)
    rx_narrow16(tmp, (n_out - b) * c, p.pre, row + b * c)
    rx_pair16_u8(x + (p.lo + p.pd[0]) * c, x + (p.lo + p.pd[1]) * c, <int32_t>p.pq[0],
                 <int32_t>p.pq[1], p.pre, m, spare)
    rx_pair16_u8(x + (p.lo + p.pd[2]) * c, x + (p.lo + p.pd[3]) * c, <int32_t>p.pq[2],
                 <int32_t>p.pq[3], p.pre, m, od)
    rx_zip2_16(spare, od, row + a * c, p.hi - p.lo, c)


cdef inline void _float_head(const PassDesc* p, const int32_t* ring, Py_ssize_t n_row,
                             Py_ssize_t o, float* f, char* d) noexcept nogil:
    # The first p.head elements of output row o in float32: the taps from the last to the
    # first, acc = (w * hscale) * (float)x + acc (each product rounded, then the sum), then
    # rounded half to even and saturated (only 8-bit outputs take this form).
    cdef Py_ssize_t t, j, t0 = p.ptr[o], t1 = p.ptr[o + 1]
    cdef const int64_t* w = <const int64_t*>p.w
    cdef const int32_t* h
    cdef float wf, v
    h = ring + (p.off[t1 - 1] % p.k) * n_row
    wf = <float>w[t1 - 1] * p.hscale
    for j in range(p.head):
        f[j] = wf * <float>h[j]
    for t in range(t1 - 2, t0 - 1, -1):
        h = ring + (p.off[t] % p.k) * n_row
        wf = <float>w[t] * p.hscale
        for j in range(p.head):
            f[j] = wf * <float>h[j] + f[j]
    if p.dst_kind == E_U8:
        for j in range(p.head):
            v = rintf(f[j])
            (<uint8_t*>d)[j] = <uint8_t>(0 if v < 0 else (255 if v > 255 else v))
    else:
        for j in range(p.head):
            v = rintf(f[j])
            (<int8_t*>d)[j] = <int8_t>(-128 if v < -128 else (127 if v > 127 else v))


cdef void _fused_rows(const in_t* tag, const PassDesc* p, const char* src, char* dst,
                      Py_ssize_t q, Py_ssize_t o0, Py_ssize_t o1, iacc_t* acc,
                      int32_t* ring) noexcept nogil:
    # Output rows [o0, o1) of outer index q. Each input row the second pass reads is summed by
    # the first pass once into a ring of p.k rows (slot = row % k: the rows one output reads
    # lie within k consecutive rows, so they never share a slot), then blended.
    cdef Py_ssize_t n_row = p.shape[2] * p.shape[3], o, t, j, r, slot, m, nt
    cdef Py_ssize_t tags[16]
    cdef const int32_t* rows[4]
    cdef const int64_t* w = <const int64_t*>p.w
    cdef const int32_t* h
    cdef iacc_t wt
    cdef iacc_t* a
    cdef char* d
    cdef const char* base = src + q * p.sstr[0]
    cdef int32_t* pre = NULL
    cdef Py_ssize_t nb = p.shape[2], kk = p.n_mid
    if in_t is uint8_t and (kk == 4 or kk == 8) and 1 <= p.shape[3] <= 4 \
            and p.phase == PHASE_NONE:
        # the first pass's table laid out once for all these rows (rx_taps_px_u8_prep): k
        # offsets, k / 4 groups of 8 packed weights, the k / 2 weight pairs once and a flag
        # an output
        pre = <int32_t*>malloc(nb * (3 * kk + kk // 2) * sizeof(int32_t) + nb)
        if pre != NULL and not rx_taps_px_u8_prep(
                nb, <int>p.shape[3], p.sstr[2], <int>kk, p.idx2, <const int64_t*>p.w2, p.n_in,
                pre, pre + nb * kk, pre + 3 * nb * kk,
                <uint8_t*>(pre + 3 * nb * kk + nb * (kk // 2))):
            free(pre)
            pre = NULL
    for slot in range(p.k):
        tags[slot] = -1
    for o in range(o0, o1):
        for t in range(p.ptr[o], p.ptr[o + 1]):
            r = p.off[t]
            slot = r % p.k
            if tags[slot] != r:
                _sum_row(tag, p, base + r * p.sstr[1], p.shape[2], p.shape[3], p.sstr[2],
                         p.ptr2, p.idx2, <const int64_t*>p.w2, ring + slot * n_row, p.n_mid,
                         <uint8_t*>(ring + p.k * n_row), pre)
                tags[slot] = r
        d = dst + q * p.dstr[0] + o * p.dstr[1]
        nt = p.ptr[o + 1] - p.ptr[o]
        if p.head > 0 and nt == 4 and p.dst_kind == E_U8:
            # each element in a register from its first tap to its store (_intpass_simd.h)
            t = p.ptr[o]
            rx_head4_u8(ring + (p.off[t] % p.k) * n_row, ring + (p.off[t + 1] % p.k) * n_row,
                        ring + (p.off[t + 2] % p.k) * n_row,
                        ring + (p.off[t + 3] % p.k) * n_row, <float>w[t] * p.hscale,
                        <float>w[t + 1] * p.hscale, <float>w[t + 2] * p.hscale,
                        <float>w[t + 3] * p.hscale, p.head, <uint8_t*>d)
        elif p.head > 0:
            _float_head(p, ring, n_row, o, <float*>acc, d)
        m = n_row - p.head
        if iacc_t is int32_t and p.finish == 0 and p.dst_kind == E_U8 and (nt == 2 or nt == 4) \
                and p.pre == 0 and p.post == 0:
            # each element in a register from its first tap to its store (_intpass_simd.h)
            for t in range(nt):
                rows[t] = ring + (p.off[p.ptr[o] + t] % p.k) * n_row + p.head
            if nt == 2:
                rx_blend2_u8(rows[0], rows[1], <int32_t>w[p.ptr[o]], <int32_t>w[p.ptr[o] + 1],
                             m, <int32_t>p.bias, <int32_t>p.mult, p.shift,
                             <uint8_t*>(d + p.head * p.dstr[3]))
            else:
                rx_blend4_u8(rows[0], rows[1], rows[2], rows[3], w + p.ptr[o], m,
                             <int32_t>p.bias, <int32_t>p.mult, p.shift,
                             <uint8_t*>(d + p.head * p.dstr[3]))
            continue
        a = acc + p.head
        for j in range(m):
            a[j] = 0
        for t in range(p.ptr[o], p.ptr[o + 1]):
            h = ring + (p.off[t] % p.k) * n_row + p.head
            wt = <iacc_t>w[t]
            if p.pre == 0 and p.post == 0:
                for j in range(m):
                    a[j] = a[j] + wt * <iacc_t>h[j]
            else:
                for j in range(m):
                    a[j] = a[j] + (((<iacc_t>h[j] >> p.pre) * wt) >> p.post)
        _finish(a, m, p.finish, p.bias, p.mult, p.shift, p.fmul)
        _store_row(a, d + p.head * p.dstr[3], m, p.dst_kind)
    free(pre)


cdef inline bint _pairs_narrow(const PassDesc* p, const char* row, int16_t* out) noexcept nogil:
    # a narrow ring's row of pixels of 2 to 4 elements straight to int16 (rx_pairs_px_u8;
    # _pairs_any and rx_narrow16 otherwise)
    cdef Py_ssize_t c = p.shape[3]
    if c == 2:
        return rx_pairs_px_u8(<const uint8_t*>row, p.shape[2], 2, p.sstr[2], p.idx2,
                              <const int64_t*>p.w2, NULL, p.pre, out, p.n_in)
    if c == 3:
        return rx_pairs_px_u8(<const uint8_t*>row, p.shape[2], 3, p.sstr[2], p.idx2,
                              <const int64_t*>p.w2, NULL, p.pre, out, p.n_in)
    if c == 4:
        return rx_pairs_px_u8(<const uint8_t*>row, p.shape[2], 4, p.sstr[2], p.idx2,
                              <const int64_t*>p.w2, NULL, p.pre, out, p.n_in)
    return False


cdef void _narrow_rows(const PassDesc* p, const char* src, char* dst, Py_ssize_t q,
                       Py_ssize_t o0, Py_ssize_t o1, int32_t* acc,
                       int16_t* ring) noexcept nogil:
    # _fused_rows for a narrow ring (PassDesc.narrow; uint8 pixels of at most 4 elements,
    # two taps for every output of both passes, int32 sums): each input row's sums shifted
    # right by pre into the int16 ring once, every output blended from two ring rows with
    # 16-bit high products. Its own function, and without a second call of _sum_row: the
    # compiler then keeps inlining _sum_row, and its run kernels with their channel counts
    # fixed, into _fused_rows (measured: twice the time of OpenCV's uint8 cubic at x2 else).
    cdef Py_ssize_t n_row = p.shape[2] * p.shape[3], o, t, r, slot
    cdef Py_ssize_t tags[16]
    cdef const int64_t* w = <const int64_t*>p.w
    cdef const char* base = src + q * p.sstr[0]
    cdef bint up2 = p.phase == PHASE_UP2
    # the first pass's table laid out once for these rows (rx_pairs_px_u8_prep), where it can
    cdef int32_t* off = NULL
    cdef int32_t* pk = NULL
    cdef uint8_t* adj = NULL
    cdef bint laid = False
    if not up2 and 1 <= p.shape[3] <= 4:
        off = <int32_t*>malloc(p.shape[2] * (3 * sizeof(int32_t) + 1) + 1)
        if off != NULL:
            pk = off + 2 * p.shape[2]
            adj = <uint8_t*>(pk + p.shape[2])
            laid = rx_pairs_px_u8_prep(p.shape[2], <int>p.shape[3], p.sstr[2], p.idx2,
                                       <const int64_t*>p.w2, p.n_in, off, pk, adj)
    for slot in range(p.k):
        tags[slot] = -1
    for o in range(o0, o1):
        for t in range(p.ptr[o], p.ptr[o + 1]):
            r = p.off[t]
            slot = r % p.k
            if tags[slot] != r:
                if up2:
                    _narrow_up2(p, base + r * p.sstr[1], acc, ring + slot * n_row,
                                ring + p.k * n_row)
                elif laid:
                    rx_pairs_pre_u8(<const uint8_t*>(base + r * p.sstr[1]), p.shape[2],
                                    <int>p.shape[3], off, pk, adj, p.pre,
                                    ring + slot * n_row)
                elif not _pairs_narrow(p, base + r * p.sstr[1], ring + slot * n_row):
                    # two taps for every output (the planner's condition)
                    _pairs_any(<const uint8_t*>NULL, base + r * p.sstr[1], p.shape[2],
                               p.shape[3], p.sstr[2], p.idx2, <const int64_t*>p.w2, acc, p.n_in)
                    rx_narrow16(acc, n_row, p.pre, ring + slot * n_row)
                tags[slot] = r
        t = p.ptr[o]
        rx_blend2_s16(ring + (p.off[t] % p.k) * n_row, ring + (p.off[t + 1] % p.k) * n_row,
                      <int32_t>w[t], <int32_t>w[t + 1], n_row, <int32_t>p.bias, p.shift,
                      <uint8_t*>(dst + q * p.dstr[0] + o * p.dstr[1]))
    free(off)


cdef inline void _rows(const in_t* tag, const PassDesc* p, const char* src, char* dst,
                       Py_ssize_t q, Py_ssize_t o0, Py_ssize_t o1, iacc_t* acc,
                       int32_t* ring) noexcept nogil:
    if in_t is uint8_t and iacc_t is int32_t and p.narrow:
        _narrow_rows(p, src, dst, q, o0, o1, acc, <int16_t*>ring)
    else:
        _fused_rows(tag, p, src, dst, q, o0, o1, acc, ring)


cdef void _fused_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const in_t* t1,
                      const iacc_t* t2) noexcept nogil:
    # item q * chunks + c: run c of output rows (of `chunks` runs of `per` rows) in outer
    # index q
    cdef const PassJob* j = <const PassJob*>ctx
    cdef Py_ssize_t item, q, c
    cdef char* mine = <char*>j.bufs + tid * j.p.buf_len * 4
    for item in range(lo, hi):
        q = item // j.chunks
        c = item - q * j.chunks
        _rows(t1, j.p, j.src, j.dst, q, c * j.per, min(j.p.shape[1], (c + 1) * j.per),
              <iacc_t*>mine, <int32_t*>(mine + j.n_row * sizeof(iacc_t)))


cdef void _fused_typed(const in_t* tag, const PassDesc* p, const char* src, char* dst,
                       iacc_t* b, int nthreads) noexcept nogil:
    # One contiguous run of output rows per thread and outer index: the rows at the edge of a
    # run are summed by both neighbours, so runs are few (the values do not depend on them).
    # (one thread: one run of every row per outer index)
    cdef Py_ssize_t n_out = p.shape[1], n_row = p.shape[2] * p.shape[3]
    cdef Py_ssize_t chunks = max(1, min(n_out, <Py_ssize_t>nthreads))
    cdef Py_ssize_t per = (n_out + chunks - 1) // chunks
    cdef PassJob j
    j.p, j.src, j.dst, j.bufs, j.chunks, j.per, j.n_row = p, src, dst, b, chunks, per, n_row
    pool_run(<body_fn>_fused_body[in_t, iacc_t], &j, p.shape[0] * chunks, nthreads)


cdef inline void _fused_acc(const PassDesc* p, const char* src, char* dst, iacc_t* b,
                            int nthreads) noexcept nogil:
    if p.src_kind == E_U8:
        _fused_typed(<const uint8_t*>NULL, p, src, dst, b, nthreads)
    elif p.src_kind == E_I8:
        _fused_typed(<const int8_t*>NULL, p, src, dst, b, nthreads)
    elif p.src_kind == E_U16:
        _fused_typed(<const uint16_t*>NULL, p, src, dst, b, nthreads)
    else:
        _fused_typed(<const int16_t*>NULL, p, src, dst, b, nthreads)


cdef void int_fused_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                        int nthreads) noexcept nogil:
    """Two integer passes in one sweep (``_pass.pxd``, OP_INT_FUSED): the first, plain sums in
    int32 over the inner axis b (CSR ``ptr2``/``idx2``/``w2``; ``n_mid`` == 2: exactly two
    taps per output), the second over the axis a
    just outside it (``ptr``/``off``/``w``, with the shifts and finish of the integer pass and
    its accumulator ``compute``). ``shape`` = ``(outer, n_out_a, n_out_b, inner)``, ``sstr``
    the source's strides over ``(outer, a, b, element)``, ``dstr`` the output's; ``k`` rows
    of ring; ``units``: the most threads it can use; ``bufs``: per thread
    ``buf_len`` int32 words (an accumulator row, then the ring). The values are those of the
    two passes run one after the other: integer sums, in any order, are the same."""
    if p.compute == ACC_INT32:
        _fused_acc(p, src, dst, <int32_t*>bufs, nthreads)
    else:
        _fused_acc(p, src, dst, <int64_t*>bufs, nthreads)


# ---- the executor's entry point (the kernel contract, _pass.pxd: OP_INT) ----

cdef void _run_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const in_t* t1,
                    const iacc_t* t2) noexcept nogil:
    cdef const PassJob* j = <const PassJob*>ctx
    cdef const PassDesc* p = j.p
    cdef Py_ssize_t r
    for r in range(lo, hi):
        _item(t1, j.src, j.dst, r, p.loop, p.shape[1], p.shape[2], p.sstr[0], p.sstr[1],
              p.dstr[0], p.dstr[1], p.ptr, p.off, <const int64_t*>p.w, p.pre, p.post, p.bias,
              p.mult, p.shift, p.finish, p.fmul, p.dst_kind, <iacc_t*>j.bufs + tid * p.buf_len)


cdef void _run_typed(const in_t* tag, const PassDesc* p, const char* src, char* dst,
                     iacc_t* b, int nthreads) noexcept nogil:
    cdef Py_ssize_t items = p.shape[0] * p.shape[1] if p.loop == 0 else p.shape[0]
    cdef PassJob j
    j.p, j.src, j.dst, j.bufs = p, src, dst, b
    pool_run(<body_fn>_run_body[in_t, iacc_t], &j, items, nthreads)


cdef void int_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                  int nthreads) noexcept nogil:
    """One integer tap pass of a program (``_pass.pxd``, OP_INT): the arithmetic of the module
    docstring, with ``shape``/``sstr``/``dstr`` = ``(outer, n_out, inner)`` and the strides of
    the source ``(s_outer, s_axis, size)`` and destination; ``bufs``: ``nthreads`` rows of
    ``buf_len`` accumulators, int32 where ``compute`` is ``ACC_INT32`` (the planner bounded
    every sum, biased and multiplied, inside int32), else int64. Work items are whole output rows or outer indices (never one output's
    sum), so the values do not depend on the thread count."""
    if p.compute == ACC_INT32:
        _run_acc(p, src, dst, <int32_t*>bufs, nthreads)
    else:
        _run_acc(p, src, dst, <int64_t*>bufs, nthreads)


cdef inline void _run_acc(const PassDesc* p, const char* src, char* dst, iacc_t* b,
                          int nthreads) noexcept nogil:
    if p.src_kind == E_U8:
        _run_typed(<const uint8_t*>NULL, p, src, dst, b, nthreads)
    elif p.src_kind == E_I8:
        _run_typed(<const int8_t*>NULL, p, src, dst, b, nthreads)
    elif p.src_kind == E_U16:
        _run_typed(<const uint16_t*>NULL, p, src, dst, b, nthreads)
    elif p.src_kind == E_I16:
        _run_typed(<const int16_t*>NULL, p, src, dst, b, nthreads)
    elif p.src_kind == E_I32:
        _run_typed(<const int32_t*>NULL, p, src, dst, b, nthreads)
    else:
        _run_typed(<const int64_t*>NULL, p, src, dst, b, nthreads)


cdef KernelTable _table
_table.ints = int_run
_table.ints_fused = int_fused_run


def kernel_table():
    """This module's entry points (the kernel contract, ``_pass.pxd``) as a PyCapsule named
    ``resamplex.kernels`` holding a ``KernelTable``; the executor (``_exec.pyx``) reads it."""
    return PyCapsule_New(<void*>&_table, b"resamplex.kernels", NULL)
