"""``scipy.ndimage.zoom``, ``spline_filter``, ``spline_filter1d`` -> ``resamplex.compat.scipy``.

The door is SciPy's arithmetic operation for operation (docs/scipy.md, "What is exact"), so
every NumPy array of a dtype it takes is covered, with every order, mode and output. Not
covered: array-likes that are not ndarrays (lists, other libraries' arrays under SciPy's array
API dispatch) and calls so small that SciPy is faster (:data:`SMALL`). Arguments the door
refuses go to SciPy (the wrapper's fall-through), which raises its own error.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import Fall, Target, bind, settings

#: Calls whose input has fewer elements than this go to SciPy, faster there (measured by
#: ``python -m resamplex bench --patch``; docs/patch.md, "Never slower").
SMALL = {"zoom": 64, "spline_filter": 256, "spline_filter1d": 256}

NOT_ARRAY = Fall("input is not a numpy.ndarray")
BAD_ARGS = Fall("arguments SciPy refuses (its error is SciPy's)")
DTYPE = Fall("a dtype the door does not take (SciPy's error)")
SMALL_CALL = Fall("small call: SciPy is faster")

_ZOOM = ("input", "zoom", "output", "order", "mode", "cval", "prefilter", "grid_mode")
_FILTER = ("input", "order", "output", "mode")
_FILTER1D = ("input", "order", "axis", "output", "mode")


def _covered(x: Any, small: int) -> Fall | None:
    if type(x) is not np.ndarray:
        return NOT_ARRAY
    if x.dtype.kind not in "biufc":
        return DTYPE
    if x.size < small and settings.small:
        return SMALL_CALL
    return None


def _zoom(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import scipy as door

    small = SMALL["zoom"]

    def zoom(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _ZOOM, (None, 3, "constant", 0.0, True, False), positional=7)
        if v is None:
            return BAD_ARGS
        fall = _covered(v[0], small)
        if fall is not None:
            return fall
        x, factors, output, order, mode, cval, prefilter, grid_mode = v
        return door.zoom(x, factors, output, order, mode, cval, prefilter,
                         grid_mode=grid_mode)

    return zoom


def _spline_filter(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import scipy as door

    small = SMALL["spline_filter"]

    def spline_filter(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _FILTER, (3, np.float64, "mirror"))
        if v is None:
            return BAD_ARGS
        fall = _covered(v[0], small)
        if fall is not None:
            return fall
        return door.spline_filter(*v)

    return spline_filter


def _spline_filter1d(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import scipy as door

    small = SMALL["spline_filter1d"]

    def spline_filter1d(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _FILTER1D, (3, -1, np.float64, "mirror"))
        if v is None:
            return BAD_ARGS
        fall = _covered(v[0], small)
        if fall is not None:
            return fall
        return door.spline_filter1d(*v)

    return spline_filter1d


_MODULE = "scipy.ndimage._interpolation"
TARGETS = [Target(_MODULE, name, route, ("scipy.",), f"scipy.ndimage.{name}")
           for name, route in (("zoom", _zoom), ("spline_filter", _spline_filter),
                               ("spline_filter1d", _spline_filter1d))]
