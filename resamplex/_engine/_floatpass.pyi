"""Type stub for the compiled ``resamplex._engine._floatpass`` (see ``_floatpass.pyx`` and
docs/engine-passes.md). The kernel trusts its caller: addresses and tables are not checked."""

from typing import Any

import numpy as np
import numpy.typing as npt

def float_pass(
    src: int, s_outer: int, s_axis: int, dst: int, d_outer: int, d_axis: int,
    outer: int, n_out: int, inner: int, src_kind: int, dst_kind: int,
    ptr: npt.NDArray[np.int64], idx: npt.NDArray[np.int64], weights: npt.NDArray[Any],
    order: int, rounding: int, loop: int, bufs: npt.NDArray[Any], nthreads: int,
    divisors: npt.NDArray[Any] | None = None,
) -> None:
    """Resample one axis in float arithmetic with a chosen association order. GIL released."""
