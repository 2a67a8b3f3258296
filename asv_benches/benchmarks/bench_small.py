"""Small calls, as NumPy code makes them in loops, and the first call on a long axis.

SPEC §9 / issue 11: the per-call cost of the facades beside their peers (OpenCV, Pillow,
PyTorch) on tiny arrays, where the plan is cached and nothing but the call remains; the
first call on a 2^22 -> 2^23 axis, where the plan is built (time and peak memory); and
repeated calls on long 1-D axes, whose periodic tiles the plan keeps.
"""

import numpy as np

from .common import array


class SmallUint8Image:
    """uint8 (64, 64, 3) -> (32, 32) linear: the per-call cost of a tiny image."""

    params = [["rx.resize", "Resampler out=", "cv2.resize", "PIL.Image.resize"]]
    param_names = ["call"]

    def setup(self, call):
        import resamplex as rx

        x = array((64, 64, 3), "uint8")
        if call == "rx.resize":
            self.call = lambda: rx.resize(x, (32, 32), axes=(0, 1))
        elif call == "Resampler out=":
            plan = rx.Resampler(x.shape, (32, 32), axes=(0, 1))
            out = np.empty(plan.out_shape, np.uint8)
            self.call = lambda: plan(x, out=out)
        elif call == "cv2.resize":
            try:
                import cv2
            except ImportError:
                raise NotImplementedError("OpenCV is not installed")
            self.call = lambda: cv2.resize(x, (32, 32), interpolation=cv2.INTER_LINEAR)
        else:
            try:
                from PIL import Image
            except ImportError:
                raise NotImplementedError("Pillow is not installed")
            image = Image.fromarray(x)
            self.call = lambda: image.resize((32, 32), Image.BILINEAR)
        self.call()

    def time_call(self, call):
        self.call()


class SmallFloat32Batch:
    """float32 (1, 3, 64, 64) x2 bilinear."""

    params = [["rx.resize", "compat.torch", "torch"]]
    param_names = ["call"]

    def setup(self, call):
        import resamplex as rx

        x = array((1, 3, 64, 64), "float32")
        if call == "rx.resize":
            self.call = lambda: rx.resize(x, scale=(2.0, 2.0), axes=(2, 3))
        elif call == "compat.torch":
            from resamplex.compat import torch as ct

            self.call = lambda: ct.interpolate(x, scale_factor=2, mode="bilinear")
        else:
            try:
                import torch
            except ImportError:
                raise NotImplementedError("PyTorch is not installed")
            t = torch.from_numpy(x.copy())
            self.call = lambda: torch.nn.functional.interpolate(t, scale_factor=2,
                                                                mode="bilinear")
        self.call()

    def time_call(self, call):
        self.call()


class SmallFacades:
    """(1, 3, 8, 8) float32 x2 linear through each facade (tables cached)."""

    params = [["rx.resize", "dml.resample", "compat.onnx.resize"]]
    param_names = ["call"]

    def setup(self, call):
        import resamplex as rx
        from resamplex import dml
        from resamplex.compat import onnx

        x = array((1, 3, 8, 8), "float32")
        self.call = {
            "rx.resize": lambda: rx.resize(x, scale=(2.0, 2.0), axes=(2, 3)),
            "dml.resample": lambda: dml.resample(x, [1, 1, 2, 2], interpolation_mode="linear"),
            "compat.onnx.resize": lambda: onnx.resize(x, scales=[1, 1, 2, 2], mode="linear"),
        }[call]
        self.call()

    def time_call(self, call):
        self.call()


class LongAxisFirstCall:
    """float32 2^22 -> 2^23 linear, plan built on every call (the cache is cleared)."""

    params = [["resamplex", "torch"]]
    param_names = ["library"]
    timeout = 120

    def setup(self, library):
        self.x = array((1 << 22,), "float32")
        if library == "torch":
            try:
                import torch
            except ImportError:
                raise NotImplementedError("PyTorch is not installed")
            t = torch.from_numpy(self.x.copy()).reshape(1, 1, -1)
            self.call = lambda: torch.nn.functional.interpolate(t, size=1 << 23, mode="linear")
        else:
            import resamplex as rx

            def call():
                rx.clear_plan_cache()
                rx.resize(self.x, (1 << 23,))

            self.call = call

    def time_first_call(self, library):
        self.call()

    def peakmem_first_call(self, library):
        self.call()


class LongAxisRepeated:
    """float32 1-D linear on long axes, the plan kept (its periodic tiles built once):
    x2 (dyadic: one run), 44.1 -> 48 kHz and x3 (a run per binade of the input); and a
    ratio without a short period (its tiles built natively on every call)."""

    params = [["2^20->2^21", "441000->480000", "2^19->3*2^19", "1000003->1920000"],
              ["resamplex", "torch"]]
    param_names = ["sizes", "library"]

    def setup(self, sizes, library):
        n_in, n_out = {"2^20->2^21": (1 << 20, 1 << 21), "441000->480000": (441000, 480000),
                       "2^19->3*2^19": (1 << 19, 3 << 19),
                       "1000003->1920000": (1000003, 1920000)}[sizes]
        x = array((n_in,), "float32")
        if library == "torch":
            try:
                import torch
            except ImportError:
                raise NotImplementedError("PyTorch is not installed")
            t = torch.from_numpy(x.copy()).reshape(1, 1, -1)
            self.call = lambda: torch.nn.functional.interpolate(t, size=n_out, mode="linear")
        else:
            import resamplex as rx

            self.call = lambda: rx.resize(x, (n_out,))
        self.call()

    def time_call(self, sizes, library):
        self.call()

