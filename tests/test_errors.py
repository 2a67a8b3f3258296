"""SPEC §8: bad input raises ResamplexError / UnsupportedError naming the parameter; awkward
but valid input (empty, read-only, broadcast, unaligned, big-endian, > 2**31 elements) works."""

import re

import numpy as np
import pytest

import resamplex as rx
import reference as ref
from allocations import ALLOC_SLACK, allocation_peak

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

X = np.zeros((4, 6), np.float32)


def test_exception_hierarchy():
    assert issubclass(rx.ResamplexError, ValueError)
    assert issubclass(rx.UnsupportedError, rx.ResamplexError)
    assert issubclass(rx.UnsupportedError, TypeError)


# --------------------------------------------------------------------------------------------
# rx.resize: bad parameter values -> ResamplexError naming the parameter
# --------------------------------------------------------------------------------------------

BAD_CALLS = [
    # (id, kwargs, regex for the parameter name)
    ("size-too-short", dict(size=[3]), "size"),
    ("size-too-long", dict(size=[3, 4, 5]), "size"),
    ("size-vs-axes", dict(size=[3], axes=[0, 1]), "size"),
    ("scale-too-short", dict(scale=[2.0]), "scale"),
    ("scale-vs-axes", dict(scale=[2.0, 2.0, 2.0], axes=[0, 1]), "scale"),
    ("size-fractional", dict(size=[2.5, 3]), "size"),
    ("size-string", dict(size=["3", 3]), "size"),
    ("size-none-entry", dict(size=[None, 3]), "size"),
    ("size-zero", dict(size=[0, 3]), "size"),
    ("size-negative", dict(size=[-1, 3]), "size"),
    ("size-negative-axes", dict(size=[-4], axes=[1]), "size"),
    ("scale-zero", dict(scale=[0.0, 1.0]), "scale"),
    ("scale-negative", dict(scale=[-2.0, 1.0]), "scale"),
    ("scale-nan", dict(scale=[float("nan"), 1.0]), "scale"),
    ("scale-inf", dict(scale=[float("inf"), 1.0]), "scale"),
    ("scale-neg-inf", dict(scale=[1.0, float("-inf")]), "scale"),
    ("scale-string", dict(scale=["2", 1.0]), "scale"),
    ("scale-gives-zero", dict(scale=[0.1, 1.0]), "scale"),       # floor(4 * 0.1) = 0
    ("size-and-scale-zero", dict(size=[3, 3], scale=[0.0, 1.0]), "scale"),
    ("neither", dict(), "size|scale"),
    ("axes-repeated", dict(size=[3, 3], axes=[1, 1]), "axes"),
    ("axes-repeated-negative", dict(size=[3, 3], axes=[1, -1]), "axes"),
    ("axes-out-of-range", dict(size=[3], axes=[2]), "axes"),
    ("axes-out-of-range-negative", dict(size=[3], axes=[-3]), "axes"),
    ("axes-float", dict(size=[3], axes=[0.0]), "axes"),
    ("axes-empty", dict(size=[], axes=[]), "axes|size"),
    ("mode-unknown", dict(size=[3, 3], mode="bilinear"), "mode"),
    ("mode-case", dict(size=[3, 3], mode="Linear"), "mode"),
    ("mode-none", dict(size=[3, 3], mode=None), "mode"),
    ("transform-unknown", dict(size=[3, 3], coordinate_transform="half_pixels"),
     "coordinate_transform"),
    ("transform-crop", dict(size=[3, 3], coordinate_transform="tf_crop_and_resize"),
     "coordinate_transform"),
    ("nearest-mode-unknown", dict(size=[3, 3], mode="nearest", nearest_mode="round"),
     "nearest_mode"),
    ("nearest-mode-unknown-linear", dict(size=[3, 3], nearest_mode="nearest"), "nearest_mode"),
    ("rounding-unknown", dict(size=[3, 3], rounding="half_up"), "rounding"),
    ("rounding-unknown-nearest", dict(size=[3, 3], mode="nearest", rounding="truncate"),
     "rounding"),
    ("threads-zero", dict(size=[3, 3], threads=0), "threads"),
    ("threads-negative", dict(size=[3, 3], threads=-2), "threads"),
    ("threads-float", dict(size=[3, 3], threads=1.5), "threads"),
    ("threads-string", dict(size=[3, 3], threads="2"), "threads"),
]


@pytest.mark.parametrize("dname", ["float32", "uint8"])
@pytest.mark.parametrize("kwargs,param", [pytest.param(k, p, id=i) for i, k, p in BAD_CALLS])
def test_resize_bad_values(kwargs, param, dname):
    x = X.astype(dname)
    with pytest.raises(rx.ResamplexError, match=param):
        rx.resize(x, **kwargs)


@pytest.mark.parametrize("kwargs,param", [pytest.param(k, p, id=i) for i, k, p in BAD_CALLS
                                          if "threads" not in k])
def test_resampler_bad_values(kwargs, param):
    kwargs = dict(kwargs)
    size = kwargs.pop("size", None)
    with pytest.raises(rx.ResamplexError, match=param):
        rx.Resampler(X.shape, size, **kwargs)


@pytest.mark.parametrize("kwargs,param", [pytest.param(k, p, id=i) for i, k, p in BAD_CALLS
                                          if "threads" not in k])
def test_resize_adjoint_bad_values(kwargs, param):
    kwargs = dict(kwargs)
    size = kwargs.pop("size", None)
    g = np.zeros((3, 3), np.float32)
    with pytest.raises(rx.ResamplexError, match=param):
        rx.resize_adjoint(g, X.shape, size, **kwargs)


def test_zero_size_only_for_empty_axes():
    # an input axis of length 0 can keep length 0 and nothing else
    e = np.zeros((0, 6), np.float32)
    assert rx.resize(e, [0, 3]).shape == (0, 3)
    with pytest.raises(rx.ResamplexError, match="size"):
        rx.resize(e, [2, 3])
    with pytest.raises(rx.ResamplexError, match="size"):
        rx.resize(X, [0, 3])
    with pytest.raises(rx.ResamplexError, match="size"):
        rx.Resampler((0, 6), [1, 3])


@pytest.mark.parametrize("threads", [0, -1, 2.0, "1"])
def test_threads_on_plan_and_setter(threads):
    plan = rx.Resampler(X.shape, [3, 3])
    with pytest.raises(rx.ResamplexError, match="threads"):
        plan(X, threads=threads)
    with pytest.raises(rx.ResamplexError, match="threads"):
        plan.adjoint(np.zeros((3, 3), np.float32), threads=threads)
    before = rx.get_num_threads()
    with pytest.raises(rx.ResamplexError):
        rx.set_num_threads(threads)
    assert rx.get_num_threads() == before


# --------------------------------------------------------------------------------------------
# out=
# --------------------------------------------------------------------------------------------

def _ro(a):
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("case", ["shape", "ndim", "dtype", "dtype-f64", "readonly", "list",
                                  "overlap-same", "overlap-partial"])
def test_bad_out(mode, case):
    base = np.zeros((8, 16), np.float32)
    x = base[:, :8]                    # (8, 8)
    size = [4, 4]
    kw = {}
    if case == "shape":
        out = np.empty((4, 5), np.float32)
    elif case == "ndim":
        out = np.empty((4, 4, 1), np.float32)
    elif case == "dtype":
        # an out of another registry dtype converts (SPEC §2); one outside the registry
        # cannot be a conversion's output
        out = np.empty((4, 4), np.complex64)
    elif case == "dtype-f64":
        out = np.empty((4, 4), np.float64)
        kw = dict(dtype=np.float32)    # an explicit dtype= that out disagrees with
    elif case == "readonly":
        out = _ro(np.empty((4, 4), np.float32))
    elif case == "list":
        out = [[0.0] * 4] * 4
    elif case == "overlap-same":
        out = x[:4, :4]
    else:
        out = base[:4, 6:10]           # columns 6, 7 are inside x
        assert np.shares_memory(out, x)
    before = x.copy()
    with pytest.raises(rx.ResamplexError, match="out"):
        rx.resize(x, size, mode=mode, out=out, **kw)
    np.testing.assert_array_equal(x, before)
    with pytest.raises(rx.ResamplexError, match="out"):
        rx.Resampler(x.shape, size, mode=mode, **kw)(x, out=out)


def _self_overlapping(kind, shape, dtype):
    """A writeable ``out`` of ``shape`` whose elements overlap each other (issue 15, bug 3)."""
    dtype = np.dtype(dtype)
    isz = dtype.itemsize
    if kind == "zero-stride":                      # every element is the same one
        return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), shape, (0,) * len(shape))
    if kind == "zero-stride-inner":                # rows fine, columns collapsed
        base = np.zeros(shape[0], dtype)
        return np.lib.stride_tricks.as_strided(base, shape, (isz,) + (0,) * (len(shape) - 1))
    # rows overlap by half a row: row i + 1 starts in the middle of row i
    base = np.zeros(shape[0] * shape[1], dtype)
    return np.lib.stride_tricks.as_strided(base, shape, (isz * (shape[1] // 2), isz))


@pytest.mark.parametrize("kind", ["zero-stride", "zero-stride-inner", "half-rows"])
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_out_overlapping_itself_is_refused(kind, mode):
    # Issue 15, bug 3: as_strided(np.zeros(1), (3,), (0,)) was accepted and three outputs
    # raced for one element.
    x = np.arange(48, dtype=np.float32).reshape(6, 8)
    out = _self_overlapping(kind, (4, 6), np.float32)
    assert out.flags.writeable
    with pytest.raises(rx.ResamplexError, match=r"\bout\b.*overlap"):
        rx.resize(x, [4, 6], mode=mode, out=out)
    plan = rx.Resampler(x.shape, [4, 6], mode=mode)
    with pytest.raises(rx.ResamplexError, match=r"\bout\b.*overlap"):
        plan(x, out=out)
    g = np.ones((4, 6), np.float32)
    grad_out = _self_overlapping(kind if kind != "half-rows" else "zero-stride", (6, 8),
                                 np.float32)
    with pytest.raises(rx.ResamplexError, match=r"\bout\b.*overlap"):
        plan.adjoint(g, out=grad_out)
    with pytest.raises(rx.ResamplexError, match=r"\bout\b.*overlap"):
        rx.resize_adjoint(g, x.shape, [4, 6], mode=mode, out=grad_out)
    assert not out.any() and not grad_out.any()      # refused before writing anything
    with pytest.raises(rx.ResamplexError, match=r"\bout\b.*overlap"):
        rx.resize(np.arange(5.0), (3,), out=np.lib.stride_tricks.as_strided(np.zeros(1), (3,),
                                                                            (0,)))


def test_out_with_interleaved_but_distinct_elements_is_accepted():
    # strides (2, 3) elements: offsets 2i + 3j are all distinct for a 3 x 3 array, although
    # the strides do not nest -- a valid destination, written correctly.
    x = np.arange(20.0).reshape(4, 5)
    buf = np.full(11, np.nan)
    out = np.lib.stride_tricks.as_strided(buf, (3, 3), (16, 24))
    assert rx.resize(x, [3, 3], out=out) is out
    ref.assert_matches(out, ref.reference_resize(x, [3, 3]), np.float64, "linear",
                       xmax=19.0)
    assert np.isnan(buf[[1, 9]]).all()           # the two offsets no element uses


def test_bad_out_adjoint():
    g = np.zeros((3, 3), np.float32)
    with pytest.raises(rx.ResamplexError, match="out"):
        rx.resize_adjoint(g, (4, 6), [3, 3], out=np.empty((4, 5), np.float32))
    with pytest.raises(rx.ResamplexError, match="out"):
        rx.resize_adjoint(g, (4, 6), [3, 3], out=_ro(np.empty((4, 6), np.float32)))


# --------------------------------------------------------------------------------------------
# Sizes too big: refused before allocating (tracemalloc, see tests/allocations.py)
# --------------------------------------------------------------------------------------------

def _refused_quickly(fn, match="size"):
    """``fn()`` raises ResamplexError matching ``match`` having allocated less than
    ALLOC_SLACK: nothing the size of the refused request was built first."""
    exc, peak = allocation_peak(fn)
    assert isinstance(exc, rx.ResamplexError), repr(exc)
    assert re.search(match, str(exc)), str(exc)
    assert peak < ALLOC_SLACK, f"allocated {peak >> 20} MiB before refusing: {exc}"


@pytest.mark.parametrize("dname", ["uint8", "float64"])
@pytest.mark.parametrize("size", [[2**40, 2**40], [2**20, 2**20], [2**62, 3], [2**63 - 1, 1],
                                  [2**31, 2**31]])
@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_huge_output_refused(size, dname, mode):
    x = np.zeros((4, 6), dname)
    _refused_quickly(lambda: rx.resize(x, size, mode=mode))
    _refused_quickly(lambda: rx.Resampler(x.shape, size, mode=mode, dtype=dname))


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_huge_scale_refused(mode):
    x = np.zeros((4, 6), np.float32)
    _refused_quickly(lambda: rx.resize(x, scale=[1e300, 1.0], mode=mode), match="scale|size")
    _refused_quickly(lambda: rx.resize(x, scale=[2.0**40, 2.0**40], mode=mode),
                     match="scale|size")


def test_huge_adjoint_refused():
    g = np.zeros((3, 3), np.float32)
    _refused_quickly(lambda: rx.resize_adjoint(g, (2**40, 2**40), [3, 3]), match="in_shape|size")


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_huge_axis_with_empty_output(mode):
    # The output has no element, but a 2**60-long axis table must not be built either: refused
    # (naming size) or the empty result of the right shape, with nothing big allocated.
    e = np.zeros((0, 6), np.uint8)
    got = []
    exc, peak = allocation_peak(lambda: got.append(rx.resize(e, [0, 2**60], mode=mode)))
    if exc is None:
        assert got[0].shape == (0, 2**60) and got[0].dtype == e.dtype
    else:
        assert isinstance(exc, rx.ResamplexError) and "size" in str(exc), repr(exc)
    assert peak < ALLOC_SLACK, f"allocated {peak >> 20} MiB"


# --------------------------------------------------------------------------------------------
# Unsupported dtypes and ranks
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_object_dtype(mode):
    x = np.empty((3, 4), object)
    x[...] = 1.0
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.resize(x, [2, 2], mode=mode)
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.Resampler((3, 4), [2, 2], mode=mode, dtype=object)
    s = np.zeros((3, 4), [("a", "i4"), ("o", object)])
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.resize(s, [2, 2], mode=mode)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint32, np.int64, np.uint64,
                                   np.complex64, np.complex128, np.longdouble,
                                   np.dtype([("a", "<i4"), ("b", "<f8")]), np.dtype("S4"),
                                   np.dtype("<M8[s]")],
                         ids=lambda d: np.dtype(d).str)
def test_weighted_mode_refuses_dtype(dtype):
    x = np.zeros((3, 4), dtype)
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.resize(x, [5, 2])
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.resize(x, [5, 2], mode="linear", coordinate_transform="align_corners")
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.Resampler((3, 4), [5, 2], dtype=dtype)
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.Resampler((3, 4), [5, 2])(x)
    for kw in (dict(mode="cubic"), dict(mode="area"), dict(mode="linear", antialias=True)):
        with pytest.raises(rx.UnsupportedError, match="dtype"):
            rx.resize(x, [5, 2], **kw)
        with pytest.raises(rx.UnsupportedError, match="dtype"):
            rx.Resampler((3, 4), [5, 2], dtype=dtype, **kw)


def test_zero_d_input():
    for x in (np.zeros((), np.float32), np.float32(1.0)):
        for kw in (dict(size=[]), dict(size=[2]), dict(scale=[2.0])):
            with pytest.raises(rx.ResamplexError, match=r"0-d|\bx\b|dim"):
                rx.resize(x, **kw)
    with pytest.raises(rx.ResamplexError, match=r"0-d|in_shape|dim"):
        rx.Resampler((), [2])


@pytest.mark.parametrize("in_shape", [(4, -1), (4, 6.5), ("4", 6), 7, None])
def test_bad_in_shape(in_shape):
    with pytest.raises(rx.ResamplexError, match="in_shape"):
        rx.Resampler(in_shape, [3, 3])
    with pytest.raises(rx.ResamplexError, match="in_shape"):
        rx.resize_adjoint(np.zeros((3, 3)), in_shape, [3, 3])


def test_plan_input_checks():
    plan = rx.Resampler((4, 6), [3, 3])
    with pytest.raises(rx.ResamplexError, match=r"\bx\b|shape"):
        plan(np.zeros((4, 7), np.float32))
    with pytest.raises(rx.ResamplexError, match=r"\bx\b|shape"):
        plan(np.zeros((4, 6, 1), np.float32))
    with pytest.raises(rx.ResamplexError, match="grad_out"):
        plan.adjoint(np.zeros((3, 4), np.float32))
    with pytest.raises(rx.ResamplexError, match="grad_out"):
        rx.resize_adjoint(np.zeros((3, 4), np.float32), (4, 6), [3, 3])
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        rx.resize_adjoint(np.zeros((3, 3), np.int32), (4, 6), [3, 3])
    # dtype= is the output dtype (SPEC §2): another input dtype converts into it, an input
    # outside the registry cannot
    typed = rx.Resampler((4, 6), [3, 3], dtype=np.float32)
    assert typed(np.zeros((4, 6), np.float64)).dtype == np.float32
    with pytest.raises(rx.UnsupportedError, match="dtype"):
        typed(np.zeros((4, 6), np.int32))


# --------------------------------------------------------------------------------------------
# Inputs that must work
# --------------------------------------------------------------------------------------------

def _check(x, size, mode, **kw):
    got = rx.resize(x, size, mode=mode, **kw)
    want = ref.reference_resize(x, size, mode=mode, **kw)
    xmax = None
    if mode != "nearest":
        v = np.asarray(x).astype(np.float64)
        xmax = float(np.abs(v).max()) if v.size else 0.0
    ref.assert_matches(got, want, np.asarray(x).dtype, mode, xmax=xmax)
    return got


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_valid_awkward_inputs(mode):
    rng = np.random.default_rng(5)
    base = ref.random_array(rng, (5, 7), np.float32)
    # empty axis kept at 0
    assert rx.resize(np.zeros((0, 7), np.float32), [0, 3], mode=mode).shape == (0, 3)
    # read-only
    ro = _ro(base.copy())
    _check(ro, [8, 3], mode)
    # broadcast (zero strides), also along the resampled axis
    _check(np.broadcast_to(base[:1], (5, 7)), [9, 4], mode)
    _check(np.broadcast_to(np.float32(3.5), (4, 6)), [2, 9], mode)
    # length-1 axes
    _check(base[:1, :1], [3, 5], mode)


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("dname", ["float32", "float64", "float16", "bfloat16", "int16",
                                   "uint16"])
def test_unaligned_input(mode, dname):
    dtype = np.dtype(BF16 if dname == "bfloat16" else dname)
    rng = np.random.default_rng(7)
    vals = ref.random_array(rng, (6, 5), dtype)
    n = vals.size
    buf = bytearray(n * dtype.itemsize + 1)
    x = np.frombuffer(buf, dtype, count=n, offset=1).reshape(6, 5)
    assert not x.flags.aligned
    x[...] = vals
    _check(x, [4, 9], mode)
    _check(x[:, ::2], [11, 2], mode)
    out_buf = bytearray(4 * 9 * dtype.itemsize + 1)
    out = np.frombuffer(out_buf, dtype, count=36, offset=1).reshape(4, 9)
    assert not out.flags.aligned
    got = rx.resize(x, [4, 9], mode=mode, out=out)
    assert got is out
    ref.assert_matches(out, ref.reference_resize(vals, [4, 9], mode=mode), dtype, mode,
                       xmax=float(np.abs(vals.astype(np.float64)).max()))


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("dname", [">f4", ">f8", ">i2", ">u2"])
def test_big_endian_input(mode, dname):
    rng = np.random.default_rng(11)
    native = ref.random_array(rng, (5, 6), np.dtype(dname).newbyteorder("="))
    x = native.astype(dname)
    got = rx.resize(x, [7, 4], mode=mode)
    # handled like the native twin (SPEC §2: output dtype = input dtype)
    assert got.dtype == x.dtype, f"big-endian input gave {got.dtype}"
    want = ref.reference_resize(native, [7, 4], mode=mode)
    native_got = got.astype(native.dtype)
    if mode == "nearest":
        np.testing.assert_array_equal(native_got, want)
    else:
        ref.assert_matches(native_got, want, native.dtype, mode,
                           xmax=float(np.abs(native.astype(np.float64)).max()))


# --------------------------------------------------------------------------------------------
# More than 2**31 elements
#
# These run in a child process with an address-space limit: a library that needs far more
# memory than the arrays themselves then fails this test with a MemoryError instead of getting
# the whole test session killed by the kernel's OOM killer.
# --------------------------------------------------------------------------------------------

_BIG_OUTER = """
import gc, time
import numpy as np
import resamplex as rx
import reference as ref
mode = {mode!r}
n = 2**30 + 8                     # (2, n) uint8: 2**31 + 16 elements, 2 GiB
rng = np.random.default_rng(13)
x = np.empty((2, n), np.uint8)
x[0].fill(7)
x[1].fill(200)
cols = np.unique(np.concatenate([rng.integers(0, n, 2000), np.arange(n - 16, n),
                                 np.arange(16), [2**30 - 1, 2**30]]))
x[:, cols] = rng.integers(0, 256, size=(2, cols.size), dtype=np.uint8)
assert x.size > 2**31
for transform in ("half_pixel", "align_corners"):
    t0 = time.perf_counter()
    got = rx.resize(x, [3], axes=[0], mode=mode, coordinate_transform=transform)
    print(transform, "resize took %.1f s" % (time.perf_counter() - t0))
    assert got.shape == (3, n)         # 3 GiB: byte offsets past 2**31
    want = ref.reference_resize(x[:, cols], [3], axes=[0], mode=mode,
                                coordinate_transform=transform)
    ref.assert_matches(got[:, cols], want, np.uint8, mode, xmax=255)
    plain = np.array([5, n // 3, n // 2, n - 100])
    plain = plain[~np.isin(plain, cols)]
    want = ref.reference_resize(x[:, plain], [3], axes=[0], mode=mode,
                                coordinate_transform=transform)
    ref.assert_matches(got[:, plain], want, np.uint8, mode, xmax=255)
    del got
    gc.collect()
print("OK")
"""

_BIG_LONG_AXIS = """
import time
import numpy as np
import resamplex as rx
import reference as ref
mode = {mode!r}
n = 2**31 + 16                    # one axis longer than 2**31: indices past 2**31
x = np.zeros(n, np.uint8)
rng = np.random.default_rng(17)
for transform in ("align_corners", "half_pixel", "asymmetric"):
    taps = ref.axis_table(n, 5, None, transform, mode)
    idx = sorted({{i for t in taps for i, _ in t}})
    x[idx] = rng.integers(1, 256, size=len(idx), dtype=np.uint8)
    t0 = time.perf_counter()
    got = rx.resize(x, [5], mode=mode, coordinate_transform=transform)
    print(transform, "resize took %.1f s" % (time.perf_counter() - t0))
    v = np.array([sum(w * float(x[i]) for i, w in t) for t in taps])
    if mode == "nearest":
        np.testing.assert_array_equal(got, v.astype(np.uint8))
    else:
        ref.assert_matches(got, v, np.uint8, mode)
    if transform == "align_corners":
        assert max(i for t in taps for i, _ in t) >= 2**31
    x[idx] = 0
print("OK")
"""


def _free_memory():
    import os
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _run_limited(code, limit_bytes, timeout=300):
    """Run ``code`` in a child Python with at most ``limit_bytes`` of address space."""
    import os
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([here] + sys.path)
    pre = ("import resource\n"
           f"resource.setrlimit(resource.RLIMIT_AS, ({limit_bytes}, {limit_bytes}))\n")
    # cwd: `python -c` puts the current directory first on sys.path, where a source
    # checkout's uncompiled resamplex/ would hide the installed package.
    proc = subprocess.run([sys.executable, "-c", pre + code], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=here)
    assert proc.returncode == 0 and "OK" in proc.stdout, (
        f"child failed (rc {proc.returncode}, address-space limit "
        f"{limit_bytes / 2**30:.0f} GiB):\n{proc.stdout}\n{proc.stderr[-3000:]}")
    return proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_more_than_2_31_elements_outer_axis(mode):
    # 2 GiB in + 3 GiB out; allow 4 GiB more for tables, scratch and the interpreter.
    limit = 9 * 2**30
    free = _free_memory()
    if free is not None and free < limit:
        pytest.skip(f"needs about {limit / 2**30:.0f} GiB of free memory")
    _run_limited(_BIG_OUTER.format(mode=mode), limit)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_more_than_2_31_elements_long_axis(mode):
    # 2 GiB in, 5 bytes out; allow 4 GiB more.
    limit = 6 * 2**30
    free = _free_memory()
    if free is not None and free < limit:
        pytest.skip(f"needs about {limit / 2**30:.0f} GiB of free memory")
    _run_limited(_BIG_LONG_AXIS.format(mode=mode), limit)
