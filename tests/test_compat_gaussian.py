"""``resamplex.compat._gaussian`` against the installed ``scipy.ndimage``, bit for bit (SPEC §6).

SciPy's ``NI_Correlate1D`` sums each symmetric pair before weighting it,
``x[0] w[0] + (x[-r] + x[r]) w[-r] + ...``; the tables keep those pairs and the engine's float
pass with ``order="pairs"`` adds them in that order, so every dtype, mode, derivative order
and ``cval`` gives SciPy's bits, integer outputs included (per-pass truncation, and the C
cast's wrap-around where a value leaves the type). The random cases use fixed seeds.
"""

from __future__ import annotations

import numpy as np
import pytest

ndi = pytest.importorskip("scipy.ndimage")

from resamplex import ResamplexError, UnsupportedError  # noqa: E402
from resamplex.compat import _gaussian as g  # noqa: E402

MODES = list(g.MODES)


def data(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 10).astype(dtype)
    if dtype == bool:
        return rng.random(shape) < 0.5
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, shape).astype(dtype)


def assert_same(got, want):
    """Same dtype, shape and bits (NaN where NaN)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.uint8, np.int16])
def test_gaussian_filter_modes_dtypes(mode, dtype):
    rng = np.random.default_rng(abs(hash((mode, np.dtype(dtype).name))) % 2**32)
    x = data(rng, (23, 17, 3), dtype)
    for sigma in (0.5, 1.7, (2.5, 0.8, 0)):
        for cval in (0.0, 3.25):
            want = ndi.gaussian_filter(x, sigma, mode=mode, cval=cval)
            got = g.gaussian_filter(x, sigma, mode=mode, cval=cval)
            assert_same(got, want)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16, np.int32,
                                   np.float32, np.float64])
def test_pixel_rows_of_every_source_at_every_cpu_level(dtype):
    # Along an axis of pixels of 1-4 elements, the outputs whose taps are one output's taps
    # shifted are summed as one row of the pixels' elements (docs/engine-passes.md, phase
    # run); a source other than float64 is read as float64 row by row first, the values of
    # SciPy's line buffer: integer and float32 images, pixel axes of 1-4 channels, rows of
    # 9-70 pixels, a last axis and a middle one, two modes, 1 and 2 threads, every CPU level
    from resamplex._engine import _exec

    rng = np.random.default_rng(np.dtype(dtype).num)
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for k, (shape, axis) in enumerate([((6, 70, 1), 1), ((5, 41, 2), 1),
                                               ((4, 23, 3), 1), ((3, 9, 4), 1),
                                               ((7, 33), 1), ((8, 29, 3), 0)]):
                x = data(rng, shape, dtype)
                for mode, sigma in (("reflect", 1.3), ("nearest", 2.2)):
                    want = ndi.gaussian_filter1d(x, sigma, axis=axis, mode=mode)
                    got = g.gaussian_filter1d(x, sigma, axis=axis, mode=mode,
                                              threads=1 + k % 2)
                    assert_same(got, want)
    finally:
        _exec.set_cpu_level(before)


@pytest.mark.parametrize("mode", MODES)
def test_radius_longer_than_the_axis(mode):
    # NI_ExtendLine repeats the extension: the index maps must follow for any radius
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 5):
        x = rng.standard_normal((n, 4))
        want = ndi.gaussian_filter1d(x, 4.0, axis=0, mode=mode, cval=-1.5)
        got = g.gaussian_filter1d(x, 4.0, axis=0, mode=mode, cval=-1.5)
        assert_same(got, want)


def test_smooth_integer_images_hit_scipys_truncations():
    # On ramps the real sum is an integer: only SciPy's own additions truncate the same way
    rng = np.random.default_rng(3)
    ramp = np.repeat(np.repeat(rng.random((9, 9)) * 255, 16, axis=0), 16, axis=1)
    for x in (np.cumsum(np.ones((64, 64), np.uint8), axis=1, dtype=np.uint8),
              ndi.zoom(ramp, 0.5, order=1).astype(np.uint8)):
        for sigma in (0.5, 1.0, 3.0):
            assert_same(g.gaussian_filter(x, sigma), ndi.gaussian_filter(x, sigma))


def test_out_of_range_integer_outputs_wrap_as_scipys_cast():
    x = np.array([0, 0, 0, 200, 200, 200, 0, 0, 0, 0], np.uint8)
    assert_same(g.gaussian_filter1d(x, 1, order=1), ndi.gaussian_filter1d(x, 1, order=1))
    y = np.array([1e10, -1e10, 5e9, 3.0, 70000.5, -40000.0])
    for dtype in (np.int16, np.uint16, np.int32, np.uint8, np.int8):
        assert_same(g.gaussian_filter1d(y, 0.5, output=dtype),
                     ndi.gaussian_filter1d(y, 0.5, output=dtype))
    z = np.full((5, 6), 250, np.uint8)
    assert_same(g.gaussian_filter(z, 1.0, mode="constant", cval=300),
                 ndi.gaussian_filter(z, 1.0, mode="constant", cval=300))


def test_nan_and_inf_spread_as_in_scipy():
    x = np.random.default_rng(4).random((12, 12))
    x[3, 4], x[8, 1] = np.nan, np.inf
    for mode in ("reflect", "constant"):
        assert_same(g.gaussian_filter(x, 1.0, mode=mode), ndi.gaussian_filter(x, 1.0, mode=mode))


@pytest.mark.parametrize("order", [1, 2, 3])
def test_derivative_orders(order):
    rng = np.random.default_rng(order)
    x = rng.random((20, 21))
    for sigma in (0.7, 2.0):
        want = ndi.gaussian_filter(x, sigma, order=order, mode="nearest")
        got = g.gaussian_filter(x, sigma, order=order, mode="nearest")
        assert_same(got, want)
    want = ndi.gaussian_filter(x, 1.0, order=(order, 0))
    assert_same(g.gaussian_filter(x, 1.0, order=(order, 0)), want)


def test_kernel_is_scipys():
    for sigma, order, radius in ((0.5, 0, 2), (1.3, 0, 5), (2.0, 2, 8), (0.9, 1, 3)):
        np.testing.assert_array_equal(
            g.gaussian_kernel1d(sigma, order, radius),
            ndi._filters._gaussian_kernel1d(sigma, order, radius))


@pytest.mark.parametrize("out_dtype", [np.float64, np.float32, np.int16, np.uint8, np.int64])
def test_output_dtype_and_array(out_dtype):
    rng = np.random.default_rng(11)
    x = rng.integers(0, 200, (9, 13)).astype(np.uint8)
    for cval in (0.0, -7.5):
        want = ndi.gaussian_filter(x, 1.2, output=out_dtype, mode="constant", cval=cval)
        got = g.gaussian_filter(x, 1.2, output=out_dtype, mode="constant", cval=cval)
        assert_same(got, want)
        out = np.full(x.shape, 99, dtype=out_dtype)
        assert g.gaussian_filter(x, 1.2, output=out, mode="constant", cval=cval) is out
        assert_same(out, want)


def test_integer_inputs_truncate_per_pass():
    # SciPy stores every pass into the output dtype (a C cast: toward zero)
    x = np.array([[0, 0, 0, 0], [0, 100, 0, 0], [0, 0, 0, -100]], dtype=np.int32)
    np.testing.assert_array_equal(g.gaussian_filter(x, 1.0), ndi.gaussian_filter(x, 1.0))
    b = np.random.default_rng(2).random((8, 8)) < 0.5
    assert_same(g.gaussian_filter(b, 1.0, output=np.float64),
                 ndi.gaussian_filter(b, 1.0, output=np.float64))


def test_axes_radius_truncate_and_per_axis_modes():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((10, 11, 12))
    kw = dict(sigma=(1.0, 2.0), axes=(2, 0), mode=("wrap", "mirror"), radius=(2, 1))
    assert_same(g.gaussian_filter(x, **kw), ndi.gaussian_filter(x, **kw))
    assert_same(g.gaussian_filter(x, 1.5, truncate=2.0),
                 ndi.gaussian_filter(x, 1.5, truncate=2.0))
    assert_same(g.gaussian_filter1d(x, 0.8, axis=1, order=1, mode="grid-wrap"),
                 ndi.gaussian_filter1d(x, 0.8, axis=1, order=1, mode="grid-wrap"))
    # sigma <= 1e-15 on every axis: a copy
    np.testing.assert_array_equal(g.gaussian_filter(x, 0), ndi.gaussian_filter(x, 0))


def test_docstring_example_of_scipy():
    a = np.arange(50, step=2).reshape((5, 5))
    np.testing.assert_array_equal(g.gaussian_filter(a, sigma=1), ndi.gaussian_filter(a, sigma=1))
    assert_same(g.gaussian_filter1d([1.0, 2.0, 3.0, 4.0, 5.0], 1),
                 ndi.gaussian_filter1d([1.0, 2.0, 3.0, 4.0, 5.0], 1))


def test_in_place_output():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((12, 12))
    want = ndi.gaussian_filter(x, 1.0)
    y = x.copy()
    g.gaussian_filter(y, 1.0, output=y)
    assert_same(y, want)


def test_thread_counts_give_the_same_bits():
    x = np.random.default_rng(9).random((300, 301))
    one = g.gaussian_filter(x, 2.0, threads=1)
    np.testing.assert_array_equal(one, g.gaussian_filter(x, 2.0, threads=2))


@pytest.mark.parametrize("call, error", [
    (lambda x: g.gaussian_filter(x, 1.0, mode="edge"), ResamplexError),
    (lambda x: g.gaussian_filter1d(x, 0.0), ResamplexError),
    (lambda x: g.gaussian_filter(x, 1.0, radius=-1), ResamplexError),
    (lambda x: g.gaussian_filter(x, 1.0, order=-1), ResamplexError),
    (lambda x: g.gaussian_filter(x, (1.0, 2.0, 3.0)), ResamplexError),
    (lambda x: g.gaussian_filter(x, 1.0, axes=(0, 0)), ResamplexError),
    (lambda x: g.gaussian_filter(x, 1.0, axes=(2,)), ResamplexError),
    (lambda x: g.gaussian_filter(x, float("nan")), ResamplexError),
    (lambda x: g.gaussian_filter(x, 1.0, output=np.zeros((3, 3))), ResamplexError),
    (lambda x: g.gaussian_filter(x, 1.0, output=np.complex128), UnsupportedError),
    (lambda x: g.gaussian_filter(x.astype(np.complex64), 1.0), UnsupportedError),
    (lambda x: g.gaussian_filter(x.astype(np.float16), 1.0), UnsupportedError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call(np.zeros((4, 5)))


def test_float64_rows_by_vectors_at_every_cpu_level():
    # float64 data filtered along an outer axis sums whole rows of taps at once, by vectors
    # of 8, 4 and 2 elements and then one at a time: row lengths around each width. Along
    # an axis of pixels of 1-4 channels, the outputs whose taps are the same, shifted (the
    # interior, 8 outputs or more), are one such row of the pixels' elements, the outputs
    # around them one at a time: axes whose interior is shorter, just long enough, longer,
    # and wraps, whose whole axis is interior. Kernels symmetric (pairs summed) and
    # antisymmetric (odd derivatives: pairs subtracted), every level this build and CPU have;
    # 3 to 17 taps (sigma 0.3 to 2.0: the symmetric ones up to 13 have their own loops).
    from resamplex._engine import _exec

    rng = np.random.default_rng(41)
    cases = []
    for inner in (1, 2, 3, 5, 7, 8, 9, 15, 17, 31):
        cases.append((data(rng, (19, inner), np.float64), 0))
    for c in (1, 2, 3, 4):
        for n in (9, 12, 13, 20, 41):
            cases.append((data(rng, (3, n, c), np.float64), 1))
    runs = []
    for x, axis in cases:
        for order in (0, 1, 2, 3):
            for sigma, mode in ((0.5, "mirror"), (1.3, "reflect"), (2.0, "nearest"),
                                (1.0, "wrap"), (0.3, "reflect"), (0.7, "mirror"),
                                (1.5, "nearest")):
                runs.append((x, axis, sigma, order, mode, ndi.gaussian_filter1d(
                    x, sigma, axis=axis, order=order, mode=mode)))
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for x, axis, sigma, order, mode, want in runs:
                got = g.gaussian_filter1d(x, sigma, axis=axis, order=order, mode=mode)
                assert_same(got, want)
    finally:
        _exec.set_cpu_level(before)
