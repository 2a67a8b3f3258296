"""Type stub for the compiled ``resamplex._engine._fixed`` (see ``_fixed.pyx``).

uint8 resampling in fixed point (PyTorch's int16-weight CPU path). The kernel trusts its
caller: addresses, shapes and tables are not checked.
"""

import numpy as np
import numpy.typing as npt

def fixed_pass(
    src: int,
    src_strides: npt.NDArray[np.int64],
    dst: int,
    dst_strides: npt.NDArray[np.int64],
    shape: npt.NDArray[np.int64],
    axis: int,
    loop: int,
    ptr: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    weights: npt.NDArray[np.int32],
    shift: int,
    bufs: npt.NDArray[np.int32],
    nthreads: int,
) -> None:
    """Resample ``axis`` of a uint8 array in fixed point. GIL released."""
