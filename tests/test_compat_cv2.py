"""``resamplex.compat.cv2.resize`` against the installed OpenCV, bit for bit (SPEC §6).

OpenCV's own C++ path is the oracle: IPP is switched off for this module
(``cv2.ipp.setUseIPP(False)``, restored afterwards), since IPP's closed kernels change 16-bit
and float linear and every cubic/Lanczos result (``docs/cv2.md``). Random cases (fixed seeds)
cover every interpolation and dtype OpenCV takes, 2-D and ``(H, W, C)`` arrays with 1-6 and 128
channels, 1-wide and 1-tall images, ``dsize`` and ``fx``/``fy`` (which give exact integer
factors, partial area blocks and scales other than ``dw / W``), up- and downscaling; OpenCV's
refusals must be refused too. The golden cases are research/opencv_pillow.md §4.1 (OpenCV's
own regression tests and values read off the wheels).
"""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import resamplex as rx  # noqa: E402
from resamplex.compat import cv2 as rcv  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def opencv_without_ipp():
    before = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    yield
    cv2.ipp.setUseIPP(before)


MODES = [rcv.INTER_NEAREST, rcv.INTER_LINEAR, rcv.INTER_CUBIC, rcv.INTER_AREA,
         rcv.INTER_LANCZOS4, rcv.INTER_LINEAR_EXACT, rcv.INTER_NEAREST_EXACT]
DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.int32, np.float16, np.float32,
          np.float64]


def random_image(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, shape).astype(dtype)


def random_call(rng, max_side):
    H, W = (int(v) for v in rng.integers(1, max_side, 2))
    if rng.random() < 0.15:
        H = 1 if rng.random() < 0.5 else H
        W = 1 if H != 1 else W
    cn = int(rng.choice([0, 1, 2, 3, 4, 6]))
    shape = (H, W) if cn == 0 else (H, W, cn)
    r = rng.random()
    if r < 0.3:
        fx = float(rng.choice([0.5, 0.25, 1 / 3, 2.0, 3.0, 0.3, 1.7, rng.uniform(0.1, 4)]))
        fy = float(rng.choice([fx, 0.5, rng.uniform(0.1, 4)]))
        return shape, dict(dsize=None, fx=fx, fy=fy)
    if r < 0.45:
        k = int(rng.integers(2, 5))
        return shape, dict(dsize=(max(1, W // k), max(1, H // int(rng.integers(1, 5)))))
    return shape, dict(dsize=(int(rng.integers(1, 1.6 * W + 3)),
                              int(rng.integers(1, 1.6 * H + 3))))


def compare(a, kwargs, mode):
    try:
        expected = cv2.resize(a, interpolation=mode, **kwargs)
    except cv2.error:
        expected = None
    if expected is None:
        with pytest.raises(rx.ResamplexError):
            rcv.resize(a, interpolation=mode, **kwargs)
        return False
    if mode == rcv.INTER_LINEAR_EXACT and a.dtype == np.int32:
        with pytest.raises(rx.UnsupportedError, match="int32"):
            rcv.resize(a, interpolation=mode, **kwargs)
        return False
    got = rcv.resize(a, interpolation=mode, **kwargs)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    assert np.array_equal(got.view(np.uint8) if got.dtype == np.float16 else got,
                          expected.view(np.uint8) if got.dtype == np.float16 else expected,
                          equal_nan=True), (
        f"{a.shape} {a.dtype} {kwargs} mode {mode}: "
        f"{int((got != expected).sum())} of {got.size} differ")
    return True


@pytest.mark.parametrize("mode", MODES)
def test_random_against_opencv(mode):
    rng = np.random.default_rng(100 + mode)
    compared = 0
    for i in range(120):
        dtype = DTYPES[i % len(DTYPES)]
        shape, kwargs = random_call(rng, 48 if i % 3 else 130)
        compared += compare(random_image(rng, shape, dtype), kwargs, mode)
    assert compared >= 40


@pytest.mark.parametrize("mode", [rcv.INTER_LINEAR, rcv.INTER_CUBIC, rcv.INTER_AREA,
                                  rcv.INTER_LANCZOS4, rcv.INTER_LINEAR_EXACT])
def test_integer_factors_and_partial_blocks(mode):
    """Exact factors take OpenCV's block paths (2x2 fast path, grouped sums, partial blocks
    with fx/fy); 128 channels is OpenCV's limit."""
    rng = np.random.default_rng(7 + mode)
    for dtype in (np.uint8, np.uint16, np.int16, np.float32, np.float64):
        for sx, sy, extra, cn in ((2, 2, 1, 1), (2, 2, 1, 4), (3, 2, 2, 3), (4, 4, 3, 0),
                                  (2, 2, 0, 128), (5, 3, 4, 2)):
            H, W = 4 * sy + extra % sy, 5 * sx + extra % sx
            a = random_image(rng, (H, W) if cn == 0 else (H, W, cn), dtype)
            compare(a, dict(dsize=None, fx=1 / sx, fy=1 / sy), mode)
            compare(a, dict(dsize=(W // sx, H // sy)), mode)


def test_large_images_all_modes():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, (270, 480, 3), dtype=np.uint8)
    for mode in MODES:
        for dsize in ((240, 135), (960, 540), (301, 199)):
            compare(a, dict(dsize=dsize), mode)


def test_threads_and_layout_do_not_change_results():
    rng = np.random.default_rng(4)
    a = random_image(rng, (37, 53, 3), np.uint8)
    for mode in MODES:
        one = rcv.resize(a, (71, 29), interpolation=mode, threads=1)
        np.testing.assert_array_equal(rcv.resize(a, (71, 29), interpolation=mode, threads=2),
                                      one)
        np.testing.assert_array_equal(
            rcv.resize(np.asfortranarray(a), (71, 29), interpolation=mode), one)
        strided = np.zeros((37, 106, 3), np.uint8)[:, ::2]
        strided[...] = a
        np.testing.assert_array_equal(rcv.resize(strided, (71, 29), interpolation=mode), one)


# ------------------------------------------------------------------------------ golden cases

def test_golden_o1_fractional_area_u16():
    inp = np.array([
        90, 94, 80, 3, 231, 2, 186, 245, 188, 165, 10, 19, 201, 169, 8, 228,
        86, 5, 203, 120, 136, 185, 24, 94, 81, 150, 163, 137, 88, 105, 132, 132,
        236, 48, 250, 218, 19, 52, 54, 221, 159, 112, 45, 11, 152, 153, 112, 134,
        78, 133, 136, 83, 65, 76, 82, 250, 9, 235, 148, 26, 236, 179, 200, 50,
        99, 51, 103, 142, 201, 65, 176, 33, 49, 226, 177, 109, 46, 21, 67, 130,
        54, 125, 107, 154, 145, 51, 199, 189, 161, 142, 231, 240, 139, 162, 240, 22,
        231, 86, 79, 106, 92, 47, 146, 156, 36, 207, 71, 33, 2, 244, 221, 71,
        44, 127, 71, 177, 75, 126, 68, 119, 200, 129, 191, 251, 6, 236, 247, 6,
        133, 175, 56, 239, 147, 221, 243, 154, 242, 82, 106, 99, 77, 158, 60, 229,
        2, 42, 24, 174, 27, 198, 14, 204, 246, 251, 141, 31, 114, 163, 29, 147,
        121, 53, 74, 31, 147, 189, 42, 98, 202, 17, 228, 123, 209, 40, 77, 49,
        112, 203, 30, 12, 205, 25, 19, 106, 145, 185, 163, 201, 237, 223, 247, 38,
        33, 105, 243, 117, 92, 179, 204, 248, 160, 90, 73, 126, 2, 41, 213, 204,
        6, 124, 195, 201, 230, 187, 210, 167, 48, 79, 123, 159, 145, 218, 105, 209,
        240, 152, 136, 235, 235, 164, 157, 9, 152, 38, 27, 209, 120, 77, 238, 196,
        240, 233, 10, 241, 90, 67, 12, 79, 0, 43, 58, 27, 83, 199, 190, 182],
        np.uint16).reshape(16, 16)
    got = rcv.resize(inp, None, fx=0.3, fy=0.3, interpolation=rcv.INTER_AREA)
    np.testing.assert_array_equal(got, [[120, 100, 151, 101, 130], [106, 115, 141, 130, 127],
                                        [91, 136, 170, 114, 140], [104, 122, 131, 147, 133],
                                        [161, 163, 70, 107, 182]])


def test_golden_o2_o3_area_rounding():
    i = np.arange(1024)
    src = (i % 2 + 253 + i // 512).astype(np.uint8).reshape(32, 32)
    half = rcv.resize(src, None, fx=0.5, fy=0.5, interpolation=rcv.INTER_AREA)
    assert (half[:8] == 254).all() and (half[8:] == 255).all()
    quarter = rcv.resize(src, None, fx=0.25, fy=0.25, interpolation=rcv.INTER_AREA)
    assert (quarter == 254).all()


def test_golden_o4_lanczos4_constant():
    src = np.full((17, 11, 3), 128, np.uint8)
    assert (rcv.resize(src, (11, 153), interpolation=rcv.INTER_LANCZOS4) == 128).all()


def test_golden_o5_nearest():
    src = np.zeros((12, 12, 5), np.uint8)
    src[5, 5, :] = 1
    out = rcv.resize(src, (11, 11), interpolation=rcv.INTER_NEAREST)
    assert out.sum() == 5 and (out[5, 5] == 1).all()


@pytest.mark.parametrize("mode, dtype, expected", [
    (rcv.INTER_LINEAR, np.uint8, [0, 16, 48, 80, 112, 160, 223, 255]),
    (rcv.INTER_LINEAR_EXACT, np.uint8, [0, 16, 48, 80, 112, 160, 223, 255]),
    (rcv.INTER_CUBIC, np.uint8, [0, 12, 43, 81, 102, 164, 228, 255]),
    (rcv.INTER_LANCZOS4, np.uint8, [0, 13, 48, 77, 104, 160, 230, 255]),
    (rcv.INTER_LINEAR, np.float32, [0, 16, 48, 80, 112, 159.75, 223.25, 255]),
    (rcv.INTER_CUBIC, np.float32, [-6.75, 12.25, 42.75, 80.78515625, 102.35546875,
                                   163.5234375, 228.4765625, 268.39453125]),
])
def test_golden_o6_ramp(mode, dtype, expected):
    s = np.array([[0, 64, 128, 255]], dtype)
    np.testing.assert_array_equal(rcv.resize(s, (8, 1), interpolation=mode)[0],
                                  np.array(expected, dtype))


def test_golden_o7_linear_vs_linear_exact():
    s = np.array([[10, 20, 30], [40, 50, 60], [70, 80, 91]], np.uint8)
    lin = [[10, 14, 20, 26, 30], [22, 26, 32, 38, 42], [40, 44, 50, 56, 60],
           [58, 62, 68, 74, 78], [70, 74, 80, 87, 91]]
    np.testing.assert_array_equal(rcv.resize(s, (5, 5)), lin)
    exact = np.array(lin)
    exact[3, 4] = 79  # the research note says [3, 3]; the wheel (and the arithmetic) say [3, 4]
    np.testing.assert_array_equal(rcv.resize(s, (5, 5), interpolation=rcv.INTER_LINEAR_EXACT),
                                  exact)


def test_golden_o8_nearest_vs_nearest_exact():
    a = np.arange(4, dtype=np.uint8).reshape(1, 4)
    assert rcv.resize(a, (10, 1), interpolation=rcv.INTER_NEAREST)[0].tolist() == \
        [0, 0, 0, 1, 1, 2, 2, 2, 3, 3]
    assert rcv.resize(a, (10, 1), interpolation=rcv.INTER_NEAREST_EXACT)[0].tolist() == \
        [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
    b = np.arange(10, dtype=np.uint8).reshape(1, 10)
    assert rcv.resize(b, (4, 1), interpolation=rcv.INTER_NEAREST)[0].tolist() == [0, 2, 5, 7]
    assert rcv.resize(b, (4, 1), interpolation=rcv.INTER_NEAREST_EXACT)[0].tolist() == \
        [1, 3, 6, 8]


def test_golden_o9_area_rounding_depends_on_channels():
    s = np.array([[1, 2], [3, 4]], np.uint8)
    assert rcv.resize(s, (1, 1), interpolation=rcv.INTER_AREA)[0, 0] == 3
    assert rcv.resize(np.dstack([s, s]), (1, 1), interpolation=rcv.INTER_AREA)[0, 0, 0] == 2
    assert rcv.resize(np.dstack([s, s, s]), (1, 1), interpolation=rcv.INTER_AREA)[0, 0, 0] == 3
    assert rcv.resize(np.dstack([s, s]), (1, 1),
                      interpolation=rcv.INTER_LINEAR_EXACT)[0, 0, 0] == 3


def test_golden_o10_fx_versus_dsize():
    s = np.arange(25, dtype=np.uint8).reshape(5, 5)
    np.testing.assert_array_equal(
        rcv.resize(s, None, fx=0.5, fy=0.5, interpolation=rcv.INTER_NEAREST), [[0, 2], [10, 12]])
    np.testing.assert_array_equal(rcv.resize(s, None, fx=0.5, fy=0.5), [[3, 5], [13, 15]])
    np.testing.assert_array_equal(rcv.resize(s, (2, 2)), [[4, 7], [17, 19]])


def test_golden_o11_without_ipp():
    s = np.array([[0, 1.1], [2.2, 3.3]], np.float32)
    assert rcv.resize(s, (5, 2))[1, 1] == np.float32(2.309999942779541)


# ------------------------------------------------------------------------------ arguments

def test_argument_rules():
    a = np.arange(20, dtype=np.uint8).reshape(4, 5)
    assert rcv.resize(a, (3, 2), fx=10).shape == (2, 3)           # dsize wins over fx
    assert rcv.resize(a, (0, 0), fx=0.5, fy=0.5).shape == (2, 2)   # 2.5 -> 2 (half to even)
    assert rcv.resize(a, (0, 7), fx=0.5, fy=0.5).shape == (2, 2)   # empty dsize: fx, fy
    assert rcv.resize(np.zeros((7, 7), np.uint8), None, fx=0.5, fy=0.5).shape == (4, 4)
    np.testing.assert_array_equal(rcv.resize(a, (5, 4)), a)        # same size: a copy
    assert rcv.resize(np.arange(6, dtype=np.uint8), (3, 5)).shape == (5, 3)  # 1-d: a column
    assert rcv.resize(np.zeros((4, 5, 1), np.uint8), (3, 2)).shape == (2, 3)  # like OpenCV
    assert rcv.resize(np.zeros((4, 5, 1), np.uint8), (3, 2)).shape == \
        cv2.resize(np.zeros((4, 5, 1), np.uint8), (3, 2)).shape
    assert rcv.INTER_LINEAR == cv2.INTER_LINEAR and rcv.INTER_MAX == cv2.INTER_MAX
    for name in ("INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_CUBIC", "INTER_AREA",
                 "INTER_LANCZOS4", "INTER_LINEAR_EXACT"):
        assert getattr(rcv, name) == getattr(cv2, name)


def test_dst_is_written_when_it_fits():
    a = np.arange(20, dtype=np.uint8).reshape(4, 5)
    dst = np.zeros((2, 3), np.uint8)
    assert rcv.resize(a, (3, 2), dst) is dst and dst.any()
    wrong = np.zeros((3, 3), np.uint8)
    out = rcv.resize(a, (3, 2), wrong)
    assert out is not wrong and out.shape == (2, 3) and not wrong.any()
    unit = np.zeros((2, 3, 1), np.uint8)
    assert rcv.resize(a, (3, 2), unit) is unit and unit.any()


@pytest.mark.parametrize("args, kwargs, match", [
    ((None,), dict(), "fx, fy"),
    (((-1, 2),), dict(), "fx, fy"),
    ((None,), dict(fx=0.1, fy=0.1), "rounds to 0"),
    ((None,), dict(fx=-1.0, fy=1.0), "fx, fy"),
    (((3.5, 2),), dict(), "dsize"),
    (((3, 2, 1),), dict(), "dsize"),
    (((3, 2),), dict(interpolation=7), "interpolation"),
    (((3, 2),), dict(interpolation=True), "interpolation"),
    (((3, 2),), dict(fx=True), "fx"),
    (((3, 2),), dict(threads=0), "threads"),
])
def test_bad_arguments(args, kwargs, match):
    with pytest.raises(rx.ResamplexError, match=match):
        rcv.resize(np.zeros((4, 5), np.uint8), *args, **kwargs)


@pytest.mark.parametrize("a, mode, match", [
    (np.zeros((4, 5), np.int8), rcv.INTER_LINEAR, "CV_8S"),
    (np.zeros((4, 5), np.int8), rcv.INTER_AREA, "CV_8S"),
    (np.zeros((4, 5), np.int32), rcv.INTER_CUBIC, "CV_32S"),
    (np.zeros((4, 5), np.float16), rcv.INTER_LINEAR_EXACT, "CV_16F"),
    (np.zeros((4, 5), np.int32), rcv.INTER_LINEAR_EXACT, "int32"),
    (np.zeros((4, 5), np.int64), rcv.INTER_NEAREST, "int64"),
    (np.zeros((4, 5), np.complex64), rcv.INTER_NEAREST, "complex64"),
    (np.zeros((4, 5, 129), np.uint8), rcv.INTER_NEAREST, "128 channels"),
    (np.zeros((2, 4, 5, 1), np.uint8), rcv.INTER_NEAREST, "2-d"),
    (np.zeros((4, 10, 5), np.uint8), rcv.INTER_AREA, "4 channels"),
])
def test_refusals(a, mode, match):
    dsize = (3, 3) if mode != rcv.INTER_AREA else (3, 3)
    with pytest.raises(rx.UnsupportedError, match=match):
        rcv.resize(a, dsize, interpolation=mode)


def test_int8_exact_half_goes_to_area_and_fails_like_opencv():
    a = np.zeros((4, 6), np.int8)
    with pytest.raises(cv2.error):
        cv2.resize(a, (3, 2), interpolation=cv2.INTER_LINEAR_EXACT)
    with pytest.raises(rx.UnsupportedError, match="INTER_AREA"):
        rcv.resize(a, (3, 2), interpolation=rcv.INTER_LINEAR_EXACT)


def test_empty_image_is_refused():
    with pytest.raises(rx.ResamplexError, match="empty"):
        rcv.resize(np.zeros((0, 5), np.uint8), (3, 3))


def test_repeated_calls_take_the_remembered_plan():
    """A call whose arguments were seen before goes straight to its plan (``_CALLS``): the same
    bits as the first call, for every layout of the same shape and dtype, and a bad ``threads``
    is still refused with the facade's message."""
    rng = np.random.default_rng(11)
    img = rng.integers(0, 256, (20, 24, 3), dtype=np.uint8)
    for interp in (rcv.INTER_LINEAR, rcv.INTER_AREA, rcv.INTER_CUBIC, rcv.INTER_NEAREST):
        first = rcv.resize(img, (12, 10), interpolation=interp)
        assert np.array_equal(first, cv2.resize(img, (12, 10), interpolation=interp))
        for x in (img, img[:, ::-1][:, ::-1], np.asfortranarray(img)):
            for threads in (None, 1, 2):
                again = rcv.resize(x, (12, 10), interpolation=interp, threads=threads)
                assert again.dtype == first.dtype and np.array_equal(again, first)
        with pytest.raises(rx.ResamplexError, match="threads"):
            rcv.resize(img, (12, 10), interpolation=interp, threads=0)
    one = rng.integers(0, 256, (9, 7, 1), dtype=np.uint8)
    for _ in range(2):  # a 1-channel result loses its channel axis on the remembered path too
        assert rcv.resize(one, (5, 4)).shape == (4, 5)
    col = rng.integers(0, 256, 9, dtype=np.uint8)
    first = rcv.resize(col, (2, 5))
    for _ in range(2):  # a 1-d array is read as a column every time
        assert np.array_equal(rcv.resize(col, (2, 5)), first)


@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_strided_pixel_views_match_opencv(dtype):
    """Views whose pixels are not adjacent elements (BGR viewed as RGB, RGB out of RGBA, a
    mirrored row), which OpenCV copies first: the same bits as OpenCV on the same view, for
    every interpolation and sizes up and down (nearest gathers their channels one by one,
    the weighted doors copy the view contiguous first)."""
    rng = np.random.default_rng(12)
    img = rng.integers(0, 256, (21, 26, 4)).astype(dtype)
    views = (img[..., 2::-1], img[..., :3], img[:, ::-1, :3], img[::-1, ::-2, ::-1],
             np.ascontiguousarray(img[..., :3])[..., ::-1])
    for interp in (rcv.INTER_NEAREST, rcv.INTER_LINEAR, rcv.INTER_AREA, rcv.INTER_CUBIC,
                   rcv.INTER_LANCZOS4, rcv.INTER_NEAREST_EXACT):
        for v in views:
            for size in ((9, 7), (40, 31), (v.shape[1] // 2, v.shape[0] // 2)):
                got = rcv.resize(v, size, interpolation=interp)
                want = cv2.resize(v, size, interpolation=interp)
                assert np.array_equal(got, want), (interp, v.strides, size)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("interpolation", ["INTER_AREA", "INTER_LINEAR", "INTER_LINEAR_EXACT"])
def test_whole_2x2_blocks_match_opencv(dtype, cn, interpolation):
    # Halving both sides exactly is OpenCV's 2x2 area path (INTER_LINEAR and LINEAR_EXACT
    # become INTER_AREA there); resamplex runs it on the engine's x0.5 passes with the
    # rounding OpenCV's finish amounts to: every value, the extremes of the type included.
    rng = np.random.default_rng([cn, len(dtype), len(interpolation)])
    info = np.iinfo(dtype)
    for h, w in ((2, 2), (6, 10), (34, 66), (40, 260)):
        x = rng.integers(info.min, info.max + 1, (h, w, cn)).astype(dtype)
        x[0, 0] = info.max
        x[-1, -1] = info.min
        flag = getattr(cv2, interpolation)
        want = cv2.resize(x, (w // 2, h // 2), interpolation=flag)
        got = rcv.resize(x, (w // 2, h // 2), interpolation=getattr(rcv, interpolation))
        np.testing.assert_array_equal(got.reshape(want.shape), want)
        got = rcv.resize(x, None, fx=0.5, fy=0.5, interpolation=getattr(rcv, interpolation))
        np.testing.assert_array_equal(got.reshape(want.shape), want)


def at_every_cpu_level(check):
    """Run ``check(level)`` at each instruction-set level this build and CPU have, restoring
    the level before afterwards."""
    from resamplex._engine import _exec

    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            check(level)
    finally:
        _exec.set_cpu_level(before)


def cases_match_at_every_cpu_level(cases):
    """Each ``(x, dsize, flag, want)`` resized at every CPU level, on 1 and 2 threads, gives
    OpenCV's ``want``: the same shape, NaN where it has NaN, the same bytes elsewhere."""
    def check(level):
        for x, dsize, flag, want in cases:
            for threads in (1, 2):
                got = rcv.resize(x, dsize, interpolation=flag, threads=threads)
                assert got.shape == want.shape
                assert np.array_equal(got, want, equal_nan=True), (level, x.shape, dsize, flag)
                finite = np.isfinite(want)
                assert got[finite].tobytes() == want[finite].tobytes()

    at_every_cpu_level(check)


@pytest.mark.parametrize("interpolation", ["INTER_LINEAR", "INTER_AREA"])
def test_eight_bit_linear_at_every_cpu_level(interpolation):
    # uint8 linear (and area when enlarging, the same passes) keeps its horizontal sums in
    # 16 bits and blends them with 16-bit high products, OpenCV's own vertical form, in
    # vectors of every level; x2 computes the even and odd outputs as two rows and zips them.
    # Extremes (0/255 stripes) reach the largest sums the narrowing must hold.
    rng = np.random.default_rng([len(interpolation), 21])
    flag = getattr(cv2, interpolation)
    cases = []
    for cn in (0, 1, 2, 3, 4):
        for h, w in ((40, 70), (33, 129), (9, 17)):
            shape = (h, w) if cn == 0 else (h, w, cn)
            x = rng.integers(0, 256, shape).astype(np.uint8)
            x[::2] = np.where(x[::2] > 127, 255, 0)
            for dsize in ((2 * w, 2 * h), (2 * w, h), (w, 2 * h), (3 * w // 2, 3 * h // 2),
                          (2 * w + 1, 2 * h - 1)):
                cases.append((x, dsize, cv2.resize(x, dsize, interpolation=flag)))

    def check(level):
        for x, dsize, want in cases:
            for threads in (1, 2):
                got = rcv.resize(x, dsize, interpolation=getattr(rcv, interpolation),
                                 threads=threads)
                assert np.array_equal(got, want), (level, x.shape, dsize, threads)

    at_every_cpu_level(check)


@pytest.mark.parametrize("cn", [0, 1, 3, 4])
def test_float_2x2_area_keeps_the_sign_of_zero(cn):
    # OpenCV's float32 2x2 vector path sums ((a + b) + (c + d)) * 0.25f with no 0 + in front
    # (cn 1 and 4; a block of -0.0 stays -0.0); its generic path starts from sum = 0 (cn 3:
    # +0.0). Compared byte for byte, so the sign of zero counts; with partial blocks (fx/fy).
    rng = np.random.default_rng(cn)
    for h, w in ((8, 16), (10, 34), (41, 67)):
        shape = (h, w) if cn == 0 else (h, w, cn)
        x = (rng.standard_normal(shape) * 100).astype(np.float32)
        x[:4, :8] = -0.0
        x.reshape(-1)[rng.integers(0, x.size, 9)] = -0.0
        for kwargs in (dict(dsize=(w // 2, h // 2)), dict(dsize=None, fx=0.5, fy=0.5)):
            for flag in (cv2.INTER_AREA, cv2.INTER_LINEAR):
                want = cv2.resize(x, interpolation=flag, **kwargs)
                got = rcv.resize(x, interpolation=flag, **kwargs)
                assert got.shape == want.shape
                assert got.tobytes() == want.tobytes(), (x.shape, kwargs, flag)


def test_float_linear_at_every_cpu_level():
    # float32 linear, cubic and Lanczos4 enlarging by 2 sum each row's even and odd outputs as
    # two contiguous rows (the border outputs through the table) and zip them by pixel, in the
    # fused horizontal-then-vertical sweep; float rows of 1-4 channels are summed with the
    # channel count fixed. NaN, infinities and -0.0 included; compared as bytes.
    rng = np.random.default_rng(22)
    cases = []
    for cn in (0, 1, 2, 3, 4, 5):
        for h, w in ((40, 70), (9, 17)):
            shape = (h, w) if cn == 0 else (h, w, cn)
            x = (rng.standard_normal(shape) * 100).astype(np.float32)
            for v in (np.nan, np.inf, -np.inf, -0.0):
                x.reshape(-1)[rng.integers(0, x.size, 2)] = v
            for dsize in ((2 * w, 2 * h), (2 * w, h), (3 * w // 2, 2 * h)):
                for flag in (cv2.INTER_LINEAR, cv2.INTER_AREA, cv2.INTER_CUBIC,
                             cv2.INTER_LANCZOS4):
                    cases.append((x, dsize, flag, cv2.resize(x, dsize, interpolation=flag)))

    cases_match_at_every_cpu_level(cases)


def test_nearest_halving_at_every_cpu_level():
    # A row halved by nearest reads every other pixel: whole vectors of 1-, 2-, 4- and 8-byte
    # pixels, the last one overlapping, and five 3-byte pixels per byte shuffle, the last
    # ones (where a load would leave the row) one at a time; 6-byte pixels by 8-byte moves;
    # NEAREST_EXACT reads the odd pixels, so its run stops
    # where the pixel after the last would leave the row (even widths), and the row's end
    # goes through the table.
    rng = np.random.default_rng(23)
    cases = []
    for dtype, cn in ((np.uint8, 0), (np.uint16, 0), (np.uint8, 4), (np.float64, 0),
                      (np.float32, 2), (np.uint8, 3), (np.uint16, 3)):
        for h, w in ((6, 64), (5, 65), (4, 200), (3, 33)):
            shape = (h, w) if cn == 0 else (h, w, cn)
            x = rng.integers(0, 250, shape).astype(dtype)
            for flag in (cv2.INTER_NEAREST, cv2.INTER_NEAREST_EXACT):
                for dsize in ((w // 2, h), ((w + 1) // 2, h // 2)):
                    cases.append((x, dsize, flag, cv2.resize(x, dsize, interpolation=flag)))

    cases_match_at_every_cpu_level(cases)


def test_float_arbitrary_ratios_with_long_rows():
    # Float images whose rows are long enough that the fused sweep's band (512 KiB of
    # first-pass rows per thread) holds only part of the image: reductions read a few rows
    # of each band (the rows between them are never made), runs of outputs keep the rows
    # they share with the run before; enlargements at ratios other than 2; pixels of 1 to 4
    # elements (two-tap rows of 2-4 element pixels: a vector of four lanes per output, the
    # last pixel and the last output element by element); NaN, infinities and -0.0
    # included, compared as bytes where finite.
    rng = np.random.default_rng(24)
    cases = []
    for dtype, cn, (h, w), dsize in (
            (np.float32, 3, (1171, 382), (360, 94)),
            (np.float32, 4, (700, 1900), (700, 301)),
            (np.float64, 3, (523, 1500), (1100, 131)),
            (np.float32, 1, (900, 9000), (8000, 333)),
            (np.float32, 3, (203, 1800), (2300, 517)),
            (np.float64, 4, (301, 700), (900, 1200)),
            (np.float32, 1, (257, 1333), (1900, 450)),
            (np.float32, 2, (400, 1000), (333, 150)),
            (np.float32, 4, (90, 3000), (2999, 40))):
        x = (rng.standard_normal((h, w, cn)) * 100).astype(dtype)
        for v in (np.nan, np.inf, -np.inf, -0.0):
            x.reshape(-1)[rng.integers(0, x.size, 3)] = v
        for flag in (cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_LANCZOS4):
            cases.append((x, dsize, flag, cv2.resize(x, dsize, interpolation=flag)))

    cases_match_at_every_cpu_level(cases)


def test_float_pixel_rows_two_outputs_a_vector():
    # Float32 rows of 2-4 element pixels at ratios other than 2 (linear, cubic, Lanczos-4:
    # 2, 4 or 8 taps on every output) are summed two outputs a 256-bit vector over blocks laid
    # out once per pass; a block one of whose taps is the row's last pixel (c < 4: a
    # four-lane load would leave the row), a clamped end, or whose store would leave the
    # row's outputs goes output by output, as does an odd width's last output. Widths of 1
    # to 9 outputs and longer, enlarging and shrinking; NaN, infinities and -0.0 included.
    rng = np.random.default_rng(41)
    cases = []
    for cn in (2, 3, 4):
        for h, w in ((5, 9), (7, 40), (9, 263)):
            x = (rng.standard_normal((h, w, cn)) * 100).astype(np.float32)
            for v in (np.nan, np.inf, -np.inf, -0.0):
                x.reshape(-1)[rng.integers(0, x.size, 2)] = v
            for dw in sorted({1, 2, 3, 4, 5, 8, 9, w // 3 + 1, 3 * w // 2 + 1, 5 * w // 2}):
                dh = int(rng.integers(1, 2 * h))
                for flag in (cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_LANCZOS4):
                    cases.append((x, (dw, dh), flag, cv2.resize(x, (dw, dh), interpolation=flag)))

    cases_match_at_every_cpu_level(cases)


def test_float_linear_rows_ending_in_one_tap_outputs():
    # An enlarged float32 linear row ends in outputs past the last pixel pair, which OpenCV
    # computes from one tap (its xmax). The fused sweep sums the row densely, two taps for
    # every output (the short ones padded with the row's last pixels at weight 0), then the
    # short ones again from their own taps: -0.0 in the last pixel stays -0.0 (a padded
    # product would add +0.0) and an infinity beside it does not turn them into NaN.
    rng = np.random.default_rng(27)
    cases = []
    for cn in (0, 1, 2, 3, 4):
        for h, w, dsize in ((37, 53, (131, 71)), (64, 300, (433, 97)), (11, 9, (40, 23))):
            shape = (h, w) if cn == 0 else (h, w, cn)
            x = (rng.standard_normal(shape) * 100).astype(np.float32)
            x[::2, -1] = -0.0
            x[1::3, -2] = np.inf
            x[::5, -1] = -np.inf
            cases.append((x, dsize, cv2.INTER_LINEAR,
                          cv2.resize(x, dsize, interpolation=cv2.INTER_LINEAR)))

    cases_match_at_every_cpu_level(cases)


def test_float_cubic_clamped_windows_sum_from_zero():
    # OpenCV's horizontal cubic sums an output whose window is clamped to the row (the first
    # and last few) from WT v = 0 and the others from their first product: where every
    # product is -0.0 (weights 0, 1, 0, 0 at an integer position, over -0.0 and negative
    # pixels) the edge outputs are +0.0 and the inner ones -0.0. float32 and float64, every
    # pass shape (the x2 phase rows, dense rows of 1-4 element pixels, enlargements and
    # reductions), compared as bytes.
    cases = []
    for dtype in (np.float32, np.float64):
        for cn in (0, 1, 2, 3, 4):
            for (h, w), dsize in (((6, 8), (24, 6)), ((13, 30), (90, 13)), ((40, 30), (7, 100)),
                                  ((5, 5), (17, 3)), ((4, 3), (10, 9)), ((5, 1), (4, 7)),
                                  ((30, 200), (61, 45)), ((9, 16), (32, 18))):
                x = np.full((h, w) if cn == 0 else (h, w, cn), -0.0, dtype)
                x[::3] = -2.0
                x[1::4, ::5] = -7.5
                cases.append((x, dsize, cv2.INTER_CUBIC,
                              cv2.resize(x, dsize, interpolation=cv2.INTER_CUBIC)))

    cases_match_at_every_cpu_level(cases)


def test_clamped_ends_are_the_windows_cut_by_the_row():
    # _exact._clamped_ends: the outputs at either end whose taps are not consecutive
    # pixels, counted from the table itself (OpenCV's xmin and xmax for cubic)
    from resamplex._engine.compile import exact as _exact

    for n_in, n_out in ((8, 24), (30, 7), (5, 17), (3, 10), (1, 4), (200, 61)):
        t = rcv.cubic_table(n_in, n_out, n_out / n_in, fixed=False)
        lead, trail = _exact._clamped_ends(t, np.diff(t.ptr))
        sx = np.floor((np.arange(n_out) + 0.5) * n_in / n_out - 0.5)
        cut = (sx - 1 < 0) | (sx + 2 > n_in - 1)
        assert lead == (n_out if cut.all() else int(np.argmin(cut)))
        assert lead + trail <= n_out and cut[:lead].all() and cut[n_out - trail:].all()
        assert not cut[lead:n_out - trail].any()
    t = rcv.linear_table(10, 25, 2.5, horizontal=True, fixed=False)   # not dense
    assert _exact._clamped_ends(t, np.diff(t.ptr)) is None


def test_dense_tail_layout_keeps_each_outputs_taps():
    # _exact._dense_tail: every output's k dense slots hold its taps (the short ones'
    # padding inside the row, weight 0), and ptr2 points the short outputs at their own
    # taps, in order: the sums it gives are the table's.
    from resamplex._engine.compile import exact as _exact

    for n_in, n_out in ((53, 131), (9, 40), (300, 433), (2, 7)):
        t = rcv.linear_table(n_in, n_out, n_out / n_in, horizontal=True, fixed=False)
        counts = np.diff(t.ptr)
        w1 = t.w.astype(np.float32)
        k, ptr, idx, w, tail = _exact._dense_tail(t, w1, counts)
        assert k == 2 and tail == int((counts < 2).sum()) > 0
        full = n_out - tail
        assert (counts[:full] == 2).all()
        dense_i, dense_w = idx[:n_out * k].reshape(n_out, k), w[:n_out * k].reshape(n_out, k)
        assert (0 <= idx).all() and (idx < n_in).all()
        for o in range(n_out):
            taps = slice(t.ptr[o], t.ptr[o + 1])
            if o < full:
                assert dense_i[o].tolist() == t.idx[taps].tolist()
                assert dense_w[o].tolist() == w1[taps].tolist()
            else:
                assert (dense_w[o] == 0).all()
                mine = slice(ptr[o], ptr[o + 1])
                assert idx[mine].tolist() == t.idx[taps].tolist()
                assert w[mine].tolist() == w1[taps].tolist()
    # not the form: every output with k taps, or a short output before a full one
    t = rcv.linear_table(50, 25, 0.5, horizontal=True, fixed=False)
    assert _exact._dense_tail(t, t.w.astype(np.float32), np.diff(t.ptr)) is None
    counts = np.array([2, 1, 2, 2])
    assert _exact._dense_tail(t, t.w.astype(np.float32), counts) is None


def test_eight_bit_arbitrary_ratios_with_four_and_eight_taps():
    # uint8 cubic and Lanczos-4 at ratios other than 2 and 1/2 sum every first-pass row with
    # its four or eight taps per output two at a time (16-bit pairs): pixels of 1-4 elements,
    # rows whose last outputs write no further than the row (a one-element pixel's vector
    # holds four sums); the ring rows of one output lie next to each other. Extremes (0/255
    # stripes) reach the largest sums.
    rng = np.random.default_rng(25)
    cases = []
    for cn in (0, 1, 2, 3, 4):
        for (h, w), dsize in (((70, 90), (40, 30)), ((33, 129), (200, 61)),
                              ((9, 17), (13, 5)), ((120, 40), (33, 101))):
            shape = (h, w) if cn == 0 else (h, w, cn)
            x = rng.integers(0, 256, shape).astype(np.uint8)
            x[:, ::3] = 255
            x[::4] = 0
            for flag in (cv2.INTER_CUBIC, cv2.INTER_LANCZOS4):
                cases.append((x, dsize, flag, cv2.resize(x, dsize, interpolation=flag)))

    cases_match_at_every_cpu_level(cases)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_crops_of_whole_rows_are_read_in_place(dtype):
    # A crop (rows apart by the whole image's stride, pixels contiguous) runs the fused pass
    # on the view itself, with the view's row stride; the same bytes as OpenCV and as a
    # contiguous copy, for every interpolation with a fused pass; views OpenCV would read
    # otherwise (a column stride, reversed rows) still match.
    rng = np.random.default_rng(26)
    big = (rng.integers(0, 256, (300, 400, 3)) if dtype == np.uint8
           else rng.standard_normal((300, 400, 3)) * 100).astype(dtype)
    views = [big[17:240, 33:301], big[5:290, 1:399, :], big[100:101 + 150, 20:21 + 97],
             big[::-1][3:200, 50:300], big[10:200, 10:390:2], big[:, :, 1][20:180, 5:300]]
    for v in views:
        for flag in (cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_LANCZOS4, cv2.INTER_AREA):
            for dsize in ((224, 224), (81, 390)):
                view_matches_opencv(v, dsize, flag)


def view_matches_opencv(v, dsize, flag):
    # rcv.resize of the view v at 1 and 2 threads, and of its contiguous copy: OpenCV's bytes
    want = cv2.resize(v, dsize, interpolation=flag)
    for threads in (1, 2):
        got = rcv.resize(v, dsize, interpolation=flag, threads=threads)
        assert got.tobytes() == want.tobytes(), (v.shape, v.strides, dsize, flag)
    assert rcv.resize(np.ascontiguousarray(v), dsize,
                      interpolation=flag).tobytes() == want.tobytes()


def test_new_shapes_share_kept_axis_tables():
    """Crops of new shapes that share an axis reuse its kept table (plan.TABLES) and give
    OpenCV's bytes; the store is bounded by its bytes and emptied with the plan cache.
    (float32: uint8 linear and cubic crops are planned at once, without kept tables.)"""
    from resamplex._engine.cache import TABLES
    rng = np.random.default_rng(21)
    img = (rng.standard_normal((300, 400, 3)) * 50).astype(np.float32)
    rx.clear_plan_cache()
    assert TABLES.bytes == 0
    for mode in (rcv.INTER_LINEAR, rcv.INTER_CUBIC, rcv.INTER_AREA):
        for h, w in [(120, 200), (120, 230), (150, 200), (150, 230)]:
            crop = img[7:7 + h, 11:11 + w]
            want = cv2.resize(crop, (64, 48), interpolation=mode)
            np.testing.assert_array_equal(rcv.resize(crop, (64, 48), interpolation=mode), want)
    # two heights and two widths a mode (INTER_AREA enlarges neither: no linear table)
    assert len(TABLES._tables) == 2 * 4
    keep = TABLES.max_bytes
    try:
        TABLES.max_bytes = TABLES.bytes // 2
        crop = img[:133, :211]
        np.testing.assert_array_equal(rcv.resize(crop, (64, 48)), cv2.resize(crop, (64, 48)))
        assert 0 < TABLES.bytes <= TABLES.max_bytes
    finally:
        TABLES.max_bytes = keep
    rx.clear_plan_cache()
    assert TABLES.bytes == 0 and not TABLES._tables


def _planner_spec(src, dw, dh, mode):
    """The fused pass the planner compiles for ``src`` as it lies (``compile.exact``), or None."""
    from resamplex._engine.compile import exact as _exact
    plan = rcv._plan(src.shape, src.dtype, dw, dh, dw / src.shape[1], dh / src.shape[0], mode)
    fused = _exact._prepared(plan, src.dtype).fused
    if fused is None:
        return None, plan
    stride = _exact.row_stride(src)
    return dict(fused, sstr=[stride * src.shape[0], stride] + list(fused["sstr"][2:])), plan


def test_new_shapes_are_planned_at_once_as_the_planner_plans():
    """``_planloops.cv2_u8_pair`` (a uint8 linear or cubic call's tables and fused pass in
    one native call) gives the planner's pass field for field (so the same kernels and
    bytes), and declines only where the planner takes a phase kernel: seeded random images
    of 1-4 channels, 2-D, crops, exact x2 and x0.5 and arbitrary sizes."""
    from resamplex._engine.compile import exact as _exact
    from resamplex._engine import _exec, _planloops
    rng = np.random.default_rng(31)
    img = rng.integers(0, 256, (700, 900, 4), dtype=np.uint8)
    planned = declined = 0
    for _ in range(400):
        cn = int(rng.integers(0, 5))
        h, w = int(rng.integers(1, 400)), int(rng.integers(1, 500))
        y, x = int(rng.integers(0, 700 - h)), int(rng.integers(0, 900 - w))
        src = img[y:y + h, x:x + w, 0] if cn == 0 else img[y:y + h, x:x + w, :cn]
        if cn == 3 or rng.random() < 0.3:
            src = np.ascontiguousarray(src)
        r = rng.random()
        dh, dw = ((2 * h, 2 * w) if r < 0.15 else
                  (max(1, h // 2), max(1, w // 2)) if r < 0.3 else
                  (int(rng.integers(1, 300)), int(rng.integers(1, 300))))
        mode = int(rng.choice([rcv.INTER_LINEAR, rcv.INTER_CUBIC]))
        area_fast, ix, iy = rcv._integer_scales(dw / w, dh / h)
        if (dh, dw) == (h, w) or (mode == rcv.INTER_LINEAR and area_fast and ix == iy == 2):
            continue
        stride = _exact.row_stride(src)
        if stride is None:
            continue
        made = _planloops.cv2_u8_pair(h, w, src.shape[2] if src.ndim == 3 else 1, stride, dh,
                                      dw, dh / h, dw / w, mode == rcv.INTER_CUBIC,
                                      _exec.OPS["int_fused"], _exact.ELEM["uint8"],
                                      *rcv._pair_constants(mode))
        want, plan = _planner_spec(src, dw, dh, mode)
        if made is None:
            declined += 1
            assert want is None or "phase" in want, (src.shape, dh, dw, mode)
            continue
        planned += 1
        spec, work = made
        assert want is not None and sorted(spec) == sorted(want), (src.shape, dh, dw, mode)
        for k, v in want.items():
            assert np.array_equal(np.asarray(spec[k]), np.asarray(v)), (k, src.shape, dh, dw)
        assert work == _exact._prepared(plan, src.dtype).work
    assert planned > 150 and declined > 20, (planned, declined)


@pytest.mark.parametrize("mode", [rcv.INTER_LINEAR, rcv.INTER_CUBIC])
def test_new_shapes_planned_at_once_match_opencv(mode):
    """Random crops of new shapes (planned at once), their second calls (the kept program),
    a crop of a kept shape from an image of another width (rows another stride apart: planned
    anew) and its contiguous copy: OpenCV's bytes at 1 and 2 threads."""
    from resamplex._engine.cache import PROGRAMS
    rng = np.random.default_rng(32)
    img = rng.integers(0, 256, (500, 640, 3), dtype=np.uint8)
    other = rng.integers(0, 256, (500, 700, 3), dtype=np.uint8)
    rx.clear_plan_cache()
    for i in range(40):
        h, w = int(rng.integers(20, 480)), int(rng.integers(20, 600))
        y, x = int(rng.integers(0, 500 - h)), int(rng.integers(0, 640 - w))
        dsize = (224, 224) if i % 2 else (int(rng.integers(1, 700)), int(rng.integers(1, 700)))
        for v in (img[y:y + h, x:x + w], other[y:y + h, x:x + w]):
            view_matches_opencv(v, dsize, mode)
    assert PROGRAMS.bytes > 0
    with pytest.raises(cv2.error):   # a kept program's call still checks its threads
        rcv.resize(img[:100, :100], (50, 60), interpolation=mode)
        rcv.resize(img[:100, :100], (50, 60), interpolation=mode, threads=0)
    rx.clear_plan_cache()
    assert PROGRAMS.bytes == 0 and not PROGRAMS._kept


def test_kept_programs_are_bounded():
    """Ever-new shapes keep the programs planned at once within their entries and bytes."""
    from resamplex._engine.cache import PROGRAMS
    img = np.random.default_rng(33).integers(0, 256, (300, 400, 3), dtype=np.uint8)
    keep = PROGRAMS.max_entries, PROGRAMS.max_bytes
    try:
        PROGRAMS.max_entries, PROGRAMS.max_bytes = 7, 1 << 20
        sizes = []
        for i in range(60):
            rcv.resize(img[:100 + i, :150 + 2 * i], (64 + i, 48))
            sizes.append((len(PROGRAMS._kept), PROGRAMS.bytes))
        assert max(n for n, _ in sizes) == 7 and max(b for _, b in sizes) <= 1 << 20
        assert PROGRAMS.bytes == sum(k.program.nbytes for k in PROGRAMS._kept.values())
        PROGRAMS.max_entries, PROGRAMS.max_bytes = 1000, 20000
        for i in range(30):
            rcv.resize(img[:100 + i, :150], (64, 48 + i))
            assert PROGRAMS.bytes <= 20000
    finally:
        PROGRAMS.max_entries, PROGRAMS.max_bytes = keep
        rx.clear_plan_cache()
