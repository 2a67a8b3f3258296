"""Type stub for the compiled ``resamplex._engine.kernels._taps`` (see ``_taps.pyx.tp``).

The weighted passes themselves are C entry points for the executor (``_exec.pyx``); from
Python this module offers the kernels' float16/bfloat16 conversions, for the exhaustive tests.
"""

import numpy as np
import numpy.typing as npt

def half_to_float32(bits: npt.NDArray[np.uint16], out: npt.NDArray[np.float32]) -> None:
    """float16 bit patterns -> float32, with the kernels' own conversion."""

def float32_to_half(values: npt.NDArray[np.float32], out: npt.NDArray[np.uint16]) -> None:
    """float32 -> float16 bit patterns (round to nearest-even), with the kernels' conversion."""

def bf16_to_float32(bits: npt.NDArray[np.uint16], out: npt.NDArray[np.float32]) -> None:
    """bfloat16 bit patterns -> float32, with the kernels' own conversion."""

def float32_to_bf16(values: npt.NDArray[np.float32], out: npt.NDArray[np.uint16]) -> None:
    """float32 -> bfloat16 bit patterns (round to nearest-even), with the kernels' conversion."""

def half_rows_to_float32(bits: npt.NDArray[np.uint16], out: npt.NDArray[np.float32]) -> None:
    """float16 bit patterns -> float32 with the vectorised row conversion of the kernels."""

def float32_to_half_rows(values: npt.NDArray[np.float32], out: npt.NDArray[np.uint16]) -> None:
    """float32 -> float16 bit patterns with the vectorised row conversion of the kernels."""

def float32_to_bf16_rows(values: npt.NDArray[np.float32], out: npt.NDArray[np.uint16]) -> None:
    """float32 -> bfloat16 bit patterns with the vectorised row conversion of the kernels."""
