"""Type stub for the compiled ``resamplex._engine._tablegen`` (see ``_tablegen.pyx``).

Builds the core axis tables for any range of outputs. ``TableBuilder`` is made by
``resamplex._tables.AxisSpec``, which computes its scalars; the Python-facing methods check
ranges and buffer lengths (``ValueError``), the row loops trust the rest. Arrays are
one-dimensional and C-contiguous (Cython ``[::1]`` memoryviews).
"""

import enum
from typing import Any

import numpy as np
import numpy.typing as npt

class Scheme(enum.IntEnum):
    SCHEME_NEAREST = 0
    SCHEME_LINEAR = 1
    SCHEME_TAPS = 2
    SCHEME_AREA = 3
    SCHEME_AA_TRIANGLE = 4
    SCHEME_WINDOW = 5

class Transform(enum.IntEnum):
    T_HALF_PIXEL = 0
    T_PYTORCH_HALF_PIXEL = 1
    T_HALF_PIXEL_SYMMETRIC = 2
    T_ALIGN_CORNERS = 3
    T_ASYMMETRIC = 4
    T_TF_HALF_PIXEL_FOR_NN = 5

class NearestRule(enum.IntEnum):
    N_ROUND_PREFER_CEIL = 0
    N_ROUND_PREFER_FLOOR = 1
    N_FLOOR = 2
    N_CEIL = 3

class Kernel(enum.IntEnum):
    KERNEL_NONE = 0
    KERNEL_KEYS = 1
    KERNEL_LANCZOS = 2
    KERNEL_HAMMING = 3
    KERNEL_BOX = 4

window_buffer: int

class TableBuilder:
    def __init__(self, *, scheme: int, n_in: int, n_out: int, scale: float | None,
                 transform: int, rule: int, kernel: int, r: float, a: float, exclude: bool,
                 support: int, support_d: float, half: int, exact: bool, r_clamp: float,
                 area_k: int, hps_offset: float, row_cap: int, raw_cap: int,
                 buf_cap: int) -> None: ...
    @property
    def k_max(self) -> int: ...
    @property
    def row_cap(self) -> int: ...
    @property
    def scratch_nbytes(self) -> int: ...
    def csr_into(self, o0: int, o1: int, ptr: npt.NDArray[np.int64],
                 idx: npt.NDArray[np.int64], w: npt.NDArray[np.float64]) -> int:
        """Taps of outputs ``o0 .. o1 - 1`` into caller buffers; returns the tap count."""
    def csr(self, o0: int, o1: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                             npt.NDArray[np.float64]]:
        """``(ptr, idx, w)`` of outputs ``o0 .. o1 - 1``. GIL released while building."""
    def window_into(self, o0: int, o1: int, ptr: npt.NDArray[np.int64],
                    idx: npt.NDArray[np.int64], w: npt.NDArray[np.float64],
                    didx: npt.NDArray[np.int64],
                    dw: npt.NDArray[np.float64]) -> tuple[int, int, int, int]:
        """CSR and dense taps of outputs ``o0 .. o1 - 1`` over the window ``[lo, hi)`` they
        read, into caller buffers; returns ``(nnz, lo, hi, k)``."""
    def dense_into(self, o0: int, o1: int, k: int, idx: npt.NDArray[np.int64],
                   w: npt.NDArray[np.float64]) -> int:
        """Dense rows (``k`` slots each) of outputs ``o0 .. o1 - 1``; returns the most taps."""
    def tile_filler(self) -> Any:
        """A capsule of this builder's rows for ``_exec.Program.run_tiles``."""
    def tile_csr(self, o0: int, o1: int, n_w: int) -> tuple[
            int, npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]] | None:
        """``(lo, ptr, idx, w)`` of outputs ``o0 .. o1 - 1`` over ``[lo, lo + n_w)`` as
        ``tile_filler`` places them, or None where they do not fit."""
    def stats(self, o0: int, o1: int) -> tuple[int, int]:
        """``(nnz, most taps of one output)`` of outputs ``o0 .. o1 - 1``."""

def csr_to_dense(n_in: int, ptr: npt.NDArray[np.int64], idx: npt.NDArray[np.int64],
                 w: npt.NDArray[np.float64], k: int, out_idx: npt.NDArray[np.int64],
                 out_w: npt.NDArray[np.float64]) -> None:
    """``AxisTable.dense`` of a CSR table into ``out_idx``/``out_w``. GIL released."""
