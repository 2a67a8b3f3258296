"""The dtype registry: which dtypes each mode accepts, what they compute in, how they round.

This table is the single source for validation, messages, ``show_config()`` and the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._engine import _exec
from ._errors import UnsupportedError, bad_choice

try:  # bfloat16 is optional: it exists only where ml_dtypes is installed
    import ml_dtypes

    BFLOAT16: np.dtype | None = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - exercised only without ml_dtypes
    BFLOAT16 = None


@dataclass(frozen=True)
class DtypeInfo:
    name: str
    kind: int          # the kernels' element code (_engine/_fused.pxd, enum Kind)
    compute: np.dtype  # accumulator dtype of weighted passes
    integer: bool      # rounded and saturated on store


# (name, accumulator dtype, rounded and saturated on store); kind codes come from the kernels.
_WEIGHTED = {
    name: DtypeInfo(name, _exec.KINDS[name], np.dtype(compute), integer)
    for name, compute, integer in [
        ("float64", np.float64, False),
        ("float32", np.float32, False),
        ("float16", np.float32, False),
        ("bfloat16", np.float32, False),
        ("int8", np.float32, True),
        ("uint8", np.float32, True),
        # 16-bit integers compute in float64: float32 steps reach 1/128 near 65535, more
        # than the 1/256 rounding tolerance of SPEC §3.
        ("int16", np.float64, True),
        ("uint16", np.float64, True),
    ]
}

#: Dtypes of the weighted modes (linear, cubic, area, antialias), in SPEC §3 order.
WEIGHTED_DTYPES = tuple(_WEIGHTED)

#: Integer rounding names -> kernel codes (enum Rounding in _engine/_fused.pxd).
ROUNDING = dict(_exec.ROUNDINGS)


def dtype_name(dtype: np.dtype) -> str:
    """The registry name of a dtype (bfloat16 recognised by identity, not by number)."""
    if BFLOAT16 is not None and dtype == BFLOAT16:
        return "bfloat16"
    return dtype.name if dtype.isnative or dtype.itemsize == 1 else dtype.str


def weighted_info(dtype: np.dtype, mode: str) -> DtypeInfo:
    """The registry entry of a dtype for a weighted mode, or UnsupportedError naming the dtype.

    Non-native byte order is looked up by its native twin; the caller converts.
    """
    native = dtype.newbyteorder("=") if not dtype.isnative else dtype
    info = _WEIGHTED.get(dtype_name(native))
    if info is None:
        raise UnsupportedError(
            f"dtype: mode {mode!r} supports {', '.join(WEIGHTED_DTYPES)}; got {dtype_name(dtype)}"
            " (mode 'nearest' copies any fixed-size dtype)"
        )
    return info


@lru_cache(maxsize=64)
def registry_entry(dtype: np.dtype) -> DtypeInfo | None:
    """The registry entry of ``dtype`` (either byte order), or None."""
    # (dtype.name is slow to compute; a conversion looks its dtypes up on every call)
    native = dtype.newbyteorder("=") if not dtype.isnative else dtype
    return _WEIGHTED.get(dtype_name(native)) if not dtype.hasobject else None


def output_info(dtype: np.dtype, name: str = "dtype") -> DtypeInfo:
    """The registry entry of an output dtype other than the input's (``dtype=``, or an
    ``out=`` of another dtype), or UnsupportedError naming the parameter."""
    info = registry_entry(dtype)
    if info is None:
        raise UnsupportedError(
            f"{name}: an output dtype other than the input's must be one of "
            f"{', '.join(WEIGHTED_DTYPES)}; got {dtype_name(dtype)}")
    return info


def convert_compute(src: np.dtype, dst: np.dtype) -> np.dtype:
    """The compute type of a resize from ``src`` to ``dst`` (both in the registry): the wider
    of the two dtypes' own compute types, so neither loses precision (uint8 -> float32
    computes in float32, uint8 -> float64 or -> uint16 in float64). The affine is applied in
    it too. A resize without conversion keeps its dtype's compute type."""
    a, b = output_info(src, "x").compute, output_info(dst).compute
    return a if a.itemsize >= b.itemsize else b


def check_nearest_dtype(dtype: np.dtype) -> None:
    """Nearest copies bytes: any fixed-size dtype without Python objects."""
    if dtype.hasobject:
        raise UnsupportedError(f"dtype: object dtypes cannot be resampled; got {dtype}")
    if dtype.itemsize == 0:
        raise UnsupportedError(f"dtype: flexible dtypes of size 0 cannot be resampled; got {dtype}")


def rounding_code(rounding: str) -> int:
    if not isinstance(rounding, str) or rounding not in ROUNDING:
        raise bad_choice("rounding", rounding, ROUNDING)
    return ROUNDING[rounding]
