"""PyTorch ``torch.nn.functional.interpolate`` on NumPy arrays and CPU tensors, value for value
(SPEC §6).

``interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor,
antialias)`` takes an ``(N, C, *spatial)`` array with 1–3 spatial axes and follows torch's
front end (``torch/nn/functional.py``) and CPU kernels (``aten/src/ATen/native/UpSample.h``,
``cpu/UpSampleKernel.cpp``, ``cpu/UpSampleKernelAVXAntialias.h``, ``AdaptivePooling.h``) rule
for rule; see ``research/ascend_torch.md`` §5. Every mode is an axis-table builder below and a
shared :class:`~resamplex._resize.Plan`:

- **Scales.** With ``scale_factor`` (and ``recompute_scale_factor`` not true) the output length
  is ``int64(in * s)`` and the kernel's ratio is ``T(1.0 / s)``; otherwise (``size``, or
  recompute, or ``area``) it is ``T(in) / out``. ``T`` is torch's *opmath* type: float64 for
  float64 data, float32 for everything else (float16, bfloat16 and uint8 included).
- **nearest / nearest-exact**: gathers, bit-exact with torch's CPU kernels, including the
  choice between its two kernels (:func:`nearest_indices`).
- **linear / bilinear / trilinear / bicubic** (float dtypes): torch's per-axis indices and
  weights, computed in ``T`` and stored as torch stores them (rounded to float16/bfloat16 for
  half-precision data); the engine applies them separably with float32 intermediates (float64
  for float64), where torch evaluates the 2-D/3-D sum nested. Within SPEC §3's tolerance.
- **uint8 bilinear / bicubic** (antialias on and off): torch's fixed-point path bit for bit:
  float64 weights quantised to int16 with torch's precision choice, out-of-range taps folded
  onto the border, a width pass then a height pass, each rounding to uint8
  (:func:`fixed_table`, engine ``_engine/kernels/_fixed.pyx``).
- **antialias** (float32/float64): the PIL-style support/centre rule of torch's separable
  kernel (:func:`antialias_taps`), width pass then height pass.
- **area**: ``adaptive_avg_pool{1,2,3}d`` windows in integer arithmetic (:func:`area_table`).

Where torch's CPU results depend on the machine (FMA contraction on AVX2/AVX512 builds) the
tables follow the portable ``ATEN_CPU_CAPABILITY=default`` arithmetic; the README section
"PyTorch interpolate" lists every remaining difference.
"""

from __future__ import annotations

import math
import numbers
import sys
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence, overload

import numpy as np

from .. import _dtypes
from .._errors import ResamplexError, UnsupportedError, bad_type
from .._checks import as_array as _as_array, check_allocation, check_out_early
from .._checks import check_threads as _check_threads
from .._engine._exec import call_key
from .._engine.cache import PLANS, CallMemo
from .._engine.plan import Plan
from .._tables import AxisTable

__all__ = [
    "DTYPES",
    "MODES",
    "TorchNotImplementedError",
    "TorchOverflowError",
    "TorchRuntimeError",
    "antialias_taps",
    "area_table",
    "cubic_table",
    "fixed_table",
    "interpolate",
    "linear_table",
    "nearest_indices",
]

MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")

#: Input ranks (3 = ``(N, C, L)``, 4 = ``(N, C, H, W)``, 5 = ``(N, C, D, H, W)``) per mode.
RANKS: Mapping[str, tuple[int, ...]] = MappingProxyType({
    "nearest": (3, 4, 5), "nearest-exact": (3, 4, 5), "area": (3, 4, 5),
    "linear": (3,), "bilinear": (4,), "bicubic": (4,), "trilinear": (5,)})

_FLOATS = ("float16", "bfloat16", "float32", "float64")

#: Data types (registry names) of torch's CPU kernels per mode (research §5.9); the single
#: source for validation, messages and the tests. ``antialias=True`` takes ``DTYPES_AA``.
DTYPES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "nearest": ("uint8", *_FLOATS), "nearest-exact": ("uint8", *_FLOATS),
    "linear": _FLOATS, "bilinear": ("uint8", *_FLOATS), "bicubic": ("uint8", *_FLOATS),
    "trilinear": _FLOATS, "area": _FLOATS})
DTYPES_AA = ("uint8", "float32", "float64")

_TORCH_DTYPE = {"uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
                "int64": "Long", "bool": "Bool", "float16": "Half", "bfloat16": "BFloat16",
                "float32": "Float", "float64": "Double", "complex64": "ComplexFloat",
                "complex128": "ComplexDouble"}
_AXIS_NAMES = {1: ("W",), 2: ("H", "W"), 3: ("D", "H", "W")}
_MODE_LIST = "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact"

F32, F64 = np.float32, np.float64

# ------------------------------------------------------------------------------ scale helpers


def scale_value(n_in: int, n_out: int, scale: float | None, T: type) -> np.floating:
    """``compute_scales_value<T>``: ``T(1.0 / scale)`` (reciprocal in float64) when a scale
    reaches the kernel, else ``T(n_in) / T(n_out)`` (a division in ``T``)."""
    if scale is not None and scale > 0:
        return T(1.0 / scale)
    return T(n_in) / T(n_out)


def area_pixel_scale(n_in: int, n_out: int, align_corners: bool, scale: float | None,
                     T: type) -> np.floating:
    """``area_pixel_compute_scale<T>``: with ``align_corners`` ``T(n_in - 1) / T(n_out - 1)``
    (0 when ``n_out == 1``; the user's scale is ignored), else :func:`scale_value`."""
    if align_corners:
        return T(n_in - 1) / T(n_out - 1) if n_out > 1 else T(0)
    return scale_value(n_in, n_out, scale, T)


def _floorf_index(real: np.ndarray, n_in: int) -> np.ndarray:
    """``min(int64(floorf(real)), n_in - 1)``: ``floorf`` takes a float, so a float64
    coordinate is rounded to float32 first (torch does this for float64 data too)."""
    t = np.floor(real.astype(F32)).astype(F64)
    return np.minimum(t, n_in - 1).astype(np.int64)


def _source_index(r: np.floating, n_out: int, align_corners: bool, cubic: bool,
                  T: type) -> np.ndarray:
    """``area_pixel_compute_source_index<T>`` of every output index, in ``T``:
    ``r * o`` (align_corners) or ``r * (o + 0.5) - 0.5``, negative values clamped to 0 unless
    ``cubic``. One rounding per operation, no fused multiply-add (torch's DEFAULT build)."""
    o: np.ndarray = np.arange(n_out, dtype=np.int64).astype(T)
    if align_corners:
        return r * o
    real = r * (o + T(0.5)) - T(0.5)
    if not cubic:
        real = np.where(real < 0, T(0), real)
    return real


# ------------------------------------------------------------------------------ table builders


def nearest_indices(n_in: int, n_out: int, scale: float | None, *, exact: bool,
                    opmath: type = F32, channels_last_kernel: bool = False) -> np.ndarray:
    """Source index of every output index for ``nearest`` / ``nearest-exact``.

    torch has two CPU kernels (``UpSampleKernel.cpp``):

    - the generic TensorIterator kernel (``HelperInterpNearest[Exact]``), arithmetic in the
      opmath type ``T`` with ``r = compute_scales_value<T>``:
      ``nearest``: ``floorf(T(o) * r)``;
      ``nearest-exact``: ``floorf(max(r * (o + 0.5) - 0.5, 0) + 0.5)`` (the ``+ 0.5`` in
      float64, then ``floorf`` rounds to float32). For float32 this equals
      ``floor(fl32(fl32(o + 0.5) * r))``. ``T`` is float64 for float64 data.
    - the channels-last kernel (``cpu_upsample_nearest_channels_last``, chosen by
      :func:`uses_channels_last_kernel`), always float32 ``r``: ``nearest`` =
      ``nearest_idx`` with its shortcuts ``out == in -> o`` and ``out == 2 in -> o >> 1``, else
      ``floorf(fl32(o) * r)``; ``nearest-exact`` = ``floorf((o + 0.5) * r)`` (product in
      float64, exact, then rounded to float32).

    Every index is then clamped to ``n_in - 1``. Computed with NumPy scalars/arrays of the
    stated types, one rounding per operation, no fused multiply-add.

    Examples
    --------
    >>> from resamplex.compat.torch import nearest_indices
    >>> nearest_indices(4, 8, None, exact=False)          # floor(o * 0.5)
    array([0, 0, 1, 1, 2, 2, 3, 3])
    >>> nearest_indices(10, 3, None, exact=True)          # floor((o + 0.5) * 10/3)
    array([1, 5, 8])
    """
    o = np.arange(n_out, dtype=np.int64)
    if channels_last_kernel:
        if not exact and n_out == n_in:
            return o
        if not exact and n_out == 2 * n_in:
            return o >> 1
        r = scale_value(n_in, n_out, scale, F32)
        if exact:
            t = ((o + 0.5) * F64(r)).astype(F32)
        else:
            t = o.astype(F32) * r
    else:
        T = opmath
        r = scale_value(n_in, n_out, scale, T)
        if exact:
            real = r * (o.astype(T) + T(0.5)) - T(0.5)
            real = np.where(real < 0, T(0), real)
            t = (real.astype(F64) + 0.5).astype(F32)
        else:
            t = (o.astype(T) * r).astype(F32)
    return np.minimum(np.floor(t).astype(F64), n_in - 1).astype(np.int64)


def linear_table(n_in: int, n_out: int, scale: float | None, align_corners: bool,
                 opmath: type = F32, storage: Any = F32) -> AxisTable | None:
    """One axis of ``linear``/``bilinear``/``trilinear`` (``compute_source_index_and_lambda``).

    ``None`` (a copy) when ``n_out == n_in``, whatever the scale. Otherwise, in ``opmath``:
    ``x = r * (o + 0.5) - 0.5`` clamped at 0 (or ``r * o`` with ``align_corners``),
    ``i0 = min(floorf(x), n_in - 1)``, ``i1 = i0 + (i0 < n_in - 1)``,
    ``l1 = clamp(x - i0, 0, 1)`` stored in the data type (``storage``; rounded for
    float16/bfloat16), ``l0 = storage(1 - l1)``. The weights are kept exactly (float64).
    Taps are not merged: where ``i0 == i1`` the sample is read twice, as torch does.

    Examples
    --------
    >>> from resamplex.compat.torch import linear_table
    >>> t = linear_table(2, 4, None, align_corners=False)
    >>> t.ptr, t.idx, t.w                                 # output o: taps ptr[o]:ptr[o+1]
    (array([0, 1, 3, 5, 7]), array([0, 0, 1, 0, 1, 1, 1]),
     array([1.  , 0.75, 0.25, 0.25, 0.75, 0.75, 0.25]))
    >>> linear_table(4, 4, None, align_corners=False) is None   # same length: a copy
    True
    """
    if n_out == n_in:
        return None
    T = opmath
    r = area_pixel_scale(n_in, n_out, align_corners, scale, T)
    real = _source_index(r, n_out, align_corners, False, T)
    i0 = _floorf_index(real, n_in)
    lam1 = np.clip(real - i0.astype(T), T(0), T(1)).astype(storage)
    lam0 = (F32(1) - lam1.astype(F32)).astype(storage) if storage not in (F32, F64) \
        else storage(1) - lam1
    i1 = i0 + (i0 < n_in - 1)
    idx = np.stack([i0, i1], axis=1)
    w = np.stack([lam0.astype(F64), lam1.astype(F64)], axis=1)
    return AxisTable.from_taps(n_in, idx, w, merge=False)


def _cubic1(x: np.ndarray, A: np.floating) -> np.ndarray:
    """``cubic_convolution1``: ``((A + 2) x - (A + 3)) x x + 1`` in the type of ``x``."""
    return ((A + 2) * x - (A + 3)) * x * x + 1


def _cubic2(x: np.ndarray, A: np.floating) -> np.ndarray:
    """``cubic_convolution2``: ``((A x - 5 A) x + 8 A) x - 4 A`` in the type of ``x``."""
    return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A


def cubic_table(n_in: int, n_out: int, scale: float | None, align_corners: bool,
                opmath: type = F32, storage: Any = F32) -> AxisTable:
    """One axis of float ``bicubic`` (``HelperInterpCubic::compute_indices_weights``).

    In ``opmath``: ``x = r * (o + 0.5) - 0.5`` **not** clamped (or ``r * o``),
    ``i0 = min(floorf(x), n_in - 1)``, ``t = clamp(x - i0, 0, 1)``; taps
    ``clamp(i0 - 1 + k, 0, n_in - 1)``, ``k = 0..3``, with the Keys weights (``A = -0.75``)
    ``[c2(t + 1), c1(t), c1(1 - t), c2((1 - t) + 1)]`` (``get_cubic_upsample_coefficients``,
    the ``+ 1`` and ``1 -`` in float64 then rounded to ``opmath``), stored in the data type.
    No shortcut for ``n_out == n_in`` (an explicit scale is honoured); without a scale that
    table is the identity.

    Examples
    --------
    >>> from resamplex.compat.torch import cubic_table
    >>> t = cubic_table(4, 2, None, align_corners=False)
    >>> t.idx.reshape(2, 4), t.w.reshape(2, 4)
    (array([[0, 0, 1, 2],
           [1, 2, 3, 3]]), array([[-0.09375,  0.59375,  0.59375, -0.09375],
           [-0.09375,  0.59375,  0.59375, -0.09375]]))
    """
    T = opmath
    r = area_pixel_scale(n_in, n_out, align_corners, scale, T)
    real = _source_index(r, n_out, align_corners, True, T)
    i0 = _floorf_index(real, n_in)
    t = np.clip(real - i0.astype(T), T(0), T(1))
    A = T(-0.75)
    t64 = t.astype(F64)
    x2 = (1.0 - t64).astype(T)
    w = np.stack([_cubic2((t64 + 1.0).astype(T), A), _cubic1(t, A), _cubic1(x2, A),
                  _cubic2((x2.astype(F64) + 1.0).astype(T), A)], axis=1)
    idx = np.clip(i0[:, None] + np.arange(-1, 3), 0, n_in - 1)
    return AxisTable.from_taps(n_in, idx, w.astype(storage).astype(F64), merge=False)


def area_table(n_in: int, n_out: int) -> AxisTable:
    """One axis of ``area`` (``adaptive_avg_pool``): output ``o`` averages the input window
    ``[start, end)``, ``start = (o / out) * in + ((o % out) * in) / out`` and
    ``end = 1 + ((o + 1) * in - 1) / out`` in integer arithmetic (``AdaptivePooling.h``), i.e.
    ``floor(o * in / out)`` and ``ceil((o + 1) * in / out)``; each tap weighs
    ``1 / (end - start)``.

    Examples
    --------
    >>> from resamplex.compat.torch import area_table
    >>> t = area_table(5, 2)                              # windows [0, 3) and [2, 5)
    >>> t.idx, t.w.round(4)
    (array([0, 1, 2, 2, 3, 4]), array([0.3333, 0.3333, 0.3333, 0.3333, 0.3333, 0.3333]))
    """
    if n_out == 0:
        empty = np.zeros(0, dtype=np.int64)
        return AxisTable(n_in, 0, np.zeros(1, dtype=np.int64), empty, empty.astype(F64))
    o = np.arange(n_out, dtype=np.int64)
    start = (o // n_out) * n_in + ((o % n_out) * n_in) // n_out
    end = 1 + ((o + 1) * n_in - 1) // n_out
    count = end - start
    k = np.arange(int(count.max()), dtype=np.int64)
    valid = k < count[:, None]
    idx = np.where(valid, start[:, None] + k, 0)
    w = np.where(valid, 1.0 / count[:, None], 0.0)
    return AxisTable.from_taps(n_in, idx, w, merge=False)


def _triangle(x: np.ndarray) -> np.ndarray:
    """``HelperInterpLinear::aa_filter``: ``1 - |x|`` for ``|x| < 1``, else 0 (type of ``x``)."""
    x = np.abs(x)
    return np.where(x < 1, 1 - x, 0).astype(x.dtype)


def _keys(a: float) -> Callable[[np.ndarray], np.ndarray]:
    """``HelperInterpCubic::aa_filter`` with coefficient ``a``, in the type of ``x``."""
    def kernel(x: np.ndarray) -> np.ndarray:
        A = x.dtype.type(a)
        x = np.abs(x)
        return np.where(x < 1, _cubic1(x, A),
                        np.where(x < 2, _cubic2(x, A), 0)).astype(x.dtype)
    return kernel


def antialias_taps(n_in: int, n_out: int, scale: np.floating, interp: int,
                   kernel: Callable[[np.ndarray], np.ndarray],
                   T: type) -> tuple[np.ndarray, np.ndarray, float]:
    """torch's antialiased taps (``_compute_indices_min_size_weights_aa``, Pillow's rule).

    ``scale`` is ``area_pixel_compute_scale<T>`` (input per output). In ``T`` unless noted:
    ``support = (interp / 2) * scale`` if ``scale >= 1`` else ``interp / 2``;
    ``K = ceil(support) * 2 + 1``; ``center = scale * (o + 0.5)``;
    ``invscale = 1 / scale`` if ``scale >= 1`` else 1;
    ``xmin = max(int64(center - support + 0.5), 0)``,
    ``xsize = clamp(min(int64(center + support + 0.5), n_in) - xmin, 0, K)`` (``int64`` truncates,
    the ``+ 0.5`` in float64); ``w_j = kernel((j + xmin - center + 0.5) * invscale)`` for
    ``j < xsize``, divided by their sum (added left to right) when it is not 0. Taps outside
    the input are never read (Pillow's "exclude outside" normalisation).

    Returns ``xmin`` (int64, ``(n_out,)``), the weights ``(n_out, K)`` in ``T`` (0 past
    ``xsize``) and ``wt_max``, the largest normalised weight (0 if none was normalised).

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat.torch import _triangle, antialias_taps
    >>> xmin, w, wt_max = antialias_taps(6, 3, np.float32(2.0), 2, _triangle, np.float32)
    >>> xmin
    array([0, 1, 3])
    >>> w[1]                                              # triangle of half-width 2
    array([0.125, 0.375, 0.375, 0.125, 0.   ], dtype=float32)
    """
    s = F64(scale)
    if scale >= 1.0:
        support, invscale = T(interp * 0.5 * s), T(1.0 / s)
    else:
        support, invscale = T(interp * 0.5), T(1.0)
    k = int(math.ceil(support)) * 2 + 1
    center = (s * (np.arange(n_out, dtype=F64) + 0.5)).astype(T)
    xmin = np.maximum(np.trunc((center - support).astype(F64) + 0.5), 0).astype(np.int64)
    xsize = np.minimum(np.trunc((center + support).astype(F64) + 0.5), n_in).astype(np.int64)
    xsize = np.clip(xsize - xmin, 0, k)
    j = np.arange(k, dtype=np.int64)
    dist = ((xmin[:, None] + j).astype(T) - center[:, None]).astype(F64) + 0.5
    w = kernel((dist * F64(invscale)).astype(T))
    w = np.where(j < xsize[:, None], w, T(0))
    total = np.add.accumulate(w, axis=1)[:, -1]
    norm = total != 0
    w = np.where(norm[:, None], w / np.where(norm, total, T(1))[:, None], w)
    wt_max = float(np.max(np.where(norm[:, None], w, T(0)), initial=0.0))
    return xmin, w, wt_max


def _fold_taps(n_in: int, n_out: int, scale: float, interp: int,
               kernel: Callable[[np.ndarray], np.ndarray],
               align_corners: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """uint8 without antialias: ``_compute_indices_min_size_weights<double>``.

    ``x = area_pixel_compute_source_index<double>`` (clamped at 0 for bilinear only),
    ``i = min(floorf(x), n_in - 1)``, ``l = clamp(x - i, 0, 1)``; ``support = interp / 2``,
    ``umin = i - support + 1``, ``xmin = max(umin, 0)``,
    ``xsize = clamp(min(i + support + 1, n_in) - xmin, 0, interp)``. Tap ``j`` has weight
    ``kernel((j + 1 - support) - l)`` and is added into slot ``k``, where ``k`` restarts at 0
    while ``umin + j <= 0``, jumps to ``xsize - 1`` once ``umin + j >= n_in - 1`` and otherwise
    counts up: out-of-range taps fold onto the border pixels (pytorch/pytorch#118389).
    ``wt_max`` is the largest value any slot reaches while accumulating, as torch tracks it.
    """
    real = _source_index(F64(scale), n_out, align_corners, interp > 2, F64)
    i0 = _floorf_index(real, n_in)
    lam = np.clip(real - i0, 0.0, 1.0)
    support = interp // 2
    umin = i0 - support + 1
    xmin = np.maximum(umin, 0)
    xsize = np.clip(np.minimum(i0 + support + 1, n_in) - xmin, 0, interp)
    w = np.zeros((n_out, interp), dtype=F64)
    rows = np.arange(n_out)
    slot = np.zeros(n_out, dtype=np.int64)
    wt_max = 0.0
    for j in range(interp):  # the taps of one output (K <= 4), vectorised over outputs
        wj = kernel(F64(j + 1 - support) - lam)
        u = umin + j
        slot = np.where(u <= 0, 0, np.where(u >= n_in - 1, xsize - 1, slot))
        w[rows, slot] += wj
        wt_max = max(wt_max, float(np.max(w[rows, slot], initial=0.0)))
        slot = slot + 1
    return xmin, w, wt_max


def fixed_table(n_in: int, n_out: int, scale: float | None, align_corners: bool, *,
                cubic: bool, antialias: bool) -> AxisTable:
    """One axis of torch's uint8 ``bilinear``/``bicubic`` fixed-point path.

    Weights in float64 (``r = area_pixel_compute_scale<double>``, i.e. ``1.0 / s`` unrounded,
    or ``in / out``): :func:`antialias_taps` with ``antialias`` (bicubic ``a = -0.5``), else
    :func:`_fold_taps` (bicubic ``a = -0.75``). Precision ``p``: the first value in 0..21 with
    ``int(0.5 + wt_max * 2^(p+1)) >= 2^15``, else 22. Each weight becomes the int16
    ``trunc(w * 2^p ± 0.5)`` (half away from zero). The engine then computes
    ``clamp((2^(p-1) + sum w16 * x) >> p, 0, 255)`` in int32
    (``_compute_index_ranges_int16_weights``, ``basic_loop_aa_horizontal/vertical<uint8_t>``).

    Examples
    --------
    >>> from resamplex.compat.torch import fixed_table
    >>> t = fixed_table(4, 2, None, align_corners=False, cubic=False, antialias=True)
    >>> t.shift, t.w                                      # int16 weights, sum ~ 2**16
    (16, array([28087., 28087.,  9362.,  9362., 28087., 28087.]))
    """
    interp = 4 if cubic else 2
    r = area_pixel_scale(n_in, n_out, align_corners, scale, F64)
    if antialias:
        kernel = _keys(-0.5) if cubic else _triangle
        xmin, w, wt_max = antialias_taps(n_in, n_out, r, interp, kernel, F64)
    else:
        kernel = _keys(-0.75) if cubic else _triangle
        xmin, w, wt_max = _fold_taps(n_in, n_out, float(r), interp, kernel, align_corners)
    p = 0
    while p < 22 and int(0.5 + wt_max * (1 << (p + 1))) < (1 << 15):
        p += 1
    v = w * float(1 << p)
    w16 = np.where(v < 0, np.trunc(v - 0.5), np.trunc(v + 0.5))
    idx = np.minimum(xmin[:, None] + np.arange(w.shape[1]), n_in - 1)
    taps = AxisTable.from_taps(n_in, idx, w16, merge=False)
    return AxisTable(n_in, n_out, taps.ptr, taps.idx, taps.w, shift=p)


def antialias_table(n_in: int, n_out: int, scale: float | None, align_corners: bool, *,
                    cubic: bool, opmath: type) -> AxisTable:
    """One axis of float ``bilinear``/``bicubic`` with ``antialias=True``: the weights of
    :func:`antialias_taps` in the data type (``compute_index_ranges_weights<scalar_t>``;
    bicubic ``a = -0.5``), kept exactly."""
    r = area_pixel_scale(n_in, n_out, align_corners, scale, opmath)
    kernel = _keys(-0.5) if cubic else _triangle
    xmin, w, _ = antialias_taps(n_in, n_out, r, 4 if cubic else 2, kernel, opmath)
    idx = np.minimum(xmin[:, None] + np.arange(w.shape[1]), n_in - 1)
    return AxisTable.from_taps(n_in, idx, w.astype(F64), merge=False)


# ------------------------------------------------------------------------------ dispatch


def uses_channels_last_kernel(x: np.ndarray, out_sizes: Sequence[int]) -> bool:
    """Whether torch's CPU nearest modes take ``cpu_upsample_nearest_channels_last`` (and float
    ``bilinear``/``trilinear`` ``cpu_upsample_linear_channels_last``) for ``x``
    (``_use_vectorized_kernel_cond_2d/3d``): 4-D input that is channels-last contiguous with
    ``C > 3``, or whose ``out_H + out_W <= 128``; 5-D input that is channels-last contiguous
    with ``C > 3``; never 3-D. Channels-last contiguity is read from the strides, as
    ``torch.from_numpy(x).is_contiguous(memory_format=torch.channels_last)`` would."""
    if x.ndim == 3:
        return False
    perm = (0, *range(2, x.ndim), 1)
    channels_last = x.shape[1] > 3 and x.transpose(perm).flags.c_contiguous
    if x.ndim == 4:
        return channels_last or out_sizes[0] + out_sizes[1] <= 128
    return channels_last


def output_is_channels_last(x: np.ndarray) -> bool:
    """Whether torch gives a 4-D ``x`` a channels-last output (``suggest_memory_format``:
    c10's ``is_channels_last_strides_2d``, strides in elements, NCHW wherever it is
    ambiguous)."""
    if x.ndim != 4:
        return False
    strides = [s // x.itemsize for s in x.strides]
    if strides[1] == 0:
        return False
    least = 0
    for d in (1, 3, 2, 0):
        if x.shape[d] == 0 or strides[d] < least:
            return False
        if d == 0 and least == strides[1]:
            return False
        least = strides[d] * (x.shape[d] if x.shape[d] > 1 else 1)
    return True


def repeats_first_row(x: np.ndarray, mode: str, dtype: str, sizes: Sequence[int],
                      antialias: bool) -> bool:
    """Whether torch's separable kernel gives every output row of a plane the value of its
    row 0: an output width of 1, a height that changes, and torch's generic separable kernel
    (float ``antialias``; uint8 ``bilinear``/``bicubic`` with more than 4 channels, where its
    AVX2 kernel for 1-4 channels does not run) writing an NCHW output (channels-last with more
    than one channel does not). There, torch's height pass (``basic_loop_aa_vertical``) reads
    the first taps of its inner loop for every element of it, a loop that runs down the
    height once the width of 1 is dropped, so every row gets row 0's taps (for outputs under
    torch's grain of 32768 elements or one torch thread; with more, each thread's chunk
    starts again from its own first row)."""
    if x.ndim != 4 or mode not in ("bilinear", "bicubic") or sizes[1] != 1 \
            or sizes[0] == x.shape[2]:
        return False
    if not (x.shape[1] > 4 if dtype == "uint8" else antialias):
        return False
    return not (x.shape[1] > 1 and output_is_channels_last(x))


def _first_row_everywhere(t: AxisTable) -> AxisTable:
    """``t`` with every output row given row 0's taps (:func:`repeats_first_row`)."""
    k = int(t.ptr[1] - t.ptr[0])
    ptr = np.arange(t.n_out + 1, dtype=np.int64) * k
    return AxisTable(t.n_in, t.n_out, ptr, np.tile(t.idx[:k], t.n_out),
                     np.tile(t.w[:k], t.n_out), shift=t.shift)


def _plan(in_shape: tuple[int, ...], dtype: str, mode: str, sizes: tuple[int, ...],
          scales: tuple[float | None, ...], align_corners: bool, antialias: bool,
          channels_last_kernel: bool, first_row: bool = False) -> Plan:
    """The plan of validated arguments, from the shared plan cache."""
    args = (in_shape, dtype, mode, sizes, scales, align_corners, antialias, channels_last_kernel,
            first_row)
    return PLANS.get_or_build(("torch",) + args, lambda: _build_plan(*args))


def _build_plan(in_shape: tuple[int, ...], dtype: str, mode: str, sizes: tuple[int, ...],
                scales: tuple[float | None, ...], align_corners: bool, antialias: bool,
                channels_last_kernel: bool, first_row: bool = False) -> Plan:
    ndim = len(in_shape)
    tables: list[AxisTable | None] = [None] * ndim
    axes = range(2, ndim)
    opmath = F64 if dtype == "float64" else F32
    op = f"torch.interpolate(mode={mode!r})"
    if mode in ("nearest", "nearest-exact"):
        for a, n_out, s in zip(axes, sizes, scales):
            tables[a] = AxisTable.gather(in_shape[a], nearest_indices(
                in_shape[a], n_out, s, exact=mode == "nearest-exact", opmath=opmath,
                channels_last_kernel=channels_last_kernel))
        return Plan(in_shape, tables, weighted=False, op=op)
    if mode == "area":
        for a, n_out in zip(axes, sizes):
            tables[a] = area_table(in_shape[a], n_out)
        return Plan(in_shape, tables, weighted=True, op=op)
    cubic = mode == "bicubic"
    # Separable kernels (uint8, antialias): only lengths that change, width pass first.
    separable_order = list(range(ndim - 1, 1, -1))
    if dtype == "uint8" or antialias:
        for a, n_out, s in zip(axes, sizes, scales):
            if n_out == in_shape[a]:
                continue
            if dtype == "uint8":
                t = fixed_table(in_shape[a], n_out, s, align_corners, cubic=cubic,
                                antialias=antialias)
            else:
                t = antialias_table(in_shape[a], n_out, s, align_corners, cubic=cubic,
                                    opmath=opmath)
            tables[a] = _first_row_everywhere(t) if first_row and a == ndim - 2 else t
        return Plan(in_shape, tables, weighted=True, op=op, order=separable_order,
                    fixed=dtype == "uint8")
    storage = _dtypes.as_dtype(dtype).type
    if channels_last_kernel:
        # cpu_upsample_linear_channels_last keeps the lambdas in opmath (no float16/bfloat16
        # rounding of the weights).
        storage = opmath
    build = cubic_table if cubic else linear_table
    for a, n_out, s in zip(axes, sizes, scales):
        tables[a] = build(in_shape[a], n_out, s, align_corners, opmath, storage)
    return Plan(in_shape, tables, weighted=True, op=op)


# ------------------------------------------------------------------------------ validation
#
# torch's errors, by type: ValueError for the argument rules of ``interpolate`` itself,
# TypeError where its C bindings refuse an argument's type (sizes that are not ints, scales
# that are not numbers, an ``align_corners`` that is not a bool), RuntimeError for the
# kernels' size checks, NotImplementedError for a mode, rank or dtype without a kernel. Each
# door class below is also a ResamplexError.


class TorchRuntimeError(ResamplexError, RuntimeError):
    """What torch's kernels refuse with ``RuntimeError`` (output sizes <= 0, an empty
    tensor, a size that overflows int64); also a ``ResamplexError``."""


class TorchNotImplementedError(UnsupportedError, NotImplementedError):
    """A mode, rank or dtype torch has no CPU kernel for (torch: ``NotImplementedError``);
    also an ``UnsupportedError``."""


class TorchOverflowError(ResamplexError, OverflowError):
    """An infinite ``scale_factor`` where torch computes the size in Python (``area``,
    ``recompute_scale_factor``: ``int(inf)``); also a ``ResamplexError``."""


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def _is_real(v: Any) -> bool:
    """A number torch's bindings take as a float (bools too)."""
    return isinstance(v, (numbers.Real, np.bool_))


def _truth(name: str, value: Any) -> bool:
    """``value`` as torch reads ``antialias`` and ``recompute_scale_factor``: its truth value
    (an array of several elements has none: ValueError, as in torch)."""
    try:
        return bool(value)
    except ValueError as exc:
        raise ResamplexError(f"{name}: expected a truth value; got {type(value).__name__} "
                             f"({exc})") from None
    except TypeError as exc:
        raise bad_type(name, type(value).__name__, f"a truth value ({exc})") from None


def _align_corners(value: Any) -> bool:
    """torch's binding takes a Python bool only (0, 1 and NumPy bools are TypeErrors)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise bad_type("align_corners", value, "True, False or None")
    return value


def _sequence(value: Any) -> tuple[Any, ...] | None:
    """The entries of a list, tuple or 1-d array, or None for anything else."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return tuple(value.tolist())
    return None


def _output_sizes(x: np.ndarray, size: Any, scale_factor: Any, mode: str,
                  recompute: bool | None) -> tuple[tuple[int, ...], tuple[float | None, ...]]:
    """torch's front end: the output lengths and the scales that reach the kernel."""
    dim = x.ndim - 2
    spatial = list(x.shape[2:])
    if size is not None and scale_factor is not None:
        raise ResamplexError("size, scale_factor: only one of size or scale_factor should be "
                             "defined")
    if size is None and scale_factor is None:
        raise ResamplexError("size, scale_factor: either size or scale_factor should be "
                             "defined")
    if size is not None:
        seq = _sequence(size)
        if seq is not None and len(seq) != dim:
            raise ResamplexError(
                "size: Input and output must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {spatial} and output size of {size!r}. "
                "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size "
                "in (o1, o2, ...,oK) format.")
        seq = (size,) * dim if seq is None else seq
        if not all(_is_int(v) for v in seq):
            raise bad_type("size", size, f"an int or a sequence of {dim} ints (torch: expected "
                           "size to be one of int or Tuple[int] or Tuple[int, int] or "
                           "Tuple[int, int, int])")
        if recompute:
            raise ResamplexError("recompute_scale_factor: recompute_scale_factor is not "
                                 "meaningful with an explicit size.")
        return tuple(int(v) for v in seq), (None,) * dim
    seq = _sequence(scale_factor)
    if seq is not None and len(seq) != dim:
        raise ResamplexError(
            "scale_factor: Input and scale_factor must have the same number of spatial "
            f"dimensions, but got input with spatial dimensions of {spatial} and scale_factor "
            f"of shape {scale_factor!r}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
            "format and scale_factor in (s1, s2, ...,sK) format.")
    seq = (scale_factor,) * dim if seq is None else seq
    if not all(_is_real(v) for v in seq):
        raise bad_type("scale_factor", scale_factor, f"a number or a sequence of {dim} numbers")
    if mode == "area" or recompute:
        # Python: output_size = int(in * s) (a NumPy float32 scale multiplies in float32, as
        # in torch's front end); the scales are dropped.
        sizes = []
        for n_in, s in zip(x.shape[2:], seq):
            prod = n_in * s
            if math.isnan(float(prod)):
                raise ResamplexError(f"scale_factor: cannot convert float {prod} to integer "
                                     f"(input length {n_in} times {s!r})")
            if math.isinf(float(prod)):
                raise TorchOverflowError(f"scale_factor: cannot convert float {prod} to "
                                         f"integer (input length {n_in} times {s!r})")
            sizes.append(int(prod))
        return tuple(sizes), (None,) * dim
    # C++ upsample::compute_output_size: int64(double(in) * s); the scales reach the kernel.
    sizes = []
    for n_in, s in zip(x.shape[2:], seq):
        prod = float(n_in) * float(s)
        if not math.isfinite(prod) or abs(prod) >= 2.0**63:
            raise TorchRuntimeError("scale_factor: value cannot be converted to type int64_t "
                                    f"without overflow (input length {n_in} times {s!r})")
        sizes.append(int(prod))
    return tuple(sizes), tuple(float(s) for s in seq)


def _check_sizes(x: np.ndarray, mode: str, sizes: Sequence[int]) -> None:
    """torch's size checks: ``upsample_{1,2,3}d_common_check`` and the empty-tensor rule, or
    ``adaptive_avg_pool``'s for ``area`` (which allows output length 0)."""
    dim = x.ndim - 2
    names = _AXIS_NAMES[dim]
    if mode == "area":
        pool = f"adaptive_avg_pool{max(dim, 2)}d"
        if any(n < 0 for n in sizes):
            got = ", ".join(str(n) for n in ((1,) * (dim == 1) + tuple(sizes)))
            raise TorchRuntimeError(f"size: {pool}: elements of output_size must be greater "
                                    f"than or equal to 0 but received {{{got}}}")
        first = 1 if dim == 3 else 2
        for d in range(first, x.ndim):
            if x.shape[d] == 0:
                raise TorchRuntimeError(
                    f"input: {pool}(): Expected input to have non-zero size for non-batch "
                    f"dimensions, but input has sizes {list(x.shape)} with dimension {d} "
                    "being empty")
        return
    if any(n <= 0 for n in (*x.shape[2:], *sizes)):
        ins = ", ".join(f"{nm}: {n}" for nm, n in zip(names, x.shape[2:]))
        outs = ", ".join(f"{nm}: {n}" for nm, n in zip(names, sizes))
        joint = ") and output (" if dim == 1 else ") output ("
        raise TorchRuntimeError(f"size: Input and output sizes should be greater than 0, but "
                                f"got input ({ins}{joint}{outs})")
    if x.size == 0 and x.shape[1] == 0:
        raise TorchRuntimeError(f"input: Non-empty {x.ndim}D data tensor expected but got a "
                                f"tensor with sizes {list(x.shape)}")


def _check_dtype(x: np.ndarray, mode: str, antialias: bool) -> str:
    native = x.dtype if x.dtype.isnative else x.dtype.newbyteorder("=")
    name = _dtypes.dtype_name(native)
    accepted = DTYPES_AA if antialias else DTYPES[mode]
    if name not in accepted:
        torch_name = _TORCH_DTYPE.get(name, name)
        what = f"mode {mode!r}" + (" with antialias=True" if antialias else "")
        raise TorchNotImplementedError(
            f"input: torch's CPU interpolate with {what} supports {', '.join(accepted)}; got "
            f"{name} (torch raises \"not implemented for '{torch_name}'\")")
    return name


def _table_bytes(in_shape: Sequence[int], mode: str, sizes: Sequence[int],
                 antialias: bool) -> int:
    """An upper bound of the tables' size while they are built (dense, 48 bytes a tap)."""
    total = 0
    for n_in, n_out in zip(in_shape[2:], sizes):
        k = 4
        if mode == "area" or antialias:
            k = 2 * (math.ceil(2 * n_in / max(n_out, 1)) + 2) + 1
        total += (n_in + n_out * k) * 48
    return total


# ------------------------------------------------------------------------------ front door

_CALLS = CallMemo()  # raw arguments seen before -> their plan's cache key


# ------------------------------------------------------------------------------ torch tensors
#
# A tensor in gives a tensor out: the tensor's memory is viewed as a NumPy array (no copy), the
# NumPy path runs, and its result is wrapped as a tensor (no copy). A tensor that requires grad
# goes through a torch.autograd.Function whose backward applies the adjoint (the transpose) of
# the same plan. torch is never imported here unless the caller has imported it.


def _is_tensor(value: Any) -> bool:
    """Whether ``value`` is a ``torch.Tensor`` (there is none unless torch was imported)."""
    torch = sys.modules.get("torch")
    tensor = getattr(torch, "Tensor", None)
    return tensor is not None and isinstance(value, tensor)


def _describe_tensor(t: Any) -> str:
    return f"a {t.dtype} tensor of shape {tuple(t.shape)} on device '{t.device}'"


def _tensor_as_array(t: Any, name: str) -> np.ndarray:
    """The memory of a dense CPU tensor as a NumPy array (a view, same strides). Refusals
    name ``name`` and describe the tensor, never its values."""
    import torch

    if t.device.type != "cpu":
        raise UnsupportedError(f"{name}: resamplex computes on the CPU; got "
                               f"{_describe_tensor(t)} (pass {name}.cpu(): the result is then "
                               "a CPU tensor)")
    if t.layout != torch.strided or getattr(t, "is_nested", False) or t.is_quantized:
        raise UnsupportedError(f"{name}: expected a dense (torch.strided) tensor; got "
                               f"{_describe_tensor(t)} with layout {t.layout}"
                               f"{' (quantized)' if t.is_quantized else ''}")
    t = t.detach()
    if t.is_conj():
        t = t.resolve_conj()
    if t.is_neg():
        t = t.resolve_neg()
    if t.dtype == torch.bfloat16:
        bf16 = _dtypes.bfloat16()
        if bf16 is None:
            raise UnsupportedError(f"{name}: a bfloat16 tensor needs ml_dtypes, which is not "
                                   'installed: pip install "resamplex[bfloat16]"')
        return t.view(torch.int16).numpy().view(bf16)
    try:
        return t.numpy()
    except (TypeError, RuntimeError):  # a torch dtype that NumPy has no twin for
        raise UnsupportedError(f"{name}: got {_describe_tensor(t)}, which NumPy cannot view; "
                               "interpolate takes uint8, float16, bfloat16, float32 and "
                               "float64 tensors (per mode: DTYPES)") from None


def _array_as_tensor(y: np.ndarray) -> Any:
    """A NumPy result as a tensor sharing its memory (bfloat16 included)."""
    import torch

    if _dtypes.dtype_name(y.dtype) == "bfloat16":
        return torch.from_numpy(y.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(y)


_FUNCTION: list[Any] = []  # the torch.autograd.Function, defined once torch is imported


def _autograd_function() -> Any:
    """``torch.autograd.Function`` of interpolate: forward = the NumPy path on the tensor's
    memory; backward = the adjoint of the same plan (``Plan.adjoint_plan``, the computation of
    ``resamplex.resize_adjoint``): a deterministic gather over the transposed tables."""
    if _FUNCTION:
        return _FUNCTION[0]
    import torch
    from torch.autograd.function import once_differentiable

    class Interpolate(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, args: tuple[Any, ...], threads: int | None) -> Any:
            y, plan = _interpolate_array(_tensor_as_array(x, "input"), *args, threads=threads,
                                         want_plan=True)
            ctx.plan, ctx.threads = plan, threads
            return _array_as_tensor(y)

        @staticmethod
        @once_differentiable
        def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
            g = _tensor_as_array(grad, "grad_output")
            gx = ctx.plan.adjoint_plan()(g, threads=ctx.threads)  # built once per plan
            return _array_as_tensor(gx), None, None

    _FUNCTION.append(Interpolate)
    return Interpolate


@overload
def interpolate(input: np.ndarray, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False, *,
                out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray: ...


@overload
def interpolate(input: Any, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False, *,
                out: Any = None, threads: int | None = None) -> Any: ...


def interpolate(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False, *, out: Any = None, threads: int | None = None) -> Any:
    """``torch.nn.functional.interpolate`` for an ``(N, C, *spatial)`` NumPy array or CPU
    tensor (torch's CPU rules).

    Parameters
    ----------
    input : numpy.ndarray or torch.Tensor
        3-D ``(N, C, L)``, 4-D ``(N, C, H, W)`` or 5-D ``(N, C, D, H, W)``, any strides.
        dtypes per mode as torch's CPU kernels (``DTYPES``): float16, bfloat16 (``ml_dtypes``
        for arrays; ``torch.bfloat16`` tensors need ``ml_dtypes`` installed too), float32,
        float64 for every mode; uint8 for ``nearest``, ``nearest-exact``, ``bilinear`` and
        ``bicubic``. A tensor must be on the CPU and dense.
    size : int or sequence of int, optional
        Output spatial lengths (one int is used for every spatial axis).
    scale_factor : float or sequence of float, optional
        Output/input factors. The output length is ``int(in * s)``; the kernel maps
        coordinates with ``1 / s`` unless ``recompute_scale_factor`` (or ``mode="area"``).
    mode : {"nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area"}
        ``linear`` needs 3-D input, ``bilinear``/``bicubic`` 4-D, ``trilinear`` 5-D.
    align_corners : bool, optional
        Interpolating modes only (default False).
    recompute_scale_factor : bool, optional
        Derive the kernel's ratio from the output length instead of ``scale_factor``.
    antialias : bool
        ``bilinear``/``bicubic`` with 4-D input only.
    out : numpy.ndarray or torch.Tensor, optional
        Destination of the output shape and dtype (any strides, not overlapping ``input``),
        of the same kind as ``input``; it is returned. Not with a tensor that requires grad.
    threads : int, optional
        Thread count (default :func:`resamplex.get_num_threads`).

    Returns
    -------
    numpy.ndarray or torch.Tensor
        Of the kind of ``input`` (a tensor for a tensor: CPU, no copy of the result), with its
        dtype; memory order follows ``input`` (a channels-last input gives a channels-last
        output, as in torch).

    Gradients: a tensor that requires grad (with grad mode on) gives an output with a
    ``grad_fn``; its backward applies the adjoint of the same tables (the transpose of the
    resize, as :func:`resamplex.resize_adjoint` computes it), for every mode and dtype torch
    differentiates, so ``input.grad`` is torch's own gradient within float tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat.torch import interpolate
    >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 4)
    >>> interpolate(x, size=8, mode="linear")[0, 0]
    array([0.  , 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.  ], dtype=float32)
    >>> interpolate(np.arange(10).astype(np.float32).reshape(1, 1, 10), scale_factor=1.09,
    ...             mode="nearest-exact")[0, 0]
    array([0., 1., 2., 3., 4., 5., 5., 6., 7., 8.], dtype=float32)
    >>> u8 = np.array([[[[0, 255, 0, 255]]]], dtype=np.uint8)
    >>> interpolate(u8, size=(1, 2), mode="bilinear", antialias=True)[0, 0]
    array([[109, 146]], dtype=uint8)
    """
    if type(input) is np.ndarray and out is None:
        # A NumPy call seen before: its plan in one lookup (validated again by the plan).
        raw = call_key(input.shape, input.dtype, input.strides, size, scale_factor, mode,
                       align_corners, recompute_scale_factor, antialias)
        plan = _CALLS.plan(raw)
        if plan is not None:
            return plan(input, threads=threads)
        return _interpolate_array(input, size, scale_factor, mode, align_corners,
                                  recompute_scale_factor, antialias, threads=threads, raw=raw)
    args = (size, scale_factor, mode, align_corners, recompute_scale_factor, antialias)
    if not _is_tensor(input):
        if _is_tensor(out):
            raise ResamplexError("out: got a tensor for a NumPy input; give a numpy.ndarray "
                                 "(or input as a tensor)")
        return _interpolate_array(input, *args, out=out, threads=threads)
    import torch

    grad = bool(input.requires_grad) and torch.is_grad_enabled()
    if out is not None:
        if not _is_tensor(out):
            raise ResamplexError(f"out: expected a tensor for a tensor input; got "
                                 f"{type(out).__name__}")
        if grad or out.requires_grad:
            raise ResamplexError("out: interpolate(..., out=) is not differentiable, and input "
                                 "or out requires grad (as in torch: call it under "
                                 "torch.no_grad(), or without out=)")
        _interpolate_array(_tensor_as_array(input, "input"), *args,
                           out=_tensor_as_array(out, "out"), threads=threads)
        return out
    if grad:
        return _autograd_function().apply(input, args, threads)
    return _array_as_tensor(_interpolate_array(_tensor_as_array(input, "input"), *args,
                                               threads=threads))


def _interpolate_array(input: Any, size: Any = None, scale_factor: Any = None,
                       mode: str = "nearest", align_corners: bool | None = None,
                       recompute_scale_factor: bool | None = None, antialias: bool = False, *,
                       out: np.ndarray | None = None, threads: int | None = None,
                       want_plan: bool = False, raw: Any = None) -> Any:
    """:func:`interpolate` on NumPy arrays; with ``want_plan``, ``(result, plan)``, the plan
    whose adjoint is torch's backward (:func:`repeats_first_row` aside). ``raw``:
    the call's raw-argument key, remembered for the fast path."""
    x = _as_array(input, "input")
    if not isinstance(mode, str) or mode not in MODES:
        shown = f"{mode!r}" + (" (torch 2.13's 'lanczos' is not implemented here)"
                               if mode == "lanczos" else "")
        raise TorchNotImplementedError(f"mode: expected one of {_MODE_LIST}; got {shown}")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ResamplexError("align_corners: align_corners option can only be set with the "
                                 "interpolating modes: linear | bilinear | bicubic | trilinear")
        ac = False
    else:
        ac = _align_corners(align_corners)
    if x.ndim not in (3, 4, 5):
        raise TorchNotImplementedError(
            f"input: Input Error: Only 3D, 4D and 5D input Tensors supported (got {x.ndim}D) "
            f"for the modes: {_MODE_LIST} (got {mode})")
    # torch reads these two as truth values (None: not given)
    recompute = None if recompute_scale_factor is None else \
        _truth("recompute_scale_factor", recompute_scale_factor)
    aa = _truth("antialias", antialias)
    sizes, scales = _output_sizes(x, size, scale_factor, mode, recompute)
    if aa and not (mode in ("bilinear", "bicubic") and x.ndim == 4):
        raise ResamplexError("antialias: Anti-alias option is restricted to bilinear, bicubic, "
                             "and lanczos modes and requires a 4-D tensor as input")
    if x.ndim not in RANKS[mode]:
        need = RANKS[mode][0]
        if mode in ("linear", "bilinear", "trilinear"):
            msg = f"Got {x.ndim}D input, but {mode} mode needs {need}D input"
        else:
            msg = (f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {x.ndim}D) "
                   f"for the modes: {_MODE_LIST} (got {mode})")
        raise TorchNotImplementedError(f"input: {msg}")
    _check_sizes(x, mode, sizes)
    dtype = _check_dtype(x, mode, aa)
    shape = (*x.shape[:2], *sizes)
    check_out_early(out, shape, x.dtype, " (N and C kept, spatial axes resized)")
    if threads is not None:
        _check_threads(threads)
    if out is None:
        check_allocation(math.prod(shape) * x.dtype.itemsize, "size")
    check_allocation(_table_bytes(x.shape, mode, sizes, aa), "size")
    cl_kernel = mode in ("nearest", "nearest-exact", "bilinear", "trilinear") \
        and uses_channels_last_kernel(x, sizes)
    first_row = repeats_first_row(x, mode, dtype, sizes, aa)
    plan = _plan(tuple(x.shape), dtype, mode, sizes, scales, ac, aa, cl_kernel, first_row)
    _CALLS.remember(raw, ("torch", tuple(x.shape), dtype, mode, sizes, scales, ac, aa, cl_kernel,
                          first_row))
    y = plan(x, out=out, threads=threads)
    if not want_plan:
        return y
    if first_row:
        # torch's backward is the adjoint of the right rows, not of its forward's row 0
        plan = _plan(tuple(x.shape), dtype, mode, sizes, scales, ac, aa, cl_kernel)
    return y, plan
