"""The core ``rx.resize``: the SPEC §9 workloads and a sweep of modes, dtypes, layouts, sizes.

Each class times ``time_*`` and measures ``peakmem_*`` with the same body. Thread count: the
library default (``OMP_NUM_THREADS`` / ``rx.set_num_threads`` set it); ``threads=1`` variants
show the single-core cost.
"""

import numpy as np

import resamplex as rx

from .common import array, dtype


class Spec9:
    """The workloads of SPEC §9 (ratios against peers come from ``resamplex bench``)."""

    params = [[
        "f32 NCHW x2 nearest", "f32 NCHW x2 linear", "f32 NHWC x2 linear",
        "f32 x2 trilinear", "f16 NCHW x2 linear", "f32 NCHW x0.5 linear",
        "f32 NCHW x0.5 antialias", "u8 HWC 1080p->540p", "u8 HWC 1080p->4K",
        "bf16 NCHW x2 nearest", "bf16 NCHW x2 linear", "i8 NCHW x2 nearest", "i8 NCHW x2 linear",
        "u8 HWC 1080p->224 f32 normalised CHW",
    ]]
    param_names = ["workload"]
    timeout = 120

    def setup(self, workload):
        nchw = (8, 64, 128, 128)
        kind, rest = workload.split(" ", 1)
        dt = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i8": "int8",
              "u8": "uint8"}[kind]
        self.kw = {"mode": "nearest" if "nearest" in rest else "linear",
                   "antialias": "antialias" in rest}
        if "trilinear" in rest:
            self.x = array((1, 1, 128, 128, 128), dt)
            self.size, self.kw["axes"] = (256, 256, 256), (2, 3, 4)
        elif "normalised" in rest:
            # resize, convert and normalise in one pass, into CHW memory (dtype=, affine=)
            self.x = array((1080, 1920, 3), dt)
            self.size = (224, 224)
            mean = np.array([0.485, 0.456, 0.406], np.float32)
            std = np.array([0.229, 0.224, 0.225], np.float32)
            chw = np.empty((3, 224, 224), np.float32)
            self.kw.update(axes=(0, 1), dtype=np.float32, affine=(1 / (255 * std), -mean / std),
                           out=chw.transpose(1, 2, 0))
        elif "HWC" in rest and kind == "u8":
            self.x = array((1080, 1920, 3), dt)
            self.size = (540, 960) if "540p" in rest else (2160, 3840)
            self.kw["axes"] = (0, 1)
        else:
            self.x = array(nchw, dt, "NHWC" if "NHWC" in rest else "C")
            self.size = (64, 64) if "x0.5" in rest else (256, 256)
            self.kw["axes"] = (2, 3)
        rx.resize(self.x, self.size, **self.kw)  # plan cache, page-in

    def time_resize(self, workload):
        rx.resize(self.x, self.size, **self.kw)

    def peakmem_resize(self, workload):
        rx.resize(self.x, self.size, **self.kw)


class ModesDtypes:
    """Every mode x dtype on a 4-D NCHW array, x2 up and x0.5 down on H and W."""

    params = [["nearest", "linear", "cubic", "area", "linear-antialias"],
              ["float32", "float64", "float16", "bfloat16", "uint8", "int8", "int16", "uint16"],
              [2.0, 0.5]]
    param_names = ["mode", "dtype", "factor"]
    timeout = 120

    def setup(self, mode, dtype_name, factor):
        dtype(dtype_name)  # skips bfloat16 without ml_dtypes
        if mode == "linear-antialias" and factor > 1:
            raise NotImplementedError("antialias only changes shrinking")
        self.x = array((4, 32, 128, 128), dtype_name)
        self.size = (int(128 * factor),) * 2
        self.kw = {"mode": mode.split("-")[0], "antialias": mode.endswith("antialias"),
                   "axes": (2, 3)}
        rx.resize(self.x, self.size, **self.kw)

    def time_resize(self, mode, dtype_name, factor):
        rx.resize(self.x, self.size, **self.kw)

    def peakmem_resize(self, mode, dtype_name, factor):
        rx.resize(self.x, self.size, **self.kw)


class Sizes:
    """From tiny to large: per-call overhead versus throughput (float32 linear x2, 2-D)."""

    params = [[8, 64, 512, 2048], ["C", "F"], [1, None]]
    param_names = ["side", "layout", "threads"]

    def setup(self, side, layout, threads):
        self.x = array((side, side), "float32", layout)
        rx.resize(self.x, (2 * side, 2 * side))

    def time_resize(self, side, layout, threads):
        rx.resize(self.x, (2 * side, 2 * side), threads=threads)

    def peakmem_resize(self, side, layout, threads):
        rx.resize(self.x, (2 * side, 2 * side), threads=threads)


class Reference:
    """The memory floor: copying an array of the workload's output size into a fresh array."""

    params = [["f32 (8,64,256,256)", "u8 (2160,3840,3)"]]
    param_names = ["array"]

    def setup(self, which):
        shape, dt = ((8, 64, 256, 256), "float32") if which.startswith("f32") else \
            ((2160, 3840, 3), "uint8")
        self.x = np.ones(shape, dtype(dt))

    def time_copy(self, which):
        self.x.copy()

    def peakmem_copy(self, which):
        self.x.copy()


class Adjoint:
    """The adjoint (gradient) of float32 linear x2, and of nearest x2."""

    params = [["nearest", "linear"]]
    param_names = ["mode"]

    def setup(self, mode):
        self.g = array((8, 64, 256, 256), "float32")
        rx.resize_adjoint(self.g, (8, 64, 128, 128), (256, 256), axes=(2, 3), mode=mode)

    def time_adjoint(self, mode):
        rx.resize_adjoint(self.g, (8, 64, 128, 128), (256, 256), axes=(2, 3), mode=mode)


class ImagesHWC:
    """8-bit images as they arrive: (H, W, C) with C = 1, 3, 4, 1080p down to 540p and up to
    4K, linear (the ``u8 HWC`` rows of SPEC §9 for every channel count), 1 thread and default."""

    params = [[1, 3, 4], ["down", "up"], [1, None]]
    param_names = ["channels", "direction", "threads"]
    timeout = 120

    def setup(self, channels, direction, threads):
        self.x = array((1080, 1920, channels), "uint8")
        self.size = (540, 960) if direction == "down" else (2160, 3840)
        rx.resize(self.x, self.size, axes=(0, 1), threads=threads)

    def time_resize(self, channels, direction, threads):
        rx.resize(self.x, self.size, axes=(0, 1), threads=threads)

    def peakmem_resize(self, channels, direction, threads):
        rx.resize(self.x, self.size, axes=(0, 1), threads=threads)


class ImagesHWCOpenCV:
    """The same calls through ``cv2.resize`` (INTER_LINEAR), the peer the SPEC compares with."""

    params = ImagesHWC.params
    param_names = ImagesHWC.param_names
    timeout = 120

    def setup(self, channels, direction, threads):
        try:
            import cv2
        except ImportError:
            raise NotImplementedError("OpenCV is not installed")
        self.cv2 = cv2
        self.x = array((1080, 1920, channels), "uint8")
        self.dsize = (960, 540) if direction == "down" else (3840, 2160)
        cv2.setNumThreads(threads if threads else -1)  # -1: OpenCV's default (0 is serial)

    def time_resize(self, channels, direction, threads):
        self.cv2.resize(self.x, self.dsize, interpolation=self.cv2.INTER_LINEAR)


class ImagesStrided:
    """uint8 1080p -> 540p from views whose pixels are not adjacent elements: a BGR image
    viewed as RGB, RGB out of RGBA, a mirrored row (against the contiguous image)."""

    params = [["contiguous", "bgr view", "rgb of rgba", "mirrored"], ["linear", "nearest"]]
    param_names = ["layout", "mode"]
    timeout = 120

    def setup(self, layout, mode):
        rgba = array((1080, 1920, 4), "uint8")
        self.x = {"contiguous": np.ascontiguousarray(rgba[..., :3]),
                  "bgr view": np.ascontiguousarray(rgba[..., :3])[..., ::-1],
                  "rgb of rgba": rgba[..., :3], "mirrored": rgba[:, ::-1, :3]}[layout]
        rx.resize(self.x, (540, 960), axes=(0, 1), mode=mode)

    def time_resize(self, layout, mode):
        rx.resize(self.x, (540, 960), axes=(0, 1), mode=mode)

    def peakmem_resize(self, layout, mode):
        rx.resize(self.x, (540, 960), axes=(0, 1), mode=mode)


class CpuLevels:
    """A few SPEC §9 workloads at each instruction-set level this machine runs (the kernels are
    built per level; ``_exec.set_cpu_level`` picks one): what each level buys."""

    params = [["f32 NCHW x2 linear", "f32 NHWC x2 linear", "f16 NCHW x2 linear",
               "f32 NCHW x0.5 antialias", "u8 HWC 1080p->540p", "i8 NCHW x2 nearest"],
              ["baseline", "avx2", "avx512"]]
    param_names = ["workload", "level"]
    timeout = 120

    def setup(self, workload, level):
        from resamplex._engine import _exec

        if level not in _exec.cpu_levels():
            raise NotImplementedError(f"cpu level {level} is not available here")
        self._exec = _exec
        self.before = _exec.set_cpu_level(level)
        Spec9.setup(self, workload)

    def teardown(self, workload, level):
        self._exec.set_cpu_level(self.before)

    def time_resize(self, workload, level):
        rx.resize(self.x, self.size, **self.kw)
