"""Exhaustive checks of the kernels' float16 / bfloat16 <-> float32 conversions (SPEC §3).

The hooks in ``resamplex._engine.kernels._taps`` (and its builds per instruction-set level,
``_taps_avx2``, ...) run the very inline functions the kernels use. They are
compared with NumPy (float16) and ml_dtypes (bfloat16) over every 16-bit pattern, every
midpoint between neighbours (ties to even, decided here from the bit patterns, independently of
any library), the values one float32 ulp either side of each midpoint, and a few million random
float32 patterns.
"""

import importlib

import numpy as np
import pytest

from resamplex._engine import _exec
from resamplex._engine.kernels import _taps

ml_dtypes = pytest.importorskip("ml_dtypes")


@pytest.fixture(autouse=True, params=_exec.cpu_levels())
def kernel_level(request):
    """Every test here runs the hooks of each instruction-set level this machine has (the
    kernel modules built per level, setup.py LEVELS): each must pass on its own."""
    global _taps
    suffix = "" if request.param == "baseline" else "_" + request.param
    _taps = importlib.import_module("resamplex._engine.kernels._taps" + suffix)
    return request.param

BF16 = np.dtype(ml_dtypes.bfloat16)
ALL_BITS = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)

KINDS = {
    "float16": (np.dtype(np.float16), "half_to_float32", "float32_to_half"),
    # the vectorised whole-row conversions the kernels use for contiguous float16 rows
    "float16-rows": (np.dtype(np.float16), "half_rows_to_float32", "float32_to_half_rows"),
    "bfloat16": (BF16, "bf16_to_float32", "float32_to_bf16"),
    "bfloat16-rows": (BF16, "bf16_to_float32", "float32_to_bf16_rows"),
}


def _widen(kind, bits):
    out = np.empty(bits.shape, np.float32)
    getattr(_taps, KINDS[kind][1])(np.ascontiguousarray(bits, np.uint16), out)
    return out


def _narrow(kind, values):
    out = np.empty(values.shape, np.uint16)
    getattr(_taps, KINDS[kind][2])(np.ascontiguousarray(values, np.float32), out)
    return out


def _reference_narrow(kind, values):
    dtype = KINDS[kind][0]
    with np.errstate(over="ignore", invalid="ignore"):
        return values.astype(dtype).view(np.uint16)


def _is_nan16(kind, bits):
    exp_mask, man_mask = (0x7C00, 0x03FF) if kind.startswith("float16") else (0x7F80, 0x007F)
    return ((bits & exp_mask) == exp_mask) & ((bits & man_mask) != 0)


def _assert_same_bits(got, want, what):
    bad = got != want
    if bad.any():
        i = np.flatnonzero(bad)[:8]
        raise AssertionError(f"{what}: {bad.sum()} mismatches, e.g. at {i.tolist()}: "
                             f"got {[hex(int(v)) for v in got[i]]}, "
                             f"want {[hex(int(v)) for v in want[i]]}")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_widen_all_patterns(kind):
    got = _widen(kind, ALL_BITS).view(np.uint32)
    want = ALL_BITS.view(KINDS[kind][0]).astype(np.float32).view(np.uint32)
    _assert_same_bits(got, want, f"{kind} -> float32 (NaN payloads included)")


def test_widen_by_hand_float16():
    # Independent of NumPy: sign * 2^(e-15) * (1 + m/1024), subnormals m * 2^-24.
    b = ALL_BITS.astype(np.int64)
    s = np.where(b & 0x8000, -1.0, 1.0)
    e = (b >> 10) & 0x1F
    m = b & 0x3FF
    val = np.where(e == 0, m * 2.0**-24, (1 + m / 1024) * 2.0 ** (e - 15)) * s
    finite = e != 0x1F
    with np.errstate(invalid="ignore"):     # signalling NaNs
        got = _widen("float16", ALL_BITS).astype(np.float64)
    np.testing.assert_array_equal(got[finite], val[finite])
    special, special_m = got[~finite], m[~finite]
    np.testing.assert_array_equal(special[special_m == 0], [np.inf, -np.inf])
    assert np.all(np.isnan(special[special_m != 0]))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_narrow_representable_values(kind):
    # Every non-NaN pattern widened to float32 must come back to the same pattern.
    nan = _is_nan16(kind, ALL_BITS)
    values = ALL_BITS.view(KINDS[kind][0]).astype(np.float32)
    got = _narrow(kind, values)
    _assert_same_bits(got[~nan], ALL_BITS[~nan], f"float32 -> {kind} round trip")
    assert _is_nan16(kind, got[nan]).all(), "NaN must stay NaN"
    _assert_same_bits(got[~nan], _reference_narrow(kind, values)[~nan], "vs astype")


def _finite_ladders(kind):
    """Consecutive finite positive patterns (a, a+1) and their negatives."""
    exp_mask = 0x7C00 if kind.startswith("float16") else 0x7F80
    pos = np.arange(0, exp_mask, dtype=np.uint32).astype(np.uint16)      # 0 .. max finite
    lo, hi = pos[:-1], pos[1:]
    return lo, hi


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_narrow_midpoints_ties_to_even(kind, sign):
    dtype = KINDS[kind][0]
    lo, hi = _finite_ladders(kind)
    a = lo.view(dtype).astype(np.float64)
    b = hi.view(dtype).astype(np.float64)
    mid = (a + b) / 2                       # one more bit than the 16-bit type: exact in f32
    mid32 = (sign * mid).astype(np.float32)
    assert np.all(mid32.astype(np.float64) == sign * mid)
    even = np.where(lo & 1, hi, lo).astype(np.uint16)
    sign_bit = np.uint16(0x8000 if sign < 0 else 0)
    want = even | sign_bit
    got = _narrow(kind, mid32)
    _assert_same_bits(got, want, f"{kind} midpoints (ties to even)")
    _assert_same_bits(got, _reference_narrow(kind, mid32), f"{kind} midpoints vs astype")
    # One float32 ulp either side of the tie: no longer a tie.
    below = np.nextafter(mid32, np.float32(0))
    above = np.nextafter(mid32, np.float32(sign * np.inf))
    nonzero = mid != 0
    _assert_same_bits(_narrow(kind, below)[nonzero], (lo | sign_bit)[nonzero],
                      f"{kind} just inside the midpoint")
    _assert_same_bits(_narrow(kind, above), hi | sign_bit, f"{kind} just beyond the midpoint")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_narrow_overflow_threshold(kind):
    dtype = KINDS[kind][0]
    inf_bits = 0x7C00 if kind.startswith("float16") else 0x7F80
    max_bits = np.array([inf_bits - 1], np.uint16)
    top = float(max_bits.view(dtype).astype(np.float64)[0])
    ulp = top - float(np.array([inf_bits - 2], np.uint16).view(dtype).astype(np.float64)[0])
    # max + ulp/2 is a tie between max (odd mantissa) and the next binade (inf): -> inf.
    t = np.float32(top + ulp / 2)
    vals = np.array([t, np.nextafter(t, np.float32(0)), -t, np.float32(np.inf),
                     np.float32(-np.inf)], np.float32)
    got = _narrow(kind, vals)
    want = np.array([inf_bits, inf_bits - 1, 0x8000 | inf_bits, inf_bits, 0x8000 | inf_bits],
                    np.uint16)
    _assert_same_bits(got, want, f"{kind} overflow")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_narrow_random_float32(kind):
    rng = np.random.default_rng(20240611 + len(kind))
    bits = rng.integers(0, 1 << 32, size=3_000_000, dtype=np.uint64).astype(np.uint32)
    # Make sure the special classes are well represented.
    special = np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x00000001,
                        0x80000001, 0x007FFFFF, 0x00800000, 0x33000000, 0x33000001, 0xB3800000,
                        0x387FE000, 0x387FF000, 0x38800000, 0x477FF000, 0x477FEFFF,
                        0x7F7FFFFF, 0x00000000, 0x80000000], np.uint32)
    # and values in the 16-bit types' own range (incl. float16 subnormals)
    in_range = (rng.standard_normal(1_000_000) * np.exp(rng.uniform(-20, 12, 1_000_000)))
    values = np.concatenate([bits.view(np.float32), special.view(np.float32),
                             in_range.astype(np.float32)])
    got = _narrow(kind, values)
    want = _reference_narrow(kind, values)
    nan = np.isnan(values)
    _assert_same_bits(got[~nan], want[~nan], f"float32 -> {kind}")
    assert _is_nan16(kind, got[nan]).all(), f"NaN inputs must give a {kind} NaN"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_hooks_accept_empty(kind):
    assert _narrow(kind, np.empty(0, np.float32)).shape == (0,)
    assert _widen(kind, np.empty(0, np.uint16)).shape == (0,)
