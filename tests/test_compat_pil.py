"""``resamplex.compat.pil`` against the installed Pillow, bit for bit (SPEC §6).

Random cases (fixed seeds) for every filter and mode (``L``, ``LA``, ``RGB``, ``RGBA`` with
premultiplied alpha, ``I;16``, ``I``, ``F``): sizes up and down, 1-wide and 1-tall images,
float boxes (and whole-pixel ones, which Pillow crops), ``reducing_gap``; ``reduce`` with
square and separate factors and boxes. The golden cases are research/opencv_pillow.md §4.2
(Pillow's ``Tests/test_image_resample.py`` expectations and values read off the wheels).
"""

from __future__ import annotations

import numpy as np
import pytest

Image = pytest.importorskip("PIL.Image")

import resamplex as rx  # noqa: E402
from resamplex.compat import pil  # noqa: E402

PIL_VERSION = tuple(int(p) for p in Image.__version__.split(".")[:2])

MODES = [("L", np.uint8, 0), ("LA", np.uint8, 2), ("RGB", np.uint8, 3), ("RGBA", np.uint8, 4),
         ("I;16", np.uint16, 0), ("I", np.int32, 0), ("F", np.float32, 0)]
FILTERS = [pil.NEAREST, pil.BOX, pil.BILINEAR, pil.HAMMING, pil.BICUBIC, pil.LANCZOS]


def image(rng, mode, H, W):
    _, dtype, ch = next(m for m in MODES if m[0] == mode)
    shape = (H, W) if ch == 0 else (H, W, ch)
    if dtype == np.float32:
        return (rng.standard_normal(shape) * 100).astype(dtype)
    if dtype == np.int32:
        return rng.integers(-100000, 100000, shape).astype(dtype)
    a = rng.integers(0, np.iinfo(dtype).max + 1, shape).astype(dtype)
    if ch in (2, 4) and rng.random() < 0.5:  # alphas at the special values
        a[..., -1] = rng.choice([0, 255, 128, 1, 254], a.shape[:2])
    return a


def pillow_resize(a, *args):
    return np.asarray(Image.fromarray(a).resize(*args))


@pytest.mark.parametrize("resample", FILTERS)
@pytest.mark.parametrize("mode", [m[0] for m in MODES])
def test_random_against_pillow(mode, resample):
    rng = np.random.default_rng(sum(map(ord, mode)) * 10 + resample)
    compared = 0
    for i in range(14):
        H, W = (int(v) for v in rng.integers(1, 40 if i % 4 else 90, 2))
        if i == 0:
            H = 1
        if i == 1:
            W = 1
        a = image(rng, mode, H, W)
        size = (int(rng.integers(1, 2 * W + 3)), int(rng.integers(1, 2 * H + 3)))
        if i % 5 == 2:
            size = (max(1, W // int(rng.integers(2, 5))), max(1, H // int(rng.integers(1, 5))))
        box = None
        if i % 3 == 1:
            x0, y0 = rng.uniform(0, W), rng.uniform(0, H)
            box = (x0, y0, rng.uniform(x0, W), rng.uniform(y0, H))
            if i % 2:
                box = tuple(float(int(v)) for v in box)
        gap = float(rng.choice([1.0, 1.5, 2.0, 3.0])) if i % 4 == 3 else None
        try:
            expected = pillow_resize(a, size, resample, box, gap)
        except ValueError:  # Pillow cannot reduce I;16 images (reducing_gap)
            with pytest.raises(rx.ResamplexError):
                pil.resize(a, size, resample, box, gap)
            continue
        got = pil.resize(a, size, resample, box, gap)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert np.array_equal(got, expected, equal_nan=True), (
            f"{mode} {a.shape} {size} {box} gap={gap}: {int((got != expected).sum())} differ")
        compared += 1
    assert compared >= 10


@pytest.mark.parametrize("mode", ["L", "LA", "RGB", "RGBA", "I", "F"])
def test_reduce_against_pillow(mode):
    rng = np.random.default_rng(len(mode))
    for i in range(40):
        H, W = (int(v) for v in rng.integers(1, 50, 2))
        a = image(rng, mode, H, W)
        factor = int(rng.integers(1, 7)) if i % 2 else (int(rng.integers(1, 7)),
                                                        int(rng.integers(1, 7)))
        box = None
        if i % 3 == 0:
            x0, y0 = int(rng.integers(0, W)), int(rng.integers(0, H))
            box = (x0, y0, int(rng.integers(x0 + 1, W + 1)), int(rng.integers(y0 + 1, H + 1)))
        expected = np.asarray(Image.fromarray(a).reduce(factor, box))
        got = pil.reduce(a, factor, box)
        assert got.shape == expected.shape
        assert np.array_equal(got, expected), (mode, a.shape, factor, box)


@pytest.mark.parametrize("mode", ["L", "RGBA", "I", "F"])
def test_reduce_by_factors_beyond_the_image(mode):
    # one output along such an axis, the mean of the whole length as Pillow's corner code
    # computes it; Pillow's own test_large_factor reduces by 2**31 - 1 (the door's tables
    # once grew with the factor: 2**62 entries)
    rng = np.random.default_rng(7)
    for factor in [2**31 - 1, (2**31 - 1, 1), (1, 2**31 - 1), (3, 40), (40, 2), (12, 12)]:
        H, W = (int(v) for v in rng.integers(1, 12, 2))
        a = image(rng, mode, H, W)
        expected = np.asarray(Image.fromarray(a).reduce(factor))
        got = pil.reduce(a, factor)
        assert got.shape == expected.shape
        assert np.array_equal(got, expected), (mode, a.shape, factor)


def test_reduce_factors_with_their_own_finishes():
    """1x2, 2x1, 2x2 and 4x4 divide by shifts, the others by Pillow's multiplier."""
    rng = np.random.default_rng(9)
    a = rng.integers(0, 256, (37, 41, 3), dtype=np.uint8)
    for factor in [(1, 2), (2, 1), (2, 2), (4, 4), (3, 3), (5, 5), (1, 3), (3, 1), (7, 2)]:
        np.testing.assert_array_equal(pil.reduce(a, factor),
                                      np.asarray(Image.fromarray(a).reduce(factor)))


def test_threads_and_layout_do_not_change_results():
    rng = np.random.default_rng(2)
    a = image(rng, "RGB", 45, 61)
    for resample in FILTERS:
        one = pil.resize(a, (37, 70), resample, threads=1)
        np.testing.assert_array_equal(pil.resize(a, (37, 70), resample, threads=2), one)
        np.testing.assert_array_equal(pil.resize(np.asfortranarray(a), (37, 70), resample),
                                      one)


# ------------------------------------------------------------------------------ golden cases

def make_case(size):
    """Pillow's ``make_case(mode, (w, h), 0xE1)`` for mode L."""
    w, h = size
    a = np.full((h, w), 0x1E, np.uint8)
    a[:h // 2, :w // 2] = 0xE1
    a[h // 2:, w // 2:] = 0xE1
    return a


@pytest.mark.parametrize("size, out, resample, quadrant", [
    ((8, 8), (4, 4), pil.BOX, [[0xe1, 0xe1], [0xe1, 0xe1]]),
    ((8, 8), (4, 4), pil.BILINEAR, [[0xe1, 0xc9], [0xc9, 0xb7]]),
    ((8, 8), (4, 4), pil.HAMMING, [[0xe1, 0xda], [0xda, 0xd3]]),
    ((12, 12), (6, 6), pil.BICUBIC, [[0xe1, 0xe3, 0xd4], [0xe3, 0xe5, 0xd6],
                                     [0xd4, 0xd6, 0xc9]]),
    ((16, 16), (8, 8), pil.LANCZOS, [[0xe1, 0xe0, 0xe4, 0xd7], [0xe0, 0xdf, 0xe3, 0xd6],
                                     [0xe4, 0xe3, 0xe7, 0xda], [0xd7, 0xd6, 0xd9, 0xce]]),
    ((2, 2), (4, 4), pil.BILINEAR, [[0xe1, 0xb0], [0xb0, 0x98]]),
    ((2, 2), (4, 4), pil.HAMMING, [[0xe1, 0xd2], [0xd2, 0xc5]]),
    ((4, 4), (8, 8), pil.BICUBIC, [[0xe1, 0xe5, 0xee, 0xb9], [0xe5, 0xe9, 0xf3, 0xbc],
                                   [0xee, 0xf3, 0xfd, 0xc1], [0xb9, 0xbc, 0xc1, 0xa2]]),
])
def test_golden_pillow_accuracy_cases(size, out, resample, quadrant):
    got = pil.resize(make_case(size), out, resample)
    q = np.array(quadrant)
    n = q.shape[0]
    np.testing.assert_array_equal(got[:n, :n], q)
    np.testing.assert_array_equal(got[::-1, ::-1][:n, :n], q)
    np.testing.assert_array_equal(got[:n, ::-1][:n, :n], 255 - q)


def test_golden_p8_alpha_is_premultiplied():
    rgba = np.array([[[255, 0, 0, 255], [0, 0, 255, 0]]], np.uint8)
    np.testing.assert_array_equal(pil.resize(rgba, (1, 1), pil.BOX)[0, 0], [255, 0, 0, 128])
    np.testing.assert_array_equal(pil.resize(rgba, (1, 1), pil.NEAREST)[0, 0], [0, 0, 255, 0])
    # mode= names a 4-channel layout that is not premultiplied
    plain = pil.resize(rgba, (1, 1), pil.BOX, mode="RGBX")
    np.testing.assert_array_equal(plain[0, 0], [128, 0, 128, 128])


def test_golden_p9_nearest_accumulates_except_for_i16():
    a = np.arange(128, dtype=np.uint8).reshape(128, 1)
    assert pil.resize(a, (1, 160), pil.NEAREST)[5:10, 0].tolist() == [4, 5, 5, 6, 7]
    assert pil.resize(a.astype(np.uint16), (1, 160), pil.NEAREST)[5:10, 0].tolist() == \
        [4, 5, 6, 6, 7]
    assert pil.resize(np.arange(4, dtype=np.uint8).reshape(1, 4), (10, 1), pil.NEAREST)[0] \
        .tolist() == [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]


@pytest.mark.parametrize("resample, expected", [
    (pil.BOX, [0, 0, 64, 64, 128, 128, 255, 255]),
    (pil.BILINEAR, [0, 16, 48, 80, 112, 160, 223, 255]),
    (pil.HAMMING, [0, 5, 59, 69, 123, 138, 245, 255]),
    (pil.BICUBIC, [0, 11, 45, 79, 108, 161, 232, 255]),
    (pil.LANCZOS, [0, 10, 45, 77, 101, 165, 234, 255]),
])
def test_golden_p10_ramp(resample, expected):
    s = np.array([[0, 64, 128, 255]], np.uint8)
    assert pil.resize(s, (8, 1), resample)[0].tolist() == expected


def test_golden_p10_other_modes():
    f = pil.resize(np.array([[0, 64, 128, 255]], np.float32), (8, 1), pil.BICUBIC)[0]
    np.testing.assert_array_equal(f, np.array(
        [-5.647058963775635, 10.744525909423828, 45.435115814208984, 78.5234375,
         107.5703125, 160.51144409179688, 232.2992706298828, 266.20587158203125], np.float32))
    i16 = pil.resize(np.array([[0, 64, 128, 65535]], np.uint16), (8, 1), pil.BICUBIC)[0]
    assert i16.tolist() == [0, 11, 45, 0, 0, 14612, 53123, 65535]
    i32 = pil.resize(np.array([[0, 64, 128, -255]], np.int32), (8, 1), pil.BICUBIC)[0]
    assert i32.tolist() == [-6, 11, 45, 90, 143, 48, -181, -289]


@pytest.mark.skipif(PIL_VERSION < (13, 0), reason="the pass order rule of Pillow 13")
def test_golden_p10_pass_order():
    a = np.array([[0, 255, 0, 255], [255, 0, 255, 0], [0, 0, 255, 255], [255, 255, 0, 0]],
                 np.uint8)
    assert pil.resize(a, (5, 1), pil.BILINEAR)[0].tolist() == [128, 113, 128, 143, 128]
    # Pillow 12's rule (horizontal first), by version=
    assert pil.resize(a, (5, 1), pil.BILINEAR, version=12)[0].tolist() == \
        [128, 113, 128, 142, 128]


def test_golden_p11_reduce():
    s = np.array([[1, 2, 3, 4, 5], [2, 2, 4, 4, 6], [7, 8, 9, 10, 11]], np.uint8)
    assert pil.reduce(s, 2).tolist() == [[2, 4, 6], [8, 10, 11]]
    assert pil.reduce(s, 3).tolist() == [[4, 7]]
    assert pil.reduce(s, (2, 1)).tolist() == [[2, 4, 5], [2, 4, 6], [8, 10, 11]]
    assert pil.reduce(s, (1, 3)).tolist() == [[3, 4, 5, 6, 7]]
    f = pil.reduce((s * 0.1).astype(np.float32), 3)
    np.testing.assert_array_equal(f, np.array([[0.42222222685813904, 0.6666666865348816]],
                                              np.float32))


def test_golden_p12_reducing_gap():
    g = (np.arange(400).reshape(20, 20) % 251).astype(np.uint8)
    assert pil.resize(g, (3, 3), pil.BICUBIC, reducing_gap=2.0).tolist() == \
        [[68, 74, 83], [159, 158, 151], [95, 92, 84]]
    assert pil.resize(g, (3, 3), pil.BICUBIC).tolist() == \
        [[67, 75, 83], [164, 161, 149], [87, 88, 83]]


# ------------------------------------------------------------------------------ arguments

def test_argument_rules():
    a = np.arange(12, dtype=np.uint8).reshape(3, 4)
    out = pil.resize(a, (4, 3))
    np.testing.assert_array_equal(out, a)
    assert out is not a
    assert pil.resize(a, (2, 2), None).tolist() == pil.resize(a, (2, 2), pil.BICUBIC).tolist()
    np.testing.assert_array_equal(pil.resize(a, (2, 2), pil.BICUBIC, (1, 1, 3, 3)),
                                  a[1:3, 1:3])  # a whole-pixel box of the output size: a crop
    assert pil.reduce(a, 1).tolist() == a.tolist()
    if PIL_VERSION >= (13, 0):
        assert pil.reduce(a, (1, 1), (1, 0, 3, 2)).tolist() == a[0:2, 1:3].tolist()
    for name in ("NEAREST", "BOX", "BILINEAR", "HAMMING", "BICUBIC", "LANCZOS"):
        assert getattr(pil, name) == int(getattr(Image.Resampling, name))


@pytest.mark.parametrize("args, kwargs, match", [
    (((0, 2),), dict(), "size"),
    (((2, 2.0),), dict(), "size"),
    (((2, 2), 99), dict(), "resample"),
    (((2, 2), pil.BICUBIC, (0, 0, 5, 3)), dict(), "box"),
    (((2, 2), pil.BICUBIC, (-1, 0, 4, 3)), dict(), "box"),
    (((2, 2), pil.BICUBIC, (2, 0, 1, 3)), dict(), "box"),
    (((2, 2), pil.BICUBIC, None, 0.5), dict(), "reducing_gap"),
    (((2, 2),), dict(mode="P"), "mode"),
    (((2, 2),), dict(version=9), "version"),
    (((2, 2),), dict(threads=0), "threads"),
])
def test_bad_arguments(args, kwargs, match):
    with pytest.raises(rx.ResamplexError, match=match):
        pil.resize(np.zeros((3, 4), np.uint8), *args, **kwargs)


def test_refusals():
    with pytest.raises(rx.UnsupportedError, match="MKS2013"):
        pil.resize(np.zeros((3, 4), np.uint8), (2, 2), pil.MKS2013)
    with pytest.raises(rx.UnsupportedError, match="mode"):
        pil.resize(np.zeros((3, 4), np.float64), (2, 2))
    with pytest.raises(rx.UnsupportedError, match="RGB"):
        pil.resize(np.zeros((3, 4, 3), np.uint8), (2, 2), mode="RGBA")
    with pytest.raises(rx.UnsupportedError, match="I;16"):
        pil.reduce(np.zeros((3, 4), np.uint16), 2)
    with pytest.raises(rx.ResamplexError, match="factor"):
        pil.reduce(np.zeros((3, 4), np.uint8), 0)
    with pytest.raises(rx.ResamplexError, match="factor"):
        pil.reduce(np.zeros((3, 4), np.uint8), 2.0)


def test_repeated_calls_take_the_remembered_plan(monkeypatch):
    """A call whose arguments were seen before goes straight to its plan (``_CALLS``): the same
    bits as the first call; the default ``version`` follows ``pil.pillow_version`` even then."""
    rng = np.random.default_rng(12)
    a = rng.integers(0, 256, (40, 9, 3), dtype=np.uint8)
    f = rng.standard_normal((40, 9)).astype(np.float32) * 100
    for x in (a, f):
        for resample in (pil.BILINEAR, pil.NEAREST, pil.LANCZOS):
            first = pil.resize(x, (7, 13), resample)
            for threads in (None, 1, 2):
                assert np.array_equal(pil.resize(x, (7, 13), resample, threads=threads), first)
            with pytest.raises(rx.ResamplexError, match="threads"):
                pil.resize(x, (7, 13), resample, threads=0)
    # Pillow 13 runs the vertical pass first here, Pillow 12 the horizontal one.
    x = rng.integers(0, 256, (40, 9), dtype=np.uint8)
    want = {v: pil.resize(x, (7, 13), pil.BICUBIC, version=v) for v in (12, 13)}
    assert not np.array_equal(want[12], want[13])
    for v in (13, 12, 13):
        monkeypatch.setattr(pil, "pillow_version", (v, 0))
        assert np.array_equal(pil.resize(x, (7, 13), pil.BICUBIC), want[v])


@pytest.mark.parametrize("channels", [None, 3, 4])
@pytest.mark.parametrize("factor", [2, (1, 2), (2, 1), 4, (4, 4)])
def test_reduce_whole_blocks_match_pillow(channels, factor):
    # Whole 2- to 16-pixel blocks of 8-bit images run on the engine's block-mean passes with
    # Pillow's (sum + n/2) >> k rounding; boxes that start inside the image included.
    rng = np.random.default_rng([channels or 1, 7])
    for h, w in ((8, 8), (64, 128), (36, 20)):
        shape = (h, w) if channels is None else (h, w, channels)
        a = rng.integers(0, 256, shape, dtype=np.uint8)
        a[0, 0] = 255
        image = Image.fromarray(a)
        for box in (None, (2, 2, w - 2, h - 2), (0, 4, w, h)):
            want = np.asarray(image.reduce(factor, box=box))
            np.testing.assert_array_equal(pil.reduce(a, factor, box=box), want)


@pytest.mark.parametrize("threads", [1, 2])
def test_alpha_conversions_are_pillows_on_every_byte_pair(threads):
    """The premultiplied-alpha kernels (``_engine.kernels._alpha``) against Pillow's own ``RGBA ->
    RGBa`` and ``RGBa -> RGBA`` conversions, on every (colour, alpha) pair, in rows whose
    length is not a multiple of the vector width."""
    from resamplex.compat.pil import _premultiply, _unpremultiply

    c, a = np.meshgrid(np.arange(256), np.arange(256))
    x = np.stack([c, 255 - c, c // 3, a], -1).astype(np.uint8).reshape(256, 256, 4)
    x = np.concatenate([x, x[:, :3]], axis=1)          # 259 pixels per row
    want = np.asarray(Image.fromarray(x, "RGBA").convert("RGBa"))
    assert np.array_equal(_premultiply(x, threads), want)
    want = np.asarray(Image.fromarray(x, "RGBa").convert("RGBA"))
    assert np.array_equal(_unpremultiply(x, threads), want)
    la = x[..., [0, 3]].copy()
    want = np.asarray(Image.fromarray(la, "LA").convert("La"))
    assert np.array_equal(_premultiply(la, threads), want)
