"""Checks of the test reference itself (tests/reference.py), independent of resamplex.

Two kinds of evidence that the reference implements SPEC §2/§3 and not something else:

- SciPy: ``ndimage.zoom(..., grid_mode=True, mode="nearest")`` maps output ``o`` to
  ``(o + 0.5) * n_in/n_out - 0.5`` (half-pixel, ``n_in/n_out`` taken from the shapes) with edge
  replication, so ``order=1`` is our ``half_pixel`` linear with size only. ``order=0`` picks
  ``floor(c + 0.5)`` of that coordinate, i.e. ``floor((o + 0.5) * n_in/n_out)``: our
  ``half_pixel`` + ``round_prefer_ceil``, which is the same map as ``tf_half_pixel_for_nn`` +
  ``floor``. SciPy computes in float64 and so may fall on either side where the exact
  coordinate is a tie (e.g. 2 -> 49, o = 24: ``24.5 * 2/49 = 1`` exactly, SciPy gives 0);
  those positions are excluded from the order-0 comparison (the exact rule is pinned by the
  golden cases below instead).
- Golden cases worked out by hand (the derivations are in the comments).
"""

from fractions import Fraction
import warnings

import numpy as np
import pytest

import reference as ref

scipy_ndimage = pytest.importorskip("scipy.ndimage")


def _zoom(x, zooms, order):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # grid_mode with mode="nearest" warns
        return scipy_ndimage.zoom(x, zooms, order=order, mode="nearest", grid_mode=True)


def _zoom_factors(shape, out_shape):
    z = [o / i for i, o in zip(shape, out_shape)]
    assert all(round(i * zz) == o for i, zz, o in zip(shape, z, out_shape))
    return z


# --------------------------------------------------------------------------------------------
# SciPy cross-checks
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n_in", [1, 2, 3, 5, 8, 13])
def test_linear_1d_matches_scipy(n_in):
    rng = np.random.default_rng(n_in)
    x = rng.standard_normal(n_in)
    for n_out in range(1, 3 * n_in + 4):
        got = ref.reference_resize(x, [n_out])
        want = _zoom(x, _zoom_factors(x.shape, (n_out,)), order=1)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * np.abs(x).max())


@pytest.mark.parametrize("shape,out_shape", [
    ((4, 5), (7, 3)),
    ((3, 6), (3, 11)),
    ((2, 3, 4), (5, 2, 9)),
    ((5, 1, 4, 3), (2, 3, 4, 7)),
])
def test_linear_nd_matches_scipy(shape, out_shape):
    rng = np.random.default_rng(len(shape))
    x = rng.standard_normal(shape)
    got = ref.reference_resize(x, out_shape)
    want = _zoom(x, _zoom_factors(shape, out_shape), order=1)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * np.abs(x).max())


def _is_exact_tie(n_in, n_out, o):
    # round_prefer_ceil on half_pixel: floor(u + 1/2), u + 1/2 = (o + 1/2) * n_in / n_out.
    return ((2 * o + 1) * n_in) % (2 * n_out) == 0


@pytest.mark.parametrize("n_in", [1, 2, 3, 4, 6, 7, 10, 16])
def test_nearest_1d_matches_scipy_order0(n_in):
    x = np.arange(n_in)
    for n_out in range(1, 4 * n_in + 3):
        want = _zoom(x, _zoom_factors(x.shape, (n_out,)), order=0)
        for transform, nearest_mode in [("half_pixel", "round_prefer_ceil"),
                                        ("tf_half_pixel_for_nn", "floor")]:
            got = ref.reference_resize(x, [n_out], mode="nearest",
                                       coordinate_transform=transform,
                                       nearest_mode=nearest_mode)
            keep = np.array([not _is_exact_tie(n_in, n_out, o) for o in range(n_out)])
            np.testing.assert_array_equal(got[keep], want[keep],
                                          err_msg=f"{n_in}->{n_out} {transform}")


def test_nearest_nd_matches_scipy_order0():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 1000, size=(3, 5, 4))
    out_shape = (7, 2, 8)     # no exact ties: (2o+1)*n_in never a multiple of 2*n_out
    assert not any(_is_exact_tie(i, n, o) for i, n in zip(x.shape, out_shape)
                   for o in range(n))
    got = ref.reference_resize(x, out_shape, mode="nearest")
    want = _zoom(x, _zoom_factors(x.shape, out_shape), order=0)
    np.testing.assert_array_equal(got, want)


# --------------------------------------------------------------------------------------------
# Coordinates, nearest rules, taps: hand-worked
# --------------------------------------------------------------------------------------------

def test_source_coordinate_table():
    F = Fraction
    # 4 -> 2 with size only: r = 2.
    assert ref.source_coordinate(0, 4, 2, None, "half_pixel") == F(1, 2)        # 0.5*2-0.5
    assert ref.source_coordinate(1, 4, 2, None, "half_pixel") == F(5, 2)        # 1.5*2-0.5
    assert ref.source_coordinate(1, 4, 2, None, "asymmetric") == 2              # 1*2
    assert ref.source_coordinate(1, 4, 2, None, "tf_half_pixel_for_nn") == 3    # 1.5*2
    assert ref.source_coordinate(1, 4, 2, None, "align_corners") == 3           # 1*(3/1)
    # size only: half_pixel_symmetric == half_pixel (n_out * r / n_in = 1).
    assert ref.source_coordinate(1, 4, 2, None, "half_pixel_symmetric") == F(5, 2)
    # n_out == 1: pytorch_half_pixel and align_corners give 0, half_pixel the centre.
    assert ref.source_coordinate(0, 4, 1, None, "pytorch_half_pixel") == 0
    assert ref.source_coordinate(0, 4, 1, None, "align_corners") == 0
    assert ref.source_coordinate(0, 4, 1, None, "half_pixel") == F(3, 2)        # 0.5*4-0.5
    # a scale drives the map: scale 0.5 -> r = 2 even though n_out = 3.
    assert ref.source_coordinate(2, 4, 3, 0.5, "asymmetric") == 4
    assert ref.source_coordinate(2, 4, 3, 0.5, "half_pixel") == F(9, 2)         # 2.5*2-0.5
    # align_corners ignores the scale.
    assert ref.source_coordinate(2, 4, 3, 0.5, "align_corners") == 3            # 2*3/2
    # half_pixel_symmetric, ONNX Resize-19 downsample case: n_in 4, scale 0.6, n_out 2:
    # r = 5/3, offset = 2 * (1 - 2*(5/3)/4) = 1/3, u(0) = 1/3 + 5/6 - 1/2 = 2/3.
    # (0.6 is not exactly 3/5 in binary; the exact value of the float is used.)
    u0 = ref.source_coordinate(0, 4, 2, 0.6, "half_pixel_symmetric")
    assert abs(u0 - F(2, 3)) < F(1, 10**15)


@pytest.mark.parametrize("n_in,n_out,expected", [
    # u(o) = (o + 1/2) * n_in/n_out - 1/2          ceil   floor  f    c
    # 5->3: u = 1/3, 2, 11/3
    (5, 3, {"round_prefer_ceil": [0, 2, 4], "round_prefer_floor": [0, 2, 4],
            "floor": [0, 2, 3], "ceil": [1, 2, 4]}),
    # 10->3: u = 7/6, 9/2 (a tie), 47/6
    (10, 3, {"round_prefer_ceil": [1, 5, 8], "round_prefer_floor": [1, 4, 8],
             "floor": [1, 4, 7], "ceil": [2, 5, 8]}),
    # 8->6: u = (8o+1)/6 = 1/6, 3/2, 17/6, 25/6, 11/2, 41/6 (ties at o = 1 and 4)
    (8, 6, {"round_prefer_ceil": [0, 2, 3, 4, 6, 7], "round_prefer_floor": [0, 1, 3, 4, 5, 7],
            "floor": [0, 1, 2, 4, 5, 6], "ceil": [1, 2, 3, 5, 6, 7]}),
    # 6->3: u = 2o + 1/2 = 1/2, 5/2, 9/2 (all ties)
    (6, 3, {"round_prefer_ceil": [1, 3, 5], "round_prefer_floor": [0, 2, 4],
            "floor": [0, 2, 4], "ceil": [1, 3, 5]}),
])
def test_nearest_golden_half_pixel(n_in, n_out, expected):
    # The research table (anchors.md §1b): ONNX half_pixel + round_prefer_floor gives
    # 0 2 4 / 1 4 8 / 0 1 3 4 5 7 / 0 2 4; floor((o+.5)*s) gives 0 2 4 / 1 5 8 / 0 2 3 4 6 7 /
    # 1 3 5 (= round_prefer_ceil).
    x = np.arange(n_in)
    for nearest_mode, idx in expected.items():
        got = ref.reference_resize(x, [n_out], mode="nearest", nearest_mode=nearest_mode)
        assert got.tolist() == idx, nearest_mode


def test_nearest_golden_other_transforms():
    x = np.arange(10)
    # asymmetric floor, 10->3: u = 0, 10/3, 20/3 -> 0 3 6 (torch "nearest", anchors §1b)
    got = ref.reference_resize(x, [3], mode="nearest", coordinate_transform="asymmetric",
                               nearest_mode="floor")
    assert got.tolist() == [0, 3, 6]
    # align_corners, 3->5: u = 0, 1/2, 1, 3/2, 2
    y = np.arange(3)
    got = ref.reference_resize(y, [5], mode="nearest", coordinate_transform="align_corners",
                               nearest_mode="round_prefer_ceil")
    assert got.tolist() == [0, 1, 1, 2, 2]
    got = ref.reference_resize(y, [5], mode="nearest", coordinate_transform="align_corners",
                               nearest_mode="round_prefer_floor")
    assert got.tolist() == [0, 0, 1, 1, 2]
    # tf_half_pixel_for_nn 4->8 round_prefer_ceil: u = (o+.5)/2 = .25,.75,...,3.75 -> floor(u+.5)
    # = 0 1 1 2 2 3 3 4->clamped 3
    got = ref.reference_resize(np.arange(4), [8], mode="nearest",
                               coordinate_transform="tf_half_pixel_for_nn")
    assert got.tolist() == [0, 1, 1, 2, 2, 3, 3, 3]
    # pytorch_half_pixel, 4->1: u = 0 -> element 0 (half_pixel would give u = 3/2 -> 2)
    got = ref.reference_resize(np.arange(4), [1], mode="nearest",
                               coordinate_transform="pytorch_half_pixel")
    assert got.tolist() == [0]
    got = ref.reference_resize(np.arange(4), [1], mode="nearest",
                               coordinate_transform="half_pixel")
    assert got.tolist() == [2]


def test_linear_taps_hand():
    # u = -1/4: i0 = -1, f = 3/4: clamp(-1) = 0 with 1/4 and 0 with 3/4 -> merged (0, 1)
    assert ref.linear_taps(Fraction(-1, 4), 2) == [(0, 1.0)]
    # u = 1/4: (0, 3/4), (1, 1/4)
    assert ref.linear_taps(Fraction(1, 4), 2) == [(0, 0.75), (1, 0.25)]
    # u exactly on a sample: one tap
    assert ref.linear_taps(Fraction(1), 3) == [(1, 1.0)]
    # beyond the high end: everything clamps onto n_in - 1
    assert ref.linear_taps(Fraction(9, 2), 3) == [(2, 1.0)]
    # length-1 axis
    assert ref.linear_taps(Fraction(7, 3), 1) == [(0, 1.0)]


def test_linear_golden():
    # [0, 10] -> 4, half_pixel, r = 1/2: u = -1/4, 1/4, 3/4, 5/4
    #   -> 0, 0*3/4 + 10/4 = 2.5, 0/4 + 10*3/4 = 7.5, 10 (clamped)
    got = ref.reference_resize(np.array([0.0, 10.0]), [4])
    assert got.tolist() == [0.0, 2.5, 7.5, 10.0]
    # align_corners [0, 10, 20] -> 5: u = o/2 -> 0, 5, 10, 15, 20
    got = ref.reference_resize(np.array([0.0, 10.0, 20.0]), [5],
                               coordinate_transform="align_corners")
    assert got.tolist() == [0.0, 5.0, 10.0, 15.0, 20.0]
    # asymmetric [0, 8] -> 4: u = o/2 -> 0, 4, 8, 8 (clamped)
    got = ref.reference_resize(np.array([0.0, 8.0]), [4], coordinate_transform="asymmetric")
    assert got.tolist() == [0.0, 4.0, 8.0, 8.0]
    # 2-D [[0, 10], [20, 30]] -> 1x1, half_pixel: u = 1/2 on both axes -> mean = 15
    got = ref.reference_resize(np.array([[0.0, 10.0], [20.0, 30.0]]), [1, 1])
    assert got.tolist() == [[15.0]]


def test_linear_golden_half_pixel_symmetric_onnx():
    # ONNX Resize-19 test_resize_downsample_scales_linear_half_pixel_symmetric:
    # [1, 2, 3, 4], scale 0.6 -> 2 samples; u = 2/3, 7/3 (see test_source_coordinate_table)
    #   -> 1 + 2/3, 3 + 1/3
    got = ref.reference_resize(np.array([1.0, 2.0, 3.0, 4.0]), scale=[0.6],
                               coordinate_transform="half_pixel_symmetric")
    np.testing.assert_allclose(got, [5 / 3, 10 / 3], rtol=1e-14)
    # test_resize_upsample_scales_linear_half_pixel_symmetric: [[1,2],[3,4]], scales 2.3, 2.94
    # -> 4 x 5. Rows: offset = 1 - 4/4.6, u(1) = offset + 1.5/2.3 - 0.5 = 0.282609 -> 1.565217.
    # Columns: offset = 1 - 5/5.88, u(1) = offset + 1.5/2.94 - 0.5 = 0.159864 -> 1.159864.
    got = ref.reference_resize(np.array([[1.0, 2.0], [3.0, 4.0]]), scale=[2.3, 2.94],
                               coordinate_transform="half_pixel_symmetric")
    want = [[1.0, 1.15986395, 1.5, 1.84013605, 2.0],
            [1.56521738, 1.72508133, 2.06521738, 2.40535343, 2.56521738],
            [2.43478262, 2.59464657, 2.93478262, 3.27491867, 3.43478262],
            [3.0, 3.15986395, 3.5, 3.84013605, 4.0]]
    np.testing.assert_allclose(got, want, rtol=2e-8)


def test_output_length():
    assert ref.reference_shape((5, 7), size=[3, 9]) == (3, 9)
    assert ref.reference_shape((5, 7), scale=[0.5, 1.5]) == (2, 10)     # floor 2.5, 10.5
    assert ref.reference_shape((2, 5, 7), size=4, axes=[-1]) == (2, 5, 4)
    assert ref.reference_shape((0, 5), size=[0, 3]) == (0, 3)


# --------------------------------------------------------------------------------------------
# Rounding and the accuracy contract
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rounding,x,n_out,expected", [
    # u8 [10, 11] -> 4 half_pixel: exact 10, 10.25, 10.75, 11 (anchors §1b)
    ("half_even", [10, 11], 4, [10, 10, 11, 11]),
    ("half_away_from_zero", [10, 11], 4, [10, 10, 11, 11]),
    ("toward_zero", [10, 11], 4, [10, 10, 10, 11]),
    # u8 [10, 11, 12, 13] -> 2: u = 1/2, 5/2 -> exact 10.5, 12.5
    ("half_even", [10, 11, 12, 13], 2, [10, 12]),
    ("half_away_from_zero", [10, 11, 12, 13], 2, [11, 13]),
    ("toward_zero", [10, 11, 12, 13], 2, [10, 12]),
])
def test_integer_rounding_golden_uint8(rounding, x, n_out, expected):
    v = ref.reference_resize(np.array(x, np.uint8), [n_out])
    assert ref.expected_integer(v, np.uint8, rounding).tolist() == expected


@pytest.mark.parametrize("rounding,expected4,expected2", [
    # i8 [-10, -11] -> 4: -10, -10.25, -10.75, -11; [-10, -11, -12, -13] -> 2: -10.5, -12.5
    ("half_even", [-10, -10, -11, -11], [-10, -12]),
    ("half_away_from_zero", [-10, -10, -11, -11], [-11, -13]),
    ("toward_zero", [-10, -10, -10, -11], [-10, -12]),
])
def test_integer_rounding_golden_int8(rounding, expected4, expected2):
    v = ref.reference_resize(np.array([-10, -11], np.int8), [4])
    assert ref.expected_integer(v, np.int8, rounding).tolist() == expected4
    v = ref.reference_resize(np.array([-10, -11, -12, -13], np.int8), [2])
    assert ref.expected_integer(v, np.int8, rounding).tolist() == expected2


def test_expected_integer_saturates():
    v = np.array([-300.0, 300.0, 255.5, -0.5, 127.5, -128.6])
    assert ref.expected_integer(v, np.uint8, "half_even").tolist() == [0, 255, 255, 0, 128, 0]
    assert ref.expected_integer(v, np.int8, "half_away_from_zero").tolist() == \
        [-128, 127, 127, -1, 127, -128]
    assert ref.expected_integer(v, np.int8, "toward_zero").tolist() == \
        [-128, 127, 127, 0, 127, -128]


def test_near_rounding_boundary():
    v = np.array([2.5, 2.5 + 1 / 512, 2.5 + 1 / 128, 3.0, 3.0 - 1 / 1024, -0.001, 0.001])
    assert ref.near_rounding_boundary(v, "half_even").tolist() == \
        [True, True, False, False, False, False, False]
    # toward_zero's boundaries are the non-zero integers
    assert ref.near_rounding_boundary(v, "toward_zero").tolist() == \
        [False, False, False, True, True, False, False]


def test_round_to_16bit():
    import ml_dtypes
    bf16 = np.dtype(ml_dtypes.bfloat16)
    # float16 around 1: ulp 2^-10. 1 + 2^-11 is a tie -> even (1.0); 1 + 3*2^-11 -> 1 + 2^-9.
    v = np.array([1 + 2.0**-11, 1 + 3 * 2.0**-11, 65519.0, 65520.0, -65520.0, 2.0**-25])
    got = ref.round_to_16bit(v, np.float16).view(np.float16).astype(np.float64)
    assert got.tolist() == [1.0, 1 + 2.0**-9, 65504.0, np.inf, -np.inf, 0.0]
    # bfloat16: ulp at 1 is 2^-7; 1 + 2^-8 ties to 1.0, 1 + 2^-8 + 2^-20 rounds up.
    v = np.array([1 + 2.0**-8, 1 + 2.0**-8 + 2.0**-20, 3.3895313892515355e38 + 2.0**119])
    got = ref.round_to_16bit(v, bf16).view(bf16).astype(np.float64)
    assert got.tolist() == [1.0, 1 + 2.0**-7, np.inf]


def test_assert_matches_can_fail():
    import ml_dtypes
    r = np.array([1.0, 2.0, 3.0])
    ref.assert_matches(r.copy(), r, np.float64, "linear")
    with pytest.raises(AssertionError):
        ref.assert_matches(r + 1e-9, r, np.float64, "linear")
    ref.assert_matches((r + 4e-7).astype(np.float32), r, np.float32, "linear", xmax=3.0)
    with pytest.raises(AssertionError):
        ref.assert_matches((r + 3e-6).astype(np.float32), r, np.float32, "linear", xmax=3.0)
    # float16 neighbour accepted, two steps not (ulp at 2 is 2^-9)
    ref.assert_matches(np.array([1.0, 2.0 + 2**-9, 3.0], np.float16), r, np.float16, "linear")
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([1.0, 2.0 + 2**-8, 3.0], np.float16), r, np.float16,
                           "linear")
    bf = np.dtype(ml_dtypes.bfloat16)
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([1.0, 2.0, 3.05], bf), r, bf, "linear")
    # integers: within 1/256 of a boundary (10.5 itself included) either side is accepted;
    # elsewhere only saturate(rounding(v))
    v = np.array([10.5, 10.5 + 1 / 512, 10.25, 10.75 + 1 / 128])
    ref.assert_matches(np.array([11, 10, 10, 11], np.uint8), v, np.uint8, "linear")
    ref.assert_matches(np.array([10, 11, 10, 11], np.uint8), v, np.uint8, "linear")
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([10, 10, 11, 11], np.uint8), v, np.uint8, "linear")
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([10, 10, 10, 10], np.uint8), v, np.uint8, "linear")
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([10, 10, 10, 11], np.uint8), v, np.uint8, "linear",
                           rounding="toward_zero")
    # nearest is bit-exact: -0.0 is not 0.0
    z = np.array([0.0])
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([-0.0]), z, np.float64, "nearest")
    # NaN must stay NaN, and not appear from nowhere
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([np.nan]), z, np.float64, "linear")
    with pytest.raises(AssertionError):
        ref.assert_matches(np.array([0.0]), np.array([np.nan]), np.float32, "linear")
    # dtype and shape are checked
    with pytest.raises(AssertionError):
        ref.assert_matches(r.astype(np.float32), r, np.float64, "linear")
    with pytest.raises(AssertionError):
        ref.assert_matches(r[:2], r, np.float64, "linear")


def test_dense_operator_matches_reference():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4))
    for mode in ("nearest", "linear"):
        a = ref.dense_operator(x.shape, size=[5, 2], mode=mode)
        want = ref.reference_resize(x, [5, 2], mode=mode).astype(np.float64)
        np.testing.assert_allclose((a @ x.ravel()).reshape(5, 2), want, rtol=0, atol=1e-14)
