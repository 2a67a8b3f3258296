"""``rx.resize`` and ``rx.Resampler`` against the float64 reference (SPEC §2, §3).

Every dtype x mode x coordinate transform x nearest mode / rounding, on random shapes (1-5
dims, up and down, size only, scale only, both), axes subsets, non-contiguous inputs, ``out=``,
memory order, other dtypes, empty and length-1 axes, NaN/Inf, plans, threads.

Expected values always come from ``tests/reference.py`` (or from hand-worked literals), never
from the library.
"""

import concurrent.futures
import itertools
import math
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
import hypothesis.extra.numpy as hnp

import resamplex as rx
import reference as ref

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

DTYPES = {
    "float64": np.dtype(np.float64),
    "float32": np.dtype(np.float32),
    "float16": np.dtype(np.float16),
    "bfloat16": BF16,
    "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8),
    "int16": np.dtype(np.int16),
    "uint16": np.dtype(np.uint16),
}
INT_DTYPES = ("int8", "uint8", "int16", "uint16")
FLOAT_DTYPES = ("float64", "float32", "float16", "bfloat16")

# Scales used where a scale is given: dyadic ones (exact in binary) and a few that are not.
SCALES = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 1 / 3, 0.6, 1.7, 0.3, 2.2)


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _xmax(x):
    v = np.asarray(x).astype(np.float64)
    v = v[np.isfinite(v)]
    return float(np.abs(v).max()) if v.size else 0.0


def check(x, size=None, scale=None, axes=None, mode="linear", transform="half_pixel",
          nearest_mode="round_prefer_ceil", rounding="half_even", label="", **kwargs):
    """Run rx.resize and compare with the reference under the SPEC §3 contract."""
    got = rx.resize(x, size, scale=scale, axes=axes, mode=mode,
                    coordinate_transform=transform, nearest_mode=nearest_mode,
                    rounding=rounding, **kwargs)
    want = ref.reference_resize(x, size, scale, axes, mode, transform, nearest_mode)
    msg = (f"{label} shape={np.shape(x)} dtype={np.asarray(x).dtype} size={size} "
           f"scale={scale} axes={axes} mode={mode} transform={transform} "
           f"nearest_mode={nearest_mode} rounding={rounding}")
    xmax = _xmax(x) if mode != "nearest" else None
    ref.assert_matches(got, want, np.asarray(x).dtype, mode, rounding, xmax=xmax, err_msg=msg)
    return got


def random_request(rng, shape, how, direction, mode, transform, nearest_mode,
                   axes_choice="random"):
    """A random (size, scale, axes) for ``shape`` that the reference decides unambiguously."""
    ndim = len(shape)
    for _ in range(200):
        if axes_choice == "all" or (axes_choice == "random" and rng.random() < 0.3):
            axes = None
            picked = list(range(ndim))
        else:
            k = int(rng.integers(1, ndim + 1))
            picked = [int(a) for a in rng.permutation(ndim)[:k]]
            axes = [a - ndim if rng.random() < 0.5 else a for a in picked]
        sizes, scales = [], []
        for a in picked:
            n = shape[a]
            up = direction == "up" or (direction == "mixed" and rng.random() < 0.5)
            if up:
                sizes.append(int(rng.integers(n, 2 * n + 3)))
                cands = [s for s in SCALES if s >= 1]
            else:
                sizes.append(int(rng.integers(1, n + 1)))
                cands = [s for s in SCALES if s <= 1]
            scales.append(float(rng.choice(cands)))
        size = sizes if how in ("size", "both") else None
        scale = scales if how in ("scale", "both") else None
        if how == "both":
            # the scale need not match: draw it independently of the size
            scale = [float(rng.choice(SCALES)) for _ in picked]
        if how == "scale":
            if any(math.floor(shape[a] * s) < 1 or not ref.exact_length_agrees(shape[a], s)
                   for a, s in zip(picked, scale)):
                continue
        if ref.request_fragile(shape, size, scale, axes, mode, transform, nearest_mode):
            continue
        return size, scale, axes
    pytest.skip("no unambiguous request found")   # pragma: no cover


MAX_SIDE = {1: 13, 2: 9, 3: 6, 4: 5, 5: 4}


def random_shape(rng, ndim):
    return tuple(int(n) for n in rng.integers(1, MAX_SIDE[ndim] + 1, size=ndim))


def _cases():
    for dname in DTYPES:
        for transform in ref.TRANSFORMS:
            for nm in ref.NEAREST_MODES:
                yield pytest.param(dname, "nearest", transform, nm, "half_even",
                                   id=f"{dname}-nearest-{transform}-{nm}")
            if dname in INT_DTYPES:
                for rounding in ref.ROUNDINGS:
                    yield pytest.param(dname, "linear", transform, "round_prefer_ceil",
                                       rounding, id=f"{dname}-linear-{transform}-{rounding}")
            else:
                yield pytest.param(dname, "linear", transform, "round_prefer_ceil",
                                   "half_even", id=f"{dname}-linear-{transform}")


@pytest.mark.parametrize("dname,mode,transform,nearest_mode,rounding", list(_cases()))
def test_matches_reference(dname, mode, transform, nearest_mode, rounding):
    dtype = DTYPES[dname]
    rng = _rng(dname, mode, transform, nearest_mode, rounding)
    configs = [(1, "size", "up"), (2, "scale", "down"), (3, "both", "mixed"),
               (4, "size", "down"), (5, "scale", "up"), (2, "both", "up"),
               (3, "size", "mixed"), (1, "scale", "mixed")]
    for ndim, how, direction in configs:
        shape = random_shape(rng, ndim)
        x = ref.random_array(rng, shape, dtype)
        size, scale, axes = random_request(rng, shape, how, direction, mode, transform,
                                           nearest_mode)
        check(x, size, scale, axes, mode, transform, nearest_mode, rounding)


# --------------------------------------------------------------------------------------------
# Hand-worked golden cases, on the library
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n_in,n_out,expected", [
    # derivations: tests/test_reference.py::test_nearest_golden_half_pixel
    (5, 3, {"round_prefer_ceil": [0, 2, 4], "round_prefer_floor": [0, 2, 4],
            "floor": [0, 2, 3], "ceil": [1, 2, 4]}),
    (10, 3, {"round_prefer_ceil": [1, 5, 8], "round_prefer_floor": [1, 4, 8],
             "floor": [1, 4, 7], "ceil": [2, 5, 8]}),
    (8, 6, {"round_prefer_ceil": [0, 2, 3, 4, 6, 7], "round_prefer_floor": [0, 1, 3, 4, 5, 7],
            "floor": [0, 1, 2, 4, 5, 6], "ceil": [1, 2, 3, 5, 6, 7]}),
    (6, 3, {"round_prefer_ceil": [1, 3, 5], "round_prefer_floor": [0, 2, 4],
            "floor": [0, 2, 4], "ceil": [1, 3, 5]}),
])
@pytest.mark.parametrize("dname", ["int64", "uint8", "float16"])
def test_nearest_golden(n_in, n_out, expected, dname):
    x = np.arange(n_in).astype(dname)
    for nearest_mode, idx in expected.items():
        got = rx.resize(x, [n_out], mode="nearest", nearest_mode=nearest_mode)
        assert got.dtype == x.dtype
        assert got.tolist() == x[idx].tolist(), nearest_mode


def test_nearest_golden_other_transforms():
    # derivations: tests/test_reference.py::test_nearest_golden_other_transforms
    x = np.arange(10)
    got = rx.resize(x, [3], mode="nearest", coordinate_transform="asymmetric",
                    nearest_mode="floor")
    assert got.tolist() == [0, 3, 6]
    y = np.arange(3)
    assert rx.resize(y, [5], mode="nearest", coordinate_transform="align_corners").tolist() \
        == [0, 1, 1, 2, 2]
    assert rx.resize(y, [5], mode="nearest", coordinate_transform="align_corners",
                     nearest_mode="round_prefer_floor").tolist() == [0, 0, 1, 1, 2]
    assert rx.resize(np.arange(4), [8], mode="nearest",
                     coordinate_transform="tf_half_pixel_for_nn").tolist() == \
        [0, 1, 1, 2, 2, 3, 3, 3]
    assert rx.resize(np.arange(4), [1], mode="nearest",
                     coordinate_transform="pytorch_half_pixel").tolist() == [0]
    assert rx.resize(np.arange(4), [1], mode="nearest").tolist() == [2]
    # scale drives the map with size given: 4 -> 3 with scale 0.5, asymmetric: u = 2o
    #   -> 0, 2, 4 (clamped to 3)
    assert rx.resize(np.arange(4), [3], scale=[0.5], mode="nearest",
                     coordinate_transform="asymmetric", nearest_mode="floor").tolist() == \
        [0, 2, 3]


@pytest.mark.parametrize("dname", FLOAT_DTYPES)
def test_linear_golden(dname):
    dt = DTYPES[dname]
    # [0, 10] -> 4 half_pixel: 0, 2.5, 7.5, 10 (all exact in every float type)
    got = rx.resize(np.array([0.0, 10.0]).astype(dt), [4])
    assert got.dtype == dt
    assert got.astype(np.float64).tolist() == [0.0, 2.5, 7.5, 10.0]
    # align_corners [0, 10, 20] -> 5: 0, 5, 10, 15, 20
    got = rx.resize(np.array([0.0, 10.0, 20.0]).astype(dt), [5],
                    coordinate_transform="align_corners")
    assert got.astype(np.float64).tolist() == [0.0, 5.0, 10.0, 15.0, 20.0]
    # 2x2 -> 1x1: the mean 15
    got = rx.resize(np.array([[0.0, 10.0], [20.0, 30.0]]).astype(dt), [1, 1])
    assert got.astype(np.float64).tolist() == [[15.0]]


def test_linear_golden_half_pixel_symmetric():
    # ONNX Resize-19 downsample case, hand-derived in test_reference.py: 5/3, 10/3
    got = rx.resize(np.array([1.0, 2.0, 3.0, 4.0]), scale=[0.6],
                    coordinate_transform="half_pixel_symmetric")
    np.testing.assert_allclose(got, [5 / 3, 10 / 3], rtol=1e-14)
    got = rx.resize(np.array([[1.0, 2.0], [3.0, 4.0]]), scale=[2.3, 2.94],
                    coordinate_transform="half_pixel_symmetric")
    want = [[1.0, 1.15986395, 1.5, 1.84013605, 2.0],
            [1.56521738, 1.72508133, 2.06521738, 2.40535343, 2.56521738],
            [2.43478262, 2.59464657, 2.93478262, 3.27491867, 3.43478262],
            [3.0, 3.15986395, 3.5, 3.84013605, 4.0]]
    np.testing.assert_allclose(got, want, rtol=2e-8)


@pytest.mark.parametrize("rounding,up,down", [
    # u8 [10, 11] -> 4: exact 10, 10.25, 10.75, 11; [10, 11, 12, 13] -> 2: exact 10.5, 12.5.
    # The ties are exact in any arithmetic (weights 1/2), so the rounding rule decides them.
    ("half_even", [10, 10, 11, 11], [10, 12]),
    ("half_away_from_zero", [10, 10, 11, 11], [11, 13]),
    ("toward_zero", [10, 10, 10, 11], [10, 12]),
])
@pytest.mark.parametrize("dname", ["uint8", "uint16", "int16", "int8"])
def test_integer_rounding_golden(rounding, up, down, dname):
    got = rx.resize(np.array([10, 11], dname), [4], rounding=rounding)
    assert got.dtype == np.dtype(dname)
    assert got.tolist() == up
    got = rx.resize(np.array([10, 11, 12, 13], dname), [2], rounding=rounding)
    assert got.tolist() == down


@pytest.mark.parametrize("rounding,up,down", [
    # i8 [-10, -11] -> 4: -10, -10.25, -10.75, -11; [-10, -11, -12, -13] -> 2: -10.5, -12.5
    ("half_even", [-10, -10, -11, -11], [-10, -12]),
    ("half_away_from_zero", [-10, -10, -11, -11], [-11, -13]),
    ("toward_zero", [-10, -10, -10, -11], [-10, -12]),
])
@pytest.mark.parametrize("dname", ["int8", "int16"])
def test_integer_rounding_golden_negative(rounding, up, down, dname):
    assert rx.resize(np.array([-10, -11], dname), [4], rounding=rounding).tolist() == up
    assert rx.resize(np.array([-10, -11, -12, -13], dname), [2],
                     rounding=rounding).tolist() == down


@pytest.mark.parametrize("dname", INT_DTYPES)
def test_integer_extremes(dname):
    # Convex combinations of the extremes stay in range: no wrap-around at either end.
    info = np.iinfo(dname)
    x = np.array([info.min, info.max, info.max, info.min], dname)
    for rounding in ref.ROUNDINGS:
        check(x, [11], rounding=rounding)
        check(x, [3], rounding=rounding, transform="align_corners")


# --------------------------------------------------------------------------------------------
# Axes
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("axes,size", [
    ([-1], [7]),
    ([-2, -1], [3, 11]),
    ([-1, -2], [11, 3]),
    ([1], [5]),                 # channels
    ([0], [4]),                 # batch
    ([0, 3], [1, 2]),
    ([3, -4, 2], [5, 1, 6]),
])
def test_axes_subsets(mode, axes, size):
    rng = _rng("axes", mode, tuple(axes))
    x = ref.random_array(rng, (2, 3, 4, 6), np.float32)
    check(x, size, axes=axes, mode=mode)
    check(x.astype(np.uint8), size, axes=axes, mode=mode)


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_scalar_size_and_scale_with_axes(mode):
    rng = _rng("scalar", mode)
    x = ref.random_array(rng, (3, 4, 5), np.float64)
    check(x, 7, axes=[1, 2], mode=mode)
    check(x, scale=2.0, axes=[-1], mode=mode)
    check(x, np.int64(6), axes=(0,), mode=mode)


def test_size_and_scale_containers():
    rng = _rng("containers")
    x = ref.random_array(rng, (3, 4), np.float32)
    check(x, np.array([5, 6]))
    check(x, (5, 6), axes=(0, 1))
    check(x, scale=np.array([2.0, 0.5]))
    check(x, [np.int32(2), np.uint8(7)], scale=(np.float32(0.5), 1.75))


def test_scale_only_length_is_floor_of_float64_product():
    # SPEC §2: floor(n_in * scale). 10 * 0.3 is 3.0 in float64 (as NumPy, PyTorch and the ONNX
    # reference compute it), although the exact binary value of 0.3 is a hair below 3/10.
    assert rx.resize(np.zeros(10), scale=[0.3]).shape == (3,)
    assert rx.Resampler((10, 7), scale=[0.3, 1.5]).out_shape == (3, 10)
    assert rx.resize(np.zeros(7), scale=[0.5]).shape == (3,)        # floor(3.5)


def test_unlisted_axes_are_copied():
    rng = _rng("copied")
    x = ref.random_array(rng, (3, 4, 5), np.float32)
    got = rx.resize(x, [9], axes=[1])
    assert got.shape == (3, 9, 5)
    for i in range(3):
        for j in range(5):
            ref.assert_matches(got[i, :, j], ref.reference_resize(x[i, :, j], [9]), np.float32,
                               "linear", xmax=_xmax(x))


def test_identity_is_a_copy():
    rng = _rng("identity")
    x = ref.random_array(rng, (4, 5), np.float32)
    for mode in ("nearest", "linear"):
        got = rx.resize(x, x.shape, mode=mode)
        np.testing.assert_array_equal(got, x)
        assert not np.shares_memory(got, x)


# --------------------------------------------------------------------------------------------
# Memory layouts of the input
# --------------------------------------------------------------------------------------------

def _layouts(rng, dtype):
    base = ref.random_array(rng, (7, 9, 6), dtype)
    ro = base.copy()
    ro.flags.writeable = False
    return {
        "step": base[::2, 1::3, :],
        "negative": base[::-1, :, ::-2],
        "transpose": base.transpose(2, 0, 1),
        "fortran": np.asfortranarray(base),
        "broadcast": np.broadcast_to(base[:, :1, :], (7, 9, 6)),
        "broadcast_new_axis": np.broadcast_to(base[0], (4, 9, 6)),
        "readonly": ro,
        "middle_slice": base[2:5, 3:8, 1:5],
    }


LAYOUT_NAMES = ["step", "negative", "transpose", "fortran", "broadcast", "broadcast_new_axis",
                "readonly", "middle_slice"]


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("dname", ["float64", "float32", "float16", "bfloat16", "uint8",
                                   "int16"])
@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_noncontiguous_inputs(layout, dname, mode):
    rng = _rng("layout", layout, dname, mode)
    x = _layouts(rng, DTYPES[dname])[layout]
    before = x.copy()
    shape = x.shape
    check(x, [shape[0] + 2, max(1, shape[1] - 2), 2 * shape[2]], mode=mode)
    check(x, [5], axes=[1], mode=mode)
    check(x, [3, 4], axes=[-1, 0], mode=mode, transform="align_corners")
    np.testing.assert_array_equal(x, before)      # the input is never written


# --------------------------------------------------------------------------------------------
# out=
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dname", ["float32", "uint8", "float16", "float64"])
@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("dest", ["contiguous", "fortran", "view_of_bigger", "negative",
                                  "transposed"])
def test_out_argument(dname, mode, dest):
    dtype = DTYPES[dname]
    rng = _rng("out", dname, mode, dest)
    x = ref.random_array(rng, (5, 6, 4), dtype)
    size = [7, 3, 8]
    want = ref.reference_resize(x, size, mode=mode)
    sentinel = np.array(77).astype(dtype)
    big = None
    if dest == "contiguous":
        out = np.empty((7, 3, 8), dtype)
    elif dest == "fortran":
        out = np.empty((7, 3, 8), dtype, order="F")
    elif dest == "view_of_bigger":
        big = np.full((15, 5, 20), sentinel, dtype)
        out = big[1::2, 1:4, ::2][:, :, 1:9]
        assert out.shape == (7, 3, 8)
    elif dest == "negative":
        big = np.full((7, 3, 16), sentinel, dtype)
        out = big[::-1, ::-1, ::-2]
    else:
        out = np.empty((8, 3, 7), dtype).transpose(2, 1, 0)
    got = rx.resize(x, size, mode=mode, out=out)
    assert got is out
    ref.assert_matches(out, want, dtype, mode, xmax=_xmax(x), err_msg=dest)
    if big is not None:
        mask = np.ones(big.shape, bool)
        if dest == "view_of_bigger":
            mask[1::2, 1:4, ::2][:, :, 1:9] = False
        else:
            mask[::-1, ::-1, ::-2] = False
        untouched = big[mask].view(np.uint8) == np.full(mask.sum(), sentinel, dtype).view(
            np.uint8)
        assert untouched.all(), "out= wrote outside its view"


def test_out_with_resampler_and_threads():
    rng = _rng("out-plan")
    x = ref.random_array(rng, (6, 40, 50), np.float32)
    plan = rx.Resampler(x.shape, [70, 20], axes=[1, 2])
    out = np.empty(plan.out_shape, np.float32)
    assert plan(x, out=out, threads=2) is out
    ref.assert_matches(out, ref.reference_resize(x, [70, 20], axes=[1, 2]), np.float32,
                       "linear", xmax=_xmax(x))


# --------------------------------------------------------------------------------------------
# Output memory order follows the input
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("dname", ["float32", "uint8"])
def test_output_order_follows_input(mode, dname):
    dtype = DTYPES[dname]
    rng = _rng("order", mode, dname)
    c = ref.random_array(rng, (3, 5, 6, 4), dtype)
    got = check(c, [4, 9, 3], axes=[1, 2, 3], mode=mode)
    assert got.flags.c_contiguous

    f = np.asfortranarray(c)
    got = check(f, [4, 9, 3], axes=[1, 2, 3], mode=mode)
    assert got.flags.f_contiguous and not got.flags.c_contiguous

    # channels-last: an NHWC buffer seen as NCHW
    nhwc = ref.random_array(rng, (2, 7, 5, 3), dtype)
    nchw = nhwc.transpose(0, 3, 1, 2)
    got = check(nchw, [11, 4], axes=[2, 3], mode=mode)
    assert got.shape == (2, 3, 11, 4)
    assert got.transpose(0, 2, 3, 1).flags.c_contiguous, got.strides
    assert list(np.argsort(got.strides)) == list(np.argsort(nchw.strides))


# --------------------------------------------------------------------------------------------
# Other dtypes: nearest is a bit copy; weighted modes refuse them (see test_errors.py)
# --------------------------------------------------------------------------------------------

STRUCT = np.dtype([("a", "<i4"), ("b", "<f8")])


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint32, np.int64, np.uint64,
                                   np.complex64, np.complex128, STRUCT, np.dtype("S3"),
                                   np.dtype("<M8[ns]")],
                         ids=lambda d: np.dtype(d).str)
def test_nearest_other_dtypes_bit_copy(dtype):
    dtype = np.dtype(dtype)
    rng = _rng("other", dtype.str)
    if dtype.kind == "S":
        x = rng.integers(0, 256, size=(4, 5, 3), dtype=np.uint8).view(dtype)[..., 0]
    elif dtype.kind == "M":
        x = rng.integers(-2**62, 2**62, size=(4, 5), dtype=np.int64).view(dtype)
    else:
        x = ref.random_array(rng, (4, 5), dtype)
    for nm in ref.NEAREST_MODES:
        check(x, [7, 3], mode="nearest", nearest_mode=nm)
    check(x[::-1, ::2], [2, 9], mode="nearest", transform="asymmetric")


@pytest.mark.parametrize("channels", [1, 2, 3, 5, 6, 7, 9, 11, 12, 13, 15, 17, 20, 23, 31, 40])
def test_nearest_interleaved_pixels(channels):
    # Channels-last arrays gather whole pixels (channels x itemsize bytes); pixels of 3, 6, 12,
    # ... bytes are moved 4, 8, 16 or 32 bytes at a time except near the ends of each row,
    # where the wide move would leave the row: every output size around those ends, up and down, every
    # itemsize, and inputs whose rows are not contiguous (no wide moves) must give the
    # reference's bytes.
    rng = _rng("pixels", channels)
    for dtype in (np.uint8, np.uint16, np.float32, np.float64):
        x = ref.random_array(rng, (5, 13, channels), np.dtype(dtype))
        for w_out in (1, 2, 3, 5, 6, 12, 13, 14, 25, 26, 40):
            for nm in ("round_prefer_ceil", "floor"):
                check(x, [4, w_out], axes=[0, 1], mode="nearest", nearest_mode=nm)
        check(x[:, ::2], [7, 9], axes=[0, 1], mode="nearest")
        check(x[:, :, ::-1], [7, 9], axes=[0, 1], mode="nearest")
        check(np.pad(x, ((0, 0), (0, 0), (0, 1)))[..., :channels], [3, 20], axes=[0, 1],
              mode="nearest")
        out = np.empty((channels, 6, 17), dtype).transpose(1, 2, 0)
        got = rx.resize(x, [6, 17], axes=[0, 1], mode="nearest", out=out)
        np.testing.assert_array_equal(got, ref.reference_resize(x, [6, 17], axes=[0, 1],
                                                                mode="nearest"))


@pytest.mark.parametrize("dtype,channels", [(np.uint8, 2), (np.uint8, 4), (np.float32, 0),
                                            (np.uint16, 4), (np.float32, 2), (np.float64, 0),
                                            (np.int8, 8)])
def test_nearest_permuted_pixels(dtype, channels):
    # Rows of 2-, 4- and 8-byte pixels gather a block of 64 output bytes from a window of 128
    # input bytes by one permute (256 bytes by two where ratios pass 2), a block reading wider
    # (ratios past 4, some blocks of ratios near it) one pixel at a time, and the last blocks,
    # whose loads would leave a row, one at a time too: every ratio around those bounds, up
    # and down, sizes around a block, every rounding direction, and rows not contiguous (no
    # permutes) must give the reference's bytes.
    rng = _rng("permuted", np.dtype(dtype).str, channels)
    shape = (3, 150, channels) if channels else (3, 150)
    x = ref.random_array(rng, shape, np.dtype(dtype))
    block = 64 // (np.dtype(dtype).itemsize * max(channels, 1))
    for w_out in sorted({7, block - 1, block, block + 1, 2 * block + 1, 33, 35, 36, 37, 38, 60,
                         71, 74, 75, 76, 79, 99, 100, 101, 149, 151, 225, 226, 374, 449}):
        for nm in ("round_prefer_ceil", "floor", "ceil"):
            check(x, [3, w_out], axes=[0, 1], mode="nearest", nearest_mode=nm)
        check(x, [2, w_out], axes=[0, 1], mode="nearest", transform="align_corners")
    check(x[:, ::-1], [3, 100], axes=[0, 1], mode="nearest")
    check(x[:, ::2], [3, 40], axes=[0, 1], mode="nearest")
    out = np.empty((3, 101) + shape[2:], dtype)
    got = rx.resize(x, [3, 101], axes=[0, 1], mode="nearest", out=out)
    np.testing.assert_array_equal(got, ref.reference_resize(x, [3, 101], axes=[0, 1],
                                                            mode="nearest"))


@pytest.mark.parametrize("dname", ["uint8", "int16", "float32", "float64", "bfloat16"])
@pytest.mark.parametrize("channels", [2, 3, 4, 5])
def test_strided_pixels(dname, channels):
    # Channels-last views whose pixels are not runs of adjacent elements: channels reversed
    # (BGR viewed as RGB), spaced (RGB out of RGBA, every other channel), mirrored rows, and
    # all of them at once. Nearest gathers such pixels element by element (estride); the
    # weighted modes copy the input C-contiguous first (one gather pass) so the channels
    # merge into the row. Every mode must give the reference's values, and the very bits of
    # the same call on a contiguous copy (the sums do not depend on the layout).
    dtype = DTYPES[dname]
    rng = _rng("strided-pixels", dname, channels)
    x = ref.random_array(rng, (9, 23, 2 * channels), dtype)
    views = {"reversed": x[..., channels - 1::-1], "spaced": x[..., :channels],
             "every-other": x[..., ::2], "mirrored": x[:, ::-1, :channels],
             "all": x[::-2, ::-3, channels - 1::-1]}
    for w in (1, 5, 6, 7, 11, 23, 64):  # whole rows of reversed pixels (BGR as RGB)
        views[f"flipped-{w}"] = np.ascontiguousarray(x[:, :w, :channels])[..., ::-1]
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[dtype.itemsize]
    for name, v in views.items():
        c = np.ascontiguousarray(v)
        for mode in ("nearest", "linear", "cubic", "area"):
            for size in ([4, 9], [17, 50], [9, 5]):
                got = check(v, size, axes=[0, 1], mode=mode, label=name)
                same = rx.resize(c, size, axes=[0, 1], mode=mode)
                np.testing.assert_array_equal(got.view(bits), same.view(bits),
                                              err_msg=f"{name} {mode} {size}")
        out = np.empty((channels, 6, 19), dtype).transpose(1, 2, 0)
        got = rx.resize(v, [6, 19], axes=[0, 1], out=out)
        assert got is out
        np.testing.assert_array_equal(out.view(bits),
                                      rx.resize(c, [6, 19], axes=[0, 1]).view(bits))
        if dname != "bfloat16":
            got = rx.resize(v, [6, 19], axes=[0, 1], dtype=np.float64, affine=(2.0, -1.0))
            want = rx.resize(c, [6, 19], axes=[0, 1], dtype=np.float64, affine=(2.0, -1.0))
            np.testing.assert_array_equal(got, want)


def test_nearest_preserves_nan_payloads_and_signed_zero():
    bits = np.array([0x7FF8000000000001, 0xFFF0000000000002, 0x8000000000000000,
                     0x7FF0000000000000], np.uint64)
    x = bits.view(np.float64)
    got = rx.resize(x, [8], mode="nearest")
    want = ref.reference_resize(x, [8], mode="nearest")
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
    h = np.array([0x7C01, 0xFE00, 0x8000, 0x7BFF], np.uint16)
    for dt in (np.dtype(np.float16), BF16):
        got = rx.resize(h.view(dt), [7], mode="nearest")
        want = ref.reference_resize(h.view(dt), [7], mode="nearest")
        np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("dname", ["float32", "float16", "bfloat16", "uint8", "int8"])
@pytest.mark.parametrize("channels", [0, 1, 2, 3, 4, 16])
@pytest.mark.parametrize("kw", [{}, {"transform": "align_corners"}, {"transform": "asymmetric"},
                                {"mode": "area"}])
def test_polyphase_x2_gives_the_general_bits(dname, channels, kw):
    # x2 along the innermost axis runs as a polyphase pass (even and odd outputs as two rows,
    # zipped) where rows are contiguous: the bytes of the general pass, which a plane with
    # strided rows takes (one channel of a channels-last image, or every other element), for
    # every transform (borders outside the regular run), NaN, inf and -0.0 included; and
    # within the reference's tolerance.
    # (Rows of 40 pixels run the widest vector loops of the phase kernels, rows of 23 the
    # narrower ones, rows of 11 their scalar ends; 8-bit data both integer roundings; 5 -> 10
    # rows the exact int16 form, with its border outputs in integers too; single-channel rows
    # of 64 and 97 pixels the whole-row AVX-512 form, its borders from clamped taps; rows of
    # 200 and 70 pixels several blocks of the AVX-512 zips of 1-4 bytes a pixel, 64, 32 and 16
    # pixels at a time, and of the int16 phase rows, 32 at a time.)
    dtype = DTYPES[dname]
    rng = _rng("polyphase", dname, channels, tuple(kw.items()))
    roundings = ["half_even", "half_away_from_zero"] if dname in ("uint8", "int8") else [None]
    widths = (40, 23, 11, 64, 97, 200) if channels <= 1 else (40, 23, 11, 70)
    for width, rounding in itertools.product(widths, roundings):
        shape = (5, width) if channels == 0 else (5, width, channels)
        x = ref.random_array(rng, shape, dtype)
        if dname in FLOAT_DTYPES:
            flat = x.reshape(-1)
            flat[[2, 7, 30]] = np.array([np.nan, -np.inf, -0.0]).astype(dtype)
        args = dict(mode=kw.get("mode", "linear"),
                    coordinate_transform=kw.get("transform", "half_pixel"))
        if rounding is not None:
            args["rounding"] = rounding
        # 5 -> 10: dyadic weights both ways, so 8-bit rows take the exact int16 kernels
        for size in ([9, 2 * width], [5, 2 * width], [3, 2 * width], [10, 2 * width]):
            got = rx.resize(x, size, axes=(0, 1), **args)
            if channels <= 1:
                planes = [(got.reshape(size),
                           np.repeat(x.reshape(5, width), 2, axis=1)[:, ::2])]
            else:
                planes = [(got[..., k], x[..., k]) for k in range(channels)]
            for plane, strided in planes:
                assert strided.strides[1] != strided.itemsize
                want = rx.resize(strided, size, **args)
                assert plane.tobytes() == want.tobytes(), f"{shape} -> {size} {kw} {rounding}"
            if rounding in (None, "half_even"):
                check(x, size, axes=(0, 1), **kw)



@pytest.mark.parametrize("dname", ["uint8", "int8", "float32", "float16", "bfloat16"])
@pytest.mark.parametrize("channels", [0, 1, 2, 3, 4])
def test_polyphase_k_taps_give_the_general_bits(monkeypatch, dname, channels):
    # Cubic and Lanczos x2 along the innermost axis (and x0.5 and 3:2 of 8-bit data) run as
    # polyphase passes of 4-8 taps per phase (_phase_up2_k, _phase_split_k; 8-bit rows
    # rounded as they are made on AVX-512; x0.5 and 3:2 input rows split into their pixel
    # phases once, into a cache of 8 rows; 3:2 splits 48 pixels at a time by byte shuffles,
    # the rest one pixel at a time): the bytes of the general pass (a strided view of the
    # same values), at every CPU level, 1 and 2 threads (the cache lives in each thread's
    # chunk of rows), a batch of two images (a chunk crosses from one into the next), more
    # input rows per output row than the cache keeps (antialiased x0.25), rows of 37 pixels
    # (x2 only: x0.5 to 18 is not a phase pass), every rounding; NaN, inf, -0.0 for floats.
    # The phase form is checked to be the one taken; within the reference's tolerance.
    from resamplex._engine import _exec
    from resamplex._engine.compile import phases

    taken = []
    fields = phases.phase_fields

    def spy(plan, *args):
        got = fields(plan, *args)
        taken.append(got.get("rk", 0))
        return got

    monkeypatch.setattr(phases, "phase_fields", spy)
    rx.clear_plan_cache()
    dtype = DTYPES[dname]
    eight = dname in ("uint8", "int8")
    rng = _rng("polyphase k taps", dname, channels)
    roundings = ["half_even", "half_away_from_zero", "toward_zero"] if eight else [None]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for width, mode, rounding in itertools.product(
                    (40, 37, 78), ("cubic", "lanczos"), roundings):
                shape = (2, 9, width) + ((channels,) if channels else ())
                x = ref.random_array(rng, shape, dtype)
                if not eight:
                    flat = x.reshape(-1)
                    flat[[2, 77, 130]] = np.array([np.nan, -np.inf, -0.0]).astype(dtype)
                args = dict(mode=mode, axes=(1, 2))
                if rounding is not None:
                    args["rounding"] = rounding
                sizes = [(18, 2 * width), (9, 2 * width), (5, 2 * width)]
                if eight:
                    sizes += [(5, width // 2), (18, width // 2), (2, width // 2)]
                    if width % 3 == 0:
                        sizes += [(6, 2 * width // 3), (18, 2 * width // 3)]
                for size, threads, aa in itertools.product(sizes, (1, 2), (False, True)):
                    if aa and size[1] > width:
                        continue
                    del taken[:]
                    rx.clear_plan_cache()       # planned afresh: the spy sees the fields
                    got = rx.resize(x, size, threads=threads, antialias=aa, **args)
                    if not aa and size[0] != 9 and 6 * size[1] in (3 * width, 12 * width,
                                                                   4 * width):
                        # both axes resampled (a fused pass), x2, exactly x0.5 or 3:2
                        assert max(taken, default=0) > 2, (level, shape, size)
                    if channels <= 1:
                        planes = [(got.reshape((2,) + size),
                                   np.repeat(x.reshape(2, 9, width), 2, axis=2)[..., ::2])]
                    else:
                        planes = [(got[..., k], x[..., k]) for k in range(channels)]
                    for plane, strided in planes:
                        want = rx.resize(strided, size, threads=threads, antialias=aa, **args)
                        assert plane.tobytes() == want.tobytes(), \
                            (level, shape, size, mode, rounding, threads, aa)
                    # the same plan again on new values at the same address (a reused
                    # buffer): nothing of the last call's rows is kept
                    keep = x.copy()
                    x[...] = np.roll(keep, 3, axis=1)
                    again = rx.resize(x, size, threads=threads, antialias=aa, **args)
                    x[...] = keep
                    want = rx.resize(np.roll(keep, 3, axis=1), size, threads=threads,
                                     antialias=aa, **args)
                    assert again.tobytes() == want.tobytes(), (level, shape, size, threads)
                    if level == before and rounding in (None, "half_even") and not aa:
                        check(x, list(size), axes=(1, 2), mode=mode)
    finally:
        _exec.set_cpu_level(before)
        rx.clear_plan_cache()


@pytest.mark.parametrize("dname", ["uint8", "int8"])
@pytest.mark.parametrize("channels", [0, 1, 2, 3, 4, 5])
def test_cubic_half_in_integers_gives_the_float_bits(monkeypatch, dname, channels):
    # Cubic x0.5 of 8-bit images on both axes has dyadic weights (32nds with a = -0.75, 16ths
    # with -0.5), so the float32 sums of _phase_split_k are exact and it computes them in
    # int16 rows and int32 sums instead (compile/phases.py _split_exact, rx_phasek_i16: pairs of taps,
    # 32 outputs a step at AVX-512, 16 at AVX2, then one at a time): the bytes of the float
    # form (the planner kept from the integer one), at every CPU level, both integer
    # roundings (toward_zero keeps the float form), 1 and 2 threads, a batch of two, rows
    # whose run is 1-9 vector steps and a tail; extreme values for saturation. Lanczos's
    # weights are not dyadic: it keeps the float form.
    from resamplex._engine import _exec
    from resamplex._engine.compile import phases

    exact = phases._split_exact
    taken = []

    def spy(plan, *args):
        got = exact(plan, *args)
        taken.append(bool(got))
        return got

    def none(plan, *args):
        return {}

    dtype = DTYPES[dname]
    info = np.iinfo(dtype)
    rng = _rng("cubic half in integers", dname, channels)
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for width, a in itertools.product((38, 74, 150), (-0.75, -0.5)):
                shape = (2, 12, width) + ((channels,) if channels else ())
                x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
                x[0, :3] = info.max
                x[1, 4:6] = info.min
                size = (6, width // 2)
                for rounding, threads, mode in itertools.product(
                        ("half_even", "half_away_from_zero", "toward_zero"), (1, 2),
                        ("cubic", "lanczos")):
                    args = dict(axes=(1, 2), mode=mode, cubic_a=a, rounding=rounding,
                                threads=threads)
                    monkeypatch.setattr(phases, "_split_exact", spy)
                    del taken[:]
                    rx.clear_plan_cache()
                    got = rx.resize(x, size, **args)
                    assert taken == [mode == "cubic" and rounding != "toward_zero"], \
                        (level, shape, mode, rounding)
                    monkeypatch.setattr(phases, "_split_exact", none)
                    rx.clear_plan_cache()
                    want = rx.resize(x, size, **args)
                    assert got.tobytes() == want.tobytes(), (level, shape, a, rounding, threads)
    finally:
        _exec.set_cpu_level(before)
        rx.clear_plan_cache()


@pytest.mark.parametrize("dname", ["float32", "bfloat16", "float16"])
def test_polyphase_x2_long_rows_at_every_cpu_level(dname):
    # Rows of 32 pixels and more run the x2 phase kernel's pipelined loop at AVX-512 (each
    # block of 16 blended values once, the neighbours' by lane shifts), bfloat16 rounds
    # without the NaN rule (a blend's NaN has its low 16 bits zero), float16 converts by F16C
    # (AVX2 and AVX-512; it quiets signalling NaNs, as the arithmetic does) and the outputs
    # outside the run are formed from the two input rows in place: the bytes of the general
    # pass (a strided view of the same values) at every level, with NaN in some rows only (at
    # a row's start, middle and last pixel; signalling ones with payloads too), -0.0, inf and
    # subnormals (kept, not flushed); the dyadic weights on 8-bit mantissas give many ties.
    from resamplex._engine import _exec

    dtype = DTYPES[dname]
    bits = np.uint32 if dname == "float32" else np.uint16
    nan1, nan2 = {"float32": (0x7F800021, 0xFF812345), "bfloat16": (0x7F81, 0xFF85),
                  "float16": (0x7C01, 0xFD05)}[dname]
    tiny = float(np.finfo(np.float16).smallest_normal if dname == "float16" else 1e-38)
    rng = _rng("polyphase long rows", dname)
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for width in (32, 33, 47, 48, 64, 200):
                x = ref.random_array(rng, (7, width), dtype)
                x[1, width // 2] = np.nan
                # signalling NaNs with payloads: quieted by the arithmetic, payload kept
                x.view(bits)[2, 0] = nan1
                x.view(bits)[2, width // 3] = nan2
                x[3, -1] = np.nan
                x[4, 5:9] = np.array([-0.0, np.inf, -np.inf, 0.0]).astype(dtype)
                x[5, 3:width - 3] = (rng.random(width - 6) * (tiny / 5)).astype(dtype)
                x[6] = ref.random_array(rng, (width,), dtype) * np.array(tiny, dtype)
                strided = np.repeat(x, 2, axis=1)[:, ::2]
                for size in ([7, 2 * width], [14, 2 * width], [4, 2 * width]):
                    got = rx.resize(x, size, mode="linear")
                    want = rx.resize(strided, size, mode="linear")
                    assert got.tobytes() == want.tobytes(), (level, width, size)
                    assert np.isnan(got[: size[0] // 2].astype(np.float32)).any()
    finally:
        _exec.set_cpu_level(before)

def test_broadcast_pixels_are_not_copied():
    # A broadcast image (zero strides) is read in place, never made contiguous first: a
    # 20000 x 20000 RGB view of one pixel (1.2 GB if copied) resizes with a small peak.
    from allocations import allocation_peak

    px = np.array([10, 200, 30], np.uint8)
    big = np.broadcast_to(px, (20000, 20000, 3))
    for mode in ("linear", "nearest", "cubic"):
        error, peak = allocation_peak(lambda: rx.resize(big, (10, 10), axes=(0, 1), mode=mode))
        assert error is None and peak < 16 << 20, (mode, error, peak)
    got = rx.resize(big[:50, :60], (20, 25), axes=(0, 1))
    np.testing.assert_array_equal(got, np.broadcast_to(px, (20, 25, 3)))


def test_phase_borders_are_clamped_only_where_the_table_says_so():
    # The whole-row x2 kernel (8-bit, AVX-512) computes the outputs outside the regular run
    # from the run's taps clamped to the row; the planner allows it only where the table's
    # integer weights there are exactly that (compile/phases.py _clamped_borders). half_pixel x2 of n
    # pixels: output 2i reads pixels (i - 1, i) with weights (1, 3) / 4, output 2i + 1 pixels
    # (i, i + 1) with (3, 1) / 4, indices clamped to [0, n); padding taps read element n.
    from resamplex._engine.compile.phases import _clamped_borders

    n = 16
    o = np.arange(2 * n)
    i = o // 2
    even = (o % 2 == 0)[:, None]
    idx = np.where(even, np.stack([i - 1, i], 1), np.stack([i, i + 1], 1)).clip(0, n - 1)
    bq = np.where(even, [1, 3], [3, 1])
    pd, pq = (-1, 0, 0, 1), (1, 3, 3, 1)
    assert _clamped_borders(idx, bq, n, 1, n - 1, pd, pq)
    merged_idx, merged_bq = idx.copy(), bq.copy()
    merged_idx[-1], merged_bq[-1] = [n - 1, n], [4, 0]    # one tap and a zero padding tap
    assert _clamped_borders(merged_idx, merged_bq, n, 1, n - 1, pd, pq)
    padded_idx = idx.copy()
    padded_idx[0] = [n, 0]                                 # zero outside instead of clamping
    assert not _clamped_borders(padded_idx, bq, n, 1, n - 1, pd, pq)
    other_bq = bq.copy()
    other_bq[-2] = [2, 2]                                  # other weights at the right end
    assert not _clamped_borders(idx, other_bq, n, 1, n - 1, pd, pq)
    inner_bq = bq.copy()
    inner_bq[4] = [2, 2]              # an output inside the run: not this check's business
    assert _clamped_borders(idx, inner_bq, n, 1, n - 1, pd, pq)


@pytest.mark.parametrize("dname", ["uint8", "int8"])
@pytest.mark.parametrize("transform", ["half_pixel", "asymmetric", "pytorch_half_pixel",
                                       "align_corners", "half_pixel_symmetric"])
def test_three_to_two_gives_the_general_bits(dname, transform):
    # 3:2 along the innermost axis of single-element 8-bit rows (1080p -> 720p) runs in exact
    # int16 where the weights are dyadic (quarters for half_pixel both ways: 9 -> 6 rows):
    # the bytes of the general pass (which a plane with strided rows takes), both integer
    # roundings, rows of one vector block (48 pixels), of one and a scalar pair (51), of two
    # and eight scalar pairs (120), extreme values at the row's start; rows the int16 form
    # cannot take (7 -> 5: non-dyadic) too.
    dtype = DTYPES[dname]
    rng = _rng("three-to-two", dname, transform)
    info = np.iinfo(dtype)
    for width, rounding in itertools.product((48, 120, 51), ["half_even", "half_away_from_zero"]):
        x = ref.random_array(rng, (9, width), dtype)
        x[0, :6] = [info.min, info.max, info.max, info.min, info.max, info.max]
        for rows in ((9, 6), (9, 3), (9, 9), (9, 12)):
            n_out = 2 * width // 3
            src = x[:rows[0]]
            got = rx.resize(src, [rows[1], n_out], coordinate_transform=transform,
                            rounding=rounding)
            strided = np.repeat(src, 2, axis=1)[:, ::2]
            want = rx.resize(strided, [rows[1], n_out], coordinate_transform=transform,
                             rounding=rounding)
            assert got.tobytes() == want.tobytes(), f"{width} {rows} {transform} {rounding}"
            if rounding == "half_even":
                check(src, [rows[1], n_out], transform=transform)
        y = ref.random_array(rng, (7, width), dtype)
        got = rx.resize(y, [5, 2 * width // 3], coordinate_transform=transform,
                        rounding=rounding)
        want = rx.resize(np.repeat(y, 2, axis=1)[:, ::2], [5, 2 * width // 3],
                         coordinate_transform=transform, rounding=rounding)
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dname", list(DTYPES))
@pytest.mark.parametrize("factors", [(2, 2), (3, 1), (1, 4), (2, 3)])
def test_area_integer_enlargement_copies(dname, factors):
    # Area enlarging by an integer factor reads one input with weight 1 per output (a plan of
    # such tables runs as a gather): each input repeated, bit for bit, -0.0, infinities and
    # channels-last pixels of 3 elements included; into another dtype with an affine too.
    dtype = DTYPES[dname]
    rng = _rng("area-copies", dname, factors)
    x = ref.random_array(rng, (5, 7, 3), dtype)
    if dname in FLOAT_DTYPES:
        flat = x.reshape(-1)
        flat[:3] = np.array([-0.0, np.inf, -np.inf]).astype(dtype)
    size = [5 * factors[0], 7 * factors[1]]
    want = np.repeat(np.repeat(x, factors[0], axis=0), factors[1], axis=1)
    for src in (x, np.asfortranarray(x), x[::-1, :, ::-1]):
        want_src = np.repeat(np.repeat(src, factors[0], axis=0), factors[1], axis=1)
        got = rx.resize(src, size, axes=(0, 1), mode="area")
        assert got.dtype == dtype
        bits = {2: np.uint16, 1: np.uint8, 4: np.uint32, 8: np.uint64}[dtype.itemsize]
        np.testing.assert_array_equal(got.view(bits), want_src.view(bits))
    check(x, size, axes=(0, 1), mode="area")
    got = rx.resize(x, size, axes=(0, 1), mode="area", dtype=np.float64, affine=(2.0, 1.0))
    np.testing.assert_array_equal(got, want.astype(np.float64) * 2.0 + 1.0)


# --------------------------------------------------------------------------------------------
# Empty and length-1 axes
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("dname", ["float32", "uint8", "float16"])
def test_empty_axes(mode, dname):
    dtype = DTYPES[dname]
    x = np.zeros((0, 5), dtype)
    got = rx.resize(x, [0, 3], mode=mode)
    assert got.shape == (0, 3) and got.dtype == dtype
    got = rx.resize(x, [7], axes=[1], mode=mode)
    assert got.shape == (0, 7)
    got = rx.resize(x, scale=[2.0, 2.0], mode=mode)
    assert got.shape == (0, 10)
    y = np.zeros((3, 0, 4), dtype)
    got = rx.resize(y, [5, 2], axes=[0, 2], mode=mode)
    assert got.shape == (5, 0, 2) and got.dtype == dtype
    got = rx.resize(y, [5, 0, 2], mode=mode)
    assert got.shape == (5, 0, 2)
    out = np.empty((5, 0, 2), dtype)
    assert rx.resize(y, [5, 0, 2], mode=mode, out=out) is out
    plan = rx.Resampler((3, 0, 4), [6, 0, 1], mode=mode)
    assert plan.out_shape == (6, 0, 1)
    assert plan(y).shape == (6, 0, 1)


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("transform", ref.TRANSFORMS)
def test_length_one_axes(mode, transform):
    rng = _rng("len1", mode, transform)
    x = ref.random_array(rng, (1, 5, 1), np.float32)
    check(x, [4, 1, 3], mode=mode, transform=transform)     # 1 -> 4, 5 -> 1, 1 -> 3
    check(x, [1, 1, 1], mode=mode, transform=transform)
    check(x.astype(np.int16), [1, 9, 2], mode=mode, transform=transform)
    check(np.array([3.5]), [6], mode=mode, transform=transform)


# --------------------------------------------------------------------------------------------
# NaN and Inf propagate only through taps with non-zero weight
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dname", FLOAT_DTYPES)
@pytest.mark.parametrize("transform", ["half_pixel", "align_corners", "asymmetric",
                                       "tf_half_pixel_for_nn"])
def test_nan_inf_propagation(dname, transform):
    dtype = DTYPES[dname]
    rng = _rng("nan", dname, transform)
    x = ref.random_array(rng, (5, 6), dtype)
    x[2, 3] = np.nan
    x[0, 0] = np.inf
    x[4, 4] = np.inf
    x[4, 5] = -np.inf          # between +inf and -inf: NaN
    # sizes with samples exactly on input pixels (e.g. 5 -> 9 align_corners: u = o/2) and not
    for size in ([9, 11], [5, 6], [10, 12], [3, 4], [2, 2], [13, 7]):
        got = check(x, size, transform=transform)
        want = ref.reference_resize(x, size, coordinate_transform=transform)
        np.testing.assert_array_equal(np.isnan(got.astype(np.float64)), np.isnan(want))
        assert np.isfinite(want).any()   # the test is not vacuous


def test_nan_does_not_spread_to_zero_weight_taps():
    # [1, NaN, 3] align_corners -> 5: u = 0, .5, 1, 1.5, 2; outputs 0 and 4 sit exactly on
    # pixels 0 and 2 (one tap each), so only 1, 2, 3 see the NaN.
    x = np.array([1.0, np.nan, 3.0])
    got = rx.resize(x, [5], coordinate_transform="align_corners")
    assert got[0] == 1.0 and got[4] == 3.0
    assert np.isnan(got[1:4]).all()
    # half_pixel 3 -> 6: u = (o + .5)/2 - .5 = -.25, .25, .75, 1.25, 1.75, 2.25; output 0 has
    # taps clamp(-1) = 0 and 0 (merged), output 5 has 2 and clamp(3) = 2: no NaN there.
    got = rx.resize(x, [6])
    assert got[0] == 1.0 and got[5] == 3.0
    assert np.isnan(got[1:5]).all()


# --------------------------------------------------------------------------------------------
# Resampler
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_resampler_reuse(mode):
    rng = _rng("plan", mode)
    shape = (3, 8, 5)
    kw = dict(axes=[-2, -1], mode=mode, coordinate_transform="align_corners")
    plan = rx.Resampler(shape, [5, 12], **kw)
    assert plan.out_shape == ref.reference_shape(shape, [5, 12], axes=[-2, -1])
    assert tuple(plan.out_shape) == (3, 5, 12) and isinstance(plan.out_shape, tuple)
    for dname in ("float32", "uint8", "float64", "bfloat16"):
        for _ in range(2):
            x = ref.random_array(rng, shape, DTYPES[dname])
            got = plan(x)
            want = ref.reference_resize(x, [5, 12], axes=[-2, -1], mode=mode,
                                        coordinate_transform="align_corners")
            ref.assert_matches(got, want, x.dtype, mode, xmax=_xmax(x))
            np.testing.assert_array_equal(got, rx.resize(x, [5, 12], **kw))
    with pytest.raises(rx.ResamplexError):
        plan(np.zeros((3, 8, 6), np.float32))


def test_resampler_scale_and_dtype():
    rng = _rng("plan-scale")
    plan = rx.Resampler((4, 6), scale=[2.5, 0.5], dtype=np.uint8)
    assert plan.out_shape == (10, 3)
    x = ref.random_array(rng, (4, 6), np.uint8)
    got = plan(x)
    ref.assert_matches(got, ref.reference_resize(x, scale=[2.5, 0.5]), np.uint8, "linear")


@pytest.mark.parametrize("rounding", ref.ROUNDINGS)
def test_resampler_rounding(rounding):
    plan = rx.Resampler((2,), [4], rounding=rounding)
    want = {"half_even": [10, 10, 11, 11], "half_away_from_zero": [10, 10, 11, 11],
            "toward_zero": [10, 10, 10, 11]}[rounding]
    assert plan(np.array([10, 11], np.uint8)).tolist() == want


# --------------------------------------------------------------------------------------------
# Threads: bitwise independent of the count, safe from many Python threads
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def big_inputs():
    rng = _rng("big")
    xf = (rng.standard_normal((4, 64, 96, 80)) * 50).astype(np.float32)
    xu = rng.integers(0, 256, size=(4, 64, 96, 80), dtype=np.uint8)
    return {"float32": xf, "uint8": xu}


@pytest.mark.parametrize("dname", ["float32", "uint8"])
@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("request_", [
    dict(size=[41, 150, 33], axes=[1, 2, 3]),                   # mixed up/down, 3 axes
    dict(size=[3, 200], axes=[0, -1]),                           # outer and inner
    dict(scale=[0.5, 0.5], axes=[2, 3], coordinate_transform="align_corners"),
], ids=["three_axes", "outer_inner", "half"])
def test_thread_count_invariance(big_inputs, dname, mode, request_):
    x = big_inputs[dname]
    kw = dict(request_)
    size, scale = kw.pop("size", None), kw.pop("scale", None)
    one = rx.resize(x, size, scale=scale, mode=mode, threads=1, **kw)
    two = rx.resize(x, size, scale=scale, mode=mode, threads=2, **kw)
    assert one.view(np.uint8).tobytes() == two.view(np.uint8).tobytes()
    # and it is right: one slice along an axis the request copies, against the reference
    axes = [a % 4 for a in kw["axes"]]
    kept = next(a for a in range(4) if a not in axes)
    x0 = x.take([0], axis=kept)
    want = ref.reference_resize(x0, size, scale, axes, mode,
                                kw.get("coordinate_transform", "half_pixel"))
    ref.assert_matches(one.take([0], axis=kept), want, x.dtype, mode, xmax=_xmax(x0))


def _run_python(code, **env_vars):
    """Run ``code`` in a fresh interpreter (the thread defaults are process-wide state)."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **env_vars)
    # cwd: `python -c` puts the current directory first on sys.path, where a source
    # checkout's uncompiled resamplex/ would hide the installed package.
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120, cwd=os.path.dirname(os.path.abspath(__file__)))
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


_SET_NUM_THREADS = """
import numpy as np, resamplex as rx
before = rx.get_num_threads()
assert isinstance(before, int) and before >= 1
rx.set_num_threads(1)
assert rx.get_num_threads() == 1
x = np.random.default_rng(0).standard_normal((8, 64, 64)).astype(np.float32)
a = rx.resize(x, [100, 30], axes=[1, 2])
rx.set_num_threads(2)
assert rx.get_num_threads() == 2
b = rx.resize(x, [100, 30], axes=[1, 2])
assert a.tobytes() == b.tobytes()
print("OK")
"""


def test_set_num_threads():
    assert "OK" in _run_python(_SET_NUM_THREADS)


def test_omp_num_threads_is_obeyed():
    out = _run_python("import resamplex as rx; print(rx.get_num_threads())",
                      OMP_NUM_THREADS="1")
    assert out.strip() == "1"


_THREADPOOLCTL = """
import numpy as np, resamplex as rx, threadpoolctl
if not any(i.get("user_api") == "openmp" for i in threadpoolctl.threadpool_info()):
    print("SKIP")
else:
    x = np.random.default_rng(0).standard_normal((8, 64, 64)).astype(np.float32)
    with threadpoolctl.threadpool_limits(1):
        assert rx.get_num_threads() == 1, rx.get_num_threads()
        a = rx.resize(x, [100, 30], axes=[1, 2])
    b = rx.resize(x, [100, 30], axes=[1, 2], threads=2)
    assert a.tobytes() == b.tobytes()
    print("OK")
"""


def test_threadpoolctl_is_obeyed():
    pytest.importorskip("threadpoolctl")
    out = _run_python(_THREADPOOLCTL)
    if "SKIP" in out:
        pytest.skip("no OpenMP runtime loaded (serial build)")
    assert "OK" in out


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_concurrent_python_threads(mode):
    rng = _rng("concurrent", mode)
    xs = [ref.random_array(rng, (6, 64, 72), dt) for dt in (np.float32, np.uint8, BF16)]
    jobs = [(x, dict(size=[97, 41], axes=[1, 2], mode=mode, threads=t))
            for x in xs for t in (1, 2)]
    serial = [rx.resize(x, **kw) for x, kw in jobs]
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        futures = [pool.submit(rx.resize, x, **kw) for _ in range(4) for x, kw in jobs]
        results = [f.result() for f in futures]
    for i, r in enumerate(results):
        s = serial[i % len(jobs)]
        assert r.dtype == s.dtype and r.shape == s.shape
        assert r.view(np.uint8).tobytes() == s.view(np.uint8).tobytes()
    # and the serial result itself is right
    for (x, kw), s in zip(jobs, serial):
        want = ref.reference_resize(x, [97, 41], axes=[1, 2], mode=mode)
        ref.assert_matches(s, want, x.dtype, mode, xmax=_xmax(x))


def test_concurrent_shared_plan():
    rng = _rng("concurrent-plan")
    plan = rx.Resampler((5, 60, 70), [33, 111], axes=[1, 2])
    xs = [ref.random_array(rng, (5, 60, 70), np.float32) for _ in range(8)]
    serial = [plan(x) for x in xs]
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(plan, xs * 3))
    for i, r in enumerate(results):
        assert r.tobytes() == serial[i % 8].tobytes()


# --------------------------------------------------------------------------------------------
# Hypothesis: shapes, strides, axes, scales
# --------------------------------------------------------------------------------------------

@st.composite
def strided_requests(draw):
    dname = draw(st.sampled_from(["float64", "float32", "float16", "bfloat16", "uint8",
                                  "int8", "int16", "uint16"]))
    mode = draw(st.sampled_from(["nearest", "linear"]))
    transform = draw(st.sampled_from(ref.TRANSFORMS))
    nearest_mode = draw(st.sampled_from(ref.NEAREST_MODES))
    rounding = draw(st.sampled_from(ref.ROUNDINGS))
    base_shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=7))
    seed = draw(st.integers(0, 2**32 - 1))
    slices = []
    for n in base_shape:
        step = draw(st.integers(1, 3))
        start = draw(st.integers(0, n - 1))
        if draw(st.booleans()):
            slices.append(slice(n - 1 - start, None, -step))
        else:
            slices.append(slice(start, None, step))
    perm = draw(st.permutations(range(len(base_shape))))
    broadcast_axis = draw(st.none() | st.integers(0, len(base_shape) - 1))
    ndim = len(base_shape)
    axes_list = draw(st.none() | st.lists(st.integers(0, ndim - 1), min_size=1,
                                          max_size=ndim, unique=True))
    negate = draw(st.lists(st.booleans(), min_size=ndim, max_size=ndim))
    how = draw(st.sampled_from(["size", "scale", "both"]))
    picked = list(range(ndim)) if axes_list is None else axes_list
    sizes = [draw(st.integers(1, 12)) for _ in picked]
    scales = [draw(st.sampled_from(SCALES)) for _ in picked]
    return dict(dname=dname, mode=mode, transform=transform, nearest_mode=nearest_mode,
                rounding=rounding, base_shape=base_shape, seed=seed, slices=slices,
                perm=perm, broadcast_axis=broadcast_axis, axes_list=axes_list,
                negate=negate, how=how, sizes=sizes, scales=scales)


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)
@given(strided_requests())
def test_hypothesis_strided(req):
    dtype = DTYPES[req["dname"]]
    rng = np.random.default_rng(req["seed"])
    base = ref.random_array(rng, req["base_shape"], dtype)
    x = base[tuple(req["slices"])].transpose(req["perm"])
    if req["broadcast_axis"] is not None:
        b = req["broadcast_axis"]
        shape = list(x.shape)
        shape[b] = 3
        x = np.broadcast_to(x.take([0], axis=b), shape)
    ndim = x.ndim
    if req["axes_list"] is None:
        axes, picked = None, list(range(ndim))
    else:
        picked = req["axes_list"]
        axes = [a - ndim if neg else a for a, neg in zip(picked, req["negate"])]
    size = req["sizes"] if req["how"] in ("size", "both") else None
    scale = req["scales"] if req["how"] in ("scale", "both") else None
    if req["how"] == "scale":
        assume(all(math.floor(x.shape[a] * s) >= 1 and ref.exact_length_agrees(x.shape[a], s)
                   for a, s in zip(picked, scale)))
    assume(not ref.request_fragile(x.shape, size, scale, axes, req["mode"],
                                   req["transform"], req["nearest_mode"]))
    check(x, size, scale, axes, req["mode"], req["transform"], req["nearest_mode"],
          req["rounding"], label="hypothesis")


# --------------------------------------------------------------------------------------------
# The other weighted modes on one example (every mode x transform x dtype: test_modes.py)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw", [dict(mode="cubic"), dict(mode="area"),
                                dict(mode="linear", antialias=True),
                                dict(mode="cubic", antialias=True),
                                dict(mode="cubic", exclude_outside=True, cubic_a=-0.5)],
                         ids=["cubic", "area", "linear-aa", "cubic-aa", "cubic-excl"])
def test_other_modes(kw):
    x = np.arange(48, dtype=np.float32).reshape(6, 8)
    got = rx.resize(x, [3, 5], **kw)
    want = ref.reference_resize(x, [3, 5], **kw)
    ref.assert_matches(got, want, np.float32, kw["mode"],
                       xmax=47.0 * ref.request_gain(x.shape, [3, 5], **kw))


def test_show_config(capsys):
    rx.show_config()
    text = capsys.readouterr().out
    assert "openmp" in text.lower()
    assert isinstance(rx.__version__, str) and rx.__version__
