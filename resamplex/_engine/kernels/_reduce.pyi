"""Type stub for the compiled ``resamplex._engine.kernels._reduce`` (see ``_reduce.pyx``): reductions
the doors need beside the passes."""

import numpy as np
import numpy.typing as npt

def int_range(a: npt.ArrayLike) -> np.ndarray:
    """``np.array([a.min(), a.max()], a.dtype)`` of a non-empty integer or bool array, in one
    pass (stopping once both reach the type's ends). GIL released."""
