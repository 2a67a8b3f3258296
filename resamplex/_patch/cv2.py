"""``cv2.resize`` -> ``resamplex.compat.cv2.resize`` where the door gives OpenCV's bits.

Covered: NumPy arrays (any strides) of the dtypes and interpolations the door takes, 1 to
``MAX_CHANNELS`` channels, a valid ``dsize`` or ``fx``/``fy``, no ``dst`` or a ``dst`` that
OpenCV would write in place (on x86-64, as every route: OpenCV's float paths on aarch64
fuse multiply-adds).
Not covered, so OpenCV's own: ``cv2.UMat`` and anything else that is not an ndarray, the
cases where Intel IPP changes OpenCV's bits while ``cv2.ipp.useIPP()`` is true (the default;
docs/cv2.md "What IPP changes"), and calls so small that OpenCV is faster (:data:`SMALL`).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from . import Fall, Target, bind, settings, is_int, is_real

_NAMES = ("src", "dsize", "dst", "fx", "fy", "interpolation")

#: (interpolation, dtype name) -> IPP runs it (and gives other bits) when ``useIPP()``.
_IPP = {(1, "uint16"), (1, "int16"), (1, "float32"), (1, "float64"),
        (5, "float32"), (5, "float64"),
        (2, "uint8"), (2, "uint16"), (2, "int16"), (2, "float32")}

#: Calls with fewer output elements than this go to OpenCV, which is faster there (its
#: call costs a few microseconds; the door's checks, plan lookup and thread start more): per
#: interpolation, from per-call medians of patched against original in one process,
#: (s, s, 1 or 3) uint8 and (s, s, 3) float32 images, s = 16 to 128, x0.75 and x1.5, 2
#: threads, IPP off (the 2-core EPYC VM; docs/patch.md, "Never slower"). The door won from
#: about 6e4 outputs (linear, nearest: uint8 one-channel images later), 1.6e4 (cubic),
#: 4e3-9e3 (Lanczos-4); area lost below 1e5 when enlarging.
SMALL = {0: 131072, 1: 81920, 2: 20736, 3: 131072, 4: 9216, 5: 65536, 6: 131072}

NOT_ARRAY = Fall("src is not a numpy.ndarray (a cv2.UMat, a list, a subclass)")
BAD_ARGS = Fall("arguments OpenCV refuses (its error is OpenCV's)")
DTYPE = Fall("a dtype, byte order or channel count the door does not take")
INTERP = Fall("an interpolation flag outside INTER_NEAREST..INTER_NEAREST_EXACT")
IPP = Fall("Intel IPP computes this case (cv2.ipp.useIPP() is true): other bits")
DST = Fall("a dst OpenCV would reallocate or that is not C-contiguous")
SMALL_CALL = Fall("small call: OpenCV is faster (measured; same bits either way)")
RATIO = Fall("linear (or area enlarging) at a ratio where OpenCV is faster (measured; the "
             "door wins at x2, and at x0.5 on two or more threads)")

#: Linear, and area where it enlarges (OpenCV's linear with area weights), take the door only
#: at x2 on both axes, and at x0.5 with two or more threads: elsewhere OpenCV's kernels were
#: faster. Per-call medians, uint8 (h, w, 3), IPP on, interleaved, 1 / 2 threads (the 2-core
#: EPYC VM, OpenCV 5.1), OpenCV's time over the patched call's: linear x2 (300x400, 256x256)
#: 2.5-2.6 / 2.0-2.2; x0.5 (1080x1920, 512x512) 0.88-1.04 / 1.25-1.72; x3 1.14 / 1.04;
#: x1/3, x1/4, x2/3, 480x640 -> 224x224 0.53-0.65 / 0.54-1.04; x1/1.6, x1.67 at 8e4-3e6
#: outputs 0.56-0.89 / 0.57-1.22; area enlarging x2 2.35-2.55 / 2.18-2.47, x3 1.11 / 0.94,
#: x1.67 0.81-0.96 / 0.81-1.63.
_LINEAR_LIKE = (1, 3)


def _route(original: Callable[..., Any]) -> Callable[..., Any]:
    import cv2

    from ..compat import cv2 as door

    use_ipp = cv2.ipp.useIPP
    from .. import get_num_threads as threads
    # native dtypes only: a byte-swapped dtype is not equal to any of these
    dtypes = {mode: frozenset(np.dtype(n) for n in names) for mode, names in door.DTYPES.items()}
    ipp_cases = {(mode, np.dtype(name)) for mode, name in _IPP}
    max_channels = door.MAX_CHANNELS

    def resize(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _NAMES, (None, 0, 0, door.INTER_LINEAR))
        if v is None:
            return BAD_ARGS
        src, dsize, dst, fx, fy, interpolation = v
        if type(src) is not np.ndarray:
            return NOT_ARRAY
        if not is_int(interpolation) or not 0 <= interpolation <= 6:
            return INTERP
        mode = int(interpolation)
        dt = src.dtype
        if dt not in dtypes[mode] or src.ndim not in (2, 3) or \
                (src.ndim == 3 and not 1 <= src.shape[2] <= max_channels):
            return DTYPE
        H, W = src.shape[0], src.shape[1]
        if H == 0 or W == 0 or not is_real(fx) or not is_real(fy):
            return BAD_ARGS
        if dsize is None:
            dw = dh = 0
        else:
            if type(dsize) not in (tuple, list) or len(dsize) != 2 \
                    or not is_int(dsize[0]) or not is_int(dsize[1]):
                return BAD_ARGS
            dw, dh = int(dsize[0]), int(dsize[1])
        if dw <= 0 or dh <= 0:
            if not (fx > 0 and fy > 0 and math.isfinite(fx) and math.isfinite(fy)) \
                    or max(W * fx, H * fy) >= 2.0**31:
                return BAD_ARGS
            dw, dh = door.cv_round(W * fx), door.cv_round(H * fy)
            if dw <= 0 or dh <= 0:
                return BAD_ARGS
        elif dw >= 2**31 or dh >= 2**31:
            return BAD_ARGS
        if (mode, dt) in ipp_cases and use_ipp():
            return IPP
        c = src.shape[2] if src.ndim == 3 else 1
        if settings.small:
            if dw * dh * c < SMALL[mode]:
                return SMALL_CALL
            if mode in _LINEAR_LIKE and (mode == 1 or dw > W or dh > H) \
                    and not (dw == 2 * W and dh == 2 * H) \
                    and not (2 * dw == W and 2 * dh == H and threads() > 1):
                return RATIO
        if dst is not None:
            shape = (dh, dw) if c == 1 else (dh, dw, c)
            if type(dst) is not np.ndarray or dst.shape != shape or dst.dtype != dt \
                    or not dst.flags.c_contiguous or not dst.flags.writeable \
                    or np.may_share_memory(dst, src):
                return DST
        return door.resize(src, dsize, dst, fx, fy, mode)

    return resize


TARGETS = [Target("cv2", "resize", _route)]
