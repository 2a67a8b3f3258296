"""``resamplex bench``: the performance workloads against the peers installed, in one process.

The workloads (SPEC §9): float32 NCHW batches ``(8, 64, 128, 128)`` x2 with nearest and linear
(also channels-last, and float16), x0.5 linear with and without antialias; a float32 volume
``(1, 1, 128, 128, 128)`` x2 trilinear (and, beyond §9, a float32 signal of 441000 samples to
480000: 10 s of 44.1 kHz audio at 48 kHz); a uint8 1080x1920x3 image down to 540x960 and up to
2160x3840 (linear; down from a BGR view too; cubic and nearest to 720x1280 too, RGBA and
float32 nearest, area up to 2160x3840), and down to 540x960 through
``compat.skimage.resize`` with anti-aliasing;
bfloat16 and int8 batches x2 against float32 per byte; arbitrary sizes (SPEC §9's seeded
random pairs, :func:`random_sizes`) through every door and ``rx.resize`` against the original
as users run it, each row a set of calls whose per-call ratios give a median and a minimum;
random crop views to 224x224, a new shape every call (plans built on each). Each is timed
for resamplex and for
each installed peer that can run it (PyTorch ``interpolate``, OpenCV ``resize``, SciPy
``ndimage.zoom``, ONNX Runtime ``Resize``, scikit-image ``resize``), with the same thread
count, a fresh output each call, the median of several runs taken in turns (one timed call of
each runner per round, after an untimed one of the same runner, and after warm-up rounds;
see :func:`_median_times`); and against a memory floor: copying an array of the output's size
into a fresh array. Each workload carries its targets (SPEC §9) as :class:`Target` objects, and the
report marks each one met or missed. Ratios are what the targets are stated in; absolute times
depend on the machine and on what else runs on it.

To add a row: append a :class:`Workload` in :func:`workloads` (a row of many calls of
different sizes: ``calls``, one dict of runners per call) whose ``make`` returns a dict of
runners (``"resamplex"`` first, then ``"floor"`` and any peer or reference runner by name) and
whose ``targets`` compare ``"resamplex"`` with those names. Column headers, widths, the plot and
the summary follow from the data.
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import _dtypes
from ._resize import get_num_threads, resize

Runner = Callable[[], Any]


@dataclass(frozen=True)
class Target:
    """A SPEC §9 target: resamplex's median time against runner ``versus`` in the same run.

    Met when ``t_resamplex <= bound * per * t_versus``: ``bound`` is ``1 / 3`` for "3x faster
    than", 1 for "at least as fast as", 1.5 for "within 1.5x of"; ``per`` rescales the other
    time (``itemsize / 4`` for float32's time per byte of this dtype). ``label`` names what a
    ratio is taken of when it is not a peer's speed ("the memory floor").
    """

    versus: str
    bound: float
    text: str
    per: float = 1.0
    label: str | None = None
    bound_1t: float | None = None   # another bound for the one-thread run (SPEC §9 rows
                                    # that ask less of one thread)

    def ratio(self, results: dict[str, float]) -> float | None:
        """``t_resamplex / (per * t_versus)``, or None when ``versus`` was not measured."""
        theirs = results.get(self.versus)
        if theirs is None or "resamplex" not in results or theirs <= 0:
            return None
        return results["resamplex"] / (self.per * theirs)

    def met(self, results: dict[str, float], one_thread: bool = False) -> bool | None:
        r = self.ratio(results)
        bound = self.bound_1t if one_thread and self.bound_1t is not None else self.bound
        return None if r is None else r <= bound

    def describe(self, results: dict[str, float]) -> str:
        """What was measured, in the target's terms ("3.1x faster than torch")."""
        r = self.ratio(results)
        if r is None:
            return f"{self.versus} not measured"
        if self.label is None:
            return speed_words(r, self.versus)
        return f"{times(r)} {self.label}"


def faster_than(peer: str, factor: float, factor_1t: float | None = None) -> Target:
    """">= factor x faster than peer" (factor 1: "at least as fast as peer"); ``factor_1t``:
    what the one-thread run must reach, where the SPEC asks less of it."""
    def words(f: float) -> str:
        return f"at least as fast as {peer}" if f == 1 else f">= {f:g}x faster than {peer}"
    text = words(factor)
    if factor_1t is not None:
        text += f" ({words(factor_1t)} at 1 thread)"
    return Target(peer, 1.0 / factor, text,
                  bound_1t=None if factor_1t is None else 1.0 / factor_1t)


def within_floor(factor: float) -> Target:
    return Target("floor", factor, f"<= {factor:g}x the memory floor", label="the memory floor")


def within_float32_per_byte(itemsize: int, factor: float = 1.5) -> Target:
    return Target(FLOAT32_PER_BYTE, factor, f"within {factor:g}x of float32 time per byte",
                  per=itemsize / 4, label="float32's time per byte")


#: The runner that times the same workload in float32 (for the per-byte targets).
FLOAT32_PER_BYTE = "resamplex float32"
#: The NumPy chain a fused resize-convert-normalise replaces: cv2.resize, astype, normalise,
#: transpose, ascontiguousarray.
NUMPY_CHAIN = "numpy chain"
#: ``rx.resize`` alone on the same input (no conversion): what a fused store may add to.
RESIZE_ALONE = "rx.resize alone"
DOOR_ALONE = "door"  # patch mode rows: the door called directly, no cover check


def times(r: float) -> str:
    """A ratio as people say it: "12x", "3.1x", "1.05x"."""
    if r >= 9.95:
        return f"{r:.0f}x"
    if r >= 1.995 or r < 0.995:
        return f"{r:.1f}x"
    return f"{r:.2f}x"


def speed_words(r: float, peer: str) -> str:
    """resamplex's time over ``peer``'s as words: "3.1x faster than torch" for r = 1/3.1,
    "12x slower than torch" for r = 12 (never "0.08x faster")."""
    if r <= 1:
        return f"{times(1 / r)} faster than {peer}"
    return f"{times(r)} slower than {peer}"


@dataclass
class Workload:
    """One row of the SPEC §9 table. A row of many calls (``calls`` given, ``make`` unused)
    is timed call by call (:func:`_per_call_times`)."""

    name: str
    targets: list[Target]
    make: Callable[[], dict[str, Runner]] = dict  # -> {"resamplex": runner, "floor": ...}
    results: dict[str, float] = field(default_factory=dict)  # runner -> median seconds
    results_1t: dict[str, float] = field(default_factory=dict)  # the same, on one thread
    calls: Callable[[], list[dict[str, Runner]]] | None = None


def per_call(peer: str, statistic: str) -> str:
    """The result name of a per-call statistic ("median", "minimum") of ``peer``'s time over
    resamplex's in a row of many calls (:func:`_per_call_times`)."""
    return f"{peer}, per-call {statistic}"


def _is_per_call(name: str) -> bool:
    return ", per-call " in name


def per_call_targets(peer: str, median: float = 1.5, minimum: float = 1.0) -> list[Target]:
    """SPEC §9's arbitrary-size targets: the median over calls of ``peer``'s time over
    resamplex's at least ``median``, the smallest at least ``minimum``."""
    return [Target(per_call(peer, "median"), 1.0 / median,
                   f"median over the calls >= {median:g}x faster than {peer}"),
            Target(per_call(peer, "minimum"), 1.0 / minimum,
                   f"every call at least {'as fast as' if minimum == 1 else f'{minimum:g}x faster than'} {peer}")]


def random_sizes(n: int, seed: int = 53) -> list[tuple[tuple[int, int, int], tuple[int, int]]]:
    """SPEC §9's arbitrary sizes: ``n`` seeded pairs of a source ``(H, W, C)`` and a target
    ``(h, w)``: sources 200-1400 x 200-2000 with C = 1, 3 or 4; targets 64-400 pixels a side
    (even pairs) or factors 0.3-2.5 of each side (odd pairs).

    Examples
    --------
    >>> from resamplex._bench import random_sizes
    >>> [(src, dst) for src, dst in random_sizes(2)]
    [((1108, 220, 4), (306, 336)), ((597, 1129, 4), (317, 1994))]
    """
    rng = np.random.default_rng(seed)
    pairs = []
    for i in range(n):
        h, w = int(rng.integers(200, 1401)), int(rng.integers(200, 2001))
        c = int(rng.choice([1, 3, 4]))
        if i % 2 == 0:
            out = (int(rng.integers(64, 401)), int(rng.integers(64, 401)))
        else:
            out = (max(1, round(h * rng.uniform(0.3, 2.5))),
                   max(1, round(w * rng.uniform(0.3, 2.5))))
        pairs.append(((h, w, c), out))
    return pairs


def random_crops(seed: int, image_hw: tuple[int, int] = (1200, 1600),
                 ) -> Callable[[], tuple[slice, slice]]:
    """A seeded source of crops of an image of ``image_hw``: each call gives the next
    ``(rows, columns)`` slices, 200 to 1100 rows and 200 to 1500 columns at a random place
    (what a RandomResizedCrop-like step takes before resizing to its output size)."""
    rng = np.random.default_rng(seed)
    height, width = image_hw

    def crop() -> tuple[slice, slice]:
        h, w = int(rng.integers(200, min(1100, height))), int(rng.integers(200, min(1500, width)))
        y, x = int(rng.integers(0, height - h + 1)), int(rng.integers(0, width - w + 1))
        return slice(y, y + h), slice(x, x + w)
    return crop


def _per_call_times(calls: list[dict[str, Runner]], repeat: int,
                    budget: float) -> dict[str, float]:
    """A row of many calls: each call's runners timed as :func:`_median_times` does; per
    runner the sum of its medians (seconds for the whole set), and per peer the median and
    the minimum over the calls of the peer's time over resamplex's, as the time the whole set
    would take at that ratio (``per_call(peer, ...)``: a target's ratio of it is its inverse)."""
    totals: dict[str, float] = {}
    ratios: dict[str, list[float]] = {}
    for call in calls:
        t = _median_times(call, repeat, budget / max(1, len(calls)))
        for name, v in t.items():
            totals[name] = totals.get(name, 0.0) + v
            if name not in ("resamplex", "floor"):
                ratios.setdefault(name, []).append(v / t["resamplex"])
    out = dict(totals)
    for name, rs in ratios.items():
        out[per_call(name, "median")] = totals["resamplex"] * float(np.median(rs))
        out[per_call(name, "minimum")] = totals["resamplex"] * min(rs)
    return out


def _median_times(runners: dict[str, Runner], repeat: int, budget: float, warm: float = 0.0,
                  clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Each runner's median seconds per call, the calls taken in turns: one timed call of each
    runner per round, a runner leaving once it has ``repeat`` calls, or at least 3 and more than
    ``budget`` seconds.

    In turns, every runner meets the same machine (load, clock, what the host does), and each
    timed call is preceded by an untimed one of the same runner (where a call takes under
    :data:`LEAD_IN` seconds), so that each runner is timed as a loop calling only it would see
    it: after another library's call, the first call of a runner can pay for that library's
    use of memory, not for its own work. On a virtual machine whose memory the host backs only
    at first touch and takes back after it is freed, a 25 MB output allocated right after
    Pillow's resize freed its blocks takes fresh pages (its second half, which one of two
    threads writes, while the other waits): 15-45 ms instead of 8 for ``compat.pil`` to 4K, on
    the 2-core EPYC of docs/scipy.md.

    Before the timed rounds, untimed rounds warm up every runner (plan cache, page-in, thread
    pools) until ``warm`` seconds have passed, one round at least: on that machine a process's
    first second can cost 25 times the steady time of a call with fresh outputs (a 134 MB
    output at 150 ms instead of 6 in the first four calls after the import), and a single
    warm-up call does not outlast it. ``clock``: seconds, as ``time.perf_counter`` gives them."""
    end = clock() + warm
    slow: set[str] = set()
    while True:
        for name, fn in runners.items():
            t0 = clock()
            fn()
            if clock() - t0 >= LEAD_IN:
                slow.add(name)
        if clock() >= end:
            break
    times: dict[str, list[float]] = {name: [] for name in runners}
    live = list(runners)
    while live:
        for name in list(live):
            if name not in slow:
                runners[name]()
            t0 = clock()
            runners[name]()
            times[name].append(clock() - t0)
            n = len(times[name])
            if n >= repeat or (n >= 3 and sum(times[name]) > budget):
                live.remove(name)
    return {name: float(np.median(ts)) for name, ts in times.items()}


#: Seconds of warm-up rounds for the first workload of a run, in either mode: a process's
#: first second of large fresh outputs can be slow (see :func:`_median_times`).
FIRST_WARM = 1.0
#: Runners whose warm-up calls take this long (seconds) or longer get no untimed call before
#: each timed one: what another library's use of memory can add to a call (tens of
#: milliseconds) is small beside theirs, and the untimed calls would double the bench's time.
LEAD_IN = 0.1


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


def _jax():
    try:
        import jax
        import jax.numpy  # noqa: F401  (jax.numpy.asarray)
    except ImportError:
        return None
    return jax


def _skimage():
    try:
        from skimage import transform
    except ImportError:
        return None
    return transform


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
    # its pool's threads otherwise spin after each run, on the cores the next rows time
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        sess = ort.InferenceSession(model.SerializeToString(), opts,
                                    providers=["CPUExecutionProvider"])
    except Exception:  # ORT refuses some rank/mode combinations
        return None
    return lambda: sess.run(None, {"X": x})[0]


def installed_peers() -> list[str]:
    """The peer libraries importable here."""
    import importlib.util

    names = {"torch": "torch", "opencv": "cv2", "scipy": "scipy", "onnxruntime": "onnxruntime",
             "scikit-image": "skimage", "pillow": "PIL", "jax": "jax"}
    return [n for n, mod in names.items() if importlib.util.find_spec(mod) is not None]


def workloads(threads: int, quick: bool) -> list[Workload]:
    rng = np.random.default_rng(0)
    torch = _torch(threads)
    cv2 = _cv2(threads)
    ndi = _scipy()
    ski = _skimage()
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
                          [faster_than("torch", 3), within_floor(1.5)],
                          nchw(np.float32, "nearest", 2)))
    items.append(Workload("f32 NCHW (8,64,128,128) x2 linear", [faster_than("torch", 3)],
                          nchw(np.float32, "linear", 2)))
    items.append(Workload("f32 NHWC (8,128,128,64) x2 linear (torch channels_last)",
                          [faster_than("torch", 3)],
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

    items.append(Workload("f32 (1,1,128,128,128) x2 trilinear", [faster_than("torch", 3)],
                          trilinear))

    def audio() -> dict:
        # a long 1-D axis of a ratio that is not dyadic (kept tiles, a run per binade)
        x = rng.random(441000, dtype=np.float32)
        run = {"resamplex": lambda: resize(x, (480000,), threads=threads),
               "floor": _floor((480000,), np.float32)}
        if torch is not None:
            t = torch.from_numpy(x).reshape(1, 1, -1)
            run["torch"] = lambda: torch.nn.functional.interpolate(
                t, size=480000, mode="linear", align_corners=False)
        return run

    items.append(Workload("f32 1-D 441000 -> 480000 linear (10 s, 44.1 -> 48 kHz)",
                          [faster_than("torch", 1)], audio))
    def scipy_zoom(shape: tuple[int, ...], factors: tuple[float, ...],
                   order: int) -> Callable[[], dict]:
        # compat.scipy.zoom against scipy.ndimage.zoom (one thread: SciPy has no others)
        def make() -> dict:
            from .compat import scipy as rscipy

            x = rng.random(shape, dtype=np.float32)
            out_shape = tuple(int(round(n * f)) for n, f in zip(shape, factors))
            run = {"resamplex": lambda: rscipy.zoom(x, factors, order=order, threads=threads),
                   "floor": _floor(out_shape, np.float32)}
            if ndi is not None:
                run["scipy"] = lambda: ndi.zoom(x, factors, order=order)
            return run
        return make

    for order in (0, 1) if quick else (0, 1, 3):
        items.append(Workload(f"compat.scipy.zoom f32 128^3 x2 order {order}",
                              [faster_than("scipy", 20, 10)],
                              scipy_zoom((128, 128, 128), (2.0, 2.0, 2.0), order)))
    items.append(Workload("compat.scipy.zoom f32 1080x1920x3 x(0.5,0.5,1) order 1",
                          [faster_than("scipy", 20, 10)],
                          scipy_zoom((1080, 1920, 3), (0.5, 0.5, 1.0), 1)))
    def jax_image(method: str, out_hw: tuple[int, int]) -> Callable[[], dict]:
        # compat.jax.resize against jax.jit(jax.image.resize) (XLA runs its own threads)
        def make() -> dict:
            from .compat import jax as rjax

            x = rng.random((1080, 1920, 3), dtype=np.float32)
            shape = out_hw + (3,)
            run = {"resamplex": lambda: rjax.resize(x, shape, method, threads=threads),
                   "floor": _floor(shape, np.float32)}
            jax = _jax()
            if jax is not None:
                fn = jax.jit(jax.image.resize, static_argnums=(1, 2, 3))
                xj = jax.numpy.asarray(x)
                run["jax"] = lambda: fn(xj, shape, method, True).block_until_ready()
            return run
        return make

    if not quick:
        for method in ("linear", "cubic", "lanczos3"):
            items.append(Workload(f"compat.jax {method} f32 1080x1920x3 -> 540x960",
                                  [faster_than("jax", 50)], jax_image(method, (540, 960))))
    items.append(Workload("f16 NCHW (8,64,128,128) x2 linear", [faster_than("torch", 3)],
                          nchw(np.float16, "linear", 2)))
    items.append(Workload("f32 NCHW (8,64,128,128) x0.5 linear", [faster_than("torch", 2)],
                          nchw(np.float32, "linear", 0.5)))
    items.append(Workload("f32 NCHW (8,64,128,128) x0.5 linear antialias",
                          [faster_than("torch", 2)], nchw(np.float32, "linear", 0.5,
                                                          antialias=True)))

    def hwc(out_hw: tuple[int, int], mode: str = "linear", channels: int = 3,
            dtype: type = np.uint8) -> Callable[[], dict]:
        # against OpenCV as users call it: IPP on, OpenCV's default where the wheel has it
        # (the door rows turn it off, for the bits they reproduce)
        def make() -> dict:
            x = rng.integers(0, 256, (1080, 1920, channels)).astype(dtype)
            run = {"resamplex": lambda: resize(x, out_hw, axes=(0, 1), mode=mode,
                                               threads=threads),
                   "floor": _floor(out_hw + (channels,), dtype)}
            if cv2 is not None:
                cv2.ipp.setUseIPP(True)
                flag = {"linear": cv2.INTER_LINEAR, "cubic": cv2.INTER_CUBIC,
                        "nearest": cv2.INTER_NEAREST, "area": cv2.INTER_AREA}[mode]
                run["opencv"] = lambda: cv2.resize(x, out_hw[::-1], interpolation=flag)
            if torch is not None and mode in ("linear", "cubic"):
                t = torch.from_numpy(x).permute(2, 0, 1)[None]
                run["torch"] = lambda: torch.nn.functional.interpolate(
                    t, size=out_hw, mode="bilinear" if mode == "linear" else "bicubic",
                    align_corners=False)
            return run
        return make

    # (mode, channels, dtype, output sizes, how many of them the quick run times)
    image_rows = [("linear", 3, np.uint8, ((540, 960), (2160, 3840)), 2),
                  ("cubic", 3, np.uint8, ((540, 960), (2160, 3840), (720, 1280)), 1),
                  ("nearest", 3, np.uint8, ((540, 960), (2160, 3840), (720, 1280)), 1),
                  ("nearest", 4, np.uint8, ((540, 960), (2160, 3840), (720, 1280)), 0),
                  ("nearest", 3, np.float32, ((2160, 3840),), 0),
                  ("area", 3, np.uint8, ((2160, 3840),), 1)]
    for mode, channels, dtype, sizes, in_quick in image_rows:
        for out_hw in sizes[:in_quick] if quick else sizes:
            kind = "u8" if dtype is np.uint8 else "f32"
            items.append(Workload(
                f"{kind} HWC 1080x1920x{channels} -> {out_hw[0]}x{out_hw[1]} {mode}",
                [faster_than("opencv", 1)], hwc(out_hw, mode, channels, dtype)))

    def bgr_view() -> dict:
        # A BGR image viewed as RGB, channels reversed in memory (cv2.imread(...)[..., ::-1])
        x = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)[..., ::-1]
        run = {"resamplex": lambda: resize(x, (540, 960), axes=(0, 1), threads=threads),
               "floor": _floor((540, 960, 3), np.uint8)}
        if cv2 is not None:
            run["opencv"] = lambda: cv2.resize(x, (960, 540), interpolation=cv2.INTER_LINEAR)
        return run

    items.append(Workload("u8 HWC BGR view [..., ::-1] 1080x1920x3 -> 540x960 linear",
                          [faster_than("opencv", 1)], bgr_view))

    def normalised() -> dict:
        # ToTensor + Normalize of an HWC uint8 image, into CHW float32 memory, in one call
        x = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
        mean = np.array([0.485, 0.456, 0.406], np.float32)
        std = np.array([0.229, 0.224, 0.225], np.float32)
        a, b = 1 / (255 * std), -mean / std

        def fused() -> np.ndarray:
            chw = np.empty((3, 224, 224), np.float32)
            resize(x, (224, 224), axes=(0, 1), dtype=np.float32, affine=(a, b),
                   out=chw.transpose(1, 2, 0), threads=threads)
            return chw

        run = {"resamplex": fused,
               RESIZE_ALONE: lambda: resize(x, (224, 224), axes=(0, 1), threads=threads),
               "floor": _floor((3, 224, 224), np.float32)}
        if cv2 is not None:
            def chain() -> np.ndarray:
                small = cv2.resize(x, (224, 224), interpolation=cv2.INTER_LINEAR)
                f = (small.astype(np.float32) / 255 - mean) / std
                return np.ascontiguousarray(f.transpose(2, 0, 1))
            run[NUMPY_CHAIN] = chain
        return run

    items.append(Workload("u8 HWC 1080x1920x3 -> 224x224 f32 normalised CHW",
                          [faster_than(NUMPY_CHAIN, 3),
                           Target(RESIZE_ALONE, 1.5, f"within 1.5x of {RESIZE_ALONE}",
                                  label=RESIZE_ALONE)],
                          normalised))

    def skimage_shrink() -> dict:
        # compat.skimage.resize has scikit-image's signature (no threads=): the library
        # default is set around the call instead.
        from ._resize import set_num_threads
        from .compat import skimage as rsk

        x = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)

        def ours() -> Any:
            old = get_num_threads()
            set_num_threads(threads)
            try:
                return rsk.resize(x, (540, 960), anti_aliasing=True)
            finally:
                set_num_threads(old)

        run = {"resamplex": ours, "floor": _floor((540, 960, 3), np.float64)}
        if ski is not None:
            run["scikit-image"] = lambda: ski.resize(x, (540, 960), anti_aliasing=True)
        return run

    items.append(Workload("u8 HWC 1080x1920x3 -> 540x960 compat.skimage.resize "
                          "anti_aliasing", [faster_than("scikit-image", 10)], skimage_shrink))

    def per_byte(dtype: Any, mode: str) -> Callable[[], dict]:
        def make() -> dict:
            x = rng.random((8, 64, 128, 128), dtype=np.float32)
            y = x.astype(dtype)
            return {
                "resamplex": lambda: resize(y, (256, 256), axes=(2, 3), mode=mode,
                                            threads=threads),
                FLOAT32_PER_BYTE: lambda: resize(x, (256, 256), axes=(2, 3), mode=mode,
                                                 threads=threads),
                "floor": _floor((8, 64, 256, 256), y.dtype),
            }
        return make

    bf16 = _dtypes.bfloat16()
    if bf16 is not None:
        for mode in ("nearest", "linear"):
            items.append(Workload(f"bf16 NCHW (8,64,128,128) x2 {mode}",
                                  [within_float32_per_byte(2)], per_byte(bf16, mode)))
    for mode in ("nearest", "linear"):
        items.append(Workload(f"i8 NCHW (8,64,128,128) x2 {mode}", [within_float32_per_byte(1)],
                              per_byte(np.int8, mode)))
    items += _door_workloads(threads, quick, rng, cv2, torch)
    return items


def _door_workloads(threads: int, quick: bool, rng: np.random.Generator, cv2: Any,
                    torch: Any) -> list[Workload]:
    """The bit-exact front doors against their originals on the same call (SPEC §9): uint8
    1080x1920x3 to 540p and 4K through compat.cv2 (IPP off) and compat.pil, and compat.torch's
    uint8 bicubic with antialias; the quick run keeps the 540p rows."""
    from .compat import cv2 as rcv
    from .compat import pil as rpil
    from .compat import torch as rtorch

    try:
        from PIL import Image
    except ImportError:
        Image = None
    sizes = [(540, 960)] if quick else [(540, 960), (2160, 3840)]
    items: list[Workload] = []

    def cv2_door(flag: str, out_hw: tuple[int, int]) -> Callable[[], dict]:
        def make() -> dict:
            x = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
            wh = out_hw[::-1]
            run = {"resamplex": lambda: rcv.resize(x, wh, interpolation=getattr(rcv, flag),
                                                   threads=threads),
                   "floor": _floor(out_hw + (3,), np.uint8)}
            if cv2 is not None:
                cv2.ipp.setUseIPP(False)
                run["opencv"] = lambda: cv2.resize(x, wh, interpolation=getattr(cv2, flag))
            return run
        return make

    def pil_door(name: str, out_hw: tuple[int, int]) -> Callable[[], dict]:
        def make() -> dict:
            x = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
            wh = out_hw[::-1]
            run = {"resamplex": lambda: rpil.resize(x, wh, getattr(rpil, name),
                                                    threads=threads),
                   "floor": _floor(out_hw + (3,), np.uint8)}
            if Image is not None:
                im = Image.fromarray(x)
                run["pillow"] = lambda: im.resize(wh, getattr(Image.Resampling, name))
            return run
        return make

    def torch_door(out_hw: tuple[int, int]) -> Callable[[], dict]:
        def make() -> dict:
            x = rng.integers(0, 256, (1, 3, 1080, 1920), dtype=np.uint8)
            run = {"resamplex": lambda: rtorch.interpolate(x, size=out_hw, mode="bicubic",
                                                           antialias=True, threads=threads),
                   "floor": _floor((1, 3) + out_hw, np.uint8)}
            if torch is not None:
                t = torch.from_numpy(x)
                run["torch"] = lambda: torch.nn.functional.interpolate(
                    t, size=out_hw, mode="bicubic", antialias=True)
            return run
        return make

    for out_hw in sizes:
        label = f"{out_hw[0]}x{out_hw[1]}"
        for flag in ("INTER_NEAREST", "INTER_LINEAR", "INTER_CUBIC", "INTER_AREA",
                     "INTER_LANCZOS4"):
            items.append(Workload(f"compat.cv2 {flag} u8 1080x1920x3 -> {label}",
                                  [faster_than("opencv", 1)], cv2_door(flag, out_hw)))
        for name in ("NEAREST", "BILINEAR", "BICUBIC"):
            items.append(Workload(f"compat.pil {name} RGB 1080x1920 -> {label}",
                                  [faster_than("pillow", 1.5, 1)], pil_door(name, out_hw)))
    items.append(Workload("compat.torch u8 (1,3,1080,1920) -> 540x960 bicubic antialias",
                          [faster_than("torch", 1)], torch_door((540, 960))))
    items += _arbitrary_size_workloads(threads, quick, cv2, torch, Image)
    items += _patched_workloads(threads, rng, cv2, torch, Image)
    return items


def _patched(library: str, get: Callable[[], Any]) -> Any:
    """The patched function of ``library`` (``get`` reads it), left unpatched afterwards: the
    other rows time the originals."""
    from ._patch import patch, unpatch

    was = patch(library)
    try:
        return get()
    finally:
        if was:
            unpatch(library)


def _patched_workloads(threads: int, rng: np.random.Generator, cv2: Any, torch: Any,
                       Image: Any) -> list[Workload]:
    """Patch mode (SPEC §9): a patched call against the original (a small call, which falls
    through, and a 1080p one, which takes the door) and against the door alone; OpenCV with
    IPP on, as it runs by default. Pillow's rows include the image conversions."""
    from .compat import cv2 as rcv
    from .compat import pil as rpil
    from .compat import torch as rtorch

    items: list[Workload] = []
    door_cost = Target(DOOR_ALONE, 1.05, "the door's time + a few us (within 5%)",
                       label="the door alone")

    def cv2_row(shape: tuple[int, int, int], out_hw: tuple[int, int]) -> Callable[[], dict]:
        def make() -> dict:
            x = rng.integers(0, 256, shape, dtype=np.uint8)
            wh = out_hw[::-1]
            cv2.ipp.setUseIPP(True)
            patched = _patched("cv2", lambda: cv2.resize)
            return {"resamplex": lambda: patched(x, wh), "opencv": lambda: cv2.resize(x, wh),
                    DOOR_ALONE: lambda: rcv.resize(x, wh, threads=threads)}
        return make

    def pil_row(hw: tuple[int, int], out_hw: tuple[int, int]) -> Callable[[], dict]:
        def make() -> dict:
            im = Image.fromarray(rng.integers(0, 256, hw + (3,), dtype=np.uint8))
            wh = out_hw[::-1]
            patched = _patched("pil", lambda: Image.Image.resize)
            bicubic = Image.Resampling.BICUBIC

            def door() -> Any:
                a = rpil.resize(np.asarray(im), wh, rpil.BICUBIC, threads=threads)
                return Image.fromarray(a)
            return {"resamplex": lambda: patched(im, wh, bicubic),
                    "pillow": lambda: im.resize(wh, bicubic), DOOR_ALONE: door}
        return make

    def torch_row() -> dict:
        t = torch.from_numpy(rng.integers(0, 256, (1, 3, 1080, 1920), dtype=np.uint8))
        patched = _patched("torch", lambda: torch.nn.functional.interpolate)
        kw = dict(size=(540, 960), mode="bilinear", antialias=True)
        return {"resamplex": lambda: patched(t, **kw),
                "torch": lambda: torch.nn.functional.interpolate(t, **kw),
                DOOR_ALONE: lambda: rtorch.interpolate(t, **kw, threads=threads)}

    if cv2 is not None:
        items.append(Workload("patched cv2.resize u8 (64,64,3) -> 32x32 linear (falls "
                              "through: small)", [Target("opencv", 3.0, "within 3x of "
                                                         "opencv (the original + the ~2 us "
                                                         "check)")],
                              cv2_row((64, 64, 3), (32, 32))))
        items.append(Workload("patched cv2.resize u8 540x960x3 -> 1080x1920 linear (IPP on)",
                              [faster_than("opencv", 1), door_cost],
                              cv2_row((540, 960, 3), (1080, 1920))))
    if Image is not None:
        items.append(Workload("patched Image.resize RGB 64x64 -> 32x32 bicubic",
                              [Target("pillow", 1.2, "within 1.2x of pillow (falls "
                                                     "through: small)")],
                              pil_row((64, 64), (32, 32))))
        items.append(Workload("patched Image.resize RGB 1080x1920 -> 540x960 bicubic",
                              [faster_than("pillow", 1.5, 1), door_cost],
                              pil_row((1080, 1920), (540, 960))))
    if torch is not None:
        items.append(Workload("patched interpolate u8 (1,3,1080,1920) -> 540x960 bilinear "
                              "antialias", [faster_than("torch", 1), door_cost], torch_row))
    return items


def _arbitrary_size_workloads(threads: int, quick: bool, cv2: Any, torch: Any,
                              Image: Any) -> list[Workload]:
    """SPEC §9's arbitrary sizes: every door and ``rx.resize`` on seeded random (source,
    target) pairs (:func:`random_sizes`; 12 pairs, the quick run 6 and fewer rows) against the
    original as users run it (OpenCV with IPP as its wheel sets it), plans warm; and random
    crop views of a 1200x1600x3 image to 224x224, a new shape every call (plans built on each
    call: the crops' shapes never repeat within a run)."""
    from .compat import cv2 as rcv
    from .compat import onnx as ronnx
    from .compat import pil as rpil
    from .compat import torch as rtorch

    pairs = random_sizes(6 if quick else 12)
    data = np.random.default_rng(1)
    images = {}

    def image(shape: tuple[int, int, int], dtype: Any) -> np.ndarray:
        key = (shape, np.dtype(dtype).str)
        if key not in images:
            images[key] = data.integers(0, 256, shape).astype(dtype)
        return images[key]

    def cv2_calls(flag: str, dtype: Any, core: str | None = None) -> Callable[[], list]:
        def calls() -> list[dict[str, Runner]]:
            made = []
            for shape, out_hw in pairs:
                x = image(shape, dtype)
                wh = out_hw[::-1]
                if core is None:
                    run = {"resamplex": lambda x=x, wh=wh: rcv.resize(
                        x, wh, interpolation=getattr(rcv, flag), threads=threads)}
                else:
                    run = {"resamplex": lambda x=x, o=out_hw: resize(
                        x, o, axes=(0, 1), mode=core, threads=threads)}
                if cv2 is not None:
                    cv2.ipp.setUseIPP(True)
                    run["opencv"] = lambda x=x, wh=wh: cv2.resize(
                        x, wh, interpolation=getattr(cv2, flag))
                made.append(run)
            return made
        return calls

    def pil_calls(name: str) -> list[dict[str, Runner]]:
        made = []
        for shape, out_hw in pairs:
            x = image(shape, np.uint8)
            x = x[..., 0] if shape[2] == 1 else x       # modes L, RGB, RGBA
            wh = out_hw[::-1]
            run = {"resamplex": lambda x=x, wh=wh: rpil.resize(
                x, wh, getattr(rpil, name), threads=threads)}
            if Image is not None:
                im = Image.fromarray(x)
                run["pillow"] = lambda im=im, wh=wh: im.resize(
                    wh, getattr(Image.Resampling, name))
            made.append(run)
        return made

    def torch_calls(mode: str, antialias: bool) -> list[dict[str, Runner]]:
        made = []
        for shape, out_hw in pairs:
            x = np.ascontiguousarray(image(shape, np.uint8).transpose(2, 0, 1))[None]
            run = {"resamplex": lambda x=x, o=out_hw: rtorch.interpolate(
                x, size=o, mode=mode, antialias=antialias, threads=threads)}
            if torch is not None:
                t = torch.from_numpy(x)
                run["torch"] = lambda t=t, o=out_hw: torch.nn.functional.interpolate(
                    t, size=o, mode=mode, antialias=antialias)
            made.append(run)
        return made

    def onnx_calls() -> list[dict[str, Runner]]:
        # float32 NCHW linear, ONNX Runtime's flavour (the door's default) against itself
        made = []
        for shape, out_hw in pairs:
            x = np.ascontiguousarray(image(shape, np.float32).transpose(2, 0, 1))[None]
            sizes = (1, shape[2]) + tuple(out_hw)
            run = {"resamplex": lambda x=x, s=sizes: ronnx.resize(
                x, sizes=np.array(s, np.int64), mode="linear", threads=threads)}
            peer = _ort_resize(x, sizes, "linear", threads)
            if peer is not None:
                run["onnxruntime"] = peer
            made.append(run)
        return made

    def crops(flag: str) -> dict[str, Runner]:
        big = data.integers(0, 256, (1200, 1600, 3), dtype=np.uint8)

        def loop(fn: Callable[[np.ndarray], Any]) -> Runner:
            crop = random_crops(7)   # both runners take the same crops, in the same order

            def run() -> None:
                for _ in range(20):
                    rows, cols = crop()
                    fn(big[rows, cols])
            return run

        run = {"resamplex": loop(lambda c: rcv.resize(c, (224, 224), threads=threads,
                                                      interpolation=getattr(rcv, flag))),
               "floor": _floor((20, 224, 224, 3), np.uint8)}
        if cv2 is not None:
            cv2.ipp.setUseIPP(True)
            run["opencv"] = loop(lambda c: cv2.resize(c, (224, 224),
                                                      interpolation=getattr(cv2, flag)))
        return run

    items: list[Workload] = []
    flags = ("INTER_LINEAR",) if quick else ("INTER_LINEAR", "INTER_CUBIC", "INTER_AREA",
                                             "INTER_NEAREST")
    for flag in flags:
        for dtype, kind in ((np.uint8, "u8"), (np.float32, "f32")):
            items.append(Workload(f"compat.cv2 {flag} {kind} random sizes",
                                  per_call_targets("opencv"),
                                  calls=cv2_calls(flag, dtype)))
    if not quick:
        for mode, flag in (("linear", "INTER_LINEAR"), ("cubic", "INTER_CUBIC")):
            for dtype, kind in ((np.uint8, "u8"), (np.float32, "f32")):
                items.append(Workload(f"rx.resize {mode} {kind} random sizes",
                                      per_call_targets("opencv"),
                                      calls=cv2_calls(flag, dtype, core=mode)))
        for name in ("BILINEAR", "BICUBIC", "LANCZOS"):
            items.append(Workload(f"compat.pil {name} random sizes",
                                  per_call_targets("pillow"),
                                  calls=lambda name=name: pil_calls(name)))
        for mode in ("bilinear", "bicubic"):
            for aa in (False, True):
                items.append(Workload(
                    f"compat.torch u8 {mode}{' antialias' if aa else ''} random sizes",
                    per_call_targets("torch"),
                    calls=lambda mode=mode, aa=aa: torch_calls(mode, aa)))
        items.append(Workload("compat.onnx linear f32 NCHW random sizes",
                              per_call_targets("onnxruntime"), calls=onnx_calls))
    for flag in ("INTER_LINEAR",) if quick else ("INTER_LINEAR", "INTER_CUBIC", "INTER_AREA"):
        items.append(Workload(f"compat.cv2 {flag} 20 random crops -> 224x224 (new shapes)",
                              [faster_than("opencv", 1)], lambda flag=flag: crops(flag)))
    return items


def run(quick: bool = False, threads: int | None = None,
        progress: Callable[[str], None] | None = None) -> list[Workload]:
    """Time every workload; returns them with ``results`` filled (median seconds), and
    ``results_1t`` (the same on one thread) when ``threads`` > 1."""
    threads = get_num_threads() if threads is None else threads
    repeat, budget, warm = (3, 1.0, 0.25) if quick else (9, 4.0, 0.6)
    items = workloads(threads, quick)
    single = workloads(1, quick) if threads > 1 else [None] * len(items)
    first = FIRST_WARM  # the process's first second, whatever the mode (see _median_times)
    for w, w1 in zip(items, single):
        if progress:
            progress(w.name)
        for n, item, results in ((threads, w, w.results), (1, w1, w.results_1t)):
            if item is None:
                continue
            _torch(n), _cv2(n)  # the peers' thread counts are global: set them per side
            if item.calls is not None:
                results.update(_per_call_times(item.calls(), repeat, budget))
                continue
            results.update(_median_times(item.make(), repeat, budget, max(warm, first)))
            first = 0.0
    return items


def machine_line() -> str:
    """The machine, for the report and the plot: OS, CPU model, CPU count, load average."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    parts = [f"{platform.system()} {platform.machine()}", cpu, f"{os.cpu_count()} CPUs"]
    try:
        parts.append("load average " + " ".join(f"{v:.1f}" for v in os.getloadavg()))
    except (OSError, AttributeError):  # pragma: no cover - Windows
        pass
    return ", ".join(parts)


def _runner_names(items: list[Workload]) -> list[str]:
    """Columns: resamplex, the floor, then every other runner in order of first appearance."""
    names = ["resamplex", "floor"]
    for w in items:
        names += [k for k in w.results if k not in names and not _is_per_call(k)]
    return names


def _verdict(met: bool | None) -> str:
    return {True: "met", False: "MISSED", None: "n/a"}[met]


def cpu_level_line() -> str:
    """The instruction-set level the kernels run at, and those this machine offers."""
    from ._engine import _exec

    return (f"kernels at cpu level {_exec.cpu_level()} (available here: "
            f"{', '.join(_exec.cpu_levels())}; RESAMPLEX_CPU_LEVEL caps it)")


def format_table(items: list[Workload], threads: int | None = None) -> str:
    """The medians (ms; a "1t" column per runner for the same workloads on one thread), then
    each workload's targets marked met or missed at the run's threads and on one thread, then
    a summary. ``threads``: the run's thread count; a run on one thread is held to the
    one-thread targets (SPEC §9 rows that ask less of one thread)."""
    single_run = threads == 1
    names = _runner_names(items)
    one = any(w.results_1t for w in items)
    columns = [(n, False) for n in names] + ([(n, True) for n in names] if one else [])
    first = max([len("workload")] + [len(w.name) for w in items])
    cells = [[("-" if n not in (w.results_1t if single else w.results) else
               f"{(w.results_1t if single else w.results)[n] * 1e3:.2f}")
              for n, single in columns] for w in items]
    titles = [f"{n} 1t" if single else n for n, single in columns]
    widths = [max([len(t)] + [len(row[j]) for row in cells]) for j, t in enumerate(titles)]
    head = f"{'workload':<{first}}" + "".join(f"  {t:>{wd}}" for t, wd in zip(titles, widths))
    lines = [cpu_level_line(), "median time per call, ms", head, "-" * len(head)]
    for w, row in zip(items, cells):
        lines.append(f"{w.name:<{first}}" + "".join(f"  {c:>{wd}}" for c, wd in zip(row, widths)))
    lines += ["", "targets (SPEC §9)"]
    counts = {True: 0, False: 0, None: 0}
    for w in items:
        lines.append(w.name)
        versus = {t.versus for t in w.targets}
        for t in w.targets:
            met = t.met(w.results, one_thread=single_run)
            counts[met] += 1
            line = f"  {_verdict(met):<6}  {t.describe(w.results):<34}  target: {t.text}"
            if w.results_1t:
                line += (f"  (1 thread: {_verdict(t.met(w.results_1t, one_thread=True))}, "
                         f"{t.describe(w.results_1t)})")
            lines.append(line)
        for n in w.results:  # peers measured without a target of their own: for information
            if n not in versus and n not in ("resamplex", "floor") and not _is_per_call(n):
                lines.append(f"  {'':<6}  {speed_words(w.results['resamplex'] / w.results[n], n)}")
    lines.append("")
    lines.append(f"{counts[True]} target{'s' if counts[True] != 1 else ''} met, "
                 f"{counts[False]} missed, {counts[None]} not measured (a peer not installed)")
    return "\n".join(lines)


def plot(items: list[Workload], path: str, *, threads: int | None = None,
         quick: bool = False) -> None:
    """A bar chart of each workload's times relative to resamplex (matplotlib), with a title,
    the thread count and the machine, and each workload marked by its targets."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plot_figure(items, threads=threads, quick=quick)
    try:
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def plot_figure(items: list[Workload], *, threads: int | None = None,
                quick: bool = False) -> Any:
    """The figure :func:`plot` saves."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ._config import __version__

    names = _runner_names(items)
    fig, ax = plt.subplots(figsize=(11, 0.6 * len(items) + 2.2))
    height = 0.8 / len(names)
    for j, n in enumerate(names):
        ys = [i + j * height for i, w in enumerate(items) if n in w.results]
        xs = [w.results[n] / w.results["resamplex"] for w in items if n in w.results]
        ax.barh(ys, xs, height=height, label=n)
    labels = []
    for w in items:
        marks = [f"{_verdict(t.met(w.results))}" for t in w.targets]
        labels.append(f"{w.name}  [{', '.join(marks)}]" if marks else w.name)
    ax.set_yticks([i + 0.4 for i in range(len(items))], labels, fontsize=8)
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("median time relative to resamplex (right of 1: slower than resamplex)")
    ax.invert_yaxis()
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    nthreads = get_num_threads() if threads is None else threads
    fig.suptitle(f"resamplex {__version__} bench: {nthreads} thread"
                 f"{'s' if nthreads != 1 else ''}, {'quick' if quick else 'full'} run; "
                 "[targets met / MISSED]", fontsize=11)
    ax.set_title(machine_line(), fontsize=8)
    fig.tight_layout()
    return fig
