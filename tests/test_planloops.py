"""The planner's native loops (``resamplex._engine._planloops``) against NumPy formulations of
the same quantities, written here: table statistics on random tables (weights of either sign,
empty outputs, huge weights), and OpenCV's linear and cubic axis tables (coordinates and Q11
weights in float32, as ``hal::resize`` computes them) over random sizes and scales."""

import numpy as np
import pytest

from resamplex._engine import _planloops as pl
from resamplex.compat.cv2 import cubic_coeffs

F32 = np.float32


def _random_table(rng, n_out, max_taps, n_in=50, wmax=5000, allow_empty=True):
    lo = 0 if allow_empty else 1
    counts = rng.integers(lo, max_taps + 1, n_out)
    ptr = np.zeros(n_out + 1, np.int64)
    np.cumsum(counts, out=ptr[1:])
    idx = rng.integers(0, n_in, ptr[-1]).astype(np.int64)
    w = rng.integers(-wmax, wmax + 1, ptr[-1]).astype(np.int64)
    return ptr, idx, w


def _bounds_numpy(ptr, w, a, b, post):
    t_a, t_b = (a * w) >> post, (b * w) >> post
    lo = np.minimum(t_a, t_b)
    hi = np.maximum(t_a, t_b)
    mag = np.maximum(np.abs(t_a), np.abs(t_b))
    sums = [[int(x[ptr[o]:ptr[o + 1]].sum()) for o in range(len(ptr) - 1)] for x in (lo, hi, mag)]
    return (min(sums[0] + [0]), max(sums[1] + [0]), max(sums[2] + [0]),
            int(np.abs(w).max(initial=0)))


@pytest.mark.parametrize("seed", range(20))
def test_table_statistics(seed):
    rng = np.random.default_rng(seed)
    ptr, idx, w = _random_table(rng, int(rng.integers(1, 40)), int(rng.integers(1, 9)))
    a, b = sorted(int(v) for v in rng.integers(-70000, 70000, 2))
    post = int(rng.integers(0, 20))
    assert pl.tap_bounds(ptr, w, a, b, post) == _bounds_numpy(ptr, w, a, b, post)
    spans = [int(idx[p:q].max() - idx[p:q].min() + 1) for p, q in zip(ptr[:-1], ptr[1:]) if q > p]
    assert pl.span_rows(ptr, idx) == max(spans, default=0)
    counts = np.diff(ptr)
    assert pl.count_range(ptr) == (int(counts.min()), int(counts.max()))
    assert pl.abs_max(w) == int(np.abs(w).max(initial=0))


def test_two_taps_pads_one_tap_outputs():
    rng = np.random.default_rng(3)
    counts = rng.integers(1, 3, 30)
    ptr = np.zeros(31, np.int64)
    np.cumsum(counts, out=ptr[1:])
    idx = rng.integers(0, 9, ptr[-1]).astype(np.int64)
    w = rng.integers(-99, 99, ptr[-1]).astype(np.int64)
    ptr2, idx2, w2 = pl.two_taps(ptr, idx, w)
    assert ptr2.tolist() == list(range(0, 62, 2))
    for o in range(30):
        taps = list(zip(idx[ptr[o]:ptr[o + 1]], w[ptr[o]:ptr[o + 1]]))
        if len(taps) == 1:
            taps.append((taps[0][0], 0))
        assert list(zip(idx2[2 * o:2 * o + 2], w2[2 * o:2 * o + 2])) == taps
    with pytest.raises(ValueError, match="taps"):
        pl.two_taps(np.array([0, 3], np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64))


def test_int_weights():
    w = np.array([0.0, -3.0, 2048.0, 2.0**62], np.float64)
    assert pl.int_weights(w).tolist() == [0, -3, 2048, 2**62]
    for bad in (0.5, np.nan, np.inf, -np.inf, 2.0**63, -2.0**64):
        assert pl.int_weights(np.array([1.0, bad])) is None
    assert pl.int_weights(np.array([-2.0**63])).tolist() == [-2**63]


def _exact_scaled_numpy(w, scale):
    scaled = w.astype(np.float32) * np.float32(scale)
    return bool(np.array_equal(w.astype(np.float32), w)
                and np.array_equal(scaled.astype(np.float64) / scale, w))


@pytest.mark.parametrize("seed", range(12))
def test_exact_scaled(seed):
    rng = np.random.default_rng(seed)
    # OpenCV's cubic Q22 head (2^-22: exact), scales that round, weights beyond float32's
    # 24 bits, and one weight changed
    scale = float(rng.choice([2.0**-22, 2.0**-11, 1 / 3, 1 / 2048, 0.1, 3.0]))
    top = int(rng.choice([2**11, 2**24 + 3, 2**40]))
    w = rng.integers(-top, top, int(rng.integers(0, 60))).astype(np.int64)
    assert pl.exact_scaled(w, scale) == _exact_scaled_numpy(w, scale)
    if w.size:
        w[int(rng.integers(0, w.size))] = 2**24 + 1      # not exact in float32
        assert not pl.exact_scaled(w, scale)
        assert not _exact_scaled_numpy(w, scale)


def _run_numpy(idx, w, rows, width, step, limit):
    d = idx[:rows * width].reshape(rows, width) - step * np.arange(rows)[:, None]
    q = w[:rows * width].reshape(rows, width)
    mid = rows // 2
    if not 0 < mid < rows - 1 or np.abs(q[mid]).max() >= limit:
        return None
    same = (d == d[mid]).all(axis=1) & (q == q[mid]).all(axis=1)
    lo = mid
    while lo > 0 and same[lo - 1]:
        lo -= 1
    hi = mid + 1
    while hi < rows and same[hi]:
        hi += 1
    if hi - lo < 4:
        return None
    return lo, hi, d[mid].tolist(), q[mid].tolist()


@pytest.mark.parametrize("seed", range(30))
def test_regular_run(seed):
    rng = np.random.default_rng(seed)
    rows, width, step = int(rng.integers(1, 40)), int(rng.integers(1, 9)), int(rng.integers(0, 3))
    base_d = rng.integers(-2, 3, width)
    base_w = rng.integers(-40000, 40000, width)
    d = np.tile(base_d, (rows, 1))
    q = np.tile(base_w, (rows, 1))
    for r in rng.integers(0, rows, int(rng.integers(0, 4))):   # a few rows that differ
        q[r, int(rng.integers(0, width))] += 1
    idx = (d + step * np.arange(rows)[:, None]).reshape(-1).astype(np.int64)
    w = q.reshape(-1).astype(np.int64)
    limit = int(rng.choice([2**15, 2**62]))
    assert pl.regular_run(idx, w, rows, width, step, limit) == \
        _run_numpy(idx, w, rows, width, step, limit)


def test_malformed_tables_are_refused():
    with pytest.raises(ValueError, match="ptr"):
        pl.span_rows(np.array([0, 5], np.int64), np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="decrease"):
        pl.tap_bounds(np.array([0, 2, 1, 2], np.int64), np.zeros(2, np.int64), 0, 1, 0)
    with pytest.raises(ValueError, match="rows x width"):
        pl.regular_run(np.zeros(3, np.int64), np.zeros(3, np.int64), 2, 2, 1)
    with pytest.raises(ValueError, match="inv_scale"):
        pl.cv2_linear(4, 2, 0.0, True, True, False)


# ------------------------------------------------------------------------------ OpenCV tables

def _coords(n_in, n_out, inv_scale, area_mode):
    scale = 1.0 / inv_scale
    d = np.arange(n_out, dtype=np.float64)
    if not area_mode:
        f = ((d + 0.5) * scale - 0.5).astype(F32)
        s = np.floor(f)
        return s.astype(np.int64), (f - s).astype(F32)
    s = np.floor(d * scale)
    f = ((d + 1) - (s + 1) * inv_scale).astype(F32)
    return s.astype(np.int64), np.where(f <= 0, F32(0), f - np.floor(f)).astype(F32)


def _q11(c):
    return np.clip(np.rint(c * F32(2048)), F32(-32768), F32(32767))


def _linear_numpy(n_in, n_out, inv_scale, horizontal, fixed, area_mode):
    s, f = _coords(n_in, n_out, inv_scale, area_mode)
    one = np.zeros(n_out, bool)
    if horizontal:
        f[s < 0] = 0
        s[s < 0] = 0
        one = s >= n_in - 1
        f[one] = 0
        s[one] = n_in - 1
    w = np.stack([F32(1) - f, f], axis=1)
    if fixed:
        w = _q11(w)
    ptr, idx, ws = [0], [], []
    for o in range(n_out):
        if one[o]:
            idx.append(min(max(s[o], 0), n_in - 1))
            ws.append(2048.0 if fixed else 1.0)
        else:
            idx += [min(max(s[o] + t, 0), n_in - 1) for t in (0, 1)]
            ws += [float(w[o, 0]), float(w[o, 1])]
        ptr.append(len(idx))
    return ptr, idx, ws


def _cubic_numpy(n_in, n_out, inv_scale, fixed):
    s, x = _coords(n_in, n_out, inv_scale, False)
    w = cubic_coeffs(x)   # the door's NumPy statement of interpolateCubic
    if fixed:
        w = _q11(w)
    idx = np.clip(s[:, None] + np.arange(-1, 3), 0, n_in - 1)
    return list(range(0, 4 * n_out + 1, 4)), idx.reshape(-1).tolist(), \
        w.astype(np.float64).reshape(-1).tolist()


def _sizes(seed, n):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        n_in, n_out = (int(v) for v in rng.integers(1, 700, 2))
        pick = rng.random()
        inv = n_out / n_in if pick < 0.5 else float(rng.uniform(0.02, 9.0))
        yield n_in, n_out, inv
    yield from [(1, 5, 5.0), (5, 1, 0.2), (2, 4, 2.0), (1, 1, 1.0), (3, 7, 7 / 3)]


@pytest.mark.parametrize("fixed", [True, False])
@pytest.mark.parametrize("horizontal", [True, False])
@pytest.mark.parametrize("area_mode", [False, True])
def test_cv2_linear_tables(fixed, horizontal, area_mode):
    for n_in, n_out, inv in _sizes(11, 150):
        ptr, idx, w = pl.cv2_linear(n_in, n_out, inv, horizontal, fixed, area_mode)
        want = _linear_numpy(n_in, n_out, inv, horizontal, fixed, area_mode)
        assert (ptr.tolist(), idx.tolist(), w.tolist()) == want, (n_in, n_out, inv)


@pytest.mark.parametrize("fixed", [True, False])
def test_cv2_cubic_tables(fixed):
    for n_in, n_out, inv in _sizes(12, 150):
        ptr, idx, w = pl.cv2_cubic(n_in, n_out, inv, fixed)
        got = (ptr.tolist(), idx.tolist(), np.asarray(w).view(np.uint64).tolist())
        p, i, ws = _cubic_numpy(n_in, n_out, inv, fixed)
        assert got == (p, i, np.array(ws).view(np.uint64).tolist()), (n_in, n_out, inv)
