"""Ascend CANN facade (SPEC §5): index formulas, bit-exact copies, layouts, products, errors.

The reference below is written from SPEC §5 and research/ascend_torch.md §2–§3, one output
index at a time with NumPy float32 scalars (each operation rounded to float32, nothing fused); it
shares no code with ``resamplex.ascend``.
"""

from __future__ import annotations

import doctest
import math
from pathlib import Path

import numpy as np
import pytest

import resamplex as rx
from resamplex import ascend
from resamplex._dtypes import BFLOAT16

F32 = np.float32
SEED = 20240604

# ------------------------------------------------------------------------------ reference


def ref_indices(n_in: int, n_out: int, ratio: np.float32, exact: bool) -> np.ndarray:
    """``min(floor(fl32(fl32(o + 0.5) * r)), in - 1)`` (exact) or ``min(floor(fl32(o * r)),
    in - 1)`` (legacy), evaluated with float32 scalars."""
    ratio = F32(ratio)
    src = []
    for o in range(n_out):
        c = F32(o)
        if exact:
            c = F32(c + F32(0.5))
        c = F32(c * ratio)
        src.append(min(math.floor(float(c)), n_in - 1))
    return np.array(src, dtype=np.int64)


def ref_op_ratio(attr: float, n_in: int, n_out: int, four_d: bool) -> np.float32:
    """Operator ``UpsampleNearest``: ratio 1 for an unchanged axis of a 4-D input; the float32
    attribute (input/output) if > 0; else float32(in) / float32(out)."""
    if four_d and n_in == n_out:
        return F32(1.0)
    if F32(attr) > 0:
        return F32(attr)
    return F32(F32(n_in) / F32(n_out))


def ref_aclnn_ratio(scale: float | None, n_in: int, n_out: int) -> np.float32:
    """aclnn: float32(1.0 / s) (double division) if s > 0, else float32(in) / float32(out)."""
    if scale is not None and scale > 0:
        r = F32(1.0 / scale)
        if r > 0:
            return r
    return F32(F32(n_in) / F32(n_out))


def coded(shape: tuple[int, ...], dtype=np.float32) -> np.ndarray:
    """An array whose value is its flat index (exact in float32 below 2**24)."""
    return np.arange(math.prod(shape), dtype=np.float64).reshape(shape).astype(dtype)


def sources(result: np.ndarray, shape: tuple[int, ...], axis: int) -> np.ndarray:
    """The input index along ``axis`` that each element of ``result`` was copied from."""
    flat = result.astype(np.int64)
    return np.unravel_index(flat, shape)[axis]


def expect_gather(x: np.ndarray, axes, indices) -> np.ndarray:
    out = x
    for a, idx in zip(axes, indices):
        out = np.take(out, idx, axis=a)
    return out


# A few (in, out) pairs with float32 ties or near-ties, and the SPEC's examples.
TIE_PAIRS = [(3, 5), (5, 3), (10, 3), (26, 64), (2, 49), (6, 567), (64, 26), (3, 10), (7, 7),
             (1, 9), (9, 1), (100, 3), (13, 39), (39, 13), (17, 51), (255, 256)]


def random_triples(rng: np.random.Generator, n: int):
    """(in, out, attr) with attr an input/output ratio that may disagree with the sizes."""
    triples = [(a, b, 0.0) for a, b in TIE_PAIRS]
    triples += [(a, b, a / b) for a, b in TIE_PAIRS]
    for _ in range(n):
        n_in = int(rng.integers(1, 80))
        n_out = int(rng.integers(1, 160))
        kind = rng.integers(0, 4)
        if kind == 0:
            attr = 0.0
        elif kind == 1:
            attr = n_in / n_out
        elif kind == 2:
            attr = float(rng.uniform(0.05, 6.0))  # disagrees with the sizes
        else:
            attr = n_in / n_out * float(rng.choice([0.5, 0.9, 1.0 + 1e-7, 1.1, 2.0]))
        triples.append((n_in, n_out, attr))
    return triples


# ------------------------------------------------------------------------------ goldens


@pytest.mark.parametrize("n_in, n_out, exact, expected", [
    (5, 3, True, [0, 2, 4]),
    (5, 3, False, [0, 1, 3]),
    (3, 5, True, [0, 0, 1, 2, 2]),
    (3, 5, False, [0, 0, 1, 1, 2]),
    (10, 3, True, [1, 5, 8]),
    (10, 3, False, [0, 3, 6]),
])
def test_hand_worked_cases(n_in, n_out, exact, expected):
    x = np.arange(n_in, dtype=np.float32).reshape(1, 1, n_in)
    got = ascend.upsample_nearest(x, [n_out], exact_mode=exact)[0, 0]
    assert got.tolist() == expected
    assert ref_indices(n_in, n_out, ref_op_ratio(0.0, n_in, n_out, False), exact).tolist() \
        == expected


def test_float32_ties_are_float32():
    # (i + 0.5) * in/out is an integer in real arithmetic; float32(in/out) decides the side.
    x = np.arange(2, dtype=np.float32).reshape(1, 1, 2)
    assert ascend.upsample_nearest_exact1d(x, [49])[0, 0, 24] == 1  # float64 would say 0
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 6)
    assert ascend.upsample_nearest_exact1d(x, [567])[0, 0, 94] == 0  # no FMA


# ------------------------------------------------------------------------------ operator level


@pytest.mark.parametrize("exact", [False, True])
def test_operator_3d_random(exact):
    rng = np.random.default_rng(SEED)
    for n_in, n_out, attr in random_triples(rng, 150):
        x = coded((1, 1, n_in))
        got = ascend.upsample_nearest(x, [n_out], scales_h=attr, exact_mode=exact)
        want = ref_indices(n_in, n_out, ref_op_ratio(attr, n_in, n_out, False), exact)
        np.testing.assert_array_equal(got[0, 0].astype(np.int64), want,
                                      err_msg=f"{n_in}->{n_out} attr={attr!r}")


@pytest.mark.parametrize("exact", [False, True])
def test_operator_4d_random(exact):
    rng = np.random.default_rng(SEED + 1)
    t = random_triples(rng, 120)
    rng.shuffle(t)
    for (h_in, h_out, ah), (w_in, w_out, aw) in zip(t[::2], t[1::2]):
        shape = (1, 1, h_in, w_in)
        x = coded(shape)
        got = ascend.upsample_nearest(x, (h_out, w_out), scales_h=ah, scales_w=aw,
                                      exact_mode=exact)
        assert got.shape == (1, 1, h_out, w_out)
        want_h = ref_indices(h_in, h_out, ref_op_ratio(ah, h_in, h_out, True), exact)
        want_w = ref_indices(w_in, w_out, ref_op_ratio(aw, w_in, w_out, True), exact)
        np.testing.assert_array_equal(sources(got, shape, 2), np.broadcast_to(
            want_h[None, None, :, None], got.shape))
        np.testing.assert_array_equal(sources(got, shape, 3), np.broadcast_to(
            want_w[None, None, None, :], got.shape))


def test_operator_unchanged_axis():
    x = coded((1, 1, 10, 10))
    # 4-D: an axis whose length does not change is copied, whatever its attribute says.
    got = ascend.upsample_nearest(x, (10, 5), scales_h=0.9, scales_w=2.0, exact_mode=True)
    np.testing.assert_array_equal(sources(got, x.shape, 2)[0, 0, :, 0], np.arange(10))
    np.testing.assert_array_equal(sources(got, x.shape, 3)[0, 0, 0], [1, 3, 5, 7, 9])
    # 3-D has no such shortcut: scales_h is honoured.
    y = coded((1, 1, 10))
    got = ascend.upsample_nearest(y, [10], scales_h=0.9, exact_mode=True)
    np.testing.assert_array_equal(got[0, 0].astype(int), ref_indices(10, 10, F32(0.9), True))
    assert got[0, 0].tolist() != list(range(10))


def test_operator_3d_ignores_scales_w():
    x = coded((1, 2, 7))
    a = ascend.upsample_nearest(x, [4], scales_h=0.5, scales_w=3.0)
    b = ascend.upsample_nearest(x, [4], scales_h=0.5)
    np.testing.assert_array_equal(a, b)


def test_operator_attribute_is_float32():
    # The attribute is a float32: 1/3 rounds to float32 before it is used.
    x = coded((1, 1, 40))
    got = ascend.upsample_nearest(x, [40 * 3 - 1], scales_h=1 / 3)
    np.testing.assert_array_equal(got[0, 0].astype(int),
                                  ref_indices(40, 119, F32(1 / 3), False))


@pytest.mark.parametrize("fmt", ["NCHW", "NHWC", "NCL", "NLC"])
@pytest.mark.parametrize("exact", [False, True])
def test_layouts(fmt, exact):
    rng = np.random.default_rng(SEED + 2)
    if fmt in ("NCHW", "NHWC"):
        base = rng.standard_normal((2, 3, 7, 9)).astype(np.float32)  # N, C, H, W
        sizes, to_fmt = (11, 4), ((0, 1, 2, 3) if fmt == "NCHW" else (0, 2, 3, 1))
        want = expect_gather(base, (2, 3), [
            ref_indices(7, 11, ref_op_ratio(0.6, 7, 11, True), exact),
            ref_indices(9, 4, ref_op_ratio(0.0, 9, 4, True), exact)])
        kwargs = {"scales_h": 0.6}
    else:
        base = rng.standard_normal((2, 3, 13)).astype(np.float32)  # N, C, L
        sizes, to_fmt = (5,), ((0, 1, 2) if fmt == "NCL" else (0, 2, 1))
        want = expect_gather(base, (2,), [
            ref_indices(13, 5, ref_op_ratio(0.0, 13, 5, False), exact)])
        kwargs = {}
    x = np.ascontiguousarray(base.transpose(to_fmt))
    got = ascend.upsample_nearest(x, sizes, exact_mode=exact, data_format=fmt, **kwargs)
    assert got.shape == want.transpose(to_fmt).shape
    np.testing.assert_array_equal(got, want.transpose(to_fmt))
    if fmt in ("NCHW", "NCL"):  # the default layout by rank
        np.testing.assert_array_equal(
            ascend.upsample_nearest(x, sizes, exact_mode=exact, **kwargs), got)


# ------------------------------------------------------------------------------ aclnn level


def random_scales(rng: np.random.Generator, n: int):
    """(in, out, scale) with PyTorch-style scales: consistent, disagreeing, absent."""
    cases = [(a, b, None) for a, b in TIE_PAIRS] + [(a, b, b / a) for a, b in TIE_PAIRS]
    for _ in range(n):
        n_in = int(rng.integers(1, 80))
        s = float(np.round(rng.uniform(0.1, 5.0), int(rng.integers(1, 4))))
        n_out = max(1, math.floor(n_in * s))
        kind = rng.integers(0, 4)
        if kind == 0:
            s = None
        elif kind == 1:
            n_out = int(rng.integers(1, 160))  # the scale disagrees with the size
        elif kind == 2:
            s = 0.0
        cases.append((n_in, n_out, s))
    return cases


def test_exact1d_random():
    rng = np.random.default_rng(SEED + 3)
    for n_in, n_out, s in random_scales(rng, 200):
        x = coded((1, 1, n_in))
        got = ascend.upsample_nearest_exact1d(x, [n_out], s)
        want = ref_indices(n_in, n_out, ref_aclnn_ratio(s, n_in, n_out), True)
        np.testing.assert_array_equal(got[0, 0].astype(np.int64), want,
                                      err_msg=f"{n_in}->{n_out} s={s!r}")


def test_exact2d_random():
    rng = np.random.default_rng(SEED + 4)
    cases = random_scales(rng, 200)
    for (h_in, h_out, sh), (w_in, w_out, sw) in zip(cases[::2], cases[1::2]):
        shape = (1, 1, h_in, w_in)
        x = coded(shape)
        got = ascend.upsample_nearest_exact2d(x, (h_out, w_out), sh, sw)
        rh = F32(1.0) if h_in == h_out else ref_aclnn_ratio(sh, h_in, h_out)
        rw = F32(1.0) if w_in == w_out else ref_aclnn_ratio(sw, w_in, w_out)
        np.testing.assert_array_equal(sources(got, shape, 2)[0, 0, :, 0],
                                      ref_indices(h_in, h_out, rh, True))
        np.testing.assert_array_equal(sources(got, shape, 3)[0, 0, 0, :],
                                      ref_indices(w_in, w_out, rw, True))


def test_exact3d_random():
    rng = np.random.default_rng(SEED + 5)
    for _ in range(60):
        ins = [int(v) for v in rng.integers(1, 12, size=3)]
        scales = [float(np.round(rng.uniform(0.3, 3.0), 2)) for _ in range(3)]
        outs = [max(1, math.floor(n * s)) for n, s in zip(ins, scales)]
        if rng.integers(0, 3) == 0:
            scales[int(rng.integers(0, 3))] = None  # one missing: all derived from sizes
        given = all(s is not None and s > 0 for s in scales)
        if given and any(math.floor(n * s) < 1 for n, s in zip(ins, scales)):
            continue
        shape = (1, 1, *ins)
        x = coded(shape)
        got = ascend.upsample_nearest_exact3d(x, outs, *scales)
        for k in range(3):
            r = ref_aclnn_ratio(scales[k] if given else None, ins[k], outs[k])
            idx = [0, 0, 0]
            idx[k] = slice(None)
            np.testing.assert_array_equal(sources(got, shape, 2 + k)[(0, 0, *idx)],
                                          ref_indices(ins[k], outs[k], r, True))


@pytest.mark.parametrize("fn, rank", [(ascend.upsample_nearest1d, 3),
                                      (ascend.upsample_nearest2d, 4)])
def test_legacy_random(fn, rank):
    rng = np.random.default_rng(SEED + 6)
    for _ in range(150):
        ins = [int(v) for v in rng.integers(1, 60, size=rank - 2)]
        outs = [int(v) for v in rng.integers(1, 130, size=rank - 2)]
        shape = (1, 1, *ins)
        x = coded(shape)
        got = fn(x, outs)
        for k in range(rank - 2):
            idx = [0] * (rank - 2)
            idx[k] = slice(None)
            np.testing.assert_array_equal(
                sources(got, shape, 2 + k)[(0, 0, *idx)],
                ref_indices(ins[k], outs[k], F32(F32(ins[k]) / F32(outs[k])), False))


def test_unchanged_length_rules():
    x = coded((1, 1, 10))
    torch_like = [0, 1, 2, 3, 4, 5, 5, 6, 7, 8]  # nearest-exact, 10 -> 10, scale 1.09
    assert ascend.upsample_nearest_exact1d(x, [10], 1.09)[0, 0].tolist() == torch_like
    x2 = coded((1, 1, 1, 10))
    assert ascend.upsample_nearest_exact2d(x2, [1, 10], 1.0, 1.09)[0, 0, 0].tolist() \
        == list(range(10))
    x3 = coded((1, 1, 1, 1, 10))
    assert ascend.upsample_nearest_exact3d(x3, [1, 1, 10], 1.0, 1.0, 1.09)[0, 0, 0, 0].tolist() \
        == torch_like
    # not all three scales given: every axis derives its ratio from the sizes
    assert ascend.upsample_nearest_exact3d(x3, [1, 1, 10], None, 1.0, 1.09)[0, 0, 0, 0].tolist() \
        == list(range(10))


def test_scale_none_and_zero_derive_from_sizes():
    x = coded((2, 1, 9))
    a = ascend.upsample_nearest_exact1d(x, [4])
    np.testing.assert_array_equal(a, ascend.upsample_nearest_exact1d(x, [4], 0.0))
    np.testing.assert_array_equal(a, ascend.upsample_nearest_exact1d(x, [4], None))
    np.testing.assert_array_equal(a[0, 0].astype(int), ref_indices(9, 4, F32(9) / F32(4), True))


def test_channels_last_views_keep_their_layout():
    rng = np.random.default_rng(SEED + 7)
    base = rng.standard_normal((2, 5, 6, 7)).astype(np.float32)
    cl = np.ascontiguousarray(base.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)  # NHWC memory
    got = ascend.upsample_nearest_exact2d(cl, (9, 3))
    np.testing.assert_array_equal(got, ascend.upsample_nearest_exact2d(base, (9, 3)))
    assert got.transpose(0, 2, 3, 1).flags.c_contiguous
    cl5 = np.ascontiguousarray(np.ones((1, 4, 2, 3, 5), np.float32).transpose(0, 2, 3, 4, 1))
    got5 = ascend.upsample_nearest_exact3d(cl5.transpose(0, 4, 1, 2, 3), (3, 3, 3))
    assert got5.shape == (1, 4, 3, 3, 3)


def test_out_and_threads():
    x = coded((2, 3, 8, 8))
    want = ascend.upsample_nearest(x, (5, 12), exact_mode=True)
    out = np.full((2, 3, 12, 5), -1, np.float32).transpose(0, 1, 3, 2)  # any strides
    res = ascend.upsample_nearest(x, (5, 12), exact_mode=True, out=out, threads=2)
    assert res is out
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(ascend.upsample_nearest(x, (5, 12), exact_mode=True,
                                                          threads=1), want)


def test_big_endian_input():
    x = coded((1, 2, 5, 6)).astype(">f4")
    got = ascend.upsample_nearest_exact2d(x, (3, 4))
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, ascend.upsample_nearest_exact2d(x.astype("<f4"), (3, 4)))


def test_read_only_and_non_contiguous_inputs():
    x = coded((1, 2, 20, 20))[:, :, ::-2, 1::2]
    x.flags.writeable = False
    got = ascend.upsample_nearest2d(x, (7, 13))
    want = ascend.upsample_nearest2d(np.ascontiguousarray(x), (7, 13))
    np.testing.assert_array_equal(got, want)


def test_empty_batch():
    x = np.zeros((0, 3, 4, 4), np.float32)
    assert ascend.upsample_nearest(x, (2, 8)).shape == (0, 3, 2, 8)
    assert ascend.upsample_nearest_exact2d(x, (2, 8)).shape == (0, 3, 2, 8)
    assert ascend.upsample_nearest2d(x, (2, 8)).shape == (0, 3, 2, 8)
    # CANN's 1-D and 3-D exact APIs refuse empty tensors
    with pytest.raises(rx.ResamplexError, match="empty"):
        ascend.upsample_nearest_exact1d(np.zeros((0, 3, 4), np.float32), [8])
    with pytest.raises(rx.ResamplexError, match="empty"):
        ascend.upsample_nearest_exact3d(np.zeros((1, 0, 2, 2, 2), np.float32), [2, 2, 2])


# ------------------------------------------------------------------------------ bit-exact copies


def half_types():
    types = [np.dtype(np.float16)]
    if BFLOAT16 is not None:
        types.append(BFLOAT16)
    return types


@pytest.mark.parametrize("dtype", half_types(), ids=str)
@pytest.mark.parametrize("call", ["op_exact", "op_legacy", "op_nhwc", "exact2d", "legacy2d",
                                  "exact1d", "exact3d"])
def test_bit_exact_16_bit(dtype, call):
    rng = np.random.default_rng(SEED + 8)
    bits = rng.integers(0, 1 << 16, size=(2, 3, 9, 7), dtype=np.uint16)
    # NaNs with payloads and both signs, infinities, signed zeros, subnormals
    special = [0x7E01, 0xFE55, 0x7C01, 0x7FC1, 0xFF81, 0x7C00, 0x7F80, 0x8000, 0x0000, 0x0001]
    bits.reshape(-1)[:len(special)] = special
    x = bits.view(dtype)
    if call.startswith("op"):
        exact = call != "op_legacy"
        rh = ref_op_ratio(0.7, 9, 12, True)
        rw = ref_op_ratio(0.0, 7, 4, True)
        idx = [ref_indices(9, 12, rh, exact), ref_indices(7, 4, rw, exact)]
        if call == "op_nhwc":
            xin = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
            got = ascend.upsample_nearest(xin, (12, 4), scales_h=0.7, exact_mode=exact,
                                          data_format="NHWC").transpose(0, 3, 1, 2)
        else:
            got = ascend.upsample_nearest(x, (12, 4), scales_h=0.7, exact_mode=exact)
        want = expect_gather(bits, (2, 3), idx)
    elif call in ("exact2d", "legacy2d"):
        exact = call == "exact2d"
        if exact:
            got = ascend.upsample_nearest_exact2d(x, (12, 4), 1.4, None)
            idx = [ref_indices(9, 12, ref_aclnn_ratio(1.4, 9, 12), True),
                   ref_indices(7, 4, ref_aclnn_ratio(None, 7, 4), True)]
        else:
            got = ascend.upsample_nearest2d(x, (12, 4))
            idx = [ref_indices(n, m, F32(F32(n) / F32(m)), False) for n, m in ((9, 12), (7, 4))]
        want = expect_gather(bits, (2, 3), idx)
    elif call == "exact1d":
        flat = bits.reshape(2, 3, 63)
        got = ascend.upsample_nearest_exact1d(flat.view(dtype), [100], 1.6)
        want = expect_gather(flat, (2,), [ref_indices(63, 100, ref_aclnn_ratio(1.6, 63, 100),
                                                      True)])
    else:
        vol = bits.reshape(2, 3, 3, 3, 7)
        got = ascend.upsample_nearest_exact3d(vol.view(dtype), (6, 1, 14), 2.0, 0.5, 2.0)
        want = expect_gather(vol, (2, 3, 4), [
            ref_indices(3, 6, F32(0.5), True), ref_indices(3, 1, F32(2.0), True),
            ref_indices(7, 14, F32(0.5), True)])
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.view(np.uint16), want)


# ------------------------------------------------------------------------------ products


DTYPE_CASES = [("float32", np.dtype(np.float32)), ("float16", np.dtype(np.float16)),
               ("float64", np.dtype(np.float64)), ("uint8", np.dtype(np.uint8))]
if BFLOAT16 is not None:
    DTYPE_CASES.append(("bfloat16", BFLOAT16))

OPERATORS = {
    "upsample_nearest": lambda x, **k: ascend.upsample_nearest(x, (3, 3), **k),
    "upsample_nearest_exact1d": lambda x, **k: ascend.upsample_nearest_exact1d(
        x.reshape(1, 2, 4), [3], **k),
    "upsample_nearest_exact2d": lambda x, **k: ascend.upsample_nearest_exact2d(x, (3, 3), **k),
    "upsample_nearest_exact3d": lambda x, **k: ascend.upsample_nearest_exact3d(
        x.reshape(1, 2, 1, 2, 2), (1, 3, 3), **k),
    "upsample_nearest1d": lambda x, **k: ascend.upsample_nearest1d(x.reshape(1, 2, 4), [3],
                                                                   **k),
    "upsample_nearest2d": lambda x, **k: ascend.upsample_nearest2d(x, (3, 3), **k),
}


@pytest.mark.parametrize("op", list(OPERATORS))
@pytest.mark.parametrize("product", list(ascend.PRODUCTS))
@pytest.mark.parametrize("name, dtype", DTYPE_CASES, ids=[c[0] for c in DTYPE_CASES])
def test_product_table(op, product, name, dtype):
    entry = ascend.PRODUCTS[product]
    x = np.arange(8).reshape(1, 2, 2, 2).astype(dtype)
    accepted = entry.supported and name in entry.dtypes
    assert ascend.supports(product, dtype) is accepted
    assert ascend.supports(product, name) is accepted
    assert ascend.supports(product, name.upper()) is accepted
    if accepted:
        assert OPERATORS[op](x, product=product).dtype == dtype
        return
    with pytest.raises(rx.UnsupportedError) as info:
        OPERATORS[op](x, product=product)
    msg = str(info.value)
    assert product in msg and op in msg
    assert ascend.DTYPES.get(name, name) in msg  # e.g. BFLOAT16, or float64
    if not entry.supported:
        assert msg.startswith("product:")
        assert all(p in msg for p, e in ascend.PRODUCTS.items() if e.supported)
    else:
        assert msg.startswith("dtype:")
        assert all(ascend.DTYPES[k] in msg for k in entry.dtypes)


def test_product_table_contents():
    supported = {p for p, e in ascend.PRODUCTS.items() if e.supported}
    assert supported == {"atlas_a3", "atlas_a2", "atlas_inference"}
    assert set(ascend.PRODUCTS) - supported == {
        "ascend910_95", "atlas_200i_500_a2", "atlas_training", "atlas_200_300_500_inference"}
    assert "bfloat16" not in ascend.PRODUCTS["atlas_inference"].dtypes
    assert set(ascend.PRODUCTS["atlas_a2"].dtypes) == {"float32", "float16", "bfloat16"}
    with pytest.raises(TypeError):
        ascend.PRODUCTS["new"] = ascend.PRODUCTS["atlas_a2"]  # read-only


def test_product_default_is_atlas_a2():
    x = np.zeros((1, 1, 2, 2), np.float32)
    assert ascend.upsample_nearest.__kwdefaults__["product"] == "atlas_a2"
    assert ascend.upsample_nearest(x, (3, 3)).shape == (1, 1, 3, 3)


@pytest.mark.parametrize("product", ["atlas_a4", "ATLAS_A2", "", None, 3])
def test_unknown_product(product):
    x = np.zeros((1, 1, 2, 2), np.float32)
    for call in (lambda: ascend.upsample_nearest(x, (3, 3), product=product),
                 lambda: ascend.supports(product, np.float32)):
        with pytest.raises(rx.ResamplexError) as info:
            call()
        assert not isinstance(info.value, rx.UnsupportedError)
        msg = str(info.value)
        assert msg.startswith("product:") and all(p in msg for p in ascend.PRODUCTS)


def test_product_table_markdown():
    md = ascend.product_table_markdown().splitlines()
    assert len(md) == 2 + len(ascend.PRODUCTS)
    for line, (name, entry) in zip(md[2:], ascend.PRODUCTS.items()):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == f"`{name}`" and cells[1] == entry.title
        assert cells[2] == ("yes" if entry.supported else "no")
        absent = "no" if entry.supported else "—"
        assert cells[3:] == ["yes" if k in entry.dtypes else absent for k in ascend.DTYPES]


def test_readme_shows_the_product_table():
    readme = Path(__file__).resolve().parents[1] / "README.md"
    if not readme.exists():
        pytest.skip("no README.md beside tests/")
    text = readme.read_text(encoding="utf-8")
    if "## Ascend operators" not in text:
        pytest.skip("README.md has no Ascend section")
    assert ascend.product_table_markdown() in text.split("## Ascend operators", 1)[1]


# ------------------------------------------------------------------------------ errors


X3 = np.zeros((1, 2, 4), np.float32)
X4 = np.zeros((1, 2, 4, 4), np.float32)
X5 = np.zeros((1, 2, 3, 3, 3), np.float32)


@pytest.mark.parametrize("call, param", [
    (lambda: ascend.upsample_nearest(np.zeros((2, 4), np.float32), [3]), "x"),
    (lambda: ascend.upsample_nearest(np.zeros((1, 1, 2, 2, 2), np.float32), [3, 3]), "x"),
    (lambda: ascend.upsample_nearest_exact1d(X4, [3]), "x"),
    (lambda: ascend.upsample_nearest_exact2d(X3, [3, 3]), "x"),
    (lambda: ascend.upsample_nearest_exact3d(X4, [3, 3, 3]), "x"),
    (lambda: ascend.upsample_nearest1d(X4, [3]), "x"),
    (lambda: ascend.upsample_nearest2d(X5, [3, 3]), "x"),
])
def test_rank_errors(call, param):
    with pytest.raises(rx.UnsupportedError, match=f"^{param}: "):
        call()


@pytest.mark.parametrize("call", [
    lambda s: ascend.upsample_nearest(X4, s),
    lambda s: ascend.upsample_nearest_exact2d(X4, s),
    lambda s: ascend.upsample_nearest2d(X4, s),
])
@pytest.mark.parametrize("size", [[3], [3, 3, 3], [0, 3], [3, -1], [3.0, 3], [True, 3], 3,
                                  "33", None, [[3, 3]]])
def test_output_size_errors_2d(call, size):
    with pytest.raises(rx.ResamplexError, match="^output_size: .*2 integers"):
        call(size)


@pytest.mark.parametrize("call, n", [
    (lambda s: ascend.upsample_nearest(X3, s), 1),
    (lambda s: ascend.upsample_nearest_exact1d(X3, s), 1),
    (lambda s: ascend.upsample_nearest1d(X3, s), 1),
    (lambda s: ascend.upsample_nearest_exact3d(X5, s), 3),
])
def test_output_size_length(call, n):
    for size in ([2] * (n + 1), [0] * n, []):
        with pytest.raises(rx.ResamplexError, match="^output_size: "):
            call(size)
    assert call(np.array([2] * n)).shape[2:] == (2,) * n  # integer arrays are sequences


@pytest.mark.parametrize("name, value", [("scales_h", -1.0), ("scales_w", float("nan")),
                                         ("scales_h", float("inf")), ("scales_w", 1e39),
                                         ("scales_h", "2"), ("scales_w", True),
                                         ("scales_h", 10**400),
                                         ("scales_h", None)])
def test_operator_attribute_errors(name, value):
    with pytest.raises(rx.ResamplexError, match=f"^{name}: "):
        ascend.upsample_nearest(X4, (3, 3), **{name: value})


@pytest.mark.parametrize("call, name", [
    (lambda v: ascend.upsample_nearest_exact1d(X3, [3], v), "scales"),
    (lambda v: ascend.upsample_nearest_exact2d(X4, [3, 3], v, None), "scales_h"),
    (lambda v: ascend.upsample_nearest_exact2d(X4, [3, 3], None, v), "scales_w"),
    (lambda v: ascend.upsample_nearest_exact3d(X5, [3, 3, 3], v, 1.0, 1.0), "scales_d"),
])
@pytest.mark.parametrize("value", [-0.5, float("nan"), float("-inf"), float("inf"), 1e-300,
                                   "1", True])
def test_aclnn_scale_errors(call, name, value):
    with pytest.raises(rx.ResamplexError, match=f"^{name}: "):
        call(value)


def test_exact3d_scale_conflict():
    with pytest.raises(rx.ResamplexError, match="^scales_h: scale conflicts with output_size"):
        ascend.upsample_nearest_exact3d(X5, [3, 5, 3], 1.0, 1.0, 1.0)
    # within 1e-5 of the scale is accepted, as CANN does
    assert ascend.upsample_nearest_exact3d(X5, [3, 3, 6], 1.0, 1.0, 1.9999999).shape \
        == (1, 2, 3, 3, 6)


def test_other_errors():
    with pytest.raises(rx.ResamplexError, match="^data_format: .*'NHWC'"):
        ascend.upsample_nearest(X4, (3, 3), data_format="NCL")
    with pytest.raises(rx.ResamplexError, match="^data_format: "):
        ascend.upsample_nearest(X4, (3, 3), data_format="nchw")
    with pytest.raises(rx.ResamplexError, match="^exact_mode: "):
        ascend.upsample_nearest(X4, (3, 3), exact_mode=1)
    with pytest.raises(rx.ResamplexError, match="^x: axis H has length 0"):
        ascend.upsample_nearest(np.zeros((1, 1, 0, 4), np.float32), (3, 3))
    with pytest.raises(rx.ResamplexError, match="^x: "):
        ascend.upsample_nearest2d(None, (3, 3))
    with pytest.raises(rx.ResamplexError, match=r"^out: expected shape \(1, 2, 3, 3\)"):
        ascend.upsample_nearest2d(X4, (3, 3), out=np.zeros((1, 3, 3, 3), np.float32))
    with pytest.raises(rx.ResamplexError, match="^out: expected dtype float32"):
        ascend.upsample_nearest2d(X4, (3, 3), out=np.zeros((1, 2, 3, 3), np.float16))
    ro = np.zeros((1, 2, 3, 3), np.float32)
    ro.flags.writeable = False
    with pytest.raises(rx.ResamplexError, match="^out: .*read-only"):
        ascend.upsample_nearest2d(X4, (3, 3), out=ro)
    with pytest.raises(rx.ResamplexError, match="^threads: "):
        ascend.upsample_nearest2d(X4, (3, 3), threads=0)


def test_huge_output_refused_before_allocation():
    with pytest.raises(rx.ResamplexError, match="^output_size: "):
        ascend.upsample_nearest(X4, (2**40, 2**40))
    with pytest.raises(rx.ResamplexError, match="^output_size: "):
        ascend.upsample_nearest_exact1d(X3, [2**62])


def test_docstring_examples():
    result = doctest.testmod(ascend, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# ------------------------------------------------------------------------------ PyTorch


@pytest.fixture(scope="module")
def torch_f():
    torch = pytest.importorskip("torch")
    return torch, torch.nn.functional


def torch_cases(rng: np.random.Generator, n: int, with_scales: bool):
    """NCHW shapes and arguments. Without scales the outputs stay small (out_h + out_w <= 128),
    where torch runs the kernel that computes the plain float32 formula; its generic kernel on
    FMA builds can differ on rare exact ties (research/ascend_torch.md §5.4)."""
    cases = []
    for _ in range(n):
        n_c = (int(rng.integers(1, 3)), int(rng.integers(1, 4)))
        ins = [int(v) for v in rng.integers(1, 48, size=2)]
        if with_scales:
            scales = [float(np.round(rng.uniform(0.2, 4.0), int(rng.integers(1, 5))))
                      for _ in range(2)]
            outs = [math.floor(a * s) for a, s in zip(ins, scales)]
            if min(outs) < 1:
                continue
        else:
            scales = None
            outs = [int(v) for v in rng.integers(1, 64, size=2)]
        cases.append(((*n_c, *ins), outs, scales))
    cases += [((1, 1, a, b), [c, d], None) for (a, c), (b, d) in zip(TIE_PAIRS[::2],
                                                                     TIE_PAIRS[1::2])
              if c + d <= 128]
    return cases


@pytest.mark.parametrize("with_scales", [False, True])
def test_exact2d_matches_torch_nearest_exact(torch_f, with_scales):
    torch, F = torch_f
    rng = np.random.default_rng(SEED + 9)
    compared = 0
    for shape, outs, scales in torch_cases(rng, 150, with_scales):
        if scales is not None and any(a == b and s != 1.0
                                      for a, b, s in zip(shape[2:], outs, scales)):
            continue  # the documented difference: CANN copies an unchanged axis
        x = rng.standard_normal(shape).astype(np.float32)
        if scales is None:
            want = F.interpolate(torch.from_numpy(x), size=outs, mode="nearest-exact")
            got = ascend.upsample_nearest_exact2d(x, outs)
        else:
            want = F.interpolate(torch.from_numpy(x), scale_factor=scales, mode="nearest-exact")
            got = ascend.upsample_nearest_exact2d(x, outs, *scales)
        np.testing.assert_array_equal(got, want.numpy(), err_msg=f"{shape} {outs} {scales}")
        compared += 1
    assert compared > 100


def test_exact2d_unchanged_axis_differs_from_torch(torch_f):
    torch, F = torch_f
    x = coded((1, 1, 10, 10))
    want = F.interpolate(torch.from_numpy(x), scale_factor=(1.09, 1.5),
                         mode="nearest-exact").numpy()
    got = ascend.upsample_nearest_exact2d(x, (10, 15), 1.09, 1.5)
    assert want.shape == got.shape
    np.testing.assert_array_equal(got[0, 0, :, 0], x[0, 0, :, 0])  # CANN: ratio 1
    assert sources(want, x.shape, 2)[0, 0, :, 0].tolist() == [0, 1, 2, 3, 4, 5, 5, 6, 7, 8]
    np.testing.assert_array_equal(got[0, 0, 0], want[0, 0, 0])  # the W axis agrees


def test_legacy2d_matches_torch_nearest(torch_f):
    torch, F = torch_f
    rng = np.random.default_rng(SEED + 10)
    for _ in range(150):
        shape = (int(rng.integers(1, 3)), int(rng.integers(1, 5)),
                 *(int(v) for v in rng.integers(1, 60, size=2)))
        outs = [int(v) for v in rng.integers(1, 150, size=2)]
        x = rng.standard_normal(shape).astype(np.float32)
        want = F.interpolate(torch.from_numpy(x), size=outs, mode="nearest").numpy()
        np.testing.assert_array_equal(ascend.upsample_nearest2d(x, outs), want,
                                      err_msg=f"{shape} {outs}")


def test_1d_and_3d_match_torch(torch_f):
    torch, F = torch_f
    rng = np.random.default_rng(SEED + 11)
    for _ in range(80):
        n_in = int(rng.integers(1, 100))
        s = float(np.round(rng.uniform(0.2, 4.0), 3))
        if math.floor(n_in * s) < 1:
            continue
        x = rng.standard_normal((2, 3, n_in)).astype(np.float32)
        t = torch.from_numpy(x)
        n_out = math.floor(n_in * s)
        np.testing.assert_array_equal(
            ascend.upsample_nearest_exact1d(x, [n_out], s),
            F.interpolate(t, scale_factor=s, mode="nearest-exact").numpy())
        np.testing.assert_array_equal(
            ascend.upsample_nearest1d(x, [n_out]),
            F.interpolate(t, size=n_out, mode="nearest").numpy())
    for _ in range(30):
        ins = [int(v) for v in rng.integers(1, 10, size=3)]
        scales = [float(np.round(rng.uniform(0.5, 3.0), 2)) for _ in range(3)]
        outs = [math.floor(a * s) for a, s in zip(ins, scales)]
        if min(outs) < 1:
            continue
        x = rng.standard_normal((1, 2, *ins)).astype(np.float32)
        np.testing.assert_array_equal(
            ascend.upsample_nearest_exact3d(x, outs, *scales),
            F.interpolate(torch.from_numpy(x), scale_factor=scales,
                          mode="nearest-exact").numpy())
