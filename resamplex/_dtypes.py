"""The dtype registry: which dtypes each mode accepts, what they compute in, how they round.

This table is the single source for validation, messages, ``show_config()`` and the tests.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ._engine import _exec
from ._errors import UnsupportedError, bad_choice

# bfloat16 is optional: it exists only where ml_dtypes is installed. ml_dtypes is imported
# when bfloat16 is first asked for, not with resamplex: importing it registers its ufunc loops
# with NumPy, 0.8 of the 1.0 s that `import resamplex` took (ml_dtypes 0.7, NumPy 2.4). An
# array of bfloat16 exists only once ml_dtypes is imported, so recognising one needs no import.
_bfloat16: list[np.dtype | None] = []   # [the dtype, or None: not installed], once looked up


def bfloat16(load: bool = True) -> np.dtype | None:
    """ml_dtypes' bfloat16 dtype, or None where ml_dtypes is not installed; with
    ``load=False`` also None while ml_dtypes is not imported (no bfloat16 array exists then)."""
    if _bfloat16:
        return _bfloat16[0]
    module: Any = sys.modules.get("ml_dtypes")
    if module is None:
        if not load:
            return None
        try:
            module = importlib.import_module("ml_dtypes")
        except ImportError:  # pragma: no cover - exercised only without ml_dtypes
            _bfloat16.append(None)
            return None
    _bfloat16.append(np.dtype(module.bfloat16))
    return _bfloat16[0]


def bfloat16_installed() -> bool:
    """Whether bfloat16 can be had (ml_dtypes imported or importable), without importing it."""
    return bool(_bfloat16) and _bfloat16[0] is not None or "ml_dtypes" in sys.modules \
        or importlib.util.find_spec("ml_dtypes") is not None


def __getattr__(name: str) -> Any:
    # _dtypes.BFLOAT16: bfloat16(), looked up (and ml_dtypes imported) when first read
    if name == "BFLOAT16":
        return bfloat16()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def as_dtype(dtype: Any) -> np.dtype:
    """``np.dtype(dtype)``, with the name ``"bfloat16"`` too (NumPy knows it only once
    ml_dtypes is imported); TypeError for what is not a dtype."""
    if isinstance(dtype, str) and dtype == "bfloat16":
        bf16 = bfloat16()
        if bf16 is not None:
            return bf16
    return np.dtype(dtype)


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


_NAMES: dict[np.dtype, str] = {}


def name_of(dtype: np.dtype) -> str:
    """``dtype.name``, remembered: NumPy computes it in Python (about 5 us a call) and a new
    shape's plan asks for it a dozen times. At most 256 dtypes are remembered."""
    name = _NAMES.get(dtype)
    if name is None:
        name = dtype.name
        if len(_NAMES) < 256:
            _NAMES[dtype] = name
    return name


def dtype_name(dtype: np.dtype) -> str:
    """The registry name of a dtype (bfloat16 recognised by identity, not by number)."""
    if dtype.kind == "V" and dtype == bfloat16(load=False):
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
