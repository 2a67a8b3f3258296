"""scikit-image's ``resize``, ``rescale`` and ``downscale_local_mean`` on NumPy arrays (SPEC §6).

The rules of scikit-image 0.26 (``skimage/transform/_warps.py``, ``skimage/_shared/utils.py``,
``skimage/util/dtype.py``, ``skimage/measure/block.py``), checked against the installed
package; each lives in one small function below:

- **Output shape** (:func:`_output_shape`): a shape one shorter than the image keeps the last
  axis (channels); a longer one appends length-1 axes to the image; a shorter one is an error.
  Lengths are real numbers; the output's are SciPy's ``round(n * (1 / (n / length)))``, so
  one that rounds to 0 gives an empty axis (a length of 0 with anti-aliasing is an infinite
  Gaussian: scikit-image's ``OverflowError``).
- **Order** (:func:`_order`): default 0 for bool images, 1 otherwise; 0..5; bool images take
  only order 0.
- **Anti-aliasing** (:func:`_anti_aliasing`): on by default when some axis shrinks, unless
  the image is bool or is integer with order 0; refused for bool images. Sigma per axis
  ``max(0, (in / out - 1) / 2)``, or the one given (broadcast to every axis; negative is an
  error, positive on an axis that does not shrink is a warning).
- **Floats** (:func:`_to_float`): float16 becomes float32 first; for order > 0 the image is
  ``img_as_float`` (unsigned ``x * (1 / max)``, signed the same then ``max(., -1)``, bool
  ``0.0 / 1.0``, floats kept) or, with ``preserve_range``, integers become float64.
- **Modes** (:func:`_ndimage_mode`): ``constant, edge, symmetric, reflect, wrap`` ->
  ``grid-constant, nearest, reflect, mirror, grid-wrap``.
- **Resampling**: ``gaussian_filter(image, sigma, cval=cval, mode=ndi_mode)``
  (:mod:`resamplex.compat._gaussian`, engine tables), then
  ``resamplex.compat.scipy.zoom(filtered, [1 / f for f in in / out], order=order,
  mode=ndi_mode, cval=cval, grid_mode=True)``: SciPy's own call, so the values are what the
  SciPy door gives. Large images (:func:`_banded`) run both in bands of output rows
  (:func:`_smooth_zoom_bands`), with the same values.
- **Clip** (:func:`_clip`): to the input's range (NaN-aware), widened to ``cval`` in
  ``constant`` mode when ``cval`` is outside the input's range and inside the output's.
- **Block means** (:func:`downscale_local_mean`): ``block_reduce(image, factors, np.mean,
  cval)``: the image is padded at the end of each axis with ``cval`` (cast to its dtype) to a
  multiple of the factor, and every block's mean is its sum divided by the block size. Here:
  engine passes of unit-weight block tables in NumPy's summation order where it can be
  followed (:func:`_mean_steps`; float64 sums, exact for integer data), then one division by
  the block size in a pass over a trailing length-1 axis.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._checks import as_array, c_double, c_index, check_allocation, is_int
from .._engine.compile import exact as _exact
from .._engine.compile.exact import BlockPass, FloatPass
from .._engine.kernels._reduce import int_range
from .._engine.cache import PLANS
from .._engine.memory import new_array
from .._engine.plan import Plan
from .._resize import get_num_threads
from .._errors import ResamplexError, UnsupportedError, bad_type, bad_value
from .._tables import AxisTable
from . import _gaussian
from .scipy import ScipyRuntimeError

__all__ = ["resize", "rescale", "downscale_local_mean", "MODES"]

#: scikit-image's (``numpy.pad``) mode names and the ndimage modes they become.
MODES = {"constant": "grid-constant", "edge": "nearest", "symmetric": "reflect",
         "reflect": "mirror", "wrap": "grid-wrap"}


# ------------------------------------------------------------------------------ errors
#
# scikit-image checks few arguments itself: most errors are those of what it calls (NumPy's
# arithmetic, ``np.moveaxis``, SciPy's ``zoom`` and ``gaussian_filter``). The door raises the
# same types, each a ResamplexError as well.

class SkimageAttributeError(ResamplexError, AttributeError):
    """An image that is not an array (scikit-image reads ``image.shape``, ``image.ndim``:
    ``AttributeError``); also a ``ResamplexError``."""


class SkimageOverflowError(ResamplexError, OverflowError):
    """An infinite output length, or an infinite Gaussian (its radius, as SciPy's
    ``gaussian_filter`` takes it: ``OverflowError``); also a ``ResamplexError``."""


class SkimageAxisError(ResamplexError, np.exceptions.AxisError):
    """A ``channel_axis`` out of range (``np.moveaxis``: NumPy's ``AxisError``); also a
    ``ResamplexError``. Made as ``AxisError`` is: ``SkimageAxisError(axis, ndim, prefix)``."""


def _image(image: Any, attribute: str) -> np.ndarray:
    """``image`` as an array; scikit-image reads its ``attribute`` first, so what has none
    (a list, None) is refused as it refuses it."""
    if not hasattr(image, attribute):
        raise SkimageAttributeError(f"image: expected a numpy.ndarray (scikit-image reads "
                                    f"image.{attribute}); got {type(image).__name__}")
    return as_array(image, "image")


# ------------------------------------------------------------------------------ the rules

def _output_shape(image: np.ndarray, output_shape: Any) -> tuple[np.ndarray, tuple[Any, ...]]:
    """``_preprocess_resize_output_shape``."""
    try:
        shape = tuple(output_shape)
    except TypeError:
        raise bad_type("output_shape", output_shape, "an iterable of lengths") from None
    if len(shape) > image.ndim:
        image = image.reshape(image.shape + (1,) * (len(shape) - image.ndim))
    elif len(shape) == image.ndim - 1:
        shape = shape + (image.shape[-1],)
    elif len(shape) < image.ndim:
        raise ResamplexError(f"output_shape: its length cannot be smaller than the image's "
                             f"number of dimensions ({image.ndim}) less one; got {len(shape)}")
    for n in shape:
        # what NumPy divides (bools too); the lengths are SciPy's round(n_in * (1 / factor)):
        # one that rounds to 0 gives an empty axis, a negative one SciPy's ValueError
        if not isinstance(n, (numbers.Real, np.bool_)):
            raise bad_type("output_shape", output_shape, "real lengths")
        if math.isnan(n):
            raise bad_value("output_shape", output_shape, "lengths that are not NaN")
        if math.isinf(n):
            raise SkimageOverflowError(f"output_shape: expected finite lengths (SciPy's zoom "
                                       f"cannot convert float infinity to integer); got "
                                       f"{output_shape!r}")
    return image, shape


def _order(dtype: np.dtype, order: Any) -> int:
    """``_validate_interpolation_order``."""
    if order is None:
        return 0 if dtype == bool else 1
    accepted = "the spline interpolation order, 0 to 5"
    try:
        outside = order < 0 or order > 5
    except TypeError:
        raise bad_type("order", order, accepted) from None
    if outside:
        raise bad_value("order", order, accepted)
    if dtype == bool and order != 0:
        raise ResamplexError("order: the image is bool; interpolation (order > 0) is not "
                             "defined for bool data. Set order=0 or cast the image to "
                             f"another dtype; got order={order}")
    index = c_index(order)
    if index is None:
        # SciPy's zoom refuses it: its prefilter's range check between 1 and 2
        # (RuntimeError), its C code's parse of the order elsewhere (TypeError)
        if 1 < order < 2:
            raise ScipyRuntimeError(f"order: expected {accepted} (SciPy's spline_filter: "
                                    f"spline order not supported); got {order!r}")
        raise bad_type("order", order, accepted)
    return int(index)


def _ndimage_mode(mode: Any) -> str:
    """``_to_ndimage_mode``, with the grid variants of constant and wrap."""
    try:
        known = mode in MODES
    except TypeError:   # unhashable: scikit-image's dict lookup refuses it so
        known = None
    if not known:
        accepted = f"one of {', '.join(map(repr, MODES))} (numpy.pad names)"
        raise (bad_value if known is False else bad_type)("mode", mode, accepted)
    return MODES[mode]


def _float_type(dtype: np.dtype) -> np.dtype:
    """The dtype :func:`_to_float` gives: float32 for float16 and float32, else float64."""
    return np.dtype(np.float32 if dtype in (np.float16, np.float32) else np.float64)


def _to_float(image: np.ndarray, preserve_range: bool,
              out: np.ndarray | None = None) -> np.ndarray:
    """``convert_to_float``: ``img_as_float`` unless ``preserve_range`` (integers to float64).
    Integer and bool images are converted into ``out`` when it is given (float64, the
    image's shape)."""
    if image.dtype == np.float16:
        return image.astype(np.float32)
    kind = image.dtype.kind
    if kind == "f":
        return image
    if kind not in "biu":
        raise UnsupportedError(f"image: expected bool, integer or float data; got "
                               f"{image.dtype}")
    if preserve_range or kind == "b":
        if out is None:
            return image.astype(np.float64)
        np.copyto(out, image, casting="unsafe")
        return out
    top = np.iinfo(image.dtype).max
    out = np.multiply(image, 1.0 / top, dtype=np.float64, out=out)
    if kind == "i":
        np.maximum(out, -1.0, out=out)
    return out


def _anti_aliasing(anti_aliasing: Any, dtype: np.dtype, order: Any,
                   in_shape: tuple[int, ...], out_shape: tuple[Any, ...]) -> bool:
    """The default of ``anti_aliasing`` and its refusal for bool images."""
    if anti_aliasing is None:
        anti_aliasing = (dtype != bool
                         and not (np.issubdtype(dtype, np.integer) and order == 0)
                         and any(x < y for x, y in zip(out_shape, in_shape)))
    if dtype == bool and anti_aliasing:
        raise ResamplexError("anti_aliasing: must be False for boolean images")
    return bool(anti_aliasing)


def _sigma(sigma: Any, factors: np.ndarray) -> np.ndarray:
    """The Gaussian's standard deviation per axis (scikit-image's default, or the one
    given broadcast to every axis; checked as scikit-image checks it)."""
    if sigma is None:
        sigmas = np.maximum(0, (factors - 1) / 2)
    else:
        accepted = f"a number or one per axis ({factors.size})"
        given = np.atleast_1d(sigma)
        if given.dtype.kind not in "biuf":   # strings, None, complex: NumPy's TypeError
            raise bad_type("anti_aliasing_sigma", sigma, accepted)
        try:
            sigmas = given.astype(np.float64) * np.ones_like(factors)
        except ValueError:
            raise bad_value("anti_aliasing_sigma", sigma, accepted) from None
        if sigmas.ndim != 1:
            raise bad_value("anti_aliasing_sigma", sigma, accepted)
        if np.any(sigmas < 0):
            raise ResamplexError("anti_aliasing_sigma: the anti-aliasing standard deviation "
                                 f"must be greater than or equal to zero; got {sigma!r}")
        if np.any((sigmas > 0) & (factors <= 1)):
            warnings.warn("Anti-aliasing standard deviation greater than zero but not "
                          "down-sampling along all axes", UserWarning, stacklevel=4)
        # SciPy's gaussian_filter leaves an axis whose sigma is not > 1e-15 (NaN too) as it is
        sigmas = np.where(np.isnan(sigmas), 0.0, sigmas)
    if math.inf in sigmas.tolist():
        raise SkimageOverflowError(f"anti_aliasing_sigma: an infinite Gaussian (its radius "
                                   f"cannot be converted to an integer); got {sigmas.tolist()} "
                                   "(an output length of 0 gives one)")
    return sigmas


def _clip_range(image: np.ndarray | None, dtype: np.dtype, source: np.ndarray | None = None,
                preserve_range: bool = False) -> tuple[Any, Any, bool]:
    """The range ``_clip_warp_output`` clips to: ``image``'s minimum and maximum (ignoring
    NaN if there is one; the third value says so), as ``dtype`` (the output's).

    ``source``: the integer or bool image that ``image`` was converted from
    (:func:`_to_float`, a non-decreasing map, to float64 or float32 as the output): its
    minimum and maximum, converted, are ``image``'s, found in the smaller array; ``image``
    may then be None (not converted as a whole)."""
    if source is not None and source.size:
        ends = int_range(source)    # one pass (two with NumPy's min and max)
        lo, hi = _to_float(ends, preserve_range).astype(dtype)
        return lo, hi, False
    assert image is not None
    lo = np.min(image)
    if np.isnan(lo):
        return np.nanmin(image), np.nanmax(image), True
    return lo, np.max(image), False


def _clip(image: np.ndarray | None, out: np.ndarray, mode: str, cval: Any,
          source: np.ndarray | None = None, preserve_range: bool = False) -> None:
    """``_clip_warp_output`` with ``clip=True``: clip ``out`` in place to ``image``'s range
    (:func:`_clip_range`), widened to ``cval`` in constant mode where the output holds it."""
    lo, hi, nan = _clip_range(image, out.dtype, source, preserve_range)
    find_lo, find_hi = (np.nanmin, np.nanmax) if nan else (np.min, np.max)
    if (mode == "constant" and not lo <= cval <= hi
            and find_lo(out) <= cval <= find_hi(out)):
        c = out.dtype.type(cval)
        lo, hi = min(lo, c), max(hi, c)
    np.clip(out, np.asarray(lo), np.asarray(hi), out=out)


def _zoom(filtered: np.ndarray, factors: np.ndarray, order: int, mode: str,
          cval: Any) -> np.ndarray:
    from . import scipy as ndi  # the SciPy door: SciPy's zoom, SciPy's values

    return ndi.zoom(filtered, [1 / f for f in factors], order=order, mode=mode, cval=cval,
                    grid_mode=True)


#: Images whose floating-point form takes at least this many bytes are smoothed and zoomed
#: in bands of rows (:func:`_smooth_zoom_bands`), each band's input about ``_BAND_BYTES``.
_BAND_MIN_BYTES = 1 << 24
_BAND_BYTES = 3 << 20


def _banded(image: np.ndarray, order: int, mode: str) -> bool:
    """Whether :func:`_smooth_zoom_bands` takes this call: a large image of at least two
    axes converted to float (or float already), zoomed at order 1 (no spline prefilter), in
    a mode that reads no ``cval`` (the Gaussian pads with it, the zoom's taps read it)."""
    size = _float_type(image.dtype).itemsize
    return (order == 1 and image.ndim >= 2 and image.shape[0] > 1
            and mode not in ("grid-constant", "constant")
            and image.dtype.kind in "biuf" and image.dtype.isnative
            and image.size * size >= _BAND_MIN_BYTES)


@functools.lru_cache(maxsize=8)
def _band_tables(in_shape: tuple[int, ...], out_shape: tuple[int, ...],
                 keyed: tuple[tuple[int, bytes], ...], fmode: str, mode: str, order: int,
                 factors: tuple[float, ...]) -> tuple[dict[int, AxisTable], list[Any]]:
    """The whole image's tables of :func:`_smooth_zoom_bands`: the Gaussian's per filtered
    axis, the zoom's per axis."""
    from . import scipy as ndi

    gauss = {a: _gaussian.correlate_table(np.frombuffer(w, np.float64), in_shape[a], fmode)
             for a, w in keyed}
    zoom = [ndi.zoom_table(n, m, f, order, mode, grid_mode=True, npad=0)
            for n, m, f in zip(in_shape, out_shape, factors)]
    return gauss, zoom


@functools.cache
def _numpy_clip_keeps_ties() -> bool:
    """Whether this NumPy's ``clip`` keeps a value that ties a bound (NumPy 2.2 on: -0.0
    clipped at +0.0 stays -0.0), as the zoom's store clips (``SplinePlan(clip=True)``)."""
    return bool(np.signbit(np.clip(np.array([-0.0]), 0.0, 1.0))[0])


def _clip_in_store(bounds: tuple[Any, Any], dtype: np.dtype) -> bool:
    """Whether the zoom's store clips to ``bounds`` as ``np.clip`` does here: bounds that
    are not NaN (np.clip makes NaN of those), and with a NumPy before 2.2 (a tie goes to
    the bound) float64 outputs and no bound of -0.0: a float64 zoom's sums start at +0.0,
    so none is -0.0 and a tie of +0.0 with +0.0 is the same either way (float32 stores
    round tiny negative sums to -0.0)."""
    if any(np.isnan(b) for b in bounds):
        return False
    return _numpy_clip_keeps_ties() or (dtype == np.float64 and not any(
        b == 0 and np.signbit(b) for b in bounds))


def _csr_rows(t: AxisTable, a: int, b: int) -> tuple[AxisTable, int, int]:
    """Outputs ``[a, b)`` of ``t`` reading inputs ``[lo, hi)``, renumbered from ``lo``."""
    p0, p1 = int(t.ptr[a]), int(t.ptr[b])
    idx = t.idx[p0:p1]
    lo, hi = int(idx.min()), int(idx.max()) + 1
    return AxisTable(hi - lo, b - a, t.ptr[a:b + 1] - p0, idx - lo, t.w[p0:p1]), lo, hi


def _smooth_zoom_bands(image: np.ndarray, preserve_range: bool, sigmas: np.ndarray,
                       factors: np.ndarray, order: int, mode: str, cval: float,
                       clip: tuple[Any, Any] | None) -> np.ndarray:
    """The Gaussian, then the zoom, as the whole-image path computes them
    (``_to_float``, ``gaussian_filter(image, sigmas, mode=mode)``, ``zoom(filtered, ...,
    order, mode, grid_mode=True)``), band of output rows by band: each band converts the
    input rows its smoothed rows read, smooths the rows its zoomed rows read and zooms them
    into its rows of the output. Every value is the same sum of the same values (the
    tables of the band are the whole image's rows, renumbered), so the output is the same;
    the intermediates are a few MB that stay in cache and are reused, where the whole image
    writes (and faults in) three arrays of its own size in float. ``factors``: each axis's
    input length over its output length, as :func:`resize` has them."""
    from . import scipy as ndi
    from .._engine.compile.splines import SplinePlan, SplineTable

    fdtype = _float_type(image.dtype)
    in_shape = image.shape
    zooms = [1 / f for f in factors]
    out_shape = ndi._output_shape(in_shape, zooms)
    coords = ndi.zoom_factors(in_shape, out_shape, True)
    fmode = _gaussian._mode(mode)
    steps = [(a, _gaussian._kernel(float(s), 0, 4.0, None)) for a, s in enumerate(sigmas)
             if s > 1e-15]
    keyed = tuple((a, w.tobytes()) for a, w in steps)
    perm = ndi._kept_axes_first(in_shape, out_shape, order)
    lead = ndi.lead_axes(in_shape, out_shape, order, cval)   # a float output: checked below
    out = new_array(out_shape, fdtype)
    row_bytes = math.prod(in_shape[1:]) * fdtype.itemsize
    rows = max(1, int(_BAND_BYTES // max(1, row_bytes * in_shape[0] / out_shape[0])))
    # The clip in the zoom's store (each row as it is written), unless the zoom skips taps
    # (lead) on a float image, whose outputs are checked for non-finite values first (a
    # clipped infinity would not show: an integer image's are always finite), or the
    # store's clip is not this NumPy's (_clip_in_store): np.clip then, band by band.
    finite = image.dtype.kind in "biu"
    fused = clip is not None and (not lead or finite) and _clip_in_store(clip, fdtype)
    key = ("skimage.bands", in_shape, out_shape, fdtype, keyed, fmode, mode, cval, rows,
           image.dtype, preserve_range, fused)

    gauss, zoom = _band_tables(in_shape, out_shape, keyed, fmode, mode, order, coords)
    bands = [(p, min(p + rows, out_shape[0])) for p in range(0, out_shape[0], rows)]

    def smooth(g0: AxisTable | None, n: int) -> Plan:
        tabs: list[AxisTable | None] = [None] * len(in_shape)
        for a, _ in steps:
            tabs[a] = g0 if a == 0 else gauss[a]
        specs = [FloatPass(fdtype.name, compute="float64", rounding="toward_zero",
                           order="pairs" if _gaussian._symmetry(w) else "sequential")
                 for _, w in steps]
        # img_as_float read by the Gaussian's first pass where it runs along the rows (g0)
        # in pairs (FloatPass.load), instead of a converted copy of the band's rows
        if g0 is not None and specs[0].order == "pairs" \
                and image.dtype.name in _exact.LOAD_SOURCES \
                and _exact.ring_slots(g0, math.prod(in_shape[1:])) is not None:
            top = 1.0 if preserve_range else float(np.iinfo(image.dtype).max)
            signed = image.dtype.kind == "i" and not preserve_range
            specs[0] = dataclasses.replace(specs[0],
                                           load=(1.0 / top, -1.0 if signed else -math.inf))
        return Plan((n,) + in_shape[1:], tabs, weighted=True, op="gaussian_filter",
                    order=[a for a, _ in steps], keep_order=True, passes=specs)

    def zoomer(lead: int, p: int, q: int, ga: int, gb: int) -> Any:
        t0 = zoom[0]
        band = [SplineTable(gb - ga, q - p, np.ascontiguousarray(t0.idx[p:q] - ga),
                            np.ascontiguousarray(t0.w[p:q]), t0.outside[p:q])] + zoom[1:]
        return SplinePlan(tuple(((gb - ga,) + in_shape[1:])[a] for a in perm),
                          [band[a] for a in perm], order=order, cval=cval, prefilter=False,
                          init="reflect", lead=lead, clip=fused)

    def work(mine: list[tuple[int, int]], threads: int) -> None:
        fbuf = gbuf = None
        for p, q in mine:
            zi = zoom[0].idx[p:q]
            ga, gb = int(zi.min()), int(zi.max()) + 1
            if 0 in gauss:
                g0, fa, fb = _csr_rows(gauss[0], ga, gb)
            else:
                g0, fa, fb = None, ga, gb
            plan = None if not steps else \
                PLANS.get_or_build(key + ("smooth", p), functools.partial(smooth, g0, fb - fa))
            # the rows of img_as_float (or the float image itself, or the integer rows a
            # loading first pass reads)
            first = plan.passes[0] if plan is not None and plan.passes else None
            if image.dtype == fdtype or (isinstance(first, FloatPass) and first.load is not None):
                f = image[fa:fb]
            else:
                if fbuf is None or fbuf.shape[0] < fb - fa:
                    fbuf = np.empty((fb - fa,) + in_shape[1:], fdtype)
                f = _to_float(image[fa:fb], preserve_range, out=fbuf[:fb - fa])
            if plan is not None:
                if gbuf is None or gbuf.shape[0] < gb - ga:
                    gbuf = np.empty((gb - ga,) + in_shape[1:], fdtype)
                g = gbuf[:gb - ga]
                _exact.run(plan, f, g, threads)
            else:
                g = f
            dst = out[p:q]
            fast = PLANS.get_or_build(key + ("zoom", p, lead),
                                      functools.partial(zoomer, lead, p, q, ga, gb))
            fast(g.transpose(perm), dst.transpose(perm), threads, clip if fused else None)
            if lead and not finite and not np.isfinite(dst).all():
                full = PLANS.get_or_build(key + ("zoom", p, 0),
                                          functools.partial(zoomer, 0, p, q, ga, gb))
                full(g.transpose(perm), dst.transpose(perm), threads)
            if clip is not None and not fused:  # elementwise: the band's part of the clip
                np.clip(dst, np.asarray(clip[0]), np.asarray(clip[1]), out=dst)

    # Bands in turn to each of the library's threads, each band on one thread (the passes
    # of a band are too short to share; NumPy and the engine let go of the GIL).
    workers = min(get_num_threads(), len(bands))
    if workers <= 1:
        work(bands, 1)
    else:
        with ThreadPoolExecutor(workers) as pool:
            for done in [pool.submit(work, bands[i::workers], 1) for i in range(workers)]:
                done.result()
    return out


# ------------------------------------------------------------------------------ doors

def resize(image: Any, output_shape: Any, order: int | None = None, mode: str = "reflect",
           cval: float = 0, clip: bool = True, preserve_range: bool = False,
           anti_aliasing: bool | None = None,
           anti_aliasing_sigma: Any = None) -> np.ndarray:
    """Resize an image to ``output_shape``: ``skimage.transform.resize``.

    Parameters
    ----------
    image : numpy.ndarray
        Input image, any number of dimensions.
    output_shape : iterable of int
        ``(rows, cols[, ...][, dim])``; without ``dim`` the channel axis is kept.
    order : int, optional
        Spline order 0..5 (default 0 for bool images, else 1).
    mode : {'reflect', 'constant', 'edge', 'symmetric', 'wrap'}, optional
        Outside the image, as ``numpy.pad`` names it.
    cval : float, optional
        The value outside the image for ``constant``.
    clip : bool, optional
        Clip the result to the input's range of values.
    preserve_range : bool, optional
        Keep the input's values instead of ``img_as_float``'s [0, 1] / [-1, 1] scaling.
    anti_aliasing : bool, optional
        Smooth with a Gaussian before shrinking (default: when shrinking, except for bool
        images and integer images at order 0).
    anti_aliasing_sigma : float or sequence of float, optional
        The Gaussian's standard deviation per axis (default ``max(0, (in/out - 1) / 2)``).

    Returns
    -------
    numpy.ndarray
        float64 (float32 for float16/float32 input), or the input's dtype at order 0.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat.skimage import resize
    >>> image = np.arange(16, dtype=np.uint8).reshape(4, 4) * 16
    >>> resize(image, (2, 2), order=0, anti_aliasing=False, preserve_range=True)
    array([[ 80, 112],
           [208, 240]], dtype=uint8)
    """
    image = _image(image, "shape")
    if image.dtype.kind not in "biuf":
        raise UnsupportedError(f"image: expected bool, integer or float data; got "
                               f"{image.dtype}")
    image, shape = _output_shape(image, output_shape)
    in_shape = image.shape
    in_type = image.dtype
    if in_type == np.float16:
        image = image.astype(np.float32)
    anti_aliasing = _anti_aliasing(anti_aliasing, in_type, order, in_shape, shape)
    if any(n == 0 for n in shape):
        with np.errstate(divide="ignore"):   # an infinite factor, as in scikit-image
            factors = np.divide(in_shape, shape)
    else:
        factors = np.divide(in_shape, shape)
    order = _order(in_type, order)
    source = None
    ndi_mode = _ndimage_mode(mode)
    check_allocation(math.prod(max(0, round(float(n))) for n in shape) * 8, "output_shape")
    sigmas = _sigma(anti_aliasing_sigma, factors) if anti_aliasing else None
    cval = _cval(cval, sigmas, factors, clip and mode == "constant")
    if order > 0:
        source = image if image.dtype.kind in "biu" else None
        if sigmas is not None and _banded(image, order, ndi_mode) \
                and all(float(n) >= 1 for n in shape):
            # no cval in these modes: the range is the input's alone, each band clipped
            bounds = _clip_range(image if source is None else None,
                                 _float_type(image.dtype), source, bool(preserve_range))
            return _smooth_zoom_bands(image, bool(preserve_range), sigmas, factors, order,
                                      ndi_mode, float(cval), bounds[:2] if clip else None)
        image = _to_float(image, bool(preserve_range))
    if sigmas is not None:
        filtered = _gaussian.gaussian_filter(image, [float(s) for s in sigmas], cval=cval,
                                             mode=ndi_mode)
    else:
        filtered = image
    out = _zoom(filtered, factors, order, ndi_mode, cval)
    if clip:
        _clip(image, out, mode, cval, source, bool(preserve_range))
    return out


def _cval(cval: Any, sigmas: np.ndarray | None, factors: np.ndarray,
          compared: bool) -> Any:
    """``cval`` as a float, where the call reads it as SciPy's C code parses a double (a
    string or None is a TypeError there): the Gaussian of an axis that is smoothed, a zoom
    that is not 1 (SciPy's zoom returns the input before it reads ``cval`` otherwise), the
    clip in ``constant`` mode (``compared``). A call that never reads it takes anything."""
    value = c_double(cval)
    if value is not None:
        return value
    smoothed = sigmas is not None and bool((sigmas > 1e-15).any())
    if smoothed or compared or any(1 / f != 1 for f in factors):
        raise bad_type("cval", cval, "a real number")
    return cval


def _channel_axis(channel_axis: Any, ndim: int) -> int | None:
    """``channel_as_last_axis``: None, or one axis (an int or a 1-tuple) of the image, with
    the errors of ``np.moveaxis`` (TypeError, AxisError)."""
    if channel_axis is None:
        return None
    accepted = "one axis (an integer or a 1-tuple) or None"
    axes: Any = (channel_axis,) if np.isscalar(channel_axis) else channel_axis
    try:
        count = len(axes)
    except TypeError:
        raise bad_type("channel_axis", channel_axis, accepted) from None
    if count != 1:
        raise bad_value("channel_axis", channel_axis, accepted)
    axis = c_index(axes[0])
    if axis is None:
        raise bad_type("channel_axis", channel_axis, accepted)
    if not -ndim <= axis < ndim:
        raise SkimageAxisError(axis, ndim, "channel_axis")
    return int(axis)


def rescale(image: Any, scale: Any, order: int | None = None, mode: str = "reflect",
            cval: float = 0, clip: bool = True, preserve_range: bool = False,
            anti_aliasing: bool | None = None, anti_aliasing_sigma: Any = None, *,
            channel_axis: int | None = None) -> np.ndarray:
    """Scale an image by ``scale``: ``skimage.transform.rescale``.

    The output shape is ``max(round(scale * shape), 1)`` per axis (the channel axis, when
    ``channel_axis`` is given, is kept); then :func:`resize`.

    Parameters
    ----------
    image : numpy.ndarray
        Input image.
    scale : float or sequence of float
        One factor, or one per spatial axis.
    order, mode, cval, clip, preserve_range, anti_aliasing, anti_aliasing_sigma
        As :func:`resize`.
    channel_axis : int, optional
        The axis of channels (not scaled), or None for a grayscale image.

    Returns
    -------
    numpy.ndarray
        The scaled image.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat.skimage import rescale
    >>> rescale(np.zeros((512, 512)), 0.1).shape
    (51, 51)
    >>> rescale(np.zeros((10, 20, 3), np.uint8), 0.5, channel_axis=-1).shape
    (5, 10, 3)
    """
    image = _image(image, "shape")
    axis = _channel_axis(channel_axis, image.ndim)
    if axis is not None:
        if axis != -1:
            image = np.moveaxis(image, axis, -1)
    given = np.atleast_1d(scale)
    if given.dtype.kind not in "biuf":   # strings, None, complex: NumPy's TypeError
        raise bad_type("scale", scale, "a number or one per spatial axis")
    scales = given.astype(np.float64)
    if scales.ndim != 1 or np.isnan(scales).any():
        raise bad_value("scale", scale, "numbers, one or one per spatial axis")
    if np.isinf(scales).any():
        raise SkimageOverflowError(f"scale: expected finite numbers (SciPy's zoom cannot "
                                   f"convert float infinity to integer); got {scale!r}")
    if len(scales) > 1:
        spatial = image.ndim - (axis is not None)
        if len(scales) != spatial:
            raise ResamplexError(f"scale: supply a single scale, or one value per spatial "
                                 f"axis ({spatial}); got {len(scales)}")
        if axis is not None:
            scales = np.concatenate((scales, [1]))
    orig = np.asarray(image.shape)
    shape = np.maximum(np.round(scales * orig), 1)
    if axis is not None:
        shape[-1] = orig[-1]
    out = resize(image, shape, order=order, mode=mode, cval=cval, clip=clip,
                 preserve_range=preserve_range, anti_aliasing=anti_aliasing,
                 anti_aliasing_sigma=anti_aliasing_sigma)
    return out if axis is None or axis == -1 else np.moveaxis(out, -1, axis)


# ------------------------------------------------------------------------------ block means

def _readable(x: np.ndarray) -> np.ndarray:
    """``x`` in a type the passes read, with the values ``numpy.mean`` adds: bool as 0/1
    bytes, float16 as float32 and 64-bit and unsigned 32-bit integers as float64 (NumPy's
    sum casts them so)."""
    if x.dtype == bool:
        return x.view(np.uint8)
    if x.dtype == np.float16:
        return x.astype(np.float32)
    if x.dtype.name in ("uint8", "int8", "uint16", "int16", "int32", "float32",
                        "float64") and x.dtype.isnative:
        return x
    return x.astype(np.float64)


def _block_table(n: int, f: int) -> AxisTable:
    """Unit weights over ``[o f, min(o f + f, n))``: the sum of block ``o`` (the padding,
    when ``cval`` is 0, adds nothing and has no taps)."""
    n_out = -(-n // f)
    idx = np.arange(n, dtype=np.int64)
    ptr = np.minimum(np.arange(n_out + 1, dtype=np.int64) * f, n)
    return AxisTable(n, n_out, ptr, idx, np.ones(n, dtype=np.float64))


def _mean_steps(factors: tuple[int, ...]) -> tuple[list[int], str]:
    """The order of the block sums and their kind: ``"exact"`` (NumPy's additions in NumPy's
    order), ``"block"`` (the same, with a block pass) or ``"separable"``.

    ``numpy.mean`` over ``view_as_blocks`` of a C-ordered array adds in the order of its
    iterator, which puts the smallest stride innermost. If the last axis is reduced
    (factor > 1), each output adds the rows of that axis (pairwise: left to right below 8
    elements), and the row sums one after another, the other reduced axes in row-major
    order. If the last axis is kept (channels), every element of a block is added one after
    another in row-major order. Here the last reduced axis goes first when it is the array's
    last axis (a tap pass); the others follow as one tap pass, or as one block pass when
    they are two adjacent axes (one sequential sum over the block, row-major). More axes,
    or two apart, are summed axis by axis: within a few ulp of NumPy's float sums."""
    axes = [a for a, f in enumerate(factors) if f > 1]
    if not axes:
        return [], "none"
    first = [axes.pop()] if axes[-1] == len(factors) - 1 else []
    if len(axes) == 2 and axes[1] == axes[0] + 1:
        return first + axes, "block"
    return first + axes[::-1], "exact" if len(axes) <= 1 else "separable"


def _mean_plan(shape: tuple[int, ...], factors: tuple[int, ...], compute: str,
               store: str) -> Plan:
    """Block sums (``compute``) in NumPy's order (``_mean_steps``), then one pass over a
    trailing length-1 axis that divides by the block size and stores ``store``."""
    def build() -> Plan:
        tables: list[AxisTable | None] = [None if f == 1 else _block_table(n, f)
                                          for n, f in zip(shape, factors)]
        tables.append(AxisTable.gather(1, np.zeros(1, dtype=np.int64)))
        order, how = _mean_steps(factors)
        taps = len(order) - 2 if how == "block" else len(order)
        specs: list[Any] = [FloatPass(compute, compute=compute) for _ in range(taps)]
        if how == "block":
            fa, fb = factors[order[-2]], factors[order[-1]]
            cells = tuple(((i, j),) for i in range(fa) for j in range(fb))
            specs.append(BlockPass(compute, block=(fa, fb), groups=cells, acc=compute,
                                   finish=compute, scale=1.0))
        order.append(len(shape))
        specs.append(FloatPass(store, compute=compute,
                               divisors=(float(math.prod(factors)),)))
        return Plan(shape + (1,), tables, weighted=True, op="downscale_local_mean",
                    order=order, keep_order=True, passes=specs)

    return PLANS.get_or_build(("skimage.block_mean", shape, factors, compute, store), build)


def _pad_value(cval: Any, dtype: np.dtype) -> np.ndarray:
    """``cval`` as ``numpy.pad(..., constant_values=cval)`` writes it into an array of
    ``dtype``: NumPy's scalar of it, assigned (None is NaN in floats; NaN, infinities and
    overflows are errors in signed integers, wrap in unsigned ones). A 0-d array."""
    accepted = "a number (numpy.pad's constant_values)"
    value = np.array(cval)
    if value.size != 1:   # before/after pairs: numpy.pad's, not reproduced here
        raise bad_value("cval", cval, accepted)
    fill = np.empty(1, dtype)
    try:
        fill[:] = value.ravel()[0]
    except TypeError:
        raise bad_type("cval", cval, accepted) from None
    except ValueError:
        raise bad_value("cval", cval, accepted) from None
    except OverflowError:
        raise SkimageOverflowError(f"cval: expected {accepted} that fits the image's type "
                                   f"{dtype}; got {cval!r}") from None
    return fill.reshape(())


def downscale_local_mean(image: Any, factors: Any, cval: float = 0,
                         clip: bool = True) -> np.ndarray:
    """Block means: ``skimage.transform.downscale_local_mean``.

    Each axis is padded at its end with ``cval`` (cast to the image's dtype, as ``numpy.pad``
    does) to a multiple of its factor; every output is the mean of its block. Integer and
    bool images give float64: exact block sums (while they stay below 2^53) divided once by
    the block size, the same bits as ``numpy.mean``. Float images keep their dtype (float16
    summed in float32) and are summed in NumPy's order where a tap or block pass can follow it
    (up to two reduced axes besides the last one, or two adjacent ones when the last axis is
    kept, and a last-axis factor below 8, where NumPy's pairwise sum is left to right): the
    same bits for C-ordered images; otherwise within a few ulp of ``numpy.mean``.

    Parameters
    ----------
    image : numpy.ndarray
        Input image.
    factors : int or tuple of int
        The block size: one integer for every axis, or a tuple with one per axis.
    cval : float, optional
        The padding value.
    clip : bool, optional
        Unused (as in scikit-image).

    Returns
    -------
    numpy.ndarray
        The block means, ``ceil(n / factor)`` per axis.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat.skimage import downscale_local_mean
    >>> a = np.arange(15).reshape(3, 5)
    >>> downscale_local_mean(a, (2, 3))
    array([[3.5, 4. ],
           [5.5, 4.5]])
    """
    image = _image(image, "ndim")
    if image.dtype.kind not in "biuf":
        raise UnsupportedError(f"image: expected bool, integer or float data; got "
                               f"{image.dtype}")
    if np.isscalar(factors):
        factors = (factors,) * image.ndim
    elif not isinstance(factors, tuple):
        raise UnsupportedError(f"factors: expected an integer or a tuple (scikit-image's "
                               f"view_as_blocks takes a tuple); got {type(factors).__name__}")
    if len(factors) != image.ndim:
        raise ResamplexError(f"factors: expected a scalar or one per axis ({image.ndim}); got "
                             f"{len(factors)}")
    if image.ndim == 0:
        return np.mean(image, axis=())   # scikit-image's block mean of no axis
    accepted = "integers >= 1"
    for f in factors:   # scikit-image compares every factor with 1 first
        try:
            small = f < 1
        except TypeError:
            raise bad_type("factors", factors, accepted) from None
        if small:
            raise ResamplexError("factors: down-sampling factors must be >= 1 (use resize to "
                                 f"up-sample an image); got {factors!r}")
    if not all(is_int(f) for f in factors):   # NumPy's pad and strides take integers only
        raise bad_type("factors", factors, accepted)
    facs = tuple(int(f) for f in factors)
    x = image
    if any(n % f for n, f in zip(image.shape, facs)):
        fill = _pad_value(cval, image.dtype)
        if fill != 0 or _mean_steps(facs)[1] == "block":   # a block pass takes whole blocks
            x = np.pad(image, [(0, -n % f) for n, f in zip(image.shape, facs)],
                       constant_values=fill)
    x = _readable(x)
    if image.dtype.kind == "f":
        store = image.dtype.name
        compute = "float64" if store == "float64" else "float32"
    else:
        store = compute = "float64"
    out_shape = tuple(-(-n // f) for n, f in zip(x.shape, facs))
    result = np.empty(out_shape + (1,), dtype=store)
    if result.size == 0:
        return result[..., 0]
    plan = _mean_plan(tuple(x.shape), facs, compute, store)
    _exact.run(plan, np.ascontiguousarray(x)[..., None], result, None)
    return result[..., 0]
