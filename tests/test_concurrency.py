"""Issue #7, part 5: concurrency and leaks.

- The same call and different calls of every public function from 8 Python threads at once
  give bitwise the serial results (kernels run with OpenMP inside each Python thread, so this
  also nests parallel regions), including a shared ``Resampler`` and a thread that keeps
  changing ``set_num_threads`` meanwhile.
- The GIL is released while kernels run: another Python thread sees the output half-written
  (only possible while the writing thread has released the GIL; no clock is involved).
- Resident memory stays flat over 10,000 calls of each public function, half of them calls that
  raise (``CALLS``; measured from ``/proc/self/statm`` after a warm-up), and the number of live
  Python objects does not grow.
"""

from __future__ import annotations

import concurrent.futures
import gc
import os
import random
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import resamplex as rx
import reference as ref
from resamplex import ascend, dml
from resamplex.compat import onnx as ronnx
from resamplex.compat import pil as rpil

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

from resamplex.compat import torch as rtorch     # works on NumPy arrays without torch

THREADS = 8
CALLS = int(os.environ.get("RESAMPLEX_LEAK_CALLS", "10000"))
RSS_SLACK = 2 << 20          # bytes of resident growth allowed over CALLS calls
OBJECT_SLACK = 200           # live Python objects allowed to appear over CALLS calls

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/self/statm")

try:
    from resamplex._build_config import CONFIG as _BUILD
except ImportError:  # pragma: no cover
    _BUILD = {}
# Under AddressSanitizer freed memory sits in a quarantine: resident memory is not a measure.
_SANITIZED = bool(_BUILD.get("sanitize"))


def _rng(*key):
    import zlib
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint8).tobytes()


# ------------------------------------------------------------------------------ 8 threads

def _jobs():
    """(name, callable, input) of moderately sized calls: big enough that the kernels run in
    parallel (OpenMP) inside each Python thread."""
    rng = _rng("jobs")
    f32 = ref.random_array(rng, (3, 8, 40, 56), np.float32)
    u8 = ref.random_array(rng, (3, 8, 40, 56), np.uint8)
    bf = ref.random_array(rng, (3, 8, 40, 56), BF16)
    f16 = ref.random_array(rng, (3, 8, 40, 56), np.float16)
    nhwc = np.ascontiguousarray(f32.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    plan = rx.Resampler(f32.shape, [61, 23], axes=[2, 3], mode="cubic")
    jobs = [
        ("resize-linear", lambda x, t: rx.resize(x, [61, 23], axes=[2, 3], threads=t), f32),
        ("resize-linear-nhwc", lambda x, t: rx.resize(x, [61, 23], axes=[2, 3], threads=t),
         nhwc),
        ("resize-nearest", lambda x, t: rx.resize(x, [61, 123], axes=[2, 3], mode="nearest",
                                                  threads=t), bf),
        ("resize-area-u8", lambda x, t: rx.resize(x, [13, 17], axes=[2, 3], mode="area",
                                                  threads=t), u8),
        ("resize-cubic-aa", lambda x, t: rx.resize(x, [5, 20, 31], axes=[1, 2, 3],
                                                   mode="cubic", antialias=True, threads=t),
         f32),
        ("Resampler-shared", lambda x, t: plan(x, threads=t), f32),
        ("Resampler-adjoint", lambda g, t: plan.adjoint(g, threads=t),
         ref.random_array(rng, plan.out_shape, np.float32)),
        ("resize_adjoint", lambda g, t: rx.resize_adjoint(g, (3, 8, 40, 56), [20, 80],
                                                          axes=[2, 3], threads=t),
         ref.random_array(rng, (3, 8, 20, 80), np.float32)),
        ("dml.resample", lambda x, t: dml.resample(x, [1, 1, 1.5, 0.7],
                                                   interpolation_mode="linear", threads=t), u8),
        ("dml.resample3-aa", lambda x, t: dml.resample3(
            x, [1, 1, 0.3, 0.45], [0.5] * 4, [-0.5] * 4, interpolation_mode="linear",
            rounding_direction="increasing", antialiased=True, threads=t), f16),
        ("dml.upsample_2d", lambda x, t: dml.upsample_2d(x, (2, 3), interpolation_mode="linear",
                                                         threads=t), f32),
        ("dml.resample_grad", lambda g, t: dml.resample_grad(
            g, (3, 8, 40, 56), [1, 1, 1.5, 0.7], [0.5] * 4, [-0.5] * 4,
            interpolation_mode="linear", threads=t),
         ref.random_array(rng, (3, 8, 60, 39), np.float32)),
        ("ascend.exact2d", lambda x, t: ascend.upsample_nearest_exact2d(x, [77, 31], threads=t),
         bf),
        ("ascend.upsample_nearest-nhwc", lambda x, t: ascend.upsample_nearest(
            x, [77, 31], data_format="NHWC", threads=t),
         np.ascontiguousarray(f16.transpose(0, 2, 3, 1))),
        ("onnx-cubic", lambda x, t: ronnx.resize(x, scales=[1, 1, 1.3, 0.6], mode="cubic",
                                                 threads=t), f32),
        ("onnx-crop", lambda x, t: ronnx.resize(
            x, roi=[0, 0, -0.1, 0.2, 1, 1, 1.2, 0.9], sizes=[3, 8, 50, 30], mode="linear",
            coordinate_transformation_mode="tf_crop_and_resize", threads=t), u8),
    ]
    if rtorch is not None:
        jobs += [
            ("torch-bilinear-aa-u8", lambda x, t: rtorch.interpolate(
                x, size=(21, 17), mode="bilinear", antialias=True, threads=t), u8),
            ("torch-bicubic", lambda x, t: rtorch.interpolate(x, scale_factor=1.5,
                                                              mode="bicubic", threads=t), f32),
            ("torch-nearest-exact", lambda x, t: rtorch.interpolate(
                x, size=(55, 71), mode="nearest-exact", threads=t), f16),
        ]
    return jobs


def test_eight_threads_give_the_serial_results():
    jobs = _jobs()
    serial = {(name, t): _bits(fn(x, t)) for name, fn, x in jobs for t in (1, 2)}
    work = [(name, fn, x, t) for name, fn, x in jobs for t in (1, 2)] * 3
    random.Random(7).shuffle(work)
    barrier = threading.Barrier(THREADS)

    def run(chunk):
        barrier.wait()       # all eight start together
        return [((name, t), _bits(fn(x, t))) for name, fn, x, t in chunk]

    chunks = [work[i::THREADS] for i in range(THREADS)]
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        results = [r for f in [pool.submit(run, c) for c in chunks] for r in f.result()]
    assert len(results) == len(work)
    bad = sorted({key for key, bits in results if bits != serial[key]})
    assert not bad, f"different from the serial result under 8 threads: {bad}"
    # and the thread count does not change results
    for name, _, _ in jobs:
        assert serial[(name, 1)] == serial[(name, 2)], name


def _run_forked(fn, limit_s=30):
    # fn() in a forked child: its exit code (0: it returned True; -SIGALRM: it hung and the
    # alarm it set for itself ended it after limit_s seconds).
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.alarm(limit_s)
            code = 0 if fn() else 1
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_forked_child_after_parallel_calls_starts_its_own_pool():
    # fork copies only the forking thread, so the pool's threads stay behind in the parent
    # (multiprocessing's default start method on Linux, PyTorch DataLoader workers). The pool
    # starts empty in the child (_pool.h, pthread_atfork) and its parallel calls start new
    # threads: the parent's bytes for every facade (rx.resize, a Resampler, compat.pil's
    # passes) and for a kernel called with 2 threads directly (_alpha: no thread policy in
    # between), the thread count the child asks for, and no hang (the alarm would end it).
    from resamplex._engine import _pool
    from resamplex._engine.kernels import _alpha
    x = np.random.default_rng(3).random((8, 96, 96), dtype=np.float32)
    img = np.random.default_rng(4).integers(0, 256, (200, 300, 3), dtype=np.uint8)
    px = np.random.default_rng(5).integers(0, 256, (100_000, 4), dtype=np.uint8)
    want = rx.resize(x, (192, 192), axes=(1, 2), threads=2)
    want_pil = rpil.resize(img, (150, 100), rpil.BICUBIC, threads=2)
    r = rx.Resampler(x.shape, (8, 50, 70), mode="cubic")
    want_r = r(x, threads=2)
    want_px = np.empty_like(px)
    _alpha.premultiply(px, want_px, 1)
    got_px = np.empty_like(px)
    _alpha.premultiply(px, got_px, 2)
    assert np.array_equal(got_px, want_px)
    assert _pool.pool_threads() >= 1           # the parent's pool has threads to lose

    def child():
        empty = _pool.pool_threads() == 0
        mine = np.empty_like(px)
        _alpha.premultiply(px, mine, 2)
        rx.set_num_threads(2)
        return (empty and _pool.pool_threads() >= 1 and np.array_equal(mine, want_px)
                and rx.get_num_threads() == 2
                and rx.resize(x, (192, 192), axes=(1, 2), threads=2).tobytes() == want.tobytes()
                and rx.resize(x, (192, 192), axes=(1, 2)).tobytes() == want.tobytes()
                and rpil.resize(img, (150, 100), rpil.BICUBIC, threads=2).tobytes()
                == want_pil.tobytes()
                and r(x, threads=2).tobytes() == want_r.tobytes())

    before = rx.get_num_threads()
    try:
        assert _run_forked(child) == 0
    finally:
        rx.set_num_threads(None)
    assert rx.get_num_threads() == before      # the parent keeps its threads


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_forked_child_before_parallel_calls_keeps_its_threads():
    # A process that never asked for several threads has no pool threads yet: its forked
    # children keep the default thread count (a fresh interpreter, since this one has).
    code = (
        "import os, sys, numpy as np, resamplex as rx\n"
        "x = np.ones((4, 64, 64), np.float32)\n"
        "rx.resize(x, (128, 128), axes=(1, 2), threads=1)\n"
        "n = rx.get_num_threads()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    ok = rx.get_num_threads() == n and rx.resize(x, (128, 128), axes=(1, 2), threads=2)"
        ".min() == 1\n"
        "    os._exit(0 if ok else 1)\n"
        "sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    env = dict(os.environ, OMP_NUM_THREADS="2")
    done = subprocess.run([sys.executable, "-c", code], env=env, timeout=60,
                          cwd=os.path.dirname(os.path.dirname(rx.__file__)))
    assert done.returncode == 0


@pytest.mark.parametrize("threads", [2, 3, 5, 8, 17])
def test_pool_runs_every_item(threads):
    # The pool (_pool.h) hands out items in chunks, each a share of what is left, capped at a
    # 1/16 share of one thread's items: every item runs, whatever the item count against the
    # thread count (fewer items than threads, one item, more threads than cores). A kernel
    # with no policy in between (_alpha.premultiply, items of 16384 pixels, the last one
    # shorter) against Pillow's MULDIV255 worked out here: ((t >> 8) + t) >> 8, t = c * a + 128.
    from resamplex._engine.kernels import _alpha
    rng = np.random.default_rng(threads)
    for runs in (1, 2, 3, 7, 16, 33, 100):
        n = runs * 16384 - int(rng.integers(0, 16384))
        px = rng.integers(0, 256, (n, 4), dtype=np.uint8)
        t = px[:, :3].astype(np.int32) * px[:, 3:].astype(np.int32) + 128
        want = px.copy()
        want[:, :3] = ((t >> 8) + t) >> 8
        got = np.full_like(px, 7)
        _alpha.premultiply(px, got, threads)
        assert np.array_equal(got, want), (threads, runs)


def test_same_call_from_eight_threads():
    x = ref.random_array(_rng("same"), (4, 16, 64, 64), np.float32)
    want = _bits(rx.resize(x, [97, 41], axes=[2, 3]))
    barrier = threading.Barrier(THREADS)

    def run(_):
        barrier.wait()
        return [_bits(rx.resize(x, [97, 41], axes=[2, 3])) for _ in range(5)]

    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        for out in pool.map(run, range(THREADS)):
            assert all(b == want for b in out)


def test_set_num_threads_changing_meanwhile():
    x = ref.random_array(_rng("setnum"), (4, 16, 48, 48), np.float32)
    want = _bits(rx.resize(x, [70, 30], axes=[2, 3], mode="cubic"))
    stop = threading.Event()

    def toggle():
        k = 0
        while not stop.is_set():
            rx.set_num_threads((None, 1, 2, 3)[k % 4])
            k += 1
            time.sleep(0.0005)

    t = threading.Thread(target=toggle)
    t.start()
    try:
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            outs = list(pool.map(lambda _: _bits(rx.resize(x, [70, 30], axes=[2, 3],
                                                           mode="cubic")), range(24)))
    finally:
        stop.set()
        t.join()
        rx.set_num_threads(None)
    assert all(o == want for o in outs)


def test_plan_cache_under_contention():
    # many threads building (and evicting) cached plans for different shapes at once
    shapes = [(5 + i % 7, 9 + i % 5) for i in range(80)]
    xs = [ref.random_array(_rng("cache", s), s, np.float32) for s in shapes]
    wants = [_bits(rx.resize(x, [7, 6])) for x in xs]
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        outs = list(pool.map(lambda x: _bits(rx.resize(x, [7, 6])), xs * 3))
    assert outs == wants * 3


# ------------------------------------------------------------------------------ the GIL

def _observe_partial_output(call, out, expected, max_calls=20):
    """Whether another Python thread ever sees ``out`` half-written while ``call(out)`` runs.

    ``out`` is pre-filled with values that differ from ``expected`` everywhere (NaN, or the bit
    complement for integers). An observer thread snapshots every 997th element with
    ``tolist()`` -- one C call that holds the GIL, so the snapshot is atomic with respect to
    any code that holds the GIL -- and looks for a snapshot, taken within one call, with some
    elements written and some not. Only the kernel writes ``out`` (a native, aligned,
    contiguous ``out`` is written in place), so such a snapshot is proof that the kernel ran
    without the GIL -- however fast or slow the machine. The call is repeated (at most
    ``max_calls`` times, no clock involved) until the observer catches one."""
    flat_out = out.reshape(-1)
    want = np.ascontiguousarray(expected).reshape(-1)[::997].tolist()
    fill = (np.full_like(expected, np.nan) if expected.dtype.kind == "f"
            else np.invert(expected))
    call_number = [0]            # odd while a call runs
    seen = threading.Event()
    stop = threading.Event()

    def observe():
        while not stop.is_set():
            before = call_number[0]
            if before % 2:
                snapshot = flat_out[::997].tolist()
                if call_number[0] == before:      # the snapshot lies within one call
                    done = sum(a == b for a, b in zip(snapshot, want))
                    if 0 < done < len(want):
                        seen.set()
                        return
            time.sleep(0)

    watcher = threading.Thread(target=observe, daemon=True)
    watcher.start()
    try:
        for _ in range(max_calls):
            np.copyto(out, fill)
            call_number[0] += 1
            result = call(out)
            call_number[0] += 1
            assert result is out
            if seen.is_set():
                break
    finally:
        stop.set()
        watcher.join()
    # and the result is right
    assert flat_out[::997].tolist() == want, "wrong result"
    return seen.is_set()


def _gil_cases():
    """(name, call(out), out shape, dtype, input) per public function: big single-thread
    work, outputs large enough that writing them takes a while."""
    rng = _rng("gil")
    big = ref.random_array(rng, (1500, 1500), np.float32)
    u8 = ref.random_array(rng, (1, 3, 1200, 1200), np.uint8)
    return [
        ("weighted", lambda o: rx.resize(big, [3000, 3000], threads=1, out=o)),
        ("weighted-cubic-aa", lambda o: rx.resize(big, [700, 700], mode="cubic",
                                                  antialias=True, threads=1, out=o)),
        ("gather", lambda o: rx.resize(big, [5000, 5000], mode="nearest", out=o, threads=1)),
        ("adjoint", lambda o: rx.resize_adjoint(big, (3000, 3000), [1500, 1500],
                                                mode="cubic", threads=1, out=o)),
        ("dml", lambda o: dml.resample(big, [2.0, 2.0], interpolation_mode="linear",
                                       threads=1, out=o)),
        ("ascend", lambda o: ascend.upsample_nearest_exact2d(big[None, None], [4000, 4000],
                                                             threads=1, out=o)),
        ("onnx", lambda o: ronnx.resize(big, scales=[1.5, 1.5], mode="cubic", threads=1,
                                        out=o)),
        ("torch-fixed-point", lambda o: rtorch.interpolate(u8, size=(2500, 2500),
                                                           mode="bilinear", threads=1, out=o)),
    ]


_GIL_NAMES = ["weighted", "weighted-cubic-aa", "gather", "adjoint", "dml", "ascend", "onnx",
              "torch-fixed-point"]


@pytest.mark.parametrize("name", _GIL_NAMES)
def test_gil_is_released(name):
    call = dict(_gil_cases())[name]
    expected = call(None)                   # a fresh result: the values and the out shape
    out = np.empty_like(expected, order="C")
    assert _observe_partial_output(call, out, expected), (
        f"{name}: no other Python thread ever saw the output half-written (the GIL was held "
        "while the kernel ran)")


def test_gil_observer_can_fail():
    # the observer cannot see a half-written output that is written while the GIL is held
    # (a pure-Python writer): the check above is not vacuous
    expected = np.arange(30000, dtype=np.float32)

    def gil_held_writer(out):
        for i in range(0, out.size, 100):
            out[i:i + 100] = expected[i:i + 100]    # small copies: NumPy keeps the GIL
        return out

    sys_interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)                     # no preemption of the writer
    try:
        seen = _observe_partial_output(gil_held_writer, np.empty_like(expected), expected,
                                       max_calls=3)
    finally:
        sys.setswitchinterval(sys_interval)
    assert not seen


# ------------------------------------------------------------------------------ leaks

def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _leak_cases():
    """(name, valid call, raising call): small arrays, every public function."""
    x2 = np.arange(24, dtype=np.float32).reshape(4, 6)
    u8 = np.arange(24, dtype=np.uint8).reshape(1, 1, 4, 6)
    x1 = np.arange(6, dtype=np.float32)
    g1 = np.ones(3, np.float32)
    x3 = np.arange(12, dtype=np.float32).reshape(1, 2, 6)
    x4 = np.arange(48, dtype=np.float32).reshape(1, 2, 4, 6)
    x5 = np.arange(48, dtype=np.float32).reshape(1, 1, 2, 4, 6)
    plan = rx.Resampler((4, 6), [3, 5])
    out = np.empty((3, 5), np.float32)
    o = [0.5]
    cases = [
        ("resize-linear", lambda: rx.resize(x2, [3, 5]),
         lambda: rx.resize(x2, [3, 5], threads=0)),
        ("resize-nearest-out", lambda: rx.resize(x2, [3, 5], mode="nearest", out=out),
         lambda: rx.resize(x2, [3, 5], mode="nearest", out=x2)),
        ("resize-cubic-aa", lambda: rx.resize(x2, [2, 3], mode="cubic", antialias=True),
         lambda: rx.resize(x2, [2**40, 2**40])),
        ("resize-area-u8", lambda: rx.resize(u8, [3, 5], axes=[2, 3], mode="area"),
         lambda: rx.resize(x2.astype(object), [3, 5])),
        ("Resampler", lambda: rx.Resampler((4, 6), [3, 5], mode="cubic"),
         lambda: rx.Resampler((4, 6), [3, 5], mode="bogus")),
        ("Resampler.__call__", lambda: plan(x2), lambda: plan(x1)),
        ("Resampler.adjoint", lambda: plan.adjoint(out), lambda: plan.adjoint(x2)),
        ("resize_adjoint", lambda: rx.resize_adjoint(g1, (6,), [3]),
         lambda: rx.resize_adjoint(g1, (6,), [4])),
        ("set_num_threads", lambda: rx.set_num_threads(None), lambda: rx.set_num_threads(0)),
        ("dml.resample", lambda: dml.resample(x1, [0.5], interpolation_mode="linear"),
         lambda: dml.resample(x1, [0.5], interpolation_mode="cubic")),
        ("dml.resample1", lambda: dml.resample1(x1, [0.5], o, o, interpolation_mode="linear"),
         lambda: dml.resample1(x1, [0.5], o, [np.nan], interpolation_mode="linear")),
        ("dml.resample2", lambda: dml.resample2(x1, [0.5], o, o, interpolation_mode="linear",
                                                rounding_direction="increasing"),
         lambda: dml.resample2(x1, [0.5], o, o, interpolation_mode="linear",
                               rounding_direction="sideways")),
        ("dml.resample3", lambda: dml.resample3(x1, [0.25], o, o, interpolation_mode="linear",
                                                rounding_direction="increasing",
                                                antialiased=True),
         lambda: dml.resample3(x1, [0.25], o, o, interpolation_mode="linear",
                               rounding_direction="increasing", feature_level="6_2")),
        ("dml.upsample_2d", lambda: dml.upsample_2d(x4, (2, 1), interpolation_mode="linear"),
         lambda: dml.upsample_2d(x4, (0, 1), interpolation_mode="linear")),
        ("dml.resample_grad", lambda: dml.resample_grad(g1, (6,), [0.5], o, o,
                                                        interpolation_mode="linear"),
         lambda: dml.resample_grad(g1, (6,), [0.0], o, o, interpolation_mode="linear")),
        ("dml.resample_grad1", lambda: dml.resample_grad1(g1, (6,), [0.5], o, o,
                                                          interpolation_mode="linear",
                                                          rounding_direction="decreasing"),
         lambda: dml.resample_grad1(g1.astype(np.float64), (6,), [0.5], o, o,
                                    interpolation_mode="linear",
                                    rounding_direction="decreasing")),
        ("ascend.upsample_nearest", lambda: ascend.upsample_nearest(x4, [3, 9]),
         lambda: ascend.upsample_nearest(x4, [3, 9], product="atlas_training")),
        ("ascend.exact1d", lambda: ascend.upsample_nearest_exact1d(x3, [9], 1.5),
         lambda: ascend.upsample_nearest_exact1d(x3, [0])),
        ("ascend.exact2d", lambda: ascend.upsample_nearest_exact2d(x4, [3, 9]),
         lambda: ascend.upsample_nearest_exact2d(x4.astype(np.float64), [3, 9])),
        ("ascend.exact3d", lambda: ascend.upsample_nearest_exact3d(x5, [1, 3, 9]),
         lambda: ascend.upsample_nearest_exact3d(x5, [1, 3, 9], 9.0, 1.0, 1.0)),
        ("ascend.nearest1d", lambda: ascend.upsample_nearest1d(x3, [9]),
         lambda: ascend.upsample_nearest1d(x4, [9])),
        ("ascend.nearest2d", lambda: ascend.upsample_nearest2d(x4, [3, 9]),
         lambda: ascend.upsample_nearest2d(x4, [3, 9], out=out)),
        ("onnx.resize", lambda: ronnx.resize(x1, scales=[0.5], mode="linear",
                                             flavour="reference"),
         lambda: ronnx.resize(x1, scales=[0.5], sizes=[3])),
    ]
    if rtorch is not None:
        cases.append(("torch.interpolate",
                      lambda: rtorch.interpolate(x3, size=9, mode="linear"),
                      lambda: rtorch.interpolate(x3, size=9, mode="bilinear")))
    return cases


@pytest.mark.skipif(_SANITIZED, reason="ASan's quarantine holds freed memory (ci/sanitize.sh)")
@pytest.mark.parametrize("name,ok,bad", _leak_cases(), ids=[c[0] for c in _leak_cases()])
def test_memory_flat_over_many_calls(name, ok, bad):
    def rounds(n):
        for _ in range(n):
            ok()
            try:
                bad()
            except rx.ResamplexError:
                pass
            else:
                raise AssertionError(f"{name}: the raising call did not raise")

    rounds(300)                              # warm-up: caches, pymalloc arenas
    # Two windows of CALLS calls each (half valid, half raising): a leak grows in both, while
    # a one-off growth (the allocator taking a fresh arena in a big process after hundreds of
    # other tests) shows in one only; the smaller growth is judged.
    windows = []
    for _ in range(2):
        gc.collect()
        rss0, objs0 = _rss(), len(gc.get_objects())
        rounds(CALLS // 2)
        gc.collect()
        windows.append((_rss() - rss0, len(gc.get_objects()) - objs0))
    rss_grew = min(w[0] for w in windows)
    objs_grew = min(w[1] for w in windows)
    print(f"\n{name}: 2 x {CALLS} calls, resident {rss_grew / 1024:+.0f} KiB, "
          f"objects {objs_grew:+d}")
    assert rss_grew < RSS_SLACK, f"{name}: resident memory grew {rss_grew >> 10} KiB"
    assert objs_grew < OBJECT_SLACK, f"{name}: {objs_grew} more live objects"
