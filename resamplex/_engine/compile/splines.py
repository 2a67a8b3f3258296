"""Spline plans: B-spline prefilter passes and a tensor-product evaluation, run as one program.

A front door that follows SciPy's ``ndimage`` (``compat.scipy``) builds one ``SplineTable`` per
axis (which input elements each output reads, with which float64 weights, and which outputs or
taps read ``cval``) and says whether the input is prefiltered; ``SplinePlan`` compiles that,
once per memory layout, into an executor ``Program`` (``_exec.pyx``):

- one ``OP_SPLINE`` pass per axis (``_spline.pyx spline_run``): the recursive B-spline filter
  along that axis, the first from the input into a float64 scratch array, the others in place;
- one ``OP_TENSOR`` pass (``_spline.pyx tensor_run``): every output as SciPy's ``NI_ZoomShift``
  computes it, from the scratch array (or the input, unfiltered) into the output.

The same passes with no evaluation are ``spline_filter`` (``filter_program``). The thread
policy is the executor's (``threads_for``), for the whole program.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Sequence

import numpy as np

from ..._checks import check_allocation
from .. import _exec
from ..kernels import _spline
from .._exec import Program, threads_for
from ..memory import coalesce_all

OP_SPLINE, OP_TENSOR = _exec.OPS["spline"], _exec.OPS["tensor"]
TENSOR_ROWS2 = _exec.LOOPS["tensor_rows2"]
ELEMS: dict[str, int] = _spline.ELEMS
STORES: dict[str, int] = _spline.STORES
INITS: dict[str, int] = _spline.INITS
CVAL_TAP: int = _spline.CVAL_TAP

#: The poles of the B-spline prefilter of each order (``ni_splines.c get_filter_poles``).
POLES: dict[int, tuple[float, ...]] = {
    2: (-0.171572875253809902396622551580603843,),
    3: (-0.267949192431122706472553658494127633,),
    4: (-0.361341225900220177092212841325675255, -0.013725429297339121360331226939128204),
    5: (-0.430575347099973791851434783493520110, -0.043096288203264653822712376822550182),
}


def elem_code(dtype: np.dtype) -> int:
    """The kernels' element code of a native numeric dtype (``ELEMS``)."""
    return ELEMS[dtype.name]


@dataclasses.dataclass(frozen=True)
class SplineTable:
    """The taps of one axis: output ``o`` reads input ``idx[o, t]`` (``-1``: ``cval``) with
    weight ``w[o, t]`` for ``t < k``; ``outside[o]``: the whole output is ``cval``."""

    n_in: int
    n_out: int
    idx: np.ndarray       # (n_out, k) int64
    w: np.ndarray         # (n_out, k) float64
    outside: np.ndarray   # (n_out,) bool

    @property
    def nbytes(self) -> int:
        return self.idx.nbytes + self.w.nbytes + self.outside.nbytes


def _spline_passes(shape: Sequence[int], xs: Sequence[int], src_kind: int, order: int,
                   init: str, dst: int, dst_strides: Sequence[int], dst_kind: int,
                   store: str, axes: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """One OP_SPLINE pass per axis of ``shape`` (or of ``axes``, in order), the first reading
    the program's input, the rest reading what the one before wrote (``dst``, in place)."""
    poles = POLES[order]
    passes = []
    src, src_strides, kind = -1, list(xs), src_kind
    for axis in range(len(shape)) if axes is None else axes:
        # the other axes merged where they are contiguous in both arrays (an image's columns
        # and channels: one row of lines, SPLINE_LANES of them side by side)
        lines, (ss, ds), a = coalesce_all(shape, [src_strides, list(dst_strides)], axis)
        units, buf_len = _spline.spline_units(tuple(lines), a)
        passes.append(dict(
            op=OP_SPLINE, src=src, dst=dst, shape=lines, sstr=ss, dstr=ds, axis=a,
            src_kind=kind, dst_kind=dst_kind, rounding=STORES[store], k=len(poles),
            pw=list(poles), shift=INITS[init], buf_len=buf_len, units=units))
        src, src_strides, kind = dst, list(dst_strides), dst_kind
    return passes


def _spline_work(shape: Sequence[int], order: int) -> float:
    return float(math.prod(shape)) * len(shape) * 4.0 * len(POLES[order])


def filter_program(shape: Sequence[int], xs: Sequence[int], src_kind: int,
                   os_: Sequence[int], dst_kind: int, order: int, init: str,
                   axes: Sequence[int]) -> Program:
    """``spline_filter`` / ``spline_filter1d``: the prefilter along ``axes`` (in order) from
    the input into the output, each pass storing the output's type by a C cast."""
    passes = _spline_passes(shape, xs, src_kind, order, init, -2, os_, dst_kind, "cast",
                            [a for a in range(len(shape)) if a in axes])
    return Program(passes, [], _spline_work(shape, order))


@dataclasses.dataclass(frozen=True)
class Tiles:
    """The last axis of an evaluation cut into tiles of outputs (``data``: the tile count,
    the tiles' first outputs and an end, the offsets of their distinct inputs and an end,
    then those inputs), each output's taps as positions among its tile's distinct inputs
    (``local``: the count for a tap reading cval) and their weights (``w``), tap-major within
    a tile (``[k * j0 + q * tn + j]``); ``most``: the largest count of distinct inputs."""

    data: np.ndarray
    local: np.ndarray
    w: np.ndarray
    most: int


def _byte_taps(t: SplineTable, stride: int) -> np.ndarray:
    """An axis's taps as byte offsets ``stride`` apart, ``CVAL_TAP`` where a tap reads cval
    (``[output, tap]``)."""
    return np.where(t.idx < 0, CVAL_TAP, t.idx * stride).astype(np.int64)


def _fold_order(lengths: Sequence[int], strides: Sequence[int],
                most: int = 1 << 16) -> tuple[list[int], int] | None:
    """The axes (of ``lengths``, byte ``strides``) in an order whose row-major walk is one
    stride (returned with it), if there is one: by stride, each axis's stride the next
    one's times the next one's length, none negative or zero (axes of length 1 anywhere).
    None where there is none or the walk is longer than ``most``."""
    if math.prod(lengths) > most:
        return None
    long = sorted((a for a, n in enumerate(lengths) if n > 1), key=lambda a: -strides[a])
    if any(strides[a] <= 0 for a in long) or any(
            strides[a] != strides[b] * lengths[b] for a, b in zip(long, long[1:])):
        return None
    order = long + [a for a, n in enumerate(lengths) if n == 1]
    return order, (strides[long[-1]] if long else strides[-1])


#: The bytes a window of ``row_windows`` may span (two AVX-512 registers).
WINDOW_BYTES = 128
#: int64 entries per block of ``row_windows``: the base, the count, 2 * 8 int32 positions.
WINDOW_ENTRIES = 10


def row_windows(g: np.ndarray, size: int, end: int) -> np.ndarray:
    """The windows of a ``TENSOR_ROWS2`` row for the float kernels: for each block of eight
    outputs of ``g`` (``(n, 2)`` byte offsets of their two taps, or ``CVAL_TAP``), the
    lowest offset ``base``, the ``count`` of ``size``-byte elements from it to the highest
    one, and each tap's position among them (int32, tap-major: ``[t * 8 + lane]``, two per
    int64, little-endian), ``WINDOW_ENTRIES`` int64 per block. A kernel then loads the
    window of ``WINDOW_BYTES`` from ``base`` of each row and picks the taps by a permutation
    instead of gathering them. ``count`` is negated where the whole window lies before
    ``end`` (a byte offset every row has an element just before: a load there stays inside
    the source array); else only the ``count`` elements may be read (masked). ``base`` is -1
    (gather) where a tap is ``CVAL_TAP``, the taps span ``WINDOW_BYTES`` or more or an offset
    is not a whole number of elements from ``base``; the last ``len(g) % 8`` outputs have
    no block."""
    nb = len(g) // 8
    blocks = g[:nb * 8].reshape(nb, 8, 2)
    cval = (blocks == CVAL_TAP).any(axis=(1, 2))
    blocks = np.where(cval[:, None, None], 0, blocks)
    base = blocks.min(axis=(1, 2))
    rel = blocks - base[:, None, None]
    top = rel.max(axis=(1, 2))
    ok = ~cval & (top < WINDOW_BYTES) & (rel % size == 0).all(axis=(1, 2))
    table = np.zeros((nb, WINDOW_ENTRIES), np.int64)
    table[:, 0] = np.where(ok, base, -1)
    span = top // size + 1
    table[:, 1] = np.where(ok, np.where(base + WINDOW_BYTES > end, span, -span), 0)
    pos = np.where(ok[:, None, None], rel // size, 0).astype("<i4")
    table[:, 2:] = np.ascontiguousarray(pos.transpose(0, 2, 1)).reshape(nb, 16).view("<i8")
    return table.reshape(-1)


def last_axis_tiles(t: SplineTable, combos: int) -> Tiles:
    """Tiles of ``t``'s outputs small enough that the products of a tile (8 lanes per
    combination of the outer axes' taps and distinct input) stay about 8 MiB at most,
    whatever the length of the axis or where its modes fold the taps."""
    n, k = t.n_out, t.idx.shape[1]
    size = int(max(8, min(512, (1 << 17) // max(combos * k, 1))))
    starts = list(range(0, n, size)) + [n]
    local = np.empty(n * k, np.int64)
    w = np.empty(n * k, np.float64)
    inputs, counts = [], [0]
    for j0, j1 in zip(starts[:-1], starts[1:]):
        taps = t.idx[j0:j1]
        distinct = np.unique(taps[taps >= 0])
        pos = np.searchsorted(distinct, taps)
        pos[taps < 0] = len(distinct)
        local[k * j0:k * j1] = pos.T.reshape(-1)
        w[k * j0:k * j1] = t.w[j0:j1].T.reshape(-1)
        inputs.append(distinct)
        counts.append(counts[-1] + len(distinct))
    head = np.array([len(starts) - 1] + starts + counts, dtype=np.int64)
    data = np.concatenate([head] + [a.astype(np.int64) for a in inputs])
    most = int(np.max(np.diff(counts))) if n else 0
    return Tiles(data, local, w, most)


class SplinePlan:
    """Spline evaluation of one input shape: the tables of every axis, ``cval``, and whether
    the input is prefiltered (``order``, ``init``: the prefilter's poles and initial
    conditions; ``order < 2`` or ``prefilter=False``: not). Programs are compiled per layout
    (input dtype and strides, output dtype and strides) and kept.

    ``lead``: the number of leading axes read at their first tap only. Each of their outputs
    must sit on an input element (that tap's weight 1.0, the others 0.0, nothing outside);
    the products of the other taps are then +-0, or NaN where they read an infinite or NaN
    element or ``cval``: the caller checks that dropping them changes nothing.

    ``clip``: each call then takes ``clip=(lo, hi)`` (values of the output's float type,
    not NaN) and clips each output row to them as it stores it, as ``np.clip(out, lo, hi,
    out=out)`` after the evaluation would (while the row is in cache): a value below ``lo``
    is ``lo``, then one above ``hi`` is ``hi``, NaN stays, a tie keeps the value: NumPy
    2.2's rule (before it, a tie went to the bound, which differs in a zero's sign only).
    Float outputs only."""

    def __init__(self, in_shape: Sequence[int], tables: Sequence[SplineTable], *, order: int,
                 cval: float, prefilter: bool, init: str, op: str = "scipy.zoom",
                 lead: int = 0, clip: bool = False):
        self.in_shape = tuple(int(n) for n in in_shape)
        self.clip = bool(clip)
        self.tables = list(tables)
        if not 0 <= lead < max(len(self.tables), 1) or any(
                t.outside.any() or not (np.all(t.w[:, 0] == 1.0) and np.all(t.w[:, 1:] == 0.0))
                for t in self.tables[:lead]):
            raise ValueError(f"lead={lead}: a leading axis read at one tap must sit on the "
                             f"input elements, and the last axis cannot be one")
        self.lead = int(lead)
        self.out_shape = tuple(t.n_out for t in self.tables)
        self.order = int(order)
        if not 0 <= self.order <= 5:   # the kernels hold at most six taps per axis
            raise ValueError(f"order={order}: spline orders are 0 to 5")
        self.k = self.order + 1
        self.cval = float(cval)
        self.prefilter = bool(prefilter) and self.order > 1
        self.init = init
        self.op = op
        self._programs: dict[tuple[Any, ...], Program] = {}
        self.nbytes = sum(t.nbytes for t in self.tables)
        self.held_by: Any = None
        self.owner: Any = None

    def _grew(self, delta: int) -> None:
        self.nbytes += delta
        if self.held_by is not None:
            self.held_by.grew(delta)

    def compile(self, x: np.ndarray, out: np.ndarray) -> Program:
        shape = self.in_shape
        k = self.k
        if self.clip and out.dtype.kind != "f":
            raise ValueError(f"clip: float outputs only, not {out.dtype}")
        src, src_strides, src_kind = -1, list(x.strides), elem_code(x.dtype)
        passes: list[dict[str, Any]] = []
        scratch: list[int] = []
        work = 0.0
        if self.prefilter:
            nbytes = math.prod(shape) * 8
            check_allocation(nbytes, "scratch")
            scratch.append(nbytes)
            strides = [8 * math.prod(shape[a + 1:]) for a in range(len(shape))]
            passes += _spline_passes(shape, src_strides, src_kind, self.order, self.init, 0,
                                     strides, ELEMS["float64"], "cast")
            work += _spline_work(shape, self.order)
            src, src_strides, src_kind = 0, strides, ELEMS["float64"]
        if k == 2 and len(shape) >= 2 and self.lead == len(shape) - 2:
            passes.append(self._rows2_pass(src, src_strides, src_kind, list(out.strides),
                                           elem_code(out.dtype)))
        else:
            passes.append(self._tensor_pass(src, src_strides, src_kind, list(out.strides),
                                            elem_code(out.dtype)))
        if self.clip:                   # the bounds come with each call (pw[1], pw[2])
            passes[-1].update(rounding=STORES["clip"], pw_call=(1, 2))
        work += float(math.prod(self.out_shape)) * k ** (len(shape) - self.lead)
        return Program(passes, scratch, work)

    def _tensor_pass(self, src: int, sstr: list[int], src_kind: int, dstr: list[int],
                     dst_kind: int) -> dict[str, Any]:
        """The general evaluation: groups of rows, the last axis in tiles."""
        k = self.k
        off, w, flags, ptr = [], [], [], [0]
        last = len(self.tables) - 1
        tiles = None
        for a, t in enumerate(self.tables):
            if a == last and k == 1:    # element indices (n_in: cval, tap or output)
                cval_at = (t.idx[:, 0] < 0) | t.outside
                off.append(np.where(cval_at, t.n_in, t.idx[:, 0]).astype(np.int64))
                w.append(t.w.reshape(-1))
            elif a == last:             # per tile: positions among its distinct inputs
                tiles = last_axis_tiles(t, k ** (last - self.lead))
                off.append(tiles.local)
                w.append(tiles.w)
            else:                       # byte offsets (CVAL_TAP: cval), output-major
                off.append(_byte_taps(t, sstr[a]).reshape(-1))
                w.append(t.w.reshape(-1))
            flags.append(t.outside.astype(np.int64))
            ptr.append(ptr[-1] + t.n_out * k)
        if tiles is not None:
            off.append(tiles.data)
        size = {ELEMS["float32"]: 4, ELEMS["float64"]: 8}.get(src_kind)
        if k == 1 and size is not None and sstr[last] == size:
            # the order-0 float rows' windows (rx_zoom0_row); blocks with a cval output are
            # gathered
            at = off[last]
            n_in = self.tables[last].n_in
            g = np.where(at == n_in, CVAL_TAP, at * size)
            end = int(at[at < n_in].max()) * size + size if (at < n_in).any() else 0
            off.append(row_windows(np.stack([g, g], axis=1), size, end))
        n_last = self.out_shape[-1]
        n_in_last = self.tables[last].n_in if tiles is None else tiles.most
        return dict(
            op=OP_TENSOR, src=src, dst=-2, shape=list(self.out_shape), sstr=sstr, dstr=dstr,
            src_kind=src_kind, dst_kind=dst_kind, rounding=STORES["interp"], k=k, ptr=ptr,
            off=np.concatenate(off), w=np.concatenate(w), idx2=np.concatenate(flags),
            pw=[self.cval], n_in=n_in_last, lead=self.lead,
            # the products of the taps of the axes after the leading ones only
            buf_len=_spline.tensor_scratch(len(self.tables) - self.lead, k, n_last, n_in_last),
            units=_spline.tensor_units(self.out_shape))

    def _rows2_pass(self, src: int, sstr: list[int], src_kind: int, dstr: list[int],
                    dst_kind: int) -> dict[str, Any]:
        """The evaluation at order 1 where only the last two axes are weighted (the leading
        ones read at their one tap of weight 1.0): every output row from two input rows
        (``TENSOR_ROWS2``). The last axis's entries are byte offsets into those rows
        (``CVAL_TAP``: cval) and weights, tap-major (``[q * n + j]``), and its outputs that
        are cval as a list of positions (``n_in`` of them; the other axes have a flag per
        output); ``[lo, hi)``: the outputs whose taps all read the input. Where the output's
        strides allow, the leading axes fold into the last (an image's channels into its
        rows: one row of pixels, each input row read once for all of them, the output row
        contiguous)."""
        mid = len(self.tables) - 2
        t = self.tables[-1]
        g = _byte_taps(t, sstr[-1])
        b, flag = t.w, t.outside
        shape, tables = list(self.out_shape), self.tables[:mid + 1]
        lead = self.lead
        fold = _fold_order(shape[:mid] + shape[-1:], dstr[:mid] + dstr[-1:])
        if lead and fold is not None:
            order, step = fold
            lengths = shape[:mid] + shape[-1:]
            walk = np.indices([lengths[a] for a in order]).reshape(len(order), -1)
            grid = np.empty_like(walk)
            grid[order] = walk              # each output's index on every folded axis
            base = sum((tb.idx[grid[a], 0] * sstr[a] for a, tb in enumerate(tables[:mid])),
                       np.zeros(grid.shape[1], np.int64))
            j = grid[mid]
            g = np.where(g[j] == CVAL_TAP, CVAL_TAP, base[:, None] + g[j])
            b, flag = b[j], flag[j]
            shape = [shape[mid], len(j)]
            sstr, dstr = [sstr[mid], 0], [dstr[mid], step]
            tables, lead = tables[mid:], 0
        off, w, flags, ptr = [], [], [], [0]
        for a, tb in enumerate(tables):     # byte offsets (CVAL_TAP: cval), output-major
            off.append(_byte_taps(tb, sstr[a]).reshape(-1))
            w.append(tb.w.reshape(-1))
            flags.append(tb.outside.astype(np.int64))
            ptr.append(ptr[-1] + tb.n_out * 2)
        off.append(g.T.reshape(-1))
        w.append(np.ascontiguousarray(b.T).reshape(-1))
        flags.append(np.flatnonzero(flag).astype(np.int64))     # the outputs that are cval
        ptr.append(ptr[-1] + len(flag) * 2)
        inside = np.flatnonzero((g != CVAL_TAP).all(axis=1))
        lo, hi = (int(inside[0]), int(inside[-1]) + 1) if inside.size else (0, 0)
        if inside.size != hi - lo:      # a cval tap between: the whole row one at a time
            lo = hi = 0
        size = {ELEMS["float32"]: 4, ELEMS["float64"]: 8}.get(src_kind)
        if size is not None:            # the float kernels' windows
            end = int(g[lo:hi].max()) + size if hi > lo else 0
            off.append(row_windows(g[lo:hi], size, end))
        return dict(
            op=OP_TENSOR, loop=TENSOR_ROWS2, src=src, dst=-2, shape=shape, sstr=sstr,
            dstr=dstr, src_kind=src_kind, dst_kind=dst_kind, rounding=STORES["interp"], k=2,
            ptr=ptr, off=np.concatenate(off), w=np.concatenate(w),
            idx2=np.concatenate(flags), pw=[self.cval], n_in=len(flags[-1]), lead=lead,
            lo=lo, hi=hi,
            buf_len=_spline.tensor_scratch(2, 2, shape[-1], 0),    # LANES rows of the last axis
            units=_spline.tensor_units(tuple(shape)))

    def __call__(self, x: np.ndarray, out: np.ndarray, threads: int | None,
                 clip: tuple[Any, Any] | None = None) -> np.ndarray:
        """Evaluate into ``out`` (native, aligned, not overlapping ``x``: the facade's);
        ``clip``: the bounds, for a plan made with ``clip=True`` (and only for one)."""
        if (clip is None) == self.clip:
            raise ValueError("clip: bounds for a plan made with clip=True, and only for one")
        if out.size == 0 or x.size == 0:
            return out
        key = (x.dtype, x.strides, out.dtype, out.strides)
        program = self._programs.get(key)
        if program is None:
            program = self.compile(x, out)
            if len(self._programs) >= 16:
                old = self._programs.pop(next(iter(self._programs)))
                self._grew(-old.nbytes)
            self._programs[key] = program
            self._grew(program.nbytes)
        program.run(x, out, threads_for(threads, program.work),
                    pw=None if clip is None else (float(clip[0]), float(clip[1])))
        return out


def run_filter(x: np.ndarray, out: np.ndarray, order: int, init: str, axes: Sequence[int],
               threads: int | None) -> np.ndarray:
    """Prefilter ``x`` along ``axes`` into ``out`` (a one-off program: nothing to cache)."""
    if out.size == 0:
        return out
    program = filter_program(x.shape, x.strides, elem_code(x.dtype), out.strides,
                             elem_code(out.dtype), order, init, axes)
    program.run(x, out, threads_for(threads, program.work))
    return out
