"""A plain float64 NumPy reference for the core resize (SPEC §2 and §3).

Built from the SPEC formulas, independently of ``resamplex._tables``: this module never imports
resamplex. Clarity comes first; loops are fine.

- Coordinates are exact rationals (``fractions.Fraction``), so nearest-mode ties are decided
  exactly. A given scale enters as ``Fraction(scale)``, the exact value of the float.
- Linear taps follow SPEC §2: ``i0 = floor(u)``, ``f = u - i0``, ``clamp(i0)`` with ``1 - f``
  and ``clamp(i0 + 1)`` with ``f``; taps that clamp to the same index are merged and zero-weight
  taps dropped (so a NaN only reaches outputs that give it a non-zero weight).
- Every other weighted mode is one generic builder over a table of filters (``FILTERS``: a
  weight function and its support, SPEC §1 "filters are data"): cubic (Keys, ``cubic_a``),
  lanczos (``lanczos_a`` lobes) and the front doors' Pillow filters (Hamming, box, bicubic with
  ``a = -0.5``). Weights of the rational filters (triangle, Keys, box) are exact Fractions.
  Antialiasing (ONNX Resize-18 ``antialias=1``, SPEC §2) stretches the filter by ``r = 1/scale``
  on shrinking axes and normalises the weights. Edges: taps outside ``[0, n_in)`` read the edge
  sample (clamp), or with ``exclude_outside`` are dropped and the rest renormalised; an output
  with no weight left reads the nearest edge sample. See ``filter_taps``.
- Area is the SPEC §2 box filter: output ``o`` averages ``[o*r, (o+1)*r)`` with each input pixel
  ``[i, i+1)`` weighted by its exact overlap (``area_taps``).
- ``reference_resize`` evaluates every weighted mode separably, one axis at a time, in float64,
  from the exact tables rounded once to float64; ``dense_operator`` is the same operator as a
  matrix (its transpose is the adjoint's oracle).
- ``assert_matches`` is the SPEC §3 accuracy contract.
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
import math
from typing import Callable

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


def _closest_boundary(u, nearest_mode):
    u = Fraction(u)
    if nearest_mode in ("round_prefer_ceil", "round_prefer_floor"):
        return round(u + HALF) - HALF
    return Fraction(round(u))


def is_fragile(u, nearest_mode, eps=FRAGILE_EPS, n_in=None):
    """True if ``u`` is not on a boundary but so close that float64 may misplace it, and the
    misplacement would change the index read.

    With ``n_in``, a boundary whose two sides clamp to the same input index (every boundary
    at or beyond an edge, e.g. where a tiny scale puts ``u`` near 1e20) is harmless: the index
    read is the edge sample whichever side float64 lands on.
    """
    d = boundary_distance(u, nearest_mode)
    if not 0 < d <= eps * max(1, abs(Fraction(u))):
        return False
    if n_in is None:
        return True
    b = _closest_boundary(u, nearest_mode)
    quarter = Fraction(1, 4)   # boundaries are 1 apart: b -+ 1/4 lie on either side of b only
    return (nearest_index(b - quarter, n_in, nearest_mode)
            != nearest_index(b + quarter, n_in, nearest_mode))


def acceptable_nearest_indices(u, n_in, nearest_mode="round_prefer_ceil", eps=FRAGILE_EPS):
    """The indices a float64 implementation may read for ``u``: the exact one, and where ``u``
    is a near-tie (``is_fragile``) the one across the boundary too."""
    exact = nearest_index(u, n_in, nearest_mode)
    if not is_fragile(u, nearest_mode, eps, n_in):
        return {exact}
    b = _closest_boundary(u, nearest_mode)
    quarter = Fraction(1, 4)
    return {nearest_index(b - quarter, n_in, nearest_mode),
            nearest_index(b + quarter, n_in, nearest_mode)}


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


# --------------------------------------------------------------------------------------------
# Filters as data: a weight function of the distance ``d`` (input pixels, before any stretch)
# and its support. Rational filters return exact Fractions for Fraction arguments.
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Filter:
    """A resampling filter: ``weight(d)`` is 0 wherever ``|d| > support``."""

    name: str
    weight: Callable
    support: Fraction


def triangle_weight(d):
    """Linear interpolation: ``max(0, 1 - |d|)``."""
    d = abs(d)
    return 1 - d if d < 1 else Fraction(0)


def keys_weight(a):
    """The Keys cubic kernel with coefficient ``a`` (exact for a Fraction ``d``):
    ``(a+2)|d|^3 - (a+3)|d|^2 + 1`` for ``|d| <= 1``, ``a|d|^3 - 5a|d|^2 + 8a|d| - 4a`` for
    ``1 < |d| < 2``, else 0."""
    a = Fraction(a)

    def weight(d):
        d = abs(d)
        if d <= 1:
            return (a + 2) * d**3 - (a + 3) * d**2 + 1
        if d < 2:
            return a * d**3 - 5 * a * d**2 + 8 * a * d - 4 * a
        return Fraction(0)
    return weight


def _sinc(d):
    if d == 0:
        return 1.0
    if Fraction(d).denominator == 1:
        return 0.0      # sin(pi k) = 0 exactly (float sin(pi * k) is not)
    x = math.pi * float(d)
    return math.sin(x) / x


def lanczos_weight(lobes):
    """Windowed sinc: ``sinc(d) sinc(d / lobes)`` for ``-lobes <= d < lobes`` (Pillow's
    ``lanczos_filter`` half-open window; at ``|d| = lobes`` the value is 0 anyway), else 0."""
    lobes = Fraction(lobes)

    def weight(d):
        if not -lobes <= d < lobes:
            return 0.0
        return _sinc(d) * _sinc(Fraction(d) / lobes)
    return weight


def hamming_weight(d):
    """Pillow's HAMMING filter: ``sinc(d) (0.54 + 0.46 cos(pi d))`` for ``|d| < 1``, else 0.
    (Pillow writes the constants as the C floats ``0.54f``/``0.46f``; the relative difference,
    about 4e-8, is far below any tolerance these weights are used with.)"""
    d = abs(d)
    if d == 0:
        return 1.0
    if d >= 1:
        return 0.0
    x = math.pi * float(d)
    return math.sin(x) / x * (0.54 + 0.46 * math.cos(x))


def box_weight(d):
    """Pillow's BOX filter: 1 on ``(-1/2, 1/2]`` (half-open, so a pixel on the boundary of two
    footprints belongs to one of them), else 0."""
    return Fraction(1) if -HALF < d <= HALF else Fraction(0)


#: Filters by name. ``cubic`` and ``lanczos`` take their parameter (see ``make_filter``);
#: ``hamming``, ``box`` and ``bicubic`` (Keys with a = -1/2) are Pillow's filters.
FILTERS = {
    "linear": lambda **_: Filter("linear", triangle_weight, Fraction(1)),
    "cubic": lambda cubic_a=-0.75, **_: Filter("cubic", keys_weight(cubic_a), Fraction(2)),
    "lanczos": lambda lanczos_a=3, **_: Filter("lanczos", lanczos_weight(lanczos_a),
                                               Fraction(lanczos_a)),
    "hamming": lambda **_: Filter("hamming", hamming_weight, Fraction(1)),
    "box": lambda **_: Filter("box", box_weight, HALF),
    "bicubic": lambda **_: Filter("bicubic", keys_weight(-0.5), Fraction(2)),
}

#: The filters the reference can stretch (antialias) or use plainly; see ``filter_taps``.
FILTER_NAMES = tuple(FILTERS)

#: Refuse windows wider than this (the reference enumerates every tap).
MAX_WINDOW = 10**6


def make_filter(name, cubic_a=-0.75, lanczos_a=3):
    if name not in FILTERS:
        raise ValueError(f"reference has no filter {name!r}")
    return FILTERS[name](cubic_a=cubic_a, lanczos_a=lanczos_a)


def filter_taps(u, n_in, filt, stretch=1, exclude_outside=False):
    """``[(index, weight), ...]`` of ``filt`` centred on the coordinate ``u``.

    Every integer ``i`` gets ``filt.weight((i - u) / stretch)``; the weights are normalised to
    sum 1 (a no-op in exact arithmetic for the triangle and Keys kernels, which are partitions
    of unity at ``stretch = 1``). ``stretch = r > 1`` is antialiasing: the filter widened by the
    shrink factor (ONNX Resize-18 ``antialias=1``: weights ``filter((i - u) * scale)``,
    normalised).

    Edges: by default an index outside ``[0, n_in)`` reads the edge sample (clamp; the ONNX
    reference pads with the edge value) and keeps its weight, and the normalisation is over the
    whole window. With ``exclude_outside`` those taps are dropped and the rest renormalised; an
    output left with no weight reads the nearest edge sample (index 0 if ``u < 0``, else
    ``n_in - 1``). Taps clamped to one index are merged, and zero weights dropped.
    """
    u = Fraction(u)
    stretch = Fraction(stretch)
    reach = filt.support * stretch
    lo, hi = math.floor(u - reach), math.ceil(u + reach)
    if exclude_outside:
        lo, hi = max(lo, 0), min(hi, n_in - 1)
    if hi - lo > MAX_WINDOW:
        raise ValueError(f"reference: a window of {hi - lo} taps is too wide to enumerate")
    taps = [(i, filt.weight((i - u) / stretch)) for i in range(lo, hi + 1)]
    taps = [(i, w) for i, w in taps if w != 0]
    total = sum(w for _, w in taps)
    if total == 0:
        if not exclude_outside:
            raise ValueError(f"reference: filter {filt.name} has no weight at u={u}")
        return [(0 if u < 0 else n_in - 1, 1.0)]
    merged = {}
    for i, w in taps:
        c = _clamp(i, n_in)
        merged[c] = merged.get(c, 0) + w / total
    return [(i, float(w)) for i, w in sorted(merged.items()) if w != 0]


def area_taps(o, n_in, n_out, scale=None):
    """``[(index, weight), ...]`` of the SPEC §2 area (box) filter for output ``o``.

    The footprint is ``[o*r, (o+1)*r)`` (``r = 1/scale``, or ``n_in/n_out``); input pixel
    ``[i, i+1)`` gets its overlap with the footprint, the weights normalised to sum 1. A
    footprint wholly beyond the input (a scale with a given size can put it there) reads the
    last sample. Exact: the overlaps are Fractions.
    """
    r = ratio(n_in, n_out, scale)
    lo, hi = o * r, (o + 1) * r
    first, last = max(math.floor(lo), 0), min(math.ceil(hi), n_in) - 1
    if last - first > MAX_WINDOW:
        raise ValueError("reference: an area footprint too wide to enumerate")
    taps = [(i, min(hi, i + 1) - max(lo, i)) for i in range(first, last + 1)]
    taps = [(i, w) for i, w in taps if w > 0]
    if not taps:
        return [(n_in - 1, 1.0)]
    total = sum(w for _, w in taps)
    return [(i, float(w / total)) for i, w in taps]


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


#: The weighted modes of the core (``mode=``) the reference evaluates, and the filters they use.
WEIGHTED_MODES = ("linear", "cubic", "lanczos", "hamming", "box", "area")


@lru_cache(maxsize=4096)
def axis_table(n_in, n_out, scale=None, transform="half_pixel", mode="linear",
               nearest_mode="round_prefer_ceil", antialias=False, cubic_a=-0.75,
               exclude_outside=False, lanczos_a=3):
    """Per output index, the tuple of ``(index, weight)`` taps of one axis (SPEC §2).

    ``area`` ignores ``transform`` (its footprint is ``[o*r, (o+1)*r)``), ``nearest`` ignores the
    filter parameters, and ``antialias`` applies only where the axis shrinks (``r > 1``).
    Plain linear follows the SPEC's two-tap rule (``linear_taps``); the same weights come from
    ``filter_taps`` with the triangle, which tests/test_reference.py checks.
    """
    table = []
    if n_out == 0:
        return ()
    r = ratio(n_in, n_out, scale)
    stretch = r if antialias and r > 1 else Fraction(1)
    filt = None
    if mode in FILTERS and mode != "linear" or (mode == "linear" and stretch > 1):
        filt = make_filter(mode, cubic_a, lanczos_a)
    for o in range(n_out):
        if mode == "area":
            table.append(tuple(area_taps(o, n_in, n_out, scale)))
            continue
        u = source_coordinate(o, n_in, n_out, scale, transform)
        if mode == "nearest":
            table.append(((nearest_index(u, n_in, nearest_mode), 1.0),))
        elif filt is None and mode == "linear":
            table.append(tuple(linear_taps(u, n_in)))
        elif filt is not None:
            table.append(tuple(filter_taps(u, n_in, filt, stretch, exclude_outside)))
        else:
            raise ValueError(f"reference has no mode {mode!r}")
    return tuple(table)


def axis_fragile(n_in, n_out, scale=None, transform="half_pixel", mode="nearest",
                 nearest_mode="round_prefer_ceil"):
    """True if some nearest index of this axis is a float64 near-tie (see ``is_fragile``)."""
    if mode != "nearest" or n_in == 0:
        return False
    return any(is_fragile(source_coordinate(o, n_in, n_out, scale, transform), nearest_mode,
                          n_in=n_in)
               for o in range(n_out))


def axis_matrix(n_in, n_out, scale=None, transform="half_pixel", mode="linear",
                nearest_mode="round_prefer_ceil", **filter_kw):
    """The axis table as a dense ``(n_out, n_in)`` float64 matrix."""
    m = np.zeros((n_out, n_in))
    for o, taps in enumerate(axis_table(n_in, n_out, scale, transform, mode, nearest_mode,
                                        **filter_kw)):
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


def _filter_kw(antialias, cubic_a, exclude_outside, lanczos_a):
    return dict(antialias=bool(antialias), cubic_a=float(cubic_a),
                exclude_outside=bool(exclude_outside), lanczos_a=lanczos_a)


def request_gain(shape, size=None, scale=None, axes=None, mode="linear",
                 coordinate_transform="half_pixel", nearest_mode="round_prefer_ceil", *,
                 transpose=False, antialias=False, cubic_a=-0.75, exclude_outside=False,
                 lanczos_a=3):
    """The largest ``sum |w|`` of a row (``transpose=True``: of a column), multiplied over the
    resampled axes: a bound on ``max|result| / max|x|`` and on the magnitudes every
    intermediate pass handles. 1 for the convex filters (linear, area, nearest); above 1 for
    filters with negative lobes (cubic overshoot) and for adjoints of enlarging axes.
    """
    kw = {} if mode == "nearest" else _filter_kw(antialias, cubic_a, exclude_outside, lanczos_a)
    gain = 1.0
    for a, n_out, sc in normalize_request(shape, size, scale, axes):
        n_in = shape[a]
        if n_in == 0 or n_out == 0:
            continue
        m = np.abs(axis_matrix(n_in, n_out, sc, coordinate_transform, mode, nearest_mode, **kw))
        gain *= float((m.sum(axis=0) if transpose else m.sum(axis=1)).max())
    return gain


def apply_tables(x, tables):
    """Apply explicit axis tables to ``x``: ``tables`` maps an axis to its per-output lists of
    ``(index, weight)`` taps (other axes are copied). Weighted: float64, one axis at a time, in
    axis order. For conventions with coordinate rules of their own (DirectML, Ascend), whose
    tests compute the taps from the operator's formulas and evaluate them here."""
    y = np.asarray(x).astype(np.float64)
    for a in sorted(tables):
        table = tables[a]
        n_out = len(table)
        if y.shape[a] == 0:
            y = np.zeros(y.shape[:a] + (n_out,) + y.shape[a + 1:])
            continue
        src = np.moveaxis(y, a, 0)
        dst = np.zeros((n_out,) + src.shape[1:], dtype=np.float64)
        with np.errstate(invalid="ignore"):          # inf - inf -> NaN is intended
            for o, taps in enumerate(table):
                acc = None
                for i, w in taps:
                    term = w * src[i]
                    acc = term if acc is None else acc + term
                dst[o] = 0.0 if acc is None else acc      # no taps: nothing read, 0
        y = np.moveaxis(dst, 0, a)
    return np.ascontiguousarray(y)


def gather_tables(x, indices):
    """Nearest with explicit indices: ``indices`` maps an axis to the input index of each
    output. The elements of ``x`` themselves (any dtype, bit for bit)."""
    y = np.asarray(x)
    for a in sorted(indices):
        y = np.take(y, np.asarray(indices[a], dtype=np.intp), axis=a)
    return y


def tables_matrix(in_shape, tables):
    """Explicit axis tables as the dense ``(prod(out), prod(in))`` operator (C order)."""
    m = np.ones((1, 1))
    for a, n_in in enumerate(in_shape):
        if a in tables:
            ma = np.zeros((len(tables[a]), n_in))
            for o, taps in enumerate(tables[a]):
                for i, w in taps:
                    ma[o, i] += w
        else:
            ma = np.eye(n_in)
        m = np.kron(m, ma)
    return m


def transpose_tables(tables, in_shape):
    """The adjoint's tables: input ``i`` of axis ``a`` collects ``w * g[o]`` over the taps
    ``(o, i, w)`` of ``tables[a]`` (in increasing ``o``)."""
    out = {}
    for a, table in tables.items():
        cols = [[] for _ in range(in_shape[a])]
        for o, taps in enumerate(table):
            for i, w in taps:
                cols[i].append((o, w))
        out[a] = [tuple(c) for c in cols]
    return out


def reference_adjoint(g, in_shape, size=None, scale=None, axes=None, mode="linear",
                      coordinate_transform="half_pixel", nearest_mode="round_prefer_ceil", *,
                      antialias=False, cubic_a=-0.75, exclude_outside=False, lanczos_a=3):
    """The adjoint of ``reference_resize`` applied to ``g`` (shape: the forward output), in
    float64: the transposed tables, zero weights dropped (so a NaN reaches only the inputs that
    gave it weight), the same as ``dense_operator(...).T @ g`` for finite data."""
    kw = {} if mode == "nearest" else _filter_kw(antialias, cubic_a, exclude_outside,
                                                  lanczos_a)
    tables = {a: axis_table(in_shape[a], n_out, sc, coordinate_transform, mode, nearest_mode,
                            **kw)
              for a, n_out, sc in normalize_request(in_shape, size, scale, axes)
              if in_shape[a] and n_out}
    return apply_tables(g, transpose_tables(tables, in_shape))


def tables_gain(tables, transpose=False):
    """``request_gain`` of explicit tables."""
    gain = 1.0
    for table in tables.values():
        sums = {}
        for o, taps in enumerate(table):
            for i, w in taps:
                key = i if transpose else o
                sums[key] = sums.get(key, 0.0) + abs(w)
        gain *= max(sums.values(), default=1.0)
    return gain


def reference_resize(x, size=None, scale=None, axes=None, mode="linear",
                     coordinate_transform="half_pixel", nearest_mode="round_prefer_ceil", *,
                     antialias=False, cubic_a=-0.75, exclude_outside=False, lanczos_a=3,
                     affine=None):
    """Resize ``x`` per SPEC §2.

    nearest: the gathered elements of ``x``, with ``x``'s dtype (exact).
    Weighted modes: float64, separable, one axis at a time, from ``x.astype(float64)``.
    ``affine=(a, b)``: the result (nearest: its gathered values as float64) maps to
    ``v * a + b`` in float64, ``a`` and ``b`` broadcast to the output shape; the caller
    rounds to the output dtype (``assert_matches``), as ``dtype=`` does.
    """
    if affine is not None:
        v = reference_resize(x, size, scale, axes, mode, coordinate_transform, nearest_mode,
                             antialias=antialias, cubic_a=cubic_a,
                             exclude_outside=exclude_outside, lanczos_a=lanczos_a)
        a, b = (np.asarray(t, dtype=np.float64) for t in affine)
        return np.asarray(v, dtype=np.float64) * a + b
    x = np.asarray(x)
    request = normalize_request(x.shape, size, scale, axes)
    if mode == "nearest":
        return gather_tables(x, {
            a: [taps[0][0] for taps in axis_table(x.shape[a], n_out, sc, coordinate_transform,
                                                  "nearest", nearest_mode)]
            for a, n_out, sc in request})
    if mode not in WEIGHTED_MODES:
        raise ValueError(f"reference has no mode {mode!r}")
    kw = _filter_kw(antialias, cubic_a, exclude_outside, lanczos_a)
    return apply_tables(x, {
        a: (axis_table(x.shape[a], n_out, sc, coordinate_transform, mode, **kw)
            if x.shape[a] else ((),) * n_out)
        for a, n_out, sc in request})


def dense_operator(in_shape, size=None, scale=None, axes=None, mode="linear",
                   coordinate_transform="half_pixel", nearest_mode="round_prefer_ceil", *,
                   antialias=False, cubic_a=-0.75, exclude_outside=False, lanczos_a=3):
    """The whole resize as a dense ``(prod(out_shape), prod(in_shape))`` matrix (C order),
    the Kronecker product of the axis matrices (identity on axes not resampled)."""
    request = {a: (n, sc) for a, n, sc in normalize_request(in_shape, size, scale, axes)}
    kw = _filter_kw(antialias, cubic_a, exclude_outside, lanczos_a)
    if mode == "nearest":
        kw = {}
    m = np.ones((1, 1))
    for a, n_in in enumerate(in_shape):
        if a in request:
            n_out, sc = request[a]
            ma = axis_matrix(n_in, n_out, sc, coordinate_transform, mode, nearest_mode, **kw)
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


def float32_ulps(passes=None):
    """SPEC §3 float32 tolerance in ulps of ``max|x|``: 4 for 1-3 resampled axes (passes), and
    2 more per pass beyond."""
    return 4.0 if passes is None or passes <= 3 else 4.0 + 2.0 * (passes - 3)


def assert_matches(actual, ref_f64, dtype, mode, rounding="half_even", xmax=None, err_msg="",
                   half_tol="float32", passes=None):
    """Assert ``actual`` meets SPEC §3 against the reference ``ref_f64``.

    nearest: ``ref_f64`` is the gathered reference (``x``'s dtype); bit-exact.
    Weighted modes: ``ref_f64`` is the float64 reference; ``xmax`` is ``max|x|`` (finite
    elements; defaults to ``max|ref|``) for the float tolerances; ``passes`` is the number of
    resampled axes (the float32 tolerance grows beyond 3). ``half_tol="strict"`` applies the
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
            tol = float32_ulps(passes) * float(np.spacing(np.float32(xmax)))
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
        tol32 = (float32_ulps(passes) * float(np.spacing(np.float32(xmax)))
                 if half_tol == "float32" else 0.0)
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
