"""The bit-exact front doors against the libraries they reproduce (SPEC §9): uint8 RGB and
float32 1080p -> 540p and -> 4K, resamplex and the original side by side, 1 and 2 threads."""

import numpy as np

from .common import array

SIZES = {"540p": (540, 960), "4K": (2160, 3840)}


class FrontDoor:
    params = [["cv2 linear", "cv2 cubic", "cv2 area", "pil bilinear", "pil bicubic",
               "onnxruntime linear"],
              ["uint8", "float32"], list(SIZES), ["resamplex", "original"], [1, 2]]
    param_names = ["front door", "dtype", "output", "implementation", "threads"]
    timeout = 120

    def setup(self, door, dtype, size, impl, threads):
        h, w = SIZES[size]
        lib, mode = door.split()
        x = array((1080, 1920, 3), dtype)
        if lib == "cv2":
            import cv2 as ocv

            from resamplex.compat import cv2 as rcv

            flag = {"linear": rcv.INTER_LINEAR, "cubic": rcv.INTER_CUBIC,
                    "area": rcv.INTER_AREA}[mode]
            if impl == "original":
                ocv.ipp.setUseIPP(False)
                ocv.setNumThreads(threads)
                self.call = lambda: ocv.resize(x, (w, h), interpolation=flag)
            else:
                self.call = lambda: rcv.resize(x, (w, h), interpolation=flag, threads=threads)
        elif lib == "pil":
            from resamplex.compat import pil

            if threads != 1:
                raise NotImplementedError("Pillow resizes on one thread")
            if dtype == "float32":
                x = np.ascontiguousarray(x[..., 0])  # mode F has one band
            flag = pil.BILINEAR if mode == "bilinear" else pil.BICUBIC
            if impl == "original":
                from PIL import Image

                im = Image.fromarray(x)
                self.call = lambda: im.resize((w, h), flag)
            else:
                self.call = lambda: pil.resize(x, (w, h), flag, threads=threads)
        else:
            from resamplex.compat import onnx as ronnx

            nhwc = x[None]
            if impl == "original":
                import onnxruntime as ort
                from onnx import TensorProto, helper

                tt = TensorProto.UINT8 if dtype == "uint8" else TensorProto.FLOAT
                node = helper.make_node("Resize", ["X", "", "", "sizes"], ["Y"], mode="linear")
                graph = helper.make_graph(
                    [node], "g", [helper.make_tensor_value_info("X", tt, list(nhwc.shape))],
                    [helper.make_tensor_value_info("Y", tt, None)],
                    [helper.make_tensor("sizes", TensorProto.INT64, [4], [1, h, w, 3])])
                model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
                model.ir_version = 9
                so = ort.SessionOptions()
                so.intra_op_num_threads = threads
                sess = ort.InferenceSession(model.SerializeToString(), so,
                                            providers=["CPUExecutionProvider"])
                self.call = lambda: sess.run(None, {"X": nhwc})
            else:
                self.call = lambda: ronnx.resize(nhwc, sizes=[1, h, w, 3], mode="linear",
                                                 threads=threads)
        self.call()

    def time_resize(self, door, dtype, size, impl, threads):
        self.call()
