"""``resamplex bench``: the SPEC §9 workloads against the peers installed, in one process.

Every workload is timed for resamplex and for each installed peer that can run it (PyTorch
``interpolate``, OpenCV ``resize``, SciPy ``ndimage.zoom``, ONNX Runtime ``Resize``), with the
same thread count, a fresh output each call, the median of several runs; and against a memory
floor: copying an array of the output's size into a fresh array. Ratios are what the SPEC's
targets are stated in; absolute times depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import _dtypes
from ._resize import get_num_threads, resize

Runner = Callable[[], Any]


@dataclass
class Workload:
    """One row of the SPEC §9 table."""

    name: str
    target: str  # the SPEC's target, in words
    make: Callable[[], dict]  # -> {"resamplex": runner, "floor": runner, peer: runner, ...}
    results: dict[str, float] = field(default_factory=dict)  # runner -> median seconds
    results_1t: dict[str, float] = field(default_factory=dict)  # the same, on one thread


def _median_time(fn: Runner, repeat: int, budget: float) -> float:
    fn()  # warm up: plan cache, page-in, thread pools
    times = []
    start = time.perf_counter()
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > budget and len(times) >= 3:
            break
    return float(np.median(times))


def _floor(shape: tuple[int, ...], dtype: Any) -> Runner:
    """Copy an array of the output's size into a fresh array: what any resize must pay."""
    src = np.ones(shape, dtype=dtype)
    return lambda: src.copy()


def _torch(threads: int):
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(threads)
    return torch


def _cv2(threads: int):
    try:
        import cv2
    except ImportError:
        return None
    cv2.setNumThreads(threads)
    return cv2


def _scipy():
    try:
        from scipy import ndimage
    except ImportError:
        return None
    return ndimage


def _ort_resize(x: np.ndarray, sizes: tuple[int, ...], mode: str, threads: int):
    """An ONNX Runtime session running one Resize node (half_pixel), or None."""
    try:
        import onnx
        import onnxruntime as ort
        from onnx import TensorProto, helper
    except ImportError:
        return None
    types = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.uint8): TensorProto.UINT8,
             np.dtype(np.float16): TensorProto.FLOAT16}
    if x.dtype not in types:
        return None
    node = helper.make_node("Resize", ["X", "", "", "sizes"], ["Y"], mode=mode,
                            coordinate_transformation_mode="half_pixel")
    graph = helper.make_graph(
        [node], "resize",
        [helper.make_tensor_value_info("X", types[x.dtype], list(x.shape))],
        [helper.make_tensor_value_info("Y", types[x.dtype], list(sizes))],
        [helper.make_tensor("sizes", TensorProto.INT64, [len(sizes)], list(sizes))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = min(model.ir_version, 10)  # what ONNX Runtime releases accept
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    try:
        sess = ort.InferenceSession(model.SerializeToString(), opts,
                                    providers=["CPUExecutionProvider"])
    except Exception:  # ORT refuses some rank/mode combinations
        return None
    return lambda: sess.run(None, {"X": x})[0]


def installed_peers() -> list[str]:
    """The peer libraries importable here."""
    import importlib.util

    names = {"torch": "torch", "opencv": "cv2", "scipy": "scipy", "onnxruntime": "onnxruntime"}
    return [n for n, mod in names.items() if importlib.util.find_spec(mod) is not None]


def workloads(threads: int, quick: bool) -> list[Workload]:
    rng = np.random.default_rng(0)
    torch = _torch(threads)
    cv2 = _cv2(threads)
    ndi = _scipy()
    items: list[Workload] = []

    def nchw(dtype: Any, mode: str, factor: float, *, channels_last: bool = False,
             antialias: bool = False) -> Callable[[], dict]:
        def make() -> dict:
            shape = (8, 64, 128, 128)
            x = rng.random(shape, dtype=np.float32).astype(dtype)
            if channels_last:
                x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
            size = (int(128 * factor),) * 2
            out_shape = shape[:2] + size
            run = {
                "resamplex": lambda: resize(x, size, axes=(2, 3), mode=mode,
                                            antialias=antialias, threads=threads),
                "floor": _floor(out_shape, x.dtype),
            }
            if torch is not None and _dtypes.dtype_name(x.dtype) != "int8":
                tdt = {"bfloat16": torch.bfloat16}.get(_dtypes.dtype_name(x.dtype))
                t = torch.from_numpy(x.view(np.uint16)).view(tdt) if tdt else torch.from_numpy(x)
                if channels_last:
                    t = t.contiguous(memory_format=torch.channels_last)
                tmode = "bilinear" if mode == "linear" else "nearest"
                kw = {"align_corners": False} if mode == "linear" else {}
                if antialias:
                    kw["antialias"] = True
                if not (antialias and x.dtype != np.float32):
                    run["torch"] = lambda: torch.nn.functional.interpolate(
                        t, size=size, mode=tmode, **kw)
            if x.dtype == np.float32 and not channels_last and not antialias:
                ort_run = _ort_resize(x, out_shape, mode, threads)
                if ort_run is not None:
                    run["onnxruntime"] = ort_run
            return run
        return make

    items.append(Workload("f32 NCHW (8,64,128,128) x2 nearest",
                          ">= 3x faster than torch; <= 1.5x the memory floor",
                          nchw(np.float32, "nearest", 2)))
    items.append(Workload("f32 NCHW (8,64,128,128) x2 linear", ">= 3x faster than torch",
                          nchw(np.float32, "linear", 2)))
    items.append(Workload("f32 NHWC (8,128,128,64) x2 linear",
                          ">= 3x faster than torch channels_last",
                          nchw(np.float32, "linear", 2, channels_last=True)))

    def trilinear() -> dict:
        x = rng.random((1, 1, 128, 128, 128), dtype=np.float32)
        run = {"resamplex": lambda: resize(x, (256,) * 3, axes=(2, 3, 4), threads=threads),
               "floor": _floor((1, 1, 256, 256, 256), np.float32)}
        if torch is not None:
            t = torch.from_numpy(x)
            run["torch"] = lambda: torch.nn.functional.interpolate(
                t, size=(256,) * 3, mode="trilinear", align_corners=False)
        if ndi is not None and not quick:
            run["scipy"] = lambda: ndi.zoom(x, (1, 1, 2, 2, 2), order=1, mode="nearest",
                                            grid_mode=True)
        return run

    items.append(Workload("f32 (1,1,128,128,128) x2 trilinear", ">= 3x faster than torch",
                          trilinear))
    items.append(Workload("f16 NCHW (8,64,128,128) x2 linear", ">= 3x faster than torch",
                          nchw(np.float16, "linear", 2)))
    items.append(Workload("f32 NCHW (8,64,128,128) x0.5 linear", ">= 2x faster than torch",
                          nchw(np.float32, "linear", 0.5)))
    items.append(Workload("f32 NCHW (8,64,128,128) x0.5 linear antialias",
                          ">= 2x faster than torch", nchw(np.float32, "linear", 0.5,
                                                          antialias=True)))

    def hwc(out_hw: tuple[int, int]) -> Callable[[], dict]:
        def make() -> dict:
            x = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
            run = {"resamplex": lambda: resize(x, out_hw, axes=(0, 1), threads=threads),
                   "floor": _floor(out_hw + (3,), np.uint8)}
            if cv2 is not None:
                run["opencv"] = lambda: cv2.resize(x, out_hw[::-1],
                                                   interpolation=cv2.INTER_LINEAR)
            if torch is not None:
                t = torch.from_numpy(x).permute(2, 0, 1)[None]
                run["torch"] = lambda: torch.nn.functional.interpolate(
                    t, size=out_hw, mode="bilinear", align_corners=False)
            return run
        return make

    items.append(Workload("u8 HWC 1080x1920x3 -> 540x960 linear", "at least as fast as OpenCV",
                          hwc((540, 960))))
    items.append(Workload("u8 HWC 1080x1920x3 -> 2160x3840 linear",
                          "at least as fast as OpenCV", hwc((2160, 3840))))

    def per_byte(dtype: Any, mode: str) -> Callable[[], dict]:
        def make() -> dict:
            x = rng.random((8, 64, 128, 128), dtype=np.float32)
            y = x.astype(dtype)
            return {
                "resamplex": lambda: resize(y, (256, 256), axes=(2, 3), mode=mode,
                                            threads=threads),
                "float32 (per byte)": lambda: resize(x, (256, 256), axes=(2, 3), mode=mode,
                                                     threads=threads),
                "floor": _floor((8, 64, 256, 256), y.dtype),
            }
        return make

    if _dtypes.BFLOAT16 is not None:
        for mode in ("nearest", "linear"):
            items.append(Workload(f"bf16 NCHW x2 {mode}", "within 1.5x of float32 per byte",
                                  per_byte(_dtypes.BFLOAT16, mode)))
    for mode in ("nearest", "linear"):
        items.append(Workload(f"i8 NCHW x2 {mode}", "within 1.5x of float32 per byte",
                              per_byte(np.int8, mode)))
    return items


def run(quick: bool = False, threads: int | None = None,
        progress: Callable[[str], None] | None = None) -> list[Workload]:
    """Time every workload; returns them with ``results`` filled (median seconds), and
    ``results_1t`` (the same on one thread) when ``threads`` > 1."""
    threads = get_num_threads() if threads is None else threads
    repeat, budget = (3, 1.0) if quick else (9, 4.0)
    items = workloads(threads, quick)
    single = workloads(1, quick) if threads > 1 else [None] * len(items)
    for w, w1 in zip(items, single):
        if progress:
            progress(w.name)
        for n, item, results in ((threads, w, w.results), (1, w1, w.results_1t)):
            if item is None:
                continue
            _torch(n), _cv2(n)  # the peers' thread counts are global: set them per side
            for name, fn in item.make().items():
                results[name] = _median_time(fn, repeat, budget)
    return items


def ratio_line(w: Workload, r: dict[str, float] | None = None) -> str:
    """The ratios the SPEC's targets speak of, for one workload (``r``: which results)."""
    r = w.results if r is None else r
    ours = r["resamplex"]
    parts = []
    for name, t in r.items():
        if name == "resamplex":
            continue
        if name == "floor":
            parts.append(f"{ours / t:.2f}x floor")
        elif name == "float32 (per byte)":
            item_ratio = 4 / (1 if w.name.startswith("i8") else 2)
            parts.append(f"{ours * item_ratio / t:.2f}x f32 per byte")
        else:
            parts.append(f"{t / ours:.2f}x faster than {name}")
    return ", ".join(parts)


def cpu_level_line() -> str:
    """The instruction-set level the kernels run at, and those this machine offers."""
    from ._engine import _exec

    return (f"kernels at cpu level {_exec.cpu_level()} (available here: "
            f"{', '.join(_exec.cpu_levels())}; RESAMPLEX_CPU_LEVEL caps it)")


def format_table(items: list[Workload]) -> str:
    names = ["resamplex", "floor"] + sorted({k for w in items for k in w.results}
                                            - {"resamplex", "floor"})
    one = any(w.results_1t for w in items)
    columns = [(n, False) for n in names] + ([(n, True) for n in names] if one else [])
    head = f"{'workload':46s}" + "".join(
        f"{(n[:9] + ' 1t') if single else n[:12]:>13s}" for n, single in columns)
    lines = [cpu_level_line(), head, "-" * len(head)]
    for w in items:
        cells = ""
        for n, single in columns:
            r = w.results_1t if single else w.results
            cells += f"{r[n] * 1e3:11.1f}ms" if n in r else f"{'-':>13s}"
        lines.append(f"{w.name:46s}{cells}")
    lines.append("")
    for w in items:
        line = f"{w.name}: {ratio_line(w)}"
        if w.results_1t:
            line += f"; 1 thread: {ratio_line(w, w.results_1t)}"
        lines.append(f"{line}   [target: {w.target}]")
    return "\n".join(lines)


def plot(items: list[Workload], path: str) -> None:
    """A bar chart of each workload's times, relative to resamplex (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted({k for w in items for k in w.results})
    fig, ax = plt.subplots(figsize=(11, 0.55 * len(items) + 1.5))
    height = 0.8 / len(names)
    for j, n in enumerate(names):
        ys = [i + j * height for i, w in enumerate(items) if n in w.results]
        xs = [w.results[n] / w.results["resamplex"] for w in items if n in w.results]
        ax.barh(ys, xs, height=height, label=n)
    ax.set_yticks([i + 0.4 for i in range(len(items))], [w.name for w in items], fontsize=8)
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("time relative to resamplex (lower is faster)")
    ax.invert_yaxis()
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
