"""Chunked resize of Dask arrays (SPEC §7): ``from resamplex import dask as rxd``.

How it works
------------
Every resize is axis tables applied by one engine (``resamplex._resize.Plan``); the output
element ``o`` of an axis reads the input indices ``idx[ptr[o]:ptr[o+1]]`` of that axis' table.
So the output chunk ``[o0, o1)`` of an axis needs only the input window
``[min idx, max idx]`` of those rows. :func:`resize` builds the tables of the *whole* array
once (the same cached plan ``rx.resize`` uses), then one task per output chunk: the task copies
the parts of the input blocks that overlap its window into one array, restricts each table to
its rows (indices shifted by the window's start) and applies a ``Plan``. The graph is written by
hand, so each task depends on exactly the input blocks its window overlaps: no rechunk, no
global overlap depth, no full-array gather.

Why the result is bitwise the whole-array result
------------------------------------------------
A weighted plan applies one axis at a time, in the accumulator type (float32; float64 for
float64, int16 and uint16 data), with the taps of each output summed in a fixed order and no
fused multiply-add; every loop shape of the engine does exactly this (``_engine/kernels/_taps.pyx``).
The value of an output element therefore depends only on its taps on each axis and on the
*order of the passes*, never on the extent of the array around it. The pass order is
``Plan.order`` (chosen from the shape to save work), except that at run time the innermost
axis of the output's memory layout, if resampled, moves last (``Plan.run_order``).

A chunk is smaller than the whole array, so its own cost-based order, its innermost axis and
its merge decision could differ. Each task therefore gets the *run-time* pass order of the
whole array in C order (``Plan.run_order``, the engine's own rule) and runs its plan with
``keep_order=True``, which applies exactly that order whatever the window's shape or layout.
An axis whose restricted table is the identity is skipped by ``Plan``: that pass multiplies by
exactly 1 and changes no bit.

Nearest plans are pure gathers (bytes copied), so any window gives the same bytes.

The guarantee is against ``rx.resize`` of the whole array in C order, i.e.
``rx.resize(np.ascontiguousarray(x.compute()), ...)`` with the same parameters: the same bits
for any chunking (input and output), any scheduler (threaded, processes, ``dask.distributed``)
and any ``threads``.
"""

from __future__ import annotations

import bisect
import itertools
import math
import numbers
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

try:
    import dask
    import dask.array as da
    from dask.array.core import normalize_chunks
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph
    from dask.task_spec import List, Task, TaskRef
    from dask.utils import parse_bytes
except ImportError as exc:  # pragma: no cover - exercised only without dask
    raise ImportError(
        "resamplex.dask needs Dask: pip install 'resamplex[dask]' (or dask[array])"
    ) from exc

from . import _dtypes
from ._errors import ResamplexError, bad_value
from ._checks import check_threads as _check_threads, normalize_axes as _normalize_axes
from ._engine.memory import layout_perm as _layout_perm
from ._engine.plan import Plan
from ._engine.tiles import TiledAxis
from ._resize import _check_plan_size, _core_args, core_plan
from ._tables import AxisTable

__all__ = ["pyramid", "resize"]


# ------------------------------------------------------------------------------ public API

def resize(x: Any, size: Any = None, *, scale: Any = None, axes: Any = None,
           chunks: Any = None, mode: str = "linear",
           coordinate_transform: str = "half_pixel",
           nearest_mode: str = "round_prefer_ceil", antialias: bool = False,
           cubic_a: float = -0.75, lanczos_a: int = 3, exclude_outside: bool = False,
           rounding: str = "half_even", threads: int | None = 1) -> "da.Array":
    """Resize a Dask array lazily, bitwise equal to :func:`resamplex.resize` on the whole array.

    Parameters
    ----------
    x : dask.array.Array or array-like
        Anything ``dask.array.asarray`` accepts (a NumPy array, a Zarr array, ...). Chunk
        sizes must be known.
    size, scale, axes, mode, coordinate_transform, nearest_mode, antialias, cubic_a, \
lanczos_a, exclude_outside, rounding
        As in :func:`resamplex.resize`, and validated the same way, with the same errors,
        before any graph is built.
    chunks : optional
        Output chunks, anything ``dask.array.core.normalize_chunks`` accepts for the output
        shape (``"auto"``, ``-1``, a chunk shape, explicit chunks). Default: the input's chunk
        boundaries scaled by ``n_out / n_in`` on resampled axes (the same number of chunks),
        unchanged on the other axes; axes that grow are split further if a chunk would exceed
        both the input's largest chunk and Dask's ``array.chunk-size``.
    threads : int or None, default 1
        Threads each task uses (``None``: :func:`resamplex.get_num_threads`). Dask already
        runs tasks in parallel, hence the default of 1. The result does not depend on it.

    Returns
    -------
    dask.array.Array
        Same dtype as ``x``. Each output chunk is one task that reads only the input blocks
        overlapping the window its outputs sample.

    Examples
    --------
    >>> import numpy as np, dask.array as da, resamplex as rx
    >>> from resamplex import dask as rxd
    >>> x = da.from_array(np.arange(64.0).reshape(8, 8), chunks=4)
    >>> y = rxd.resize(x, (4, 4), mode="area")
    >>> y.chunks
    ((2, 2), (2, 2))
    >>> bool((y.compute() == rx.resize(x.compute(), (4, 4), mode="area")).all())
    True
    """
    x = _as_dask(x)
    key = _core_args(x.shape, size, scale, axes, mode, coordinate_transform, nearest_mode,
                     antialias, cubic_a, exclude_outside, lanczos_a)
    _check_plan_size(key, 0)  # the tables; the output lives in chunks, not in memory
    dtype = x.dtype
    if mode == "nearest":
        _dtypes.check_nearest_dtype(dtype)
    else:
        # The words rx.resize uses (Plan.check_input): the same error, the same message.
        _dtypes.weighted_info(dtype, "linear")
    _dtypes.rounding_code(rounding)
    if threads is not None:
        _check_threads(threads)
    plan = core_plan(key)
    default = _default_chunks(x, plan)
    if chunks is None:
        out_chunks = default
    else:
        try:
            out_chunks = normalize_chunks(chunks, shape=plan.out_shape, dtype=dtype,
                                          previous_chunks=default)
        except (ValueError, TypeError) as exc:
            raise bad_value("chunks", chunks,
                            f"chunks for the output shape {plan.out_shape} ({exc})") from None
    name = "resamplex-resize-" + tokenize(x, key, rounding, threads, out_chunks)
    return _build(x, plan, out_chunks, name, rounding, threads)


def pyramid(x: Any, levels: int, *, factor: float = 2, axes: Any, mode: str = "area",
            chunks: Any = None, **kwargs: Any) -> list:
    """The multiscale list ``[x, level 1, ..., level levels]`` of an OME-Zarr image pyramid.

    Level ``k`` is level ``k - 1`` shrunk by ``factor`` on ``axes`` with floor lengths:
    ``resize(level[k - 1], size=[n // factor ...], scale=[1 / factor ...], axes=axes,
    mode=mode, **kwargs)``. The scale fixes the coordinate map to exactly ``factor`` input
    pixels per output pixel (an odd length drops its last row rather than stretching the
    footprints), so level ``k``'s pixel size is exactly ``factor**k``, as OME-Zarr's
    ``coordinateTransformations`` state it; with ``half_pixel`` (the default) its pixel
    centres sit at ``(i + 0.5) * factor**k - 0.5`` of level 0 (a translation of
    ``(factor**k - 1) / 2``).

    Each level is computed **from the previous level**, as OME-Zarr tools do: every level costs
    a ``factor``-fold shrink of a small array instead of a large shrink of the original, and
    computing all levels together (one ``dask.array.store``) reads the input once. Each level
    is therefore bitwise ``rx.resize`` applied level by level (for ``area`` with ``factor=2``,
    a mean of means, which equals the mean of the ``4**d`` block in exact arithmetic only).

    Parameters
    ----------
    x : dask.array.Array or array-like
        Level 0 (anything ``dask.array.asarray`` accepts).
    levels : int
        Number of levels below ``x`` (``0`` returns ``[x]``). Every length of every level must
        stay >= 1.
    factor : number > 1, default 2
        Shrink factor per level.
    axes : int or sequence of int
        The spatial axes to shrink (channels, time, ... are kept).
    mode : str, default "area"
        As :func:`resamplex.resize`; ``area`` (block means) is the usual choice.
    chunks : optional
        Output chunks of every level, as in :func:`resize`. Default: the chunk shape of ``x``
        (``x.chunksize``) at every level, clipped to the level's shape (OME-Zarr stores keep one
        chunk shape across levels).
    **kwargs
        Passed to :func:`resize` (``coordinate_transform``, ``antialias``, ``rounding``,
        ``threads``, ...).

    Returns
    -------
    list of dask.array.Array

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dask as rxd
    >>> levels = rxd.pyramid(np.ones((3, 64, 48), np.float32), 3, axes=(1, 2))
    >>> [lv.shape for lv in levels]
    [(3, 64, 48), (3, 32, 24), (3, 16, 12), (3, 8, 6)]
    """
    x = _as_dask(x)
    if isinstance(levels, bool) or not isinstance(levels, numbers.Integral) or levels < 0:
        raise bad_value("levels", levels, "an integer >= 0")
    if (isinstance(factor, bool) or not isinstance(factor, numbers.Real)
            or not math.isfinite(float(factor)) or float(factor) <= 1):
        raise bad_value("factor", factor, "a finite number > 1")
    axes_t = _normalize_axes(axes, x.ndim)
    shape = list(x.shape)
    sizes = []
    for k in range(1, int(levels) + 1):
        size = []
        for a in axes_t:
            n = shape[a] // factor if isinstance(factor, numbers.Integral) \
                else math.floor(shape[a] / float(factor))
            n = int(n)
            if n < 1 and shape[a] > 0:
                raise ResamplexError(
                    f"levels: level {k} would shrink axis {a} from length {shape[a]} to "
                    f"{n}; at most {k - 1} levels of factor {factor} fit shape {x.shape}")
            size.append(n)
            shape[a] = n
        sizes.append(tuple(size))
    level_chunks = tuple(x.chunksize) if chunks is None else chunks
    scale = (1.0 / float(factor),) * len(axes_t)
    result = [x]
    for size in sizes:
        result.append(resize(result[-1], size, scale=scale, axes=axes_t, mode=mode,
                             chunks=level_chunks, **kwargs))
    return result


# ------------------------------------------------------------------------------ helpers

def _as_dask(x: Any) -> "da.Array":
    if not isinstance(x, da.Array):
        if isinstance(x, (str, bytes)) or x is None:
            raise bad_value("x", x, "a dask.array.Array or an array-like")
        try:
            x = da.asarray(x)
        except (ValueError, TypeError) as exc:
            raise bad_value("x", x, f"a dask.array.Array or an array-like ({exc})") from None
    if x.ndim == 0:
        raise ResamplexError(f"x: 0-d arrays have no axis to resample; got {x!r}")
    if any(math.isnan(n) for n in x.shape) or any(
            math.isnan(c) for axis in x.chunks for c in axis):
        raise ResamplexError("x: chunk sizes must be known (call x.compute_chunk_sizes()); "
                             f"got chunks {x.chunks}")
    return x


def _ends(sizes: Sequence[int]) -> list[int]:
    """The end of each chunk: running sums of ``sizes`` as Python ints."""
    return [int(e) for e in itertools.accumulate(sizes)]


def _default_chunks(x: "da.Array", plan: Plan) -> tuple[tuple[int, ...], ...]:
    """Input chunk boundaries scaled by ``n_out / n_in`` (same count), split if too big."""
    chunks = []
    for c, n_in, n_out in zip(x.chunks, plan.in_shape, plan.out_shape):
        if n_in == n_out:
            chunks.append(tuple(c))
            continue
        bounds = [0]
        for b in _ends(c):
            bounds.append((b * n_out + n_in // 2) // n_in)  # round half up, in integers
        sizes = tuple(hi - lo for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo)
        chunks.append(sizes or (n_out,))
    itemsize = x.dtype.itemsize
    limit = max(math.prod(x.chunksize) * itemsize,
                parse_bytes(dask.config.get("array.chunk-size")))
    grown = [a for a in range(x.ndim) if plan.out_shape[a] > plan.in_shape[a]]
    while math.prod(max(c, default=0) for c in chunks) * itemsize > limit:
        splittable = [a for a in grown if max(chunks[a]) > 1]
        if not splittable:
            break
        a = max(splittable, key=lambda a: max(chunks[a]))
        chunks[a] = tuple(p for c in chunks[a] for p in (c - c // 2, c // 2) if p)
    return tuple(chunks)


# ------------------------------------------------------------------------------ the graph

@dataclass(frozen=True)
class _AxisPiece:
    """One output chunk along one axis: what to compute and what to read."""

    out: tuple[int, int]        # output range computed, [o0, o1)
    window: tuple[int, int]     # input window read, [lo, hi)
    table: AxisTable | None     # restricted table (indices relative to lo); None: copy


def _restrict(table: AxisTable, o0: int, o1: int, lo: int, hi: int) -> AxisTable:
    p0, p1 = int(table.ptr[o0]), int(table.ptr[o1])
    return AxisTable(hi - lo, o1 - o0, np.ascontiguousarray(table.ptr[o0:o1 + 1] - p0),
                     np.ascontiguousarray(table.idx[p0:p1] - lo),
                     np.ascontiguousarray(table.w[p0:p1]), table.shift)


def _axis_piece(table: AxisTable | TiledAxis | None, o0: int, o1: int) -> _AxisPiece:
    """What output chunk ``[o0, o1)`` of one axis reads: its window and restricted table."""
    if table is None:  # copied axis: the window is the output range
        return _AxisPiece((o0, o1), (o0, o1), None)
    r0, r1 = o0, o1  # the rows of `table` that hold outputs [o0, o1)
    if isinstance(table, TiledAxis):  # a long axis: build just this range's rows
        table, r0, r1 = table.table(o0, o1), 0, o1 - o0
    taps = table.idx[table.ptr[r0]:table.ptr[r1]]
    lo, hi = (int(taps.min()), int(taps.max()) + 1) if taps.size else (0, 1)
    return _AxisPiece((o0, o1), (lo, hi), _restrict(table, r0, r1, lo, hi))


@dataclass(frozen=True)
class _ChunkTask:
    """Everything one output chunk's task needs (small: restricted tables, no data)."""

    pieces: tuple[_AxisPiece, ...]
    block_starts: tuple[tuple[int, ...], ...]  # global start of each input block passed in
    weighted: bool
    order: tuple[int, ...]                     # the whole array's run-time pass order
    dtype: np.dtype
    rounding: str
    threads: int | None


def _strides(shape: Sequence[int], memory_order: Sequence[int]) -> tuple[int, ...]:
    """Element strides of an array of ``shape`` laid out in ``memory_order`` (outermost
    first)."""
    strides = [0] * len(shape)
    step = 1
    for a in reversed(list(memory_order)):
        strides[a] = step
        step *= max(shape[a], 1)
    return tuple(strides)


def _build(x: "da.Array", plan: Plan, out_chunks, name: str, rounding: str,
           threads: int | None) -> "da.Array":
    ndim = x.ndim
    in_bounds = [_ends(c) for c in x.chunks]
    in_starts = [[0] + b[:-1] for b in in_bounds]
    out_starts = [[0] + _ends(c)[:-1] for c in out_chunks]
    weighted = plan.weighted
    # The whole array's run-time pass order: a C-ordered input, and the output rx.resize
    # allocates for it (memory order following the input's, length-1 axes outermost).
    in_strides = _strides(plan.in_shape, range(ndim))
    out_strides = _strides(plan.out_shape, _layout_perm(plan.in_shape, in_strides))
    order_whole = tuple(plan.run_order(in_strides, out_strides))
    # Per axis and output chunk: the window and restricted table (restricted once).
    per_axis = []
    for a in range(ndim):
        table = plan.tables[a]
        per_axis.append([
            _axis_piece(table, s, s + c) if c > 0 else None
            for s, c in zip(out_starts[a], out_chunks[a])
        ])
    dtype = x.dtype
    dsk = {}
    for index in np.ndindex(*(len(c) for c in out_chunks)):
        key = (name,) + index
        shape = tuple(out_chunks[a][j] for a, j in enumerate(index))
        if 0 in shape:
            dsk[key] = Task(key, np.empty, shape, dtype)
            continue
        pieces = tuple(per_axis[a][j] for a, j in enumerate(index))
        # The input blocks that overlap the window, per axis.
        ranges = []
        for a, p in enumerate(pieces):
            lo, hi = p.window
            first = bisect.bisect_right(in_bounds[a], lo)
            last = bisect.bisect_left(in_bounds[a], hi)
            ranges.append(range(first, last + 1))
        blocks = list(itertools.product(*ranges))
        spec = _ChunkTask(pieces, tuple(tuple(in_starts[a][b] for a, b in enumerate(blk))
                                        for blk in blocks),
                          weighted, order_whole, dtype, rounding, threads)
        dsk[key] = Task(key, _compute_chunk, spec,
                        List(*(TaskRef((x.name,) + blk) for blk in blocks)))
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, out_chunks, meta=np.empty((0,) * ndim, dtype=dtype))


# ------------------------------------------------------------------------------ the task

def _compute_chunk(spec: _ChunkTask, blocks: list) -> np.ndarray:
    """One output chunk: assemble the input window from ``blocks``, apply the restricted plan.

    The plan runs the whole array's pass order exactly (``keep_order``), so the window's
    layout does not matter: a single block is used as a view, several are copied into one.
    """
    pieces = spec.pieces
    ndim = len(pieces)
    lo = [p.window[0] for p in pieces]
    hi = [p.window[1] for p in pieces]
    win_shape = tuple(h - l for l, h in zip(lo, hi))
    if len(blocks) == 1:
        block = np.asarray(blocks[0])
        window = block[tuple(slice(l - s, h - s)
                             for l, h, s in zip(lo, hi, spec.block_starts[0]))]
    else:
        window = np.empty(win_shape, dtype=spec.dtype)
        for block, start in zip(blocks, spec.block_starts):
            block = np.asarray(block)
            src, dst = [], []
            for a in range(ndim):
                s0 = max(lo[a], start[a])
                s1 = min(hi[a], start[a] + block.shape[a])
                src.append(slice(s0 - start[a], s1 - start[a]))
                dst.append(slice(s0 - lo[a], s1 - lo[a]))
            window[tuple(dst)] = block[tuple(src)]
    plan = Plan(win_shape, [p.table for p in pieces], weighted=spec.weighted,
                order=spec.order, keep_order=True)
    result = plan(window, threads=spec.threads, rounding=spec.rounding)
    return result if result.flags.c_contiguous else np.ascontiguousarray(result)
