"""Type stub for the compiled ``resamplex._engine.kernels._spline`` (see ``_spline.pyx``): the B-spline
prefilter (``OP_SPLINE``) and SciPy-order tensor evaluation (``OP_TENSOR``) kernels, run by the
executor; from Python only their codes and scratch size are visible."""

from typing import Any

ELEMS: dict[str, int]
STORES: dict[str, int]
INITS: dict[str, int]
CVAL_TAP: int

def tensor_scratch(ndim: int, k: int, n_last: int, n_in_last: int) -> int: ...
def spline_units(shape: tuple[int, ...], axis: int) -> tuple[int, int]: ...
def tensor_units(shape: tuple[int, ...]) -> int: ...
def kernel_table() -> Any: ...
