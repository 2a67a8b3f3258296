"""The converting store pass (``OP_STORE``): elements of a scratch array laid out like the
output, mapped (``v * a + b``), rounded and stored into the output wherever it puts them.
Gathers into another dtype (``gather.gather_store_program``) and weighted passes whose output
is laid out otherwise than their input (``weighted.relayout_program``) end with it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ... import _dtypes
from ..memory import coalesce_all, layout_perm
from .codes import BLOCK, C_DOUBLE, C_FLOAT, OP_STORE

if TYPE_CHECKING:  # pragma: no cover
    from ..plan import Plan


def store_pass(plan: Plan, src: int, mid: Sequence[int], os_: Sequence[int], src_kind: int,
               out_dtype: np.dtype, compute: np.dtype, rcode: int,
               affine: tuple[list[int], list[int]] | None) -> dict[str, Any]:
    """The pass that stores scratch ``src`` (byte strides ``mid``, elements of ``src_kind``)
    into the output (strides ``os_``, ``out_dtype``), computing in ``compute``; ``affine``:
    the byte strides of ``a`` and ``b`` per output axis."""
    perm = layout_perm(plan.out_shape, os_)
    strides = [[mid[p] for p in perm], [os_[p] for p in perm]]
    if affine is not None:
        strides += [[affine[0][p] for p in perm], [affine[1][p] for p in perm]]
    shape, merged, _ = coalesce_all([plan.out_shape[p] for p in perm], strides)
    store = dict(op=OP_STORE, src=src, dst=-2, shape=shape, sstr=merged[0], dstr=merged[1],
                 src_kind=src_kind, dst_kind=_dtypes.output_info(out_dtype).kind,
                 rounding=rcode, compute=C_DOUBLE if compute == np.float64 else C_FLOAT,
                 buf_len=BLOCK + 1, units=math.prod(shape[:-1]))
    if affine is not None:
        store.update(astr=merged[2], bstr=merged[3])
    return store
