"""A scalar ``scale``/``size`` without ``axes`` applies to every axis (SPEC §2), as
``scipy.ndimage.zoom(x, 2)`` does; a ``size`` too short for the array says which ``axes=`` would
fit. Compared with the float64 reference (tests/reference.py) and with SciPy."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import resamplex as rx
import reference as ref


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(("scalar-scale",) + key).encode()))


@pytest.mark.parametrize("mode", ["nearest", "linear"])  # the modes the reference has
@pytest.mark.parametrize("scale", [2, 2.0, np.float32(0.5), np.int64(3)])
def test_scalar_scale_without_axes_scales_every_axis(mode, scale):
    x = ref.random_array(_rng(mode, float(scale)), (3, 4, 6), np.float64)
    got = rx.resize(x, scale=scale, mode=mode)
    want = ref.reference_resize(x, None, [float(scale)] * 3, None, mode)
    assert got.shape == tuple(int(n * float(scale)) for n in x.shape) == want.shape
    ref.assert_matches(got, want, x.dtype, mode, xmax=float(np.abs(x).max()))


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("size", [5, np.int32(2)])
def test_scalar_size_without_axes_sizes_every_axis(mode, size):
    x = ref.random_array(_rng(mode, int(size)), (3, 4, 6), np.float32)
    got = rx.resize(x, size, mode=mode)
    want = ref.reference_resize(x, [int(size)] * 3, None, None, mode)
    assert got.shape == (int(size),) * 3
    ref.assert_matches(got, want, x.dtype, mode, xmax=float(np.abs(x).max()))


def test_scalar_scale_is_scipy_zoom():
    """``rx.resize(vol, scale=2)`` is ``scipy.ndimage.zoom(vol, 2)`` with pixel centres lined up
    (``grid_mode=True``) and edges repeated (``mode="nearest"``), for linear interpolation."""
    ndimage = pytest.importorskip("scipy.ndimage")
    vol = _rng("zoom").random((4, 5, 6))
    want = ndimage.zoom(vol, 2, order=1, mode="nearest", grid_mode=True)
    got = rx.resize(vol, scale=2)
    assert got.shape == want.shape == (8, 10, 12)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_scalar_scale_in_resampler_and_adjoint():
    x = _rng("plan").random((3, 5))
    plan = rx.Resampler(x.shape, scale=2)
    assert plan.out_shape == (6, 10)
    np.testing.assert_array_equal(plan(x), rx.resize(x, (6, 10)))
    g = _rng("grad").random((6, 10))
    dense = ref.dense_operator(x.shape, None, [2.0, 2.0], None, "linear")
    np.testing.assert_allclose(rx.resize_adjoint(g, x.shape, scale=2),
                               (dense.T @ g.ravel()).reshape(x.shape), rtol=0, atol=1e-12)


@pytest.mark.parametrize("shape, size, axes", [
    ((48, 64, 3), (24, 32), (0, 1)),           # HWC image: the channels stay
    ((2, 48, 64, 4), (24, 32), (1, 2)),        # NHWC batch
    ((2, 5, 48, 64), (24, 32), (2, 3)),        # NCHW batch
    ((2, 5, 8, 9, 10), (4, 4, 4), (2, 3, 4)),  # NCDHW volumes
    ((7, 9), (3,), (1,)),
])
@pytest.mark.parametrize("name", ["size", "scale"])
def test_too_few_entries_without_axes_suggest_the_axes(shape, size, axes, name):
    x = np.zeros(shape, np.float32)
    value = size if name == "size" else tuple(0.5 for _ in size)
    with pytest.raises(rx.ResamplexError) as info:
        rx.resize(x, **{name: value})
    message = str(info.value)
    assert message.startswith(f"{name}: expected {len(shape)} entries")
    shown = f"({axes[0]},)" if len(axes) == 1 else str(axes)
    assert f"axes={shown}" in message
    # and the suggestion does what it says: the named axes change, the others are kept
    y = rx.resize(x, **{name: value}, axes=axes)
    assert all((y.shape[a] == x.shape[a]) == (a not in axes) for a in range(x.ndim))


def test_a_wrong_count_with_axes_gets_no_axes_suggestion():
    with pytest.raises(rx.ResamplexError) as info:
        rx.resize(np.zeros((4, 6, 3)), (2, 3, 4), axes=(0, 1))
    assert "axes=(" not in str(info.value)
