"""Pass specs -> executor programs: the plan's tables, for one memory layout, become a
``Program`` (``_exec.pyx``): every pass with its kernel's arguments, loop shape, tables in
the compute type, and the sizes of its scratch.

One module per family of passes:

- ``gather``: nearest (and no resampled axis): byte moves, with a converting store after;
- ``fixed``: uint8 passes in fixed point, each rounding to uint8;
- ``weighted``: the core's float passes (through scratch, fused, merged pixels, gathered
  rows, pixel sweeps, relayouts), with ``phases`` for their polyphase and integer forms;
- ``exact``: front doors' passes of prescribed arithmetic (integer, float, split, block,
  product: ``IntPass`` ... ``ProductPass``), compiled into the same programs;
- ``store``: the converting store pass both of those end with where the output's dtype or
  layout differs;
- ``splines``: B-spline prefilters and their interpolation (``SplinePlan``);
- ``codes``: the kernel contract's codes and limits.

``program`` is the entry for a plan's core passes; ``exact.run`` runs a plan of exact passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from .._exec import Program
from ..memory import layout_perm
from .fixed import fixed_program
from .gather import gather_program, gather_store_program
from .weighted import relayout_program, weighted_specs

if TYPE_CHECKING:  # pragma: no cover
    from ..plan import Plan


def program(plan: Plan, dtype: np.dtype, x_strides: Sequence[int], out_strides: Sequence[int],
            rcode: int, out_dtype: np.dtype | None = None,
            affine: tuple[list[int], list[int]] | None = None) -> Program:
    """The program of ``plan`` for arrays of ``dtype`` with these byte strides.

    ``out_dtype``/``affine`` (byte strides of ``a`` and ``b`` per output axis): the output
    converts (``Plan._call_convert``); weighted programs do it in their last pass's store,
    gathers in a converting store pass after them."""
    converting = out_dtype is not None and (out_dtype != dtype or affine is not None)
    if not plan.weighted or plan.copies:
        if converting:
            return gather_store_program(plan, dtype, x_strides, out_strides, rcode,
                                        out_dtype, affine)  # type: ignore[arg-type]
        zero = dtype.itemsize if plan.plus_zero and dtype.kind == "f" \
            and dtype.itemsize in (4, 8) else 0
        return gather_program(plan, dtype.itemsize, x_strides, out_strides, zero=zero)
    if plan.fixed:
        return fixed_program(plan, x_strides, out_strides)
    if converting and out_dtype is not None and \
            layout_perm(plan.out_shape, out_strides) != layout_perm(plan.out_shape, x_strides):
        return relayout_program(plan, dtype, x_strides, out_strides, rcode, out_dtype, affine)
    conv = (out_dtype, affine) if converting else None
    return Program(*weighted_specs(plan, dtype, x_strides, out_strides, rcode, conv))
