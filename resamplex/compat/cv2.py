"""OpenCV ``cv2.resize`` on NumPy arrays, bit for bit (SPEC §6).

``resize(src, dsize, dst=None, fx=0, fy=0, interpolation=INTER_LINEAR)`` takes OpenCV's
arguments and arrays (``(H, W)`` or ``(H, W, C)`` with 1 <= C <= 128, interleaved channels) and
reproduces the C++ code path of ``opencv-python-headless`` 5.0 (``modules/imgproc/src/
resize.cpp``, ``cv::resize`` / ``cv::hal::resize``) with IPP switched off
(``cv2.ipp.setUseIPP(False)``); ``docs/cv2.md`` lists what IPP changes and every remaining
difference. The rules, from ``research/opencv_pillow.md`` §1 and checked against the wheel:

- **Sizes.** ``dsize = (width, height)``; if either is <= 0, ``fx``/``fy`` (both > 0) give
  ``cvRound(W * fx)`` (half to even) and become the scale factors themselves (not ``dw / W``).
  ``fx``/``fy`` are ignored when ``dsize`` is given. Same size: a copy, whatever the mode.
- **Dispatch** (``hal::resize``): with ``scale = 1 / inv_scale`` (float64), an exact integer
  factor of 2 on both axes turns ``INTER_LINEAR`` (and ``INTER_LINEAR_EXACT`` unless C == 2)
  into ``INTER_AREA``; ``INTER_AREA`` shrinking both axes uses the integer-block path when both
  factors are integers, else the fractional-area tables; ``INTER_AREA`` enlarging either axis
  is bilinear with "area" coefficients; ``INTER_LINEAR_EXACT`` on float data is
  ``INTER_LINEAR``.
- **Tables** (:func:`linear_table`, :func:`cubic_table`, :func:`lanczos4_table`,
  :func:`area_table`, :func:`nearest_indices`): coordinates in float64 cast to float32,
  coefficients in float32 (``libm`` ``sin``/``cos`` in float64 for Lanczos), Q11 integers
  (``cvRound(c * 2048)``) for uint8; LINEAR_EXACT in float64 with Q8/Q16 integers.
- **Passes** (``_engine/_exact.py`` specs, run by the shared ``Plan``): horizontal then
  vertical. uint8: int32 horizontal sums, then ``((b0*(D0>>4))>>16 + (b1*(D1>>4))>>16 + 2) >> 2``
  (linear), ``(sum + 2^21) >> 22`` (Lanczos; cubic's scalar tail) or float32 nested sums with
  weights ``b * 2^-22`` (cubic's 8-lane vector head). Other depths: float32 (float64 for
  float64) sums, sequential, except the vertical cubic / Lanczos passes whose vector heads
  (8 lanes for 16-bit output, 4 for float32) associate right to left; then ``cvRound`` and
  saturation. Area: integer or float block sums in OpenCV's grouping; fractional area
  ``buf += x * alpha`` then ``sum = beta * buf (+ ...)`` in float32.
"""

from __future__ import annotations

import functools
import math
import numbers
import sys
from typing import Any

import numpy as np

from .._checks import check_allocation, check_threads
from .._engine import _exec, _planloops
from .._engine.compile.exact import (
    ELEM, BlockPass, FloatPass, IntPass, SplitPass, row_major_groups, row_stride,
)
from .._engine._exec import call_key
from .._engine.cache import PLANS, PROGRAMS, TABLES, CallMemo, KeptProgram
from .._engine.plan import Plan
from .._dtypes import name_of
from .._errors import ResamplexError, UnsupportedError, bad_type, bad_value
from .._tables import AxisTable, block_mean_table, consecutive_taps

__all__ = [
    "INTER_AREA", "INTER_CUBIC", "INTER_LANCZOS4", "INTER_LINEAR", "INTER_LINEAR_EXACT",
    "INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_MAX", "DTYPES", "MAX_CHANNELS",
    "resize", "nearest_indices", "nearest_exact_indices", "linear_table", "cubic_table",
    "lanczos4_table", "linear_exact_table", "area_table", "cubic_coeffs", "lanczos4_coeffs",
]

INTER_NEAREST = 0
INTER_LINEAR = 1
INTER_CUBIC = 2
INTER_AREA = 3
INTER_LANCZOS4 = 4
INTER_LINEAR_EXACT = 5
INTER_NEAREST_EXACT = 6
INTER_MAX = 7

_NAMES = {INTER_NEAREST: "INTER_NEAREST", INTER_LINEAR: "INTER_LINEAR",
          INTER_CUBIC: "INTER_CUBIC", INTER_AREA: "INTER_AREA",
          INTER_LANCZOS4: "INTER_LANCZOS4", INTER_LINEAR_EXACT: "INTER_LINEAR_EXACT",
          INTER_NEAREST_EXACT: "INTER_NEAREST_EXACT"}

#: OpenCV's channel limit for a NumPy ``(H, W, C)`` array (``CV_CN_MAX`` in 5.0's bindings).
MAX_CHANNELS = 128

_DEPTH = {"uint8": "CV_8U", "int8": "CV_8S", "uint16": "CV_16U", "int16": "CV_16S",
          "int32": "CV_32S", "float32": "CV_32F", "float64": "CV_64F", "float16": "CV_16F",
          "uint32": "CV_32U", "bool": "CV_Bool"}
_WEIGHTED = ("uint8", "uint16", "int16", "float32", "float64")
_EXACT = ("uint8", "int8", "uint16", "int16")

#: dtypes per interpolation, as OpenCV 5.0 accepts them (others: its ``func != 0`` assertion).
#: ``INTER_LINEAR_EXACT`` also takes int32 in OpenCV (Q32 fixed point), which resamplex does
#: not reproduce; float data there is ``INTER_LINEAR``.
DTYPES = {
    INTER_NEAREST: ("uint8", "int8", "uint16", "int16", "int32", "uint32", "bool", "float16",
                    "float32", "float64"),
    INTER_NEAREST_EXACT: ("uint8", "int8", "uint16", "int16", "int32", "uint32", "bool",
                          "float16", "float32", "float64"),
    INTER_LINEAR: _WEIGHTED,
    INTER_CUBIC: _WEIGHTED,
    INTER_LANCZOS4: _WEIGHTED,
    INTER_AREA: _WEIGHTED,
    INTER_LINEAR_EXACT: _EXACT + ("float32", "float64"),
}

_DBL_EPSILON = float(np.finfo(np.float64).eps)
_COEF_SCALE = 2048  # INTER_RESIZE_COEF_SCALE (Q11)
F32 = np.float32


# ------------------------------------------------------------------------------ numerics

def cv_round(v: float) -> int:
    """``cvRound`` / ``saturate_cast<int>(double)``: round half to even (Python's ``round``
    of a float)."""
    return round(float(v))


def _q11(c: np.ndarray) -> np.ndarray:
    """``saturate_cast<short>(c * INTER_RESIZE_COEF_SCALE)``: a float32 product, rounded half
    to even, clamped to int16."""
    q = np.rint(c * F32(_COEF_SCALE))
    np.minimum(q, F32(32767), out=q)
    return np.maximum(q, F32(-32768), out=q)


def cubic_coeffs(x: np.ndarray) -> np.ndarray:
    """``interpolateCubic`` (A = -0.75), every operation in float32: ``(len(x), 4)``."""
    A = F32(-0.75)
    one = F32(1)
    x = x.astype(F32)
    x1 = x + one
    c0 = ((A * x1 - F32(5) * A) * x1 + F32(8) * A) * x1 - F32(4) * A
    c1 = ((A + F32(2)) * x - (A + F32(3))) * x * x + one
    y = one - x
    c2 = ((A + F32(2)) * y - (A + F32(3))) * y * y + one
    c3 = one - c0 - c1 - c2
    return np.stack([c0, c1, c2, c3], axis=1)


_S45 = 0.70710678118654752440084436210485
_CS = ((1, 0), (-_S45, -_S45), (0, 1), (_S45, -_S45), (-1, 0), (_S45, _S45), (0, -1),
       (-_S45, _S45))


def lanczos4_coeffs(x: np.ndarray) -> np.ndarray:
    """``interpolateLanczos4``: ``(len(x), 8)`` float32 coefficients.

    ``y0 = -(float)(x + 3) * pi / 4`` (float64), ``s0, c0 = sin(y0), cos(y0)`` (the C library's,
    through :mod:`math`); tap ``i``: ``y = -(float)(x + 3 - i) * pi / 4``, coefficient
    ``(float)((cs[i][0] * s0 + cs[i][1] * c0) / (y * y))`` or ``1e30f`` where
    ``|x + 3 - i| < 1e-6``; then each is multiplied by ``1.f / sum`` (float32, sequential sum).
    """
    x = x.astype(F32)
    x3 = x + F32(3)
    y0 = -x3.astype(np.float64) * math.pi * 0.25
    s0 = np.array([math.sin(v) for v in y0.tolist()])
    c0 = np.array([math.cos(v) for v in y0.tolist()])
    out = np.empty((x.shape[0], 8), F32)
    total = np.zeros(x.shape[0], F32)
    for i in range(8):
        yi = x3 - F32(i)
        y = -yi.astype(np.float64) * math.pi * 0.25
        with np.errstate(divide="ignore", invalid="ignore"):
            c = ((_CS[i][0] * s0 + _CS[i][1] * c0) / (y * y)).astype(F32)
        c = np.where(np.abs(yi) >= F32(1e-6), c, F32(1e30))
        out[:, i] = c
        total = total + c
    inv = F32(1) / total
    return out * inv[:, None]


def nearest_indices(n_in: int, n_out: int, inv_scale: float) -> np.ndarray:
    """``INTER_NEAREST`` (``resizeNN``): ``min(floor(o * (1 / inv_scale)), n_in - 1)``, in
    float64 (``inv_scale`` is ``dw / W`` or the user's ``fx``)."""
    ifx = 1.0 / inv_scale
    o = np.arange(n_out, dtype=np.float64)
    return np.minimum(np.floor(o * ifx), n_in - 1).astype(np.int64)


def nearest_exact_indices(n_in: int, n_out: int) -> np.ndarray:
    """``INTER_NEAREST_EXACT`` of OpenCV 5.0 (``resizeNN_bitexact``): the accumulating float64
    recurrence ``v = a / 2; index = min((int)v, n_in - 1); v += a`` with ``a = n_in / n_out``
    (sizes only; ``fx``/``fy`` do not enter)."""
    a = n_in / n_out
    steps = np.full(n_out, a)
    steps[0] = a * 0.5
    v = np.cumsum(steps)  # sequential float64 additions, as the loop does
    return np.minimum(v.astype(np.int64), n_in - 1)


def _generic_coords(n_in: int, n_out: int, inv_scale: float,
                    area_mode: bool) -> tuple[np.ndarray, np.ndarray]:
    """Source index ``sx`` and float32 fraction ``fx`` of every output (``hal::resize``)."""
    scale = 1.0 / inv_scale
    d = np.arange(n_out, dtype=np.float64)
    if not area_mode:
        f = ((d + 0.5) * scale - 0.5).astype(F32)
        s = np.floor(f)
        f = f - s
    else:
        s = np.floor(d * scale)
        f = ((d + 1) - (s + 1) * inv_scale).astype(F32)
        f = np.where(f <= 0, F32(0), f - np.floor(f))
    return s.astype(np.int64), f.astype(F32)


def _table(n_in: int, idx: np.ndarray, w: np.ndarray,
           counts: np.ndarray | None = None) -> AxisTable:
    """Dense ``(n_out, K)`` taps as a table, every tap kept (duplicates and zero weights
    too: OpenCV computes them), the first ``counts[o]`` of row ``o`` if given."""
    n_out, k = idx.shape
    if counts is None:
        ptr = np.arange(0, (n_out + 1) * k, k, dtype=np.int64)
        return AxisTable(n_in, n_out, ptr, np.ascontiguousarray(idx.reshape(-1), np.int64),
                         np.ascontiguousarray(w.reshape(-1), np.float64))
    keep = np.arange(k) < counts[:, None]
    ptr = np.zeros(n_out + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    return AxisTable(n_in, n_out, ptr, np.ascontiguousarray(idx[keep], np.int64),
                     np.ascontiguousarray(w[keep], np.float64))


def _window(s: np.ndarray, first: int, k: int, n_in: int) -> np.ndarray:
    """``(n_out, k)`` indices ``s + first .. s + first + k - 1`` clamped to ``[0, n_in)``."""
    idx = np.empty((s.shape[0], k), np.int64)
    for t in range(k):
        np.add(s, first + t, out=idx[:, t])
    np.maximum(idx, 0, out=idx)
    return np.minimum(idx, n_in - 1, out=idx)


def linear_table(n_in: int, n_out: int, inv_scale: float, *, horizontal: bool,
                 fixed: bool, area_mode: bool = False) -> AxisTable:
    """Bilinear taps of one axis (``INTER_LINEAR``; ``INTER_AREA`` enlarging with
    ``area_mode``).

    ``fx = (float)((o + 0.5) * scale - 0.5)``, ``sx = floor(fx)``, ``fx -= sx``; weights
    ``(1.f - fx, fx)`` (Q11 integers when ``fixed``). Horizontally, ``sx < 0`` becomes
    ``(0, fx = 0)`` and outputs from the first with ``sx + 1 >= n_in`` on read only sample
    ``n_in - 1`` (weight 1 or 2048); vertically nothing is clamped but the two row indices.

    Examples
    --------
    >>> from resamplex.compat.cv2 import linear_table
    >>> t = linear_table(2, 4, 2.0, horizontal=True, fixed=True)
    >>> t.ptr.tolist(), t.idx.tolist(), t.w.tolist()
    ([0, 2, 4, 6, 7], [0, 1, 0, 1, 0, 1, 1], [2048.0, 0.0, 1536.0, 512.0, 512.0, 1536.0, 2048.0])
    """
    # one loop over the outputs (_engine/_planloops.pyx: a plan per new shape stays cheap)
    return AxisTable(n_in, n_out, *_planloops.cv2_linear(n_in, n_out, inv_scale, horizontal,
                                                         fixed, area_mode))


def _kernel_table(n_in: int, n_out: int, inv_scale: float, taps: int,
                  coeffs: Any, fixed: bool) -> AxisTable:
    s, f = _generic_coords(n_in, n_out, inv_scale, False)
    w = coeffs(f)
    if fixed:
        w = _q11(w)
    return _table(n_in, _window(s, 1 - taps // 2, taps, n_in), w.astype(np.float64))


def cubic_table(n_in: int, n_out: int, inv_scale: float, *, fixed: bool) -> AxisTable:
    """``INTER_CUBIC`` taps ``sx - 1 .. sx + 2`` (clamped to the edge) with
    :func:`cubic_coeffs` of the unclamped fraction (Q11 integers when ``fixed``), computed
    by one loop over the outputs (``_engine/_planloops.pyx``)."""
    return AxisTable(n_in, n_out, *_planloops.cv2_cubic(n_in, n_out, inv_scale, fixed))


def lanczos4_table(n_in: int, n_out: int, inv_scale: float, *, fixed: bool) -> AxisTable:
    """``INTER_LANCZOS4`` taps ``sx - 3 .. sx + 4`` (clamped) with :func:`lanczos4_coeffs`."""
    return _kernel_table(n_in, n_out, inv_scale, 8, lanczos4_coeffs, fixed)


def linear_exact_table(n_in: int, n_out: int, inv_scale: float, bits: int) -> AxisTable:
    """``INTER_LINEAR_EXACT`` taps (``interpolationLinear::getCoeffs``), in float64:
    ``f = scale * (o + 0.5) - 0.5``, ``i = floor(f)``; inside (``0 <= i < n_in - 1``) weights
    ``(2^bits - c, c)`` with ``c = cvRound((f - i) * 2^bits)``; otherwise one tap on the first
    or last sample with weight ``2^bits``."""
    scale = 1.0 / inv_scale
    f = scale * (np.arange(n_out, dtype=np.float64) + 0.5) - 0.5
    i = np.floor(f)
    one = 1 << bits
    inside = (i >= 0) & (i < n_in - 1) & (n_in > 1)
    c = np.rint((f - i) * one)
    idx = np.stack([np.where(inside, i, np.where(i < 0, 0, n_in - 1)), i + 1], axis=1)
    idx = np.clip(idx, 0, n_in - 1).astype(np.int64)
    w = np.stack([np.where(inside, one - c, one), c], axis=1)
    return _table(n_in, idx, w, np.where(inside, 2, 1))


def area_table(n_in: int, n_out: int, scale: float) -> AxisTable:
    """Fractional ``INTER_AREA`` taps (``computeResizeAreaTab``): output ``o`` covers
    ``[o * scale, o * scale + scale)`` in float64; partial cells get weight
    ``(float)(overlap / cellWidth)``, whole ones ``(float)(1 / cellWidth)``, with
    ``cellWidth = min(scale, n_in - o * scale)`` and the 1e-3 threshold of OpenCV.

    Every output's float64 operations are OpenCV's, elementwise over the outputs.

    Examples
    --------
    >>> from resamplex.compat.cv2 import area_table
    >>> t = area_table(5, 2, 2.5)
    >>> t.ptr.tolist(), t.idx.tolist(), t.w.tolist()
    ([0, 3, 6], [0, 1, 2, 2, 3, 4], [0.4000000059604645, 0.4000000059604645, 0.20000000298023224, 0.20000000298023224, 0.4000000059604645, 0.4000000059604645])
    """
    fsx1 = np.arange(n_out, dtype=np.float64) * scale
    fsx2 = fsx1 + scale
    cell = np.minimum(scale, n_in - fsx1)
    sx2 = np.minimum(np.floor(fsx2), n_in - 1)
    sx1 = np.minimum(np.ceil(fsx1), sx2)
    left = sx1 - fsx1 > 1e-3
    right = fsx2 - sx2 > 1e-3
    whole = (sx2 - sx1).astype(np.int64)
    counts = left + whole + right
    # each output's taps: the left partial cell, the whole cells, the right partial cell
    ptr, idx = consecutive_taps(np.where(left, sx1 - 1, sx1).astype(np.int64), counts)
    w = np.repeat((1.0 / cell).astype(F32), counts).astype(np.float64)
    at_left = ptr[:-1][left]
    w[at_left] = ((sx1 - fsx1)[left] / cell[left]).astype(F32)
    at_right = ptr[1:][right] - 1
    w[at_right] = (np.minimum(np.minimum(fsx2 - sx2, 1.0), cell)[right] / cell[right]).astype(F32)
    return AxisTable(n_in, n_out, ptr, idx, w)


def _block_table(n_in: int, n_out: int, step: int) -> AxisTable:
    """Integer-factor area: output ``o`` covers ``[o * step, min(o * step + step, n_in))``."""
    start = np.arange(n_out, dtype=np.int64) * step
    ptr, idx = consecutive_taps(start, np.minimum(start + step, n_in) - start)
    return AxisTable(n_in, n_out, ptr, idx, np.ones(ptr[-1]))


# ------------------------------------------------------------------------------ passes

def _v_store(dtype: np.dtype) -> str:
    return name_of(dtype)


@functools.lru_cache(maxsize=64)
def _generic_passes(mode: int, dtype: np.dtype) -> tuple[Any, Any]:
    """(horizontal, vertical) pass specs of ``resizeGeneric_`` for ``mode`` and ``dtype``."""
    name = name_of(dtype)
    h: Any
    if name == "uint8":
        h = IntPass("int32")
        if mode == INTER_LINEAR:
            v: Any = IntPass("uint8", pre=4, post=16, bias=2, shift=2)
        elif mode == INTER_CUBIC:
            v = SplitPass(8, FloatPass("uint8", "float32", "nested", weight_scale=2.0**-22),
                          IntPass("uint8", bias=1 << 21, shift=22))
        else:
            v = IntPass("uint8", bias=1 << 21, shift=22)
        return h, v
    compute = "float64" if name == "float64" else "float32"
    # HResizeCubic sums the outputs whose window is clamped to the row from WT v = 0 (a
    # -0.0 sum there is +0.0; float data only: an integer output rounds either zero to 0),
    # the others from their first product
    h = FloatPass(compute, compute, zero_edges=mode == INTER_CUBIC and name == compute)
    seq = FloatPass(name, compute)
    if mode == INTER_LINEAR or name == "float64" or (mode == INTER_LANCZOS4
                                                    and name == "uint16"):
        return h, seq
    lanes = 4 if name == "float32" else 8
    return h, SplitPass(lanes, FloatPass(name, compute, "nested"), seq)


# ------------------------------------------------------------------------------ arguments

def _is_int(v: Any) -> bool:
    return type(v) is int or (isinstance(v, numbers.Integral)
                              and not isinstance(v, (bool, np.bool_)))


def _check_src(src: Any) -> np.ndarray:
    if not isinstance(src, np.ndarray):   # OpenCV's binding takes arrays, not lists
        raise bad_type("src", type(src).__name__, "a numpy.ndarray")
    if src.dtype.hasobject or src.dtype.names is not None:
        raise UnsupportedError(f"src: OpenCV takes numeric arrays; got dtype {src.dtype}")
    if src.ndim < 2:
        # OpenCV reads a 1-d array as one column, a 0-d array as one pixel
        src = src.reshape(src.size, 1)
    if src.ndim not in (2, 3):
        raise UnsupportedError(f"src: expected a 2-d (H, W) or 3-d (H, W, C) array; got "
                               f"{src.ndim}-d shape {src.shape}")
    if src.ndim == 3 and not 1 <= src.shape[2] <= MAX_CHANNELS:
        raise UnsupportedError(f"src: OpenCV takes 1 to {MAX_CHANNELS} channels; got shape "
                               f"{src.shape}")
    if src.shape[0] == 0 or src.shape[1] == 0:
        raise ResamplexError(f"src: empty image (OpenCV's !ssize.empty()); got shape "
                             f"{src.shape}")
    return src


_INTERPOLATIONS = ("one of INTER_NEAREST (0), INTER_LINEAR (1), INTER_CUBIC (2), "
                   "INTER_AREA (3), INTER_LANCZOS4 (4), INTER_LINEAR_EXACT (5), "
                   "INTER_NEAREST_EXACT (6)")


def _check_interpolation(interpolation: Any) -> int:
    """The flag as OpenCV's binding reads it (an int; None is the default, INTER_LINEAR);
    which flags it takes is checked after the same-size copy (:func:`_known_interpolation`)."""
    if interpolation is None:
        return INTER_LINEAR
    if not _is_int(interpolation) or not -2**31 <= interpolation < 2**31:
        raise bad_type("interpolation", interpolation, _INTERPOLATIONS)
    return int(interpolation)


def _known_interpolation(mode: int) -> int:
    if mode not in _NAMES:
        raise bad_value("interpolation", mode, _INTERPOLATIONS)
    return mode


def _real(name: str, v: Any) -> float:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
        raise bad_type(name, v, "a number")
    return float(v)


#: dtypes OpenCV's binding writes into as they are (``dst``): its depths, in native byte
#: order; others it refuses.
_DST_DTYPES = frozenset(np.dtype(name) for name in (*_DEPTH, "uint64"))


def _check_dst(dst: Any) -> None:
    """``dst`` as OpenCV's binding takes an output array: None, or a writeable ndarray of an
    OpenCV depth whose layout is a ``cv::Mat``'s (the last axis contiguous, strides not
    growing towards it, interleaved channels); anything else is refused before OpenCV looks
    at its shape (which only decides whether it is written or replaced)."""
    if dst is None:
        return
    if not isinstance(dst, np.ndarray):
        raise bad_type("dst", type(dst).__name__, "None or a numpy.ndarray")
    if not dst.flags.writeable:
        raise ResamplexError("dst: expected a writeable array; got a read-only one")
    if dst.dtype not in _DST_DTYPES:
        names = ", ".join(sorted(d.name for d in _DST_DTYPES))
        raise UnsupportedError(f"dst: OpenCV writes {names} (native byte order); got "
                               f"{dst.dtype}")
    if dst.ndim == 3 and dst.shape[2] > MAX_CHANNELS:
        raise UnsupportedError(f"dst: OpenCV takes 1 to {MAX_CHANNELS} channels; got shape "
                               f"{dst.shape}")
    if dst.flags.c_contiguous:
        return
    last = dst.ndim - 1
    bad = any(n > 1 and (dst.strides[i] != dst.itemsize if i == last
                         else dst.strides[i] < dst.strides[i + 1])
              for i, n in enumerate(dst.shape))
    if dst.ndim == 3 and dst.strides[1] != dst.itemsize * dst.shape[2]:
        bad = True
    if bad:
        raise ResamplexError(f"dst: its layout is not a cv::Mat's (strides {dst.strides} "
                             f"for shape {dst.shape}); give a C-contiguous array, rows may "
                             "be padded")


#: ``ResamplexError`` classes -> their twins that are ``cv2.error``s too (:func:`_as_cv2_error`).
_CV2_ERRORS: dict[tuple[type, type], type] = {}


def _as_cv2_error(exc: ResamplexError) -> ResamplexError:
    """``exc`` as an instance of ``cv2.error`` as well (OpenCV raises ``cv2.error`` for every
    argument it refuses), where cv2 is imported: nothing else can catch ``cv2.error``. The
    class is ``exc``'s own subclassed with ``cv2.error``, made once per class."""
    error = getattr(sys.modules.get("cv2"), "error", None)
    if not (isinstance(error, type) and issubclass(error, Exception)) \
            or isinstance(exc, error):
        return exc
    kind = _CV2_ERRORS.get((type(exc), error))
    if kind is None:
        kind = type(type(exc).__name__, (type(exc), error), {"__module__": __name__})
        _CV2_ERRORS[(type(exc), error)] = kind
    return kind(*exc.args).with_traceback(exc.__traceback__)


def _geometry(shape: tuple[int, int], dsize: Any, fx: Any,
              fy: Any) -> tuple[int, int, float, float]:
    """``(dw, dh, inv_scale_x, inv_scale_y)`` by ``cv::resize``'s rules (None, as OpenCV's
    binding reads it, is the default: an empty ``dsize``, ``fx = fy = 0``)."""
    H, W = shape
    fxv = 0.0 if fx is None else _real("fx", fx)
    fyv = 0.0 if fy is None else _real("fy", fy)
    if dsize is None:
        dw = dh = 0
    else:
        try:
            pair = tuple(dsize)
        except TypeError:
            raise bad_type("dsize", dsize, "None or a (width, height) pair of integers") \
                from None
        if len(pair) != 2 or not all(_is_int(v) for v in pair):
            raise bad_type("dsize", dsize, "None or a (width, height) pair of integers")
        dw, dh = int(pair[0]), int(pair[1])
    if dw <= 0 or dh <= 0:
        if not (fxv > 0 and fyv > 0) or not (math.isfinite(fxv) and math.isfinite(fyv)):
            raise ResamplexError(
                f"fx, fy: with an empty dsize ({dsize!r}) both must be positive finite "
                f"numbers (OpenCV's inv_scale_x > 0); got fx={fx!r}, fy={fy!r}")
        wf, hf = W * fxv, H * fyv
        if max(wf, hf) >= 2.0**31:
            raise ResamplexError(f"fx, fy: the output size {wf!r} x {hf!r} overflows int")
        dw, dh = cv_round(wf), cv_round(hf)
        if dw <= 0 or dh <= 0:
            raise ResamplexError(
                f"fx, fy: the output size rounds to {dw} x {dh} (OpenCV's !dsize.empty()); "
                f"got fx={fx!r}, fy={fy!r} for a {W} x {H} image")
        return dw, dh, fxv, fyv
    if dw >= 2**31 or dh >= 2**31:
        raise bad_value("dsize", dsize, "sizes below 2^31")
    return dw, dh, dw / W, dh / H


# ------------------------------------------------------------------------------ the operator

def _plan(shape: tuple[int, ...], dtype: np.dtype, dw: int, dh: int, inv_x: float,
          inv_y: float, mode: int) -> Plan:
    """The plan of ``hal::resize`` for this call (dispatch of research §1.2)."""
    H, W = shape[0], shape[1]
    cn = shape[2] if len(shape) == 3 else 1
    name = name_of(dtype)
    scale_x, scale_y = 1.0 / inv_x, 1.0 / inv_y
    area_fast, iscale_x, iscale_y = _integer_scales(inv_x, inv_y)

    def refuse(what: str) -> UnsupportedError:
        return UnsupportedError(f"src: {what} does not take {_DEPTH.get(name, name)} "
                                f"({name}) data in OpenCV (its func != 0 assertion)")

    tables: list[AxisTable | None] = [None] * len(shape)
    if mode == INTER_LINEAR_EXACT:
        if area_fast and iscale_x == 2 and iscale_y == 2 and cn != 2:
            mode = INTER_AREA
        else:
            if name == "int32":
                raise UnsupportedError(
                    "src: INTER_LINEAR_EXACT on int32 (OpenCV's Q32 fixed point with rounded "
                    "128-bit products) is not reproduced by resamplex")
            if name not in _EXACT:
                raise refuse("INTER_LINEAR_EXACT")
            bits = 8 if name == "uint8" else 16
            tables[1] = linear_exact_table(W, dw, inv_x, bits)
            tables[0] = linear_exact_table(H, dh, inv_y, bits)
            mid = "int32" if name != "uint16" else "int64"
            v = IntPass(name, bias=1 << (2 * bits - 1), shift=2 * bits)
            return Plan(shape, tables, weighted=True, order=[1, 0], keep_order=True,
                        passes=[IntPass(mid), v], op="INTER_LINEAR_EXACT")
    if mode in (INTER_NEAREST, INTER_NEAREST_EXACT):
        if mode == INTER_NEAREST:
            ix, iy = nearest_indices(W, dw, inv_x), nearest_indices(H, dh, inv_y)
        else:
            ix, iy = nearest_exact_indices(W, dw), nearest_exact_indices(H, dh)
        tables[1], tables[0] = AxisTable.gather(W, ix), AxisTable.gather(H, iy)
        return Plan(shape, tables, weighted=False, op=_NAMES[mode])
    if mode == INTER_LINEAR and area_fast and iscale_x == 2 and iscale_y == 2:
        mode = INTER_AREA
    if mode == INTER_AREA and scale_x >= 1 and scale_y >= 1:
        if name not in _WEIGHTED:
            raise refuse("INTER_AREA")
        if area_fast:
            return _area_fast_plan(shape, dtype, dw, dh, iscale_x, iscale_y)
        if cn > 4:
            raise UnsupportedError(f"src: INTER_AREA with a fractional factor takes at most "
                                   f"4 channels in OpenCV (CV_Assert(cn <= 4)); got {cn}")
        tables[1] = area_table(W, dw, scale_x)
        tables[0] = area_table(H, dh, scale_y)
        compute = "float64" if name == "float64" else "float32"
        passes = [FloatPass(compute, compute, "sequential_from_zero"),
                  FloatPass(name, compute, "sequential")]
        return Plan(shape, tables, weighted=True, order=[1, 0], keep_order=True,
                    passes=passes, op="INTER_AREA")
    if name not in _WEIGHTED:
        raise refuse(_NAMES[mode])
    fixed = name == "uint8"
    if mode == INTER_LANCZOS4:
        tables[1] = lanczos4_table(W, dw, inv_x, fixed=fixed)
        tables[0] = lanczos4_table(H, dh, inv_y, fixed=fixed)
    else:
        area = mode == INTER_AREA
        tables[1] = _axis_table(mode, W, dw, inv_x, True, fixed, area)
        tables[0] = _axis_table(mode, H, dh, inv_y, False, fixed, area)
        if mode == INTER_AREA:
            mode = INTER_LINEAR
    h, v = _generic_passes(mode, dtype)
    return Plan(shape, tables, weighted=True, order=[1, 0], keep_order=True, passes=[h, v],
                op=_NAMES[mode])


def _integer_scales(inv_x: float, inv_y: float) -> tuple[bool, int, int]:
    """``(area_fast, iscale_x, iscale_y)`` of ``hal::resize``: whether both scales
    ``1 / inv`` are integers within ``DBL_EPSILON``, and those integers (rounded)."""
    scale_x, scale_y = 1.0 / inv_x, 1.0 / inv_y
    iscale_x, iscale_y = cv_round(scale_x), cv_round(scale_y)
    return (abs(scale_x - iscale_x) < _DBL_EPSILON and abs(scale_y - iscale_y) < _DBL_EPSILON,
            iscale_x, iscale_y)


def _axis_table(mode: int, n_in: int, n_out: int, inv_scale: float, horizontal: bool,
                fixed: bool, area: bool) -> AxisTable:
    """The linear (``INTER_LINEAR``, ``INTER_AREA`` enlarging) or cubic table of one axis,
    kept by its parameters (``plan.TABLES``): plans of new shapes that share an axis (random
    crops of one image size resized to one size) share its table, and the planner's analysis
    of it."""
    def build() -> AxisTable:
        if mode == INTER_CUBIC:
            return cubic_table(n_in, n_out, inv_scale, fixed=fixed)
        return linear_table(n_in, n_out, inv_scale, horizontal=horizontal, fixed=fixed,
                            area_mode=area)
    key = ("cv2", mode == INTER_CUBIC, n_in, n_out, inv_scale, horizontal, fixed, area)
    return TABLES.get_or_build(key, build)


def _area_fast_plan(shape: tuple[int, ...], dtype: np.dtype, dw: int, dh: int, sx: int,
                    sy: int) -> Plan:
    """``resizeAreaFast_``: ``sy x sx`` blocks (partial at the edges only with ``fx``/``fy``)."""
    H, W = shape[0], shape[1]
    cn = shape[2] if len(shape) == 3 else 1
    name = name_of(dtype)
    tables: list[AxisTable | None] = [None] * len(shape)
    whole = sx == 2 and sy == 2 and 2 * dw == W and 2 * dh == H
    if whole and (name in ("uint8", "uint16") or (name == "int16" and cn not in (1, 3, 4))):
        # Whole 2x2 blocks of integers: the paths below compute the exact sum and finish by
        # (sum + 2) >> 2 (cn 1, 3, 4: half up, which is half away from zero for unsigned
        # data) or (float)sum * 0.25f rounded half to even (other cn; exact). The mean of
        # four integers is exact in the engine's float32 passes too, so its x0.5 tables with
        # that rounding give the same bits, on its fast passes.
        tables[0] = block_mean_table(H, dh, 2)
        tables[1] = block_mean_table(W, dw, 2)
        return Plan(shape, tables, weighted=True, op="INTER_AREA",
                    rounding="half_away_from_zero" if cn in (1, 3, 4) else "half_even")
    tables[0] = _block_table(H, dh, sy)
    tables[1] = _block_table(W, dw, sx)
    acc = {"uint8": "int64", "float64": "float64"}.get(name, "float32")
    fin = "float64" if name == "float64" else "float32"
    # Partial blocks (only with fx/fy) finish as (float)sum / n for every depth.
    common = dict(block=(sy, sx), acc=acc, finish=fin, partial_finish="float32",
                  scale=float(F32(1.0) / F32(sx * sy)), partial="divide", rounding="half_even")
    generic = BlockPass(name, groups=row_major_groups(sy, sx, 4), **common)  # type: ignore[arg-type]
    if sx == 2 and sy == 2 and cn in (1, 3, 4) and name in ("uint8", "uint16", "int16"):
        # (a + b + c + d + 2) >> 2 on full blocks; partial blocks as the generic path, which
        # finishes in float32: (float)sum / n, rounded half to even.
        spec: Any = BlockPass(name, block=(2, 2), groups=row_major_groups(2, 2, 4),
                              acc="int64", finish="int", bias=2, shift=2, mult=1,
                              partial_finish="float32", scale=0.25, partial="divide")
    elif sx == 2 and sy == 2 and cn in (1, 4) and name == "float32":
        # ((a + b) + (c + d)) * 0.25f with no 0 + in front (a sum of -0.0 stays -0.0)
        pairs = BlockPass(name, groups=(((0, 0), (0, 1)), ((1, 0), (1, 1))), from_zero=False,
                          **common)  # type: ignore[arg-type]
        full_cols = (W // sx) * cn
        spec = SplitPass(4, pairs, generic, limit=full_cols)
    else:
        spec = generic
    return Plan(shape, tables, weighted=True, order=[0, 1], keep_order=True, passes=[spec],
                op="INTER_AREA")


def resize(src: Any, dsize: Any, dst: np.ndarray | None = None, fx: float = 0, fy: float = 0,
           interpolation: int = INTER_LINEAR, *, threads: int | None = None) -> np.ndarray:
    """``cv2.resize``, bit for bit with OpenCV's C++ path (IPP off).

    Parameters
    ----------
    src : numpy.ndarray
        ``(H, W)`` or ``(H, W, C)`` (``1 <= C <= 128``, interleaved channels); a 1-d array is
        one column, as in OpenCV. dtypes per interpolation: :data:`DTYPES`.
    dsize : (width, height) or None
        Output size. If None or either entry <= 0, ``fx`` and ``fy`` give it.
    dst : numpy.ndarray, optional
        Written in place and returned when it has the output's shape and dtype (otherwise a
        new array is returned, as OpenCV reallocates).
    fx, fy : float
        Scale factors along x (width) and y (height), used only when ``dsize`` is empty; they
        are then the exact factors of the coordinate map, not ``dw / W``.
    interpolation : int
        ``INTER_NEAREST``, ``INTER_LINEAR`` (default), ``INTER_CUBIC``, ``INTER_AREA``,
        ``INTER_LANCZOS4``, ``INTER_LINEAR_EXACT``, ``INTER_NEAREST_EXACT``.
    threads : int, optional
        Thread count (default ``resamplex.get_num_threads()``); results do not depend on it.

    Returns
    -------
    numpy.ndarray
        ``(dh, dw)`` or ``(dh, dw, C)`` (a 1-channel ``(H, W, 1)`` input gives ``(dh, dw)``, as
        OpenCV does), same dtype as ``src``.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import cv2 as rcv
    >>> s = np.array([[0, 64, 128, 255]], dtype=np.uint8)
    >>> rcv.resize(s, (8, 1))
    array([[  0,  16,  48,  80, 112, 160, 223, 255]], dtype=uint8)
    >>> rcv.resize(s, (8, 1), interpolation=rcv.INTER_CUBIC)
    array([[  0,  12,  43,  81, 102, 164, 228, 255]], dtype=uint8)
    """
    try:
        return _resize(src, dsize, dst, fx, fy, interpolation, threads)
    except ResamplexError as exc:
        raise _as_cv2_error(exc) from None


def _resize(src: Any, dsize: Any, dst: np.ndarray | None, fx: Any, fy: Any,
            interpolation: Any, threads: int | None) -> np.ndarray:
    """:func:`resize`, in the order OpenCV checks: its binding (types, ``dst``), the sizes,
    the same-size copy (any depth, any flag), then the flag and the depth."""
    raw = None
    if type(src) is np.ndarray and dst is None:
        # Arguments seen before: their plan in one lookup (the plan checks the array again).
        raw = call_key(src.shape, src.dtype, dsize, fx, fy, interpolation)
        found = _CALLS.lookup(raw)
        if found is not None:
            plan, result_shape = found
            result = plan(src, threads=threads)
            return result.reshape(result_shape) if result.shape != result_shape else result
        once = PROGRAMS.get(raw)
        if once is not None and row_stride(src) == once.stride:
            # a uint8 pair planned at once before (_planned_at_once), for rows this far apart
            result = once.run_new(src, check_threads(threads) if threads is not None else None)
            return result.reshape(once.extra) if result.shape != once.extra else result
    given = src
    src = _check_src(src)
    mode = _check_interpolation(interpolation)
    _check_dst(dst)
    if threads is not None:
        check_threads(threads)
    name = name_of(src.dtype) if src.dtype.isnative or src.dtype.itemsize == 1 else src.dtype.str
    native = src.dtype.newbyteorder("=")
    native_name = name_of(native)
    depth = _DEPTH.get(native_name)
    if depth is None:
        raise UnsupportedError(f"src: OpenCV has no depth for dtype {name}")
    H, W = src.shape[:2]
    dw, dh, inv_x, inv_y = _geometry((H, W), dsize, fx, fy)
    out_shape = (dh, dw) + src.shape[2:]
    check_allocation(dh * dw * (src.shape[2] if src.ndim == 3 else 1) * src.dtype.itemsize,
                     "dsize")
    result_shape = (dh, dw) if src.ndim == 3 and src.shape[2] == 1 else out_shape
    # OpenCV writes into dst when it already has the output's size and type (a 1-channel
    # output may come with or without its channel axis), else it allocates a new array.
    fits = {result_shape, out_shape} | ({(dh, dw, 1)} if len(result_shape) == 2 else set())
    use_dst = (isinstance(dst, np.ndarray) and dst.shape in fits
               and dst.dtype == src.dtype)
    out = dst.reshape(out_shape) if use_dst and dst is not None else None  # a view
    if (dh, dw) == (H, W):
        # OpenCV copies, whatever the flag and the depth
        result = np.array(src, copy=True) if out is None else out
        if out is not None:
            np.copyto(out, src)
    else:
        mode = _known_interpolation(mode)
        allowed = DTYPES[INTER_LINEAR_EXACT if mode == INTER_LINEAR_EXACT else mode]
        if mode == INTER_LINEAR_EXACT and native_name == "int32":
            allowed = allowed + ("int32",)
        if native_name not in allowed and not (native_name in DTYPES[INTER_NEAREST]
                                               and mode in (INTER_NEAREST,
                                                            INTER_NEAREST_EXACT)):
            raise UnsupportedError(f"src: {_NAMES[mode]} does not take {depth} ({name}) data "
                                   f"in OpenCV; it takes {', '.join(allowed)}")
        if mode == INTER_LINEAR_EXACT and native_name in ("float32", "float64"):
            mode = INTER_LINEAR
        key = ("cv2.resize", src.shape, native, dw, dh, inv_x, inv_y, mode)
        kept = PLANS.get(key)
        made = None
        if kept is None and out is None and native_name == "uint8" \
                and mode in (INTER_LINEAR, INTER_CUBIC):
            made = _planned_at_once(src, row_stride(src), dw, dh, inv_x, inv_y, mode,
                                    result_shape)
        if made is not None:
            result = made.run_new(src, threads)
            if src is given:
                PROGRAMS.remember(raw, made)
        else:
            plan = kept if kept is not None else PLANS.get_or_build(
                key, lambda: _plan(src.shape, native, dw, dh, inv_x, inv_y, mode))
            result = plan(src, out=out, threads=threads)
            if src is given:  # not a 1-d array read as a column
                _CALLS.remember(raw, key, result_shape)
    if use_dst:
        return dst  # type: ignore[return-value]
    return result.reshape(result_shape) if result.shape != result_shape else result


_CALLS = CallMemo()  # raw arguments seen before -> (plan key, shape of the result)


@functools.lru_cache(maxsize=None)
def _pair_constants(mode: int) -> tuple[int, int, int, int, int, float, int] | None:
    """The uint8 pair's second pass (``_generic_passes``) as ``_planloops.cv2_u8_pair`` takes
    it: ``(pre, post, bias, mult, shift, head weight scale or 0.0, head lanes)``; None where
    it has a finish that function does not plan (a float multiplier, truncation, a view)."""
    _, v = _generic_passes(mode, np.dtype(np.uint8))
    head: Any = None
    lanes = 0
    if isinstance(v, SplitPass):
        head, lanes = v.head, v.lanes
        v = v.tail
    if not isinstance(v, IntPass) or (head is not None and not isinstance(head, FloatPass)) \
            or v.fmul is not None or v.truncate or v.view is not None or v.store != "uint8":
        return None
    return (v.pre, v.post, v.bias, v.mult, v.shift,
            0.0 if head is None else head.weight_scale, lanes)


def _planned_at_once(src: np.ndarray, stride: int | None, dw: int, dh: int, inv_x: float,
                     inv_y: float, mode: int, result_shape: tuple[int, ...]) -> KeptProgram | None:
    """The program of a uint8 ``INTER_LINEAR`` or ``INTER_CUBIC`` call without a plan in the
    plan cache (the caller looked), planned by ``_planloops.cv2_u8_pair`` in one native call
    (the tables and the fused integer pass: the program ``_plan`` and the pass compiler would
    make), or None where the call takes its plan as before: an image of more than 4 channels
    or without whole contiguous rows, a x2 area halving, a plan with a phase kernel (x2,
    x0.5). A random crop resized to a fixed size (a new shape every call) then costs the
    resize, not the planner's Python (docs/core.md). ``stride``: ``row_stride(src)``; ``result_shape``:
    the door's result (kept with the program, ``KeptProgram.extra``)."""
    consts = _pair_constants(mode)
    C = src.shape[2] if src.ndim == 3 else 1
    if consts is None or src.ndim not in (2, 3) or not 1 <= C <= 4 or stride is None:
        return None
    if mode == INTER_LINEAR:
        area_fast, ix, iy = _integer_scales(inv_x, inv_y)
        if area_fast and ix == 2 and iy == 2:
            return None     # OpenCV takes INTER_AREA's path
    H, W = src.shape[0], src.shape[1]
    check_allocation(H * dw * C * 4, "scratch")  # the pass compiler's check of the first pass
    made = _planloops.cv2_u8_pair(H, W, C, stride, dh, dw, inv_y, inv_x, mode == INTER_CUBIC,
                                  _exec.OPS["int_fused"], ELEM["uint8"], *consts)
    if made is None:
        return None
    spec, work = made
    return KeptProgram(_exec.Program([spec], [], work), work, (dh, dw) + src.shape[2:],
                       src.dtype, stride, result_shape)
