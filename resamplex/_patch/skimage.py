"""``skimage.transform.resize``, ``rescale``, ``downscale_local_mean`` ->
``resamplex.compat.skimage``, with every name scikit-image's modules bound to them (its
pyramids call ``resize`` through ``skimage.transform._pyramids``).

``resize`` and ``rescale`` are scikit-image's rules over the SciPy door's zoom and Gaussian,
both SciPy's arithmetic (docs/skimage.md): every NumPy array is covered. ``downscale_local_mean``
is covered where its block sums are NumPy's additions in NumPy's order: integer images up to
32 bits and bool (exact sums), and C-ordered float images whose reduced axes the door's
passes sum as ``numpy.mean`` does (``compat.skimage._mean_steps``; a last-axis factor below 8).
Not covered: inputs that are not ndarrays, 64-bit integers (NumPy's float64 sums round beyond
2^53), and calls so small that scikit-image is faster (:data:`SMALL`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import Fall, Target, bind, settings, is_int

#: Calls whose input has fewer elements than this go to scikit-image, faster there (same
#: bits either way). Measured per call, patched against scikit-image in one process, 1
#: thread, (s, s, 3) float64 and uint8 images, s = 2 to 32 (the 2-core EPYC VM;
#: docs/patch.md, "Never slower"): ``resize`` x2 won from 8x8x3 inputs (55 against 66-74 us;
#: 0.6-0.8x below), ``downscale_local_mean`` at every size (1.03-1.85x).
SMALL = {"resize": 128, "rescale": 128, "downscale_local_mean": 0}

NOT_ARRAY = Fall("image is not a numpy.ndarray")
DTYPE = Fall("a dtype the door does not take")
BAD_ARGS = Fall("arguments scikit-image refuses (its error is scikit-image's)")
WIDE_INT = Fall("64-bit integers: NumPy's float64 block sums round beyond 2^53")
MEAN_ORDER = Fall("float blocks NumPy sums in an order the door does not follow "
                  "(not C-ordered, a last-axis factor of 8 or more, one block across the "
                  "last axis, or reduced axes apart)")
SMALL_CALL = Fall("small call: scikit-image is faster (measured; same bits either way)")

_RESIZE = ("image", "output_shape", "order", "mode", "cval", "clip", "preserve_range",
           "anti_aliasing", "anti_aliasing_sigma")
_RESCALE = ("image", "scale", "order", "mode", "cval", "clip", "preserve_range",
            "anti_aliasing", "anti_aliasing_sigma", "channel_axis")
_MEAN = ("image", "factors", "cval", "clip")
_DEFAULTS = (None, "reflect", 0, True, False, None, None)


def _covered(x: Any, small: int) -> Fall | None:
    if type(x) is not np.ndarray:
        return NOT_ARRAY
    if x.dtype.kind not in "biuf":
        return DTYPE
    if x.size < small and settings.small:
        return SMALL_CALL
    return None


def _resize(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import skimage as door

    small = SMALL["resize"]

    def resize(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _RESIZE, _DEFAULTS)
        if v is None:
            return BAD_ARGS
        fall = _covered(v[0], small)
        if fall is not None:
            return fall
        return door.resize(*v)

    return resize


def _rescale(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import skimage as door

    small = SMALL["rescale"]

    def rescale(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _RESCALE, _DEFAULTS + (None,), positional=9)
        if v is None:
            return BAD_ARGS
        fall = _covered(v[0], small)
        if fall is not None:
            return fall
        return door.rescale(*v[:9], channel_axis=v[9])

    return rescale


def _mean_covered(image: np.ndarray, factors: Any) -> Fall | None:
    if image.dtype.kind in "iu" and image.dtype.itemsize > 4:
        return WIDE_INT
    if image.dtype.kind != "f":
        return None
    from ..compat.skimage import _mean_steps

    if is_int(factors):
        facs = (int(factors),) * image.ndim
    elif type(factors) is tuple and len(factors) == image.ndim \
            and all(is_int(f) and f >= 1 for f in factors):
        facs = tuple(int(f) for f in factors)
    else:
        return BAD_ARGS
    if min(facs) < 1:
        return BAD_ARGS
    # One block across the last axis (of 2 or more): NumPy's reduction joins each block's
    # rows into one run and sums it pairwise, which the door does not follow
    if not image.flags.c_contiguous or facs[-1] >= 8 \
            or (image.ndim > 1 and image.shape[-1] <= facs[-1]) \
            or _mean_steps(facs)[1] == "separable":
        return MEAN_ORDER
    return None


def _downscale_local_mean(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import skimage as door

    small = SMALL["downscale_local_mean"]

    def downscale_local_mean(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _MEAN, (0, True))
        if v is None:
            return BAD_ARGS
        fall = _covered(v[0], small) or _mean_covered(v[0], v[1])
        if fall is not None:
            return fall
        return door.downscale_local_mean(*v)

    return downscale_local_mean


_MODULE = "skimage.transform._warps"
TARGETS = [Target(_MODULE, name, route, ("skimage.",), f"skimage.transform.{name}")
           for name, route in (("resize", _resize), ("rescale", _rescale),
                               ("downscale_local_mean", _downscale_local_mean))]
