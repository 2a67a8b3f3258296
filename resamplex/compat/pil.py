"""Pillow ``Image.resize`` and ``Image.reduce`` on NumPy arrays, bit for bit (SPEC §6).

Arrays are laid out as ``numpy.asarray(image)`` gives them: ``(H, W)`` for ``L`` (uint8),
``I;16`` (uint16), ``I`` (int32) and ``F`` (float32); ``(H, W, 2)`` ``LA``, ``(H, W, 3)``
``RGB`` and ``(H, W, 4)`` ``RGBA`` (uint8). ``mode=`` names the others Pillow resamples the same
way (``La``, ``RGBa``, ``RGBX``, ``CMYK``, ``YCbCr``, ``LAB``, ``HSV``: no premultiplication).
Sizes and boxes are Pillow's: ``(width, height)`` and ``(x0, y0, x1, y1)``.

The rules (``research/opencv_pillow.md`` §2, checked against the installed Pillow) are tables
and pass specs handed to the shared ``Plan``:

- **Filters** (:data:`FILTERS`): ``BOX``, ``BILINEAR``, ``HAMMING``, ``BICUBIC`` (Keys
  ``a = -0.5``), ``LANCZOS`` (3 lobes), as weight functions of float64 distances (``sin`` and
  ``cos`` are the C library's, through :mod:`math`), widened by the shrink factor (Pillow
  always antialiases) and normalised by their sequential sum (:func:`filter_table`).
- **8-bit modes**: weights ``(int)(w * 2^22 +- 0.5)``, each pass
  ``clip8((2^21 + sum) >> 22)`` into uint8 (the engine's fixed-point pass). **I;16 / I / F**:
  double sums from 0, rounded ``(int)(v +- 0.5)`` and clipped into uint16 / int32, or cast to
  float32, after each pass.
- **Pass order**: Pillow 13 runs the vertical pass first when ``out_h < in_h`` and
  ``in_h - out_h > 2 * (in_w - out_w)`` (dimensions of the image the C code gets), else the
  horizontal one; Pillow 10-12 always horizontal first (12.2-12.3 split very tall images in two
  calls). ``version=`` picks the rules (default: the installed Pillow, else 13).
- **Alpha**: ``LA``/``RGBA`` with a filter other than ``NEAREST`` are premultiplied
  (``MULDIV255``) before and divided back (``255 * c // a``, clipped) after, as Pillow's
  ``convert`` does; ``reduce`` too.
- **NEAREST**: Pillow's accumulating float64 recurrence (``I;16``: the per-pixel affine map),
  whole pixels copied.
- **reduce** and ``reducing_gap``: block sums in Pillow's grouping (2x2 quads, then odd
  columns, rows and corner) with its integer finishes (``(s + n/2) >> k`` or
  ``((s + n/2) * m) >> 24``) for 8-bit data and float64 for ``I`` / ``F``.

``docs/pil.md`` has the status of every mode and filter.
"""

from __future__ import annotations

import math
import numbers
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from .._checks import as_array, c_double, c_index, check_allocation, check_threads
from .._engine.compile.exact import BlockPass, FloatPass, pair_groups
from .._engine.kernels import _alpha
from .._engine._exec import call_key, threads_for
from .._engine.cache import PLANS, CallMemo
from .._engine.plan import Plan
from .._errors import UnsupportedError, bad_type, bad_value
from .._tables import AxisTable, block_mean_table, consecutive_taps

__all__ = [
    "NEAREST", "LANCZOS", "BILINEAR", "BICUBIC", "BOX", "HAMMING", "MKS2013", "MKS2021",
    "FILTERS", "MODES", "resize", "reduce", "filter_table", "nearest_indices",
    "pillow_version",
]

NEAREST = 0
LANCZOS = 1
BILINEAR = 2
BICUBIC = 3
BOX = 4
HAMMING = 5
MKS2013 = 6
MKS2021 = 7

_NAMES = {NEAREST: "NEAREST", LANCZOS: "LANCZOS", BILINEAR: "BILINEAR", BICUBIC: "BICUBIC",
          BOX: "BOX", HAMMING: "HAMMING", MKS2013: "MKS2013", MKS2021: "MKS2021"}

#: Modes: (dtype, channels, premultiplied-alpha conversion for convolution filters).
MODES = {
    "L": ("uint8", 0, False), "LA": ("uint8", 2, True), "La": ("uint8", 2, False),
    "RGB": ("uint8", 3, False), "RGBA": ("uint8", 4, True), "RGBa": ("uint8", 4, False),
    "RGBX": ("uint8", 4, False), "CMYK": ("uint8", 4, False), "YCbCr": ("uint8", 3, False),
    "LAB": ("uint8", 3, False), "HSV": ("uint8", 3, False),
    "I;16": ("uint16", 0, False), "I": ("int32", 0, False), "F": ("float32", 0, False),
}
_DEFAULT_MODE = {("uint8", 0): "L", ("uint8", 2): "LA", ("uint8", 3): "RGB",
                 ("uint8", 4): "RGBA", ("uint16", 0): "I;16", ("int32", 0): "I",
                 ("float32", 0): "F"}


# ------------------------------------------------------------------------------ version

def _installed_version() -> tuple[int, int] | None:
    try:
        from importlib.metadata import PackageNotFoundError, version
        text = version("pillow")
    except Exception:  # not installed, or metadata unreadable
        return None
    parts = text.split(".")
    try:
        return int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or 0)
    except (ValueError, IndexError):
        return None


#: The Pillow whose rules ``version=None`` follows: the installed one, else 13.0.
pillow_version: tuple[int, int] = _installed_version() or (13, 0)


def _check_version(version: Any) -> tuple[int, int]:
    if version is None:
        return pillow_version
    if _is_int(version):
        v = (int(version), 0)
    else:
        try:
            parts = tuple(int(p) for p in version) + (0,)
            v = (parts[0], parts[1])
        except (TypeError, ValueError):
            raise bad_value("version", version, "a Pillow version such as 13 or (12, 3)") \
                from None
    if v < (10, 0):
        raise bad_value("version", version, "Pillow 10 or later (the supported range)")
    return v


# ------------------------------------------------------------------------------ filters

def _box(x: np.ndarray) -> np.ndarray:
    return np.where((x > -0.5) & (x <= 0.5), 1.0, 0.0)


def _bilinear(x: np.ndarray) -> np.ndarray:
    x = np.abs(x)
    return np.where(x < 1.0, 1.0 - x, 0.0)


def _bicubic(x: np.ndarray) -> np.ndarray:
    a = -0.5
    x = np.abs(x)
    near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1
    far = (((x - 5) * x + 8) * x - 4) * a
    return np.where(x < 1.0, near, np.where(x < 2.0, far, 0.0))


def _map(f: Callable[[float], float], x: np.ndarray) -> np.ndarray:
    return np.array([f(v) for v in x.reshape(-1).tolist()], dtype=np.float64).reshape(x.shape)


_HAM_A, _HAM_B = float(np.float32(0.54)), float(np.float32(0.46))


def _hamming1(x: float) -> float:
    x = abs(x)
    if x == 0.0:
        return 1.0
    if x >= 1.0:
        return 0.0
    x = x * math.pi
    return math.sin(x) / x * (_HAM_A + _HAM_B * math.cos(x))


def _sinc(x: float) -> float:
    if x == 0.0:
        return 1.0
    x = x * math.pi
    return math.sin(x) / x


def _lanczos1(x: float) -> float:
    if -3.0 <= x < 3.0:
        return _sinc(x) * _sinc(x / 3)
    return 0.0


#: Pillow's convolution filters: (support, weight function of float64 distances), evaluated
#: as ``Resample.c`` does (the same operations in the same order).
FILTERS: dict[int, tuple[float, Callable[[np.ndarray], np.ndarray]]] = {
    BOX: (0.5, _box),
    BILINEAR: (1.0, _bilinear),
    HAMMING: (1.0, lambda x: _map(_hamming1, x)),
    BICUBIC: (2.0, _bicubic),
    LANCZOS: (3.0, lambda x: _map(_lanczos1, x)),
}


@lru_cache(maxsize=128)
def filter_table(n_in: int, in0: float, in1: float, n_out: int, resample: int,
                 fixed: bool) -> AxisTable:
    """Taps of one axis (``precompute_coeffs``), every tap kept.

    ``scale = (double)(in1 - in0) / n_out`` (the box edges are float32, their difference too);
    ``filterscale = max(scale, 1)``; ``support = filter_support * filterscale``; output ``o``
    centred at ``in0 + (o + 0.5) * scale`` reads inputs ``xmin = max(0, (int)(center - support
    + 0.5))`` to ``min(n_in, (int)(center + support + 0.5)) - 1`` with weights
    ``filter((x - center + 0.5) / filterscale)`` divided by their sequential sum (if not 0).
    With ``fixed``, the 8-bit integers ``(int)(w * 2^22 + 0.5)`` (``- 0.5`` below 0).

    Examples
    --------
    >>> from resamplex.compat.pil import filter_table, BILINEAR
    >>> t = filter_table(4, 0.0, 4.0, 2, BILINEAR, False)
    >>> t.ptr.tolist(), t.idx.tolist(), (t.w * 7).round(12).tolist()    # 3/7, 3/7, 1/7
    ([0, 3, 6], [0, 1, 2, 1, 2, 3], [3.0, 3.0, 1.0, 1.0, 3.0, 3.0])
    """
    support0, func = FILTERS[resample]
    scale = float(np.float32(np.float32(in1) - np.float32(in0))) / n_out
    filterscale = max(scale, 1.0)
    support = support0 * filterscale
    ss = 1.0 / filterscale
    center = float(np.float32(in0)) + (np.arange(n_out, dtype=np.float64) + 0.5) * scale
    xmin = np.maximum(np.trunc(center - support + 0.5), 0).astype(np.int64)
    xmax = np.minimum(np.trunc(center + support + 0.5), n_in).astype(np.int64) - xmin
    xmax = np.maximum(xmax, 0)
    k = int(xmax.max(initial=0))
    cols = np.arange(max(k, 1))
    mask = cols[None, :] < xmax[:, None]
    pos = (cols[None, :] + xmin[:, None]).astype(np.float64)
    w = np.where(mask, func(((pos - center[:, None]) + 0.5) * ss), 0.0)
    ww = np.add.accumulate(w, axis=1)[:, -1] if w.shape[1] else np.zeros(n_out)
    w = np.where(ww[:, None] != 0.0, w / np.where(ww == 0.0, 1.0, ww)[:, None], w)
    if fixed:
        w = np.where(w < 0, np.trunc(-0.5 + w * (1 << 22)), np.trunc(0.5 + w * (1 << 22)))
    ptr = np.zeros(n_out + 1, dtype=np.int64)
    np.cumsum(xmax, out=ptr[1:])
    idx = np.ascontiguousarray((cols[None, :] + xmin[:, None])[mask], np.int64)
    return AxisTable(n_in, n_out, ptr, idx, np.ascontiguousarray(w[mask]),
                     shift=22 if fixed else None)


def nearest_indices(n_in: int, in0: float, in1: float, n_out: int, *,
                    accumulate: bool) -> np.ndarray:
    """``NEAREST`` source index of every output: ``a = (double)(in1 - in0) / n_out`` (float32
    edges), ``v = in0 + a / 2`` then ``v += a`` per output (``accumulate``, every mode but
    ``I;16``) or ``v = a * (o + 0.5) + in0`` (``I;16``); index ``(int)v`` (``-1`` below 0),
    clamped into the input (Pillow fills outside pixels with 0, which a box inside the image
    never reaches)."""
    a = float(np.float32(np.float32(in1) - np.float32(in0))) / n_out
    x0 = float(np.float32(in0))
    if accumulate:
        steps = np.full(n_out, a)
        steps[0] = x0 + a * 0.5
        v = np.cumsum(steps)
    else:
        v = a * (np.arange(n_out, dtype=np.float64) + 0.5) + x0
    idx = np.where(v < 0, -1, np.trunc(v)).astype(np.int64)
    return np.clip(idx, 0, n_in - 1)


# ------------------------------------------------------------------------------ arguments
#
# Pillow checks a few arguments in Python (the filter, ``reducing_gap``, a resize to the same
# size, a reduce by 1) and hands the rest to its C functions, whose argument formats refuse
# what is not an integer (``size``, ``factor``, the reduce box) or a number (the resize box)
# with TypeError, and whose checks refuse bad values with ValueError. The checks below raise
# the same types (``ResamplexTypeError``, ``ResamplexError``) and take what those formats
# take: ``True`` is 1 (an integer to CPython), a NumPy bool is a number but not an integer.

def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def _check_image(a: Any, mode: Any) -> tuple[np.ndarray, str]:
    a = as_array(a, "a")
    name = a.dtype.newbyteorder("=").name if a.dtype.kind in "iuf" else str(a.dtype)
    if a.ndim not in (2, 3):
        raise UnsupportedError(f"a: expected an (H, W) or (H, W, C) array as Pillow lays out "
                               f"its images; got shape {a.shape}")
    channels = a.shape[2] if a.ndim == 3 else 0
    if mode is None:
        mode = _DEFAULT_MODE.get((name, channels))
        if mode is None:
            raise UnsupportedError(
                f"a: no Pillow mode for dtype {a.dtype} with shape {a.shape}; expected uint8 "
                "(H, W) L, (H, W, 2) LA, (H, W, 3) RGB, (H, W, 4) RGBA, or (H, W) uint16 I;16, "
                "int32 I, float32 F")
    elif mode not in MODES:
        raise bad_value("mode", mode, "one of " + ", ".join(MODES))
    dtype, chans, _ = MODES[mode]
    if name != dtype or channels != chans:
        want = "(H, W)" if chans == 0 else f"(H, W, {chans})"
        raise UnsupportedError(f"a: mode {mode!r} is a {want} {dtype} array; got shape "
                               f"{a.shape} dtype {a.dtype}")
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return a, mode


def _sequence(name: str, value: Any, n: int | None, accepted: str) -> tuple[Any, ...]:
    """``value`` as a tuple (of ``n`` entries unless None), as Pillow's ``tuple(size)`` and
    its ``"(ii)"``-style formats read it: anything else is a TypeError."""
    try:
        vals = tuple(value)
    except TypeError:
        raise bad_type(name, value, accepted) from None
    if n is not None and len(vals) != n:
        raise bad_type(name, value, accepted)
    return vals


def _integers(name: str, value: Any, n: int, what: str) -> tuple[int, ...]:
    """``n`` integers as Pillow's C argument formats read them (``__index__``)."""
    vals = _sequence(name, value, n, what)
    ints = tuple(c_index(v) for v in vals)
    if any(v is None for v in ints):
        raise bad_type(name, value, what)
    return tuple(int(v) for v in ints)  # type: ignore[arg-type]


def _check_size(size: tuple[Any, ...]) -> tuple[int, int]:
    w, h = _integers("size", size, 2, "a (width, height) pair of integers")
    if w < 1 or h < 1:
        raise bad_value("size", size, "height and width > 0")
    return w, h


def _check_box(box: Any, W: int, H: int) -> tuple[float, float, float, float]:
    """Pillow's checks, on the box as float32 (how its C code reads it)."""
    if box is None:
        return (0.0, 0.0, float(W), float(H))
    what = "a (x0, y0, x1, y1) tuple of numbers"
    vals = tuple(c_double(v) for v in _sequence("box", box, 4, what))
    if any(v is None for v in vals):
        raise bad_type("box", box, what)
    b = tuple(float(np.float32(v)) for v in vals)
    if not all(math.isfinite(v) for v in b):
        raise bad_value("box", box, "finite numbers")
    if b[0] < 0 or b[1] < 0:
        raise bad_value("box", box, "a box offset that is not negative")
    if b[2] > W or b[3] > H:
        raise bad_value("box", box, f"a box inside the {W} x {H} image")
    if b[2] - b[0] < 0 or b[3] - b[1] < 0:
        raise bad_value("box", box, "a box that is not empty")
    return b  # type: ignore[return-value]


_FILTERS_ACCEPTED = ("one of NEAREST (0), LANCZOS (1), BILINEAR (2), BICUBIC (3), BOX (4), "
                     "HAMMING (5)")


def _check_filter(resample: Any) -> Any:
    """``Image.resize``'s check: a filter equal to one of Pillow's (ValueError), as given
    (its C code reads it as an integer: :func:`_filter_index`)."""
    if resample is None:
        return BICUBIC
    if resample not in tuple(_NAMES):
        raise bad_value("resample", resample, _FILTERS_ACCEPTED)
    return resample


def _filter_index(resample: Any) -> int:
    """The filter as Pillow's C code reads it (``__index__``: ``2.0`` is a TypeError)."""
    f = c_index(resample)
    if f is None:
        raise bad_type("resample", resample, _FILTERS_ACCEPTED)
    if f in (MKS2013, MKS2021):
        raise UnsupportedError(f"resample: {_NAMES[f]} (Pillow 13) is not reproduced by "
                               "resamplex yet")
    return int(f)


def _check_gap(reducing_gap: Any) -> float | None:
    """``if reducing_gap is not None and reducing_gap < 1.0: raise ValueError`` (what does
    not compare with 1.0 is Pillow's TypeError)."""
    if reducing_gap is None:
        return None
    try:
        small = not reducing_gap >= 1.0
    except TypeError:
        raise bad_type("reducing_gap", reducing_gap, "None or a number >= 1.0") from None
    if small:
        raise bad_value("reducing_gap", reducing_gap, "None or a number >= 1.0")
    return float(reducing_gap)


# ------------------------------------------------------------------------------ alpha

def _premultiply(a: np.ndarray, threads: int | None) -> np.ndarray:
    """``RGBA -> RGBa`` / ``LA -> La``: ``MULDIV255(c, alpha)`` on the colour bands
    (``_alpha.premultiply``, rows of pixels split among ``threads``)."""
    src = np.ascontiguousarray(a)
    out = np.empty_like(src)
    c = src.shape[-1]
    _alpha.premultiply(src.reshape(-1, c), out.reshape(-1, c),
                       threads_for(threads, float(src.size)))
    return out


def _unpremultiply_table() -> np.ndarray:
    """``[alpha << 8 | c]``: ``min(255, 255 * c // alpha)``, or ``c`` for alpha 0 or 255."""
    alpha, c = np.arange(256)[:, None], np.arange(256)[None, :]
    div = np.minimum(255, (255 * c) // np.maximum(alpha, 1))
    return np.where((alpha == 0) | (alpha == 255), c, div).astype(np.uint8).reshape(-1)


_UNPREMULTIPLY = _unpremultiply_table()


def _unpremultiply(a: np.ndarray, threads: int | None) -> np.ndarray:
    """``RGBa -> RGBA`` / ``La -> LA``: ``min(255, 255 * c // alpha)`` unless alpha is 0 or
    255 (then unchanged), looked up in a 64 KiB table instead of divided
    (``_alpha.unpremultiply``)."""
    src = np.ascontiguousarray(a)
    out = np.empty_like(src)
    c = src.shape[-1]
    _alpha.unpremultiply(src.reshape(-1, c), _UNPREMULTIPLY, out.reshape(-1, c),
                         threads_for(threads, float(src.size)))
    return out


# ------------------------------------------------------------------------------ passes

_STORE = {"uint16": "uint16", "int32": "int32", "float32": "float32"}


def _resample_plan(shape: tuple[int, ...], dtype: str, size: tuple[int, int],
                   resample: int, box: tuple[float, float, float, float],
                   version: tuple[int, int]) -> Plan | None:
    """``ImagingResample``: the two separable passes, or None when neither is needed."""
    H, W = shape[0], shape[1]
    xsize, ysize = size
    need_h = xsize != W or box[0] != 0 or box[2] != xsize
    need_v = ysize != H or box[1] != 0 or box[3] != ysize
    if not (need_h or need_v):
        return None
    fixed = dtype == "uint8"
    tables: list[AxisTable | None] = [None] * len(shape)
    if need_h:
        tables[1] = filter_table(W, box[0], box[2], xsize, resample, fixed)
    if need_v:
        tables[0] = filter_table(H, box[1], box[3], ysize, resample, fixed)
    vertical_first = version >= (13, 0) and ysize < H and (H - ysize) > 2 * (W - xsize)
    order = [0, 1] if vertical_first else [1, 0]
    if fixed:
        return Plan(shape, tables, weighted=True, order=order, fixed=True, op="pil.resize")
    steps = [a for a in order if tables[a] is not None]
    spec = FloatPass(_STORE[dtype], "float64", "sequential_from_zero",
                     "add_half_trunc")
    return Plan(shape, tables, weighted=True, order=steps, keep_order=True,
                passes=[spec] * len(steps), op="pil.resize")


def _resample_key(shape: tuple[int, ...], dtype: str, size: tuple[int, int],
                  resample: int, box: tuple[float, float, float, float],
                  version: tuple[int, int]) -> tuple[Any, ...]:
    return ("pil.resample", shape, dtype, size, resample, tuple(map(float, box)), version)


def _cached_resample_plan(shape: tuple[int, ...], dtype: str, size: tuple[int, int],
                          resample: int, box: tuple[float, float, float, float],
                          version: tuple[int, int]) -> Plan | None:
    """:func:`_resample_plan` through the shared plan cache (``resamplex.plan_cache_info``)."""
    key = _resample_key(shape, dtype, size, resample, box, version)
    plan = PLANS.get(key)
    if plan is None:
        plan = _resample_plan(shape, dtype, size, resample, box, version)
        if plan is not None:
            PLANS.put(key, plan)
    return plan


def _nearest_plan(shape: tuple[int, ...], dtype: str, size: tuple[int, int],
                  box: tuple[float, float, float, float]) -> Plan:
    acc = dtype != "uint16"
    tables: list[AxisTable | None] = [None] * len(shape)
    tables[1] = AxisTable.gather(shape[1], nearest_indices(shape[1], box[0], box[2], size[0],
                                                           accumulate=acc))
    tables[0] = AxisTable.gather(shape[0], nearest_indices(shape[0], box[1], box[3], size[1],
                                                           accumulate=acc))
    return Plan(shape, tables, weighted=False, op="pil.resize")


def _division(n: int) -> int:
    """``division_UINT32(n, 8)``: ``(UINT32)((float)2^32 / (float)(256 * n))``."""
    return int(np.float32(np.float32(2.0**32) / np.float32(256 * n)))


def _reduce_plan(shape: tuple[int, ...], dtype: str, fx: int, fy: int,
                 box: tuple[int, int, int, int]) -> Plan:
    """``ImagingReduce``: ``fy x fx`` blocks of the box, partial at its right and bottom."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    ow, oh = -(-bw // fx), -(-bh // fy)

    def blocks(start: int, length: int, n_in: int, step: int, n_out: int) -> AxisTable:
        first = start + np.arange(n_out, dtype=np.int64) * step
        ptr, idx = consecutive_taps(first, np.minimum(first + step, start + length) - first)
        return AxisTable(n_in, n_out, ptr, idx, np.ones(ptr[-1]))

    tables: list[AxisTable | None] = [None] * len(shape)
    shifts = {(1, 2): 1, (2, 1): 1, (2, 2): 2, (4, 4): 4}
    if dtype == "uint8" and (fx, fy) in shifts and bw % fx == 0 and bh % fy == 0:
        # Whole blocks of 2 to 16 pixels finished by (sum + n/2) >> k: the exact block mean
        # rounded half up. Block means of 8-bit data are exact in the engine's float32
        # passes (weights 1/2, 1/4), so its fast passes with that rounding give these bits.
        tables[0] = block_mean_table(shape[0], oh, fy, y0)
        tables[1] = block_mean_table(shape[1], ow, fx, x0)
        return Plan(shape, tables, weighted=True, op="pil.reduce",
                    rounding="half_away_from_zero")
    tables[0] = blocks(y0, bh, shape[0], fy, oh)
    tables[1] = blocks(x0, bw, shape[1], fx, ow)
    groups = pair_groups(fy, fx)
    if dtype == "uint8":
        n = fx * fy
        counts = range(n + 1)
        pbias = tuple(c // 2 for c in counts)
        pmult = tuple(_division(c) if c else 0 for c in counts)
        if (fx, fy) in shifts:
            spec = BlockPass("uint8", (fy, fx), groups, acc="int64", finish="int",
                             bias=n // 2, mult=1, shift=shifts[(fx, fy)], partial_bias=pbias,
                             partial_mult=pmult, partial_shift=24)
        else:
            spec = BlockPass("uint8", (fy, fx), groups, acc="int64", finish="int",
                             bias=n // 2, mult=_division(n), shift=24, partial_bias=pbias,
                             partial_mult=pmult, partial_shift=24)
    else:
        spec = BlockPass(dtype, (fy, fx), groups, acc="float64", finish="float64",
                         scale=1.0 / (fx * fy), partial="reciprocal",
                         rounding="add_half_trunc")
    return Plan(shape, tables, weighted=True, order=[0, 1], keep_order=True, passes=[spec],
                op="pil.reduce")


# ------------------------------------------------------------------------------ operators

def _crop(a: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    return np.array(a[box[1]:box[3], box[0]:box[2]], copy=True)


def _safe_box(size: tuple[int, int], resample: int, box: tuple[float, ...],
              W: int, H: int) -> tuple[int, int, int, int]:
    """``Image._get_safe_box``: the box widened by the filter's support, in whole pixels."""
    support = FILTERS[resample][0] - 0.5
    sx = (box[2] - box[0]) / size[0]
    sy = (box[3] - box[1]) / size[1]
    return (max(0, int(box[0] - support * sx)), max(0, int(box[1] - support * sy)),
            min(W, math.ceil(box[2] + support * sx)), min(H, math.ceil(box[3] + support * sy)))


def _resize(a: np.ndarray, mode: str, size: tuple[int, int], resample: int,
            box_in: Any, reducing_gap: float | None, version: tuple[int, int],
            threads: int | None, raw: Any = None) -> np.ndarray:
    """``raw``: the call's arguments (``call_key``), remembered with the plan when ``a`` is
    the caller's array and one plan computes the whole call."""
    H, W = a.shape[:2]
    box_py = (0, 0, W, H) if box_in is None else tuple(box_in)
    if (W, H) == size and box_py == (0, 0, W, H):
        return a.copy()
    dtype, _, alpha = MODES[mode]
    if alpha and resample != NEAREST:
        gap = reducing_gap if version >= (13, 0) else None
        pre = _premultiply(a, threads)
        out = _resize(pre, {"LA": "La", "RGBA": "RGBa"}[mode], size, resample, box_in, gap,
                      version, threads)
        return _unpremultiply(out, threads)
    if reducing_gap is not None and resample != NEAREST:
        fx = int((box_py[2] - box_py[0]) / size[0] / reducing_gap) or 1
        fy = int((box_py[3] - box_py[1]) / size[1] / reducing_gap) or 1
        if fx > 1 or fy > 1:
            raw = None
            rbox = _safe_box(size, resample, box_py, W, H)
            a = _reduce(a, mode, (fx, fy), rbox, version, threads)
            box_py = ((box_py[0] - rbox[0]) / fx, (box_py[1] - rbox[1]) / fy,
                      (box_py[2] - rbox[0]) / fx, (box_py[3] - rbox[1]) / fy)
            H, W = a.shape[:2]
    box = _check_box(box_py, W, H)
    check_allocation(size[0] * size[1] * max(1, a.shape[2] if a.ndim == 3 else 1)
                     * a.dtype.itemsize, "size")
    if (box[0] == int(box[0]) and box[2] - box[0] == size[0] and box[1] == int(box[1])
            and box[3] - box[1] == size[1]):
        return _crop(a, (int(box[0]), int(box[1]), int(box[0]) + size[0],
                         int(box[1]) + size[1]))
    if resample == NEAREST:
        key: tuple[Any, ...] = ("pil.nearest", a.shape, dtype, size, box)
        plan = PLANS.get_or_build(key, lambda: _nearest_plan(a.shape, dtype, size, box))
        result = plan(a, threads=threads)
        _CALLS.remember(raw, key)
        return result
    if (version >= (12, 2) and version < (13, 0) and H > 100 * W and size[1] < H):
        # Pillow 12.2-12.3: very tall images go through two C calls, vertical then horizontal
        # (each with the other axis untouched).
        raw = None
        mid = _cached_resample_plan(a.shape, dtype, (W, size[1]), resample,
                                    (0, box[1], W, box[3]), version)
        a = a.copy() if mid is None else mid(a, threads=threads)
        box = (box[0], 0.0, box[2], float(size[1]))
        if (box[0] == int(box[0]) and box[2] - box[0] == size[0]):
            return _crop(a, (int(box[0]), 0, int(box[0]) + size[0], size[1]))
    last = _cached_resample_plan(a.shape, dtype, size, resample, box, version)
    if last is None:
        return a.copy()
    result = last(a, threads=threads)
    _CALLS.remember(raw, _resample_key(a.shape, dtype, size, resample, box, version))
    return result


def _reduce(a: np.ndarray, mode: str, factor: tuple[int, int], box: Any,
            version: tuple[int, int], threads: int | None) -> np.ndarray:
    H, W = a.shape[:2]
    if factor == (1, 1):
        if version < (13, 0):
            return a.copy()
        return _crop_box(a, box)
    dtype, _, alpha = MODES[mode]
    if dtype == "uint16":
        raise UnsupportedError("a: Pillow cannot reduce I;16 images (its 'image has wrong "
                               "mode' ValueError)")
    ibox = (0, 0, W, H) if box is None else _check_int_box(box, W, H)
    bw, bh = ibox[2] - ibox[0], ibox[3] - ibox[1]
    if bw <= 0 or bh <= 0:
        raise bad_value("box", box, "a box that is not empty")
    # A factor beyond the box's length gives one output along that axis, a partial block of
    # the whole length (Pillow's ImagingReduceCorners, which divides by the pixels it read):
    # every such factor computes the same, and the plan, whose tables grow with the block,
    # takes the length + 1 (a factor of 2**31 - 1 was 2**62 table entries)
    factor = (min(factor[0], bw + 1), min(factor[1], bh + 1))
    if alpha:
        pre = _premultiply(a, threads)
        return _unpremultiply(_reduce(pre, {"LA": "La", "RGBA": "RGBa"}[mode], factor, ibox,
                                      version, threads), threads)
    plan = PLANS.get_or_build(("pil.reduce", a.shape, dtype, factor, ibox),
                              lambda: _reduce_plan(a.shape, dtype, factor[0], factor[1], ibox))
    return plan(a, threads=threads)


def _check_int_box(box: Any, W: int, H: int) -> tuple[int, int, int, int]:
    b = _integers("box", box, 4, "a (x0, y0, x1, y1) tuple of integers")
    if b[0] < 0 or b[1] < 0 or b[2] > W or b[3] > H:
        raise bad_value("box", box, f"a box inside the {W} x {H} image")
    return b  # type: ignore[return-value]


def _check_factor(factor: tuple[Any, ...]) -> tuple[int, int]:
    fx, fy = _integers("factor", factor, 2, "an integer or a pair of integers")
    if fx < 1 or fy < 1:
        raise bad_value("factor", factor, "factors > 0")
    return fx, fy


def _crop_box(a: np.ndarray, box: Any) -> np.ndarray:
    """``Image.crop(box)``, which Pillow 13's ``reduce`` by 1 returns: the box's entries
    compared as given (right < left, lower < upper: ValueError), rounded by Python's
    ``round`` (half to even), pixels outside the image 0."""
    H, W = a.shape[:2]
    if box is None:
        return a.copy()
    what = "a (x0, y0, x1, y1) tuple of numbers"
    vals = _sequence("box", box, 4, what)
    try:
        if vals[2] < vals[0] or vals[3] < vals[1]:
            raise bad_value("box", box, "right >= left and lower >= upper")
        x0, y0, x1, y1 = (int(round(v)) for v in vals)
    except TypeError:
        raise bad_type("box", box, what) from None
    except ValueError:   # NaN
        raise bad_value("box", box, what) from None
    check_allocation((x1 - x0) * (y1 - y0) * (a.shape[2] if a.ndim == 3 else 1)
                     * a.dtype.itemsize, "box")
    out = np.zeros((y1 - y0, x1 - x0) + a.shape[2:], a.dtype)
    ys, xs = slice(max(y0, 0), min(y1, H)), slice(max(x0, 0), min(x1, W))
    if ys.start < ys.stop and xs.start < xs.stop:
        out[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0] = a[ys, xs]
    return out


def resize(a: Any, size: Any, resample: int | None = BICUBIC, box: Any = None,
           reducing_gap: float | None = None, *, mode: str | None = None,
           version: Any = None, threads: int | None = None) -> np.ndarray:
    """``Image.resize``, bit for bit with Pillow, on an array laid out as a Pillow mode.

    Parameters
    ----------
    a : numpy.ndarray
        The image as ``numpy.asarray(image)`` gives it (see the module docstring).
    size : (width, height)
    resample : int
        ``NEAREST``, ``BOX``, ``BILINEAR``, ``HAMMING``, ``BICUBIC`` (default; ``None`` too),
        ``LANCZOS``.
    box : (x0, y0, x1, y1), optional
        The source region (floats; read as float32), default the whole image.
    reducing_gap : float, optional
        Reduce by an integer factor first (``reduce``), as Pillow does; >= 1.0.
    mode : str, optional
        The Pillow mode of ``a`` when its layout does not say (see :data:`MODES`).
    version : int or (int, int), optional
        The Pillow whose rules to follow (default: the installed Pillow, else 13).
    threads : int, optional
        Thread count; results do not depend on it.

    Returns
    -------
    numpy.ndarray
        ``(height, width)`` plus the channel axis of ``a``, same dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import pil
    >>> s = np.array([[0, 64, 128, 255]], dtype=np.uint8)
    >>> pil.resize(s, (8, 1), pil.BICUBIC)
    array([[  0,  11,  45,  79, 108, 161, 232, 255]], dtype=uint8)
    >>> pil.resize(s, (8, 1), pil.LANCZOS)
    array([[  0,  10,  45,  77, 101, 165, 234, 255]], dtype=uint8)
    """
    raw = None
    if type(a) is np.ndarray and a.dtype.isnative:
        # Arguments seen before: their plan in one lookup (the plan checks the array again).
        raw = call_key(a.shape, a.dtype, size, resample, box, reducing_gap, mode, version,
                       pillow_version if version is None else None)
        plan = _CALLS.plan(raw)
        if plan is not None:
            return plan(a, threads=threads)
    given = a
    a, mode = _check_image(a, mode)
    resample = _check_filter(resample)
    v = _check_version(version)
    if threads is not None:
        check_threads(threads)
    gap = _check_gap(reducing_gap)
    H, W = a.shape[:2]
    pair = _sequence("size", size, None, "a (width, height) pair of integers")
    if _equal(pair, (W, H)) and (box is None or isinstance(box, tuple)
                                 and _equal(box, (0, 0, W, H))):
        return a.copy()   # Pillow's copy, before its C code reads size and resample
    size_t = _check_size(pair)
    f = _filter_index(resample)
    _check_box(box, W, H)
    if a.size == 0:
        # an empty image: nothing to read, and Pillow's result is zeros
        return np.zeros((size_t[1], size_t[0]) + a.shape[2:], a.dtype)
    return _resize(a, mode, size_t, f, box, gap, v, threads, raw if a is given else None)


def reduce(a: Any, factor: Any, box: Any = None, *, mode: str | None = None,
           version: Any = None, threads: int | None = None) -> np.ndarray:
    """``Image.reduce``: average ``factor`` x ``factor`` blocks (``(fx, fy)`` for separate
    factors) of ``box`` (integers, default the whole image); sizes round up, the last row and
    column average what they have.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import pil
    >>> s = np.array([[1, 2, 3, 4, 5], [2, 2, 4, 4, 6], [7, 8, 9, 10, 11]], dtype=np.uint8)
    >>> pil.reduce(s, 2)
    array([[ 2,  4,  6],
           [ 8, 10, 11]], dtype=uint8)
    """
    a, mode = _check_image(a, mode)
    v = _check_version(version)
    if threads is not None:
        check_threads(threads)
    pair = tuple(factor) if isinstance(factor, (list, tuple)) else (factor, factor)
    # Pillow compares before its C code reads the factor: (1.0, True) is a reduce by 1 too
    fac = (1, 1) if _equal(pair, (1, 1)) else _check_factor(pair)
    return _reduce(a, mode, fac, box, v, threads)


def _equal(value: tuple[Any, ...], target: tuple[int, ...]) -> bool:
    """``value == target`` as Pillow's Python code compares them (False where entries do
    not compare to a truth value, arrays among them: the checks after refuse them)."""
    try:
        return bool(value == target)
    except (TypeError, ValueError):
        return False


_CALLS = CallMemo()  # raw arguments of resize seen before -> plan key
