"""Patch mode (SPEC §6.1): ``resamplex.patch`` and ``resamplex run`` against the live originals.

Every check compares a patched call with the original function held before patching: the
same bytes (dtype, shape, values) for calls the door covers, the same exception type and
message for calls it does not. The routes' small-call thresholds are switched off here
(``settings.small = False``) so that small test arrays go through the doors too. The
originals' own suites: SciPy's ``ndimage`` interpolation and spline tests run patched in a
subprocess and must pass wherever they pass unpatched.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import resamplex as rx
from resamplex import _patch


@pytest.fixture(autouse=True)
def clean():
    """Each test starts and ends unpatched, with every call routed whatever its size."""
    rx.unpatch()
    rx.patch_report(reset=True)
    saved = _patch.settings.small
    _patch.settings.small = False
    yield
    _patch.settings.small = saved
    rx.unpatch()


def outcome(f, *args, **kwargs):
    """('ok', result) or ('error', type, message) of a call."""
    try:
        return ("ok", f(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - the original's errors are the point
        return ("error", type(exc), str(exc))


def assert_same(got, want, what=""):
    assert got[0] == want[0], f"{what}: {got[:2]} vs {want[:2]}"
    if got[0] == "error":
        assert got[1:] == want[1:], what
        return
    a, b = got[1], want[1]
    if hasattr(b, "numpy"):             # torch tensors
        assert type(a) is type(b) and a.dtype == b.dtype and a.stride() == b.stride(), what
        assert a.requires_grad == b.requires_grad, what
        a, b = a.detach().numpy(), b.detach().numpy()
    assert type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape, what
    assert a.tobytes() == b.tobytes(), what


def routed(name):
    return rx.patch_report().get(name, {}).get("routed", 0)


# ------------------------------------------------------------------------------ the machinery

def test_patch_twice_unpatch_restores_the_very_objects():
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    assert rx.patch("cv2") == ["cv2"]
    assert cv2.resize is not original and cv2.resize.__name__ == original.__name__
    assert cv2.resize.__doc__ == original.__doc__ and cv2.resize.__wrapped__ is original
    patched_once = cv2.resize
    assert rx.patch("cv2") == [] and cv2.resize is patched_once
    assert rx.unpatch("cv2") == ["cv2"] and cv2.resize is original
    assert rx.unpatch("cv2") == []


def test_unknown_library_is_an_error_and_patches_nothing():
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    with pytest.raises(rx.ResamplexError, match="libraries"):
        rx.patch("cv2", "tensorflow")
    assert cv2.resize is original


def test_importing_resamplex_patches_nothing():
    code = ("import resamplex, sys; import cv2; "
            "print(hasattr(cv2.resize, '__resamplex_original__'))")
    pytest.importorskip("cv2")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_patched_context_nests_and_keeps_what_was_patched_before():
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    with rx.patched("cv2") as done:
        assert done == ["cv2"]
        inner = cv2.resize
        with rx.patched("cv2") as again:
            assert again == [] and cv2.resize is inner
        assert cv2.resize is inner          # the inner block did not patch it: keeps it
    assert cv2.resize is original
    rx.patch("cv2")
    with rx.patched("cv2"):
        pass
    assert cv2.resize is not original       # patched before the block: still patched


def test_signatures_names_and_docs_are_the_originals():
    pytest.importorskip("scipy")
    pytest.importorskip("skimage")
    import scipy.ndimage as ndi
    import skimage.transform as skt

    before = {f: (getattr(m, f), inspect.signature(getattr(m, f)))
              for m, names in ((ndi, ("zoom", "spline_filter", "spline_filter1d")),
                               (skt, ("resize", "rescale", "downscale_local_mean")))
              for f in names}
    rx.patch("scipy", "skimage")
    for m in (ndi, skt):
        for f, (original, sig) in before.items():
            if hasattr(m, f) and getattr(m, f) is not original and f in m.__dict__:
                now = getattr(m, f)
                assert now.__name__ == original.__name__ and now.__doc__ == original.__doc__
                assert inspect.signature(now) == sig


def test_libraries_imported_later_are_patched_as_they_load():
    pytest.importorskip("cv2")
    pytest.importorskip("skimage")
    code = textwrap.dedent("""
        import sys, resamplex as rx
        rx.patch("cv2", "skimage")
        assert "cv2" not in sys.modules and "skimage.transform" not in sys.modules
        import cv2, skimage.transform as skt
        from skimage.transform import pyramids as _pyramids
        names = [cv2.resize, skt.resize, skt.rescale, skt.downscale_local_mean,
                 _pyramids.resize]
        print(all(hasattr(f, "__resamplex_original__") for f in names))
        rx.unpatch()
        names = [cv2.resize, skt.resize, _pyramids.resize,
                 sys.modules["skimage.transform._warps"].resize]
        print(any(hasattr(f, "__resamplex_original__") for f in names))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False"]


def test_scikit_image_pyramids_route_through_the_patched_resize():
    skt = pytest.importorskip("skimage.transform")
    img = np.random.default_rng(0).random((64, 48))
    want = [p.copy() for p in skt.pyramid_gaussian(img, max_layer=3)]
    rx.patch("skimage")
    got = list(skt.pyramid_gaussian(img, max_layer=3))
    assert routed("skimage.transform.resize") == 3
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes()


def test_report_counts_and_reasons_in_several_threads():
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
    want = original(x, (70, 50), interpolation=cv2.INTER_AREA)
    umat_want = original(cv2.UMat(x), (70, 50)).get()
    rx.patch("cv2")
    errors = []

    def work():
        try:
            for _ in range(25):
                assert cv2.resize(x, (70, 50), interpolation=cv2.INTER_AREA).tobytes() \
                    == want.tobytes()
                assert cv2.resize(cv2.UMat(x), (70, 50)).get().tobytes() == umat_want.tobytes()
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    row = rx.patch_report()["cv2.resize"]
    assert row["routed"] == 100 and row["original"] == 100
    assert list(row["reasons"]) == [_patch.cv2.NOT_ARRAY.reason]
    assert "100 took the door" in _patch.format_report()


def test_patch_and_unpatch_from_threads_while_calls_run():
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    x = np.random.default_rng(2).integers(0, 256, (60, 80), dtype=np.uint8)
    want = original(x, (50, 30)).tobytes()
    stop = threading.Event()
    bad = []

    def call():
        while not stop.is_set():
            if cv2.resize(x, (50, 30)).tobytes() != want:
                bad.append(1)

    def flip():
        for _ in range(50):
            rx.patch("cv2")
            rx.unpatch("cv2")

    callers = [threading.Thread(target=call) for _ in range(2)]
    flippers = [threading.Thread(target=flip) for _ in range(2)]
    for t in callers + flippers:
        t.start()
    for t in flippers:
        t.join()
    stop.set()
    for t in callers:
        t.join()
    assert not bad and cv2.resize is original


# ------------------------------------------------------------------------------ cv2

def cv2_cases(cv2, rng):
    modes = [cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_AREA,
             cv2.INTER_LANCZOS4, cv2.INTER_LINEAR_EXACT, cv2.INTER_NEAREST_EXACT]
    for i in range(70):
        dtype = [np.uint8, np.uint16, np.int16, np.float32, np.float64][i % 5]
        c = [1, 3, 4, 2][i % 4]
        h, w = (int(v) for v in rng.integers(3, 70, 2))
        shape = (h, w) if c == 1 and i % 8 == 0 else (h, w, c)
        x = (rng.random(shape) * 300).astype(dtype) if dtype in (np.float32, np.float64) \
            else rng.integers(0, 200, shape).astype(dtype)
        if i % 6 == 1:
            x = x[::-1, 1:]                  # a strided view
        mode = modes[i % 7]
        if i % 9 == 4:
            yield x, dict(dsize=None, fx=float(rng.uniform(0.3, 2.5)),
                          fy=float(rng.uniform(0.3, 2.5)), interpolation=mode)
        else:
            yield x, dict(dsize=(int(rng.integers(1, 90)), int(rng.integers(1, 90))),
                          interpolation=mode)


@pytest.mark.parametrize("ipp", [True, False])
def test_cv2_patched_gives_opencvs_bits(ipp):
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    was = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(ipp)
    try:
        cases = list(cv2_cases(cv2, np.random.default_rng(3)))
        want = [outcome(original, x, **kw) for x, kw in cases]
        rx.patch("cv2")
        for (x, kw), w in zip(cases, want):
            assert_same(outcome(cv2.resize, x, **kw), w, f"{x.shape} {x.dtype} {kw}")
    finally:
        cv2.ipp.setUseIPP(was)
    row = rx.patch_report()["cv2.resize"]
    assert row["routed"] >= 40
    assert (_patch.cv2.IPP.reason in row["reasons"]) == ipp


def test_cv2_linear_takes_the_door_only_at_the_ratios_where_it_wins():
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    _patch.settings.small = True
    x = np.random.default_rng(2).integers(0, 256, (300, 400, 3), dtype=np.uint8)
    calls = [((600, 450), cv2.INTER_LINEAR), ((800, 600), cv2.INTER_LINEAR),
             ((800, 600), cv2.INTER_AREA), ((500, 375), cv2.INTER_AREA),
             ((300, 225), cv2.INTER_AREA)]
    want = [original(x, d, interpolation=i) for d, i in calls]
    rx.patch("cv2")
    for (d, i), w in zip(calls, want):
        np.testing.assert_array_equal(cv2.resize(x, d, interpolation=i), w)
    row = rx.patch_report()["cv2.resize"]
    assert row["routed"] == 3 and row["reasons"] == {_patch.cv2.RATIO.reason: 2}


def test_cv2_dst_and_errors_are_opencvs():
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    x = np.random.default_rng(4).integers(0, 256, (40, 50, 3), dtype=np.uint8)
    bad = [((x, (0, 0)), {}), ((x, (5, 5)), {"interpolation": 9}), ((x, "ab"), {}),
           ((x,), {}), ((x, (5, 5), None, 0, 0, 1, 7), {}), ((x, (5, 5)), {"bogus": 1}),
           ((x.astype(np.int64), (5, 5)), {}), ((x, (5.5, 5)), {}), ((x, (-3, 5)), {}),
           ((np.zeros((0, 5), np.uint8), (3, 3)), {}), ((x, None), {"fx": np.nan, "fy": 1}),
           (([[1, 2], [3, 4]], (3, 3)), {})]
    want = [outcome(original, *a, **k) for a, k in bad]
    dst_want = original(x, (30, 20), np.zeros((20, 30, 3), np.uint8))
    rx.patch("cv2")
    for (a, k), w in zip(bad, want):
        assert_same(outcome(cv2.resize, *a, **k), w, f"{k}")
    dst = np.zeros((20, 30, 3), np.uint8)
    got = cv2.resize(x, (30, 20), dst)
    assert got is dst and dst.tobytes() == dst_want.tobytes()
    wrong = np.zeros((7, 7, 3), np.uint8)
    assert_same(outcome(cv2.resize, x, (30, 20), wrong), ("ok", dst_want))


# ------------------------------------------------------------------------------ scipy, skimage

def test_scipy_patched_gives_scipys_bits_and_errors():
    ndi = pytest.importorskip("scipy.ndimage")
    originals = {f: getattr(ndi, f) for f in ("zoom", "spline_filter", "spline_filter1d")}
    rng = np.random.default_rng(5)
    calls = []
    for i in range(30):
        shape = tuple(int(v) for v in rng.integers(2, 20, 1 + i % 3))
        x = (rng.random(shape) * 100).astype([np.float64, np.float32, np.uint8][i % 3])
        calls.append(("zoom", (x, float(rng.uniform(0.4, 2.5))),
                      dict(order=i % 6, mode=["constant", "reflect", "nearest", "mirror",
                                              "grid-wrap", "grid-constant"][i % 6],
                           grid_mode=bool(i % 2) and i % 6 not in (0, 5))))
        calls.append(("spline_filter", (x,), dict(order=2 + i % 4)))
        calls.append(("spline_filter1d", (x,), dict(order=2 + i % 4, axis=0,
                                                    output=np.float32)))
    calls += [("zoom", (np.ones((4, 4)), (2, 2, 2)), {}), ("zoom", (np.ones(4), 2),
                                                             dict(order=7)),
              ("zoom", (np.ones(4), 2), dict(mode="bogus")), ("spline_filter", ("x",), {}),
              ("zoom", ([1.0, 2.0, 3.0], 2), {})]
    want = [outcome(originals[f], *a, **k) for f, a, k in calls]
    rx.patch("scipy")
    for (f, a, k), w in zip(calls, want):
        assert_same(outcome(getattr(ndi, f), *a, **k), w, f"{f} {k}")
    assert routed("scipy.ndimage.zoom") >= 30


def test_skimage_patched_gives_scikit_images_bits():
    skt = pytest.importorskip("skimage.transform")
    originals = {f: getattr(skt, f) for f in ("resize", "rescale", "downscale_local_mean")}
    rng = np.random.default_rng(6)
    calls = []
    for i in range(24):
        shape = tuple(int(v) for v in rng.integers(4, 40, 2)) + ((3,) if i % 2 else ())
        dtype = [np.float32, np.float64, np.uint8, np.uint16][i % 4]
        x = rng.random(shape).astype(dtype) if dtype in (np.float32, np.float64) \
            else rng.integers(0, 200, shape).astype(dtype)
        out = tuple(int(v) for v in rng.integers(3, 50, 2)) + shape[2:]
        calls.append(("resize", (x, out), dict(order=i % 4, anti_aliasing=bool(i % 3),
                                               preserve_range=bool(i % 5 == 1))))
        calls.append(("rescale", (x, float(rng.uniform(0.3, 1.8))),
                      dict(channel_axis=-1 if x.ndim == 3 else None)))
        calls.append(("downscale_local_mean", (x, (2, 3) + (1,) * (x.ndim - 2)), {}))
    calls.append(("downscale_local_mean", (np.ones((16, 16), np.float32), (1, 8)), {}))
    for i in range(60):  # float block means: random factors, beyond the image too
        shape = tuple(int(v) for v in rng.integers(1, 40, 1 + i % 3))
        x = rng.random(shape).astype([np.float32, np.float64][i % 2])
        factors = tuple(int(f) for f in rng.choice([1, 2, 3, 5, 7, 9, 33, 60], len(shape)))
        calls.append(("downscale_local_mean", (x, factors), {}))
    calls.append(("resize", (np.ones((8, 8)), (4,)), {}))
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = [outcome(originals[f], *a, **k) for f, a, k in calls]
            rx.patch("skimage")
            got = [outcome(getattr(skt, f), *a, **k) for f, a, k in calls]
    for (f, a, k), g, w in zip(calls, got, want):
        assert_same(g, w, f"{f} {a[0].shape} {a[0].dtype} {k}")
    report = rx.patch_report()
    assert report["skimage.transform.resize"]["routed"] >= 24
    assert _patch.skimage.MEAN_ORDER.reason in \
        report["skimage.transform.downscale_local_mean"]["reasons"]


def test_scipys_own_suite_passes_patched_wherever_it_passes_unpatched(tmp_path):
    pytest.importorskip("scipy.ndimage")
    suites = ["scipy.ndimage.tests.test_interpolation", "scipy.ndimage.tests.test_splines"]
    base = [sys.executable, "-m", "pytest", "--pyargs", *suites, "-q", "-rfE",
            "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestUnknownMarkWarning"]

    def failures(cmd, env):
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env)
        assert " passed" in out.stdout, out.stdout[-2000:] + out.stderr[-2000:]
        failed = {line.split()[1] for line in out.stdout.splitlines()
                  if line.startswith(("FAILED ", "ERROR "))}
        return failed, out

    env = dict(os.environ, RESAMPLEX_PATCH_EVERY_SIZE="1")
    plain, _ = failures(base, env)
    patched, out = failures([sys.executable, "-m", "resamplex", "run", "--only", "scipy",
                             "--report", *base[1:]], env)
    assert patched <= plain, sorted(patched - plain)
    report = out.stderr[out.stderr.index("resamplex patch report"):]
    took = [int(line.split(" took the door")[0].rsplit(",", 1)[1])
            for line in report.splitlines() if "took the door" in line]
    assert len(took) == 3 and min(took) > 30, report


# ------------------------------------------------------------------------------ torch

def test_torch_patched_gives_torchs_bits_or_falls_through():
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    original = F.interpolate
    g = torch.Generator().manual_seed(7)
    u8 = torch.randint(0, 256, (2, 3, 37, 45), dtype=torch.uint8, generator=g)
    f32 = torch.rand((2, 5, 29, 31), generator=g)
    u8c6 = torch.randint(0, 256, (1, 6, 37, 5), dtype=torch.uint8, generator=g)
    calls = [
        (u8, dict(size=(20, 61), mode="bilinear")),
        (u8, dict(size=(20, 61), mode="bilinear", antialias=True)),
        (u8, dict(scale_factor=0.43, mode="bicubic", antialias=True)),
        (u8, dict(scale_factor=1.7, mode="bicubic", align_corners=True)),
        (u8, dict(size=(50, 10), mode="nearest")),
        (u8c6, dict(size=(20, 1), mode="bilinear", antialias=True)),   # torch's row 0 rows
        (u8c6, dict(size=(60, 1), mode="bicubic")),
        (u8c6[:, 1:], dict(size=(7000, 1), mode="bilinear")),  # torch's threads restart a row
        (f32, dict(scale_factor=2.3, mode="nearest")),
        (f32.half(), dict(size=(13, 70), mode="nearest")),
        (f32[:, :, ::2], dict(size=(13, 40), mode="nearest")),
        (f32.to(memory_format=torch.channels_last), dict(scale_factor=2, mode="nearest")),
        (f32, dict(scale_factor=1.5, mode="bilinear")),
        (f32, dict(size=(11, 12), mode="area")),
        (f32.clone().requires_grad_(True), dict(scale_factor=2, mode="nearest")),
        (f32, dict(size=(3, 3, 3), mode="nearest")),
        (f32, dict(scale_factor=2, mode="bogus")),
        (u8.float().numpy(), dict(size=(3, 3), mode="nearest")),
        (u8.long(), dict(size=(9, 9), mode="nearest")),
    ]
    want = [outcome(original, x, **kw) for x, kw in calls]
    rx.patch("torch")
    for (x, kw), w in zip(calls, want):
        assert_same(outcome(F.interpolate, x, **kw), w, f"{getattr(x, 'dtype', x)} {kw}")
    up = torch.nn.Upsample(scale_factor=2, mode="nearest")
    assert torch.equal(up(f32.detach()), original(f32.detach(), scale_factor=2))
    row = rx.patch_report()["torch.nn.functional.interpolate"]
    assert row["routed"] >= (8 if torch.backends.cpu.get_cpu_capability() == "DEFAULT" else 10)
    for reason in (_patch.torch.GRAD, _patch.torch.LAYOUT, _patch.torch.FLOAT_SUMS,
                   _patch.torch.NOT_TENSOR):
        assert reason.reason in row["reasons"]


def test_torch_uint8_shrinks_take_the_door_only_where_it_wins():
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    original = F.interpolate
    _patch.settings.small = True
    x = torch.randint(0, 256, (1, 3, 600, 800), dtype=torch.uint8,
                      generator=torch.Generator().manual_seed(3))
    calls = [dict(size=(300, 400), mode="bicubic"), dict(size=(360, 480), mode="bicubic"),
             dict(size=(300, 400), mode="bilinear", antialias=True)]
    want = [original(x, **kw) for kw in calls]
    rx.patch("torch")
    for kw, w in zip(calls, want):
        assert torch.equal(F.interpolate(x, **kw), w)
    row = rx.patch_report()["torch.nn.functional.interpolate"]
    assert row["routed"] == 2 and row["reasons"] == {_patch.torch.RATIO.reason: 1}


# ------------------------------------------------------------------------------ run

def test_run_a_script_with_its_arguments_exit_status_and_report(tmp_path):
    pytest.importorskip("cv2")
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent("""
        import sys, numpy as np, cv2
        x = np.zeros((300, 400, 3), np.uint8)
        cv2.resize(x, (800, 600))
        cv2.resize(cv2.UMat(x), (20, 15))
        print("argv", sys.argv[1:], hasattr(cv2.resize, "__resamplex_original__"))
        sys.exit(3)
    """))
    out = subprocess.run([sys.executable, "-m", "resamplex", "run", "--report", str(script),
                          "-x", "--flag"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 3, out.stderr
    assert "argv ['-x', '--flag'] True" in out.stdout
    assert "cv2.resize: 2 calls, 1 took the door, 1 went to the original" in out.stderr
    assert _patch.cv2.NOT_ARRAY.reason in out.stderr


def test_run_a_module_and_usage_errors(tmp_path):
    (tmp_path / "mymod.py").write_text("import sys; print('mod', sys.argv[1:])\n")
    out = subprocess.run([sys.executable, "-m", "resamplex", "run", "--only", "cv2", "-m",
                          "mymod", "a", "--b"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "mod ['a', '--b']" in out.stdout
    for args, msg in ((["run"], "expected a script"), (["run", "--only", "tf", "x.py"],
                                                      "--only takes"),
                      (["run", "missing.py"], "no such script"),
                      (["run", "--bogus", "x.py"], "unknown option")):
        out = subprocess.run([sys.executable, "-m", "resamplex", *args], capture_output=True,
                             text=True, cwd=tmp_path)
        assert out.returncode == 2 and msg in out.stderr, (args, out.stderr)


def test_other_architectures_run_the_originals(monkeypatch):
    cv2 = pytest.importorskip("cv2")
    original = cv2.resize
    monkeypatch.setattr(_patch, "X86_64", False)
    x = np.random.default_rng(8).integers(0, 256, (300, 400, 3), dtype=np.uint8)
    want = original(x, (250, 120))
    rx.patch("cv2")
    assert cv2.resize(x, (250, 120)).tobytes() == want.tobytes()
    assert rx.patch_report()["cv2.resize"] == {
        "routed": 0, "original": 1, "reasons": {_patch.NOT_X86_64.reason: 1}}
