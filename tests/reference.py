"""A plain float64 NumPy reference for the core resize (SPEC §2 and §3).

Built from the SPEC formulas, independently of ``resamplex._tables``: this module never imports
resamplex. Clarity comes first; loops are fine.

- Coordinates are exact rationals (``fractions.Fraction``), so nearest-mode ties are decided
  exactly. A given scale enters as ``Fraction(scale)``, the exact value of the float.
- Linear taps follow SPEC §2: ``i0 = floor(u)``, ``f = u - i0``, ``clamp(i0)`` with ``1 - f``
  and ``clamp(i0 + 1)`` with ``f``; taps that clamp to the same index are merged and zero-weight
  taps dropped (so a NaN only reaches outputs that give it a non-zero weight).
- ``reference_resize`` evaluates linear separably, one axis at a time, in float64.
- ``assert_matches`` is the SPEC §3 accuracy contract.
"""

from fractions import Fraction
import math

import numpy as np

try:
    import ml_dtypes
    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - the test extras install it
    ml_dtypes = None
    BFLOAT16 = None

TRANSFORMS = (
    "half_pixel",
    "pytorch_half_pixel",
    "half_pixel_symmetric",
    "align_corners",
    "asymmetric",
    "tf_half_pixel_for_nn",
)
NEAREST_MODES = ("round_prefer_ceil", "round_prefer_floor", "floor", "ceil")
ROUNDINGS = ("half_even", "half_away_from_zero", "toward_zero")

HALF = Fraction(1, 2)

# Where an exact coordinate lies this close to (but not on) a nearest-mode decision boundary,
# a float64 implementation may legitimately land on either side: tests avoid such cases.
FRAGILE_EPS = Fraction(1, 10**9)


# --------------------------------------------------------------------------------------------
# Coordinates and taps (SPEC §2)
# --------------------------------------------------------------------------------------------

def ratio(n_in, n_out, scale=None):
    """``r = 1/scale`` (exact value of the float) if a scale is given, else ``n_in/n_out``."""
    if scale is not None:
        return 1 / Fraction(scale)
    return Fraction(n_in, n_out)


def source_coordinate(o, n_in, n_out, scale=None, transform="half_pixel"):
    """The input coordinate ``u(o)`` of output index ``o``, as an exact Fraction."""
    o = Fraction(o)
    if transform == "half_pixel":
        return (o + HALF) * ratio(n_in, n_out, scale) - HALF
    if transform == "pytorch_half_pixel":
        if n_out == 1:
            return Fraction(0)
        return (o + HALF) * ratio(n_in, n_out, scale) - HALF
    if transform == "half_pixel_symmetric":
        # ONNX Resize-19: adjustment = n_out / (n_in * scale) = n_out * r / n_in,
        # offset = (n_in / 2) * (1 - adjustment).
        r = ratio(n_in, n_out, scale)
        return (o + HALF) * r - HALF + Fraction(n_in, 2) * (1 - n_out * r / n_in)
    if transform == "align_corners":
        if n_out == 1:
            return Fraction(0)
        return o * Fraction(n_in - 1, n_out - 1)     # scale ignored
    if transform == "asymmetric":
        return o * ratio(n_in, n_out, scale)
    if transform == "tf_half_pixel_for_nn":
        return (o + HALF) * ratio(n_in, n_out, scale)
    raise ValueError(f"unknown transform {transform!r}")


def _clamp(i, n_in):
    return min(max(i, 0), n_in - 1)


def _nearest_unclamped(u, nearest_mode):
    if nearest_mode == "round_prefer_ceil":
        return math.floor(u + HALF)
    if nearest_mode == "round_prefer_floor":
        return math.ceil(u - HALF)
    if nearest_mode == "floor":
        return math.floor(u)
    if nearest_mode == "ceil":
        return math.ceil(u)
    raise ValueError(f"unknown nearest_mode {nearest_mode!r}")


def nearest_index(u, n_in, nearest_mode="round_prefer_ceil"):
    """The input index nearest mode reads for coordinate ``u``, clamped to ``[0, n_in-1]``."""
    return _clamp(_nearest_unclamped(Fraction(u), nearest_mode), n_in)


def boundary_distance(u, nearest_mode):
    """Distance from ``u`` to the closest decision boundary of ``nearest_mode``.

    Boundaries are the half-integers for the round_* modes and the integers for floor/ceil.
    """
    u = Fraction(u)
    if nearest_mode in ("round_prefer_ceil", "round_prefer_floor"):
        u = u + HALF
    return abs(u - round(u))


def is_fragile(u, nearest_mode, eps=FRAGILE_EPS):
    """True if ``u`` is not on a boundary but so close that float64 may misplace it."""
    d = boundary_distance(u, nearest_mode)
    return 0 < d <= eps * max(1, abs(Fraction(u)))


def linear_taps(u, n_in):
    """``[(index, weight), ...]`` of linear interpolation at ``u`` (weights sum to 1).

    Taps clamped onto the same index are merged; zero-weight taps are dropped.
    """
    u = Fraction(u)
    i0 = math.floor(u)
    f = u - i0
    merged = {}
    for i, w in ((i0, 1 - f), (i0 + 1, f)):
        if w == 0:
            continue
        c = _clamp(i, n_in)
        merged[c] = merged.get(c, 0) + w
    return [(i, float(w)) for i, w in sorted(merged.items()) if w != 0]


def output_length(n_in, size=None, scale=None):
    """SPEC §2: ``size`` if given, else ``floor(n_in * scale)``.

    The product is taken in float64, as NumPy, PyTorch and the ONNX reference do; the tests
    only use scales where this equals the exact floor (see ``exact_length_agrees``).
    """
    if size is not None:
        return int(size)
    return int(math.floor(float(n_in) * float(scale)))


def exact_length_agrees(n_in, scale):
    """True if the float64 and the exact-rational ``floor(n_in * scale)`` agree."""
    return math.floor(n_in * Fraction(scale)) == output_length(n_in, None, scale)


def axis_table(n_in, n_out, scale=None, transform="half_pixel", mode="linear",
               nearest_mode="round_prefer_ceil"):
    """Per output index, the list of ``(index, weight)`` taps of one axis."""
    table = []
    for o in range(n_out):
        u = source_coordinate(o, n_in, n_out, scale, transform)
        if mode == "nearest":
            table.append([(nearest_index(u, n_in, nearest_mode), 1.0)])
        elif mode == "linear":
            table.append(linear_taps(u, n_in))
        else:
            raise ValueError(f"reference has no mode {mode!r}")
    return table


def axis_fragile(n_in, n_out, scale=None, transform="half_pixel", mode="nearest",
                 nearest_mode="round_prefer_ceil"):
    """True if some nearest index of this axis is a float64 near-tie (see ``is_fragile``)."""
    if mode != "nearest" or n_in == 0:
        return False
    return any(is_fragile(source_coordinate(o, n_in, n_out, scale, transform), nearest_mode)
               for o in range(n_out))


def axis_matrix(n_in, n_out, scale=None, transform="half_pixel", mode="linear",
                nearest_mode="round_prefer_ceil"):
    """The axis table as a dense ``(n_out, n_in)`` float64 matrix."""
    m = np.zeros((n_out, n_in))
    for o, taps in enumerate(axis_table(n_in, n_out, scale, transform, mode, nearest_mode)):
        for i, w in taps:
            m[o, i] += w
    return m


# --------------------------------------------------------------------------------------------
# N-D resize
# --------------------------------------------------------------------------------------------

def normalize_request(shape, size=None, scale=None, axes=None):
    """``[(axis, n_out, scale_or_None), ...]`` for each described axis (no validation beyond
    what the reference needs)."""
    ndim = len(shape)
    if axes is None:
        axes = list(range(ndim))
    elif np.ndim(axes) == 0:
        axes = [int(axes)]
    axes = [int(a) % ndim for a in axes]
    k = len(axes)

    def expand(v):
        if v is None:
            return [None] * k
        if np.ndim(v) == 0:
            return [v] * k
        v = list(v)
        assert len(v) == k
        return v

    sizes, scales = expand(size), expand(scale)
    out = []
    for a, s, sc in zip(axes, sizes, scales):
        out.append((a, output_length(shape[a], s, sc), None if sc is None else float(sc)))
    return out


def reference_shape(shape, size=None, scale=None, axes=None):
    out = list(shape)
    for a, n_out, _ in normalize_request(shape, size, scale, axes):
        out[a] = n_out
    return tuple(out)


def request_fragile(shape, size=None, scale=None, axes=None, mode="nearest",
                    coordinate_transform="half_pixel", nearest_mode="round_prefer_ceil"):
    """True if any axis of the request has a float64 near-tie nearest index."""
    return any(axis_fragile(shape[a], n_out, sc, coordinate_transform, mode, nearest_mode)
               for a, n_out, sc in normalize_request(shape, size, scale, axes))


def reference_resize(x, size=None, scale=None, axes=None, mode="linear",
                     coordinate_transform="half_pixel", nearest_mode="round_prefer_ceil"):
    """Resize ``x`` per SPEC §2.

    nearest: the gathered elements of ``x``, with ``x``'s dtype (exact).
    linear: float64, separable, one axis at a time, from ``x.astype(float64)``.
    """
    x = np.asarray(x)
    request = normalize_request(x.shape, size, scale, axes)
    if mode == "nearest":
        y = x
        for a, n_out, sc in request:
            n_in = y.shape[a]
            idx = [taps[0][0] for taps in
                   axis_table(n_in, n_out, sc, coordinate_transform, "nearest", nearest_mode)]
            y = np.take(y, np.asarray(idx, dtype=np.intp), axis=a)
        return y
    if mode != "linear":
        raise ValueError(f"reference has no mode {mode!r}")
    y = x.astype(np.float64)
    for a, n_out, sc in request:
        n_in = y.shape[a]
        table = axis_table(n_in, n_out, sc, coordinate_transform, "linear")
        src = np.moveaxis(y, a, 0)
        dst = np.zeros((n_out,) + src.shape[1:], dtype=np.float64)
        with np.errstate(invalid="ignore"):          # inf - inf -> NaN is intended
            for o, taps in enumerate(table):
                acc = None
                for i, w in taps:
                    term = w * src[i]
                    acc = term if acc is None else acc + term
                dst[o] = acc
        y = np.moveaxis(dst, 0, a)
    return np.ascontiguousarray(y)


def dense_operator(in_shape, size=None, scale=None, axes=None, mode="linear",
                   coordinate_transform="half_pixel", nearest_mode="round_prefer_ceil"):
    """The whole resize as a dense ``(prod(out_shape), prod(in_shape))`` matrix (C order),
    the Kronecker product of the axis matrices (identity on axes not resampled)."""
    request = {a: (n, sc) for a, n, sc in normalize_request(in_shape, size, scale, axes)}
    m = np.ones((1, 1))
    for a, n_in in enumerate(in_shape):
        if a in request:
            n_out, sc = request[a]
            ma = axis_matrix(n_in, n_out, sc, coordinate_transform, mode, nearest_mode)
        else:
            ma = np.eye(n_in)
        m = np.kron(m, ma)
    return m


# --------------------------------------------------------------------------------------------
# Rounding (SPEC §3)
# --------------------------------------------------------------------------------------------

def _round(v, rounding):
    v = np.asarray(v, dtype=np.float64)
    if rounding == "half_even":
        return np.rint(v)
    if rounding == "half_away_from_zero":
        a = np.abs(v)
        fl = np.floor(a)
        r = fl + ((a - fl) >= 0.5)      # a - fl is exact
        return np.copysign(r, v)
    if rounding == "toward_zero":
        return np.trunc(v)
    raise ValueError(f"unknown rounding {rounding!r}")


def expected_integer(v, dtype, rounding="half_even"):
    """``saturate(rounding(v))`` as ``dtype``."""
    info = np.iinfo(dtype)
    r = np.clip(_round(v, rounding), info.min, info.max)
    return r.astype(dtype)


def near_rounding_boundary(v, rounding="half_even", tol=1.0 / 256):
    """True where ``v`` lies within ``tol`` of a boundary of ``rounding``."""
    v = np.asarray(v, dtype=np.float64)
    return _round(v - tol, rounding) != _round(v + tol, rounding)


def accepted_integer_range(v, dtype, rounding="half_even", tol=1.0 / 256):
    """``(lo, hi)``: the results SPEC §3 accepts for exact value ``v`` (inclusive)."""
    return (expected_integer(np.asarray(v) - tol, dtype, rounding),
            expected_integer(np.asarray(v) + tol, dtype, rounding))


# --------------------------------------------------------------------------------------------
# 16-bit floats: correct rounding from float64, and an order-preserving key on bit patterns
# --------------------------------------------------------------------------------------------

def _is_16bit_float(dtype):
    dtype = np.dtype(dtype)
    return dtype == np.float16 or (BFLOAT16 is not None and dtype == BFLOAT16)


def key16(bits):
    """Map 16-bit float patterns to integers ordered like their values (+0 and -0 -> 0)."""
    b = np.asarray(bits).astype(np.int32)
    mag = b & 0x7FFF
    return np.where(b & 0x8000, -mag, mag)


def unkey16(key):
    k = np.asarray(key).astype(np.int32)
    return np.where(k < 0, 0x8000 | (-k), k).astype(np.uint16)


def round_to_16bit(v, dtype):
    """float64 -> ``dtype`` (float16 or bfloat16), correctly rounded to nearest-even, as bit
    patterns (uint16). Done by hand, so it does not depend on how a library converts
    float64 (some go through float32, a double rounding)."""
    dtype = np.dtype(dtype)
    v = np.asarray(v, dtype=np.float64)
    if dtype == np.float16:
        max_finite, ulp_top, inf_bits = 65504.0, 32.0, 0x7C00
    else:
        max_finite = float(np.float32(3.3895313892515355e38))
        ulp_top, inf_bits = 2.0 ** 120, 0x7F80
    with np.errstate(over="ignore", invalid="ignore"):
        guess = v.astype(np.float32).astype(dtype).view(np.uint16)   # within one step
    k = key16(guess)
    best_key = k.copy()
    best_err = np.full(v.shape, np.inf)
    for step in (-1, 0, 1):
        kk = k + step
        bits = unkey16(kk)
        with np.errstate(over="ignore", invalid="ignore"):
            val = bits.view(dtype).astype(np.float64)
            err = np.abs(val - v)
        even = (bits & 1) == 0
        better = np.isfinite(val) & ((err < best_err) | ((err == best_err) & even))
        best_err = np.where(better, err, best_err)
        best_key = np.where(better, kk, best_key)
    out = unkey16(best_key)
    # Overflow: from max + half an ulp on, IEEE rounds to infinity.
    over = np.abs(v) >= max_finite + ulp_top / 2
    sign = np.where(np.signbit(v), 0x8000, 0).astype(np.uint16)
    out = np.where(over, sign | inf_bits, out).astype(np.uint16)
    out = np.where(np.isnan(v), np.uint16(0x7E00 if dtype == np.float16 else 0x7FC0), out)
    return out.astype(np.uint16)


# --------------------------------------------------------------------------------------------
# The accuracy contract (SPEC §3)
# --------------------------------------------------------------------------------------------

def _first_bad(mask, actual, expected, limit=5):
    idx = np.argwhere(mask)[:limit]
    rows = [f"  at {tuple(int(i) for i in ix)}: got {actual[tuple(ix)]!r}, "
            f"expected {expected[tuple(ix)]!r}" for ix in idx]
    return f"{int(mask.sum())} of {mask.size} elements differ:\n" + "\n".join(rows)


def _as_bytes(a):
    a = np.ascontiguousarray(a)
    return a.reshape(-1).view(np.uint8).reshape(a.shape + (a.dtype.itemsize,))


def assert_matches(actual, ref_f64, dtype, mode, rounding="half_even", xmax=None, err_msg="",
                   half_tol="float32"):
    """Assert ``actual`` meets SPEC §3 against the reference ``ref_f64``.

    nearest: ``ref_f64`` is the gathered reference (``x``'s dtype); bit-exact.
    linear: ``ref_f64`` is the float64 reference; ``xmax`` is ``max|x|`` (finite elements;
    defaults to ``max|ref|``) for the float tolerances. ``half_tol="strict"`` applies the
    float16/bfloat16 rule literally (see the comment in the 16-bit branch).
    """
    dtype = np.dtype(dtype)
    actual = np.asarray(actual)
    prefix = (err_msg + ": ") if err_msg else ""
    assert actual.shape == np.shape(ref_f64), \
        f"{prefix}shape {actual.shape} != expected {np.shape(ref_f64)}"
    assert actual.dtype == dtype, f"{prefix}dtype {actual.dtype} != expected {dtype}"
    if mode == "nearest":
        ref = np.asarray(ref_f64)
        assert ref.dtype == dtype, "nearest reference must carry the input dtype"
        a, e = _as_bytes(actual), _as_bytes(ref)
        bad = np.any(a != e, axis=-1)
        assert not bad.any(), prefix + "nearest not bit-exact: " + _first_bad(bad, actual, ref)
        return
    ref = np.asarray(ref_f64, dtype=np.float64)
    if actual.size == 0:
        return
    if xmax is None:
        fin = ref[np.isfinite(ref)]
        xmax = float(np.max(np.abs(fin))) if fin.size else 0.0
    xmax = float(xmax)

    if dtype.kind == "f" and dtype.itemsize >= 4:
        a = actual.astype(np.float64)
        if dtype == np.float64:
            tol = 1e-12 * xmax
        else:
            tol = 4.0 * float(np.spacing(np.float32(xmax)))
        finite = np.isfinite(ref)
        with np.errstate(invalid="ignore"):
            bad = finite & ~(np.abs(a - ref) <= tol)
        bad |= np.isnan(ref) & ~np.isnan(a)
        bad |= np.isinf(ref) & (a != ref)
        assert not bad.any(), (prefix + f"outside tolerance {tol:g}: "
                               + _first_bad(bad, actual, ref))
        return

    if _is_16bit_float(dtype):
        # SPEC §3: the float64 value rounded to the type, or its neighbour. The same table
        # says float16/bfloat16 compute in float32 and round once, and where the result
        # cancels to far below max|x| (e.g. 0.6*a - 0.4*b ~ 4e-4 with |a|, |b| ~ 100) the
        # float32 error alone (~1e-5) spans many float16 ulps there. The two rules only agree
        # if "the float64 value" may move by the float32 tolerance first: accepted are the
        # roundings of every value within 4 float32 ulps of max|x| of the reference, and
        # their neighbours. Away from cancellation this is exactly the SPEC wording.
        got = actual.view(np.uint16)
        tol32 = 4.0 * float(np.spacing(np.float32(xmax))) if half_tol == "float32" else 0.0
        lo_key = key16(round_to_16bit(ref - tol32, dtype)) - 1
        hi_key = key16(round_to_16bit(ref + tol32, dtype)) + 1
        want = round_to_16bit(ref, dtype)
        got_nan = np.isnan(actual.astype(np.float32))
        ref_nan = np.isnan(ref)
        with np.errstate(invalid="ignore"):
            gk = key16(got)
            close = (gk >= lo_key) & (gk <= hi_key)
        bad = np.where(ref_nan, ~got_nan, got_nan | ~close)
        # An infinite reference needs the exact infinity (no neighbour).
        bad |= np.isinf(ref) & (got != want)
        assert not bad.any(), (prefix + "not the rounded value or its neighbour: "
                               + _first_bad(bad, actual.astype(np.float64), ref))
        return

    if dtype.kind in "iu":
        lo, hi = accepted_integer_range(ref, dtype, rounding)
        bad = (actual < lo) | (actual > hi)
        assert not bad.any(), (prefix + f"integer result not saturate({rounding}(v)): "
                               + _first_bad(bad, actual, ref))
        return
    raise AssertionError(f"no accuracy contract for dtype {dtype}")


# --------------------------------------------------------------------------------------------
# Test data
# --------------------------------------------------------------------------------------------

def random_array(rng, shape, dtype):
    """Random values spanning a useful range of ``dtype`` (full range for integers)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if dtype.kind == "f" or _is_16bit_float(dtype):
        return (rng.standard_normal(shape) * 100).astype(dtype)
    if dtype.kind == "V" and dtype.names:
        out = np.zeros(shape, dtype)
        for name in dtype.names:
            out[name] = random_array(rng, shape, dtype[name])
        return out
    raise ValueError(f"no random data for {dtype}")
