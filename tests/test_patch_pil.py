"""Patch mode for Pillow (SPEC §6.1): ``Image.resize`` and ``Image.reduce`` routed to
``resamplex.compat.pil`` give Pillow's images, errors and info, against the live Pillow.

Expected results are computed unpatched (Pillow's own resize of an ``RGBA`` image calls
``resize`` again on its premultiplied copy, which patching would route) and compared with the
patched calls: mode, size, ``tobytes()`` and ``info``; for bad arguments the exception type
and message. The size thresholds are off (``settings.small``) unless a test is about them,
so that small random images take the door; each test checks that calls did take it.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

Image = pytest.importorskip("PIL.Image")
ImageOps = pytest.importorskip("PIL.ImageOps")

import resamplex as rx  # noqa: E402
from resamplex import _patch  # noqa: E402
from resamplex._patch import pil as route  # noqa: E402

MODES = ["L", "LA", "La", "RGB", "RGBA", "RGBa", "RGBX", "CMYK", "YCbCr", "LAB", "HSV",
         "I;16", "I", "F"]
FILTERS = [Image.Resampling.NEAREST, Image.Resampling.BOX, Image.Resampling.BILINEAR,
           Image.Resampling.HAMMING, Image.Resampling.BICUBIC, Image.Resampling.LANCZOS]
RESIZE, REDUCE = "PIL.Image.Image.resize", "PIL.Image.Image.reduce"
ROUTE_REASONS = {v.reason for v in vars(route).values() if isinstance(v, _patch.Fall)}
pytestmark = pytest.mark.skipif(not _patch.X86_64, reason="patch mode routes on x86-64 only")


@pytest.fixture(autouse=True)
def clean():
    """Unpatched before and after; every covered call routed whatever its size."""
    rx.unpatch("pil")
    rx.patch_report(reset=True)
    saved = _patch.settings.small
    _patch.settings.small = False
    yield
    _patch.settings.small = saved
    rx.unpatch("pil")


def image(rng, mode, W, H, info=True):
    """A random image of ``mode`` made from raw bytes (alpha at its special values, half the
    time), with an ``info`` that ``_new`` must copy."""
    if mode in ("I;16", "I", "F"):
        dtype = {"I;16": "<u2", "I": "<i4", "F": "<f4"}[mode]
        a = (rng.standard_normal((H, W)) * 1000 if mode == "F"
             else rng.integers(-100000 if mode == "I" else 0, 65536, (H, W))).astype(dtype)
        im = Image.frombytes(mode, (W, H), a.tobytes())
    else:
        bands = len(Image.getmodebands(mode) * "x")
        a = rng.integers(0, 256, (H, W, bands), dtype=np.uint8)
        if mode in ("LA", "La", "RGBA", "RGBa") and rng.random() < 0.5:
            a[..., -1] = rng.choice([0, 1, 128, 254, 255], (H, W))
        im = Image.frombytes(mode, (W, H), a.tobytes())
    if info:
        im.info.update({"dpi": (72, 72), "comment": b"x", "list": [1, 2]})
    return im


def outcome(f, *args, **kwargs):
    """A call's result as the test compares it: the image's mode, size, bytes and info, or
    the exception's type and message."""
    try:
        r = f(*args, **kwargs)
    except Exception as exc:  # every exception is compared, its type and text
        return ("error", type(exc), str(exc))
    if r is None:
        return ("none",)
    return ("ok", r.mode, r.size, r.tobytes(), r.info)


def counts(name):
    row = rx.patch_report().get(name, {"routed": 0, "original": 0, "reasons": {}})
    return row["routed"], dict(row["reasons"])


def compare(calls):
    """Each ``(label, thunk)`` unpatched, then patched: the same outcome. Returns how many
    calls the patched functions routed."""
    want = [outcome(thunk) for _, thunk in calls]
    before = counts(RESIZE)[0] + counts(REDUCE)[0]
    with rx.patched("pil"):
        got = [outcome(thunk) for _, thunk in calls]
    for (label, _), w, g in zip(calls, want, got):
        assert g[0] == w[0], f"{label}: {g[:3]} != {w[:3]}"
        if w[0] == "error":
            assert g == w, label
        elif w[0] == "ok":
            assert g[1:3] == w[1:3], label
            assert g[3] == w[3], f"{label}: bytes differ"
            assert g[4] == w[4], f"{label}: info {g[4]} != {w[4]}"
    return counts(RESIZE)[0] + counts(REDUCE)[0] - before


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_and_filter_is_pillows(mode):
    rng = np.random.default_rng(sum(map(ord, mode)))
    calls = []
    for f in FILTERS:
        for i in range(6):
            W, H = (int(v) for v in rng.integers(1, 48, 2))
            if i == 0:
                H = 1
            im = image(rng, mode, W, H)
            size = (int(rng.integers(1, 2 * W + 3)), int(rng.integers(1, 2 * H + 3)))
            if i == 2:
                size = (max(1, W // 3), max(1, H // 2))
            box = None
            if i in (1, 4):
                x0, y0 = rng.uniform(0, W), rng.uniform(0, H)
                box = (x0, y0, rng.uniform(x0, W), rng.uniform(y0, H))
                if i == 4:                  # whole pixels: Pillow crops where sizes agree
                    box = tuple(float(int(v)) for v in box)
            gap = [None, 1.0, 2.0, 3.0][i % 4] if i >= 2 else None
            calls.append((f"{mode} {(W, H)} -> {size} f={f} box={box} gap={gap}",
                          lambda im=im, a=(size, f, box, gap): im.resize(*a)))
    for factor in (2, 3, (2, 3), (4, 1), [1, 3]):
        W, H = (int(v) for v in rng.integers(1, 60, 2))
        im = image(rng, mode, W, H)
        calls.append((f"{mode} reduce {factor}", lambda im=im, k=factor: im.reduce(k)))
    im = image(rng, mode, 37, 29)
    calls.append((f"{mode} reduce box", lambda: im.reduce(3, (2, 3, 31, 27))))
    calls.append((f"{mode} default filter", lambda: im.resize((20, 41))))
    assert compare(calls) >= 30


def test_boxes_gaps_and_odd_sizes():
    rng = np.random.default_rng(1)
    im = image(rng, "RGB", 61, 47)
    rgba = image(rng, "RGBA", 61, 47)
    calls = []
    for target in (im, rgba):
        for box in [(0, 0, 61, 47), [3, 4, 50, 40], (0.5, 0.25, 60.75, 46.5), (10, 10, 10, 30),
                    (3, 3, 23, 13), (2.5, 3, 22.5, 13), (0, 0, 61.0, 47.0), (np.float32(1.5), 0,
                                                                              np.int64(40), 30)]:
            for size in [(20, 10), (1, 1), (61, 47), (130, 3)]:
                for gap in (None, 1.0, 1.7, 2.0, 8.0):
                    calls.append((f"{target.mode} {box} {size} {gap}",
                                  lambda t=target, a=(size, Image.Resampling.BICUBIC, box, gap):
                                  t.resize(*a)))
    calls.append(("numpy size", lambda: im.resize(np.array([13, 17]))))
    calls.append(("list size", lambda: im.resize([13, 17], Image.Resampling.LANCZOS)))
    calls.append(("keywords", lambda: im.resize(size=(9, 70), resample=Image.Resampling.BOX,
                                                reducing_gap=2.5)))
    calls.append(("self as keyword",
                  lambda: Image.Image.resize(self=im, size=(30, 30))))
    assert compare(calls) >= 100


def test_thumbnail_and_imageops_route_and_are_pillows():
    rng = np.random.default_rng(2)
    calls = []
    for mode in ("RGB", "RGBA", "L", "LA", "I;16", "F"):
        src = image(rng, mode, 97, 61)

        def thumb(src=src, size=(40, 40), **kw):
            im = src.copy()
            im.thumbnail(size, **kw)
            return im

        calls.append((f"{mode} thumbnail", thumb))
        calls.append((f"{mode} thumbnail no gap", lambda t=thumb: t(size=(30, 50),
                                                                     reducing_gap=None)))
        calls.append((f"{mode} thumbnail LANCZOS gap 3",
                      lambda t=thumb: t(size=(11, 9), resample=Image.Resampling.LANCZOS,
                                        reducing_gap=3.0)))
        if mode not in ("I;16", "F"):
            calls.append((f"{mode} fit", lambda s=src: ImageOps.fit(s, (30, 45))))
            calls.append((f"{mode} fit centring", lambda s=src: ImageOps.fit(
                s, (50, 20), Image.Resampling.BILINEAR, 0.1, (0.2, 0.7))))
            calls.append((f"{mode} contain", lambda s=src: ImageOps.contain(s, (33, 70))))
            calls.append((f"{mode} cover", lambda s=src: ImageOps.cover(s, (33, 70))))
            calls.append((f"{mode} pad", lambda s=src: ImageOps.pad(s, (50, 50))))
            calls.append((f"{mode} scale", lambda s=src: ImageOps.scale(s, 0.37)))
    # a JPEG opened lazily: thumbnail drafts the decoder first, resize loads it
    buf = io.BytesIO()
    image(rng, "RGB", 300, 200, info=False).save(buf, "JPEG")
    calls.append(("JPEG thumbnail (draft)", lambda: thumb_file(buf.getvalue(), (50, 50))))
    buf2 = io.BytesIO()
    image(rng, "RGBA", 120, 90, info=False).save(buf2, "PNG")
    calls.append(("PNG opened lazily", lambda: Image.open(io.BytesIO(buf2.getvalue())).resize(
        (70, 33), Image.Resampling.HAMMING)))
    assert compare(calls) >= 40


def thumb_file(data, size):
    im = Image.open(io.BytesIO(data))
    im.thumbnail(size)
    return im


def test_every_error_is_pillows():
    rng = np.random.default_rng(3)
    im = image(rng, "RGB", 40, 30)
    i16 = image(rng, "I;16", 40, 30)
    bad = [
        ((20, 20), 9, None, None), ((20, 20), "x", None, None), ((20, 20), 2.0, None, None),
        ((20, 20), True, None, None), ((20, 20), None, None, 0.5),
        ((20, 20), None, None, "a"), ((20, 20), None, None, float("nan")),
        ((0, 20), None, None, None), ((-1, 20), None, None, None), ((20,), None, None, None),
        ((20.0, 20), None, None, None), ("ab", None, None, None), (None, None, None, None),
        (5, None, None, None), ((20, 20, 3), None, None, None), ((2**31, 5), None, None, None),
        ((20, 20), None, (0, 0, 41, 30), None), ((20, 20), None, (-1, 0, 40, 30), None),
        ((20, 20), None, (5, 0, 4, 30), None), ((20, 20), None, "abcd", None),
        ((20, 20), None, (0, 0, 10), None), ((20, 20), None, (0, 0, float("nan"), 10), None),
        ((20, 20), None, (0, 0, 40, 30.5), None), ((20, 20), None, np.array([0, 0, 40, 30]),
                                                   None),
    ]
    calls = [(f"resize{a}", lambda a=a: im.resize(*a)) for a in bad]
    calls += [
        ("too many", lambda: im.resize((5, 5), 2, None, None, 7)),
        ("unknown keyword", lambda: im.resize((5, 5), bogus=1)),
        ("missing size", lambda: im.resize()),
        ("not an image", lambda: Image.Image.resize(np.zeros((3, 3)), (2, 2))),
        ("MKS2013", lambda: im.resize((17, 13), Image.Resampling.MKS2013)),
        ("MKS2021 P", lambda: im.convert("P").resize((17, 13), Image.Resampling.MKS2021)),
        ("I;16 reducing_gap", lambda: i16.resize((10, 7), Image.Resampling.BILINEAR,
                                                   None, 1.5)),
        ("P", lambda: im.convert("P").resize((17, 13), Image.Resampling.BILINEAR)),
        ("1", lambda: im.convert("1").resize((17, 13))),
        ("PA", lambda: im.convert("PA").resize((17, 13), Image.Resampling.BILINEAR)),
        ("I;16B", lambda: Image.new("I;16B", (9, 9)).resize((4, 4))),
    ]
    for args in [(0,), (-2,), (1.5,), ("2",), ((2,),), ((2, 0),), ((2, 2, 2),), (None,),
                 (2, (0, 0, 41, 30)), (2, (0.0, 0, 20, 20)), (2, (5, 0, 5, 30)),
                 (2, (-1, 0, 40, 30)), (2, "abcd"), (2, (0, 0, 20)), ((1, 1), (1, 1, 9, 9)),
                 (1, None), (3, [1, 2, 30, 29])]:
        calls.append((f"reduce{args}", lambda a=args: im.reduce(*a)))
    calls.append(("reduce I;16", lambda: i16.reduce(2)))
    calls.append(("reduce P", lambda: im.convert("P").reduce(2)))
    calls.append(("reduce keywords", lambda: im.reduce(factor=(3, 2), box=(1, 2, 39, 29))))
    calls.append(("reduce unknown keyword", lambda: im.reduce(2, bogus=1)))
    compare(calls)
    reasons = {**counts(RESIZE)[1], **counts(REDUCE)[1]}
    for fall in (route.BAD_FILTER, route.BAD_GAP, route.BAD_SIZE, route.BAD_BOX,
                 route.BAD_ARGS, route.NOT_IMAGE, route.MKS, route.I16_REDUCE, route.MODE_P,
                 route.MODE_1, route.MODE_OTHER, route.BAD_FACTOR, route.FACTOR_ONE):
        assert reasons.get(fall.reason, 0) >= 1, fall.reason
    # every call that went to Pillow went by one of the route's reasons (none by a door error)
    assert set(reasons) <= ROUTE_REASONS, set(reasons) - ROUTE_REASONS


def test_results_are_independent_images_and_pillows_memory_stays_valid():
    rng = np.random.default_rng(4)
    with rx.patched("pil"):
        for mode in ("L", "RGB", "RGBA", "LA", "F"):
            src = image(rng, mode, 64, 48)
            before = src.tobytes()
            out = src.resize((100, 70), Image.Resampling.BILINEAR)
            small = src.resize((20, 10), Image.Resampling.BICUBIC)
            again = out.resize((30, 30))          # a mapped result read through Arrow
            px = {"L": 7, "F": 7.0}.get(mode, (7, 7, 7, 7)[:len(out.getbands())])
            out.putpixel((0, 0), px)
            assert src.tobytes() == before
            assert out.getpixel((0, 0)) == px
            del src
            assert small.copy().tobytes() == small.tobytes()
            assert again.size == (30, 30)
    assert counts(RESIZE)[0] >= 15


def test_images_in_several_blocks_are_read_through_numpy():
    rng = np.random.default_rng(5)
    size = Image.core.get_block_size()
    Image.core.set_block_size(4096)            # Pillow then splits images into blocks
    try:
        calls = []
        for mode in ("L", "RGB", "RGBA", "LA", "I;16", "F", "CMYK", "LAB"):
            im = image(rng, mode, 90, 70)
            calls.append((f"{mode} resize", lambda im=im: im.resize(
                (41, 100), Image.Resampling.BICUBIC)))
            if mode != "I;16":
                calls.append((f"{mode} reduce", lambda im=im: im.reduce(3)))
        assert compare(calls) >= 12
    finally:
        Image.core.set_block_size(size)
    assert counts(RESIZE)[1].get(route.LAB_BLOCKS.reason, 0) == 1


def test_subclass_with_its_own_reduce_goes_to_pillow():
    class Mine(Image.Image):
        def reduce(self, factor, box=None):
            return Image.Image.reduce(self, factor, box)

    rng = np.random.default_rng(6)
    src = image(rng, "RGB", 80, 60)
    mine = Mine()
    mine.im, mine._mode, mine._size, mine.info = src.im, src.mode, src.size, dict(src.info)
    compare([("gap", lambda: mine.resize((9, 7), Image.Resampling.BILINEAR, None, 2.0)),
             ("no gap", lambda: mine.resize((9, 7), Image.Resampling.BILINEAR))])
    assert counts(RESIZE)[1].get(route.OVERRIDE.reason, 0) == 1


def test_small_images_go_to_pillow_and_large_ones_take_the_door():
    _patch.settings.small = True
    rng = np.random.default_rng(7)
    tiny, big = image(rng, "RGB", 16, 16), image(rng, "RGB", 400, 400)
    i32 = image(rng, "I", 300, 300)
    compare([("tiny", lambda: tiny.resize((8, 8), Image.Resampling.BILINEAR)),
             ("tiny reduce", lambda: tiny.reduce(2)),
             ("big", lambda: big.resize((200, 200), Image.Resampling.BILINEAR)),
             ("big reduce", lambda: big.reduce(2)),
             ("big blocks", lambda: big.reduce((20, 2))),
             ("beyond the image", lambda: big.reduce(2**31 - 1)),
             ("I BILINEAR", lambda: i32.resize((150, 150), Image.Resampling.BILINEAR))])
    resize_routed, resize_reasons = counts(RESIZE)
    reduce_routed, reduce_reasons = counts(REDUCE)
    assert resize_routed == 1 and reduce_routed == 1
    assert resize_reasons[route.SMALL_CALL.reason] == 1
    assert resize_reasons[route.SLOWER.reason] == 1
    assert reduce_reasons[route.SMALL_CALL.reason] == 1
    assert reduce_reasons[route.BIG_BLOCK.reason] == 2


def test_thresholds_are_data_for_every_group_and_filter():
    for group in set(route._GROUP.values()) | {"8-bit"}:
        assert set(route.SMALL[group]) == set(FILTERS) | {"reduce"}
        for shrink, enlarge in route.SMALL[group].values():
            assert shrink >= 0 and enlarge >= 0


def test_report_and_unpatch_restore_the_very_objects():
    resize, reduce = Image.Image.__dict__["resize"], Image.Image.__dict__["reduce"]
    rng = np.random.default_rng(8)
    im = image(rng, "RGB", 50, 40)
    before_routed, before_reasons = counts(RESIZE)
    with rx.patched("pil") as done:
        assert done == ["pil"]
        patched = Image.Image.__dict__["resize"]
        assert patched is not resize and patched.__wrapped__ is resize
        assert patched.__resamplex_original__ is resize
        assert Image.Image.reduce.__resamplex_original__ is reduce
        assert patched.__name__ == "resize" and patched.__doc__ == resize.__doc__
        im.resize((20, 20))
        im.resize((50, 40))
        im.convert("P").resize((20, 20))
    assert Image.Image.__dict__["resize"] is resize
    assert Image.Image.__dict__["reduce"] is reduce
    routed, reasons = counts(RESIZE)
    assert routed == before_routed + 1
    assert reasons.get(route.SAME.reason, 0) == before_reasons.get(route.SAME.reason, 0) + 1
    assert reasons.get(route.MODE_P.reason, 0) == before_reasons.get(route.MODE_P.reason, 0) + 1
