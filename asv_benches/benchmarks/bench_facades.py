"""The operator facades: their per-call cost on top of the engine (tables are cached)."""

import numpy as np

from .common import array


class DirectML:
    params = [["resample nearest", "resample linear", "resample2 linear", "upsample_2d"]]
    param_names = ["operator"]

    def setup(self, op):
        from resamplex import dml

        self.x = array((2, 32, 128, 128), "float32")
        name, mode = (op.split() + ["nearest"])[:2]
        mode = "nearest_neighbor" if mode == "nearest" else mode
        if name == "upsample_2d":
            self.call = lambda: dml.upsample_2d(self.x, (2, 2), interpolation_mode="linear")
        elif name == "resample2":
            self.call = lambda: dml.resample2(self.x, [1, 1, 2, 2], [0.5] * 4, [-0.5] * 4,
                                              interpolation_mode=mode,
                                              rounding_direction="decreasing")
        else:
            self.call = lambda: dml.resample(self.x, [1, 1, 2, 2], interpolation_mode=mode)
        self.call()

    def time_operator(self, op):
        self.call()


class Ascend:
    params = [["upsample_nearest", "upsample_nearest_exact2d"]]
    param_names = ["operator"]

    def setup(self, op):
        from resamplex import ascend

        self.x = array((2, 32, 128, 128), "float32")
        fn = getattr(ascend, op)
        self.call = lambda: fn(self.x, (256, 256))
        self.call()

    def time_operator(self, op):
        self.call()


class Compat:
    params = [["torch bilinear", "torch bilinear uint8", "onnx linear"]]
    param_names = ["front door"]

    def setup(self, which):
        if which.startswith("torch"):
            from resamplex.compat import torch as t

            dt = "uint8" if "uint8" in which else "float32"
            self.x = array((2, 32, 128, 128), dt)
            self.call = lambda: t.interpolate(self.x, size=(256, 256), mode="bilinear")
        else:
            from resamplex.compat import onnx as o

            self.x = array((2, 32, 128, 128), "float32")
            self.call = lambda: o.resize(self.x, sizes=np.array([2, 32, 256, 256]),
                                         mode="linear")
        self.call()

    def time_front_door(self, which):
        self.call()
