# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The planner's loops over the entries of axis tables, run once per new shape.

A call on a shape seen before finds its plan in a cache; a call on a new shape (a random crop
resized to 224 x 224, a new size every call) builds one. Written with NumPy, building a 2-d
image's plan was a few hundred small array operations on a few hundred entries each: 0.5-1 ms,
more than the resize itself. These loops do the same arithmetic in one pass each (a few
microseconds), with the same results bit for bit (the build passes ``-ffp-contract=off``;
float32 arithmetic is written as float32 operations, in NumPy's order):

- statistics of a table the pass compiler needs (``tap_bounds``, ``span_rows``,
  ``count_range``, ``regular_run``, ``int_weights``, ``two_taps``, ``exact_scaled``): what
  ``resamplex._engine.compile.exact`` derives from a table to choose and bound a fused pass;
- OpenCV's separable tables (``cv2_linear``, ``cv2_cubic``): ``hal::resize``'s coordinates
  and Q11 weights, as ``resamplex.compat.cv2`` documents them;
- OpenCV's uint8 linear and cubic calls planned at once (``cv2_u8_pair``): both tables and
  the fused integer pass ``exact._int_fused`` makes of them, in one call with no Python
  between the steps. It repeats that planner's decisions for this one pair of passes (each
  statistic above, by its native core), and a test compares its pass with the planner's
  field by field: a change to one must be made to the other.

Each statistic's loop is a ``cdef`` core over pointers (``_tap_bounds``, ...) that its Python
function and ``cv2_u8_pair`` both call.

Preconditions: tables are CSR (``ptr`` non-decreasing from 0, ``len(w) == ptr[-1]``); the
Python-facing functions check array lengths and raise ``ValueError``.
"""

import numpy as np

cimport numpy as cnp
from libc.math cimport floor, floorf, rintf
from libc.stdint cimport INT64_MAX, INT64_MIN, int64_t, uint64_t

cnp.import_array()


cdef inline int64_t _wrap_mul(int64_t a, int64_t b) noexcept nogil:
    # NumPy's int64 product: wraps modulo 2**64 (C's signed overflow is undefined)
    return <int64_t>(<uint64_t>a * <uint64_t>b)


cdef inline int64_t _abs64(int64_t v) noexcept nogil:
    # NumPy's np.abs on int64: the minimum stays itself
    return <int64_t>(0 - <uint64_t>v) if v < 0 else v


cdef void _check_csr(const int64_t[::1] ptr, Py_ssize_t nnz) except *:
    if ptr.shape[0] < 1 or ptr[0] != 0 or ptr[ptr.shape[0] - 1] != nnz:
        raise ValueError(f"a table's ptr must run from 0 to its {nnz} taps")
    cdef Py_ssize_t i
    for i in range(1, ptr.shape[0]):
        if ptr[i] < ptr[i - 1]:
            raise ValueError("a table's ptr must not decrease")


cdef struct Bounds:
    int64_t s_lo, s_hi, magnitude, w_max


cdef void _tap_bounds(const int64_t* ptr, Py_ssize_t n, const int64_t* w, int64_t a, int64_t b,
                      int post, Bounds* r) noexcept nogil:
    # tap_bounds over n outputs (post in 0..63)
    cdef Py_ssize_t o, t
    cdef int64_t ta, tb, lo_sum, hi_sum, mag_sum, mn, mx, mg, aw
    r.s_lo = r.s_hi = r.magnitude = r.w_max = 0
    for o in range(n):
        lo_sum = hi_sum = mag_sum = 0
        for t in range(ptr[o], ptr[o + 1]):
            ta = _wrap_mul(a, w[t]) >> post
            tb = _wrap_mul(b, w[t]) >> post
            mn, mx = (ta, tb) if ta <= tb else (tb, ta)
            mg = _abs64(ta)
            if _abs64(tb) > mg:
                mg = _abs64(tb)
            lo_sum = <int64_t>(<uint64_t>lo_sum + <uint64_t>mn)
            hi_sum = <int64_t>(<uint64_t>hi_sum + <uint64_t>mx)
            mag_sum = <int64_t>(<uint64_t>mag_sum + <uint64_t>mg)
            aw = _abs64(w[t])
            if aw > r.w_max:
                r.w_max = aw
        if lo_sum < r.s_lo:
            r.s_lo = lo_sum
        if hi_sum > r.s_hi:
            r.s_hi = hi_sum
        if mag_sum > r.magnitude:
            r.magnitude = mag_sum


def tap_bounds(const int64_t[::1] ptr, const int64_t[::1] w, int64_t a, int64_t b, int post):
    """For an integer pass over inputs in ``[a, b]`` (already shifted by its ``pre``): the
    least and the largest sum of an output's terms ``(v * w) >> post`` (each term at whichever
    end is smaller or larger), the largest sum of their magnitudes, each with 0 included (an
    output without taps sums to 0), and ``max |w|``: ``(s_lo, s_hi, magnitude, w_max)``.
    Integer arithmetic is NumPy's int64 (products and sums wrap)."""
    _check_csr(ptr, w.shape[0])
    cdef Bounds r
    if post < 0 or post > 63:
        raise ValueError(f"post: a shift of 0..63 bits; got {post}")
    with nogil:
        _tap_bounds(&ptr[0], ptr.shape[0] - 1, &w[0] if w.shape[0] else NULL, a, b, post, &r)
    return r.s_lo, r.s_hi, r.magnitude, r.w_max


cdef int64_t _span_rows(const int64_t* ptr, const int64_t* idx, Py_ssize_t n) noexcept nogil:
    # span_rows over n outputs
    cdef Py_ssize_t o, t
    cdef int64_t lo, hi, span = 0
    for o in range(n):
        if ptr[o + 1] == ptr[o]:
            continue
        lo = hi = idx[ptr[o]]
        for t in range(ptr[o] + 1, ptr[o + 1]):
            if idx[t] < lo:
                lo = idx[t]
            elif idx[t] > hi:
                hi = idx[t]
        if hi - lo + 1 > span:
            span = hi - lo + 1
    return span


def span_rows(const int64_t[::1] ptr, const int64_t[::1] idx):
    """The most consecutive inputs one output spans, ``max(idx) - min(idx) + 1`` over the
    outputs with taps (0 when none has)."""
    _check_csr(ptr, idx.shape[0])
    cdef int64_t span
    with nogil:
        span = _span_rows(&ptr[0], &idx[0] if idx.shape[0] else NULL, ptr.shape[0] - 1)
    return span


cdef void _count_range(const int64_t* ptr, Py_ssize_t n, int64_t* lo,
                       int64_t* hi) noexcept nogil:
    # count_range over n >= 1 outputs
    cdef Py_ssize_t o
    cdef int64_t c
    lo[0], hi[0] = INT64_MAX, INT64_MIN
    for o in range(n):
        c = ptr[o + 1] - ptr[o]
        if c < lo[0]:
            lo[0] = c
        if c > hi[0]:
            hi[0] = c


def count_range(const int64_t[::1] ptr):
    """The fewest and the most taps of an output, ``(0, 0)`` without outputs (NumPy's
    ``np.diff(ptr).min(initial=...)`` is the caller's to choose)."""
    cdef int64_t lo, hi
    if ptr.shape[0] <= 1:
        return 0, 0
    with nogil:
        _count_range(&ptr[0], ptr.shape[0] - 1, &lo, &hi)
    return lo, hi


cdef bint _int_weights(const double* w, Py_ssize_t n, int64_t* o) noexcept nogil:
    # int_weights into o; False where a weight is not an int64 integer
    cdef Py_ssize_t t
    for t in range(n):
        # in [-2**63, 2**63): the cast is defined; outside (or NaN), not an int64 value
        if not (w[t] >= -9223372036854775808.0 and w[t] < 9223372036854775808.0):
            return False
        o[t] = <int64_t>w[t]
        if <double>o[t] != w[t]:
            return False
    return True


def int_weights(const double[::1] w):
    """``w`` as int64 where every weight is an integer that int64 holds exactly (NumPy's
    ``w.astype(np.int64)`` equal to ``w``), else None."""
    cdef Py_ssize_t n = w.shape[0]
    out = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef bint ok = True
    if n:
        with nogil:
            ok = _int_weights(&w[0], n, &o[0])
    return out if ok else None


cdef int64_t _abs_max(const int64_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t t
    cdef int64_t m = 0
    for t in range(n):
        if _abs64(w[t]) > m:
            m = _abs64(w[t])
    return m


def abs_max(const int64_t[::1] w):
    """``max |w|`` (0 when empty; NumPy's ``np.abs(w).max(initial=0)``)."""
    cdef int64_t m = 0
    if w.shape[0]:
        with nogil:
            m = _abs_max(&w[0], w.shape[0])
    return m


cdef void _two_taps(const int64_t* ptr, const int64_t* idx, const int64_t* w, Py_ssize_t n,
                    int64_t* p2, int64_t* i2, int64_t* v2) noexcept nogil:
    # two_taps into p2 (n + 1), i2 and v2 (2 n); every output has one or two taps
    cdef Py_ssize_t o
    for o in range(n + 1):
        p2[o] = 2 * o
    for o in range(n):
        i2[2 * o] = idx[ptr[o]]
        v2[2 * o] = w[ptr[o]]
        if ptr[o + 1] - ptr[o] == 2:
            i2[2 * o + 1] = idx[ptr[o] + 1]
            v2[2 * o + 1] = w[ptr[o] + 1]
        else:
            i2[2 * o + 1] = idx[ptr[o]]
            v2[2 * o + 1] = 0


def two_taps(const int64_t[::1] ptr, const int64_t[::1] idx, const int64_t[::1] w):
    """A table whose outputs have one or two taps as exactly two each: a one-tap output reads
    its sample again with weight 0 (the same sum). Returns ``(ptr2, idx2, w2)``, the taps
    ``2 * n_out``."""
    _check_csr(ptr, idx.shape[0])
    if w.shape[0] != idx.shape[0]:
        raise ValueError("idx and w: one weight a tap")
    cdef Py_ssize_t o, n = ptr.shape[0] - 1
    cdef int64_t c
    for o in range(n):
        c = ptr[o + 1] - ptr[o]
        if c != 1 and c != 2:
            raise ValueError(f"two_taps: output {o} has {c} taps")
    ptr2 = np.empty(n + 1, dtype=np.int64)
    idx2 = np.empty(2 * n, dtype=np.int64)
    w2 = np.empty(2 * n, dtype=np.int64)
    cdef int64_t[::1] p2 = ptr2, i2 = idx2, v2 = w2
    if n:
        with nogil:
            _two_taps(&ptr[0], &idx[0], &w[0], n, &p2[0], &i2[0], &v2[0])
    else:
        p2[0] = 0
    return ptr2, idx2, w2


cdef bint _exact_scaled(const int64_t* w, Py_ssize_t n, double scale) noexcept nogil:
    cdef Py_ssize_t t
    cdef float f, s = <float>scale
    for t in range(n):
        f = <float>w[t]
        if <double>f != <double>w[t] or <double>(f * s) / scale != <double>w[t]:
            return False
    return True


def exact_scaled(const int64_t[::1] w, double scale):
    """Whether every weight is exact in float32 and ``float32(w) * float32(scale)`` (a float32
    product) divided by ``scale`` in float64 gives it back: a float head's weights are then
    the integer pass's, scaled without a rounding (NumPy's ``array_equal`` of those arrays)."""
    cdef bint ok = True
    if w.shape[0]:
        with nogil:
            ok = _exact_scaled(&w[0], w.shape[0], scale)
    return ok


cdef inline bint _same_row(const int64_t* idx, const int64_t* w, Py_ssize_t r,
                           Py_ssize_t m, Py_ssize_t width, int64_t step) noexcept nogil:
    # row r's offsets idx - step * r and weights equal row m's
    cdef Py_ssize_t j
    for j in range(width):
        if idx[r * width + j] - step * r != idx[m * width + j] - step * m \
                or w[r * width + j] != w[m * width + j]:
            return False
    return True


cdef bint _regular_run(const int64_t* idx, const int64_t* w, Py_ssize_t rows, Py_ssize_t width,
                       int64_t step, int64_t limit, Py_ssize_t* lo,
                       Py_ssize_t* hi) noexcept nogil:
    # regular_run's rows [lo, hi), or False where it returns None
    cdef Py_ssize_t mid = rows // 2, j
    if not 0 < mid < rows - 1:
        return False
    for j in range(width):
        if _abs64(w[mid * width + j]) >= limit:
            return False
    lo[0] = mid
    while lo[0] > 0 and _same_row(idx, w, lo[0] - 1, mid, width, step):
        lo[0] -= 1
    hi[0] = mid + 1
    while hi[0] < rows and _same_row(idx, w, hi[0], mid, width, step):
        hi[0] += 1
    return hi[0] - lo[0] >= 4


def regular_run(const int64_t[::1] idx, const int64_t[::1] w, Py_ssize_t rows,
                Py_ssize_t width, int64_t step, int64_t limit=INT64_MAX):
    """Rows ``[lo, hi)`` around the middle row ``rows // 2`` whose offsets (``idx`` of row
    ``r`` minus ``step * r``; rows of ``width`` entries) and weights equal the middle row's,
    with those offsets and weights, as ``(lo, hi, offsets, weights)``; None when that run is
    shorter than 4 rows, the middle row has no neighbour, or a weight of the middle row has
    a magnitude of ``limit`` or more."""
    if rows < 0 or width < 1 or idx.shape[0] < rows * width or w.shape[0] < rows * width:
        raise ValueError("regular_run: rows x width entries of idx and w")
    cdef Py_ssize_t mid = rows // 2, lo = 0, hi = 0, j
    cdef bint found = False
    if rows >= 3:
        with nogil:
            found = _regular_run(&idx[0], &w[0], rows, width, step, limit, &lo, &hi)
    if not found:
        return None
    return (lo, hi, [idx[mid * width + j] - step * mid for j in range(width)],
            [w[mid * width + j] for j in range(width)])


# ------------------------------------------------------------------------------ OpenCV

cdef inline float _q11(float c) noexcept nogil:
    # saturate_cast<short>(c * INTER_RESIZE_COEF_SCALE): a float32 product, half to even
    cdef float q = rintf(c * <float>2048.0)
    if q > <float>32767.0:
        q = <float>32767.0
    if q < <float>-32768.0:
        q = <float>-32768.0
    return q


cdef inline int64_t _clamp(int64_t v, int64_t n) noexcept nogil:
    return 0 if v < 0 else (n - 1 if v > n - 1 else v)


cdef void _coord(Py_ssize_t o, double scale, double inv_scale, bint area_mode,
                 int64_t* s, float* f) noexcept nogil:
    # hal::resize's source index and float32 fraction of output o
    cdef double d = <double>o, sd
    cdef float v, fl
    if not area_mode:
        v = <float>((d + 0.5) * scale - 0.5)
        fl = floorf(v)
        s[0] = <int64_t>fl
        f[0] = v - fl
    else:
        sd = floor(d * scale)
        v = <float>((d + 1) - (sd + 1) * inv_scale)
        s[0] = <int64_t>sd
        f[0] = <float>0.0 if v <= 0 else v - floorf(v)


def _check_sizes(int64_t n_in, int64_t n_out, double inv_scale):
    if n_in < 1 or n_out < 1 or not inv_scale > 0:
        raise ValueError(f"OpenCV tables: n_in, n_out >= 1 and inv_scale > 0; got {n_in}, "
                         f"{n_out}, {inv_scale}")


cdef Py_ssize_t _cv2_linear(int64_t n_in, int64_t n_out, double inv_scale, bint horizontal,
                            bint fixed, bint area_mode, int64_t* ptr, int64_t* idx,
                            double* w) noexcept nogil:
    # cv2_linear into ptr (n_out + 1), idx and w (2 n_out); returns the taps made
    cdef double scale = 1.0 / inv_scale
    cdef Py_ssize_t o, t = 0
    cdef int64_t s
    cdef float f, w0, w1
    cdef bint one
    ptr[0] = 0
    for o in range(n_out):
        _coord(o, scale, inv_scale, area_mode, &s, &f)
        one = False
        if horizontal:
            # s never decreases: clamping each output is clamping the runs at both ends
            if s < 0:
                s = 0
                f = 0
            if s >= n_in - 1:
                s = n_in - 1
                f = 0
                one = True
        w0 = <float>1.0 - f
        w1 = f
        if fixed:
            w0 = _q11(w0)
            w1 = _q11(w1)
        if one:
            idx[t] = _clamp(s, n_in)
            w[t] = 2048.0 if fixed else 1.0
            t += 1
        else:
            idx[t] = _clamp(s, n_in)
            idx[t + 1] = _clamp(s + 1, n_in)
            w[t] = w0
            w[t + 1] = w1
            t += 2
        ptr[o + 1] = t
    return t


def cv2_linear(int64_t n_in, int64_t n_out, double inv_scale, bint horizontal, bint fixed,
               bint area_mode):
    """``INTER_LINEAR`` taps of one axis (``compat.cv2.linear_table`` documents the rule):
    ``(ptr, idx, w)``, weights float64 (Q11 integers when ``fixed``)."""
    _check_sizes(n_in, n_out, inv_scale)
    cdef Py_ssize_t t
    ptr_a = np.empty(n_out + 1, dtype=np.int64)
    idx_a = np.empty(2 * n_out, dtype=np.int64)
    w_a = np.empty(2 * n_out, dtype=np.float64)
    cdef int64_t[::1] ptr = ptr_a, idx = idx_a
    cdef double[::1] w = w_a
    with nogil:
        t = _cv2_linear(n_in, n_out, inv_scale, horizontal, fixed, area_mode, &ptr[0], &idx[0],
                        &w[0])
    return ptr_a, idx_a[:t], w_a[:t]


cdef void _cv2_cubic(int64_t n_in, int64_t n_out, double inv_scale, bint fixed, int64_t* ptr,
                     int64_t* idx, double* w) noexcept nogil:
    # cv2_cubic into ptr (n_out + 1), idx and w (4 n_out)
    cdef double scale = 1.0 / inv_scale
    cdef Py_ssize_t o, j
    cdef int64_t s
    cdef float x, x1, y
    cdef float c[4]
    cdef float A = -0.75, one = 1.0
    for o in range(n_out + 1):
        ptr[o] = 4 * o
    for o in range(n_out):
        _coord(o, scale, inv_scale, False, &s, &x)
        x1 = x + one
        c[0] = ((A * x1 - <float>5.0 * A) * x1 + <float>8.0 * A) * x1 - <float>4.0 * A
        c[1] = ((A + <float>2.0) * x - (A + <float>3.0)) * x * x + one
        y = one - x
        c[2] = ((A + <float>2.0) * y - (A + <float>3.0)) * y * y + one
        c[3] = one - c[0] - c[1] - c[2]
        for j in range(4):
            idx[4 * o + j] = _clamp(s - 1 + j, n_in)
            w[4 * o + j] = _q11(c[j]) if fixed else c[j]


def cv2_cubic(int64_t n_in, int64_t n_out, double inv_scale, bint fixed):
    """``INTER_CUBIC`` taps ``sx - 1 .. sx + 2`` (clamped) with ``interpolateCubic``
    (A = -0.75, float32, ``compat.cv2.cubic_coeffs``): ``(ptr, idx, w)``."""
    _check_sizes(n_in, n_out, inv_scale)
    ptr_a = np.empty(n_out + 1, dtype=np.int64)
    idx_a = np.empty(4 * n_out, dtype=np.int64)
    w_a = np.empty(4 * n_out, dtype=np.float64)
    cdef int64_t[::1] ptr = ptr_a, idx = idx_a
    cdef double[::1] w = w_a
    with nogil:
        _cv2_cubic(n_in, n_out, inv_scale, fixed, &ptr[0], &idx[0], &w[0])
    return ptr_a, idx_a, w_a


# ---------------------------------------------------------------- OpenCV, planned at once

cdef int64_t _INT32 = 2147483647


cdef object _four(int64_t a, int64_t b, int64_t c, int64_t d):
    # [a, b, c, d] as int64 (the program keeps the array as it is, without converting a list)
    cdef cnp.ndarray r = np.empty(4, np.int64)
    cdef int64_t* v = <int64_t*>cnp.PyArray_DATA(r)
    v[0], v[1], v[2], v[3] = a, b, c, d
    return r


cdef inline int64_t _floor_shift(int64_t v, int s) noexcept nogil:
    # Python's v >> s (floor) on int64 (GCC's >> of a negative value is arithmetic too)
    return v >> s


def cv2_u8_pair(int64_t H, int64_t W, int64_t C, int64_t row_stride, int64_t dh, int64_t dw,
                double inv_y, double inv_x, bint cubic, int op, int u8, int pre, int post,
                int64_t bias, int64_t mult, int shift, double head_scale, int lanes):
    """OpenCV's uint8 ``INTER_LINEAR`` / ``INTER_CUBIC`` of an ``(H, W, C)`` image (rows
    ``row_stride`` bytes apart, ``1 <= C <= 4``) to ``(dh, dw, C)``, planned in one call: both
    axes' tables (``cv2_linear``, ``cv2_cubic``, Q11) and the one fused integer pass
    ``resamplex._engine.compile.exact._int_fused`` makes of them (its first pass plain int32
    sums over the rows, its second ``pre``, ``post``, ``bias``, ``mult``, ``shift`` over the
    columns; ``head_scale`` > 0: the float32 head of ``lanes`` of a split second pass), as
    ``(spec, work)`` for ``_exec.Program``: the same fields and values that planner gives.
    None where that planner would take a phase kernel (a x2 or x0.5 run), accumulate in
    int64 on the first pass, or not fuse: the caller plans those as before. A new shape's
    plan then costs a few microseconds instead of the planner's Python (``compat.cv2``)."""
    if not (H >= 1 and W >= 1 and 1 <= C <= 4 and dh >= 1 and dw >= 1
            and row_stride >= W * C and inv_x > 0 and inv_y > 0 and 0 <= pre < 32
            and 0 <= post < 64 and 0 <= shift < 64):
        raise ValueError("cv2_u8_pair: a (H, W, C <= 4) image, positive sizes and scales")
    cdef int64_t k1 = 4 if cubic else 2, nnz_b, nnz_a, c_min, c_max, k, a, b, top, w_max2
    cdef int64_t lo1, hi1, n_row = dw * C, dense
    cdef Py_ssize_t r_lo, r_hi
    cdef bint ok, acc2, narrow = False
    cdef Bounds b1, b2
    ptr_b = np.empty(dw + 1, np.int64)
    idx_b = np.empty(k1 * dw, np.int64)
    w_b = np.empty(k1 * dw, np.int64)
    ptr_a = np.empty(dh + 1, np.int64)
    idx_a = np.empty(k1 * dh, np.int64)
    w_a = np.empty(k1 * dh, np.int64)
    wd = np.empty(k1 * max(dw, dh), np.float64)
    cdef int64_t[::1] pb = ptr_b, ib = idx_b, vb = w_b, pa = ptr_a, ia = idx_a, va = w_a
    cdef double[::1] f = wd
    with nogil:
        # the tables (float64 weights, as AxisTable holds them) and their integer weights
        if cubic:
            _cv2_cubic(W, dw, inv_x, True, &pb[0], &ib[0], &f[0])
            nnz_b = 4 * dw
        else:
            nnz_b = _cv2_linear(W, dw, inv_x, True, True, False, &pb[0], &ib[0], &f[0])
        ok = _int_weights(&f[0], nnz_b, &vb[0])
        if cubic:
            _cv2_cubic(H, dh, inv_y, True, &pa[0], &ia[0], &f[0])
            nnz_a = 4 * dh
        else:
            nnz_a = _cv2_linear(H, dh, inv_y, False, True, False, &pa[0], &ia[0], &f[0])
        ok = ok and _int_weights(&f[0], nnz_a, &va[0])
        # the first pass: plain int32 sums of uint8 (_fused_first)
        _tap_bounds(&pb[0], dw, &vb[0], 0, 255, 0, &b1)
        ok = ok and 255 * b1.w_max <= _INT32 and b1.magnitude <= _INT32
        lo1 = min(b1.s_lo, b1.s_hi) - 1
        hi1 = max(b1.s_lo, b1.s_hi) + 1
        lo1 = max(lo1, -_INT32 - 1)
        hi1 = min(hi1, _INT32)
        _count_range(&pb[0], dw, &c_min, &c_max)
    if not ok:
        return None
    if cubic:
        if c_min != 4 or c_max != 4:
            return None
        ptr2, idx2, w1 = ptr_b, idx_b, w_b
        # a x0.5 or x2 run takes a phase kernel (_down2_run, _up2_run with 4 taps)
        if dw >= 8 and _regular_run(&ib[0], &vb[0], dw, 4, 2, INT64_MAX, &r_lo, &r_hi):
            return None
        if dw // 2 >= 8 and _regular_run(&ib[0], &vb[0], dw // 2, 8, 1, 1 << 15, &r_lo, &r_hi):
            return None
        dense = 4 if _abs_max(&vb[0], nnz_b) <= 32767 else 0
    else:
        if c_min < 1 or c_max > 2:
            return None
        ptr2 = np.empty(dw + 1, np.int64)
        idx2 = np.empty(2 * dw, np.int64)
        w1 = np.empty(2 * dw, np.int64)
        _two_taps(&pb[0], &ib[0], &vb[0], dw, <int64_t*>cnp.PyArray_DATA(ptr2),
                  <int64_t*>cnp.PyArray_DATA(idx2), <int64_t*>cnp.PyArray_DATA(w1))
        if dw // 2 >= 8 and _regular_run(<int64_t*>cnp.PyArray_DATA(idx2),
                                         <int64_t*>cnp.PyArray_DATA(w1), dw // 2, 4, 1,
                                         1 << 15, &r_lo, &r_hi):
            return None     # a x2 run (_up2_run)
        dense = 2
    # the second pass (_fused_second, _int_bounds, _narrow)
    k = _span_rows(&pa[0], &ia[0], dh)
    if k > 16:
        return None
    acc2 = False
    if max(-lo1, hi1) <= _INT32:
        a = _floor_shift(lo1, pre)
        b = _floor_shift(hi1, pre)
        _tap_bounds(&pa[0], dh, &va[0], a, b, post, &b2)
        acc2 = (max(_abs64(a), _abs64(b)) * b2.w_max <= _INT32
                and (b2.magnitude + _abs64(bias)) * max(1, _abs64(mult)) <= _INT32)
    if head_scale != 0 and not _exact_scaled(&va[0], nnz_a, head_scale):
        return None
    if dense == 2 and head_scale == 0 and acc2 and mult == 1 and post == 16:
        _count_range(&pa[0], dh, &c_min, &c_max)
        w_max2 = _abs_max(&va[0], nnz_a)
        top = max(_abs64(_floor_shift(lo1, pre)), _abs64(_floor_shift(hi1, pre)))
        narrow = (c_min == 2 and c_max == 2 and w_max2 <= 32767 and top <= 32767
                  and 2 * ((top * w_max2 >> 16) + 1) + _abs64(bias) <= 32767)
    spec = dict(
        op=op, src=-1, dst=-2, shape=_four(1, dh, dw, C),
        sstr=_four(row_stride * H, row_stride, C, 1), dstr=_four(dh * n_row, n_row, C, 1),
        src_kind=u8, dst_kind=u8, compute=1 if acc2 else 0,
        ptr=ptr_a, off=idx_a[:nnz_a], w=w_a[:nnz_a], ptr2=ptr2, idx2=idx2, w2=w1, k=k,
        n_mid=dense, n_in=W, pre=pre, post=post, bias=bias, mult=mult, shift=shift, finish=0,
        fmul=0.0, buf_len=(2 + k) * n_row, units=dh)
    if narrow:
        spec.update(narrow=1, buf_len=spec["buf_len"] + 32)
    if head_scale != 0:
        spec.update(head=(n_row // lanes) * lanes, hscale=<double><float>head_scale)
    work = <double>(H * C * max(nnz_b, 1)) + <double>(dh * n_row) * (<double>nnz_a / <double>dh)
    return spec, work
