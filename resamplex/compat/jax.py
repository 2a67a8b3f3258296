"""``jax.image.resize`` and ``jax.image.scale_and_translate`` on NumPy arrays, at CPU speed.

JAX resamples with dense weight matrices (``compute_weight_mat``) contracted against the
image by one ``einsum``: every output sums every input of its line, most with weight 0. This
door builds the same weights, in JAX's float32 arithmetic operation for operation, keeps the
nonzero ones as axis tables, and runs them on the engine's weighted passes, one axis at a
time. JAX's sums run in an order XLA chooses; the engine's in tap order, axis after axis. The
target (SPEC §6.2) is therefore every value within the rounding of a reordered sum of JAX's
nonzero terms, ``|ours - jax| <= 8 eps sum |w_i x_i|`` in the output dtype, and bit for bit
where every output has one nonzero term (nearest, integer enlargements of area).

Conventions (JAX 0.10 with ``jax_enable_x64`` off, its default):

- **Methods**: ``nearest``; ``linear`` (``bilinear``, ``trilinear``, ``triangle``);
  ``cubic`` (``bicubic``, ``tricubic``: Keys, a = -0.5); ``cubic-pytorch``
  (``bicubic-pytorch``: a = -0.75 with the edges repeated, PyTorch's bicubic; with
  ``antialias=True`` it is ``cubic``); ``lanczos3``, ``lanczos5``; ``area``.
- **Geometry**: half-pixel centres; input coordinate ``(o + 0.5) / scale - translation /
  scale - 0.5``; with ``antialias`` a downscaling kernel is widened by ``1 / scale``; weights
  are normalised to sum to 1 (0 where their sum is below ``1000 eps``) and zeroed for outputs
  whose coordinate lies outside ``[-0.5, n - 0.5]`` (no such zeroing with repeated edges).
- **dtypes**: the input as JAX holds it (64-bit elements as 32-bit ones); ``nearest`` keeps
  that dtype. The other methods compute in, and return,
  the input's floating dtype (float16, bfloat16, float32), float32 for integer and bool
  inputs, and float32 for float64 (JAX without x64 holds no float64). The weights are
  rounded to that dtype, as JAX casts its weight matrices.
- **Non-finite inputs**: JAX multiplies every input of a line, weight 0 included, so an
  inf or NaN anywhere in a line turns the outputs that give it weight 0 into NaN. A call
  whose input holds one runs JAX's dense contraction (NumPy, float32) instead.
- ``resize`` resamples every axis whose length changes (batch and channel axes too, as JAX
  does); ``scale_and_translate`` the ``spatial_dims`` it is given, the others must keep
  their length.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Sequence

import numpy as np

from .. import _dtypes
from .._checks import as_array, check_allocation, check_threads
from .._errors import ResamplexError, UnsupportedError
from .._tables import AxisTable
from .._engine.cache import PLANS
from .._engine.plan import Plan

__all__ = ["METHODS", "resize", "scale_and_translate", "weight_matrix"]

F32 = np.float32

#: Method names (``ResizeMethod.from_string``) -> the method they name.
METHODS = {"nearest": "nearest", "linear": "linear", "bilinear": "linear",
           "trilinear": "linear", "triangle": "linear", "cubic": "cubic", "bicubic": "cubic",
           "tricubic": "cubic", "cubic-pytorch": "cubic-pytorch",
           "bicubic-pytorch": "cubic-pytorch", "lanczos3": "lanczos3",
           "lanczos5": "lanczos5", "area": "area"}
#: The support radius of each kernel (``_kernels``): zero at and past it.
_RADIUS = {"linear": 1, "cubic": 2, "cubic-pytorch": 2, "lanczos3": 3, "lanczos5": 5,
           "area": 1}
#: Integer dtypes the engine reads as they are (exact in float32, as JAX's conversion is).
_EXACT_IN = ("uint8", "int8", "uint16", "int16")
#: Where a sum of weights counts as zero (``compute_weight_mat``).
_TINY = F32(1000.0 * float(np.finfo(np.float32).eps))


def _kernel(method: str, x: np.ndarray, folded: bool) -> np.ndarray:
    """The kernel of ``method`` at distances ``x >= 0`` (float32), JAX's operations;
    ``folded``: as XLA folds them in ``resize``'s jitted program (a division by a constant
    becomes a product with its float32 reciprocal; ``sin`` as the C library's)."""
    one = F32(1.0)
    if method == "linear":
        return np.maximum(F32(0.0), one - np.abs(x))
    if method == "cubic":  # Keys, a = -0.5 (_fill_keys_cubic_kernel)
        out = ((F32(1.5) * x - F32(2.5)) * x) * x + one
        out = np.where(x >= one, ((F32(-0.5) * x + F32(2.5)) * x - F32(4.0)) * x + F32(2.0),
                       out)
        return np.where(x >= F32(2.0), F32(0.0), out)
    if method == "cubic-pytorch":  # a = -0.75 (_fill_opencv_cubic_kernel)
        a = -0.75
        out = ((F32(a + 2.0) * x - F32(a + 3.0)) * x) * x + one
        out = np.where(x >= one, ((F32(a) * x - F32(5.0 * a)) * x + F32(8.0 * a)) * x
                       - F32(4.0 * a), out)
        return np.where(x >= F32(2.0), F32(0.0), out)
    r = F32(3.0 if method == "lanczos3" else 5.0)  # _fill_lanczos_kernel
    pi = F32(np.pi)
    px = pi * x
    pxr = px * (one / r) if folded else px / r

    def sin(v: np.ndarray) -> np.ndarray:  # correctly rounded float32 sine
        return np.sin(v.astype(np.float64)).astype(F32)

    with np.errstate(invalid="ignore", divide="ignore"):
        y = r * sin(px) * sin(pxr)
        out = np.where(x > F32(1e-3), y / np.where(x != 0, F32(np.pi ** 2) * (x * x), one),
                       one)
    return np.where(x > r, F32(0.0), out)


def _resize_geometry(n_in: int, n_out: int) -> tuple[np.float32, np.float32]:
    """``(1 / scale, translation / scale)`` of ``resize``: ``scale = n_out / n_in`` a Python
    float, its inverse taken in float64 and then used in float32; no translation."""
    return (F32(1.0 / (n_out / n_in)) if n_out else F32(1.0)), F32(0.0)


def _st_geometry(scale: Any, translation: Any) -> tuple[np.float32, np.float32]:
    """``(1 / scale, translation / scale)`` of ``scale_and_translate``: float32 throughout."""
    with np.errstate(over="ignore"):
        inv = F32(1.0) / F32(scale)
        return inv, F32(translation) * inv


def _weights(n_in: int, n_out: int, inv: np.float32, shift: np.float32, method: str,
             antialias: bool, folded: bool) -> tuple[np.ndarray, np.ndarray]:
    """The nonzero band of JAX's weight matrix of one axis, as dense taps: ``(idx, w)``, both
    ``(n_out, K)`` (float32 weights; 0 where a slot holds no tap). ``inv`` is ``1 / scale``
    and ``shift`` ``translation / scale``, both float32 as JAX computes them; ``folded``:
    ``resize``'s weights, which XLA computes while compiling (``_kernel``)."""
    o = np.arange(n_out, dtype=F32)
    edge = method == "cubic-pytorch" and not antialias
    radius = _RADIUS[method]
    ks = np.maximum(inv, F32(1.0)) if antialias else F32(1.0)
    sample = (o + F32(0.5)) * inv - shift - F32(0.5)
    if method == "area":
        left = o * inv - shift
        right = left + inv
        reach = float(inv) + 2.0
        start = np.floor(left.astype(np.float64)) - 1.0
    else:
        reach = radius * float(ks) + 1.0
        start = np.floor(sample.astype(np.float64) - reach)
    lo, hi = (-radius, n_in + radius) if edge else (0, n_in)
    # every tap outside [lo, hi) weighs 0: a row's window never needs to be wider
    k = max(1, min(int(math.ceil(2.0 * reach)) + 3, hi - lo))
    check_allocation(n_out * k * 32, "scale")  # the band's arrays (a huge 1 / scale widens it)
    start = np.clip(start, lo, hi - k)  # the window inside [lo, hi)
    j = start.reshape(-1, 1) + np.arange(k, dtype=np.float64)
    jf = j.astype(F32)
    if method == "area":
        w = np.maximum(F32(0.0), np.minimum(right[:, None], jf + F32(1.0))
                       - np.maximum(left[:, None], jf))
    else:
        dist = np.abs(sample[:, None] - jf)
        w = _kernel(method, dist * (F32(1.0) / ks) if folded else dist / ks, folded)
    w = w.astype(F32)
    idx = j.astype(np.int64)
    if edge:
        # the taps past either end move onto the edge pixel: a scatter-add from 0, in index
        # order (weight_mat.at[clamped, out].add); an output's clamped indices run up by 0 or 1
        idx = np.clip(idx, 0, n_in - 1)
        slot = idx - idx[:, :1]
        merged = np.zeros_like(w)
        np.add.at(merged, (np.repeat(np.arange(n_out), k), slot.reshape(-1)), w.reshape(-1))
        w, idx = merged, np.minimum(idx[:, :1] + np.arange(k), n_in - 1)
    # JAX sums the column; its nonzero terms here, one after another in index order
    total = np.cumsum(w, axis=1, dtype=F32)[:, -1]
    keep = np.abs(total) > _TINY
    div = np.where(total != 0, total, F32(1.0))[:, None]
    w = np.where(keep[:, None], w * (F32(1.0) / div) if folded else w / div, F32(0.0))
    if not edge:
        w = np.where(((sample >= F32(-0.5)) & (sample <= F32(n_in - 0.5)))[:, None], w,
                     F32(0.0))
    return idx, w.astype(F32)


def weight_matrix(n_in: int, n_out: int, method: str = "linear", antialias: bool = True,
                  scale: float | None = None, translation: float = 0.0) -> np.ndarray:
    """JAX's ``compute_weight_mat`` of one axis as a dense ``(n_in, n_out)`` float32 matrix:
    ``resize``'s (``scale`` None: ``n_out / n_in``, its inverse taken in float64 as JAX's
    Python floats are) or ``scale_and_translate``'s (``scale``, ``translation`` in float32).

    >>> from resamplex.compat.jax import weight_matrix
    >>> weight_matrix(4, 2, "linear", antialias=False).T
    array([[0.5, 0.5, 0. , 0. ],
           [0. , 0. , 0.5, 0.5]], dtype=float32)
    """
    m = _method(method)
    if m == "nearest":
        raise ResamplexError("method: nearest has no weight matrix in JAX")
    if m == "cubic-pytorch" and antialias:
        m = "cubic"
    n_in, n_out = operator.index(n_in), operator.index(n_out)
    if n_in < 1 or n_out < 0:
        raise ResamplexError(f"n_in, n_out: n_in >= 1, n_out >= 0; got {n_in}, {n_out}")
    inv, shift = _resize_geometry(n_in, n_out) if scale is None else \
        _st_geometry(scale, translation)
    idx, w = _weights(n_in, n_out, inv, shift, m, bool(antialias), scale is None)
    dense = np.zeros((n_in, n_out), F32)
    np.add.at(dense, (idx, np.broadcast_to(np.arange(n_out)[:, None], idx.shape)), w)
    return dense


def _method(method: Any) -> str:
    name = getattr(method, "name", method)  # a ResizeMethod from jax.image is taken too
    if isinstance(name, str):
        key = name.lower().replace("_", "-")
        if key in METHODS:
            return METHODS[key]
    raise ResamplexError(f"method: one of {', '.join(sorted(METHODS))}; got {method!r}")


#: JAX without x64 holds no 64-bit numbers: what an array of these becomes in it.
_CANONICAL = {"float64": np.float32, "int64": np.int32, "uint64": np.uint32}


def _canonical(x: np.ndarray) -> np.ndarray:
    """``x`` as ``jnp.asarray`` (x64 off) holds it: 64-bit elements as 32-bit ones."""
    to = _CANONICAL.get(_dtypes.name_of(x.dtype))
    return x if to is None else x.astype(to)


def _out_dtype(dtype: np.dtype) -> np.dtype:
    """What JAX computes and returns in (``promote_dtypes_inexact``, x64 off)."""
    name = _dtypes.name_of(dtype)
    if name in ("float16", "bfloat16", "float32"):
        return dtype
    return np.dtype(np.float32)


def _shape(shape: Any, ndim: int) -> tuple[int, ...]:
    try:
        out = tuple(operator.index(n) for n in shape)
    except TypeError:
        raise ResamplexError(f"shape: a sequence of integers; got {shape!r}") from None
    if len(out) != ndim:
        raise ResamplexError("shape: one length per axis of the image; got "
                             f"{len(out)} for {ndim} axes")
    if any(n < 0 for n in out):
        raise ResamplexError(f"shape: lengths >= 0; got {out}")
    return out


def _run(x: np.ndarray, out_shape: tuple[int, ...], axes: Sequence[int],
         invs: Sequence[np.float32], shifts: Sequence[np.float32], method: str,
         antialias: bool, folded: bool, threads: int | None,
         key: tuple[Any, ...]) -> np.ndarray:
    """The weighted resize of ``axes``, JAX's tables, on the engine (or, for an input with a
    non-finite value, JAX's dense contraction)."""
    odt = _out_dtype(x.dtype)
    check_allocation(math.prod(out_shape) * odt.itemsize, "shape")
    if not axes:
        return x.astype(odt)  # nothing resampled: the image, promoted
    if 0 in out_shape or x.size == 0:
        return np.zeros(out_shape, odt)
    wdt = odt if _dtypes.name_of(odt) in ("float16", "bfloat16") else np.dtype(np.float32)

    def tables() -> list[Any]:
        made: list[Any] = [None] * x.ndim
        for a, inv, sh in zip(axes, invs, shifts):
            idx, w = _weights(x.shape[a], out_shape[a], inv, sh, method, antialias, folded)
            w = w.astype(wdt).astype(np.float64)
            made[a] = AxisTable.from_taps(x.shape[a], idx, w, merge=False)
        return made

    if _dtypes.name_of(x.dtype) in ("float16", "bfloat16", "float32") \
            and not (np.isfinite(np.min(x)) and np.isfinite(np.max(x))):
        return _dense(x, axes, tables()).astype(odt)
    # JAX converts to its float first; the engine converts 8- and 16-bit integers exactly
    # on its own way in, and rounds to the output dtype on the way out
    src = x if x.dtype == odt or _dtypes.name_of(x.dtype) in _EXACT_IN else x.astype(odt)
    plan = PLANS.get_or_build(key + (x.shape, src.dtype), lambda: Plan(
        x.shape, tables(), weighted=True, op=f"jax {method}"))
    return plan(src, threads=threads, dtype=None if src.dtype == odt else odt)


def _dense(x: np.ndarray, axes: Sequence[int], tables: list[Any]) -> np.ndarray:
    """JAX's contraction itself: every input of a line times its weight, zeros included
    (an inf or NaN there gives NaN where its weight is 0), float32 products."""
    y = x.astype(np.float32)
    for a in axes:
        t = tables[a]
        mat = np.zeros((t.n_in, t.n_out), np.float32)
        rows = np.repeat(np.arange(t.n_out), np.diff(t.ptr))
        mat[t.idx, rows] = t.w.astype(np.float32)
        y = np.moveaxis(np.tensordot(np.moveaxis(y, a, -1), mat, axes=(-1, 0)), -1, a)
    return y


def resize(image: Any, shape: Any, method: Any, antialias: bool = True, *,
           threads: int | None = None) -> np.ndarray:
    """``jax.image.resize(image, shape, method, antialias)`` on a NumPy array.

    Every axis whose length changes is resampled (``scale = shape[d] / image.shape[d]``).
    ``threads``: the engine's threads (results do not depend on it). See the module
    docstring for dtypes and the accuracy target.

    >>> import numpy as np
    >>> from resamplex.compat import jax as rjax
    >>> rjax.resize(np.array([0.0, 1.0, 2.0, 3.0], np.float32), (2,), "linear",
    ...             antialias=False)
    array([0.5, 2.5], dtype=float32)
    >>> rjax.resize(np.arange(4, dtype=np.uint8), (8,), "nearest")
    array([0, 0, 1, 1, 2, 2, 3, 3], dtype=uint8)
    """
    x = as_array(image, "image")
    m = _method(method)
    out_shape = _shape(shape, x.ndim)
    if threads is not None:
        threads = check_threads(threads)
    x = _canonical(x)
    axes = [d for d in range(x.ndim) if out_shape[d] != x.shape[d]]
    for d in axes:
        if x.shape[d] == 0:
            raise ResamplexError(f"image: axis {d} has length 0 and cannot be resized to "
                                 f"{out_shape[d]}")
    if m == "nearest":
        return _nearest(x, out_shape, axes, threads)
    invs, shifts = zip(*(_resize_geometry(x.shape[d], out_shape[d]) for d in axes)) \
        if axes else ((), ())
    if m == "cubic-pytorch" and antialias:
        m = "cubic"
    key = ("jax.resize", tuple(out_shape), m, bool(antialias))
    return _run(x, out_shape, axes, invs, shifts, m, bool(antialias), True, threads, key)


def _nearest(x: np.ndarray, out_shape: tuple[int, ...], axes: Sequence[int],
             threads: int | None) -> np.ndarray:
    """``_resize_nearest``: input ``floor(float32((o + 0.5) m / n))`` (clamped, as JAX's
    gathers clamp), the input's dtype."""
    check_allocation(math.prod(out_shape) * x.dtype.itemsize, "shape")
    if not axes:
        return x.copy()
    if 0 in out_shape:
        return np.empty(out_shape, x.dtype)

    def tables() -> list[Any]:
        made: list[Any] = [None] * x.ndim
        for a in axes:
            m, n = x.shape[a], out_shape[a]
            pos = ((np.arange(n, dtype=F32) + F32(0.5)) * F32(m)) / F32(n)
            idx = np.clip(np.floor(pos).astype(np.int64), 0, m - 1)
            made[a] = AxisTable.gather(m, idx)
        return made

    key = ("jax.resize", "nearest", x.shape, tuple(out_shape))
    plan = PLANS.get_or_build(key, lambda: Plan(x.shape, tables(), weighted=False,
                                                op="jax nearest"))
    return plan(x, threads=threads)


def scale_and_translate(image: Any, shape: Any, spatial_dims: Sequence[int], scale: Any,
                        translation: Any, method: Any = "linear", antialias: bool = True, *,
                        threads: int | None = None) -> np.ndarray:
    """``jax.image.scale_and_translate`` on a NumPy array: output coordinate ``x`` of axis
    ``spatial_dims[i]`` reads the input at ``(x - translation[i]) / scale[i]`` (half-pixel
    centres), with JAX's kernels, antialiasing and zeroing outside the input.

    >>> import numpy as np
    >>> from resamplex.compat import jax as rjax
    >>> rjax.scale_and_translate(np.array([0.0, 1.0, 2.0, 3.0], np.float32), (4,), (0,),
    ...                          [1.0], [1.0], "linear")
    array([0., 0., 1., 2.], dtype=float32)
    """
    x = as_array(image, "image")
    m = _method(method)
    if m == "nearest":
        raise UnsupportedError("method: JAX's scale_and_translate has no nearest "
                               "(only resize has it)")
    out_shape = _shape(shape, x.ndim)
    if threads is not None:
        threads = check_threads(threads)
    x = _canonical(x)
    try:
        dims = [operator.index(d) for d in spatial_dims]
    except TypeError:
        raise ResamplexError(f"spatial_dims: integers; got {spatial_dims!r}") from None
    dims = [d + x.ndim if d < 0 else d for d in dims]
    if any(not 0 <= d < x.ndim for d in dims) or len(set(dims)) != len(dims):
        raise ResamplexError(f"spatial_dims: distinct axes of a {x.ndim}-d image; got "
                             f"{list(spatial_dims)}")
    sc = np.asarray(scale, dtype=np.float64).astype(F32).reshape(-1)
    tr = np.asarray(translation, dtype=np.float64).astype(F32).reshape(-1)
    if sc.size != len(dims) or tr.size != len(dims):
        raise ResamplexError("scale, translation: one value per spatial dim; got "
                             f"{sc.size} and {tr.size} for {len(dims)}")
    if not (np.isfinite(sc).all() and np.isfinite(tr).all()) or (sc == 0).any():
        raise ResamplexError(f"scale, translation: finite, scale nonzero; got {list(sc)}, "
                             f"{list(tr)}")
    for d in range(x.ndim):
        if d not in dims and out_shape[d] != x.shape[d]:
            raise ResamplexError(f"shape: axis {d} is not a spatial dim and keeps its length "
                                 f"{x.shape[d]}; got {out_shape[d]}")
    for d in dims:
        if x.shape[d] == 0 and out_shape[d]:
            raise ResamplexError(f"image: axis {d} has length 0")
    invs, shifts = zip(*(_st_geometry(s, t) for s, t in zip(sc, tr))) if dims else ((), ())
    if m == "cubic-pytorch" and antialias:
        m = "cubic"
    key = ("jax.scale_and_translate", tuple(out_shape), tuple(dims), sc.tobytes(),
           tr.tobytes(), m, bool(antialias))
    return _run(x, out_shape, dims, invs, shifts, m, bool(antialias), False, threads, key)
