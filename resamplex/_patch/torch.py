"""``torch.nn.functional.interpolate`` -> ``resamplex.compat.torch.interpolate`` where the door
gives torch's bits (torchvision's tensor resize and ``nn.Upsample`` call it, so they route too).

Covered (docs/pytorch.md, "What differs from torch, and why"): plain CPU tensors in torch's
standard layout, without autograd, tracing, ``torch.compile`` or ``__torch_function__``
overrides, for the modes whose bits the door reproduces: ``nearest`` (every dtype),
``nearest-exact`` and float 1-D ``linear`` on torch's ``DEFAULT`` CPU build only (its AVX2 and
AVX-512 builds contract a multiply-add), and uint8 ``bilinear``/``bicubic`` with and without
antialias (except an output width of 1 where torch's rows depend on its build or thread
count, see :func:`resamplex.compat.torch.repeats_first_row`). Everything else -- float
``bilinear``/``bicubic``/``trilinear``/
``area`` and float antialias, whose sums torch nests in another order (values within a few
ulp, not its bits), channels-last tensors (torch keeps their layout), CUDA and other devices,
tensors that require grad, and sizes where torch is faster (:data:`SMALL`) -- goes to torch.
"""

from __future__ import annotations

from typing import Any, Callable, cast

from . import Fall, Target, bind, settings

#: Where torch is faster, the call goes to torch (the bits are the same either way): per
#: (mode, dtype kind, enlarging), the fewest output elements from which the door wins, or
#: None where it did not win at any size measured. Set from per-call medians, patched
#: against torch in one process, (1, 3, s, 16 s / 9) tensors, s = 16 to 1080, x0.5/0.75
#: and x1.5, 2 threads each (the 2-core EPYC VM; docs/patch.md, "Never slower"): uint8
#: bilinear/bicubic won from about 2e5 outputs when shrinking and lost to torch's AVX2
#: kernels at every enlargement (0.6-0.9x); nearest won from 5e4 (uint8) and from 4e5
#: (float) outputs when enlarging, float nearest lost when shrinking (0.25-0.8x).
SMALL = {("nearest", "u", False): 32768, ("nearest", "u", True): 32768,
         ("nearest", "f", False): None, ("nearest", "f", True): 65536,
         ("linear", "f", False): 65536, ("linear", "f", True): 65536,
         ("nearest-exact", "u", False): 32768, ("nearest-exact", "u", True): 32768,
         ("nearest-exact", "f", False): None, ("nearest-exact", "f", True): 65536,
         ("bilinear", "u", False): 131072, ("bilinear", "u", True): None,
         ("bicubic", "u", False): 131072, ("bicubic", "u", True): None}

NOT_TENSOR = Fall("input is not a plain torch.Tensor (a subclass, a NumPy array, ...)")
DEVICE = Fall("a tensor on another device, sparse or quantized")
GRAD = Fall("input requires grad (the door's gradient is not torch's bit for bit)")
TRACED = Fall("tracing, torch.compile, a functorch transform or a __torch_function__ mode")
LAYOUT = Fall("a channels-last tensor (torch returns channels-last; the door contiguous)")
FLOAT_SUMS = Fall("float linear/bilinear/bicubic/trilinear/area or antialias: torch nests "
                  "its sums (values within a few ulp, not its bits)")
FMA_BUILD = Fall("nearest-exact or float linear on torch's AVX2/AVX-512 build, which fuses "
                 "a multiply-add into the coordinate")
WIDTH_ONE = Fall("uint8 bilinear/bicubic to width 1 where torch's row-0 rows depend on its "
                 "build or thread count (DEFAULT build; 32768+ outputs on several threads)")
BAD_ARGS = Fall("arguments torch refuses (its error is torch's)")
SMALL_CALL = Fall("torch is faster at this size and mode (measured; same bits either way)")
RATIO = Fall("uint8 bilinear/bicubic shrinking at a ratio where torch is faster (measured; "
             "the door wins at x0.5, and for bilinear on two or more threads)")

#: uint8 bilinear/bicubic shrinking (with or without antialias) takes the door at x0.5 on both
#: axes, and bilinear at any ratio on two or more threads; elsewhere torch's AVX2 kernels
#: were as fast or faster. Per-call medians, (1, 3, 1080, 1920) uint8, interleaved, torch
#: 2.13, torch's time over the patched call's at 1 / 2 threads: x0.5 2.3-4.3 / 2.4-5.2;
#: bilinear x0.6, x1/3, x0.25 0.64-1.20 / 1.18-1.78; bicubic there 0.55-0.80 / 0.91-1.69;
#: to 224x224 1.0-1.8 / 1.6-2.5.

_NAMES = ("input", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor",
          "antialias")


def _route(original: Callable[..., Any]) -> Callable[..., Any]:
    import torch

    from ..compat import torch as door

    Tensor = torch.Tensor
    strided = torch.strided
    uint8 = torch.uint8
    floats = {torch.float16, torch.bfloat16, torch.float32, torch.float64}
    channels_last = {4: torch.channels_last, 5: torch.channels_last_3d}
    default_build = torch.backends.cpu.get_cpu_capability() == "DEFAULT"
    grad_enabled = torch.is_grad_enabled
    tracing = torch._C._get_tracing_state
    compiling = torch.compiler.is_compiling
    wrapped = torch._C._functorch.is_functorch_wrapped_tensor
    function_mode = torch._C._is_torch_function_mode_enabled
    sizes_of = door._output_sizes
    threads = torch.get_num_threads
    from .. import get_num_threads as door_threads

    def interpolate(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _NAMES, (None, None, "nearest", None, None, False))
        if v is None:
            return BAD_ARGS
        x, size, scale_factor, mode, align_corners, recompute, antialias = v
        if type(x) is not Tensor:
            return NOT_TENSOR
        if x.device.type != "cpu" or x.layout is not strided or x.is_quantized:
            return DEVICE
        if x.requires_grad and grad_enabled():
            return GRAD
        if tracing() is not None or compiling() or function_mode() or wrapped(x):
            return TRACED
        if type(mode) is not str or type(antialias) is not bool:
            return BAD_ARGS
        dt = x.dtype
        if mode == "nearest":
            if dt is not uint8 and dt not in floats:
                return BAD_ARGS
        elif mode == "nearest-exact" or (mode == "linear" and dt in floats):
            if not default_build:
                return FMA_BUILD
        elif mode in ("bilinear", "bicubic") and dt is uint8:
            pass
        elif mode in door.MODES:
            return FLOAT_SUMS
        else:
            return BAD_ARGS
        nd = x.dim()
        if nd in channels_last and not x.is_contiguous() \
                and x.is_contiguous(memory_format=channels_last[nd]):
            return LAYOUT
        if nd not in (3, 4, 5):
            return BAD_ARGS
        try:
            sizes, _ = sizes_of(cast(Any, x), size, scale_factor, mode, recompute)
        except Exception:
            return BAD_ARGS
        n = x.shape[0] * x.shape[1]
        for s in sizes:
            n *= s
        if settings.small:
            least = SMALL[mode, "u" if dt is uint8 else "f", n > x.numel()]
            if least is None or n < least:
                return SMALL_CALL
            if dt is uint8 and mode in ("bilinear", "bicubic") and n < x.numel() \
                    and not (nd == 4 and 2 * sizes[0] == x.shape[2]
                             and 2 * sizes[1] == x.shape[3]) \
                    and not (mode == "bilinear" and door_threads() > 1):
                return RATIO
        if dt is uint8 and nd == 4 and sizes[1] == 1 and sizes[0] != x.shape[2] \
                and mode in ("bilinear", "bicubic") \
                and (default_build or (n >= 32768 and x.shape[1] > 4 and threads() > 1)):
            # torch's generic separable kernel gives each row of a plane the value of the
            # first row its thread's loop met (compat.torch.repeats_first_row): the door
            # follows torch's AVX2 build (1-4 channels take the AVX2 kernel) on one chunk
            return WIDTH_ONE
        return door.interpolate(cast(Any, x), size, scale_factor, mode, align_corners, recompute,
                                antialias)

    return interpolate


TARGETS = [Target("torch.nn.functional", "interpolate", _route, ("torch.",))]
