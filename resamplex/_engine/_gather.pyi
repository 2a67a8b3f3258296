"""Type stub for the compiled ``resamplex._engine._gather`` (see ``_gather.pyx``).

The kernel trusts its caller (``resamplex._resize.Plan``): addresses, shapes and tables are not
checked. Arrays are one-dimensional and C-contiguous (Cython ``int64_t[::1]`` memoryviews).
"""

import numpy as np
import numpy.typing as npt

def gather(
    src: int,
    dst: int,
    itemsize: int,
    shape: npt.NDArray[np.int64],
    src_strides: npt.NDArray[np.int64],
    dst_strides: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    nthreads: int,
) -> None:
    """Copy ``dst[o_0, ..., o_n] = src[offset of o_0 + ... + offset of o_n]``. GIL released."""
