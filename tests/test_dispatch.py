"""Runtime CPU dispatch: every instruction-set level gives the baseline's bits (SPEC §3).

The kernel modules are built once per level (setup.py ``LEVELS``) and the executor runs one
level's entry points (``_exec.set_cpu_level``). The arithmetic is the same at every level, so
the results must be the same bytes: each level the machine has is compared with the baseline
over many modes, dtypes, layouts, loop shapes and thread counts, with NaN, infinities and
signed zeros in the float inputs. The values themselves are checked against the float64
reference (tests/reference.py) at the best level by the rest of the suite, and here for the
channels-last sweep over whole pixel vectors.
"""

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import reference as ref
import resamplex as rx
from resamplex._engine import _exec

ml_dtypes = pytest.importorskip("ml_dtypes")

LEVELS = _exec.cpu_levels()
WIDE = LEVELS[1:]          # the levels compared with the baseline on this machine


@pytest.fixture
def at_level():
    """``at_level(name)`` switches the kernels; the level in force before comes back after."""
    before = _exec.cpu_level()
    yield _exec.set_cpu_level
    _exec.set_cpu_level(before)


def _bytes(a):
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8)


def _assert_same_bytes(got, want, what):
    assert got.shape == want.shape and got.dtype == want.dtype, what
    bad = _bytes(got) != _bytes(want)
    if bad.any():
        raise AssertionError(f"{what}: {int(bad.sum())} differing bytes of {bad.size}")


def _data(rng, shape, dtype):
    x = ref.random_array(rng, shape, dtype)
    if np.dtype(dtype).kind == "f" or np.dtype(dtype) == np.dtype(ml_dtypes.bfloat16):
        flat = x.reshape(-1)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], np.float32).astype(dtype)
        picks = rng.choice(flat.size, size=min(flat.size, 7), replace=False)
        flat[picks[:5]] = specials[: len(picks[:5])]
    return x


def _layouts(x):
    """The same values in several memory layouts (each a different loop shape)."""
    yield "C", x
    yield "F", np.asfortranarray(x)
    yield "channels-last", np.ascontiguousarray(np.moveaxis(x, 1, -1)).transpose(
        0, x.ndim - 1, *range(1, x.ndim - 1))
    yield "strided", np.repeat(x, 2, axis=-1)[..., ::2]


DTYPES = ["float64", "float32", "float16", "bfloat16", "int8", "uint8", "int16", "uint16"]
CASES = [  # (input shape (N, C, H, W), output (H, W), mode, antialias)
    ((2, 3, 13, 11), (29, 23), "linear", False),
    ((1, 5, 40, 37), (17, 15), "linear", True),
    ((2, 2, 21, 19), (8, 45), "cubic", False),
    ((1, 3, 30, 33), (10, 11), "area", False),
    ((2, 3, 9, 10), (9, 31), "nearest", False),
    ((1, 64, 7, 9), (15, 18), "linear", False),    # channels-last: the pixel-vector sweep
    ((1, 20, 12, 8), (5, 17), "cubic", True),
]


def _dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def test_levels_reported():
    assert LEVELS[0] == "baseline"
    assert _exec.cpu_level() in LEVELS
    assert set(LEVELS) <= set(_exec.LEVELS)
    cfg = rx.show_config(print_=False)
    assert cfg["cpu_level"] == _exec.cpu_level() and cfg["cpu_levels"] == LEVELS
    # the best level the CPU reports is the default unless the environment caps it
    if not os.environ.get("RESAMPLEX_CPU_LEVEL"):
        assert _exec.cpu_level() == LEVELS[-1]


def test_set_level_refuses_unknown(at_level):
    with pytest.raises(ValueError, match="not available"):
        at_level("sse9")
    for level in LEVELS:
        at_level(level)
        assert _exec.cpu_level() == level


@pytest.mark.parametrize("cap, expect", [("baseline", "baseline"), ("BASELINE", "baseline"),
                                         ("avx512", None), ("bogus", None)])
def test_environment_caps_level(cap, expect):
    code = ("import warnings; warnings.simplefilter('ignore');"
            "from resamplex._engine import _exec; print(_exec.cpu_level())")
    env = dict(os.environ, RESAMPLEX_CPU_LEVEL=cap)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=os.path.dirname(os.path.dirname(__file__)))
    # a cap at or above the best level, or an unknown one, leaves the best level
    assert out.stdout.strip() == (expect or LEVELS[-1])


@pytest.mark.skipif(not WIDE, reason="this machine runs the baseline level only")
@pytest.mark.parametrize("level", WIDE)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_level_matches_baseline(at_level, level, dtype, case):
    shape, size, mode, antialias = CASES[case]
    rng = np.random.default_rng(case * 100 + DTYPES.index(dtype))
    x = _data(rng, shape, _dtype(dtype))
    roundings = ["half_even", "half_away_from_zero", "toward_zero"] \
        if np.dtype(_dtype(dtype)).kind in "iu" else ["half_even"]
    for name, xl in _layouts(x):
        for rounding in roundings:
            for threads in (1, 2):
                got = {}
                for lv in ("baseline", level):
                    at_level(lv)
                    got[lv] = rx.resize(xl, size, axes=(2, 3), mode=mode, antialias=antialias,
                                        rounding=rounding, threads=threads)
                _assert_same_bytes(got[level], got["baseline"],
                                   f"{level} vs baseline: {dtype} {name} {mode} {rounding} "
                                   f"threads={threads}")


@pytest.mark.skipif(not WIDE, reason="this machine runs the baseline level only")
@pytest.mark.parametrize("level", WIDE)
def test_level_matches_baseline_long_rows_and_volumes(at_level, level):
    # The long-row loop shapes (rows loaded in blocks, taps read in place), 1-d and 3-d.
    rng = np.random.default_rng(7)
    cases = [
        (rng.standard_normal(70001).astype(np.float32), (150011,), (0,)),
        (rng.standard_normal((3, 9000)).astype(np.float16), (2, 4501), (0, 1)),
        (rng.standard_normal((1, 1, 9, 10, 11)).astype(np.float32), (17, 5, 23), (2, 3, 4)),
        (rng.integers(0, 256, (37, 53, 3), dtype=np.uint8), (80, 41), (0, 1)),
        (rng.integers(0, 256, (37, 53, 4), dtype=np.uint8), (18, 100), (0, 1)),
    ]
    for x, size, axes in cases:
        got = {}
        for lv in ("baseline", level):
            at_level(lv)
            got[lv] = rx.resize(x, size, axes=axes)
        _assert_same_bytes(got[level], got["baseline"], f"{level}: {x.dtype} {x.shape}")


@pytest.mark.skipif(not WIDE, reason="this machine runs the baseline level only")
@pytest.mark.parametrize("level", WIDE)
def test_dense_float32_rows_by_windows_and_gathers(at_level, level):
    # float32 rows along the last axis, two taps (linear) and four (cubic) per output: the
    # vector loops read each block's adjacent pairs from one window of the row where the
    # block's taps lie close together (factors from about 0.5 up), by gathers where they do
    # not (stronger reductions), and the scalar loop at the clamped ends. Factors on both
    # sides of each width's limit (8 outputs at AVX-512, 4 at AVX2), rows whose last block
    # ends at the row's end, NaN, infinities and signed zeros: the baseline's bytes, and the
    # float64 reference's values at the best level.
    rng = np.random.default_rng(19)
    cases = []
    for n_in, n_out in ((441, 480), (97, 13), (97, 29), (96, 48), (120, 55), (120, 53),
                        (64, 23), (33, 16), (200, 31), (17, 131), (9, 8)):
        x = _data(rng, (3, n_in), np.float32)
        for mode in ("linear", "cubic"):
            cases.append((x, n_out, mode))
    for x, n_out, mode in cases:
        got = {}
        for lv in ("baseline", level):
            at_level(lv)
            got[lv] = rx.resize(x, (n_out,), axes=(1,), mode=mode)
        _assert_same_bytes(got[level], got["baseline"], f"{level}: {x.shape} -> {n_out} {mode}")
        if level == LEVELS[-1]:     # finite values against the reference
            xf = ref.random_array(rng, x.shape, np.float32)
            want = ref.reference_resize(xf, (n_out,), axes=(1,), mode=mode)
            ref.assert_matches(rx.resize(xf, (n_out,), axes=(1,), mode=mode), want,
                               np.float32, mode, err_msg=f"{x.shape} -> {n_out} {mode}")


@pytest.mark.skipif(not WIDE, reason="this machine runs the baseline level only")
@pytest.mark.parametrize("level", WIDE)
def test_level_matches_baseline_adjoint_and_fixed_point(at_level, level):
    # The adjoint (transposed tables) and the uint8 fixed-point passes of the torch front door.
    from resamplex.compat import torch as rt

    rng = np.random.default_rng(3)
    g = rng.standard_normal((2, 3, 19, 23)).astype(np.float32)
    img = rng.integers(0, 256, (1, 3, 31, 29), dtype=np.uint8)
    got = {}
    for lv in ("baseline", level):
        at_level(lv)
        got[lv] = (rx.resize_adjoint(g, (2, 3, 7, 11), (19, 23), axes=(2, 3), mode="cubic"),
                   rt.interpolate(img, size=(13, 57), mode="bilinear", align_corners=False),
                   rt.interpolate(img, size=(62, 8), mode="bicubic", align_corners=False))
    for a, b in zip(got[level], got["baseline"]):
        _assert_same_bytes(a, b, f"{level}: adjoint / fixed point")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "uint8"])
@pytest.mark.parametrize("channels", [17, 64])
def test_pixel_sweep_against_reference(at_level, level, dtype, channels):
    # Channels-last with many channels runs the last two passes as one sweep over whole pixel
    # vectors; check its values against the float64 reference, at every level.
    at_level(level)
    rng = np.random.default_rng(channels)
    x = ref.random_array(rng, (2, 11, 13, channels), _dtype(dtype))
    x_nchw = x.transpose(0, 3, 1, 2)
    got = rx.resize(x_nchw, (23, 9), axes=(2, 3))
    assert got.strides[1] == got.itemsize                 # laid out channels-last, like x
    want = ref.reference_resize(x_nchw, (23, 9), axes=(2, 3))
    xmax = float(np.max(np.abs(np.asarray(x, np.float64))))
    ref.assert_matches(got, want, _dtype(dtype), "linear", xmax=xmax,
                       err_msg=f"level {level}")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", ["uint8", "int8"])
@pytest.mark.parametrize("channels", [None, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("factor", [2, 0.5])
def test_eight_bit_images_exact_at_factors_two_and_half(at_level, level, dtype, channels,
                                                        factor):
    # x2 and x0.5 resizes of 8-bit images (interleaved channels too) run polyphase kernels
    # (_taps.pyx.tp _phase_row: even/odd output rows zipped, or input rows unzipped). Their
    # weights are quarters and halves, so the float64 reference is exact and so is the float32
    # arithmetic: every output must be saturate(rounding(v)) exactly, ties included. So are
    # cubic's at x0.5 (32nds with a = -0.75, 16ths with -0.5), which the kernels compute in
    # int16 rows and int32 sums (_phase_split_k, rx_phasek_i16).
    at_level(level)
    rng = np.random.default_rng(5)
    h, w = (9, 37) if factor == 2 else (10, 74)
    shape = (h, w) if channels is None else (h, w, channels)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
    x[0, : w // 2] = info.max                          # saturation at the top of the range
    size = (int(h * factor), int(w * factor))
    cases = [("linear", t) for t in ("half_pixel", "pytorch_half_pixel", "asymmetric")]
    kws = [{}] * len(cases)
    if factor == 0.5:
        cases += [("area", "half_pixel"), ("cubic", "half_pixel"), ("cubic", "asymmetric"),
                  ("cubic", "half_pixel")]
        kws += [{}, {}, {}, {"cubic_a": -0.5}]
    for (mode, transform), kw in zip(cases, kws):
        v = ref.reference_resize(x, size, axes=(0, 1), mode=mode,
                                 coordinate_transform=transform, **kw)
        for rounding in ("half_even", "half_away_from_zero", "toward_zero"):
            for threads in (1, 2):
                got = rx.resize(x, size, axes=(0, 1), mode=mode, coordinate_transform=transform,
                                rounding=rounding, threads=threads, **kw)
                want = ref.expected_integer(v, dtype, rounding)
                bad = got != want
                assert not bad.any(), (f"{mode}/{transform}/{rounding}/{threads} threads at "
                                       f"{level}: {int(bad.sum())} of {bad.size} differ")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", ["uint8", "int8"])
@pytest.mark.parametrize("channels", [None, 1, 3, 4])
def test_eight_bit_cubic_x2_rows_in_pairs(at_level, level, dtype, channels):
    # x2 cubic of 8-bit images: output rows 2i - 1 and 2i read the same four input rows and
    # are blended in one sweep (_taps.pyx.tp _phase_up2_pair), the rows between them and the
    # clamped ones at the ends one at a time. Against the float64 reference (SPEC 3's
    # tolerance), odd and even heights, images in a batch (a pair never spans two images),
    # every rounding, cubic_a -0.75 and -0.5, both thread counts (chunks of rows that start on
    # either parity), and both thread counts against each other byte for byte.
    at_level(level)
    rng = np.random.default_rng(11)
    info = np.iinfo(dtype)
    for batch, h, w in ((None, 9, 37), (None, 14, 40), (3, 7, 33)):
        shape = (h, w) if channels is None else (h, w, channels)
        if batch is not None:
            shape = (batch,) + shape
        axes = (0, 1) if batch is None else (1, 2)
        x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
        x[..., 0, : w // 2] = info.max                   # saturation, top row
        x[..., -1, w // 2:] = info.min                   # and bottom row
        size = (2 * h, 2 * w)
        for cubic_a in (-0.75, -0.5):
            v = ref.reference_resize(x, size, axes=axes, mode="cubic", cubic_a=cubic_a)
            for rounding in ("half_even", "half_away_from_zero", "toward_zero"):
                got = [rx.resize(x, size, axes=axes, mode="cubic", cubic_a=cubic_a,
                                 rounding=rounding, threads=threads) for threads in (1, 2)]
                msg = f"{shape} a={cubic_a} {rounding} at {level}"
                ref.assert_matches(got[0], v, dtype, "cubic", rounding=rounding, err_msg=msg)
                _assert_same_bytes(got[1], got[0], msg + ": 2 threads against 1")


@pytest.mark.parametrize("level", LEVELS)
def test_float_passes_match_opencv_at_every_level(at_level, level):
    # compat.cv2's float32 passes: cubic's first pass (the horizontal sums, in OpenCV's order)
    # over single elements takes two vector gathers of adjacent tap pairs at AVX-512,
    # Lanczos-4's one vector of eight products per output, transposed 8 x 8 and summed tap by
    # tap, and pixels of 4 elements have loops of their own (exact halves, OpenCV's 2x2 area
    # path for linear and area, too): OpenCV's bits at each level, rows of 8-output blocks
    # whose taps are all adjacent and blocks with clamped ends, up and down, NaN and
    # infinities among the values, both thread counts.
    cv2 = pytest.importorskip("cv2")
    from resamplex.compat import cv2 as rcv
    at_level(level)
    rng = np.random.default_rng(40 + len(level))
    use_ipp = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    try:
        for cn, (h, w) in itertools.product((0, 1, 4), ((21, 157), (22, 158))):
            shape = (h, w) if cn == 0 else (h, w, cn)
            x = (rng.standard_normal(shape) * 100).astype(np.float32)
            x.reshape(-1)[[5, 300, 1001]] = [np.nan, np.inf, -np.inf]
            for size in ((w // 2, h // 2), (39, 7), (200, 30), (w, h), (61, 45)):
                for flag in ("INTER_LINEAR", "INTER_CUBIC", "INTER_LANCZOS4", "INTER_AREA"):
                    want = cv2.resize(x, size, interpolation=getattr(cv2, flag))
                    for threads in (1, 2):
                        got = rcv.resize(x, size, interpolation=getattr(rcv, flag),
                                         threads=threads)
                        assert got.shape == want.shape
                        assert got.tobytes() == want.tobytes(), f"{level} {cn} {size} {flag}"
    finally:
        cv2.ipp.setUseIPP(use_ipp)


@pytest.mark.parametrize("level", LEVELS)
def test_integer_passes_match_opencv_at_every_level(at_level, level):
    # compat.cv2's fixed-point passes (Q11 horizontal sums, the (b * (S >> 4)) >> 16 vertical
    # form, Lanczos4's 2^22 finish, cubic's float32 vector head, LINEAR_EXACT) run as the
    # executor's integer passes, built per level with int32 accumulators where the planner
    # bounds the sums: OpenCV's bits at each level, 1 to 4 channels, up and down, both
    # thread counts.
    cv2 = pytest.importorskip("cv2")
    from resamplex.compat import cv2 as rcv
    at_level(level)
    rng = np.random.default_rng(len(level))
    use_ipp = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    try:
        for dtype in (np.uint8, np.uint16, np.int16):
            info = np.iinfo(dtype)
            for cn in (1, 2, 3, 4):
                x = rng.integers(info.min, info.max + 1, (23, 37, cn)).astype(dtype)
                for size in ((61, 45), (15, 9), (37, 50)):
                    for flag in ("INTER_LINEAR", "INTER_CUBIC", "INTER_LANCZOS4",
                                 "INTER_LINEAR_EXACT"):
                        want = cv2.resize(x, size, interpolation=getattr(cv2, flag))
                        for threads in (1, 2):
                            got = rcv.resize(x, size, interpolation=getattr(rcv, flag),
                                             threads=threads)
                            np.testing.assert_array_equal(got.reshape(want.shape), want,
                                                          f"{level} {dtype} {cn} {size} {flag}")
    finally:
        cv2.ipp.setUseIPP(use_ipp)
