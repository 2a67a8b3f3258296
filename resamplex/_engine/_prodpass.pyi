"""Type stub for the compiled ``resamplex._engine._prodpass`` (see ``_prodpass.pyx`` and
docs/engine-passes.md). The kernel trusts its caller: addresses and tables are not checked."""

from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

def product_pass(
    src: int, s_o: int, s_d: int, s_h: int, s_w: int, dst: int, d_o: int, d_d: int,
    d_h: int, d_w: int, outer: int, do_: int, ho: int, wo: int, inner: int, src_kind: int,
    dst_kind: int, pd: npt.NDArray[np.int64], id_: npt.NDArray[np.int64],
    wd: npt.NDArray[Any], ph: npt.NDArray[np.int64], ih: npt.NDArray[np.int64],
    wh: npt.NDArray[Any], pw: npt.NDArray[np.int64], iw: npt.NDArray[np.int64],
    ww: npt.NDArray[Any], perm: Sequence[int], rounding: int, bufs: npt.NDArray[Any],
    nthreads: int,
) -> None:
    """Resample up to three adjacent axes with product weights. GIL released."""
