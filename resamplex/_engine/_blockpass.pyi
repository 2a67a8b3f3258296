"""Type stub for the compiled ``resamplex._engine._blockpass`` (see ``_blockpass.pyx`` and
docs/engine-passes.md). The kernel trusts its caller: addresses and tables are not checked."""

import numpy as np
import numpy.typing as npt

def block_pass(
    src: int, s_outer: int, s_y: int, s_x: int, dst: int, d_outer: int, d_y: int, d_x: int,
    outer: int, ho: int, wo: int, inner: int, src_kind: int, dst_kind: int,
    ys: npt.NDArray[np.int64], cy: npt.NDArray[np.int64], xs: npt.NDArray[np.int64],
    cx: npt.NDArray[np.int64], fh: int, fw: int, gptr: npt.NDArray[np.int64],
    goff: npt.NDArray[np.int64], acc_kind: int, fin: int, pfin: int, bias_f: int,
    mult_f: int, shift_f: int, bias_p: npt.NDArray[np.int64], mult_p: npt.NDArray[np.int64],
    shift_p: int, scale_f: float, pop: int, rounding: int, zero: bool,
    bufs: npt.NDArray[np.uint8],
    nthreads: int,
) -> None:
    """Average blocks of two axes. GIL released."""
