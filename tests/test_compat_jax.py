"""resamplex.compat.jax against an independent float64 evaluation of jax.image's formulas,
and against jax.image itself (the `jax` test extra).

Three checks, each against something the door did not compute:

- the weights: ``weight_matrix`` against JAX's own ``compute_weight_mat`` (evaluated by JAX:
  op by op as ``scale_and_translate`` runs it, within 8 eps; compiled as ``resize``'s jit
  compiles it, where XLA's float32 coordinates, fused operations and sine move a weight by
  up to about eps times the largest coordinate, within ``(8 + 2 max(n_in, n_out)) eps``)
  and against an independent float64 evaluation of JAX's formulas (``ref_matrix``, the
  same bound);
- the engine's arithmetic: the door's result against the float64 contraction of its own
  float32 tables, within 10 eps sum |w x| (float32 products and sums, axis after axis);
- the whole: the door against ``jax.image`` itself, within the two above added: ``(18 + 2
  max(n_in, n_out)) eps sum |w x|`` (JAX's CPU result is itself that far from the float64 value of
  its weights: measured up to ~70 eps sum |w x|).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from resamplex import ResamplexError, UnsupportedError
from resamplex.compat import jax as rjax

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

EPS32 = float(np.finfo(np.float32).eps)
METHODS = ["linear", "cubic", "cubic-pytorch", "lanczos3", "lanczos5", "area"]
RADIUS = {"linear": 1, "cubic": 2, "cubic-pytorch": 2, "lanczos3": 3, "lanczos5": 5}


def _kernel64(method: str, x: np.ndarray) -> np.ndarray:
    x = np.abs(x)
    if method == "linear":
        return np.maximum(0.0, 1.0 - x)
    if method in ("cubic", "cubic-pytorch"):
        a = -0.5 if method == "cubic" else -0.75
        near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
        far = ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
        return np.where(x < 1.0, near, np.where(x < 2.0, far, 0.0))
    r = 3.0 if method == "lanczos3" else 5.0
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(x > 1e-3, r * np.sin(np.pi * x) * np.sin(np.pi * x / r)
                     / (np.pi ** 2 * x * x), 1.0)
    return np.where(x > r, 0.0, v)


def ref_matrix(n_in: int, n_out: int, scale: float, translation: float, method: str,
               antialias: bool) -> np.ndarray:
    """JAX's weight matrix (n_in, n_out), in float64 from its definitions."""
    if method == "cubic-pytorch" and antialias:
        method = "cubic"
    inv = 1.0 / scale
    ks = max(inv, 1.0) if antialias else 1.0
    o = np.arange(n_out, dtype=np.float64)
    sample = (o + 0.5) * inv - translation * inv - 0.5
    edge = method == "cubic-pytorch" and not antialias
    if method == "area":
        left = o * inv - translation * inv
        j = np.arange(n_in, dtype=np.float64)[:, None]
        w = np.maximum(0.0, np.minimum(left + inv, j + 1.0) - np.maximum(left, j))
    elif edge:
        k = RADIUS[method]
        j = np.arange(-k, n_in + k, dtype=np.float64)[:, None]
        raw = _kernel64(method, (sample[None, :] - j) / ks)
        w = np.zeros((n_in, n_out))
        np.add.at(w, np.clip(j[:, 0].astype(int), 0, n_in - 1), raw)
    else:
        j = np.arange(n_in, dtype=np.float64)[:, None]
        w = _kernel64(method, (sample[None, :] - j) / ks)
    total = w.sum(axis=0, keepdims=True)
    w = np.where(np.abs(total) > 1000 * EPS32, w / np.where(total != 0, total, 1.0), 0.0)
    if not edge:
        w = np.where(((sample >= -0.5) & (sample <= n_in - 0.5))[None, :], w, 0.0)
    return w


def contract(x: np.ndarray, mats: dict) -> tuple[np.ndarray, np.ndarray]:
    """The float64 contraction of ``x`` with one (n_in, n_out) matrix per axis, and the
    magnitude sum |w x| of every output."""
    y = x.astype(np.float64)
    mag = np.abs(y)
    for a, w in mats.items():
        w = w.astype(np.float64)
        y = np.moveaxis(np.tensordot(np.moveaxis(y, a, -1), w, axes=(-1, 0)), -1, a)
        mag = np.moveaxis(np.tensordot(np.moveaxis(mag, a, -1), np.abs(w), axes=(-1, 0)),
                          -1, a)
    return y, mag


def _check(x, got, want_jax, mats, what):
    """The engine against its own tables (10 eps sum |w x|), the whole against JAX."""
    ref, mag = contract(x, mats)
    got64 = got.astype(np.float64)
    off = np.abs(got64 - ref) / (10 * EPS32 * mag + 1e-30)
    assert off.max() <= 1.0, (what, "engine", float(off.max()))
    span = max(max(w.shape) for w in mats.values())
    off = np.abs(got64 - want_jax.astype(np.float64)) / ((18 + 2 * span) * EPS32 * mag + 1e-30)
    assert off.max() <= 1.0, (what, "jax", float(off.max()))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("antialias", [True, False])
def test_resize_matches_the_formulas_and_jax(method, antialias):
    rng = np.random.default_rng([7, METHODS.index(method), antialias])
    cases = [((13, 17, 3), (5, 40, 3)), ((40, 30), (17, 61)), ((8, 9, 2), (8, 3, 2)),
             ((64, 50, 1), (31, 100, 1)), ((3, 200), (7, 33)), ((1, 9), (4, 9)),
             ((25,), (100,)), ((100,), (7,)), ((2, 5, 6, 3), (2, 9, 4, 3))]
    for i, (shape, out_shape) in enumerate(cases):
        x = rng.standard_normal(shape).astype(np.float32)
        if i % 3 == 1:
            x = (x * 100 + 40).astype(np.float32)
        got = rjax.resize(x, out_shape, method, antialias)
        want = np.asarray(jax.image.resize(x, out_shape, method, antialias=antialias))
        assert got.shape == want.shape and got.dtype == want.dtype
        mats = {d: rjax.weight_matrix(shape[d], out_shape[d], method, antialias)
                for d in range(x.ndim) if shape[d] != out_shape[d]}
        _check(x, got, want, mats, (method, antialias, shape, out_shape))


@pytest.mark.parametrize("method", METHODS)
def test_scale_and_translate_matches_the_formulas_and_jax(method):
    rng = np.random.default_rng([11, METHODS.index(method)])
    for shape, out_shape, dims, scale, trans, aa in [
            ((20, 30, 3), (9, 41, 3), (0, 1), (0.45, 1.37), (1.5, -2.25), True),
            ((20, 30, 3), (25, 12, 3), (0, 1), (1.25, 0.4), (-3.0, 0.7), False),
            ((4, 50), (4, 50), (1,), (0.8,), (5.0,), True),
            ((3, 31, 2), (3, 31, 2), (-2,), (2.0,), (-10.0,), False)]:
        x = rng.standard_normal(shape).astype(np.float32)
        got = rjax.scale_and_translate(x, out_shape, dims, scale, trans, method, aa)
        want = np.asarray(jax.image.scale_and_translate(
            x, out_shape, dims, jnp.array(scale, jnp.float32), jnp.array(trans, jnp.float32),
            method, antialias=aa))
        assert got.shape == want.shape and got.dtype == want.dtype
        mats = {d % x.ndim: rjax.weight_matrix(shape[d], out_shape[d], method, aa, scale=s,
                                               translation=t)
                for d, s, t in zip(dims, scale, trans)}
        _check(x, got, want, mats, (method, shape, out_shape, dims))


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "float16", "float64", "bool"])
def test_dtypes_follow_jax(dtype):
    rng = np.random.default_rng(3)
    x = (rng.random((12, 15, 3)) * 200).astype(dtype)
    for method in ("linear", "cubic", "nearest"):
        got = rjax.resize(x, (7, 22, 3), method)
        want = np.asarray(jax.image.resize(x, (7, 22, 3), method))
        assert got.dtype == want.dtype, (dtype, method, got.dtype, want.dtype)
        if method == "nearest":
            np.testing.assert_array_equal(got, want)
        else:
            tol = 1e-2 if dtype == "float16" else 1e-4
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                       rtol=tol, atol=tol * 200)


def test_bfloat16_follows_jax():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.random.default_rng(4).standard_normal((10, 14)).astype(ml_dtypes.bfloat16)
    got = rjax.resize(x, (6, 23), "lanczos3")
    want = np.asarray(jax.image.resize(x, (6, 23), "lanczos3"))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=0.02,
                               atol=0.02)
    x[3, 4] = np.inf  # the dense contraction's NaN, as in JAX, for bfloat16 too
    got = rjax.resize(x, (6, 23), "linear")
    want = np.asarray(jax.image.resize(x, (6, 23), "linear"))
    np.testing.assert_array_equal(np.isnan(got.astype(np.float32)),
                                  np.isnan(want.astype(np.float32)))


def test_nearest_is_jax_bit_for_bit():
    rng = np.random.default_rng(5)
    for shape, out_shape in [((7, 9), (20, 4)), ((1000,), (333,)), ((5, 6, 3), (5, 17, 3)),
                             ((3, 4, 5), (6, 1, 9)), ((997,), (1001,))]:
        x = rng.integers(-1000, 1000, shape).astype(np.int32)
        want = np.asarray(jax.image.resize(x, out_shape, "nearest"))
        np.testing.assert_array_equal(rjax.resize(x, out_shape, "nearest"), want)


def test_a_non_finite_input_spreads_as_in_jax():
    # JAX multiplies every input of a line, weight 0 too: inf there gives NaN where it
    # weighs 0, +-inf where it weighs something
    x = np.arange(40, dtype=np.float32).reshape(5, 8)
    x[2, 3] = np.inf
    x[4, 0] = np.nan
    for method in ("linear", "lanczos3", "area"):
        got = rjax.resize(x, (3, 13), method)
        want = np.asarray(jax.image.resize(x, (3, 13), method))
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
        fin = np.isfinite(want)
        np.testing.assert_allclose(got[fin], want[fin], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("method", METHODS)
def test_weight_matrix_is_jax_s_definition(method):
    from jax._src.image import scale as jscale

    rng = np.random.default_rng([13, METHODS.index(method)])
    for aa in (True, False):
        kind = "cubic" if method == "cubic-pytorch" and aa else method
        rm = jscale.ResizeMethod.from_string(kind)
        radius, kernel = jscale._kernels[rm]
        edge = kind == "cubic-pytorch"
        for m, n in [(10, 4), (7, 19), (1, 5), (5, 1)] + [
                tuple(int(v) for v in rng.integers(1, 250, 2)) for _ in range(6)]:
            tol = (8 + 2 * max(m, n)) * EPS32
            # scale_and_translate's: float32 scale, JAX op by op
            sc = np.float32(n / m)
            want = np.asarray(jscale.compute_weight_mat(
                m, n, jnp.float32(sc), jnp.float32(0.0), kernel, aa, edge_padding=edge,
                radius=radius))
            got = rjax.weight_matrix(m, n, method, aa, scale=float(sc))
            np.testing.assert_allclose(got, want, rtol=0, atol=8 * EPS32)
            # resize's: compiled by XLA
            want = np.asarray(jax.jit(lambda: jscale.compute_weight_mat(
                m, n, n / m, 0.0, kernel, aa, edge_padding=edge, radius=radius))())
            got = rjax.weight_matrix(m, n, method, aa)
            np.testing.assert_allclose(got, want, rtol=0, atol=tol)
            np.testing.assert_allclose(got, ref_matrix(m, n, n / m, 0.0, method, aa), rtol=0,
                                       atol=tol)


def test_arguments_are_checked():
    x = np.zeros((4, 5), np.float32)
    with pytest.raises(ResamplexError, match="method"):
        rjax.resize(x, (2, 2), "bogus")
    with pytest.raises(ResamplexError, match="shape"):
        rjax.resize(x, (2,), "linear")
    with pytest.raises(ResamplexError, match="shape"):
        rjax.resize(x, (2, -1), "linear")
    with pytest.raises(ResamplexError, match="length 0"):
        rjax.resize(np.zeros((0, 5), np.float32), (3, 5), "linear")
    with pytest.raises(UnsupportedError, match="nearest"):
        rjax.scale_and_translate(x, (4, 5), (0,), [1.0], [0.0], "nearest")
    with pytest.raises(ResamplexError, match="spatial_dims"):
        rjax.scale_and_translate(x, (4, 5), (0, 0), [1.0, 1.0], [0.0, 0.0])
    with pytest.raises(ResamplexError, match="one value per spatial dim"):
        rjax.scale_and_translate(x, (4, 5), (0,), [1.0, 2.0], [0.0])
    with pytest.raises(ResamplexError, match="scale nonzero"):
        rjax.scale_and_translate(x, (4, 5), (0,), [0.0], [0.0])
    with pytest.raises(ResamplexError, match="not a spatial dim"):
        rjax.scale_and_translate(x, (4, 6), (0,), [1.0], [0.0])
    assert rjax.resize(x, (0, 5), "linear").shape == (0, 5)
    with pytest.raises(ResamplexError, match="n_in >= 1"):
        rjax.weight_matrix(0, 3)
    assert rjax.weight_matrix(4, 0).shape == (4, 0)  # (it divided by zero before)
    # a scale that widens the kernel past the input reads the whole line, no more
    y = np.arange(6, dtype=np.float32).reshape(1, 6)
    for method in ("linear", "lanczos5", "area"):
        # output 1 lands inside the input (the others outside: 0)
        got = rjax.scale_and_translate(y, (1, 3), (1,), [1e-3], [1.497], method)
        want = np.asarray(jax.image.scale_and_translate(
            y, (1, 3), (1,), jnp.array([1e-3]), jnp.array([1.497]), method))
        assert got[0, 1] != 0
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    same = rjax.resize(x.astype(np.uint8), (4, 5), "cubic")
    assert same.dtype == np.float32 and same.shape == (4, 5)
    assert math.isclose(float(rjax.resize(np.full((3, 3), 2.0, np.float32), (5, 7),
                                          "lanczos5").mean()), 2.0, rel_tol=1e-5)
