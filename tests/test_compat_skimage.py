"""``resamplex.compat.skimage`` against the installed scikit-image (SPEC §6).

``resize`` / ``rescale``: scikit-image's rules, its Gaussian (``compat._gaussian``, bit for
bit with SciPy) and ``resamplex.compat.scipy.zoom``. Orders 0 and 1 are held to scikit-image's
bits (SciPy's zoom is bit-exact there); orders 2..5, where the SciPy door may differ from
SciPy's B-spline prefilter by a few ulp, to 8 ulp of the data's scale. ``downscale_local_mean``:
integer and bool images bit for bit (exact sums, one division, while the sums stay below 2^53), float images bit for bit where
the block sums follow NumPy's order (see ``compat.skimage._mean_steps``), else 2 ulp.
The random cases use fixed seeds.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

skt = pytest.importorskip("skimage.transform")

from resamplex import ResamplexError, UnsupportedError  # noqa: E402
from resamplex.compat import skimage as rk  # noqa: E402

MODES = list(rk.MODES)


def make(rng, shape, dtype):
    if dtype == bool:
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind == "f":
        return rng.random(shape).astype(dtype)
    info = np.iinfo(dtype)
    # int64: values whose block sums stay exact in float64 (NumPy's mean sums in float64)
    lo, hi = (-(2 ** 40), 2 ** 40) if dtype == np.int64 else (info.min, info.max)
    return rng.integers(lo, hi, shape, endpoint=True).astype(dtype)


def check(got, want, order):
    assert got.dtype == want.dtype and got.shape == want.shape
    if order <= 1 or want.dtype.kind != "f":
        np.testing.assert_array_equal(got, want)
    else:
        scale = float(np.max(np.abs(want))) if want.size else 1.0
        np.testing.assert_allclose(got, want, rtol=0,
                                   atol=8 * float(np.spacing(want.dtype.type(scale))))


def both(name, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # grid_mode warnings, sigma warnings: checked below
        return getattr(rk, name)(*args, **kw), getattr(skt, name)(*args, **kw)


IMAGES = {
    "gray": (37, 41),
    "rgb": (30, 44, 3),
    "volume": (12, 14, 10),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", list(IMAGES))
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32, np.float64, np.int8])
def test_resize_shrink_and_enlarge(kind, dtype, mode):
    rng = np.random.default_rng(abs(hash((kind, np.dtype(dtype).name, mode))) % 2**32)
    img = make(rng, IMAGES[kind], dtype)
    h, w = img.shape[:2]
    for shape in ((h // 2, w // 3), (2 * h - 1, w + 5), (h // 3, 2 * w)):
        for kw in (dict(), dict(anti_aliasing=False), dict(preserve_range=True, cval=0.3),
                   dict(clip=False, cval=-0.2, order=1)):
            got, want = both("resize", img, shape, mode=mode, **kw)
            check(got, want, 1)


@pytest.mark.parametrize("order", [0, 2, 3, 5])
def test_resize_orders(order):
    rng = np.random.default_rng(order)
    for dtype in (np.uint8, np.float32, np.float64):
        img = make(rng, (25, 33, 3), dtype)
        for shape in ((12, 16), (40, 51)):
            for mode in ("reflect", "constant", "edge"):
                got, want = both("resize", img, shape, order=order, mode=mode, cval=0.5)
                check(got, want, order)


def test_anti_aliasing_sigma_given():
    rng = np.random.default_rng(21)
    img = make(rng, (40, 50), np.float64)
    for sigma in (0.0, 1.3, (2.0, 0.7)):
        got, want = both("resize", img, (13, 20), anti_aliasing=True,
                         anti_aliasing_sigma=sigma)
        check(got, want, 1)
    # positive sigma on an axis that does not shrink: scikit-image warns, so do we
    with pytest.warns(UserWarning, match="not down-sampling"):
        rk.resize(img, (20, 60), anti_aliasing=True, anti_aliasing_sigma=1.0)


def test_order0_integer_images_keep_their_dtype():
    rng = np.random.default_rng(5)
    img = make(rng, (30, 31), np.uint16)
    for kw in (dict(order=0), dict(order=0, anti_aliasing=True), dict(order=0, clip=False)):
        got, want = both("resize", img, (14, 15), **kw)
        assert got.dtype == np.uint16
        check(got, want, 0)


def test_bool_and_float16_images():
    rng = np.random.default_rng(6)
    b = make(rng, (20, 22), bool)
    for shape in ((10, 11), (40, 30)):
        got, want = both("resize", b, shape)
        check(got, want, 0)
    h = make(rng, (20, 22), np.float16)
    for kw in (dict(), dict(order=0)):
        got, want = both("resize", h, (9, 30), **kw)
        assert got.dtype == np.float32
        check(got, want, 1)


def test_output_shape_rules():
    rng = np.random.default_rng(7)
    img = make(rng, (16, 18, 3), np.uint8)
    for shape in ((8, 9), (8, 9, 3), (8, 9, 2), (8, 9, 3, 2)):
        got, want = both("resize", img, shape)
        check(got, want, 1)
    got, want = both("resize", make(rng, (16, 18), np.float64), (8, 9, 2))
    check(got, want, 1)


def test_clip_widens_to_cval_in_constant_mode():
    img = np.full((10, 10), 0.5)
    img[3:7, 3:7] = 0.8
    for cval in (0.0, 2.0, 0.6):
        got, want = both("resize", img, (17, 23), mode="constant", cval=cval, order=1)
        check(got, want, 1)
        assert got.min() == want.min() and got.max() == want.max()
    nan = img.copy()
    nan[0, 0] = np.nan
    got, want = both("resize", nan, (6, 7))
    check(got, want, 1)


@pytest.mark.parametrize("channel_axis", [None, -1, 0, 2])
def test_rescale(channel_axis):
    rng = np.random.default_rng(8)
    img = make(rng, (21, 26, 3), np.uint8)
    for scale in (0.5, 0.3, 1.7, (0.5, 2.0) if channel_axis is not None else (0.5, 2.0, 1.0)):
        got, want = both("rescale", img, scale, channel_axis=channel_axis)
        check(got, want, 1)


def test_docstring_examples():
    # skimage's resize and rescale examples (data.camera() is 512x512) and
    # downscale_local_mean's values
    camera = np.zeros((512, 512), np.uint8)
    assert rk.resize(camera, (100, 100)).shape == (100, 100)
    assert rk.rescale(camera, 0.1).shape == (51, 51)
    assert rk.rescale(camera, 0.5).shape == (256, 256)
    a = np.arange(15).reshape(3, 5)
    np.testing.assert_array_equal(rk.downscale_local_mean(a, (2, 3)),
                                  [[3.5, 4.0], [5.5, 4.5]])


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16, np.float32,
                                   np.float64])
def test_large_images_in_bands_of_rows(dtype, monkeypatch):
    # Large images are smoothed and zoomed band of output rows by band (each band converts,
    # smooths and zooms only the rows it reads): the threshold and band size lowered here so
    # that small images take that path in bands of 1 to 7 rows, and the bands' edges fall
    # everywhere; every mode it takes, 2-d and 3-d images, a channel axis kept or not, axis 0
    # enlarged (no smoothing along it), sigmas given, preserve_range, NaN (the zoom's second
    # evaluation with every tap), the bands on 1, 2 or 3 threads (each thread its own bands,
    # in turn), bit for bit with scikit-image. Integer images are read by the Gaussian's
    # first pass itself where it runs along the rows (FloatPass.load).
    import resamplex as rx

    monkeypatch.setattr(rk, "_BAND_MIN_BYTES", 0)
    rng = np.random.default_rng(np.dtype(dtype).num + 100)
    cases = [((37, 29, 3), (13, 11)), ((40, 33), (17, 12)), ((23, 31, 4), (30, 14)),
             ((35, 26, 5), (12, 10, 3)), ((41, 30), (20, 15))]
    for shape, out_shape in cases:
        img = make(rng, shape, dtype)
        if dtype == np.float64 and len(shape) == 2:
            img[5, 7] = np.nan
        for band in (1, 3, 7):
            row = img[0].size * (4 if dtype == np.float32 else 8)
            monkeypatch.setattr(rk, "_BAND_BYTES", band * row * shape[0] // out_shape[0])
            for mode in ("reflect", "edge", "symmetric", "wrap"):
                for kw in ({}, {"preserve_range": True}, {"anti_aliasing_sigma": (1.2, 0.7)}):
                    if "anti_aliasing_sigma" in kw and len(shape) == 3:
                        kw = {"anti_aliasing_sigma": (1.2, 0.7, 0)}
                    threads = 1 + (band + len(shape) + len(mode)) % 3
                    before = rx.get_num_threads()
                    rx.set_num_threads(threads)
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            want = skt.resize(img, out_shape, mode=mode, anti_aliasing=True,
                                              **kw)
                            got = rk.resize(img, out_shape, mode=mode, anti_aliasing=True,
                                            **kw)
                    finally:
                        rx.set_num_threads(before)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    np.testing.assert_array_equal(got, want, err_msg=f"{shape} {band} {mode} "
                                                  f"{kw} {threads}")
    assert rk._banded(img, 1, "mirror")
    # a flat image whose smoothed and zoomed values overshoot it by rounding (found by
    # scikit-image itself): the clip to the input's range, band by band, takes them back
    # (float32 images: their float64 sums round back to the value, none overshoots)
    if dtype == np.float32:
        return
    values = rng.random(400) if np.dtype(dtype).kind == "f" \
        else range(1, min(256, int(np.iinfo(dtype).max) + 1))
    for v in values:
        flat = np.full((37, 29, 3), v, dtype)
        want = skt.resize(flat, (13, 11), anti_aliasing=True)
        if not np.array_equal(want, skt.resize(flat, (13, 11), anti_aliasing=True,
                                               clip=False)):
            break
    else:
        pytest.fail("no flat image overshoots its value")
    for band, threads in ((1, 1), (3, 2)):
        monkeypatch.setattr(rk, "_BAND_BYTES", band * flat[0].size * 8 * 37 // 13)
        rx.set_num_threads(threads)
        try:
            np.testing.assert_array_equal(rk.resize(flat, (13, 11), anti_aliasing=True), want)
            # and clip=False leaves the overshoot (the same bands, zoomed without the clip)
            np.testing.assert_array_equal(
                rk.resize(flat, (13, 11), anti_aliasing=True, clip=False),
                skt.resize(flat, (13, 11), anti_aliasing=True, clip=False))
        finally:
            rx.set_num_threads(before)


def test_banded_clip_bounds_are_each_calls_own(monkeypatch):
    # The store's clip bounds come with each call (Program.run's pw), not with the cached
    # plans: images of one shape whose ranges do not overlap, resized from eight threads at
    # once (the same plans, each call its own bounds), give what each gives alone, which is
    # scikit-image's.
    import concurrent.futures
    import threading

    monkeypatch.setattr(rk, "_BAND_MIN_BYTES", 0)
    monkeypatch.setattr(rk, "_BAND_BYTES", 3 * 29 * 3 * 8 * 37 // 13)
    rng = np.random.default_rng(5)
    images = [rng.integers(20 * k, 20 * k + 15, (37, 29, 3), dtype=np.uint8) for k in range(8)]
    want = [skt.resize(img, (13, 11), anti_aliasing=True) for img in images]
    barrier = threading.Barrier(8)

    def run(k):
        barrier.wait()
        return [rk.resize(images[(k + i) % 8], (13, 11), anti_aliasing=True) for i in range(8)]

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = [f.result() for f in [pool.submit(run, k) for k in range(8)]]
    for k, got in enumerate(results):
        for i, g in enumerate(got):
            np.testing.assert_array_equal(g, want[(k + i) % 8], err_msg=f"thread {k} call {i}")


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int8, np.uint16, np.int16, np.uint32,
                                   np.int32, np.uint64, np.int64])
def test_integer_range_in_one_pass(dtype):
    # The input's range that resize clips to, for integer and bool images: one pass that
    # stops once both ends of the type are seen (_engine.kernels._reduce.int_range), against
    # NumPy's min and max: ends in the first block, after it, in the last element, only one
    # of the two ends seen early, a single element; C, Fortran, strided and byte-swapped.
    from resamplex._engine.kernels._reduce import int_range

    rng = np.random.default_rng(np.dtype(dtype).num + 7)
    lo, hi = (0, 1) if dtype == bool else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    n = 3 * 16384 + 5
    cases = [np.array([hi], dtype), np.array([lo], dtype)]
    for first, later in (((lo, hi), ()), ((lo,), (hi,)), ((hi,), (lo,)), ((), (lo, hi))):
        a = (rng.random(n) < 0.5).astype(dtype) if dtype == bool else \
            rng.integers(lo // 2 + 1, hi // 2, n, dtype=dtype)
        if dtype == bool:
            a[:] = first[0] if first else 0
        a[:len(first)] = first
        for i, v in enumerate(later):
            a[-1 - i * 20000] = v
        cases += [a, a.reshape(1, -1, 1)]
    b = rng.integers(lo // 3, hi // 3, (40, 700), dtype=dtype) if dtype != bool else \
        rng.random((40, 700)) < 0.5
    b[37, 650] = lo
    b[39, 699] = hi
    cases += [b, b.T, np.asfortranarray(b), b[:, ::3], b.astype(b.dtype.newbyteorder())]
    with pytest.raises(ValueError, match="int_range"):
        int_range(np.zeros(0, dtype))
    for a in cases:
        got = int_range(a)
        assert got.dtype == a.dtype
        assert got.tolist() == [a.min(), a.max()], (a.shape, a.strides)


def test_zoom_store_clips_as_numpy_at_every_cpu_level():
    # The banded path clips in the zoom's store (SplinePlan(clip=True)): each row as it is
    # written, where np.clip would clip the output afterwards. Every evaluation loop the
    # store follows (order 0 rows straight into the output or through the row buffer, the
    # two-row order-1 loop, the general tiles at order 3), float64 and float32 outputs,
    # contiguous and strided, values around the bounds and NaN, infinities and zeros (-0.0:
    # float32 stores of tiny negative sums), at every CPU level: bit for bit with np.clip
    # of the same evaluation unclipped (before NumPy 2.2, whose clip gives a zero that ties
    # a bound of the other sign the bound's sign, without the zero bounds).
    from resamplex._engine import _exec
    from resamplex._engine.compile.splines import SplinePlan
    from resamplex.compat.scipy import zoom_table

    rng = np.random.default_rng(23)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, 5e-324, -5e-324, 0.25, 0.75, 1.0,
                        -1.0, 2.5, -2.5, 3.0, np.nextafter(0.75, 1), np.nextafter(0.25, 0)])
    bounds = [(0.25, 0.75), (0.0, 1.0), (-1.0, 0.0), (-2.5, 3.0), (-np.inf, np.inf),
              (0.75, 0.25), (np.nextafter(0.25, 0), np.nextafter(0.75, 1)), (-0.0, 1.0),
              (-1.0, -0.0)]
    keeps = rk._numpy_clip_keeps_ties()
    shape = (9, 21)
    x = rng.choice(special, size=shape)
    x[:, ::3] = rng.uniform(-1.0, 2.0, (shape[0], 7))
    runs = []
    for order, zooms in ((0, (1.0, 1.0)), (0, (1.5, 0.7)), (1, (1.4, 0.6)),
                         (1, (1.0, 1.3)), (3, (0.8, 1.7))):
        out_shape = tuple(max(1, round(n * z)) for n, z in zip(shape, zooms))
        tables = [zoom_table(n, m, (n - 1) / max(m - 1, 1), order, "nearest",
                             grid_mode=False, npad=0) for n, m in zip(shape, out_shape)]
        for dtype in (np.float64, np.float32):
            for step in (1, 2):
                plain = SplinePlan(shape, tables, order=order, cval=0.0, prefilter=False,
                                   init="reflect")
                clipped = SplinePlan(shape, tables, order=order, cval=0.0, prefilter=False,
                                     init="reflect", clip=True)
                runs.append((plain, clipped, dtype, step, out_shape))
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for plain, clipped, dtype, step, out_shape in runs:
                wide = (out_shape[0], out_shape[1] * step)
                want = np.zeros(wide, dtype)[:, ::step]
                plain(x, want, 1)
                for lo, hi in bounds:
                    lo, hi = dtype(lo), dtype(hi)
                    if not keeps and (lo == 0 or hi == 0):
                        continue
                    ref = np.clip(want, np.asarray(lo), np.asarray(hi))
                    got = np.full(wide, 7.0, dtype)[:, ::step]
                    clipped(x, got, 1 + step % 2, clip=(lo, hi))
                    assert got.tobytes() == np.ascontiguousarray(ref).tobytes(), (
                        level, clipped.order, dtype, step, lo, hi)
    finally:
        _exec.set_cpu_level(before)
    with pytest.raises(ValueError, match="clip"):
        runs[0][1](x, np.zeros(runs[0][4]), 1)
    with pytest.raises(ValueError, match="clip"):
        runs[0][0](x, np.zeros(runs[0][4]), 1, clip=(0.0, 1.0))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32, np.int64, bool,
                                   np.float16, np.float32, np.float64])
def test_downscale_local_mean(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    for shape, factors in (((24, 30), (2, 2)), ((25, 31), (3, 2)), ((20, 21, 3), (2, 2, 1)),
                           ((12, 13, 11), (2, 3, 2)), ((12, 13, 12), (1, 2, 3)), ((31,), 4),
                           ((9, 8, 7, 3), (2, 2, 2, 1)), ((16, 16), (8, 8))):
        img = make(rng, shape, dtype)
        for cval in (0, 3, 0.5):
            want = skt.downscale_local_mean(img, factors, cval=cval)
            got = rk.downscale_local_mean(img, factors, cval=cval)
            assert got.dtype == want.dtype and got.shape == want.shape
            steps = rk._mean_steps((factors,) * img.ndim if np.isscalar(factors)
                                   else factors)
            inner = factors if np.isscalar(factors) else factors[-1]
            if want.dtype.kind != "f" or img.dtype.kind != "f" or (
                    steps[1] != "separable" and inner < 8):
                np.testing.assert_array_equal(got, want)
            else:
                np.testing.assert_allclose(got, want, rtol=0,
                                           atol=2 * float(np.spacing(want.max())))


@pytest.mark.parametrize("call, error", [
    (lambda m, x: m.resize(x > 0.5, (4, 4), anti_aliasing=True), ValueError),
    (lambda m, x: m.resize(x > 0.5, (4, 4), order=1), ValueError),
    (lambda m, x: m.resize(x, (4, 4), order=6), ValueError),
    (lambda m, x: m.resize(x, (4, 4), mode="mirror"), ValueError),
    (lambda m, x: m.resize(x, (4, 4), anti_aliasing_sigma=-1.0, anti_aliasing=True),
     ValueError),
    (lambda m, x: m.resize(x[None], (4,)), ValueError),
    (lambda m, x: m.rescale(x, (0.5, 0.5, 0.5)), ValueError),
    (lambda m, x: m.rescale(x[..., None], 0.5, channel_axis=(0, 1)), ValueError),
    (lambda m, x: m.downscale_local_mean(x, [2, 2]), TypeError),
    (lambda m, x: m.downscale_local_mean(x, (0, 2)), ValueError),
    (lambda m, x: m.downscale_local_mean(x, (2, 2, 2)), ValueError),
])
def test_errors_as_scikit_image_raises_them(call, error):
    x = np.random.default_rng(0).random((8, 8))
    with pytest.raises(error):
        call(skt, x)
    with pytest.raises(error) as info:
        call(rk, x)
    assert isinstance(info.value, ResamplexError)


def test_unsupported_dtypes():
    with pytest.raises(UnsupportedError):
        rk.resize(np.zeros((4, 4), np.complex64), (2, 2))
    with pytest.raises(UnsupportedError):
        rk.downscale_local_mean(np.zeros((4, 4), np.complex64), 2)
