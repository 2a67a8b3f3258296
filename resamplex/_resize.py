"""Core ``resize``, ``Resampler`` and ``resize_adjoint``: validate -> tables -> plan.

The core facade: parameters are validated here (``_core_args``), the axis tables built by
``_tables.core_table``, and the ``Plan`` (``_engine/plan.py``) comes from the plan cache every
facade shares. A call whose arguments were seen before skips straight to its plan.
"""

from __future__ import annotations

import math
from typing import Any, Sequence, SupportsFloat, SupportsIndex, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _dtypes
from ._checks import (INTP_MAX, MAX_NDIM, affine_arrays, as_array, check_allocation,
                      check_conversion, check_threads, is_int, is_real, ndim, normalize_axes)
from ._engine import _exec
from ._engine.cache import PLANS, CallMemo
from ._engine.plan import Plan
from ._engine.tiles import TiledAxis
from ._errors import ResamplexError, UnsupportedError, bad_choice, bad_value
from ._tables import FILTERS, NEAREST_MODES, TRANSFORMS, AxisSpec, AxisTable

MODES = ("nearest", "linear", "cubic", "lanczos", "hamming", "box", "area")
#: The modes ``antialias=True`` widens on shrinking axes (filters with an antialias scheme).
ANTIALIAS_MODES = tuple(m for m in MODES if FILTERS[m].antialias_scheme is not None)
#: The most lobes ``lanczos_a`` may ask for (each output reads ``2 * lanczos_a`` inputs; far
#: beyond any use, and small enough that no tap count overflows).
MAX_LANCZOS_A = 1 << 20

# What the public signatures accept (the validation in _core_args is the authority).
#: ``size=``: an output length per axis in ``axes``, or one length for all of them.
SizeLike: TypeAlias = "SupportsIndex | Sequence[SupportsIndex] | npt.NDArray[np.integer[Any]]"
#: ``scale=``: an output/input factor per axis in ``axes``, or one factor for all of them.
ScaleLike: TypeAlias = "SupportsFloat | Sequence[SupportsFloat] | npt.NDArray[np.floating[Any]]"
#: ``axes=``: one axis or several (negative counts from the end).
AxesLike: TypeAlias = "SupportsIndex | Sequence[SupportsIndex]"
#: ``affine=``: ``(a, b)``, each a real number or an array broadcastable to the output shape.
AffineLike: TypeAlias = "tuple[npt.ArrayLike, npt.ArrayLike] | Sequence[npt.ArrayLike]"

# ------------------------------------------------------------------------------ threads

def get_num_threads() -> int:
    """Threads a call uses when ``threads=None``.

    Follows ``set_num_threads`` if it was called, else OpenMP's ``omp_get_max_threads()``, so
    ``OMP_NUM_THREADS`` and ``threadpoolctl.threadpool_limits`` take effect.

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.get_num_threads() >= 1
    True
    """
    return int(_exec.get_default_threads())


def set_num_threads(n: int | None) -> None:
    """Set the default thread count (``None`` restores the OpenMP default).

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.set_num_threads(1); rx.get_num_threads()
    1
    >>> rx.set_num_threads(None)
    """
    _exec.set_default_threads(0 if n is None else check_threads(n, "n"))


# ------------------------------------------------------------------------------ core facade

def _normalize_shape(in_shape: Any) -> tuple[int, ...]:
    if isinstance(in_shape, (str, bytes)):  # iterable, but not a shape (b"34" -> (51, 52))
        raise bad_value("in_shape", in_shape, "a sequence of non-negative integers")
    try:
        shape = tuple(in_shape)
    except TypeError:
        raise bad_value("in_shape", in_shape, "a sequence of non-negative integers") from None
    if not shape:
        raise ResamplexError("in_shape: 0-d arrays have no axis to resample; got ()")
    if len(shape) > MAX_NDIM:
        raise bad_value("in_shape", shape, f"at most {MAX_NDIM} dimensions")
    if not all(is_int(n) and 0 <= n <= INTP_MAX for n in shape):
        raise bad_value("in_shape", shape, "a sequence of non-negative integers")
    return tuple(int(n) for n in shape)


def _per_axis(name: str, value: Any, n: int, axes_given: bool,
              shape: tuple[int, ...] | None = None) -> tuple[Any, ...] | None:
    """``size``/``scale`` as one entry per resampled axis (``n`` of them).

    A scalar applies to every axis in ``axes``, or to every axis of the array when ``axes`` is
    omitted (``n`` is then its rank), as ``scipy.ndimage.zoom(x, 2)`` does.
    """
    if value is None:
        return None
    if ndim(value) == 0:
        return (value.item() if isinstance(value, np.generic) else value,) * n
    try:
        seq = tuple(v.item() if isinstance(v, np.generic) else v for v in value)
    except TypeError:
        raise bad_value(name, value, f"a sequence of {n}") from None
    if len(seq) != n:
        if not axes_given and shape is not None and 0 < len(seq) < n:
            raise ResamplexError(
                f"{name}: expected {n} entries, one per axis of the {n}-d input {shape} (no "
                f"axes= given); got {len(seq)}: {value!r}. To resize some axes only, name "
                f"them: {_axes_hint(len(seq), shape)}")
        raise ResamplexError(f"{name}: expected {n} entries (one per resampled axis); "
                             f"got {len(seq)}: {value!r}")
    return seq


def _axes_hint(k: int, shape: tuple[int, ...]) -> str:
    """The ``axes=`` that a ``size``/``scale`` of ``k`` entries for an array of ``shape``
    probably meant: the ``k`` axes before a short last axis (channels last: ``(H, W, C)``,
    ``(N, H, W, C)``), else the last ``k`` axes (``(N, C, H, W)``)."""
    ndim = len(shape)
    if ndim >= 3 and shape[-1] <= 4 and k <= ndim - 1:
        axes = tuple(range(ndim - 1 - k, ndim - 1))
        before = "the axis" if k == 1 else f"the {k} axes"
        why = (f"resizes {before} before the last and keeps the {shape[-1]} channels of a "
               "channels-last array")
    else:
        axes = tuple(range(ndim - k, ndim))
        why = "resizes the last axis" if k == 1 else f"resizes the last {k} axes"
    shown = f"({axes[0]},)" if k == 1 else str(axes)
    return f"axes={shown} {why}"


def output_lengths(in_shape: tuple[int, ...], axes: tuple[int, ...],
                   size: tuple[Any, ...] | None,
                   scale: tuple[Any, ...] | None) -> tuple[int, ...]:
    """Validate ``size``/``scale`` and return the output length of each axis in ``axes``."""
    if size is not None:
        for v in size:
            if not is_int(v) or v < 0:
                raise bad_value("size", v, "integers >= 1")
    if scale is not None:
        for v in scale:
            if not is_real(v) or not math.isfinite(float(v)) or float(v) <= 0 \
                    or not math.isfinite(1.0 / float(v)):  # subnormal: r = 1/scale overflows
                raise bad_value("scale", v, "positive finite numbers (with a finite 1/scale)")
    lengths = []
    for i, a in enumerate(axes):
        n_in = in_shape[a]
        if size is not None:
            n_out = int(size[i])
        else:
            prod = n_in * float(scale[i])
            if prod >= 2.0**62:
                raise ResamplexError(f"scale: axis {a} of length {n_in} times {scale[i]!r} "
                                     "gives an output length that overflows")
            n_out = math.floor(prod)
        if n_in == 0 and n_out != 0:
            raise ResamplexError(f"size: axis {a} has length 0 (nothing to sample from) and can "
                                 f"only keep length 0; got {n_out}")
        if n_in > 0 and n_out < 1:
            what = "size" if size is not None else "scale"
            got = size[i] if size is not None else f"{scale[i]!r} (length {n_in} -> {n_out})"
            raise ResamplexError(f"{what}: every output length must be >= 1; axis {a} got {got}")
        lengths.append(n_out)
    return tuple(lengths)


def _core_args(in_shape: Any, size: Any, scale: Any, axes: Any, mode: Any,
               coordinate_transform: Any, nearest_mode: Any, antialias: Any, cubic_a: Any,
               exclude_outside: Any, lanczos_a: Any = 3) -> tuple[Any, ...]:
    """Validate the core parameters; return a hashable key for the plan cache."""
    shape = _normalize_shape(in_shape)
    if size is None and scale is None:
        raise ResamplexError("size, scale: give size= (output lengths) or scale= (factors); "
                             "got neither")
    axes_given = axes is not None
    axes_t = normalize_axes(axes, len(shape))
    size_t = _per_axis("size", size, len(axes_t), axes_given, shape)
    scale_t = _per_axis("scale", scale, len(axes_t), axes_given, shape)
    if mode not in MODES:
        raise bad_choice("mode", mode, MODES)
    if coordinate_transform not in TRANSFORMS:
        raise bad_choice("coordinate_transform", coordinate_transform, TRANSFORMS)
    if nearest_mode not in NEAREST_MODES:
        raise bad_choice("nearest_mode", nearest_mode, NEAREST_MODES)
    if not isinstance(antialias, (bool, np.bool_)):
        raise bad_value("antialias", antialias, "True or False")
    if antialias and mode not in ANTIALIAS_MODES:
        names = ", ".join(repr(m) for m in ANTIALIAS_MODES)
        raise ResamplexError(f"antialias: applies to modes {names}; got mode={mode!r}")
    if not is_real(cubic_a) or not math.isfinite(cubic_a):
        raise bad_value("cubic_a", cubic_a, "a finite number")
    # Checked whatever the mode (as cubic_a is), so a bad value never hides in a default.
    if not is_int(lanczos_a) or not 1 <= lanczos_a <= MAX_LANCZOS_A:
        raise bad_value("lanczos_a", lanczos_a, f"an integer from 1 to {MAX_LANCZOS_A}")
    if not isinstance(exclude_outside, (bool, np.bool_)):
        raise bad_value("exclude_outside", exclude_outside, "True or False")
    lengths = output_lengths(shape, axes_t, size_t, scale_t)
    scales = tuple(None if scale_t is None else float(s)  # type: ignore[arg-type]
                   for s in (scale_t or (None,) * len(axes_t)))
    # A parameter the mode ignores is normalised out of the key (one plan, not several).
    lanczos_key = int(lanczos_a) if mode == "lanczos" else 3
    return (shape, axes_t, lengths, scales, mode, coordinate_transform, nearest_mode,
            float(cubic_a), bool(exclude_outside), bool(antialias), lanczos_key)


def _out_shape(key: tuple[Any, ...]) -> tuple[int, ...]:
    """The output shape of validated core arguments (``_core_args``)."""
    shape = list(key[0])
    for a, n in zip(key[1], key[2]):
        shape[a] = n
    return tuple(shape)


def _check_plan_size(key: tuple[Any, ...], itemsize: int) -> None:
    """Refuse outputs (and tables) too big to allocate, before building anything."""
    (shape, axes, lengths, scales, mode, transform, nearest_mode, cubic_a, exclude, antialias,
     lanczos_a) = key
    out_shape = list(shape)
    for a, n in zip(axes, lengths):
        out_shape[a] = n
    check_allocation(math.prod(out_shape) * itemsize, "size")
    # Tables, even when another axis is empty and the output has no element: the native
    # builders allocate the CSR table and a scratch of one output's taps
    # (AxisSpec.nbytes_estimate); the plan then keeps up to twice that again (the dense form
    # of the innermost axis, byte offsets, weights cast to the compute type). A long axis is
    # built a tile at a time (_core_axis), so only a tile counts. Windows that grow with
    # 1/scale (area, antialias) are clipped to the input, so a tiny scale costs at most n_in
    # taps per output; if those tables are what does not fit, scale is the cause. A scale that
    # stretches the windows far beyond what the sizes imply counts its whole table even when
    # tiled: its work (outputs x taps) is what the memory bound stands for (never hang).
    nbytes = 0
    widened = False
    for a, n, s in zip(axes, lengths, scales):
        if shape[a] == 0 or n == 0:
            continue
        kw = dict(mode=mode, transform=transform, nearest_mode=nearest_mode, cubic_a=cubic_a,
                  exclude_outside=exclude, antialias=antialias, lanczos_a=lanczos_a)
        spec = AxisSpec(shape[a], n, s, **kw)
        stretched = False
        if s is not None and spec.taps_bound > 4:
            widened = True
            stretched = spec.taps_bound > 2 * AxisSpec(shape[a], n, None, **kw).taps_bound + 4
        tile = n if stretched else min(n, _tile_length(spec))
        nbytes += 3 * spec.nbytes_estimate(0, tile)
    check_allocation(nbytes, "scale" if widened else "size")


# A table larger than this (its estimate) is built tile by tile as the plan runs, tiles of
# about a quarter of it: no table grows with a long axis.
TILE_TABLE_BYTES = 16 << 20


def _tile_length(spec: AxisSpec) -> int:
    """Outputs per tile of an axis whose table would exceed TILE_TABLE_BYTES (its estimate):
    tiles of about a quarter of that; the whole axis if it fits."""
    per_output = 8 + 16 * spec.taps_bound
    if spec.n_out * per_output <= TILE_TABLE_BYTES:
        return spec.n_out
    return max(1, TILE_TABLE_BYTES // 4 // per_output)


def _core_axis(n_in: int, n_out: int, scale: float | None, mode: str, transform: str,
               nearest_mode: str, cubic_a: float, exclude: bool,
               aa: bool, lanczos_a: int = 3) -> AxisTable | TiledAxis:
    """The table of one core axis, or, for a long axis, the builder of its tiles."""
    spec = AxisSpec(n_in, n_out, scale, mode=mode, transform=transform,
                    nearest_mode=nearest_mode, cubic_a=cubic_a, exclude_outside=exclude,
                    antialias=aa, lanczos_a=lanczos_a)
    tile = _tile_length(spec)
    if tile >= n_out:
        return spec.table()
    return TiledAxis(spec, tile)


def _build_core_plan(key: tuple[Any, ...]) -> Plan:
    shape, axes, lengths, scales, mode, transform, nearest_mode, cubic_a, exclude, aa, la = key
    tables: list[AxisTable | TiledAxis | None] = [None] * len(shape)
    for a, n_out, s in zip(axes, lengths, scales):
        n_in = shape[a]
        if n_in == 0:
            continue
        tables[a] = _core_axis(n_in, n_out, s, mode, transform, nearest_mode, cubic_a, exclude,
                               aa, la)
    # At most one axis is tiled (two long axes could not fit in memory anyway): the others,
    # however long, are built whole.
    tiled = [a for a, t in enumerate(tables) if isinstance(t, TiledAxis)]
    for a in sorted(tiled, key=lambda a: tables[a].n_out)[:-1]:
        tables[a] = tables[a].table(0, tables[a].n_out)
    return Plan(shape, tables, weighted=mode != "nearest")


def core_plan(key: tuple[Any, ...]) -> Plan:
    """The plan of validated core arguments (``_core_args``), from the shared plan cache."""
    return PLANS.get_or_build(("core",) + key, lambda: _build_core_plan(key))


# Raw arguments of earlier resize() calls -> their validated key.
_CALLS = CallMemo()


class Resampler:
    """A reusable resampling plan for one input shape (SPEC §2).

    Parameters are those of :func:`resize`, checked up front: ``dtype`` is the output dtype
    (default: each input's own), ``affine=(a, b)`` maps every output value ``v`` to
    ``v * a + b`` before the store (``a``, ``b`` broadcast to ``out_shape``).

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> plan = rx.Resampler((2, 4), size=(8,), axes=(1,), mode="linear")
    >>> plan.out_shape
    (2, 8)
    >>> plan(np.array([[0., 1, 2, 3], [4, 5, 6, 7]]))[0]
    array([0.  , 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.  ])
    >>> mapped = rx.Resampler((2,), (4,), dtype=np.float64, affine=(0.5, 1.0))
    >>> mapped(np.array([0, 255], np.uint8))          # uint8 in, float64 * 0.5 + 1 out
    array([  1.   ,  32.875,  96.625, 128.5  ])
    """

    def __init__(self, in_shape: Sequence[SupportsIndex], size: SizeLike | None = None, *,
                 scale: ScaleLike | None = None, axes: AxesLike | None = None,
                 dtype: npt.DTypeLike | None = None, mode: str = "linear",
                 coordinate_transform: str = "half_pixel",
                 nearest_mode: str = "round_prefer_ceil", antialias: bool = False,
                 cubic_a: float = -0.75, lanczos_a: int = 3, exclude_outside: bool = False,
                 rounding: str = "half_even", affine: AffineLike | None = None):
        key = _core_args(in_shape, size, scale, axes, mode, coordinate_transform, nearest_mode,
                         antialias, cubic_a, exclude_outside, lanczos_a)
        _dtypes.rounding_code(rounding)
        itemsize = 1
        integer = False
        if dtype is not None:
            try:
                dt = _dtypes.as_dtype(dtype)
            except TypeError:
                raise UnsupportedError(f"dtype: expected a NumPy dtype; got {dtype!r}") from None
            if mode == "nearest":
                _dtypes.check_nearest_dtype(dt)
            else:
                _dtypes.weighted_info(dt, mode)
            itemsize = dt.itemsize
            integer = dt.kind in "iu"
        # The affine is checked (shapes, finiteness) now, in float64; each call casts it to
        # the compute type of its input dtype (_checks.check_conversion).
        self.affine = None if affine is None else \
            affine_arrays(affine, _out_shape(key), np.dtype(np.float64), integer)
        _check_plan_size(key, itemsize)
        self._plan = core_plan(key)
        self.dtype = None if dtype is None else _dtypes.as_dtype(dtype)
        self.mode = mode
        self.rounding = rounding

    @property
    def in_shape(self) -> tuple[int, ...]:
        return self._plan.in_shape

    @property
    def out_shape(self) -> tuple[int, ...]:
        return self._plan.out_shape

    def _check_dtype(self, x: Any, name: str) -> None:
        if self.dtype is not None and isinstance(x, np.ndarray) and x.dtype != self.dtype:
            raise ResamplexError(f"{name}: this plan was made for dtype {self.dtype}; "
                                 f"got {x.dtype}")

    def __call__(self, x: npt.ArrayLike, out: np.ndarray | None = None,
                 threads: int | None = None) -> np.ndarray:
        """Resample ``x`` (shape ``in_shape``) into a new array or ``out``.

        The result has the plan's ``dtype`` if it was given (converted in the final store),
        else ``out``'s dtype if ``out`` is given, else ``x``'s.

        Examples
        --------
        >>> import numpy as np, resamplex as rx
        >>> plan = rx.Resampler((2,), (4,))
        >>> plan(np.array([0.0, 8.0]))
        array([0., 2., 6., 8.])
        >>> out = np.empty(4)
        >>> plan(np.array([8.0, 0.0]), out=out) is out
        True
        """
        if (self.dtype is None and self.affine is None
                and not (isinstance(out, np.ndarray) and isinstance(x, np.ndarray)
                         and out.dtype != x.dtype)):
            return self._plan(x, out=out, threads=threads, rounding=self.rounding)
        x = self._plan.check_input(x)
        dtype, affine = check_conversion(x.dtype, self.dtype, self.affine, out,
                                         self.out_shape)
        return self._plan(x, out=out, threads=threads, rounding=self.rounding, dtype=dtype,
                          affine=affine)

    def adjoint(self, grad_out: npt.ArrayLike, out: np.ndarray | None = None,
                threads: int | None = None) -> np.ndarray:
        """Apply the transpose: ``<self(x), g> == <x, self.adjoint(g)>``; shape ``in_shape``.

        Computed as a gather over transposed tables (deterministic, parallel), in the weighted
        arithmetic of the dtype (nearest's adjoint sums, so it is weighted too).

        Examples
        --------
        >>> import numpy as np, resamplex as rx
        >>> plan = rx.Resampler((2,), (4,))
        >>> plan.adjoint(np.array([1.0, 0.0, 0.0, 0.0]))   # output 0 reads input 0 only
        array([1., 0.])
        >>> plan.adjoint(np.ones(4))
        array([2., 2.])
        """
        self._check_dtype(grad_out, "grad_out")
        plan = self._plan.adjoint_plan()
        g = plan.check_input(grad_out, "grad_out")
        return plan(g, out=out, threads=threads, rounding=self.rounding)

    def __repr__(self) -> str:
        return f"Resampler({self.in_shape} -> {self.out_shape}, mode={self.mode!r})"


def resize(x: npt.ArrayLike, size: SizeLike | None = None, *, scale: ScaleLike | None = None,
           axes: AxesLike | None = None, mode: str = "linear", coordinate_transform: str = "half_pixel",
           nearest_mode: str = "round_prefer_ceil", antialias: bool = False,
           cubic_a: float = -0.75, lanczos_a: int = 3, exclude_outside: bool = False,
           rounding: str = "half_even", dtype: npt.DTypeLike | None = None,
           affine: AffineLike | None = None, out: np.ndarray | None = None,
           threads: int | None = None) -> np.ndarray:
    """Resample an N-dimensional array along any of its axes (SPEC §2).

    Parameters
    ----------
    x : numpy.ndarray
        Input of any shape (at least 1-d), strides and memory order.
    size : int or sequence of int, optional
        Output length of each axis in ``axes``; one int applies to every axis in ``axes``
        (every axis of ``x`` when ``axes`` is omitted).
    scale : float or sequence of float, optional
        Output/input factor of each axis in ``axes``, or one factor for all of them (every
        axis of ``x`` when ``axes`` is omitted, as ``scipy.ndimage.zoom(x, 2)``). Alone, the
        output length is ``floor(n_in * scale)``; with ``size``, it drives the coordinate map
        (crop / clamp).
    axes : int or sequence of int, optional
        Axes that ``size``/``scale`` describe (default: all). Others are copied.
    mode : {"nearest", "linear", "cubic", "lanczos", "hamming", "box", "area"}
        ``linear`` is N-linear over every resampled axis; ``cubic`` the Keys kernel
        (``cubic_a``, ``exclude_outside``); ``lanczos`` the windowed sinc with ``lanczos_a``
        lobes; ``hamming`` and ``box`` Pillow's Hamming (support 1) and box (support 1/2)
        filters; ``area`` a box filter over each output's footprint.
    antialias : bool
        On shrinking axes, stretch the filter by the shrink factor and normalise (ONNX
        Resize-18, Pillow); modes linear, cubic, lanczos, hamming and box.
    cubic_a : float
        The Keys coefficient of ``cubic`` (ignored by the other modes).
    lanczos_a : int
        The lobes of ``lanczos``, an integer >= 1 (3: Pillow's LANCZOS; 4: OpenCV's
        ``INTER_LANCZOS4``); ignored by the other modes.
    coordinate_transform : {"half_pixel", "pytorch_half_pixel", "half_pixel_symmetric",
        "align_corners", "asymmetric", "tf_half_pixel_for_nn"}
    nearest_mode : {"round_prefer_ceil", "round_prefer_floor", "floor", "ceil"}
    rounding : {"half_even", "half_away_from_zero", "toward_zero"}
        Integer outputs of weighted modes (and of conversions to an integer dtype); then
        saturated.
    dtype : dtype, optional
        Output dtype (default: ``x``'s, or ``out``'s when ``out`` is given): float64,
        float32, float16, bfloat16, int8, uint8, int16 or uint16, for an input of one of
        those. Converted in the final store of the same pass; the resize computes in the
        wider of the two dtypes' compute types (uint8 -> float32: float32; anything ->
        float64, int16 or uint16: float64).
    affine : (a, b), optional
        Map each resampled value ``v`` to ``v * a + b`` (in the compute type, ``a`` and ``b``
        rounded to it) before the store; ``a`` and ``b`` are real numbers or arrays that
        broadcast to the output shape (``(C,)`` for HWC, ``(C, 1, 1)`` for CHW). Integer
        outputs then round and saturate; they need finite ``a`` and ``b``.
    out : numpy.ndarray, optional
        Destination of the output shape, any strides, not overlapping ``x``; of ``dtype``
        if that is given, else of any dtype ``dtype`` accepts (another dtype converts).
    threads : int, optional
        Thread count (default :func:`get_num_threads`).

    Returns
    -------
    numpy.ndarray
        ``dtype`` (default: as ``x``); memory order follows ``x``.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> rx.resize(np.array([0.0, 10.0]), (4,))
    array([ 0. ,  2.5,  7.5, 10. ])
    >>> rx.resize(np.arange(5), (3,), mode="nearest")
    array([0, 2, 4])

    A uint8 HWC image to a normalised float32 CHW tensor in one pass (ToTensor + Normalize):

    >>> img = np.full((4, 4, 3), 255, np.uint8)
    >>> mean, std = np.array([0.5, 0.25, 0.0]), np.array([0.5, 0.25, 1.0])
    >>> chw = np.empty((3, 2, 2), np.float32)
    >>> _ = rx.resize(img, (2, 2), axes=(0, 1), dtype=np.float32,
    ...               affine=(1 / (255 * std), -mean / std), out=chw.transpose(1, 2, 0))
    >>> chw[:, 0, 0]
    array([1., 3., 1.], dtype=float32)
    """
    raw = None
    convert = dtype is not None or affine is not None or (
        isinstance(out, np.ndarray) and isinstance(x, np.ndarray) and out.dtype != x.dtype)
    if type(x) is np.ndarray:
        raw = _exec.call_key(x.shape, size, scale, axes, mode, coordinate_transform,
                             nearest_mode, antialias, cubic_a, exclude_outside, lanczos_a)
        plan = _CALLS.plan(raw)
        if plan is not None:
            if not convert:
                return plan(x, out=out, threads=threads, rounding=rounding)
            odt, aff = check_conversion(x.dtype, dtype, affine, out, plan.out_shape)
            return plan(x, out=out, threads=threads, rounding=rounding, dtype=odt, affine=aff)
    x = as_array(x, "x")
    if x.ndim == 0:
        raise ResamplexError("x: 0-d arrays have no axis to resample; got shape ()")
    key = _core_args(x.shape, size, scale, axes, mode, coordinate_transform, nearest_mode,
                     antialias, cubic_a, exclude_outside, lanczos_a)
    odt, aff = check_conversion(x.dtype, dtype, affine, out, _out_shape(key)) if convert \
        else (None, None)
    _check_plan_size(key, max(x.dtype.itemsize, 0 if odt is None else odt.itemsize))
    plan = core_plan(key)
    _CALLS.remember(raw, ("core",) + key)
    return plan(x, out=out, threads=threads, rounding=rounding, dtype=odt, affine=aff)


def resize_adjoint(grad_out: npt.ArrayLike, in_shape: Sequence[SupportsIndex],
                   size: SizeLike | None = None, *, scale: ScaleLike | None = None,
                   axes: AxesLike | None = None, mode: str = "linear",
                   coordinate_transform: str = "half_pixel",
                   nearest_mode: str = "round_prefer_ceil", antialias: bool = False,
                   cubic_a: float = -0.75, lanczos_a: int = 3, exclude_outside: bool = False,
                   rounding: str = "half_even", out: np.ndarray | None = None,
                   threads: int | None = None) -> np.ndarray:
    """The gradient of :func:`resize` with respect to its input.

    ``grad_out`` has the forward output's shape; the result has ``in_shape``. It is the exact
    transpose of the forward operator: ``<resize(x), g> == <x, resize_adjoint(g, x.shape)>``.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> rx.resize_adjoint(np.ones(4), (2,), (4,))
    array([2., 2.])
    """
    plan = Resampler(in_shape, size, scale=scale, axes=axes, mode=mode,
                     coordinate_transform=coordinate_transform, nearest_mode=nearest_mode,
                     antialias=antialias, cubic_a=cubic_a, exclude_outside=exclude_outside,
                     rounding=rounding, lanczos_a=lanczos_a)
    return plan.adjoint(grad_out, out=out, threads=threads)
