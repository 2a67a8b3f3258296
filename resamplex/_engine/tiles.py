"""Long axes, tile by tile: ``TiledAxis`` (an axis whose table is built one range of outputs
at a time) and ``TileRunner`` (how a plan with such an axis runs: periodic axes as kept runs
of equal tiles, others natively, each tile built in a thread's buffers, or tile by tile in
Python where neither applies)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from .. import _dtypes
from .._tables import AxisSpec, AxisTable
from ._exec import Program, threads_for
from ._tablegen import csr_to_dense as _tablegen_csr_to_dense
from .cache import BYTES_LOCK, MAX_PROGRAMS
from .compile.codes import OP_WEIGHTED, SHAPE_LAST
from .compile.gather import gather_program
from .compile.weighted import weighted_specs
from .memory import table_bytes

if TYPE_CHECKING:  # pragma: no cover
    from .plan import Plan

#: ``TileRunner._tile_tables`` before the first call has built them.
_NOT_BUILT: Any = object()

#: Outputs per tile in the runs of a periodic long axis (``TiledAxis.runs``), about: tables
#: this small are cheap to keep, and a run of them is one call.
RUN_TILE = 2048


#: Outputs per tile of a long axis without a period run natively (``TileRunner._native_tiles``),
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


def split_axis(v: np.ndarray, a: int, count: int, length: int, step: int) -> np.ndarray:
    """``v`` with axis ``a`` as two: ``count`` windows of ``length`` elements, window ``j``
    from element ``j step`` (they overlap where ``step < length``), a view."""
    s = v.strides[a]
    return np.lib.stride_tricks.as_strided(
        v, v.shape[:a] + (count, length) + v.shape[a + 1:],
        v.strides[:a] + (step * s, s) + v.strides[a + 1:], writeable=v.flags.writeable)


class TileRunner:
    """How ``plan`` (its axis ``plan.tiled`` a ``TiledAxis``) runs, and what it keeps for
    that: the native tile programs per layout, the tables of a periodic axis's runs and
    their plans per pass order. What it keeps counts in the plan's bytes."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.axis = int(plan.tiled)  # type: ignore[arg-type]
        #: A tiled axis without a period run by ``_exec.Program.run_tiles``, per layout
        #: (``_native_tiles``): ``(program, filler, length, n_w, k, scale, channels)``, or
        #: None where the layout's tile program is not one weighted pass over plain taps.
        self._native: dict[tuple[Any, ...], tuple[Any, ...] | None] = {}
        #: The kept tiles of a periodic tiled axis (``_tile_runs``): their tables, from
        #: ``TiledAxis.runs`` (None: the axis has none), and their plans per pass order.
        self._tile_tables: Any = _NOT_BUILT
        self._tiles: dict[tuple[int, ...], list[tuple[int, int, int, int, Plan]]] = {}

    def run(self, x: np.ndarray, result: np.ndarray, threads: int | None, rounding: str,
            dtype: np.dtype | None = None,
            affine: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Run the plan on ``x`` (checked) into ``result`` (non-empty) tile by tile: the tiled
        axis's table is built for one range of outputs at a time, and a plan of that range
        runs on the input window it reads (as chunked execution does: the whole array's pass
        order, so the same bits). No table or scratch grows with the whole axis. A periodic
        axis (``TiledAxis.runs``) keeps its tile plans, and their programs, from call to
        call, and runs each run of equal tiles in one call (``_tile_runs``). ``dtype`` and
        ``affine``: a converting call's (``Plan._call_convert``)."""
        plan = self.plan
        a = self.axis
        order = plan.run_order(x.strides, result.strides)
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
                xs = split_axis(xs, a, count, n_w, step)
                ys = split_axis(ys, a, count, length, length)
                if tile_affine is not None:
                    tile_affine = tuple(split_axis(v, a, count, length, length)
                                        if v.shape[a] > 1 else np.expand_dims(v, a)
                                        for v in tile_affine)
            tile(xs, out=ys, threads=threads, rounding=rounding, dtype=dtype,
                 affine=tile_affine)  # type: ignore[arg-type]
        return result

    def _built_tiles(self, order: list[int]) -> Iterator[tuple[int, int, int, int, Plan]]:
        """``(o0, 1, lo, 0, plan)`` per tile of the tiled axis (``_tile_runs``' form), each
        built as it is reached into the same buffers (a tile's plan runs before the next
        tile is built)."""
        plan = self.plan
        spec = plan.tables[self.axis]
        buffers = spec.buffers()
        for o0 in range(0, spec.n_out, spec.tile):
            o1 = min(spec.n_out, o0 + spec.tile)
            t, lo = spec.window(o0, o1, buffers)
            yield o0, 1, lo, 0, plan.tile_plan(t, order)

    def _run_native(self, order: list[int], x: np.ndarray, result: np.ndarray,
                    threads: int | None, rounding: str) -> bool:
        """Run a tiled axis without a period natively (``_exec.Program.run_tiles``): tiles
        of up to ``NATIVE_TILE`` outputs, each built in a thread's buffers, in the form its
        pass reads, and run at once, every tile in one compiled loop shared by the threads.
        The tile program is the one a tile of the Python loop below would run (one weighted
        pass, or a gather in its generic form), compiled once per layout for a tile of
        ``length`` outputs on an input window of ``n_w``: the same taps, the same sums.
        False where that does not apply (the caller runs the tiles itself)."""
        plan = self.plan
        if not (result.dtype == x.dtype and (not plan.weighted or (
                x.flags.aligned and x.dtype.isnative and result.flags.aligned
                and result.dtype.isnative))):
            return False
        key = (tuple(order), x.dtype, x.strides, result.strides, rounding)
        entry = self._native.get(key, _NOT_BUILT)
        if entry is _NOT_BUILT:
            entry = self._native_tiles(order, x, result, rounding)
            with BYTES_LOCK:
                if key not in self._native and len(self._native) < MAX_PROGRAMS:
                    self._native[key] = entry
                    if entry is not None:
                        plan.grew(entry[0].nbytes)
        if entry is None:
            return False
        program, filler, length, n_w, k, scale, channels = entry
        a = self.axis
        n_out = result.shape[a]
        starts = np.arange(0, n_out - length + 1, length, dtype=np.int64)
        tail = n_out - length if n_out % length else -1
        n = threads_for(threads, program.work * (n_out / length))  # (checked by the caller)
        if program.run_tiles(x, result, n, filler, starts, tail, length, n_w, k, scale,
                             channels, x.strides[a], result.strides[a]) == 0:
            return True
        with BYTES_LOCK:  # a tile outgrew its window: tiles in Python from now on
            if self._native.get(key) is entry:
                self._native[key] = None
                plan.grew(-program.nbytes)
        return False

    def _native_tiles(self, order: list[int], x: np.ndarray, result: np.ndarray,
                      rounding: str) -> tuple[Any, ...] | None:
        """``_run_native``'s program and arguments for this layout, or None."""
        plan = self.plan
        a = self.axis
        axis = plan.tables[a]
        spec = axis.spec
        builder = spec.builder
        cap = max(1, builder.row_cap)
        length = max(1, min(NATIVE_TILE, NATIVE_TAPS // cap))
        if axis.n_out < 2 * length:
            return None
        # the window of a tile: its coordinates' reach (a slope of at most r) and a row's taps
        slope = max(spec.step, axis.n_in / axis.n_out,
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
        tile = plan.tile_plan(table, order)
        before = (slice(None),) * a
        xs = x[before + (slice(lo, lo + n_w),)]
        ys = result[before + (slice(0, length),)]
        if not tile.weighted or tile.copies:
            # a gather: its generic form (no repeat, halving or wide moves, which depend on
            # the table) reads one byte offset an output, the CSR form's
            p = gather_program(tile, x.dtype.itemsize, xs.strides, ys.strides, spec_only=True)
            for field in ("phase", "lo", "hi"):
                p.pop(field, None)
            p.update(k=1, n_in=0, n_mid=0)
            scale = int(xs.strides[a])
            if not np.array_equal(p["off"], idx * scale):
                return None
            return (Program([p], [], float(math.prod(p["shape"]))), builder.tile_filler(),
                    length, n_w, 0, scale, 1)
        if tile.fixed or tile.packs(xs):
            return None
        passes, scratch, work = weighted_specs(tile, x.dtype, xs.strides, ys.strides,
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

    def _tile_runs(self, order: list[int]) -> list[tuple[int, int, int, int, Plan]] | None:
        """``(o0, count, lo, step, plan)`` per run of a periodic tiled axis
        (``TiledAxis.runs``, built on first use, once for every pass order), for the pass
        ``order``, kept with this plan (they count in its bytes, their programs too); None
        for an axis without a period."""
        plan = self.plan
        if self._tile_tables is _NOT_BUILT:
            built = plan.tables[int(plan.tiled)].runs()  # type: ignore[arg-type]
            with BYTES_LOCK:  # another thread may have kept its own meanwhile: one counts
                first = self._tile_tables is _NOT_BUILT
                if first:
                    self._tile_tables = built
            if first and built is not None:
                plan.grew(sum(table_bytes(t) + sum(v.nbytes for v in t.dense)
                              for *_, t in built))
        tables = self._tile_tables
        if tables is None:
            return None
        runs = self._tiles.get(tuple(order))
        if runs is None:
            runs = []
            for o0, count, lo, step, t in tables:
                tile = plan.tile_plan(t, order, count)
                tile.owner = plan
                runs.append((o0, count, lo, step, tile))
            runs = self._tiles.setdefault(tuple(order), runs)
        return runs
