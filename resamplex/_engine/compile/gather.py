"""The gather pass (nearest, or no resampled axis): byte offsets per output, whole pixels
where copied innermost axes are contiguous, and the gather's fast forms (repeats, halving,
wide moves); into another dtype, a converting store after it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ... import _dtypes
from ..._checks import check_allocation
from .._exec import Program
from ..memory import layout_perm, layout_strides
from .codes import MAX_MERGED_CHANNELS, OP_GATHER, PHASE_DOWN2
from .store import store_pass

if TYPE_CHECKING:  # pragma: no cover
    from ..plan import Plan


def gather_store_program(plan: Plan, dtype: np.dtype, xs: Sequence[int], os_: Sequence[int],
                         rcode: int, out_dtype: np.dtype,
                         affine: tuple[list[int], list[int]] | None) -> Program:
    """Nearest (or no resampled axis) into another dtype: the gather copies the chosen
    elements, exactly, into a scratch array laid out like the output, and a converting
    store pass (``OP_STORE``) maps and rounds them into the output."""
    info = _dtypes.output_info(dtype, "x")
    compute = _dtypes.convert_compute(dtype, out_dtype)
    mid = layout_strides(plan.out_shape, dtype.itemsize, layout_perm(plan.out_shape, os_))
    gather = gather_program(plan, dtype.itemsize, xs, mid, spec_only=True)
    gather["dst"] = 0
    store = store_pass(plan, 0, mid, os_, info.kind, out_dtype, compute, rcode, affine)
    size = math.prod(plan.out_shape)
    check_allocation(size * dtype.itemsize, "scratch")
    return Program([gather, store], [size * dtype.itemsize], 2.0 * size)


def gather_program(plan: Plan, itemsize: int, xs: Sequence[int],
                   os_: Sequence[int], spec_only: bool = False, zero: int = 0) -> Any:
    """The gather pass of this plan; ``zero`` (4 or 8): its float elements are stored
    as ``0.0 + v`` (``plus_zero``)."""
    perm = layout_perm(plan.out_shape, os_)
    # Copied innermost axes contiguous on both sides (the channels of an interleaved
    # image) join the element: the kernel then moves whole pixels, one row of pixels per
    # row of the output, instead of one row per pixel.
    element = itemsize
    while len(perm) > 1 and plan.tables[perm[-1]] is None \
            and xs[perm[-1]] == itemsize and os_[perm[-1]] == itemsize:
        itemsize *= plan.out_shape[perm[-1]]
        perm = perm[:-1]
    # A short copied innermost axis contiguous in the output only (channels reversed, as
    # in a BGR image read as RGB, or spaced, as RGB out of RGBA) joins it too: pixels
    # whose elements the kernel picks `estride` bytes apart.
    pixel: dict[str, Any] = {}
    a = perm[-1]
    if itemsize == element and len(perm) > 1 and plan.tables[a] is None \
            and os_[a] == itemsize and 1 < plan.out_shape[a] <= MAX_MERGED_CHANNELS:
        pixel = dict(channels=plan.out_shape[a], estride=xs[a])
        itemsize *= plan.out_shape[a]
        perm = perm[:-1]
    offsets, starts = [], [0]
    for a in perm:
        t = plan.tables[a]
        if t is not None:  # copied axes need no table: the kernel strides through them
            offsets.append(t.idx * xs[a])
        starts.append(starts[-1] + (0 if t is None else t.n_out))
    shape = [plan.out_shape[a] for a in perm]
    spec = dict(op=OP_GATHER, itemsize=itemsize, shape=shape,
                sstr=[xs[a] for a in perm], dstr=[os_[a] for a in perm],
                off=np.concatenate(offsets) if offsets else np.empty(0, np.int64),
                idx2=starts, units=math.prod(shape[:-1]),
                k=1 if pixel else _repeat_factor(plan, perm[-1], itemsize, xs, os_),
                **pixel)
    if spec["k"] == 1 and not pixel:
        spec.update(_halving(plan, perm[-1], itemsize, xs, os_))
    if spec["k"] == 1 and "phase" not in spec and not pixel:
        spec["n_in"], spec["n_mid"] = _wide_moves(plan, perm[-1], itemsize, xs, os_)
    if zero:
        spec["plus_zero"] = zero
    if spec_only:
        return spec
    return Program([spec], [], float(math.prod(shape)))


def _halving(plan: Plan, a: int, itemsize: int, xs: Sequence[int],
             os_: Sequence[int]) -> dict[str, Any]:
    """The run of a nearest gather halving its innermost axis ``a`` (contiguous rows of
    1-, 2-, 3-, 4- or 8-byte pixels): outputs ``[lo, hi)`` reading every other pixel, with
    the pixel after the last one still inside the row (``rx_even_pixels`` reads it), as
    ``phase``/``lo``/``hi``; ``{}`` when there is none of 16 outputs or more."""
    t = plan.tables[a]
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


def _wide_moves(plan: Plan, a: int, itemsize: int, xs: Sequence[int],
                os_: Sequence[int]) -> tuple[int, int]:
    """``(wide, width)`` for a gather whose innermost axis ``a`` moves pixels between
    contiguous rows (``rx_gather_pixels``): pixels of an awkward size (3, 6, 12 bytes,
    ...) move ``width`` bytes at once (the power of two at or above the pixel, 4 to 32:
    one load and one store); pixels of 2, 4 or 8 bytes, each block of 64 output bytes
    permuted from a window of ``width`` (128 or 256) input bytes (128 where every block's
    reads fit in it). Each of the first ``wide`` outputs of a row
    keeps those reads inside the input row and the writes (``min(width, 64)`` bytes)
    inside the output row. ``(0, 0)`` where there is nothing to gain."""
    t = plan.tables[a]
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


def _repeat_factor(plan: Plan, a: int, itemsize: int, xs: Sequence[int],
                   os_: Sequence[int]) -> int:
    """``f`` if nearest along the innermost axis ``a`` repeats each input element ``f``
    times over contiguous rows (output ``i`` reads ``i // f``): the gather then writes the
    row by duplication. 1 otherwise."""
    t = plan.tables[a]
    if t is None or itemsize not in (1, 2, 4, 8) or xs[a] != itemsize \
            or os_[a] != itemsize or t.n_out <= t.n_in or t.n_out % t.n_in:
        return 1
    f = t.n_out // t.n_in
    rows = t.idx.reshape(t.n_in, f)     # one table entry per output for a gather
    return f if bool((rows == np.arange(t.n_in)[:, None]).all()) else 1
