"""``resamplex.compat.onnx.resize`` against ONNX itself (SPEC §6).

- Every ``Resize`` case of the ONNX backend node test suite (the models, inputs and expected
  outputs that ``onnx.backend.test.case.node.collect_testcases`` builds; 39 in onnx 1.23).
- The ONNX reference implementation (``onnx.reference.ReferenceEvaluator``) on a few hundred
  random cases (fixed seed): 1-5-d shapes, random ``axes`` (also negative), ``scales`` and
  ``sizes`` with every ``keep_aspect_ratio_policy``, every mode, coordinate transform and nearest
  mode, ``antialias``, ``exclude_outside``, ``roi`` and ``extrapolation_value``; float32,
  float64, float16, uint8, int8 and (nearest) int32.
- The coefficient builders, bit for bit against the reference's own coefficient functions.
- ONNX Runtime, where installed: float32, and 8-bit data with ``rounding="toward_zero"``.

Tolerances (decided from SPEC §3, which compares the engine with a float64 evaluation of the
same tables): the expected values are that float64 evaluation rounded once to the output dtype.
float32: ``(1 + 2 p)`` ulp of ``max(|X|, |expected|)`` for ``p`` resampled axes -- the engine
keeps float32 intermediates between its ``p`` separable passes and rounds float32 weights, each
pass costing up to about 2 ulp once cubic overshoot (sum of |weights| ~1.3) is counted; the
reference's own float32 cast adds half an ulp. float64: ``1e-12`` of the same scale. float16:
one float16 ulp of the expected value (or the float32 bound, near 0). Integers: equal to the
reference's ``np.round`` + clip, except where the float64 value lies within 1/256 of a .5
boundary (there the engine's float32 arithmetic may round to the neighbour). Nearest: exact.
Extrapolated ``tf_crop_and_resize`` outputs are exactly ``extrapolation_value`` here, while the
reference carries them through later axes' cubic weights (float32 values summing to 1 within
a few 1e-7); there we require ours to be exact and the reference to be within 1e-6 relative.
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402
from onnx.reference.ops import op_resize  # noqa: E402

import resamplex as rx  # noqa: E402
from resamplex.compat import onnx as ronnx  # noqa: E402

# ------------------------------------------------------------------------------ helpers

INPUT_NAMES = ("roi", "scales", "sizes")


def ref_resize(*args, **kwargs):
    """The reference flavour (``onnx.reference``'s numerics); the default is ONNX Runtime's."""
    return ronnx.resize(*args, flavour="reference", **kwargs)


def reference(X, inputs, attrs):
    """Run ``Resize`` through ``onnx.reference`` (positive axes only: it rejects negative)."""
    names = ["X"] + [n if n in inputs else "" for n in INPUT_NAMES]
    while names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", names, ["Y"], **attrs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ReferenceEvaluator(node).run(None, {"X": X, **inputs})[0]


def passes(X, attrs):
    return len(attrs["axes"]) if "axes" in attrs else X.ndim


def stored(value, dtype, rounding="half_even"):
    """The value an extrapolated output holds: the reference's saturate_cast of the attribute."""
    v = float(np.float32(value))
    if np.issubdtype(dtype, np.integer):
        v = {"half_even": np.rint, "toward_zero": np.trunc}[rounding](v)
        info = np.iinfo(dtype)
        return np.asarray(np.clip(v, info.min, info.max)).astype(dtype)
    return np.asarray(v).astype(dtype)


def assert_close(got, exp, X, attrs, *, v64=None):
    """SPEC §3 tolerances against the reference output ``exp`` (see the module docstring);
    ``v64`` is the reference on float64 data, for the integer tie rule."""
    assert got.shape == exp.shape and got.dtype == exp.dtype
    if got.size == 0:
        return
    dt = got.dtype
    ok = np.zeros(got.shape, dtype=bool)
    if attrs.get("coordinate_transformation_mode") == "tf_crop_and_resize":
        ev = float(np.float32(attrs.get("extrapolation_value", 0.0)))
        ok |= (got == stored(ev, dt)) & (np.abs(exp.astype(np.float64) - ev)
                                         <= 1e-6 * max(1.0, abs(ev)))
    if attrs.get("mode", "nearest") == "nearest":
        ok |= got == exp
    elif np.issubdtype(dt, np.integer):
        diff = got.astype(np.int64) - exp.astype(np.int64)
        near_tie = np.abs(v64 - np.floor(v64) - 0.5) < 1 / 256
        ok |= (diff == 0) | ((np.abs(diff) == 1) & near_tie)
    else:
        g, e = got.astype(np.float64), exp.astype(np.float64)
        m = max(float(np.abs(X).max()), float(np.abs(e).max()), 1e-30)
        if dt == np.float64:
            tol = 1e-12 * m
        else:
            tol = (1 + 2 * passes(X, attrs)) * float(np.spacing(np.float32(m)))
            if dt == np.float16:
                tol = np.maximum(tol, np.spacing(np.abs(exp)).astype(np.float64))
        ok |= np.abs(g - e) <= tol
    bad = np.flatnonzero(~ok)
    assert bad.size == 0, (
        f"{bad.size} of {got.size} outputs differ; first at {np.unravel_index(bad[0], got.shape)}:"
        f" got {got.flat[bad[0]]!r}, reference {exp.flat[bad[0]]!r}")


# ------------------------------------------------------------------------------ backend suite

BACKEND_CASES = (
    "test_resize_upsample_scales_nearest",
    "test_resize_downsample_scales_nearest",
    "test_resize_upsample_sizes_nearest",
    "test_resize_downsample_sizes_nearest",
    "test_resize_upsample_scales_linear",
    "test_resize_upsample_scales_linear_align_corners",
    "test_resize_downsample_scales_linear",
    "test_resize_downsample_scales_linear_align_corners",
    "test_resize_upsample_scales_cubic",
    "test_resize_upsample_scales_cubic_align_corners",
    "test_resize_downsample_scales_cubic",
    "test_resize_downsample_scales_cubic_align_corners",
    "test_resize_upsample_sizes_cubic",
    "test_resize_downsample_sizes_cubic",
    "test_resize_upsample_scales_cubic_A_n0p5_exclude_outside",
    "test_resize_downsample_scales_cubic_A_n0p5_exclude_outside",
    "test_resize_upsample_scales_cubic_asymmetric",
    "test_resize_tf_crop_and_resize",
    "test_resize_tf_crop_and_resize_extrapolation_value",
    "test_resize_downsample_sizes_linear_pytorch_half_pixel",
    "test_resize_upsample_sizes_nearest_floor_align_corners",
    "test_resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric",
    "test_resize_upsample_sizes_nearest_ceil_half_pixel",
    "test_resize_downsample_scales_linear_antialias",
    "test_resize_downsample_sizes_linear_antialias",
    "test_resize_downsample_scales_cubic_antialias",
    "test_resize_downsample_sizes_cubic_antialias",
    "test_resize_upsample_scales_nearest_axes_2_3",
    "test_resize_upsample_scales_nearest_axes_3_2",
    "test_resize_upsample_sizes_nearest_axes_2_3",
    "test_resize_upsample_sizes_nearest_axes_3_2",
    "test_resize_tf_crop_and_resize_axes_2_3",
    "test_resize_tf_crop_and_resize_axes_3_2",
    "test_resize_upsample_sizes_nearest_not_larger",
    "test_resize_upsample_sizes_nearest_not_smaller",
    "test_resize_downsample_sizes_nearest_not_larger",
    "test_resize_downsample_sizes_nearest_not_smaller",
    "test_resize_downsample_scales_linear_half_pixel_symmetric",
    "test_resize_upsample_scales_linear_half_pixel_symmetric",
)


@functools.lru_cache(maxsize=1)
def backend_cases():
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases("Resize")
    return {c.name: c for c in cases if "resize" in c.name}


def test_backend_suite_is_the_known_one():
    assert sorted(backend_cases()) == sorted(BACKEND_CASES)


def call_backend_case(case):
    node = case.model.graph.node[0]
    attrs = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        attrs[a.name] = v.decode() if isinstance(v, bytes) else v
    inputs, outputs = case.data_sets[0]
    values = iter(inputs)
    args = {slot: next(values) for name, slot in zip(node.input, ("X",) + INPUT_NAMES) if name}
    X = args.pop("X")
    return X, args, attrs, outputs[0]


@pytest.mark.parametrize("name", BACKEND_CASES)
def test_backend_case(name):
    case = backend_cases().get(name)
    if case is None:
        pytest.skip(f"{name} is not in this onnx version's backend suite")
    X, inputs, attrs, expected = call_backend_case(case)
    got = ref_resize(X, **inputs, **attrs)
    assert_close(got, expected, X, attrs)


# ------------------------------------------------------------------------------ coefficients

def test_cubic_weights_bitwise():
    rng = np.random.default_rng(10)
    ratios = np.concatenate([rng.random(300), [1.0, 0.5, 0.25, 1e-9, 1 - 1e-12]])
    for a in (-0.75, -0.5, float(np.float32(-0.613))):
        got = ronnx.cubic_weights(ratios, a)
        exp = np.array([op_resize._cubic_coeffs(float(r), None, A=np.float32(a))
                        for r in ratios], dtype=np.float64)
        np.testing.assert_array_equal(got, exp)


@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_antialias_weights_bitwise(mode):
    rng = np.random.default_rng(11)
    ratios = np.concatenate([rng.random(100), [1.0, 0.5]])
    for scale in (0.5, 0.3, 0.6000000238418579, 1 / 3, 0.1, 1.0, 2.5):
        got = ronnx.antialias_weights(ratios, scale, mode, -0.75)
        if mode == "linear":
            exp = [op_resize._linear_coeffs_antialias(float(r), scale) for r in ratios]
        else:
            exp = [op_resize._cubic_coeffs_antialias(float(r), scale, A=np.float32(-0.75))
                   for r in ratios]
        np.testing.assert_array_equal(got, np.array(exp, dtype=np.float64))


@pytest.mark.parametrize("n", [2, 4, 6, 12])
def test_neighbour_window_matches_edge_padding(n):
    """The window is the reference's scalar rule: the n nearest indices, ties to the smaller
    (checked away from the ends, where the scalar rule's padding would limit the choice)."""
    rng = np.random.default_rng(12)
    x = np.concatenate([rng.uniform(0, 12, 200), np.arange(0, 11, 0.5),
                        [-1e-17, 3 - 1e-15, 3 + 1e-15]])
    idx, ratio = ronnx.neighbour_window(x, n)
    for row, xi, r in zip(idx, x, ratio):
        exp, _ = op_resize._get_neighbor(float(xi), n, np.zeros(40))
        np.testing.assert_array_equal(row, exp)
        assert r == (1.0 if xi == math.floor(xi) else xi - math.floor(xi))


# ------------------------------------------------------------------------------ random cases

def random_case(rng, dtype, modes=("nearest", "linear", "cubic")):
    ndim = int(rng.integers(1, 6))
    shape = tuple(int(v) for v in rng.integers(1, 7 if ndim < 4 else 5, size=ndim))
    attrs = {"mode": str(rng.choice(modes)),
             "coordinate_transformation_mode":
                 str(rng.choice(ronnx.COORDINATE_TRANSFORMATION_MODES)),
             "nearest_mode": str(rng.choice(ronnx.NEAREST_MODES)),
             "exclude_outside": int(rng.random() < 0.3),
             "cubic_coeff_a": float(rng.choice([-0.75, -0.5, rng.uniform(-1, 0)])),
             "extrapolation_value": float(rng.choice([0.0, 10.0, -3.25, 100.0]))}
    if attrs["mode"] != "nearest" and rng.random() < 0.4:
        attrs["antialias"] = 1
    axes = list(range(ndim))
    if rng.random() < 0.7:
        axes = [int(a) for a in rng.permutation(ndim)[:int(rng.integers(1, ndim + 1))]]
        attrs["axes"] = axes
    inputs = {}
    if rng.random() < 0.5:
        scales = []
        for a in axes:
            s = float(rng.choice([0.5, 2.0, 1.0, 1.5, 3.0, 0.25, 0.6, 1.7,
                                  rng.uniform(0.2, 3.5)]))
            if math.floor(float(np.float32(s)) * shape[a]) < 1:
                s = 1.0
            scales.append(s)
        inputs["scales"] = np.array(scales, np.float32)
    else:
        inputs["sizes"] = rng.integers(1, 9, size=len(axes)).astype(np.int64)
        attrs["keep_aspect_ratio_policy"] = str(
            rng.choice(["stretch", "stretch", "not_larger", "not_smaller"]))
    if attrs["coordinate_transformation_mode"] == "tf_crop_and_resize" or rng.random() < 0.1:
        start = rng.uniform(-0.3, 0.6, size=len(axes))
        end = start + rng.uniform(0.1, 0.9, size=len(axes))
        if rng.random() < 0.3:
            start[:], end[:] = 0, 1
        inputs["roi"] = np.concatenate([start, end]).astype(np.float32)
    if np.dtype(dtype).kind == "f":
        X = (rng.standard_normal(shape) * 10).astype(dtype)
    else:
        info = np.iinfo(dtype)
        X = rng.integers(info.min, int(info.max) + 1, size=shape).astype(dtype)
    return X, inputs, attrs


def ours(X, inputs, attrs, negative_axes=False, **kw):
    attrs = dict(attrs)
    if negative_axes and "axes" in attrs:
        attrs["axes"] = [a - X.ndim for a in attrs["axes"]]
    return ref_resize(X, **inputs, **attrs, **kw)


RANDOM_RUNS = [  # (dtype, modes, number of cases, seed)
    (np.float32, ("nearest", "linear", "cubic"), 300, 100),
    (np.float64, ("linear", "cubic"), 80, 101),
    (np.float16, ("linear", "cubic"), 40, 102),
    (np.uint8, ("nearest", "linear", "cubic"), 150, 103),
    (np.int8, ("linear", "cubic"), 100, 104),
    (np.int32, ("nearest",), 40, 105),
]


@pytest.mark.parametrize("dtype, modes, count, seed", RANDOM_RUNS,
                         ids=[np.dtype(r[0]).name for r in RANDOM_RUNS])
def test_random_against_reference(dtype, modes, count, seed):
    rng = np.random.default_rng(seed)
    checked = empty = 0
    for i in range(count):
        X, inputs, attrs = random_case(rng, dtype, modes)
        exp = reference(X, inputs, attrs)
        if 0 in exp.shape:
            # The reference returns an empty axis where floor(n * scale) or the aspect-ratio
            # rounding gives 0; resamplex refuses output lengths < 1 (SPEC §8).
            with pytest.raises(rx.ResamplexError, match="output length must be >= 1"):
                ours(X, inputs, attrs)
            empty += 1
            continue
        got = ours(X, inputs, attrs, negative_axes=bool(i % 2))
        v64 = None
        if np.issubdtype(dtype, np.integer) and attrs["mode"] != "nearest":
            v64 = reference(X.astype(np.float64), inputs, attrs)
        try:
            assert_close(got, exp, X, attrs, v64=v64)
        except AssertionError as e:
            raise AssertionError(f"case {i}: X{X.shape} {inputs} {attrs}: {e}") from None
        checked += 1
    assert checked >= 0.9 * count and empty <= 0.1 * count


def test_random_nearest_exclude_outside_quirk():
    """The reference zeroes the one weight of a nearest pick that lies outside the input."""
    X = np.arange(1, 5, dtype=np.float32).reshape(1, 4)
    for nearest_mode in ("floor", "round_prefer_floor"):
        attrs = dict(mode="nearest", nearest_mode=nearest_mode, exclude_outside=1)
        inputs = {"scales": np.array([1.0, 3.0], np.float32)}
        exp = reference(X, inputs, attrs)
        np.testing.assert_array_equal(ref_resize(X, **inputs, **attrs), exp)
    assert exp[0, 0] == 1 and ref_resize(X, **inputs, mode="nearest", nearest_mode="floor",
                                           exclude_outside=1)[0, 0] == 0


def test_pytorch_half_pixel_length_one_is_minus_half():
    """ONNX's rule for one output sample is x = -0.5 (the core's pytorch_half_pixel uses 0)."""
    X = np.array([[0.0, 10.0, 20.0, 40.0, 80.0]], dtype=np.float64)
    attrs = dict(mode="cubic", coordinate_transformation_mode="pytorch_half_pixel")
    inputs = {"sizes": np.array([1, 1], np.int64)}
    got = ref_resize(X, **inputs, **attrs)
    np.testing.assert_allclose(got, reference(X, inputs, attrs), rtol=1e-14)
    # by hand: x = -0.5, floor -1, ratio 1/2: Keys a = -3/4 weights at distances 3/2, 1/2,
    # 1/2, 3/2 are -3/32, 19/32, 19/32, -3/32 on indices -2, -1, 0, 1 (edge-padded: X[0] three
    # times, X[1] once) -> 35/32 * 0 - 3/32 * 10 = -0.9375. (x = 0 would give X[0] = 0.)
    np.testing.assert_allclose(got[0], [-0.9375], rtol=1e-15)


def test_roi_does_not_change_the_output_length():
    """The operator text says floor(n * (end - start) * scale); the reference and ONNX
    Runtime use floor(n * scale), and so do we."""
    X = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    inputs = {"roi": np.array([0, 0, 0.4, 0.6, 1, 1, 0.6, 0.8], np.float32),
              "scales": np.array([1, 1, 2, 2], np.float32)}
    attrs = dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize")
    got = ref_resize(X, **inputs, **attrs)
    assert got.shape == (1, 1, 8, 8)
    assert_close(got, reference(X, inputs, attrs), X, attrs)


# ------------------------------------------------------------------------------ behaviour

def crop_case():
    X = np.random.default_rng(5).standard_normal((2, 3, 5, 6)).astype(np.float32)
    kw = dict(roi=[0.2, -0.3, 0.9, 1.2], sizes=[7, 9], axes=[2, 3], mode="cubic",
              coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=7.5)
    return X, kw


def test_extrapolation_is_the_union_of_per_axis_masks():
    X, kw = crop_case()
    got = ref_resize(X, **kw)
    # ONNX tf_crop_and_resize: x = start (n_in - 1) + o (end - start) (n_in - 1) / (n_out - 1),
    # roi in float32; no coordinate here is within 0.06 of an edge of [0, n_in - 1]
    def crop_x(n_in, n_out, start, end):
        start, end = float(np.float32(start)), float(np.float32(end))
        o = np.arange(n_out)
        return start * (n_in - 1) + o * (end - start) * (n_in - 1) / (n_out - 1)
    x2 = crop_x(5, 7, 0.2, 0.9)
    x3 = crop_x(6, 9, -0.3, 1.2)
    mask = ((x2 < 0) | (x2 > 4))[:, None] | ((x3 < 0) | (x3 > 5))[None, :]
    assert mask.any() and not mask.all()
    assert np.all(got[:, :, mask] == np.float32(7.5))
    assert not np.any(got[:, :, ~mask] == np.float32(7.5))


@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_out_with_extrapolation(order):
    X, kw = crop_case()
    expected = ref_resize(X, **kw)
    if order == "strided":
        base = np.full((2, 3, 7, 18), np.nan, np.float32)
        out = base[:, :, :, ::2]
    else:
        out = np.full(expected.shape, np.nan, np.float32, order=order)
    result = ref_resize(X, **kw, out=out)
    assert result is out
    np.testing.assert_array_equal(out, expected)
    if order == "strided":
        assert np.isnan(base[:, :, :, 1::2]).all()


def test_threads_and_layout_do_not_change_results():
    X, kw = crop_case()
    one = ref_resize(X, **kw, threads=1)
    np.testing.assert_array_equal(ref_resize(X, **kw, threads=2), one)
    np.testing.assert_array_equal(ref_resize(np.asfortranarray(X), **kw), one)
    Xt = np.ascontiguousarray(X.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)  # channels-last
    np.testing.assert_array_equal(ref_resize(Xt, **kw), one)


def test_integer_extrapolation_value_is_rounded_and_saturated():
    X = np.full((1, 4), 100, np.uint8)
    base = dict(roi=[0.0, -1.0, 1.0, 2.0], sizes=[1, 7], mode="linear",
                coordinate_transformation_mode="tf_crop_and_resize")
    for ev, half_even, toward_zero in ((-3.25, 0, 0), (300.0, 255, 255), (10.5, 10, 10),
                                       (11.5, 12, 11), (7.75, 8, 7)):
        got = ref_resize(X, **base, extrapolation_value=ev)
        assert got[0, 0] == half_even and got[0, 3] == 100
        assert ref_resize(X, **base, extrapolation_value=ev,
                            rounding="toward_zero")[0, 0] == toward_zero
        ref_out = reference(X, {"roi": np.array(base["roi"], np.float32),
                                "sizes": np.array(base["sizes"])},
                            dict(mode="linear", extrapolation_value=ev,
                                 coordinate_transformation_mode="tf_crop_and_resize"))
        np.testing.assert_array_equal(got, ref_out)


def test_rounding_choices_for_integers():
    X = np.array([[10, 11]], np.uint8)
    kw = dict(sizes=[4], axes=[1], mode="linear")  # exact values 10, 10.25, 10.75, 11
    np.testing.assert_array_equal(ref_resize(X, **kw), [[10, 10, 11, 11]])
    np.testing.assert_array_equal(ref_resize(X, **kw, rounding="toward_zero"),
                                  [[10, 10, 10, 11]])
    X = np.array([[10, 11, 12, 13]], np.uint8)  # exact values 10.5, 12.5
    np.testing.assert_array_equal(ref_resize(X, sizes=[2], axes=[1], mode="linear"),
                                  [[10, 12]])


def test_negative_axes_and_other_dtypes():
    X = np.arange(24).reshape(2, 3, 4)
    a = ref_resize(X, sizes=[5, 2], axes=[-1, 0])
    b = ref_resize(X, sizes=[5, 2], axes=[2, 0])
    np.testing.assert_array_equal(a, b)
    assert a.dtype == X.dtype and a.shape == (2, 3, 5)
    boolean = ref_resize(X > 10, scales=[1, 2, 0.5])
    np.testing.assert_array_equal(boolean, ref_resize(X, scales=[1, 2, 0.5]) > 10)


def test_empty_inputs_and_identity():
    X = np.zeros((0, 3), np.float32)
    assert ref_resize(X, sizes=[0, 5], mode="linear").shape == (0, 5)
    assert ref_resize(X, scales=[2.0, 2.0], mode="cubic").shape == (0, 6)
    Y = np.random.default_rng(0).standard_normal((3, 4))
    for transform in ronnx.COORDINATE_TRANSFORMATION_MODES:
        np.testing.assert_array_equal(
            ref_resize(Y, [0.0, 0.0, 1.0, 1.0], scales=[1, 1], mode="cubic",
                         coordinate_transformation_mode=transform), Y)


def test_empty_scales_or_sizes_count_as_missing():
    X = np.arange(4.0).reshape(1, 4)
    np.testing.assert_array_equal(
        ref_resize(X, np.array([], np.float32), np.array([], np.float32), [1, 8]),
        ref_resize(X, sizes=[1, 8]))


@pytest.mark.parametrize("kwargs, match", [
    (dict(), "exactly one"),
    (dict(scales=[1, 2], sizes=[2, 4]), "exactly one"),
    (dict(scales=[2]), "scales: expected 2 entries"),
    (dict(sizes=[2, 4, 4]), "sizes: expected 2 entries"),
    (dict(scales=[1, 0]), "scales"),
    (dict(scales=[1, float("nan")]), "scales"),
    (dict(scales=[1, 0.1]), "output length must be >= 1"),  # the reference flavour
    (dict(sizes=[2, 0]), "output length must be >= 1"),
    (dict(sizes=[2.0, 4.0]), "sizes"),
    (dict(sizes=[2, -1]), "sizes"),
    (dict(sizes=[2], axes=[2]), "axes"),
    (dict(sizes=[2, 2], axes=[1, -1]), "repeated"),
    (dict(sizes=[2, 4], mode="bilinear"), "mode"),
    (dict(sizes=[2, 4], coordinate_transformation_mode="tf_half_pixel_for_nn"), "Resize-13"),
    (dict(sizes=[2, 4], nearest_mode="round"), "nearest_mode"),
    (dict(sizes=[2, 4], keep_aspect_ratio_policy="fit"), "keep_aspect_ratio_policy"),
    (dict(sizes=[2, 4], antialias=1), "antialias"),
    (dict(sizes=[2, 4], mode="linear", exclude_outside=2), "exclude_outside"),
    (dict(sizes=[2, 4], mode="linear", rounding="up"), "rounding"),
    (dict(sizes=[2, 4], roi=[0, 0, 1], coordinate_transformation_mode="tf_crop_and_resize"),
     "roi: expected 4"),
    (dict(sizes=[2, 4], roi=[0, 0, 1, float("inf")],
          coordinate_transformation_mode="tf_crop_and_resize"), "roi"),
    (dict(sizes=[2, 4], cubic_coeff_a="x", mode="cubic"), "cubic_coeff_a"),
    (dict(sizes=[2, 1 << 40]), "output"),
    (dict(sizes=[2, 4], out=np.empty((2, 5))), "out"),
    (dict(sizes=[2, 4], threads=0), "threads"),
])
def test_errors(kwargs, match):
    X = np.ones((2, 3))
    with pytest.raises(rx.ResamplexError, match=match):
        ref_resize(X, **kwargs)


def test_unsupported_dtype_and_bad_extrapolation_value():
    with pytest.raises(rx.UnsupportedError, match="int32"):
        ref_resize(np.ones((2, 3), np.int32), sizes=[4, 6], mode="linear")
    with pytest.raises(rx.ResamplexError, match="extrapolation_value"):
        ref_resize(np.ones((2, 3), np.uint8), [0, 0, 2, 2], sizes=[4, 6], mode="linear",
                     coordinate_transformation_mode="tf_crop_and_resize",
                     extrapolation_value=float("nan"))
    with pytest.raises(rx.ResamplexError, match="0-d"):
        ref_resize(np.float32(1), scales=[])


# ------------------------------------------------------------------------------ ONNX Runtime

def ort_resize(X, inputs, attrs):
    ort = pytest.importorskip("onnxruntime")
    from onnx.helper import np_dtype_to_tensor_dtype

    names = ["X"] + [n if n in inputs else "" for n in INPUT_NAMES]
    while names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", names, ["Y"], **attrs)
    info = [helper.make_tensor_value_info("X", np_dtype_to_tensor_dtype(X.dtype), X.shape)]
    info += [helper.make_tensor_value_info(n, np_dtype_to_tensor_dtype(inputs[n].dtype),
                                           inputs[n].shape) for n in INPUT_NAMES if n in inputs]
    y = helper.make_tensor_value_info("Y", np_dtype_to_tensor_dtype(X.dtype), None)
    model = helper.make_model(helper.make_graph([node], "resize", info, [y]),
                              opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 9  # what current onnxruntime releases load
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    return session.run(None, {"X": X, **inputs})[0]


def ort_or_none(X, inputs, attrs):
    """ONNX Runtime's output, or None where its CPU kernel refuses or fails."""
    try:
        return ort_resize(X, inputs, attrs)
    except Exception as exc:  # onnxruntime's own exception types
        if "onnxruntime" not in type(exc).__module__ and "ONNXRuntimeError" not in str(exc):
            raise
        return None


ORT_TRANSFORMS = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                  "asymmetric", "tf_crop_and_resize")


def ort_random_case(rng, mode, dtype):
    """A case in a layout ONNX Runtime's kernel for ``mode`` takes (or occasionally not)."""
    aa = int(mode != "nearest" and rng.random() < 0.35)
    if mode == "nearest":
        rank = int(rng.integers(1, 6))
    elif mode == "linear":
        rank = int(rng.choice([2, 3, 4, 5]))
    else:
        rank = int(rng.choice([2, 4]))
    shape = tuple(int(v) for v in rng.integers(1, 24 if rank <= 2 else 7, rank))
    axes = list(range(rank))
    if rank == 4:
        axes = [2, 3] if rng.random() < 0.5 else [1, 2]
    elif rank == 5 and mode == "linear":
        axes = [2, 3, 4]
    if rng.random() < 0.05:  # a layout the kernel refuses
        axes = list(range(rank))
    attrs = {"mode": mode, "coordinate_transformation_mode": str(rng.choice(ORT_TRANSFORMS))}
    if mode == "nearest":
        attrs["nearest_mode"] = str(rng.choice(ronnx.NEAREST_MODES))
    if mode == "cubic":
        attrs["cubic_coeff_a"] = float(rng.choice([-0.75, -0.5, rng.uniform(-1, 0)]))
    if (mode == "cubic" or aa) and rng.random() < 0.4:
        attrs["exclude_outside"] = 1
    if aa:
        attrs["antialias"] = 1
    if attrs["coordinate_transformation_mode"] == "tf_crop_and_resize":
        attrs["extrapolation_value"] = float(rng.choice([0.0, 10.5, -3.0, 300.0]))
    use_axes = rng.random() < 0.4
    inputs = {}
    if rng.random() < 0.5:
        values = [float(rng.choice([0.5, 1.5, 2.0, 0.75, 3.0, 1.3, 0.6, rng.uniform(0.2, 3)]))
                  for _ in axes]
        full = np.ones(rank)
        full[axes] = values
        inputs["scales"] = np.array(values if use_axes else full, np.float32)
    else:
        values = [int(rng.integers(1, 30 if rank <= 2 else 12)) for _ in axes]
        full = np.array(shape)
        full[axes] = values
        inputs["sizes"] = np.array(values if use_axes else full, np.int64)
        if len(axes) > 1 and rng.random() < 0.25:
            attrs["keep_aspect_ratio_policy"] = str(rng.choice(["not_larger", "not_smaller"]))
    if attrs["coordinate_transformation_mode"] == "tf_crop_and_resize" and rng.random() < 0.8:
        k = len(axes) if use_axes else rank
        start = rng.uniform(-0.3, 0.6, k)
        end = start + rng.uniform(0.1, 1.0, k)
        if not use_axes:
            others = [a for a in range(rank) if a not in axes]
            start[others], end[others] = 0, 1
        inputs["roi"] = np.concatenate([start, end]).astype(np.float32)
    if use_axes:
        attrs["axes"] = axes
    if np.dtype(dtype).kind == "f":
        X = (rng.standard_normal(shape) * 50).astype(dtype)
    else:
        info = np.iinfo(dtype)
        X = rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, shape).astype(dtype)
    return X, inputs, attrs


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "int8", "uint8"])
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_onnxruntime_flavour_random(mode, dtype):
    """Bit for bit with onnxruntime on random cases across every attribute, or refused where
    its CPU kernel refuses or fails."""
    pytest.importorskip("onnxruntime")
    rng = np.random.default_rng(sum(map(ord, mode + dtype)))
    compared = 0
    for _ in range(45):
        X, inputs, attrs = ort_random_case(rng, mode, np.dtype(dtype))
        expected = ort_or_none(X, inputs, attrs)
        if expected is None:
            with pytest.raises(rx.ResamplexError):
                ronnx.resize(X, **inputs, **attrs)
            continue
        got = ronnx.resize(X, **inputs, **attrs)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        assert np.array_equal(got, expected, equal_nan=True), (
            f"X{X.shape} {inputs} {attrs}: {int((got != expected).sum())} of {got.size} differ")
        compared += 1
    assert compared >= 10


def test_onnxruntime_linear_rows_at_every_cpu_level():
    """ONNX Runtime's linear on NCHW float32 weighs each output's corners by products of the
    axes' weights; where every output of a row has two adjacent W taps, the rows are summed
    several outputs a vector (eight at AVX-512, four at AVX2) over blocks laid out once per
    pass, from a window of the row or by 64-bit pair loads, and a block with a clamped end
    output by output. Widths of 1 to 131 pixels to 1 to 458, enlarging and shrinking, four
    coordinate transforms, NaN, infinities and -0.0; at every CPU level, on 1 and 2 threads:
    bit for bit with onnxruntime."""
    pytest.importorskip("onnxruntime")
    from resamplex._engine import _exec

    rng = np.random.default_rng(57)
    cases = []
    for w in (1, 3, 8, 13, 40, 131):
        for ow in sorted({1, 4, 9, w // 5 + 1, 3 * w // 4 + 1, 2 * w + 3, 7 * w // 2}):
            h, oh = int(rng.integers(1, 9)), int(rng.integers(1, 12))
            X = (rng.standard_normal((1, 2, h, w)) * 50).astype(np.float32)
            X.reshape(-1)[rng.integers(0, X.size, 2)] = rng.choice([np.nan, np.inf, -np.inf,
                                                                   -0.0], 2)
            attrs = {"mode": "linear", "coordinate_transformation_mode": str(rng.choice(
                ("half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel")))}
            inputs = {"sizes": np.array([1, 2, oh, ow], np.int64)}
            want = ort_or_none(X, inputs, attrs)
            if want is not None:
                cases.append((X, inputs, attrs, want))
    assert len(cases) > 30
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for X, inputs, attrs, want in cases:
                for threads in (1, 2):
                    got = ronnx.resize(X, **inputs, **attrs, threads=threads)
                    assert got.shape == want.shape
                    assert np.array_equal(got, want, equal_nan=True), (level, X.shape, inputs,
                                                                       attrs)
    finally:
        _exec.set_cpu_level(before)


@pytest.mark.parametrize("name", BACKEND_CASES)
def test_backend_case_onnxruntime(name):
    """The default flavour equals onnxruntime itself on every backend case."""
    pytest.importorskip("onnxruntime")
    case = backend_cases().get(name)
    if case is None:
        pytest.skip(f"{name} is not in this onnx version's backend suite")
    X, inputs, attrs, _ = call_backend_case(case)
    expected = ort_resize(X, inputs, attrs)
    np.testing.assert_array_equal(ronnx.resize(X, **inputs, **attrs), expected)


def test_onnxruntime_rounding_and_casts():
    """Truncating stores, 10-bit NHWC weights, casts of extrapolation_value through int32."""
    pytest.importorskip("onnxruntime")
    X = np.array([[10, 11]], np.uint8)
    kw = dict(sizes=[4], axes=[1], mode="linear")
    np.testing.assert_array_equal(ronnx.resize(X, **kw), [[10, 10, 10, 11]])
    np.testing.assert_array_equal(ronnx.resize(X, **kw), ort_resize(
        X, {"sizes": np.array([4], np.int64)}, dict(mode="linear", axes=[1])))
    X = np.arange(16, dtype=np.uint8).reshape(1, 1, 4, 4)
    for ev in (300.0, -5.0, 10.7, 1e10):
        attrs = dict(mode="nearest", coordinate_transformation_mode="tf_crop_and_resize",
                     extrapolation_value=ev)
        inputs = {"roi": np.array([0, 0, -0.5, -0.5, 1, 1, 1.5, 1.5], np.float32),
                  "sizes": np.array([1, 1, 3, 3], np.int64)}
        np.testing.assert_array_equal(ronnx.resize(X, **inputs, **attrs),
                                      ort_resize(X, inputs, attrs))


def test_nearest_ties_follow_onnxruntime():
    """round_prefer_ceil on 21 -> 24 asymmetric: the float32 coordinate of output 4 is
    3.4999998, a tie within onnxruntime's 1e-6 (index 4), not 3."""
    X = np.arange(21, dtype=np.int32)
    got = ronnx.resize(X, sizes=[24], mode="nearest", coordinate_transformation_mode="asymmetric",
                       nearest_mode="round_prefer_ceil")
    assert got[4] == 4
    assert ref_resize(X, sizes=[24], mode="nearest", coordinate_transformation_mode="asymmetric",
                      nearest_mode="round_prefer_ceil")[4] == 4  # exact 3.5 in float64


def test_reference_cubic_bug_is_kept_in_its_flavour():
    """13 -> 15 half_pixel cubic of arange(13): the reference reads the previous sample at
    an exact integer coordinate (5 at output 7); onnxruntime gives 6."""
    x = np.arange(13, dtype=np.float32).reshape(1, 13)
    kw = dict(sizes=[15], axes=[1], mode="cubic")
    assert ref_resize(x, **kw)[0, 7] == 5
    assert ronnx.resize(x, **kw)[0, 7] == 6
    assert reference(x, {"sizes": np.array([15])}, dict(mode="cubic", axes=[1]))[0, 7] == 5


@pytest.mark.parametrize("flavour", ["onnxruntime", "reference"])
def test_missing_roi_with_crop_is_the_whole_input(flavour):
    X = np.random.default_rng(1).standard_normal((1, 1, 5, 6)).astype(np.float32)
    kw = dict(sizes=[1, 1, 7, 4], mode="linear",
              coordinate_transformation_mode="tf_crop_and_resize", flavour=flavour)
    np.testing.assert_array_equal(
        ronnx.resize(X, **kw), ronnx.resize(X, [0, 0, 0, 0, 1, 1, 1, 1], **kw))
    if flavour == "onnxruntime":
        attrs = dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize")
        np.testing.assert_array_equal(
            ronnx.resize(X, **kw), ort_resize(X, {"sizes": np.array([1, 1, 7, 4])}, attrs))


@pytest.mark.parametrize("kwargs, match", [
    (dict(sizes=[4, 6], mode="linear", exclude_outside=1), "exclude_outside"),
    (dict(sizes=[4, 6], mode="linear", rounding="toward_zero"), "rounding"),
    (dict(sizes=[4, 6], flavour="ort"), "flavour"),
])
def test_onnxruntime_flavour_errors(kwargs, match):
    with pytest.raises(rx.ResamplexError, match=match):
        ronnx.resize(np.ones((2, 3), np.float32), **kwargs)


@pytest.mark.parametrize("X, kwargs, match", [
    (np.ones((2, 3)), dict(sizes=[4, 6]), "float64"),
    (np.ones((2, 3), np.int16), dict(sizes=[4, 6]), "int16"),
    (np.ones((3,), np.float32), dict(sizes=[6], mode="linear"), "'linear'"),
    (np.ones((2, 2, 3, 3), np.float32), dict(sizes=[3, 3, 4, 4], mode="cubic"), "'cubic'"),
    (np.ones((2, 3), np.uint8), dict(sizes=[4, 6], mode="cubic"), "'cubic'"),
])
def test_onnxruntime_flavour_refusals(X, kwargs, match):
    with pytest.raises(rx.UnsupportedError, match=match):
        ronnx.resize(X, **kwargs)


def test_onnxruntime_empty_output_and_copy():
    X = np.arange(10, dtype=np.float32).reshape(2, 5)
    assert ronnx.resize(X, scales=[1.0, 0.1]).shape == (2, 0)  # int64(0.1 * 5) = 0
    roi = [0, 0.3, 1, 0.6]
    np.testing.assert_array_equal(  # no length changes: a copy, whatever the roi
        ronnx.resize(X, roi, sizes=[2, 5], coordinate_transformation_mode="tf_crop_and_resize"),
        X)
