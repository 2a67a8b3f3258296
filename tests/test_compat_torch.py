"""``resamplex.compat.torch.interpolate`` against ``torch.nn.functional.interpolate`` (SPEC §6).

What is compared, and how strictly:

- ``nearest`` / ``nearest-exact``: indices exactly equal to torch's on thousands of random 1-D
  size/scale pairs (values = ``arange``, so each output shows its index) and on random 2-D/3-D
  shapes in both memory layouts (both of torch's kernels run: the generic one and the
  channels-last/small-output one with its ``out == in`` / ``out == 2 in`` shortcuts), float16,
  bfloat16, float32, float64 and uint8. The one accepted difference: torch's AVX2/AVX512 build
  contracts ``r * (o + 0.5) - 0.5`` of the generic ``nearest-exact`` kernel into a fused
  multiply-add; where torch differs from us it must equal that FMA model. Under
  ``ATEN_CPU_CAPABILITY=default`` (a subprocess) the match is exact.
- uint8 ``bilinear``/``bicubic``, antialias on and off: **bit-exact** on hundreds of random
  sizes up and down, C in {1, 3, 4} (torch's AVX2 kernel) and {5, 7} (its separable fallback),
  NCHW and NHWC, output width 1 included (where torch's separable kernel repeats row 0, and so
  does the door: ``repeats_first_row``).
- float modes (``linear``, ``bilinear``, ``bicubic``, ``trilinear``, ``area``, antialias):
  torch evaluates 2-D/3-D sums nested and, on AVX builds, with FMA; the engine is separable.
  Tolerances relative to ``max |x|``: float32 1e-5 (the coordinate ``r * (o + 0.5) - 0.5`` under
  FMA moves by ~ulp(in), research §5.5), float64 1e-12, float16/bfloat16 two ulps of the type.
  1-D ``linear`` is bit-exact under ``ATEN_CPU_CAPABILITY=default`` (subprocess).
- torch's argument errors, mirrored with torch's wording.

Tests marked ``needs_torch`` skip where torch is not installed; the independent models below
(scalar nearest formulas, a scalar uint8 fixed-point model, the area windows) run without it.
"""

from __future__ import annotations

import doctest
import json
import math
import os
import subprocess
import sys
import textwrap
from fractions import Fraction

import numpy as np
import pytest

from resamplex import ResamplexError, UnsupportedError
from resamplex._dtypes import BFLOAT16
from resamplex.compat import torch as rxt

try:
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F
except pytest.skip.Exception:  # the torch-free tests below still run
    torch = F = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")
needs_bf16 = pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes is not installed")
F32, F64 = np.float32, np.float64
SEED = 20240605

# ------------------------------------------------------------------------------ helpers


def to_torch(x: np.ndarray):
    """A torch tensor sharing ``x``'s strides (bfloat16 through an int16 view)."""
    if BFLOAT16 is not None and x.dtype == BFLOAT16:
        return torch.from_numpy(x.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(x)


def from_torch(t) -> np.ndarray:
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(BFLOAT16)
    return t.numpy()


def t_interp(x: np.ndarray, **kw) -> np.ndarray:
    return from_torch(F.interpolate(to_torch(x), **kw))


def channels_last(x: np.ndarray) -> np.ndarray:
    """The same values with channels-last (NHWC / NDHWC) memory."""
    perm = (0, *range(2, x.ndim), 1)
    return np.ascontiguousarray(x.transpose(perm)).transpose(np.argsort(perm))


def torch_capability() -> str:
    return torch.backends.cpu.get_cpu_capability() if torch is not None else "none"


# ------------------------------------------------------------------------------ independent models


def ref_nearest(n_in, n_out, scale, exact, *, double=False, shortcuts=False, fma=False):
    """Scalar model of torch's nearest indices (research §5.2–§5.4), one output at a time.

    ``double``: float64 data on the generic kernel (opmath double, ``floorf`` at the end).
    ``shortcuts``: the channels-last kernel (float32, ``out == in``/``2 in`` shortcuts for
    legacy). ``fma``: the generic ``nearest-exact`` kernel as an AVX build computes it.
    """
    if shortcuts and not exact and n_out == n_in:
        return np.arange(n_out)
    if shortcuts and not exact and n_out == 2 * n_in:
        return np.arange(n_out) // 2
    use_double = double and not shortcuts
    if scale is not None:
        r = 1.0 / scale if use_double else F32(1.0 / scale)
    else:
        r = n_in / n_out if use_double else F32(F32(n_in) / F32(n_out))
    out = []
    for o in range(n_out):
        if not exact:
            t = F32(o * r) if use_double else F32(F32(o) * r)
        elif fma:
            exact_val = Fraction(float(r)) * (Fraction(o) + Fraction(1, 2)) - Fraction(1, 2)
            real = float(exact_val) if use_double else F32(float(exact_val))
            t = F32(max(float(real), 0.0) + 0.5)
        elif use_double:
            real = max(r * (o + 0.5) - 0.5, 0.0)
            t = F32(real + 0.5)
        else:
            t = F32(F32(F32(o) + F32(0.5)) * r)
        out.append(min(math.floor(t), n_in - 1))
    return np.array(out)


def ref_u8_axis(n_in, n_out, scale, align_corners, cubic, antialias):
    """Scalar model of one axis of torch's uint8 path (research §5.6): ``{index: int16 weight}``
    per output and the precision ``p``. Python floats are float64, as torch's weights are."""
    interp = 4 if cubic else 2
    if align_corners:
        r = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        r = 1.0 / scale if scale else n_in / n_out
    a = (-0.5 if antialias else -0.75)

    def filt(x):
        x = abs(x)
        if not cubic:
            return 1.0 - x if x < 1.0 else 0.0
        if x < 1.0:
            return ((a + 2) * x - (a + 3)) * x * x + 1
        if x < 2.0:
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
        return 0.0

    rows, wt_max = [], 0.0
    for i in range(n_out):
        taps = {}
        if antialias:
            support = interp / 2 * r if r >= 1 else interp / 2
            k = math.ceil(support) * 2 + 1
            center = r * (i + 0.5)
            inv = 1.0 / r if r >= 1 else 1.0
            xmin = max(int(center - support + 0.5), 0)
            xsize = min(max(min(int(center + support + 0.5), n_in) - xmin, 0), k)
            ws = [filt((j + xmin - center + 0.5) * inv) for j in range(xsize)]
            total = 0.0
            for w in ws:
                total += w
            if total != 0.0:
                ws = [w / total for w in ws]
                wt_max = max([wt_max, *ws])
            taps = {xmin + j: w for j, w in enumerate(ws)}
        else:
            x = r * i if align_corners else r * (i + 0.5) - 0.5
            if not cubic and x < 0:
                x = 0.0
            idx = min(math.floor(F32(x)), n_in - 1)
            lam = min(max(x - idx, 0.0), 1.0)
            half = interp // 2
            for j in range(interp):  # out-of-range taps fold onto the border pixel
                u = min(max(idx - half + 1 + j, 0), n_in - 1)
                taps[u] = taps.get(u, 0.0) + filt((j + 1 - half) - lam)
                wt_max = max(wt_max, taps[u])
        rows.append(taps)
    p = 0
    while p < 22 and int(0.5 + wt_max * (1 << (p + 1))) < (1 << 15):
        p += 1
    q = [{u: int(w * (1 << p) - 0.5) if w * (1 << p) < 0 else int(w * (1 << p) + 0.5)
          for u, w in taps.items()} for taps in rows]
    return q, p


def ref_u8(x, size, cubic, antialias, align_corners=False):
    """Scalar model of uint8 bilinear/bicubic: W pass then H pass, uint8 in between."""
    y = x.astype(np.int64)
    for axis, n_out in ((3, size[1]), (2, size[0])):
        n_in = y.shape[axis]
        if n_out == n_in:
            continue
        rows, p = ref_u8_axis(n_in, n_out, None, align_corners, cubic, antialias)
        src = np.moveaxis(y, axis, -1)
        res = np.empty(src.shape[:-1] + (n_out,), dtype=np.int64)
        for o, taps in enumerate(rows):
            acc = np.full(src.shape[:-1], 1 << (p - 1), dtype=np.int64)
            for u, w in taps.items():
                acc += w * src[..., u]
            res[..., o] = np.clip(acc >> p, 0, 255)
        y = np.moveaxis(res, -1, axis)
    return y.astype(np.uint8)


# ------------------------------------------------------------------------------ torch-free tests


def test_doctests():
    result = doctest.testmod(rxt, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("double", [False, True])
def test_nearest_indices_against_scalar_model(exact, double):
    rng = np.random.default_rng(SEED)
    opmath = F64 if double else F32
    for _ in range(300):
        n_in = int(rng.integers(1, 200))
        n_out = int(rng.integers(1, 400))
        scale = float(rng.uniform(0.1, 5)) if rng.integers(2) else None
        for cl in (False, True):
            got = rxt.nearest_indices(n_in, n_out, scale, exact=exact, opmath=opmath,
                                      channels_last_kernel=cl)
            exp = ref_nearest(n_in, n_out, scale, exact, double=double, shortcuts=cl)
            np.testing.assert_array_equal(got, exp)


def test_nearest_goldens():
    # research §5.1.7 and §5.3 worked examples
    x = np.arange(10, dtype=F32).reshape(1, 1, 10)
    np.testing.assert_array_equal(
        rxt.interpolate(x, scale_factor=1.09, mode="nearest-exact")[0, 0],
        [0, 1, 2, 3, 4, 5, 5, 6, 7, 8])
    np.testing.assert_array_equal(
        rxt.interpolate(x, scale_factor=1.09, mode="nearest-exact",
                        recompute_scale_factor=True)[0, 0], np.arange(10))
    col = np.arange(5, dtype=F32).reshape(1, 1, 5, 1)
    small = np.broadcast_to(col, (1, 1, 5, 3)).copy()   # outH + outW <= 128: shortcut kernel
    wide = np.broadcast_to(col, (1, 1, 5, 200)).copy()  # generic kernel
    np.testing.assert_array_equal(rxt.interpolate(small, scale_factor=(2.1, 1.0))[0, 0, :, 0],
                                  [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    np.testing.assert_array_equal(rxt.interpolate(wide, scale_factor=(2.1, 1.0))[0, 0, :, 0],
                                  [0, 0, 0, 1, 1, 2, 2, 3, 3, 4])


@pytest.mark.parametrize("cubic", [False, True])
@pytest.mark.parametrize("antialias", [False, True])
def test_uint8_against_scalar_model(cubic, antialias):
    rng = np.random.default_rng(SEED + cubic + 2 * antialias)
    for _ in range(25):
        h, w = (int(v) for v in rng.integers(1, 24, 2))
        size = tuple(int(v) for v in rng.integers(1, 40, 2))
        ac = bool(rng.integers(2)) and not antialias
        x = rng.integers(0, 256, (1, 2, h, w), dtype=np.uint8)
        got = rxt.interpolate(x, size=size, mode="bicubic" if cubic else "bilinear",
                              antialias=antialias, align_corners=ac)
        np.testing.assert_array_equal(got, ref_u8(x, size, cubic, antialias, ac))


def test_area_windows():
    for n_in, n_out in [(10, 3), (3, 10), (7, 7), (1, 5), (100, 1), (13, 5)]:
        table = rxt.area_table(n_in, n_out)
        for o in range(n_out):
            lo, hi = math.floor(o * n_in / n_out), math.ceil((o + 1) * n_in / n_out)
            taps = table.idx[table.ptr[o]:table.ptr[o + 1]]
            np.testing.assert_array_equal(taps, np.arange(lo, hi))
            np.testing.assert_allclose(table.w[table.ptr[o]:table.ptr[o + 1]], 1 / (hi - lo))


def test_layout_out_and_threads():
    rng = np.random.default_rng(SEED)
    x = channels_last(rng.standard_normal((2, 5, 9, 11)).astype(F32))
    for mode in ("nearest", "bilinear", "bicubic", "area"):
        y = rxt.interpolate(x, size=(14, 6), mode=mode)
        assert y.shape == (2, 5, 14, 6)
        assert y.transpose(0, 2, 3, 1).flags.c_contiguous  # channels-last in, channels-last out
        out = np.empty_like(y)  # the same memory order: the same passes, the same bits
        assert rxt.interpolate(x, size=(14, 6), mode=mode, out=out) is out
        np.testing.assert_array_equal(out, y)
        np.testing.assert_array_equal(rxt.interpolate(x, size=(14, 6), mode=mode, threads=1), y)
        # another memory order may change the engine's pass order: float32 rounding only
        np.testing.assert_allclose(
            rxt.interpolate(np.ascontiguousarray(x), size=(14, 6), mode=mode), y, atol=1e-6)
    u8 = channels_last(rng.integers(0, 256, (1, 3, 30, 40), dtype=np.uint8))
    a = rxt.interpolate(u8, size=(11, 70), mode="bilinear", antialias=True, threads=1)
    b = rxt.interpolate(np.ascontiguousarray(u8), size=(11, 70), mode="bilinear",
                        antialias=True, threads=2)
    np.testing.assert_array_equal(a, b)


def test_empty_and_identity():
    x = np.zeros((0, 3, 5, 6), F32)
    assert rxt.interpolate(x, size=(7, 2), mode="bilinear").shape == (0, 3, 7, 2)
    assert rxt.interpolate(np.zeros((1, 0, 5, 6), F32), size=3, mode="area").shape == (1, 0, 3, 3)
    assert rxt.interpolate(np.ones((1, 2, 5, 6), F32), scale_factor=0.1,
                           mode="area").shape == (1, 2, 0, 0)
    u8 = np.arange(30, dtype=np.uint8).reshape(1, 1, 5, 6)
    np.testing.assert_array_equal(rxt.interpolate(u8, size=(5, 6), mode="bicubic"), u8)


# ------------------------------------------------------------------------------ errors

X4 = np.zeros((1, 2, 5, 6), F32)
X3 = np.zeros((1, 2, 5), F32)
X5 = np.zeros((1, 2, 3, 3, 3), F32)

ERRORS = [
    # (input, kwargs, our exception, substring shared with torch's message or None)
    (X4, dict(size=3, scale_factor=2.0), ResamplexError,
     "only one of size or scale_factor should be defined"),
    (X4, dict(), ResamplexError, "either size or scale_factor should be defined"),
    (X4, dict(size=(3,)), ResamplexError,
     "Input and output must have the same number of spatial dimensions"),
    (X4, dict(scale_factor=(2.0, 2.0, 2.0)), ResamplexError,
     "Input and scale_factor must have the same number of spatial dimensions"),
    (X4, dict(size=(2.0, 3)), ResamplexError, None),
    (X4, dict(size=3, align_corners=True), ResamplexError,
     "align_corners option can only be set with the interpolating modes"),
    (X4, dict(size=3, mode="area", align_corners=False), ResamplexError,
     "align_corners option can only be set with the interpolating modes"),
    (X4, dict(size=3, mode="nearest-exact", align_corners=False), ResamplexError,
     "align_corners option can only be set with the interpolating modes"),
    (X4, dict(size=3, recompute_scale_factor=True), ResamplexError,
     "recompute_scale_factor is not meaningful with an explicit size"),
    (X4, dict(size=3, antialias=True), ResamplexError,
     "Anti-alias option is restricted to bilinear, bicubic"),
    (X3, dict(size=3, mode="linear", antialias=True), ResamplexError,
     "Anti-alias option is restricted to bilinear, bicubic"),
    (X4, dict(size=0), ResamplexError, "Input and output sizes should be greater than 0"),
    (X4, dict(size=(-1, 3)), ResamplexError,
     "Input and output sizes should be greater than 0, but got input (H: 5, W: 6) output "
     "(H: -1, W: 3)"),
    (X3, dict(size=0), ResamplexError,
     "Input and output sizes should be greater than 0, but got input (W: 5) and output (W: 0)"),
    (X5, dict(size=(1, 0, 1)), ResamplexError,
     "but got input (D: 3, H: 3, W: 3) output (D: 1, H: 0, W: 1)"),
    (X4, dict(scale_factor=0.1), ResamplexError, "Input and output sizes should be greater than 0"),
    (X4, dict(scale_factor=-2.0), ResamplexError, "Input and output sizes should be greater"),
    (X4, dict(scale_factor=float("nan")), ResamplexError,
     "value cannot be converted to type int64_t without overflow"),
    (X4, dict(scale_factor=float("inf")), ResamplexError,
     "value cannot be converted to type int64_t without overflow"),
    (X4, dict(size=(-1, 2), mode="area"), ResamplexError,
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0"),
    (np.zeros((1, 2, 0, 6), F32), dict(size=3, mode="area"), ResamplexError,
     "Expected input to have non-zero size for non-batch dimensions"),
    (np.zeros((1, 0, 5, 6), F32), dict(size=3), ResamplexError,
     "Non-empty 4D data tensor expected but got a tensor with sizes [1, 0, 5, 6]"),
    (np.zeros((1, 2, 0, 6), F32), dict(size=3, mode="bilinear"), ResamplexError,
     "Input and output sizes should be greater than 0, but got input (H: 0, W: 6)"),
    (X4, dict(size=3, mode="linear"), UnsupportedError,
     "Got 4D input, but linear mode needs 3D input"),
    (X3, dict(size=3, mode="bilinear"), UnsupportedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (X4, dict(size=3, mode="trilinear"), UnsupportedError,
     "Got 4D input, but trilinear mode needs 5D input"),
    (X5, dict(size=3, mode="bicubic"), UnsupportedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 5D)"),
    (np.zeros((2, 5), F32), dict(size=3), UnsupportedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D)"),
    (X4, dict(size=3, mode="foo"), UnsupportedError, None),
    (X4.astype(np.int8), dict(size=3), UnsupportedError, "'Char'"),
    (X4.astype(np.int32), dict(size=3, mode="bilinear"), UnsupportedError, "'Int'"),
    (X3.astype(np.uint8), dict(size=3, mode="linear"), UnsupportedError, "'Byte'"),
    (X4.astype(np.uint8), dict(size=3, mode="area"), UnsupportedError, "'Byte'"),
    (X4.astype(np.float16), dict(size=3, mode="bilinear", antialias=True), UnsupportedError,
     "'Half'"),
    (X4.astype(bool), dict(size=3), UnsupportedError, "'Bool'"),
]


@pytest.mark.parametrize("x, kwargs, exc, text", ERRORS)
def test_errors_mirror_torch(x, kwargs, exc, text):
    with pytest.raises(exc) as info:
        rxt.interpolate(x, **kwargs)
    if text is not None:
        assert text in str(info.value)
    if torch is not None:
        with pytest.raises((ValueError, RuntimeError, NotImplementedError, TypeError)) as tinfo:
            F.interpolate(torch.from_numpy(x), **kwargs)
        if text is not None and not text.startswith("'"):
            assert text in str(tinfo.value)
        # SPEC §6: an instance of torch's exception type (test_compat_errors.py: more cases)
        assert isinstance(info.value, type(tinfo.value)), (type(info.value), tinfo.value)


def test_our_own_argument_errors():
    with pytest.raises(ResamplexError, match="out: expected shape"):
        rxt.interpolate(X4, size=3, out=np.empty((1, 2, 4, 4), F32))
    with pytest.raises(ResamplexError, match="out: expected dtype"):
        rxt.interpolate(X4, size=3, out=np.empty((1, 2, 3, 3), F64))
    with pytest.raises(ResamplexError, match="threads"):
        rxt.interpolate(X4, size=3, threads=0)
    with pytest.raises(TypeError, match="align_corners"):   # torch's binding: a bool only
        rxt.interpolate(X4, size=3, mode="bilinear", align_corners=1)
    with pytest.raises(ResamplexError, match="needs .* GiB|overflows"):
        rxt.interpolate(X4, size=(10**9, 10**9))
    with pytest.raises(UnsupportedError, match="lanczos"):
        rxt.interpolate(X4, size=3, mode="lanczos", antialias=True)


# ------------------------------------------------------------------------------ against torch


def fma_ok(got_idx, torch_idx, n_in, n_out, scale, double):
    """Where torch's generic ``nearest-exact`` index differs from ours, it must be the FMA one."""
    diff = np.flatnonzero(got_idx != torch_idx)
    if diff.size == 0:
        return True
    fma = ref_nearest(n_in, n_out, scale, True, double=double, fma=True)
    return bool(np.array_equal(torch_idx[diff], fma[diff]))


@needs_torch
@pytest.mark.parametrize("dtype", [F32, F64])
def test_nearest_1d_indices_against_torch(dtype):
    rng = np.random.default_rng(SEED + (dtype == F64))
    fma_cases = checked = 0
    for it in range(2000):
        exact = bool(it % 2)
        mode = "nearest-exact" if exact else "nearest"
        n_in = int(rng.integers(1, 300))
        kind = it // 2 % 3
        if kind == 0:
            kw, scale = dict(size=int(rng.integers(1, 700))), None
        else:
            s = float(rng.uniform(0.05, 8))
            if int(n_in * s) < 1:
                continue
            kw = dict(scale_factor=s, recompute_scale_factor=kind == 2)
            scale = None if kind == 2 else s
        x = np.arange(n_in, dtype=dtype).reshape(1, 1, n_in)
        got = rxt.interpolate(x, mode=mode, **kw)[0, 0].astype(np.int64)
        ref = t_interp(x, mode=mode, **kw)[0, 0].astype(np.int64)
        assert got.shape == ref.shape
        checked += 1
        if not np.array_equal(got, ref):
            assert exact and fma_ok(got, ref, n_in, got.shape[0], scale, dtype == F64), \
                (mode, n_in, kw)
            fma_cases += 1
    assert checked > 1900 and fma_cases < checked // 50


@needs_torch
def test_nearest_nd_indices_against_torch():
    """2-D and 3-D, both memory layouts, both kernels, every dtype; one axis at a time shows
    its indices (values = index along that axis)."""
    rng = np.random.default_rng(SEED)
    dtypes = [F32, F64, np.float16, np.uint8] + ([BFLOAT16] if BFLOAT16 is not None else [])
    for it in range(600):
        mode = ("nearest", "nearest-exact")[it % 2]
        dtype = dtypes[it // 2 % len(dtypes)]
        nd = int(rng.choice([4, 5]))
        c = int(rng.choice([1, 3, 4, 6]))
        hi = 90 if nd == 4 else 16
        sp = tuple(int(v) for v in rng.integers(1, hi, nd - 2))
        kind = int(rng.integers(4))
        if kind == 0:
            kw = dict(size=tuple(int(v) for v in rng.integers(1, 2 * hi, nd - 2)))
        elif kind == 1:  # lengths kept or doubled by a scale that is not exactly 1 or 2
            kw = dict(scale_factor=tuple(float(rng.choice([1.04, 1.09, 2.05, 2.1]))
                                         for _ in sp))
        else:
            kw = dict(scale_factor=tuple(float(v) for v in rng.uniform(0.3, 4, nd - 2)),
                      recompute_scale_factor=kind == 3)
            if any(int(n * s) < 1 for n, s in zip(sp, kw["scale_factor"])):
                continue
        layout = channels_last if rng.integers(2) else np.ascontiguousarray
        for ax in range(2, nd):
            shape = [1] * nd
            shape[ax] = sp[ax - 2]
            coded = np.arange(sp[ax - 2]).reshape(shape)
            x = layout(np.broadcast_to(coded, (1, c, *sp)).astype(dtype))
            got, ref = rxt.interpolate(x, mode=mode, **kw), t_interp(x, mode=mode, **kw)
            assert got.shape == ref.shape
            if np.array_equal(got, ref):
                continue
            # only the generic kernel's FMA may differ, for nearest-exact, along this axis
            sel = [0] * nd
            sel[ax] = slice(None)
            g, t = got[tuple(sel)].astype(np.int64), ref[tuple(sel)].astype(np.int64)
            cl_kernel = rxt.uses_channels_last_kernel(x, got.shape[2:])
            scale = kw["scale_factor"][ax - 2] if "scale_factor" in kw and \
                not kw.get("recompute_scale_factor") else None
            assert mode == "nearest-exact" and not cl_kernel and \
                fma_ok(g, t, sp[ax - 2], g.shape[0], scale, dtype == F64), (mode, x.shape, kw)


@needs_torch
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("antialias", [False, True])
def test_uint8_bit_exact_against_torch(mode, antialias):
    rng = np.random.default_rng(SEED + 7 * antialias + (mode == "bicubic"))
    compared = 0
    for it in range(160):
        c = int(rng.choice([1, 3, 4, 5, 7]))
        h, w = (int(v) for v in rng.integers(1, 48, 2))
        if it % 8 == 0:  # large downscales
            h, w = (int(v) for v in rng.integers(100, 400, 2))
        ac = bool(rng.integers(2))
        kind = int(rng.integers(3))
        if kind == 0:
            kw = dict(size=tuple(int(v) for v in rng.integers(1, 90, 2)))
        else:
            kw = dict(scale_factor=tuple(float(v) for v in rng.uniform(0.02, 3.5, 2)),
                      recompute_scale_factor=kind == 2)
            if int(h * kw["scale_factor"][0]) < 1 or int(w * kw["scale_factor"][1]) < 1:
                continue
        x = rng.integers(0, 256, (2, c, h, w), dtype=np.uint8)
        layout = channels_last if rng.integers(2) else np.ascontiguousarray
        x = layout(x)
        got = rxt.interpolate(x, mode=mode, antialias=antialias, align_corners=ac, **kw)
        ref = t_interp(x, mode=mode, antialias=antialias, align_corners=ac, **kw)
        assert got.shape == ref.shape and got.dtype == np.uint8
        if got.shape[3] == 1 and c <= 4 and torch_capability() == "DEFAULT":
            # width 1: the door follows the AVX2 build, where 1-4 channels take the AVX2 kernel
            # (right rows), not the separable kernel's row 0 (compat.torch.repeats_first_row)
            continue
        np.testing.assert_array_equal(got, ref, err_msg=f"{x.shape} {kw} ac={ac}")
        compared += 1
    assert compared > 120


def _tolerance(dtype, scale):
    if dtype == F64:
        return 1e-12 * scale
    if dtype == F32:
        return 1e-5 * scale
    eps = 2.0 ** -10 if dtype == np.float16 else 2.0 ** -7
    return 2 * eps * scale


FLOAT_DTYPES = [F32, F64, np.float16] + ([BFLOAT16] if BFLOAT16 is not None else [])


@needs_torch
@pytest.mark.parametrize("mode", ["linear", "bilinear", "bicubic", "trilinear", "area"])
def test_float_modes_against_torch(mode):
    rng = np.random.default_rng(SEED + len(mode))
    for it in range(120):
        nd = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}.get(mode, 3 + it % 3)
        dtype = FLOAT_DTYPES[it % len(FLOAT_DTYPES)]
        c = int(rng.choice([1, 3, 4]))
        hi = {3: 80, 4: 40, 5: 12}[nd]
        sp = tuple(int(v) for v in rng.integers(1, hi, nd - 2))
        ac = None if mode == "area" else bool(rng.integers(2))
        kind = int(rng.integers(3))
        if kind == 0:
            kw = dict(size=tuple(int(v) for v in rng.integers(1, 2 * hi, nd - 2)))
        else:
            kw = dict(scale_factor=tuple(float(v) for v in rng.uniform(0.1, 3, nd - 2)),
                      recompute_scale_factor=kind == 2)
            if any(int(n * s) < 1 for n, s in zip(sp, kw["scale_factor"])):
                continue
        x = rng.standard_normal((2, c, *sp)).astype(F32).astype(dtype)
        if nd > 3 and rng.integers(2):
            x = channels_last(x)
        got = rxt.interpolate(x, mode=mode, align_corners=ac, **kw)
        ref = t_interp(x, mode=mode, align_corners=ac, **kw)
        assert got.shape == ref.shape and got.dtype == ref.dtype
        scale = float(np.max(np.abs(x.astype(F64))))
        err = np.max(np.abs(got.astype(F64) - ref.astype(F64)), initial=0.0)
        assert err <= _tolerance(dtype, scale), (mode, x.dtype, x.shape, kw, ac, err / scale)


@needs_torch
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_float_antialias_against_torch(mode):
    rng = np.random.default_rng(SEED + 3 + len(mode))
    for it in range(120):
        dtype = (F32, F64)[it % 2]
        h, w = (int(v) for v in rng.integers(1, 60, 2))
        ac = bool(rng.integers(2))
        kind = int(rng.integers(3))
        if kind == 0:
            kw = dict(size=tuple(int(v) for v in rng.integers(1, 80, 2)))
        else:
            kw = dict(scale_factor=tuple(float(v) for v in rng.uniform(0.05, 3, 2)),
                      recompute_scale_factor=kind == 2)
            if int(h * kw["scale_factor"][0]) < 1 or int(w * kw["scale_factor"][1]) < 1:
                continue
        x = rng.standard_normal((1, int(rng.choice([1, 3])), h, w)).astype(dtype)
        got = rxt.interpolate(x, mode=mode, antialias=True, align_corners=ac, **kw)
        ref = t_interp(x, mode=mode, antialias=True, align_corners=ac, **kw)
        assert got.shape == ref.shape
        err = np.max(np.abs(got - ref)) / np.max(np.abs(x))
        assert err <= (1e-12 if dtype == F64 else 1e-5), (x.shape, kw, ac, err)


_DEFAULT_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np, torch, torch.nn.functional as F
    out = {"capability": torch.backends.cpu.get_cpu_capability(), "results": []}
    for case in json.loads(sys.stdin.read()):
        x = torch.from_numpy(np.arange(case["n_in"], dtype=case["dtype"]).reshape(1, 1, -1)
                             * (1 if case["mode"].startswith("nearest") else 0.37))
        if case["half"]:
            x = x.to(getattr(torch, case["half"]))
        y = F.interpolate(x, **case["kw"], mode=case["mode"])
        out["results"].append(y.double().numpy().ravel().tolist())
    print(json.dumps(out))
""")


@needs_torch
def test_default_capability_is_bit_exact():
    """Under ``ATEN_CPU_CAPABILITY=default`` (no FMA) torch's generic kernel matches exactly:
    nearest-exact indices on a sweep of sizes, and 1-D ``linear`` values for every float dtype."""
    rng = np.random.default_rng(SEED)
    cases = []
    for n_in in range(1, 40):
        for n_out in rng.integers(1, 600, 12):
            cases.append(dict(n_in=n_in, dtype="float32", half=None, mode="nearest-exact",
                              kw=dict(size=int(n_out))))
    for i in range(200):
        n_in = int(rng.integers(2, 120))
        kw = dict(size=int(rng.integers(1, 250))) if i % 2 else \
            dict(scale_factor=float(rng.uniform(0.2, 4)))
        if "scale_factor" in kw and int(n_in * kw["scale_factor"]) < 1:
            continue
        kw["align_corners"] = bool(i % 3 == 0)
        dtype, half = [("float32", None), ("float64", None), ("float32", "float16"),
                       ("float32", "bfloat16")][i % 4]
        cases.append(dict(n_in=n_in, dtype=dtype, half=half, mode="linear", kw=kw))
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    proc = subprocess.run([sys.executable, "-c", _DEFAULT_SCRIPT], input=json.dumps(cases),
                          capture_output=True, text=True, env=env, timeout=120,
                          cwd=os.path.dirname(os.path.abspath(__file__)))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["capability"] == "DEFAULT"
    for case, ref in zip(cases, report["results"]):
        x = np.arange(case["n_in"], dtype=case["dtype"]).reshape(1, 1, -1)
        if not case["mode"].startswith("nearest"):
            x = x * x.dtype.type(0.37)
        if case["half"] == "float16":
            x = x.astype(np.float16)
        elif case["half"] == "bfloat16":
            if BFLOAT16 is None:
                continue
            x = x.astype(BFLOAT16)
        got = rxt.interpolate(x, mode=case["mode"], **case["kw"]).astype(F64).ravel()
        np.testing.assert_array_equal(got, np.array(ref), err_msg=str(case))


def uint8_cases_match_at_every_cpu_level(cases, cubic, antialias):
    """Each ``(x, size, align_corners, want)`` of uint8 bilinear (bicubic) gives ``want`` at
    every instruction-set level this build and CPU have."""
    from resamplex._engine import _exec

    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for x, size, ac, want in cases:
                got = rxt.interpolate(x, size=size, mode="bicubic" if cubic else "bilinear",
                                      antialias=antialias, align_corners=ac)
                np.testing.assert_array_equal(got, want, err_msg=f"{level} {x.shape} {size}")
    finally:
        _exec.set_cpu_level(before)


@pytest.mark.parametrize("cubic", [False, True])
@pytest.mark.parametrize("antialias", [False, True])
def test_uint8_windows_at_any_ratio_at_every_cpu_level(cubic, antialias):
    # Rows resized by other ratios sum each output's window of bytes; contiguous outputs go
    # eight a step where the level has AVX2 (the windows' 8-byte chunks of two outputs a
    # vector, the sums reduced pairwise, clipped and packed), the last ones one by one.
    # Widths of 1 to 9 outputs and longer, windows of 8 to 40 bytes, 0/255 stripes that
    # reach both clips; against the scalar model at every instruction-set level.
    rng = np.random.default_rng(SEED + 21 + cubic + 2 * antialias)
    cases = []
    for h, w in ((5, 11), (7, 64), (3, 301)):
        x = rng.integers(0, 256, (1, 2, h, w), dtype=np.uint8)
        x[..., ::4] = np.where(x[..., ::4] > 127, 255, 0)
        for ow in sorted({1, 3, 8, 9, 17, w // 3 + 1, (3 * w) // 4 + 1, (13 * w) // 10 + 1,
                          (27 * w) // 10}):
            size = (int(rng.integers(1, 2 * h + 1)), ow)
            ac = bool(rng.integers(2)) and not antialias
            cases.append((x, size, ac, ref_u8(x, size, cubic, antialias, ac)))
    uint8_cases_match_at_every_cpu_level(cases, cubic, antialias)


@pytest.mark.parametrize("cubic", [False, True])
@pytest.mark.parametrize("antialias", [False, True])
def test_uint8_runs_at_every_cpu_level(cubic, antialias):
    # Rows halved or doubled exactly read their windows at a fixed stride with the same
    # weights in the middle: the kernel sums each phase as one vectorised row (x2: the even
    # and odd rows zipped). Checked against the scalar model at every instruction-set level,
    # rows long enough for whole vectors and their overlapping last one, 0/255 extremes.
    rng = np.random.default_rng(SEED + 11 + cubic + 2 * antialias)
    cases = []
    for h, w in ((6, 70), (9, 103), (4, 40)):
        x = rng.integers(0, 256, (1, 2, h, w), dtype=np.uint8)
        x[..., ::3] = np.where(x[..., ::3] > 127, 255, 0)
        for size in ((h, 2 * w), (h, w // 2), (2 * h, 2 * w), (h, 4 * w)):
            ac = bool(rng.integers(2)) and not antialias
            cases.append((x, size, ac, ref_u8(x, size, cubic, antialias, ac)))
    uint8_cases_match_at_every_cpu_level(cases, cubic, antialias)
