"""Type stub for the compiled ``resamplex._engine._planloops`` (see ``_planloops.pyx``): the
planner's loops over table entries, run once per new shape. Arrays are one-dimensional and
C-contiguous (int64 unless said)."""

import numpy as np
import numpy.typing as npt

_I64 = npt.NDArray[np.int64]

def tap_bounds(ptr: _I64, w: _I64, a: int, b: int, post: int) -> tuple[int, int, int, int]:
    """``(s_lo, s_hi, magnitude, w_max)`` of an integer pass over inputs in ``[a, b]``."""

def span_rows(ptr: _I64, idx: _I64) -> int:
    """The most consecutive inputs one output spans (0 without taps)."""

def count_range(ptr: _I64) -> tuple[int, int]:
    """The fewest and the most taps of an output (``(0, 0)`` without outputs)."""

def int_weights(w: npt.NDArray[np.float64]) -> _I64 | None:
    """``w`` as int64 where every weight is an int64 integer, else None."""

def abs_max(w: _I64) -> int:
    """``max |w|`` (0 when empty)."""

def two_taps(ptr: _I64, idx: _I64, w: _I64) -> tuple[_I64, _I64, _I64]:
    """One- and two-tap outputs as two taps each (the padding tap of weight 0)."""

def exact_scaled(w: _I64, scale: float) -> bool:
    """Whether ``float32(w) * float32(scale)`` is exact and gives ``w`` back over ``scale``."""

def regular_run(idx: _I64, w: _I64, rows: int, width: int, step: int,
                limit: int = ...) -> tuple[int, int, list[int], list[int]] | None:
    """The run of rows around the middle one with its offsets and weights (at least 4)."""

def cv2_linear(n_in: int, n_out: int, inv_scale: float, horizontal: bool, fixed: bool,
               area_mode: bool) -> tuple[_I64, _I64, npt.NDArray[np.float64]]:
    """OpenCV's ``INTER_LINEAR`` taps of one axis as ``(ptr, idx, w)``."""

def cv2_cubic(n_in: int, n_out: int, inv_scale: float,
              fixed: bool) -> tuple[_I64, _I64, npt.NDArray[np.float64]]:
    """OpenCV's ``INTER_CUBIC`` taps of one axis as ``(ptr, idx, w)``."""

def cv2_u8_pair(H: int, W: int, C: int, row_stride: int, dh: int, dw: int, inv_y: float,
                inv_x: float, cubic: bool, op: int, u8: int, pre: int, post: int, bias: int,
                mult: int, shift: int, head_scale: float,
                lanes: int) -> tuple[dict[str, object], float] | None:
    """OpenCV's uint8 linear or cubic pair's tables and fused pass in one call, or None."""
