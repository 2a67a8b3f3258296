"""Type stub for the compiled ``resamplex._engine.kernels._alpha`` (see ``_alpha.pyx``). The kernels
trust their caller: shapes and the table's length are not checked."""

import numpy as np
import numpy.typing as npt

def premultiply(src: npt.NDArray[np.uint8], dst: npt.NDArray[np.uint8], nthreads: int) -> None:
    """``dst = RGBa(src)``: Pillow's ``MULDIV255`` on the colour bytes. GIL released."""

def unpremultiply(src: npt.NDArray[np.uint8], table: npt.NDArray[np.uint8],
                  dst: npt.NDArray[np.uint8], nthreads: int) -> None:
    """``dst = RGBA(src)`` through ``table[a << 8 | c]``. GIL released."""
