"""The front doors against the libraries they reproduce, as a table (the speed table of issue
14): uint8 and float32 RGB 1080p -> 540p and -> 4K, median of several runs, 1 and 2 threads.

    python asv_benches/front_doors_table.py      # from the repository root, after the build

Needs OpenCV, Pillow, onnx and onnxruntime. OpenCV runs its C++ path (IPP off), the one
resamplex reproduces. The asv version is benchmarks/bench_front_doors.py.
"""
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import cv2  # noqa: E402
import onnxruntime as ort  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402
from PIL import Image  # noqa: E402

from resamplex.compat import cv2 as rcv  # noqa: E402
from resamplex.compat import onnx as ronnx  # noqa: E402
from resamplex.compat import pil  # noqa: E402

cv2.ipp.setUseIPP(False)

def med(f, reps):
    f()
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1e3

def ort_session(X, sizes, threads, mode="linear"):
    tt = {np.dtype('uint8'): TensorProto.UINT8, np.dtype('float32'): TensorProto.FLOAT}[X.dtype]
    node = helper.make_node('Resize', ['X', '', '', 'sizes'], ['Y'], mode=mode)
    g = helper.make_graph([node], 'g', [helper.make_tensor_value_info('X', tt, list(X.shape))],
                          [helper.make_tensor_value_info('Y', tt, None)],
                          [helper.make_tensor('sizes', TensorProto.INT64, [len(sizes)], sizes)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 19)]); m.ir_version = 9
    so = ort.SessionOptions(); so.intra_op_num_threads = threads; so.inter_op_num_threads = 1
    s = ort.InferenceSession(m.SerializeToString(), so, providers=['CPUExecutionProvider'])
    return lambda: s.run(None, {'X': X})

rng = np.random.default_rng(0)
u8 = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
f32 = rng.random((1080, 1920, 3), dtype=np.float32)
f32g = rng.random((1080, 1920), dtype=np.float32)
rows = []
for threads in (1, 2):
    cv2.setNumThreads(threads)
    for name, a in (("u8 RGB", u8), ("f32 RGB", f32)):
        for (h, w), reps in (((540, 960), 15), ((2160, 3840), 5)):
            for mode, cvf, pf in (("linear", cv2.INTER_LINEAR, pil.BILINEAR), ("cubic", cv2.INTER_CUBIC, pil.BICUBIC)):
                t_cv = med(lambda: cv2.resize(a, (w, h), interpolation=cvf), reps)
                t_rcv = med(lambda: rcv.resize(a, (w, h), interpolation=cvf, threads=threads), reps)
                rows.append((threads, f"cv2 {mode}", name, f"{h}x{w}", t_cv, t_rcv))
                if a.dtype == np.uint8:
                    im = Image.fromarray(a)
                    t_p = med(lambda: im.resize((w, h), pf), reps)
                    t_rp = med(lambda: pil.resize(a, (w, h), pf, threads=threads), reps)
                    rows.append((threads, f"pil {mode}", name, f"{h}x{w}", t_p, t_rp))
                else:
                    im = Image.fromarray(f32g)
                    t_p = med(lambda: im.resize((w, h), pf), reps)
                    t_rp = med(lambda: pil.resize(f32g, (w, h), pf, threads=threads), reps)
                    rows.append((threads, f"pil {mode}", "f32 F (1 band)", f"{h}x{w}", t_p, t_rp))
            X = a[None]  # NHWC
            sess = ort_session(X, [1, h, w, 3], threads)
            t_o = med(sess, reps)
            t_ro = med(lambda: ronnx.resize(X, sizes=[1, h, w, 3], mode="linear", threads=threads), reps)
            rows.append((threads, "onnxruntime linear", name + " NHWC", f"{h}x{w}", t_o, t_ro))
            Xc = np.ascontiguousarray(np.moveaxis(a, 2, 0))[None]
            sess = ort_session(Xc, [1, 3, h, w], threads)
            t_o = med(sess, reps)
            t_ro = med(lambda: ronnx.resize(Xc, sizes=[1, 3, h, w], mode="linear", threads=threads), reps)
            rows.append((threads, "onnxruntime linear", name + " NCHW", f"{h}x{w}", t_o, t_ro))
print(f"{'thr':>3} {'front door':22s} {'data':16s} {'out':10s} {'original ms':>11s} {'resamplex ms':>12s} {'ratio':>6s}")
for r in rows:
    print(f"{r[0]:>3} {r[1]:22s} {r[2]:16s} {r[3]:10s} {r[4]:11.1f} {r[5]:12.1f} {r[5]/r[4]:6.2f}")
