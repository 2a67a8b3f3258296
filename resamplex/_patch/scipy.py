"""``scipy.ndimage.zoom``, ``spline_filter``, ``spline_filter1d`` -> ``resamplex.compat.scipy``.

The door is SciPy's arithmetic operation for operation (docs/scipy.md, "What is exact"), so
every NumPy array of a dtype it takes is covered, with every order, mode and output. Not
covered: array-likes that are not ndarrays (lists, other libraries' arrays under SciPy's array
API dispatch) and calls where SciPy is faster (:data:`SMALL`, :data:`LINES`). Arguments the door
refuses go to SciPy (the wrapper's fall-through), which raises its own error.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import Fall, Target, bind, is_int, settings

#: Where SciPy is faster, the call goes to SciPy (same bits either way). Measured per call,
#: patched against SciPy in one process, 1 thread (the 2-core EPYC VM; docs/patch.md,
#: "Never slower"): ``zoom`` orders 0-1 won from 32x32 inputs (SciPy's own call costs about
#: 12 us, the door's about 24), orders 2-5 at every size; ``spline_filter1d`` won from
#: 128x128 (SciPy's one-axis filter costs 1.5 us at 2x2) and lost on arrays of few long
#: lines (one line of 1e5: 0.22x; the door filters 16 lines side by side); ``spline_filter``
#: won at every size but those few-line arrays.
SMALL = {"zoom": 1024, "spline_filter1d": 8192}
LINES = 16          # fewer lines than this along a filtered axis: SciPy's

NOT_ARRAY = Fall("input is not a numpy.ndarray")
BAD_ARGS = Fall("arguments SciPy refuses (its error is SciPy's)")
DTYPE = Fall("a dtype the door does not take (SciPy's error)")
SMALL_CALL = Fall("small call: SciPy is faster (measured; same bits either way)")
FEW_LINES = Fall("a few long lines: SciPy filters one line faster than the door")

_ZOOM = ("input", "zoom", "output", "order", "mode", "cval", "prefilter", "grid_mode")
_FILTER = ("input", "order", "output", "mode")
_FILTER1D = ("input", "order", "axis", "output", "mode")


def _covered(x: Any) -> Fall | None:
    if type(x) is not np.ndarray:
        return NOT_ARRAY
    if x.dtype.kind not in "biufc":
        return DTYPE
    return None


def _few_lines(x: np.ndarray, axes: range | tuple[int, ...]) -> bool:
    """Whether an axis to filter has fewer than :data:`LINES` lines (and is long enough for
    the filter's time to matter)."""
    return x.size > 1024 and any(x.shape[a] > 1 and x.size // x.shape[a] < LINES
                                 for a in axes)


def _zoom(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import scipy as door

    small = SMALL["zoom"]

    def zoom(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _ZOOM, (None, 3, "constant", 0.0, True, False), positional=7)
        if v is None:
            return BAD_ARGS
        x, factors, output, order, mode, cval, prefilter, grid_mode = v
        fall = _covered(x)
        if fall is not None:
            return fall
        if settings.small and x.size < small and order in (0, 1):
            return SMALL_CALL
        return door.zoom(x, factors, output, order, mode, cval, prefilter,
                         grid_mode=grid_mode)

    return zoom


def _spline_filter(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import scipy as door

    def spline_filter(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _FILTER, (3, np.float64, "mirror"))
        if v is None:
            return BAD_ARGS
        x = v[0]
        fall = _covered(x)
        if fall is not None:
            return fall
        if settings.small and _few_lines(x, range(x.ndim)):
            return FEW_LINES
        return door.spline_filter(*v)

    return spline_filter


def _spline_filter1d(original: Callable[..., Any]) -> Callable[..., Any]:
    from ..compat import scipy as door

    small = SMALL["spline_filter1d"]

    def spline_filter1d(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _FILTER1D, (3, -1, np.float64, "mirror"))
        if v is None:
            return BAD_ARGS
        x, axis = v[0], v[2]
        fall = _covered(x)
        if fall is not None:
            return fall
        if settings.small:
            if x.size < small:
                return SMALL_CALL
            if is_int(axis) and -x.ndim <= axis < x.ndim and _few_lines(x, (int(axis),)):
                return FEW_LINES
        return door.spline_filter1d(*v)

    return spline_filter1d


_MODULE = "scipy.ndimage._interpolation"
TARGETS = [Target(_MODULE, name, route, ("scipy.",), f"scipy.ndimage.{name}")
           for name, route in (("zoom", _zoom), ("spline_filter", _spline_filter),
                               ("spline_filter1d", _spline_filter1d))]
