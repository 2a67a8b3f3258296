"""uint8 passes in fixed point (``fixed=True`` plans: torch's uint8 antialias and linear
forms), each rounding to uint8, and their window forms along a contiguous row."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ..._checks import check_allocation
from ..._tables import AxisTable
from .._exec import Program
from ..memory import coalesce, layout_perm, layout_strides
from . import exact
from .codes import OP_FIXED, PHASE_DOWN2, PHASE_UP2, SHAPE_LAST, SHAPE_MID, SHAPE_OUTER

if TYPE_CHECKING:  # pragma: no cover
    from ..plan import Plan


def _fixed_windows(table: AxisTable, contiguous: bool) -> dict[str, Any]:
    """The window form of a fixed-point pass along a contiguous innermost axis, or ``{}``:
    every output's taps lie in ``k`` consecutive samples (``k`` 2 or 4 where they fit, as
    bilinear's and bicubic's do at any ratio, else a multiple of 8, at most 64; the window
    moved left where it would leave the row), with int16 weights, 0 where the output reads
    nothing (taps on one sample add up: the same integer sum). The kernel sums windows of
    2, 4 and 8n bytes eight outputs a vector (``kernels/_fixed_simd.h`` ``rx_windows_u8``)."""
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
        run = exact.regular_run(st, dense[:m * phases].reshape(m, phases * k))
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


def fixed_program(plan: Plan, xs: Sequence[int], os_: Sequence[int]) -> Program:
    """uint8 passes in fixed point, each rounding to uint8, in ``plan.order``."""
    perm = layout_perm(plan.out_shape, os_)
    shape = list(plan.in_shape)
    src, src_strides = -1, list(xs)
    passes: list[dict[str, Any]] = []
    scratch: list[int] = [0, 0]
    work = 0.0
    for i, a in enumerate(plan.order):
        table = plan.tables[a]
        shape[a] = table.n_out
        if i == len(plan.order) - 1:
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
