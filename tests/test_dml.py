"""DirectML facade (SPEC §4): conventions, support tables, adjoint, validation.

Golden values are worked out by hand in the comments from the SPEC / research formulas:
``u = ((float)o - b) / s - a`` in float32; RESAMPLE/RESAMPLE1 nearest ``floor(u + 0.5)``;
RESAMPLE2/3 ``DECREASING`` = ``floor(u)``, ``INCREASING`` = ``ceil(u)``; clamp to the input.
"""

import itertools
import math
import os

import numpy as np
import pytest

from resamplex import ResamplexError, UnsupportedError, dml

NN, LIN = "nearest_neighbor", "linear"
F32 = np.float32


# ============================================================================ independent model
# Written here from the SPEC text, not imported from dml.py.

def ref_coordinates(n_out, s, a, b):
    """u = ((float)o - b) / s - a, every operation rounded to float32."""
    o = np.arange(n_out).astype(np.float32)
    t = o - np.float32(b)
    t = t / np.float32(s)
    return t - np.float32(a)


def ref_nearest(n_in, n_out, s, a, b, rule):
    u = ref_coordinates(n_out, s, a, b)
    if rule == "half_up":
        k = [math.floor(np.float32(v + np.float32(0.5))) for v in u]
    elif rule == "floor":
        k = [math.floor(v) for v in u]
    else:
        k = [math.ceil(v) for v in u]
    return np.array([min(max(v, 0), n_in - 1) for v in k])


def ref_linear_matrix(n_in, n_out, s, a, b):
    """Dense (n_out, n_in) float64 matrix of the float32 linear weights."""
    W = np.zeros((n_out, n_in))
    for o, u in enumerate(ref_coordinates(n_out, s, a, b)):
        i0 = math.floor(u)
        f = np.float32(u - np.float32(i0))
        lo, hi = min(max(i0, 0), n_in - 1), min(max(i0 + 1, 0), n_in - 1)
        if lo == hi:
            W[o, lo] += 1.0
        else:
            W[o, lo] += float(np.float32(1) - f)
            W[o, hi] += float(f)
    return W


# ============================================================================ enums and spellings

def test_enum_values():
    assert [int(v) for v in dml.FeatureLevel] == [
        0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000, 0x5100, 0x5200,
        0x6000, 0x6100, 0x6200, 0x6300, 0x6400]
    assert dml.FeatureLevel.FL_6_2 == 0x6200
    assert dml.FeatureLevel.FL_6_2.dml_name == "DML_FEATURE_LEVEL_6_2"
    assert dml.DEFAULT_FEATURE_LEVEL is dml.FeatureLevel.FL_6_4
    assert (dml.InterpolationMode.NEAREST_NEIGHBOR, dml.InterpolationMode.LINEAR) == (0, 1)
    assert (dml.AxisDirection.INCREASING, dml.AxisDirection.DECREASING) == (0, 1)


@pytest.mark.parametrize("level", ["6_2", "6.2", 0x6200, "DML_FEATURE_LEVEL_6_2",
                                   dml.FeatureLevel.FL_6_2, np.int32(0x6200)])
def test_feature_level_spellings(level):
    x = np.zeros(3, np.int8)  # INT8 appears at 6_2, so 6_2 must be what was parsed
    assert dml.resample(x, [1.0], interpolation_mode=NN, feature_level=level).shape == (3,)
    with pytest.raises(UnsupportedError, match="DML_FEATURE_LEVEL_6_1"):
        dml.resample(x, [1.0], interpolation_mode=NN, feature_level="6_1")


@pytest.mark.parametrize("bad", ["7_0", "6_5", 0x6500, 6.2, True, None, "linear"])
def test_feature_level_refused(bad):
    with pytest.raises(ResamplexError, match="feature_level"):
        dml.resample(np.zeros(3, F32), [1.0], interpolation_mode=NN, feature_level=bad)


def test_interpolation_mode_spellings():
    x = np.array([0, 1], F32)
    want = {0: [0, 0, 1, 1], 1: [0, 0.25, 0.75, 1]}
    for value, spellings in want.items():
        for mode in [("nearest_neighbor", "linear")[value],
                     ("DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
                      "DML_INTERPOLATION_MODE_LINEAR")[value],
                     dml.InterpolationMode(value)]:
            np.testing.assert_array_equal(dml.resample(x, [2], interpolation_mode=mode),
                                          spellings)
    for bad in ["nearest", "cubic", 2, True, None]:
        with pytest.raises(ResamplexError, match="interpolation_mode"):
            dml.resample(x, [2], interpolation_mode=bad)


def test_rounding_direction_spellings():
    # u = (o + 0.5) / 2 - 0.5 = 0.5 o - 0.25: -0.25, 0.25, 0.75, 1.25
    # floor -> -1 (clamped 0), 0, 0, 1; ceil -> 0, 1, 1, 2 (clamped 1).
    x = np.array([10, 20], F32)
    cases = {"decreasing": [10, 10, 10, 20], "increasing": [10, 20, 20, 20]}
    for name, want in cases.items():
        for spelling in [name, name.upper(), "DML_AXIS_DIRECTION_" + name.upper(),
                         dml.AxisDirection[name.upper()]]:
            got = dml.resample2(x, [2], [0.5], [-0.5], interpolation_mode=NN,
                                rounding_direction=spelling)
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ResamplexError, match="rounding_direction"):
        dml.resample2(x, [2], [0.5], [-0.5], interpolation_mode=NN, rounding_direction="up")


# ============================================================================ support tables

# SPEC §4, copied literally: (operator, from level, ranks, dtypes).
SPEC_TABLE = [
    ("DML_UPSAMPLE_2D", "1_0", (4, 5), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE", "2_0", (4,), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE", "5_1", (1, 2, 3, 4), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE", "6_2", (1, 2, 3, 4), "FLOAT32, FLOAT16, INT8, UINT8"),
    ("DML_RESAMPLE1", "2_1", (4,), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE1", "5_1", (1, 2, 3, 4), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE1", "6_2", (1, 2, 3, 4), "FLOAT32, FLOAT16, INT8, UINT8"),
    ("DML_RESAMPLE2", "5_1", (1, 2, 3, 4), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE2", "6_2", (1, 2, 3, 4), "FLOAT32, FLOAT16, INT8, UINT8"),
    ("DML_RESAMPLE3", "6_4", (1, 2, 3, 4), "FLOAT32, FLOAT16, INT8, UINT8"),
    ("DML_RESAMPLE_GRAD", "3_0", (4,), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE_GRAD", "5_1", (1, 2, 3, 4), "FLOAT32, FLOAT16"),
    ("DML_RESAMPLE_GRAD1", "5_1", (1, 2, 3, 4), "FLOAT32, FLOAT16"),
]


def test_tensor_support_is_the_spec_table():
    rows = [(op, row.from_level.name[3:], row.ranks, ", ".join(row.dtypes))
            for op, op_rows in dml.TENSOR_SUPPORT.items() for row in op_rows]
    assert rows == SPEC_TABLE
    for op_rows in dml.TENSOR_SUPPORT.values():
        levels = [row.from_level for row in op_rows]
        assert levels == sorted(levels)
    with pytest.raises(TypeError):
        dml.TENSOR_SUPPORT["DML_RESAMPLE"] = ()  # read-only


def test_support_table_markdown():
    md = dml.support_table_markdown().splitlines()
    assert md[0] == "| operator | from level | dimension counts | data types |"
    assert len(md) == 2 + len(SPEC_TABLE)
    assert "| DML_RESAMPLE | 6_2 | 1–4 | FLOAT32, FLOAT16, INT8, UINT8 |" in md
    assert "| DML_UPSAMPLE_2D | 1_0 | 4–5 | FLOAT32, FLOAT16 |" in md


def test_readme_table_is_rendered_from_tensor_support():
    readme = os.path.join(os.path.dirname(__file__), os.pardir, "README.md")
    if not os.path.exists(readme):
        pytest.skip("no README.md next to tests/")
    with open(readme, encoding="utf-8") as f:
        assert dml.support_table_markdown() in f.read()


def _call(op, x, level):
    """Run ``op`` on ``x`` with valid parameters (linear, the last axis doubled)."""
    n = x.ndim
    scales = [1.0] * (n - 1) + [2.0]
    a, b = [0.5] * n, [-0.5] * n
    kw = dict(interpolation_mode=LIN, feature_level=level)
    if op == "DML_RESAMPLE":
        return dml.resample(x, scales, **kw)
    if op == "DML_RESAMPLE1":
        return dml.resample1(x, scales, a, b, **kw)
    if op == "DML_RESAMPLE2":
        return dml.resample2(x, scales, a, b, rounding_direction="increasing", **kw)
    if op == "DML_RESAMPLE3":
        return dml.resample3(x, scales, a, b, rounding_direction="increasing", **kw)
    if op == "DML_UPSAMPLE_2D":
        return dml.upsample_2d(x, (1, 2), **kw)
    in_shape = x.shape[:-1] + (1,)  # the forward op doubled the last axis: 1 -> 2
    if op == "DML_RESAMPLE_GRAD":
        return dml.resample_grad(x, in_shape, scales, a, b, **kw)
    return dml.resample_grad1(x, in_shape, scales, a, b, rounding_direction=1, **kw)


LABELS = {"float32": "FLOAT32", "float16": "FLOAT16", "int8": "INT8", "uint8": "UINT8",
          "float64": "FLOAT64"}
TABLE_CASES = list(itertools.product(dml.TENSOR_SUPPORT, dml.FeatureLevel))


@pytest.mark.parametrize("op, level", TABLE_CASES,
                         ids=[f"{o[4:]}-{lv.name[3:]}" for o, lv in TABLE_CASES])
def test_support_enforced(op, level):
    """Every (operator, level, rank 1-5, dtype): accepted or refused as TENSOR_SUPPORT says."""
    rows = dml.TENSOR_SUPPORT[op]
    active = [r for r in rows if r.from_level <= level]
    row = active[-1] if active else None
    for ndim, dtype in itertools.product(range(1, 6), LABELS):
        case = f"{op} {level.name} {ndim}-D {dtype}"
        label = LABELS[dtype]
        accepted = row is not None and ndim in row.ranks and label in row.dtypes
        lowest = next((r.from_level for r in rows if ndim in r.ranks and label in r.dtypes),
                      None)
        assert dml.supports(op, ndim, dtype, level) == accepted, case
        x = np.ones((2,) * ndim, dtype=dtype)
        if accepted:
            y = _call(op, x, level)
            assert y.dtype == x.dtype and y.ndim == ndim, case
            # Linear of ones is ones; the gradient's input sample is read by 2 outputs.
            assert np.all(y == (2 if op.startswith("DML_RESAMPLE_GRAD") else 1)), case
            continue
        with pytest.raises(UnsupportedError) as info:
            _call(op, x, level)
        msg = str(info.value)
        assert msg.startswith(op + " ") and level.dml_name in msg, (case, msg)
        needs = (f"(needs {lowest.dml_name})" if lowest is not None
                 else "(no feature level supports it)")
        assert msg.endswith(needs), (case, msg)
        if row is None:
            assert "does not exist" in msg and label in msg and f"got {ndim}" in msg, msg
        else:
            if label not in row.dtypes:
                assert label in msg.split("got ")[1] and ", ".join(row.dtypes) in msg, msg
            if ndim not in row.ranks:
                assert f"got {ndim}" in msg, msg


def test_support_message_exact():
    with pytest.raises(UnsupportedError) as info:
        dml.resample(np.zeros((1, 1, 2, 2), np.int8), [1, 1, 1, 1], interpolation_mode=NN,
                     feature_level="5_1")
    assert str(info.value) == ("DML_RESAMPLE at DML_FEATURE_LEVEL_5_1 supports FLOAT32, "
                               "FLOAT16; got INT8 (needs DML_FEATURE_LEVEL_6_2)")
    with pytest.raises(UnsupportedError) as info:
        dml.resample(np.zeros((2, 2), F32), [1, 1], interpolation_mode=NN, feature_level="2_0")
    assert str(info.value) == ("DML_RESAMPLE at DML_FEATURE_LEVEL_2_0 supports 4 dimensions; "
                               "got 2 (needs DML_FEATURE_LEVEL_5_1)")
    with pytest.raises(UnsupportedError) as info:
        dml.resample3(np.zeros(2, F32), [1], [0], [0], interpolation_mode=NN,
                      rounding_direction=0, feature_level="6_3")
    assert str(info.value).startswith("DML_RESAMPLE3 does not exist at DML_FEATURE_LEVEL_6_3")
    assert str(info.value).endswith("(needs DML_FEATURE_LEVEL_6_4)")


def test_supports_spellings_and_other_dtypes():
    for op in ["DML_RESAMPLE2", "RESAMPLE2", "resample2", "DML_OPERATOR_RESAMPLE2",
               dml.resample2]:
        assert dml.supports(op, 3, "INT8", "6_2")
        assert not dml.supports(op, 3, "int8", "6_1")
    assert dml.supports("upsample_2d", 5, np.float16, 0x1000)
    assert not dml.supports("upsample_2d", 3, np.float16)
    for dtype in [np.float64, np.int32, np.uint16, bool, np.complex64,
                  "DML_TENSOR_DATA_TYPE_INT64"]:
        assert not dml.supports("resample", 2, dtype)
    assert dml.supports("resample", 2, ">f4")  # byte order is not a DirectML property
    with pytest.raises(ResamplexError, match="operator"):
        dml.supports("DML_CONVOLUTION", 2, F32)
    with pytest.raises(ResamplexError, match="ndim"):
        dml.supports("resample", -1, F32)


def test_unsupported_dtype_names():
    with pytest.raises(UnsupportedError, match="got bool"):
        dml.resample(np.zeros(2, bool), [1], interpolation_mode=NN)
    with pytest.raises(UnsupportedError, match="got INT32"):
        dml.resample(np.zeros(2, np.int32), [1], interpolation_mode=NN)
    with pytest.raises(UnsupportedError, match="got 0 "):  # 0-d input
        dml.resample(np.float32(1), [], interpolation_mode=NN)


# ============================================================================ golden cases

def test_resample_nearest_4x6_to_2x3():
    # research §1.5 / §13, Chromium WebNN on DirectML (WPT PR 41811): s = 0.5 on both axes,
    # u = (x + 0.5) / 0.5 - 0.5 = 2x + 0.5, floor(u + 0.5) = 2x + 1 -> rows 1, 3 and
    # columns 1, 3, 5: the bottom-right of each 2x2 block.
    x = np.arange(24, dtype=F32).reshape(4, 6)  # x[i, j] = 6 i + j
    got = dml.resample(x, [0.5, 0.5], interpolation_mode=NN)
    np.testing.assert_array_equal(got, [[7, 9, 11], [19, 21, 23]])
    # research §12 item 1: 1x6 -> 1x3 picks 1, 3, 5.
    np.testing.assert_array_equal(
        dml.resample(np.arange(6, dtype=F32)[None], [1, 0.5], interpolation_mode=NN), [[1, 3, 5]])


def test_resample2_nearest_ort_round_prefer_floor_vectors():
    # research §13: ORT's round_prefer_floor mapping a = 0.5 + 0.5 = 1.0, b = -0.5, INCREASING.
    x = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], F32)
    # "sizes" 1x3: scales out/in = (0.5, 0.75).
    # H: u = 0.5 / 0.5 - 1 = 0 -> ceil 0.  W: u = (o + 0.5) / 0.75 - 1 = -1/3, 1, 7/3
    # -> ceil 0, 1, 3 -> [1, 2, 4].
    got = dml.resample2(x, [0.5, 0.75], [1.0, 1.0], [-0.5, -0.5], interpolation_mode=NN,
                        rounding_direction="increasing", output_shape=(1, 3))
    np.testing.assert_array_equal(got, [[1, 2, 4]])
    # scales 0.6: output floor(2 * 0.6) x floor(4 * 0.6) = 1 x 2.  W: u = 0.5/0.6 - 1 = -1/6
    # -> 0; 1.5/0.6 - 1 = 1.5 (float32: 1.5 / 0.6000000238 = 2.4999999 rounds to 2.5) -> 2.
    got = dml.resample2(x, [0.6, 0.6], [1.0, 1.0], [-0.5, -0.5], interpolation_mode=NN,
                        rounding_direction="increasing")
    np.testing.assert_array_equal(got, [[1, 3]])


def test_resample_linear_scales_0_6():
    # research §13: H u = 0.5/0.6 - 0.5 = 1/3; W u = 1/3 and 2.
    # rows interpolated at x = 1/3: 1 + 1/3 = 4/3 and 5 + 1/3; then 4/3 + (1/3)*4 = 8/3.
    # at x = 2: 3 and 7 -> 3 + 4/3 = 13/3.  ORT expects [2.66666651, 4.3333331].
    x = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], F32)
    got = dml.resample(x, [0.6, 0.6], interpolation_mode=LIN)
    assert got.shape == (1, 2)
    np.testing.assert_allclose(got, [[2.66666651, 4.3333331]], rtol=4 * 2**-23)


def test_resample1_linear_asymmetric_and_align_corners():
    x = np.array([[1, 3], [4, 8]], F32)
    # asymmetric a = b = 0, scales (2, 4): H u = o/2 = 0, .5, 1, 1.5 (clamped -> row 1);
    # W u = o/4 = 0, .25, ..., 1, then clamped: row 0 = 1, 1.5, 2, 2.5, 3, 3, 3, 3.
    got = dml.resample1(x, [2, 4], [0, 0], [0, 0], interpolation_mode=LIN)
    row0 = [1, 1.5, 2, 2.5, 3, 3, 3, 3]
    row1 = [2.5, 3.25, 4, 4.75, 5.5, 5.5, 5.5, 5.5]
    row2 = [4, 5, 6, 7, 8, 8, 8, 8]
    np.testing.assert_array_equal(got, [row0, row1, row2, row2])
    # align_corners: s = (out - 1)/(in - 1) = (3, 7), a = b = 0: u = o/7 on W; first row
    # 1 + 2 o / 7.
    got = dml.resample1(x, [3, 7], [0, 0], [0, 0], interpolation_mode=LIN, output_shape=(4, 8))
    np.testing.assert_allclose(got[0], 1 + 2 * np.arange(8) / 7, rtol=4 * 2**-23)
    assert got[0, 1] == F32(1.2857144) and got[0, -1] == 3 and got[-1, -1] == 8


def test_crop_and_clamp():
    # DirectML: scaled input larger than the output -> cropped; smaller -> edge clamped.
    x = np.array([10, 20, 30, 40], F32)
    # s = 2: u = (o + .5)/2 - .5, floor(u + .5) = floor(o/2 + .25) = o // 2.
    np.testing.assert_array_equal(
        dml.resample(x, [2], interpolation_mode=NN, output_shape=(4,)), [10, 10, 20, 20])
    np.testing.assert_array_equal(
        dml.resample(x, [2], interpolation_mode=NN, output_shape=(10,)),
        [10, 10, 20, 20, 30, 30, 40, 40, 40, 40])  # o = 8, 9 -> 4 -> clamped to 3
    # Linear: u = o/2 - .25; o = 7..9 -> u >= 3.25 clamps to the last sample.
    got = dml.resample(x, [2], interpolation_mode=LIN, output_shape=(10,))
    np.testing.assert_array_equal(got, [10, 12.5, 17.5, 22.5, 27.5, 32.5, 37.5, 40, 40, 40])
    # out= decides the output shape.
    out = np.empty(3, F32)
    assert dml.resample(x, [2], interpolation_mode=NN, out=out) is out
    np.testing.assert_array_equal(out, [10, 10, 20])


def test_float32_coordinate_tie():
    # 6 -> 1 with s = float32(1/6) = 0.16666667163: exactly, u = 0.5 / s - 0.5 = 2.49999991
    # and floor(u + 0.5) = 2. In float32, 0.5 / s = 2.99999991 rounds to 3.0, u = 2.5 and
    # floor(u + 0.5) = 3. DirectML computes in float32: index 3.
    x = np.arange(6, dtype=F32)
    assert dml.resample(x, [1 / 6], interpolation_mode=NN).tolist() == [3.0]


def test_resample2_and_3_rounding_directions():
    # a = b = 0, s = 1.5: u = o / 1.5 = 0, 0.667, 1.333, 2 (float32).
    # DECREASING floor: 0, 0, 1, 2; INCREASING ceil: 0, 1, 2, 2.
    x = np.array([10, 20, 30], F32)
    for fn in (dml.resample2, dml.resample3):
        dec = fn(x, [1.5], [0], [0], interpolation_mode=NN, rounding_direction="decreasing",
                 output_shape=(4,))
        inc = fn(x, [1.5], [0], [0], interpolation_mode=NN, rounding_direction="increasing",
                 output_shape=(4,))
        np.testing.assert_array_equal(dec, [10, 10, 20, 30])
        np.testing.assert_array_equal(inc, [10, 20, 30, 30])
        # Linear ignores the direction: 10, 16.67, 23.33, 30.
        lin = [fn(x, [1.5], [0], [0], interpolation_mode=LIN, rounding_direction=d,
                  output_shape=(4,)) for d in (0, 1)]
        np.testing.assert_array_equal(lin[0], lin[1])
        np.testing.assert_allclose(lin[0], [10, 50 / 3, 70 / 3, 30], rtol=1e-6)


def test_resample_grad_documentation_example():
    # DirectML's RESAMPLE_GRAD page: nearest, x1.5 width, x0.5 height, [[1,2],[3,4]] ->
    # [1,1,2]; gradient [4,5,6] -> [[9,6],[0,0]]. Offsets unstated; asymmetric floor
    # reproduces it: RESAMPLE2 DECREASING a = b = 0 (u = o / s) or RESAMPLE1 a = 0.5, b = 0
    # (floor(o/s - 0.5 + 0.5)). W: u = 0, 0.667, 1.333 -> 0, 0, 1. H: u = 0 -> 0.
    x = np.array([[1, 2], [3, 4]], F32)
    fwd = dml.resample2(x, [0.5, 1.5], [0, 0], [0, 0], interpolation_mode=NN,
                        rounding_direction="decreasing")
    np.testing.assert_array_equal(fwd, [[1, 1, 2]])
    g = np.array([[4, 5, 6]], F32)
    want = [[9, 6], [0, 0]]
    np.testing.assert_array_equal(
        dml.resample_grad1(g, (2, 2), [0.5, 1.5], [0, 0], [0, 0], interpolation_mode=NN,
                           rounding_direction="decreasing"), want)
    np.testing.assert_array_equal(
        dml.resample_grad(g, (2, 2), [0.5, 1.5], [0.5, 0.5], [0, 0], interpolation_mode=NN),
        want)


def test_resample_grad_linear_golden():
    # Forward: [a, b] -> 4 with s = 2 (half-pixel): weights rows (1,0), (.75,.25), (.25,.75),
    # (0,1). Adjoint of g = [1, 2, 3, 4]: input 0 gets 1 + .75*2 + .25*3 = 3.25,
    # input 1 gets .25*2 + .75*3 + 4 = 6.75.
    g = np.array([1, 2, 3, 4], F32)
    got = dml.resample_grad(g, (2,), [2], [0.5], [-0.5], interpolation_mode=LIN)
    np.testing.assert_array_equal(got, [3.25, 6.75])


def test_upsample_2d_golden():
    # Nearest with integer k: replication o // k on H and W only.
    x = np.arange(2 * 3 * 2 * 2, dtype=F32).reshape(2, 3, 2, 2)
    got = dml.upsample_2d(x, (2, 3), interpolation_mode=NN)
    assert got.shape == (2, 3, 4, 6)
    np.testing.assert_array_equal(got, np.repeat(np.repeat(x, 2, axis=2), 3, axis=3))
    # 5-D NCDHW: D is never resampled.
    x5 = np.arange(2 * 2 * 3 * 2 * 2, dtype=np.float16).reshape(2, 2, 3, 2, 2)
    got = dml.upsample_2d(x5, (1, 2), interpolation_mode=NN)
    np.testing.assert_array_equal(got, np.repeat(x5, 2, axis=4))
    # Linear, research §12 item 6: [0, 1] -> 4 is half-pixel [0, .25, .75, 1].
    lin = dml.upsample_2d(np.array([[[[0, 1]]]], F32), (1, 2), interpolation_mode=LIN)
    np.testing.assert_array_equal(lin, [[[[0, 0.25, 0.75, 1]]]])


def test_upsample_2d_linear_is_resample():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 2, 3, 5)).astype(F32)
    np.testing.assert_array_equal(
        dml.upsample_2d(x, (3, 2), interpolation_mode=LIN),
        dml.resample(x, [1, 1, 3, 2], interpolation_mode=LIN))
    x5 = rng.standard_normal((1, 2, 3, 4, 5)).astype(F32)
    got = dml.upsample_2d(x5, (2, 4), interpolation_mode=LIN)
    for d in range(3):
        np.testing.assert_array_equal(
            got[:, :, d], dml.resample(x5[:, :, d], [1, 1, 2, 4], interpolation_mode=LIN))


@pytest.mark.parametrize("scale_size, match", [
    ((0, 1), "height factor"), ((1, -2), "width factor"), ((1, 0xFFFFFFFF // 4 + 1), "1073741823"),
    ((1,), "scale_size"), ((1.0, 2), "scale_size"), ((True, 2), "scale_size"), ("12", "scale_size"),
])
def test_upsample_2d_scale_size_refused(scale_size, match):
    with pytest.raises(ResamplexError, match=match):
        dml.upsample_2d(np.zeros((1, 1, 3, 4), F32), scale_size, interpolation_mode=NN)


# ============================================================================ equivalences

SIZE_PAIRS = [(20, 6), (7, 3), (5, 13), (4, 6), (9, 4), (6, 1), (1, 5), (10, 17), (31, 8)]


@pytest.mark.parametrize("mode", [NN, LIN])
def test_resample_is_resample1_half_pixel(mode):
    rng = np.random.default_rng(1)
    for (hi, ho), (wi, wo) in itertools.combinations(SIZE_PAIRS, 2):
        x = rng.standard_normal((hi, wi)).astype(F32)
        s = [ho / hi, wo / wi]
        np.testing.assert_array_equal(
            dml.resample(x, s, interpolation_mode=mode, output_shape=(ho, wo)),
            dml.resample1(x, s, [0.5, 0.5], [-0.5, -0.5], interpolation_mode=mode,
                          output_shape=(ho, wo)))


def test_resample1_is_resample2_decreasing_with_input_offsets_minus_half():
    # research §1.5: RESAMPLE1(a, b) == RESAMPLE2(DECREASING, a - 0.5, b) for nearest; the
    # documentation's "OutputPixelOffsets adjusted by -0.5" only holds for scale 1.
    rng = np.random.default_rng(2)
    doc_mismatches = 0
    for n_in, n_out in SIZE_PAIRS:
        x = np.arange(n_in, dtype=F32)
        for s in [n_out / n_in, float(rng.uniform(0.1, 4))]:
            for a, b in [(0.5, -0.5), (0, 0), (1.0, -0.5), (0, -0.5), (0.25, 0.5)]:
                r1 = dml.resample1(x, [s], [a], [b], interpolation_mode=NN,
                                   output_shape=(n_out,))
                r2 = dml.resample2(x, [s], [a - 0.5], [b], interpolation_mode=NN,
                                   rounding_direction="decreasing", output_shape=(n_out,))
                np.testing.assert_array_equal(r1, r2)
                doc = dml.resample2(x, [s], [a], [b - 0.5], interpolation_mode=NN,
                                    rounding_direction="decreasing", output_shape=(n_out,))
                doc_mismatches += int(np.any(doc != r1))
    assert doc_mismatches > 0  # the documented relation is indeed not the right one


def test_round_half_down_is_increasing_plus_half():
    # ORT's round_prefer_floor: INCREASING with a + 0.5 gives ceil(u - 0.5).
    for n_in, n_out in SIZE_PAIRS:
        x = np.arange(n_in, dtype=F32)
        got = dml.resample2(x, [n_out / n_in], [1.0], [-0.5], interpolation_mode=NN,
                            rounding_direction="increasing", output_shape=(n_out,))
        np.testing.assert_array_equal(got, ref_nearest(n_in, n_out, n_out / n_in, 1.0, -0.5,
                                                       "ceil"))


# ============================================================================ coordinate map

MAP_CASES = [(n_in, n_out, s, a, b)
             for n_in, n_out in SIZE_PAIRS
             for s in (n_out / n_in, 0.37, 2.5, 1 / 3)
             for a, b in ((0.5, -0.5), (0, 0), (1.0, -0.5), (-0.3, 0.7))]


def test_nearest_indices_follow_float32_map():
    for n_in, n_out, s, a, b in MAP_CASES:
        x = np.arange(n_in, dtype=F32)  # output value == selected index
        kw = dict(interpolation_mode=NN, output_shape=(n_out,))
        got1 = dml.resample1(x, [s], [a], [b], **kw)
        np.testing.assert_array_equal(got1, ref_nearest(n_in, n_out, s, a, b, "half_up"))
        for direction, rule in (("decreasing", "floor"), ("increasing", "ceil")):
            got2 = dml.resample2(x, [s], [a], [b], rounding_direction=direction, **kw)
            np.testing.assert_array_equal(got2, ref_nearest(n_in, n_out, s, a, b, rule))


def test_linear_weights_follow_float32_map():
    rng = np.random.default_rng(3)
    for n_in, n_out, s, a, b in MAP_CASES[::3]:
        W = ref_linear_matrix(n_in, n_out, s, a, b)
        # float64 data through the same tables (Plan directly): exact up to float64 rounding.
        plan = dml._forward_plan("test", (n_in,), (n_out,), np.array([s], F32),
                                 np.array([a], F32), np.array([b], F32),
                                 mode=dml.InterpolationMode.LINEAR, rule=dml._ROUND_HALF_UP)
        x64 = rng.standard_normal(n_in)
        np.testing.assert_allclose(plan(x64), W @ x64, rtol=0, atol=1e-12)
        # float32 through the public function: SPEC §3, within 4 ulp of max |x|.
        x32 = x64.astype(F32)
        got = dml.resample1(x32, [s], [a], [b], interpolation_mode=LIN, output_shape=(n_out,))
        np.testing.assert_allclose(got, W @ x32.astype(np.float64), rtol=0,
                                   atol=4 * np.spacing(np.abs(x32).max()))


def test_linear_2d_separable():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 7)).astype(F32)
    s, a, b = (0.7, 1.8), (0.5, 0.0), (-0.5, 0.25)
    Wh = ref_linear_matrix(5, 3, s[0], a[0], b[0])
    Ww = ref_linear_matrix(7, 12, s[1], a[1], b[1])
    got = dml.resample1(x, s, a, b, interpolation_mode=LIN)
    assert got.shape == (3, 12)
    np.testing.assert_allclose(got, Wh @ x.astype(np.float64) @ Ww.T, rtol=0,
                               atol=4 * np.spacing(np.abs(x).max()))


# ============================================================================ integer rounding

def test_integer_rounding_options():
    # research §12 item 4: uint8 [1..4; 5..8], scales 0.6 -> [8/3, 13/3].
    x = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.uint8)
    kw = dict(interpolation_mode=LIN)
    assert dml.resample(x, [0.6, 0.6], **kw).tolist() == [[3, 4]]  # half_even default
    assert dml.resample(x, [0.6, 0.6], rounding="toward_zero", **kw).tolist() == [[2, 4]]
    # int8 negated: [-8/3, -13/3] -> half_even [-3, -4], toward_zero [-2, -4].
    xn = -x.astype(np.int8)
    assert dml.resample(xn, [0.6, 0.6], **kw).tolist() == [[-3, -4]]
    assert dml.resample(xn, [0.6, 0.6], rounding="toward_zero", **kw).tolist() == [[-2, -4]]
    # Ties: asymmetric x2 on [1, 2, 3]: u = o/2 -> 1, 1.5, 2, 2.5, 3, 3.
    t = np.array([1, 2, 3], np.uint8)
    want = {"half_even": [1, 2, 2, 2, 3, 3], "half_away_from_zero": [1, 2, 2, 3, 3, 3],
            "toward_zero": [1, 1, 2, 2, 3, 3]}
    for rounding, values in want.items():
        got = dml.resample1(t, [2], [0], [0], rounding=rounding, **kw)
        assert got.tolist() == values, rounding
    with pytest.raises(ResamplexError, match="rounding"):
        dml.resample(x, [0.6, 0.6], rounding="nearest", **kw)
    # Nearest copies integers exactly.
    assert dml.resample(x, [0.5, 0.5], interpolation_mode=NN).tolist() == [[6, 8]]


def test_integer_rounding_refused_below_6_2():
    with pytest.raises(UnsupportedError, match="needs DML_FEATURE_LEVEL_6_2"):
        dml.resample2(np.zeros(4, np.uint8), [1], [0], [0], interpolation_mode=LIN,
                      rounding_direction=0, feature_level="6_1")


# ============================================================================ adjoint

GRAD_CASES = [
    ((3, 5), (4, 2), (4 / 3, 0.4), (0.5, 0.5), (-0.5, -0.5)),
    ((4, 4), (7, 3), (1.6, 0.9), (0.0, 1.0), (0.0, -0.5)),
    ((6, 2), (2, 5), (0.3, 2.5), (0.25, 0.5), (0.5, -0.5)),
]


def ref_matrix(in_shape, out_shape, s, a, b, mode, rule="half_up"):
    """The forward operator from the float32 map above (not from the library): the Kronecker
    product of the per-axis matrices."""
    A = np.ones((1, 1))
    for d, (n_in, n_out) in enumerate(zip(in_shape, out_shape)):
        if mode in (LIN, dml.InterpolationMode.LINEAR):
            W = ref_linear_matrix(n_in, n_out, s[d], a[d], b[d])
        else:
            W = np.zeros((n_out, n_in))
            W[np.arange(n_out), ref_nearest(n_in, n_out, s[d], a[d], b[d], rule)] = 1.0
        A = np.kron(A, W)
    return A


@pytest.mark.parametrize("mode", [NN, LIN])
@pytest.mark.parametrize("case", GRAD_CASES)
def test_resample_grad_is_transpose(case, mode):
    in_shape, out_shape, s, a, b = case
    A = ref_matrix(in_shape, out_shape, s, a, b, mode)
    y = np.random.default_rng(5).standard_normal(out_shape).astype(F32)
    got = dml.resample_grad(y, in_shape, s, a, b, interpolation_mode=mode)
    assert got.shape == in_shape and got.dtype == F32
    want = (A.T @ y.reshape(-1).astype(np.float64)).reshape(in_shape)
    np.testing.assert_allclose(got, want, rtol=0, atol=8 * np.spacing(F32(np.abs(want).max())))
    for direction, rule in (("increasing", "ceil"), ("decreasing", "floor")):
        A1 = ref_matrix(in_shape, out_shape, s, a, b, mode, rule)
        got1 = dml.resample_grad1(y, in_shape, s, a, b, interpolation_mode=mode,
                                  rounding_direction=direction)
        want1 = (A1.T @ y.reshape(-1).astype(np.float64)).reshape(in_shape)
        np.testing.assert_allclose(got1, want1, rtol=0,
                                   atol=8 * np.spacing(F32(np.abs(want1).max())))


@pytest.mark.parametrize("mode", [dml.InterpolationMode.NEAREST_NEIGHBOR,
                                  dml.InterpolationMode.LINEAR])
@pytest.mark.parametrize("case", GRAD_CASES)
def test_adjoint_identity_float64(case, mode):
    # float64 data through the dml tables and Plan: the forward is A and the adjoint A^T, with
    # A from the float32 map (ref_matrix), to 1e-12 -- so <A x, y> == <x, A^T y> with the
    # reference's A (the library's own forward would make the identity hold for wrong tables)
    in_shape, out_shape, s, a, b = case
    plan = dml._forward_plan("test", in_shape, out_shape, np.array(s, F32), np.array(a, F32),
                             np.array(b, F32), mode=mode, rule=dml._ROUND_HALF_UP)
    A = ref_matrix(in_shape, out_shape, s, a, b, mode)
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal(in_shape), rng.standard_normal(out_shape)
    np.testing.assert_allclose(plan(x).ravel(), A @ x.ravel(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(plan.adjoint_plan()(y).ravel(), A.T @ y.ravel(), rtol=0,
                               atol=1e-12 * np.abs(A).sum(axis=0).max())


def test_resample_grad_nearest_exact_and_float16():
    # Nearest adjoint of integers is exact: counts of how often each input is read.
    g = np.ones((1, 9), np.float16)
    # 4 -> 9 with s = 9/4 half-pixel: reads 0,0,1,1,2,2,2,3,3 (o = 4: u = 1.5 -> 2).
    got = dml.resample_grad(g, (1, 4), [1, 9 / 4], [0.5, 0.5], [-0.5, -0.5],
                            interpolation_mode=NN)
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, [[2, 2, 3, 2]])


def test_resample_grad_validation():
    g = np.zeros((2, 3), F32)
    kw = dict(interpolation_mode=NN)
    with pytest.raises(ResamplexError, match="input_shape"):
        dml.resample_grad(g, (2,), [1, 1], [0, 0], [0, 0], **kw)
    with pytest.raises(ResamplexError, match="input_shape"):
        dml.resample_grad(g, (2, -1), [1, 1], [0, 0], [0, 0], **kw)
    with pytest.raises(ResamplexError, match="out"):
        dml.resample_grad(g, (2, 2), [1, 1], [0, 0], [0, 0], out=np.zeros((2, 3), F32), **kw)
    with pytest.raises(ResamplexError, match="output_gradient"):
        dml.resample_grad(np.zeros((0, 3), F32), (2, 2), [1, 1], [0, 0], [0, 0], **kw)
    with pytest.raises(UnsupportedError, match="DML_RESAMPLE_GRAD .*got INT8"):
        dml.resample_grad(g.astype(np.int8), (2, 2), [1, 1], [0, 0], [0, 0], **kw)
    out = np.full((2, 2), 7, F32)
    assert dml.resample_grad(g, (2, 2), [1, 1.5], [0, 0], [0, 0], out=out, **kw) is out
    assert np.all(out == 0)


# ============================================================================ RESAMPLE3 antialias

def test_resample3_antialias_golden():
    # arange(8), s = 0.25, half-pixel: r = 4, u = 4 o + 1.5 -> 1.5 and 5.5.
    # Taps |i - u| < 4, weights 1 - |i - u|/4: .125 .375 .625 .875 .875 .625 .375 .125 (sum 4).
    # o = 0: i = -2..5, i < 0 clamp to 0: (1*.875 + 2*.875 + 3*.625 + 4*.375 + 5*.125)/4
    #        = 6.625/4 = 1.65625.
    # o = 1: i = 2..9, i > 7 clamp to 7: (2*.125 + 3*.375 + 4*.625 + 5*.875 + 6*.875
    #        + 7*(.625 + .375 + .125))/4 = 21.375/4 = 5.34375.
    x = np.arange(8, dtype=F32)
    got = dml.resample3(x, [0.25], [0.5], [-0.5], interpolation_mode=LIN,
                        rounding_direction="decreasing", antialiased=True)
    np.testing.assert_array_equal(got, [1.65625, 5.34375])


def test_resample3_antialias_applies_only_where_documented():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((6, 20)).astype(F32)
    kw = dict(rounding_direction="increasing")
    for s, mode in [((0.5, 0.5), LIN), ((1.5, 0.75), LIN), ((0.25, 0.25), NN)]:
        plain = dml.resample2(x, s, [0.5, 0.5], [-0.5, -0.5], interpolation_mode=mode, **kw)
        for aa in (False, True):
            np.testing.assert_array_equal(
                dml.resample3(x, s, [0.5, 0.5], [-0.5, -0.5], interpolation_mode=mode,
                              antialiased=aa, **kw), plain)
    # Mixed: H (s = 0.8) is plain linear, W (s = 0.2) antialiased.
    mixed = dml.resample3(x, [0.8, 0.2], [0.5, 0.5], [-0.5, -0.5], interpolation_mode=LIN,
                          antialiased=True, **kw)
    plain = dml.resample2(x, [0.8, 0.2], [0.5, 0.5], [-0.5, -0.5], interpolation_mode=LIN,
                          **kw)
    assert mixed.shape == plain.shape == (4, 4)
    assert not np.array_equal(mixed, plain)
    # A constant stays constant (weights are normalised), for int8 too.
    c = np.full((5, 40), -7, np.int8)
    assert np.all(dml.resample3(c, [1, 0.1], [0.5, 0.5], [-0.5, -0.5], interpolation_mode=LIN,
                                antialiased=True, **kw) == -7)
    with pytest.raises(ResamplexError, match="antialiased"):
        dml.resample3(x, [0.2, 0.2], [0, 0], [0, 0], interpolation_mode=LIN, antialiased="yes",
                      **kw)


def test_resample3_antialias_matches_onnx_reference():
    op_resize = pytest.importorskip("onnx.reference.ops.op_resize")
    rng = np.random.default_rng(8)
    x = rng.standard_normal((9, 16)).astype(np.float64)
    for s in [(0.4, 0.3), (0.25, 0.125), (0.45, 0.2)]:
        want = op_resize._interpolate_nd(x, op_resize._linear_coeffs_antialias,
                                         scale_factors=np.array(s))
        plan = dml._forward_plan("test", x.shape, want.shape, np.array(s, F32),
                                 np.array([0.5, 0.5], F32), np.array([-0.5, -0.5], F32),
                                 mode=dml.InterpolationMode.LINEAR, rule=dml._FLOOR,
                                 antialiased=True)
        # float32 scales: 0.4 and 0.3 are not exact, hence the 1e-6.
        np.testing.assert_allclose(plan(x), want, rtol=0, atol=1e-6)


def test_resample3_antialias_far_outside_window():
    # A scale so small that the filter is ~1e7 samples wide and the output runs far past the
    # input (crop/clamp): the closed-form edge weights keep this cheap; every output is the
    # weighted mean, and beyond the input it is the last sample.
    x = np.arange(10, dtype=F32)
    got = dml.resample3(x, [1e-7], [0.5], [-0.5], interpolation_mode=LIN,
                        rounding_direction=0, antialiased=True, output_shape=(3,))
    assert got.shape == (3,) and np.all(np.isfinite(got))
    assert got[1] == got[2] == 9


# ============================================================================ arrays and validation

def test_out_threads_layouts_and_dtypes():
    rng = np.random.default_rng(9)
    x = rng.standard_normal((6, 9)).astype(F32)
    ref = dml.resample(x, [0.7, 1.4], interpolation_mode=LIN)
    # Fortran order: the engine may run its passes differently (float32 rounding, SPEC §3
    # allows 4 ulp); the output follows the input's memory order.
    fortran = dml.resample(np.asfortranarray(x), [0.7, 1.4], interpolation_mode=LIN)
    assert fortran.flags.f_contiguous
    np.testing.assert_allclose(fortran, ref, rtol=0, atol=4 * np.spacing(np.abs(x).max()))
    # Negative strides, big-endian, threads, strided out: the same values.
    xr = x[::-1, ::-1].copy()[::-1, ::-1]
    np.testing.assert_array_equal(dml.resample(xr, [0.7, 1.4], interpolation_mode=LIN), ref)
    np.testing.assert_array_equal(
        dml.resample(x.astype(">f4"), [0.7, 1.4], interpolation_mode=LIN), ref)
    np.testing.assert_array_equal(
        dml.resample(x, [0.7, 1.4], interpolation_mode=LIN, threads=2), ref)
    big = np.zeros((8, 24), F32)
    out = big[::2, ::2]
    assert dml.resample(x, [0.7, 1.4], interpolation_mode=LIN, out=out) is out
    np.testing.assert_array_equal(out, ref)
    # float16 computes in float32 and rounds once.
    h = dml.resample(x.astype(np.float16), [0.7, 1.4], interpolation_mode=LIN)
    assert h.dtype == np.float16
    np.testing.assert_allclose(h, dml.resample(x.astype(np.float16).astype(F32), [0.7, 1.4],
                                               interpolation_mode=LIN), rtol=2**-10)


def test_zero_length_axis():
    x = np.zeros((0, 4), F32)
    assert dml.resample(x, [2, 0.5], interpolation_mode=LIN).shape == (0, 2)
    assert dml.resample(x, [2, 0.5], interpolation_mode=NN, output_shape=(0, 3)).shape == (0, 3)
    with pytest.raises(ResamplexError, match="length 0"):
        dml.resample(x, [2, 0.5], interpolation_mode=NN, output_shape=(1, 3))


@pytest.mark.parametrize("kwargs, match", [
    (dict(scales=[1.0]), "scales"),
    (dict(scales=[1.0, 0.0]), "scales"),
    (dict(scales=[1.0, -2.0]), "scales"),
    (dict(scales=[1.0, float("nan")]), "scales"),
    (dict(scales=[1.0, float("inf")]), "scales"),
    (dict(scales=[1.0, 1e-50]), "scales"),   # 0 in float32
    (dict(scales=[1.0, 1e39]), "scales"),    # inf in float32
    (dict(scales=[1.0, True]), "scales"),
    (dict(scales=2.0), "scales"),
    (dict(scales=[1.0, 0.1]), "scales"),     # floor(4 * 0.1) = 0
    (dict(scales=[1.0, 1e30]), "scales"),    # output length overflows
    (dict(input_pixel_offsets=[0.5]), "input_pixel_offsets"),
    (dict(input_pixel_offsets=[0.5, float("nan")]), "input_pixel_offsets"),
    (dict(output_pixel_offsets=[0.5, 1e39]), "output_pixel_offsets"),
    (dict(output_pixel_offsets="ab"), "output_pixel_offsets"),
    (dict(output_shape=(3,)), "output_shape"),
    (dict(output_shape=(3, 0)), "output_shape"),
    (dict(output_shape=(3, 2.0)), "output_shape"),
    (dict(output_shape=(10**9, 10**9)), "output_shape"),   # too big to allocate
    (dict(out=np.zeros((3, 4), F32), output_shape=(3, 5)), "output_shape"),
    (dict(out=np.zeros((3, 4), np.float16)), "out"),
    (dict(out=np.zeros(3, F32)), "out"),
    (dict(out=[0.0]), "out"),
    (dict(rounding="up"), "rounding"),
    (dict(threads=0), "threads"),
])
def test_parameter_errors(kwargs, match):
    params = dict(scales=[1.0, 2.0], input_pixel_offsets=[0.5, 0.5],
                  output_pixel_offsets=[-0.5, -0.5])
    params.update(kwargs)
    x = np.zeros((3, 4), F32)
    with pytest.raises(ResamplexError, match=match):
        dml.resample1(x, params.pop("scales"), params.pop("input_pixel_offsets"),
                      params.pop("output_pixel_offsets"), interpolation_mode=LIN, **params)


def test_read_only_and_overlapping_out():
    x = np.zeros((3, 4), F32)
    ro = np.zeros((3, 4), F32)
    ro.flags.writeable = False
    with pytest.raises(ResamplexError, match="read-only"):
        dml.resample(x, [1, 1], interpolation_mode=NN, out=ro)
    with pytest.raises(ResamplexError, match="share memory"):
        dml.resample(x, [1, 1], interpolation_mode=NN, out=x)
    x.flags.writeable = False  # read-only inputs are fine
    assert dml.resample(x, [1, 2], interpolation_mode=NN).shape == (3, 8)


def test_identity_axes_are_copies():
    # s = 1 with a = -b maps o -> o exactly: nothing is interpolated, NaNs stay put.
    x = np.array([[1, np.nan, 3], [4, 5, np.inf]], F32)
    got = dml.resample1(x, [1, 1], [0.5, 0], [-0.5, 0], interpolation_mode=LIN)
    np.testing.assert_array_equal(got, x)
