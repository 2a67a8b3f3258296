"""DirectML resampling operators on NumPy arrays (SPEC §4).

``from resamplex import dml``. One function per DirectML operator, named after its desc:

=====================  ======================  ====================================================
function               operator                nearest-neighbour rule (then clamp)
=====================  ======================  ====================================================
``resample``           DML_RESAMPLE            ``floor(u + 0.5)``, ``a = 0.5``, ``b = -0.5``
``resample1``          DML_RESAMPLE1           ``floor(u + 0.5)``
``resample2``          DML_RESAMPLE2           ``floor(u)`` (DECREASING) / ``ceil(u)`` (INCREASING)
``resample3``          DML_RESAMPLE3           as ``resample2``, plus ``antialiased``
``upsample_2d``        DML_UPSAMPLE_2D         replication ``o // k`` on the last two axes
``resample_grad``      DML_RESAMPLE_GRAD       adjoint of ``resample1``
``resample_grad1``     DML_RESAMPLE_GRAD1      adjoint of ``resample2``
=====================  ======================  ====================================================

Coordinate map of every ``resample*`` operator, per dimension ``d``, in float32 arithmetic and in
this order (each operation rounded to float32): ``u = ((float)o - b) / s - a`` with
``s = scales[d]``, ``a = input_pixel_offsets[d]``, ``b = output_pixel_offsets[d]`` (the inverse
of DirectML's documented ``OutputX = (InputX + InputPixelOffset) * Scale + OutputPixelOffset``).
Linear: ``i0 = floor(u)``, ``f = u - i0`` (float32), taps ``clamp(i0)`` with ``1 - f`` and
``clamp(i0 + 1)`` with ``f``; the rounding direction is ignored. Scales need not be out/in:
the high end is cropped, or the edge repeated (DirectML's documented crop/clamp).

This module only validates parameters and builds axis tables (``resamplex._tables.AxisTable``);
the shared engine (``resamplex._resize.Plan``) applies them.

What is documented and what is inferred
---------------------------------------
DirectML is closed source; the evidence is in ``research/directml.md`` (tags [DOC], [CODE],
[INFERRED], [UNVERIFIED] there). Not stated by Microsoft, and how this module exposes it:

- RESAMPLE / RESAMPLE1 nearest rounds halves up, ``floor(u + 0.5)`` [INFERRED from ORT's DML
  EP, the TensorFlow-DirectML plugin and a Chromium/WPT observation]: fixed, as above.
- The float32 evaluation order of ``u`` (division, no FMA) [UNVERIFIED]: fixed, as above. Exact
  ties are where hardware could differ.
- Integer (INT8/UINT8) outputs of LINEAR: rounding undocumented. ``rounding="half_even"`` is the
  default (SPEC §3); ``rounding="toward_zero"`` reproduces what ONNX Runtime's tests imply for
  DirectML [INFERRED, weak].
- LINEAR weight form and dimension order (about 1 ulp in float32) [UNVERIFIED]: the engine's
  separable passes.
- RESAMPLE3 ``antialiased``: DirectML's kernel is unpublished (iterative, mip-like); this
  module uses the ONNX Resize-18 / Pillow triangle filter (see :func:`resample3`).
- UPSAMPLE_2D LINEAR coordinate convention [UNVERIFIED]: half-pixel, as ``resample``.
- RESAMPLE_GRAD / GRAD1 offsets describe the forward operator [DOC wording; the TF-DirectML
  plugin passes negated offsets, UNVERIFIED].
- RESAMPLE2 equals RESAMPLE1 for nearest with DECREASING and *input* offsets ``a - 0.5``; the
  documentation says *output* offsets, which only holds for scale 1 [INFERRED, §1.5].
- RESAMPLE2 INT8/UINT8 from FL 6_2 (release notes and feature-level history; the API page's
  table was not updated); RESAMPLE3 at FL 6_4 (the header guard; DirectMLX/ORT once used 6_3).
"""

from __future__ import annotations

import enum
import math
import numbers
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np

from . import _dtypes
from ._errors import ResamplexError, UnsupportedError, bad_value
from ._checks import as_array, check_allocation, is_int, is_real
from ._checks import ndim as _ndim
from ._engine._exec import call_key
from ._engine.cache import PLANS, CallMemo
from ._engine.plan import Plan
from ._tables import AxisTable, antialias_linear_taps

__all__ = [
    "AxisDirection",
    "DEFAULT_FEATURE_LEVEL",
    "FeatureLevel",
    "InterpolationMode",
    "SupportRow",
    "TENSOR_SUPPORT",
    "resample",
    "resample1",
    "resample2",
    "resample3",
    "resample_grad",
    "resample_grad1",
    "support_table_markdown",
    "supports",
    "upsample_2d",
]


# ------------------------------------------------------------------------------ enums

class FeatureLevel(enum.IntEnum):
    """``DML_FEATURE_LEVEL``: DirectML's numeric values (``0x6200`` is 6_2)."""

    FL_1_0 = 0x1000
    FL_2_0 = 0x2000
    FL_2_1 = 0x2100
    FL_3_0 = 0x3000
    FL_3_1 = 0x3100
    FL_4_0 = 0x4000
    FL_4_1 = 0x4100
    FL_5_0 = 0x5000
    FL_5_1 = 0x5100
    FL_5_2 = 0x5200
    FL_6_0 = 0x6000
    FL_6_1 = 0x6100
    FL_6_2 = 0x6200
    FL_6_3 = 0x6300
    FL_6_4 = 0x6400

    @property
    def dml_name(self) -> str:
        """``"DML_FEATURE_LEVEL_6_2"``."""
        return "DML_FEATURE_LEVEL_" + self.name[3:]


class InterpolationMode(enum.IntEnum):
    """``DML_INTERPOLATION_MODE``."""

    NEAREST_NEIGHBOR = 0
    LINEAR = 1


class AxisDirection(enum.IntEnum):
    """``DML_AXIS_DIRECTION`` (the ``RoundingDirection`` of RESAMPLE2/3 and RESAMPLE_GRAD1)."""

    INCREASING = 0
    DECREASING = 1


#: The feature level used when ``feature_level`` is not given: the highest known.
DEFAULT_FEATURE_LEVEL = max(FeatureLevel)


# ------------------------------------------------------------------------------ support tables

class SupportRow(NamedTuple):
    """From ``from_level`` on (until the operator's next row), these ranks and data types."""

    from_level: FeatureLevel
    ranks: tuple[int, ...]
    dtypes: tuple[str, ...]


_F = ("FLOAT32", "FLOAT16")
_FI = ("FLOAT32", "FLOAT16", "INT8", "UINT8")
_R14 = (1, 2, 3, 4)
_FL = FeatureLevel

#: Operator -> rows by ascending level (SPEC §4). The single source for validation, error
#: messages, :func:`support_table_markdown` and the tests. Levels between rows carry the row
#: before them forward; below the first row the operator does not exist.
TENSOR_SUPPORT: Mapping[str, tuple[SupportRow, ...]] = MappingProxyType({
    "DML_UPSAMPLE_2D": (SupportRow(_FL.FL_1_0, (4, 5), _F),),
    "DML_RESAMPLE": (SupportRow(_FL.FL_2_0, (4,), _F),
                     SupportRow(_FL.FL_5_1, _R14, _F),
                     SupportRow(_FL.FL_6_2, _R14, _FI)),
    "DML_RESAMPLE1": (SupportRow(_FL.FL_2_1, (4,), _F),
                      SupportRow(_FL.FL_5_1, _R14, _F),
                      SupportRow(_FL.FL_6_2, _R14, _FI)),
    "DML_RESAMPLE2": (SupportRow(_FL.FL_5_1, _R14, _F),
                      SupportRow(_FL.FL_6_2, _R14, _FI)),
    "DML_RESAMPLE3": (SupportRow(_FL.FL_6_4, _R14, _FI),),
    "DML_RESAMPLE_GRAD": (SupportRow(_FL.FL_3_0, (4,), _F),
                          SupportRow(_FL.FL_5_1, _R14, _F)),
    "DML_RESAMPLE_GRAD1": (SupportRow(_FL.FL_5_1, _R14, _F),),
})

#: DML tensor data type names -> NumPy dtypes (the four the resample operators use).
DTYPES: Mapping[str, np.dtype] = MappingProxyType({
    "FLOAT32": np.dtype(np.float32),
    "FLOAT16": np.dtype(np.float16),
    "INT8": np.dtype(np.int8),
    "UINT8": np.dtype(np.uint8),
})

# Every DML_TENSOR_DATA_TYPE with a NumPy twin, for naming what a caller passed.
_DML_TYPE_NAMES = {np.dtype(t): n for t, n in (
    (np.float32, "FLOAT32"), (np.float16, "FLOAT16"), (np.int8, "INT8"), (np.uint8, "UINT8"),
    (np.float64, "FLOAT64"), (np.int16, "INT16"), (np.uint16, "UINT16"), (np.int32, "INT32"),
    (np.uint32, "UINT32"), (np.int64, "INT64"), (np.uint64, "UINT64"))}


def _dtype_label(dtype: np.dtype) -> str:
    """The DML name of a dtype (``INT8``), or NumPy's name when DirectML has no such type."""
    native = dtype if dtype.isnative else dtype.newbyteorder("=")
    if native in _DML_TYPE_NAMES and native.fields is None:
        return _DML_TYPE_NAMES[native]
    return _dtypes.dtype_name(dtype)


def _ranks_text(ranks: tuple[int, ...]) -> str:
    if len(ranks) == 1:
        return str(ranks[0])
    if ranks == tuple(range(ranks[0], ranks[-1] + 1)):
        return f"{ranks[0]} to {ranks[-1]}"
    return ", ".join(map(str, ranks))


def _lowest_level(operator: str, ndim: int, label: str) -> FeatureLevel | None:
    for row in TENSOR_SUPPORT[operator]:
        if ndim in row.ranks and label in row.dtypes:
            return row.from_level
    return None


def _active_row(operator: str, level: FeatureLevel) -> SupportRow | None:
    active = None
    for row in TENSOR_SUPPORT[operator]:
        if row.from_level <= level:
            active = row
    return active


def _support_error(operator: str, ndim: int, dtype: np.dtype,
                   level: FeatureLevel) -> UnsupportedError | None:
    """The UnsupportedError of SPEC §4 for this call, or None if the table accepts it."""
    label = _dtype_label(dtype)
    row = _active_row(operator, level)
    rank_ok = row is not None and ndim in row.ranks
    dtype_ok = row is not None and label in row.dtypes
    if rank_ok and dtype_ok:
        return None
    lowest = _lowest_level(operator, ndim, label)
    needs = f"needs {lowest.dml_name}" if lowest is not None else "no feature level supports it"
    if row is None:
        first = TENSOR_SUPPORT[operator][0].from_level
        return UnsupportedError(
            f"{operator} does not exist at {level.dml_name} (introduced in {first.dml_name}); "
            f"got {ndim} dimensions, {label} ({needs})")
    dtypes = ", ".join(row.dtypes)
    ranks = _ranks_text(row.ranks)
    if not rank_ok and not dtype_ok:
        return UnsupportedError(
            f"{operator} at {level.dml_name} supports {ranks} dimensions of {dtypes}; "
            f"got {ndim} dimensions of {label} ({needs})")
    if not rank_ok:
        return UnsupportedError(f"{operator} at {level.dml_name} supports {ranks} dimensions; "
                                f"got {ndim} ({needs})")
    return UnsupportedError(f"{operator} at {level.dml_name} supports {dtypes}; "
                            f"got {label} ({needs})")


def _check_support(operator: str, ndim: int, dtype: np.dtype, level: FeatureLevel) -> None:
    err = _support_error(operator, ndim, dtype, level)
    if err is not None:
        raise err


_FUNCTION_OPERATORS = {
    "resample": "DML_RESAMPLE", "resample1": "DML_RESAMPLE1", "resample2": "DML_RESAMPLE2",
    "resample3": "DML_RESAMPLE3", "upsample_2d": "DML_UPSAMPLE_2D",
    "resample_grad": "DML_RESAMPLE_GRAD", "resample_grad1": "DML_RESAMPLE_GRAD1",
}


def _operator_name(operator: Any) -> str:
    if callable(operator) and getattr(operator, "__module__", None) == __name__:
        name = _FUNCTION_OPERATORS.get(getattr(operator, "__name__", ""))
        if name is not None:
            return name
    if isinstance(operator, str):
        key = operator.strip().upper()
        for prefix in ("DML_OPERATOR_", "DML_"):
            if key.startswith(prefix):
                key = key[len(prefix):]
                break
        if "DML_" + key in TENSOR_SUPPORT:
            return "DML_" + key
    raise bad_value("operator", operator,
                    "one of " + ", ".join(TENSOR_SUPPORT) + " (with or without 'DML_'), "
                    "or a dml function")


def supports(operator: Any, ndim: int, dtype: Any,
             feature_level: Any = DEFAULT_FEATURE_LEVEL) -> bool:
    """Whether ``operator`` accepts ``ndim``-dimensional tensors of ``dtype`` at a feature level.

    Parameters
    ----------
    operator : str or function
        ``"DML_RESAMPLE2"``, ``"RESAMPLE2"``, ``"resample2"`` or ``dml.resample2``.
    ndim : int
        Dimension count of the input (and output) tensor.
    dtype : numpy dtype-like or str
        A NumPy dtype, or a DML data type name (``"INT8"``).
    feature_level : optional
        Any spelling :func:`resample` accepts; default the highest (6_4).

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> dml.supports("DML_RESAMPLE", 2, np.int8, "6_2")
    True
    >>> dml.supports("DML_RESAMPLE", 2, np.int8, "5_1")
    False
    """
    name = _operator_name(operator)
    level = _feature_level(feature_level)
    if isinstance(ndim, (bool, np.bool_)) or not isinstance(ndim, numbers.Integral) or ndim < 0:
        raise bad_value("ndim", ndim, "an integer >= 0")
    if isinstance(dtype, str) and dtype.strip().upper().removeprefix(
            "DML_TENSOR_DATA_TYPE_") in _DML_TYPE_NAMES.values():
        label = dtype.strip().upper().removeprefix("DML_TENSOR_DATA_TYPE_")
        dt = next(d for d, n in _DML_TYPE_NAMES.items() if n == label)
    else:
        try:
            dt = _dtypes.as_dtype(dtype)
        except TypeError:
            raise bad_value("dtype", dtype, "a NumPy dtype or a DML data type name") from None
    return _support_error(name, int(ndim), dt, level) is None


def support_table_markdown() -> str:
    """:data:`TENSOR_SUPPORT` as a Markdown table (the README's and ``resamplex info``'s).

    Examples
    --------
    >>> from resamplex import dml
    >>> print(dml.support_table_markdown().splitlines()[2])
    | DML_UPSAMPLE_2D | 1_0 | 4–5 | FLOAT32, FLOAT16 |
    """
    lines = ["| operator | from level | dimension counts | data types |",
             "|---|---|---|---|"]
    for operator, rows in TENSOR_SUPPORT.items():
        for row in rows:
            ranks = (str(row.ranks[0]) if len(row.ranks) == 1
                     else f"{row.ranks[0]}–{row.ranks[-1]}")
            lines.append(f"| {operator} | {row.from_level.name[3:]} | {ranks} | "
                         f"{', '.join(row.dtypes)} |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ parameters

def _parse_enum(name: str, value: Any, enum_cls: type[enum.IntEnum], prefix: str,
                accepted: str) -> Any:
    if isinstance(value, enum_cls):
        return value
    if is_int(value):
        try:
            return enum_cls(int(value))
        except ValueError:
            pass
    elif isinstance(value, str):
        key = value.strip().upper().removeprefix(prefix)
        if key in enum_cls.__members__:
            return enum_cls[key]
    raise bad_value(name, value, accepted)


def _feature_level(value: Any) -> FeatureLevel:
    if isinstance(value, FeatureLevel):
        return value
    if is_int(value):
        try:
            return FeatureLevel(int(value))
        except ValueError:
            pass
    elif isinstance(value, str):
        key = value.strip().upper().removeprefix("DML_FEATURE_LEVEL_").replace(".", "_")
        key = key if key.startswith("FL_") else "FL_" + key
        if key in FeatureLevel.__members__:
            return FeatureLevel[key]
    known = ", ".join(level.name[3:] for level in FeatureLevel)
    raise bad_value("feature_level", value,
                    f"a DirectML feature level ({known}) spelled like '6_2', '6.2', 0x6200, "
                    "'DML_FEATURE_LEVEL_6_2' or dml.FeatureLevel.FL_6_2")


def _interpolation_mode(value: Any) -> InterpolationMode:
    return _parse_enum("interpolation_mode", value, InterpolationMode, "DML_INTERPOLATION_MODE_",
                       "'nearest_neighbor', 'linear', 'DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR', "
                       "'DML_INTERPOLATION_MODE_LINEAR' or dml.InterpolationMode")


def _rounding_direction(value: Any) -> AxisDirection:
    return _parse_enum("rounding_direction", value, AxisDirection, "DML_AXIS_DIRECTION_",
                       "'increasing', 'decreasing', 'DML_AXIS_DIRECTION_INCREASING', "
                       "'DML_AXIS_DIRECTION_DECREASING' or dml.AxisDirection")


def _float32_params(name: str, values: Any, ndim: int, *, positive: bool,
                    what: str = "x") -> tuple[np.ndarray, tuple[float, ...]]:
    """One finite number per dimension, as the float32 values DirectML's desc holds.

    Returns the float32 array and the caller's values as Python floats (used for output
    lengths, like the core's ``floor(n_in * scale)``).
    """
    accepted = (f"a sequence of {ndim} {'positive ' if positive else ''}finite numbers "
                f"(one per dimension of {what})")
    if values is None or isinstance(values, (str, bytes)) or _ndim(values) != 1:
        raise bad_value(name, values, accepted)
    seq = tuple(v.item() if isinstance(v, (np.generic, np.ndarray)) else v for v in values)
    if len(seq) != ndim:
        raise ResamplexError(f"{name}: expected {ndim} entries, one per dimension of the "
                             f"{ndim}-D {what}; got {len(seq)}: {values!r}")
    for v in seq:
        if not is_real(v) or not math.isfinite(float(v)) or (positive and float(v) <= 0):
            raise bad_value(name, values, accepted)
    with np.errstate(over="ignore", under="ignore"):
        f32 = np.array([float(v) for v in seq], dtype=np.float64).astype(np.float32)
    for v, v32 in zip(seq, f32):
        if not np.isfinite(v32) or (positive and v32 <= 0):
            raise ResamplexError(f"{name}: {v!r} is not representable as a "
                                 f"{'positive ' if positive else ''}finite float32 "
                                 f"(DirectML's type for it); got {float(v32)!r} in float32")
    return f32, tuple(float(v) for v in seq)


def _shape_param(name: str, value: Any, ndim: int, what: str) -> tuple[int, ...]:
    accepted = f"a sequence of {ndim} integers >= 0 (one per dimension of {what})"
    if value is None or isinstance(value, (str, bytes)) or _ndim(value) != 1:
        raise bad_value(name, value, accepted)
    seq = tuple(v.item() if isinstance(v, (np.generic, np.ndarray)) else v for v in value)
    if len(seq) != ndim or not all(is_int(v) and v >= 0 for v in seq):
        raise bad_value(name, value, accepted)
    return tuple(int(v) for v in seq)


def _check_lengths(source: str, in_shape: Sequence[int], out_shape: Sequence[int],
                   scales: Sequence[float] | None = None) -> None:
    for d, (n_in, n_out) in enumerate(zip(in_shape, out_shape)):
        if n_in == 0 and n_out != 0:
            raise ResamplexError(f"{source}: dimension {d} has input length 0 (nothing to "
                                 f"sample from) and can only keep length 0; got {n_out}")
        if n_in > 0 and n_out < 1:
            how = f" (floor({n_in} * {scales[d]!r}))" if scales is not None else ""
            raise ResamplexError(f"{source}: every output length must be >= 1; dimension {d} "
                                 f"got {n_out}{how}")


def _check_out(out: Any, ndim: int, dtype: np.dtype, shape: tuple[int, ...] | None) -> None:
    """``out``'s type, rank, dtype and writeability (its shape when ``shape`` is known)."""
    if not isinstance(out, np.ndarray):
        raise bad_value("out", type(out).__name__, "a numpy.ndarray")
    if out.ndim != ndim or (shape is not None and out.shape != shape):
        want = f"shape {shape}" if shape is not None else f"a {ndim}-D array"
        raise ResamplexError(f"out: expected {want} (DirectML's input and output share their "
                             f"dimension count); got shape {out.shape}")
    if out.dtype != dtype:
        raise ResamplexError(f"out: expected dtype {dtype} (the input's); got {out.dtype}")
    if not out.flags.writeable:
        raise ResamplexError("out: the array is read-only")


def _forward_shape(x: np.ndarray, scales: tuple[float, ...], output_shape: Any,
                   out: Any) -> tuple[tuple[int, ...], str]:
    """Output shape: ``out.shape``, else ``output_shape``, else ``floor(n_in * scale)``."""
    ndim = x.ndim
    if out is not None:
        _check_out(out, ndim, x.dtype, None)
        shape, source = tuple(out.shape), "out"
        if output_shape is not None:
            given = _shape_param("output_shape", output_shape, ndim, "x")
            if given != shape:
                raise ResamplexError(f"output_shape: {given} differs from out.shape {shape}; "
                                     "give one of them, or both equal")
    elif output_shape is not None:
        shape, source = _shape_param("output_shape", output_shape, ndim, "x"), "output_shape"
    else:
        lengths = []
        for d, (n_in, s) in enumerate(zip(x.shape, scales)):
            prod = n_in * s
            if prod >= 2.0**62:
                raise ResamplexError(f"scales: dimension {d} of length {n_in} times {s!r} "
                                     "gives an output length that overflows")
            lengths.append(math.floor(prod))
        shape, source = tuple(lengths), "scales"
    _check_lengths(source, x.shape, shape, scales if source == "scales" else None)
    return shape, source


def _check_sizes(source: str, out_shape: Sequence[int], itemsize: int, table_rows: int,
                 allocate_output: bool) -> None:
    """Refuse outputs and tables too big to allocate, before building anything."""
    if allocate_output:
        check_allocation(math.prod(out_shape) * itemsize, source)
    # Tables and their scratch: a few int64/float64/float32 arrays per output index.
    check_allocation(table_rows * 96, source)


# ------------------------------------------------------------------------------ table builders

_ROUND_HALF_UP, _FLOOR, _CEIL = "floor(u + 0.5)", "floor(u)", "ceil(u)"


def _coordinates(n_out: int, scale: np.float32, a: np.float32, b: np.float32) -> np.ndarray:
    """``u = ((float)o - b) / s - a`` for ``o`` in ``[0, n_out)``, each operation in float32.

    ``(float)o`` rounds to nearest, as a C cast does (exact below 2**24).
    """
    o = np.arange(n_out, dtype=np.int64).astype(np.float32)
    with np.errstate(over="ignore"):
        return (o - np.float32(b)) / np.float32(scale) - np.float32(a)


def _nearest_indices(u: np.ndarray, n_in: int, rule: str) -> np.ndarray:
    """``floor(u + 0.5)`` (the ``+ 0.5`` in float32), ``floor(u)`` or ``ceil(u)``, clamped."""
    if rule == _ROUND_HALF_UP:
        k = np.floor(u + np.float32(0.5))
    elif rule == _FLOOR:
        k = np.floor(u)
    else:
        k = np.ceil(u)
    # Clamp in float64 first: u may be huge or +-inf after a float32 overflow.
    return np.clip(k.astype(np.float64), 0, n_in - 1).astype(np.int64)


def _linear_taps(u: np.ndarray, n_in: int) -> tuple[np.ndarray, np.ndarray]:
    """Dense ``(n_out, 2)`` taps: ``clamp(i0)`` with ``1 - f``, ``clamp(i0 + 1)`` with ``f``.

    ``i0 = floor(u)``, ``f = u - i0`` and ``1 - f`` in float32 (stored exactly as float64).
    Where both taps clamp to the same sample the output is that sample (one tap, weight 1).
    """
    with np.errstate(invalid="ignore"):
        i0 = np.floor(u)
        f = np.where(np.isfinite(u), u - i0, np.float32(0)).astype(np.float32)
    w0 = (np.float32(1) - f).astype(np.float64)
    w1 = f.astype(np.float64)
    i0 = np.clip(i0.astype(np.float64), -1, n_in).astype(np.int64)
    lo = np.clip(i0, 0, n_in - 1)
    hi = np.clip(i0 + 1, 0, n_in - 1)
    same = lo == hi
    w0[same] = 1.0
    w1[same] = 0.0
    return np.stack([lo, hi], axis=1), np.stack([w0, w1], axis=1)


def _axis_table(n_in: int, n_out: int, scale: np.float32, a: np.float32, b: np.float32, *,
                mode: InterpolationMode, rule: str, antialiased: bool = False
                ) -> AxisTable | None:
    """The table of one dimension (``None`` when the input length is 0: nothing to read)."""
    if n_in == 0:
        return None
    u = _coordinates(n_out, scale, a, b)
    if mode is InterpolationMode.NEAREST_NEIGHBOR:
        return AxisTable.gather(n_in, _nearest_indices(u, n_in, rule))
    if antialiased and scale < np.float32(0.5):  # DirectML: only where 1 / scale > 2
        idx, w = antialias_linear_taps(u.astype(np.float64), n_in, 1.0 / float(scale))
        return AxisTable.from_taps(n_in, idx, w, merge=True)
    idx, w = _linear_taps(u, n_in)
    return AxisTable.from_taps(n_in, idx, w, merge=False)


def _antialias_rows(n_in: int, n_out: int, scale: np.float32) -> int:
    """Tap rows an antialiased table needs (its dense width times ``n_out``)."""
    width = min(n_in, math.ceil(2.0 / float(scale)) + 1) + 2
    return n_out * width


def _forward_plan(operator: str, in_shape: Sequence[int], out_shape: Sequence[int],
                  scales: np.ndarray, a: np.ndarray, b: np.ndarray, *,
                  mode: InterpolationMode, rule: str, antialiased: bool = False) -> Plan:
    """The forward operator's ``Plan``: one table per dimension (identities are skipped)."""
    tables = [_axis_table(n_in, n_out, s, ad, bd, mode=mode, rule=rule, antialiased=antialiased)
              for n_in, n_out, s, ad, bd in zip(in_shape, out_shape, scales, a, b)]
    return Plan(in_shape, tables, weighted=mode is InterpolationMode.LINEAR, op=operator)


# ------------------------------------------------------------------------------ operators

def _table_rows(in_shape: Sequence[int], out_shape: Sequence[int], scales: np.ndarray,
                antialiased: bool) -> int:
    rows = 0
    for n_in, n_out, s in zip(in_shape, out_shape, scales):
        rows += _antialias_rows(n_in, n_out, s) if antialiased and s < 0.5 else n_out
    return rows


_CALLS = CallMemo()


class _HalfUp(enum.Enum):
    """The ``rounding_direction`` of the operators that have none (RESAMPLE, RESAMPLE1 and
    their gradient): nearest rounds halves up."""

    RULE = 0


def _nearest_rule(rounding_direction: Any) -> str:
    """RESAMPLE/RESAMPLE1 round halves up; RESAMPLE2/3 follow the direction."""
    if rounding_direction is _HalfUp.RULE:
        return _ROUND_HALF_UP
    direction = _rounding_direction(rounding_direction)
    return _CEIL if direction is AxisDirection.INCREASING else _FLOOR


def _resample(operator: str, x: Any, scales: Any, input_pixel_offsets: Any,
              output_pixel_offsets: Any, *, interpolation_mode: Any, rounding_direction: Any,
              antialiased: bool, output_shape: Any, out: Any, feature_level: Any,
              rounding: str, threads: Any) -> np.ndarray:
    raw = None
    if type(x) is np.ndarray and out is None:
        raw = call_key(operator, x.shape, x.dtype, scales, input_pixel_offsets,
                       output_pixel_offsets, interpolation_mode, rounding_direction,
                       antialiased, output_shape, feature_level)
        plan = _CALLS.plan(raw)
        if plan is not None:
            return plan(x, out=out, threads=threads, rounding=rounding)
    x = as_array(x, "x")
    level = _feature_level(feature_level)
    mode = _interpolation_mode(interpolation_mode)
    nearest_rule = _nearest_rule(rounding_direction)
    _check_support(operator, x.ndim, x.dtype, level)
    _dtypes.rounding_code(rounding)
    s32, s_user = _float32_params("scales", scales, x.ndim, positive=True)
    a32, _ = _float32_params("input_pixel_offsets", input_pixel_offsets, x.ndim, positive=False)
    b32, _ = _float32_params("output_pixel_offsets", output_pixel_offsets, x.ndim,
                             positive=False)
    out_shape, source = _forward_shape(x, s_user, output_shape, out)
    aa = antialiased and mode is InterpolationMode.LINEAR
    _check_sizes(source, out_shape, x.dtype.itemsize, _table_rows(x.shape, out_shape, s32, aa),
                 out is None)
    key = ("dml", operator, x.shape, out_shape, s32.tobytes(), a32.tobytes(), b32.tobytes(),
           mode, nearest_rule, aa)
    plan = PLANS.get_or_build(key, lambda: _forward_plan(
        operator, x.shape, out_shape, s32, a32, b32, mode=mode, rule=nearest_rule,
        antialiased=aa))
    _CALLS.remember(raw, key)
    return plan(x, out=out, threads=threads, rounding=rounding)


def resample(x: Any, scales: Sequence[float], *, interpolation_mode: Any,
             output_shape: Sequence[int] | None = None, out: np.ndarray | None = None,
             feature_level: Any = DEFAULT_FEATURE_LEVEL, rounding: str = "half_even",
             threads: int | None = None) -> np.ndarray:
    """DML_RESAMPLE: half-pixel resampling of every dimension (FL 2_0).

    ``resample1`` with ``input_pixel_offsets = 0.5`` and ``output_pixel_offsets = -0.5``:
    ``u = ((float)o + 0.5) / s - 0.5`` in float32. Nearest: ``floor(u + 0.5)`` (round half up,
    inferred), clamped. Linear: two clamped taps per dimension.

    Parameters
    ----------
    x : numpy.ndarray
        Input; FLOAT32/FLOAT16, or also INT8/UINT8 from FL 6_2; 4-D below FL 5_1, 1 to 4-D from it.
    scales : sequence of float
        Output/input factor of every dimension (``len(scales) == x.ndim``); need not be out/in.
    interpolation_mode : {"nearest_neighbor", "linear"} or InterpolationMode or DML name
    output_shape : sequence of int, optional
        Default ``floor(n_in * scale)`` per dimension (in float64, with the value given).
    out : numpy.ndarray, optional
        Destination; its shape is the output shape.
    feature_level : optional
        ``"6_2"``, ``"6.2"``, ``0x6200``, ``"DML_FEATURE_LEVEL_6_2"`` or ``FeatureLevel.FL_6_2``;
        default 6_4. Enforces :data:`TENSOR_SUPPORT`.
    rounding : {"half_even", "half_away_from_zero", "toward_zero"}
        Integer outputs of LINEAR (undocumented by DirectML; ``"toward_zero"`` matches what
        ONNX Runtime's tests imply).
    threads : int, optional

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> x = np.arange(24, dtype=np.float32).reshape(4, 6)
    >>> dml.resample(x, [0.5, 0.5], interpolation_mode="nearest_neighbor")
    array([[ 7.,  9., 11.],
           [19., 21., 23.]], dtype=float32)
    >>> dml.resample(np.array([0, 1], np.float32), [2.0], interpolation_mode="linear")
    array([0.  , 0.25, 0.75, 1.  ], dtype=float32)
    """
    x = as_array(x, "x")
    return _resample("DML_RESAMPLE", x, scales, [0.5] * x.ndim, [-0.5] * x.ndim,
                     interpolation_mode=interpolation_mode, rounding_direction=_HalfUp.RULE, antialiased=False,
                     output_shape=output_shape, out=out, feature_level=feature_level,
                     rounding=rounding, threads=threads)


def resample1(x: Any, scales: Sequence[float], input_pixel_offsets: Sequence[float],
              output_pixel_offsets: Sequence[float], *, interpolation_mode: Any,
              output_shape: Sequence[int] | None = None, out: np.ndarray | None = None,
              feature_level: Any = DEFAULT_FEATURE_LEVEL, rounding: str = "half_even",
              threads: int | None = None) -> np.ndarray:
    """DML_RESAMPLE1: resampling with pixel offsets (FL 2_1).

    ``u = ((float)o - b) / s - a`` in float32 (``a = input_pixel_offsets[d]``,
    ``b = output_pixel_offsets[d]``). Nearest: ``floor(u + 0.5)``, clamped (inferred).
    ``(a, b) = (0.5, -0.5)`` is :func:`resample`; ``(0, 0)`` is asymmetric (``u = o / s``);
    ``(0, -0.5)`` is TF's half_pixel_for_nn. Other parameters as :func:`resample`.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> x = np.array([[1, 3], [4, 8]], np.float32)
    >>> dml.resample1(x, [1, 4], [0, 0], [0, 0], interpolation_mode="linear")[0]
    array([1. , 1.5, 2. , 2.5, 3. , 3. , 3. , 3. ], dtype=float32)
    """
    return _resample("DML_RESAMPLE1", x, scales, input_pixel_offsets, output_pixel_offsets,
                     interpolation_mode=interpolation_mode, rounding_direction=_HalfUp.RULE, antialiased=False,
                     output_shape=output_shape, out=out, feature_level=feature_level,
                     rounding=rounding, threads=threads)


def resample2(x: Any, scales: Sequence[float], input_pixel_offsets: Sequence[float],
              output_pixel_offsets: Sequence[float], *, interpolation_mode: Any,
              rounding_direction: Any, output_shape: Sequence[int] | None = None,
              out: np.ndarray | None = None, feature_level: Any = DEFAULT_FEATURE_LEVEL,
              rounding: str = "half_even", threads: int | None = None) -> np.ndarray:
    """DML_RESAMPLE2: RESAMPLE1 with a nearest-neighbour rounding direction (FL 5_1).

    Nearest: ``DECREASING`` = ``floor(u)``, ``INCREASING`` = ``ceil(u)``, clamped (documented);
    ``rounding_direction`` is ignored by LINEAR. RESAMPLE1's round-half-up is DECREASING with
    ``input_pixel_offsets - 0.5``; round-half-down is INCREASING with ``+ 0.5``.
    ``rounding_direction`` accepts ``"increasing"``, ``"decreasing"``,
    ``"DML_AXIS_DIRECTION_INCREASING"``... and :class:`AxisDirection`. Other parameters as
    :func:`resample1`.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> x = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.float32)
    >>> dml.resample2(x, [0.6, 0.6], [1.0, 1.0], [-0.5, -0.5],
    ...               interpolation_mode="nearest_neighbor", rounding_direction="increasing")
    array([[1., 3.]], dtype=float32)
    """
    return _resample("DML_RESAMPLE2", x, scales, input_pixel_offsets, output_pixel_offsets,
                     interpolation_mode=interpolation_mode,
                     rounding_direction=rounding_direction, antialiased=False,
                     output_shape=output_shape, out=out, feature_level=feature_level,
                     rounding=rounding, threads=threads)


def resample3(x: Any, scales: Sequence[float], input_pixel_offsets: Sequence[float],
              output_pixel_offsets: Sequence[float], *, interpolation_mode: Any,
              rounding_direction: Any, antialiased: bool = False,
              output_shape: Sequence[int] | None = None, out: np.ndarray | None = None,
              feature_level: Any = DEFAULT_FEATURE_LEVEL, rounding: str = "half_even",
              threads: int | None = None) -> np.ndarray:
    """DML_RESAMPLE3: RESAMPLE2 with optional antialiasing (FL 6_4).

    With ``antialiased=False``, or NEAREST_NEIGHBOR, or on a dimension whose ``1 / scale <= 2``,
    this is :func:`resample2` (DirectML: antialiasing applies only to LINEAR where
    ``1 / Scales > 2``; the flag is accepted and ignored otherwise).

    Antialiased dimensions use the triangle filter stretched by ``r = 1 / scale`` and
    normalised, centred on the same float32 coordinate ``u`` as plain linear (so the centre in
    pixel units is ``u + 0.5``, ``(o + 0.5) * r`` with the default offsets), with clamped
    edges: the ONNX Resize-18 ``antialias=1`` / Pillow filter
    (``resamplex._tables.antialias_linear_taps``), weights in float64.
    **This does not bit-match DirectML**, whose antialias kernel is unpublished: ONNX Runtime
    describes it as iterative (mip-map-like) downsampling that "usually isn't perfectly
    equivalent" to the convolution approach used here.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> x = np.arange(8, dtype=np.float32)
    >>> dml.resample3(x, [0.25], [0.5], [-0.5], interpolation_mode="linear",
    ...               rounding_direction="decreasing", antialiased=True)
    array([1.65625, 5.34375], dtype=float32)
    """
    if not isinstance(antialiased, (bool, np.bool_)):
        raise bad_value("antialiased", antialiased, "True or False")
    return _resample("DML_RESAMPLE3", x, scales, input_pixel_offsets, output_pixel_offsets,
                     interpolation_mode=interpolation_mode,
                     rounding_direction=rounding_direction, antialiased=bool(antialiased),
                     output_shape=output_shape, out=out, feature_level=feature_level,
                     rounding=rounding, threads=threads)


def upsample_2d(x: Any, scale_size: Sequence[int], *, interpolation_mode: Any,
                out: np.ndarray | None = None, feature_level: Any = DEFAULT_FEATURE_LEVEL,
                threads: int | None = None) -> np.ndarray:
    """DML_UPSAMPLE_2D: integer upsampling of the last two axes of NCHW / NCDHW (FL 1_0).

    ``scale_size = (height, width)``, integers with ``0 < k <= 0xFFFFFFFF // n_in``; the
    output is ``(..., H * height, W * width)``. Nearest is replication (input ``o // k``, what
    every pixel-centre rule gives for an integer factor). Linear is :func:`resample` with scales
    ``(1, ..., 1, height, width)`` (half-pixel; DirectML does not document UPSAMPLE_2D's
    convention, so this is inferred).

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> x = np.array([[[[0, 1]]]], np.float32)
    >>> dml.upsample_2d(x, (1, 2), interpolation_mode="nearest_neighbor")[0, 0]
    array([[0., 0., 1., 1.]], dtype=float32)
    >>> dml.upsample_2d(x, (1, 2), interpolation_mode="linear")[0, 0]
    array([[0.  , 0.25, 0.75, 1.  ]], dtype=float32)
    """
    operator = "DML_UPSAMPLE_2D"
    x = as_array(x, "x")
    level = _feature_level(feature_level)
    mode = _interpolation_mode(interpolation_mode)
    _check_support(operator, x.ndim, x.dtype, level)
    accepted = "(height, width): two integers with 0 < k <= 0xFFFFFFFF // (input length)"
    if scale_size is None or isinstance(scale_size, (str, bytes)) or _ndim(scale_size) != 1:
        raise bad_value("scale_size", scale_size, accepted)
    factors = tuple(v.item() if isinstance(v, (np.generic, np.ndarray)) else v
                    for v in scale_size)
    if len(factors) != 2 or not all(is_int(k) for k in factors):
        raise bad_value("scale_size", scale_size, accepted)
    for name, k, n_in in zip(("height", "width"), factors, x.shape[-2:]):
        limit = 0xFFFFFFFF // n_in if n_in else 0xFFFFFFFF
        if not 0 < k <= limit:
            raise ResamplexError(f"scale_size: the {name} factor must satisfy 0 < k <= "
                                 f"0xFFFFFFFF // {n_in} = {limit}; got {k}")
    out_shape = x.shape[:-2] + tuple(n * int(k) for n, k in zip(x.shape[-2:], factors))
    if out is not None:
        _check_out(out, x.ndim, x.dtype, out_shape)
    _check_sizes("scale_size", out_shape, x.dtype.itemsize, sum(out_shape[-2:]), out is None)
    def build() -> Plan:
        tables: list[AxisTable | None] = [None] * x.ndim
        for d, k in zip((x.ndim - 2, x.ndim - 1), factors):
            n_in = x.shape[d]
            if n_in == 0:
                continue
            if mode is InterpolationMode.NEAREST_NEIGHBOR:
                tables[d] = AxisTable.gather(n_in, np.arange(n_in * k, dtype=np.int64) // k)
            else:
                tables[d] = _axis_table(n_in, n_in * k, np.float32(k), np.float32(0.5),
                                        np.float32(-0.5), mode=mode, rule=_ROUND_HALF_UP)
        return Plan(x.shape, tables, weighted=mode is InterpolationMode.LINEAR, op=operator)

    plan = PLANS.get_or_build(("dml", operator, x.shape, factors, mode), build)
    return plan(x, out=out, threads=threads)


def _resample_grad(operator: str, forward: str, output_gradient: Any, input_shape: Any,
                   scales: Any, input_pixel_offsets: Any, output_pixel_offsets: Any, *,
                   interpolation_mode: Any, rounding_direction: Any, out: Any,
                   feature_level: Any, threads: Any) -> np.ndarray:
    g = as_array(output_gradient, "output_gradient")
    level = _feature_level(feature_level)
    mode = _interpolation_mode(interpolation_mode)
    nearest_rule = _nearest_rule(rounding_direction)
    _check_support(operator, g.ndim, g.dtype, level)
    what = "output_gradient"
    in_shape = _shape_param("input_shape", input_shape, g.ndim, what)
    s32, _ = _float32_params("scales", scales, g.ndim, positive=True, what=what)
    a32, _ = _float32_params("input_pixel_offsets", input_pixel_offsets, g.ndim,
                             positive=False, what=what)
    b32, _ = _float32_params("output_pixel_offsets", output_pixel_offsets, g.ndim,
                             positive=False, what=what)
    # The forward operator maps input_shape -> output_gradient.shape.
    _check_lengths("output_gradient", in_shape, g.shape)
    if out is not None:
        _check_out(out, g.ndim, g.dtype, in_shape)
    _check_sizes("input_shape", in_shape, g.dtype.itemsize, 2 * sum(g.shape) + sum(in_shape),
                 out is None)
    key = ("dml", forward, in_shape, g.shape, s32.tobytes(), a32.tobytes(), b32.tobytes(),
           mode, nearest_rule, False)
    plan = PLANS.get_or_build(key, lambda: _forward_plan(
        forward, in_shape, g.shape, s32, a32, b32, mode=mode, rule=nearest_rule))
    return plan.adjoint_plan()(g, out=out, threads=threads)


def resample_grad(output_gradient: Any, input_shape: Sequence[int], scales: Sequence[float],
                  input_pixel_offsets: Sequence[float], output_pixel_offsets: Sequence[float],
                  *, interpolation_mode: Any, out: np.ndarray | None = None,
                  feature_level: Any = DEFAULT_FEATURE_LEVEL,
                  threads: int | None = None) -> np.ndarray:
    """DML_RESAMPLE_GRAD: the gradient (adjoint) of :func:`resample1` (FL 3_0).

    ``output_gradient`` has the forward output's shape; the result has ``input_shape``. The
    parameters describe the forward operator. Each input element receives the sum of
    ``w(o, i) * output_gradient[o]`` over the forward taps that read it, including taps that
    clamping folded onto an edge. Computed as a gather over transposed tables: deterministic.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> g = np.array([[4, 5, 6]], np.float32)
    >>> dml.resample_grad(g, (2, 2), [0.5, 1.5], [0.5, 0.5], [0, 0],
    ...                   interpolation_mode="nearest_neighbor")
    array([[9., 6.],
           [0., 0.]], dtype=float32)
    """
    return _resample_grad("DML_RESAMPLE_GRAD", "DML_RESAMPLE1", output_gradient, input_shape,
                          scales, input_pixel_offsets, output_pixel_offsets,
                          interpolation_mode=interpolation_mode, rounding_direction=_HalfUp.RULE, out=out,
                          feature_level=feature_level, threads=threads)


def resample_grad1(output_gradient: Any, input_shape: Sequence[int], scales: Sequence[float],
                   input_pixel_offsets: Sequence[float], output_pixel_offsets: Sequence[float],
                   *, interpolation_mode: Any, rounding_direction: Any,
                   out: np.ndarray | None = None, feature_level: Any = DEFAULT_FEATURE_LEVEL,
                   threads: int | None = None) -> np.ndarray:
    """DML_RESAMPLE_GRAD1: the gradient (adjoint) of :func:`resample2` (FL 5_1).

    As :func:`resample_grad`, with the forward operator's ``rounding_direction``.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import dml
    >>> g = np.array([[4, 5, 6]], np.float32)
    >>> dml.resample_grad1(g, (2, 2), [0.5, 1.5], [0, 0], [0, 0],
    ...                    interpolation_mode="nearest_neighbor", rounding_direction="decreasing")
    array([[9., 6.],
           [0., 0.]], dtype=float32)
    """
    return _resample_grad("DML_RESAMPLE_GRAD1", "DML_RESAMPLE2", output_gradient, input_shape,
                          scales, input_pixel_offsets, output_pixel_offsets,
                          interpolation_mode=interpolation_mode,
                          rounding_direction=rounding_direction, out=out,
                          feature_level=feature_level, threads=threads)
