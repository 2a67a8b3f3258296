"""Seeded, cached inputs shared by the benchmark modules.

Data is made in ``setup`` (never at import: asv imports every module in each process, and
OpenMP work at import time does not mix with its process spawning).
"""

from functools import lru_cache

import numpy as np

try:
    import ml_dtypes

    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover
    BFLOAT16 = None

DTYPES = ["float32", "float64", "float16", "bfloat16", "uint8", "int8", "int16", "uint16"]


def dtype(name):
    """The NumPy dtype of a benchmark parameter (raises NotImplementedError to skip)."""
    if name == "bfloat16":
        if BFLOAT16 is None:
            raise NotImplementedError("bfloat16 needs ml_dtypes")
        return BFLOAT16
    return np.dtype(name)


@lru_cache(maxsize=8)
def array(shape, dtype_name, layout="C"):
    """A random array (uniform in [0, 1) for floats, the full range for integers)."""
    rng = np.random.default_rng(1234)
    dt = dtype(dtype_name)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dt)
    else:
        x = rng.random(shape, dtype=np.float32).astype(dt)
    if layout == "NHWC":  # channels-last memory, NCHW indexing
        x = np.ascontiguousarray(np.moveaxis(x, 1, -1))
        x = np.moveaxis(x, -1, 1)
    elif layout == "F":
        x = np.asfortranarray(x)
    x.setflags(write=False)
    return x
