"""Axis tables: for each output index of one axis, which input indices are read, with which weights.

A table is stored as a compressed row list (CSR): the taps of output ``o`` are
``idx[ptr[o]:ptr[o+1]]`` with weights ``w[ptr[o]:ptr[o+1]]``. Indices are already clamped to
``[0, n_in - 1]``; taps whose weight is exactly 0 are dropped, so an output that sits exactly on
an input sample reads one element, and a NaN or Inf never leaks through a zero weight.

Every convention (core, DirectML, Ascend, PyTorch, ONNX) is a builder of such tables; the engine
only applies them. The core builders here compute coordinates in float64, arranged so that a
coordinate which is exactly an integer or a half-integer in real arithmetic is computed exactly
(one rounding of an exact rational), which is what decides nearest-neighbour ties.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

TRANSFORMS = (
    "half_pixel",
    "pytorch_half_pixel",
    "half_pixel_symmetric",
    "align_corners",
    "asymmetric",
    "tf_half_pixel_for_nn",
)
NEAREST_MODES = ("round_prefer_ceil", "round_prefer_floor", "floor", "ceil")


@dataclass(frozen=True, eq=False)
class AxisTable:
    """Taps of one resampled axis (see the module docstring)."""

    n_in: int
    n_out: int
    ptr: np.ndarray  # int64, (n_out + 1,)
    idx: np.ndarray  # int64, (nnz,), each in [0, n_in)
    w: np.ndarray  # float64, (nnz,)
    #: Fixed-point tables only: ``w`` holds integers and the output is ``(sum + 2^(shift-1))
    #: >> shift`` (see ``_engine/_fixed.pyx``).
    shift: int | None = None

    @classmethod
    def gather(cls, n_in: int, idx: np.ndarray) -> "AxisTable":
        """One tap of weight 1 per output (nearest neighbour); ``idx`` already clamped."""
        idx = np.ascontiguousarray(idx, dtype=np.int64)
        n_out = idx.shape[0]
        return cls(n_in, n_out, np.arange(n_out + 1, dtype=np.int64), idx,
                   np.ones(n_out, dtype=np.float64))

    @classmethod
    def from_taps(cls, n_in: int, idx: np.ndarray, w: np.ndarray, *, merge: bool = True) -> "AxisTable":
        """Build from dense ``(n_out, K)`` taps: clamp-free indices in range, any weights.

        With ``merge``, taps of one output that read the same index are summed into one (in tap
        order); then taps of weight exactly 0 are dropped. Surviving taps keep ascending index
        order within each output.
        """
        idx = np.asarray(idx, dtype=np.int64)
        w = np.asarray(w, dtype=np.float64)
        n_out, k = idx.shape
        rows = np.repeat(np.arange(n_out, dtype=np.int64), k)
        flat_idx = idx.reshape(-1)
        flat_w = w.reshape(-1)
        order = np.lexsort((flat_idx, rows))  # by row, then index; stable in tap order
        rows, flat_idx, flat_w = rows[order], flat_idx[order], flat_w[order]
        if merge and flat_idx.size:
            start = np.ones(flat_idx.size, dtype=bool)
            start[1:] = (rows[1:] != rows[:-1]) | (flat_idx[1:] != flat_idx[:-1])
            first = np.flatnonzero(start)
            flat_w = np.add.reduceat(flat_w, first)
            rows, flat_idx = rows[first], flat_idx[first]
        keep = flat_w != 0
        rows, flat_idx, flat_w = rows[keep], flat_idx[keep], flat_w[keep]
        ptr = np.zeros(n_out + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n_out), out=ptr[1:])
        return cls(n_in, n_out, ptr, np.ascontiguousarray(flat_idx), np.ascontiguousarray(flat_w))

    @property
    def nnz(self) -> int:
        return int(self.idx.shape[0])

    @property
    def mean_taps(self) -> float:
        return self.nnz / self.n_out if self.n_out else 0.0

    @property
    def is_gather(self) -> bool:
        """Every output reads exactly one input with weight 1 (a pure copy of elements)."""
        return self.nnz == self.n_out and bool(np.all(self.ptr == np.arange(self.n_out + 1))) \
            and bool(np.all(self.w == 1.0))

    @property
    def is_identity(self) -> bool:
        """The axis is not resampled at all: output o is input o."""
        return self.n_in == self.n_out and self.is_gather \
            and bool(np.all(self.idx == np.arange(self.n_out)))

    @cached_property
    def dense(self) -> tuple[np.ndarray, np.ndarray]:
        """The taps as ``(n_out, K)`` arrays, ``K`` = the most taps of any output.

        Padding slots read index ``n_in`` (the kernels put a 0 there) with weight ``-0.0``, which
        adds exactly nothing (``x + -0.0 == x`` bitwise for every ``x``); an output without
        taps gets ``+0.0`` in its first slot, so it comes out ``+0.0`` as in the CSR form.
        """
        counts = np.diff(self.ptr)
        k = max(1, int(counts.max(initial=0)))
        idx = np.full((self.n_out, k), self.n_in, dtype=np.int64)
        w = np.full((self.n_out, k), -0.0)
        w[counts == 0, 0] = 0.0
        rows = np.repeat(np.arange(self.n_out), counts)
        cols = np.arange(self.nnz) - np.repeat(self.ptr[:-1], counts)
        idx[rows, cols] = self.idx
        w[rows, cols] = self.w
        return idx, w

    def transpose(self) -> "AxisTable":
        """The adjoint's table: output ``i`` of the transpose sums ``w * g[o]`` over the taps
        ``(o, i, w)`` of this table, in increasing ``o``."""
        order = np.argsort(self.idx, kind="stable")
        rows = np.repeat(np.arange(self.n_out, dtype=np.int64), np.diff(self.ptr))
        ptr = np.zeros(self.n_in + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.idx, minlength=self.n_in), out=ptr[1:])
        return AxisTable(self.n_out, self.n_in, ptr, np.ascontiguousarray(rows[order]),
                         np.ascontiguousarray(self.w[order]))


# ---------------------------------------------------------------- core coordinate conventions

def source_coordinates(n_in: int, n_out: int, scale: float | None, transform: str) -> np.ndarray:
    """Input coordinate ``u(o)`` of every output index ``o`` (float64), SPEC §2.

    ``r = 1/scale`` if a scale is given, else ``n_in/n_out``:

    ======================  =========================================================
    half_pixel              ``(o + 0.5) * r - 0.5``
    pytorch_half_pixel      as half_pixel, but ``0`` when ``n_out == 1``
    half_pixel_symmetric    ``(o + 0.5) * r - 0.5 + (n_in/2) * (1 - n_out*r/n_in)``
    align_corners           ``o * (n_in - 1) / (n_out - 1)``, ``0`` when ``n_out == 1``
    asymmetric              ``o * r``
    tf_half_pixel_for_nn    ``(o + 0.5) * r``
    ======================  =========================================================

    Arithmetic: float64, with each formula rearranged into one division of exactly computed
    terms (``((2o + 1) * n_in - n_out) / (2 n_out)`` rather than ``(o + 0.5) * (n_in/n_out) - 0.5``),
    so coordinates that are integers or half-integers in exact arithmetic come out exact.
    """
    o = np.arange(n_out, dtype=np.float64)
    if transform == "align_corners":
        if n_out == 1:
            return np.zeros(1)
        return (o * (n_in - 1)) / (n_out - 1)
    if transform == "asymmetric":
        return o / scale if scale is not None else (o * n_in) / n_out
    if transform == "tf_half_pixel_for_nn":
        return (o + 0.5) / scale if scale is not None else ((2 * o + 1) * n_in) / (2 * n_out)
    if transform == "half_pixel_symmetric" and scale is not None:
        # offset = (n_in/2)(1 - n_out/(scale*n_in)) = n_in/2 - n_out/(2 scale)
        return (2 * o + 1 - n_out) / (2 * scale) + (n_in - 1) / 2
    # half_pixel, pytorch_half_pixel, half_pixel_symmetric without scale (its offset is 0)
    if transform == "pytorch_half_pixel" and n_out == 1:
        return np.zeros(1)
    if scale is not None:
        return (o + 0.5) / scale - 0.5
    return ((2 * o + 1) * n_in - n_out) / (2 * n_out)


def nearest_indices(u: np.ndarray, n_in: int, nearest_mode: str) -> np.ndarray:
    """Round coordinates to input indices and clamp to ``[0, n_in - 1]``, SPEC §2.

    ``round_prefer_ceil`` = ``floor(u + 0.5)``, ``round_prefer_floor`` = ``ceil(u - 0.5)``,
    ``floor``, ``ceil``. Computed from ``k = floor(u)`` and the exact fraction ``u - k`` (no
    ``u + 0.5`` rounding), so ties are decided on the coordinate itself.
    """
    k = np.floor(u)
    frac = u - k
    if nearest_mode == "round_prefer_ceil":
        k = k + (frac >= 0.5)
    elif nearest_mode == "round_prefer_floor":
        k = k + (frac > 0.5)
    elif nearest_mode == "ceil":
        k = k + (frac > 0)
    return np.clip(k, 0, n_in - 1).astype(np.int64)


def linear_taps(u: np.ndarray, n_in: int) -> tuple[np.ndarray, np.ndarray]:
    """Dense linear taps ``(n_out, 2)``: ``clamp(i0)`` with ``1 - f``, ``clamp(i0 + 1)`` with ``f``.

    ``i0 = floor(u)``, ``f = u - i0`` (float64). Where both taps clamp to the same edge sample the
    output is that sample exactly (one tap of weight 1), as edge replication means.
    """
    i0 = np.floor(u)
    with np.errstate(invalid="ignore"):          # u = +-inf: f = 0 (the edge sample)
        f = np.where(np.isfinite(u), u - i0, 0.0)
    # Clamp before the cast: a coordinate past int64 (a tiny scale with a given size) must land
    # on the edge, not wrap to index 0.
    i0 = np.clip(i0, -1, n_in).astype(np.int64)
    lo = np.clip(i0, 0, n_in - 1)
    hi = np.clip(i0 + 1, 0, n_in - 1)
    w0 = 1.0 - f
    w1 = f.copy()
    same = lo == hi
    w0[same] = 1.0
    w1[same] = 0.0
    return np.stack([lo, hi], axis=1), np.stack([w0, w1], axis=1)


def keys_kernel(d: np.ndarray, a: float) -> np.ndarray:
    """The Keys cubic kernel at distances ``d >= 0`` (float64).

    ``W(d) = (a+2) d^3 - (a+3) d^2 + 1`` for ``d <= 1``, ``a d^3 - 5a d^2 + 8a d - 4a`` for
    ``1 < d < 2``, else 0. At ``d = 0, 1, 2`` it is exactly ``1, 0, 0``.
    """
    near = ((a + 2.0) * d - (a + 3.0)) * d * d + 1.0
    far = ((a * d - 5.0 * a) * d + 8.0 * a) * d - 4.0 * a
    return np.where(d <= 1.0, near, np.where(d < 2.0, far, 0.0))


def keys_weights(t: np.ndarray, a: float) -> np.ndarray:
    """Keys cubic weights ``(n, 4)`` of the taps ``i0 - 1 .. i0 + 2`` at fraction ``t``.

    At ``t = 0`` the weights are exactly ``0, 1, 0, 0``, so an output on an input sample reads
    that sample alone.
    """
    return keys_kernel(np.stack([t + 1.0, t, 1.0 - t, 2.0 - t], axis=-1), a)


def cubic_taps(u: np.ndarray, n_in: int, a: float,
               exclude_outside: bool) -> tuple[np.ndarray, np.ndarray]:
    """Dense cubic taps ``(n_out, 4)`` around ``i0 = floor(u)``.

    Taps outside ``[0, n_in)`` are clamped to the edge (edge replicate), or, with
    ``exclude_outside``, dropped and the remaining weights renormalised to sum 1 (ONNX).
    """
    i0 = np.floor(u)
    with np.errstate(invalid="ignore"):          # u = +-inf: t = 0
        w = keys_weights(np.where(np.isfinite(u), u - i0, 0.0), a)
    # Clamp before the cast (see linear_taps); at -3 and n_in + 1 every tap is still outside.
    idx = np.clip(i0, -3, n_in + 1).astype(np.int64)[:, None] + np.arange(-1, 3)
    if exclude_outside:
        idx, w = _exclude_outside(u, idx, w, n_in)
    return np.clip(idx, 0, n_in - 1), w


def _exclude_outside(u: np.ndarray, idx: np.ndarray, w: np.ndarray,
                     n_in: int) -> tuple[np.ndarray, np.ndarray]:
    """Drop the taps outside ``[0, n_in)`` and renormalise the rest to sum 1.

    An output left with no weight (its coordinate lies beyond an edge, where only zero-weight
    taps are inside) reads the nearest edge sample, as :func:`antialias_linear_taps` does,
    instead of 0/0 = NaN.
    """
    w = np.where((idx >= 0) & (idx < n_in), w, 0.0)
    total = w.sum(axis=1, keepdims=True)
    empty = total[:, 0] == 0
    if empty.any():
        idx = idx.copy()
        w[empty] = 0.0
        w[empty, 0] = 1.0
        idx[empty, 0] = np.where(u[empty] < 0, 0, n_in - 1)
        total[empty] = 1.0
    return idx, w / total


def area_taps(n_in: int, n_out: int, scale: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Dense box-filter taps: output ``o`` averages the input over ``[o*r, (o+1)*r)``.

    ``r = 1/scale`` if given, else ``n_in/n_out``; each input pixel ``[i, i+1)`` is weighted by
    its overlap with the footprint (clipped to ``[0, n_in]``), normalised to sum 1 (OpenCV
    ``INTER_AREA`` when shrinking). A footprint wholly outside the input reads the edge pixel.
    """
    o = np.arange(n_out, dtype=np.float64)
    if scale is None:
        lo, hi = (o * n_in) / n_out, ((o + 1) * n_in) / n_out
        width = n_in / n_out
    else:
        lo, hi = o / scale, (o + 1) / scale
        width = 1.0 / scale
    # Only pixels inside the input can overlap the clipped footprint.
    k = min(int(math.ceil(width)) + 1, n_in + 1)
    start = np.clip(np.floor(lo), 0, n_in - 1).astype(np.int64)
    idx = start[:, None] + np.arange(k)
    lo_c, hi_c = np.clip(lo, 0, n_in)[:, None], np.clip(hi, 0, n_in)[:, None]
    overlap = np.clip(np.minimum(hi_c, idx + 1) - np.maximum(lo_c, idx), 0.0, None)
    total = overlap.sum(axis=1, keepdims=True)
    outside = total[:, 0] == 0
    overlap[outside] = 0.0
    overlap[outside, 0] = 1.0
    idx[outside, 0] = np.clip(start[outside], 0, n_in - 1)
    total[outside] = 1.0
    return np.clip(idx, 0, n_in - 1), overlap / total


def antialias_cubic_taps(u: np.ndarray, n_in: int, r: float, a: float,
                         exclude_outside: bool) -> tuple[np.ndarray, np.ndarray]:
    """Dense antialiased cubic taps: the Keys kernel stretched by ``r``.

    For output centre ``u`` (input index units) every input ``i`` with ``|i - u| < 2 r`` gets
    weight ``W((i - u) / r)``, normalised to sum 1 (ONNX Resize-18 ``antialias=1``, Pillow,
    torch ``antialias=True``). Taps outside ``[0, n_in)`` read the edge sample, or with
    ``exclude_outside`` are dropped and the rest renormalised (Pillow and torch do this).
    float64 throughout. Meant for ``r > 1``; at ``r <= 1`` the plain cubic taps are what the
    stretched filter reduces to. The window has ``2 * ceil(2 r) + 1`` taps per output; the
    facades bound the table's size before building it (linear has the closed-form edge folding
    of :func:`antialias_linear_taps`, whose window stops at the input's edges).
    """
    half = int(math.ceil(2.0 * r))
    idx = np.floor(u).astype(np.int64)[:, None] + np.arange(-half, half + 1)
    w = keys_kernel(np.abs((idx - u[:, None]) / r), a)
    w = w / w.sum(axis=1, keepdims=True)
    if exclude_outside:
        idx, w = _exclude_outside(u, idx, w, n_in)
    return np.clip(idx, 0, n_in - 1), w


def core_table(n_in: int, n_out: int, scale: float | None, *, mode: str, transform: str,
               nearest_mode: str, cubic_a: float = -0.75, exclude_outside: bool = False,
               antialias: bool = False) -> AxisTable:
    """The core ``resize`` table of one axis (float64 coordinates and weights)."""
    if mode == "area":
        idx, w = area_taps(n_in, n_out, scale)
        return AxisTable.from_taps(n_in, idx, w)
    u = source_coordinates(n_in, n_out, scale, transform)
    if mode == "nearest":
        return AxisTable.gather(n_in, nearest_indices(u, n_in, nearest_mode))
    r = 1.0 / scale if scale is not None else n_in / n_out
    if antialias and r > 1.0:
        if mode == "linear":
            idx, w = antialias_linear_taps(u, n_in, r, exclude_outside=exclude_outside)
        else:
            idx, w = antialias_cubic_taps(u, n_in, r, cubic_a, exclude_outside)
        return AxisTable.from_taps(n_in, idx, w)
    if mode == "cubic":
        idx, w = cubic_taps(u, n_in, cubic_a, exclude_outside)
        return AxisTable.from_taps(n_in, idx, w)
    idx, w = linear_taps(u, n_in)
    return AxisTable.from_taps(n_in, idx, w, merge=False)


# ---------------------------------------------------------------- antialiased linear (triangle)

def _triangle_mass(u: np.ndarray, r: float, first: float, last: float) -> np.ndarray:
    """``sum(max(0, 1 - |i - u| / r))`` over the integers ``i`` in ``[first, last]``, per row.

    Closed form (float64): the positive part of the triangle is two arithmetic series, one on
    each side of ``u``, and a series of ``n`` terms centred on ``mid`` sums to
    ``n * (1 - |u - mid| / r)``. No loop over taps, so a very wide filter costs nothing here.
    """
    lo = np.maximum(first, np.floor(u - r) + 1)  # lowest integer with |i - u| < r
    hi = np.minimum(last, np.ceil(u + r) - 1)  # highest
    m = np.floor(u)
    total = np.zeros_like(u)
    for a, b in ((lo, np.minimum(hi, m)), (np.maximum(lo, m + 1), hi)):
        n = b - a + 1
        total += np.where(n > 0, n * (1.0 - np.abs(u - (a + b) / 2) / r), 0.0)
    return np.maximum(total, 0.0)


def antialias_linear_taps(u: np.ndarray, n_in: int, r: float, *,
                          exclude_outside: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Dense taps of the antialiased linear (triangle) filter stretched by ``r``, SPEC §2.

    ``u[o]`` is output ``o``'s centre in input *index* coordinates (input sample ``i`` sits at
    ``i``), i.e. the coordinate the plain linear taps would interpolate at; in pixel units the
    centre is ``c = u + 0.5`` (``c = (o + 0.5) * r`` under ``half_pixel``). The filter is the
    triangle ``max(0, 1 - |i - u| / r) = max(0, 1 - |(i + 0.5 - c) / r|)`` over the taps
    ``i`` in ``[floor(c - r), ceil(c + r))``, normalised to sum 1, as ONNX Resize-18
    ``antialias=1`` and Pillow do. ``r`` is raised to at least 1 (``max(1, 1/scale)``: the
    filter never narrows below plain linear interpolation).

    Edges:

    - ``exclude_outside=False`` (ONNX reference, edge padding; DirectML clamps too): a tap
      outside ``[0, n_in)`` reads the edge sample and keeps its weight; the normalisation is
      over the whole window. The weight that falls outside is summed in closed form, so the
      cost does not grow with how far the window reaches past the edge.
    - ``exclude_outside=True`` (Pillow, ONNX ``exclude_outside=1``): taps outside are dropped
      and the rest renormalised; an output whose window lies entirely outside reads the
      nearest edge sample.

    ``u = +inf`` / ``-inf`` (a float32 coordinate map that overflowed) reads the last / first
    sample. Arithmetic: float64 throughout.

    Returns ``(idx, w)``, each ``(n_out, K)``, for ``AxisTable.from_taps(n_in, idx, w,
    merge=True)`` (clamped taps share an index and must be merged); padding taps have weight 0.
    """
    u = np.asarray(u, dtype=np.float64)
    r = max(1.0, float(r))
    n_out = u.shape[0]
    pos_inf, neg_inf = u == np.inf, u == -np.inf
    uf = np.where(pos_inf | neg_inf, 0.0, u)
    # The in-range part of the window: integers in [start, stop) with |i - u| < r.
    start = np.clip(np.floor(uf - r) + 1, 0, n_in)
    stop = np.clip(np.ceil(uf + r), 0, n_in)
    count = np.maximum(stop - start, 0)
    k = int(count.max()) if n_out else 0
    i = start[:, None] + np.arange(k, dtype=np.float64)
    inside = i < stop[:, None]
    w = np.where(inside, np.maximum(0.0, 1.0 - np.abs(i - uf[:, None]) / r), 0.0)
    idx = np.where(inside, i, 0).astype(np.int64)
    left = _triangle_mass(uf, r, -np.inf, -1.0)
    right = _triangle_mass(uf, r, float(n_in), np.inf)
    w[pos_inf | neg_inf] = 0.0
    left = np.where(neg_inf, 1.0, np.where(pos_inf, 0.0, left))
    right = np.where(pos_inf, 1.0, np.where(neg_inf, 0.0, right))
    inner = w.sum(axis=1)
    if exclude_outside:
        has_inner = inner > 0
        left = np.where(has_inner, 0.0, left)
        right = np.where(has_inner, 0.0, right)
    total = left + inner + right
    idx = np.concatenate([np.zeros((n_out, 1), np.int64), idx,
                          np.full((n_out, 1), max(n_in - 1, 0), np.int64)], axis=1)
    w = np.concatenate([left[:, None], w, right[:, None]], axis=1) / total[:, None]
    return idx, w


def core_table_range(n_in: int, n_out: int, scale: float | None, o0: int, o1: int,
                     **kwargs: Any) -> AxisTable:
    """Rows ``[o0, o1)`` of ``core_table(n_in, n_out, scale, **kwargs)``, as a table of
    ``o1 - o0`` outputs (``ptr`` from 0, indices into the whole input axis)."""
    # Placeholder until the native range builder: builds the whole table.
    if o0 == 0 and o1 == n_out:
        return core_table(n_in, n_out, scale, **kwargs)
    full = core_table(n_in, n_out, scale, **kwargs)
    p0, p1 = int(full.ptr[o0]), int(full.ptr[o1])
    return AxisTable(n_in, o1 - o0, np.ascontiguousarray(full.ptr[o0:o1 + 1] - p0),
                     np.ascontiguousarray(full.idx[p0:p1]), np.ascontiguousarray(full.w[p0:p1]))
