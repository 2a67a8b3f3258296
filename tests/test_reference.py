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
- Golden cases worked out by hand (the derivations are in the comments), for every mode.
- The filters against their owners: Pillow (bilinear, Hamming, bicubic a = -1/2, Lanczos 3,
  box; Pillow's own edge rule), ``onnx.reference`` (antialias with clamped and excluded
  edges). torch (bicubic, antialias) and OpenCV (``INTER_AREA``) are compared with both the
  reference and the library in test_modes.py.
"""

from fractions import Fraction
import math
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


# --------------------------------------------------------------------------------------------
# Filters, cubic, antialias, area: hand-worked (the same values are asserted on the library in
# test_modes.py)
# --------------------------------------------------------------------------------------------

X4 = np.array([1.0, 2.0, 4.0, 8.0])


def test_keys_weights_hand():
    F = Fraction
    w = ref.keys_weight(-0.75)
    # distances 5/4, 1/4, 3/4, 7/4 (t = 1/4): -27/256, 225/256, 67/256, -9/256 (sum 1)
    assert [w(F(5, 4)), w(F(1, 4)), w(F(3, 4)), w(F(7, 4))] == \
        [F(-27, 256), F(225, 256), F(67, 256), F(-9, 256)]
    w = ref.keys_weight(-0.5)
    assert [w(F(5, 4)), w(F(1, 4)), w(F(3, 4)), w(F(7, 4))] == \
        [F(-18, 256), F(222, 256), F(58, 256), F(-6, 256)]
    # the kernel is 1, 0, 0 at 0, 1, 2 for every a, and symmetric
    for a in (-0.75, -0.5, -2.0, 0.0):
        w = ref.keys_weight(a)
        assert (w(0), w(1), w(2), w(F(5, 2))) == (1, 0, 0, 0)
        assert w(F(-3, 7)) == w(F(3, 7))


def test_cubic_golden():
    # 4 -> 8 half_pixel: u(o) = o/2 - 1/4 (derivations in test_modes.test_cubic_hand_worked)
    got = ref.reference_resize(X4, [8], mode="cubic")
    assert got[3] == 619 / 256 and got[0] == 229 / 256
    assert ref.reference_resize(X4, [8], mode="cubic", cubic_a=-0.5)[3] == 610 / 256
    got = ref.reference_resize(X4, [8], mode="cubic", exclude_outside=True)
    assert got[0] == pytest.approx(19 / 22, rel=1e-15)
    # on the samples (align_corners 4 -> 7: u = o/2, even o on samples) cubic reads one tap
    table = ref.axis_table(4, 7, None, "align_corners", "cubic")
    assert [table[o] for o in (0, 2, 4, 6)] == [((0, 1.0),), ((1, 1.0),), ((2, 1.0),),
                                                ((3, 1.0),)]


def test_area_golden():
    np.testing.assert_allclose(ref.reference_resize(X4, [3], mode="area"), [1.25, 3.0, 7.0],
                               rtol=1e-15)
    np.testing.assert_allclose(ref.reference_resize(X4, [2], [0.25], mode="area"), [3.75, 8.0],
                               rtol=1e-15)
    # 3 -> 2 (r = 3/2): [0, 3/2) -> (1 + 1/2 * 2) / (3/2); [3/2, 3) -> (1/2 * 2 + 4) / (3/2)
    assert ref.area_taps(0, 3, 2) == [(0, 2 / 3), (1, 1 / 3)]
    assert ref.area_taps(1, 3, 2) == [(1, 1 / 3), (2, 2 / 3)]
    # growing: 2 -> 4 (r = 1/2): each output inside one input pixel
    assert [ref.area_taps(o, 2, 4) for o in range(4)] == [[(0, 1.0)]] * 2 + [[(1, 1.0)]] * 2


def test_antialias_golden():
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0, 32.0])
    np.testing.assert_allclose(ref.reference_resize(x, [2], antialias=True), [25 / 9, 164 / 9],
                               rtol=1e-15)
    np.testing.assert_allclose(ref.reference_resize(x, [2], antialias=True,
                                                    exclude_outside=True), [3.0, 16.5],
                               rtol=1e-15)
    # upsampling: the plain filter
    for mode in ("linear", "cubic"):
        assert ref.axis_table(4, 7, None, "half_pixel", mode, antialias=True) == \
            ref.axis_table(4, 7, None, "half_pixel", mode)
    # a window wholly outside the input, exclude_outside: the nearest edge sample
    assert ref.filter_taps(Fraction(-9), 4, ref.make_filter("cubic"), 2, True) == [(0, 1.0)]
    assert ref.filter_taps(Fraction(20), 4, ref.make_filter("linear"), 3, True) == [(3, 1.0)]


def test_filter_taps_triangle_is_linear_taps():
    tri = ref.make_filter("linear")
    for n_in in (1, 2, 5):
        for k in range(-12, 6 * n_in + 12):
            u = Fraction(k, 6)
            assert ref.filter_taps(u, n_in, tri) == ref.linear_taps(u, n_in), (n_in, u)


def test_filter_taps_sum_to_one_and_are_exact():
    for name in ref.FILTER_NAMES:
        filt = ref.make_filter(name)
        for stretch in (1, Fraction(7, 3)):
            for excl in (False, True):
                for k in range(-5, 30):
                    taps = ref.filter_taps(Fraction(k, 5), 5, filt, stretch, excl)
                    assert abs(sum(w for _, w in taps) - 1) < 1e-15, (name, stretch, excl, k)
                    assert all(0 <= i < 5 for i, _ in taps)
    # an integer coordinate reads one sample for every interpolating filter
    for name in ("linear", "cubic", "lanczos", "bicubic", "hamming", "box"):
        assert ref.filter_taps(Fraction(2), 5, ref.make_filter(name)) == [(2, 1.0)], name


def test_is_fragile_accounts_for_clamping():
    # u a hair above the half-integer 5/2: a float64 near-tie between indices 2 and 3
    u = Fraction(5, 2) + Fraction(1, 10**12)
    assert ref.is_fragile(u, "round_prefer_ceil")
    assert ref.is_fragile(u, "round_prefer_ceil", n_in=8)
    # ... but with 3 samples both sides read index 2 (3 clamps to 2): harmless
    assert not ref.is_fragile(u, "round_prefer_ceil", n_in=3)
    # far beyond the input (a tiny scale): every boundary clamps to the edge
    huge = Fraction(10**20) + Fraction(1, 2) + Fraction(1, 10**3)
    assert ref.is_fragile(huge, "round_prefer_floor")
    assert not ref.is_fragile(huge, "round_prefer_floor", n_in=4)
    assert not ref.is_fragile(-huge, "floor", n_in=4)


# --------------------------------------------------------------------------------------------
# The filters against their owners: Pillow (every filter, exclude-outside edges, always
# stretched by max(1, r)), onnx.reference (antialias with clamped edges). torch and OpenCV
# cross-checks of cubic, antialias and area are in test_modes.py.
# --------------------------------------------------------------------------------------------

def _pillow_rule(x, n_out, name):
    """Pillow's resize of the last axis: centre ``(o + 1/2) r`` in pixel units, i.e. ``u =
    (o + 1/2) r - 1/2``; filter stretched by ``max(1, r)``; taps outside dropped."""
    n_in = x.shape[-1]
    r = Fraction(n_in, n_out)
    filt = ref.make_filter(name)
    out = np.zeros(x.shape[:-1] + (n_out,))
    tie = False
    for o in range(n_out):
        u = (o + ref.HALF) * r - ref.HALF
        stretch = max(r, 1)
        # a box tap exactly on the filter's edge: Pillow's float arithmetic decides its side
        tie |= name == "box" and any(abs((i - u) / stretch) == ref.HALF
                                     for i in range(math.floor(u) - n_in, math.ceil(u) + n_in))
        for i, w in ref.filter_taps(u, n_in, filt, stretch, exclude_outside=True):
            out[..., o] += w * x[..., i]
    return out, tie


@pytest.mark.parametrize("name,pil_name", [("linear", "BILINEAR"), ("hamming", "HAMMING"),
                                           ("bicubic", "BICUBIC"), ("lanczos", "LANCZOS"),
                                           ("box", "BOX")])
def test_filters_match_pillow(name, pil_name):
    """Pillow's 'F' images resample with float64 coefficients and accumulators and store
    float32: within 1 float32 ulp of max|x| times the filter's gain."""
    Image = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(len(name))
    compared = 0
    for n_in in (1, 2, 3, 5, 8, 13):
        for n_out in (1, 2, 3, 4, 7, 11, 19):
            x = rng.standard_normal((2, n_in)).astype(np.float32)
            want, tie = _pillow_rule(x.astype(np.float64), n_out, name)
            if tie:
                continue
            got = np.asarray(Image.fromarray(x).resize((n_out, 2),
                                                      getattr(Image.Resampling, pil_name)))
            tol = 2 * float(np.spacing(np.float32(np.abs(x).max())))
            np.testing.assert_allclose(got, want, rtol=0, atol=tol,
                                       err_msg=f"{name} {n_in} -> {n_out}")
            compared += 1
    assert compared >= 30     # (box: 11 of the 42 size pairs have an exact tie)


def _onnx_reference(X, sizes, **attrs):
    onnx = pytest.importorskip("onnx")
    from onnx.reference import ReferenceEvaluator
    node = onnx.helper.make_node("Resize", ["X", "", "", "sizes"], ["Y"], **attrs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ReferenceEvaluator(node).run(None, {"X": X, "sizes": np.array(sizes, np.int64)})[0]


@pytest.mark.parametrize("mode", ["linear", "cubic"])
@pytest.mark.parametrize("exclude_outside", [0, 1])
@pytest.mark.parametrize("transform", ["half_pixel", "align_corners", "asymmetric"])
def test_antialias_matches_onnx_reference(mode, exclude_outside, transform):
    """ONNX Resize-18 ``antialias=1`` is the definition (SPEC §2). onnx.reference pads edges
    (our clamp) and implements exclude_outside. Its antialiased cubic coefficients come out
    about 1e-6 relative off the exact ones (float32 somewhere in its scale), so cubic is held
    to 1e-5 of max|x| -- still far below the ~0.1 that the edge rule or a_cubic changes --
    and linear to 1e-12."""
    rng = np.random.default_rng(7)
    for shape, size in [((9, 13), (4, 3)), ((5, 17), (2, 11)), ((20, 6), (7, 6)),
                        ((6, 7), (1, 3))]:
        for a in (-0.75, -0.5):
            X = rng.standard_normal(shape)
            want = _onnx_reference(X, size, mode=mode, antialias=1, cubic_coeff_a=a,
                                   exclude_outside=exclude_outside,
                                   coordinate_transformation_mode=transform)
            got = ref.reference_resize(X, list(size), mode=mode, antialias=True, cubic_a=a,
                                       exclude_outside=bool(exclude_outside),
                                       coordinate_transform=transform)
            tol = (1e-12 if mode == "linear" else 1e-5) * np.abs(X).max()
            np.testing.assert_allclose(got, want, rtol=0, atol=tol,
                                       err_msg=f"{shape} -> {size} a={a}")
            if mode == "linear":
                break      # cubic_a does not apply


def test_dense_operator_every_mode():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 4))
    for kw in (dict(mode="cubic"), dict(mode="area"), dict(mode="linear", antialias=True),
               dict(mode="cubic", antialias=True, exclude_outside=True)):
        a = ref.dense_operator(x.shape, size=[2, 7], **kw)
        want = ref.reference_resize(x, [2, 7], **kw)
        np.testing.assert_allclose((a @ x.ravel()).reshape(2, 7), want, rtol=0, atol=1e-14)
