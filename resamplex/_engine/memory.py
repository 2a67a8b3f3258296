"""Memory layouts of a call's arrays: their memory order, the strides of contiguous arrays
laid out in an order, fresh results (aligned to huge pages from 4 MiB on), axes coalesced
where every array is contiguous over them, and the bytes a table holds."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._tables import AxisTable


def layout_perm(shape: Sequence[int], strides: Sequence[int]) -> list[int]:
    """Axes from outermost to innermost memory order (largest |stride| first).

    Axes of length <= 1 and broadcast (zero-stride) axes count as outermost; ties keep axis
    order, so a C-contiguous array gives the identity.
    """
    def key(a: int) -> tuple[int, int]:
        s = abs(strides[a])
        return (0, 0) if shape[a] <= 1 or s == 0 else (1, -s)

    return sorted(range(len(shape)), key=lambda a: (key(a), a))


def layout_strides(shape: Sequence[int], itemsize: int, perm: Sequence[int]) -> list[int]:
    """Byte strides of a contiguous array of ``shape`` whose memory order is ``perm``."""
    strides = [0] * len(shape)
    step = itemsize
    for a in reversed(perm):
        strides[a] = step
        step *= max(int(shape[a]), 1)
    return strides


def merged_view(strides: Sequence[int], w_ax: int, c_ax: int, c: int) -> list[int]:
    """Byte strides of an array viewed with axes ``w_ax`` and ``c_ax`` (``c`` long, contiguous
    inside ``w_ax``) as one axis (``Plan.merged_inner``)."""
    return [strides[a] // (c if a == w_ax else 1) for a in range(len(strides)) if a != c_ax]


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


def table_bytes(t: AxisTable | None) -> int:
    return 0 if t is None else t.ptr.nbytes + t.idx.nbytes + t.w.nbytes
