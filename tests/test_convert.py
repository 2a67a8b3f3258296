"""``dtype=`` and ``affine=`` of the core facade (SPEC §2, issue 21 item 4): resize, convert and
normalise in one pass.

Every result is compared with the float64 reference (``reference.reference_resize`` with the
same ``affine``), held to SPEC §3's tolerance for the OUTPUT dtype. With an affine the
compute type adds three roundings (``a`` to the compute type, the product, the sum) and
``|a|`` scales the resize's own error, so the float tolerance is taken of four times the
output's bound ``max|x| * max|a| + max|b|`` (16 ulp of the bound in float32).
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import resamplex as rx
from resamplex._engine import _exec
import reference as ref
from allocations import ALLOC_SLACK, allocation_peak

ml_dtypes = pytest.importorskip("ml_dtypes")

DTYPES = ["float64", "float32", "float16", "bfloat16", "int8", "uint8", "int16", "uint16"]


def _dt(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def _rng(*key):
    return np.random.default_rng(abs(hash(key)) % (2**32))


def _affine_for(dst, channels=3):
    """Per-channel (a, b) that keep part of the values inside an integer range (and push the
    rest out, so saturation is exercised) and stay finite in float16."""
    if dst.kind in "iu":
        info = np.iinfo(dst)
        span = float(info.max) - float(info.min)
        a = np.array([0.5, -0.75, 1.5])[:channels] * span / 256.0 / 64.0
        b = np.array([0.0, 3.25, -7.5])[:channels] * span / 256.0
    else:
        a = np.array([0.5, -1.25, 2.0])[:channels] / 256.0
        b = np.array([1.0, -3.0, 0.25])[:channels]
    return a, b


def _check(got, x, want, dtype, rounding="half_even", affine=None, passes=2, msg=""):
    xmax = float(np.max(np.abs(x.astype(np.float64)))) if x.size else 0.0
    if affine is not None:
        a, b = (np.asarray(t, dtype=np.float64) for t in affine)
        xmax = 4.0 * (xmax * float(np.max(np.abs(a))) + float(np.max(np.abs(b))))
    ref.assert_matches(got, want, dtype, "linear", rounding=rounding, xmax=xmax,
                       passes=passes, err_msg=msg)


# --------------------------------------------------------------------------------------------
# every dtype pair x rounding, against the float64 reference
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dst", DTYPES)
@pytest.mark.parametrize("src", DTYPES)
def test_every_dtype_pair(src, dst):
    sdt, ddt = _dt(src), _dt(dst)
    rng = _rng("pair", src, dst)
    x = ref.random_array(rng, (6, 9, 3), sdt)
    size, axes = (4, 13), (0, 1)
    plain = ref.reference_resize(x, size, axes=axes)
    aff = _affine_for(ddt)
    mapped = ref.reference_resize(x, size, axes=axes, affine=aff)
    roundings = ref.ROUNDINGS if ddt.kind in "iu" else ("half_even",)
    for rounding in roundings:
        got = rx.resize(x, size, axes=axes, dtype=ddt, rounding=rounding)
        _check(got, x, plain, ddt, rounding, msg=f"{src}->{dst} {rounding}")
        got = rx.resize(x, size, axes=axes, dtype=ddt, affine=aff, rounding=rounding)
        _check(got, x, mapped, ddt, rounding, aff, msg=f"{src}->{dst} {rounding} affine")
        # a Resampler with the same options, and an out= of the output dtype (implied)
        plan = rx.Resampler(x.shape, size, axes=axes, dtype=ddt, affine=aff, rounding=rounding)
        _check(plan(x), x, mapped, ddt, rounding, aff, msg=f"{src}->{dst} plan")
        out = np.empty(plain.shape, ddt)
        assert rx.resize(x, size, axes=axes, rounding=rounding, out=out) is out
        _check(out, x, plain, ddt, rounding, msg=f"{src}->{dst} {rounding} out=")
        # into CHW memory (the planar store of the fused pass)
        chw = np.empty((3,) + size, ddt)
        rx.resize(x, size, axes=axes, affine=aff, rounding=rounding, out=chw.transpose(1, 2, 0))
        _check(chw.transpose(1, 2, 0), x, mapped, ddt, rounding, aff, msg=f"{src}->{dst} CHW")


@pytest.mark.parametrize("src", ["uint8", "float32", "float64", "int16"])
@pytest.mark.parametrize("mode, kw", [("linear", {}), ("cubic", {}),
                                      ("linear", {"coordinate_transform": "align_corners"}),
                                      ("linear", {"antialias": True})])
def test_strong_width_reductions(src, mode, kw):
    # few of a row's elements read (1080p -> 224 and the like): the fused pass takes each
    # blended row's taps alone instead of interleaving four whole rows
    sdt = _dt(src)
    rng = _rng("strong", src, mode, tuple(kw))
    for shape, size in (((20, 150, 3), (7, 9)), ((13, 301, 1), (4, 11)),
                        ((9, 64, 4), (5, 2))):
        x = ref.random_array(rng, shape, sdt)
        c = shape[2]
        aff = _affine_for(np.dtype(np.float32), c) if c <= 3 else \
            (np.linspace(0.5, 2.0, c) / 256.0, np.linspace(-1.0, 1.0, c))
        plain = ref.reference_resize(x, size, axes=(0, 1), mode=mode, **kw)
        got = rx.resize(x, size, axes=(0, 1), mode=mode, **kw)
        _check(got, x, plain, sdt, msg=f"{shape} {mode} {kw}")
        mapped = ref.reference_resize(x, size, axes=(0, 1), mode=mode, affine=aff, **kw)
        chw = np.empty((c,) + size, np.float32)
        rx.resize(x, size, axes=(0, 1), mode=mode, affine=aff, out=chw.transpose(1, 2, 0), **kw)
        _check(chw.transpose(1, 2, 0), x, mapped, np.float32, affine=aff,
               msg=f"{shape} {mode} {kw} CHW")
        # the planar store maps each plane on the way: the same two roundings as the
        # channels-last store, so the same bits
        hwc = rx.resize(x, size, axes=(0, 1), mode=mode, affine=aff, dtype=np.float32, **kw)
        np.testing.assert_array_equal(chw.transpose(1, 2, 0).view(np.uint32),
                                      hwc.view(np.uint32), err_msg=f"{shape} {mode} {kw}")


@pytest.mark.parametrize("src", DTYPES)
def test_gathered_rows_give_the_whole_rows_bits(src, monkeypatch):
    # A fused pass that blends only the pixels its innermost taps read (plan.GATHERED_READS,
    # PAIR_READS) must give the bytes of blending the whole rows: forced on for every shape (enlarging
    # too, padding taps of antialias and exclude_outside, negative cubic weights, NaN, inf
    # and -0.0 in the input, channels-last pixels of 1-5 elements, an affine into CHW) and
    # forced off, the same bytes; both within the reference's tolerance.
    from resamplex._engine.compile import weighted
    sdt = _dt(src)
    rng = _rng("gathered", src)
    cases = [((20, 150, 3), (7, 9), "linear", {}), ((13, 301, 1), (4, 11), "cubic", {}),
             ((9, 64, 4), (5, 2), "linear", {"antialias": True}),
             ((11, 40, 5), (17, 30), "cubic", {"exclude_outside": True}),
             ((8, 33, 2), (3, 70), "area", {}), ((30, 97, 3), (6, 13), "lanczos", {}),
             ((5, 7, 1), (9, 3), "linear", {"coordinate_transform": "align_corners"}),
             ((9, 64, 3), (3, 10), "linear", {}), ((40, 90, 2), (9, 7), "linear", {}),
             ((12, 200, 4), (5, 21), "linear", {})]
    for shape, size, mode, kw in cases:
        x = ref.random_array(rng, shape, sdt)
        if sdt.kind == "f":
            flat = x.reshape(-1)
            flat[[1, 5, 17]] = np.array([np.nan, np.inf, -0.0]).astype(sdt)
        c = shape[2]
        aff = (np.linspace(0.5, 2.0, c) / 256.0, np.linspace(-1.0, 1.0, c))
        outs = []
        for reads, pairs in ((0, 1 << 60), (1 << 60, 0)):
            monkeypatch.setattr(weighted, "GATHERED_READS", reads)
            monkeypatch.setattr(weighted, "PAIR_READS", pairs)
            rx.clear_plan_cache()
            got = rx.resize(x, size, axes=(0, 1), mode=mode, **kw)
            chw = np.empty((c,) + size, np.float32)
            rx.resize(x, size, axes=(0, 1), mode=mode, affine=aff,
                      out=chw.transpose(1, 2, 0), **kw)
            half = rx.resize(x, size, axes=(0, 1), mode=mode, dtype=np.float16, **kw)
            # strided rows (single elements gathered), reversed rows
            wide = np.repeat(x, 2, axis=1)[:, ::2]
            strided = rx.resize(wide[..., 0], size, mode=mode, **kw)
            rev = rx.resize(x[:, ::-1, 0], size, mode=mode, **kw)
            outs.append((got, chw, half, strided, rev))
        for a, b in zip(*outs):
            assert a.tobytes() == b.tobytes(), f"{shape} -> {size} {mode} {kw}"
        if sdt.kind != "f":
            want = ref.reference_resize(x, size, axes=(0, 1), mode=mode, **kw)
            _check(outs[0][0], x, want, sdt, msg=f"{shape} {mode} {kw}")
    rx.clear_plan_cache()


@pytest.mark.parametrize("dst", DTYPES)
@pytest.mark.parametrize("src", ["uint8", "float32", "int16", "bfloat16"])
def test_nearest_converts_the_exact_values(src, dst):
    sdt, ddt = _dt(src), _dt(dst)
    x = ref.random_array(_rng("nearest", src, dst), (5, 7, 3), sdt)
    kw = dict(axes=(0, 1), mode="nearest")
    picked = ref.reference_resize(x, (9, 4), **kw)
    got = rx.resize(x, (9, 4), dtype=ddt, **kw)
    _check(got, x, picked.astype(np.float64), ddt, msg=f"nearest {src}->{dst}")
    if (sdt.kind in "iu" and ddt.kind == "f" and ddt.itemsize > sdt.itemsize) or sdt == ddt:
        np.testing.assert_array_equal(got, picked.astype(ddt))   # exact conversions
    aff = _affine_for(ddt)
    got = rx.resize(x, (9, 4), dtype=ddt, affine=aff, **kw)
    want = ref.reference_resize(x, (9, 4), affine=aff, **kw)
    _check(got, x, want, ddt, affine=aff, msg=f"nearest {src}->{dst} affine")
    # no resampled axis at all (a copy that converts)
    got = rx.resize(x, (5, 7), dtype=ddt, affine=aff, axes=(0, 1))
    _check(got, x, x.astype(np.float64) * aff[0] + aff[1], ddt, affine=aff, msg="identity")


@pytest.mark.parametrize("mode,kw", [("cubic", {}), ("area", {}), ("lanczos", {}),
                                     ("linear", dict(antialias=True))])
def test_other_modes(mode, kw):
    x = ref.random_array(_rng("modes", mode), (11, 10, 2), np.uint8)
    aff = _affine_for(np.dtype(np.float32), 2)
    for size in ((5, 4), (17, 23)):
        want = ref.reference_resize(x, size, axes=(0, 1), mode=mode, affine=aff, **kw)
        got = rx.resize(x, size, axes=(0, 1), mode=mode, dtype=np.float32, affine=aff, **kw)
        gain = ref.request_gain(x.shape, size, axes=(0, 1), mode=mode, **kw)
        _check(got, x * gain, want, np.float32, affine=aff, msg=f"{mode} {size}")


# --------------------------------------------------------------------------------------------
# broadcast shapes and out= layouts
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape_a", [(), (3,), (1, 1, 3), (13, 1), (4, 13, 3), (4, 1, 1)])
@pytest.mark.parametrize("layout", ["fresh", "C", "CHW-view", "F", "reversed", "big-endian"])
def test_broadcast_and_layouts(shape_a, layout):
    rng = _rng("layout", shape_a, layout)
    x = ref.random_array(rng, (9, 6, 3), np.uint8)
    out_shape = (4, 13, 3)
    a = rng.uniform(0.001, 0.02, shape_a)
    b = rng.uniform(-2.0, 2.0, shape_a[::-1])     # b broadcasts differently from a
    try:
        fits = np.broadcast_shapes(b.shape, out_shape) == out_shape
    except ValueError:
        fits = False
    if not fits:
        b = rng.uniform(-2.0, 2.0, (13, 1))
    want = ref.reference_resize(x, (4, 13), axes=(0, 1), affine=(a, b))
    if layout == "fresh":
        out = None
    elif layout == "C":
        out = np.empty(out_shape, np.float32)
    elif layout == "CHW-view":
        out = np.empty((3, 4, 13), np.float32).transpose(1, 2, 0)
    elif layout == "F":
        out = np.empty(out_shape, np.float32, order="F")
    elif layout == "reversed":
        out = np.empty(out_shape, np.float32)[::-1, :, ::-1]
    else:
        out = np.empty(out_shape, ">f4")
    got = rx.resize(x, (4, 13), axes=(0, 1), dtype=None if layout == "big-endian" else
                    np.float32, affine=(a, b), out=out)
    if out is not None:
        assert got is out
    _check(got.astype(np.float32), x, want, np.float32, affine=(a, b), msg=layout)


def test_chw_input_with_chw_affine():
    x = ref.random_array(_rng("chw"), (3, 12, 10), np.uint8)
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    aff = ((1 / (255 * std))[:, None, None], (-mean / std)[:, None, None])
    got = rx.resize(x, (7, 5), axes=(1, 2), dtype=np.float32, affine=aff)
    want = ref.reference_resize(x, (7, 5), axes=(1, 2), affine=aff)
    _check(got, x, want, np.float32, affine=aff)


def test_normalise_matches_the_numpy_chain():
    # the SPEC §9 row in small: the chain (resize as float, then ToTensor + Normalize)
    img = ref.random_array(_rng("chain"), (30, 40, 3), np.uint8)
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    chw = np.empty((3, 8, 8), np.float32)
    rx.resize(img, (8, 8), axes=(0, 1), dtype=np.float32,
              affine=(1 / (255 * std), -mean / std), out=chw.transpose(1, 2, 0))
    chain = ref.reference_resize(img, (8, 8), axes=(0, 1)) / 255.0
    chain = ((chain - mean) / std).transpose(2, 0, 1)
    np.testing.assert_allclose(chw, chain, atol=2e-5)


def test_long_axis_tiles_convert():
    # a long axis runs tile by tile (Plan._call_tiled): each tile gets its slice of a and b
    from resamplex import _resize
    x = ref.random_array(_rng("tiled"), (3, 40), np.uint8)
    a = np.linspace(0.01, 0.02, 120)
    old = _resize.TILE_TABLE_BYTES
    rx.clear_plan_cache()
    try:
        _resize.TILE_TABLE_BYTES = 256
        got = rx.resize(x, (120,), axes=(1,), dtype=np.float32, affine=(a, -1.0))
    finally:
        _resize.TILE_TABLE_BYTES = old
        rx.clear_plan_cache()
    want = ref.reference_resize(x, (120,), axes=(1,), affine=(a, -1.0))
    _check(got, x, want, np.float32, affine=(a, -1.0), passes=1)


@pytest.mark.parametrize("layout", ["chw", "hwc", "merged"])
def test_repeated_calls_follow_each_calls_arguments(layout):
    # a repeated conversion into an out= of a layout met before skips the checks it passed
    # then: each call's a and b still decide the values (against the reference), a read-only,
    # mis-shaped, overlapping or wrongly typed out= and a non-finite affine into integers
    # are still refused
    img = ref.random_array(_rng("repeat", layout), (30, 41, 3), np.uint8)
    size = (9, 11)
    make = {"chw": lambda dt: np.empty((3,) + size, dt).transpose(1, 2, 0),
            "hwc": lambda dt: np.empty(size + (3,), dt),
            "merged": lambda dt: np.empty(size + (3,), dt)}[layout]
    out = make(np.float32)
    for i in range(3):
        a = np.array([0.5, -1.0, 2.0]) / (256.0 * (i + 1))
        b = np.array([1.0, -3.0, 0.25]) * (i - 1)
        aff = (a, b) if layout != "merged" else (float(a[0]), float(b[0]))
        got = rx.resize(img, size, axes=(0, 1), dtype=np.float32, affine=aff, out=out)
        assert got is out
        want = ref.reference_resize(img, size, axes=(0, 1), affine=aff)
        _check(out, img, want, np.float32, affine=aff, msg=f"call {i}")
    aff = (np.ones(3), np.zeros(3))
    frozen = make(np.float32)
    frozen.flags.writeable = False
    with pytest.raises(rx.ResamplexError, match="read-only"):
        rx.resize(img, size, axes=(0, 1), dtype=np.float32, affine=aff, out=frozen)
    with pytest.raises(rx.ResamplexError, match="dtype"):
        rx.resize(img, size, axes=(0, 1), dtype=np.float64, affine=aff, out=out)
    with pytest.raises(rx.ResamplexError, match="shape"):
        rx.resize(img, (9, 12), axes=(0, 1), dtype=np.float32, affine=aff, out=out)
    imgf = ref.random_array(_rng("repeat-f", layout), (30, 41, 3), np.float32)
    rx.resize(imgf, size, axes=(0, 1), dtype=np.float32, affine=aff, out=out)
    with pytest.raises(rx.ResamplexError, match="share memory"):
        rx.resize(imgf, size, axes=(0, 1), dtype=np.float32, affine=aff,
                  out=imgf[:9, :11])
    out8 = make(np.uint8)
    rx.resize(img, size, axes=(0, 1), dtype=np.uint8, affine=aff, out=out8)
    with pytest.raises(rx.ResamplexError, match="not finite"):
        rx.resize(img, size, axes=(0, 1), dtype=np.uint8, affine=(np.ones(3), np.full(3, np.inf)),
                  out=out8)


@pytest.mark.parametrize("layout", ["hwc", "chw", "F"])
def test_repeated_fresh_calls_follow_each_calls_arguments(layout):
    # repeated conversions into fresh arrays (no out=) take the layout compiled by the first:
    # each call's dtype, rounding and affine still decide the values, including a and b of
    # the compute type changed in place between calls (the same objects; the merged pixel
    # row of "hwc" expands them over the row, which must not be kept across their values),
    # and each result is laid out like the input
    rng = _rng("repeat-fresh", layout)
    img = ref.random_array(rng, (30, 41, 3), np.uint8)
    if layout == "chw":
        img = np.ascontiguousarray(img.transpose(2, 0, 1)).transpose(1, 2, 0)
    elif layout == "F":
        img = np.asfortranarray(img)
    size = (9, 11)
    a = np.array([0.5, -1.0, 2.0], np.float32) / 256.0
    b = np.array([1.0, -3.0, 0.25], np.float32)
    for i in range(4):
        a[:] = rng.uniform(-0.02, 0.02, 3)
        b[:] = rng.uniform(-2.0, 2.0, 3)
        got = rx.resize(img, size, axes=(0, 1), dtype=np.float32, affine=(a, b))
        want = ref.reference_resize(img, size, axes=(0, 1), affine=(a, b))
        assert got.dtype == np.float32
        assert np.argsort(got.strides).tolist() == np.argsort(img.strides).tolist()
        _check(got, img, want, np.float32, affine=(a, b), msg=f"call {i}")
    for dtype, rounding in [("uint8", "half_even"), ("int16", "toward_zero"),
                            ("uint8", "half_away_from_zero"), ("float16", "half_even")]:
        dt = np.dtype(dtype)
        aff = _affine_for(dt)
        got = rx.resize(img, size, axes=(0, 1), dtype=dt, affine=aff, rounding=rounding)
        want = ref.reference_resize(img, size, axes=(0, 1), affine=aff)
        assert got.dtype == dt
        _check(got, img, want, dt, rounding=rounding, affine=aff, msg=f"{dtype} {rounding}")
    with pytest.raises(rx.ResamplexError, match="not finite"):
        rx.resize(img, size, axes=(0, 1), dtype=np.uint8, affine=(np.ones(3), np.full(3, np.nan)))


def test_no_conversion_is_the_plain_path():
    x = ref.random_array(_rng("same"), (6, 8), np.float32)
    np.testing.assert_array_equal(rx.resize(x, (3, 5), dtype=np.float32),
                                  rx.resize(x, (3, 5)))


# --------------------------------------------------------------------------------------------
# threads
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["linear", "nearest"])
def test_thread_count_bit_identity(mode):
    x = ref.random_array(_rng("threads", mode), (90, 70, 3), np.uint8)
    a, b = np.array([0.01, 0.02, 0.03]), np.array([-1.0, 0.5, 2.0])
    old = _exec.get_parallel_threshold()
    _exec.set_parallel_threshold(0)
    try:
        halves, ints = [], []
        for threads in (1, 2, 3):
            out = np.empty((3, 41, 33), np.float16).transpose(1, 2, 0)
            rx.resize(x, (41, 33), axes=(0, 1), mode=mode, dtype=np.float16, affine=(a, b),
                      out=out, threads=threads)
            halves.append(out.view(np.uint16).copy())
            ints.append(rx.resize(x, (41, 33), axes=(0, 1), mode=mode, dtype=np.int16,
                                  affine=(a * 900, b), threads=threads))
            fortran = np.empty((41, 33, 3), np.float32, order="F")   # relayout via scratch
            rx.resize(x, (41, 33), axes=(0, 1), mode=mode, affine=(a, b), out=fortran,
                      threads=threads)
            halves.append(fortran.astype(np.float16).view(np.uint16))
    finally:
        _exec.set_parallel_threshold(old)
    for got in halves[2::2]:
        np.testing.assert_array_equal(got, halves[0])
    for got in halves[3::2]:
        np.testing.assert_array_equal(got, halves[1])
    for got in ints[1:]:
        np.testing.assert_array_equal(got, ints[0])


# --------------------------------------------------------------------------------------------
# errors: each bad argument, before any allocation
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["a-shape", "b-shape", "a-ndim", "complex", "object",
                                  "datetime", "nonfinite-int", "inf-int", "out-disagrees",
                                  "out-complex", "not-a-pair", "a-strings", "a-complex"])
@pytest.mark.parametrize("mode", ["linear", "nearest"])
def test_bad_conversion_refused_before_allocating(case, mode):
    x = np.zeros((4, 6, 3), np.uint8)
    size = [2**20, 2**20]               # an output far too big to allocate: refused first
    kw = dict(dtype=np.float32, affine=(np.ones(3), np.zeros(3)))
    if case == "a-shape":
        kw["affine"] = (np.ones(4), 0.0)
    elif case == "b-shape":
        kw["affine"] = (1.0, np.zeros((2, 1, 1)))
    elif case == "a-ndim":
        kw["affine"] = (np.ones((1, 1, 1, 3)), 0.0)
    elif case == "complex":
        kw["dtype"] = np.complex64
    elif case == "object":
        kw["dtype"] = object
    elif case == "datetime":
        kw["dtype"] = "M8[s]"
    elif case == "nonfinite-int":
        kw.update(dtype=np.uint8, affine=(np.array([1.0, np.nan, 1.0]), 0.0))
    elif case == "inf-int":
        kw.update(dtype=np.int16, affine=(1.0, np.inf))
    elif case == "out-disagrees":
        kw["out"] = np.empty((4, 4, 3), np.float64)
        size = [4, 4]
    elif case == "out-complex":
        kw = dict(out=np.empty((4, 4, 3), np.complex64))
        size = [4, 4]
    elif case == "not-a-pair":
        kw["affine"] = (1.0, 2.0, 3.0)
    elif case == "a-strings":
        kw["affine"] = ("1", 0.0)
    elif case == "a-complex":
        kw["affine"] = (1j, 0.0)
    err = rx.UnsupportedError if case in ("complex", "object", "datetime", "out-complex") \
        else rx.ResamplexError
    exc, peak = allocation_peak(lambda: rx.resize(x, size, axes=(0, 1), mode=mode, **kw))
    assert isinstance(exc, err), repr(exc)
    assert any(w in str(exc) for w in ("affine", "dtype", "out")), str(exc)
    assert peak < ALLOC_SLACK, f"allocated {peak >> 20} MiB before refusing"
    # A nearest Resampler may name any fixed-size dtype (complex, datetime): an input of
    # that dtype is copied as it is; only a conversion into it is refused, per call.
    if "out" not in kw and not (mode == "nearest" and case in ("complex", "datetime")):
        with pytest.raises(err):
            rx.Resampler(x.shape, size, axes=(0, 1), mode=mode, **kw)


def test_input_outside_the_registry_cannot_convert():
    x = np.zeros((4, 6), np.int32)
    with pytest.raises(rx.UnsupportedError, match="x|dtype"):
        rx.resize(x, (2, 3), mode="nearest", dtype=np.float32)
    np.testing.assert_array_equal(rx.resize(x, (2, 3), mode="nearest"), np.zeros((2, 3)))


def test_every_cpu_level_gives_the_same_bits():
    x = ref.random_array(_rng("levels"), (40, 50, 3), np.uint8)
    a, b = np.array([0.01, 0.02, 0.03]), np.array([-1.0, 0.5, 2.0])
    calls = [dict(dtype=np.float32, affine=(a, b)), dict(dtype=np.float16, affine=(a, b)),
             dict(dtype=np.int16, affine=(a * 900, b), rounding="half_away_from_zero"),
             dict(dtype=np.float32, affine=(a, b), mode="nearest")]
    before = _exec.cpu_level()
    try:
        results = {}
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            got = []
            for kw in calls:
                chw = np.empty((3, 23, 61), kw["dtype"])
                rx.resize(x, (23, 61), axes=(0, 1), out=chw.transpose(1, 2, 0), **kw)
                got.append(chw.copy())
                got.append(rx.resize(x, (23, 61), axes=(0, 1), **kw))
            results[level] = got
    finally:
        _exec.set_cpu_level(before)
    for level, got in results.items():
        for g, want in zip(got, results["baseline"]):
            np.testing.assert_array_equal(g.view(np.uint8), want.view(np.uint8), err_msg=level)


_LAZY_BFLOAT16 = """
import sys
import os
import subprocess
import sys

import numpy as np
import resamplex as rx
assert "ml_dtypes" not in sys.modules, "import resamplex imported ml_dtypes"
assert "bfloat16" in rx.show_config(print_=False)["dtypes"]["weighted"]
assert "ml_dtypes" not in sys.modules, "show_config imported ml_dtypes"
x = np.arange(4, dtype=np.float32)
assert rx.resize(x, (8,)).dtype == np.float32 and "ml_dtypes" not in sys.modules
y = rx.resize(x, (8,), dtype="bfloat16")
import ml_dtypes
assert y.dtype == ml_dtypes.bfloat16, y.dtype
expect = np.array([0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3], dtype=ml_dtypes.bfloat16)
assert np.array_equal(y.view(np.uint16), expect.view(np.uint16)), y
assert rx.resize(y, (4,)).dtype == ml_dtypes.bfloat16
print("ok")
"""


def test_bfloat16_without_ml_dtypes_imported_first(tmp_path):
    """``import resamplex`` leaves ml_dtypes alone (importing it registers its ufunc loops with
    NumPy: 0.8 of the 1.0 s resamplex's import took); ``dtype="bfloat16"`` imports it when
    asked, and bfloat16 arrays are recognised as before. In a fresh interpreter that imports
    the same resamplex as this one, from outside the source tree."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(rx.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    proc = subprocess.run([sys.executable, "-c", _LAZY_BFLOAT16], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
