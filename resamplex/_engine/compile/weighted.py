"""Weighted passes (the core's float arithmetic): one pass per resampled axis through
scratch, the last two fused into one sweep where the innermost axis is resampled (or the
pixel axis before copied channels), channels-last pixels merged into the row, gathered rows
for strong reductions, and a converting store where the output's layout differs."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ... import _dtypes
from ..._checks import check_allocation
from .._exec import Program
from ..memory import coalesce_all, layout_perm, layout_strides, merged_view
from . import phases
from .codes import (BLOCK, C_DOUBLE, C_FLOAT, MAX_ROW, OP_FUSED, OP_WEIGHTED, PHASE_NONE,
                    SHAPE_LAST, SHAPE_LAST_CSR, SHAPE_MID, SHAPE_OUTER, WIDE_TAPS)
from .store import store_pass

if TYPE_CHECKING:  # pragma: no cover
    from ..plan import Plan

# A fused pass blends only the pixels its innermost taps read where those taps read at most
# 1 / GATHERED_READS of a row's elements (n k <= n_mid / GATHERED_READS; _gathered_fields).
GATHERED_READS = 2
# uint8 pixel pairs of 2-4 channels computed in registers (gpair) pay off further: where the
# taps read up to PAIR_READS times a row's elements (n k <= PAIR_READS n_mid: any reduction
# by a two-tap table). Single-byte pixels gain nothing from it there.
PAIR_READS = 2


def weighted_specs(plan: Plan, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                   rcode: int, conv: Any) -> tuple[list[dict[str, Any]], list[int], float]:
    """The passes of a weighted program (channels-last merged where it can be), its
    scratch sizes and its work."""
    affine = None if conv is None else conv[1]
    merged = plan.merged_inner(xs, os_, affine)
    if merged is not None:
        merged_plan, mxs, mos, where = merged
        if affine is not None:
            conv = (conv[0], (merged_view(affine[0], *where),
                              merged_view(affine[1], *where)))
        return weighted_program(merged_plan, dtype, mxs, mos, rcode, conv, specs_only=True)
    return weighted_program(plan, dtype, xs, os_, rcode, conv, specs_only=True)


def _planar_specs(plan: Plan, dtype: np.dtype, xs: Sequence[int], mid: Sequence[int],
                  os_: Sequence[int], rcode: int, out_dtype: np.dtype,
                  affine: tuple[list[int], list[int]] | None) -> Any:
    """The common relayout, in the final store: an interleaved channels-last input whose
    merged sweep (``Plan.merged_inner``, as if the output were laid out like the input,
    strides ``mid``) ends in the four-row fused pass; that pass then stores each row as
    one row per channel, wherever the output puts them (an HWC image into CHW memory),
    mapping and rounding on the way. Same sums as the relayout through scratch. None
    where this does not apply."""
    merged = plan.merged_inner(xs, mid)
    if merged is None:
        return None
    merged_plan, mxs, mos, (w_ax, c_ax, c) = merged
    passes, scratch, work = weighted_program(merged_plan, dtype, mxs, mos, rcode,
                                             (out_dtype, None), specs_only=True)
    last = passes[-1]
    if last["op"] != OP_FUSED or last.get("loop", 0) == SHAPE_MID \
            or last["axis"] != len(last["shape"]) - 2:
        return None
    # the merged pass's axes (its output layout, innermost last) as axes of this plan
    orig = [a if a < c_ax else a + 1 for a in layout_perm(merged_plan.out_shape, mos)]
    if orig[-1] != w_ax:
        return None
    last.update(dstr=[os_[a] for a in orig], planes=c, plane_stride=os_[c_ax],
                buf_len=last["buf_len"] + last["shape"][-1])
    if affine is not None:
        last.update(astr=[affine[0][a] for a in orig], bstr=[affine[1][a] for a in orig],
                    plane_a=affine[0][c_ax], plane_b=affine[1][c_ax])
    return passes, scratch, work


def relayout_program(plan: Plan, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                     rcode: int, out_dtype: np.dtype,
                     affine: tuple[list[int], list[int]] | None) -> Program:
    """A converting call whose output is laid out otherwise than the input (e.g. HWC in,
    CHW memory out): the weighted passes run in the input's layout (their fast, merged
    and contiguous form) into a scratch of the compute type, and a converting store pass
    maps, rounds and transposes it into the output. The sums are those of the input's
    layout; the store adds no rounding but the final one."""
    compute = _dtypes.convert_compute(dtype, out_dtype)
    cinfo = _dtypes.output_info(compute)
    perm_x = layout_perm(plan.out_shape, xs)
    mid = layout_strides(plan.out_shape, compute.itemsize, perm_x)
    planar = _planar_specs(plan, dtype, xs, mid, os_, rcode, out_dtype, affine)
    if planar is not None:
        return Program(*planar)
    passes, scratch, work = weighted_specs(plan, dtype, xs, mid, rcode, (compute, None))
    at = len(scratch)
    for spec in passes:
        if spec.get("dst", -2) == -2:
            spec["dst"] = at
    size = math.prod(plan.out_shape)
    scratch.append(size * compute.itemsize)
    check_allocation(scratch[-1], "scratch")
    store = store_pass(plan, at, mid, os_, cinfo.kind, out_dtype, compute, rcode, affine)
    return Program(passes + [store], scratch, work + size)


def weighted_program(plan: Plan, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                     rcode: int, conv: tuple[np.dtype, tuple[list[int], list[int]] | None]
                     | None = None, specs_only: bool = False) -> Any:
    info = _dtypes.weighted_info(dtype, plan.op)
    oinfo, compute, aff = info, info.compute, None
    if conv is not None:   # another output dtype, an affine: both in the last store
        oinfo = _dtypes.output_info(conv[0])
        compute = _dtypes.convert_compute(dtype, conv[0])
        aff = conv[1]
    ckind, cflag = (0, C_DOUBLE) if compute == np.float64 else (1, C_FLOAT)
    perm = layout_perm(plan.out_shape, os_)
    # The innermost axis, if resampled, normally goes last and shares a sweep with the
    # pass before it (the fused pass): no scratch array between those two passes.
    order = plan.run_order(xs, os_)
    inner = plan.tables[perm[-1]]
    # Float accumulators sum an output of more than WIDE_TAPS taps in double (SPEC §3
    # for wide windows; _taps.pyx.tp, "Wide windows"), in the loops that read its taps as
    # a list: such a table goes to no dense loop (SHAPE_LAST, a fused or pixel sweep).
    wide = {a for a in order if cflag == C_FLOAT and plan.tables[a].max_taps > WIDE_TAPS}
    fuse = (len(order) >= 2 and order[-1] == perm[-1]
            and inner.n_in + inner.n_out <= MAX_ROW and not wide & set(order[-2:]))
    pixels = not fuse and not wide & set(order[-2:]) \
        and _pixel_sweep(plan, order, perm, xs, os_)
    shape = list(plan.in_shape)
    src, src_strides = -1, list(xs)
    passes: list[dict[str, Any]] = []
    scratch = [0, 0]
    work = 0.0
    for i, a in enumerate(order):
        table = plan.tables[a]
        last = i == len(order) - 1 or ((fuse or pixels) and i == len(order) - 2)
        common: dict[str, Any] = dict(src=src, src_kind=info.kind if i == 0 else ckind,
                                      dst_kind=oinfo.kind if last else ckind,
                                      rounding=rcode, compute=cflag)
        if last and aff is not None:
            common.update(astr=[aff[0][p] for p in perm], bstr=[aff[1][p] for p in perm])
        if fuse and i == len(order) - 2:
            spec, pass_work = _fused_spec(plan, shape, perm, a, order[-1], src_strides,
                                          os_, common)
            if i == 0 and conv is None:
                # reads the program's input: 8-bit data may take a phase kernel (it stores
                # 8-bit rows; a converting store takes the general loop)
                spec.update(phases.phase_fields(plan, dtype, shape[order[-1]], a, order[-1], xs,
                                                os_, rcode))
            if spec.get("phase", PHASE_NONE) == PHASE_NONE:
                spec.update(_gathered_fields(
                    plan, spec, a, order[-1], dtype.itemsize if i == 0 else compute.itemsize,
                    compute.itemsize, i == 0 and dtype == np.uint8 and compute == np.float32))
            passes.append(spec)
            work += pass_work
            break
        if pixels and i == len(order) - 2:
            spec, pass_work = _pixels_spec(plan, shape, perm, a, order[-1], src_strides,
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


def _fused_spec(plan: Plan, shape: list[int], perm: list[int], a: int, inner: int,
                src_strides: Sequence[int], os_: Sequence[int],
                common: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """The last two passes (outer axis ``a``, then the innermost axis) in one sweep."""
    t1, t2 = plan.tables[a], plan.tables[inner]
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


def _gathered_fields(plan: Plan, spec: dict[str, Any], outer: int, inner: int, itemsize: int,
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
    c = plan.channels
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
    t1 = plan.tables[outer]
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


def _pixel_sweep(plan: Plan, order: Sequence[int], perm: Sequence[int], xs: Sequence[int],
                 os_: Sequence[int]) -> bool:
    """Channels-last with many channels: whether the last two passes can share one sweep
    over whole pixel vectors. The innermost axis (channels) is copied, the axis before it
    (pixels) is the last pass, and both arrays of that sweep are contiguous over the two:
    its input is the program's input when there are two passes, else a contiguous
    scratch array."""
    if len(order) < 2 or len(perm) < 2 or order[-1] != perm[-2]:
        return False
    w_ax, c_ax = perm[-2], perm[-1]
    c = plan.in_shape[c_ax]
    table = plan.tables[w_ax]
    if plan.tables[c_ax] is not None or c < 2 \
            or (table.n_in + 1 + table.n_out) * c > MAX_ROW:
        return False
    return os_[w_ax] == c * os_[c_ax] and (len(order) > 2 or xs[w_ax] == c * xs[c_ax])


def _pixels_spec(plan: Plan, shape: list[int], perm: list[int], a: int, inner: int,
                 src_strides: Sequence[int], os_: Sequence[int],
                 common: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """The last two passes (outer axis ``a``, then the pixel axis ``inner`` before the
    copied channel axis) in one sweep: the fused pass in its ``SHAPE_MID`` form."""
    t1, t2 = plan.tables[a], plan.tables[inner]
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
