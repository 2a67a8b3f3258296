"""ONNX ``Resize`` (opset 19) on NumPy arrays: ``resize(X, roi, scales, sizes, **attributes)``.

Two flavours (``flavour=``):

- ``"onnxruntime"`` (default): what a served model computes. ONNX Runtime's CPU kernels bit
  for bit: their output lengths, float32 coordinates, per-layout kernels (product-weighted
  bilinear/trilinear, 10-bit NHWC 8-bit bilinear, bicubic, Pillow-style antialias with
  per-axis stores) and C++ casts. The rules are in :mod:`resamplex.compat._onnxruntime`.
- ``"reference"``: the ONNX reference implementation (``onnx/reference/ops/op_resize.py``),
  which the ONNX backend node tests are generated from, including its bugs
  (``docs/onnx.md``). Every rule below is a table builder; the arithmetic is float64 and
  follows the reference operation by operation, so that coordinates, neighbour choices and
  nearest-neighbour ties come out the same bit for bit:

- The scale factor of an axis is ``float64(float32(scales[i]))`` (``scales`` is a float tensor in
  ONNX), or ``sizes[i] / n_in`` in float64. With ``keep_aspect_ratio_policy`` other than
  ``"stretch"`` one scale (the min or max over ``axes`` of ``sizes[i] / n_in``) serves every axis
  in ``axes`` and the output length is ``int(scale * n_in + 0.5)``. From ``scales`` the output
  length is ``floor(n_in * scale)``.
- ``output_width = scale * n_in`` (float64, possibly fractional) enters ``align_corners``,
  ``tf_crop_and_resize``, ``half_pixel_symmetric`` and the length-1 test of
  ``pytorch_half_pixel``; ``half_pixel``/``pytorch_half_pixel``/``asymmetric`` divide by the
  scale: ``(y + 0.5) / scale - 0.5``, ``y / scale``.
- Neighbours: a kernel of ``n`` taps (2 for nearest and linear, 4 for cubic, ``2 - 2*start`` for
  the antialiased filters) reads the ``n`` input indices nearest to the coordinate ``x``, ties to
  the smaller index, so an integer ``x = k`` reads ``k - n/2 .. k + n/2 - 1`` with fraction
  ``ratio = 1`` (not 0), a non-integer one ``floor(x) - n/2 + 1 ..`` with ``ratio = x - floor(x)``.
  Indices outside ``[0, n_in)`` read the edge sample (the reference pads with ``"edge"``), or with
  ``exclude_outside`` get weight 0, the rest renormalised.
- ``tf_crop_and_resize``: an output whose coordinate on any resampled axis lies outside
  ``[0, n_in - 1]`` is ``extrapolation_value`` (cast to the output dtype as the reference does:
  rounded and saturated for integers, clipped to the finite range for floats). A missing
  ``roi`` is the whole input, in both flavours.

The reference flavour's engine then applies the tables in float32 (float64 for float64 data)
and rounds once to the output dtype (SPEC §3). ``docs/onnx.md`` lists every difference.

The operator is a sequence of small steps: :func:`_check_X`, :func:`_check_attributes`,
:func:`_check_dtype`, :func:`_check_inputs`, then :func:`_reference` (geometry, tables, fills)
or :func:`_onnxruntime_flavour`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .. import _dtypes
from .._checks import as_array, check_allocation, check_out_early
from .._checks import ndim as _ndim
from .._engine._exec import call_key
from .._engine.cache import PLANS, CallMemo
from .._engine.memory import new_array
from .._engine.plan import Plan
from .._errors import ResamplexError, UnsupportedError, bad_choice, bad_value
from .._tables import AxisTable
from . import _onnxruntime

__all__ = ["resize", "MODES", "COORDINATE_TRANSFORMATION_MODES", "NEAREST_MODES",
           "KEEP_ASPECT_RATIO_POLICIES", "FLAVOURS"]

MODES = ("nearest", "linear", "cubic")
COORDINATE_TRANSFORMATION_MODES = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
KEEP_ASPECT_RATIO_POLICIES = ("stretch", "not_larger", "not_smaller")
#: ``flavour=``: ONNX Runtime's CPU kernel (default) or the ONNX reference implementation.
FLAVOURS = ("onnxruntime", "reference")

_MAX_NDIM = 64


# ------------------------------------------------------------------------ table builders

def source_coordinates(transform: str, n_in: int, n_out: int, scale: float,
                       roi_start: Any = None, roi_end: Any = None) -> np.ndarray:
    """ONNX Resize-19 input coordinate ``x_ori(y)`` of every output index ``y`` (float64).

    ``scale`` is the axis scale factor (a Python float), ``w = scale * n_in`` the fractional
    output width:

    ====================  ===============================================================
    half_pixel            ``(y + 0.5) / scale - 0.5``
    half_pixel_symmetric  ``n_in/2 * (1 - n_out/w) + (y + 0.5) / scale - 0.5``
    pytorch_half_pixel    ``-0.5`` if ``w == 1`` else as half_pixel
    align_corners         ``0`` if ``w == 1`` else ``y * (n_in - 1) / (w - 1)``
    asymmetric            ``y / scale``
    tf_crop_and_resize    ``(e - s) * (n_in - 1) / 2`` if ``w == 1`` else
                          ``y * (e - s) * (n_in - 1) / (w - 1)``; plus ``s * (n_in - 1)``
    ====================  ===============================================================

    Evaluated in the reference's order of operations. ``roi_start``/``roi_end`` (``s``, ``e``)
    are NumPy scalars of the roi's dtype: with a float32 roi, ``e - s`` and ``s * (n_in - 1)``
    are float32 operations, as in the reference.
    """
    y = np.arange(n_out, dtype=np.float64)
    width = scale * n_in
    if transform == "align_corners":
        if width == 1:
            return np.zeros(n_out, dtype=np.float64)
        return y * (n_in - 1) / (width - 1)
    if transform == "asymmetric":
        return y / scale
    if transform == "tf_crop_and_resize":
        if width == 1:
            x = np.full(n_out, (roi_end - roi_start) * (n_in - 1) / 2, dtype=np.float64)
        else:
            x = y * (roi_end - roi_start) * (n_in - 1) / (width - 1)
        return x + roi_start * (n_in - 1)
    if transform == "pytorch_half_pixel":
        if width == 1:
            return np.full(n_out, -0.5, dtype=np.float64)
        return (y + 0.5) / scale - 0.5
    if transform == "half_pixel_symmetric":
        adjustment = n_out / width
        offset = (n_in / 2) * (1 - adjustment)
        return offset + (y + 0.5) / scale - 0.5
    return (y + 0.5) / scale - 0.5  # half_pixel


def neighbour_window(x: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Dense indices ``(len(x), n)`` (unclamped) and the fraction ``ratio`` of each coordinate.

    The reference takes the ``n`` indices nearest to ``x`` in an edge-padded copy of the axis,
    ties to the smaller index, and ``ratio = 1`` where ``x`` is an integer, else
    ``x - floor(x)``. Done here exactly as its vectorised form does (``x`` shifted by the pad
    width ``n/2`` in float64 before the floor), so even coordinates within an ulp of an integer
    choose the same window. ``n`` is even for every ONNX kernel.
    """
    pad = n // 2
    shifted = x + pad
    p = np.floor(shifted)
    start = p.astype(np.int64) + np.where(shifted == p, -pad, 1 - pad) - pad
    x_int = np.floor(x)
    ratio = np.where(x == x_int, 1.0, x - x_int)
    return start[:, None] + np.arange(n, dtype=np.int64), ratio


def nearest_choice(ratio: np.ndarray, nearest_mode: str) -> np.ndarray:
    """True where the nearest rule picks the right neighbour of the window ``(i, i + 1)``.

    ``ratio == 1`` (an integer coordinate) always picks the right one (the sample itself);
    otherwise ``round_prefer_floor``: ``ratio > 0.5``, ``round_prefer_ceil``: ``ratio >= 0.5``,
    ``floor``: never, ``ceil``: always.
    """
    if nearest_mode == "round_prefer_floor":
        right = ratio > 0.5
    elif nearest_mode == "round_prefer_ceil":
        right = ratio >= 0.5
    elif nearest_mode == "floor":
        right = np.zeros(ratio.shape, dtype=bool)
    else:
        right = np.ones(ratio.shape, dtype=bool)
    return right | (ratio == 1.0)


def _sequential_sum(w: np.ndarray) -> np.ndarray:
    """Row sums added left to right (the reference normalises with Python's ``sum``)."""
    return np.add.accumulate(w, axis=1)[:, -1:]


def cubic_weights(ratio: np.ndarray, a: float) -> np.ndarray:
    """Keys weights ``(len(ratio), 4)`` of the window ``i0 - 1 .. i0 + 2``.

    The reference's four expressions, operation for operation (``_cubic_coeffs``). Its ``A``
    is the attribute as a NumPy float32 scalar, so under NumPy's promotion rules every
    operation is a float32 one, on the float64 ``ratio``, ``ratio + 1``, ``1 - ratio`` and
    ``(1 - ratio) + 1`` rounded to float32; the weights are those float32 values.
    """
    A = np.float32(a)
    s = 1 - ratio
    r0, r1 = ratio.astype(np.float32), (ratio + 1).astype(np.float32)
    s0, s1 = s.astype(np.float32), (s + 1).astype(np.float32)
    w = np.stack([
        ((A * r1 - 5 * A) * r1 + 8 * A) * r1 - 4 * A,
        ((A + 2) * r0 - (A + 3)) * r0 * r0 + 1,
        ((A + 2) * s0 - (A + 3)) * s0 * s0 + 1,
        ((A * s1 - 5 * A) * s1 + 8 * A) * s1 - 4 * A,
    ], axis=1)
    return w.astype(np.float64)


def antialias_weights(ratio: np.ndarray, scale: float, mode: str, a: float) -> np.ndarray:
    """Antialiased filter weights ``(len(ratio), n)`` (ONNX Resize-18 ``antialias``).

    With ``s = min(scale, 1)`` and ``start = floor(-support / s) + 1`` (support 1 for linear,
    2 for cubic), ``n = 2 - 2 * start`` taps at distances ``d_j = s * (start + j - ratio)``
    (float64); weight ``max(0, 1 - |d|)`` (linear) or the Keys kernel in power form (cubic),
    divided by their sum added left to right (``_linear_coeffs_antialias``,
    ``_cubic_coeffs_antialias``).

    Cubic follows the reference's types exactly: the kernel is evaluated in float32 (its ``A``
    is a float32 scalar; ``|d|``, ``|d|^2``, ``|d|^3`` are float64 rounded to float32), taps
    with ``|d| >= 2`` are a float64 ``0.0``, the sum is a float32 one, and the division is in
    float32 when no tap is such a zero (a float32 array) and in float64 otherwise.
    """
    s = min(scale, 1.0)
    support = 1 if mode == "linear" else 2
    start = int(np.floor(-support / s) + 1)
    offsets = np.arange(start, 2 - start, dtype=np.int64)
    d = s * (offsets[None, :] - ratio[:, None])
    if mode == "linear":
        w = np.clip(1 - np.abs(d), 0, 1)
        return w / _sequential_sum(w)
    A = np.float32(a)
    x = np.abs(d)
    x2 = x * x
    x3 = x * x2
    x_f, x2_f, x3_f = x.astype(np.float32), x2.astype(np.float32), x3.astype(np.float32)
    near = (A + 2) * x3_f - (A + 3) * x2_f + 1
    far = A * x3_f - 5 * A * x2_f + 8 * A * x_f - 4 * A
    w = np.where(x <= 1, near, np.where(x < 2, far, np.float32(0)))
    total = np.add.accumulate(w, axis=1, dtype=np.float32)[:, -1:]
    has_zero = (x >= 2).any(axis=1, keepdims=True)
    return np.where(has_zero, w.astype(np.float64) / total.astype(np.float64),
                    (w / total).astype(np.float64))


def axis_table(n_in: int, n_out: int, scale: float, x: np.ndarray, *, mode: str,
               nearest_mode: str, cubic_coeff_a: float, exclude_outside: bool,
               antialias: bool) -> tuple[AxisTable, np.ndarray | None]:
    """The table of one axis from its coordinates ``x``, and the outputs forced to 0.

    Weighted modes return ``(table, None)``; a row whose weights are all excluded has no taps
    (the engine writes 0, as the reference's all-zero coefficients give). Nearest returns a
    gather table and, with ``exclude_outside``, the boolean vector of outputs whose chosen index
    lies outside the input: the reference zeroes that single weight, so those outputs are 0
    (ONNX Runtime ignores ``exclude_outside`` for nearest).
    """
    if mode == "nearest":
        idx, ratio = neighbour_window(x, 2)
        chosen = np.where(nearest_choice(ratio, nearest_mode), idx[:, 1], idx[:, 0])
        zeroed = None
        if exclude_outside:
            zeroed = (chosen < 0) | (chosen >= n_in)
        return AxisTable.gather(n_in, np.clip(chosen, 0, n_in - 1)), zeroed
    if antialias:
        idx, ratio = neighbour_window(x, kernel_width(mode, scale, True))
        w = antialias_weights(ratio, scale, mode, cubic_coeff_a)
    elif mode == "cubic":
        idx, ratio = neighbour_window(x, 4)
        w = cubic_weights(ratio, cubic_coeff_a)
    else:
        idx, ratio = neighbour_window(x, 2)
        w = np.stack([1 - ratio, ratio], axis=1)
    if exclude_outside:
        w = np.where((idx < 0) | (idx >= n_in), 0.0, w)
        total = w.sum(axis=-1, keepdims=True)
        w = w / np.where(total == 0, 1.0, total)
    return AxisTable.from_taps(n_in, np.clip(idx, 0, n_in - 1), w), None


def kernel_width(mode: str, scale: float, antialias: bool) -> int:
    """Taps per output of one axis: 1 (nearest), 2 (linear), 4 (cubic), ``2 - 2 * start``
    (antialiased, see :func:`antialias_weights`)."""
    if mode == "nearest":
        return 1
    if not antialias:
        return 2 if mode == "linear" else 4
    s = min(scale, 1.0)
    return 2 - 2 * int(np.floor(-(1 if mode == "linear" else 2) / s) + 1)


# ------------------------------------------------------------------------ validation

def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _optional_vector(name: str, value: Any) -> np.ndarray | None:
    """``None`` or an empty tensor mean "not given" (ONNX's empty input)."""
    if value is None:
        return None
    if _ndim(value) < 0:
        raise bad_value(name, value, "a 1-d sequence of numbers")
    arr = np.asarray(value)
    if arr.ndim > 1 or arr.dtype.hasobject:
        raise bad_value(name, value, "a 1-d sequence of numbers")
    arr = arr.reshape(-1)
    return None if arr.size == 0 else arr


def _attribute_float(name: str, value: Any) -> float:
    """A float attribute as an ONNX model stores it: rounded to float32."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise bad_value(name, value, "a number")
    with np.errstate(over="ignore"):
        return float(np.float32(value))


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, (bool, np.bool_)) or (_is_int(value) and value in (0, 1)):
        return bool(value)
    raise bad_value(name, value, "0 or 1")


def _normalize_axes(axes: Any, ndim: int) -> list[int]:
    if axes is None:
        return list(range(ndim))
    if _ndim(axes) < 0:
        raise bad_value("axes", axes, "a non-empty 1-d sequence of integers")
    arr = np.asarray(axes)
    if arr.ndim > 1 or arr.size == 0 or arr.dtype.kind not in "iu":
        raise bad_value("axes", axes, "a non-empty 1-d sequence of integers")
    norm = []
    for a in arr.reshape(-1).tolist():
        if not -ndim <= a < ndim:
            raise bad_value("axes", axes, f"axes in [-{ndim}, {ndim - 1}] for a {ndim}-d X")
        norm.append(a % ndim)
    if len(set(norm)) != len(norm):
        raise bad_value("axes", axes, "no repeated axis")
    return norm


def _output_geometry(shape: tuple[int, ...], axes: list[int], scales: Any, sizes: Any,
                     policy: str) -> tuple[list[float], list[int]]:
    """Per axis of ``axes``: (scale factor as a Python float, output length)."""
    k = len(axes)
    given = scales if scales is not None else sizes
    what = "scales" if scales is not None else "sizes"
    if given.shape[0] != k:
        raise ResamplexError(f"{what}: expected {k} entries (one per axis of X, or of axes); "
                             f"got {given.shape[0]}: {given.tolist()!r}")
    if scales is not None:
        if scales.dtype.kind not in "fiu":
            raise bad_value("scales", scales.tolist(), "positive finite numbers")
        with np.errstate(over="ignore"):  # an overflow to inf is refused just below
            s32 = scales.astype(np.float32)  # a float tensor in ONNX
        if not np.all(np.isfinite(s32)) or not np.all(s32 > 0):
            raise bad_value("scales", scales.tolist(), "positive finite float32 numbers")
        factors = [float(v) for v in s32]
        lengths = []
        for a, f in zip(axes, factors):
            prod = f * shape[a]
            if prod >= 2.0**62:
                raise ResamplexError(f"scales: axis {a} of length {shape[a]} times {f!r} gives "
                                     "an output length that overflows")
            lengths.append(math.floor(prod))
        return factors, lengths
    if sizes.dtype.kind not in "iu":
        raise bad_value("sizes", sizes.tolist(), "integers (an int64 tensor)")
    if np.any(sizes < 0):
        raise bad_value("sizes", sizes.tolist(), "integers >= 1")
    lengths = [int(v) for v in sizes]
    for a, n in zip(axes, lengths):
        if shape[a] == 0 and n != 0:
            raise ResamplexError(f"sizes: axis {a} of X has length 0 (nothing to sample from) "
                                 f"and can only keep length 0; got {n}")
    factors = [n / shape[a] if shape[a] else 1.0 for a, n in zip(axes, lengths)]
    if policy != "stretch":
        live = [f for a, f in zip(axes, factors) if shape[a]]
        if live:
            common = min(live) if policy == "not_larger" else max(live)
            factors = [common] * k
            lengths = [int(common * shape[a] + 0.5) for a in axes]
    return factors, lengths


def _fill_value(value: float, dtype: np.dtype, rounding: str, name: str) -> np.ndarray:
    """``value`` stored in ``dtype`` as the reference's ``saturate_cast`` does (integers
    rounded by ``rounding``, then clipped; floats clipped to the finite range)."""
    if np.issubdtype(dtype, np.integer):
        if not math.isfinite(value):
            raise bad_value(name, value, f"a finite number for {dtype} data")
        v = {"half_even": np.rint, "toward_zero": np.trunc,
             "half_away_from_zero": lambda t: np.sign(t) * np.floor(np.abs(t) + 0.5)}[rounding](  # type: ignore[operator]
                 np.float64(value))
        info: Any = np.iinfo(dtype)
        return np.asarray(min(max(int(v), info.min), info.max), dtype=dtype)
    if dtype.kind == "f" or _dtypes.dtype_name(dtype) == "bfloat16":
        if math.isfinite(value):
            try:
                import ml_dtypes
                info = ml_dtypes.finfo(dtype)  # type: ignore[no-untyped-call, unused-ignore]
            except (ImportError, ValueError, TypeError):
                info = np.finfo(dtype)  # type: ignore[no-untyped-call, unused-ignore]
            value = min(max(value, float(info.min)), float(info.max))
        with np.errstate(over="ignore"):
            return np.asarray(value).astype(dtype)
    try:
        return np.asarray(value).astype(dtype)
    except (TypeError, ValueError):
        raise UnsupportedError(f"{name}: cannot be stored in dtype {dtype}; "
                               f"got {value!r}") from None


# ------------------------------------------------------------------------ the operator

@dataclass(frozen=True)
class _Call:
    """The validated attributes of one call."""

    mode: str
    transform: str
    nearest_mode: str
    cubic_a: float
    extrapolation_value: float
    exclude_outside: bool
    antialias: bool
    policy: str
    flavour: str
    rounding: str


def _check_X(X: Any) -> np.ndarray:
    X = as_array(X, "X")
    if X.ndim == 0:
        raise ResamplexError("X: 0-d arrays have no axis to resample; got shape ()")
    if X.ndim > _MAX_NDIM:
        raise bad_value("X", X.shape, f"at most {_MAX_NDIM} dimensions")
    return X


def _check_attributes(mode: Any, transform: Any, nearest_mode: Any, cubic_coeff_a: Any,
                      exclude_outside: Any, extrapolation_value: Any, antialias: Any,
                      policy: Any, flavour: Any, rounding: Any, threads: Any) -> _Call:
    if flavour not in FLAVOURS:
        raise bad_choice("flavour", flavour, FLAVOURS)
    if mode not in MODES:
        raise bad_choice("mode", mode, MODES)
    if transform not in COORDINATE_TRANSFORMATION_MODES:
        hint = (" ('tf_half_pixel_for_nn' was removed in Resize-13; resamplex.resize offers it)"
                if transform == "tf_half_pixel_for_nn" else "")
        raise ResamplexError(bad_choice("coordinate_transformation_mode", transform,
                                        COORDINATE_TRANSFORMATION_MODES).args[0] + hint)
    if nearest_mode not in NEAREST_MODES:
        raise bad_choice("nearest_mode", nearest_mode, NEAREST_MODES)
    if policy not in KEEP_ASPECT_RATIO_POLICIES:
        raise bad_choice("keep_aspect_ratio_policy", policy, KEEP_ASPECT_RATIO_POLICIES)
    a = _attribute_float("cubic_coeff_a", cubic_coeff_a)
    if not math.isfinite(a):
        raise bad_value("cubic_coeff_a", cubic_coeff_a, "a finite float32 number")
    ev = _attribute_float("extrapolation_value", extrapolation_value)
    exclude = _flag("exclude_outside", exclude_outside)
    aa = _flag("antialias", antialias)
    if aa and mode == "nearest":
        raise ResamplexError("antialias: applies to modes 'linear' and 'cubic'; "
                             "got mode='nearest'")
    if flavour == "onnxruntime":
        if rounding is not None:
            raise ResamplexError(
                f"rounding: flavour='onnxruntime' rounds as ONNX Runtime's kernels do "
                f"(see resamplex.compat.onnx); rounding= applies to flavour='reference'; "
                f"got {rounding!r}")
        if exclude and mode != "cubic" and not (aa and mode == "linear"):
            raise ResamplexError(
                "exclude_outside: ONNX Runtime takes it with mode 'cubic', or 'linear' with "
                f"antialias; got mode={mode!r}, antialias={int(aa)}")
        rounding = "toward_zero"
    else:
        rounding = "half_even" if rounding is None else rounding
        _dtypes.rounding_code(rounding)
    if threads is not None and (not _is_int(threads) or threads < 1):
        raise bad_value("threads", threads, "None or an integer >= 1")
    return _Call(mode, transform, nearest_mode, a, ev, exclude, aa, policy, flavour, rounding)


def _check_dtype(X: np.ndarray, call: _Call) -> None:
    if call.flavour == "onnxruntime":
        name = X.dtype.newbyteorder("=").name if X.dtype.kind in "iuf" else str(X.dtype)
        if name not in _onnxruntime.DTYPES:
            raise UnsupportedError(
                f"X: ONNX Runtime's CPU Resize has no kernel for {X.dtype} (it takes "
                f"{', '.join(_onnxruntime.DTYPES)}); flavour='reference' computes it")
        return
    if call.mode == "nearest":
        _dtypes.check_nearest_dtype(X.dtype)
    else:
        _dtypes.weighted_info(X.dtype, call.mode)


def _check_inputs(roi: Any, scales: Any, sizes: Any, k: int,
                  ) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """``(roi, scales, sizes)`` as vectors (``None`` where not given); ``k`` axes."""
    scales_v = _optional_vector("scales", scales)
    sizes_v = _optional_vector("sizes", sizes)
    if (scales_v is None) == (sizes_v is None):
        raise ResamplexError("scales, sizes: give exactly one of them (ONNX Resize); got "
                             + ("both" if scales_v is not None else "neither"))
    roi_v = _optional_vector("roi", roi)
    if roi_v is not None:
        if roi_v.dtype.kind not in "fiu":
            raise bad_value("roi", roi, "a sequence of numbers")
        if roi_v.dtype.kind != "f" or not isinstance(roi, np.ndarray):
            with np.errstate(over="ignore"):  # an overflow to inf is refused below
                roi_v = roi_v.astype(np.float32)  # ONNX's usual roi type
        if roi_v.shape[0] != 2 * k:
            raise ResamplexError(f"roi: expected {2 * k} entries (starts then ends of "
                                 f"{k} axes); got {roi_v.shape[0]}")
        if not np.all(np.isfinite(roi_v)):
            raise bad_value("roi", roi_v.tolist(), "finite numbers")
    return roi_v, scales_v, sizes_v


def _identity_roi(k: int) -> np.ndarray:
    """A missing ``roi`` with ``tf_crop_and_resize``: the whole input (what ONNX Runtime and
    ``onnx.reference`` read it as)."""
    return np.concatenate([np.zeros(k, np.float32), np.ones(k, np.float32)])


def _check_lengths(shape: tuple[int, ...], axes: list[int], lengths: list[int],
                   what: str) -> None:
    for a_, n_out in zip(axes, lengths):
        if shape[a_] > 0 and n_out < 1:
            raise ResamplexError(f"{what}: every output length must be >= 1; axis {a_} of "
                                 f"length {shape[a_]} gets {n_out}")


def _reference_plan(X: np.ndarray, call: _Call, axes: list[int], roi_v: np.ndarray | None,
                    factors: list[float], lengths: list[int],
                    ) -> Plan:
    """Tables in the reference's axis order (that of ``axes``); ``plan.extra``: the outputs
    it sets afterwards, ``(axis, outputs, "zero" | "extrapolate")``."""
    shape = X.shape
    tables: list[AxisTable | None] = [None] * X.ndim
    fills: list[tuple[int, np.ndarray, str]] = []
    k = len(axes)
    for i, (ax, scale, n_out) in enumerate(zip(axes, factors, lengths)):
        n_in = shape[ax]
        if n_in == 0:
            continue
        start = end = None
        if roi_v is not None:
            start, end = roi_v[i], roi_v[k + i]
        # The reference leaves an axis alone when it keeps its length at scale ~1 (and roi
        # spans it); elsewhere the coordinate map may differ from the identity.
        if (math.isclose(scale, 1.0) and n_out == n_in
                and (roi_v is None or (math.isclose(float(start), 0.0)  # type: ignore[arg-type]
                                       and math.isclose(float(end), 1.0)))):  # type: ignore[arg-type]
            continue
        x = source_coordinates(call.transform, n_in, n_out, scale, start, end)
        outside = None
        if call.transform == "tf_crop_and_resize":
            outside = (x < 0) | (x > n_in - 1)
            x = np.where(outside, 0.0, x)  # overwritten later; keeps indices small
        table, zeroed = axis_table(n_in, n_out, scale, x, mode=call.mode,
                                   nearest_mode=call.nearest_mode, cubic_coeff_a=call.cubic_a,
                                   exclude_outside=call.exclude_outside,
                                   antialias=call.antialias)
        tables[ax] = table
        # Within one axis the reference zeroes first and extrapolates last.
        if zeroed is not None and zeroed.any():
            fills.append((ax, np.flatnonzero(zeroed), "zero"))
        if outside is not None and outside.any():
            fills.append((ax, np.flatnonzero(outside), "extrapolate"))
    plan = Plan(shape, tables, weighted=call.mode != "nearest", op=call.mode)
    plan.extra = fills
    return plan


def _reference(X: np.ndarray, call: _Call, axes: list[int], roi_v: np.ndarray | None,
               scales_v: np.ndarray | None, sizes_v: np.ndarray | None,
               out: np.ndarray | None, threads: int | None, raw: Any = None) -> np.ndarray:
    """``onnx.reference``'s numerics (see the module docstring)."""
    shape = X.shape
    factors, lengths = _output_geometry(shape, axes, scales_v, sizes_v, call.policy)
    _check_lengths(shape, axes, lengths, "scales" if scales_v is not None else "sizes")
    out_shape = list(shape)
    for a_, n_out in zip(axes, lengths):
        out_shape[a_] = n_out
    check_allocation(math.prod(out_shape) * X.dtype.itemsize, "output")
    check_allocation(sum(n_out * kernel_width(call.mode, f, call.antialias) + shape[a_]
                         for a_, f, n_out in zip(axes, factors, lengths)) * 48, "tables")
    key = ("onnx", X.shape, tuple(axes), tuple(factors), tuple(lengths),
           None if roi_v is None else (roi_v.dtype.str, roi_v.tobytes()), call.transform,
           call.mode, call.nearest_mode, call.cubic_a, call.exclude_outside, call.antialias)
    plan = PLANS.get_or_build(key, lambda: _reference_plan(X, call, axes, roi_v, factors,
                                                           lengths))
    fills = plan.extra
    # The fill values are checked before the plan runs: a refused call leaves `out` alone.
    values = {}
    for _, _, kind in fills:
        if kind not in values:
            values[kind] = (np.zeros((), dtype=X.dtype) if kind == "zero"
                            else _fill_value(call.extrapolation_value, X.dtype, call.rounding,
                                             "extrapolation_value"))
    _CALLS.remember(raw, key, ("reference", values, call.rounding))
    return _reference_finish(plan(X, out=out, threads=threads, rounding=call.rounding), fills,
                             values)


def _reference_finish(result: np.ndarray, fills: list[tuple[int, np.ndarray, str]],
                      values: dict[str, np.ndarray]) -> np.ndarray:
    """The outputs the reference sets after interpolating: later axes overwrite earlier ones."""
    if fills and result.size:
        for ax, where, kind in fills:
            result[(slice(None),) * ax + (where,)] = values[kind]
    return result


def _onnxruntime_flavour(X: np.ndarray, call: _Call, axes: list[int],
                         roi_v: np.ndarray | None, scales_v: np.ndarray | None,
                         sizes_v: np.ndarray | None, out: np.ndarray | None,
                         threads: int | None, raw: Any = None) -> np.ndarray:
    """ONNX Runtime's CPU kernel (``_onnxruntime``): its output lengths, float32 coordinates,
    kernels and casts."""
    shape = X.shape
    k = len(axes)
    if scales_v is not None:
        if scales_v.dtype.kind not in "fiu":
            raise bad_value("scales", scales_v.tolist(), "positive finite numbers")
        with np.errstate(over="ignore"):
            s32 = scales_v.astype(np.float32)
        if not np.all(np.isfinite(s32)) or not np.all(s32 > 0):
            raise bad_value("scales", scales_v.tolist(), "positive finite float32 numbers")
        if s32.shape[0] != k:
            raise ResamplexError(f"scales: expected {k} entries (one per axis of X, or of "
                                 f"axes); got {s32.shape[0]}: {scales_v.tolist()!r}")
        if any(float(v) * n >= 2.0**62 for v, n in zip(s32, (shape[a] for a in axes))):
            raise ResamplexError("scales: an output length overflows")
    else:
        assert sizes_v is not None
        if sizes_v.shape[0] != k:
            raise ResamplexError(f"sizes: expected {k} entries (one per axis of X, or of "
                                 f"axes); got {sizes_v.shape[0]}: {sizes_v.tolist()!r}")
        if sizes_v.dtype.kind not in "iu":
            raise bad_value("sizes", sizes_v.tolist(), "integers (an int64 tensor)")
        if np.any(sizes_v < 0):
            raise bad_value("sizes", sizes_v.tolist(), "integers >= 0")
        for a_, n in zip(axes, sizes_v.tolist()):
            if shape[a_] == 0 and n != 0:
                raise ResamplexError(f"sizes: axis {a_} of X has length 0 (nothing to sample "
                                     f"from) and can only keep length 0; got {n}")
    scale, lengths = _onnxruntime.output_geometry(shape, axes, scales_v, sizes_v, call.policy)
    check_allocation(math.prod(lengths) * X.dtype.itemsize, "output")
    check_allocation(sum(n * 16 + shape[a] for a, n in enumerate(lengths)) * 48, "tables")
    if out is not None:
        check_out_early(out, lengths, X.dtype)
    _onnxruntime.validate(X.ndim, scale, call.mode, call.antialias)
    if tuple(lengths) == shape or math.prod(lengths) == 0:
        result = new_array(lengths, X.dtype) if out is None else out
        if math.prod(lengths):
            np.copyto(result, X)  # no length changes: ONNX Runtime copies the input
        return result
    if roi_v is None:
        roi_v = _identity_roi(k)
    roi = [(0.0, 1.0)] * X.ndim
    for i, a_ in enumerate(axes):
        roi[a_] = (float(roi_v[i]), float(roi_v[k + i]))
    key = ("onnxruntime", shape, X.dtype, tuple(scale), tuple(lengths), tuple(roi), call.mode,
           call.transform, call.nearest_mode, call.cubic_a, call.exclude_outside,
           call.extrapolation_value, call.antialias)
    plan = PLANS.get(key)
    if plan is None:
        built = _onnxruntime.build(shape, X.dtype, scale, lengths, roi, mode=call.mode,
                                   transform=call.transform, nearest_mode=call.nearest_mode,
                                   cubic_a=call.cubic_a, exclude_outside=call.exclude_outside,
                                   extrapolation_value=call.extrapolation_value,
                                   antialias=call.antialias)
        if built.plan is None:
            return _ort_run(built, X, lengths, out, threads)
        built.plan.extra = built
        PLANS.put(key, built.plan)
        plan = built.plan
    _CALLS.remember(raw, key, ("onnxruntime", lengths, None))
    return _ort_run(plan.extra, X, lengths, out, threads)


def _ort_run(built: Any, X: np.ndarray, lengths: Sequence[int], out: np.ndarray | None,
             threads: int | None) -> np.ndarray:
    """Run an ``_onnxruntime.OrtPlan`` and set the outputs it extrapolates."""
    # NHWC antialias fills address the C-ordered buffer: compute into one if needed.
    direct = built.fill_view is None or (out is not None and out.flags.c_contiguous)
    target_out = out if direct else new_array(lengths, X.dtype)
    if built.plan is None:
        result = new_array(lengths, X.dtype) if target_out is None else target_out
        np.copyto(result, X)
    else:
        result = built.plan(X, out=target_out, threads=threads)
    if built.fills:
        target = result if built.fill_view is None else result.reshape(built.fill_view)
        for ax, where in built.fills:
            target[(slice(None),) * ax + (where,)] = built.value
    if not direct and out is not None:
        np.copyto(out, result)
        return out
    return result


def resize(X: Any, roi: Any = None, scales: Any = None, sizes: Any = None, *,
           mode: str = "nearest", coordinate_transformation_mode: str = "half_pixel",
           nearest_mode: str = "round_prefer_floor", cubic_coeff_a: float = -0.75,
           exclude_outside: int = 0, extrapolation_value: float = 0.0, antialias: int = 0,
           axes: Any = None, keep_aspect_ratio_policy: str = "stretch",
           flavour: str = "onnxruntime", out: np.ndarray | None = None,
           threads: int | None = None, rounding: str | None = None) -> np.ndarray:
    """ONNX ``Resize`` (opset 19), as ONNX Runtime computes it (default) or as ``onnx.reference``.

    Inputs and attributes are those of the operator; give ``scales`` or ``sizes``, not both
    (an empty array counts as not given, as an empty ONNX input does).

    Parameters
    ----------
    X : numpy.ndarray
        Input of any rank >= 1. ``flavour="onnxruntime"``: float32, float16, int32, int8,
        uint8 (ONNX Runtime's CPU kernels; ``linear`` and ``cubic`` only in the layouts it
        takes, see ``docs/onnx.md``). ``flavour="reference"``: ``nearest`` copies any
        fixed-size dtype; ``linear`` and ``cubic`` take float64, float32, float16, bfloat16,
        int8, uint8, int16, uint16.
    roi : sequence of float, optional
        ``[start_1, ..., start_k, end_1, ..., end_k]`` for the ``k`` axes (all of ``X``'s, or
        ``axes``), normalised coordinates; used only by ``tf_crop_and_resize`` (missing: the
        whole input). Kept in its dtype if it is a float array (as the reference computes with
        it), else float32 (the usual ONNX roi type; ONNX Runtime always reads float32).
    scales : sequence of float, optional
        Output/input factor per axis, rounded to float32 (an ONNX float tensor). Output length:
        ``floor(n_in * scale)`` in float64 (reference; it must be >= 1) or
        ``int64(float(scale) * float(n_in))`` (ONNX Runtime; 0 gives an empty output).
    sizes : sequence of int, optional
        Output length per axis, interpreted by ``keep_aspect_ratio_policy``.
    mode : {"nearest", "linear", "cubic"}
    coordinate_transformation_mode : {"half_pixel", "half_pixel_symmetric",
        "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"}
    nearest_mode : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}
    cubic_coeff_a : float
        Keys coefficient (stored as float32, like the attribute).
    exclude_outside : {0, 1}
        Weights of taps outside the input are set to 0 and the rest renormalised.
    extrapolation_value : float
        Value of ``tf_crop_and_resize`` outputs whose coordinate is outside the input.
    antialias : {0, 1}
        ``linear``/``cubic`` only: stretch the filter by ``1/scale`` where the axis shrinks.
    axes : sequence of int, optional
        The axes ``roi``, ``scales``, ``sizes`` refer to (negative allowed); others are copied.
    keep_aspect_ratio_policy : {"stretch", "not_larger", "not_smaller"}
        How ``sizes`` is read (ignored with ``scales``).
    flavour : {"onnxruntime", "reference"}
        Whose numerics: ONNX Runtime's CPU kernels, bit for bit (default: what a served model
        computes), or the ONNX reference implementation's, value for value, bugs included
        (``docs/onnx.md`` lists them).
    out : numpy.ndarray, optional
        Destination of the output shape and dtype, any strides, not overlapping ``X``.
    threads : int, optional
        Thread count (default ``resamplex.get_num_threads()``).
    rounding : {"half_even", "half_away_from_zero", "toward_zero"}, optional
        ``flavour="reference"`` only: integer outputs of ``linear``/``cubic`` (default
        ``"half_even"``, the reference's ``np.round``), then saturated. The onnxruntime
        flavour rounds as ONNX Runtime does.

    Returns
    -------
    numpy.ndarray
        Same dtype as ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import onnx as ronnx
    >>> X = np.array([[[[1, 2], [3, 4]]]], dtype=np.float32)
    >>> ronnx.resize(X, scales=[1, 1, 2, 2], mode="linear")[0, 0]
    array([[1.  , 1.25, 1.75, 2.  ],
           [1.5 , 1.75, 2.25, 2.5 ],
           [2.5 , 2.75, 3.25, 3.5 ],
           [3.  , 3.25, 3.75, 4.  ]], dtype=float32)
    >>> ronnx.resize(X, sizes=[3], axes=[-1])[0, 0]
    array([[1., 1., 2.],
           [3., 3., 4.]], dtype=float32)
    >>> x = np.arange(13, dtype=np.float32).reshape(1, 13)
    >>> float(ronnx.resize(x, sizes=[15], axes=[1], mode="cubic")[0, 7])       # ONNX Runtime
    6.0
    >>> float(ronnx.resize(x, sizes=[15], axes=[1], mode="cubic", flavour="reference")[0, 7])
    5.0
    """
    raw = None
    if type(X) is np.ndarray and out is None:
        # Arguments seen before: their plan in one lookup (validated again by the plan).
        raw = call_key(X.shape, X.dtype, roi, scales, sizes, mode, coordinate_transformation_mode,
                       nearest_mode, cubic_coeff_a, exclude_outside, extrapolation_value,
                       antialias, axes, keep_aspect_ratio_policy, flavour, rounding)
        found = _CALLS.lookup(raw)
        if found is not None:
            plan, (flavour_, data, extra) = found
            if flavour_ == "reference":
                return _reference_finish(plan(X, threads=threads, rounding=extra), plan.extra,
                                         data)
            return _ort_run(plan.extra, X, data, None, threads)
    X = _check_X(X)
    call = _check_attributes(mode, coordinate_transformation_mode, nearest_mode, cubic_coeff_a,
                             exclude_outside, extrapolation_value, antialias,
                             keep_aspect_ratio_policy, flavour, rounding, threads)
    _check_dtype(X, call)
    axes_n = _normalize_axes(axes, X.ndim)
    roi_v, scales_v, sizes_v = _check_inputs(roi, scales, sizes, len(axes_n))
    if call.transform == "tf_crop_and_resize" and roi_v is None:
        roi_v = _identity_roi(len(axes_n))
    if call.flavour == "reference":
        return _reference(X, call, axes_n, roi_v, scales_v, sizes_v, out, threads, raw)
    return _onnxruntime_flavour(X, call, axes_n, roi_v, scales_v, sizes_v, out, threads, raw)


_CALLS = CallMemo()  # raw arguments seen before -> (plan key, (flavour, data, extra))
