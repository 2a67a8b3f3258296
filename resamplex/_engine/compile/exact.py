"""Exact pass pipelines: a plan whose every pass has its own arithmetic and storage type.

Front doors that reproduce another library bit for bit (``compat.cv2``, ``compat.pil``, the
ONNX Runtime flavour of ``compat.onnx``) describe each pass of that library with one of the
pass specs below, and hand them to :class:`resamplex._engine.plan.Plan` (``passes=``) together with
their axis tables. :func:`run` executes them in ``Plan.order``, as one executor program
(``_exec.Program``: every pass kind is one of its kernels). Nothing here knows any
library: a spec is arithmetic (accumulator, association order, shifts, rounding, storage type
between passes); the tables say which inputs each output reads.

The kernels (``_intpass``, ``_floatpass``, ``_blockpass``, ``_prodpass``) and the precise
contract of each variant are documented in ``docs/engine-passes.md``.

Layout: every pass reads and writes C-contiguous arrays viewed as ``(outer, n, inner)`` around
its axis (block passes as ``(outer, H, W, inner)``); the input is made C-contiguous first (a
copy only when it is not), and the last pass writes into ``out`` directly when ``out`` is
C-contiguous, else into a scratch array that is then copied. A program of one fused pass over
the first axis reads its rows through one stride: a view of whole rows of contiguous elements
(a crop of an image) runs in place, with that stride (``in_place``), without the copy.
"""

from __future__ import annotations

import functools
import math
import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence, Union

import numpy as np

from ... import _dtypes
from ..._checks import check_allocation
from ..._dtypes import name_of
from .. import _exec, _planloops
from .weighted import weighted_specs

if TYPE_CHECKING:  # pragma: no cover
    from ..._tables import AxisTable
    from ..plan import Plan

#: Element codes of the exact kernels (enum Elem in ``_elem.pxd``; keep in step).
ELEM = {"uint8": 0, "int8": 1, "uint16": 2, "int16": 3, "int32": 4, "int64": 5,
        "float32": 6, "float64": 7, "float16": 8}
#: Store rounding codes (enum Rnd in ``_elem.pxd``).
ROUNDING = {"half_even": 0, "half_away_from_zero": 1, "toward_zero": 2, "add_half_trunc": 3}
ORDERS = {"sequential": 0, "sequential_from_zero": 1, "nested": 2, "pairs": 3}

# Rows at least this long are blended whole (vectorisable); shorter ones element by element.
_ROW_LOOP_MIN = 16
#: Bytes of the band of first-pass rows an OP_FLOAT_FUSED pass keeps per thread (its rows
#: stay in the core's cache while the second pass reads them).
_BAND_BYTES = 1 << 19


@dataclass(frozen=True)
class IntPass:
    """Integer taps: ``acc = sum ((x >> pre) * w) >> post`` (int64), then
    ``((acc + bias) * mult) >> shift`` (an arithmetic shift, flooring), or with
    ``truncate=True`` ``((acc + bias) * mult) / 2^shift`` (C division, toward zero), or
    ``rintf(float32(acc) * fmul)`` when ``fmul`` is given; saturated into ``store``. Table
    weights must be integers."""

    store: str
    pre: int = 0
    post: int = 0
    bias: int = 0
    mult: int = 1
    shift: int = 0
    fmul: float | None = None
    truncate: bool = False
    #: Hold the stored bytes as this dtype instead (same size): a pass that saturates to
    #: uint8 into an int8 array keeps the low byte, as a C cast from uint8 to int8 does.
    view: str | None = None


@dataclass(frozen=True)
class FloatPass:
    """Float taps in ``compute`` (float32/float64) summed in ``order``, stored into ``store``
    (integers rounded by ``rounding`` and saturated). Table weights must be exact in
    ``compute``; the kernel uses ``compute(w) * compute(weight_scale)`` (one rounding). With
    ``divisors`` (one per output of the axis) each product is divided by its output's divisor
    (``(w * x) / d``, two roundings). ``order="pairs"``: the first tap, then the taps two by
    two, each pair summed (or subtracted, when its second weight is the negated first) before
    it is weighted by its first weight, as SciPy's symmetric correlation does; a pair whose
    second weight is neither is its first tap alone (no divisors with this order).

    ``load=(scale, floor)``: the pass reads each element ``x`` of its (integer) source as
    ``max(float64(x) * scale, floor)``, as if the source had been converted so first
    (scikit-image's ``img_as_float``); only on a program's first pass, ``"pairs"`` in
    float64 over rows (:func:`ring_slots`), on 8-, 16- or 32-bit integers.

    ``zero_edges``: the outputs at either end of the axis whose taps are not consecutive
    pixels (their window was clamped to the row) are summed from +0.0 (``0 + p0 + p1 ...``;
    OpenCV's ``HResizeCubic`` border loop starts from ``WT v = 0``), the others as
    ``order`` says; only ``"sequential"``, on the first pass of a fused float pair (the
    planner refuses it elsewhere). The sum from +0.0 is ``0.0 + `` the sequential sum: it
    differs only where that is -0.0, which becomes +0.0."""

    store: str
    compute: str = "float32"
    order: str = "sequential"
    rounding: str = "half_even"
    weight_scale: float = 1.0
    divisors: tuple[float, ...] | None = None
    load: tuple[float, float] | None = None
    zero_edges: bool = False


@dataclass(frozen=True)
class SplitPass:
    """``head`` on the first ``floor(min(inner, limit) / lanes) * lanes`` elements of every
    output row (``inner``: the elements after the pass's axis, all of them for a tap pass, the
    ``(W, inner)`` row of outputs for a block pass, whose split must fall on a whole output),
    ``tail`` on the rest: a vector loop and its scalar remainder. Both store the same type and
    are both tap passes or both block passes."""

    lanes: int
    head: Union[IntPass, FloatPass, "BlockPass"]
    tail: Union[IntPass, FloatPass, "BlockPass"]
    limit: int | None = None

    @property
    def store(self) -> str:
        return self.head.store


@dataclass(frozen=True)
class BlockPass:
    """Block averages over two adjacent axes (this pass consumes two entries of the plan's
    order: the outer axis, then the next one). Their tables give each output's contiguous
    input range (first index and count). Full ``block``-sized blocks are summed group by group
    (``groups``: tuples of ``(dy, dx)`` offsets, each group summed in the element's arithmetic
    and then added to an ``acc`` accumulator); partial blocks element by element. ``finish``
    ``"int"``: ``((acc + bias) * mult) >> shift`` (partial blocks of ``n`` elements:
    ``partial_bias[n]``, ``partial_mult[n]``, ``partial_shift``); ``"float32"``/``"float64"``:
    ``T(acc) * T(scale)``, partial ``T(acc) * (1 / T(n))`` (``partial="reciprocal"``) or
    ``T(acc) / T(n)`` (``"divide"``), then stored into ``store`` by ``rounding``. Partial
    blocks finish by ``partial_finish`` (default: as full ones). ``acc`` starts from 0, or
    with ``from_zero`` false (float data) from the first group's sum."""

    store: str
    block: tuple[int, int]
    groups: tuple[tuple[tuple[int, int], ...], ...]
    acc: str = "int64"
    finish: str = "int"
    partial_finish: str | None = None
    bias: int = 0
    mult: int = 1
    shift: int = 0
    partial_bias: tuple[int, ...] = ()
    partial_mult: tuple[int, ...] = ()
    partial_shift: int = 0
    scale: float = 1.0
    partial: str = "divide"
    rounding: str = "half_even"
    from_zero: bool = True


@dataclass(frozen=True)
class ProductPass:
    """``naxes`` (2 or 3) adjacent axes at once (consumes that many entries of the plan's
    order, outer first): every output weighs the corners of its taps' cartesian product
    (outer axis slowest) by the product of the per-axis weights, multiplied in
    ``coef_order`` (positions among the pass's axes), ``term = coef * x``, the terms summed in
    order in ``compute``; stored into ``store`` by ``rounding``."""

    store: str
    naxes: int = 2
    coef_order: tuple[int, ...] = (1, 0)
    compute: str = "float32"
    rounding: str = "half_even"


PassSpec = Union[IntPass, FloatPass, SplitPass, BlockPass, ProductPass]


def row_major_groups(fh: int, fw: int, size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The ``fh x fw`` block in row-major order, cut into groups of ``size`` consecutive
    elements while at least ``size`` remain, then single elements."""
    cells = [(i, j) for i in range(fh) for j in range(fw)]
    full = (len(cells) // size) * size if size > 1 else 0
    groups = [tuple(cells[k:k + size]) for k in range(0, full, size)]
    groups += [(c,) for c in cells[full:]]
    return tuple(groups)


def pair_groups(fh: int, fw: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The block as 2x2 quads (row pairs outer, column pairs inner; each quad
    ``(y,x), (y,x+1), (y+1,x), (y+1,x+1)``), an odd last column as vertical pairs after each
    row pair's quads, then an odd last row as horizontal pairs and a last single element."""
    groups: list[tuple[tuple[int, int], ...]] = []
    y = 0
    while y + 1 < fh:
        x = 0
        while x + 1 < fw:
            groups.append(((y, x), (y, x + 1), (y + 1, x), (y + 1, x + 1)))
            x += 2
        if fw % 2:
            groups.append(((y, x), (y + 1, x)))
        y += 2
    if fh % 2:
        x = 0
        while x + 1 < fw:
            groups.append(((y, x), (y, x + 1)))
            x += 2
        if fw % 2:
            groups.append(((y, x),))
    return tuple(groups)


# ------------------------------------------------------------------------------ execution

def _is_block(spec: PassSpec) -> bool:
    return isinstance(spec, BlockPass) or (isinstance(spec, SplitPass)
                                           and isinstance(spec.head, BlockPass))


def _width(spec: PassSpec) -> int:
    """How many axes of the plan's order a spec consumes."""
    if isinstance(spec, ProductPass):
        return spec.naxes
    return 2 if _is_block(spec) else 1


def _parts(spec: PassSpec) -> tuple[PassSpec, ...]:
    """The specs a pass runs: a split pass's head and tail, else the spec itself."""
    return (spec.head, spec.tail) if isinstance(spec, SplitPass) else (spec,)


def _steps(plan: "Plan") -> list[tuple[tuple[int, ...], PassSpec]]:
    """Pair each spec with the axes it resamples (block passes take two)."""
    steps = []
    order = list(plan.order)
    specs = list(plan.passes or ())
    i = 0
    for spec in specs:
        k = _width(spec)
        steps.append((tuple(order[i:i + k]), spec))
        i += k
    if i != len(order):
        raise ValueError(f"passes: {len(specs)} specs cover {i} axes; the order has "
                         f"{len(order)}")
    return steps


def _weights(table: "AxisTable", spec: Union[IntPass, FloatPass]) -> Any:
    if isinstance(spec, IntPass):
        w = _planloops.int_weights(np.ascontiguousarray(table.w, np.float64))
        if w is None:
            raise ValueError("passes: an integer pass needs integer weights")
        return w
    w = table.w.astype(spec.compute)
    if not np.array_equal(w, table.w):
        raise ValueError(f"passes: weights are not exact in {spec.compute}")
    if spec.weight_scale != 1.0:
        w = w * np.dtype(spec.compute).type(spec.weight_scale)
    return w


def _block_spec(src_shape: Sequence[int], src_dtype: np.dtype, store: np.dtype, ay: int,
                ty: "AxisTable", tx: "AxisTable", spec: Any, col0: int,
                col1: int) -> dict[str, Any]:
    """The OP_BLOCK pass of outputs ``[col0, col1)`` of the inner axis ``ay + 1``."""
    outer = math.prod(src_shape[:ay])
    inner = math.prod(src_shape[ay + 2:])
    ho, wo = ty.n_out, col1 - col0
    s_x = inner * src_dtype.itemsize
    s_y = src_shape[ay + 1] * s_x
    d_x = inner * store.itemsize
    d_y = tx.n_out * d_x
    fh, fw = spec.block
    gptr = np.zeros(len(spec.groups) + 1, np.int64)
    np.cumsum([len(g) for g in spec.groups], out=gptr[1:])
    cells = [c for g in spec.groups for c in g]
    nmax = fh * fw + 1
    bias_p = np.zeros(nmax, np.int64)
    mult_p = np.zeros(nmax, np.int64)
    bias_p[:len(spec.partial_bias)] = spec.partial_bias
    mult_p[:len(spec.partial_mult)] = spec.partial_mult
    fins = {"int": 0, "float32": 1, "float64": 2}
    blk = dict(
        ys=ty.idx[ty.ptr[:-1]], cy=np.diff(ty.ptr), xs=tx.idx[tx.ptr[col0:col1]],
        cx=np.diff(tx.ptr)[col0:col1], gptr=gptr,
        goff=np.array([c[0] * s_y + c[1] * s_x for c in cells], np.int64),
        bias_p=bias_p, mult_p=mult_p, fh=fh, fw=fw,
        acc={"int64": 0, "float32": 1, "float64": 2}[spec.acc], fin=fins[spec.finish],
        pfin=fins[spec.partial_finish or spec.finish],
        pop=0 if spec.partial == "reciprocal" else 1, zero=int(spec.from_zero),
        bias=spec.bias, mult=spec.mult, shift=spec.shift, shift_p=spec.partial_shift,
        scale=float(spec.scale))
    return dict(op=_exec.OPS["block"], shape=[outer, ho, wo, inner],
                sstr=[src_shape[ay] * s_y, s_y, s_x], dstr=[ho * d_y, d_y, d_x],
                doff=col0 * d_x, src_kind=ELEM[name_of(src_dtype)], dst_kind=ELEM[name_of(store)],
                rounding=ROUNDING[spec.rounding], blk=blk, buf_len=wo * inner,
                units=outer * ho, work=float(outer * ho * wo * inner * fh * fw))


def _product_spec(src_shape: Sequence[int], src_dtype: np.dtype, store: np.dtype,
                  axes: tuple[int, ...], tables: "list[AxisTable]",
                  spec: ProductPass) -> dict[str, Any]:
    """The OP_PRODUCT pass of ``axes`` (a two-axis product: a first axis of one output with
    one tap of weight 1)."""
    a0 = axes[0]
    outer = math.prod(src_shape[:a0])
    inner = math.prod(src_shape[axes[-1] + 1:])
    ct = np.dtype(spec.compute)
    one = (np.array([0, 1], np.int64), np.zeros(1, np.int64), np.ones(1, ct))
    tabs = [(t.ptr, t.idx, t.w.astype(ct)) for t in tables]
    n_in = [src_shape[a] for a in axes]
    n_out = [t.n_out for t in tables]
    if spec.naxes == 2:
        tabs = [one] + tabs
        n_in, n_out = [1] + n_in, [1] + n_out
        perm = [p + 1 for p in spec.coef_order] + [0]
    else:
        perm = list(spec.coef_order)
    for t, (_, _, w) in zip(tables, tabs[-len(tables):]):
        if not np.array_equal(w, t.w):
            raise ValueError(f"passes: weights are not exact in {spec.compute}")
    s_w = inner * src_dtype.itemsize
    s_h, s_d = n_in[2] * s_w, n_in[1] * n_in[2] * s_w
    d_w = inner * store.itemsize
    d_h, d_d = n_out[2] * d_w, n_out[1] * n_out[2] * d_w
    prod = dict(pd=tabs[0][0], id=tabs[0][1], wd=tabs[0][2], ph=tabs[1][0], ih=tabs[1][1],
                wh=tabs[1][2], pw=tabs[2][0], iw=tabs[2][1], ww=tabs[2][2], perm=perm)
    return dict(op=_exec.OPS["product"], shape=[outer, n_out[0], n_out[1], n_out[2], inner],
                sstr=[n_in[0] * s_d, s_d, s_h, s_w], dstr=[n_out[0] * d_d, d_d, d_h, d_w],
                src_kind=ELEM[name_of(src_dtype)], dst_kind=ELEM[name_of(store)],
                rounding=ROUNDING[spec.rounding], compute=_exec.COMPUTES[spec.compute],
                prod=prod, buf_len=n_out[2] * inner, units=outer * n_out[0] * n_out[1],
                work=float(outer * math.prod(n_out) * inner * 2 ** spec.naxes))


@dataclass(frozen=True)
class Prepared:
    """A plan's passes compiled for one (native) input dtype: per step the shape it writes
    and the dtype it stores, and the executor program that runs them all (``_program``).
    ``nbytes``: the arrays it holds, counted against the plan cache."""

    steps: tuple[tuple[tuple[int, ...], np.dtype], ...]
    nbytes: int
    #: The program, or None until ``program`` is first asked for (a one-pass program, made
    #: from ``spec``).
    made: Any
    #: The program's one pass where it is a fused pass over the first axis (OP_INT_FUSED,
    #: OP_FLOAT_FUSED), which reads the input's rows through its stride ``sstr[1]`` and
    #: nothing else of the input's layout; else None.
    fused: dict[str, Any] | None = None
    #: The same program for inputs whose rows are other byte strides apart (``in_place``),
    #: by stride; at most ``_VIEWS_MAX`` of them, counted in the plan's bytes.
    views: dict[int, Any] = field(default_factory=dict, compare=False)
    #: A one-pass program's spec and work, where it is made when first asked for.
    spec: dict[str, Any] | None = field(default=None, compare=False)
    work: float = 0.0

    @property
    def program(self) -> Any:
        """The executor program for C-contiguous input (made on first use where it is one
        fused pass: a new shape's crop runs only its view's program, ``in_place``)."""
        made = self.made
        if made is None and self.spec is not None:
            made = _exec.Program([self.spec], [], self.work)
            with _VIEWS_LOCK:
                if self.made is None:
                    object.__setattr__(self, "made", made)
                made = self.made
        return made


#: Row strides a prepared program keeps its view programs for (``Prepared.views``).
_VIEWS_MAX = 4
_VIEWS_LOCK = threading.Lock()


_INT32 = 2**31 - 1


@functools.lru_cache(maxsize=None)
def _plain_int(store: str) -> IntPass:
    """``IntPass(store)``: plain sums (made once; a new shape's plan compares with it)."""
    return IntPass(store)


@functools.lru_cache(maxsize=64)
def _np_dtype(name: str) -> np.dtype:
    """``np.dtype(name)`` (made once a name)."""
    return np.dtype(name)


@functools.lru_cache(maxsize=None)
def _int_range(dtype: np.dtype) -> tuple[int, int]:
    """The values an integer array of ``dtype`` can hold."""
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


@functools.lru_cache(maxsize=256)
def _int_spec(spec: IntPass) -> tuple[int, int, int, int, bool, float | None]:
    """What ``_int_bounds`` reads of ``spec`` (made once a spec; a new shape's plan bounds
    its tables with the specs of the shapes before it): the stored type's range, the range
    of the type the next pass reads, whether the store lets the kernel accumulate in int32,
    and ``fmul`` as float32 (None without)."""
    s_min, s_max = _int_range(_np_dtype(spec.store))
    v_min, v_max = _int_range(_np_dtype(spec.view or spec.store))
    narrow = spec.store in ("uint8", "int8", "uint16", "int16", "int32")
    fmul = None if spec.fmul is None else float(np.float32(spec.fmul))
    return s_min, s_max, v_min, v_max, narrow, fmul


def _int_bounds(table: "AxisTable", w: np.ndarray, spec: IntPass, lo: int,
                hi: int) -> tuple[bool, tuple[int, int]]:
    """For an integer pass reading values in ``[lo, hi]``: whether every partial sum of every
    output, and the finish's ``(acc + bias) * mult``, stay inside int32 (then the kernel
    accumulates in int32, with the same integers), and the range of the values it stores
    (after saturation), which the next pass reads."""
    s_min, s_max, v_min, v_max, narrow, fmul = _int_spec(spec)
    if max(abs(lo), abs(hi)) > _INT32 or not w.size:
        return False, (s_min, s_max)
    a, b = lo >> spec.pre, hi >> spec.pre
    # each output's terms at both ends of the range: the sum of the smaller, of the larger,
    # of the larger magnitude (_planloops.tap_bounds, NumPy's int64 arithmetic)
    s_lo, s_hi, magnitude, w_max = _planloops.tap_bounds(
        table.ptr, np.ascontiguousarray(w, np.int64), a, b, spec.post)
    acc32 = (narrow and max(abs(a), abs(b)) * w_max <= _INT32
             and (magnitude + abs(spec.bias)) * max(1, abs(spec.mult)) <= _INT32)
    if spec.view:   # the next pass reads the stored bytes as another type
        return acc32, (v_min, v_max)
    if fmul is not None:
        e_lo, e_hi = round(s_lo * fmul), round(s_hi * fmul)
    elif spec.truncate:
        e_lo = int((s_lo + spec.bias) * spec.mult / 2 ** spec.shift)
        e_hi = int((s_hi + spec.bias) * spec.mult / 2 ** spec.shift)
    else:
        e_lo = ((s_lo + spec.bias) * spec.mult) >> spec.shift
        e_hi = ((s_hi + spec.bias) * spec.mult) >> spec.shift
    return acc32, (max(s_min, min(e_lo, e_hi) - 1), min(s_max, max(e_lo, e_hi) + 1))


#: Rows of the ring a fused integer pass keeps (the most input rows one output may span).
_RING_MAX = 16


def _span_rows(table: "AxisTable") -> int:
    """The most consecutive input rows one output of ``table`` spans (0 without taps)."""
    return int(_planloops.span_rows(table.ptr, table.idx))


def regular_run(d: np.ndarray, q: np.ndarray) -> tuple[int, int, list[int], list[int]] | None:
    """Rows ``[lo, hi)`` around the middle row whose offsets ``d`` and weights ``q`` (one row
    per pixel of a x2 run, or per output of a x0.5 run) equal the middle row's, with those
    offsets and weights; None when it is shorter than 4."""
    mid = d.shape[0] // 2
    if not 0 < mid < d.shape[0] - 1 or not any(
            (d[r] == d[mid]).all() and (q[r] == q[mid]).all() for r in (mid - 1, mid + 1)):
        return None    # neither neighbour of the middle row is like it: no run of 4
    same = (d == d[mid]).all(axis=1) & (q == q[mid]).all(axis=1)
    if not same[mid]:
        return None
    lo = mid - int(np.argmin(same[mid::-1])) + 1 if not same[:mid + 1].all() else 0
    hi = mid + int(np.argmin(same[mid:])) if not same[mid:].all() else d.shape[0]
    if hi - lo < 4:
        return None
    return lo, hi, [int(v) for v in d[mid]], [int(v) for v in q[mid]]


def _up2_run(idx: np.ndarray, w: np.ndarray,
             k: int = 2) -> tuple[int, int, list[int], list[int]] | None:
    """The x2 run of a dense table of ``k`` taps per output (``idx``/``w``), or None: the
    pixels ``[lo, hi)`` around the middle whose outputs ``2i`` and ``2i + 1`` read pixels
    ``i + d`` with the same ``2k`` offsets ``d`` and weights (a x2 enlargement's inside), as
    ``(lo, hi, offsets, weights)``. The kernel computes those outputs with affine addresses
    (``_intpass._phase_up2``, ``_phase_up2_k4``), the others through the table."""
    half = idx.size // (2 * k)
    if half < 8:
        return None
    if w.dtype == np.int64:
        return _planloops.regular_run(idx, w, half, 2 * k, 1, 1 << 15)
    q = w[:2 * k * half].reshape(half, 2 * k)
    if np.abs(q[half // 2]).max() >= 1 << 15:
        return None
    i = np.arange(half)
    return regular_run(idx[:2 * k * half].reshape(half, 2 * k) - i[:, None], q)


def _down2_run(table: "AxisTable", w: np.ndarray) -> tuple[int, int, list[int], list[int]] | None:
    """The x0.5 run of a table with 4 or 8 taps for every output (``w`` its integer
    weights), or None: the outputs ``[lo, hi)`` around the middle that read pixels
    ``2 o + d`` with the same offsets ``d`` and weights (a halving's inside), as
    ``(lo, hi, offsets, weights)``. The kernel reads them from the even and odd pixels of the
    unzipped row (``_intpass._down2_row``), the others through the table."""
    c_min, c_max = _planloops.count_range(table.ptr)
    if table.n_out < 8 or c_min != c_max or c_min not in (4, 8):
        return None
    k = int(c_min)
    if w.dtype == np.int64:
        return _planloops.regular_run(table.idx, w, table.n_out, k, 2)
    o = np.arange(table.n_out)
    return regular_run(table.idx.reshape(-1, k) - 2 * o[:, None], w.reshape(-1, k))

def _narrow(dtype: np.dtype, second: IntPass, head: Any, ta: "AxisTable", w2: np.ndarray,
            lo: int, hi: int, acc32: bool) -> bool:
    """Whether a fused integer pair of uint8 input (a first pass of two taps over pixels of
    up to 4 elements) may keep its ring in int16 (PassDesc ``narrow``): every first-pass sum (in ``[lo, hi]``) shifted right by ``pre`` fits int16,
    the second pass has two taps for every output, int16 weights, ``post`` 16, ``mult`` 1,
    finish 0, a uint8 store and no head, and each output's two high products plus the bias
    stay inside int16. ``((h >> pre) * w) >> 16`` is then the high half of an int16 product,
    the same integer, and the kernel blends 16 lanes where int32 held 8."""
    w_max = _planloops.abs_max(w2)
    if dtype != np.uint8 or head is not None or not acc32 or second.truncate \
            or second.fmul is not None or second.mult != 1 or second.post != 16 \
            or _np_dtype(second.view or second.store) != np.uint8 or not ta.nnz \
            or _planloops.count_range(ta.ptr) != (2, 2) or w_max > 32767:
        return False
    top = max(abs(lo >> second.pre), abs(hi >> second.pre))
    if top > 32767:
        return False
    return 2 * ((top * w_max >> 16) + 1) + abs(second.bias) <= 32767


#: Per table, what the fused pair's planning derived from it (``_table_memo``).
_MEMO: "weakref.WeakKeyDictionary[Any, dict[Any, Any]]" = weakref.WeakKeyDictionary()
_MEMO_LOCK = threading.Lock()


def _table_memo(table: "AxisTable", key: Any, make: Any) -> Any:
    """``make()`` once per table and key, kept while the table lives: a door that keeps the
    table of an axis (``compat.cv2``) gives plans of new shapes that share an axis its
    analysis (bounds, runs, padded taps) made once. Tables are immutable."""
    with _MEMO_LOCK:
        memo = _MEMO.get(table)
        if memo is None:
            memo = _MEMO[table] = {}
        if key in memo:
            return memo[key]
    made = make()
    with _MEMO_LOCK:
        return memo.setdefault(key, made)


def _fused_first(tb: "AxisTable", first: IntPass, dtype: np.dtype, small: bool) -> Any:
    """The first pass of a fused integer pair over ``tb`` (plain sums of ``dtype`` input;
    ``small``: pixels of at most 4 elements), or None where its sums may leave int32:
    ``((lo, hi), ptr2, idx2, w1, dense, up2, down2, up2k4)``: the range of its sums, its
    taps (two a output where ``dense == 2``; ``dense`` 4 or 8 where every output has that
    many taps with int16 weights), and its x2 / x0.5 runs (``_up2_run``, ``_down2_run``)."""
    w1 = _weights(tb, first)
    acc32, bounds = _int_bounds(tb, w1, _plain_int("int32"), *_int_range(dtype))
    if not acc32:
        return None
    c_min, c_max = _planloops.count_range(tb.ptr)
    ptr2, idx2, dense = tb.ptr, tb.idx, 0
    if tb.n_out and c_max <= 2 and c_min >= 1:
        # Two taps everywhere (a one-tap output reads its sample again with weight 0: the
        # same sum), so the kernel needs no loop over taps.
        ptr2, idx2, w1 = _planloops.two_taps(tb.ptr, tb.idx, w1)
        dense = 2
    up2 = _up2_run(idx2, w1) if dense == 2 and small else None
    down2 = _down2_run(tb, w1) if dense == 0 and small and dtype == np.uint8 else None
    up2k4 = None
    if dense == 0 and small and tb.n_out and c_min == c_max == 4:
        up2k4 = _up2_run(tb.idx, w1, 4)
    if dense == 0 and small and tb.n_out and c_min == c_max and c_max in (4, 8) \
            and _planloops.abs_max(w1) <= 32767:
        # k taps for every output (cubic, Lanczos-4 at any ratio): rows without a tap list
        # (_intpass._taps_any; the phase runs above still take their outputs)
        dense = int(c_max)
    return bounds, ptr2, idx2, w1, dense, up2, down2, up2k4


def _fused_second(ta: "AxisTable", second: IntPass, head: FloatPass | None, dtype: np.dtype,
                  lo: int, hi: int, pairs: bool) -> Any:
    """The second pass of a fused integer pair over ``ta``, reading sums in ``[lo, hi]``,
    or None where it cannot run fused (no taps, rows too far apart for the ring, a float
    head whose weights are not exact): ``(w2, k, acc2, narrow)``, its weights, the ring's
    rows, whether it accumulates in int32 and whether the ring may be int16 (``pairs``:
    the first pass has two taps an output over short pixels)."""
    if not ta.nnz:
        return None
    k = _span_rows(ta)
    if k > _RING_MAX:
        return None
    w2 = _weights(ta, second)
    acc2, _ = _int_bounds(ta, w2, second, lo, hi)
    if head is not None and not _planloops.exact_scaled(w2, head.weight_scale):
        return None   # the head's float32 weights, w * scale, must be exact (as FloatPass requires)
    narrow = pairs and _narrow(dtype, second, head, ta, w2, lo, hi, acc2)
    return w2, k, acc2, narrow


def _int_fused(plan: "Plan", dtype: np.dtype,
               steps: list[tuple[tuple[int, ...], Any]]) -> tuple[dict[str, Any], float] | None:
    """Two integer passes as one OP_INT_FUSED pass, or None: the first over axis ``b`` with
    plain sums (no shift, bias or finish) that the planner bounds inside int32, the second
    over the axis ``b - 1`` just outside it, whose outputs each read at most ``_RING_MAX``
    consecutive rows; 8- or 16-bit input. The first pass's rows are then made once each into
    a ring and blended at once, instead of a whole intermediate array (OpenCV's own shape)."""
    if len(steps) != 2 or name_of(dtype) not in ("uint8", "int8", "uint16", "int16") \
            or len(steps[0][0]) != 1 or len(steps[1][0]) != 1:
        return None
    ((b,), first), ((a,), last) = steps
    head: FloatPass | None = None
    lanes = 0
    if isinstance(last, SplitPass):
        # OpenCV's split vertical pass: a float32 head (its vector loop), an integer tail.
        split = last
        h, last, lanes = split.head, split.tail, split.lanes
        if not isinstance(h, FloatPass) or not isinstance(last, IntPass) \
                or split.limit is not None \
                or (h.compute, h.order, h.rounding, h.divisors) != ("float32", "nested",
                                                                    "half_even", None) \
                or h.store != last.store or last.store not in ("uint8", "int8"):
            return None
        head = h
    if not isinstance(last, IntPass) or not isinstance(first, IntPass) or a != b - 1 \
            or first.store not in ("int32", "int64") or first != _plain_int(first.store):
        return None
    second: IntPass = last
    tb, ta = plan.tables[b], plan.tables[a]
    shape = plan.in_shape
    outer, inner = math.prod(shape[:a]), math.prod(shape[b + 1:])
    if outer == 0 or inner == 0:
        return None
    one = _table_memo(tb, ("fused-first", first, dtype, inner <= 4),
                      lambda: _fused_first(tb, first, dtype, inner <= 4))
    if one is None:
        return None
    (lo, hi), ptr2, idx2, w1, dense, up2, down2, up2k4 = one
    pairs = dense == 2 and inner <= 4
    two = _table_memo(ta, ("fused-second", second, head, dtype, lo, hi, pairs),
                      lambda: _fused_second(ta, second, head, dtype, lo, hi, pairs))
    if two is None:
        return None
    w2, k, acc2, narrow = two
    store = _np_dtype(second.view or second.store)
    sz, dz = dtype.itemsize, store.itemsize
    n_row = tb.n_out * inner
    spec = dict(
        op=_exec.OPS["int_fused"], src=-1, dst=-2,
        shape=[outer, ta.n_out, tb.n_out, inner],
        sstr=[shape[a] * shape[b] * inner * sz, shape[b] * inner * sz, inner * sz, sz],
        dstr=[ta.n_out * n_row * dz, n_row * dz, inner * dz, dz],
        src_kind=ELEM[name_of(dtype)], dst_kind=ELEM[second.store], compute=1 if acc2 else 0,
        ptr=ta.ptr, off=ta.idx, w=w2, ptr2=ptr2, idx2=idx2, w2=w1, k=k, n_mid=dense,
        n_in=shape[b],
        pre=second.pre, post=second.post, bias=second.bias, mult=second.mult,
        shift=second.shift, finish=2 if second.truncate else (0 if second.fmul is None else 1),
        fmul=float(np.float32(second.fmul or 0.0)), buf_len=(2 + k) * n_row,
        units=outer * ta.n_out)
    if up2 is not None:
        spec.update(phase=_exec.PHASES["up2"], lo=up2[0], hi=up2[1], pd=up2[2], pq=up2[3])
    if up2k4 is not None:
        spec.update(phase=_exec.PHASES["up2"], lo=up2k4[0], hi=up2k4[1], rd=up2k4[2],
                    rw=up2k4[3])
    if down2 is not None:
        # the unzipped row's even and odd pixels (16 bytes of slack after each), in int32s
        planes = -(-(shape[b] * inner + 48) // 4)
        spec.update(phase=_exec.PHASES["down2"], lo=down2[0], hi=down2[1], rd=down2[2],
                    rw=down2[3], buf_len=spec["buf_len"] + planes)
    if narrow:
        spec.update(narrow=1, buf_len=spec["buf_len"] + 32)
    if head is not None:
        spec.update(head=(n_row // lanes) * lanes, hscale=float(np.float32(head.weight_scale)))
    work = outer * (shape[a] * inner * max(tb.nnz, 1) + ta.n_out * n_row * ta.mean_taps)
    return spec, float(work)


def _float_fused(plan: "Plan", dtype: np.dtype,
                 steps: list[tuple[tuple[int, ...], Any]]) -> tuple[dict[str, Any], float] | None:
    """Two float passes as one OP_FLOAT_FUSED pass, or None: the first over axis ``b``
    storing a float type, the second (a float pass, or a split pass of two with the same
    weights and divisors) over the axis ``b - 1`` just outside it, both in one accumulator
    type. The first pass's rows go into a per-thread band of rows (about ``_BAND_BYTES``)
    instead of a whole intermediate array, each computed once (OpenCV's and Pillow's own
    shape: horizontal rows into a buffer, blended vertically)."""
    if len(steps) != 2 or len(steps[0][0]) != 1 or len(steps[1][0]) != 1 \
            or name_of(dtype) not in ELEM or name_of(dtype) == "int64":
        return None
    ((b,), first), ((a,), last) = steps
    parts = [q for q in _parts(last) if isinstance(q, FloatPass)]
    if a != b - 1 or not isinstance(first, FloatPass) or first.divisors is not None \
            or first.store not in ("float32", "float64") \
            or len(parts) != len(_parts(last)) \
            or any(q.compute != first.compute or q.store != parts[0].store for q in parts):
        return None
    head, tail = parts[0], parts[-1]
    if isinstance(last, SplitPass) and last.limit is not None:
        return None
    tb, ta = plan.tables[b], plan.tables[a]
    shape = plan.in_shape
    outer, inner = math.prod(shape[:a]), math.prod(shape[b + 1:])
    if outer == 0 or inner == 0 or tb.n_out == 0 or ta.n_out == 0:
        return None
    w1, w = _weights(tb, first), _weights(ta, tail)
    if not np.array_equal(_weights(ta, head), w) or head.divisors != tail.divisors:
        return None
    n_row = tb.n_out * inner
    cut = 0
    if isinstance(last, SplitPass):
        cut = (n_row // last.lanes) * last.lanes
    mid = np.dtype(first.store)
    compute = np.dtype(first.compute)
    store = np.dtype(tail.store)
    sz, dz = dtype.itemsize, store.itemsize
    cap = max(_span_rows(ta), 1, _BAND_BYTES // (n_row * mid.itemsize))
    acc_len = -(-n_row // 16) * 16
    counts = np.diff(tb.ptr)
    dense = int(counts[0]) if counts.size and (counts == counts[0]).all() and counts[0] > 0 \
        and first.order != "pairs" and mid == compute else 0
    # the band's rows, then one byte per row (computed or not: only rows read are made)
    band = -(-(cap * n_row * mid.itemsize + cap) // compute.itemsize)
    spec = dict(
        op=_exec.OPS["float_fused"], src=-1, dst=-2, shape=[outer, ta.n_out, n_row],
        sstr=[shape[a] * shape[b] * inner * sz, shape[b] * inner * sz, sz],
        dstr=[ta.n_out * n_row * dz, n_row * dz, dz],
        src_kind=ELEM[name_of(dtype)], dst_kind=ELEM[tail.store], mid_kind=ELEM[first.store],
        compute=_exec.COMPUTES[first.compute], rounding=ROUNDING[tail.rounding],
        ptr=ta.ptr, off=ta.idx, w=w,
        w2=None if tail.divisors is None else np.asarray(tail.divisors, tail.compute),
        ptr2=tb.ptr, idx2=tb.idx, w1=w1, order1=ORDERS[first.order], channels=inner,
        n_in=shape[b],
        loop=0 if inner >= _ROW_LOOP_MIN else 1, head=cut, order_head=ORDERS[head.order],
        finish=ORDERS[tail.order], n_mid=cap, k=dense, buf_len=-(-(acc_len + band) // 16) * 16,
        units=outer * ta.n_out)
    if dtype == mid == compute == np.float32 and first.order == "sequential" and inner <= 4 \
            and counts.size and counts.min() >= 1 and counts.max() <= 2:
        # a x2 run of two-tap outputs for _floatpass._up2_row (one-tap outputs padded for
        # the search only: a padding tap, a zero product, could change an infinity or a -0,
        # so the run must not hold one; a tap of weight 0 in the table is summed as it is)
        pad = np.repeat(counts == 1, counts)
        idx2 = np.repeat(tb.idx, np.where(pad, 2, 1))
        wp = np.repeat(w1, np.where(pad, 2, 1))
        wp[1::2][counts == 1] = 0
        up2 = _up2_run(idx2, wp)
        if up2 is not None and (counts[2 * up2[0]:2 * up2[1]] == 2).all():
            pw = wp.reshape(-1, 4)[(up2[0] + up2[1]) // 2]
            spec.update(phase=_exec.PHASES["up2"], lo=up2[0], hi=up2[1], pd=up2[2],
                        pw=[float(v) for v in pw])
    elif dtype == mid == compute == np.float32 and first.order == "sequential" and inner <= 4 \
            and dense in (4, 8):
        # k taps for every output: the x2 run as k-tap rows (_floatpass._up2_row_k)
        upk = _up2_run(tb.idx, w1, dense)
        if upk is not None:
            pwk = w1.reshape(-1, 2 * dense)[(upk[0] + upk[1]) // 2]
            spec.update(phase=_exec.PHASES["up2"], lo=upk[0], hi=upk[1], pdk=upk[2],
                        pwk=[float(v) for v in pwk])
    if first.zero_edges:
        edges = _clamped_ends(tb, counts) if mid == compute else None
        if edges is None:
            return None
        spec.update(zlead=edges[0], ztrail=edges[1])
    if not dense and "phase" not in spec and dtype == mid == compute == np.float32 \
            and first.order == "sequential" and inner <= 4:
        short = _dense_tail(tb, w1, counts)
        if short is not None:
            spec.update(k=short[0], ptr2=short[1], idx2=short[2], w1=short[3], ktail=short[4])
    work = outer * (shape[a] * inner * max(tb.nnz, tb.n_out)
                    + ta.n_out * n_row * max(ta.mean_taps, 1.0))
    return spec, float(work)


def _clamped_ends(tb: "AxisTable", counts: np.ndarray) -> tuple[int, int] | None:
    """``(lead, trail)``: how many outputs at the start and at the end of ``tb`` have taps
    that are not consecutive pixels (FloatPass ``zero_edges``), or None where ``tb`` is not
    dense (the same count of taps everywhere) or such outputs lie between others."""
    n = counts.size
    if n == 0 or not (counts == counts[0]).all():
        return None
    k = int(counts[0])
    idx = tb.idx.reshape(n, k)
    clamped = ~(np.diff(idx, axis=1) == 1).all(axis=1)
    lead = n if clamped.all() else int(np.argmin(clamped))
    trail = 0 if lead == n else int(np.argmin(clamped[::-1]))
    if clamped[lead:n - trail].any():
        return None
    return lead, trail


def _dense_tail(tb: "AxisTable", w1: np.ndarray, counts: np.ndarray
                ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, int] | None:
    """A first-pass table whose outputs have ``k`` (2, 4 or 8) taps but for a run of
    shorter ones (1 to k - 1 taps) at its end, as dense taps for the band's vector rows, or
    None: ``(k, ptr2, idx2, w1, tail)`` (``PassDesc.ktail``): every output's k taps first
    (the tail's the table's last k pixels with weight 0, so any dense kernel reads inside
    the row), then the tail's own taps, which ``ptr2`` points at from the tail's outputs.
    OpenCV's linear rows end so (its ``xmax``: an output past the last pixel pair takes one
    tap); they were summed tap list by tap list, 1.5-3x slower than the dense rows."""
    n = counts.size
    k = int(counts[0]) if n else 0
    if k not in (2, 4, 8) or tb.n_in < k:
        return None
    short = counts != k
    full = int(np.argmax(short)) if short.any() else n
    rest = counts[full:]
    if full == 0 or full == n or not ((rest >= 1) & (rest < k)).all():
        return None
    idx = np.empty(n * k + int(rest.sum()), np.int64)
    w = np.zeros(idx.size, w1.dtype)
    idx[:full * k] = tb.idx[:full * k]
    w[:full * k] = w1[:full * k]
    idx[full * k:n * k] = np.tile(np.arange(tb.n_in - k, tb.n_in), n - full)
    first = int(tb.ptr[full])
    idx[n * k:] = tb.idx[first:]
    w[n * k:] = w1[first:]
    ptr = np.concatenate([np.arange(full, dtype=np.int64) * k,
                          n * k + (tb.ptr[full:] - first)])
    return k, ptr, idx, w, n - full


def _core_program(plan: "Plan", dtype: np.dtype, steps: Sequence[Any]) -> Any:
    """``plan``'s passes compiled as the core's weighted program, where that is the same
    arithmetic; else None.

    The core's weighted passes (``_taps.pyx.tp``) sum ``acc = w[t0] * x[t0]; acc = acc + w[t]
    * x[t]`` in tap order in the accumulator type, without fused multiply-adds, store between
    passes in that type and cast the last sums to the output type: the float pass with order
    ``"sequential"``, no divisors and no weight scale, when the data, every accumulator and
    every store are one float type (float32 or float64, the core's accumulator for each) and
    the passes run in the plan's order (``keep_order``). Every output must have the same
    number of taps where the core reads a table densely (the innermost axis's, and the last
    pass's over pixels of several channels): it pads rows with fewer taps, and a padding tap
    (a zero product) would turn a sum of -0 into +0; elsewhere it reads the tap lists as they
    are. Same bits, on the core's vector kernels. Not where a float32 output has more than
    ``_exec.LIMITS["wide_taps"]`` taps: the core sums those in double.
    """
    if dtype not in (np.float32, np.float64) or not steps or not plan.keep_order \
            or any(getattr(spec, "zero_edges", False) for _, spec in steps):
        return None
    order = [axes[0] for axes, _ in steps]
    if list(plan.order) != order:
        return None
    ndim = len(plan.in_shape)
    for axes, spec in steps:
        if len(axes) != 1 or not isinstance(spec, FloatPass) or spec.order != "sequential" \
                or spec.divisors is not None or spec.weight_scale != 1.0 \
                or spec.compute != name_of(dtype) or spec.store != name_of(dtype):
            return None
        a = axes[0]
        table = plan.tables[a]
        if table.n_out == 0 or not np.array_equal(table.w.astype(dtype), table.w):
            return None
        if dtype == np.float32 and table.max_taps > _exec.LIMITS["wide_taps"]:
            return None   # the core sums wide windows in double (_taps.pyx.tp)
        k = int(table.ptr[1] - table.ptr[0])
        dense = a == ndim - 1 or (a == ndim - 2 and a == order[-1])
        if dense and (k < 1 or not np.array_equal(table.ptr,
                                                  np.arange(table.n_out + 1) * k)):
            return None
    size = dtype.itemsize
    xs = [math.prod(plan.in_shape[a + 1:]) * size for a in range(len(plan.in_shape))]
    os_ = [math.prod(plan.out_shape[a + 1:]) * size for a in range(len(plan.out_shape))]
    # channels-last pixels merge into their row (the same sums, on the core's fused sweep)
    return _exec.Program(*weighted_specs(plan, dtype, xs, os_,
                                         _dtypes.rounding_code("half_even"), None))


def _program(plan: "Plan", dtype: np.dtype,
             steps: list[tuple[tuple[int, ...], Any]] | None = None
             ) -> tuple[Any, dict[str, Any] | None, float]:
    """``plan``'s passes as one executor ``Program``, for C-contiguous input of the native
    ``dtype`` and output of the last pass's stored type: the core's program where that is the
    same arithmetic, a fused pair (OP_INT_FUSED, OP_FLOAT_FUSED), else one pass per step:
    integer and float tap passes (OP_INT, OP_FLOAT; a split pass as its two halves), block
    passes (OP_BLOCK) and product passes (OP_PRODUCT), scratch arrays between them. As
    ``(program, fused, work)``: where the program is one fused pass, None, that pass's spec
    and its work (``Prepared.program`` makes it when asked: a crop read in place runs a
    program of its own stride instead); else the program, None and 0. ``steps``:
    ``_steps(plan)``, where the caller has them."""
    if steps is None:
        steps = _steps(plan)
    if any(isinstance(p, FloatPass) and p.load is not None
           for _, spec in steps for p in _parts(spec)):
        return _pass_program(plan, dtype, steps), None, 0.0   # the loading pass is OP_FLOAT's
    fused = _int_fused(plan, dtype, steps)
    if fused is not None:
        return None, fused[0], fused[1]
    fused = _float_fused(plan, dtype, steps)
    if fused is not None and (fused[0].get("phase") or fused[0]["channels"] > 1 or (
            (fused[0]["k"] == 2 and dtype == np.float32)
            or (fused[0]["k"] > 0 and fused[0]["shape"][1] < plan.in_shape[steps[1][0][0]]))):
        # The fused sweep makes only the first-pass rows the second pass reads, each once,
        # into a band that stays in cache; the core's two whole passes make every input row
        # and write an intermediate array. Measured against the core (float32 and float64,
        # linear, 1 thread): up to 10x faster where the second pass reduces (a 1171-row image
        # to 94 rows reads 188 of its rows), 1.1-2x at enlargements of pixels of 3 or 4
        # elements, faster at x2 (its even/odd phase rows). Single-element rows keep the
        # core's program unless the first pass's table is dense (rx_dense2_f32 and its
        # kind; a linear row's one-tap end as PassDesc.ktail) and either the second pass
        # reduces or the rows are float32 pairs: read as lists of taps they were up to 3x
        # slower than the core's vector rows; dense float32 pairs enlarged are 1.1-1.25x
        # faster fused (OpenCV's linear, 1 thread), dense four-tap rows (cubic) the same.
        return None, fused[0], fused[1]
    core = _core_program(plan, dtype, steps)
    if core is not None:
        return core, None, 0.0
    if fused is not None:
        return None, fused[0], fused[1]
    return _pass_program(plan, dtype, steps), None, 0.0


def _pass_program(plan: "Plan", dtype: np.dtype,
                  steps: list[tuple[tuple[int, ...], Any]]) -> Any:
    """``plan``'s passes as one executor pass per step, scratch arrays between them."""
    if not steps:
        raise ValueError("passes: a plan of exact passes without a pass")
    if math.prod(plan.out_shape) and any(isinstance(p, FloatPass) and p.zero_edges
                                         for _, spec in steps for p in _parts(spec)):
        raise ValueError("passes: zero_edges is a fused float pair's first pass only")
    shape = list(plan.in_shape)
    src_dtype = dtype
    passes: list[dict[str, Any]] = []
    scratch: list[int] = []
    work = 0.0
    # the values an integer pass reads: the input's range, then what each pass can store
    bounds = _int_range(dtype) if dtype.kind in "iu" else None
    for k, (axes, spec) in enumerate(steps):
        src_shape = list(shape)
        for a in axes:
            shape[a] = plan.tables[a].n_out
        store = np.dtype(getattr(spec, "view", None) or spec.store)
        last = k == len(steps) - 1
        if not last:
            scratch.append(math.prod(shape) * store.itemsize)
        where = dict(src=-1 if k == 0 else k - 1, dst=-2 if last else k)
        if isinstance(spec, ProductPass):
            made = [_product_spec(src_shape, src_dtype, store, axes,
                                  [plan.tables[a] for a in axes], spec)]
            after = [_int_range(store) if store.kind in "iu" else None]
        elif _is_block(spec):
            made, after = _block_specs(src_shape, src_dtype, store, axes, plan, spec)
        else:
            made, after = _tap_specs(src_shape, src_dtype, store, axes[0], plan.tables[axes[0]],
                                     spec, bounds, first=k == 0)
        for m in made:
            passes.append(dict(m, **where))
            work += m.pop("work")
        # what the next pass reads: the union of what the parts store
        known = [b for b in after if b is not None]
        bounds = None if len(known) < len(after) else \
            (min(b[0] for b in known), max(b[1] for b in known))
        src_dtype = store
    return _exec.Program(passes, scratch, work)


def _load_fields(table: "AxisTable", width: int, src_dtype: np.dtype, part: FloatPass,
                 first: bool) -> dict[str, Any]:
    """The fields of a loading float pass (``FloatPass.load``), checked."""
    k = ring_slots(table, width)
    scale, floor = (float(v) for v in part.load or ())
    if not first or name_of(src_dtype) not in LOAD_SOURCES or part.order != "pairs" \
            or part.compute != "float64" or part.divisors is not None or k is None \
            or not math.isfinite(scale) or scale == 0 or math.isnan(floor):
        raise ValueError("passes: a loading float pass is the first, pairs in float64 over "
                         f"rows of {'/'.join(LOAD_SOURCES)} taps in distinct ring slots, "
                         "with a finite nonzero scale and a floor")
    return dict(lscale=scale, lfloor=floor, ring=k, buf_len=width * (k + 1) + k)


def _tap_specs(src_shape: Sequence[int], src_dtype: np.dtype, store: np.dtype, a: int,
               table: "AxisTable", spec: Any, bounds: tuple[int, int] | None,
               first: bool = False) -> tuple[list[dict[str, Any]], list[Any]]:
    """The OP_INT / OP_FLOAT passes of one tap step over axis ``a`` (a split pass: its head
    on the first elements of every row, its tail on the rest, two passes between the same
    arrays, the second's offsets past the head), and the range each stores (int passes)."""
    outer, n_in = math.prod(src_shape[:a]), src_shape[a]
    inner = math.prod(src_shape[a + 1:])
    sz, dz = src_dtype.itemsize, store.itemsize
    parts: list[tuple[Any, int, int]] = [(spec, 0, inner)]
    if isinstance(spec, SplitPass):
        row = inner if spec.limit is None else min(inner, spec.limit)
        cut = (row // spec.lanes) * spec.lanes
        parts = [(spec.head, 0, cut), (spec.tail, cut, inner)]
    made: list[dict[str, Any]] = []
    after: list[Any] = []
    for part, c0, c1 in parts:
        width = c1 - c0
        if width <= 0:
            continue
        loop = 0 if width >= _ROW_LOOP_MIN else 1
        w = _weights(table, part)
        common = dict(
            shape=[outer, table.n_out, width], sstr=[n_in * inner * sz, inner * sz, sz],
            dstr=[table.n_out * inner * dz, inner * dz, dz], loop=loop,
            soff=c0 * sz, doff=c0 * dz,
            src_kind=ELEM[name_of(src_dtype)], dst_kind=ELEM[part.store], ptr=table.ptr,
            off=table.idx, w=w, buf_len=width if loop == 0 else table.n_out * width,
            units=outer * table.n_out if loop == 0 else outer,
            work=float(outer * width * max(table.nnz, table.n_out)))
        if isinstance(part, IntPass):
            if bounds is None:
                raise ValueError("passes: an integer pass reads a float intermediate")
            acc32, stored = _int_bounds(table, w, part, *bounds)
            after.append(stored)
            made.append(dict(
                common, op=_exec.OPS["int"], compute=1 if acc32 else 0, pre=part.pre,
                post=part.post, bias=part.bias, mult=part.mult, shift=part.shift,
                finish=2 if part.truncate else (0 if part.fmul is None else 1),
                fmul=float(np.float32(part.fmul or 0.0))))
        else:
            made.append(dict(
                common, op=_exec.OPS["float"], compute=_exec.COMPUTES[part.compute],
                finish=ORDERS[part.order], rounding=ROUNDING[part.rounding],
                w2=None if part.divisors is None
                else np.asarray(part.divisors, part.compute)))
            if part.load is not None:
                made[-1].update(_load_fields(table, width, src_dtype, part, first))
            elif part.order == "pairs" and part.compute == "float64" \
                    and part.divisors is None and loop == 1 and width == inner <= 4 \
                    and name_of(src_dtype) in ("float64", "float32") + LOAD_SOURCES:
                run = _pairs_run(table)
                if run is not None:
                    made[-1].update(phase=_exec.PHASES["run"], lo=run[0], hi=run[1])
                    if src_dtype != np.float64:   # each row read as float64 first
                        made[-1].update(n_in=n_in,
                                        buf_len=table.n_out * width + n_in * inner)
            after.append(_int_range(store) if store.kind in "iu" else None)
    return made, after


#: The integer sources a loading float pass reads (FloatPass.load).
LOAD_SOURCES = ("uint8", "int8", "uint16", "int16", "int32")


def ring_slots(table: "AxisTable", inner: int) -> int | None:
    """The rows of the ring in which a loading float pass (``FloatPass.load``) over an axis
    with this table keeps its converted source rows, or None where it cannot run: rows of at
    least ``_ROW_LOOP_MIN`` elements (``inner``), every output at most
    ``_exec.LIMITS["pairs_max"]`` taps, and the taps of one output in distinct slots (input
    index mod the ring's rows, the most taps of an output) or on the same input."""
    counts = np.diff(table.ptr)
    k = int(counts.max()) if counts.size else 0
    if inner < _ROW_LOOP_MIN or not 1 <= k <= _exec.LIMITS["pairs_max"]:
        return None
    out = np.repeat(np.arange(table.n_out), counts)
    idx = np.asarray(table.idx, np.int64)
    pairs = np.unique(np.stack([out, idx % k, idx]), axis=1)   # (output, slot, input)
    same = (pairs[0, 1:] == pairs[0, :-1]) & (pairs[1, 1:] == pairs[1, :-1])
    return None if same.any() else k


def _pairs_run(table: "AxisTable") -> tuple[int, int] | None:
    """The outputs ``[lo, hi)`` around the middle whose taps are output ``lo``'s shifted:
    as many taps (at most ``_exec.LIMITS["pairs_max"]``), each index ``+ (o - lo)``, the same
    weights bit for bit (the interior of a filter table, whose boundary outputs fold their
    taps); None if fewer than 8 outputs are."""
    n = table.n_out
    counts = np.diff(table.ptr)
    mid = n // 2
    k = int(counts[mid]) if n else 0
    if n < 8 or not 1 <= k <= _exec.LIMITS["pairs_max"]:
        return None
    ok = np.flatnonzero(counts == k)
    taps = table.ptr[ok][:, None] + np.arange(k)
    rel = table.idx[taps] - ok[:, None]
    bits = table.w[taps].view(np.uint64)
    at = int(np.searchsorted(ok, mid))
    same = np.zeros(n, dtype=bool)
    same[ok] = (rel == rel[at]).all(axis=1) & (bits == bits[at]).all(axis=1)
    lo = mid - int(np.argmin(same[mid::-1])) + 1 if not same[:mid + 1].all() else 0
    hi = mid + int(np.argmin(same[mid:])) if not same[mid:].all() else n
    return (lo, hi) if hi - lo >= 8 else None


def _block_specs(src_shape: Sequence[int], src_dtype: np.dtype, store: np.dtype,
                 axes: tuple[int, ...], plan: "Plan",
                 spec: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """The OP_BLOCK passes of one block step (a split pass: its head on the first output
    columns, its tail on the rest), and the range each stores."""
    ay, ax = axes
    ty, tx = plan.tables[ay], plan.tables[ax]
    parts: list[tuple[Any, int, int]] = [(spec, 0, tx.n_out)]
    if isinstance(spec, SplitPass):
        inner = math.prod(src_shape[ax + 1:])
        row = tx.n_out * inner if spec.limit is None else min(tx.n_out * inner, spec.limit)
        head = (row // spec.lanes) * spec.lanes // inner
        parts = [(spec.head, 0, head), (spec.tail, head, tx.n_out)]
    made = [_block_spec(src_shape, src_dtype, store, ay, ty, tx, part, c0, c1)
            for part, c0, c1 in parts if c1 > c0]
    return made, [_int_range(store) if store.kind in "iu" else None] * len(made)


def prepare(plan: "Plan", dtype: np.dtype) -> Prepared:
    """``plan``'s passes for C-contiguous input of the native ``dtype``: the checks of the
    tables and the scratch sizes (raised here, before anything runs), and one executor
    program with every kernel argument made once."""
    shape = list(plan.in_shape)
    steps = []
    prepared = _steps(plan)
    for k, (axes, spec) in enumerate(prepared):
        for a in axes:
            shape[a] = plan.tables[a].n_out
        store = _np_dtype(getattr(spec, "view", None) or spec.store)
        if k < len(prepared) - 1:  # the last pass's scratch is checked when it needs one
            check_allocation(math.prod(shape) * store.itemsize, "scratch")
        steps.append((tuple(shape), store))
    program, one, work = _program(plan, dtype, prepared)
    fused = one
    if fused is not None and fused["shape"][0] != 1:
        fused = None   # Prepared.fused: over the first axis (nothing outside it) only
    if program is not None or one is None:
        return Prepared(tuple(steps), program.nbytes, program, fused)
    # the program's bytes: its arrays (the tables) and its descriptor
    nbytes = 1024
    for v in one.values():
        if type(v) is np.ndarray:
            nbytes += v.nbytes
    return Prepared(tuple(steps), nbytes, None, fused, spec=one, work=work)


def _prepared(plan: "Plan", dtype: np.dtype) -> Prepared:
    """``plan``'s prepared program for ``dtype``, made on first use and kept with it."""
    prep = plan.prepared.get(dtype)
    if prep is None:
        made = prepare(plan, dtype)
        prep = plan.prepared.setdefault(dtype, made)
        if prep is made:  # not made by a concurrent call in between
            plan.grew(made.nbytes)
    return prep


def row_stride(x: np.ndarray) -> int | None:
    """The byte stride of ``x``'s first axis where ``x`` is native and aligned, its other
    axes C-contiguous and the stride positive (whole rows of contiguous elements at
    increasing addresses, as a crop of an image has them); else None."""
    if not (x.dtype.isnative and x.flags.aligned) or x.ndim < 2 or x.strides[0] <= 0:
        return None
    inner = x.dtype.itemsize
    for n, st in zip(reversed(x.shape[1:]), reversed(x.strides[1:])):
        if n != 1 and st != inner:
            return None
        inner *= n
    return int(x.strides[0]) if x.strides[0] >= inner else None


def in_place(plan: "Plan", x: np.ndarray) -> Any:
    """The program that runs ``plan`` on ``x`` as it lies, a view whose rows are apart (not
    C-contiguous, of the plan's input shape), or None where ``x`` must be copied first: the
    plan's program for ``x``'s dtype is one fused pass over the first axis and ``x`` has
    whole rows of contiguous elements (``row_stride``). That pass reads the input only
    through ``base + row * stride`` and the offsets of a row's elements, so with the view's
    stride it reads the same values as from the copy."""
    stride = row_stride(x)
    if stride is None:
        return None
    prep = _prepared(plan, x.dtype)
    if prep.fused is None:
        return None
    program = prep.views.get(stride)
    if program is not None:
        return program
    spec = dict(prep.fused)
    spec["sstr"] = [stride * x.shape[0], stride] + list(spec["sstr"][2:])
    program = _exec.Program([spec], [], prep.program.work if prep.spec is None else prep.work)
    with _VIEWS_LOCK:
        if stride in prep.views or len(prep.views) >= _VIEWS_MAX:
            return prep.views.get(stride, program)
        prep.views[stride] = program
    plan.grew(program.nbytes)
    return program


def run(plan: "Plan", x: np.ndarray, out: np.ndarray, threads: int | None,
        program: Any = None) -> None:
    """Execute ``plan.passes`` on ``x`` into ``out`` (shapes and dtypes already checked): one
    executor program, made once per plan and input dtype (``prepare``, kept in
    ``plan.prepared``); the input is made C-contiguous and native first (a copy only when
    it is not, nor read in place: ``in_place``, or its ``program`` given by the caller that
    asked it), and the last pass writes into ``out`` when it is C-contiguous, native and of
    the last pass's type, else into a scratch array copied into it."""
    cur = x
    if program is None and not (x.flags.c_contiguous and x.dtype.isnative):
        program = in_place(plan, x)
        if program is None:
            cur = np.ascontiguousarray(x.astype(x.dtype.newbyteorder("="), copy=False))
    prep = _prepared(plan, cur.dtype)
    if program is None:
        program = prep.program
    shape, store = prep.steps[-1]
    if out.flags.c_contiguous and out.dtype == store and out.dtype.isnative:
        dst = out
    else:
        check_allocation(math.prod(shape) * store.itemsize, "scratch")
        dst = np.empty(shape, store)
    program.run(cur, dst, _exec.threads_for(threads, program.work))
    if dst is not out:
        np.copyto(out, dst, casting="unsafe")


#: Pass specs that take one axis of the order each (``_width`` 1).
_ONE_AXIS = (IntPass, FloatPass)


def check_steps(order: Sequence[int], passes: Sequence[PassSpec]) -> None:
    """Refuse a pass list that does not cover ``order`` (a programming error of a facade)."""
    if len(passes) == len(order) and all(type(p) in _ONE_AXIS for p in passes):
        return   # one axis a pass (a new shape's plan: the common case, checked at once)
    need = sum(_width(p) for p in passes)
    if need != len(order):
        raise ValueError(f"passes: {len(passes)} specs cover {need} axes; the order has "
                         f"{len(order)}")
    i = 0
    for p in passes:
        k = _width(p)
        if k > 1 and list(order[i:i + k]) != list(range(order[i], order[i] + k)):
            raise ValueError("passes: a block or product pass takes adjacent axes, outer first")
        i += k
