# cython: language_level=3
"""Weighted separable pass: resample one axis of an N-D array through a tap table.

Preconditions (the facade guarantees them; nothing here is checked):
- ``shape`` is the *output* shape of this pass in iteration order (innermost axis last),
  every entry >= 1, ``1 <= ndim <= 64``; ``0 <= axis < ndim``;
- ``src_strides`` / ``dst_strides`` are byte strides in the same order (``src_strides[axis]`` is
  unused: it is folded into ``offsets``); source and destination do not overlap, both aligned
  for their element type;
- the taps of output index ``o`` along ``axis`` are, in CSR form, ``t`` in
  ``[ptr[o], ptr[o + 1])``: read the element at byte offset ``offsets[t]`` (index * source
  stride, index in range), weight ``w[t]``; ``len(ptr) == shape[axis] + 1``; an output with no
  taps is 0. For the innermost axis the table comes in dense form instead (see
  ``weighted_pass``): ``k`` taps per output over a row loaded into contiguous accumulators;
- ``bufs`` has ``nthreads`` rows of scratch, as long as each entry point says;
- ``src_kind`` / ``dst_kind`` are ``_dtypes.KIND`` codes, ``rounding`` a ``_dtypes.ROUNDING``
  code; the accumulator is float64 for float64 data and float32 for everything else.

Loop shapes: the resampled axis innermost (gather taps per output element from the loaded
row), second-innermost with a short innermost axis (channels-last: blend short rows), or
further out (blend whole contiguous rows, which vectorises). ``fused_pass`` runs an outer pass
and the innermost pass in one sweep, one output row at a time, without a scratch array.

Arithmetic: ``acc = w[t0] * x[t0]; acc = acc + w[t] * x[t]`` in tap order, in the accumulator
type, with no fused multiply-add (the build passes ``-ffp-contract=off``). Every loop shape below
uses exactly this sequence, so the result does not depend on which one runs, on the number of
threads, or on vectorisation. The value is rounded once, on store: float16 and bfloat16 to
nearest-even, integers by ``rounding`` after saturating to the type's range (NaN saturates to
the low end; it cannot arise from integer data).
"""

from cython.parallel cimport prange, threadid
from libc.math cimport roundf, round as round_d
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int64_t

from resamplex._engine._fused cimport (
    f16_t, bf16_t, src_t, acc_t,
    K_F64, K_F32, K_F16, K_BF16, K_I8, K_U8, K_I16, K_U16,
    R_HALF_EVEN, R_HALF_AWAY, R_TOWARD_ZERO,
)
from resamplex._engine._half cimport (
    half_to_float, float_to_half, bf16_to_float, float_to_bf16,
)
from resamplex._engine._openmp cimport RESAMPLEX_OPENMP, resamplex_max_threads


cdef extern from "_simd.h" nogil:
    void rx_dense4x2_f32(const float* tmp4, float* r0, float* r1, float* r2, float* r3,
                         Py_ssize_t n, const int64_t* idx, const float* w)
    void rx_store8_f32(const float* buf, void* dst, Py_ssize_t n, float lo, float hi)
    void rx_store_f16(const float* buf, uint16_t* d, Py_ssize_t n)
    void rx_store_bf16(const float* buf, uint16_t* d, Py_ssize_t n)
    void rx_load_f16(const uint16_t* s, float* out, Py_ssize_t n)


ctypedef fused int_t:
    int8_t
    uint8_t
    int16_t
    uint16_t


cdef inline acc_t _ld(const src_t* p, const acc_t* tag) noexcept nogil:
    # Load one element as the accumulator type; `tag` only selects the specialisation.
    if src_t is f16_t:
        return <acc_t>half_to_float(p[0].bits)
    elif src_t is bf16_t:
        return <acc_t>bf16_to_float(p[0].bits)
    else:
        return <acc_t>p[0]


cdef inline void _row_load(const char* s, acc_t* tmp, Py_ssize_t n, int64_t ss,
                           const src_t* tag) noexcept nogil:
    # One input row into contiguous accumulators, plus the zero that padding taps read.
    cdef Py_ssize_t j
    if src_t is f16_t:
        if acc_t is float:
            if ss == 2:
                rx_load_f16(<const uint16_t*>s, tmp, n)
                tmp[n] = 0
                return
    if ss == sizeof(src_t):
        for j in range(n):
            tmp[j] = _ld((<const src_t*>s) + j, tmp)
    else:
        for j in range(n):
            tmp[j] = _ld(<const src_t*>(s + j * ss), tmp)
    tmp[n] = 0


cdef inline void _row_dense(const acc_t* tmp, acc_t* out, Py_ssize_t n, Py_ssize_t k,
                            const int64_t* idx, const acc_t* w) noexcept nogil:
    # Innermost-axis taps in dense form: k taps per output, padded with (sentinel, -0.0).
    # x + (-0.0) == x for every x, so padding leaves each sum bitwise as the tap list alone
    # would give it; an output with no taps has weight +0.0 in its first slot and comes out +0.
    cdef Py_ssize_t o, j
    cdef acc_t acc
    if k == 1:
        for o in range(n):
            out[o] = w[o] * tmp[idx[o]]
    elif k == 2:
        for o in range(n):
            out[o] = w[2 * o] * tmp[idx[2 * o]] + w[2 * o + 1] * tmp[idx[2 * o + 1]]
    else:
        for o in range(n):
            acc = w[o * k] * tmp[idx[o * k]]
            for j in range(1, k):
                acc = acc + w[o * k + j] * tmp[idx[o * k + j]]
            out[o] = acc


cdef inline void _row_csr(const char* s, acc_t* buf, Py_ssize_t o0, Py_ssize_t n,
                          const int64_t* ptr, const int64_t* off, const acc_t* w,
                          const src_t* tag) noexcept nogil:
    # Innermost-axis taps read in place (CSR, byte offsets), outputs [o0, o0 + n): for rows
    # too long to load into scratch. Same sums as _row_dense.
    cdef Py_ssize_t o, t
    cdef acc_t acc
    for o in range(o0, o0 + n):
        t = ptr[o]
        if t == ptr[o + 1]:
            acc = 0
        else:
            acc = w[t] * _ld(<const src_t*>(s + off[t]), w)
            for t in range(ptr[o] + 1, ptr[o + 1]):
                acc = acc + w[t] * _ld(<const src_t*>(s + off[t]), w)
        buf[o - o0] = acc


cdef inline void _row_outer_f16(const char* s, float* buf, Py_ssize_t n, Py_ssize_t t0,
                                Py_ssize_t t1, const int64_t* off,
                                const float* w) noexcept nogil:
    # float16 rows for _row_outer: convert 256 elements at a time (vectorised), blend as float.
    cdef float chunk[256]
    cdef Py_ssize_t j, j0 = 0, m, t
    cdef float wt
    while j0 < n:
        m = min(<Py_ssize_t>256, n - j0)
        rx_load_f16(<const uint16_t*>(s + off[t0]) + j0, chunk, m)
        wt = w[t0]
        for j in range(m):
            buf[j0 + j] = wt * chunk[j]
        for t in range(t0 + 1, t1):
            rx_load_f16(<const uint16_t*>(s + off[t]) + j0, chunk, m)
            wt = w[t]
            for j in range(m):
                buf[j0 + j] = buf[j0 + j] + wt * chunk[j]
        j0 += m


cdef inline void _row_outer(const char* s, acc_t* buf, Py_ssize_t n, int64_t ss,
                            Py_ssize_t t0, Py_ssize_t t1, const int64_t* off, const acc_t* w,
                            const src_t* tag) noexcept nogil:
    # The resampled axis is an outer one: the output row is a blend of whole input rows.
    # Contiguous rows get a plain indexed loop, which the compiler vectorises.
    cdef Py_ssize_t j, t
    cdef acc_t wt
    cdef const char* r
    cdef const src_t* p
    if t0 == t1:
        for j in range(n):
            buf[j] = 0
        return
    if src_t is f16_t:
        if acc_t is float:
            if ss == 2:
                _row_outer_f16(s, buf, n, t0, t1, off, w)
                return
    r = s + off[t0]
    wt = w[t0]
    if ss == sizeof(src_t):
        p = <const src_t*>r
        for j in range(n):
            buf[j] = wt * _ld(p + j, w)
    else:
        for j in range(n):
            buf[j] = wt * _ld(<const src_t*>(r + j * ss), w)
    for t in range(t0 + 1, t1):
        r = s + off[t]
        wt = w[t]
        if ss == sizeof(src_t):
            p = <const src_t*>r
            for j in range(n):
                buf[j] = buf[j] + wt * _ld(p + j, w)
        else:
            for j in range(n):
                buf[j] = buf[j] + wt * _ld(<const src_t*>(r + j * ss), w)


cdef inline void _store_int(const acc_t* buf, char* d, Py_ssize_t n, int64_t ds, acc_t lo,
                            acc_t hi, int rounding, const int_t* tag) noexcept nogil:
    # Saturate, then round. The bounds are integers, so clamping first gives the same result
    # as rounding first, and keeps every value small enough for the magic-number rounding.
    cdef Py_ssize_t j
    cdef acc_t v
    cdef acc_t magic
    if acc_t is float:
        magic = 12582912.0          # 1.5 * 2^23: adding and subtracting it rounds half-even
    else:
        magic = 6755399441055744.0  # 1.5 * 2^52
    cdef int_t* p = <int_t*>d
    if acc_t is float and sizeof(int_t) == 1 and rounding == R_HALF_EVEN and ds == 1:
        rx_store8_f32(buf, d, n, lo, hi)
    elif rounding == R_HALF_EVEN and ds == sizeof(int_t):
        # Contiguous: branch-free min/max (the `a < b ? b : a` form compilers map to vector
        # max/min instructions), then an indexed store, so the loop vectorises.
        for j in range(n):
            v = buf[j]
            v = lo if v < lo else v
            v = hi if v > hi else v
            p[j] = <int_t>(<int>((v + magic) - magic))
    elif rounding == R_HALF_EVEN:
        for j in range(n):
            v = buf[j]
            v = v if v >= lo else lo
            v = v if v <= hi else hi
            (<int_t*>(d + j * ds))[0] = <int_t>((v + magic) - magic)
    elif rounding == R_HALF_AWAY:
        for j in range(n):
            v = buf[j]
            v = v if v >= lo else lo
            v = v if v <= hi else hi
            if acc_t is float:
                (<int_t*>(d + j * ds))[0] = <int_t>roundf(v)
            else:
                (<int_t*>(d + j * ds))[0] = <int_t>round_d(v)
    else:
        for j in range(n):
            v = buf[j]
            v = v if v >= lo else lo
            v = v if v <= hi else hi
            (<int_t*>(d + j * ds))[0] = <int_t>v     # C conversion truncates toward zero


cdef inline void _store(const acc_t* buf, char* d, Py_ssize_t n, int64_t ds, int kind,
                        int rounding) noexcept nogil:
    # Round a row of accumulators once, into the destination type.
    cdef Py_ssize_t j
    if kind == K_F64:
        for j in range(n):
            (<double*>(d + j * ds))[0] = buf[j]
    elif kind == K_F32:
        for j in range(n):
            (<float*>(d + j * ds))[0] = <float>buf[j]
    elif kind == K_F16:
        if acc_t is float:
            if ds == 2:
                rx_store_f16(buf, <uint16_t*>d, n)
                return
        for j in range(n):
            (<uint16_t*>(d + j * ds))[0] = float_to_half(<float>buf[j])
    elif kind == K_BF16:
        if acc_t is float:
            if ds == 2:
                rx_store_bf16(buf, <uint16_t*>d, n)
                return
        for j in range(n):
            (<uint16_t*>(d + j * ds))[0] = float_to_bf16(<float>buf[j])
    elif kind == K_I8:
        _store_int(buf, d, n, ds, -128, 127, rounding, <const int8_t*>NULL)
    elif kind == K_U8:
        _store_int(buf, d, n, ds, 0, 255, rounding, <const uint8_t*>NULL)
    elif kind == K_I16:
        _store_int(buf, d, n, ds, -32768, 32767, rounding, <const int16_t*>NULL)
    elif kind == K_U16:
        _store_int(buf, d, n, ds, 0, 65535, rounding, <const uint16_t*>NULL)


cdef inline void _row_mid(const char* s, acc_t* buf, Py_ssize_t n, Py_ssize_t c, int64_t sc,
                          const int64_t* ptr, const int64_t* off, const acc_t* w,
                          const src_t* tag) noexcept nogil:
    # The resampled axis is second-innermost with a short innermost axis (channels-last):
    # output (o, k) = sum_t w[t] * x[idx[t], k], written as one row of n * c values.
    cdef Py_ssize_t o, t, k
    cdef acc_t wt
    cdef acc_t* b
    cdef const char* r
    for o in range(n):
        b = buf + o * c
        t = ptr[o]
        if t == ptr[o + 1]:
            for k in range(c):
                b[k] = 0
            continue
        r = s + off[t]
        wt = w[t]
        for k in range(c):
            b[k] = wt * _ld(<const src_t*>(r + k * sc), w)
        for t in range(ptr[o] + 1, ptr[o + 1]):
            r = s + off[t]
            wt = w[t]
            for k in range(c):
                b[k] = b[k] + wt * _ld(<const src_t*>(r + k * sc), w)


cdef inline bint _direct(int dst_kind, int64_t stride, const acc_t* tag) noexcept nogil:
    # The accumulators can be written straight into the destination row.
    if acc_t is float:
        return dst_kind == K_F32 and stride == sizeof(float)
    else:
        return dst_kind == K_F64 and stride == sizeof(double)


# Loop shapes of one pass (chosen in Python, once per pass).
cdef enum:
    SHAPE_LAST = 0   # resampled axis innermost: gather taps per output element
    SHAPE_MID = 1    # resampled axis second-innermost, short innermost axis: blend short rows
    SHAPE_OUTER = 2  # resampled axis further out: blend whole rows
    SHAPE_LAST_CSR = 3  # resampled axis innermost, rows too long to load: taps read in place
    BLOCK = 4096     # elements per store block of the long-row loop shapes


cdef inline void _pass_row(const char* src, char* dst, Py_ssize_t r, int ndim,
                           const int64_t* shape, const int64_t* sstr, const int64_t* dstr,
                           int axis, int loop, Py_ssize_t n_in, Py_ssize_t k,
                           const int64_t* ptr, const int64_t* off, const acc_t* w, acc_t* buf,
                           int dst_kind, int rounding, const src_t* tag) noexcept nogil:
    # Row r of this pass's output: C-order over the axes outside the row.
    cdef Py_ssize_t rem = r, q, o = 0, n
    cdef int64_t so = 0, do = 0
    cdef int d, top = ndim - 3 if loop == SHAPE_MID else ndim - 2
    cdef acc_t* out
    for d in range(top, -1, -1):
        q = rem % shape[d]
        rem = rem // shape[d]
        do += q * dstr[d]
        if d == axis:
            o = q
        else:
            so += q * sstr[d]
    if loop == SHAPE_MID:
        n = shape[ndim - 2] * shape[ndim - 1]
    else:
        n = shape[ndim - 1]
    cdef Py_ssize_t j0, m
    cdef bint direct = _direct(dst_kind, dstr[ndim - 1], w)
    out = <acc_t*>(dst + do) if direct else buf
    if loop == SHAPE_LAST:
        # buf holds the output row, then the loaded input row (n_in + 1)
        _row_load(src + so, buf + n, n_in, sstr[ndim - 1], tag)
        _row_dense(buf + n, out, n, k, off, w)
    elif loop == SHAPE_MID:
        _row_mid(src + so, out, shape[ndim - 2], shape[ndim - 1], sstr[ndim - 1], ptr, off, w,
                 tag)
    else:
        # Long rows go in blocks, so scratch stays BLOCK elements whatever the row length.
        j0 = 0
        while j0 < n:
            m = min(<Py_ssize_t>BLOCK, n - j0)
            if direct:
                out = <acc_t*>(dst + do + j0 * dstr[ndim - 1])
            if loop == SHAPE_LAST_CSR:
                _row_csr(src + so, out, j0, m, ptr, off, w, tag)
            else:
                _row_outer(src + so + j0 * sstr[ndim - 1], out, m, sstr[ndim - 1], ptr[o],
                           ptr[o + 1], off, w, tag)
            if not direct:
                _store(buf, dst + do + j0 * dstr[ndim - 1], m, dstr[ndim - 1], dst_kind,
                       rounding)
            j0 += m
        return
    if not direct:
        _store(buf, dst + do, n, dstr[ndim - 1], dst_kind, rounding)


cdef void _pass(const src_t* src, char* dst, int ndim, const int64_t* shape,
                const int64_t* sstr, const int64_t* dstr, int axis, int loop,
                Py_ssize_t n_in, Py_ssize_t k,
                const int64_t* ptr, const int64_t* off, const acc_t* w, acc_t* bufs,
                Py_ssize_t buf_len, int dst_kind, int rounding, int nthreads) noexcept nogil:
    cdef Py_ssize_t rows = 1, r
    cdef int d
    for d in range(ndim - (2 if loop == SHAPE_MID else 1)):
        rows *= shape[d]
    for r in prange(rows, num_threads=nthreads, schedule="static"):
        _pass_row(<const char*>src, dst, r, ndim, shape, sstr, dstr, axis, loop, n_in, k, ptr,
                  off, w, bufs + threadid() * buf_len, dst_kind, rounding, src)


cdef inline void _fused_row(const char* src, char* dst, Py_ssize_t r, int ndim,
                            const int64_t* shape, const int64_t* sstr, const int64_t* dstr,
                            int axis, Py_ssize_t n_mid, const int64_t* ptr1,
                            const int64_t* off1, const acc_t* w1, Py_ssize_t k,
                            const int64_t* idx2, const acc_t* w2, acc_t* tmp, acc_t* buf,
                            int dst_kind, int rounding, const src_t* tag) noexcept nogil:
    # Two passes for one output row: blend input rows along `axis` into `tmp` (the row the
    # separate outer pass would have stored, in the same arithmetic), then resample `tmp`
    # along the innermost axis. Bitwise the same as running the passes one after the other.
    cdef Py_ssize_t rem = r, q, o = 0
    cdef int64_t so = 0, do = 0
    cdef int d
    cdef Py_ssize_t n = shape[ndim - 1]
    cdef acc_t* out
    for d in range(ndim - 2, -1, -1):
        q = rem % shape[d]
        rem = rem // shape[d]
        do += q * dstr[d]
        if d == axis:
            o = q
        else:
            so += q * sstr[d]
    _row_outer(src + so, tmp, n_mid, sstr[ndim - 1], ptr1[o], ptr1[o + 1], off1, w1, tag)
    tmp[n_mid] = 0
    out = <acc_t*>(dst + do) if _direct(dst_kind, dstr[ndim - 1], w1) else buf
    _row_dense(tmp, out, n, k, idx2, w2)
    if out == buf:
        _store(buf, dst + do, n, dstr[ndim - 1], dst_kind, rounding)


cdef void _fused(const src_t* src, char* dst, int ndim, const int64_t* shape,
                 const int64_t* sstr, const int64_t* dstr, int axis, Py_ssize_t n_mid,
                 const int64_t* ptr1, const int64_t* off1, const acc_t* w1,
                 Py_ssize_t k, const int64_t* idx2, const acc_t* w2, acc_t* bufs,
                 Py_ssize_t buf_len, int dst_kind, int rounding, int nthreads) noexcept nogil:
    cdef Py_ssize_t rows = 1, r
    cdef int d
    cdef acc_t* mine
    for d in range(ndim - 1):
        rows *= shape[d]
    for r in prange(rows, num_threads=nthreads, schedule="static"):
        mine = bufs + threadid() * buf_len
        _fused_row(<const char*>src, dst, r, ndim, shape, sstr, dstr, axis, n_mid, ptr1, off1,
                   w1, k, idx2, w2, mine, mine + n_mid + 1, dst_kind, rounding, src)


cdef inline void _dense4(const acc_t* tmp4, acc_t* acc4, Py_ssize_t o, Py_ssize_t k,
                         const int64_t* idx, const acc_t* w) noexcept nogil:
    # _row_dense for four interleaved rows at once: lane b is row b, same sums per lane.
    cdef Py_ssize_t j, b
    cdef const acc_t* p
    cdef acc_t wt = w[o * k]
    p = tmp4 + 4 * idx[o * k]
    for b in range(4):
        acc4[b] = wt * p[b]
    for j in range(1, k):
        wt = w[o * k + j]
        p = tmp4 + 4 * idx[o * k + j]
        for b in range(4):
            acc4[b] = acc4[b] + wt * p[b]


cdef inline void _dense4x2(const acc_t* tmp4, acc_t* r0, acc_t* r1, acc_t* r2, acc_t* r3,
                           Py_ssize_t n, const int64_t* idx, const acc_t* w) noexcept nogil:
    # The common case of _dense4 (two taps, four full rows) written out, so the compiler keeps
    # the four lanes in one vector register.
    cdef Py_ssize_t o
    cdef const acc_t* p
    cdef const acc_t* q
    cdef acc_t wa, wb
    if acc_t is float:
        rx_dense4x2_f32(tmp4, r0, r1, r2, r3, n, idx, w)
    else:
        for o in range(n):
            p = tmp4 + 4 * idx[2 * o]
            q = tmp4 + 4 * idx[2 * o + 1]
            wa = w[2 * o]
            wb = w[2 * o + 1]
            r0[o] = wa * p[0] + wb * q[0]
            r1[o] = wa * p[1] + wb * q[1]
            r2[o] = wa * p[2] + wb * q[2]
            r3[o] = wa * p[3] + wb * q[3]


cdef inline void _fused_block(const char* src, char* dst, Py_ssize_t blk, Py_ssize_t nb,
                              int ndim, const int64_t* shape, const int64_t* sstr,
                              const int64_t* dstr, Py_ssize_t n_mid, const int64_t* ptr1,
                              const int64_t* off1, const acc_t* w1, Py_ssize_t k,
                              const int64_t* idx2, const acc_t* w2, acc_t* scratch,
                              int dst_kind, int rounding, const src_t* tag) noexcept nogil:
    # Up to four consecutive output rows along the fused axis (axis ndim - 2): their blended
    # input rows are interleaved so that the innermost taps run four rows per vector.
    # Per row and output, the arithmetic is _fused_row's exactly.
    cdef Py_ssize_t rem = blk // nb, q, j, b, o, nrow
    cdef Py_ssize_t o0 = (blk % nb) * 4
    cdef Py_ssize_t n = shape[ndim - 1]
    cdef int64_t so = 0, do = 0
    cdef int d
    cdef acc_t* row = scratch
    cdef acc_t* tmp4 = scratch + n_mid
    cdef acc_t* outs = tmp4 + 4 * (n_mid + 1)
    cdef acc_t acc4[4]
    cdef acc_t* orow[4]
    cdef bint direct = _direct(dst_kind, dstr[ndim - 1], w1)
    nrow = shape[ndim - 2] - o0
    if nrow > 4:
        nrow = 4
    for d in range(ndim - 3, -1, -1):
        q = rem % shape[d]
        rem = rem // shape[d]
        so += q * sstr[d]
        do += q * dstr[d]
    for b in range(4):
        if b < nrow:
            _row_outer(src + so, row, n_mid, sstr[ndim - 1], ptr1[o0 + b], ptr1[o0 + b + 1],
                       off1, w1, tag)
            for j in range(n_mid):
                tmp4[4 * j + b] = row[j]
        else:
            for j in range(n_mid):
                tmp4[4 * j + b] = 0
        tmp4[4 * n_mid + b] = 0
        orow[b] = <acc_t*>(dst + do + (o0 + b) * dstr[ndim - 2]) if direct else outs + b * n
    if k == 2 and nrow == 4:
        _dense4x2(tmp4, orow[0], orow[1], orow[2], orow[3], n, idx2, w2)
    else:
        for o in range(n):
            _dense4(tmp4, acc4, o, k, idx2, w2)
            for b in range(nrow):
                orow[b][o] = acc4[b]
    if not direct:
        for b in range(nrow):
            _store(outs + b * n, dst + do + (o0 + b) * dstr[ndim - 2], n, dstr[ndim - 1],
                   dst_kind, rounding)


cdef void _fused4(const src_t* src, char* dst, int ndim, const int64_t* shape,
                  const int64_t* sstr, const int64_t* dstr, Py_ssize_t n_mid,
                  const int64_t* ptr1, const int64_t* off1, const acc_t* w1,
                  Py_ssize_t k, const int64_t* idx2, const acc_t* w2, acc_t* bufs,
                  Py_ssize_t buf_len, int dst_kind, int rounding, int nthreads) noexcept nogil:
    cdef Py_ssize_t outer = 1, nb = (shape[ndim - 2] + 3) // 4, blk
    cdef int d
    for d in range(ndim - 2):
        outer *= shape[d]
    for blk in prange(outer * nb, num_threads=nthreads, schedule="static"):
        _fused_block(<const char*>src, dst, blk, nb, ndim, shape, sstr, dstr, n_mid, ptr1,
                     off1, w1, k, idx2, w2, bufs + threadid() * buf_len, dst_kind, rounding,
                     src)


cdef inline const void* _nonempty(const int64_t[::1] a):
    return &a[0] if a.shape[0] else NULL


def weighted_pass(int src_kind, int dst_kind, int rounding,
                  size_t src, const int64_t[::1] src_strides,
                  size_t dst, const int64_t[::1] dst_strides,
                  const int64_t[::1] shape, int axis, int loop, Py_ssize_t n_in, Py_ssize_t k,
                  const int64_t[::1] ptr, const int64_t[::1] offsets, const acc_t[::1] weights,
                  acc_t[:, ::1] bufs, int nthreads):
    """Resample ``axis`` of ``src`` into ``dst`` (see the module docstring). GIL released.

    ``loop`` is the loop shape: 0 = ``axis`` is the innermost axis; the table is then in dense
    form (``k`` taps per output, ``offsets`` holding element indices into the input row of
    length ``n_in``, padding taps index ``n_in`` with weight -0.0; ``ptr`` unused) and ``bufs``
    rows hold ``shape[-1] + n_in + 1`` accumulators. 1 = ``axis`` is the second-innermost
    (output rows are ``shape[-2] * shape[-1]`` long, contiguous in ``dst``:
    ``dst_strides[-2] == shape[-1] * dst_strides[-1]``). 2 = any other axis. For 1 and 2 the
    table is the CSR form with byte ``offsets``. 3 = ``axis`` is the innermost axis, CSR form,
    taps read in place (rows too long to load into scratch). For 2 and 3, ``bufs`` rows hold
    ``min(shape[-1], 4096)`` accumulators.
    """
    cdef int ndim = shape.shape[0]
    cdef Py_ssize_t buf_len = bufs.shape[1]
    cdef char* d = <char*>dst
    cdef const int64_t* sh = &shape[0]
    cdef const int64_t* ss = &src_strides[0]
    cdef const int64_t* ds = &dst_strides[0]
    cdef const int64_t* p = &ptr[0]
    cdef const int64_t* of = <const int64_t*>_nonempty(offsets)
    cdef const acc_t* w = &weights[0] if weights.shape[0] else NULL
    cdef acc_t* b = &bufs[0, 0]
    with nogil:
        if src_kind == K_F64:
            _pass(<const double*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_F32:
            _pass(<const float*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_F16:
            _pass(<const f16_t*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_BF16:
            _pass(<const bf16_t*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_I8:
            _pass(<const int8_t*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_U8:
            _pass(<const uint8_t*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_I16:
            _pass(<const int16_t*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_U16:
            _pass(<const uint16_t*>src, d, ndim, sh, ss, ds, axis, loop, n_in, k, p, of, w, b, buf_len, dst_kind, rounding, nthreads)


def fused_pass(int src_kind, int dst_kind, int rounding,
               size_t src, const int64_t[::1] src_strides,
               size_t dst, const int64_t[::1] dst_strides,
               const int64_t[::1] shape, int axis, Py_ssize_t n_mid,
               const int64_t[::1] ptr1, const int64_t[::1] offsets1, const acc_t[::1] weights1,
               Py_ssize_t k, const int64_t[::1] idx2, const acc_t[::1] weights2,
               acc_t[:, ::1] bufs, int nthreads):
    """Two passes in one sweep: ``axis`` (an outer axis, CSR table 1 with byte offsets), then
    the innermost axis (table 2 in the dense form of ``weighted_pass`` loop 0, over a row of
    length ``n_mid``).

    ``shape`` is the final output shape; ``src_strides[-1]`` strides the input's innermost axis.
    ``bufs`` rows hold ``n_mid + 1 + shape[-1]`` accumulators, or, when ``axis`` is the
    second-innermost axis (four output rows per step), ``5 * n_mid + 4 + 4 * shape[-1]``.
    GIL released.
    """
    cdef int ndim = shape.shape[0]
    cdef Py_ssize_t buf_len = bufs.shape[1]
    cdef char* d = <char*>dst
    cdef const int64_t* sh = &shape[0]
    cdef const int64_t* ss = &src_strides[0]
    cdef const int64_t* ds = &dst_strides[0]
    cdef const int64_t* p1 = &ptr1[0]
    cdef const int64_t* o1 = <const int64_t*>_nonempty(offsets1)
    cdef const int64_t* o2 = &idx2[0]
    cdef const acc_t* w1 = &weights1[0] if weights1.shape[0] else NULL
    cdef const acc_t* w2 = &weights2[0] if weights2.shape[0] else NULL
    cdef acc_t* b = &bufs[0, 0]
    if axis == ndim - 2:
        with nogil:
            if src_kind == K_F64:
                _fused4(<const double*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
            elif src_kind == K_F32:
                _fused4(<const float*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
            elif src_kind == K_F16:
                _fused4(<const f16_t*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
            elif src_kind == K_BF16:
                _fused4(<const bf16_t*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
            elif src_kind == K_I8:
                _fused4(<const int8_t*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
            elif src_kind == K_U8:
                _fused4(<const uint8_t*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
            elif src_kind == K_I16:
                _fused4(<const int16_t*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
            elif src_kind == K_U16:
                _fused4(<const uint16_t*>src, d, ndim, sh, ss, ds, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        return
    with nogil:
        if src_kind == K_F64:
            _fused(<const double*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_F32:
            _fused(<const float*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_F16:
            _fused(<const f16_t*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_BF16:
            _fused(<const bf16_t*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_I8:
            _fused(<const int8_t*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_U8:
            _fused(<const uint8_t*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_I16:
            _fused(<const int16_t*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)
        elif src_kind == K_U16:
            _fused(<const uint16_t*>src, d, ndim, sh, ss, ds, axis, n_mid, p1, o1, w1, k, o2, w2, b, buf_len, dst_kind, rounding, nthreads)


# ---- build facts and conversion hooks (used by show_config and the exhaustive tests) ----

def openmp_enabled():
    """True if the kernels were compiled with OpenMP."""
    return bool(RESAMPLEX_OPENMP)


def max_threads():
    """``omp_get_max_threads()`` now (1 without OpenMP); follows OMP_NUM_THREADS, threadpoolctl."""
    return resamplex_max_threads()


def half_to_float32(const uint16_t[::1] bits, float[::1] out):
    """float16 bit patterns -> float32, with the kernels' own conversion."""
    cdef Py_ssize_t i
    for i in range(bits.shape[0]):
        out[i] = half_to_float(bits[i])


def float32_to_half(const float[::1] values, uint16_t[::1] out):
    """float32 -> float16 bit patterns (round to nearest-even), with the kernels' conversion."""
    cdef Py_ssize_t i
    for i in range(values.shape[0]):
        out[i] = float_to_half(values[i])


def half_rows_to_float32(const uint16_t[::1] bits, float[::1] out):
    """float16 bit patterns -> float32 with the vectorised row conversion of the kernels."""
    if bits.shape[0]:
        rx_load_f16(&bits[0], &out[0], bits.shape[0])


def float32_to_half_rows(const float[::1] values, uint16_t[::1] out):
    """float32 -> float16 bit patterns with the vectorised row conversion of the kernels."""
    if values.shape[0]:
        rx_store_f16(&values[0], &out[0], values.shape[0])


def float32_to_bf16_rows(const float[::1] values, uint16_t[::1] out):
    """float32 -> bfloat16 bit patterns with the vectorised row conversion of the kernels."""
    if values.shape[0]:
        rx_store_bf16(&values[0], &out[0], values.shape[0])


def bf16_to_float32(const uint16_t[::1] bits, float[::1] out):
    """bfloat16 bit patterns -> float32, with the kernels' own conversion."""
    cdef Py_ssize_t i
    for i in range(bits.shape[0]):
        out[i] = bf16_to_float(bits[i])


def float32_to_bf16(const float[::1] values, uint16_t[::1] out):
    """float32 -> bfloat16 bit patterns (round to nearest-even), with the kernels' conversion."""
    cdef Py_ssize_t i
    for i in range(values.shape[0]):
        out[i] = float_to_bf16(values[i])
