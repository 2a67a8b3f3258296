"""Type stub for the compiled ``resamplex._engine._taps`` (see ``_taps.pyx``).

Weighted separable passes (linear, cubic, area, antialias) and the build facts
(``openmp_enabled``, ``max_threads``). The kernels trust their caller (``resamplex._resize``):
addresses, shapes and tables are not checked. ``src_kind``/``dst_kind`` and ``rounding`` are
the codes of ``resamplex._dtypes``. Weights and scratch buffers are float32 or float64 (the
compute type), one-dimensional and C-contiguous except ``bufs`` (2-D, C-contiguous).
"""

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

_Int64Array: TypeAlias = npt.NDArray[np.int64]
_Weights: TypeAlias = npt.NDArray[np.float32] | npt.NDArray[np.float64]

def weighted_pass(
    src_kind: int,
    dst_kind: int,
    rounding: int,
    src: int,
    src_strides: _Int64Array,
    dst: int,
    dst_strides: _Int64Array,
    shape: _Int64Array,
    axis: int,
    loop: int,
    n_in: int,
    k: int,
    ptr: _Int64Array,
    offsets: _Int64Array,
    weights: _Weights,
    bufs: _Weights,
    nthreads: int,
) -> None:
    """Resample ``axis`` of ``src`` into ``dst``. GIL released."""

def fused_pass(
    src_kind: int,
    dst_kind: int,
    rounding: int,
    src: int,
    src_strides: _Int64Array,
    dst: int,
    dst_strides: _Int64Array,
    shape: _Int64Array,
    axis: int,
    n_mid: int,
    ptr1: _Int64Array,
    offsets1: _Int64Array,
    weights1: _Weights,
    k: int,
    idx2: _Int64Array,
    weights2: _Weights,
    bufs: _Weights,
    nthreads: int,
) -> None:
    """An outer-axis pass and the innermost-axis pass in one sweep. GIL released."""

def openmp_enabled() -> bool:
    """True if the kernels were compiled with OpenMP."""

def max_threads() -> int:
    """``omp_get_max_threads()`` now (1 without OpenMP)."""

def half_to_float32(bits: npt.NDArray[np.uint16], out: npt.NDArray[np.float32]) -> None:
    """float16 bit patterns -> float32, with the kernels' own conversion."""

def float32_to_half(values: npt.NDArray[np.float32], out: npt.NDArray[np.uint16]) -> None:
    """float32 -> float16 bit patterns (round to nearest-even), with the kernels' conversion."""

def bf16_to_float32(bits: npt.NDArray[np.uint16], out: npt.NDArray[np.float32]) -> None:
    """bfloat16 bit patterns -> float32, with the kernels' own conversion."""

def float32_to_bf16(values: npt.NDArray[np.float32], out: npt.NDArray[np.uint16]) -> None:
    """float32 -> bfloat16 bit patterns (round to nearest-even), with the kernels' conversion."""
