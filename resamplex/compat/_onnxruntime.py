"""ONNX Runtime's CPU ``Resize`` kernel (onnxruntime 1.32, ``core/providers/cpu/tensor/
upsample*.{h,cc}``, ``upsamplebase.h``, ``upsample_aa.h``) as axis tables and pass specs.

Used by :func:`resamplex.compat.onnx.resize` with ``flavour="onnxruntime"``; every rule here was
checked against the installed onnxruntime (``tests/test_compat_onnx.py``). Arithmetic is
float32 throughout, as the kernel's:

- **Geometry**: ``scales`` give ``int64(float(scale) * float(n_in))``; ``sizes`` give the scale
  ``float(n_out) / float(n_in)``, and with ``keep_aspect_ratio_policy`` one scale (the min/max)
  and ``round(scale * n_in)`` (half away from zero). Every coordinate map receives the integer
  output length (not ``scale * n_in`` as the reference does), so ``align_corners`` and
  ``tf_crop_and_resize`` differ from the reference when a scale is given.
- **Coordinates** (:func:`original_coordinates`): float32 formulas of ``upsamplebase.h``; an axis
  whose scale is exactly 1 is not transformed at all (identity, even with a ``roi``); if every
  output length equals the input's the input is copied. A missing ``roi`` is ``[0.., 1..]``.
- **nearest**: the nearest rule on the float32 coordinate, clamped; any rank.
- **linear**: the corners weighed by products of per-axis weights ``(dx * dy) * dz`` and summed
  (a product pass) over 2 axes (2-D, or 4-D NCHW ``[1, 1, s, s]`` / NHWC ``[1, s, s, 1]``) or 3
  (3-D, 5-D ``[1, 1, s, s, s]``); weights ``|x - x1|``-style with ``0.5/0.5`` where both taps
  coincide; 8-bit NHWC uses 10-bit integer weights and divides by 2^20 toward zero.
- **cubic**: 2-D / 4-D NCHW, float32: a width pass with weights ``c / sum`` then a height pass
  ``(h * c) / sum`` (``sum`` is 1 unless ``exclude_outside``), both summed from 0.
- **antialias** (and NHWC cubic): Pillow-style filters in float32, a pass per axis (width,
  height, then depth) each storing the data type: 8-bit in Q22 (``round(w * 2^22)``,
  ``(2^21 + sum) >> 22``, clipped to 0..255 even for int8, whose bytes then wrap), int32 summed
  in float and rounded half away from zero, floats summed in float.
- **stores**: float results go to integers by truncation toward zero (a C++ cast); float16 by
  round-to-nearest-even. ``extrapolation_value`` is cast the same way, through int32 (values
  outside int32 become INT_MIN, then keep their low bits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._engine.compile.exact import FloatPass, IntPass, ProductPass
from .._errors import UnsupportedError
from .._engine.plan import Plan
from .._tables import AxisTable

F32 = np.float32

#: Element types of ONNX Runtime's CPU Resize kernels (others have no kernel).
DTYPES = ("float32", "float16", "int32", "int8", "uint8")


# ------------------------------------------------------------------------------ geometry

def output_geometry(shape: tuple[int, ...], axes: list[int], scales: np.ndarray | None,
                    sizes: np.ndarray | None, policy: str) -> tuple[list[float], list[int]]:
    """(scale of every axis as float32 values, output length of every axis)."""
    ndim = len(shape)
    scale = [1.0] * ndim
    out = list(shape)
    if scales is not None:
        for a, s in zip(axes, scales.astype(F32)):
            scale[a] = float(s)
        for a in range(ndim):
            out[a] = int(np.trunc(F32(scale[a]) * F32(shape[a])))
        return scale, out
    assert sizes is not None
    for a, n in zip(axes, sizes):
        out[a] = int(n)
    for a in range(ndim):
        scale[a] = 1.0 if shape[a] == 0 else float(F32(out[a]) / F32(shape[a]))
    if policy != "stretch":
        chosen = [F32(scale[a]) for a in axes]
        common = min(chosen) if policy == "not_larger" else max(chosen)
        for a in range(ndim):
            if a in axes:
                scale[a] = float(common)
                out[a] = int(round_half_away(F32(common) * F32(shape[a])))
            else:
                scale[a], out[a] = 1.0, shape[a]
    return scale, out


def round_half_away(v: Any) -> Any:
    """``std::round``: half away from zero (in float64, exact for float32 inputs)."""
    v = np.asarray(v, dtype=np.float64)
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def original_coordinates(transform: str, n_in: int, n_out: int, scale: float,
                         roi_start: float = 0.0, roi_end: float = 1.0) -> np.ndarray:
    """``get_original_coordinate`` of every output index, in float32 (``upsamplebase.h``)."""
    x = np.arange(n_out, dtype=F32)
    s, L, Lo = F32(scale), F32(n_out), F32(n_in)
    one, half = F32(1), F32(0.5)
    if transform == "asymmetric":
        return x / s
    if transform == "pytorch_half_pixel":
        return ((x + half) / s - half) if n_out > 1 else np.zeros(n_out, F32)
    if transform == "align_corners":
        return np.zeros(n_out, F32) if n_out == 1 else (x * (Lo - one)) / (L - one)
    if transform == "tf_crop_and_resize":
        rs, re = F32(roi_start), F32(roi_end)
        if n_out > 1:
            return rs * (Lo - one) + (x * (re - rs) * (Lo - one)) / (L - one)
        v = 0.5 * float(rs + re) * float(Lo - one)  # float32 sum, then double
        return np.full(n_out, F32(v))
    if transform == "half_pixel_symmetric":
        width = s * Lo
        adjustment = L / width
        center = Lo / F32(2)
        offset = center * (one - adjustment)
        return (float(offset) + (x.astype(np.float64) + 0.5) / float(s) - 0.5).astype(F32)
    return ((x + half) / s) - half  # half_pixel (tf_half_pixel_for_nn is refused earlier)


def _coords(transform: str, n_in: int, n_out: int, scale: float, roi: tuple[float, float],
            ) -> np.ndarray:
    """Coordinates, or the identity on an axis whose scale is exactly 1."""
    if F32(scale) == 1:
        return np.arange(n_out, dtype=F32)
    return original_coordinates(transform, n_in, n_out, scale, *roi)


def outside(c: np.ndarray, n_in: int) -> np.ndarray:
    """Outputs that ``tf_crop_and_resize`` extrapolates (coordinate outside ``[0, n_in-1]``)."""
    return (c < 0) | (c > F32(n_in - 1))


# ------------------------------------------------------------------------------ tables

def nearest_table(c: np.ndarray, n_in: int, nearest_mode: str) -> AxisTable:
    """The nearest rule on float32 coordinates, clamped into the input.

    ``floor`` / ``ceil`` as named; ``round_prefer_ceil`` / ``round_prefer_floor`` treat a
    coordinate whose fraction is within ``1e-6`` of one half as a tie (to ``floor + 1`` /
    ``floor``; onnxruntime's fix of issue 28291 in this release), others round half away
    from zero (``std::round``)."""
    if nearest_mode == "floor":
        i = np.floor(c)
    elif nearest_mode == "ceil":
        i = np.ceil(c)
    else:
        fl = np.floor(c)
        tie = np.abs((c - fl).astype(F32) - F32(0.5)) <= F32(1e-6)
        up = fl + 1 if nearest_mode == "round_prefer_ceil" else fl
        i = np.where(tie, up, round_half_away(c))
    return AxisTable.gather(n_in, np.clip(i, 0, n_in - 1).astype(np.int64))


def _pairs(n_in: int, idx: np.ndarray, w: np.ndarray) -> AxisTable:
    n_out, k = idx.shape
    ptr = np.arange(n_out + 1, dtype=np.int64) * k
    return AxisTable(n_in, n_out, ptr, np.ascontiguousarray(idx.reshape(-1), np.int64),
                     np.ascontiguousarray(w.reshape(-1), np.float64))


def linear_table(c: np.ndarray, n_in: int) -> AxisTable:
    """``SetupUpsampleBilinear``: ``c`` clamped into ``[0, n_in-1]``, taps ``i1 = int(c)``,
    ``i2 = min(i1 + 1, n_in - 1)`` with weights ``|c - i2|``, ``|c - i1|`` (float32), or
    ``0.5, 0.5`` where ``i1 == i2``."""
    c = np.maximum(F32(0), np.minimum(c, F32(n_in - 1)))
    i1 = np.minimum(c.astype(np.int64), n_in - 1)
    i2 = np.minimum(i1 + 1, n_in - 1)
    d1 = np.abs(c - i1.astype(F32))
    d2 = np.abs(c - i2.astype(F32))
    same = i1 == i2
    d1 = np.where(same, F32(0.5), d1)
    d2 = np.where(same, F32(0.5), d2)
    return _pairs(n_in, np.stack([i1, i2], 1), np.stack([d2, d1], 1).astype(np.float64))


def linear_table_q10(c: np.ndarray, n_in: int) -> AxisTable:
    """``SetupUpsampleBilinearInteger``: as :func:`linear_table` with weights
    ``|int(c * 1024) - i * 1024|`` (512, 512 where the taps coincide)."""
    c = np.maximum(F32(0), np.minimum(c, F32(n_in - 1)))
    c10 = (c * F32(1024)).astype(np.int64)
    i1 = np.minimum(c.astype(np.int64), n_in - 1)
    i2 = np.minimum(i1 + 1, n_in - 1)
    same = i1 == i2
    d1 = np.where(same, 512, np.abs(c10 - i1 * 1024))
    d2 = np.where(same, 512, np.abs(c10 - i2 * 1024))
    return _pairs(n_in, np.stack([i1, i2], 1), np.stack([d2, d1], 1).astype(np.float64))


def cubic_coeffs(s: np.ndarray, a: float) -> np.ndarray:
    """``GetCubicCoeffs`` in float32: ``(len(s), 4)``."""
    A, s = F32(a), np.abs(s).astype(F32)
    one, two = F32(1), F32(2)

    def outer(t: np.ndarray) -> np.ndarray:
        return ((A * t - F32(5) * A) * t + F32(8) * A) * t - F32(4) * A

    c1 = ((A + two) * s - (A + F32(3))) * s * s + one
    c2 = ((A + two) * (one - s) - (A + F32(3))) * (one - s) * (one - s) + one
    return np.stack([outer(s + one), c1, c2, outer(two - s)], 1).astype(F32)


def cubic_tables(c: np.ndarray, n_in: int, a: float, exclude_outside: bool,
                 ) -> tuple[AxisTable, AxisTable, np.ndarray]:
    """``ResizeBiCubic``'s taps ``floor(c) - 1 .. floor(c) + 2`` (clamped) and coefficient sums
    (1, or the float32 sum of the in-range ones with ``exclude_outside``): the width-pass table
    (weights ``c / sum``), the height-pass table (weights ``c``) and the sums."""
    i = np.floor(c)
    frac = (c - i).astype(F32)
    w = cubic_coeffs(frac, a)
    idx = i.astype(np.int64)[:, None] + np.arange(-1, 3)
    total = np.ones(len(c), F32)
    if exclude_outside:
        w = np.where((idx < 0) | (idx >= n_in), F32(0), w)
        total = np.zeros(len(c), F32)
        for k in range(4):
            total = total + w[:, k]
    idx = np.clip(idx, 0, n_in - 1)
    # All four taps outside (only extrapolated outputs): ONNX Runtime divides by 0 there and
    # overwrites the result; weights 0 and a divisor 1 give the same output.
    none = total == 0
    w = np.where(none[:, None], F32(0), w)
    total = np.where(none, F32(1), total)
    div = (w / total[:, None]).astype(F32)
    return (_pairs(n_in, idx, div.astype(np.float64)), _pairs(n_in, idx, w.astype(np.float64)),
            total)


def _filter(x: np.ndarray, cubic: bool, a: float) -> np.ndarray:
    x = np.abs(x).astype(F32)
    if not cubic:
        return np.where(x < F32(1), F32(1) - x, F32(0)).astype(F32)
    A = F32(a)
    near = ((A + F32(2)) * x - (A + F32(3))) * x * x + F32(1)
    far = (((x - F32(5)) * x + F32(8)) * x - F32(4)) * A
    return np.where(x < F32(1), near, np.where(x < F32(2), far, F32(0))).astype(F32)


def antialias_table(c: np.ndarray, n_in: int, scale: float, cubic: bool, a: float,
                    exclude_outside: bool, q22: bool) -> tuple[AxisTable, np.ndarray]:
    """``SetupUpsampleFilterAntiAlias`` for one axis: the table and the extrapolated outputs.

    In float32: ``s = 1 / scale``; ``support = (size/2) * s`` when ``s >= 1`` else ``size/2``
    (size 2 linear, 4 cubic); ``center = 0.5 + c``; taps ``floor(center - support + 0.5)`` to
    ``floor(center + support + 0.5)``, weights ``filter((x - center + 0.5) * (1/s if s >= 1
    else 1))`` summed left to right (float); out-of-range taps dropped (``exclude_outside``) or
    added, in order, to the first / last in-range tap; then each weight times ``1 / sum``, and
    for 8-bit data ``round(w * 2^22)`` (half away from zero)."""
    n_out = len(c)
    rs = F32(scale)
    s = F32(1) / rs
    size = F32(4) if cubic else F32(2)
    support = (size * F32(0.5)) * s if s >= F32(1) else size * F32(0.5)
    inv = F32(1) / s if s >= F32(1) else F32(1)
    center = F32(0.5) + c.astype(F32)
    off = outside(center - F32(0.5), n_in)
    lo = np.floor(center - support + F32(0.5)).astype(np.int64)
    hi = np.floor(center + support + F32(0.5)).astype(np.int64)
    lo_cut, hi_cut = np.maximum(lo, 0), np.minimum(hi, n_in)
    xmin = lo_cut if exclude_outside else lo
    count = np.maximum((hi_cut if exclude_outside else hi) - xmin, 0)
    k = max(int(count.max(initial=0)), 1)
    cols = np.arange(k)
    valid = cols[None, :] < count[:, None]
    dist = ((xmin[:, None] + cols[None, :]).astype(F32) - center[:, None] + F32(0.5)) * inv
    buf = np.where(valid, _filter(dist, cubic, a), F32(0)).astype(F32)
    total = np.zeros(n_out, F32)
    for j in range(k):  # float32, left to right (the padding adds exact zeros)
        total = (total + buf[:, j]).astype(F32)
    rows = np.arange(n_out)
    n = np.maximum(hi_cut - lo_cut, 0)
    start = np.zeros(n_out, np.int64)
    if not exclude_outside:
        neg = np.where(xmin < 0, -xmin, 0)
        right = np.where(count + xmin > n_in, count + xmin - n_in, 0)
        # A window wholly outside the input (only outputs extrapolated afterwards) folds
        # into a clipped slot; its weights are never read.
        first = np.minimum(neg, k - 1)
        last = np.clip(count - right - 1, 0, k - 1)
        acc = buf[rows, first]
        for j in range(int(neg.max(initial=0))):
            acc = np.where(j < neg, (acc + buf[:, min(j, k - 1)]).astype(F32), acc)
        buf[rows, first] = acc
        acc = buf[rows, last]
        for j in range(int(right.max(initial=0))):
            col = np.clip(count - right + j, 0, k - 1)
            acc = np.where(j < right, (acc + buf[rows, col]).astype(F32), acc)
        buf[rows, last] = acc
        start = first
    inv_total = np.where(total == 0, F32(1), F32(1) / np.where(total == 0, F32(1), total))
    take = cols[None, :] < n[:, None]
    src_cols = np.clip(start[:, None] + cols[None, :], 0, k - 1)
    w = (buf[rows[:, None], src_cols] * inv_total[:, None].astype(F32)).astype(F32)
    weights = round_half_away(w * F32(1 << 22)) if q22 else w.astype(np.float64)
    ptr = np.zeros(n_out + 1, dtype=np.int64)
    np.cumsum(n, out=ptr[1:])
    idx = (lo_cut[:, None] + cols[None, :])[take]
    table = AxisTable(n_in, n_out, ptr, np.ascontiguousarray(idx, np.int64),
                      np.ascontiguousarray(np.asarray(weights, np.float64)[take]))
    return table, off


# ------------------------------------------------------------------------------ casts

def cast_value(value: float, dtype: np.dtype) -> np.ndarray:
    """``static_cast<T>(float)`` as the x86 build does it: floats round to the type; integers
    truncate through int32 (INT_MIN for NaN and out-of-range values), keeping the low bits."""
    if dtype.kind == "f":
        return np.asarray(F32(value)).astype(dtype)
    v = F32(value)
    if not np.isfinite(v) or not -2.0**31 <= float(v) < 2.0**31:
        i = -(2**31)
    else:
        i = int(np.trunc(v))
    bits = dtype.itemsize * 8
    i &= (1 << bits) - 1
    if dtype.kind == "i" and i >= 1 << (bits - 1):
        i -= 1 << bits
    return np.asarray(i, dtype=dtype)


# ------------------------------------------------------------------------------ the plan

@dataclass
class OrtPlan:
    """A plan and the outputs it extrapolates: ``fills`` is ``(axis, indices)`` pairs whose
    outputs become ``value``. With ``fill_view`` the fills address the C-ordered output
    reshaped to that shape (ONNX Runtime's NHWC antialias kernel fills as if its output were
    ``(N * C, H, W)`` planes, which puts the value in other places than the extrapolated
    pixels; reproduced as is)."""

    plan: Plan | None
    fills: list[tuple[int, np.ndarray]]
    value: np.ndarray | None
    fill_view: tuple[int, ...] | None = None


def _refuse(what: str) -> UnsupportedError:
    return UnsupportedError(f"mode: ONNX Runtime's CPU Resize {what} (the onnxruntime flavour "
                            "reproduces its kernels; flavour='reference' computes any case)")


def _linear_axes(ndim: int, scale: list[float]) -> tuple[int, ...]:
    s = [F32(v) for v in scale]
    if ndim == 2:
        return (0, 1)
    if ndim == 3:
        return (0, 1, 2)
    if ndim == 4 and s[0] == 1 and s[1] == 1:
        return (2, 3)
    if ndim == 4 and s[0] == 1 and s[3] == 1:
        return (1, 2)
    if ndim == 5 and s[0] == 1 and s[1] == 1:
        return (2, 3, 4)
    raise _refuse("'linear' takes 2-D, 3-D, 4-D with scales [1, 1, s, s] or [1, s, s, 1] and "
                  f"5-D with scales [1, 1, s, s, s]; got rank {ndim} with scales "
                  f"{[float(v) for v in s]}")


def _cubic_axes(ndim: int, scale: list[float], antialias: bool) -> tuple[tuple[int, ...], bool]:
    """Resampled axes and whether the Pillow-style (antialias) kernel computes them."""
    s = [F32(v) for v in scale]
    if ndim == 2:
        return (0, 1), antialias
    if ndim == 4 and s[0] == 1 and s[1] == 1:
        return (2, 3), antialias
    if ndim == 4 and s[0] == 1 and s[3] == 1 and (antialias or (s[1] >= 1 and s[2] >= 1)):
        return (1, 2), True
    raise _refuse("'cubic' takes 2-D, 4-D with scales [1, 1, s, s], or [1, s, s, 1] with "
                  f"antialias or scales >= 1; got rank {ndim} with scales "
                  f"{[float(v) for v in s]}")


def validate(ndim: int, scale: list[float], mode: str, antialias: bool) -> None:
    """``ScalesValidation``: the layouts each mode takes (checked before anything else, even
    for an empty output or one that keeps every length)."""
    if mode == "linear":
        _linear_axes(ndim, scale)
    elif mode == "cubic":
        _cubic_axes(ndim, scale, antialias)


def build(shape: tuple[int, ...], dtype: np.dtype, scale: list[float], out: list[int],
          roi: list[tuple[float, float]], *, mode: str, transform: str, nearest_mode: str,
          cubic_a: float, exclude_outside: bool, extrapolation_value: float,
          antialias: bool) -> OrtPlan:
    """The plan of ONNX Runtime's kernel for this call (see the module docstring)."""
    ndim = len(shape)
    name = dtype.name
    extrapolate = transform == "tf_crop_and_resize"
    value = cast_value(extrapolation_value, dtype) if extrapolate else None
    tables: list[AxisTable | None] = [None] * ndim
    fills: list[tuple[int, np.ndarray]] = []

    def coords(a: int) -> np.ndarray:
        return _coords(transform, shape[a], out[a], scale[a], roi[a])

    def note(a: int, c: np.ndarray) -> None:
        if extrapolate and F32(scale[a]) != 1:
            hit = np.flatnonzero(outside(c, shape[a]))
            if hit.size:
                fills.append((a, hit))

    if mode == "nearest":
        for a in range(ndim):
            if out[a] != shape[a] or F32(scale[a]) != 1:
                c = coords(a)
                tables[a] = nearest_table(c, shape[a], nearest_mode)
                note(a, c)
        return OrtPlan(Plan(shape, tables, weighted=False, op="Resize"), fills, value)

    if mode == "cubic" and not antialias:
        axes, aa = _cubic_axes(ndim, scale, antialias)
        if not aa and name not in ("float32", "float16"):
            raise _refuse(f"'cubic' computes floats only (its kernel fails on {name})")
    elif mode == "cubic":
        axes, aa = _cubic_axes(ndim, scale, antialias)
    else:
        axes, aa = _linear_axes(ndim, scale), antialias
    if aa:
        built = _antialias(shape, name, scale, out, roi, axes, mode == "cubic", cubic_a,
                           exclude_outside, transform, value)
        if ndim == 4 and axes == (1, 2):  # NHWC: see OrtPlan
            built.fill_view = (out[0] * out[3], out[1], out[2])
        return built
    if mode == "cubic":
        ay, ax = axes
        cy, cx = coords(ay), coords(ax)
        note(ay, cy)
        note(ax, cx)
        tx, _, _ = cubic_tables(cx, shape[ax], cubic_a, exclude_outside)
        _, ty, sums = cubic_tables(cy, shape[ay], cubic_a, exclude_outside)
        tables[ax], tables[ay] = tx, ty
        div = tuple(float(v) for v in sums) if exclude_outside else None
        cubic = [FloatPass("float32", "float32", "sequential_from_zero"),
                 FloatPass(name, "float32", "sequential_from_zero", divisors=div)]
        return OrtPlan(Plan(shape, tables, weighted=True, order=[ax, ay], keep_order=True,
                            passes=cubic, op="Resize"), fills, value)
    # linear
    cs = {a: coords(a) for a in axes}
    for a in axes:
        note(a, cs[a])
    if name in ("uint8", "int8") and ndim == 4 and axes == (1, 2):
        tables[1] = linear_table_q10(cs[1], shape[1])
        tables[2] = linear_table_q10(cs[2], shape[2])
        passes: list[Any] = [IntPass("int32"), IntPass(name, shift=20, truncate=True)]
        return OrtPlan(Plan(shape, tables, weighted=True, order=[2, 1], keep_order=True,
                            passes=passes, op="Resize"), fills, value)
    for a in axes:
        tables[a] = linear_table(cs[a], shape[a])
    spec = ProductPass(name, len(axes), tuple(range(len(axes)))[::-1], "float32",
                       "toward_zero")
    return OrtPlan(Plan(shape, tables, weighted=True, order=list(axes), keep_order=True,
                        passes=[spec], op="Resize"), fills, value)


def _antialias(shape: tuple[int, ...], name: str, scale: list[float], out: list[int],
               roi: list[tuple[float, float]], axes: tuple[int, ...], cubic: bool,
               cubic_a: float, exclude_outside: bool, transform: str,
               value: np.ndarray | None) -> OrtPlan:
    """``upsample_aa.h``: a pass per axis, innermost first (width, height, then depth), each
    skipped when its length does not change, each storing the data type."""
    tables: list[AxisTable | None] = [None] * len(shape)
    fills: list[tuple[int, np.ndarray]] = []
    q22 = name in ("uint8", "int8")
    order = []
    for a in reversed(axes):
        c = _coords(transform, shape[a], out[a], scale[a], roi[a])
        table, off = antialias_table(c, shape[a], scale[a], cubic, cubic_a, exclude_outside,
                                     q22)
        if value is not None and off.any():
            fills.append((a, np.flatnonzero(off)))
        if out[a] == shape[a]:
            continue
        tables[a] = table
        order.append(a)
    if q22:
        passes: list[Any] = [IntPass("uint8", bias=1 << 21, shift=22, view=name)] * len(order)
    elif name == "int32":
        passes = [FloatPass("int32", "float32", "sequential_from_zero",
                            "half_away_from_zero")] * len(order)
    else:  # float16 is computed in float32 and stored once
        passes = [FloatPass("float32", "float32", "sequential_from_zero")] * len(order)
        if order:
            passes[-1] = FloatPass(name, "float32", "sequential_from_zero")
    plan = Plan(shape, tables, weighted=True, order=order, keep_order=True,
                passes=passes, op="Resize") if order else None
    return OrtPlan(plan, fills, value)
