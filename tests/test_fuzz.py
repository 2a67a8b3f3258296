"""Issue #7, part 3: property-based fuzzing of every public function (Hypothesis).

Oracles: the float64 reference (core nearest/linear), PyTorch itself (``compat.torch``, when
torch is installed), and invariants that hold for every operator:

- a view (transposed, negative strides, step slicing, broadcast, unaligned) gives the result
  of a contiguous copy with the same memory order: bitwise for nearest-neighbour operators,
  within twice the SPEC §3 tolerance for weighted ones (the pass order follows the memory
  order, and since the channels-last merge of a short innermost axis also its contiguity);
- ``threads=1`` and ``threads=3`` give bitwise the same result;
- ``out=`` of any strides receives the same values;
- adjoints: the transpose of the reference operator (core), ``<A x, g> == <x, A^T g>``
  (DirectML);
- every core mode against the reference wherever its windows are small enough to enumerate;
- nearest-neighbour operators only copy input elements (bit patterns, NaN payloads included);
- finite input gives finite output; convex filters (linear, area, antialiased linear) stay
  within the input's range;
- garbage parameters (any type, any value) give a result or ``rx.ResamplexError``, and a
  refusal allocates nothing big first (tests/allocations.py).

A refusal is accepted only where the test can say why in advance (``_too_big``,
``_onnx_sizes_vanish``).

Profiles: ``RESAMPLEX_FUZZ=quick`` (default; derandomized, so CI is reproducible; about 30 s in
all) or ``RESAMPLEX_FUZZ=long`` (random, 25x the examples; run by ``ci/fuzz.sh``, which prints
the seed and passes ``--hypothesis-seed``). Failures print the example and a
``@reproduce_failure`` blob.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

import peers
import resamplex as rx
import reference as ref
from allocations import ALLOC_SLACK, allocation_peak
from resamplex import ascend, dml
from resamplex.compat import onnx as ronnx
from resamplex.compat import torch as rtorch     # works on NumPy arrays without torch

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

PROFILE = os.environ.get("RESAMPLEX_FUZZ", "quick")
if PROFILE not in ("quick", "long"):
    raise ValueError(f"RESAMPLEX_FUZZ: expected 'quick' or 'long', got {PROFILE!r}")
SCALE = 25 if PROFILE == "long" else 1
_HC = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def fuzz(examples: int):
    """Hypothesis settings for one fuzz test: ``examples`` in the quick profile."""
    return settings(max_examples=examples * SCALE, deadline=None, print_blob=True,
                    derandomize=PROFILE == "quick", suppress_health_check=_HC,
                    database=None)


#: Fuzz examples per test in the quick profile (RELIABILITY.md quotes the total).
EXAMPLES = dict(core_reference=100, core_modes=100, adjoint=80, dml=100, dml_grad=60,
                ascend=100, onnx=80, torch=60, garbage=400)

WEIGHTED = [np.float32, np.float64, np.float16, BF16, np.uint8, np.int8, np.int16, np.uint16]


# ------------------------------------------------------------------------------ strategies

def _unaligned(x: np.ndarray) -> np.ndarray:
    buf = np.zeros(x.nbytes + 1, np.uint8)
    u = np.frombuffer(buf.data, x.dtype, count=x.size, offset=1).reshape(x.shape) \
        if x.dtype.itemsize > 1 else buf[1:].reshape(x.shape)
    u[...] = x
    return u


@st.composite
def views(draw, shape, dtype, allow_broadcast=True, nonfinite=True):
    """An array of ``shape``/``dtype`` as some view: transposed, reversed, stepped, broadcast,
    unaligned or Fortran order; returns ``(view, description)``."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    base = ref.random_array(rng, shape, dtype)
    if nonfinite and np.dtype(dtype).kind == "f" and draw(st.booleans()) and base.size:
        flat = base.reshape(-1)
        k = draw(st.integers(0, base.size - 1))
        flat[k] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    kind = draw(st.sampled_from(["contiguous", "fortran", "transposed", "reversed", "stepped",
                                 "unaligned", "broadcast"] if allow_broadcast else
                                ["contiguous", "fortran", "transposed", "reversed", "stepped",
                                 "unaligned"]))
    nd = len(shape)
    if kind == "fortran":
        return np.asfortranarray(base), kind
    if kind == "transposed" and nd > 1:
        perm = draw(st.permutations(range(nd)))
        inv = np.argsort(perm)
        return np.ascontiguousarray(base.transpose(perm)).transpose(inv), kind
    if kind == "reversed":
        axes = draw(st.lists(st.integers(0, nd - 1), max_size=nd, unique=True))
        sl = tuple(slice(None, None, -1) if a in axes else slice(None) for a in range(nd))
        return np.ascontiguousarray(base[sl])[sl], kind
    if kind == "stepped":
        a = draw(st.integers(0, nd - 1))
        step = draw(st.integers(2, 3))
        big = np.repeat(base, step, axis=a)
        return big[(slice(None),) * a + (slice(None, None, step),)], kind
    if kind == "unaligned" and np.dtype(dtype).itemsize > 1:
        return _unaligned(base), kind
    if kind == "broadcast" and nd and shape[0] > 0:
        return np.broadcast_to(base[:1], shape), kind
    return base, "contiguous"


def _same_layout_copy(v: np.ndarray) -> np.ndarray:
    """A fresh array with the values and the memory order (|strides| order) of ``v``."""
    if v.ndim == 0 or 0 in v.strides:
        return np.ascontiguousarray(v)
    order = np.argsort([-abs(s) for s in v.strides], kind="stable")
    return np.ascontiguousarray(v.transpose(order)).transpose(np.argsort(order))


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).view(np.uint8).tobytes()


def _assert_bitwise(a: np.ndarray, b: np.ndarray, what: str):
    assert a.shape == b.shape and a.dtype == b.dtype, (what, a.shape, b.shape, a.dtype, b.dtype)
    assert _bits(a) == _bits(b), f"{what}: not bitwise equal"


def _finite_max(x: np.ndarray) -> float:
    v = np.abs(x.astype(np.float64))
    v = v[np.isfinite(v)]
    return float(v.max()) if v.size else 0.0


def _assert_close(a: np.ndarray, b: np.ndarray, xmax: float, what: str):
    """Two evaluations of the same tables, possibly in another pass order: each within the
    SPEC §3 tolerance of the exact value, so within twice that of each other."""
    assert a.shape == b.shape and a.dtype == b.dtype, (what, a.shape, b.shape, a.dtype, b.dtype)
    dt = a.dtype
    x, y = a.astype(np.float64), b.astype(np.float64)
    if dt.kind in "iu":
        tol = 1.0
    elif dt == np.float64:
        tol = 2e-12 * xmax
    elif dt == np.float32:
        tol = 8.0 * float(np.spacing(np.float32(xmax)))
    else:  # float16 / bfloat16: a neighbour either way, or the float32 error
        tol = max(2.0 * float(np.abs(y[np.isfinite(y)]).max(initial=0.0))
                  * (2**-7 if dt == BF16 else 2**-10), 8.0 * float(np.spacing(np.float32(xmax))))
    with np.errstate(invalid="ignore"):
        ok = (np.isnan(x) & np.isnan(y)) | (x == y) | (np.abs(x - y) <= tol)
    assert ok.all(), f"{what}: differs by {np.nanmax(np.abs(x - y))} (tolerance {tol})"


def _out_variant(draw, shape, dtype):
    kind = draw(st.sampled_from(["none", "fortran", "reversed", "stepped"]))
    if kind == "none" or 0 in shape:
        return None, kind
    if kind == "fortran":
        return np.empty(shape, dtype, order="F"), kind
    if kind == "reversed":
        return np.empty(shape, dtype)[(slice(None, None, -1),) * len(shape)], kind
    return np.empty(shape[:-1] + (2 * shape[-1],), dtype)[..., ::2], kind


def _check_invariants(call, x, kind, weighted, *, threads_ok=True):
    """Same-layout copy (bitwise for nearest, else within tolerance); thread counts bitwise;
    nearest copies only input elements. Returns the result."""
    got = call(x)
    if kind not in ("broadcast",):
        same = call(_same_layout_copy(x))
        if weighted:
            _assert_close(got, same, _finite_max(x), "same-layout copy")
        else:
            _assert_bitwise(got, same, "same-layout copy")
    if threads_ok:
        _assert_bitwise(call(x, threads=1), call(x, threads=3), "threads 1 vs 3")
    if not weighted:
        # only input elements, bit for bit
        isz = x.dtype.itemsize
        src = set(np.ascontiguousarray(x).view(np.uint8).reshape(-1, isz).view(f"V{isz}")
                  .reshape(-1).tolist()) if x.size else set()
        dst = np.ascontiguousarray(got).view(np.uint8).reshape(-1, isz).view(f"V{isz}")
        assert set(dst.reshape(-1).tolist()) <= src
    return got


# ------------------------------------------------------------------------------ core

@st.composite
def core_requests(draw, modes=("nearest", "linear"), max_len=7):
    nd = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(0, max_len), min_size=nd, max_size=nd)))
    axes = draw(st.lists(st.integers(-nd, nd - 1), min_size=1, max_size=nd,
                         unique_by=lambda a: a % nd))
    sizes, scales = [], []
    for a in axes:
        n = shape[a]
        sizes.append(0 if n == 0 else draw(st.integers(1, 9)))
        scales.append(draw(st.sampled_from([0.5, 1.0, 2.0, 3.0, 0.3, 1.7, 1.0 / 3, 2.5, 7.0,
                                            1e-3, 1e3, 1e-12, 1e12])))
    how = draw(st.sampled_from(["size", "scale", "both"]))
    size = sizes if how != "scale" else None
    scale = scales if how != "size" else None
    if how == "scale":
        n_out = [int(np.floor(shape[a] * s)) for a, s in zip(axes, scales)]
        assume(all((shape[a] == 0 and n == 0) or (shape[a] > 0 and 1 <= n <= 12)
                   for a, n in zip(axes, n_out)))
    dtype = draw(st.sampled_from(WEIGHTED))
    req = dict(size=size, scale=scale, axes=axes, mode=draw(st.sampled_from(modes)),
               coordinate_transform=draw(st.sampled_from(ref.TRANSFORMS)),
               nearest_mode=draw(st.sampled_from(ref.NEAREST_MODES)),
               rounding=draw(st.sampled_from(ref.ROUNDINGS)))
    return shape, dtype, req


@fuzz(EXAMPLES["core_reference"])
@given(core_requests(), st.data())
def test_fuzz_core_against_reference(request_, data):
    shape, dtype, req = request_
    x, kind = data.draw(views(shape, dtype))
    mode = req["mode"]
    assume(not ref.request_fragile(shape, req["size"], req["scale"], req["axes"], mode,
                                   req["coordinate_transform"], req["nearest_mode"]))
    note(f"view={kind} x.strides={x.strides}")
    got = _check_invariants(lambda v, **k: rx.resize(v, **req, **k), x, kind, mode != "nearest")
    kw = {k: req[k] for k in ("size", "scale", "axes", "mode", "coordinate_transform",
                              "nearest_mode")}
    want = ref.reference_resize(x, **kw)
    xmax = None
    if mode != "nearest":
        v = x.astype(np.float64)
        v = v[np.isfinite(v)]
        xmax = float(np.abs(v).max()) if v.size else 0.0
    ref.assert_matches(got, want, x.dtype, mode, rounding=req["rounding"], xmax=xmax)
    out, okind = _out_variant(data.draw, got.shape, got.dtype)
    if out is not None:
        res = rx.resize(x, **req, out=out)
        assert res is out
        if mode == "nearest":
            _assert_bitwise(out, got, f"out={okind}")
        else:
            ref.assert_matches(out, want, x.dtype, mode, rounding=req["rounding"], xmax=xmax)


def _too_big(shape, req) -> bool:
    """The one refusal a small drawn request may meet: an antialiased cubic window sized from
    the stretched support (4 r taps per output) when a tiny scale with a given size makes
    r = 1/scale ~ 1e12 -- issue 15 bug 1, which the native-tables work fixes (the window is
    clipped to the input). Only a refusal is excused: a result is checked as any other, so
    once the fix lands nothing is skipped, and this can go."""
    if not (req.get("antialias") and req["mode"] == "cubic" and req["scale"] is not None):
        return False
    return any(1.0 / s > 1e6 for s in req["scale"])


def _reference_or_none(x, shape, req):
    """The reference's value of the request (and its gain), or None where a window is too
    wide for it to enumerate (r ~ 1e12 antialiasing)."""
    kw = {k: req[k] for k in ("size", "scale", "axes", "mode", "coordinate_transform",
                              "nearest_mode", "antialias", "exclude_outside", "cubic_a")}
    try:
        return (ref.reference_resize(x, **kw),
                ref.request_gain(shape, **{k: v for k, v in kw.items()}))
    except ValueError as exc:          # "too wide to enumerate"
        note(f"no reference: {exc}")
        return None


@fuzz(EXAMPLES["core_modes"])
@given(core_requests(modes=("cubic", "area", "linear")), st.data())
def test_fuzz_core_all_modes_invariants(request_, data):
    shape, dtype, req = request_
    aa = data.draw(st.booleans()) and req["mode"] in ("linear", "cubic")
    req = dict(req, antialias=aa, exclude_outside=data.draw(st.booleans()),
               cubic_a=data.draw(st.sampled_from([-0.75, -0.5, -1.0, 0.0])))
    x, kind = data.draw(views(shape, dtype))
    note(f"view={kind}")
    try:
        got = _check_invariants(lambda v, **k: rx.resize(v, **req, **k), x, kind, True)
    except rx.ResamplexError as exc:
        if not _too_big(shape, req):
            raise
        assert re.search(r"\bsize\b|\bscale\b", str(exc)), exc
        return
    # (finite data only: with a NaN, an exact weight of ~1e-17 that float64 evaluates to 0 --
    # an antialiased window's last tap -- decides whether the NaN spreads)
    finite = bool(np.isfinite(x.astype(np.float64)).all())
    expected = _reference_or_none(x, shape, req) if finite else None
    if expected is not None:
        want, gain = expected
        ref.assert_matches(got, want, x.dtype, req["mode"], rounding=req["rounding"],
                           xmax=_finite_max(x) * gain, passes=len(req["axes"]))
    xf = x.astype(np.float64)
    if x.size and np.isfinite(xf).all():
        g = got.astype(np.float64)
        assert np.isfinite(g).all(), "finite input gave a non-finite output"
        convex = req["mode"] in ("area", "linear")   # non-negative weights summing to 1
        if convex and got.size:
            lo, hi = xf.min(), xf.max()
            slack = 1.0 if x.dtype.kind in "iu" else 1e-3 * max(1.0, abs(lo), abs(hi))
            assert (g >= lo - slack).all() and (g <= hi + slack).all(), \
                "a convex filter left the input's range"


@st.composite
def adjoint_requests(draw):
    shape, _, req = draw(core_requests(modes=("nearest", "linear", "cubic", "area")))
    assume(0 not in shape)
    aa = draw(st.booleans()) and req["mode"] in ("linear", "cubic")
    req = dict(req, antialias=aa, exclude_outside=draw(st.booleans()))
    req.pop("rounding")
    return shape, req


@fuzz(EXAMPLES["adjoint"])
@given(adjoint_requests(), st.integers(0, 2**32 - 1), st.booleans())
def test_fuzz_adjoint_identity(request_, seed, through_plan):
    shape, req = request_
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    try:
        y = rx.resize(x, **req)
    except rx.ResamplexError as exc:
        if not _too_big(shape, req):
            raise
        assert re.search(r"\bsize\b|\bscale\b", str(exc)), exc
        return
    g = rng.standard_normal(y.shape)
    if through_plan:
        plan = rx.Resampler(shape, req.pop("size"), **req)
        at_g = plan.adjoint(g)
        _assert_bitwise(plan(x), y, "plan vs resize")
    else:
        size = req.pop("size")
        at_g = rx.resize_adjoint(g, shape, size, **req)
    # the transpose of the reference operator (not the library's own forward: an identity
    # with the library's forward holds for wrong tables too)
    kw = {k: req[k] for k in ("scale", "axes", "mode", "coordinate_transform",
                              "nearest_mode", "antialias", "exclude_outside")}
    size = y.shape if req["axes"] is None else [y.shape[a] for a in req["axes"]]
    if req["mode"] == "nearest" and ref.request_fragile(shape, size, **{
            k: kw[k] for k in ("scale", "axes", "mode", "coordinate_transform",
                               "nearest_mode")}):
        return                        # a float64 near-tie: either index is right
    try:
        want = ref.reference_adjoint(g, shape, size, **kw)
    except ValueError as exc:          # a window too wide for the reference to enumerate
        note(f"no reference: {exc}")
        return
    gain = ref.request_gain(shape, size, transpose=True, **kw)
    ref.assert_matches(at_g, want, np.float64, "linear", xmax=float(np.abs(g).max()) * gain)


# ------------------------------------------------------------------------------ DirectML

_DML_DTYPES = [np.float32, np.float16, np.int8, np.uint8]


@st.composite
def dml_calls(draw):
    op = draw(st.sampled_from(["resample", "resample1", "resample2", "resample3",
                               "upsample_2d"]))
    nd = 4 if op == "upsample_2d" else draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=nd, max_size=nd)))
    dtype = draw(st.sampled_from(_DML_DTYPES[:2] if op == "upsample_2d" else _DML_DTYPES))
    mode = draw(st.sampled_from(["nearest_neighbor", "linear"]))
    if op == "upsample_2d":
        k = tuple(draw(st.lists(st.integers(1, 4), min_size=2, max_size=2)))
        return op, shape, dtype, lambda x, **o: dml.upsample_2d(x, k, interpolation_mode=mode,
                                                                 **o), mode == "linear"
    scales = draw(st.lists(st.sampled_from([0.25, 0.5, 0.7, 1.0, 1.3, 2.0, 3.0, 1e-3, 1e3]),
                           min_size=nd, max_size=nd))
    out_shape = draw(st.one_of(st.none(), st.lists(st.integers(1, 9), min_size=nd,
                                                    max_size=nd)))
    if out_shape is None:
        lengths = [int(np.floor(n * s)) for n, s in zip(shape, scales)]
        assume(all(1 <= n <= 12 for n in lengths))
    kw = dict(interpolation_mode=mode, output_shape=out_shape,
              rounding=draw(st.sampled_from(ref.ROUNDINGS)))
    args = [scales]
    if op != "resample":
        offs = st.lists(st.sampled_from([0.0, 0.5, -0.5, 0.25, 3.0, -7.5, 1e6, -1e6]),
                        min_size=nd, max_size=nd)
        args += [draw(offs), draw(offs)]
    if op in ("resample2", "resample3"):
        kw["rounding_direction"] = draw(st.sampled_from(["increasing", "decreasing"]))
    if op == "resample3":
        kw["antialiased"] = draw(st.booleans())
    fn = getattr(dml, op)
    return op, shape, dtype, (lambda x, **o: fn(x, *args, **kw, **o)), mode == "linear"


@fuzz(EXAMPLES["dml"])
@given(dml_calls(), st.data())
def test_fuzz_dml(call_, data):
    op, shape, dtype, call, weighted = call_
    x, kind = data.draw(views(shape, dtype))
    note(f"{op} view={kind}")
    got = _check_invariants(call, x, kind, weighted)
    if np.dtype(dtype).kind == "f" and np.isfinite(x.astype(np.float64)).all():
        assert np.isfinite(got.astype(np.float64)).all()
    out, okind = _out_variant(data.draw, got.shape, got.dtype)
    if out is not None:
        assert call(x, out=out) is out
        if weighted:
            _assert_close(out, got, _finite_max(x), f"out={okind}")
        else:
            _assert_bitwise(out, got, f"out={okind}")


@st.composite
def dml_grad_calls(draw):
    nd = draw(st.integers(1, 4))
    in_shape = tuple(draw(st.lists(st.integers(1, 6), min_size=nd, max_size=nd)))
    out_shape = tuple(draw(st.lists(st.integers(1, 7), min_size=nd, max_size=nd)))
    scales = draw(st.lists(st.sampled_from([0.5, 0.7, 1.0, 1.5, 2.0, 3.0]), min_size=nd,
                           max_size=nd))
    offs = st.lists(st.sampled_from([0.0, 0.5, -0.5, 0.25, 2.0]), min_size=nd, max_size=nd)
    a, b = draw(offs), draw(offs)
    mode = draw(st.sampled_from(["nearest_neighbor", "linear"]))
    grad1 = draw(st.booleans())
    direction = draw(st.sampled_from(["increasing", "decreasing"]))
    return in_shape, out_shape, scales, a, b, mode, grad1, direction


@fuzz(EXAMPLES["dml_grad"])
@given(dml_grad_calls(), st.integers(0, 2**32 - 1))
def test_fuzz_dml_grad_is_the_adjoint(call_, seed):
    in_shape, out_shape, scales, a, b, mode, grad1, direction = call_
    rng = np.random.default_rng(seed)
    g = rng.standard_normal(out_shape).astype(np.float32)
    from test_dml import ref_linear_matrix, ref_nearest     # the SPEC §4 float32 map
    if grad1:
        back = dml.resample_grad1(g, in_shape, scales, a, b, interpolation_mode=mode,
                                  rounding_direction=direction)
        again = dml.resample_grad1(g, in_shape, scales, a, b, interpolation_mode=mode,
                                   rounding_direction=direction, threads=1)
        rule = {"increasing": "ceil", "decreasing": "floor"}[direction]
    else:
        back = dml.resample_grad(g, in_shape, scales, a, b, interpolation_mode=mode)
        again = dml.resample_grad(g, in_shape, scales, a, b, interpolation_mode=mode, threads=1)
        rule = "half_up"
    _assert_bitwise(back, again, "grad threads")
    # the transpose of the forward built from the float32 map (not from the library), one
    # axis at a time
    want = g.astype(np.float64)
    gain = 1.0
    for d, (n_in, n_out) in enumerate(zip(in_shape, out_shape)):
        if mode == "linear":
            W = ref_linear_matrix(n_in, n_out, scales[d], a[d], b[d])
        else:
            W = np.zeros((n_out, n_in))
            W[np.arange(n_out), ref_nearest(n_in, n_out, scales[d], a[d], b[d], rule)] = 1.0
        want = np.moveaxis(np.tensordot(W.T, np.moveaxis(want, d, 0), axes=1), 0, d)
        gain *= float(np.abs(W).sum(axis=0).max(initial=1.0))
    ref.assert_matches(back, want, np.float32, "linear", xmax=float(np.abs(g).max()) * gain,
                       passes=len(in_shape))


# ------------------------------------------------------------------------------ Ascend

@st.composite
def ascend_calls(draw):
    op = draw(st.sampled_from(["upsample_nearest", "upsample_nearest_exact1d",
                               "upsample_nearest_exact2d", "upsample_nearest_exact3d",
                               "upsample_nearest1d", "upsample_nearest2d"]))
    nsp = {"upsample_nearest_exact1d": 1, "upsample_nearest1d": 1, "upsample_nearest_exact3d": 3,
           "upsample_nearest_exact2d": 2, "upsample_nearest2d": 2}.get(op)
    if op == "upsample_nearest":
        nsp = draw(st.sampled_from([1, 2]))
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=2, max_size=2))
                  + draw(st.lists(st.integers(1, 7), min_size=nsp, max_size=nsp)))
    sizes = draw(st.lists(st.integers(1, 11), min_size=nsp, max_size=nsp))
    dtype = draw(st.sampled_from([np.float32, np.float16, BF16]))
    fn = getattr(ascend, op)
    kw = {}
    sc = st.one_of(st.none(), st.sampled_from([0.0, 0.5, 1.0, 1.09, 2.0, 3.7, 1e-3, 1e6]))
    if op == "upsample_nearest":
        kw = dict(exact_mode=draw(st.booleans()),
                  scales_h=draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 0.3, 1e3])),
                  scales_w=draw(st.sampled_from([0.0, 0.5, 1.0, 2.0])))
    elif op == "upsample_nearest_exact1d":
        kw = dict(scales=draw(sc))
    elif op == "upsample_nearest_exact2d":
        kw = dict(scales_h=draw(sc), scales_w=draw(sc))
    elif op == "upsample_nearest_exact3d":
        # all three given must agree with the sizes; give none or consistent ones
        if draw(st.booleans()):
            kw = dict(scales_d=sizes[0] / shape[2], scales_h=sizes[1] / shape[3],
                      scales_w=sizes[2] / shape[4])
    return op, shape, dtype, (lambda x, **o: fn(x, sizes, **kw, **o))


@fuzz(EXAMPLES["ascend"])
@given(ascend_calls(), st.data())
def test_fuzz_ascend(call_, data):
    op, shape, dtype, call = call_
    x, kind = data.draw(views(shape, dtype))
    note(f"{op} view={kind}")
    got = _check_invariants(call, x, kind, False)
    out, okind = _out_variant(data.draw, got.shape, got.dtype)
    if out is not None:
        assert call(x, out=out) is out
        _assert_bitwise(out, got, f"out={okind}")


# ------------------------------------------------------------------------------ ONNX

@st.composite
def onnx_calls(draw):
    nd = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=nd, max_size=nd)))
    mode = draw(st.sampled_from(ronnx.MODES))
    transform = draw(st.sampled_from(ronnx.COORDINATE_TRANSFORMATION_MODES))
    kw = dict(mode=mode, coordinate_transformation_mode=transform,
              nearest_mode=draw(st.sampled_from(ronnx.NEAREST_MODES)),
              cubic_coeff_a=draw(st.sampled_from([-0.75, -0.5])),
              exclude_outside=draw(st.sampled_from([0, 1])),
              antialias=int(mode != "nearest" and draw(st.booleans())),
              extrapolation_value=draw(st.sampled_from([0.0, -2.5, 1e3])),
              flavour="reference")  # any rank and dtype (tests/test_compat_onnx.py: ORT's)
    if draw(st.booleans()):
        scales = draw(st.lists(st.sampled_from([0.5, 0.6, 1.0, 1.5, 2.0, 3.0]), min_size=nd,
                               max_size=nd))
        assume(all(int(np.floor(n * s)) >= 1 for n, s in zip(shape, scales)))
        kw["scales"] = scales
    else:
        kw["sizes"] = draw(st.lists(st.integers(1, 9), min_size=nd, max_size=nd))
        kw["keep_aspect_ratio_policy"] = draw(st.sampled_from(ronnx.KEEP_ASPECT_RATIO_POLICIES))
    if transform == "tf_crop_and_resize":
        starts = draw(st.lists(st.sampled_from([0.0, 0.1, -0.3, 0.5]), min_size=nd, max_size=nd))
        ends = draw(st.lists(st.sampled_from([1.0, 0.9, 1.4, 0.6]), min_size=nd, max_size=nd))
        kw["roi"] = starts + ends
    dtype = draw(st.sampled_from(WEIGHTED if mode != "nearest" else
                                 WEIGHTED + [np.int32, np.complex64]))
    return shape, dtype, kw


def _onnx_sizes_vanish(shape, kw) -> bool:
    """ONNX Resize-19 ``keep_aspect_ratio_policy``: one scale, the min ("not_larger") or max
    ("not_smaller") of ``sizes[i] / n_in``, serves every axis, and the length is
    ``round(scale * n_in)`` (``int(x + 0.5)``) -- which can be 0 for a short axis."""
    policy = kw.get("keep_aspect_ratio_policy", "stretch")
    if kw.get("sizes") is None or policy == "stretch":
        return False
    ratios = [m / n for m, n in zip(kw["sizes"], shape)]
    s = min(ratios) if policy == "not_larger" else max(ratios)
    return any(int(s * n + 0.5) < 1 for n in shape)


@fuzz(EXAMPLES["onnx"])
@given(onnx_calls(), st.data())
def test_fuzz_onnx(call_, data):
    shape, dtype, kw = call_
    x, kind = data.draw(views(shape, dtype))
    note(f"view={kind}")
    if _onnx_sizes_vanish(shape, kw):
        with pytest.raises(rx.ResamplexError, match=r"\bsizes\b"):
            ronnx.resize(x, **kw)
        return
    # nearest copies input elements, except the reference's fills: extrapolation
    # (tf_crop_and_resize) and the zeroed outputs of nearest with exclude_outside
    got = _check_invariants(lambda v, **o: ronnx.resize(v, **kw, **o), x, kind,
                            kw["mode"] != "nearest" or kw["exclude_outside"] or
                            kw["coordinate_transformation_mode"] == "tf_crop_and_resize")
    if np.dtype(dtype).kind == "f" and np.isfinite(x.astype(np.float64)).all():
        assert np.isfinite(got.astype(np.float64)).all()


# ------------------------------------------------------------------------------ PyTorch

@st.composite
def torch_calls(draw):
    mode = draw(st.sampled_from(rtorch.MODES if rtorch is not None else ["nearest"]))
    rank = draw(st.sampled_from(rtorch.RANKS[mode])) if rtorch is not None else 4
    nsp = rank - 2
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=2, max_size=2))
                  + draw(st.lists(st.integers(1, 7), min_size=nsp, max_size=nsp)))
    aa = mode in ("bilinear", "bicubic") and draw(st.booleans())
    dtypes = rtorch.DTYPES_AA if aa else rtorch.DTYPES[mode]
    dname = draw(st.sampled_from(dtypes))
    kw = dict(mode=mode, antialias=aa)
    if mode not in ("nearest", "nearest-exact", "area"):
        kw["align_corners"] = draw(st.booleans())
    if draw(st.booleans()):
        kw["size"] = draw(st.lists(st.integers(1, 9), min_size=nsp, max_size=nsp))
    else:
        sf = draw(st.lists(st.sampled_from([0.5, 0.75, 1.0, 1.09, 1.5, 2.0, 3.0]),
                           min_size=nsp, max_size=nsp))
        assume(all(int(n * s) >= 1 for n, s in zip(shape[2:], sf)))
        kw["scale_factor"] = sf
        kw["recompute_scale_factor"] = draw(st.sampled_from([None, True, False]))
    return shape, dname, kw


#: float32 tolerance against torch, in ulp of max|x|, where 8 is not enough: torch's bicubic
#: takes its coordinates and weights from float32 arithmetic, and the cubic's slope turns
#: their rounding into up to 16 ulp of max|x| (torch float32 against torch float64, 3000
#: random cases) -- compat.torch follows the same float32 map, but not every rounding step,
#: and differs from torch by up to 22.
TORCH_ULPS32 = {"bicubic": 32.0}


def test_torch_antialias_width_one():
    # torch's separable kernel gives every row the value of row 0 at output width 1 (its
    # height pass reads the taps of its inner loop's first element): the door does the same
    # (compat.torch.repeats_first_row); (1, 1, 2, 1) -> (3, 1) is torch's [a, a, a]
    pytest.importorskip("torch")
    x = np.random.default_rng(3).random((1, 1, 4, 5)).astype(np.float32)
    kw = dict(size=(5, 1), mode="bilinear", antialias=True, align_corners=False)
    got = rtorch.interpolate(x, **kw)
    want = peers.torch_interpolate(x, **kw)
    peers.assert_close_to_peer(got, want, _finite_max(x), "against torch")
    two = np.array([[[[1.0], [5.0]]]], np.float32)
    kw = dict(size=(3, 1), mode="bilinear", antialias=True)
    got = rtorch.interpolate(two, **kw)
    np.testing.assert_array_equal(got, peers.torch_interpolate(two, **kw))
    assert (got == got[:, :, :1]).all()


@fuzz(EXAMPLES["torch"])
@given(torch_calls(), st.data())
def test_fuzz_torch(call_, data):
    pytest.importorskip("torch")
    shape, dname, kw = call_
    dtype = BF16 if dname == "bfloat16" else np.dtype(dname)
    # finite values only: SPEC §3 drops zero-weight taps, so a NaN next to an output that sits
    # on a sample does not reach it here, where torch's 0 * NaN does
    x, kind = data.draw(views(shape, dtype, allow_broadcast=False, nonfinite=False))
    note(f"view={kind}")
    mode = kw["mode"]
    nearest = mode in ("nearest", "nearest-exact")
    got = _check_invariants(lambda v, **o: rtorch.interpolate(v, **kw, **o), x, kind,
                            not nearest)
    try:
        want = peers.torch_interpolate(x, **kw)
    except RuntimeError as exc:  # torch's own internal asserts (uint8 channels-last kernels)
        note(f"torch failed: {exc}")
        assume(False)
    assert got.shape == want.shape
    # index choices, and torch's uint8 fixed point, are bit-exact (SPEC §6); float results
    # within the evaluation errors of both (peers.assert_close_to_peer)
    peers.assert_close_to_peer(got, want, _finite_max(x), "against torch",
                               ulps32=TORCH_ULPS32.get(mode, 8.0))


# ------------------------------------------------------------------------------ garbage

def _garbage():
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-2**70, 2**70),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
        st.binary(max_size=3), st.sampled_from([1j, complex('nan'), 1e10 + 1j]),
        st.sampled_from([0, 1, -1, 2**31, 2**63, 2**64, 1e-320, 1e308, -0.0, "linear",
                         "nearest", "half_pixel", "6_2", "atlas_a2", "NCHW", np.float32,
                         object, np.int64(3), np.float64(2.5)]))
    return st.one_of(scalars, st.lists(scalars, max_size=6),
                     st.lists(st.lists(scalars, max_size=3), max_size=3))


@fuzz(EXAMPLES["garbage"])
@given(st.data())
def test_fuzz_garbage_parameters(data):
    """Any value for any one or two parameters of any public function: a result or
    ResamplexError (having allocated nothing big first), never anything else."""
    from test_reliability_inputs import FUNCTIONS
    fn = data.draw(st.sampled_from(FUNCTIONS), label="function")
    kw = fn.base()
    params = data.draw(st.lists(st.sampled_from(sorted(fn.params)), min_size=1, max_size=2,
                                unique=True), label="parameters")
    for p in params:
        kw[p] = data.draw(_garbage(), label=p)
    exc, peak = allocation_peak(lambda: fn.call(**kw))
    if exc is None:
        return
    if not isinstance(exc, rx.ResamplexError):
        raise exc
    assert peak < ALLOC_SLACK, f"{fn.name}({params}): allocated {peak >> 20} MiB, then {exc}"
