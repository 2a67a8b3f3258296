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
  ``resamplex._engine._pipeline`` derives from a table to choose and bound a fused pass;
- OpenCV's separable tables (``cv2_linear``, ``cv2_cubic``): ``hal::resize``'s coordinates
  and Q11 weights, as ``resamplex.compat.cv2`` documents them.

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


def tap_bounds(const int64_t[::1] ptr, const int64_t[::1] w, int64_t a, int64_t b, int post):
    """For an integer pass over inputs in ``[a, b]`` (already shifted by its ``pre``): the
    least and the largest sum of an output's terms ``(v * w) >> post`` (each term at whichever
    end is smaller or larger), the largest sum of their magnitudes, each with 0 included (an
    output without taps sums to 0), and ``max |w|``: ``(s_lo, s_hi, magnitude, w_max)``.
    Integer arithmetic is NumPy's int64 (products and sums wrap)."""
    _check_csr(ptr, w.shape[0])
    cdef Py_ssize_t o, t, n = ptr.shape[0] - 1
    cdef int64_t ta, tb, lo_sum, hi_sum, mag_sum, mn, mx, mg
    cdef int64_t s_lo = 0, s_hi = 0, magnitude = 0, w_max = 0, aw
    if post < 0 or post > 63:
        raise ValueError(f"post: a shift of 0..63 bits; got {post}")
    with nogil:
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
                if aw > w_max:
                    w_max = aw
            if lo_sum < s_lo:
                s_lo = lo_sum
            if hi_sum > s_hi:
                s_hi = hi_sum
            if mag_sum > magnitude:
                magnitude = mag_sum
    return s_lo, s_hi, magnitude, w_max


def span_rows(const int64_t[::1] ptr, const int64_t[::1] idx):
    """The most consecutive inputs one output spans, ``max(idx) - min(idx) + 1`` over the
    outputs with taps (0 when none has)."""
    _check_csr(ptr, idx.shape[0])
    cdef Py_ssize_t o, t, n = ptr.shape[0] - 1
    cdef int64_t lo, hi, span = 0
    with nogil:
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


def count_range(const int64_t[::1] ptr):
    """The fewest and the most taps of an output, ``(0, 0)`` without outputs (NumPy's
    ``np.diff(ptr).min(initial=...)`` is the caller's to choose)."""
    cdef Py_ssize_t o, n = ptr.shape[0] - 1
    cdef int64_t c, lo = INT64_MAX, hi = INT64_MIN
    if n <= 0:
        return 0, 0
    with nogil:
        for o in range(n):
            c = ptr[o + 1] - ptr[o]
            if c < lo:
                lo = c
            if c > hi:
                hi = c
    return lo, hi


def int_weights(const double[::1] w):
    """``w`` as int64 where every weight is an integer that int64 holds exactly (NumPy's
    ``w.astype(np.int64)`` equal to ``w``), else None."""
    cdef Py_ssize_t t, n = w.shape[0]
    out = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef bint ok = True
    with nogil:
        for t in range(n):
            # in [-2**63, 2**63): the cast is defined; outside (or NaN), not an int64 value
            if not (w[t] >= -9223372036854775808.0 and w[t] < 9223372036854775808.0):
                ok = False
                break
            o[t] = <int64_t>w[t]
            if <double>o[t] != w[t]:
                ok = False
                break
    return out if ok else None


def abs_max(const int64_t[::1] w):
    """``max |w|`` (0 when empty; NumPy's ``np.abs(w).max(initial=0)``)."""
    cdef Py_ssize_t t
    cdef int64_t m = 0
    with nogil:
        for t in range(w.shape[0]):
            if _abs64(w[t]) > m:
                m = _abs64(w[t])
    return m


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
    with nogil:
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
    return ptr2, idx2, w2


def exact_scaled(const int64_t[::1] w, double scale):
    """Whether every weight is exact in float32 and ``float32(w) * float32(scale)`` (a float32
    product) divided by ``scale`` in float64 gives it back: a float head's weights are then
    the integer pass's, scaled without a rounding (NumPy's ``array_equal`` of those arrays)."""
    cdef Py_ssize_t t
    cdef float f, s = <float>scale
    cdef bint ok = True
    with nogil:
        for t in range(w.shape[0]):
            f = <float>w[t]
            if <double>f != <double>w[t] or <double>(f * s) / scale != <double>w[t]:
                ok = False
                break
    return ok


cdef inline bint _same_row(const int64_t[::1] idx, const int64_t[::1] w, Py_ssize_t r,
                           Py_ssize_t m, Py_ssize_t width, int64_t step) noexcept nogil:
    # row r's offsets idx - step * r and weights equal row m's
    cdef Py_ssize_t j
    for j in range(width):
        if idx[r * width + j] - step * r != idx[m * width + j] - step * m \
                or w[r * width + j] != w[m * width + j]:
            return False
    return True


def regular_run(const int64_t[::1] idx, const int64_t[::1] w, Py_ssize_t rows,
                Py_ssize_t width, int64_t step, int64_t limit=INT64_MAX):
    """Rows ``[lo, hi)`` around the middle row ``rows // 2`` whose offsets (``idx`` of row
    ``r`` minus ``step * r``; rows of ``width`` entries) and weights equal the middle row's,
    with those offsets and weights, as ``(lo, hi, offsets, weights)``; None when that run is
    shorter than 4 rows, the middle row has no neighbour, or a weight of the middle row has
    a magnitude of ``limit`` or more."""
    if rows < 0 or width < 1 or idx.shape[0] < rows * width or w.shape[0] < rows * width:
        raise ValueError("regular_run: rows x width entries of idx and w")
    cdef Py_ssize_t mid = rows // 2, lo, hi, j
    if not 0 < mid < rows - 1:
        return None
    for j in range(width):
        if _abs64(w[mid * width + j]) >= limit:
            return None
    with nogil:
        lo = mid
        while lo > 0 and _same_row(idx, w, lo - 1, mid, width, step):
            lo -= 1
        hi = mid + 1
        while hi < rows and _same_row(idx, w, hi, mid, width, step):
            hi += 1
    if hi - lo < 4:
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


def cv2_linear(int64_t n_in, int64_t n_out, double inv_scale, bint horizontal, bint fixed,
               bint area_mode):
    """``INTER_LINEAR`` taps of one axis (``compat.cv2.linear_table`` documents the rule):
    ``(ptr, idx, w)``, weights float64 (Q11 integers when ``fixed``)."""
    _check_sizes(n_in, n_out, inv_scale)
    cdef double scale = 1.0 / inv_scale
    cdef Py_ssize_t o, t = 0
    cdef int64_t s
    cdef float f, w0, w1
    cdef bint one
    ptr_a = np.empty(n_out + 1, dtype=np.int64)
    idx_a = np.empty(2 * n_out, dtype=np.int64)
    w_a = np.empty(2 * n_out, dtype=np.float64)
    cdef int64_t[::1] ptr = ptr_a, idx = idx_a
    cdef double[::1] w = w_a
    with nogil:
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
    return ptr_a, idx_a[:t], w_a[:t]


def cv2_cubic(int64_t n_in, int64_t n_out, double inv_scale, bint fixed):
    """``INTER_CUBIC`` taps ``sx - 1 .. sx + 2`` (clamped) with ``interpolateCubic``
    (A = -0.75, float32, ``compat.cv2.cubic_coeffs``): ``(ptr, idx, w)``."""
    _check_sizes(n_in, n_out, inv_scale)
    cdef double scale = 1.0 / inv_scale
    cdef Py_ssize_t o, j
    cdef int64_t s
    cdef float x, x1, y
    cdef float c[4]
    cdef float A = -0.75, one = 1.0
    ptr_a = np.arange(0, 4 * (n_out + 1), 4, dtype=np.int64)
    idx_a = np.empty(4 * n_out, dtype=np.int64)
    w_a = np.empty(4 * n_out, dtype=np.float64)
    cdef int64_t[::1] idx = idx_a
    cdef double[::1] w = w_a
    with nogil:
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
    return ptr_a, idx_a, w_a
