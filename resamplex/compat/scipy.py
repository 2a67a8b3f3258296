"""SciPy's ``ndimage.zoom``, ``spline_filter`` and ``spline_filter1d``, value for value.

``from resamplex.compat import scipy as ndi`` and ``ndi.zoom(x, 2, order=1)`` give what
``scipy.ndimage.zoom(x, 2, order=1)`` gives (SciPy 1.17), bit for bit: the same output shape
(``round(n * zoom)``), coordinates, boundary modes, B-spline prefilter and the same store into
integer outputs. The rules, read from SciPy's ``_interpolation.py`` and ``ni_interpolation.c``
/ ``ni_splines.c`` and checked against the installed SciPy, are table builders here; the
arithmetic is the engine's (``_engine/compile/splines.py``: an ``OP_SPLINE`` pass per axis for the
prefilter and an ``OP_TENSOR`` pass that evaluates every output in SciPy's order).

For each axis, with ``z`` the axis's factor (``(n_in - 1) / (n_out - 1)``, or ``n_in / n_out``
with ``grid_mode``; 1 where the divisor is 0), output ``o`` sits at input coordinate
``c = o * z`` (``(o + 0.5) * z - 0.5`` with ``grid_mode``), plus 12 when the input was padded
(``nearest`` and ``grid-constant`` with a prefilter). The coordinate is folded into the input by
the mode (``map_coordinate``); ``constant`` gives ``cval`` for every output whose coordinate is
outside ``[0, n_in - 1]`` on any axis; the ``order + 1`` taps start at ``floor(c) - order // 2``
(odd orders) or ``floor(c + 0.5) - order // 2`` (even orders), taps outside the input are folded
by the mode (``constant`` and ``wrap`` fold them as ``mirror``) or read ``cval``
(``grid-constant``), and their weights are SciPy's B-spline weights in float64. docs/scipy.md
says what is exact and why.
"""

from __future__ import annotations

import math
import operator
import warnings
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from .._checks import c_double, c_index, check_allocation, check_threads, out_is_distinct
from .._errors import ResamplexError, UnsupportedError, bad_type, bad_value
from .._tables import AxisTable
from .._engine import _exec
from .._engine.cache import PLANS
from .._engine.memory import new_array
from .._engine.plan import Plan
from .._engine.compile.splines import ELEMS, SplinePlan, SplineTable, run_filter

__all__ = ["zoom", "spline_filter", "spline_filter1d", "MODES", "ScipyRuntimeError"]

#: Boundary modes, by name, as ``ndimage``'s ``_extend_mode_to_code`` names them.
MODES = ("reflect", "grid-mirror", "constant", "grid-constant", "nearest", "mirror",
         "grid-wrap", "wrap")
#: How the prefilter starts its recursions in each mode (``ni_splines.c apply_filter``).
_PREFILTER_INIT = {"reflect": "reflect", "grid-mirror": "reflect", "nearest": "reflect",
                   "constant": "mirror", "grid-constant": "mirror", "mirror": "mirror",
                   "wrap": "mirror", "grid-wrap": "wrap"}
#: How taps outside the input are folded (``_get_spline_boundary_mode``): constant and wrap
#: have no exact prefilter boundary and fold as mirror.
_TAP_MODE = {"reflect": "reflect", "grid-mirror": "reflect", "nearest": "nearest",
             "constant": "mirror", "grid-constant": "grid-constant", "mirror": "mirror",
             "wrap": "mirror", "grid-wrap": "grid-wrap"}
#: Padding (SciPy's ``_prepad_for_spline_filter``) of the modes whose prefilter boundary is
#: approximated by extending the input before filtering.
_NPAD = 12


class ScipyRuntimeError(ResamplexError, RuntimeError):
    """What SciPy raises as ``RuntimeError`` (an order, mode, rank, dtype or output it does
    not take); also a ``ResamplexError``.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import scipy as ndi
    >>> try:
    ...     ndi.zoom(np.zeros(3), 2, order=6)
    ... except RuntimeError as exc:
    ...     print(exc)
    order: expected an integer from 0 to 5 (spline order not supported); got 6
    """


class ScipyUnsupportedError(UnsupportedError, RuntimeError):
    """A dtype SciPy's ndimage does not take (SciPy: ``RuntimeError``); also an
    ``UnsupportedError``."""


class ScipyOverflowError(ResamplexError, OverflowError):
    """An infinite zoom (SciPy: ``OverflowError``); also a ``ResamplexError``."""


class ScipyAxisError(ResamplexError, np.exceptions.AxisError):
    """An axis out of range (SciPy: NumPy's ``AxisError``, a ``ValueError`` and an
    ``IndexError``); also a ``ResamplexError``. Made as ``AxisError`` is:
    ``ScipyAxisError(axis, ndim)``."""


# ------------------------------------------------------------------------------ validation
#
# SciPy checks its arguments in Python, in this order, and hands the rest to its C functions,
# which parse ``order``, ``cval`` and ``grid_mode`` (TypeError) and then refuse the array types
# they do not take (RuntimeError). The checks below follow that order, so that each call
# raises what SciPy raises, and accept what SciPy accepts on the paths that never reach C
# (orders 0 and 1 of ``spline_filter1d``, 0-d arrays in ``spline_filter``, a zoom of 1).

def _check_order_range(order: Any, low: int = 0) -> None:
    """``if order < low or order > 5: raise RuntimeError``; an order that does not compare
    with integers is SciPy's TypeError. A non-integer inside the range passes here (SciPy's
    C code refuses it: :func:`_check_order`)."""
    try:
        outside = order < low or order > 5
    except TypeError:
        raise bad_type("order", order, f"an integer from {low} to 5") from None
    if outside:
        raise ScipyRuntimeError(f"order: expected an integer from {low} to 5 (spline order "
                                f"not supported); got {order!r}")


def _check_order(order: Any) -> int:
    """The order as the C functions parse it (``"i"``): an integer, else TypeError."""
    v = c_index(order)
    if v is None:
        raise bad_type("order", order, "an integer from 0 to 5")
    return int(v)


def _check_mode(mode: Any) -> str:
    if not isinstance(mode, str) or mode not in MODES:
        listed = ", ".join(repr(m) for m in MODES)
        raise ScipyRuntimeError(f"mode: expected one of {listed} (boundary mode not "
                                f"supported); got {mode!r}")
    return mode


def _check_dtype(x: np.ndarray) -> np.ndarray:
    """The input's dtype, as SciPy's C functions check it (RuntimeError), natively ordered."""
    if x.dtype.kind not in "biufc" or (x.dtype.kind != "c" and x.dtype.name not in ELEMS) \
            or (x.dtype.kind == "c" and x.dtype.name not in ("complex64", "complex128")):
        raise ScipyUnsupportedError(f"input: SciPy's ndimage takes bool, integer, "
                                    f"float32/float64 and complex arrays; got dtype {x.dtype}")
    if not (x.dtype.isnative and x.flags.aligned):
        x = x.astype(x.dtype.newbyteorder("="))
    return x


def _c_double(name: str, value: Any) -> float:
    """``value`` as SciPy's C functions parse a double (``"d"``): TypeError for what has no
    ``__float__``, ValueError where it fails (a 0-d array of a string)."""
    try:
        v = c_double(value)
    except ValueError:
        raise bad_value(name, value, "a real number") from None
    if v is None:
        raise bad_type(name, value, "a real number")
    return v


def _c_int(name: str, value: Any) -> int:
    """``value`` as SciPy's C functions parse an int (``"i"``; bools too), else TypeError."""
    v = c_index(value)
    if v is None:
        raise bad_type(name, value, "True, False or an integer")
    return int(v)


def _copy(out: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``out[...] = x``, SciPy's copies (NumPy's casts); what NumPy cannot cast (strings,
    objects) is its TypeError or ValueError."""
    try:
        out[...] = x
    except TypeError:
        raise bad_type("input", x.dtype, f"values that cast to {out.dtype}") from None
    except ValueError as exc:
        raise ResamplexError(f"output: {exc}") from None
    return out


def _per_axis(zoom: Any, ndim: int) -> list[Any]:
    # ndimage's _normalize_sequence: a scalar for every axis, or one value per axis
    if not isinstance(zoom, str) and np.iterable(zoom):
        values = list(zoom)
        if len(values) != ndim:
            raise ScipyRuntimeError(f"zoom: expected one factor per axis of the input "
                                    f"({ndim}; sequence argument must have length equal to "
                                    f"input rank); got {len(values)}")
        return values
    return [zoom] * ndim


def _output_shape(shape: Sequence[int], zooms: Sequence[Any]) -> tuple[int, ...]:
    """``int(round(n * z))`` per axis, with SciPy's errors: TypeError where the product or
    its ``round`` is not defined (a string, None, a complex factor), ValueError for NaN or a
    negative length, OverflowError for an infinite factor."""
    out = []
    for n, z in zip(shape, zooms):
        try:
            size = int(round(n * z))   # half to even, as SciPy's int(round(ii * jj))
        except TypeError:
            raise bad_type("zoom", z, "real factors") from None
        except ValueError:
            raise ResamplexError(f"zoom: expected finite factors > 0; got {z!r}") from None
        except OverflowError:
            raise ScipyOverflowError(f"zoom: expected finite factors > 0; got {z!r}") \
                from None
        if size < 0:
            raise ResamplexError(f"zoom: expected factors > 0 (negative dimensions are not "
                                 f"allowed); got {z!r}")
        out.append(size)
    return tuple(out)


def _output_array(output: Any, x: np.ndarray, shape: tuple[int, ...],
                  complex_output: bool) -> np.ndarray:
    """ndimage's ``_get_output``: a new array (of ``x``'s dtype, or the dtype given) or the
    array given, checked as SciPy checks it there (its dtype is checked later, where SciPy's
    C code checks it: :func:`_output_dtype`)."""
    if output is None:
        # SciPy: np.zeros(shape, dtype=input.dtype.name), natively ordered
        try:
            dtype = np.promote_types(x.dtype, np.complex64) if complex_output else \
                np.dtype(x.dtype.name)
        except TypeError:
            raise bad_type("input", x.dtype, "an array of numbers") from None
        return new_array(shape, dtype)  # every element is written
    if isinstance(output, (type, np.dtype)):
        dtype = _dtype(output)
        if complex_output and dtype.kind != "c":
            warnings.warn("promoting specified output dtype to complex", stacklevel=4)
            dtype = np.promote_types(dtype, np.complex64)
        return new_array(shape, dtype)
    if isinstance(output, str):
        dtype = _dtype(output)
        if complex_output and dtype.kind != "c":
            raise ScipyRuntimeError(f"output: expected a complex dtype for complex input "
                                    f"(output must have complex dtype); got {output!r}")
        if not issubclass(dtype.type, np.number):
            raise ScipyRuntimeError(f"output: expected a numeric dtype (output must have "
                                    f"numeric dtype); got {output!r}")
        return new_array(shape, dtype)
    out = np.asarray(output)
    if out.shape != shape:
        raise ScipyRuntimeError(f"output: expected shape {shape} (output shape not correct); "
                                f"got {out.shape}")
    if complex_output and out.dtype.kind != "c":
        raise ScipyRuntimeError(f"output: expected a complex array for complex input (output "
                                f"must have complex dtype); got dtype {out.dtype}")
    if not out.flags.writeable:
        raise ResamplexError("output: expected a writeable array; got a read-only one")
    return out


def _dtype(output: Any) -> np.dtype:
    """``np.dtype(output)``, NumPy's TypeError for a name it does not know."""
    try:
        return np.dtype(output)
    except TypeError:
        raise bad_type("output", output, "an array or a NumPy dtype") from None


def _output_dtype(dtype: np.dtype) -> np.dtype:
    if dtype.kind == "c" and dtype.name in ("complex64", "complex128"):
        return dtype
    if dtype.name not in ELEMS:
        raise ScipyUnsupportedError(f"output: SciPy's ndimage stores bool, integer and "
                                f"float32/float64 (data type not supported); got {dtype}")
    return dtype


# ------------------------------------------------------------------------------ axis tables

def _fold(c: np.ndarray, n: int, mode: str) -> np.ndarray:
    """``map_coordinate`` (ni_interpolation.c): fold coordinates outside ``[0, n - 1]`` into
    the input by ``mode`` ("constant": -1), in float64 as the C code computes."""
    c = np.array(c, dtype=np.float64)
    lo, hi = c < 0, c > n - 1
    if not (lo.any() or hi.any()):
        return c
    a, b = c[lo], c[hi]
    if mode == "nearest":
        a, b = np.zeros_like(a), np.full_like(b, n - 1)
    elif mode == "constant":
        a, b = np.full_like(a, -1.0), np.full_like(b, -1.0)
    elif n <= 1:
        a, b = np.zeros_like(a), np.zeros_like(b)
    elif mode == "mirror":
        s2 = 2.0 * n - 2
        a = s2 * np.trunc(-a / s2) + a
        a = np.where(a <= 1 - n, a + s2, -a)
        b = b - s2 * np.trunc(b / s2)
        b = np.where(b >= n, s2 - b, b)
    elif mode == "reflect":
        s2 = 2.0 * n
        a = np.where(a < -s2, s2 * np.trunc(-a / s2) + a, a)
        # SciPy keeps -0.0 < a < 0 from folding onto exactly -1
        a = np.where(a < -n, a + s2, np.where(a > -1e-15, 1e-15, -a) - 1)
        b = b - s2 * np.trunc(b / s2)
        b = np.where(b >= n, s2 - b - 1, b)
    elif mode == "wrap":
        sz = float(n - 1)
        a = a + sz * (np.trunc(-a / sz) + 1)
        b = b - sz * np.trunc(b / sz)
    elif mode == "grid-wrap":
        a = a + n * (np.trunc((-1 - a) / n) + 1)
        b = b - n * np.trunc(b / n)
    c[lo], c[hi] = a, b
    return c


def spline_weights(c: np.ndarray, order: int) -> np.ndarray:
    """The ``order + 1`` B-spline weights of the taps of coordinates ``c``
    (``get_spline_interpolation_weights``, ni_splines.c), float64, in SciPy's operation order.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat.scipy import spline_weights
    >>> spline_weights(np.array([2.25]), 1)
    array([[0.75, 0.25]])
    """
    x = np.asarray(c, dtype=np.float64)
    if order == 0:
        return np.ones(x.shape + (1,))
    x = x - np.floor(x if order & 1 else x + 0.5)
    w = np.empty(x.shape + (order + 1,))
    y, z = x, 1.0 - x
    if order == 1:
        w[..., 0] = 1.0 - x
    elif order == 2:
        w[..., 1] = 0.75 - x * x
        y = 0.5 - x
        w[..., 0] = 0.5 * y * y
    elif order == 3:
        w[..., 1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0
        w[..., 2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0
        w[..., 0] = z * z * z / 6.0
    elif order == 4:
        t = x * x
        w[..., 2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0
        y = 1.0 + x
        w[..., 1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0
        w[..., 3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0
        y = 0.5 - x
        t = y * y
        w[..., 0] = t * t / 24.0
    else:
        t = y * y
        w[..., 2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55
        t = z * z
        w[..., 3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55
        y = y + 1.0
        w[..., 1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
        z = z + 1.0
        w[..., 4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
        y = 1.0 - x
        t = y * y
        w[..., 0] = y * t * t / 120.0
    last = np.ones(x.shape)
    for i in range(order):   # "all weights add to 1.0": the last is what is left
        last = last - w[..., i]
    w[..., order] = last
    return w


def zoom_table(n_in: int, n_out: int, factor: float, order: int, mode: str, *,
               grid_mode: bool, npad: int) -> SplineTable:
    """The taps of one axis of ``zoom`` (``NI_ZoomShift``'s per-axis precomputation):
    ``n_in`` is the length of the (padded) input the taps read, ``npad`` the padding.

    Examples
    --------
    >>> from resamplex.compat.scipy import zoom_table
    >>> t = zoom_table(3, 5, 0.5, 1, "constant", grid_mode=False, npad=0)
    >>> t.idx.tolist(), t.w.tolist()[1]
    ([[0, 1], [0, 1], [1, 2], [1, 2], [2, 1]], [0.5, 0.5])
    """
    c = np.arange(n_out, dtype=np.float64)
    c = (c + 0.5) * factor - 0.5 if grid_mode else c * factor
    c = c + float(npad)
    if mode not in ("grid-constant", "nearest"):
        c = _fold(c, n_in, "reflect" if mode == "grid-mirror" else mode)
    outside = ~(c > -1.0) if mode not in ("grid-constant", "nearest") else \
        np.zeros(n_out, dtype=bool)
    c = np.where(outside, 0.0, c)
    start = np.floor(c if order & 1 else c + 0.5).astype(np.int64) - order // 2
    idx = start[:, None] + np.arange(order + 1, dtype=np.int64)
    tap_mode = _TAP_MODE[mode]
    if tap_mode == "grid-constant":
        idx = np.where((idx < 0) | (idx >= n_in), -1, idx)
    else:
        idx = _fold(idx.astype(np.float64), n_in, tap_mode).astype(np.int64)
    w = spline_weights(c, order)
    return SplineTable(n_in, n_out, np.ascontiguousarray(idx), np.ascontiguousarray(w),
                       outside)


# ------------------------------------------------------------------------------ front door

def _zoom_plan(shape: tuple[int, ...], out_shape: tuple[int, ...], factors: tuple[float, ...],
               order: int, mode: str, cval: float, prefilter: bool, grid_mode: bool,
               npad: int, lead: int = 0) -> SplinePlan:
    key = ("scipy.zoom", shape, out_shape, factors, order, mode, cval, prefilter, grid_mode,
           npad, lead)

    def build() -> SplinePlan:
        tables = [zoom_table(n + 2 * npad, m, f, order, mode, grid_mode=grid_mode, npad=npad)
                  for n, m, f in zip(shape, out_shape, factors)]
        padded = tuple(n + 2 * npad for n in shape)
        return SplinePlan(padded, tables, order=order, cval=cval, prefilter=prefilter,
                          init=_PREFILTER_INIT[mode], lead=lead)

    return PLANS.get_or_build(key, build)  # type: ignore[arg-type, return-value]


class _Evaluate:
    """What the plan cache holds for an order-0 zoom some of whose outputs are not input
    elements (they read ``cval``): such a zoom runs the tensor evaluation. ``nbytes``: what
    it counts against the cache's bound (about its key and itself)."""

    nbytes = 512
    held_by: Any = None


def _gather_plan(shape: tuple[int, ...], out_shape: tuple[int, ...],
                 factors: tuple[float, ...], mode: str, grid_mode: bool) -> Plan | None:
    """Order 0 as a copy of elements: the engine's nearest-neighbour gather (``rx.resize``'s),
    reading the element SciPy's table reads on every axis, or None where an output on some
    axis is ``cval`` (outside the input, mode ``constant`` and the like).

    SciPy's order 0 starts from ``t = 0.0``, adds the element as a float64 and stores ``t`` by
    its rule (integers: round half away from zero, clamp). An integer of at most 32 bits (or
    a bool) is exact in float64, ``0.0 + v`` is ``v``, and the store gives ``v`` back:
    copying the element gives the same bits, at the speed of ``rx.resize``'s nearest. (A
    float's ``0.0 + v`` is ``v`` but for ``-0.0`` and a signalling NaN: the plan's gather
    stores ``0.0 + v`` of floats, ``plus_zero``; 64-bit integers beyond 2^53 are rounded by
    SciPy, ``_copies_elements``.)"""
    key = ("scipy.zoom order 0", shape, out_shape, factors, mode, grid_mode)

    def build() -> Plan | _Evaluate:
        tables = [zoom_table(n, m, f, 0, mode, grid_mode=grid_mode, npad=0)
                  for n, m, f in zip(shape, out_shape, factors)]
        if any(t.outside.any() or (t.idx[:, 0] < 0).any() for t in tables):
            return _Evaluate()
        return Plan(shape, [AxisTable.gather(t.n_in, t.idx[:, 0]) for t in tables],
                    weighted=False, op="scipy.zoom", plus_zero=True)

    plan = PLANS.get_or_build(key, build)  # type: ignore[arg-type]
    return None if isinstance(plan, _Evaluate) else plan


def _copies_elements(x: np.ndarray) -> bool:
    """Whether order 0 of ``x`` runs as a copy of elements (``_gather_plan``): integers up to
    32 bits and bools (exact in float64: SciPy's ``0.0 + v``, stored, is ``v``), float32 and
    float64 (the gather stores ``0.0 + v``: its ``plus_zero``). 64-bit integers beyond 2^53
    are rounded by SciPy: they keep the evaluation."""
    return x.dtype.itemsize <= 4 if x.dtype.kind in "biu" else x.dtype.kind == "f"


def zoom_factors(shape: Sequence[int], out_shape: Sequence[int],
                 grid_mode: bool) -> tuple[float, ...]:
    """The coordinate factor of each axis: ``n_in / n_out`` with ``grid_mode``, else
    ``(n_in - 1) / (n_out - 1)`` (1.0 where that divides by 0)."""
    nom = np.array(shape, dtype=np.int64)
    div = np.array(out_shape, dtype=np.int64)
    if not grid_mode:
        nom, div = nom - 1, div - 1
    return tuple(float(a / b) if b != 0 else 1.0 for a, b in zip(nom.tolist(), div.tolist()))


def lead_axes(shape: Sequence[int], out_shape: Sequence[int], order: int, cval: float) -> int:
    """How many leading axes (after :func:`_kept_axes_first`) are read at their one tap of
    weight 1.0: at order 1, the kept axes (all but the last), when ``cval`` is finite. The
    +-0 products of their other taps can then be NaN only where an element is infinite or
    NaN; the caller runs with every tap again where the output is not finite (each such
    product reads an element some output reads with the same taps on the other axes, so an
    infinite or NaN one shows there), and only where that check holds (integer input, or a
    float output)."""
    if order != 1 or not math.isfinite(cval):
        return 0
    return min(sum(n == m for n, m in zip(shape, out_shape)), len(shape) - 1)


def _kept_axes_first(shape: Sequence[int], out_shape: Sequence[int],
                     order: int) -> tuple[int, ...]:
    """The axes in the order the evaluation runs them: at orders 0 and 1, the axes that keep
    their length first (a channel axis, typically), the others after them in their order.

    Such an axis has factor 1 and every output on it sits on an input element: at order 0
    its one tap reads that element, at order 1 its two taps weigh that element by 1.0 and the
    next by 0.0. Multiplying by 1.0 is exact wherever it falls in SciPy's product chain, and
    each product taken with 0.0 is +-0 (or NaN, from an infinite or NaN element), which
    changes no sum wherever it is added: SciPy's ``t`` starts at +0.0 and so is never -0.0.
    So the evaluation may take these axes outermost with the same bits, and its rows, along
    the last axis, are then the image's long rows rather than a pixel's few channels."""
    axes = range(len(shape))
    if order > 1:
        return tuple(axes)
    kept = [a for a in axes if shape[a] == out_shape[a]]
    return tuple(kept + [a for a in axes if shape[a] != out_shape[a]])


def _write(out: np.ndarray, compute: Any) -> np.ndarray:
    """Run ``compute(dst)`` into ``out``, through a native aligned copy if it is not one."""
    if out.dtype.isnative and out.flags.aligned and out.flags.writeable:
        compute(out)
    else:
        tmp = np.empty(out.shape, out.dtype.newbyteorder("="))
        compute(tmp)
        np.copyto(out, tmp)
    return out


def zoom(input: npt.ArrayLike, zoom: Any, output: Any = None, order: int = 3,
         mode: str = "constant", cval: float = 0.0, prefilter: bool = True, *,
         grid_mode: bool = False, threads: int | None = None) -> np.ndarray:
    """Zoom an array with spline interpolation, as ``scipy.ndimage.zoom`` does.

    Parameters
    ----------
    input : array_like
        Bool, integer, float32, float64 or complex data, any number of dimensions >= 1.
    zoom : float or sequence of float
        The factor of every axis, or one per axis. The output length is
        ``int(round(n * zoom))``.
    output : ndarray or dtype, optional
        The array to write (of the output shape) or the dtype of the result; default: the
        input's dtype.
    order : int
        Spline order, 0 to 5 (default 3).
    mode : str
        ``'reflect'``, ``'grid-mirror'``, ``'constant'`` (default), ``'grid-constant'``,
        ``'nearest'``, ``'mirror'``, ``'grid-wrap'`` or ``'wrap'``.
    cval : float
        The value outside the input for the constant modes.
    prefilter : bool
        B-spline prefilter the input first (orders > 1), as SciPy does by default.
    grid_mode : bool
        Zoom the pixel extents (``n_in / n_out``) instead of the pixel centres
        (``(n_in - 1) / (n_out - 1)``).
    threads : int, optional
        Threads to use (resamplex's default if None). The result does not depend on it.

    Returns
    -------
    ndarray
        The zoomed input (``output`` if an array was given).

    Raises
    ------
    RuntimeError
        (``ScipyRuntimeError``) where SciPy raises it: an order outside 0-5, an unknown mode,
        a 0-d input, a wrong number of factors, an ``output`` of the wrong shape or dtype.
    TypeError
        (``ResamplexTypeError``) where SciPy raises it: an order, ``cval`` or ``grid_mode``
        its C code cannot parse (a float order, a string), a factor that is not a number.
    ValueError
        (``ResamplexError``) a negative or NaN factor.
    OverflowError
        (``ScipyOverflowError``) an infinite factor.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import scipy as ndi
    >>> x = np.array([[0., 1.], [2., 3.]])
    >>> ndi.zoom(x, 1.5, order=1)
    array([[0. , 0.5, 1. ],
           [1. , 1.5, 2. ],
           [2. , 2.5, 3. ]])
    >>> ndi.zoom(np.arange(7, dtype=np.uint8), 0.5, order=0).tolist()
    [0, 2, 4, 6]
    """
    _check_order_range(order)
    x = np.asarray(input)
    if x.ndim < 1:
        raise ScipyRuntimeError("input: expected an array of rank > 0 (input and output "
                                "rank must be > 0); got a 0-d array")
    if threads is not None:
        threads = check_threads(threads)
    zooms = _per_axis(zoom, x.ndim)
    out_shape = _output_shape(x.shape, zooms)
    complex_output = x.dtype.kind == "c"
    check_allocation(int(np.prod(out_shape, dtype=np.float64)) *
                     (_dtype(output).itemsize if isinstance(output, (type, np.dtype, str))
                      else x.dtype.itemsize), "output")
    out = _output_array(output, x, out_shape, complex_output)
    if all(z == 1 for z in zooms) and prefilter:
        # SciPy returns the input unchanged (gh-20999): a copy into the output
        return _copy(out, x)
    if complex_output:
        # SciPy zooms the real and imaginary parts apart, and passes neither cval's type nor
        # grid_mode on: the parts are zoomed with grid_mode=False
        kw = dict(order=order, mode=mode, prefilter=prefilter, threads=threads)
        zoom_parts = globals()["zoom"]
        zoom_parts(x.real, zooms, output=out.real, cval=np.real(cval), **kw)
        zoom_parts(x.imag, zooms, output=out.imag, cval=np.imag(cval), **kw)
        return out
    if prefilter and 1 < order < 2:
        raise ScipyRuntimeError(f"order: expected an integer from 0 to 5 (the prefilter's "
                                f"spline_filter: spline order not supported); got {order!r}")
    mode = _check_mode(mode)
    order = _check_order(order)
    x = _check_dtype(x)
    cval = _c_double("cval", cval)
    grid_mode = bool(_c_int("grid_mode", grid_mode))
    _output_dtype(out.dtype)
    if out.dtype.kind == "c":
        raise ScipyRuntimeError(f"output: complex output for real input is not supported "
                                f"(data type not supported); got {out.dtype}")
    npad = _NPAD if prefilter and order > 1 and mode in ("nearest", "grid-constant") else 0
    if grid_mode and mode in ("constant", "wrap"):
        suggest = "grid-constant" if mode == "constant" else "grid-wrap"
        warnings.warn(f"It is recommended to use mode = {suggest} instead of {mode} when "
                      f"grid_mode is True.", stacklevel=2)
    factors = zoom_factors(x.shape, out_shape, grid_mode)
    if out.size == 0 or x.size == 0:
        return out
    if npad:
        x = np.pad(x, npad, mode="edge") if mode == "nearest" else \
            np.pad(x, npad, mode="constant", constant_values=cval)
    elif _exec.may_overlap(x, out):
        x = x.copy()
    # (the engine refuses outputs whose elements overlap; SciPy writes them in turn, and the
    # evaluation follows it)
    if order == 0 and out.dtype == x.dtype and _copies_elements(x) \
            and out_is_distinct(out):
        gather = _gather_plan(x.shape, tuple(out_shape), tuple(factors), mode, grid_mode)
        if gather is not None:
            return _write(out, lambda dst: gather(x, out=dst, threads=threads))
    perm = _kept_axes_first(x.shape, out_shape, order)
    x = x.transpose(perm)
    args = (tuple(x.shape[a] - 2 * npad for a in range(x.ndim)),
            tuple(out_shape[a] for a in perm), tuple(factors[a] for a in perm),
            order, mode, cval, bool(prefilter), grid_mode, npad)
    lead = lead_axes(x.shape, args[1], order, cval) \
        if x.dtype.kind in "biu" or out.dtype.kind == "f" else 0
    if lead:
        fast = _zoom_plan(*args, lead=lead)

        def compute(dst: np.ndarray) -> None:
            fast(x, dst.transpose(perm), threads)
            if dst.dtype.kind == "f" and not np.isfinite(dst).all():
                _zoom_plan(*args)(x, dst.transpose(perm), threads)

        return _write(out, compute)
    plan = _zoom_plan(*args)
    return _write(out, lambda dst: plan(x, dst.transpose(perm), threads))


def spline_filter1d(input: npt.ArrayLike, order: int = 3, axis: int = -1,
                    output: Any = np.float64, mode: str = "mirror", *,
                    threads: int | None = None) -> np.ndarray:
    """The B-spline prefilter along one axis, as ``scipy.ndimage.spline_filter1d`` computes it.

    Orders 0 and 1 copy the input into the output; orders 2 to 5 run the recursive filter with
    the initial conditions of ``mode`` (``mirror``, ``constant``, ``grid-constant`` and
    ``wrap``: mirror; ``reflect``, ``grid-mirror`` and ``nearest``: reflect; ``grid-wrap``:
    wrap) in float64, then store the output's type by a C cast, as SciPy does.

    Parameters
    ----------
    input : array_like
        Bool, integer, float32, float64 or complex data.
    order : int
        Spline order, 0 to 5.
    axis : int
        The axis to filter (default: the last).
    output : ndarray or dtype
        Where to write, or the dtype of the result (default float64).
    mode : str
        The boundary mode (default ``'mirror'``).
    threads : int, optional
        Threads to use; the result does not depend on it.

    Returns
    -------
    ndarray
        The filtered coefficients.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import scipy as ndi
    >>> ndi.spline_filter1d(np.array([0., 0., 6., 0., 0.]), order=3)
    array([ 1.5, -3. , 10.5, -3. ,  1.5])
    """
    _check_order_range(order)
    x = np.asarray(input)
    if threads is not None:
        threads = check_threads(threads)
    complex_output = x.dtype.kind == "c"
    out = _output_array(output, x, x.shape, complex_output)
    if complex_output:
        spline_filter1d(x.real, order, axis, out.real, mode, threads=threads)
        spline_filter1d(x.imag, order, axis, out.imag, mode, threads=threads)
        return out
    if order in (0, 1):
        # a copy, as SciPy makes it: no mode, axis or dtype is looked at (a 0-d array too)
        return _copy(out, x)
    mode = _check_mode(mode)
    try:
        ax = operator.index(axis)   # SciPy: normalize_axis_index(axis, input.ndim)
    except TypeError:
        raise bad_type("axis", axis, "an integer") from None
    if not -x.ndim <= ax < x.ndim:
        raise ScipyAxisError(ax, x.ndim)
    ax %= x.ndim
    return _filter(x, out, order, mode, (ax,), threads)


def _filter(x: np.ndarray, out: np.ndarray, order: Any, mode: str, axes: Sequence[int],
            threads: int | None) -> np.ndarray:
    """The recursive filter along ``axes`` (SciPy's C ``spline_filter1d`` on each), after
    the checks of its C code: an integer order, the input's and the output's dtypes."""
    order = _check_order(order)
    x = _check_dtype(x)
    _output_dtype(out.dtype)
    if out.dtype.kind == "c":
        raise ScipyRuntimeError(f"output: complex output for real input is not supported "
                                f"(data type not supported); got {out.dtype}")
    if _exec.may_overlap(x, out) and not (x.strides == out.strides and x.dtype == out.dtype
                                          and x.ctypes.data == out.ctypes.data):
        x = x.copy()
    init = _PREFILTER_INIT[mode]
    return _write(out, lambda dst: run_filter(x, dst, order, init, axes, threads))


def spline_filter(input: npt.ArrayLike, order: int = 3, output: Any = np.float64,
                  mode: str = "mirror", *, threads: int | None = None) -> np.ndarray:
    """The multidimensional B-spline prefilter, as ``scipy.ndimage.spline_filter`` computes it:
    ``spline_filter1d`` along every axis in turn, each storing the output's type.

    Parameters
    ----------
    input : array_like
        Bool, integer, float32, float64 or complex data.
    order : int
        Spline order, 2 to 5 (SciPy refuses 0 and 1 here).
    output : ndarray or dtype
        Where to write, or the dtype of the result (default float64).
    mode : str
        The boundary mode (default ``'mirror'``).
    threads : int, optional
        Threads to use; the result does not depend on it.

    Returns
    -------
    ndarray
        The filtered coefficients.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat import scipy as ndi
    >>> ndi.spline_filter(np.eye(3), order=2).round(3)
    array([[ 2.264, -1.125,  0.486],
           [-1.125,  2.375, -1.125],
           [ 0.486, -1.125,  2.264]])
    """
    _check_order_range(order, low=2)
    x = np.asarray(input)
    if threads is not None:
        threads = check_threads(threads)
    complex_output = x.dtype.kind == "c"
    out = _output_array(output, x, x.shape, complex_output)
    if complex_output:
        spline_filter(x.real, order, out.real, mode, threads=threads)
        spline_filter(x.imag, order, out.imag, mode, threads=threads)
        return out
    if x.ndim == 0:
        # SciPy copies a 0-d array into the output (it has no axis to filter)
        return _copy(out, x)
    return _filter(x, out, order, _check_mode(mode), tuple(range(x.ndim)), threads)
