"""The filters lanczos, hamming and box of the core (SPEC §2): argument rules, the folded
(very wide) windows, and live comparisons with Pillow and OpenCV.

The per-mode accuracy against ``tests/reference.py`` (every transform and dtype, resize,
Resampler, adjoint) is in ``test_modes.py`` (``MODE_ROWS``). Here:

- ``lanczos_a`` is validated like ``cubic_a`` (any mode), and only lanczos depends on it;
- windows too wide to evaluate tap by tap (``EXACT_WINDOW_TAPS``) against the reference, and
  huge stretches against a float64 NumPy sum of the same weights;
- Pillow: ``Image.resize`` of a float32 ``'F'`` image with ``LANCZOS``/``HAMMING``/``BOX`` is
  ``mode=..., antialias=True, exclude_outside=True`` (Pillow widens the filter by the shrink
  factor, never narrows it, clips the taps at the edges and renormalises), ``half_pixel``;
- OpenCV: ``INTER_LANCZOS4`` is ``mode="lanczos", lanczos_a=4`` without antialias and with
  edge-replicated taps (``exclude_outside=False``), ``half_pixel``.
"""

import math

import numpy as np
import pytest

import resamplex as rx
import reference as ref
from resamplex import _tables

NEW = ("lanczos", "hamming", "box")


# ------------------------------------------------------------------------------ arguments

@pytest.mark.parametrize("bad", [0, -1, 2.0, 3.5, "3", None, True, np.float64(3), 1 << 21])
@pytest.mark.parametrize("mode", ["lanczos", "linear"])
def test_bad_lanczos_a(bad, mode):
    x = np.zeros((4, 4))
    with pytest.raises(rx.ResamplexError, match="lanczos_a"):
        rx.resize(x, (2, 2), mode=mode, lanczos_a=bad)
    with pytest.raises(rx.ResamplexError, match="lanczos_a"):
        rx.Resampler((4, 4), (2, 2), mode=mode, lanczos_a=bad)
    with pytest.raises(rx.ResamplexError, match="lanczos_a"):
        rx.resize_adjoint(np.zeros((2, 2)), (4, 4), (2, 2), mode=mode, lanczos_a=bad)


def test_bad_lanczos_a_is_refused_before_allocating():
    # An output that could never be allocated: the lanczos_a error comes first.
    with pytest.raises(rx.ResamplexError, match="lanczos_a"):
        rx.Resampler((1 << 40,), (1 << 41,), mode="lanczos", lanczos_a=0)


def test_lanczos_a_accepts_numpy_integers():
    x = np.arange(10.0)
    np.testing.assert_array_equal(rx.resize(x, (7,), mode="lanczos", lanczos_a=np.int64(2)),
                                  rx.resize(x, (7,), mode="lanczos", lanczos_a=2))


def test_lanczos_a_only_changes_lanczos():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((9, 7))
    a2 = rx.resize(x, (5, 12), mode="lanczos", lanczos_a=2)
    a3 = rx.resize(x, (5, 12), mode="lanczos", lanczos_a=3)
    assert not np.allclose(a2, a3)
    for mode in ("linear", "cubic", "hamming", "box", "area"):
        np.testing.assert_array_equal(rx.resize(x, (5, 12), mode=mode, lanczos_a=7),
                                      rx.resize(x, (5, 12), mode=mode))


@pytest.mark.parametrize("mode", NEW)
def test_antialias_accepted(mode):
    x = np.ones((12,))
    np.testing.assert_allclose(rx.resize(x, (5,), mode=mode, antialias=True), np.ones(5),
                               rtol=1e-14)


def test_antialias_still_refused_for_area_and_nearest():
    for mode in ("area", "nearest"):
        with pytest.raises(rx.ResamplexError, match="antialias"):
            rx.resize(np.ones(8), (4,), mode=mode, antialias=True)


@pytest.mark.parametrize("mode", NEW)
def test_other_weighted_dtypes_refused_like_cubic(mode):
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.resize(np.ones(8, np.int32), (4,), mode=mode)


# ------------------------------------------------------------------------------ hand-worked

def test_lanczos_hand_worked():
    # 2 -> 4, half_pixel: u(1) = 0.25. lanczos_a=1: taps 0, 1 at distances 0.25, 0.75 with
    # weights sinc(d)^2, normalised; sinc(0.25)^2 = 8/pi^2 (sin(pi/4) = 1/sqrt 2), sinc(0.75)^2
    # = 8/(9 pi^2): so 9/10 and 1/10.
    y = rx.resize(np.array([0.0, 10.0]), (4,), mode="lanczos", lanczos_a=1)
    assert y[1] == pytest.approx(1.0, rel=1e-14)
    # On a sample: only that sample (sin(pi k) taken as exactly 0).
    x = np.array([3.0, -1.0, 4.0, 1.5, -5.0])
    np.testing.assert_array_equal(rx.resize(x, (5,), mode="lanczos"), x)
    np.testing.assert_array_equal(rx.resize(x, (9,), mode="lanczos",
                                            coordinate_transform="align_corners")[::2], x)


def test_box_hand_worked():
    # Plain box = nearest with round_prefer_ceil (taps in (u - 1/2, u + 1/2]).
    x = np.arange(7.0)
    for n in (3, 5, 11, 14):
        np.testing.assert_array_equal(
            rx.resize(x, (n,), mode="box"),
            rx.resize(x, (n,), mode="nearest", nearest_mode="round_prefer_ceil"))
    # Antialiased 6 -> 2 (r = 3): output 0 averages samples 0, 1, 2 (centres in (0, 3]).
    np.testing.assert_allclose(rx.resize(x[:6], (2,), mode="box", antialias=True),
                               [1.0, 4.0], rtol=1e-15)
    # 5 -> 2 (r = 2.5): u(0) = 0.75, edges -0.5 (excluded) and 2.0 (included).
    np.testing.assert_allclose(rx.resize(x[:5], (2,), mode="box", antialias=True),
                               [1.0, 3.5], rtol=1e-15)


# ------------------------------------------------------------------------------ wide windows

@pytest.mark.parametrize("mode,kw", [("lanczos", {}), ("lanczos", {"lanczos_a": 2}),
                                     ("hamming", {}), ("box", {})])
@pytest.mark.parametrize("exclude", [False, True])
@pytest.mark.parametrize("case", [(17, 3, None), (9, 2, 0.13), (6, 5, 0.2), (40, 7, None)])
def test_folded_windows_against_reference(monkeypatch, mode, kw, exclude, case):
    """Windows folded (in-range taps plus the closed-form mass outside) against the exact
    reference: forced by lowering the exact-window limit."""
    monkeypatch.setattr(_tables, "EXACT_WINDOW_TAPS", 0)
    n_in, n_out, scale = case
    if mode == "box" and any(
            0 < abs(b - round(b)) <= ref.FRAGILE_EPS
            for o in range(n_out)
            for u in [ref.source_coordinate(o, n_in, n_out, scale)]
            for b in (u - ref.ratio(n_in, n_out, scale) / 2,
                      u + ref.ratio(n_in, n_out, scale) / 2)):
        pytest.skip("near-tie of a box edge")
    spec = _tables.AxisSpec(n_in, n_out, scale, mode=mode, transform="half_pixel",
                            antialias=True, exclude_outside=exclude, **kw)
    assert not spec._args["exact"]
    t = spec.table()
    want = ref.axis_matrix(n_in, n_out, scale, "half_pixel", mode, antialias=True,
                           exclude_outside=exclude, **kw)
    got = np.zeros_like(want)
    for o in range(n_out):
        for p in range(t.ptr[o], t.ptr[o + 1]):
            got[o, t.idx[p]] += t.w[p]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)


def _numpy_window_mass(weight, u, r, first, last):
    """float64 NumPy sum of ``weight((i - u) / r)`` over the integers in ``[first, last]``."""
    i = np.arange(first, last + 1, dtype=np.float64)
    return float(np.sum(weight((i - u) / r)))


@pytest.mark.parametrize("mode", ["lanczos", "hamming", "box"])
def test_huge_stretch_outside_mass(mode):
    """A tiny scale with a given size: the window reaches millions of samples past the edges;
    its outside mass comes from the integral (lanczos, hamming) or a count (box). Against a
    float64 NumPy sum of the reference's weight over every tap of the window."""
    n_in, n_out, scale = 3, 2, 1 / 3e6
    spec = _tables.AxisSpec(n_in, n_out, scale, mode=mode, transform="half_pixel",
                            antialias=True)
    t = spec.table()
    r = 1 / scale
    filt = ref.make_filter(mode)
    support = float(filt.support)
    vec = {"lanczos": lambda d: _tables.lanczos_kernel(d, 3), "hamming": _tables.hamming_kernel,
           "box": _tables.pil_box_kernel}[mode]
    for o in range(n_out):
        u = (o + 0.5) * r - 0.5
        lo, hi = math.floor(u - support * r), math.ceil(u + support * r)
        left = _numpy_window_mass(vec, u, r, lo, -1)
        right = _numpy_window_mass(vec, u, r, n_in, hi)
        inner = [float(vec(np.array([(i - u) / r]))[0]) for i in range(n_in)]
        total = left + sum(inner) + right
        want = np.array(inner) / total
        want[0] += left / total
        want[-1] += right / total
        got = np.zeros(n_in)
        got[t.idx[t.ptr[o]:t.ptr[o + 1]]] = t.w[t.ptr[o]:t.ptr[o + 1]]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)


# ------------------------------------------------------------------------------ Pillow

PIL_CASES = [((16, 16), (8, 8)), ((20, 13), (7, 5)), ((9, 11), (23, 17)), ((32, 24), (5, 31)),
             ((7, 40), (3, 6)), ((12, 12), (12, 30))]


@pytest.mark.parametrize("mode", NEW)
@pytest.mark.parametrize("shape,size", PIL_CASES)
def test_against_pillow_float(mode, shape, size):
    """Pillow's ``F`` images (float32, double accumulation): half_pixel, antialias on
    shrinking axes, taps clipped at the edges and renormalised (``exclude_outside``)."""
    Image = pytest.importorskip("PIL.Image")
    flag = {"lanczos": Image.Resampling.LANCZOS, "hamming": Image.Resampling.HAMMING,
            "box": Image.Resampling.BOX}[mode]
    rng = np.random.default_rng(abs(hash((mode, shape, size))) % (1 << 32))
    x = (rng.standard_normal(shape) * 100).astype(np.float32)
    want = np.asarray(Image.fromarray(x, mode="F").resize((size[1], size[0]), flag))
    got = rx.resize(x, size, mode=mode, antialias=True, exclude_outside=True)
    # Pillow's Hamming constants are the C floats 0.54f, 0.46f (4e-8 relative), and it rounds
    # each pass to float32 as the library does: a few float32 ulps of max|x| times the gain.
    gain = ref.request_gain(shape, size, mode=mode, antialias=True, exclude_outside=True)
    tol = 6 * float(np.spacing(np.float32(np.abs(x).max() * gain)))
    np.testing.assert_allclose(got, want, rtol=0, atol=tol)


# ------------------------------------------------------------------------------ OpenCV

@pytest.mark.parametrize("shape,size", [((8, 8), (19, 13)), ((13, 9), (26, 18)),
                                        ((10, 12), (7, 5)), ((5, 6), (3, 17))])
def test_lanczos4_against_opencv(shape, size):
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) * 100).astype(np.float32)
    want = cv2.resize(x, (size[1], size[0]), interpolation=cv2.INTER_LANCZOS4)
    got = rx.resize(x, size, mode="lanczos", lanczos_a=4)
    # OpenCV computes the 8 weights in float32 and normalises them there (~1e-7 relative each).
    gain = ref.request_gain(shape, size, mode="lanczos", lanczos_a=4)
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-6 * np.abs(x).max() * gain)
