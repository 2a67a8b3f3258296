"""Plans: the axis tables of one input shape, compiled per memory layout into native programs.

``Plan`` is the one executor every facade shares: axis tables in, results out. A facade
(core, ``dml``, ``ascend``, ``compat``, ``dask``) validates its own parameters, builds tables
and gets its ``Plan`` from the one plan cache (``PLANS``); the plan validates the array and
``out``, and runs. The first time a plan meets a memory layout (dtype, strides, rounding) it
compiles a ``Program`` for it (``_exec.pyx``): every pass with its kernel arguments, loop
shape, tables in the compute type, and the sizes of its scratch. Every later call with that
layout is one dictionary lookup and one native call, with the GIL released.

The plan holds no convention of its own: pass order, loop shapes and layouts are the engine's.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import threading
from collections import OrderedDict
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .. import _dtypes
from .._checks import as_array, check_allocation, check_out, check_threads
from .._errors import ResamplexError, UnsupportedError
from .._tables import AxisSpec, AxisTable
from . import _exec, _pipeline
from ._tablegen import csr_to_dense as _tablegen_csr_to_dense
from ._exec import Program, threads_for

# The codes of the kernel contract (_pass.pxd), as the kernels define them.
OP_GATHER, OP_WEIGHTED, OP_FUSED, OP_FIXED, OP_STORE = (
    _exec.OPS[k] for k in ("gather", "weighted", "fused", "fixed", "store"))
C_DOUBLE, C_FLOAT = _exec.COMPUTES["float64"], _exec.COMPUTES["float32"]
PHASE_NONE, PHASE_UP2, PHASE_DOWN2, PHASE_DOWN32 = (
    _exec.PHASES[k] for k in ("none", "up2", "down2", "down32"))
SHAPE_LAST, SHAPE_MID, SHAPE_OUTER, SHAPE_LAST_CSR = (_exec.LOOPS[k] for k in
                                                      ("last", "mid", "outer", "last_csr"))
BLOCK, MAX_ROW, MAX_MERGED_CHANNELS, WIDE_TAPS = (
    _exec.LIMITS[k] for k in ("block", "max_row", "max_channels", "wide_taps"))
# Programs kept per plan (one per memory layout met; a layout is dtype, strides, rounding).
MAX_PROGRAMS = 16
# Per-channel affines of at most this many elements (a and b together) are remembered once
# expanded over a merged pixel row, keyed by their bytes (Plan._mergeable_affine).
_AFFINE_MEMO_ELEMENTS = 256
# A fused pass blends only the pixels its innermost taps read where those taps read at most
# 1 / GATHERED_READS of a row's elements (n k <= n_mid / GATHERED_READS; _gathered_fields).
GATHERED_READS = 2
# uint8 pixel pairs of 2-4 channels computed in registers (gpair) pay off further: where the
# taps read up to PAIR_READS times a row's elements (n k <= PAIR_READS n_mid: any reduction
# by a two-tap table). Single-byte pixels gain nothing from it there.
PAIR_READS = 2
_BYTES_LOCK = threading.RLock()


# ------------------------------------------------------------------------------ layouts

def layout_perm(shape: Sequence[int], strides: Sequence[int]) -> list[int]:
    """Axes from outermost to innermost memory order (largest |stride| first).

    Axes of length <= 1 and broadcast (zero-stride) axes count as outermost; ties keep axis
    order, so a C-contiguous array gives the identity.
    """
    def key(a: int) -> tuple[int, int]:
        s = abs(strides[a])
        return (0, 0) if shape[a] <= 1 or s == 0 else (1, -s)

    return sorted(range(len(shape)), key=lambda a: (key(a), a))


def _clamped_borders(idx: np.ndarray, bq: np.ndarray, n: int, lo: int, hi: int,
                     pd: Sequence[int], pq: Sequence[int]) -> bool:
    """Whether every output outside the run ``[2 lo, 2 hi)`` of a x2 phase pass of
    single-element pixels weighs the input elements (integer weights ``bq`` on the dense
    taps ``idx``; ``n`` is the padding) as the run's formula does with its taps clamped to
    ``[0, n)``: output ``2i + r`` = ``pq[2r] x[clamp(i + pd[2r])] + pq[2r + 1]
    x[clamp(i + pd[2r + 1])]``. Then the kernel computes them so, without the table."""
    for j in [*range(2 * lo), *range(2 * hi, idx.shape[0])]:
        i, r = divmod(j, 2)
        want: dict[int, int] = {}
        for t in (2 * r, 2 * r + 1):
            e = min(max(i + pd[t], 0), n - 1)
            want[e] = want.get(e, 0) + int(pq[t])
        got: dict[int, int] = {}
        for e, q in zip(idx[j].tolist(), bq[j].tolist()):
            if e < n:
                got[e] = got.get(e, 0) + q
        if {e: q for e, q in want.items() if q} != {e: q for e, q in got.items() if q}:
            return False
    return True


def _merged_view(strides: Sequence[int], w_ax: int, c_ax: int, c: int) -> list[int]:
    """Byte strides of an array viewed with axes ``w_ax`` and ``c_ax`` (``c`` long, contiguous
    inside ``w_ax``) as one axis (``Plan._merged_inner``)."""
    return [strides[a] // (c if a == w_ax else 1) for a in range(len(strides)) if a != c_ax]


def layout_strides(shape: Sequence[int], itemsize: int, perm: Sequence[int]) -> list[int]:
    """Byte strides of a contiguous array of ``shape`` whose memory order is ``perm``."""
    strides = [0] * len(shape)
    step = itemsize
    for a in reversed(perm):
        strides[a] = step
        step *= max(int(shape[a]), 1)
    return strides


#: A fresh result's layout, kept with a compiled program: its shape in memory order and the
#: transposition that gives the output's axis order (None: none needed).
FreshLayout = tuple[tuple[int, ...], "tuple[int, ...] | None"]


def fresh_layout(out_shape: Sequence[int], x: np.ndarray) -> FreshLayout:
    """The layout of a result laid out like ``x`` (``layout_perm``), for ``empty_fresh``."""
    perm = layout_perm(x.shape, x.strides)
    return (tuple(int(out_shape[a]) for a in perm),
            None if perm == sorted(perm) else tuple(np.argsort(perm).tolist()))


#: Results of at least two of these start on a multiple of it: a huge page of x86-64 Linux.
HUGE_PAGE = 2 << 20

#: glibc's ceiling for its adaptive mmap threshold (64-bit): once a block this size or smaller
#: has been freed, malloc serves blocks up to its size from the heap, where a loop making one
#: result per call gets the same, already faulted-in memory back.
MMAP_CEILING = 32 << 20


def new_array(shape: Sequence[int], dtype: Any) -> np.ndarray:
    """``np.empty(shape, dtype)``, C-contiguous; from ``2 HUGE_PAGE`` bytes on, its data
    starts on a multiple of ``HUGE_PAGE`` (a view into a block one huge page longer).

    NumPy asks the kernel for huge pages for large arrays, but the block malloc returns
    starts 16 bytes past a page, so the huge page at each end of the array does not fit in
    it and is faulted in 4 KiB at a time: 512 more faults for every fresh result, 0.7 ms of
    the 2.1 ms a fresh 32 MiB array costs to fill on the project's VM (17 faults aligned).
    The pages of the block outside the array are never touched (no memory is spent on them).
    Not where the huge page more would take the block past ``MMAP_CEILING`` and the array
    alone is not: the array's own block is then recycled by malloc from call to call, and the
    longer one would be new memory every time (uint8 2160x3840x4, 31.6 MiB, filled fresh:
    1.97 ms aligned, 1.19 ms plain)."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(int(n) for n in shape) * dtype.itemsize
    if nbytes < 2 * HUGE_PAGE or dtype.hasobject or nbytes <= MMAP_CEILING < nbytes + HUGE_PAGE:
        return np.empty(shape, dtype)
    block = np.empty(nbytes + HUGE_PAGE, np.uint8)
    start = -block.ctypes.data % HUGE_PAGE
    return block[start:start + nbytes].view(dtype).reshape(shape)


def _split_axis(v: np.ndarray, a: int, count: int, length: int, step: int) -> np.ndarray:
    """``v`` with axis ``a`` as two: ``count`` windows of ``length`` elements, window ``j``
    from element ``j step`` (they overlap where ``step < length``), a view."""
    s = v.strides[a]
    return np.lib.stride_tricks.as_strided(
        v, v.shape[:a] + (count, length) + v.shape[a + 1:],
        v.strides[:a] + (step * s, s) + v.strides[a + 1:], writeable=v.flags.writeable)


def empty_fresh(layout: FreshLayout, dtype: Any) -> np.ndarray:
    """``new_array`` of a ``fresh_layout``, in the output's axis order."""
    shape, inverse = layout
    result = new_array(shape, dtype)
    return result if inverse is None else result.transpose(inverse)


def empty_like_layout(shape: Sequence[int], dtype: Any, perm: Sequence[int]) -> np.ndarray:
    """``new_array(shape)`` whose memory order is ``perm`` (outermost first)."""
    base = new_array([shape[a] for a in perm], dtype)
    return base.transpose(np.argsort(perm))


def coalesce(shape: list[int], sstr: list[int], dstr: list[int],
             axis: int) -> tuple[list[int], list[int], list[int], int]:
    """Merge neighbouring axes (other than ``axis``) that are contiguous in both arrays."""
    out_shape, (out_s, out_d), new_axis = coalesce_all(shape, [sstr, dstr], axis)
    return out_shape, out_s, out_d, new_axis


def coalesce_all(shape: Sequence[int], strides: Sequence[Sequence[int]],
                 axis: int = -1) -> tuple[list[int], list[list[int]], int]:
    """``coalesce`` for any number of arrays (byte strides of each, same axis order): merge
    neighbouring axes other than ``axis`` (-1: none kept apart) that are contiguous in all."""
    out_shape = [shape[0]]
    outs = [[s[0]] for s in strides]
    new_axis = 0 if axis == 0 else -1
    for i in range(1, len(shape)):
        prev_is_axis = (len(out_shape) - 1) == new_axis
        if (i != axis and not prev_is_axis
                and all(o[-1] == s[i] * shape[i] for o, s in zip(outs, strides))):
            out_shape[-1] *= shape[i]
            for o, s in zip(outs, strides):
                o[-1] = s[i]
            continue
        out_shape.append(shape[i])
        for o, s in zip(outs, strides):
            o.append(s[i])
        if i == axis:
            new_axis = len(out_shape) - 1
    return out_shape, outs, new_axis


def affine_strides(a: np.ndarray, shape: Sequence[int]) -> list[int]:
    """Byte strides of an affine array (``_checks.affine_arrays``: contiguous, the output's
    rank) along each output axis: 0 where it broadcasts."""
    return [int(st) if n > 1 and m > 1 else 0 for st, n, m in zip(a.strides, a.shape, shape)]


def _aligned_table(t: AxisTable) -> AxisTable:
    """``t`` with aligned, contiguous arrays. The kernels read them through typed pointers, and
    arrays unpickled from out-of-band buffers (dask.distributed frames) can be misaligned,
    which is undefined behaviour there (UBSan: "load of misaligned address")."""
    if all(f.aligned and f.c_contiguous for f in (t.ptr.flags, t.idx.flags, t.w.flags)):
        return t
    ptr, idx, w = (np.require(a, None, ["A", "C"]) for a in (t.ptr, t.idx, t.w))
    return dataclasses.replace(t, ptr=ptr, idx=idx, w=w)


def _table_bytes(t: AxisTable | None) -> int:
    return 0 if t is None else t.ptr.nbytes + t.idx.nbytes + t.w.nbytes


def _dyadic(w: np.ndarray, ptr: np.ndarray,
            limit: int) -> tuple[np.ndarray, int, int] | None:
    """``(q, m, top)``: ``q = float32(w) * 2^m`` as integers (int32), for the smallest
    ``m <= 9`` that makes every one an integer, and ``top``, the largest sum of ``|q|`` over a
    row ``[ptr[o], ptr[o+1])``, if it is at most ``limit``; else None."""
    wf = np.asarray(w, np.float32).astype(np.float64).reshape(-1)
    for m in range(10):
        q = wf * float(1 << m)
        if not np.array_equal(q, np.floor(q)):
            continue
        sums = np.concatenate(([0.0], np.cumsum(np.abs(q))))
        top = int(np.max(sums[ptr[1:]] - sums[ptr[:-1]])) if ptr.size > 1 else 0
        return (q.astype(np.int32), m, top) if top <= limit else None
    return None


#: Outputs per tile in the runs of a periodic long axis (``TiledAxis.runs``), about: tables
#: this small are cheap to keep, and a run of them is one call.
RUN_TILE = 2048

#: Outputs per tile of a long axis without a period run natively (``Plan._native_tiles``),
#: at most, and taps: a tile's table stays in a core's cache from its build to its pass.
NATIVE_TILE = 8192
NATIVE_TAPS = 1 << 16


class TiledAxis:
    """A long axis whose table is built one range of outputs at a time, as a plan runs.

    ``spec`` (the axis's ``AxisSpec``) builds any range: :meth:`table` the ``AxisTable`` of
    outputs ``[o0, o1)`` (``ptr`` from 0, ``n_out = o1 - o0``, indices into the whole input
    axis), :meth:`window` a tile in place; ``tile`` outputs at a time keep each piece small.
    ``mean_taps`` (the spec's bound on taps) guides the pass order like a table's.
    """

    def __init__(self, spec: AxisSpec, tile: int):
        self.spec = spec
        self.n_in = spec.n_in
        self.n_out = spec.n_out
        self.tile = max(1, int(tile))
        self.mean_taps = float(spec.taps_bound)
        self.is_identity = False
        #: ``AxisSpec.period`` of an axis whose rows repeat: ``(P, Q, whole)``; else None.
        self.period = spec.period

    def runs(self) -> list[tuple[int, int, int, int, AxisTable]] | None:
        """A periodic axis as runs of equal tiles, built once to be kept, in order:
        ``(o0, count, lo, step, table)`` is ``count`` tiles of ``table.n_out`` outputs from
        ``o0``, tile ``j`` reading the input window ``[lo + j step, lo + j step +
        table.n_in)`` (indices from its start, as :meth:`window` gives them).

        A run's tiles are one table moved by whole periods (``AxisSpec.period``): tiles of
        about ``RUN_TILE`` outputs (a multiple of ``P``) whose windows, ``taps_bound + 2``
        wider on each side, lie inside the input and, where the rows repeat only within a
        binade of the coordinates, inside one binade ``[2^k, 2^(k+1))``; its table is the
        one of a tile built in the middle of that region. The outputs between runs (the
        ends, the binades' edges, binades too short for a tile) are runs of one tile, at
        most ``tile`` outputs each. None where the axis has no period, where those would
        hold more than a quarter of the axis, or where all the kept tables would hold more
        than 4 ``tile`` outputs (``TILE_TABLE_BYTES``: what the largest table built whole
        holds)."""
        if self.period is None:
            return None
        p, q, whole = self.period
        n_in, n_out, spec = self.n_in, self.n_out, self.spec
        length = p * -(-RUN_TILE // p)
        if length > self.tile or 4 * length > n_out:
            return None
        step = length // p * q
        margin = spec.taps_bound + 2
        regions = [(0, n_in)] if whole else \
            [(1 << k, min(2 << k, n_in)) for k in range(n_in.bit_length())]
        runs: list[tuple[int, int, int, int, AxisTable]] = []
        for a, b in regions:
            if b - a < 2 * margin + 2 * step:
                continue
            # the tile whose coordinates lie in the region's middle (u ~ o n_in / n_out)
            c = ((a + b) // 2 * n_out // n_in - length // 2) // p * p
            c = min(max(c, 0), (n_out - length) // p * p)
            t, lo = spec.window(c, c + length, spec.window_buffers(length))
            j_min = -((lo - margin - a) // step)
            j_max = (b - margin - lo - t.n_in) // step
            if j_min > 0 or j_max < 0:
                continue  # the middle tile itself is not inside
            first = c + j_min * length
            if runs and first < runs[-1][0] + runs[-1][1] * length:
                return None  # not in order (never expected: the coordinates increase)
            runs.append((first, j_max - j_min + 1, lo + j_min * step, step, t))
        if not runs:
            return None
        # the outputs between runs, in tiles of their own
        gaps, end = [], 0
        for o0, o1 in [(r[0], r[0] + r[1] * length) for r in runs] + [(n_out, n_out)]:
            gaps += [(g, min(o0, g + self.tile)) for g in range(end, o0, self.tile)]
            end = o1
        between = sum(g1 - g0 for g0, g1 in gaps)
        if 4 * between > n_out or between + len(runs) * length > 4 * self.tile:
            return None
        for g0, g1 in gaps:
            t, lo = spec.window(g0, g1, spec.window_buffers(g1 - g0))
            runs.append((g0, 1, lo, 0, t))
        runs.sort(key=lambda r: r[0])
        # they are strided views of the input when they run: each must lie inside it
        end = 0
        for o0, count, lo, step, t in runs:
            if o0 != end or lo < 0 or lo + (count - 1) * step + t.n_in > n_in:
                raise AssertionError(f"resamplex: tiles of {spec!r} out of place")
            end = o0 + count * t.n_out
        if end != n_out:
            raise AssertionError(f"resamplex: tiles of {spec!r} do not cover the outputs")
        return runs

    def table(self, o0: int, o1: int) -> AxisTable:
        return self.spec.table(o0, o1)

    def buffers(self) -> tuple[np.ndarray, ...]:
        """What :meth:`window` fills, tile after tile."""
        return self.spec.window_buffers(self.tile)

    def window(self, o0: int, o1: int,
               buffers: tuple[np.ndarray, ...]) -> tuple[AxisTable, int]:
        """``(table, lo)``: outputs ``[o0, o1)`` (at most ``tile``) over the input window
        ``[lo, lo + table.n_in)`` they read, indices from ``lo``: the table and its dense
        form built in one native sweep into ``buffers``, which tiles reuse (fresh arrays each
        tile cost a page fault per 4 KiB, and a pass of their own)."""
        return self.spec.window(o0, o1, buffers)


# ------------------------------------------------------------------------------ the plan

#: ``Plan.__call__``'s rounding when the caller names none: the plan's own.
_OWN_ROUNDING: Any = object()

#: ``Plan._tile_tables`` before the first call has built them.
_NOT_BUILT: Any = object()


def _fixed_windows(table: AxisTable, contiguous: bool) -> dict[str, Any]:
    """The window form of a fixed-point pass along a contiguous innermost axis, or ``{}``:
    every output's taps lie in ``k`` consecutive samples (``k`` 2 or 4 where they fit, as
    bilinear's and bicubic's do at any ratio, else a multiple of 8, at most 64; the window
    moved left where it would leave the row), with int16 weights, 0 where the output reads
    nothing (taps on one sample add up: the same integer sum). The kernel sums windows of
    2, 4 and 8n bytes eight outputs a vector (``_simd.h`` ``rx_windows_u8``)."""
    counts = np.diff(table.ptr)
    if table.nnz == 0 or counts.min() == 0:
        return {}
    first = np.minimum.reduceat(table.idx, table.ptr[:-1])
    last = np.maximum.reduceat(table.idx, table.ptr[:-1])
    span = int((last - first).max() + 1)
    k = 2 if span <= 2 else 4 if span <= 4 else -(-span // 8) * 8
    if k > 64 or k > table.n_in:
        return {}
    start = np.minimum(first, table.n_in - k)
    rows = np.repeat(np.arange(table.n_out), counts)
    dense = np.zeros((table.n_out, k), np.int64)
    np.add.at(dense, (rows, table.idx - start[rows]), table.w.astype(np.int64))
    if np.abs(dense).max() >= 2**15:
        return {}
    return dict(k=k, idx2=start, wq=dense.astype(np.int16).reshape(-1),
                **(_window_run(start, dense) if contiguous else {}))


def _run_around(ok: np.ndarray, mid: int) -> tuple[int, int] | None:
    """The run ``[lo, hi)`` of true entries of ``ok`` around ``mid``, or None where
    ``ok[mid]`` is false or the run is shorter than 4."""
    bad = np.flatnonzero(~ok)
    if not ok[mid]:
        return None
    lo = int(bad[bad < mid].max()) + 1 if (bad < mid).any() else 0
    hi = int(bad[bad > mid].min()) if (bad > mid).any() else ok.size
    return (lo, hi) if hi - lo >= 4 else None


def _row_cache_len(buf_len: int, n_mid: int) -> int:
    """A thread's scratch for a x0.5 or 3:2 phase pass of k taps on 8-bit data: the rest,
    then its cache of split input rows (``_row_cache`` in ``_taps.pyx.tp``: at a 16-float
    boundary, a 64-float header, then ``RC_SLOTS`` = 8 rows of ``n_mid + 64`` bytes)."""
    return (buf_len + 15) // 16 * 16 + 64 + (8 * (n_mid + 64) + 3) // 4


def _window_run(start: np.ndarray, dense: np.ndarray) -> dict[str, Any]:
    """The x0.5 or x2 run of a fixed-point window table (``start``, ``dense`` weights), or
    ``{}``: outputs whose windows start at ``2 j + s`` with the same weights (x0.5), or at
    ``i + s_r`` for output ``2 i + r`` with the same weights per phase ``r`` (x2), over a
    run around the middle; each phase's weights trimmed to the taps any of them reads
    (an even count, at most 8 at x0.5 and 4 at x2, inside the window)
    (``_fixed._phase_windows``)."""
    n_out, k = dense.shape
    for phases, step, most in ((1, 2, 8), (2, 1, 4)):
        m = n_out // phases
        if m < 8:
            continue
        st = start[:m * phases].reshape(m, phases) - step * np.arange(m)[:, None]
        run = _pipeline._regular_run(st, dense[:m * phases].reshape(m, phases * k))
        if run is None:
            continue
        lo, hi, s, q = run
        w = np.asarray(q).reshape(phases, k)
        cols = np.flatnonzero(np.abs(w).sum(axis=0))
        if not cols.size:
            continue
        c0 = int(cols[0])
        kk = -(-(int(cols[-1]) - c0 + 1) // 2) * 2
        if kk > most or c0 + kk > k:
            continue
        rw = np.zeros(8, np.int64)
        for r in range(phases):
            rw[4 * r:4 * r + kk] = w[r, c0:c0 + kk]
        return dict(phase=PHASE_DOWN2 if phases == 1 else PHASE_UP2, lo=lo, hi=hi,
                    pd=[v + c0 for v in s] + [0] * (4 - phases), rk=kk, rw=list(rw))
    return {}


class Plan:
    """Axis tables for one input shape, and how to apply them.

    ``tables[d]`` is the ``AxisTable`` of axis ``d`` or ``None`` (the axis is copied).
    ``weighted=False`` means every table is a gather (nearest): one byte-copy pass for any dtype.
    ``order`` is the sequence of resampled axes for weighted passes; it is chosen to minimise
    multiply-adds (the innermost axis goes last, to share a sweep with the pass before it) and
    can be given by conventions that prescribe one (``keep_order=True`` then runs exactly it).
    ``fixed=True``: uint8 only, every table carries integer weights and a ``shift``; each pass
    rounds to uint8 in fixed point (``_engine/_fixed.pyx``), in ``order``.
    ``passes``: one exact pass spec per step of ``order`` (``_engine/_pipeline.py``: integer,
    float, split and block passes, each with its own arithmetic and storage type), for front
    doors that reproduce another library bit for bit; the facade has validated the dtype.
    Such a plan runs its passes through ``_pipeline.run`` (docs/engine-passes.md).
    ``plus_zero=True`` (a gather): float32 and float64 elements are stored as ``0.0 + v``,
    SciPy's order 0 (``-0.0`` comes out ``+0.0``, a signalling NaN quiet; compat.scipy).
    """

    def __init__(self, in_shape: Sequence[int],
                 tables: Sequence[AxisTable | TiledAxis | None], *,
                 weighted: bool, op: str = "resize", order: Sequence[int] | None = None,
                 fixed: bool = False, keep_order: bool = False,
                 passes: Sequence[Any] | None = None, rounding: str = "half_even",
                 plus_zero: bool = False):
        self.in_shape = tuple(int(n) for n in in_shape)
        self.plus_zero = plus_zero
        #: The integer rounding of a call that names none (a front door whose original
        #: rounds its exact sums another way than half to even).
        self.rounding = rounding
        keep = fixed or passes is not None  # prescribed arithmetic: identity tables still run
        self.tables: list[Any] = [t if isinstance(t, TiledAxis) else
                       None if t is None or (not keep and t.is_identity) else _aligned_table(t)
                       for t in tables]
        tiled = [a for a, t in enumerate(self.tables) if isinstance(t, TiledAxis)]
        if len(tiled) > 1:
            raise ValueError("resamplex: a plan tiles at most one axis")
        #: The axis whose table is built tile by tile when the plan runs (a long axis), or None.
        self.tiled = tiled[0] if tiled else None
        self.out_shape = tuple(n if t is None else t.n_out for n, t in zip(self.in_shape, tables))
        self.passes = None if passes is None else tuple(passes)
        self.weighted = weighted or fixed or passes is not None
        #: A weighted plan whose every table reads one input with weight 1 (area enlarging
        #: by an integer factor, say) computes ``1 * x``, which is ``x`` in every arithmetic
        #: and rounds to ``x``: it runs as a gather. (A signalling NaN comes out as it went
        #: in instead of quieted; every other value, -0.0 and infinities included, is the
        #: same.) The dtype is still checked as a weighted mode's.
        self.copies = self.tiled is None and all(
            t is None or (weighted and not keep and t.is_gather) for t in self.tables)
        self.fixed = fixed
        self.op = op
        self.order = self._best_order() if order is None else \
            [a for a in order if self.tables[a] is not None]
        self.keep_order = keep_order
        if self.passes is not None:
            if self.tiled is not None:
                raise ValueError("resamplex: a plan of exact passes does not tile")
            _pipeline.check_steps(self.order, self.passes)
        self.nbytes = sum(_table_bytes(t) for t in self.tables if not isinstance(t, TiledAxis))
        self._programs: dict[tuple[Any, ...], tuple[Program, Any, Any]] = {}
        #: Plans of exact passes: their kernels' arguments per native input dtype, made on
        #: the first call with it (``_pipeline.prepare``).
        self._prepared: dict[np.dtype, _pipeline.Prepared] = {}
        self._merged: dict[tuple[int, int, tuple[int, ...]], Plan] = {}
        #: The kept tiles of a periodic tiled axis (``_tile_runs``): their tables, from
        #: ``TiledAxis.runs`` (None: the axis has none), and their plans per pass order.
        self._tile_tables: Any = _NOT_BUILT
        self._tiles: dict[tuple[int, ...], list[tuple[int, int, int, int, Plan]]] = {}
        #: A tiled axis without a period run by ``_exec.Program.run_tiles``, per layout
        #: (``_native_tiles``): ``(program, filler, length, n_w, k, scale, channels)``, or
        #: None where the layout's tile program is not one weighted pass over plain taps.
        self._native: dict[tuple[Any, ...], tuple[Any, ...] | None] = {}
        #: The last per-channel affine expanded over a merged pixel row (_mergeable_affine).
        self._affine_memo: tuple[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] | None = None
        self._adjoint: Plan | None = None
        self._owner: Plan | None = None         # the plan a merged or adjoint plan belongs to
        self._cache: PlanCache | None = None    # the cache holding this (root) plan, if any
        #: What a facade keeps with its plan (e.g. the outputs it fills afterwards).
        self.extra: Any = None
        #: Elements per pixel of the innermost axis: > 1 for a plan that merged a short
        #: channels-last axis into the resampled one (``_merged_inner``).
        self.channels = 1

    def _best_order(self) -> list[int]:
        axes = [a for a, t in enumerate(self.tables) if t is not None]

        def cost(order: Iterable[int]) -> float:
            shape = list(self.in_shape)
            total = 0.0
            for a in order:
                shape[a] = self.tables[a].n_out
                total += math.prod(shape) * max(self.tables[a].mean_taps, 1.0)
            return total

        if len(axes) <= 6:
            return list(min(itertools.permutations(axes), key=cost)) if axes else []
        # Many axes: shrink first, grow last.
        return sorted(axes, key=lambda a: self.tables[a].n_out / max(self.tables[a].n_in, 1))

    # --------------------------------------------------------------- validation of arrays

    def check_input(self, x: Any, name: str = "x") -> np.ndarray:
        """``x`` as an ndarray of this plan's input shape and a dtype its passes take."""
        x = as_array(x, name)
        if x.ndim == 0:
            raise ResamplexError(f"{name}: 0-d arrays have no axis to resample; got shape ()")
        if x.shape != self.in_shape:
            raise ResamplexError(
                f"{name}: this plan was made for shape {self.in_shape}; got shape {x.shape}")
        if self.fixed and x.dtype != np.uint8:
            raise UnsupportedError(f"{name}: {self.op} in fixed point takes uint8; got {x.dtype}")
        if self.passes is not None:
            _dtypes.check_nearest_dtype(x.dtype)  # the facade chose the passes for this dtype
        elif self.weighted:
            _dtypes.weighted_info(x.dtype, "linear" if self.op == "resize" else self.op)
        else:
            _dtypes.check_nearest_dtype(x.dtype)
        return x

    # --------------------------------------------------------------- application

    def __call__(self, x: Any, out: np.ndarray | None = None, threads: int | None = None,
                 rounding: Any = _OWN_ROUNDING, dtype: np.dtype | None = None,
                 affine: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Resample ``x`` into a new array (laid out like ``x``) or into ``out``; integer
        outputs round by ``rounding`` (validated like every argument: ``None`` is refused),
        by the plan's own when it is not given.

        ``dtype`` (an output dtype other than ``x``'s) and ``affine`` (``(a, b)`` from
        ``_checks.check_conversion``, validated by the facade) convert in the final store.
        """
        if rounding is _OWN_ROUNDING:
            rounding = self.rounding
        if dtype is not None or affine is not None:
            return self._call_convert(x, out, threads, rounding, dtype, affine)
        # The common case first: a layout this plan has compiled before. Its key holds the
        # dtype, strides and rounding, which were validated when it was compiled.
        if self.tiled is not None:
            return self._call_tiled(x, out, threads, rounding)
        if self.passes is not None:
            return self._call_passes(x, out, threads)
        if type(x) is np.ndarray and type(rounding) is str:
            if out is None:
                entry = self._programs.get((x.dtype, x.strides, rounding))
                if entry is not None and x.shape == self.in_shape and _exec.is_aligned(x):
                    program = entry[0]
                    result = empty_fresh(entry[1], x.dtype)
                    n = threads_for(None if threads is None else check_threads(threads),
                                    program.work)
                    program.run(x, result, n)
                    return result
            elif type(out) is np.ndarray:
                entry = self._programs.get((x.dtype, x.strides, out.strides, rounding))
                if (entry is not None and x.shape == self.in_shape
                        and out.shape == self.out_shape and out.dtype == x.dtype
                        and _exec.is_aligned(x) and _exec.is_writeable_aligned(out)
                        and not _exec.may_overlap(out, x)):
                    program = entry[0]
                    n = threads_for(None if threads is None else check_threads(threads),
                                    program.work)
                    program.run(x, out, n)
                    return out
        return self._call(x, out, threads, rounding)

    def _call(self, x: Any, out: np.ndarray | None, threads: int | None,
              rounding: str) -> np.ndarray:
        x = self.check_input(x)
        rcode = _dtypes.rounding_code(rounding)
        if threads is not None:
            threads = check_threads(threads)
        if out is not None:
            check_out(out, self.out_shape, x)
        else:
            check_allocation(math.prod(self.out_shape) * x.dtype.itemsize, "output")
        result = out
        if result is None:
            result = empty_like_layout(self.out_shape, x.dtype,
                                       layout_perm(x.shape, x.strides))
        if result.size == 0:
            return result
        # Weighted kernels read and write native, aligned elements; anything else goes
        # through a native copy (the conversion is exact, the result the same). The gather
        # moves bytes and takes any element as it is.
        src, dst = x, result
        if self.weighted:
            native = x.dtype.newbyteorder("=")
            if not (x.flags.aligned and x.dtype.isnative):
                src = x.astype(native, order="K")
            if self._packs(src):
                src = contiguous(src, threads)
            if not (result.flags.aligned and result.dtype.isnative):
                dst = empty_like_layout(self.out_shape, native,
                                        layout_perm(result.shape, result.strides))
        fresh = out is None and dst is result and type(src) is np.ndarray
        key: tuple[Any, ...] = (src.dtype, src.strides, rounding) if fresh else \
            (src.dtype, src.strides, dst.strides, rounding)
        entry = self._programs.get(key)
        if entry is None:
            program = self.compile(src.dtype, src.strides, dst.strides, rcode)
            entry = (program, fresh_layout(self.out_shape, x) if fresh else None, None)
            self._remember(key, entry)
        program = entry[0]
        program.run(src, dst, threads_for(threads, program.work))
        if dst is not result:
            np.copyto(result, dst)
        return result

    def _call_convert(self, x: Any, out: np.ndarray | None, threads: int | None,
                      rounding: str, dtype: np.dtype | None,
                      affine: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
        """A call whose output has another dtype or an affine (SPEC §2): the last pass of a
        weighted program stores ``v * a + b`` rounded to the output dtype; a gather (nearest,
        or no resampled axis) copies into scratch and a converting store pass follows."""
        if self.passes is not None or self.fixed:
            raise UnsupportedError(f"{self.op}: this plan's passes do not convert dtypes")
        if type(x) is np.ndarray and type(rounding) is str \
                and (out is None or type(out) is np.ndarray) \
                and (affine is None or (type(affine[0]) is np.ndarray
                                        and type(affine[1]) is np.ndarray)):
            # A conversion of a layout this plan has converted before, into a fresh array or
            # an out= laid out as before: its key holds both dtypes, both layouts (None: the
            # fresh array's, made from the input's), the rounding and the affine's shapes, all
            # validated then (the affine's values by the facade, on this call too).
            odt = (x.dtype if dtype is None else dtype) if out is None else out.dtype
            key = ("convert", x.dtype, x.strides, odt, None if out is None else out.strides,
                   rounding, None if affine is None else (affine[0].shape, affine[1].shape))
            entry = self._programs.get(key)
            if (entry is not None and x.shape == self.in_shape
                    and (affine is None or (affine[0].dtype == entry[2]
                                            and affine[1].dtype == entry[2]))
                    and _exec.is_aligned(x)
                    and (out is None or (out.shape == self.out_shape
                                         and (dtype is None or out.dtype == dtype)
                                         and _exec.is_writeable_aligned(out)
                                         and not _exec.may_overlap(out, x)))):
                program = entry[0]
                merge, layout = entry[1]
                if out is None:
                    out = empty_fresh(layout, odt)
                va = vb = None
                if affine is not None:
                    va, vb = affine
                    if merge:
                        va, vb = self._mergeable_affine(x.strides, out.strides, va, vb)
                program.run(x, out, threads_for(None if threads is None else
                                                check_threads(threads), program.work), va, vb)
                return out
        x = self.check_input(x)
        rcode = _dtypes.rounding_code(rounding)
        if threads is not None:
            threads = check_threads(threads)
        odt = x.dtype if dtype is None else _dtypes.as_dtype(dtype)
        compute = _dtypes.convert_compute(x.dtype, odt)
        a: np.ndarray | None = None
        b: np.ndarray | None = None
        if affine is not None:
            a, b = (np.ascontiguousarray(v, dtype=compute) for v in affine)
        if out is not None:
            check_out(out, self.out_shape, x, odt)
            result = out
        else:
            check_allocation(math.prod(self.out_shape) * odt.itemsize, "output")
            result = empty_like_layout(self.out_shape, odt, layout_perm(x.shape, x.strides))
        if result.size == 0:
            return result
        if self.tiled is not None:
            return self._call_tiled(x, result, threads, rounding, odt,
                                    None if a is None or b is None else (a, b))
        # The kernels read and write native, aligned elements (the store converts by kind).
        src, dst = x, result
        if not (x.flags.aligned and x.dtype.isnative):
            src = x.astype(x.dtype.newbyteorder("="), order="K")
        if self.weighted and self._packs(src):
            src = contiguous(src, threads)
        if not (result.flags.aligned and result.dtype.isnative):
            dst = empty_like_layout(self.out_shape, odt.newbyteorder("="),
                                    layout_perm(result.shape, result.strides))
        aff_key = None if a is None or b is None else (a.shape, b.shape)
        # a fresh result laid out as this call made it is keyed by None (the fast path above)
        fresh = out is None and dst is result and src is x
        key = ("convert", src.dtype, src.strides, dst.dtype, None if fresh else dst.strides,
               rounding, aff_key)
        merge = a is not None and self.weighted and self._mergeable(src.strides,
                                                                     dst.strides) is not None
        if a is not None and b is not None and merge:
            a, b = self._mergeable_affine(src.strides, dst.strides, a, b)
        entry = self._programs.get(key)
        if entry is None:
            aff = None if a is None or b is None else (affine_strides(a, self.out_shape),
                                                       affine_strides(b, self.out_shape))
            # (program, (whether a and b expand over merged pixels, the fresh result's
            # layout), their compute dtype)
            entry = (self.compile(src.dtype, src.strides, dst.strides, rcode,
                                  out_dtype=dst.dtype, affine=aff),
                     (merge, fresh_layout(self.out_shape, x) if fresh else None), compute)
            self._remember(key, entry)
        program = entry[0]
        program.run(src, dst, threads_for(threads, program.work), a, b)
        if dst is not result:
            np.copyto(result, dst)
        return result

    def _mergeable_affine(self, xs: Sequence[int], os_: Sequence[int], a: np.ndarray,
                          b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``a``, ``b`` expanded over a channels-last pixel row where that lets the merged
        sweep (``_merged_inner``) run: a per-channel ``(C,)`` becomes a ``(W_out, C)`` pattern
        (a few kilobytes per call), so the row is one contiguous axis for the affine too."""
        small = a.size + b.size <= _AFFINE_MEMO_ELEMENTS
        if small:
            # A repeated call's per-channel values: expanded once (their bytes are the key,
            # so a changed value is expanded anew).
            key = (tuple(xs), tuple(os_), a.dtype, b.dtype, a.shape, b.shape, a.tobytes(),
                   b.tobytes())
            memo = self._affine_memo
            if memo is not None and memo[0] == key:
                return memo[1]
        pair = self._mergeable(xs, os_)
        if pair is None:
            return a, b
        w_ax, c_ax = pair
        c = self.in_shape[c_ax]
        expanded = []
        for v in (a, b):
            st = affine_strides(v, self.out_shape)
            if st[w_ax] != c * st[c_ax]:
                shape = list(v.shape)
                shape[w_ax], shape[c_ax] = self.out_shape[w_ax], c
                v = np.ascontiguousarray(np.broadcast_to(v, shape))
            expanded.append(v)
        if small:
            self._affine_memo = (key, (expanded[0], expanded[1]))
        return expanded[0], expanded[1]

    def _checked_call(self, x: Any, out: np.ndarray | None, threads: int | None,
                      like_input: bool) -> tuple[np.ndarray, int | None, np.ndarray]:
        """The checked input, thread count and result array (``out``, or a new array laid out
        like the input if ``like_input``, else C-ordered) of a call outside the programs."""
        x = self.check_input(x)
        if threads is not None:
            threads = check_threads(threads)
        if out is not None:
            check_out(out, self.out_shape, x)
            return x, threads, out
        check_allocation(math.prod(self.out_shape) * x.dtype.itemsize, "output")
        if not like_input:
            return x, threads, new_array(self.out_shape, x.dtype)
        return x, threads, empty_like_layout(self.out_shape, x.dtype,
                                             layout_perm(x.shape, x.strides))

    def _call_passes(self, x: Any, out: np.ndarray | None,
                     threads: int | None) -> np.ndarray:
        """Run a plan of exact passes (front doors): ``_pipeline.run``, one executor program."""
        if out is None and type(x) is np.ndarray and x.shape == self.in_shape \
                and x.dtype in self._prepared:
            # A dtype this plan has run its passes on before: validated then, and so is the
            # allocation of a result (``_pipeline.run`` is reached only for a non-empty one).
            if threads is not None:
                threads = check_threads(threads)
            result = new_array(self.out_shape, x.dtype)
            x, program = self._passes_input(x, threads)
            _pipeline.run(self, x, result, threads, program)
            return result
        x, threads, result = self._checked_call(x, out, threads, like_input=False)
        if result.size == 0:
            return result
        if all(t is None for t in self.tables):
            np.copyto(result, x)
            return result
        x, program = self._passes_input(x, threads)
        _pipeline.run(self, x, result, threads, program)
        return result

    def _passes_input(self, x: np.ndarray, threads: int | None) -> tuple[np.ndarray, Any]:
        """``x`` as the passes read it, and the program that reads it there: a native view
        whose rows the program reads in place (``_pipeline.in_place``) with its own
        program; else a C-contiguous copy (threaded) where it is not C-contiguous, and None
        (``_pipeline.run`` takes the plan's program, or copies a non-native input itself)."""
        if x.flags.c_contiguous or not x.dtype.isnative:
            return x, None
        program = _pipeline.in_place(self, x)
        return (x, program) if program is not None else (contiguous(x, threads), None)

    def _call_tiled(self, x: Any, out: np.ndarray | None, threads: int | None,
                    rounding: str, dtype: np.dtype | None = None,
                    affine: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Run a plan with a long axis tile by tile: the tiled axis's table is built for one
        range of outputs at a time, and a plan of that range runs on the input window it reads
        (as chunked execution does: the whole array's pass order, so the same bits). No table
        or scratch grows with the whole axis. A periodic axis (``TiledAxis.runs``) keeps its
        tile plans, and their programs, from call to call, and runs each run of equal tiles
        in one call (``_tile_runs``)."""
        _dtypes.rounding_code(rounding)
        if dtype is None:
            x, threads, result = self._checked_call(x, out, threads, like_input=True)
        else:  # from _call_convert: checked there, ``out`` is the result
            result = out  # type: ignore[assignment]
        if result.size == 0:
            return result
        a = int(self.tiled)  # type: ignore[arg-type]  # __call__ comes here for tiled plans
        order = self.run_order(x.strides, result.strides)
        before = (slice(None),) * a
        kept = self._tile_runs(order)
        if kept is None and dtype is None and self._run_native(order, x, result, threads,
                                                                rounding):
            return result
        for o0, count, lo, step, tile in self._built_tiles(order) if kept is None else kept:
            n_w, length = tile.in_shape[a + (count > 1)], tile.out_shape[a + (count > 1)]
            xs = x[before + (slice(lo, lo + (count - 1) * step + n_w),)]
            window = before + (slice(o0, o0 + count * length),)
            ys = result[window]
            tile_affine = None if affine is None else tuple(
                v[window] if v.shape[a] > 1 else v for v in affine)
            if count > 1:  # the run as one more axis: tile j at j step inputs, j length outputs
                xs = _split_axis(xs, a, count, n_w, step)
                ys = _split_axis(ys, a, count, length, length)
                if tile_affine is not None:
                    tile_affine = tuple(_split_axis(v, a, count, length, length)
                                        if v.shape[a] > 1 else np.expand_dims(v, a)
                                        for v in tile_affine)
            tile(xs, out=ys, threads=threads, rounding=rounding, dtype=dtype,
                 affine=tile_affine)  # type: ignore[arg-type]
        return result

    def _built_tiles(self, order: list[int]) -> Iterator[tuple[int, int, int, int, Plan]]:
        """``(o0, 1, lo, 0, plan)`` per tile of the tiled axis (``_tile_runs``' form), each
        built as it is reached into the same buffers (a tile's plan runs before the next
        tile is built)."""
        spec = self.tables[int(self.tiled)]  # type: ignore[arg-type]
        buffers = spec.buffers()
        for o0 in range(0, spec.n_out, spec.tile):
            o1 = min(spec.n_out, o0 + spec.tile)
            t, lo = spec.window(o0, o1, buffers)
            yield o0, 1, lo, 0, self._tile_plan(t, order)

    def _run_native(self, order: list[int], x: np.ndarray, result: np.ndarray,
                    threads: int | None, rounding: str) -> bool:
        """Run a tiled axis without a period natively (``_exec.Program.run_tiles``): tiles
        of up to ``NATIVE_TILE`` outputs, each built in a thread's buffers, in the form its
        pass reads, and run at once, every tile in one compiled loop shared by the threads.
        The tile program is the one a tile of the Python loop below would run (one weighted
        pass, or a gather in its generic form), compiled once per layout for a tile of
        ``length`` outputs on an input window of ``n_w``: the same taps, the same sums.
        False where that does not apply (the caller runs the tiles itself)."""
        if not (result.dtype == x.dtype and (not self.weighted or (
                x.flags.aligned and x.dtype.isnative and result.flags.aligned
                and result.dtype.isnative))):
            return False
        key = (tuple(order), x.dtype, x.strides, result.strides, rounding)
        entry = self._native.get(key, _NOT_BUILT)
        if entry is _NOT_BUILT:
            entry = self._native_tiles(order, x, result, rounding)
            with _BYTES_LOCK:
                if key not in self._native and len(self._native) < MAX_PROGRAMS:
                    self._native[key] = entry
                    if entry is not None:
                        self._grew(entry[0].nbytes)
        if entry is None:
            return False
        program, filler, length, n_w, k, scale, channels = entry
        a = int(self.tiled)  # type: ignore[arg-type]
        n_out = result.shape[a]
        starts = np.arange(0, n_out - length + 1, length, dtype=np.int64)
        tail = n_out - length if n_out % length else -1
        n = threads_for(threads, program.work * (n_out / length))  # (checked by the caller)
        if program.run_tiles(x, result, n, filler, starts, tail, length, n_w, k, scale,
                             channels, x.strides[a], result.strides[a]) == 0:
            return True
        with _BYTES_LOCK:  # a tile outgrew its window: tiles in Python from now on
            if self._native.get(key) is entry:
                self._native[key] = None
                self._grew(-program.nbytes)
        return False

    def _native_tiles(self, order: list[int], x: np.ndarray, result: np.ndarray,
                      rounding: str) -> tuple[Any, ...] | None:
        """``_run_native``'s program and arguments for this layout, or None."""
        a = int(self.tiled)  # type: ignore[arg-type]
        axis = self.tables[a]
        spec = axis.spec
        builder = spec._builder
        cap = max(1, builder.row_cap)
        length = max(1, min(NATIVE_TILE, NATIVE_TAPS // cap))
        if axis.n_out < 2 * length:
            return None
        # the window of a tile: its coordinates' reach (a slope of at most r) and a row's taps
        slope = max(spec._args["r"], axis.n_in / axis.n_out,
                    (axis.n_in - 1) / max(1, axis.n_out - 1))
        n_w = min(axis.n_in, math.ceil(slope * (length - 1)) + cap + 8)
        got = builder.tile_csr(0, length, n_w)
        if got is None:
            return None
        lo, ptr, idx, w = got
        table = AxisTable(n_w, length, ptr, idx, w)
        didx = np.empty(length * cap, np.int64)
        dw = np.empty(length * cap, np.float64)
        _tablegen_csr_to_dense(n_w, ptr, idx, w, cap, didx, dw)
        table.__dict__["dense"] = (didx.reshape(length, cap), dw.reshape(length, cap))
        tile = self._tile_plan(table, order)
        before = (slice(None),) * a
        xs = x[before + (slice(lo, lo + n_w),)]
        ys = result[before + (slice(0, length),)]
        if not tile.weighted or tile.copies:
            # a gather: its generic form (no repeat, halving or wide moves, which depend on
            # the table) reads one byte offset an output, the CSR form's
            p = tile._compile_gather(x.dtype.itemsize, xs.strides, ys.strides, spec_only=True)
            for field in ("phase", "lo", "hi"):
                p.pop(field, None)
            p.update(k=1, n_in=0, n_mid=0)
            scale = int(xs.strides[a])
            if not np.array_equal(p["off"], idx * scale):
                return None
            return (Program([p], [], float(math.prod(p["shape"]))), builder.tile_filler(),
                    length, n_w, 0, scale, 1)
        if tile.fixed or tile._packs(xs):
            return None
        passes, scratch, work = tile._weighted_specs(x.dtype, xs.strides, ys.strides,
                                                     _dtypes.rounding_code(rounding), None)
        if len(passes) != 1 or passes[0]["op"] != OP_WEIGHTED or any(scratch):
            return None
        p = passes[0]
        # the pass must read this table as it is, in one of its two forms (dense, also with
        # a short channels-last axis merged into it: a row per element of each pixel)
        if p["loop"] == SHAPE_LAST:
            channels, rest = divmod(p["n_in"], n_w)
            if rest or channels < 1 or p["k"] != cap:
                return None
            d = didx.reshape(length, 1, cap)
            want = np.where(d == n_w, n_w * channels,
                            d * channels + np.arange(channels).reshape(1, -1, 1))
            if not (np.array_equal(p["off"], want.reshape(-1)) and p["w"].tobytes() ==
                    np.repeat(dw.reshape(length, 1, cap), channels, axis=1).tobytes()):
                return None
            k, scale = cap, 1
        else:
            scale, channels = int(xs.strides[a]), 1
            if not (np.array_equal(p["ptr"], ptr) and p["w"].tobytes() == w.tobytes()
                    and np.array_equal(p["off"], idx * scale)):
                return None
            k = 0
        return (Program(passes, scratch, work), builder.tile_filler(), length, n_w, k, scale,
                channels)

    def _tile_plan(self, table: AxisTable, order: list[int], count: int = 1) -> Plan:
        """The plan of one tile of the tiled axis: ``table`` on its input window; for
        ``count > 1`` tiles, with an axis of ``count`` before it (``_split_axis``)."""
        a = int(self.tiled)  # type: ignore[arg-type]
        tables: list[Any] = list(self.tables)
        tables[a] = table
        in_shape = list(self.in_shape)
        in_shape[a] = table.n_in
        if count > 1:
            tables.insert(a, None)
            in_shape.insert(a, count)
            order = [d + (d >= a) for d in order]
        return Plan(in_shape, tables, weighted=self.weighted, op=self.op, order=order,
                    fixed=self.fixed, keep_order=True, plus_zero=self.plus_zero)

    def _tile_runs(self, order: list[int]) -> list[tuple[int, int, int, int, Plan]] | None:
        """``(o0, count, lo, step, plan)`` per run of a periodic tiled axis
        (``TiledAxis.runs``, built on first use, once for every pass order), for the pass
        ``order``, kept with this plan (they count in its bytes, their programs too); None
        for an axis without a period."""
        if self._tile_tables is _NOT_BUILT:
            built = self.tables[int(self.tiled)].runs()  # type: ignore[arg-type]
            with _BYTES_LOCK:  # another thread may have kept its own meanwhile: one counts
                first = self._tile_tables is _NOT_BUILT
                if first:
                    self._tile_tables = built
            if first and built is not None:
                self._grew(sum(_table_bytes(t) + sum(v.nbytes for v in t.dense)
                               for *_, t in built))
        tables = self._tile_tables
        if tables is None:
            return None
        runs = self._tiles.get(tuple(order))
        if runs is None:
            runs = []
            for o0, count, lo, step, t in tables:
                tile = self._tile_plan(t, order, count)
                tile._owner = self
                runs.append((o0, count, lo, step, tile))
            runs = self._tiles.setdefault(tuple(order), runs)
        return runs

    def _remember(self, key: tuple[Any, ...], entry: tuple[Program, Any, Any]) -> None:
        """Keep a compiled program (a few layouts per plan); the cache counts its bytes."""
        programs = self._programs
        while len(programs) >= MAX_PROGRAMS:
            old = programs.pop(next(iter(programs)), None)
            if old is not None:
                self._grew(-old[0].nbytes)
        programs[key] = entry
        self._grew(entry[0].nbytes)

    def _grew(self, delta: int) -> None:
        """This plan holds ``delta`` more bytes: so do the plans that own it (a merged or
        adjoint plan belongs to the plan that made it), and the cache that holds the root."""
        with _BYTES_LOCK:
            node: Plan | None = self
            root = self
            while node is not None:
                node.nbytes += delta
                root = node
                node = node._owner
            if root._cache is not None:
                root._cache.grew(delta)

    # --------------------------------------------------------------- compiling

    def compile(self, dtype: np.dtype, x_strides: Sequence[int], out_strides: Sequence[int],
                rcode: int, out_dtype: np.dtype | None = None,
                affine: tuple[list[int], list[int]] | None = None) -> Program:
        """The program of this plan for arrays of ``dtype`` with these byte strides.

        ``out_dtype``/``affine`` (byte strides of ``a`` and ``b`` per output axis): the output
        converts (``_call_convert``); weighted programs do it in their last pass's store,
        gathers in a converting store pass after them."""
        converting = out_dtype is not None and (out_dtype != dtype or affine is not None)
        if not self.weighted or self.copies:
            if converting:
                return self._compile_gather_store(dtype, x_strides, out_strides, rcode,
                                                  out_dtype, affine)  # type: ignore[arg-type]
            zero = dtype.itemsize if self.plus_zero and dtype.kind == "f" \
                and dtype.itemsize in (4, 8) else 0
            return self._compile_gather(dtype.itemsize, x_strides, out_strides, zero=zero)
        if self.fixed:
            return self._compile_fixed(x_strides, out_strides)
        if converting and out_dtype is not None and \
                layout_perm(self.out_shape, out_strides) != layout_perm(self.out_shape, x_strides):
            return self._compile_relayout(dtype, x_strides, out_strides, rcode, out_dtype,
                                          affine)
        conv = (out_dtype, affine) if converting else None
        return Program(*self._weighted_specs(dtype, x_strides, out_strides, rcode, conv))

    def _weighted_specs(self, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                        rcode: int, conv: Any) -> tuple[list[dict[str, Any]], list[int], float]:
        """The passes of a weighted program (channels-last merged where it can be), its
        scratch sizes and its work."""
        affine = None if conv is None else conv[1]
        merged = self._merged_inner(xs, os_, affine)
        if merged is not None:
            plan, mxs, mos, where = merged
            if affine is not None:
                conv = (conv[0], (_merged_view(affine[0], *where),
                                  _merged_view(affine[1], *where)))
            return plan._compile_weighted(dtype, mxs, mos, rcode, conv, specs_only=True)
        return self._compile_weighted(dtype, xs, os_, rcode, conv, specs_only=True)

    def _planar_specs(self, dtype: np.dtype, xs: Sequence[int], mid: Sequence[int],
                      os_: Sequence[int], rcode: int, out_dtype: np.dtype,
                      affine: tuple[list[int], list[int]] | None) -> Any:
        """The common relayout, in the final store: an interleaved channels-last input whose
        merged sweep (``_merged_inner``, as if the output were laid out like the input,
        strides ``mid``) ends in the four-row fused pass; that pass then stores each row as
        one row per channel, wherever the output puts them (an HWC image into CHW memory),
        mapping and rounding on the way. Same sums as the relayout through scratch. None
        where this does not apply."""
        merged = self._merged_inner(xs, mid)
        if merged is None:
            return None
        plan, mxs, mos, (w_ax, c_ax, c) = merged
        passes, scratch, work = plan._compile_weighted(dtype, mxs, mos, rcode,
                                                       (out_dtype, None), specs_only=True)
        last = passes[-1]
        if last["op"] != OP_FUSED or last.get("loop", 0) == SHAPE_MID \
                or last["axis"] != len(last["shape"]) - 2:
            return None
        # the merged pass's axes (its output layout, innermost last) as axes of this plan
        orig = [a if a < c_ax else a + 1 for a in layout_perm(plan.out_shape, mos)]
        if orig[-1] != w_ax:
            return None
        last.update(dstr=[os_[a] for a in orig], planes=c, plane_stride=os_[c_ax],
                    buf_len=last["buf_len"] + last["shape"][-1])
        if affine is not None:
            last.update(astr=[affine[0][a] for a in orig], bstr=[affine[1][a] for a in orig],
                        plane_a=affine[0][c_ax], plane_b=affine[1][c_ax])
        return passes, scratch, work

    def _compile_relayout(self, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                          rcode: int, out_dtype: np.dtype,
                          affine: tuple[list[int], list[int]] | None) -> Program:
        """A converting call whose output is laid out otherwise than the input (e.g. HWC in,
        CHW memory out): the weighted passes run in the input's layout (their fast, merged
        and contiguous form) into a scratch of the compute type, and a converting store pass
        maps, rounds and transposes it into the output. The sums are those of the input's
        layout; the store adds no rounding but the final one."""
        compute = _dtypes.convert_compute(dtype, out_dtype)
        cinfo = _dtypes.output_info(compute)
        perm_x = layout_perm(self.out_shape, xs)
        mid = layout_strides(self.out_shape, compute.itemsize, perm_x)
        planar = self._planar_specs(dtype, xs, mid, os_, rcode, out_dtype, affine)
        if planar is not None:
            return Program(*planar)
        passes, scratch, work = self._weighted_specs(dtype, xs, mid, rcode, (compute, None))
        at = len(scratch)
        for spec in passes:
            if spec.get("dst", -2) == -2:
                spec["dst"] = at
        size = math.prod(self.out_shape)
        scratch.append(size * compute.itemsize)
        check_allocation(scratch[-1], "scratch")
        perm = layout_perm(self.out_shape, os_)
        strides = [[mid[p] for p in perm], [os_[p] for p in perm]]
        if affine is not None:
            strides += [[affine[0][p] for p in perm], [affine[1][p] for p in perm]]
        shape, merged, _ = coalesce_all([self.out_shape[p] for p in perm], strides)
        store = dict(op=OP_STORE, src=at, dst=-2, shape=shape, sstr=merged[0],
                     dstr=merged[1], src_kind=cinfo.kind,
                     dst_kind=_dtypes.output_info(out_dtype).kind, rounding=rcode,
                     compute=C_DOUBLE if compute == np.float64 else C_FLOAT,
                     buf_len=BLOCK + 1, units=math.prod(shape[:-1]))
        if affine is not None:
            store.update(astr=merged[2], bstr=merged[3])
        return Program(passes + [store], scratch, work + size)

    def _compile_gather_store(self, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                              rcode: int, out_dtype: np.dtype,
                              affine: tuple[list[int], list[int]] | None) -> Program:
        """Nearest (or no resampled axis) into another dtype: the gather copies the chosen
        elements, exactly, into a scratch array laid out like the output, and a converting
        store pass (``OP_STORE``) maps and rounds them into the output."""
        info = _dtypes.output_info(dtype, "x")
        oinfo = _dtypes.output_info(out_dtype)
        compute = _dtypes.convert_compute(dtype, out_dtype)
        perm = layout_perm(self.out_shape, os_)
        mid = layout_strides(self.out_shape, dtype.itemsize, perm)
        gather = self._compile_gather(dtype.itemsize, xs, mid, spec_only=True)
        gather["dst"] = 0
        strides = [[mid[p] for p in perm], [os_[p] for p in perm]]
        if affine is not None:
            strides += [[affine[0][p] for p in perm], [affine[1][p] for p in perm]]
        shape, merged, _ = coalesce_all([self.out_shape[p] for p in perm], strides)
        store = dict(op=OP_STORE, src=0, dst=-2, shape=shape, sstr=merged[0], dstr=merged[1],
                     src_kind=info.kind, dst_kind=oinfo.kind, rounding=rcode,
                     compute=C_DOUBLE if compute == np.float64 else C_FLOAT,
                     buf_len=BLOCK + 1, units=math.prod(shape[:-1]))
        if affine is not None:
            store.update(astr=merged[2], bstr=merged[3])
        size = math.prod(self.out_shape)
        check_allocation(size * dtype.itemsize, "scratch")
        return Program([gather, store], [size * dtype.itemsize], 2.0 * size)

    def _compile_gather(self, itemsize: int, xs: Sequence[int],
                        os_: Sequence[int], spec_only: bool = False, zero: int = 0) -> Any:
        """The gather pass of this plan; ``zero`` (4 or 8): its float elements are stored
        as ``0.0 + v`` (``plus_zero``)."""
        perm = layout_perm(self.out_shape, os_)
        # Copied innermost axes contiguous on both sides (the channels of an interleaved
        # image) join the element: the kernel then moves whole pixels, one row of pixels per
        # row of the output, instead of one row per pixel.
        element = itemsize
        while len(perm) > 1 and self.tables[perm[-1]] is None \
                and xs[perm[-1]] == itemsize and os_[perm[-1]] == itemsize:
            itemsize *= self.out_shape[perm[-1]]
            perm = perm[:-1]
        # A short copied innermost axis contiguous in the output only (channels reversed, as
        # in a BGR image read as RGB, or spaced, as RGB out of RGBA) joins it too: pixels
        # whose elements the kernel picks `estride` bytes apart.
        pixel: dict[str, Any] = {}
        a = perm[-1]
        if itemsize == element and len(perm) > 1 and self.tables[a] is None \
                and os_[a] == itemsize and 1 < self.out_shape[a] <= MAX_MERGED_CHANNELS:
            pixel = dict(channels=self.out_shape[a], estride=xs[a])
            itemsize *= self.out_shape[a]
            perm = perm[:-1]
        offsets, starts = [], [0]
        for a in perm:
            t = self.tables[a]
            if t is not None:  # copied axes need no table: the kernel strides through them
                offsets.append(t.idx * xs[a])
            starts.append(starts[-1] + (0 if t is None else t.n_out))
        shape = [self.out_shape[a] for a in perm]
        spec = dict(op=OP_GATHER, itemsize=itemsize, shape=shape,
                    sstr=[xs[a] for a in perm], dstr=[os_[a] for a in perm],
                    off=np.concatenate(offsets) if offsets else np.empty(0, np.int64),
                    idx2=starts, units=math.prod(shape[:-1]),
                    k=1 if pixel else self._repeat_factor(perm[-1], itemsize, xs, os_),
                    **pixel)
        if spec["k"] == 1 and not pixel:
            spec.update(self._halving(perm[-1], itemsize, xs, os_))
        if spec["k"] == 1 and "phase" not in spec and not pixel:
            spec["n_in"], spec["n_mid"] = self._wide_moves(perm[-1], itemsize, xs, os_)
        if zero:
            spec["plus_zero"] = zero
        if spec_only:
            return spec
        return Program([spec], [], float(math.prod(shape)))

    def _halving(self, a: int, itemsize: int, xs: Sequence[int],
                 os_: Sequence[int]) -> dict[str, Any]:
        """The run of a nearest gather halving its innermost axis ``a`` (contiguous rows of
        1-, 2-, 3-, 4- or 8-byte pixels): outputs ``[lo, hi)`` reading every other pixel, with
        the pixel after the last one still inside the row (``rx_even_pixels`` reads it), as
        ``phase``/``lo``/``hi``; ``{}`` when there is none of 16 outputs or more."""
        t = self.tables[a]
        if t is None or xs[a] != itemsize or os_[a] != itemsize \
                or itemsize not in (1, 2, 3, 4, 8) \
                or t.n_out < 16 or t.nnz != t.n_out:
            return {}
        d = t.idx[1:] - t.idx[:-1]
        mid = t.n_out // 2
        if d[mid] != 2:
            return {}
        steps = d == 2
        lo = mid - int(np.argmin(steps[mid::-1])) + 1 if not steps[:mid + 1].all() else 0
        hi = mid + 1 + (int(np.argmin(steps[mid:])) if not steps[mid:].all() else t.n_out - mid - 1)
        while hi > lo and t.idx[hi - 1] + 1 >= t.n_in:
            hi -= 1
        if hi - lo < 16:
            return {}
        return dict(phase=PHASE_DOWN2, lo=lo, hi=hi)

    def _wide_moves(self, a: int, itemsize: int, xs: Sequence[int],
                    os_: Sequence[int]) -> tuple[int, int]:
        """``(wide, width)`` for a gather whose innermost axis ``a`` moves pixels between
        contiguous rows (``rx_gather_pixels``): pixels of an awkward size (3, 6, 12 bytes,
        ...) move ``width`` bytes at once (the power of two at or above the pixel, 4 to 32:
        one load and one store); pixels of 2, 4 or 8 bytes, each block of 64 output bytes
        permuted from a window of ``width`` (128 or 256) input bytes (128 where every block's
        reads fit in it). Each of the first ``wide`` outputs of a row
        keeps those reads inside the input row and the writes (``min(width, 64)`` bytes)
        inside the output row. ``(0, 0)`` where there is nothing to gain."""
        t = self.tables[a]
        if t is None or xs[a] != itemsize or os_[a] != itemsize or itemsize >= 32 \
                or itemsize in (1, 16):
            return 0, 0
        first = t.idx[t.ptr[:-1]]
        if itemsize in (2, 4, 8):
            m = 64 // itemsize
            if t.n_out < m or t.nnz != t.n_out:
                return 0, 0
            spread = (first[np.minimum(np.arange(0, t.n_out, m) + m - 1, t.n_out - 1)]
                      - first[::m]) * itemsize
            if not (spread < 256).any():
                return 0, 0
            width, store = (128 if bool((spread < 128).all()) else 256), 64
        else:
            width = store = 1 << max(2, (itemsize - 1).bit_length())  # 4, 8, 16 or 32
        fits = (first * itemsize + width <= t.n_in * itemsize) \
            & (np.arange(t.n_out) * itemsize + store <= t.n_out * itemsize)
        wide = t.n_out if bool(fits.all()) else int(np.argmin(fits))
        return wide, width

    def _repeat_factor(self, a: int, itemsize: int, xs: Sequence[int],
                       os_: Sequence[int]) -> int:
        """``f`` if nearest along the innermost axis ``a`` repeats each input element ``f``
        times over contiguous rows (output ``i`` reads ``i // f``): the gather then writes the
        row by duplication. 1 otherwise."""
        t = self.tables[a]
        if t is None or itemsize not in (1, 2, 4, 8) or xs[a] != itemsize \
                or os_[a] != itemsize or t.n_out <= t.n_in or t.n_out % t.n_in:
            return 1
        f = t.n_out // t.n_in
        rows = t.idx.reshape(t.n_in, f)     # one table entry per output for a gather
        return f if bool((rows == np.arange(t.n_in)[:, None]).all()) else 1

    def _compile_fixed(self, xs: Sequence[int], os_: Sequence[int]) -> Program:
        """uint8 passes in fixed point, each rounding to uint8, in ``self.order``."""
        perm = layout_perm(self.out_shape, os_)
        shape = list(self.in_shape)
        src, src_strides = -1, list(xs)
        passes: list[dict[str, Any]] = []
        scratch: list[int] = [0, 0]
        work = 0.0
        for i, a in enumerate(self.order):
            table = self.tables[a]
            shape[a] = table.n_out
            if i == len(self.order) - 1:
                dst, dst_strides = -2, list(os_)
            else:
                dst = i % 2
                scratch[dst] = max(scratch[dst], math.prod(shape))
                dst_strides = layout_strides(shape, 1, perm)
            pshape, sstr, dstr, axis = coalesce(
                [shape[p] for p in perm], [src_strides[p] for p in perm],
                [dst_strides[p] for p in perm], perm.index(a))
            loop = SHAPE_OUTER
            if axis == len(pshape) - 1:
                loop = SHAPE_LAST
            elif axis == len(pshape) - 2 and pshape[-1] < 32 \
                    and dstr[-2] == pshape[-1] * dstr[-1]:
                loop = SHAPE_MID
            passes.append(dict(
                op=OP_FIXED, src=src, dst=dst, shape=pshape, sstr=sstr, dstr=dstr, axis=axis,
                loop=loop, ptr=table.ptr, off=table.idx * src_strides[a], w=table.w,
                shift=int(table.shift),  # fixed tables have one
                buf_len=pshape[-1],
                units=math.prod(pshape[:-2] if loop == SHAPE_MID else pshape[:-1]),
                **(_fixed_windows(table, dstr[-1] == 1)
                   if loop == SHAPE_LAST and sstr[-1] == 1 else {})))
            work += math.prod(pshape) * max(table.mean_taps, 1.0)
            src, src_strides = dst, dst_strides
        for size in scratch:
            check_allocation(size, "scratch")
        return Program(passes, scratch, work)

    def _compile_weighted(self, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                          rcode: int, conv: tuple[np.dtype, tuple[list[int], list[int]] | None]
                          | None = None, specs_only: bool = False) -> Any:
        info = _dtypes.weighted_info(dtype, self.op)
        oinfo, compute, aff = info, info.compute, None
        if conv is not None:   # another output dtype, an affine: both in the last store
            oinfo = _dtypes.output_info(conv[0])
            compute = _dtypes.convert_compute(dtype, conv[0])
            aff = conv[1]
        ckind, cflag = (0, C_DOUBLE) if compute == np.float64 else (1, C_FLOAT)
        perm = layout_perm(self.out_shape, os_)
        # The innermost axis, if resampled, normally goes last and shares a sweep with the
        # pass before it (the fused pass): no scratch array between those two passes.
        order = self.run_order(xs, os_)
        inner = self.tables[perm[-1]]
        # Float accumulators sum an output of more than WIDE_TAPS taps in double (SPEC §3
        # for wide windows; _taps.pyx.tp, "Wide windows"), in the loops that read its taps as
        # a list: such a table goes to no dense loop (SHAPE_LAST, a fused or pixel sweep).
        wide = {a for a in order if cflag == C_FLOAT and self.tables[a].max_taps > WIDE_TAPS}
        fuse = (len(order) >= 2 and order[-1] == perm[-1]
                and inner.n_in + inner.n_out <= MAX_ROW and not wide & set(order[-2:]))
        pixels = not fuse and not wide & set(order[-2:]) \
            and self._pixel_sweep(order, perm, xs, os_)
        shape = list(self.in_shape)
        src, src_strides = -1, list(xs)
        passes: list[dict[str, Any]] = []
        scratch = [0, 0]
        work = 0.0
        for i, a in enumerate(order):
            table = self.tables[a]
            last = i == len(order) - 1 or ((fuse or pixels) and i == len(order) - 2)
            common: dict[str, Any] = dict(src=src, src_kind=info.kind if i == 0 else ckind,
                                          dst_kind=oinfo.kind if last else ckind,
                                          rounding=rcode, compute=cflag)
            if last and aff is not None:
                common.update(astr=[aff[0][p] for p in perm], bstr=[aff[1][p] for p in perm])
            if fuse and i == len(order) - 2:
                spec, pass_work = self._fused_spec(shape, perm, a, order[-1], src_strides,
                                                   os_, common)
                if i == 0 and conv is None:
                    # reads the program's input: 8-bit data may take a phase kernel (it stores
                    # 8-bit rows; a converting store takes the general loop)
                    spec.update(self._phase_fields(dtype, shape[order[-1]], a, order[-1], xs,
                                                   os_, rcode))
                if spec.get("phase", PHASE_NONE) == PHASE_NONE:
                    spec.update(self._gathered_fields(
                        spec, a, order[-1], dtype.itemsize if i == 0 else compute.itemsize,
                        compute.itemsize, i == 0 and dtype == np.uint8 and compute == np.float32))
                passes.append(spec)
                work += pass_work
                break
            if pixels and i == len(order) - 2:
                spec, pass_work = self._pixels_spec(shape, perm, a, order[-1], src_strides,
                                                    os_, common)
                passes.append(spec)
                work += pass_work
                break
            shape[a] = table.n_out
            if last:
                dst, dst_strides = -2, list(os_)
            else:
                dst = i % 2
                scratch[dst] = max(scratch[dst], math.prod(shape) * compute.itemsize)
                dst_strides = layout_strides(shape, compute.itemsize, perm)
            strides = [[src_strides[p] for p in perm], [dst_strides[p] for p in perm]]
            if last and aff is not None:
                strides += [common.pop("astr"), common.pop("bstr")]
            pshape, merged, axis = coalesce_all([shape[p] for p in perm], strides,
                                                perm.index(a))
            sstr, dstr = merged[0], merged[1]
            if last and aff is not None:
                common.update(astr=merged[2], bstr=merged[3])
            ndim = len(pshape)
            if axis == ndim - 1 and table.n_in + table.n_out <= MAX_ROW and a not in wide:
                loop, row = SHAPE_LAST, pshape[-1] + table.n_in + 1
            elif axis == ndim - 1:
                loop, row = SHAPE_LAST_CSR, min(pshape[-1], BLOCK)
            elif (axis == ndim - 2 and pshape[-1] < 32 and pshape[-1] * pshape[-2] <= MAX_ROW
                  and dstr[-2] == pshape[-1] * dstr[-1]):
                loop, row = SHAPE_MID, pshape[-1] * pshape[-2]
            else:
                loop, row = SHAPE_OUTER, min(pshape[-1], BLOCK)
            if loop == SHAPE_LAST:
                idx, w = table.dense
                k, offsets = idx.shape[1], idx.reshape(-1)
            else:
                k, offsets, w = 0, table.idx * src_strides[a], table.w
            passes.append(dict(
                common, op=OP_WEIGHTED, dst=dst, shape=pshape, sstr=sstr, dstr=dstr, axis=axis, loop=loop,
                n_in=table.n_in, k=k, ptr=table.ptr, off=offsets, w=w.reshape(-1),
                buf_len=row,
                units=math.prod(pshape[:-2] if loop == SHAPE_MID else pshape[:-1])))
            work += math.prod(pshape) * max(table.mean_taps, 1.0)
            src, src_strides = dst, dst_strides
        for size in scratch:
            check_allocation(size, "scratch")
        if specs_only:
            return passes, scratch, work
        return Program(passes, scratch, work)

    def _fused_spec(self, shape: list[int], perm: list[int], a: int, inner: int,
                    src_strides: Sequence[int], os_: Sequence[int],
                    common: dict[str, Any]) -> tuple[dict[str, Any], float]:
        """The last two passes (outer axis ``a``, then the innermost axis) in one sweep."""
        t1, t2 = self.tables[a], self.tables[inner]
        n_mid = shape[inner]
        shape = list(shape)
        shape[a], shape[inner] = t1.n_out, t2.n_out
        pos = perm.index(a)
        idx2, w2 = t2.dense
        out_shape = [shape[p] for p in perm]
        size = math.prod(out_shape)
        spec = dict(
            common, op=OP_FUSED, dst=-2, shape=out_shape, sstr=[src_strides[p] for p in perm],
            dstr=[os_[p] for p in perm], axis=pos, n_mid=n_mid, ptr=t1.ptr,
            off=t1.idx * src_strides[a], w=t1.w, k=idx2.shape[1], idx2=idx2.reshape(-1),
            w2=w2.reshape(-1),
            buf_len=(8 * n_mid + 4 + 4 * t2.n_out if pos == len(perm) - 2
                     else n_mid + 1 + t2.n_out),
            units=size // t2.n_out)
        return spec, size * (t1.mean_taps + t2.mean_taps)

    def _phase_fields(self, dtype: np.dtype, n_mid: int, outer: int, inner: int,
                      xs: Sequence[int], os_: Sequence[int], rcode: int) -> dict[str, Any]:
        """The fields that make a fused pass of 8-bit data polyphase (``_phase_row`` in
        ``_taps.pyx.tp``; x2 of float32, float16 and bfloat16 data too, ``_phase_float_row``),
        or ``{}``.

        Its innermost table, read in pixels of ``self.channels`` elements (channels-last
        merged into the axis), must be x2 (output pixels ``2i`` and ``2i + 1`` read input
        pixels at fixed offsets from ``i`` with fixed weights, for ``i`` in a run
        ``[lo, hi)``; the outputs outside it keep the general loop) or x0.5 (every output
        pixel ``X`` reads pixels ``2X`` and ``2X + 1`` with fixed weights), with two taps,
        both arrays contiguous along the axis. The sums are those of the general loop, in
        the same order, so the bits are the same. Where that float32 arithmetic is exact
        (``_exact_fields``) the kernel computes it in int16 instead. 3:2 of single-element
        8-bit pixels (``PHASE_DOWN32``: outputs ``2k`` and ``2k + 1`` read two neighbouring
        pixels from ``3k + pd[0]`` and ``3k + pd[2]``, e.g. 1080p to 720p) only in int16.
        Tables of 3-8 taps (cubic, Lanczos) take x2 the same way, and x0.5 and 3:2 of 8-bit
        data over a run ``[lo, hi)`` of output pixels ``X`` reading pixels ``2X + pdk[t]``
        (3:2: output pixels ``2g + r`` reading ``3g + pdk[rk r + t]``; the outputs outside
        keep their dense taps): ``rk`` taps per phase at pixel offsets ``pdk`` with weights
        ``pwk`` (``_phase_up2_k``, ``_phase_split_k``), in float32.
        """
        t = self.tables[inner]
        idx, w = t.dense
        c = self.channels
        eight = dtype in (np.uint8, np.int8)
        k = idx.shape[1]
        if not (eight or _dtypes.dtype_name(dtype) in ("float32", "float16", "bfloat16")) \
                or not 2 <= k <= 8 or xs[inner] != dtype.itemsize \
                or os_[inner] != dtype.itemsize or n_mid != t.n_in or t.n_in % c or t.n_out % c:
            return {}
        w_in, w_out = t.n_in // c, t.n_out // c
        wf = w.astype(np.float32)
        pix, pw = idx[::c] // c, wf[::c]
        # every channel of an output pixel reads the same pixels with the same weights
        same = ((idx == np.repeat(pix, c, axis=0) * c + np.tile(np.arange(c), w_out)[:, None])
                & (wf == np.repeat(pw, c, axis=0))).reshape(w_out, k * c).all(axis=1)
        fields: dict[str, Any] = dict(channels=c, buf_len=5 * n_mid + t.n_out + 16)
        if w_out == 2 * w_in and w_in >= 8:
            # output pixels 2 i + r read pixels i + d[r, t]
            found = self._phase_run(pix, pw, same, 1, 2)
            if found is None:
                return {}
            lo, hi, d, phases = found
            pd = tuple(int(v) for v in d.reshape(-1))
            run = dict(fields, phase=PHASE_UP2, lo=lo, hi=hi)
            if k > 2:       # cubic, Lanczos: float32 sums of k taps per phase
                # x2 cubic blends two output rows that read the same input rows in one
                # sweep: the second row after the phase rows (_taps _up2_second_row)
                second = 3 * n_mid + 1 + t.n_out + (2 * (n_mid + 16) + 3) // 4
                run["buf_len"] = max(run["buf_len"], second + n_mid + 1)
                return dict(run, rk=k, pdk=pd, pwk=tuple(float(v) for v in phases))
            if eight:
                # two taps: the float row the outputs outside the run read (their float
                # sums) is needed only up to blo and from bhi on when the run's rows are
                # blended in registers (float rows form those outputs from the input rows)
                used = idx < t.n_in                    # padding taps read the zero after
                left = idx[:2 * lo * c][used[:2 * lo * c]]
                right = idx[2 * hi * c:][used[2 * hi * c:]]
                run.update(blo=int(left.max()) + 1 if left.size else 0,
                           bhi=int(right.min()) if right.size else n_mid)
            exact = self._exact_fields(dtype, outer, phases, rcode, w) if eight else {}
            if "bq" in exact and c == 1 and _clamped_borders(idx, exact["bq"], n_mid, lo, hi,
                                                             pd, exact["pq"]):
                exact["bclamp"] = 1
            return dict(run, pd=pd, pw=tuple(float(v) for v in phases), **exact)
        if eight and k > 2 and w_in == 2 * w_out and w_out >= 8:
            # x0.5 of k taps (cubic, Lanczos): output pixel X reads pixels 2 X + d[t]
            split = self._split_fields(fields, pix, pw, same, 2, 1, n_mid)
            if split:
                split.update(self._split_exact(dtype, outer, np.asarray(split["pwk"]), rcode))
            return split
        if eight and k == 2 and w_in == 2 * w_out and w_out >= 4:
            x = np.arange(w_out)
            if not (same.all() and np.array_equal(pix, np.stack([2 * x, 2 * x + 1], axis=1))
                    and (pw == pw[0]).all()):
                return {}
            return dict(fields, phase=PHASE_DOWN2,
                        pw=(float(pw[0, 0]), float(pw[0, 1]), 0.0, 0.0),
                        **self._exact_fields(dtype, outer, pw[0], rcode))
        if eight and k > 2 and 2 * w_in == 3 * w_out and w_out >= 16:
            # 3:2 of k taps (cubic, Lanczos; 1080p to 720p): output pixel 2 g + r reads
            # pixels 3 g + d[r, t]
            return self._split_fields(fields, pix, pw, same, 3, 2, n_mid)
        if eight and k == 2 and c == 1 and 2 * w_in == 3 * w_out and w_out >= 32:
            # 3:2: outputs 2k and 2k + 1 read pixels 3k + d and 3k + d + 1 (d fixed per
            # parity, different) with fixed weights, the whole row; integers only
            x = np.arange(w_out)
            d = pix[:2, 0]
            if d[0] == d[1] or not (0 <= d).all() or not (d <= 2).all() \
                    or not np.array_equal(pix[:, 0], 3 * (x // 2) + d[x % 2]) \
                    or not np.array_equal(pix[:, 1], pix[:, 0] + 1) \
                    or not (pw == pw[:2][x % 2]).all():
                return {}
            phases = pw[:2].reshape(-1)
            exact = self._exact_fields(dtype, outer, phases, rcode)
            if not exact:
                return {}
            return dict(fields, phase=PHASE_DOWN32,
                        pd=(int(d[0]), int(d[0]) + 1, int(d[1]), int(d[1]) + 1),
                        pw=tuple(float(v) for v in phases), **exact)
        return {}

    @staticmethod
    def _split_fields(fields: dict[str, Any], pix: np.ndarray, pw: np.ndarray,
                      same: np.ndarray, ns: int, npo: int, n_mid: int) -> dict[str, Any]:
        """The fields of an 8-bit phase pass of k taps that splits input rows into ``ns``
        pixel phases (``_phase_split_k``): x0.5 (``ns`` 2, ``npo`` 1 output pixel per group)
        or 3:2 (3 and 2), or ``{}``: the run of :meth:`_phase_run`; the outputs outside it
        keep their dense taps."""
        found = Plan._phase_run(pix, pw, same, ns, npo)
        if found is None:
            return {}
        lo, hi, d, phases = found
        return dict(fields, phase=PHASE_DOWN2 if ns == 2 else PHASE_DOWN32, lo=lo, hi=hi,
                    rk=pix.shape[1], pdk=tuple(int(v) for v in d.reshape(-1)),
                    pwk=tuple(float(v) for v in phases),
                    buf_len=_row_cache_len(fields["buf_len"], n_mid))

    @staticmethod
    def _phase_run(pix: np.ndarray, pw: np.ndarray, same: np.ndarray, ns: int,
                   npo: int) -> tuple[int, int, np.ndarray, np.ndarray] | None:
        """The polyphase pattern of groups of ``npo`` output pixels over ``ns`` input pixels
        (x2: 1 and 2; x0.5: 2 and 1; 3:2: 3 and 2): output pixel ``npo g + r`` reads pixels
        ``ns g + d[r, t]`` with the weights of the middle group's pixel ``r``, for the groups
        ``g`` of a run ``[lo, hi)`` around the middle (``_run_around``). ``(lo, hi, d,
        weights)``, ``d`` and ``weights`` ``npo`` rows of taps (weights flattened), or None.
        ``pix``, ``pw``: each output pixel's taps and float32 weights; ``same``: whether all
        its channels read alike."""
        x = np.arange(pix.shape[0])
        mid = pix.shape[0] // (2 * npo)
        ref = slice(npo * mid, npo * mid + npo)
        d = pix[ref] - ns * mid
        ok = same & (pix == ns * (x[:, None] // npo) + d[x % npo]).all(axis=1) \
            & (pw == pw[ref][x % npo]).all(axis=1)
        span = _run_around(ok.reshape(-1, npo).all(axis=1), mid)
        return None if span is None else (span[0], span[1], d, pw[ref].reshape(-1))

    def _gathered_fields(self, spec: dict[str, Any], outer: int, inner: int, itemsize: int,
                         esize: int, u8: bool = False) -> dict[str, Any]:
        """The fields that make a fused pass with four rows per step blend only the pixels
        its innermost taps read (``_gathered_row`` in ``_taps.pyx.tp``), or ``{}``.

        Where the innermost table reads few of a row's elements (``GATHERED_READS n k <=
        n_mid``: a strong reduction, e.g. 1080p to 224 x 224), blending whole input rows is
        most of the work. Each output pixel's taps then read ``channels``-element pixels (the
        channels of a merged channels-last row; single elements if the table does not read
        whole pixels or the rows are strided), gathered tap by tap into contiguous rows,
        blended there and summed tap-major. The products and sums are those of blending the
        whole rows, so the bits are the same. Where every output pixel of uint8 data (``u8``,
        read as float32) reads two adjacent pixels of up to 4 channels, the row is computed
        in registers from the input rows instead (``gpair``, ``rx_pairs_u8_f32``): the same
        operations again; pixels of 2-4 channels take it at any reduction (``PAIR_READS``):
        1080p to 720p, uint8 3 and 4 channels, 2.9 and 3.9 ms -> 1.9 and 2.0 ms.
        """
        shape, sstr = spec["shape"], spec["sstr"]
        n, n_mid, k = shape[-1], spec["n_mid"], spec["k"]
        strong = GATHERED_READS * n * k <= n_mid
        if spec["axis"] != len(shape) - 2 or not (
                strong or (u8 and k == 2 and n * k <= PAIR_READS * n_mid)):
            return {}
        idx2 = spec["idx2"].reshape(n, k)
        w2 = spec["w2"].reshape(n, k)
        c = self.channels
        if c > 1 and sstr[-1] != itemsize:
            c = 1
        if c > 1:
            npix = n // c
            first = np.repeat(idx2[::c], c, axis=0)
            pad = first == n_mid
            ch = np.tile(np.arange(c), npix)[:, None]
            if n % c or not (np.array_equal(idx2, np.where(pad, n_mid, first + ch))
                             and np.array_equal(w2, np.repeat(w2[::c], c, axis=0))):
                c = 1
        pix = idx2[::c].T                              # (k, pixels): tap-major
        pad = pix == n_mid
        npix, pb = n // c, c * itemsize
        gpix = np.where(pad, 0, pix) * sstr[-1]         # a pixel's c elements are contiguous
        wide = width = 0
        if pb < 32 and pb & (pb - 1):       # one move of the next power of two of bytes
            width = 1 << pb.bit_length()
            fits = (gpix + width <= n_mid * itemsize).all(axis=0)
            wide = npix if bool(fits.all()) else int(np.argmin(fits))
        j, e = np.nonzero(np.repeat(pad, c, axis=1))
        t1 = self.tables[outer]
        k1 = int(np.diff(t1.ptr).max(initial=0))
        stage = (k1 * k * npix * pb + 64 + esize - 1) // esize
        pair: dict[str, Any] = {}
        if u8 and c <= 4 and k == 2 and sstr[-1] == 1 and not pad.any() \
                and np.array_equal(pix[1], pix[0] + c):
            fits = gpix[0] + 8 <= n_mid
            pair = dict(gpair=1, gpwide=npix if bool(fits.all()) else int(np.argmin(fits)))
        if not (strong or (pair and c >= 2)):
            return {}
        return dict(pair, channels=c, gpix_n=npix, gpix=gpix.reshape(-1), gwide=wide,
                    gwidth=width, gpad=(j * n + e).astype(np.int64),
                    gw=np.ascontiguousarray(w2.T).reshape(-1),
                    buf_len=max(spec["buf_len"], (5 + k) * n + stage))

    def _exact_outer(self, dtype: np.dtype, outer: int, rcode: int, limit: int | None
                     ) -> tuple[int, tuple[np.ndarray, int, int]] | None:
        """What the integer phase forms (``_exact_fields``, ``_split_exact``) first need:
        ``(top, q1)``, the largest magnitude of the 8-bit type and the outer table's weights
        as integers times 2^-m1 (``_dyadic``, with ``sum |q1|`` at most ``limit``; None: every
        blended value inside int16, ``32767 // top``), or None where the rounding is neither
        ``half_even`` nor ``half_away_from_zero`` (the integer shift rounds only those) or
        the weights are not such integers."""
        if rcode not in (_dtypes.rounding_code("half_even"),
                         _dtypes.rounding_code("half_away_from_zero")):
            return None
        top = 255 if dtype == np.uint8 else 128
        t1 = self.tables[outer]
        q1 = _dyadic(t1.w, t1.ptr, 32767 // top if limit is None else limit)
        return None if q1 is None else (top, q1)

    def _exact_fields(self, dtype: np.dtype, outer: int, phases: np.ndarray,
                      rcode: int, dense: np.ndarray | None = None) -> dict[str, Any]:
        """The integer form of a phase pass, or ``{}``: with ``half_even`` or
        ``half_away_from_zero`` rounding (the integer shift rounds either way), where the
        outer table's float32 weights are integers ``q1`` times 2^-m1 and the phase weights
        (two per phase) integers ``q2`` times 2^-m2, with every sum of 8-bit values that the
        pass forms bounded by 32767 in magnitude even with the rounding bias added. Then every
        float32 product and sum of the float pass is exact, its value is the integer sum
        times 2^-(m1+m2), and rounding that integer by the shift gives the same bits.
        ``dense``: the innermost table's dense weights; where they too are integers times
        2^-m2 (``bq``), the outputs outside the phase run are computed from the integer row
        as well (their int32 sums inside 2^24, where float32 is exact)."""
        outer_q = self._exact_outer(dtype, outer, rcode, 128)
        q2 = None if outer_q is None else _dyadic(phases, np.arange(0, phases.size + 1, 2), 128)
        if outer_q is None or q2 is None:
            return {}
        top, q1 = outer_q
        if top * q1[2] * q2[2] + (1 << (q1[1] + q2[1])) > 32767:
            return {}
        fields = dict(ishift=q1[1] + q2[1], wq=q1[0].astype(np.int16),
                      pq=tuple(int(v) for v in q2[0]) + (0,) * (4 - q2[0].size))
        if dense is not None:
            bq = np.asarray(dense, np.float32).astype(np.float64) * float(1 << q2[1])
            if np.array_equal(bq, np.floor(bq)) and np.abs(bq).max(initial=0) < 1 << 15 \
                    and top * q1[2] * np.abs(bq).sum(axis=1).max(initial=0) < 1 << 24:
                fields["bq"] = bq.astype(np.int16)
        return fields

    def _split_exact(self, dtype: np.dtype, outer: int, phases: np.ndarray,
                     rcode: int) -> dict[str, Any]:
        """The integer form of an 8-bit x0.5 phase pass of k taps (``_phase_split_k``), or
        ``{}``: with ``half_even`` or ``half_away_from_zero`` rounding, where the outer
        table's float32 weights are integers ``q1`` times 2^-m1 with every blended 8-bit
        value inside int16 (``top * sum |q1| <= 32767``), and the k phase weights integers
        ``q2`` times 2^-m2 with ``top * sum |q1| * sum |q2| < 2^24``. Then every float32
        product and sum of the float pass is exact (its values are integers times
        2^-(m1+m2) below 2^24 of them): the int16 rows hold the blended rows times 2^m1, the
        int32 sums the outputs times 2^(m1+m2), and rounding those by the shift gives the
        float store's bits. (Cubic at x0.5: weights in 32nds or 16ths, exact; Lanczos: not
        dyadic, float32.)"""
        outer_q = self._exact_outer(dtype, outer, rcode, None)
        if outer_q is None or outer_q[1][2] == 0:
            return {}
        top, q1 = outer_q
        q2 = _dyadic(phases, np.array([0, phases.size]), ((1 << 24) - 1) // (top * q1[2]))
        if q2 is None or np.abs(q2[0]).max(initial=0) >= 1 << 15:
            return {}
        return dict(ishift=q1[1] + q2[1], wq=q1[0].astype(np.int16),
                    pqk=tuple(int(v) for v in q2[0]), iscale=2.0 ** -q1[1])

    def _pixel_sweep(self, order: Sequence[int], perm: Sequence[int], xs: Sequence[int],
                     os_: Sequence[int]) -> bool:
        """Channels-last with many channels: whether the last two passes can share one sweep
        over whole pixel vectors. The innermost axis (channels) is copied, the axis before it
        (pixels) is the last pass, and both arrays of that sweep are contiguous over the two:
        its input is the program's input when there are two passes, else a contiguous
        scratch array."""
        if len(order) < 2 or len(perm) < 2 or order[-1] != perm[-2]:
            return False
        w_ax, c_ax = perm[-2], perm[-1]
        c = self.in_shape[c_ax]
        table = self.tables[w_ax]
        if self.tables[c_ax] is not None or c < 2 \
                or (table.n_in + 1 + table.n_out) * c > MAX_ROW:
            return False
        return os_[w_ax] == c * os_[c_ax] and (len(order) > 2 or xs[w_ax] == c * xs[c_ax])

    def _pixels_spec(self, shape: list[int], perm: list[int], a: int, inner: int,
                     src_strides: Sequence[int], os_: Sequence[int],
                     common: dict[str, Any]) -> tuple[dict[str, Any], float]:
        """The last two passes (outer axis ``a``, then the pixel axis ``inner`` before the
        copied channel axis) in one sweep: the fused pass in its ``SHAPE_MID`` form."""
        t1, t2 = self.tables[a], self.tables[inner]
        c = shape[perm[-1]]
        n_mid = shape[inner]
        shape = list(shape)
        shape[a], shape[inner] = t1.n_out, t2.n_out
        idx2, w2 = t2.dense
        out_shape = [shape[p] for p in perm]
        size = math.prod(out_shape)
        spec = dict(
            common, op=OP_FUSED, loop=SHAPE_MID, dst=-2, shape=out_shape,
            sstr=[src_strides[p] for p in perm], dstr=[os_[p] for p in perm],
            axis=perm.index(a), n_mid=n_mid, ptr=t1.ptr, off=t1.idx * src_strides[a], w=t1.w,
            k=idx2.shape[1], idx2=idx2.reshape(-1), w2=w2.reshape(-1),
            buf_len=(n_mid + 1 + t2.n_out) * c, units=size // (t2.n_out * c))
        return spec, size * (t1.mean_taps + t2.mean_taps)

    # --------------------------------------------------------------- pass order and layout

    def _packs(self, x: np.ndarray) -> bool:
        """Whether a weighted call copies ``x`` C-contiguous first (``contiguous``): its
        innermost axis in memory is a short copied one beside a resampled axis, but its pixels
        are not runs of adjacent elements (channels reversed, as in a BGR image viewed as RGB,
        or spaced, as RGB out of RGBA; or pixels apart, as in a mirrored row). The passes
        would then move one pixel's channels per row; after the copy they merge the channels
        into the row (``_merged_inner``). The sums are those of a contiguous input."""
        perm = layout_perm(x.shape, x.strides)
        if len(perm) < 2 or self.tiled is not None or self.copies:
            return False
        w_ax, c_ax = perm[-2], perm[-1]
        c = x.shape[c_ax]
        return (self.tables[w_ax] is not None and self.tables[c_ax] is None
                and 1 < c <= MAX_MERGED_CHANNELS and 0 not in x.strides  # not broadcast
                and not (x.strides[c_ax] == x.itemsize and x.strides[w_ax] == c * x.itemsize))

    def _mergeable(self, x_strides: Sequence[int],
                   out_strides: Sequence[int]) -> tuple[int, int] | None:
        """``(w, c)`` if a short copied innermost axis ``c`` can merge into resampled ``w``."""
        perm = layout_perm(self.out_shape, out_strides)
        if len(perm) < 2:
            return None
        w_ax, c_ax = perm[-2], perm[-1]
        c = self.in_shape[c_ax]
        if self.tables[w_ax] is None or self.tables[c_ax] is not None \
                or not 1 < c <= MAX_MERGED_CHANNELS:
            return None
        for strides in (x_strides, out_strides):
            if strides[w_ax] != c * strides[c_ax]:
                return None
        return w_ax, c_ax

    def run_order(self, x_strides: Sequence[int], out_strides: Sequence[int]) -> list[int]:
        """The order in which weighted passes run for arrays with these byte strides.

        ``self.order``, except that the innermost axis of the output's layout, if resampled
        (or merged with a short copied innermost axis, see ``_merged_inner``), goes last to
        share a sweep with the pass before it; with ``keep_order`` exactly ``self.order``.
        The value of every output depends on this order (float intermediates) and on nothing
        else of the layout: chunked execution passes the whole array's run order with
        ``keep_order=True`` to get the whole array's bits.
        """
        order = list(self.order)
        if self.keep_order or not order:
            return order
        pair = self._mergeable(x_strides, out_strides)
        last = pair[0] if pair is not None else layout_perm(self.out_shape, out_strides)[-1]
        if last in order:
            order.remove(last)
            order.append(last)
        return order

    def _merged_inner(self, x_strides: Sequence[int], out_strides: Sequence[int],
                      affine: tuple[list[int], list[int]] | None = None
                      ) -> tuple[Plan, list[int], list[int], tuple[int, int, int]] | None:
        """Channels-last: view a resampled axis and a short copied innermost axis as one.

        ``(..., W, C)`` with ``C`` small and both arrays contiguous over ``(W, C)`` becomes
        ``(..., W*C)`` with W's table expanded (output ``o*C + k`` reads ``i*C + k`` with the
        same weight): the same sums, now on an innermost axis, so the fused sweep applies.
        An affine's arrays must be viewable that way too (a scalar, or laid out like the
        output); a per-channel one is not, and the pixels keep their own axes.
        Returns the merged plan, the strides of both arrays viewed that way and
        ``(w_ax, c_ax, c)`` (``_merged_view``), or None.
        """
        pair = self._mergeable(x_strides, out_strides)
        if pair is None:
            return None
        w_ax, c_ax = pair
        if affine is not None and any(s[w_ax] != self.in_shape[c_ax] * s[c_ax] for s in affine):
            return None
        table, c = self.tables[w_ax], self.in_shape[c_ax]
        order = self.run_order(x_strides, out_strides)
        key = (w_ax, c_ax, tuple(order))
        merged = self._merged.get(key)
        if merged is None:
            k = np.arange(c)
            rows = np.repeat(np.diff(table.ptr), c)
            ptr = np.zeros(table.n_out * c + 1, dtype=np.int64)
            np.cumsum(rows, out=ptr[1:])
            # output (o, k): the taps of o, each index i -> i*c + k
            starts = np.repeat(table.ptr[:-1], c)
            tap = np.arange(ptr[-1]) - np.repeat(ptr[:-1], rows)
            src_tap = np.repeat(starts, rows) + tap
            kk = np.repeat(np.tile(k, table.n_out), rows)
            expanded = AxisTable(table.n_in * c, table.n_out * c, ptr,
                                 table.idx[src_tap] * c + kk, table.w[src_tap])
            keep = [a for a in range(len(self.in_shape)) if a != c_ax]
            tables = [expanded if a == w_ax else self.tables[a] for a in keep]
            shape = [self.in_shape[a] * (c if a == w_ax else 1) for a in keep]
            merged = Plan(shape, tables, weighted=True, op=self.op,
                          order=[a if a < c_ax else a - 1 for a in order], keep_order=True)
            merged._owner = self
            merged.channels = c
            self._merged[key] = merged
            self._grew(merged.nbytes)

        where = (w_ax, c_ax, c)
        return (merged, _merged_view(x_strides, *where), _merged_view(out_strides, *where),
                where)

    def adjoint_plan(self) -> Plan:
        """The plan of the adjoint: transposed tables, input and output shapes swapped."""
        if self._adjoint is None:
            check_allocation(math.prod(self.in_shape), "in_shape")  # at least a byte each
            check_allocation(sum(t.n_in + 1 for t in self.tables if t is not None) * 32,
                             "in_shape")
            tables = [None if t is None else
                      (t.table(0, t.n_out) if isinstance(t, TiledAxis) else t).transpose()
                      for t in self.tables]
            adjoint = Plan(self.out_shape, tables, weighted=True, op=self.op + " adjoint")
            adjoint._owner = self
            self._adjoint = adjoint
            self._grew(adjoint.nbytes)
        return self._adjoint


def contiguous(x: np.ndarray, threads: int | None = None) -> np.ndarray:
    """A C-contiguous copy of ``x`` made by one gather pass over its rows (threaded): whole
    pixels at a time, or a pixel's elements where its channels are reversed or spaced, where
    NumPy's copy of such views goes element by element."""
    check_allocation(x.nbytes, "scratch")
    shape = x.shape
    plan = PLANS.get_or_build(("contiguous", shape),
                              lambda: Plan(shape, [None] * len(shape), weighted=False,
                                           op="copy"))
    return plan(x, out=np.empty(shape, x.dtype), threads=threads)


# ------------------------------------------------------------------------------ the cache

class PlanCache:
    """The one plan cache of every facade, bounded by the bytes its plans hold.

    Keys are the facades' own (each starts with the facade's name); a plan's bytes are its
    tables plus every program, merged or adjoint plan it compiled since. Least recently used
    plans go first; a plan larger than the whole bound is returned but not kept. Safe under
    concurrent calls: lookups are single dictionary operations under the GIL and every
    change of the contents or the byte count holds a lock.
    """

    def __init__(self, max_bytes: int = 256 << 20):
        self._plans: OrderedDict[Any, Plan] = OrderedDict()
        self._lock = threading.RLock()
        self.max_bytes = int(max_bytes)
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: Any) -> Plan | None:
        plan = self._plans.get(key)
        if plan is not None:
            self.hits += 1
            try:
                self._plans.move_to_end(key)
            except KeyError:  # evicted by another thread in between
                pass
        return plan

    def get_or_build(self, key: Any, build: Callable[[], Plan]) -> Plan:
        """The plan under ``key``, built (outside the lock) and kept if it is missing."""
        plan = self.get(key)
        if plan is None:
            self.misses += 1
            plan = build()
            self.put(key, plan)
        return plan

    def put(self, key: Any, plan: Plan) -> None:
        with self._lock:
            if key in self._plans:
                return
            plan._cache = self
            self._plans[key] = plan
            self.bytes += plan.nbytes
            self._evict()

    def grew(self, delta: int) -> None:
        """A plan held here now holds ``delta`` more bytes (``Plan._grew``)."""
        with self._lock:
            self.bytes += delta
            self._evict()

    def _evict(self) -> None:
        while self.bytes > self.max_bytes and self._plans:
            _, old = self._plans.popitem(last=False)
            old._cache = None
            self.bytes -= old.nbytes

    def clear(self) -> None:
        with self._lock:
            for plan in self._plans.values():
                plan._cache = None
            self._plans.clear()
            self.bytes = self.hits = self.misses = 0

    def set_max_bytes(self, max_bytes: int) -> None:
        with self._lock:
            self.max_bytes = int(max_bytes)
            self._evict()

    def info(self) -> dict[str, int]:
        with self._lock:
            return {"plans": len(self._plans), "bytes": self.bytes,
                    "max_bytes": self.max_bytes, "hits": self.hits, "misses": self.misses}


#: The plan cache every facade shares.
PLANS = PlanCache()


class CallMemo:
    """A facade's raw call arguments seen before -> the cache key of their validated plan.

    A call whose arguments (``_exec.call_key``: values and exact types) match an earlier call
    that passed validation goes straight to its plan: the facade validates nothing twice.
    A facade may keep something of its own beside the key (``extra``: what it does with the
    plan's result). Bounded: cleared when it holds ``max_entries`` keys.
    """

    def __init__(self, max_entries: int = 4096):
        self._seen: dict[Any, tuple[Any, Any, Plan]] = {}
        self.max_entries = max_entries
        self._lookups = 0

    def plan(self, raw: Any) -> Plan | None:
        """The plan of arguments seen before (``raw`` from ``call_key``), or None."""
        found = self.lookup(raw)
        return None if found is None else found[0]

    def lookup(self, raw: Any) -> tuple[Plan, Any] | None:
        """``(plan, extra)`` of arguments seen before, or None."""
        if raw is None:
            return None
        seen = self._seen.get(raw)
        if seen is None:
            return None
        key, extra, plan = seen
        self._lookups += 1
        if plan._cache is None or not self._lookups & 63:
            # evicted since (then built again, or not), and now and then a use the cache's
            # recency order sees: the plan in hand otherwise, without hashing its key
            plan = PLANS.get(key)  # type: ignore[assignment]
            if plan is None:
                return None
            self._seen[raw] = (key, extra, plan)
        else:
            PLANS.hits += 1
        return plan, extra

    def remember(self, raw: Any, key: Any, extra: Any = None) -> None:
        if raw is None:
            return
        plan = PLANS._plans.get(key)
        if plan is None:   # not kept (larger than the cache's bound)
            return
        if len(self._seen) >= self.max_entries:
            self._seen.clear()
        self._seen[raw] = (key, extra, plan)


class KeptProgram:
    """An executor program a facade planned without a ``Plan`` (``compat.cv2``'s uint8 pairs
    of new shapes, planned in one native call): what it computes a ``shape`` output of
    ``dtype`` from, for input rows ``stride`` bytes apart (the layout it was compiled for),
    its thread ``work``, and what the facade keeps beside it (``extra``)."""

    __slots__ = ("program", "work", "shape", "dtype", "stride", "extra")

    def __init__(self, program: Program, work: float, shape: tuple[int, ...], dtype: np.dtype,
                 stride: int | None, extra: Any = None):
        self.program, self.work, self.shape = program, work, shape
        self.dtype, self.stride, self.extra = dtype, stride, extra

    def run_new(self, x: np.ndarray, threads: int | None) -> np.ndarray:
        """The program run on ``x`` (laid out as compiled for; not checked here) into a new
        array; ``threads`` already validated."""
        result = new_array(self.shape, self.dtype)
        self.program.run(x, result, threads_for(threads, self.work))
        return result


class KeptPrograms:
    """Raw call arguments (``_exec.call_key``) -> the ``KeptProgram`` a facade planned for
    them: a call seen again runs its program without planning, as ``CallMemo`` gives a plan.
    Emptied when it would hold more than ``max_bytes`` of programs or ``max_entries`` of
    them (ever-new shapes keep it bounded), and by ``clear_cache``."""

    def __init__(self, max_bytes: int = 16 << 20, max_entries: int = 1024):
        self._kept: dict[Any, KeptProgram] = {}
        self._lock = threading.Lock()
        self.bytes = 0
        self.max_bytes, self.max_entries = max_bytes, max_entries

    def get(self, raw: Any) -> KeptProgram | None:
        return self._kept.get(raw)

    def remember(self, raw: Any, kept: KeptProgram) -> None:
        size = kept.program.nbytes
        if raw is None or size > self.max_bytes:
            return
        with self._lock:
            old = self._kept.pop(raw, None)
            if old is not None:
                self.bytes -= old.program.nbytes
            if self.bytes + size > self.max_bytes or len(self._kept) >= self.max_entries:
                self._kept.clear()
                self.bytes = 0
            self._kept[raw] = kept
            self.bytes += size

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.bytes = 0


PROGRAMS = KeptPrograms()


def cache_info() -> dict[str, int]:
    """The shared plan cache: plans held, bytes they hold, the byte bound, hits and misses.

    Examples
    --------
    >>> import resamplex as rx
    >>> sorted(rx.plan_cache_info())
    ['bytes', 'hits', 'max_bytes', 'misses', 'plans']
    """
    return PLANS.info()


class KeptTables:
    """Axis tables a facade keeps by the parameters that made them, least recently used
    dropped first beyond ``max_bytes`` (counted twice: the planner keeps its analysis of a
    table beside it, ``_pipeline._table_memo``). Plans of new shapes that share an axis (random
    crops of one image resized to one size) then share its table and that analysis."""

    def __init__(self, max_bytes: int = 16 << 20):
        self._tables: OrderedDict[Any, AxisTable] = OrderedDict()
        self._lock = threading.Lock()
        self.max_bytes = max_bytes
        self.bytes = 0

    def get_or_build(self, key: Any, build: Callable[[], AxisTable]) -> AxisTable:
        with self._lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
                return table
        table = build()
        size = 2 * _table_bytes(table)
        with self._lock:
            if key in self._tables or size > self.max_bytes:
                return self._tables.get(key, table)
            self._tables[key] = table
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, old = self._tables.popitem(last=False)
                self.bytes -= 2 * _table_bytes(old)
        return table

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()
            self.bytes = 0


TABLES = KeptTables()


def clear_cache() -> None:
    """Drop every cached plan (and the programs compiled for them, the axis tables kept for
    plans of new shapes, and the programs facades planned without a plan).

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.clear_plan_cache(); rx.plan_cache_info()["plans"]
    0
    """
    PLANS.clear()
    TABLES.clear()
    PROGRAMS.clear()


def set_cache_limit(max_bytes: int) -> None:
    """Bound the plan cache to ``max_bytes`` bytes of tables and programs (default 256 MiB).

    Plans are dropped least recently used first; ``0`` keeps nothing cached.

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.set_plan_cache_limit(64 << 20); rx.plan_cache_info()["max_bytes"]
    67108864
    >>> rx.set_plan_cache_limit(256 << 20)
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise ResamplexError(f"max_bytes: expected an integer >= 0; got {max_bytes!r}")
    PLANS.set_max_bytes(max_bytes)
