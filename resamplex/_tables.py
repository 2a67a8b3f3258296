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
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from ._engine import _tablegen
from ._engine._tablegen import Kernel, NearestRule, Scheme, Transform

# The names, in the order the native builder numbers them (defined once, in _tablegen.pyx):
# "half_pixel", "pytorch_half_pixel", "half_pixel_symmetric", "align_corners", "asymmetric",
# "tf_half_pixel_for_nn"; "round_prefer_ceil", "round_prefer_floor", "floor", "ceil".
TRANSFORMS = tuple(t.name.removeprefix("T_").lower() for t in Transform)
NEAREST_MODES = tuple(n.name.removeprefix("N_").lower() for n in NearestRule)


def consecutive_taps(first: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The CSR pointers and input indices of outputs that each read a run of consecutive
    inputs: output ``o`` reads ``first[o], first[o] + 1, ..., first[o] + counts[o] - 1``.

    Examples
    --------
    >>> import numpy as np
    >>> ptr, idx = consecutive_taps(np.array([0, 2, 5]), np.array([2, 3, 1]))
    >>> ptr.tolist(), idx.tolist()
    ([0, 2, 5, 6], [0, 1, 2, 3, 4, 5])
    """
    ptr = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    idx = np.repeat(first, counts) + (np.arange(ptr[-1], dtype=np.int64)
                                      - np.repeat(ptr[:-1], counts))
    return ptr, idx.astype(np.int64, copy=False)


@dataclass(frozen=True, eq=False)
class AxisTable:
    """Taps of one resampled axis (see the module docstring)."""

    n_in: int
    n_out: int
    ptr: np.ndarray  # int64, (n_out + 1,)
    idx: np.ndarray  # int64, (nnz,), each in [0, n_in)
    w: np.ndarray  # float64, (nnz,)
    #: Fixed-point tables only: ``w`` holds integers and the output is ``(sum + 2^(shift-1))
    #: >> shift`` (see ``_engine/kernels/_fixed.pyx``).
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

    @cached_property
    def max_taps(self) -> int:
        """The most taps of any output (0 without outputs)."""
        return int(np.diff(self.ptr).max(initial=0))

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
        idx = np.empty((self.n_out, k), dtype=np.int64)
        w = np.empty((self.n_out, k), dtype=np.float64)
        _tablegen.csr_to_dense(self.n_in, np.ascontiguousarray(self.ptr, dtype=np.int64),
                               np.ascontiguousarray(self.idx, dtype=np.int64),
                               np.ascontiguousarray(self.w, dtype=np.float64), k,
                               idx.reshape(-1), w.reshape(-1))
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


def block_mean_table(n_in: int, n_out: int, step: int, start: int = 0) -> AxisTable:
    """Whole blocks: output ``o`` is the mean of inputs ``[start + o*step, start + (o+1)*step)``
    (``step`` taps of weight ``1/step``; the caller keeps the blocks inside ``[0, n_in)``).
    With ``step`` a power of two the weights are exact in every arithmetic, so a block mean
    of integers is computed exactly and only its final rounding remains: how front doors
    hand integer block averages (OpenCV's 2x2 ``INTER_AREA``, Pillow's ``reduce``) to the
    engine's fast passes."""
    first = start + step * np.arange(n_out, dtype=np.int64)
    idx = first[:, None] + np.arange(step, dtype=np.int64)
    return AxisTable.from_taps(n_in, idx, np.full((n_out, step), 1.0 / step))


# ---------------------------------------------------------------- the filter registry

def triangle_kernel(d: np.ndarray) -> np.ndarray:
    """The linear (tent) kernel ``max(0, 1 - d)`` at distances ``d >= 0`` (float64)."""
    return np.maximum(0.0, 1.0 - np.asarray(d, dtype=np.float64))


def box_kernel(d: np.ndarray) -> np.ndarray:
    """The box kernel: 1 for ``d < 1/2``, else 0 (nearest and area, at ``r = 1``)."""
    return np.where(np.asarray(d, dtype=np.float64) < 0.5, 1.0, 0.0)


def keys_kernel(d: np.ndarray, a: float = -0.75) -> np.ndarray:
    """The Keys cubic kernel at distances ``d >= 0`` (float64).

    ``W(d) = (a+2) d^3 - (a+3) d^2 + 1`` for ``d <= 1``, ``a d^3 - 5a d^2 + 8a d - 4a`` for
    ``1 < d < 2``, else 0. At ``d = 0, 1, 2`` it is exactly ``1, 0, 0``. (The native builders
    evaluate it in this operation order: ``((a+2) d - (a+3)) d d + 1`` and
    ``((a d - 5a) d + 8a) d - 4a``.)
    """
    d = np.asarray(d, dtype=np.float64)
    near = ((a + 2.0) * d - (a + 3.0)) * d * d + 1.0
    far = ((a * d - 5.0 * a) * d + 8.0 * a) * d - 4.0 * a
    return np.where(d <= 1.0, near, np.where(d < 2.0, far, 0.0))


def _sinc(x: np.ndarray) -> np.ndarray:
    # sin(pi x) / (pi x), exactly 0 at the non-zero integers (as the native weights are).
    x = np.asarray(x, dtype=np.float64)
    return np.where(x == np.floor(x), np.where(x == 0, 1.0, 0.0), np.sinc(x))


def lanczos_kernel(d: np.ndarray, a: float = 3) -> np.ndarray:
    """Windowed sinc with ``a`` lobes: ``sinc(d) sinc(d / a)`` for ``|d| < a``, else 0
    (Pillow's LANCZOS for ``a = 3``, OpenCV's ``INTER_LANCZOS4`` for ``a = 4``)."""
    d = np.abs(np.asarray(d, dtype=np.float64))
    return np.where(d < a, _sinc(d) * _sinc(d / a), 0.0)


def hamming_kernel(d: np.ndarray) -> np.ndarray:
    """Pillow's Hamming filter: ``sinc(d) (0.54 + 0.46 cos(pi d))`` for ``|d| < 1``, else 0."""
    d = np.abs(np.asarray(d, dtype=np.float64))
    return np.where(d < 1.0, _sinc(d) * (0.54 + 0.46 * np.cos(np.pi * d)), 0.0)


def pil_box_kernel(d: np.ndarray) -> np.ndarray:
    """Pillow's box filter at *signed* distances: 1 on ``(-1/2, 1/2]``, else 0 (half-open, so
    a sample on the border of two footprints belongs to one of them)."""
    d = np.asarray(d, dtype=np.float64)
    return np.where((d > -0.5) & (d <= 0.5), 1.0, 0.0)


@dataclass(frozen=True)
class Filter:
    """One resampling filter, as data: its kernel, its support, and how tables are made of it.

    ``name`` is the ``mode`` that selects it. ``support`` is the kernel's radius in input
    samples at ``r = 1`` (the kernel is 0 from there on); ``weight(d, **params)`` evaluates it
    at distances ``d >= 0`` in float64 (documentation and tests; the tables are built by the
    native schemes). ``scheme`` is the native scheme (``_tablegen.Scheme``) that builds the
    table of an axis, ``antialias_scheme`` the one used when ``antialias=True`` and the axis
    shrinks (``r > 1``: the kernel stretched by ``r``), ``None`` where antialiasing does not
    apply. ``kernel`` (``_tablegen.Kernel``) selects the native weight function of the TAPS
    and WINDOW schemes, once per table. ``params`` maps the kernel's parameter names to the
    keyword arguments of ``resize`` that carry them (``a`` <- ``cubic_a``). ``support_param``
    names the kernel parameter that *is* the support, where it varies (lanczos: ``a``).

    The weight functions of TAPS and WINDOW take the signed distance ``(i - u) / r`` (the
    box is half-open); filters that are not a partition of unity (lanczos, hamming) are
    normalised per output, as Pillow and the ONNX reference do.

    A new filter is a new entry: a kernel with a support and a weight function reuses TAPS
    (``2 * support`` taps around ``floor(u)``, SPEC section 2) and WINDOW (stretched by ``r``,
    normalised), given its native weight function under a new ``Kernel`` id.
    """

    name: str
    support: float
    weight: Callable[..., np.ndarray]
    scheme: int
    antialias_scheme: int | None = None
    kernel: int = Kernel.KERNEL_NONE
    params: tuple[tuple[str, str], ...] = ()
    support_param: str | None = None

    def support_for(self, params: dict[str, float]) -> float:
        """The support given the kernel's parameters (``{"a": ...}``)."""
        return float(params[self.support_param]) if self.support_param else self.support


FILTERS: dict[str, Filter] = {
    f.name: f for f in (
        Filter("nearest", 0.5, box_kernel, Scheme.SCHEME_NEAREST),
        Filter("linear", 1.0, triangle_kernel, Scheme.SCHEME_LINEAR,
               antialias_scheme=Scheme.SCHEME_AA_TRIANGLE),
        Filter("cubic", 2.0, keys_kernel, Scheme.SCHEME_TAPS,
               antialias_scheme=Scheme.SCHEME_WINDOW, kernel=Kernel.KERNEL_KEYS,
               params=(("a", "cubic_a"),)),
        Filter("lanczos", 3.0, lanczos_kernel, Scheme.SCHEME_TAPS,
               antialias_scheme=Scheme.SCHEME_WINDOW, kernel=Kernel.KERNEL_LANCZOS,
               params=(("a", "lanczos_a"),), support_param="a"),
        Filter("hamming", 1.0, hamming_kernel, Scheme.SCHEME_TAPS,
               antialias_scheme=Scheme.SCHEME_WINDOW, kernel=Kernel.KERNEL_HAMMING),
        Filter("box", 0.5, pil_box_kernel, Scheme.SCHEME_TAPS,
               antialias_scheme=Scheme.SCHEME_WINDOW, kernel=Kernel.KERNEL_BOX),
        Filter("area", 0.5, box_kernel, Scheme.SCHEME_AREA),
    )
}

#: WINDOW tables are exact (every tap of every window evaluated and summed as the NumPy
#: builders did) up to this many window taps per axis (``n_out * (2 ceil(support r) + 1)``).
#: Those builders kept 48 bytes per tap, so on the 24 GiB machines the suite runs on every
#: table they could build is under it; wider windows are folded (closed-form outside mass).
EXACT_WINDOW_TAPS = 1 << 29


# ---------------------------------------------------------------- core axis tables

class AxisSpec:
    """Everything that decides one core ``resize`` axis's table, and its native builder.

    Builds the taps of any range of outputs ``[o0, o1)`` (a tile of a long axis) in memory
    bounded by the range: :meth:`table`, :meth:`dense`. Every row is bit for bit the row of the
    whole table, whatever the range.

    The formulas (SPEC section 2; ``resamplex/_engine/_tablegen.pyx`` holds the loops), with
    ``r = 1/scale`` if a scale is given, else ``n_in/n_out``:

    - coordinates ``u(o)`` in float64, each transform arranged as one division of exactly
      computed terms (``((2o + 1) n_in - n_out) / (2 n_out)`` for half_pixel without a scale),
      so a coordinate that is an integer or half-integer in exact arithmetic is exact;
    - nearest: ``k = floor(u)``, then ``+1`` by the rule on the exact fraction ``u - k``
      (``>= 1/2`` round_prefer_ceil, ``> 1/2`` round_prefer_floor, ``> 0`` ceil), clamped;
    - linear: ``clamp(i0)`` with ``1 - f``, ``clamp(i0 + 1)`` with ``f`` (``i0 = floor(u)``,
      ``f = u - i0``, 0 for an infinite ``u``); both clamped to one sample: weight 1;
    - cubic: Keys weights at ``t + 1, t, 1 - t, 2 - t`` for taps ``i0 - 1 .. i0 + 2``, clamped
      and merged, or with ``exclude_outside`` the outside taps dropped and the rest divided by
      their sum (an output left with no weight reads the nearest edge sample);
    - area: input pixel ``[i, i + 1)`` weighted by its overlap with ``[o r, (o + 1) r)`` clipped
      to ``[0, n_in]``, divided by the sum; a footprint outside the input reads the edge;
    - antialiased linear (``r > 1``): the triangle ``max(0, 1 - |i - u| / r)`` over the in-range
      taps, the mass outside the input in closed form on the edge taps (or dropped with
      ``exclude_outside``), divided by the total (see :func:`antialias_linear_taps`);
    - antialiased cubic (``r > 1``): ``W(|i - u| / r)`` over ``|i - u| < 2r``, divided by the
      window's sum, then clamped and merged (or excluded and renormalised). Windows wider than
      :data:`EXACT_WINDOW_TAPS` per axis are folded: in-range taps plus the closed-form mass
      outside the input; past ``r = n_in 2^57`` the weights no longer change, and ``r`` is
      clamped there (issue 15: tiny scales).
    - lanczos (``a = lanczos_a``), hamming, box: TAPS (``2 ceil(support)`` taps around
      ``floor(u)``, lanczos and hamming divided by their sum) and, antialiased, WINDOW as cubic;
      the box's stretched distances within rounding of ``+-1/2`` are put on it (exact ties
      follow its half-open rule); folded windows add the outside mass as an integral with
      Euler-Maclaurin corrections (lanczos, hamming) or a count (box).

    Then taps reading one index are merged (summed in tap order), zero weights dropped,
    indices ascending.
    """

    def __init__(self, n_in: int, n_out: int, scale: float | None, *, mode: str, transform: str,
                 nearest_mode: str = "round_prefer_ceil", cubic_a: float = -0.75,
                 exclude_outside: bool = False, antialias: bool = False, lanczos_a: int = 3):
        n_in, n_out = int(n_in), int(n_out)
        self.n_in, self.n_out = n_in, n_out
        self._request = (n_in, n_out, scale, dict(
            mode=mode, transform=transform, nearest_mode=nearest_mode, cubic_a=cubic_a,
            exclude_outside=exclude_outside, antialias=antialias, lanczos_a=lanczos_a))
        self.filter = filt = FILTERS[mode]
        r = 1.0 / scale if scale is not None else (n_in / n_out if n_out else 1.0)
        scheme = filt.scheme
        if antialias and filt.antialias_scheme is not None and r > 1.0:
            scheme = filt.antialias_scheme
        self.scheme = scheme
        keywords = {"cubic_a": float(cubic_a), "lanczos_a": float(lanczos_a)}
        params = {name: keywords[kw] for name, kw in filt.params}
        a = params.get("a", 0.0)
        support_d = filt.support_for(params)
        support = int(math.ceil(support_d))
        r_clamp = 2.0 ** (57 + n_in.bit_length())
        half, exact, area_k = 0, True, 0
        raw_cap = buf_cap = 0
        if scheme == Scheme.SCHEME_NEAREST:
            row_cap = raw_cap = 1
        elif scheme == Scheme.SCHEME_LINEAR:
            row_cap = raw_cap = 2
        elif scheme == Scheme.SCHEME_TAPS:
            row_cap = raw_cap = 2 * support
        elif scheme == Scheme.SCHEME_AREA:
            width = (1.0 / scale) if scale is not None else (n_in / n_out if n_out else 1.0)
            area_k = min(int(math.ceil(width)) + 1, n_in + 1)
            row_cap = raw_cap = area_k
        elif scheme == Scheme.SCHEME_AA_TRIANGLE:
            r = max(1.0, r)
            # Rows overflow float64 (and are folded, reading every in-range sample) only where
            # |u| + r nears its limit; others read at most the in-range window plus two edges.
            may_overflow = (n_out + 2) * r + n_in >= 2.0 ** 1000
            row_cap = n_in if may_overflow else 2 * int(math.ceil(r)) + 4
            buf_cap = row_cap
        else:  # SCHEME_WINDOW
            reach = support_d * r
            if math.isfinite(reach) and reach < 2.0 ** 62:
                half = int(math.ceil(reach))
                exact = n_out * (2 * half + 1) <= EXACT_WINDOW_TAPS
            else:
                exact = False
            if exact:
                row_cap = 2 * half + 1
                buf_cap = row_cap if row_cap <= _tablegen.window_buffer else 0
            else:
                half = 0
                row_cap = 2 * int(math.ceil(support_d * min(r, r_clamp))) + 3
        row_cap = min(row_cap, max(n_in, 1))
        buf_cap = min(buf_cap, max(n_in, 1)) if scheme == Scheme.SCHEME_AA_TRIANGLE else buf_cap
        self._row_cap = row_cap
        self._scratch = raw_cap * 16 + buf_cap * 8 + row_cap * 16
        self._args: dict[str, Any] = dict(
            scheme=scheme, n_in=n_in, n_out=n_out, scale=scale,
            transform=TRANSFORMS.index(transform), rule=NEAREST_MODES.index(nearest_mode),
            kernel=filt.kernel, r=r, a=a, exclude=bool(exclude_outside), support=support,
            support_d=support_d,
            half=half, exact=exact, r_clamp=r_clamp, area_k=area_k,
            hps_offset=(n_in - 1) / 2, row_cap=row_cap, raw_cap=raw_cap, buf_cap=buf_cap)
        self._max_taps: int | None = None

    @cached_property
    def _builder(self) -> _tablegen.TableBuilder:
        # Made on first use: the antialiased triangle's builder makes one pass over the axis
        # (its widest window), which a size check has no need of.
        return _tablegen.TableBuilder(**self._args)

    @property
    def builder(self) -> _tablegen.TableBuilder:
        """The axis's native table builder (``_tablegen.TableBuilder``), made on first use."""
        return self._builder

    @property
    def step(self) -> float:
        """``r``: input units per output unit (``1/scale``, or ``n_in/n_out``; at least 1
        where antialiasing widens the kernel), the slope of the output coordinates."""
        return float(self._args["r"])

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its request (a task can build its own tiles); the builder is remade.
        n_in, n_out, scale, kw = self._request
        return _spec_from_request, (n_in, n_out, scale, kw)

    def __repr__(self) -> str:
        n_in, n_out, scale, kw = self._request
        opts = ", ".join(f"{k}={v!r}" for k, v in kw.items())
        return f"AxisSpec({n_in} -> {n_out}, scale={scale!r}, {opts})"

    @property
    def taps_bound(self) -> int:
        """An upper bound on the taps of any output (O(1)): size buffers by it."""
        return self._row_cap

    @property
    def max_taps(self) -> int:
        """The most taps of any output of the axis (exact; one pass over the axis, cached)."""
        if self._max_taps is None:
            if self.scheme == Scheme.SCHEME_NEAREST:
                self._max_taps = 1 if self.n_out else 0
            else:
                self._max_taps = int(self._builder.stats(0, self.n_out)[1])
        return self._max_taps

    @cached_property
    def period(self) -> tuple[int, int, bool] | None:
        """``(P, Q, whole)``: the row of output ``o + P`` is the row of output ``o`` with
        every index moved by ``Q``, bit for bit, wherever neither row's taps come within
        ``taps_bound + 2`` of an end of the input, and, where ``whole`` is False, both rows'
        taps lie that far inside one binade ``[2^k, 2^(k+1))``; None where that is not
        certain.

        ``whole``: the float64 coordinates are exact, ``u(o)`` affine in ``o`` with dyadic
        coefficients (``n_in / n_out`` an integer over a power of two, a scale that is a
        power of two), every value small enough that each step of the formula (``coordinate``
        in ``_tablegen.pyx``) is exact. Then ``u(o + P) = u(o) + Q`` exactly, and a row's
        every rounded step takes the same operands in both rows: the fraction ``u -
        floor(u)``, the distances ``i - u`` (exact), ``(i - u) / r``, ``u -+ r`` (``r`` dyadic
        where a scheme reads it).

        Otherwise, where the coordinate is one rounding of an exact quotient, then exact
        steps (every transform but half_pixel_symmetric with a scale), with a slope of
        ``Q / P`` (sizes ``Q : P``, or a scale ``P / Q``): two exact quotients ``Q`` apart in
        one binade round to two floats ``Q`` apart (``Q`` is a whole number of that binade's
        steps, an even one), and so do ``u -+ r``; the fraction and the distances are exact
        as above. Across a power of two they may not (x3: ``u = (2o + 1) / 6 - 1/2`` rounds
        its sixths one way below 2^k, another above).

        Not claimed for rows whose arithmetic depends on the position itself: folded
        windows, and the stretched box's snap tolerance."""
        n_in, n_out, scale, kw = self._request
        a = self._args
        scheme = self.scheme
        if n_out < 2 or n_in < 2:
            return None
        if scheme == Scheme.SCHEME_WINDOW and (not a["exact"] or a["kernel"] == Kernel.KERNEL_BOX):
            return None
        if scheme == Scheme.SCHEME_AA_TRIANGLE and self._row_cap >= n_in:
            return None  # rows that can fold (coordinates near float64's limit)
        F = Fraction
        transform = str(kw["transform"])
        if scale is not None:
            if not 2.0 ** -60 < scale < 2.0 ** 60:
                return None
            r = 1 / F(scale)  # dyadic (checked below) only for a power of two
        else:
            r = F(n_in, n_out)
        if scheme == Scheme.SCHEME_AREA:  # footprints [o r, (o + 1) r), whatever the transform
            u0, alpha = F(0), r
        elif transform == "align_corners":
            u0, alpha = F(0), F(n_in - 1, n_out - 1)
        elif scale is not None:
            alpha = r
            u0 = {"asymmetric": F(0), "tf_half_pixel_for_nn": r / 2,
                  "half_pixel_symmetric": (1 - n_out) * r / 2 + F(n_in - 1, 2)}.get(
                      transform, r / 2 - F(1, 2))
        else:
            alpha = r
            u0 = {"asymmetric": F(0), "tf_half_pixel_for_nn": r / 2}.get(
                transform, (n_in - n_out) / F(2 * n_out))
        dens = [alpha.denominator, u0.denominator]
        if scheme in (Scheme.SCHEME_AREA, Scheme.SCHEME_AA_TRIANGLE, Scheme.SCHEME_WINDOW):
            dens.append(r.denominator)
        if 2 * (n_out + 1) * (n_in + 1) >= 2 ** 52:
            return None  # the quotients' terms are exact below 2^53
        if not any(d & (d - 1) for d in dens):
            # Every value a row computes lies within its coordinate's reach of the
            # coordinates (``|u| + |r| (support + 2) + taps``), on a grid of 1 / max(dens):
            # exact below 2^50.
            reach = max(abs(u0), abs(u0 + alpha * (n_out - 1))) \
                + abs(r) * (a["support_d"] + 2) + self._row_cap + 4
            return (alpha.denominator, alpha.numerator, True) \
                if reach * max(dens) < 2 ** 50 else None
        # With a scale, ``(o + 1/2) / scale`` rounds once and ``- 1/2`` is exact (a float
        # of at least 1 less 1/2); half_pixel_symmetric's offset is added after a rounding
        # at another magnitude than u's.
        one_rounding = scale is None or transform != "half_pixel_symmetric" \
            or scheme == Scheme.SCHEME_AREA
        if not one_rounding or alpha.denominator > 1 << 16:
            return None
        return alpha.denominator, alpha.numerator, False

    def _range(self, o0: int, o1: int | None) -> tuple[int, int]:
        o1 = self.n_out if o1 is None else int(o1)
        o0 = int(o0)
        if not 0 <= o0 <= o1 <= self.n_out:
            raise ValueError(f"output range [{o0}, {o1}) is not within [0, {self.n_out}]")
        return o0, o1

    def nbytes_estimate(self, o0: int = 0, o1: int | None = None) -> int:
        """Bytes :meth:`table` of ``[o0, o1)`` allocates at most (its arrays before they are
        trimmed to the taps actually kept, plus the builder's scratch)."""
        o0, o1 = self._range(o0, o1)
        n = o1 - o0
        return (n + 1) * 8 + n * self.taps_bound * 16 + self._scratch

    def table(self, o0: int = 0, o1: int | None = None) -> AxisTable:
        """The taps of outputs ``o0 .. o1 - 1`` as an ``AxisTable`` of ``o1 - o0`` outputs
        (``ptr`` relative to the range). GIL released while it builds."""
        o0, o1 = self._range(o0, o1)
        ptr, idx, w = self._builder.csr(o0, o1)
        return AxisTable(self.n_in, o1 - o0, ptr, idx, w)

    def window_buffers(self, n: int) -> tuple[np.ndarray, ...]:
        """Arrays :meth:`window` can fill for ranges of up to ``n`` outputs, tile after tile."""
        cap = max(1, n * self.taps_bound)
        return (np.empty(n + 1, np.int64), np.empty(cap, np.int64), np.empty(cap, np.float64),
                np.empty(cap, np.int64), np.empty(cap, np.float64))

    def window(self, o0: int, o1: int,
               buffers: tuple[np.ndarray, ...]) -> tuple[AxisTable, int]:
        """``(table, lo)``: the taps of outputs ``o0 .. o1 - 1`` over the input window
        ``[lo, lo + table.n_in)`` they read (indices from ``lo``), built in ``buffers``
        (:meth:`window_buffers`), its ``dense`` form with it. The table is views of the
        buffers: it holds until they are filled again."""
        o0, o1 = self._range(o0, o1)
        ptr, idx, w, didx, dw = buffers
        nnz, lo, hi, k = self._builder.window_into(o0, o1, ptr, idx, w, didx, dw)
        n = o1 - o0
        table = AxisTable(hi - lo, n, ptr[:n + 1], idx[:nnz], w[:nnz])
        table.__dict__["dense"] = (didx[:n * k].reshape(n, k), dw[:n * k].reshape(n, k))
        return table, lo

    def dense(self, o0: int = 0, o1: int | None = None,
              k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``AxisTable.dense`` of outputs ``o0 .. o1 - 1``: ``(idx, w)``, each ``(o1 - o0, k)``;
        ``k`` defaults to ``max(1, max_taps)`` (the whole table's dense width)."""
        o0, o1 = self._range(o0, o1)
        k = max(1, self.max_taps) if k is None else int(k)
        idx = np.empty((o1 - o0, k), dtype=np.int64)
        w = np.empty((o1 - o0, k), dtype=np.float64)
        self._builder.dense_into(o0, o1, k, idx.reshape(-1), w.reshape(-1))
        return idx, w


def _spec_from_request(n_in: int, n_out: int, scale: float | None,
                       kw: dict[str, Any]) -> AxisSpec:
    return AxisSpec(n_in, n_out, scale, **kw)


def core_table(n_in: int, n_out: int, scale: float | None, *, mode: str, transform: str,
               nearest_mode: str, cubic_a: float = -0.75, exclude_outside: bool = False,
               antialias: bool = False, lanczos_a: int = 3) -> AxisTable:
    """The core ``resize`` table of one axis (float64 coordinates and weights; see
    :class:`AxisSpec`)."""
    return AxisSpec(n_in, n_out, scale, mode=mode, transform=transform,
                    nearest_mode=nearest_mode, cubic_a=cubic_a,
                    exclude_outside=exclude_outside, antialias=antialias,
                    lanczos_a=lanczos_a).table()


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
