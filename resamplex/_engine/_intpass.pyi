"""Type stub for the compiled ``resamplex._engine._intpass`` (see ``_intpass.pyx`` and
docs/engine-passes.md). The kernel trusts its caller: addresses and tables are not checked."""

import numpy as np
import numpy.typing as npt

def int_pass(
    src: int, s_outer: int, s_axis: int, dst: int, d_outer: int, d_axis: int,
    outer: int, n_out: int, inner: int, src_kind: int, dst_kind: int,
    ptr: npt.NDArray[np.int64], idx: npt.NDArray[np.int64], w: npt.NDArray[np.int64],
    pre: int, post: int, bias: int, mult: int, shift: int, finish: int, fmul: float,
    loop: int, bufs: npt.NDArray[np.int64], nthreads: int,
) -> None:
    """Resample one axis in integer arithmetic. GIL released."""
