"""``resamplex.compat.torch.interpolate`` with torch tensors (SPEC §6: a tensor in, a tensor
out): dtypes (bfloat16 included), devices, memory formats, ``out=``, messages that describe a
tensor without printing it, and gradients, compared with torch's own ``interpolate`` forward and
backward (and ``torch.autograd.gradcheck``'s numerical Jacobian)."""

from __future__ import annotations

import numpy as np
import pytest

from resamplex import ResamplexError, UnsupportedError
from resamplex._dtypes import BFLOAT16
from resamplex.compat.torch import interpolate

torch = pytest.importorskip("torch")
F = torch.nn.functional
needs_bf16 = pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes is not installed")

# (mode, rank, extra keywords): every mode, each with a rank torch accepts for it
CASES = [
    ("nearest", 3, {}), ("nearest", 4, {}), ("nearest", 5, {}),
    ("nearest-exact", 4, {}), ("nearest-exact", 5, {}),
    ("linear", 3, {}), ("linear", 3, {"align_corners": True}),
    ("bilinear", 4, {}), ("bilinear", 4, {"align_corners": True}),
    ("bilinear", 4, {"antialias": True}),
    ("bicubic", 4, {}), ("bicubic", 4, {"align_corners": True}),
    ("bicubic", 4, {"antialias": True}),
    ("trilinear", 5, {}), ("trilinear", 5, {"align_corners": True}),
    ("area", 3, {}), ("area", 4, {}), ("area", 5, {}),
]
SPATIAL = {3: (9,), 4: (7, 9), 5: (5, 6, 7)}


def _input(rank, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    shape = (2, 3, *SPATIAL[rank])
    return torch.rand(shape, generator=g, dtype=torch.float64).to(dtype)


def _sizes(rank, up):
    return tuple((2 * n + 1) if up else max(1, n // 2) for n in SPATIAL[rank])


def _case_id(case):
    mode, rank, kw = case
    return f"{mode}-{rank}d" + "".join(f"-{k}" for k in kw)


def _close(got, want, tol):
    """``got`` equals ``want`` within ``tol`` relative to ``max |want|``."""
    got, want = got.double(), want.double()
    scale = max(float(want.abs().max()), 1e-300)
    assert float((got - want).abs().max()) <= tol * scale, float((got - want).abs().max())


# ------------------------------------------------------------------------------ tensor in/out

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_a_tensor_in_gives_a_tensor_out(case, dtype):
    mode, rank, kw = case
    x = _input(rank, dtype)
    size = _sizes(rank, up=True)
    if kw.get("antialias") and dtype == torch.float16:  # torch's CPU kernels have none
        with pytest.raises(RuntimeError):
            F.interpolate(x, size=size, mode=mode, **kw)
        with pytest.raises(UnsupportedError, match="antialias=True supports uint8, float32"):
            interpolate(x, size=size, mode=mode, **kw)
        return
    got = interpolate(x, size=size, mode=mode, **kw)
    want = F.interpolate(x, size=size, mode=mode, **kw)
    assert isinstance(got, torch.Tensor) and got.dtype == dtype and got.device.type == "cpu"
    assert got.shape == want.shape and not got.requires_grad
    if mode.startswith("nearest"):
        assert torch.equal(got, want)
    else:
        _close(got, want, {torch.float32: 1e-5, torch.float64: 1e-12, torch.float16: 2e-3}[dtype])


@needs_bf16
@pytest.mark.parametrize("mode, rank", [("nearest", 4), ("bilinear", 4), ("bicubic", 4),
                                        ("trilinear", 5), ("area", 4)])
def test_bfloat16_tensors(mode, rank):
    x = _input(rank, torch.bfloat16, seed=1)
    got = interpolate(x, scale_factor=2, mode=mode)
    want = F.interpolate(x, scale_factor=2, mode=mode)
    assert got.dtype == torch.bfloat16 and got.shape == want.shape
    if mode == "nearest":
        assert torch.equal(got, want)
    else:
        _close(got, want, 2 ** -7)  # two bfloat16 ulps of the largest value, about


def test_uint8_tensor_is_bit_exact_and_a_numpy_input_still_gives_numpy():
    g = torch.Generator().manual_seed(2)
    x = torch.randint(0, 256, (1, 3, 11, 13), generator=g, dtype=torch.uint8)
    got = interpolate(x, size=(5, 29), mode="bilinear", antialias=True)
    assert got.dtype == torch.uint8
    assert torch.equal(got, F.interpolate(x, size=(5, 29), mode="bilinear", antialias=True))
    y = interpolate(x.numpy(), size=(5, 29), mode="bilinear", antialias=True)
    assert type(y) is np.ndarray
    np.testing.assert_array_equal(y, got.numpy())


def test_channels_last_tensors_stay_channels_last():
    x = _input(4).contiguous(memory_format=torch.channels_last)
    for mode in ("nearest", "bilinear"):
        got = interpolate(x, scale_factor=2, mode=mode)
        want = F.interpolate(x, scale_factor=2, mode=mode)
        assert got.is_contiguous(memory_format=torch.channels_last)
        assert want.is_contiguous(memory_format=torch.channels_last)
        _close(got, want, 1e-6)


def test_out_tensor_is_written_and_returned():
    x = _input(4)
    out = torch.full((2, 3, 14, 18), -1.0)
    assert interpolate(x, size=(14, 18), mode="bilinear", out=out) is out
    _close(out, F.interpolate(x, size=(14, 18), mode="bilinear"), 1e-5)
    with pytest.raises(ResamplexError, match="out: got a tensor for a NumPy input"):
        interpolate(x.numpy(), size=(14, 18), mode="bilinear", out=out)
    with pytest.raises(ResamplexError, match="out: expected a tensor for a tensor input"):
        interpolate(x, size=(14, 18), mode="bilinear", out=out.numpy())


# ------------------------------------------------------------------------------ refusals

SECRET = 12345.678  # a value that must never appear in a message


@pytest.mark.parametrize("make, error, where", [
    (lambda: torch.full((1, 1, 4, 4), SECRET, dtype=torch.int32), UnsupportedError, "input"),
    (lambda: torch.full((1, 1, 4, 4), SECRET, device="meta"), UnsupportedError, "CPU"),
    (lambda: torch.full((1, 1, 4, 4), SECRET).to_sparse(), UnsupportedError, "dense"),
    (lambda: torch.full((4, 4), SECRET), UnsupportedError, "input"),  # rank
    (lambda: torch.full((1, 1, 4, 4), SECRET, dtype=torch.complex64), UnsupportedError,
     "input"),
])
def test_refusals_describe_the_tensor_without_its_values(make, error, where):
    x = make()
    with pytest.raises(error) as info:
        interpolate(x, scale_factor=2, mode="nearest")
    message = str(info.value)
    assert where in message
    assert "12345" not in message and "tensor(" not in message


@needs_bf16
def test_bfloat16_refusal_does_not_print_the_tensor():
    x = torch.full((1, 1, 40, 40), SECRET, dtype=torch.bfloat16)
    with pytest.raises(UnsupportedError) as info:  # linear needs 3-D input
        interpolate(x, scale_factor=2, mode="linear")
    assert "12288" not in str(info.value) and "tensor(" not in str(info.value)


# ------------------------------------------------------------------------------ gradients

@pytest.mark.parametrize("up", [True, False], ids=["up", "down"])
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_gradients_equal_torchs_backward(case, dtype, up):
    mode, rank, kw = case
    size = _sizes(rank, up)
    x = _input(rank, dtype, seed=3).requires_grad_()
    x_torch = x.detach().clone().requires_grad_()
    y = interpolate(x, size=size, mode=mode, **kw)
    y_torch = F.interpolate(x_torch, size=size, mode=mode, **kw)
    assert y.requires_grad and y.grad_fn is not None
    weights = torch.rand(y_torch.shape, generator=torch.Generator().manual_seed(4),
                         dtype=torch.float64).to(dtype)
    (y * weights).sum().backward()
    (y_torch * weights).sum().backward()
    assert x.grad.dtype == dtype and x.grad.shape == x.shape
    _close(x.grad, x_torch.grad, 1e-12 if dtype == torch.float64 else 1e-5)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_width_one_forward_and_backward_are_torchs(mode):
    # at output width 1 torch's forward gives every row row 0's value
    # (compat.torch.repeats_first_row) while its backward is the adjoint of the right rows:
    # both are torch's here
    x = _input(4, torch.float64, seed=6).requires_grad_()
    x_torch = x.detach().clone().requires_grad_()
    kw = dict(size=(x.shape[2] + 3, 1), mode=mode, antialias=True)
    y = interpolate(x, **kw)
    y_torch = F.interpolate(x_torch, **kw)
    _close(y.detach(), y_torch.detach(), 1e-12)
    weights = torch.rand(y_torch.shape, generator=torch.Generator().manual_seed(4),
                         dtype=torch.float64)
    (y * weights).sum().backward()
    (y_torch * weights).sum().backward()
    _close(x.grad, x_torch.grad, 1e-12)


@pytest.mark.parametrize("mode, rank, kw", [
    ("nearest", 4, {}), ("bilinear", 4, {}), ("bicubic", 4, {"align_corners": True}),
    ("bilinear", 4, {"antialias": True}), ("trilinear", 5, {}), ("area", 3, {}),
])
def test_gradcheck(mode, rank, kw):
    """Our backward against the numerical Jacobian of our forward (float64)."""
    shape = {3: (1, 2, 5), 4: (1, 2, 4, 5), 5: (1, 1, 3, 4, 3)}[rank]
    x = torch.rand(shape, generator=torch.Generator().manual_seed(5),
                   dtype=torch.float64).requires_grad_()
    size = tuple(n + 2 for n in shape[2:])
    assert torch.autograd.gradcheck(lambda t: interpolate(t, size=size, mode=mode, **kw), (x,))


def test_a_sum_of_the_output_has_the_counts_as_gradient():
    """d/dx sum(nearest x2) = 4 for every input pixel (each feeds a 2x2 block): worked by hand."""
    x = torch.zeros((1, 1, 3, 5), requires_grad=True)
    interpolate(x, scale_factor=2, mode="nearest").sum().backward()
    assert torch.equal(x.grad, torch.full_like(x, 4.0))


def test_no_graph_under_no_grad_and_out_refused_with_grad():
    x = _input(4).requires_grad_()
    with torch.no_grad():
        y = interpolate(x, scale_factor=2, mode="bilinear")
    assert not y.requires_grad and y.grad_fn is None
    with pytest.raises(ResamplexError, match="out: .*not differentiable"):
        interpolate(x, scale_factor=2, mode="bilinear", out=torch.empty(2, 3, 14, 18))
