"""``resamplex.compat.scipy`` against the installed ``scipy.ndimage``, bit for bit (SPEC §6).

Every comparison is ``np.array_equal`` on the same inputs (random data of 1 to 4 dimensions,
odd sizes, factors below and above 1, every order, mode, ``grid_mode`` and ``prefilter``, many
dtypes, ``output`` as a dtype and as an array), plus SciPy's error types and the golden values
of its docstrings. docs/scipy.md says why the results are the same bits.
"""

from __future__ import annotations

import platform
import warnings

import numpy as np
import pytest

sn = pytest.importorskip("scipy.ndimage")

from resamplex import ResamplexError, UnsupportedError  # noqa: E402
from resamplex.compat import scipy as rn  # noqa: E402

MODES = rn.MODES
ORDERS = range(6)
FACTORS = (0.5, 0.7, 1.3, 2.0, 2.5, 3.0)


def both(fn_name, *args, **kwargs):
    """SciPy's result and ours (warnings silenced on both sides; they are tested apart)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = getattr(sn, fn_name)(*args, **kwargs)
        got = getattr(rn, fn_name)(*args, **kwargs)
    return expected, got


def assert_same(expected, got):
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    # bit for bit: signed zeros, and the bytes SciPy stores in bool outputs (a C cast: 2.0
    # stores 2, which NumPy shows as True)
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(expected).tobytes()


@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("mode", MODES)
def test_random_float64_every_order_and_mode(ndim, mode):
    rng = np.random.default_rng(ndim * 31 + MODES.index(mode))
    for trial in range(3):
        shape = tuple(int(n) for n in rng.integers(1, 8, ndim))
        x = rng.standard_normal(shape)
        zoom = [float(z) for z in rng.choice(FACTORS, ndim)]
        for order in ORDERS:
            for grid_mode in (False, True):
                for prefilter in (True, False):
                    expected, got = both("zoom", x, zoom, order=order, mode=mode, cval=0.75,
                                         grid_mode=grid_mode, prefilter=prefilter)
                    assert_same(expected, got)


@pytest.mark.parametrize("order", ORDERS)
def test_four_dimensions(order):
    rng = np.random.default_rng(order)
    x = rng.standard_normal((3, 4, 5, 2))
    for mode in ("reflect", "constant", "grid-constant", "nearest", "grid-wrap"):
        assert_same(*both("zoom", x, (1.5, 0.8, 1.2, 2.0), order=order, mode=mode, cval=-1.0))


@pytest.mark.parametrize("mode", MODES)
def test_long_rows_cross_tiles(mode):
    # rows longer than the evaluation's tiles (512 outputs or fewer), modes that fold taps
    # onto the far end of the axis included
    rng = np.random.default_rng(11 + MODES.index(mode))
    for shape, zoom in (((1301,), 1.37), ((3, 700), (1.5, 2.2)), ((2, 2, 1100), (1, 1.5, 0.6))):
        x = rng.standard_normal(shape)
        for order in (1, 2, 3, 5):
            for grid_mode in (False, True):
                assert_same(*both("zoom", x, zoom, order=order, mode=mode, cval=0.5,
                                  grid_mode=grid_mode))


def test_a_long_axis_needs_no_scratch_of_its_length():
    x = np.random.default_rng(12).standard_normal(3_000_000).astype(np.float32)
    assert_same(*both("zoom", x, 1.01, order=3, mode="grid-wrap"))


DTYPES = [np.float32, np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("order", [0, 1, 3, 5])
def test_dtypes_in_and_out(dtype, order):
    rng = np.random.default_rng(order)
    if np.dtype(dtype).kind == "b":
        x = rng.random((7, 6)) > 0.5
    elif np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        x = rng.integers(lo, hi, (7, 6), endpoint=True).astype(dtype)
    else:
        x = (rng.standard_normal((7, 6)) * 100).astype(dtype)
    for mode in ("constant", "mirror", "nearest", "grid-constant"):
        for zoom in (1.7, 0.6, (2.0, 0.5)):
            assert_same(*both("zoom", x, zoom, order=order, mode=mode, cval=3.0))


@pytest.mark.parametrize("out_dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32,
                                       np.float32, np.float64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_integer_outputs_round_and_saturate_as_scipy(out_dtype):
    # values across and beyond every integer range, exact halves (order 1 at x2) included
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-70000, 70000, 40), np.arange(-5, 6) + 0.5,
                        [-128.5, 127.5, 255.5, -0.5, 0.5, 65535.5]])
    for order in (0, 1, 2, 3):
        assert_same(*both("zoom", x, 2.0, output=out_dtype, order=order))
        assert_same(*both("zoom", x.reshape(3, -1), 1.5, output=out_dtype, order=order,
                          mode="mirror"))


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                    reason="SciPy's 64-bit stores overflow C casts, resolved by each CPU; "
                           "docs/scipy.md states x86-64's")
@pytest.mark.parametrize("out_dtype", [np.int64, np.uint64], ids=lambda d: np.dtype(d).name)
def test_64_bit_outputs_at_and_beyond_their_ends(out_dtype):
    # the doubles next to 2^63 and 2^64 (whose casts overflow), far beyond, infinities, NaN
    x = np.array([2.0**63, 2.0**63 + 2**11, 2.0**63 - 2**10, 1e19, 1e30, np.inf, -2.0**63,
                  -2.0**63 - 2**11, -1e30, -np.inf, np.nan, 2.0**64, 2.0**64 + 2**12, 3e19,
                  -0.7, 0.3, 2.5])
    for order in (0, 1, 3):
        assert_same(*both("zoom", x, 2.0, output=out_dtype, order=order))
        assert_same(*both("zoom", x, 1.0001, output=out_dtype, order=order, prefilter=False))


def test_output_as_an_array_and_as_a_dtype_name():
    x = np.random.default_rng(1).standard_normal((5, 6))
    out_s = np.zeros((10, 12), np.float32)
    out_r = np.zeros((10, 12), np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sn.zoom(x, 2, output=out_s)
        result = rn.zoom(x, 2, output=out_r)
    assert result is out_r
    assert_same(out_s, out_r)
    assert_same(*both("zoom", x, 2, output="float32"))
    # a non-contiguous output view
    big_s, big_r = np.zeros((20, 24)), np.zeros((20, 24))
    sn.zoom(x, 2, output=big_s[::2, ::2], order=1)
    rn.zoom(x, 2, output=big_r[::2, ::2], order=1)
    assert_same(big_s, big_r)


def test_strided_and_fortran_inputs():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((9, 11))
    for view in (x[::2, ::-1], np.asfortranarray(x), x.T):
        for order in (1, 3):
            assert_same(*both("zoom", view, 1.6, order=order, mode="reflect"))


def test_complex_input_zooms_parts_apart():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5))
    for order in (0, 1, 3):
        assert_same(*both("zoom", x, 1.5, order=order, cval=1 + 2j))
        # SciPy does not pass grid_mode on to the parts
        assert_same(*both("zoom", x, 1.5, order=order, grid_mode=True, mode="grid-wrap"))
    assert_same(*both("zoom", x.astype(np.complex64), 2.0, order=1))


def test_zoom_one_returns_the_input_and_zero_sizes():
    x = np.random.default_rng(4).standard_normal((3, 4))
    assert_same(*both("zoom", x, 1))
    assert_same(*both("zoom", x, 1, prefilter=False, order=3))
    assert_same(*both("zoom", x, 0.1))        # round(0.3) = 0: an empty result
    assert_same(*both("zoom", np.zeros((0, 3)), 2))
    assert_same(*both("zoom", np.arange(5.0), 0.3))   # round(1.5) = 2 (half to even)
    assert_same(*both("zoom", np.arange(5.0), 0.5))   # round(2.5) = 2


def test_signed_zero_and_nan():
    x = np.array([-0.0, -0.0, 1.0, np.nan, 2.0, -0.0])
    for order in (0, 1, 3):
        expected, got = both("zoom", x, 1.5, order=order, mode="nearest")
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
        keep = ~np.isnan(expected)
        assert_same(expected[keep], got[keep])


def assert_same_nan(expected, got):
    """Same bits, NaN payloads aside (docs/scipy.md: they follow the hardware)."""
    assert got.shape == expected.shape and got.dtype == expected.dtype
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
        keep = ~np.isnan(expected)
        expected, got = expected[keep], got[keep]
    assert_same(expected, got)


KEPT = [((9, 13, 3), (0.5, 0.7, 1)), ((5, 6, 4), (1.8, 2.0, 1)), ((3, 9, 13), (1, 0.6, 1.5)),
        ((2, 3, 7, 9), (1, 1, 2.0, 0.5)), ((9, 4), (0.5, 1)), ((1, 7, 2), (1, 1.5, 1))]


@pytest.mark.parametrize("shape, zoom", KEPT, ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_axes_that_keep_their_length(shape, zoom, mode):
    # orders 0 and 1 evaluate such axes outermost, at order 1 at their one tap of weight 1,
    # checked by the output (docs/scipy.md): infinite and NaN elements and cval included
    rng = np.random.default_rng(len(shape) * 7 + MODES.index(mode))
    x = rng.standard_normal(shape)
    x_bad = x.copy()
    flat = x_bad.reshape(-1)
    flat[rng.choice(flat.size, 3, replace=False)] = [np.nan, np.inf, -np.inf]
    u8 = rng.integers(0, 256, shape, dtype=np.uint8)
    cases = [(x, None), (x.astype(np.float32), None), (x_bad, None),
             (x_bad.astype(np.float32), None), (u8, None), (u8, np.float32),
             (x * 100, np.uint8), (x * 100, np.int16), (x_bad, np.float32),
             (x_bad * 100, np.uint8),
             (np.full(shape, np.finfo(np.float64).max), None)]
    for order in (0, 1):
        for grid_mode in (False, True):
            for data, output in cases:
                for cval in (0.75, np.nan, np.inf):
                    expected, got = both("zoom", data, zoom, order=order, mode=mode,
                                         cval=cval, grid_mode=grid_mode, output=output)
                    assert_same_nan(expected, got)


IMAGES = [((23, 37), (0.5, 0.6)), ((17, 29, 3), (0.5, 0.45, 1)), ((12, 21, 4), (1.7, 2.2, 1)),
          ((3, 14, 19), (1, 0.7, 1.6)), ((2, 9, 11, 3), (1, 1.4, 0.8, 1)),
          ((10, 1, 3), (0.6, 9.0, 1))]


@pytest.mark.parametrize("shape, zoom", IMAGES, ids=str)
@pytest.mark.parametrize("mode", ["constant", "grid-constant", "nearest", "mirror", "wrap"])
def test_order_one_images_by_rows_at_every_cpu_level(shape, zoom, mode):
    # order 1 weighting only the last two axes (an image, its channels kept): each output row
    # from two input rows, the channels folded into the row where the output's layout allows
    # (docs/scipy.md); rows of odd lengths around the vector width, cval rows and taps at the
    # edges, outputs in float64 and float32 straight into the array or through the store, in
    # C order, reversed or transposed (no fold), every thread count and CPU level
    from resamplex._engine import _exec

    rng = np.random.default_rng(len(shape) * 5 + sum(map(ord, mode)))
    x = rng.standard_normal(shape) * 60
    out_shape = rn._output_shape(shape, list(zoom))
    cases = [(x, None), (x.astype(np.float32), None), (x.astype(np.float32), np.float64),
             (x, np.float32), (x, np.uint8), (x.astype(np.int16), None),
             (np.abs(x).astype(np.uint8), np.float32)]
    layouts = [lambda a: a, lambda a: a[::-1], lambda a: a.T.copy().T,
               lambda a: np.swapaxes(np.swapaxes(a, 0, -1).copy(), 0, -1)]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for (data, output), threads in zip(cases, [1, 2, 3, 1, 2, 3, 2]):
                for grid_mode in (False, True):
                    for layout in layouts:
                        dtype = data.dtype if output is None else np.dtype(output)
                        expected = layout(np.zeros(out_shape, dtype))
                        got = layout(np.ones(out_shape, dtype))
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            sn.zoom(data, zoom, output=expected, order=1, mode=mode,
                                    cval=-3.25, grid_mode=grid_mode)
                            rn.zoom(data, zoom, output=got, order=1, mode=mode, cval=-3.25,
                                    grid_mode=grid_mode, threads=threads)
                        assert_same(expected, got)
    finally:
        _exec.set_cpu_level(before)


WINDOWED = [((37, 61, 3), (0.5, 0.5, 1)), ((29, 83), (0.45, 0.5)), ((15, 40, 4), (1.6, 2.3, 1)),
            ((33, 70), (0.5, 0.12)), ((9, 47, 3), (2.0, 0.8, 1)), ((6, 26, 2), (0.7, 0.26, 1))]


@pytest.mark.parametrize("shape, zoom", WINDOWED, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_order_one_rows_through_windows_at_every_cpu_level(shape, zoom, dtype):
    # float rows of the two-row evaluation read eight outputs' taps as one window of the
    # input row and a permutation (splines.row_windows); blocks whose taps span more than a
    # window, or stride past it, are read lane by lane. Sources that end at an unreadable page
    # (tests/guarded.py): a window loaded whole past the last element would fault there.
    # Contiguous, reversed and every-other-element rows, cval and folded edges, 1-3 threads.
    from guarded import guarded

    from resamplex._engine import _exec

    rng = np.random.default_rng(sum(shape) + int(zoom[-1 if len(zoom) == 2 else 1] * 100))
    values = (rng.standard_normal(shape) * 50).astype(dtype)
    values.reshape(-1)[::7] = -0.0
    plain = guarded(shape, dtype)
    plain[...] = values
    wide = guarded(shape[:-1] + (2 * shape[-1],), dtype)
    wide[..., ::2] = values
    flipped = guarded(shape, dtype)
    flipped[...] = values[..., ::-1]
    sources = [plain, wide[..., ::2], flipped[..., ::-1]]
    if len(shape) == 3:     # the image's columns reversed, its channels in order
        across = guarded(shape, dtype)
        across[...] = values[:, ::-1]
        sources.append(across[:, ::-1])
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for i, source in enumerate(sources):
                for mode, threads in (("constant", 1 + i % 3), ("nearest", 2),
                                      ("mirror", 1)):
                    expected = sn.zoom(source, zoom, order=1, mode=mode, cval=-1.5)
                    got = rn.zoom(source, zoom, order=1, mode=mode, cval=-1.5,
                                  threads=threads)
                    assert_same(expected, got)
    finally:
        _exec.set_cpu_level(before)


def test_row_windows_of_a_row():
    # the planner's table (splines.row_windows) on offsets worked out by hand: float32
    # elements (4 bytes), blocks of eight outputs with two taps each
    from resamplex._engine.compile.splines import CVAL_TAP, WINDOW_BYTES, WINDOW_ENTRIES, row_windows

    def block(table, b):
        entry = table[b * WINDOW_ENTRIES:(b + 1) * WINDOW_ENTRIES]
        at = entry[2:].view("<i4")
        return int(entry[0]), int(entry[1]), at[:8].tolist(), at[8:].tolist()

    # outputs j read elements 2j + 3 and 2j + 4: block 0 spans elements 3..18, block 1
    # 19..34 (16 each); the last two outputs have no block. Block 0's window may be read
    # whole: its count comes negated
    g = np.array([[2 * j + 3, 2 * j + 4] for j in range(18)], np.int64) * 4
    table = row_windows(g, 4, end=35 * 4)
    assert table.size == 2 * WINDOW_ENTRIES
    assert block(table, 0) == (12, -16, list(range(0, 16, 2)), list(range(1, 16, 2)))
    # block 1's window (WINDOW_BYTES from element 19) runs past the row's end: masked, 16
    assert 19 * 4 + WINDOW_BYTES > 35 * 4
    assert block(table, 1) == (76, 16, list(range(0, 16, 2)), list(range(1, 16, 2)))
    # taps spread over the window's width or more, off the element grid, or reading cval:
    # gathered
    far = np.array([[0, 4 * 32]] + [[4 * j, 4 * j + 4] for j in range(1, 8)], np.int64)
    odd = np.array([[2, 4]] + [[4 * j, 4 * j + 4] for j in range(1, 8)], np.int64)
    cval = np.array([[4 * j, 4 * j + 4] for j in range(8)], np.int64)
    cval[3, 1] = CVAL_TAP
    every = np.full((8, 2), CVAL_TAP, np.int64)
    for spread in (far, odd, cval, every):
        assert block(row_windows(spread, 4, end=1 << 20), 0)[0] == -1
    # a reversed row: positions count from the lowest offset
    rev = np.array([[4 * (20 - j), 4 * (19 - j)] for j in range(8)], np.int64)
    assert block(row_windows(rev, 4, end=1 << 20), 0) == (
        48, -9, [20 - j - 12 for j in range(8)], [19 - j - 12 for j in range(8)])


VOLUMES = [((5, 11, 43), (1.5, 2.0, 2.0)), ((4, 9, 70), (2.0, 1.3, 0.45)),
           ((3, 17, 37), (1.2, 0.7, 1.37)), ((2, 6, 9, 29), (1.0, 1.5, 2.0, 2.5))]


@pytest.mark.parametrize("shape, zoom", VOLUMES, ids=str)
@pytest.mark.parametrize("order", [1, 2, 3])
def test_tensor_evaluation_at_every_cpu_level(shape, zoom, order):
    # the general evaluation (three or more weighted axes): products of the outer axes' taps
    # for eight output rows at a time, read as runs of adjacent elements (contiguous rows:
    # loaded and transposed) or element by element (gaps between a tile's inputs when
    # shrinking, taps folded by the modes, strided rows), then the sums of eight outputs and
    # of four; rows of 8k + 1..7 outputs, cval lanes, float32 and float64 sources (float64:
    # the prefiltered scratch too), every CPU level and 1-3 threads
    from resamplex._engine import _exec

    rng = np.random.default_rng(order * 97 + len(shape) * 13 + shape[-1])
    base = rng.standard_normal(shape) * 40
    inputs = [base.astype(np.float32), base, np.asfortranarray(base.astype(np.float32)),
              np.repeat(base, 2, axis=-1)[..., ::2], base[..., ::-1]]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for i, x in enumerate(inputs):
                for mode in ("mirror", "constant", "grid-wrap"):
                    expected, got = both("zoom", x, zoom, order=order, mode=mode, cval=-2.5)
                    assert_same(expected, got)
                    if i == 0 and mode == "mirror":
                        for threads in (2, 3):
                            assert_same(expected, rn.zoom(x, zoom, order=order, mode=mode,
                                                          cval=-2.5, threads=threads))
    finally:
        _exec.set_cpu_level(before)


CHANNELS_LAST = [((13, 21, 3), (0.5, 0.5, 1)), ((11, 19, 4), (1.7, 0.6, 1)),
                 ((9, 26, 2), (0.45, 1.3, 1)), ((4, 7, 9, 3), (1.5, 0.6, 2.0, 1))]


@pytest.mark.parametrize("shape, zoom", CHANNELS_LAST, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_channels_last_evaluation_reads_every_lane_at_every_cpu_level(shape, zoom, dtype):
    # images and volumes with a short last axis kept (the channels): eight output rows' taps
    # on the axis before it are read lane by lane (rx_load8_ps / rx_load8_pd, rx_load4_*),
    # from the source's own float32 or float64 elements where nothing is prefiltered
    # (prefilter=False at orders 2-5, order 1 with three weighted axes); rows of 8k + 1..7
    # outputs, cval lanes at the edges, the source reversed and strided, every CPU level
    from resamplex._engine import _exec

    rng = np.random.default_rng(sum(shape) * 7 + len(shape))
    base = (rng.standard_normal(shape) * 40).astype(dtype)
    inputs = [base, base[::-1, ::-1], np.repeat(base, 2, axis=-2)[..., ::2, :]]
    orders = [1] if len(shape) == 4 else [2, 3, 4, 5]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for x in inputs:
                for order in orders:
                    for mode in ("mirror", "constant"):
                        expected, got = both("zoom", x, zoom, order=order, mode=mode,
                                             cval=-2.5, prefilter=False)
                        assert_same(expected, got)
    finally:
        _exec.set_cpu_level(before)


def test_many_kept_axes_at_order_one():
    # up to 62 axes of length 1 kept beside one or two zoomed axes: read at their one tap, so
    # the scratch holds the products of the zoomed axes' taps only (2^40 combinations would
    # not fit); the values are SciPy's zoom of the array without those axes (their other
    # taps' products are +-0, docs/scipy.md), which SciPy itself cannot run at this rank
    rng = np.random.default_rng(12)
    line, image = rng.standard_normal(7), rng.standard_normal((5, 6))
    for nd in (20, 40, 62):
        got = rn.zoom(line.reshape((1,) * nd + (7,)), (1,) * nd + (2.3,), order=1)
        assert_same(sn.zoom(line, 2.3, order=1), got.reshape(-1))
        got = rn.zoom(image.reshape((1,) * nd + (5, 6)), (1,) * nd + (1.5, 0.7), order=1)
        assert_same(sn.zoom(image, (1.5, 0.7), order=1), got.reshape(8, 4))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_order_zero_float_rows_at_every_cpu_level(dtype):
    # order 0 into the input's float type: each output row straight into the output as
    # 0.0 + x (-0.0 comes out +0.0), cval where a tap or an output reads it, through windows
    # of the source row where it is contiguous (splines.row_windows), a row that reads the
    # same source row as the one before copied from it; rows of odd lengths around the
    # vector width, short and long, contiguous (ending at an unreadable page:
    # tests/guarded.py) and strided sources, 3 and 4 dimensions, cval rows and planes at the
    # edges, 1-3 threads, every CPU level
    from guarded import guarded

    from resamplex._engine import _exec

    rng = np.random.default_rng(11)
    values = rng.standard_normal((6, 11, 23)).astype(dtype)
    values.reshape(-1)[::5] = -0.0
    values.reshape(-1)[3::17] = np.inf
    x = guarded(values.shape, dtype)
    x[...] = values
    strided = np.repeat(x, 2, axis=2)[:, :, ::2]
    long = guarded((3, 5, 150), dtype)
    long[...] = rng.standard_normal(long.shape)
    calls = [(x, 2.0, "constant", True), (x, (1.5, 0.7, 2.6), "grid-constant", False),
             (x, (1, 1, 0.45), "mirror", False), (strided, 1.7, "nearest", False),
             (x[:, :, ::-1], (0.8, 1.9, 1.3), "wrap", True),
             (long, (1, 2.0, 1.3), "constant", False), (long, (2.5, 1, 0.31), "reflect", True),
             (long, (1, 1.6, 3.7), "grid-constant", True),
             (x.reshape(2, 3, 11, 23), (1.5, 2.4, 1.3, 2.0), "grid-constant", True),
             (x.reshape(3, 2, 11, 23)[:, :, ::-1], (2.0, 3.0, 1.0, 0.7), "constant", True)]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for i, (data, zoom, mode, grid_mode) in enumerate(calls):
                for cval, threads in ((-0.0, 1 + i % 3), (2.5, 2)):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        expected = sn.zoom(data, zoom, order=0, mode=mode, cval=cval,
                                           grid_mode=grid_mode)
                        got = rn.zoom(data, zoom, order=0, mode=mode, cval=cval,
                                      grid_mode=grid_mode, threads=threads)
                    assert_same(expected, got)
    finally:
        _exec.set_cpu_level(before)


INT_DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.bool_]


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_order_zero_integers_copy_elements(dtype):
    # order 0 of integers up to 32 bits (and bools) into their own type: the element SciPy
    # reads, copied by the engine's nearest gather (0.0 + v stored back is v); outputs that
    # read cval (mode constant outside, grid_mode) take the evaluation. Values over the whole
    # range of the type, 1-4 dimensions, every mode, strided, reversed and Fortran inputs,
    # an output array of the type (strided too), 1-3 threads
    rng = np.random.default_rng(21)
    info = np.iinfo(dtype) if np.dtype(dtype).kind != "b" else None

    def data(shape):
        if info is None:
            return rng.random(shape) > 0.5
        v = rng.integers(info.min, info.max, shape, endpoint=True, dtype=np.int64)
        v.reshape(-1)[:2] = (info.min, info.max)
        return v.astype(dtype)

    cube = data((9, 10, 11))
    calls = [(data((13,)), 2.6), (data((7, 12)), (1.7, 0.6)), (cube, 2.0),
             (cube[:, ::-1, ::2], (0.5, 1.4, 2.2)), (np.asfortranarray(cube), (1, 0.45, 3.0)),
             (data((4, 5, 6, 3)), (1.5, 0.5, 2.0, 1)), (data((20, 30, 3)), (0.5, 0.5, 1))]
    gathered = 0
    for i, (x, zoom) in enumerate(calls):
        for mode in MODES:
            for grid_mode in (False, True):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = sn.zoom(x, zoom, order=0, mode=mode, cval=7, grid_mode=grid_mode)
                    got = rn.zoom(x, zoom, order=0, mode=mode, cval=7, grid_mode=grid_mode,
                                  threads=1 + i % 3)
                    out = np.zeros(tuple(n * 2 for n in expected.shape), dtype)
                    view = out[tuple(slice(None, None, 2) for _ in expected.shape)]
                    same = rn.zoom(x, zoom, output=view, order=0, mode=mode, cval=7,
                                   grid_mode=grid_mode)
                assert_same(expected, got)
                assert same is view
                assert_same(expected, view)
                factors = rn.zoom_factors(x.shape, expected.shape, grid_mode)
                gathered += rn._gather_plan(x.shape, expected.shape, factors, mode,
                                            grid_mode) is not None
    assert gathered >= len(calls) * len(MODES) // 2   # most calls copy elements


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_order_zero_floats_copy_with_plus_zero(dtype):
    # order 0 of floats runs as a copy of elements that stores each as 0.0 + v (the gather's
    # plus_zero), which must give SciPy's 0.0 + v bit for bit: -0.0 comes out +0.0, a
    # signalling NaN quiet with its payload, quiet NaNs, infinities and subnormals as they
    # are; images with channels last and first, volumes, 2-D and 1-D arrays, down and up
    # (rows repeated), reversed, strided and byte-swapped inputs, strided and given outputs,
    # 1-2 threads
    bits = np.uint32 if dtype == np.float32 else np.uint64
    rng = np.random.default_rng(4)

    def specials(shape):
        x = rng.standard_normal(shape).astype(dtype)
        flat = x.reshape(-1).view(bits)
        flat[::7] = np.array(-0.0, dtype).view(bits)
        if dtype == np.float32:
            flat[1::11] = 0x7F800001       # signalling NaN, payload 1
            flat[2::13] = 0xFFC12345       # quiet NaN, sign and payload
        else:
            flat[1::11] = 0x7FF0000000000001
            flat[2::13] = 0xFFF8000000012345
        x.reshape(-1)[3::17] = np.inf
        x.reshape(-1)[4::19] = np.finfo(dtype).smallest_subnormal * 3
        return x

    x = specials((23, 31, 3))
    vol = specials((9, 10, 11))
    line = specials((37,))
    factors = rn.zoom_factors(x.shape, (12, 16, 3), False)
    assert rn._gather_plan(x.shape, (12, 16, 3), factors, "constant", False) is not None
    for data, zoom in ((x, (0.5, 0.5, 1)), (x, (1.7, 2.2, 1)),
                       (np.ascontiguousarray(x.transpose(2, 0, 1)), (1, 0.6, 1.4)),
                       (x[::-1, ::2], (1.3, 0.8, 1)), (vol, 2), (vol, (0.5, 1.5, 0.7)),
                       (vol.transpose(2, 0, 1), (2, 3, 1)), (x[..., 0], (2.5, 0.5)),
                       (line, 1.9), (line[::-2], 0.4),
                       (vol.astype(np.dtype(dtype).newbyteorder(">")), (2, 1, 0.5))):
        expected = sn.zoom(data, zoom, order=0)
        for threads in (1, 2):
            with warnings.catch_warnings():
                warnings.simplefilter("error")    # no warning where SciPy gives none
                got = rn.zoom(data, zoom, order=0, threads=threads)
            assert_same(expected, got)
        out = np.full(tuple(n * 2 for n in expected.shape), 7, dtype)
        view = out[(slice(None, None, 2),) * out.ndim]
        assert rn.zoom(data, zoom, output=view, order=0) is view
        assert_same(expected, view)


@pytest.mark.parametrize("order", [0, 1, 3])
def test_outputs_that_overlap(order):
    # an output whose elements overlap (a writeable zero-stride view: SciPy writes its
    # elements in turn, the last write stays) and one that shares memory with the input (the
    # input is read as it was before the call: the result of zooming a copy)
    from numpy.lib.stride_tricks import as_strided

    x = np.arange(12, dtype=np.uint8).reshape(3, 4) * 9
    bufs = []
    for zoom in (sn.zoom, rn.zoom):
        buf = np.zeros(64, np.uint8)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            zoom(x, 2, output=as_strided(buf, shape=(6, 8), strides=(0, 1)), order=order)
        bufs.append(buf)
    np.testing.assert_array_equal(bufs[1], bufs[0])
    big = np.zeros(64, np.uint8)
    big[:12] = x.reshape(-1)
    got = rn.zoom(big[:12].reshape(3, 4), 2, output=big[4:52].reshape(6, 8), order=order)
    assert_same(sn.zoom(x, 2, order=order), got)
    assert np.shares_memory(got, big)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64], ids=lambda d: np.dtype(d).name)
def test_order_zero_64_bit_integers_round_through_float64(dtype):
    # SciPy's order 0 passes every element through float64: 64-bit values beyond 2^53 come
    # out rounded, so they cannot be copied as elements. (Values that round to 2^63 or 2^64
    # are left out: SciPy's C cast of them overflows, which each CPU resolves its own way.)
    info = np.iinfo(dtype)
    x = np.array([2**53 + 1, 2**60 + 3, 2**62 + 2**9 + 1, 12345, info.min + 7, 0,
                  2**63 - 2**11 if dtype == np.int64 else 2**64 - 2**12 - 1], dtype=dtype)
    expected, got = both("zoom", x, 2.0, order=0)
    assert not np.array_equal(expected[::2], x)   # the case this test is about
    assert_same(expected, got)


def test_grid_mode_warns_for_constant_and_wrap():
    x = np.arange(6.0)
    for mode, suggestion in (("constant", "grid-constant"), ("wrap", "grid-wrap")):
        with pytest.warns(UserWarning, match=suggestion):
            rn.zoom(x, 2, mode=mode, grid_mode=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rn.zoom(x, 2, mode="grid-constant", grid_mode=True)


def test_docstring_examples_of_scipy():
    # scipy.ndimage.zoom's example: ascent (512, 512) x3 -> (1536, 1536); a smaller image here
    x = np.arange(64 * 64, dtype=np.float64).reshape(64, 64) % 251
    e, g = both("zoom", x, 3.0)
    assert g.shape == (192, 192)
    assert_same(e, g)
    # the grid_mode illustration: length 5 counts as 4 (centres) or 5 (edges)
    a = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    assert_same(*both("zoom", a, 2, order=1))
    assert_same(*both("zoom", a, 2, order=1, grid_mode=True, mode="grid-constant"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filter_and_filter1d(mode, order):
    rng = np.random.default_rng(order)
    x = rng.standard_normal((5, 7, 3))
    assert_same(*both("spline_filter", x, order, mode=mode))
    for axis in (0, 1, -1):
        assert_same(*both("spline_filter1d", x, order, axis=axis, mode=mode))
    xi = (x * 50).astype(np.int16)
    for out in (np.float32, np.int16, np.uint8):
        assert_same(*both("spline_filter", xi, order, output=out, mode=mode))
        assert_same(*both("spline_filter1d", xi, order, 0, out, mode))


@pytest.mark.parametrize("shape", [(13, 21, 3), (6, 5, 17), (19, 2), (3, 4, 9, 2), (11,)],
                         ids=str)
def test_prefilter_lines_in_groups_at_every_cpu_level(shape):
    # the prefilter takes sixteen lines at a time: neighbours along the innermost axis, the
    # axes after the filtered one merged where contiguous (an image's columns and channels),
    # or sixteen lines in turn from their own offsets (the innermost axis filtered, or one of
    # fewer than sixteen elements); line counts that leave a partial last group, C, Fortran,
    # strided and reversed inputs, float and integer inputs and outputs, one axis or all,
    # the zoom that filters into its scratch first, 1-3 threads, every CPU level
    from resamplex._engine import _exec

    rng = np.random.default_rng(sum(shape) * 7 + len(shape))
    base = rng.standard_normal(shape) * 30
    inputs = [base, base.astype(np.float32), np.asfortranarray(base),
              np.repeat(base, 2, axis=-1)[..., ::2], base[::-1], (base * 3).astype(np.int16)]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for i, x in enumerate(inputs):
                mode = MODES[(i + len(shape)) % len(MODES)]
                for out in (None, np.float32, np.uint8):
                    assert_same(*both("spline_filter", x, 3, output=out or np.float64,
                                      mode=mode))
                for axis in range(x.ndim):
                    assert_same(*both("spline_filter1d", x, 5, axis=axis, mode=mode))
                zoom = [1.5] * x.ndim
                expected, got = both("zoom", x, zoom, order=3, mode=mode)
                assert_same(expected, got)
                for threads in (2, 3):
                    assert_same(expected, rn.zoom(x, zoom, order=3, mode=mode, threads=threads))
    finally:
        _exec.set_cpu_level(before)


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_prefilter_lines_near_underflow_at_every_cpu_level(order):
    # lines whose pole powers z^(n-1) or z^n are subnormal (the mirror and reflect initial
    # values; at order 3, 538-566 elements) and longer ones whose z^i pass through the
    # subnormals (every mode's sums), with values that make the scaled products normal,
    # subnormal beside a larger element (left out: cannot change the sum) and subnormal
    # beside a tiny one (taken directly), zeros of both signs, infinities and NaN in some
    # lines; both axes, every mode, every CPU level
    from resamplex._engine import _exec
    from resamplex._engine.compile.splines import POLES

    lengths = set()
    for z in POLES[order]:
        lo = np.log(np.finfo(np.float64).tiny) / np.log(abs(z))
        hi = np.log(np.finfo(np.float64).smallest_subnormal) / np.log(abs(z))
        first, last = int(np.ceil(lo)) + 1, int(np.floor(hi)) + 1   # n - 1 in [lo, hi]
        lengths |= {first, (first + last) // 2, last + 1, last + 40}
    rng = np.random.default_rng(order)
    before = _exec.cpu_level()
    try:
        for n in sorted(lengths):
            x = rng.standard_normal((n, 37)) * 50
            x[:, 1] = 0.0
            x[::3, 2] = -0.0
            x[:, 3] = rng.standard_normal(n) * 1e-300      # tiny b and a: direct products
            x[::2, 4] = 5e-324
            x[n // 2, 5] = np.inf
            x[n // 3, 6] = np.nan
            x[:, 7] = rng.standard_normal(n) * 1e-3
            # lines where only the products with a subnormal power make the initial value:
            # zeros but for the last element (z^(n-1) x[n-1]) or for elements 540-559 (z^i
            # x[i] at order 3), large (products scaled back) or small (subnormal products,
            # taken directly beside a zero sum)
            x[:, 8:12] = 0.0
            x[-1, 8], x[-1, 9] = 1e10, 0.5
            x[540:560, 10], x[540:560, 11] = 1e10, 0.5
            for level in _exec.cpu_levels():
                _exec.set_cpu_level(level)
                for mode in MODES:
                    assert_same(*both("spline_filter1d", x, order, axis=0, mode=mode))
                assert_same(*both("spline_filter1d", x.T.copy(), order, axis=1,
                                  mode="mirror"))
    finally:
        _exec.set_cpu_level(before)


def test_spline_filter_orders_below_two():
    x = np.arange(12.0).reshape(3, 4)
    assert_same(*both("spline_filter1d", x, 0))
    assert_same(*both("spline_filter1d", x.astype(np.float32), 1, output=np.float32))
    with pytest.raises(RuntimeError):
        sn.spline_filter(x, 1)
    with pytest.raises(RuntimeError, match="order"):
        rn.spline_filter(x, 1)


def test_results_do_not_depend_on_threads():
    x = np.random.default_rng(6).standard_normal((33, 40, 9)).astype(np.float32)
    one = rn.zoom(x, 1.7, order=3, threads=1)
    two = rn.zoom(x, 1.7, order=3, threads=2)
    assert_same(one, two)


# ------------------------------------------------------------------------------ errors

def test_errors_have_scipys_types():
    x = np.zeros((3, 4))
    cases = [
        (dict(order=6), RuntimeError, "order"),
        (dict(order=-1), RuntimeError, "order"),
        (dict(order=1.5), RuntimeError, "order"),
        (dict(mode="foo"), RuntimeError, "mode"),
        (dict(zoom=[2, 2, 2]), RuntimeError, "zoom"),
        (dict(output=np.zeros((5, 5))), RuntimeError, "output"),
        (dict(output=object), RuntimeError, "output"),
        (dict(zoom=-1), ValueError, "zoom"),
        (dict(zoom=np.nan), ValueError, "zoom"),
        (dict(zoom=np.inf), OverflowError, "zoom"),
    ]
    for kwargs, error, name in cases:
        args = dict(zoom=2)
        args.update(kwargs)
        zoom = args.pop("zoom")
        with pytest.raises(error):
            sn.zoom(x, zoom, **args)
        with pytest.raises(error, match=name) as info:
            rn.zoom(x, zoom, **args)
        assert isinstance(info.value, ResamplexError)
    with pytest.raises(RuntimeError, match="rank"):
        rn.zoom(np.float64(3.0), 2)
    for dtype in (np.float16, object):
        with pytest.raises(RuntimeError):
            sn.zoom(np.zeros(3, dtype), 2)
        with pytest.raises(UnsupportedError):
            rn.zoom(np.zeros(3, dtype), 2)
    with pytest.raises(np.exceptions.AxisError):
        rn.spline_filter1d(x, 3, axis=2)


def test_every_cpu_level_gives_scipys_bits():
    from resamplex._engine import _exec

    rng = np.random.default_rng(7)
    x = rng.standard_normal((6, 9, 5)).astype(np.float32)
    # (1.8, 1.8, 1): the last axis kept, read at one tap, the products in vectors (lane loads)
    calls = [(x, 1.8, 1), (x, 1.8, 3), (x, (1.8, 1.8, 1), 1), (x.astype(np.float64),
                                                            (0.6, 1.8, 1), 1)]
    expected = [sn.zoom(a, z, order=order, mode="mirror") for a, z, order in calls]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for (a, z, order), e in zip(calls, expected):
                assert_same(e, rn.zoom(a, z, order=order, mode="mirror"))
    finally:
        _exec.set_cpu_level(before)


def test_the_same_call_from_several_python_threads():
    from concurrent.futures import ThreadPoolExecutor

    x = np.random.default_rng(8).standard_normal((20, 30)).astype(np.float32)
    expected = sn.zoom(x, 1.7, order=3, mode="nearest")
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: rn.zoom(x, 1.7, order=3, mode="nearest"), range(16)))
    for got in results:
        assert_same(expected, got)
