# cython: language_level=3
"""The core ``resize`` axis tables, built by compiled loops for any range of outputs.

One ``TableBuilder`` holds everything that decides one axis's table (sizes, scale, coordinate
transform, filter scheme and its parameters); ``csr``/``csr_into``, ``window_into``, ``dense_into``
and ``stats`` build or count the taps of outputs ``o0 .. o1 - 1`` only, with the GIL released, so a long axis
can be built tile by tile with memory bounded by the tile (scratch: a few rows of taps). The arithmetic is that of the NumPy builders
this module replaced (``resamplex._tables`` documents the formulas), operation for operation in
float64 (the build passes ``-ffp-contract=off``), so every table is bit for bit what they gave:

- NumPy's ``floor``/``clip``/``maximum``/``minimum``/``where`` semantics, NaN and signed zeros
  included, are spelled out where they matter;
- a row sum ``w.sum(axis=1)`` is NumPy's pairwise summation of the row (``pw_sum``: blocks of
  eight accumulators below 128 elements, halving above), started from ``+0.0``;
- ``AxisTable.from_taps``: taps sorted stably by clamped index, taps reading the same index
  merged as ``first + pairwise(rest)`` (``np.add.reduceat``), then weights equal to 0 dropped.

Schemes (``SCHEME_*``, chosen once per table; ``taps_weights``/``weight`` function pointers pick
the filter's weight function once per table):

- ``NEAREST``: one tap per output (the four ``nearest_mode`` rules);
- ``LINEAR``: taps ``floor(u)``, ``floor(u) + 1`` with ``1 - f``, ``f``;
- ``TAPS``: ``2 * support`` taps around ``floor(u)`` weighted by the filter at the fraction
  (cubic), clamped and merged, or with ``exclude_outside`` dropped and renormalised;
- ``AREA``: box overlaps of the output's footprint;
- ``AA_TRIANGLE``: the triangle stretched by ``r``: in-range taps plus the mass outside the input
  in closed form; ``k_max`` (the widest in-range window of the whole axis) fixes the summation
  layout of every row, so it is computed once per axis;
- ``WINDOW``: a filter stretched by ``r`` over its whole window ``2 * ceil(support * r) + 1``
  (antialiased cubic). Exact (``exact=True``): every tap of the window is evaluated (streamed, no
  array of the window's size) and summed as NumPy did. Folded (``exact=False``, for windows too
  wide to evaluate tap by tap): taps inside the input only, and the filter's mass outside the
  input summed in closed form per polynomial piece.

Preconditions (the Python side, ``resamplex._tables.AxisSpec``, guarantees them): ``n_in >= 1``
when ``n_out >= 1``; ``0 <= o0 <= o1 <= n_out``; output arrays C-contiguous and long enough
(checked by the Python-facing methods here, which raise ``ValueError``).
"""

from libc.math cimport copysign, cos, fabs, isfinite, isnan, sin, INFINITY, M_PI
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport malloc, free

from resamplex._engine._tilefill cimport TileFiller

import numpy as np


cpdef enum Scheme:
    SCHEME_NEAREST = 0
    SCHEME_LINEAR = 1
    SCHEME_TAPS = 2
    SCHEME_AREA = 3
    SCHEME_AA_TRIANGLE = 4
    SCHEME_WINDOW = 5

# Coordinate transforms; resamplex._tables.TRANSFORMS is made from these names, in this order.
cpdef enum Transform:
    T_HALF_PIXEL = 0
    T_PYTORCH_HALF_PIXEL = 1
    T_HALF_PIXEL_SYMMETRIC = 2
    T_ALIGN_CORNERS = 3
    T_ASYMMETRIC = 4
    T_TF_HALF_PIXEL_FOR_NN = 5

# Nearest rules; resamplex._tables.NEAREST_MODES is made from these names, in this order.
cpdef enum NearestRule:
    N_ROUND_PREFER_CEIL = 0
    N_ROUND_PREFER_FLOOR = 1
    N_FLOOR = 2
    N_CEIL = 3

# Weight functions of the TAPS and WINDOW schemes (``Filter.kernel`` in the registry).
cpdef enum Kernel:
    KERNEL_NONE = 0
    KERNEL_KEYS = 1
    KERNEL_LANCZOS = 2
    KERNEL_HAMMING = 3
    KERNEL_BOX = 4

# Windows of at most this many taps are evaluated once into a buffer; wider ones are streamed.
cdef enum:
    WINDOW_BUFFER = 65536

window_buffer = WINDOW_BUFFER


cdef struct Spec:
    int64_t n_in
    int64_t n_out
    int scheme
    int transform
    int rule
    int kernel
    bint has_scale
    bint exclude
    double scale
    double r
    # coordinate terms, each as the NumPy builder formed it
    double n_in_d
    double n_out_d
    double two_n_out_d
    double two_scale
    double hps_offset
    double nin_m1_d
    double nout_m1_d
    # Keys: a, a + 2, a + 3, 5a, 8a, 4a
    double a
    double ka2
    double ka3
    double ka5
    double ka8
    double ka4
    int64_t support      # TAPS: 2 * support taps (ceil of the filter's support)
    double support_d     # WINDOW: the filter's support (1/2 for the box)
    bint normalize       # TAPS: divide the 2 * support weights by their sum (not a partition
                         # of unity: lanczos, hamming)
    int64_t half         # WINDOW exact: ceil_d(support * r)
    int64_t window       # WINDOW exact: 2 * half + 1
    bint exact           # WINDOW: exact (True) or folded
    double r_clamp       # WINDOW folded, AA_TRIANGLE overflow: r beyond which weights stop changing
    int64_t area_k       # AREA: taps per footprint
    int64_t k_max        # AA_TRIANGLE: widest in-range window over the whole axis
    int64_t raw_cap      # scratch taps one row needs before merging
    int64_t buf_cap      # scratch weights one row needs (AA_TRIANGLE, WINDOW)
    int64_t row_cap      # most taps of any output after merging (bound)
    # weight functions, chosen once per table; ``weight`` takes the signed distance
    # ``(i - u) / r`` (the box is half-open, the others are even)
    void (*taps_weights)(const Spec*, double, double*) noexcept nogil
    double (*weight)(const Spec*, double) noexcept nogil
    double (*outside_mass)(const Spec*, double, double, double, double) noexcept nogil


cdef struct Scratch:
    int64_t* idx
    double* w
    double* buf


ctypedef int64_t (*row_fn)(const Spec*, int64_t, Scratch*, int64_t*, double*) noexcept nogil


# ------------------------------------------------------------------------ NumPy's semantics

cdef inline double np_maximum(double a, double b) noexcept nogil:
    # np.maximum: NaN propagates; equal values (0.0, -0.0) give the second.
    return a if (a > b or isnan(a)) else b


cdef inline double np_minimum(double a, double b) noexcept nogil:
    return a if (a < b or isnan(a)) else b


cdef inline double np_clip(double x, double lo, double hi) noexcept nogil:
    return np_minimum(np_maximum(x, lo), hi)


cdef inline double floor_d(double x) noexcept nogil:
    # IEEE floor (signed zeros, NaN and infinities included), without the libm call that the
    # portable x86-64 build makes of floor(): truncate through int64 below 2^52, where every
    # double with a fraction lives.
    cdef double t
    if not (fabs(x) < 4503599627370496.0):
        return x
    t = <double>(<int64_t>x)
    if t > x:
        t = t - 1.0
    return copysign(0.0, x) if t == 0.0 else t


cdef inline double ceil_d(double x) noexcept nogil:
    cdef double t
    if not (fabs(x) < 4503599627370496.0):
        return x
    t = <double>(<int64_t>x)
    if t < x:
        t = t + 1.0
    return copysign(0.0, x) if t == 0.0 else t


cdef inline int64_t to_index(double x) noexcept nogil:
    # ``.astype(np.int64)`` of an integer-valued, already clipped float (NaN -> 0, never UB).
    if not (x == x):
        return 0
    return <int64_t>x


cdef inline double fmax2(double a, double b) noexcept nogil:
    return a if a > b else b


cdef inline double fmin2(double a, double b) noexcept nogil:
    return a if a < b else b


cdef inline int64_t clamp_i(int64_t i, int64_t lo, int64_t hi) noexcept nogil:
    return lo if i < lo else (hi if i > hi else i)


cdef double pw_sum(const double* a, int64_t n) noexcept nogil:
    """NumPy's pairwise summation of ``a[0:n]`` (``np.add.reduce`` of a contiguous run)."""
    cdef double r[8]
    cdef double res
    cdef int64_t i, j, n2
    if n < 8:
        res = -0.0
        for i in range(n):
            res = res + a[i]
        return res
    elif n <= 128:
        for j in range(8):
            r[j] = a[j]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] = r[j] + a[i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res = res + a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return pw_sum(a, n2) + pw_sum(a + n2, n - n2)


cdef inline double row_sum(const double* a, int64_t n) noexcept nogil:
    # ``w.sum(axis=1)`` of one row: the reduction starts from the identity +0.0.
    return 0.0 + pw_sum(a, n)


cdef int64_t merge_sorted(int64_t* idx, double* w, int64_t n) noexcept nogil:
    """``AxisTable.from_taps(merge=True)`` of one row, in place: stable sort by index, merge
    equal indices as ``first + pairwise(rest)``, drop weights equal to 0. Returns the count."""
    cdef int64_t i, j, out, ti
    cdef double tw
    for i in range(1, n):  # insertion sort: stable, and linear on the (usual) sorted input
        if idx[i] < idx[i - 1]:
            ti, tw = idx[i], w[i]
            j = i
            while j > 0 and idx[j - 1] > ti:
                idx[j], w[j] = idx[j - 1], w[j - 1]
                j -= 1
            idx[j], w[j] = ti, tw
    out = 0
    i = 0
    while i < n:
        j = i + 1
        while j < n and idx[j] == idx[i]:
            j += 1
        tw = w[i] if j == i + 1 else w[i] + pw_sum(w + i + 1, j - i - 1)
        if tw != 0:
            idx[out] = idx[i]
            w[out] = tw
            out += 1
        i = j
    return out


# ------------------------------------------------------------------------ coordinates

cdef inline double coordinate(const Spec* s, int64_t o) noexcept nogil:
    """Input coordinate ``u(o)`` of output ``o`` (float64, SPEC section 2), ``r = 1/scale``:

    half_pixel ``(o + 0.5) r - 0.5``, pytorch_half_pixel the same but 0 when ``n_out == 1``,
    half_pixel_symmetric ``(2o + 1 - n_out) / (2 scale) + (n_in - 1) / 2`` (ONNX's offset
    folded in; without a scale it is half_pixel), align_corners ``o (n_in - 1) / (n_out - 1)``
    (0 when ``n_out == 1``), asymmetric ``o r``, tf_half_pixel_for_nn ``(o + 0.5) r``. Without
    a scale each is one division of exactly computed terms (``((2o + 1) n_in - n_out) /
    (2 n_out)``), so a coordinate that is an integer or half-integer in exact arithmetic is
    exact (what decides nearest ties)."""
    cdef double of = <double>o
    cdef int t = s.transform
    if t == T_ALIGN_CORNERS:
        if s.n_out == 1:
            return 0.0
        return (of * s.nin_m1_d) / s.nout_m1_d
    if t == T_ASYMMETRIC:
        if s.has_scale:
            return of / s.scale
        return (of * s.n_in_d) / s.n_out_d
    if t == T_TF_HALF_PIXEL_FOR_NN:
        if s.has_scale:
            return (of + 0.5) / s.scale
        return ((2.0 * of + 1.0) * s.n_in_d) / s.two_n_out_d
    if t == T_HALF_PIXEL_SYMMETRIC and s.has_scale:
        return (2.0 * of + 1.0 - s.n_out_d) / s.two_scale + s.hps_offset
    if t == T_PYTORCH_HALF_PIXEL and s.n_out == 1:
        return 0.0
    if s.has_scale:
        return (of + 0.5) / s.scale - 0.5
    return ((2.0 * of + 1.0) * s.n_in_d - s.n_out_d) / s.two_n_out_d


cdef double scaled_coordinate(const Spec* s, int64_t o) noexcept nogil:
    """``u(o) / r`` formed without ``u`` (which overflows for tiny scales): the folded rows
    place the filter by it. Only used where ``r`` is clamped (``r > r_clamp``)."""
    cdef double of = <double>o
    cdef int t = s.transform
    if not s.has_scale or t == T_ALIGN_CORNERS:
        return coordinate(s, o) / s.r
    if t == T_ASYMMETRIC:
        return of
    if t == T_TF_HALF_PIXEL_FOR_NN:
        return of + 0.5
    if t == T_HALF_PIXEL_SYMMETRIC:
        return (2.0 * of + 1.0 - s.n_out_d) * 0.5 + s.hps_offset * s.scale
    if t == T_PYTORCH_HALF_PIXEL and s.n_out == 1:
        return 0.0
    return (of + 0.5) - 0.5 * s.scale


cdef inline int64_t edge_row(const Spec* s, bint last, int64_t* idx, double* w) noexcept nogil:
    idx[0] = s.n_in - 1 if last else 0
    w[0] = 1.0
    return 1


# ------------------------------------------------------------------------ nearest, linear

cdef inline int64_t row_nearest(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                         double* w) noexcept nogil:
    return nearest_at(s, coordinate(s, o), idx, w)


cdef inline int64_t nearest_at(const Spec* s, double u, int64_t* idx, double* w) noexcept nogil:
    cdef double k, frac
    cdef int64_t b
    w[0] = 1.0
    if u >= 0.0 and u < s.nin_m1_d:
        # Inside the input (every output but a few at the ends): floor is truncation and no
        # clip binds, so the index below in integers.
        b = <int64_t>u
        frac = u - <double>b
        if s.rule == N_ROUND_PREFER_CEIL:
            b += frac >= 0.5
        elif s.rule == N_ROUND_PREFER_FLOOR:
            b += frac > 0.5
        elif s.rule == N_CEIL:
            b += frac > 0
        idx[0] = b
        return 1
    k = floor_d(u)
    frac = u - k
    if s.rule == N_ROUND_PREFER_CEIL:
        k = k + (1.0 if frac >= 0.5 else 0.0)
    elif s.rule == N_ROUND_PREFER_FLOOR:
        k = k + (1.0 if frac > 0.5 else 0.0)
    elif s.rule == N_CEIL:
        k = k + (1.0 if frac > 0 else 0.0)
    idx[0] = to_index(np_clip(k, 0.0, s.nin_m1_d))
    return 1


cdef inline int64_t row_linear(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                        double* w) noexcept nogil:
    return linear_at(s, coordinate(s, o), idx, w)


cdef inline int64_t linear_at(const Spec* s, double u, int64_t* idx, double* w) noexcept nogil:
    cdef double i0, f, w0, w1
    cdef int64_t base, lo, hi, n = 0
    if u >= 0.0 and u < s.nin_m1_d:
        # Inside the input (every output but a few at the ends): floor is truncation, no
        # clamp applies, and ``f < 1`` so ``1 - f`` is never 0. The same values as below.
        # Both slots are written even for one tap (the row's bound, row_cap, is 2 here:
        # ``n_in >= 2``); the second is the next row's first, rewritten.
        base = <int64_t>u
        f = u - <double>base
        idx[0] = base
        w[0] = 1.0 - f
        idx[1] = base + 1
        w[1] = f
        return 2 if f != 0 else 1
    i0 = floor_d(u)
    f = (u - i0) if isfinite(u) else 0.0
    base = to_index(np_clip(i0, -1.0, s.n_in_d))
    lo = clamp_i(base, 0, s.n_in - 1)
    hi = clamp_i(base + 1, 0, s.n_in - 1)
    if lo == hi:
        idx[0] = lo
        w[0] = 1.0
        return 1
    w0 = 1.0 - f
    w1 = f
    if w0 != 0:
        idx[n] = lo
        w[n] = w0
        n += 1
    if w1 != 0:
        idx[n] = hi
        w[n] = w1
        n += 1
    return n


# ------------------------------------------------------------------------ Keys cubic

cdef inline double keys(const Spec* s, double d) noexcept nogil:
    """The Keys cubic at distance ``d`` (``resamplex._tables.keys_kernel``; both pieces
    evaluated, then one chosen, as ``np.where`` did)."""
    cdef double near = (s.ka2 * d - s.ka3) * d * d + 1.0
    cdef double far = ((s.a * d - s.ka5) * d + s.ka8) * d - s.ka4
    if d <= 1.0:
        return near
    if d < 2.0:
        return far
    return 0.0


cdef double keys_weight(const Spec* s, double d) noexcept nogil:
    return keys(s, fabs(d))


cdef void keys_taps_weights(const Spec* s, double t, double* w) noexcept nogil:
    # The taps i0 - 1 .. i0 + 2 sit at distances t + 1, t, 1 - t, 2 - t.
    w[0] = keys(s, t + 1.0)
    w[1] = keys(s, t)
    w[2] = keys(s, 1.0 - t)
    w[3] = keys(s, 2.0 - t)


cdef inline double keys_piece_sum(const Spec* s, double a, double b, double u, double r,
                                  bint near) noexcept nogil:
    """Sum of one polynomial piece of the stretched Keys kernel over the integers ``a .. b``
    (all on one side of ``u``): for a cubic ``q`` over equally spaced points the odd terms
    cancel about the midpoint ``m``, so the sum is ``N (q(m) + q''(m) h^2 (N^2 - 1) / 24)``
    with spacing ``h = 1 / r``."""
    cdef double n = b - a + 1.0
    cdef double m, hn, q, q2
    if not (n >= 1.0):
        return 0.0
    m = fabs((a + b) * 0.5 - u) / r
    hn = n / r
    if near:
        q = (s.ka2 * m - s.ka3) * m * m + 1.0
        q2 = 6.0 * s.ka2 * m - 2.0 * s.ka3
    else:
        q = ((s.a * m - s.ka5) * m + s.ka8) * m - s.ka4
        q2 = 6.0 * s.a * m - 10.0 * s.a
    return n * (q + q2 * (hn * hn - 1.0 / (r * r)) / 24.0)


cdef double keys_outside_mass(const Spec* s, double u, double r, double first,
                              double last) noexcept nogil:
    """Sum of ``W(|i - u| / r)`` over the integers ``i`` in ``[first, last]`` within the window
    ``|i - u| < 2 r``, in closed form: four pieces (far and near, each side of ``u``)."""
    cdef double m = floor_d(u)
    cdef double near_lo = ceil_d(u - r)           # left side: d <= 1 from here to m
    cdef double far_lo = floor_d(u - 2.0 * r) + 1.0
    cdef double near_hi = floor_d(u + r)          # right side: d <= 1 from m + 1 to here
    cdef double far_hi = ceil_d(u + 2.0 * r) - 1.0
    cdef double total = 0.0
    total += keys_piece_sum(s, fmax2(far_lo, first), fmin2(near_lo - 1.0, last), u, r, False)
    total += keys_piece_sum(s, fmax2(near_lo, first), fmin2(m, last), u, r, True)
    total += keys_piece_sum(s, fmax2(m + 1.0, first), fmin2(near_hi, last), u, r, True)
    total += keys_piece_sum(s, fmax2(near_hi + 1.0, first), fmin2(far_hi, last), u, r, False)
    return total


# ------------------------------------------------------------------------ lanczos, hamming, box

cdef inline double sinc(double x) noexcept nogil:
    """``sin(pi x) / (pi x)`` for ``x >= 0``: exactly 1 at 0 and exactly 0 at the other
    integers (``sin(pi k)`` in floating point is not 0), so a coordinate that sits on a sample
    reads that sample alone."""
    cdef double px
    if x == 0:
        return 1.0
    if x == floor_d(x):
        return 0.0
    px = M_PI * x
    return sin(px) / px


cdef double lanczos_weight(const Spec* s, double d) noexcept nogil:
    """Windowed sinc with ``a`` lobes: ``sinc(d) sinc(d / a)`` for ``|d| < a``, else 0
    (Pillow's ``lanczos_filter``, OpenCV's ``INTER_LANCZOS4`` for ``a = 4``)."""
    cdef double x = fabs(d)
    if not (x < s.a):
        return 0.0
    return sinc(x) * sinc(x / s.a)


cdef double hamming_weight(const Spec* s, double d) noexcept nogil:
    """Pillow's Hamming filter: ``sinc(d) (0.54 + 0.46 cos(pi d))`` for ``|d| < 1``, else 0.
    (Pillow writes the constants as C floats; the difference is ~4e-8 relative, and the
    weights are normalised afterwards.)"""
    cdef double x = fabs(d)
    if x == 0:
        return 1.0
    if not (x < 1.0):
        return 0.0
    return sinc(x) * (0.54 + 0.46 * cos(M_PI * x))


cdef double box_weight(const Spec* s, double d) noexcept nogil:
    """Pillow's box filter: 1 on the half-open ``(-1/2, 1/2]`` (so a sample on the border of
    two outputs' footprints belongs to one of them), else 0."""
    return 1.0 if (d > -0.5 and d <= 0.5) else 0.0


cdef void generic_taps_weights(const Spec* s, double t, double* w) noexcept nogil:
    """The ``2 * support`` taps ``i0 - support + 1 .. i0 + support`` sit at the signed
    distances ``j - (support - 1) - t``; filters that are not a partition of unity (lanczos,
    hamming) are divided by the sum of the row, as Pillow and the ONNX reference normalise."""
    cdef int64_t S = s.support
    cdef int64_t j
    cdef double total
    for j in range(2 * S):
        w[j] = s.weight(s, <double>(j - (S - 1)) - t)
    if s.normalize:
        total = row_sum(w, 2 * S)
        if total != 0:
            for j in range(2 * S):
                w[j] = w[j] / total


# Folded windows (too wide to evaluate tap by tap) need the filter's mass outside the input.
# Up to this many taps it is summed tap by tap; beyond, r is so large (> 2^20 / (2 support))
# that the sum is the integral plus the Euler-Maclaurin end corrections.
cdef enum:
    OUTSIDE_DIRECT = 1 << 20

cdef double GL_X[8]
cdef double GL_W[8]
_gl_x, _gl_w = np.polynomial.legendre.leggauss(8)
for _k in range(8):
    GL_X[_k] = _gl_x[_k]
    GL_W[_k] = _gl_w[_k]
del _gl_x, _gl_w, _k


cdef double smooth_integral(const Spec* s, double x0, double x1) noexcept nogil:
    """``integral of W(x) dx`` over ``[x0, x1]`` (inside the support, where lanczos and
    hamming are analytic): 8-point Gauss-Legendre on pieces at most 1/2 wide (error far below
    1e-15 relative: the integrands' derivatives grow like pi^k)."""
    cdef int64_t pieces, p, k
    cdef double h, a, total = 0.0
    if not (x1 > x0):
        return 0.0
    pieces = <int64_t>ceil_d((x1 - x0) * 2.0)
    if pieces < 1:
        pieces = 1
    h = (x1 - x0) / <double>pieces
    for p in range(pieces):
        a = x0 + <double>p * h
        for k in range(8):
            total = total + GL_W[k] * 0.5 * h * s.weight(s, a + 0.5 * h * (GL_X[k] + 1.0))
    return total


cdef double smooth_slope(const Spec* s, double x) noexcept nogil:
    # dW/dx by a central difference kept inside the support (only used in the small
    # Euler-Maclaurin correction, of order 1/r of a sum of order r).
    cdef double h = 1e-5
    cdef double lim = s.support_d - h
    x = fmin2(fmax2(x, -lim), lim)
    return (s.weight(s, x + h) - s.weight(s, x - h)) / (2.0 * h)


cdef double smooth_outside_mass(const Spec* s, double u, double r, double first,
                                double last) noexcept nogil:
    """Sum of ``W((i - u) / r)`` over the integers ``i`` in ``[first, last]`` within the
    window ``|i - u| <= support r`` (lanczos, hamming): tap by tap up to ``OUTSIDE_DIRECT``
    taps; beyond, ``r`` times the integral plus the Euler-Maclaurin terms
    ``(f(lo) + f(hi)) / 2 + (f'(hi) - f'(lo)) / 12`` (the next one is of order ``r^-3``)."""
    cdef double reach = s.support_d * r
    cdef double lo = fmax2(first, ceil_d(u - reach))
    cdef double hi = fmin2(last, floor_d(u + reach))
    cdef double n, total = 0.0, x0, x1
    cdef int64_t k
    if not (hi >= lo):
        return 0.0
    n = hi - lo + 1.0
    if n <= OUTSIDE_DIRECT:
        for k in range(<int64_t>n):
            total = total + s.weight(s, (lo + <double>k - u) / r)
        return total
    x0 = (lo - u) / r
    x1 = (hi - u) / r
    return (r * smooth_integral(s, x0, x1) + 0.5 * (s.weight(s, x0) + s.weight(s, x1))
            + (smooth_slope(s, x1) - smooth_slope(s, x0)) / (12.0 * r))


cdef double box_outside_mass(const Spec* s, double u, double r, double first,
                             double last) noexcept nogil:
    """The box stretched by ``r`` counts the integers ``i`` in ``[first, last]`` with
    ``-r/2 < i - u <= r/2``: closed form."""
    cdef double lo = fmax2(first, floor_d(u - 0.5 * r) + 1.0)
    cdef double hi = fmin2(last, floor_d(u + 0.5 * r))
    return hi - lo + 1.0 if hi >= lo else 0.0


cdef int64_t row_taps(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                      double* w) noexcept nogil:
    """``2 * support`` taps around ``floor(u)`` weighted at the fraction ``t = u - floor(u)``
    (0 for an infinite ``u``), clamped to the edges and merged; or, with ``exclude_outside``,
    the outside taps zeroed and the rest divided by their row sum (a row left with 0 reads the
    nearest edge sample)."""
    cdef double u = coordinate(s, o)
    cdef double i0 = floor_d(u)
    cdef double t = (u - i0) if isfinite(u) else 0.0
    cdef int64_t S = s.support
    cdef int64_t n = 2 * S
    cdef int64_t base, j
    cdef double total
    cdef int64_t* ri = sc.idx
    cdef double* rw = sc.w
    s.taps_weights(s, t, rw)
    # Clamp before the cast: at -(S + 1) and n_in + S - 1 every tap is still outside.
    base = to_index(np_clip(i0, <double>(-(S + 1)), <double>(s.n_in + S - 1)))
    for j in range(n):
        ri[j] = base + j - (S - 1)
    if s.exclude:
        for j in range(n):
            if ri[j] < 0 or ri[j] >= s.n_in:
                rw[j] = 0.0
        total = row_sum(rw, n)
        if total == 0:
            for j in range(n):
                rw[j] = 0.0
            rw[0] = 1.0
            ri[0] = 0 if u < 0 else s.n_in - 1
            total = 1.0
        for j in range(n):
            rw[j] = rw[j] / total
    for j in range(n):
        ri[j] = clamp_i(ri[j], 0, s.n_in - 1)
    n = merge_sorted(ri, rw, n)
    for j in range(n):
        idx[j] = ri[j]
        w[j] = rw[j]
    return n


# ------------------------------------------------------------------------ area

cdef int64_t row_area(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                      double* w) noexcept nogil:
    """Box filter: input pixel ``[i, i + 1)`` weighted by its overlap with the footprint
    ``[o r, (o + 1) r)`` clipped to ``[0, n_in]``, divided by the row sum; ``area_k`` taps
    from ``clip(floor(lo))``; a footprint outside the input reads the edge pixel."""
    cdef double of = <double>o
    cdef double lo, hi, lo_c, hi_c, total
    cdef int64_t start, j, n
    cdef int64_t k = s.area_k
    cdef int64_t* ri = sc.idx
    cdef double* rw = sc.w
    if s.has_scale:
        lo = of / s.scale
        hi = (of + 1.0) / s.scale
    else:
        lo = (of * s.n_in_d) / s.n_out_d
        hi = ((of + 1.0) * s.n_in_d) / s.n_out_d
    start = to_index(np_clip(floor_d(lo), 0.0, s.nin_m1_d))
    lo_c = np_clip(lo, 0.0, s.n_in_d)
    hi_c = np_clip(hi, 0.0, s.n_in_d)
    for j in range(k):
        rw[j] = np_maximum(np_minimum(hi_c, <double>(start + j + 1))
                           - np_maximum(lo_c, <double>(start + j)), 0.0)
    total = row_sum(rw, k)
    if total == 0:  # the footprint lies outside the input: the edge pixel
        idx[0] = start
        w[0] = 1.0
        return 1
    for j in range(k):
        ri[j] = clamp_i(start + j, 0, s.n_in - 1)
        rw[j] = rw[j] / total
    n = merge_sorted(ri, rw, k)
    for j in range(n):
        idx[j] = ri[j]
        w[j] = rw[j]
    return n


# ------------------------------------------------------------------------ antialiased triangle

cdef double triangle_mass(double u, double r, double first, double last,
                          bint* overflow) noexcept nogil:
    """``resamplex._tables._triangle_mass`` of one row: ``sum(max(0, 1 - |i - u| / r))`` over
    the integers in ``[first, last]``, two arithmetic series. Sets ``overflow`` when an
    intermediate the result depends on is not finite (coordinates near the float64 limit)."""
    cdef double lo = np_maximum(first, floor_d(u - r) + 1.0)
    cdef double hi = np_minimum(last, ceil_d(u + r) - 1.0)
    cdef double m = floor_d(u)
    cdef double total = 0.0
    cdef double a, b, n, v
    cdef int seg
    for seg in range(2):
        if seg == 0:
            a = lo
            b = np_minimum(hi, m)
        else:
            a = np_maximum(lo, m + 1.0)
            b = hi
        n = b - a + 1.0
        v = n * (1.0 - fabs(u - (a + b) / 2.0) / r)
        if isnan(n) or (n > 0 and not isfinite(v)):
            overflow[0] = True
        total = total + (v if n > 0 else 0.0)
    if not isfinite(total):
        overflow[0] = True
    return np_maximum(total, 0.0)


cdef int64_t emit_triangle(const Spec* s, double left, double right, double total,
                           const double* inner_w, double start, int64_t count,
                           int64_t* idx, double* w) noexcept nogil:
    """The merged taps of one antialiased-triangle row, as ``from_taps(merge=True)`` gives them.

    Sorted by index the row reads: index 0 (``left``, then the in-range tap at 0, then the
    zero padding taps, then ``right`` when ``n_in == 1``), the in-range taps, and index
    ``n_in - 1`` (its in-range tap, then ``right``). A merged group is ``first +
    pairwise(rest)``; a rest with at most two non-zero terms sums to their one rounded sum
    whatever the layout, which is what the shortcuts below use."""
    cdef int64_t n = 0
    cdef int64_t j, j0, j1, i
    cdef int64_t last = s.n_in - 1
    cdef int64_t first_in = to_index(start)
    cdef double v, rest
    cdef bint has0 = count > 0 and first_in == 0
    cdef bint has_last = count > 0 and first_in + count - 1 == last
    # group at index 0
    v = left / total
    if last == 0:
        if has0:
            rest = inner_w[0] / total + right / total
        else:
            rest = right / total
        v = v + rest
    elif has0:
        v = v + inner_w[0] / total
    if v != 0:
        idx[n] = 0
        w[n] = v
        n += 1
    if last == 0:
        return n
    j0 = 1 if has0 else 0
    j1 = count - 1 if has_last else count
    for j in range(j0, j1):
        v = inner_w[j] / total
        if v != 0:
            idx[n] = first_in + j
            w[n] = v
            n += 1
    v = right / total
    if has_last:
        v = inner_w[count - 1] / total + v
    if v != 0:
        idx[n] = last
        w[n] = v
        n += 1
    return n


cdef int64_t row_aa_triangle_folded(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                                    double* w) noexcept nogil:
    """A row whose closed-form masses overflowed (``r`` near the float64 limit): the same row
    with ``r`` clamped to ``r_clamp`` and ``u`` scaled with it, where the weights no longer
    change (every input sample is within ``n_in / r < 2^-57`` of the same point of the
    filter)."""
    cdef double r = s.r_clamp
    cdef double uc = scaled_coordinate(s, o) * r
    cdef double start = np_clip(floor_d(uc - r) + 1.0, 0.0, s.n_in_d)
    cdef double stop = np_clip(ceil_d(uc + r), 0.0, s.n_in_d)
    cdef int64_t count = to_index(stop - start) if stop > start else 0
    cdef int64_t j
    cdef double left, right, inner, total
    cdef bint overflow = False
    if count == 0:
        return edge_row(s, uc > 0, idx, w)
    for j in range(count):
        sc.buf[j] = np_maximum(0.0, 1.0 - fabs(start + <double>j - uc) / r)
    left = triangle_mass(uc, r, -INFINITY, -1.0, &overflow)
    right = triangle_mass(uc, r, s.n_in_d, INFINITY, &overflow)
    inner = row_sum(sc.buf, count)
    if s.exclude and inner > 0:
        left = 0.0
        right = 0.0
    total = left + inner + right
    return emit_triangle(s, left, right, total, sc.buf, start, count, idx, w)


cdef int64_t row_aa_triangle(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                             double* w) noexcept nogil:
    """``resamplex._tables.antialias_linear_taps`` of one row: the in-range taps
    ``max(0, 1 - |i - u| / r)`` (``k_max`` slots, zero-padded, for the row sum), the masses
    left and right of the input on the edge taps (dropped with ``exclude_outside`` when the
    in-range taps carry weight), divided by the total; ``u = +-inf`` reads the last / first
    sample."""
    cdef double u = coordinate(s, o)
    cdef double r = s.r
    cdef bint pos_inf = u == INFINITY
    cdef bint neg_inf = u == -INFINITY
    cdef double uf = 0.0 if (pos_inf or neg_inf) else u
    cdef double start = np_clip(floor_d(uf - r) + 1.0, 0.0, s.n_in_d)
    cdef double stop = np_clip(ceil_d(uf + r), 0.0, s.n_in_d)
    cdef double cnt = np_maximum(stop - start, 0.0)
    cdef int64_t count = to_index(cnt)
    cdef int64_t k = s.k_max
    cdef int64_t j
    cdef double left, right, inner, total, i
    cdef bint overflow = False
    cdef double* buf = sc.buf
    # Folded rows read up to every input sample: only where the caller sized the buffers so
    # (AxisSpec does where |u| + r can reach float64's limit; nowhere else can a row overflow).
    cdef bint folds = s.row_cap >= s.n_in and s.buf_cap >= s.n_in
    for j in range(k):
        i = start + <double>j
        if i < stop and not (pos_inf or neg_inf):
            buf[j] = np_maximum(0.0, 1.0 - fabs(i - uf) / r)
        else:
            buf[j] = 0.0
    if pos_inf or neg_inf:
        left = 1.0 if neg_inf else 0.0
        right = 1.0 if pos_inf else 0.0
    else:
        left = triangle_mass(uf, r, -INFINITY, -1.0, &overflow)
        right = triangle_mass(uf, r, s.n_in_d, INFINITY, &overflow)
        if overflow and folds:
            return row_aa_triangle_folded(s, o, sc, idx, w)
    inner = row_sum(buf, k)
    if s.exclude and inner > 0:
        left = 0.0
        right = 0.0
    total = left + inner + right
    if folds and not (pos_inf or neg_inf) and not (isfinite(total) and total > 0):
        return row_aa_triangle_folded(s, o, sc, idx, w)
    return emit_triangle(s, left, right, total, buf, start, count, idx, w)


cdef int64_t triangle_k_max(const Spec* s) noexcept nogil:
    """The widest in-range window of the axis (``int(count.max())`` of the NumPy builder)."""
    cdef int64_t o, best = 0, c
    cdef double u, uf, start, stop
    for o in range(s.n_out):
        u = coordinate(s, o)
        uf = u if isfinite(u) else 0.0
        start = np_clip(floor_d(uf - s.r) + 1.0, 0.0, s.n_in_d)
        stop = np_clip(ceil_d(uf + s.r), 0.0, s.n_in_d)
        c = to_index(np_maximum(stop - start, 0.0))
        if c > best:
            best = c
    return best


# ------------------------------------------------------------------------ stretched window

cdef struct Window:
    const Spec* s
    double u
    int64_t b0          # index of window tap 0
    double total        # sum of the raw weights
    double total2       # exclude_outside: sum of the normalised in-range weights
    const double* buf   # the raw weights, or NULL (evaluated on demand)


cdef inline double box_snap(const Spec* s, double i, double u, double r) noexcept nogil:
    """The stretched box's signed distance ``(i - u) / r``, put exactly on ``+-1/2`` where it
    is within its own rounding error of it: a sample that sits exactly on a footprint edge in
    exact arithmetic then falls on the side the half-open rule says (as the exact tables of
    ``tests/reference.py`` have it), whatever the rounding of ``u`` and ``r``. (The plain box
    needs no snap: its distances ``-t``, ``1 - t`` are exact.)"""
    cdef double d = (i - u) / r
    cdef double tol = 16.0 * 2.220446049250313e-16 * ((fabs(u) + fabs(i)) / r + 1.0)
    if fabs(fabs(d) - 0.5) <= tol:
        return copysign(0.5, d)
    return d


cdef inline double win_raw(const Window* c, int64_t j) noexcept nogil:
    if c.buf != NULL:
        return c.buf[j]
    if c.s.kernel == KERNEL_BOX:
        return c.s.weight(c.s, box_snap(c.s, <double>(c.b0 + j), c.u, c.s.r))
    return c.s.weight(c.s, (<double>(c.b0 + j) - c.u) / c.s.r)


cdef double win_norm(const Window* c, int64_t j) noexcept nogil:
    return win_raw(c, j) / c.total


cdef double win_inside(const Window* c, int64_t j) noexcept nogil:
    cdef int64_t i = c.b0 + j
    if i < 0 or i >= c.s.n_in:
        return 0.0
    return win_raw(c, j) / c.total


ctypedef double (*tap_fn)(const Window*, int64_t) noexcept nogil


cdef double pw_stream(tap_fn f, const Window* c, int64_t start, int64_t n) noexcept nogil:
    """``pw_sum`` of ``f(c, start) .. f(c, start + n - 1)`` without storing them."""
    cdef double r[8]
    cdef double res
    cdef int64_t i, j, n2
    if n < 8:
        res = -0.0
        for i in range(n):
            res = res + f(c, start + i)
        return res
    elif n <= 128:
        for j in range(8):
            r[j] = f(c, start + j)
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] = r[j] + f(c, start + i + j)
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res = res + f(c, start + i)
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return pw_stream(f, c, start, n2) + pw_stream(f, c, start + n2, n - n2)


cdef double win_raw_fn(const Window* c, int64_t j) noexcept nogil:
    return win_raw(c, j)


cdef int64_t row_window_exact(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                              double* w) noexcept nogil:
    """An antialiased cubic row: the ``2 * half + 1`` taps around ``floor(u)``
    weighted ``W(|i - u| / r)``, normalised over the whole window, then clamped and merged
    (or, with ``exclude_outside``, the in-range taps renormalised)."""
    cdef Window c
    cdef int64_t K = s.window
    cdef int64_t j, je, i, n = 0
    cdef double v
    c.s = s
    c.u = coordinate(s, o)
    if not isfinite(c.u):
        return edge_row(s, c.u > 0, idx, w)
    c.b0 = <int64_t>floor_d(c.u) - s.half
    c.buf = NULL
    if K <= WINDOW_BUFFER:
        for j in range(K):
            sc.buf[j] = win_raw(&c, j)
        c.buf = sc.buf
    c.total = 0.0 + pw_stream(win_raw_fn, &c, 0, K)
    if not s.exclude:
        j = 0
        while j < K:
            i = c.b0 + j
            if s.n_in == 1 or i >= s.n_in - 1:
                je = K - 1
            elif i <= 0:
                je = -c.b0 if -c.b0 < K - 1 else K - 1
            else:
                je = j
            v = win_norm(&c, j)
            if je > j:
                v = v + pw_stream(win_norm, &c, j + 1, je - j)
            if v != 0:
                idx[n] = clamp_i(i, 0, s.n_in - 1)
                w[n] = v
                n += 1
            j = je + 1
        return n
    c.total2 = 0.0 + pw_stream(win_inside, &c, 0, K)
    if c.total2 == 0:
        return edge_row(s, not (c.u < 0), idx, w)
    j = -c.b0 if c.b0 < 0 else 0
    while j < K and c.b0 + j < s.n_in:
        v = win_inside(&c, j) / c.total2
        if v != 0:
            idx[n] = c.b0 + j
            w[n] = v
            n += 1
        j += 1
    return n


cdef int64_t row_window_folded(const Spec* s, int64_t o, Scratch* sc, int64_t* idx,
                               double* w) noexcept nogil:
    """A window too wide to evaluate tap by tap: the in-range taps, and the filter's mass
    outside the input added to the edge taps in closed form (``outside_mass``). Beyond
    ``r_clamp`` the weights stop changing: ``r`` is clamped and ``u`` scaled with it."""
    cdef double u
    cdef double r = s.r
    cdef double reach, lo_d, hi_d, inner = 0.0, left, right, total, d
    cdef int64_t lo, hi, i, n = 0
    if r > s.r_clamp:
        r = s.r_clamp
        u = scaled_coordinate(s, o) * r
    else:
        u = coordinate(s, o)
    if not isfinite(u):  # not reached: below r_clamp, |u| < 2^150
        return edge_row(s, u > 0, idx, w)
    reach = s.support_d * r
    lo_d = np_clip(floor_d(u - reach) + 1.0, 0.0, s.n_in_d)
    if s.kernel == KERNEL_BOX:  # closed on the right (W(1/2) = 1), and room for box_snap
        lo_d = np_clip(floor_d(u - reach), 0.0, s.n_in_d)
        hi_d = np_clip(floor_d(u + reach) + 1.0, -1.0, s.nin_m1_d)
    else:
        hi_d = np_clip(ceil_d(u + reach) - 1.0, -1.0, s.nin_m1_d)
    lo = to_index(lo_d)
    hi = to_index(hi_d)
    if lo > hi:  # the window lies wholly on one side of the input
        return edge_row(s, not (u < 0), idx, w)
    if hi - lo + 1 > s.row_cap:  # never (row_cap bounds the window); the buffer is that long
        hi = lo + s.row_cap - 1
    for i in range(lo, hi + 1):
        d = box_snap(s, <double>i, u, r) if s.kernel == KERNEL_BOX else (<double>i - u) / r
        w[n] = s.weight(s, d)
        idx[n] = i
        inner = inner + w[n]
        n += 1
    if s.exclude:
        if inner == 0:
            return edge_row(s, not (u < 0), idx, w)
        total = inner
    else:
        left = s.outside_mass(s, u, r, -INFINITY, -1.0) if lo == 0 else 0.0
        right = s.outside_mass(s, u, r, s.n_in_d, INFINITY) if hi == s.n_in - 1 else 0.0
        w[0] = left + w[0]
        w[n - 1] = w[n - 1] + right
        total = left + inner + right
    hi = 0
    for i in range(n):
        d = w[i] / total
        if d != 0:
            idx[hi] = idx[i]
            w[hi] = d
            hi += 1
    return hi


# ------------------------------------------------------------------------ the builder

cdef enum:
    COORD_BLOCK = 256


cdef void coordinates(const Spec* s, int64_t o0, int64_t n, double* u) noexcept nogil:
    # coordinate() of outputs o0 .. o0 + n - 1 (n <= COORD_BLOCK); half_pixel's two forms (and
    # pytorch_half_pixel's, but for one output) in loops of their own, the same expressions
    # (o0 + j as o0 + (double)j, exact below 2^53: a 32-bit j converts in vector registers)
    cdef int64_t j
    cdef int i, m = <int>n
    cdef double o = <double>o0, a = s.n_in_d, b = s.n_out_d, c = s.two_n_out_d, sc = s.scale
    cdef bint half = s.transform == T_HALF_PIXEL or (s.transform == T_PYTORCH_HALF_PIXEL
                                                     and s.n_out != 1)
    cdef int t = s.transform
    if half and not s.has_scale:
        for i in range(m):
            u[i] = ((2.0 * (o + <double>i) + 1.0) * a - b) / c
    elif half:
        for i in range(m):
            u[i] = ((o + <double>i) + 0.5) / sc - 0.5
    elif t == T_ASYMMETRIC and not s.has_scale:
        for i in range(m):
            u[i] = ((o + <double>i) * a) / b
    elif t == T_ASYMMETRIC:
        for i in range(m):
            u[i] = (o + <double>i) / sc
    elif t == T_TF_HALF_PIXEL_FOR_NN and not s.has_scale:
        for i in range(m):
            u[i] = ((2.0 * (o + <double>i) + 1.0) * a) / c
    elif t == T_ALIGN_CORNERS and s.n_out != 1:
        for i in range(m):
            u[i] = ((o + <double>i) * s.nin_m1_d) / s.nout_m1_d
    else:
        for j in range(n):
            u[j] = coordinate(s, o0 + j)


cdef int64_t fill_one_or_two(Spec s, int64_t o0, int64_t o1, int64_t* ptr, int64_t* idx,
                             double* w) noexcept nogil:
    # NEAREST and LINEAR rows. Blocks of coordinates first: where a row's taps count depends on
    # its division, the next row's stores wait for it; apart, the divisions overlap. ``s`` by
    # value: the stores into the table cannot alias it. (The scheme's branch is the same for
    # every row: the compiler takes it out of the loop.)
    cdef double u[COORD_BLOCK]
    cdef int64_t o, j, n, p = 0
    cdef bint linear = s.scheme == SCHEME_LINEAR
    o = o0
    while o < o1:
        n = min(<int64_t>COORD_BLOCK, o1 - o)
        coordinates(&s, o, n, u)
        for j in range(n):
            if linear:
                p += linear_at(&s, u[j], idx + p, w + p)
            else:
                p += nearest_at(&s, u[j], idx + p, w + p)
            ptr[o + j - o0 + 1] = p
        o += n
    return p


cdef int64_t fill_csr(const Spec* s, row_fn row, int64_t o0, int64_t o1, Scratch* sc,
                      int64_t* ptr, int64_t* idx, double* w) noexcept nogil:
    # The most common schemes get a loop of their own, where the row function is inlined.
    cdef int64_t o, p = 0
    if s.scheme == SCHEME_NEAREST or s.scheme == SCHEME_LINEAR:
        return fill_one_or_two(s[0], o0, o1, ptr, idx, w)
    for o in range(o0, o1):
        p += row(s, o, sc, idx + p, w + p)
        ptr[o - o0 + 1] = p
    return p


# ------------------------------------------------------------------------ native tiles

cdef struct TileSource:
    TileFiller filler   # first: the capsule's pointer is also the source's
    Spec s
    row_fn row


ctypedef fused real_t:
    float
    double


cdef inline void pad_row(int64_t* off, real_t* w, int64_t q, int64_t c, int64_t k,
                         int64_t pad) noexcept nogil:
    # slots c .. k - 1 of the dense row at q: padding (index pad, weight -0.0); a row
    # without taps gets +0.0 in its first slot (AxisTable.dense)
    cdef int64_t t
    for t in range(c, k):
        off[q + t] = pad
        w[q + t] = <real_t>(-0.0)
    if c == 0:
        w[q] = 0.0


cdef int64_t dense_one_or_two(const Spec* s, int64_t o0, int64_t o1, int64_t lo, int64_t n_w,
                              int64_t k, int64_t* off, real_t* w) noexcept nogil:
    # NEAREST and LINEAR rows straight into dense rows of k >= row_cap slots (fill_one_or_two's
    # taps, then the padding), indices from lo; -1 where one falls outside the window. (One
    # element per pixel: place_taps spreads pixels of more.)
    cdef double u[COORD_BLOCK]
    cdef int64_t ti[2]
    cdef double tw[2]
    cdef int64_t o, j, n, c, q, v, t
    cdef double x, f
    cdef bint linear = s.scheme == SCHEME_LINEAR
    o = o0
    while o < o1:
        n = min(<int64_t>COORD_BLOCK, o1 - o)
        coordinates(s, o, n, u)
        for j in range(n):
            q = (o + j - o0) * k
            x = u[j]
            if linear and x >= 0.0 and x < s.nin_m1_d:
                # linear_at's inside case: two taps, or one where the fraction is 0
                v = <int64_t>x - lo
                f = x - <double>(v + lo)
                if <uint64_t>v >= <uint64_t>n_w:
                    return -1
                off[q] = v
                w[q] = <real_t>(1.0 - f)
                if f != 0:
                    if v + 1 >= n_w:
                        return -1
                    off[q + 1] = v + 1
                    w[q + 1] = <real_t>f
                    t = 2
                else:
                    t = 1
                pad_row(off, w, q, t, k, n_w)
                continue
            if linear:
                c = linear_at(s, x, ti, tw)
            else:
                c = nearest_at(s, x, ti, tw)
            v = ti[0] - lo
            if <uint64_t>v >= <uint64_t>n_w:
                return -1
            off[q] = v
            w[q] = <real_t>tw[0]
            if c == 2:
                v = ti[1] - lo
                if <uint64_t>v >= <uint64_t>n_w:
                    return -1
                off[q + 1] = v
                w[q + 1] = <real_t>tw[1]
            pad_row(off, w, q, c, k, n_w)
        o += n
    return 0


cdef int64_t dense_taps(const Spec* s, int64_t o0, int64_t o1, int64_t lo, int64_t n_w,
                        int64_t k, Scratch* sc, int64_t* off, real_t* w) noexcept nogil:
    # TAPS rows (cubic, lanczos, ...) straight into dense rows of k >= row_cap slots: a row
    # whose 2 * support taps all lie inside the input has nothing to clamp or merge, so it is
    # row_taps' taps with the weights equal to 0 dropped; other rows (the ends,
    # exclude_outside) go through row_taps. Indices from lo; -1 where one falls outside the
    # window.
    cdef double u[COORD_BLOCK]
    cdef double rw[64]
    cdef int64_t ti[64]
    cdef double tw[64]
    cdef int64_t S = s.support, n2 = 2 * s.support
    cdef int64_t o, j, n, c, q, v, t, base
    cdef double x, i0
    if n2 > 64 or k > 64:
        return -1
    o = o0
    while o < o1:
        n = min(<int64_t>COORD_BLOCK, o1 - o)
        coordinates(s, o, n, u)
        for j in range(n):
            q = (o + j - o0) * k
            x = u[j]
            c = 0
            if not s.exclude and x >= <double>(S - 1) and x < <double>(s.n_in - S):
                # floor is truncation; taps base - (S - 1) .. base + S all inside
                base = <int64_t>x
                i0 = <double>base
                s.taps_weights(s, x - i0, rw)
                for t in range(n2):
                    if rw[t] != 0:
                        v = base + t - (S - 1) - lo
                        if <uint64_t>v >= <uint64_t>n_w:
                            return -1
                        off[q + c] = v
                        w[q + c] = <real_t>rw[t]
                        c += 1
            else:
                c = row_taps(s, o + j, sc, ti, tw)
                if c > k:
                    return -1
                for t in range(c):
                    v = ti[t] - lo
                    if <uint64_t>v >= <uint64_t>n_w:
                        return -1
                    off[q + t] = v
                    w[q + t] = <real_t>tw[t]
            pad_row(off, w, q, c, k, n_w)
        o += n
    return 0


cdef int64_t csr_nearest(const Spec* s, int64_t o0, int64_t o1, int64_t lo, int64_t n_w,
                         int64_t scale, int64_t* ptr, int64_t* off, real_t* w) noexcept nogil:
    # NEAREST rows straight into the CSR form (one tap of weight 1 an output: what a gather
    # reads), offsets (index - lo) * scale; -1 where one falls outside the window.
    cdef double u[COORD_BLOCK]
    cdef int64_t ti[1]
    cdef double tw[1]
    cdef int64_t o, j, n, v, q
    o = o0
    while o < o1:
        n = min(<int64_t>COORD_BLOCK, o1 - o)
        coordinates(s, o, n, u)
        for j in range(n):
            nearest_at(s, u[j], ti, tw)
            v = ti[0] - lo
            if <uint64_t>v >= <uint64_t>n_w:
                return -1
            q = o + j - o0
            off[q] = v * scale
            if w != NULL:
                w[q] = 1.0
                ptr[q + 1] = q + 1
        o += n
    return 0


cdef int64_t place_taps(int64_t n, int64_t lo, int64_t n_w, int64_t k, int64_t scale,
                        int64_t channels, const int64_t* ptr, const int64_t* tidx,
                        const double* tw, int64_t* off, real_t* w) noexcept nogil:
    # CSR taps (indices into the input) to the pass's form (_tilefill.pxd); -1 where one
    # falls outside the window or a row has more than k taps. Dense rows of pixels of
    # `channels` elements: row o c of element c of pixel o, taps index * channels + c,
    # padding n_w * channels.
    cdef int64_t o, j, p, c, v, e, q, m = ptr[n], pad = n_w * channels
    if k > 0:
        for o in range(n):
            p = ptr[o]
            c = ptr[o + 1] - p
            if c > k:
                return -1
            for e in range(channels):
                q = (o * channels + e) * k
                for j in range(c):
                    v = tidx[p + j] - lo
                    if <uint64_t>v >= <uint64_t>n_w:
                        return -1
                    off[q + j] = v * channels + e
                    w[q + j] = <real_t>tw[p + j]
                pad_row(off, w, q, c, k, pad)
    else:
        if channels != 1:
            return -1
        for j in range(m):
            v = tidx[j] - lo
            if <uint64_t>v >= <uint64_t>n_w:
                return -1
            off[j] = v * scale
            w[j] = <real_t>tw[j]
    return 0


cdef int64_t fill_tile(const void* state, int64_t o0, int64_t o1, int64_t n_w, int64_t k,
                       int64_t scale, int64_t channels, int dbl, int64_t* ptr, int64_t* off,
                       void* w, int64_t* tidx, double* tw) noexcept nogil:
    # _tilefill.pxd: the rows as fill_csr builds them (window_into's), from the window's
    # start lo, in the form of the pass that reads them. Taps move right with the output, so
    # the window is found from the first and the last row (every index is checked as it is
    # placed); from every tap where an end has none.
    cdef const TileSource* ts = <const TileSource*>state
    cdef const Spec* sp = &ts.s
    cdef Scratch sc
    cdef int64_t n = o1 - o0, m, j, lo, mn, mx, rc
    cdef bint dense
    if n <= 0 or n_w < 1 or n_w > sp.n_in or o0 < 0 or o1 > sp.n_out or channels < 1:
        return -1
    if scratch_alloc(sp, &sc) < 0:
        return -1
    ptr[0] = 0
    mn = row_end(sp, ts.row, o0, &sc, ptr, tidx, tw, False)
    mx = row_end(sp, ts.row, o1 - 1, &sc, ptr, tidx, tw, True)
    dense = (channels == 1 and (sp.scheme == SCHEME_NEAREST
                                or (k > 0 and (sp.scheme == SCHEME_LINEAR
                                               or sp.scheme == SCHEME_TAPS))))
    if not dense:
        m = fill_csr(sp, ts.row, o0, o1, &sc, ptr, tidx, tw)
        if mn < 0 or mx < 0:
            mn = mx = tidx[0] if m > 0 else 0
            for j in range(m):
                mn = min(mn, tidx[j])
                mx = max(mx, tidx[j])
    lo = min(mn, sp.n_in - n_w)
    if lo < 0 or mx - lo >= n_w:
        rc = -1
    elif dense and sp.scheme == SCHEME_TAPS:
        rc = dense_taps(sp, o0, o1, lo, n_w, k, &sc, off, <double*>w) if dbl else \
            dense_taps(sp, o0, o1, lo, n_w, k, &sc, off, <float*>w)
    elif dense and k == 0:
        rc = csr_nearest(sp, o0, o1, lo, n_w, scale, ptr, off, <double*>w) if dbl else \
            csr_nearest(sp, o0, o1, lo, n_w, scale, ptr, off, <float*>w)
    elif w == NULL:
        rc = -1   # offsets only: a gather's, of one tap an output
    elif dense:
        rc = dense_one_or_two(sp, o0, o1, lo, n_w, k, off, <double*>w) if dbl else \
            dense_one_or_two(sp, o0, o1, lo, n_w, k, off, <float*>w)
    else:
        rc = place_taps(n, lo, n_w, k, scale, channels, ptr, tidx, tw, off, <double*>w) \
            if dbl else place_taps(n, lo, n_w, k, scale, channels, ptr, tidx, tw, off,
                                   <float*>w)
    _release(&sc)
    return lo if rc == 0 else -1


cdef void _free_source(object capsule) noexcept:
    free(PyCapsule_GetPointer(capsule, "resamplex.TileFiller"))


cdef int scratch_alloc(const Spec* s, Scratch* sc) noexcept nogil:
    # One build call's scratch (raw_cap taps, buf_cap weights); -1, holding nothing, where
    # memory is short.
    sc.idx = <int64_t*>malloc(max(s.raw_cap, 1) * sizeof(int64_t))
    sc.w = <double*>malloc(max(s.raw_cap, 1) * sizeof(double))
    sc.buf = <double*>malloc(max(s.buf_cap, 1) * sizeof(double))
    if sc.idx == NULL or sc.w == NULL or sc.buf == NULL:
        _release(sc)
        return -1
    return 0


cdef int64_t row_end(const Spec* s, row_fn row, int64_t o, Scratch* sc, int64_t* ptr,
                     int64_t* idx, double* w, bint largest) noexcept nogil:
    # The smallest index output o reads (its largest: largest), or -1 where it reads none;
    # ptr, idx, w: room for its taps.
    cdef int64_t m = fill_csr(s, row, o, o + 1, sc, ptr, idx, w), j, v
    if m <= 0:
        return -1
    v = idx[0]
    for j in range(1, m):
        v = max(v, idx[j]) if largest else min(v, idx[j])
    return v


cdef void _release(Scratch* sc) noexcept nogil:
    free(sc.idx)
    free(sc.w)
    free(sc.buf)
    sc.idx = NULL
    sc.w = NULL
    sc.buf = NULL


cdef class TableBuilder:
    """Builds the taps of any range of outputs of one core axis (see the module docstring).

    Constructed by ``resamplex._tables.AxisSpec``, which computes every scalar below with the
    Python expressions of the NumPy builders (``r = n_in / n_out`` is Python's correctly
    rounded integer division, for instance).
    """

    cdef Spec s
    cdef row_fn row

    def __init__(self, *, int scheme, int64_t n_in, int64_t n_out, scale, int transform,
                 int rule, int kernel, double r, double a, bint exclude, int64_t support,
                 double support_d, int64_t half, bint exact, double r_clamp, int64_t area_k,
                 double hps_offset, int64_t row_cap, int64_t raw_cap, int64_t buf_cap):
        cdef Spec* s = &self.s
        if n_out > 0 and n_in < 1:
            raise ValueError("n_in must be >= 1 when n_out >= 1")
        s.scheme = scheme
        s.n_in = n_in
        s.n_out = n_out
        s.has_scale = scale is not None
        s.scale = float(scale) if scale is not None else 1.0
        s.transform = transform
        s.rule = rule
        s.kernel = kernel
        s.r = r
        s.exclude = exclude
        s.n_in_d = <double>n_in
        s.n_out_d = <double>n_out
        s.two_n_out_d = <double>(2 * n_out)
        s.two_scale = 2.0 * s.scale
        s.hps_offset = hps_offset
        s.nin_m1_d = <double>(n_in - 1)
        s.nout_m1_d = <double>(n_out - 1)
        s.a = a
        s.ka2 = a + 2.0
        s.ka3 = a + 3.0
        s.ka5 = 5.0 * a
        s.ka8 = 8.0 * a
        s.ka4 = 4.0 * a
        s.support = support
        s.support_d = support_d
        s.normalize = kernel == KERNEL_LANCZOS or kernel == KERNEL_HAMMING
        s.half = half
        s.window = 2 * half + 1
        s.exact = exact
        s.r_clamp = r_clamp
        s.area_k = area_k
        s.k_max = 0
        s.row_cap = row_cap
        s.raw_cap = raw_cap
        s.buf_cap = buf_cap
        s.taps_weights = NULL
        s.weight = NULL
        s.outside_mass = NULL
        if kernel == KERNEL_KEYS:
            s.taps_weights = keys_taps_weights
            s.weight = keys_weight
            s.outside_mass = keys_outside_mass
        elif kernel == KERNEL_LANCZOS or kernel == KERNEL_HAMMING:
            s.taps_weights = generic_taps_weights
            s.weight = lanczos_weight if kernel == KERNEL_LANCZOS else hamming_weight
            s.outside_mass = smooth_outside_mass
        elif kernel == KERNEL_BOX:
            s.taps_weights = generic_taps_weights
            s.weight = box_weight
            s.outside_mass = box_outside_mass
        elif scheme in (SCHEME_TAPS, SCHEME_WINDOW):
            raise ValueError(f"scheme {scheme} needs a weight function; kernel {kernel} has none")
        if scheme == SCHEME_NEAREST:
            self.row = row_nearest
        elif scheme == SCHEME_LINEAR:
            self.row = row_linear
        elif scheme == SCHEME_TAPS:
            self.row = row_taps
        elif scheme == SCHEME_AREA:
            self.row = row_area
        elif scheme == SCHEME_AA_TRIANGLE:
            self.row = row_aa_triangle
            with nogil:
                s.k_max = triangle_k_max(s)
            # The caller's bounds are meant to hold k_max + 2 taps already; never trust them.
            s.buf_cap = max(s.buf_cap, s.k_max)
            s.row_cap = max(s.row_cap, min(s.k_max + 2, n_in))
        elif scheme == SCHEME_WINDOW:
            self.row = row_window_exact if exact else row_window_folded
        else:
            raise ValueError(f"unknown scheme {scheme}")

    @property
    def k_max(self) -> int:
        """AA_TRIANGLE: the widest in-range window of the axis (0 for other schemes)."""
        return self.s.k_max

    @property
    def row_cap(self) -> int:
        """An upper bound on the taps of any one output."""
        return self.s.row_cap

    @property
    def scratch_nbytes(self) -> int:
        """Bytes of scratch one build call allocates (independent of the range's length)."""
        return self.s.raw_cap * 16 + self.s.buf_cap * 8

    cdef int _alloc(self, Scratch* sc) except -1:
        if scratch_alloc(&self.s, sc) < 0:
            raise MemoryError("table builder scratch")
        return 0

    def _check_range(self, o0, o1):
        if not (0 <= o0 <= o1 <= self.s.n_out):
            raise ValueError(f"output range [{o0}, {o1}) outside [0, {self.s.n_out})")

    def csr_into(self, int64_t o0, int64_t o1, int64_t[::1] ptr, int64_t[::1] idx,
                 double[::1] w) -> int:
        """Taps of outputs ``o0 .. o1 - 1`` into ``ptr`` (``o1 - o0 + 1``, relative to the
        range, ``ptr[0] = 0``), ``idx``, ``w`` (at least ``(o1 - o0) * row_cap`` long).
        Returns the number of taps written. GIL released."""
        cdef Scratch sc
        cdef int64_t o, p = 0
        cdef int64_t* ip
        cdef double* wp
        self._check_range(o0, o1)
        if ptr.shape[0] < o1 - o0 + 1:
            raise ValueError("ptr: too short for the range")
        if idx.shape[0] < (o1 - o0) * self.s.row_cap or w.shape[0] < idx.shape[0]:
            raise ValueError("idx, w: shorter than (o1 - o0) * row_cap")
        ptr[0] = 0
        if o1 == o0:
            return 0
        self._alloc(&sc)
        ip = &idx[0]
        wp = &w[0]
        with nogil:
            p = fill_csr(&self.s, self.row, o0, o1, &sc, &ptr[0], ip, wp)
        _release(&sc)
        return p

    def csr(self, int64_t o0, int64_t o1):
        """``(ptr, idx, w)`` of outputs ``o0 .. o1 - 1`` (``ptr`` relative to the range)."""
        self._check_range(o0, o1)
        cap = (o1 - o0) * self.s.row_cap
        ptr = np.empty(o1 - o0 + 1, dtype=np.int64)
        idx = np.empty(cap, dtype=np.int64)
        w = np.empty(cap, dtype=np.float64)
        nnz = self.csr_into(o0, o1, ptr, idx, w)
        if nnz < cap:  # shrink in place (realloc), no copy of the table
            idx.resize(nnz, refcheck=False)
            w.resize(nnz, refcheck=False)
        return ptr, idx, w

    def tile_filler(self):
        """A capsule (``"resamplex.TileFiller"``, ``_tilefill.pxd``) holding a copy of this
        builder's rows for ``_exec.Program.run_tiles``: the taps of a range of outputs over a
        fixed-length input window, written in the form of the pass that reads them."""
        cdef TileSource* ts = <TileSource*>malloc(sizeof(TileSource))
        if ts == NULL:
            raise MemoryError("table builder tile source")
        ts.s = self.s
        ts.row = self.row
        ts.filler.state = <const void*>ts
        ts.filler.fill = fill_tile
        ts.filler.row_cap = self.s.row_cap
        return PyCapsule_New(<void*>ts, "resamplex.TileFiller", _free_source)

    def tile_csr(self, int64_t o0, int64_t o1, int64_t n_w):
        """``(lo, ptr, idx, w)``: the CSR taps of outputs ``o0 .. o1 - 1`` (indices from
        ``lo``) over the input window ``[lo, lo + n_w)`` as ``tile_filler`` finds it, or None
        where they do not fit in it. GIL released."""
        self._check_range(o0, o1)
        if o1 <= o0 or not 1 <= n_w <= self.s.n_in:
            raise ValueError("tile_csr: an empty range or a window outside the input")
        cdef int64_t n = o1 - o0, cap = max(self.s.row_cap, 1), lo
        ptr = np.empty(n + 1, np.int64)
        off = np.empty(n * cap, np.int64)
        w = np.empty(n * cap, np.float64)
        tidx = np.empty(n * cap, np.int64)
        cdef int64_t[::1] pv = ptr, ov = off, tv = tidx
        cdef double[::1] wv = w
        cdef TileSource ts
        ts.s = self.s
        ts.row = self.row
        with nogil:
            lo = fill_tile(&ts, o0, o1, n_w, 0, 1, 1, 1, &pv[0], &ov[0], &wv[0], &tv[0],
                           &wv[0])
        if lo < 0:
            return None
        return lo, ptr, off[:ptr[n]].copy(), w[:ptr[n]].copy()

    def window_into(self, int64_t o0, int64_t o1, int64_t[::1] ptr, int64_t[::1] idx,
                    double[::1] w, int64_t[::1] didx, double[::1] dw):
        """The table of outputs ``o0 .. o1 - 1`` over an input window that holds every index
        they read, in both forms, for a tile of a long axis: ``(nnz, lo, hi, k)``.

        The window is ``[lo, hi)``: from the first output's smallest index to the last one's
        largest (taps move right with the output, so that is every index read; where one is
        not, the smallest and largest index read), ``[0, 1)`` for a range without taps.
        ``ptr``, ``idx``, ``w`` get the CSR taps as ``csr_into`` gives them with ``lo`` taken
        from every index; ``didx``, ``dw`` (row-major, ``k`` per output) get
        ``AxisTable.dense`` of that window table: ``k`` the most taps of any output (at least
        1), padding reading index ``hi - lo`` with weight ``-0.0``, ``+0.0`` first in an
        output without taps. Every array is at least as long as for ``csr_into``; they can be
        reused from tile to tile. Built in chunks of outputs, each made dense while its taps
        are in cache. GIL released."""
        cdef Scratch sc
        cdef int64_t o, j, c, p, q, a, b, m, nnz = 0, k = 1, lo = 0, hi = 1, pad, v, cap
        cdef int64_t lo_seen, hi_seen
        cdef int64_t* ip
        cdef int64_t* pp
        cdef double* wp
        cdef int64_t* dip
        cdef double* dwp
        cdef int64_t n = o1 - o0
        cdef bint outside = False
        self._check_range(o0, o1)
        cap = self.s.row_cap
        if ptr.shape[0] < n + 1:
            raise ValueError("ptr: too short for the range")
        if (idx.shape[0] < n * cap or w.shape[0] < n * cap or didx.shape[0] < n * cap
                or dw.shape[0] < n * cap):
            raise ValueError("idx, w, didx, dw: shorter than (o1 - o0) * row_cap")
        ptr[0] = 0
        if n == 0:
            return 0, 0, 1, 1
        self._alloc(&sc)
        ip, pp, wp, dip, dwp = &idx[0], &ptr[0], &w[0], &didx[0], &dw[0]
        with nogil:
            # The window's ends: the first output's smallest index, the last one's largest.
            lo_seen = row_end(&self.s, self.row, o0, &sc, pp, ip, wp, False)
            hi_seen = row_end(&self.s, self.row, o1 - 1, &sc, pp, ip, wp, True)
            if lo_seen >= 0 and hi_seen >= lo_seen:
                lo, hi = lo_seen, hi_seen + 1
            else:
                outside = True  # an end without taps: find the window from all of them
            pad = hi - lo
            # Chunks of outputs: CSR taps, then their dense rows of width ``cap`` (every
            # output's bound), indices from ``lo``; narrowed to ``k`` at the end.
            a = o0
            while a < o1:
                b = min(o1, a + 1024)
                m = fill_csr(&self.s, self.row, a, b, &sc, pp + (a - o0), ip + nnz, wp + nnz)
                for o in range(a - o0, b - o0):
                    pp[o + 1] += nnz
                    p, q = pp[o], o * cap
                    c = pp[o + 1] - p
                    if c > k:
                        k = c
                    for j in range(c):
                        v = ip[p + j] - lo
                        if v < 0 or v >= pad:
                            outside = True
                        ip[p + j] = v
                        dip[q + j] = v
                        dwp[q + j] = wp[p + j]
                    for j in range(c, cap):
                        dip[q + j] = pad
                        dwp[q + j] = -0.0
                    if c == 0:
                        dwp[q] = 0.0
                nnz += m
                a = b
            if outside:  # the window from every index read, and the rows again
                lo_seen = hi_seen = 0
                if nnz > 0:
                    lo_seen = hi_seen = ip[0] + lo
                for j in range(nnz):
                    lo_seen = min(lo_seen, ip[j] + lo)
                    hi_seen = max(hi_seen, ip[j] + lo)
                for j in range(nnz):
                    ip[j] = ip[j] + lo - lo_seen
                lo, hi = lo_seen, hi_seen + 1
                pad = hi - lo
                for o in range(n):
                    p, q = pp[o], o * cap
                    c = pp[o + 1] - p
                    for j in range(c):
                        dip[q + j] = ip[p + j]
                    for j in range(c, cap):
                        dip[q + j] = pad
            if k < cap:  # rows of ``cap`` slots to rows of ``k``: forward, in place
                for o in range(1, n):
                    for j in range(k):
                        dip[o * k + j] = dip[o * cap + j]
                        dwp[o * k + j] = dwp[o * cap + j]
        _release(&sc)
        return nnz, lo, hi, k

    def dense_into(self, int64_t o0, int64_t o1, int64_t k, int64_t[::1] idx,
                   double[::1] w) -> int:
        """``AxisTable.dense`` rows of outputs ``o0 .. o1 - 1`` into ``idx``, ``w`` (each
        ``(o1 - o0) * k`` long, row-major): taps, then padding reading index ``n_in`` with
        weight ``-0.0``; an output without taps gets ``+0.0`` in its first slot. Returns the
        most taps of any output in the range. Raises ``ValueError`` if one has more than
        ``k``. GIL released."""
        cdef Scratch sc
        cdef int64_t o, j, c, most = 0
        cdef int64_t* rowi = NULL
        cdef double* roww = NULL
        cdef int64_t* ip
        cdef double* wp
        cdef bint too_many = False
        self._check_range(o0, o1)
        if k < 1:
            raise ValueError("k must be >= 1")
        if idx.shape[0] < (o1 - o0) * k or w.shape[0] < (o1 - o0) * k:
            raise ValueError("idx, w: shorter than (o1 - o0) * k")
        if o1 == o0:
            return 0
        self._alloc(&sc)
        rowi = <int64_t*>malloc(max(self.s.row_cap, 1) * sizeof(int64_t))
        roww = <double*>malloc(max(self.s.row_cap, 1) * sizeof(double))
        if rowi == NULL or roww == NULL:
            free(rowi)
            free(roww)
            _release(&sc)
            raise MemoryError("table builder scratch")
        ip = &idx[0]
        wp = &w[0]
        with nogil:
            for o in range(o0, o1):
                c = self.row(&self.s, o, &sc, rowi, roww)
                if c > k:
                    too_many = True
                    break
                if c > most:
                    most = c
                for j in range(c):
                    ip[j] = rowi[j]
                    wp[j] = roww[j]
                for j in range(c, k):
                    ip[j] = self.s.n_in
                    wp[j] = -0.0
                if c == 0:
                    wp[0] = 0.0
                ip += k
                wp += k
        free(rowi)
        free(roww)
        _release(&sc)
        if too_many:
            raise ValueError(f"an output has more than k={k} taps")
        return most

    def stats(self, int64_t o0, int64_t o1):
        """``(nnz, most)``: the taps of outputs ``o0 .. o1 - 1`` and the most of any one,
        without storing them. GIL released."""
        cdef Scratch sc
        cdef int64_t o, c, nnz = 0, most = 0
        cdef int64_t* rowi
        cdef double* roww
        self._check_range(o0, o1)
        if o1 == o0:
            return 0, 0
        self._alloc(&sc)
        rowi = <int64_t*>malloc(max(self.s.row_cap, 1) * sizeof(int64_t))
        roww = <double*>malloc(max(self.s.row_cap, 1) * sizeof(double))
        if rowi == NULL or roww == NULL:
            free(rowi)
            free(roww)
            _release(&sc)
            raise MemoryError("table builder scratch")
        with nogil:
            for o in range(o0, o1):
                c = self.row(&self.s, o, &sc, rowi, roww)
                nnz += c
                if c > most:
                    most = c
        free(rowi)
        free(roww)
        _release(&sc)
        return nnz, most


def csr_to_dense(int64_t n_in, const int64_t[::1] ptr, const int64_t[::1] idx,
                 const double[::1] w, int64_t k, int64_t[::1] out_idx,
                 double[::1] out_w) -> None:
    """``AxisTable.dense`` of a CSR table into ``out_idx``/``out_w`` (``n_out * k``, row-major),
    same padding as ``TableBuilder.dense_into``. Every row must have at most ``k`` taps.
    GIL released."""
    cdef int64_t n_out = ptr.shape[0] - 1
    cdef int64_t o, j, c, p
    if out_idx.shape[0] < n_out * k or out_w.shape[0] < n_out * k:
        raise ValueError("out_idx, out_w: shorter than n_out * k")
    for o in range(n_out):
        if ptr[o + 1] - ptr[o] > k or ptr[o + 1] < ptr[o]:
            raise ValueError("a row has more than k taps")
    if ptr[n_out] > idx.shape[0] or ptr[n_out] > w.shape[0] or (n_out and ptr[0] < 0):
        raise ValueError("ptr: past the end of idx, w")
    with nogil:
        for o in range(n_out):
            p = ptr[o]
            c = ptr[o + 1] - p
            for j in range(c):
                out_idx[o * k + j] = idx[p + j]
                out_w[o * k + j] = w[p + j]
            for j in range(c, k):
                out_idx[o * k + j] = n_in
                out_w[o * k + j] = -0.0
            if c == 0:
                out_w[o * k] = 0.0
