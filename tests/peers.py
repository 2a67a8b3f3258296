"""Live peers as oracles (PyTorch, onnx.reference), and the rule a front door that reproduces
another library is held to against it (SPEC §3 last paragraph, §6).

Never imports resamplex.
"""

import warnings

import numpy as np

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - the test extras install it
    BF16 = None


def torch_interpolate(x, **kw):
    """``torch.nn.functional.interpolate`` on a NumPy array (bfloat16 through its bits); the
    result as NumPy, same dtype. Raises ImportError without torch."""
    import torch
    dt = x.dtype
    a = np.ascontiguousarray(x.view(np.uint16) if dt == BF16 else x)
    t = torch.from_numpy(a if a.flags.writeable else a.copy())   # torch wants writeable
    if dt == BF16:
        t = t.view(torch.bfloat16)
    r = torch.nn.functional.interpolate(t, **kw)
    if dt == BF16:
        return r.contiguous().view(torch.int16).numpy().view(BF16)
    return r.contiguous().numpy()


def onnx_resize(X, roi=None, scales=None, sizes=None, **attrs):
    """ONNX ``Resize`` through ``onnx.reference``. Raises ImportError without onnx."""
    from onnx import helper
    from onnx.reference import ReferenceEvaluator
    feeds = {"X": X}
    names = ["X"]
    for name, value, dtype in (("roi", roi, np.float32), ("scales", scales, np.float32),
                               ("sizes", sizes, np.int64)):
        names.append(name if value is not None else "")
        if value is not None:
            feeds[name] = np.asarray(value, dtype)
    while names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", names, ["Y"], **attrs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ReferenceEvaluator(node).run(None, feeds)[0]


def _ulp16(v, dtype):
    """One unit in the last place of ``|v|`` in float16 / bfloat16 (at least the smallest
    subnormal)."""
    v = np.abs(np.asarray(v, dtype=np.float64))
    if dtype == np.float16:
        return np.maximum(np.spacing(v.astype(np.float16)).astype(np.float64), 2.0**-24)
    e = np.floor(np.log2(np.maximum(v, 2.0**-126)))
    return 2.0 ** (e - 7)


def assert_close_to_peer(got, want, xmax, what="", ulps32=8.0):
    """A result against the same call of the library it reproduces, both in the same dtype.

    Both compute in float32 (float64 for float64) from the same coordinates and round once, so
    they differ by the two float32 evaluation errors -- ``ulps32`` (8) ulp of ``max|x|``; more
    for torch's bicubic, see test_fuzz.TORCH_ULPS32 -- and, for 16-bit
    floats, by the final rounding: one unit in the last place of the value either way, plus one
    unit in the last place of ``max|x|`` because torch's 3-d area (adaptive average pooling)
    keeps its sums in the 16-bit type (half such a unit measured on 1500 random cases).
    float64: 1e-12 of ``max|x|``. Integers and every other dtype: bit for bit.
    """
    assert got.shape == want.shape and got.dtype == want.dtype, \
        (what, got.shape, want.shape, got.dtype, want.dtype)
    dt = got.dtype
    if not (dt.kind == "f" or dt == BF16):
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), f"{what}: not bitwise"
        return
    a, b = got.astype(np.float64), want.astype(np.float64)
    tol32 = ulps32 * float(np.spacing(np.float32(xmax)))
    if dt == np.float64:
        tol = 1e-12 * xmax
    elif dt == np.float32:
        tol = tol32
    else:
        tol = _ulp16(b, dt) + _ulp16(xmax, dt) + tol32
    with np.errstate(invalid="ignore"):
        ok = (np.isnan(a) & np.isnan(b)) | (a == b) | (np.abs(a - b) <= tol)
    assert ok.all(), (f"{what}: differs by {np.nanmax(np.abs(a - b))} where the tolerance is "
                      f"{np.min(tol)}")
