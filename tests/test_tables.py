"""The core axis tables (resamplex/_tables.py, built by resamplex/_engine/_tablegen.pyx).

Values are checked against independent evaluations, never against the library's own output:

- nearest and linear against ``tests/reference.py`` (exact rational coordinates);
- cubic, area and the antialiased filters against the exact evaluation below: exact rational
  coordinates and ``r``, every weight a ``Fraction``, and the mass of a window's taps outside
  the input summed with Faulhaber's power-sum formulas (so windows of 10^300 taps are exact
  too). It shares no code and no method with the library's builders (which evaluate windows
  tap by tap in float64, or fold them with a midpoint formula).

Then consistency properties of the builder itself: a range of outputs (a tile) is bit for bit
the slice of the whole table, dense rows are the CSR rows padded, the tap bounds hold, a long
axis builds in memory bounded by the tile, and the GIL is released while it builds.
"""

from fractions import Fraction as F
import math
import threading
import tracemalloc
import zlib

import numpy as np
import pytest

import reference as ref
import resamplex as rx
from resamplex import ResamplexError
from resamplex._tables import FILTERS, AxisSpec, AxisTable, core_table

TRANSFORMS = ref.TRANSFORMS


def _rng(*key):
    # zlib.crc32, not hash(): the same cases in every run (hash() of str is salted per process).
    return np.random.default_rng(zlib.crc32(repr(("test_tables",) + key).encode()))


def _dense(table: AxisTable) -> np.ndarray:
    m = np.zeros((table.n_out, table.n_in))
    for o in range(table.n_out):
        for p in range(table.ptr[o], table.ptr[o + 1]):
            m[o, table.idx[p]] += table.w[p]
    return m


def _check_csr(table: AxisTable):
    """The CSR contract: indices ascending and in range, no zero weight."""
    for o in range(table.n_out):
        idx = table.idx[table.ptr[o]:table.ptr[o + 1]]
        assert np.all(np.diff(idx) > 0)
        assert np.all((idx >= 0) & (idx < table.n_in))
    assert np.all(table.w != 0)


def _cases(key, count, max_n=40):
    """(n_in, n_out, scale) triples: sizes only, the exact ratio, and free scales."""
    rng = _rng(*key)
    out = []
    for j in range(count):
        n_in, n_out = (int(v) for v in rng.integers(1, max_n + 1, 2))
        kind = j % 3
        scale = None if kind == 0 else (n_out / n_in if kind == 1
                                        else float(10 ** rng.uniform(-1.2, 1.2)))
        out.append((n_in, n_out, scale))
    return out


# --------------------------------------------------------------------- the exact evaluation

def _keys_pieces(a):
    """The Keys kernel as (near, far) polynomials in d, coefficients lowest first."""
    a = F(a)
    return [F(1), F(0), -(a + 3), a + 2], [-4 * a, 8 * a, -5 * a, a]


def _poly(coeffs, x):
    return sum(c * x ** k for k, c in enumerate(coeffs))


def _power_sum(k, n):
    """sum(i**k for i in 1..n) as Faulhaber's polynomial, valid for every integer n
    (``sum over [a, b] = _power_sum(k, b) - _power_sum(k, a - 1)``)."""
    n = F(n)
    return [n, n * (n + 1) / 2, n * (n + 1) * (2 * n + 1) / 6, (n * (n + 1) / 2) ** 2][k]


def _sum_piece(coeffs, u, r, sign, lo, hi):
    """sum of P(sign * (i - u) / r) over the integers i in [lo, hi], exactly."""
    if hi < lo:
        return F(0)
    # P(sign (i - u) / r) = sum_k c_k (sign / r)^k (i - u)^k, expanded in powers of i
    total = F(0)
    for k, c in enumerate(coeffs):
        s = c * (F(sign) / r) ** k
        for j in range(k + 1):
            total += s * math.comb(k, j) * (-u) ** (k - j) * (
                _power_sum(j, hi) - _power_sum(j, lo - 1))
    return total


def _mass(pieces, support, u, r, lo, hi):
    """sum of W(|i - u| / r) over the integers i in [lo, hi] with |i - u| < support * r.

    ``pieces``: ((d_from, d_to, coeffs), ...) with the piece used where
    ``d_from < d <= d_to`` (the first piece includes d = 0)."""
    total = F(0)
    for d_from, d_to, coeffs in pieces:
        # right side: u + d_from r < i <= u + d_to r (i > u for the first piece)
        a = math.floor(u + d_from * r) + 1
        b = math.floor(u + d_to * r)
        if d_to == support:
            b = math.ceil(u + d_to * r) - 1      # the window is open at its end
        total += _sum_piece(coeffs, u, r, 1, max(a, lo), min(b, hi))
        # left side: u - d_to r <= i < u - d_from r (i <= u for the first piece)
        a = math.ceil(u - d_to * r)
        if d_to == support:
            a = math.floor(u - d_to * r) + 1
        b = math.ceil(u - d_from * r) - 1 if d_from > 0 else math.floor(u)
        total += _sum_piece(coeffs, u, r, -1, max(a, lo), min(b, hi))
    return total


def _exact_stretched_row(pieces, support, u, r, n_in, exclude):
    """One output of a filter stretched by r: exact weights over the n_in inputs."""
    inf = 10 ** 400  # beyond any window used here
    inner = [_mass(pieces, support, u, r, i, i) for i in range(n_in)]
    row = list(inner)
    if exclude:
        total = sum(inner)
        if total == 0:
            row = [F(0)] * n_in
            row[0 if u < 0 else n_in - 1] = F(1)
            return row
        return [w / total for w in row]
    row[0] += _mass(pieces, support, u, r, -inf, -1)
    row[n_in - 1] += _mass(pieces, support, u, r, n_in, inf)
    total = _mass(pieces, support, u, r, -inf, inf)
    return [w / total for w in row]


def _exact_keys(d, a):
    near, far = _keys_pieces(a)
    return _poly(near, d) if d <= 1 else (_poly(far, d) if d < 2 else F(0))


def _exact_matrix(mode, n_in, n_out, scale, transform, a=-0.75, exclude=False,
                  antialias=False):
    """The (n_out, n_in) matrix of one axis, exact, as floats."""
    r = ref.ratio(n_in, n_out, scale)
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        u = ref.source_coordinate(o, n_in, n_out, scale, transform)
        if mode == "area":
            lo, hi = o * r, (o + 1) * r
            lo_c, hi_c = min(max(lo, 0), n_in), min(max(hi, 0), n_in)
            row = [max(F(0), min(hi_c, i + 1) - max(lo_c, i)) for i in range(n_in)]
            total = sum(row)
            if total == 0:
                row = [F(0)] * n_in
                row[min(max(math.floor(lo), 0), n_in - 1)] = F(1)
                total = F(1)
            m[o] = [float(w / total) for w in row]
        elif antialias and r > 1:
            if mode == "linear":
                pieces, support = ((F(0), F(1), [F(1), F(-1)]),), 1
            else:
                near, far = _keys_pieces(a)
                pieces, support = ((F(0), F(1), near), (F(1), F(2), far)), 2
            m[o] = [float(w) for w in
                    _exact_stretched_row(pieces, support, u, r, n_in, exclude)]
        elif mode == "cubic":
            i0 = math.floor(u)
            row = [F(0)] * n_in
            taps = [(i, _exact_keys(abs(i - u), a)) for i in range(i0 - 1, i0 + 3)]
            if exclude:
                taps = [(i, w) for i, w in taps if 0 <= i < n_in]
                total = sum(w for _, w in taps)
                if total == 0:
                    taps, total = [(0 if u < 0 else n_in - 1, F(1))], F(1)
                taps = [(i, w / total) for i, w in taps]
            for i, w in taps:
                row[min(max(i, 0), n_in - 1)] += w
            m[o] = [float(w) for w in row]
        else:
            raise ValueError(mode)
    return m


# --------------------------------------------------------------------- values

@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("nearest_mode", ref.NEAREST_MODES)
def test_nearest_tables_match_reference(transform, nearest_mode):
    for n_in, n_out, scale in _cases(("nearest", transform, nearest_mode), 30, 60):
        if ref.axis_fragile(n_in, n_out, scale, transform, "nearest", nearest_mode):
            continue
        t = core_table(n_in, n_out, scale, mode="nearest", transform=transform,
                       nearest_mode=nearest_mode)
        want = [taps[0][0] for taps in
                ref.axis_table(n_in, n_out, scale, transform, "nearest", nearest_mode)]
        assert t.ptr.tolist() == list(range(n_out + 1))
        assert t.idx.tolist() == want, (n_in, n_out, scale)
        assert np.all(t.w == 1.0)


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_linear_tables_match_reference(transform):
    for n_in, n_out, scale in _cases(("linear", transform), 40, 60):
        t = core_table(n_in, n_out, scale, mode="linear", transform=transform,
                       nearest_mode="floor")
        _check_csr(t)
        want = ref.axis_matrix(n_in, n_out, scale, transform, "linear")
        np.testing.assert_allclose(_dense(t), want, rtol=0, atol=1e-13,
                                   err_msg=str((n_in, n_out, scale)))


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("exclude", [False, True])
@pytest.mark.parametrize("a", [-0.75, -0.5, 0.31])
def test_cubic_tables_exact(transform, exclude, a):
    for n_in, n_out, scale in _cases(("cubic", transform, exclude, a), 12, 30):
        t = core_table(n_in, n_out, scale, mode="cubic", transform=transform,
                       nearest_mode="floor", cubic_a=a, exclude_outside=exclude)
        _check_csr(t)
        want = _exact_matrix("cubic", n_in, n_out, scale, transform, a, exclude)
        np.testing.assert_allclose(_dense(t), want, rtol=0, atol=1e-12,
                                   err_msg=str((n_in, n_out, scale)))


def test_cubic_a_changes_the_weights():
    # Issue 15's surviving mutant was a builder that ignores cubic_a. Worked by hand: output 1
    # of 2 -> 4 asymmetric sits at u = 1/2, taps -1, 0, 1, 2 at distances 3/2, 1/2, 1/2, 3/2;
    # W(1/2) = (a+2)/8 - (a+3)/4 + 1, W(3/2) = a (1/2) (1/4); clamped to 2 inputs, each
    # input gets W(1/2) + W(3/2).
    for a in (-0.5, -0.75, -1.0):
        t = core_table(2, 4, None, mode="cubic", transform="asymmetric", nearest_mode="floor",
                       cubic_a=a)
        row = dict(zip(t.idx[t.ptr[1]:t.ptr[2]].tolist(), t.w[t.ptr[1]:t.ptr[2]].tolist()))
        near = (a + 2) / 8 - (a + 3) / 4 + 1
        far = a * (1.5 - 1) * (1.5 - 2) ** 2
        assert row[0] == pytest.approx(near + far) and row[1] == pytest.approx(near + far)


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_area_tables_exact(transform):
    for n_in, n_out, scale in _cases(("area", transform), 20, 40):
        t = core_table(n_in, n_out, scale, mode="area", transform=transform,
                       nearest_mode="floor")
        _check_csr(t)
        want = _exact_matrix("area", n_in, n_out, scale, transform)
        np.testing.assert_allclose(_dense(t), want, rtol=0, atol=1e-12,
                                   err_msg=str((n_in, n_out, scale)))


@pytest.mark.parametrize("mode", ["linear", "cubic"])
@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("exclude", [False, True])
def test_antialias_tables_exact(mode, transform, exclude):
    rng = _rng("aa", mode, transform, exclude)
    for j in range(10):
        n_in = int(rng.integers(1, 40))
        n_out = int(rng.integers(1, max(2, n_in)))
        scale = [None, n_out / n_in, float(10 ** rng.uniform(-1.5, 0.3))][j % 3]
        a = float(rng.choice([-0.75, -0.5]))
        t = core_table(n_in, n_out, scale, mode=mode, transform=transform,
                       nearest_mode="floor", cubic_a=a, exclude_outside=exclude,
                       antialias=True)
        _check_csr(t)
        plain = ref.ratio(n_in, n_out, scale) <= 1
        want = (ref.axis_matrix(n_in, n_out, scale, transform, "linear")
                if plain and mode == "linear" else
                _exact_matrix(mode, n_in, n_out, scale, transform, a, exclude, antialias=True))
        # Excluded, renormalised rows can be ill-conditioned (in-range weights such as -8.2 and
        # 9.2 after dividing by a small sum): the float64 error grows with the row's gain.
        gain = np.abs(want).sum(axis=1, keepdims=True)
        assert np.all(np.abs(_dense(t) - want) <= 1e-12 * np.maximum(gain, 1.0) ** 2), \
            (n_in, n_out, scale, a)


# --------------------------------------------------------------------- issue 15 bugs 1 and 2

def _expected(x, mode, size, scale, transform="half_pixel", a=-0.75, exclude=False):
    m = _exact_matrix(mode, len(x), size, scale, transform, a, exclude, antialias=True)
    return m @ np.asarray(x, dtype=np.float64)


@pytest.mark.parametrize("scale", [1e-10, 1e-100, 1e-300, 1e-308])
@pytest.mark.parametrize("exclude", [False, True])
def test_antialiased_cubic_window_clipped_to_input(scale, exclude):
    # Issue 15 bug 1: the window (2 ceil(2r) + 1 taps) was sized from the stretched support:
    # "size: needs 5364.4 GiB" at 1e-10, an overflow at 1e-300. Now clipped to the input,
    # the weight outside folded onto the edge samples. (With exclude_outside only the
    # in-range weights count; under asymmetric and half_pixel_symmetric some outputs then put
    # the input where the kernel crosses zero, W(1 + i/r) or W(2 - i/r), whose ratios depend
    # on digits of u far below float64's: only half_pixel is well-conditioned there.)
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    transforms = ("half_pixel",) if exclude else ("half_pixel", "asymmetric",
                                                   "half_pixel_symmetric")
    for transform in transforms:
        got = rx.resize(x, (3,), scale=(scale,), mode="cubic", antialias=True,
                        coordinate_transform=transform, exclude_outside=exclude)
        want = _expected(x, "cubic", 3, scale, transform, exclude=exclude)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * 4,
                                   err_msg=transform)


@pytest.mark.parametrize("scale", [1e-20, 1e-300, 1e-308, 5.6e-309])
def test_antialiased_linear_mass_does_not_overflow(scale):
    # Issue 15 bug 2: the closed-form triangle mass overflowed (NaN at 1e-308).
    x = np.array([0.0, 1.0, 2.0, 3.0])
    for transform in ("half_pixel", "asymmetric", "tf_half_pixel_for_nn"):
        got = rx.resize(x, [3], scale=[scale], antialias=True, coordinate_transform=transform)
        assert np.all(np.isfinite(got))
        want = _expected(x, "linear", 3, scale, transform)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * 3, err_msg=transform)


def test_wide_window_refusal_names_scale():
    # A table that does not fit because 1/scale widened every output's window blames scale.
    with pytest.raises(ResamplexError, match="^scale"):
        rx.Resampler((10**6,), [10**9], scale=[1e-10], mode="cubic", antialias=True)


# --------------------------------------------------------------------- ranges and forms

def _specs():
    rng = _rng("specs")
    out = []
    for j in range(120):
        mode = ["nearest", "linear", "cubic", "area"][j % 4]
        aa = mode in ("linear", "cubic") and j % 8 < 4
        n_in, n_out = (int(v) for v in rng.integers(1, 200, 2))
        scale = [None, float(10 ** rng.uniform(-2, 2)), 1e-300][j % 3]
        out.append(AxisSpec(n_in, n_out, scale, mode=mode,
                            transform=TRANSFORMS[j % 6], nearest_mode=ref.NEAREST_MODES[j % 4],
                            cubic_a=-0.5 - (j % 3) * 0.25, exclude_outside=bool(j % 5 == 0),
                            antialias=aa))
    return out


def test_ranges_are_slices_of_the_whole_table():
    rng = _rng("ranges")
    for spec in _specs():
        whole = spec.table()
        cuts = sorted({0, spec.n_out, *rng.integers(0, spec.n_out + 1, 3).tolist()})
        for o0, o1 in zip(cuts[:-1], cuts[1:]):
            part = spec.table(o0, o1)
            p0, p1 = whole.ptr[o0], whole.ptr[o1]
            assert part.n_out == o1 - o0
            assert part.ptr.tobytes() == (whole.ptr[o0:o1 + 1] - p0).tobytes()
            assert part.idx.tobytes() == whole.idx[p0:p1].tobytes()
            assert part.w.tobytes() == whole.w[p0:p1].tobytes()


def test_dense_and_bounds():
    rng = _rng("dense")
    for spec in _specs():
        whole = spec.table()
        counts = np.diff(whole.ptr)
        assert spec.max_taps == int(counts.max(initial=0))
        assert spec.max_taps <= spec.taps_bound
        idx, w = spec.dense()
        k = max(1, spec.max_taps)
        assert idx.shape == w.shape == (spec.n_out, k)
        for o in range(spec.n_out):
            c = counts[o]
            assert idx[o, :c].tolist() == whole.idx[whole.ptr[o]:whole.ptr[o + 1]].tolist()
            assert w[o, :c].tobytes() == whole.w[whole.ptr[o]:whole.ptr[o + 1]].tobytes()
            assert np.all(idx[o, c:] == spec.n_in)
            assert np.all(np.signbit(w[o, max(c, 1):])) and np.all(w[o, c:] == 0)
        di, dw = whole.dense  # the CSR table's own dense form agrees
        assert di.tobytes() == idx.tobytes() and dw.tobytes() == w.tobytes()
        o0, o1 = sorted(rng.integers(0, spec.n_out + 1, 2).tolist())
        ri, rw = spec.dense(o0, o1)
        assert ri.tobytes() == idx[o0:o1].tobytes() and rw.tobytes() == w[o0:o1].tobytes()
        assert spec.nbytes_estimate() >= whole.ptr.nbytes + whole.idx.nbytes + whole.w.nbytes


def _window_specs():
    # _specs() and cases whose taps do not move right with the output everywhere (cubic
    # weights of exactly 0 dropped, exclude_outside): a tile's first and last outputs do not
    # bound its window there.
    extra = [AxisSpec(14, 58, None, mode="cubic", transform=t, exclude_outside=True)
             for t in ("half_pixel", "asymmetric")]
    extra += [AxisSpec(9, 51, 82.09805181295604, mode="cubic", transform="align_corners"),
              AxisSpec(37, 41, None, mode="cubic", transform="half_pixel",
                       exclude_outside=True, antialias=True)]
    return _specs() + extra


def test_window_tiles_are_the_ranges_over_their_window():
    """``AxisSpec.window`` (the tiles of a long axis, built in reused buffers): the range's
    CSR taps less the smallest index read, over ``[lo, hi)`` from the smallest to the largest
    index read, and that table's own dense form, bit for bit, whatever the buffers held."""
    rng = _rng("window")
    moved = 0
    for spec in _window_specs():
        cuts = sorted({0, spec.n_out, *rng.integers(0, spec.n_out + 1, 12).tolist()})
        ranges = list(zip(cuts[:-1], cuts[1:]))
        rng.shuffle(ranges)
        buffers = spec.window_buffers(max(o1 - o0 for o0, o1 in ranges))
        for b in buffers:  # stale values from an earlier tile must not leak
            b.fill(-7)
        for o0, o1 in ranges:
            part = spec.table(o0, o1)
            t, lo = spec.window(o0, o1, buffers)
            lo_want = int(part.idx.min()) if part.nnz else 0
            hi_want = int(part.idx.max()) + 1 if part.nnz else 1
            first = part.idx[:part.ptr[1]]
            last = part.idx[part.ptr[-2]:]
            moved += bool(first.size == 0 or last.size == 0 or first.min() != lo_want
                          or last.max() != hi_want - 1)
            assert (lo, lo + t.n_in) == (lo_want, hi_want)
            assert t.n_out == o1 - o0
            assert t.ptr.tobytes() == part.ptr.tobytes()
            assert t.idx.tobytes() == (part.idx - lo_want).tobytes()
            assert t.w.tobytes() == part.w.tobytes()
            want = AxisTable(t.n_in, t.n_out, part.ptr.copy(), part.idx - lo_want,
                             part.w.copy()).dense
            got = t.dense
            assert got[0].shape == want[0].shape
            assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
    assert moved  # the cases where the window is found from every tap were reached


def _periodic_specs():
    # axes whose sizes are a power of two apart (some one more, or with a scale of 1.5
    # times one: no period), or Q : P apart (3 : 2, 1 : 3, 147 : 160), every mode,
    # transform, rule, antialiasing
    rng = _rng("periodic")
    out = []
    for j in range(240):
        mode = ["nearest", "linear", "cubic", "area", "lanczos", "box"][j % 6]
        if j % 2:
            k, base = int(rng.integers(-3, 4)), int(rng.integers(3, 120))
            n_in, n_out = (base, base << k) if k >= 0 else (base << -k, base)
        else:
            q, p = [(3, 2), (2, 3), (1, 3), (147, 160), (5, 7)][j // 2 % 5]
            m = int(rng.integers(20, 600)) // p + 1
            n_in, n_out = q * m, p * m
        scale = [None, None, 2.0 ** int(rng.integers(-2, 3)),
                 1.5 * 2.0 ** int(rng.integers(-2, 3))][j // 2 % 4]
        out.append(AxisSpec(n_in, n_out + (j % 7 == 0), scale, mode=mode,
                            transform=TRANSFORMS[j % 6], nearest_mode=ref.NEAREST_MODES[j % 4],
                            exclude_outside=j % 5 == 0, antialias=j % 3 == 0))
    return out


def test_periodic_rows_repeat_bit_for_bit():
    """``AxisSpec.period`` = (P, Q, whole): away from the input's ends (``taps_bound + 2``),
    and for ``whole`` False within one binade of the input, the row of output o + P is the
    row of o with indices + Q, weights bit for bit (the tiles of a long axis share tables
    on this)."""
    claimed = {True: 0, False: 0}
    rows = 0
    for spec in _periodic_specs():
        if spec.period is None:
            continue
        p, q, whole = spec.period
        claimed[whole] += 1
        t, m = spec.table(), spec.taps_bound + 2
        for o in range(spec.n_out - p):
            a, b = slice(t.ptr[o], t.ptr[o + 1]), slice(t.ptr[o + p], t.ptr[o + p + 1])
            if t.idx[a].size == 0:
                continue
            lo, hi = t.idx[a].min() - m, t.idx[a].max() + q + m
            if lo < (0 if whole else 1) or hi >= spec.n_in:
                continue
            if not whole and hi >= 2 << (int(lo).bit_length() - 1):
                continue
            rows += 1
            assert (t.idx[a] + q).tobytes() == t.idx[b].tobytes(), (spec, o)
            assert t.w[a].tobytes() == t.w[b].tobytes(), (spec, o)
    assert claimed[True] >= 40 and claimed[False] >= 30 and rows > 10000


@pytest.mark.parametrize("n_in,n_out,scale,mode,transform,antialias,want", [
    (3000, 6000, None, "linear", "half_pixel", False, (2, 1, True)),
    (3000, 6000, None, "cubic", "half_pixel", True, (2, 1, True)),
    (4000, 1000, None, "area", "align_corners", False, (1, 4, True)),  # area: footprints o r
    (4000, 1000, None, "linear", "half_pixel", True, (1, 4, True)),
    (1000, 1600, None, "nearest", "asymmetric", False, (8, 5, True)),
    (1025, 2049, None, "linear", "align_corners", False, (2, 1, True)),
    (100, 200, 2.0, "linear", "half_pixel", False, (2, 1, True)),
    (100, 300, 0.25, "lanczos", "half_pixel_symmetric", False, (1, 4, True)),
    (1000, 3000, None, "linear", "half_pixel", False, (3, 1, False)),  # (2o + 1) / 6 - 1/2
    (44100, 48000, None, "linear", "half_pixel", False, (160, 147, False)),
    (44100, 48000, None, "cubic", "half_pixel", True, (160, 147, False)),
    (100, 300, 3.0, "linear", "asymmetric", False, (3, 1, False)),  # o / 3.0: once
    (100, 150, 1.5, "cubic", "half_pixel", False, (3, 2, False)),  # then - 1/2: exact
    (1000, 1500, 1.5, "linear", "half_pixel_symmetric", False, None),  # + (n_in - 1) / 2
    (100, 150, 1.5, "area", "half_pixel", False, (3, 2, False)),  # area: o / 1.5, once
    (1000, 2000, None, "linear", "align_corners", False, (1999, 999, False)),
    (1000, 100003, None, "linear", "half_pixel", False, None),  # a period too long
    (4000, 1000, None, "box", "half_pixel", True, None),  # the snap's tolerance grows with u
    (5, 10, None, "linear", "half_pixel", False, (2, 1, True)),
    (1, 10, None, "linear", "half_pixel", False, None),
])
def test_period_of_an_axis(n_in, n_out, scale, mode, transform, antialias, want):
    spec = AxisSpec(n_in, n_out, scale, mode=mode, transform=transform, antialias=antialias)
    assert spec.period == want


def test_a_sum_after_the_rounding_breaks_the_repetition_within_binades():
    # why period() leaves out half_pixel_symmetric with a scale: (2o + 1 - n_out) / (2 s)
    # rounds at its own magnitude before the offset (n_in - 1) / 2 is added
    t = AxisSpec(1000, 1500, 1.5, mode="linear", transform="half_pixel_symmetric").table()
    differ = 0
    for o in range(1500 - 3):
        a, b = slice(t.ptr[o], t.ptr[o + 1]), slice(t.ptr[o + 3], t.ptr[o + 4])
        lo, hi = t.idx[a].min() - 4, t.idx[a].max() + 6
        if lo >= 1 and hi < 2 << (int(lo).bit_length() - 1):  # inside a binade
            differ += t.w[a].tobytes() != t.w[b].tobytes()
    assert differ


def test_ratios_that_are_not_dyadic_do_not_repeat_exactly():
    # why period() asks for dyadic coordinates: x3's fractions 1/6, 1/2, 5/6 round
    # differently at different magnitudes, so some row differs from the row three later
    for n_in, n_out in ((1000, 3000), (44100, 48000)):
        t = AxisSpec(n_in, n_out, None, mode="linear", transform="half_pixel").table()
        f = F(n_in, n_out)
        p = f.denominator
        differ = [o for o in range(10, n_out - p - 10)
                  if t.w[t.ptr[o]:t.ptr[o + 1]].tobytes()
                  != t.w[t.ptr[o + p]:t.ptr[o + p + 1]].tobytes()]
        assert differ


def test_dense_row_without_taps_is_positive_zero():
    t = AxisTable(3, 2, np.array([0, 0, 1]), np.array([2]), np.array([0.5]))
    idx, w = t.dense
    assert idx.tolist() == [[3], [2]]
    assert not np.signbit(w[0, 0]) and w[0, 0] == 0 and w[1, 0] == 0.5


def test_spec_pickles_as_its_request():
    import pickle
    spec = AxisSpec(37, 11, 0.3, mode="cubic", transform="asymmetric", cubic_a=-0.5,
                    exclude_outside=True, antialias=True)
    back = pickle.loads(pickle.dumps(spec))
    a, b = spec.table(2, 9), back.table(2, 9)
    assert (a.ptr.tobytes(), a.idx.tobytes(), a.w.tobytes()) == \
        (b.ptr.tobytes(), b.idx.tobytes(), b.w.tobytes())
    assert repr(back) == repr(spec)


def test_range_errors():
    spec = AxisSpec(4, 8, None, mode="linear", transform="half_pixel")
    for o0, o1 in ((-1, 2), (3, 2), (0, 9)):
        with pytest.raises(ValueError):
            spec.table(o0, o1)
    with pytest.raises(ValueError):
        spec.dense(0, 8, k=1)  # linear rows have two taps


def test_registry_kernels():
    assert set(FILTERS) == {"nearest", "linear", "cubic", "lanczos", "hamming", "box", "area"}
    for f in FILTERS.values():
        assert f.support > 0
        assert float(f.weight(np.array([0.0]))[0]) == 1.0     # every kernel is 1 at d = 0
        assert float(f.weight(np.array([f.support + 1]))[0]) == 0.0
    d = np.array([0.0, 0.5, 1.0, 1.5, 2.0])
    np.testing.assert_array_equal(FILTERS["cubic"].weight(d, a=-0.5),
                                  [float(_exact_keys(F(v), F(-0.5))) for v in d])
    # The new kernels against the reference's own weight functions (tests/reference.py).
    for name, kw, ref_kw in (("lanczos", {"a": 3}, {"lanczos_a": 3}),
                             ("lanczos", {"a": 2}, {"lanczos_a": 2}),
                             ("hamming", {}, {}), ("box", {}, {})):
        filt = ref.make_filter(name, **ref_kw)
        for v in (-3.0, -2.5, -1.0, -0.5, -0.3, 0.0, 0.25, 0.5, 0.75, 1.0, 1.7, 2.0, 2.9):
            want = float(filt.weight(F(v)))
            got = float(FILTERS[name].weight(np.array([v]), **kw)[0])
            assert got == pytest.approx(want, rel=1e-15, abs=1e-16), (name, kw, v)


# --------------------------------------------------------------------- long axes

def test_long_axis_range_in_bounded_memory():
    # The issue 11 axis: 2^31 + 5 -> 2^31 + 9. A tile at its far end builds in memory bounded
    # by the tile (no array of the axis's length), and reads what the reference says.
    n_in, n_out = 2**31 + 5, 2**31 + 9
    for mode in ("nearest", "linear"):
        spec = AxisSpec(n_in, n_out, None, mode=mode, transform="half_pixel")
        o0, o1 = n_out - 50_000, n_out
        tracemalloc.start()
        try:
            t = spec.table(o0, o1)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak <= spec.nbytes_estimate(o0, o1) + 4096
        assert peak < 4 * 2**20
        for o in (o0, o0 + 1, (o0 + o1) // 2, o1 - 2, o1 - 1):
            got = list(zip(t.idx[t.ptr[o - o0]:t.ptr[o - o0 + 1]].tolist(),
                           t.w[t.ptr[o - o0]:t.ptr[o - o0 + 1]].tolist()))
            u = ref.source_coordinate(o, n_in, n_out, None, "half_pixel")
            want = ([(ref.nearest_index(u, n_in), 1.0)] if mode == "nearest"
                    else ref.linear_taps(u, n_in))
            # float64 coordinates near 2^31 resolve 2^-22 of a sample: compare weights so
            got, want = dict(got), dict(want)
            for i in set(got) | set(want):
                assert abs(got.get(i, 0.0) - want.get(i, 0.0)) < 1e-6, (o, got, want)


def test_build_releases_the_gil():
    spec = AxisSpec(2**24, 2**25, None, mode="linear", transform="half_pixel")
    started = threading.Event()
    result = []

    def build():
        started.set()
        result.append(spec.table())

    worker = threading.Thread(target=build)
    worker.start()
    started.wait()
    progress = 0
    while worker.is_alive():  # runs only if the builder lets go of the GIL
        progress += 1
    worker.join()
    assert result[0].n_out == 2**25
    assert progress > 1000
