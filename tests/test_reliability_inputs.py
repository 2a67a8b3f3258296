"""Issue #7, part 1: the bad-input matrix (SPEC §8) over every public function.

Every parameter of every public function (core ``resize`` / ``Resampler`` / ``__call__`` /
``adjoint`` / ``resize_adjoint`` / ``set_num_threads``, ``dml.*``, ``ascend.*``,
``compat.onnx.resize``, ``compat.torch.interpolate``) gets wrong types, wrong lengths,
zero / negative / NaN / Inf / huge values, unknown names, unsupported dtypes and ranks, and bad
``out`` arrays. Each call must raise ``rx.ResamplexError`` (``rx.UnsupportedError`` for dtypes,
ranks, feature levels and products) with a message naming the parameter -- never a bare NumPy
``TypeError``/``ValueError``/``IndexError``/``MemoryError``/``OverflowError``, never a crash --
and must do so without allocating: ``tracemalloc`` (which sees NumPy's array buffers) records a
peak of less than ``ALLOC_SLACK`` above where the call started, so an output whose byte count
overflows int64 or exceeds the machine is refused before anything big is allocated.

The matrix is generated from tables: ``FUNCTIONS`` (what to call, with a valid base call) and,
per parameter kind, the bad values (``_bad_*``). Each generated case is ``(function, kwargs
mutation, expected error, message regex)``; its test id starts with its number and the total
(``0042of1234-resize-size-nan``), and ``test_matrix_size`` checks that every parameter of every
public function is in it.

The dtypes each function must refuse are written out from the SPEC (§3 for the core and the
ONNX front door, §4 for DirectML, §5 for Ascend) and, for ``compat.torch``, from torch's CPU
kernels (checked against torch itself where it is installed), never taken from the library's
own tables.
``tests/test_errors.py`` holds the hand-written core matrix this one extends.
"""

from __future__ import annotations

import collections
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

import resamplex as rx
from allocations import ALLOC_SLACK, allocation_peak
from resamplex import ascend, dml

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

from resamplex.compat import onnx as ronnx
from resamplex.compat import torch as rtorch     # works on NumPy arrays without torch


# ------------------------------------------------------------------------------ accepted dtypes
# Written out from the SPEC, never read from the library.

#: SPEC §3: the weighted modes (linear, cubic, area, antialias) of the core and of compat.onnx.
WEIGHTED = ("float64", "float32", "float16", "bfloat16", "int8", "uint8", "int16", "uint16")
#: SPEC §4 tensor support table, each operator's highest feature level.
DML_DTYPES = {
    "DML_UPSAMPLE_2D": ("float32", "float16"),
    "DML_RESAMPLE": ("float32", "float16", "int8", "uint8"),
    "DML_RESAMPLE1": ("float32", "float16", "int8", "uint8"),
    "DML_RESAMPLE2": ("float32", "float16", "int8", "uint8"),
    "DML_RESAMPLE3": ("float32", "float16", "int8", "uint8"),
    "DML_RESAMPLE_GRAD": ("float32", "float16"),
    "DML_RESAMPLE_GRAD1": ("float32", "float16"),
}
#: SPEC §5: FLOAT32, FLOAT16, BFLOAT16 (the default product, atlas_a2, has all three).
ASCEND_DTYPES = ("float32", "float16", "bfloat16")
#: torch's CPU upsample_bilinear2d kernel: the floating types, Half, BFloat16 and Byte
#: (test_torch_bilinear_dtypes_are_torchs checks this against torch).
TORCH_BILINEAR_DTYPES = ("uint8", "float16", "bfloat16", "float32", "float64")

NAN, INF = float("nan"), float("inf")


# ------------------------------------------------------------------------------ dtypes

def _structured_with_object():
    return np.dtype([("a", "<i4"), ("o", object)])


#: Every dtype family a caller might pass (name -> dtype).
ALL_DTYPES = {
    "bool": np.dtype(bool), "int8": np.dtype(np.int8), "uint8": np.dtype(np.uint8),
    "int16": np.dtype(np.int16), "uint16": np.dtype(np.uint16), "int32": np.dtype(np.int32),
    "uint32": np.dtype(np.uint32), "int64": np.dtype(np.int64), "uint64": np.dtype(np.uint64),
    "float16": np.dtype(np.float16), "bfloat16": BF16, "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64), "longdouble": np.dtype(np.longdouble),
    "complex64": np.dtype(np.complex64), "complex128": np.dtype(np.complex128),
    "datetime64": np.dtype("M8[s]"), "timedelta64": np.dtype("m8[s]"), "str": np.dtype("U3"),
    "bytes": np.dtype("S3"), "void": np.dtype("V4"),
    "structured": np.dtype([("a", "<i4"), ("b", "<f8")]),
    "structured-object": _structured_with_object(), "object": np.dtype(object),
}
NEAREST_BAD = ("object", "structured-object")        # nearest copies every other dtype


def _dtypes_except(accepted) -> list[str]:
    return [n for n in ALL_DTYPES if n not in accepted]


def _array(shape, dtype) -> np.ndarray:
    a = np.zeros(shape, ALL_DTYPES[dtype] if isinstance(dtype, str) else dtype)
    if a.dtype.hasobject:
        a[...] = 0 if a.dtype.names is None else (0, 0)
    return a


# ------------------------------------------------------------------------------ table types

@dataclass(frozen=True)
class Bad:
    """One bad value: ``value``, the error and the message regex.

    A ``value`` that is a ``Derive`` is computed from the parameter's valid value
    (``Derive(fn)``: ``fn(valid)``) or from the whole valid call (``Derive(fn, whole=True)``:
    ``fn(kwargs)``, which may also change other arguments). ``match=None`` means "names the
    parameter" (``\\bparam\\b``)."""

    tag: str
    value: Any
    error: type = rx.ResamplexError
    match: str | None = None


@dataclass(frozen=True)
class Derive:
    fn: Callable[[Any], Any]
    whole: bool = False


@dataclass
class Function:
    """A public function, a valid call of it, and the kind of each of its parameters."""

    name: str
    call: Callable[..., Any]
    base: Callable[[], dict]                    # fresh keyword arguments of a valid call
    params: dict[str, str]                      # parameter -> kind (see BAD_BY_KIND)
    # A valid value for parameters the base call leaves out, and the other arguments that
    # must change with it (e.g. ONNX `sizes` needs `scales=None`).
    template: dict[str, Any] = field(default_factory=dict)
    companion: dict[str, dict] = field(default_factory=dict)
    array_bad: list[Bad] = field(default_factory=list)   # extra bad arrays (dtypes, ranks)
    extra: list[tuple[str, dict, type, str]] = field(default_factory=list)  # combinations


# ------------------------------------------------------------------------------ bad values

class _NoLen:
    """Neither a sequence nor a number."""

    def __repr__(self):
        return "<_NoLen>"


def _replace_last(value):
    """A mutation that replaces the last entry of the valid sequence."""
    def mutate(valid):
        seq = list(valid)
        seq[-1] = value
        return seq
    return Derive(mutate)


_append = Derive(lambda valid: list(valid) + [list(valid)[-1]])
_drop = Derive(lambda valid: list(valid)[:-1])
_nested = Derive(lambda valid: [list(valid)])
_ragged = [[1.0, 2.0], [3.0]]


# Sequences of integers: size, in_shape, output_shape, input_shape, scale_size, output_size,
# sizes. `zero` / `negative` are bad where an output length must be >= 1.
def _bad_int_seq(zero_ok=False):
    out = [
        Bad("none-entry", _replace_last(None)), Bad("str", "34"), Bad("bytes", b"34"),
        Bad("float-scalar", 3.5), Bad("object", _NoLen()), Bad("dict", {"a": 1}),
        Bad("float-entry", _replace_last(2.5)), Bad("nan-entry", _replace_last(NAN)),
        Bad("inf-entry", _replace_last(INF)), Bad("str-entry", _replace_last("3")),
        Bad("bool-entry", _replace_last(True)), Bad("complex-entry", _replace_last(3 + 0j)),
        Bad("negative", _replace_last(-1)), Bad("very-negative", _replace_last(-2**63)),
        Bad("2**64", _replace_last(2**64)), Bad("nested", _nested),
        Bad("too-long", _append), Bad("too-short", _drop), Bad("ragged", _ragged),
        Bad("float-array", Derive(lambda valid: np.asarray(valid, dtype=np.float64) + 0.5)),
    ]
    if not zero_ok:
        out.append(Bad("zero", _replace_last(0)))
    return out


# Sequences of reals: scale, scales, offsets, roi, scale_factor.
def _bad_real_seq(positive=True):
    out = [
        Bad("none-entry", _replace_last(None)), Bad("str", "2.0"), Bad("object", _NoLen()),
        Bad("dict", {"a": 1.0}), Bad("nan-entry", _replace_last(NAN)),
        Bad("inf-entry", _replace_last(INF)), Bad("-inf-entry", _replace_last(-INF)),
        Bad("str-entry", _replace_last("2")), Bad("complex-entry", _replace_last(1j)),
        Bad("nested", _nested), Bad("too-long", _append), Bad("too-short", _drop),
        Bad("ragged", _ragged),
    ]
    if positive:
        out += [Bad("zero", _replace_last(0.0)), Bad("negative", _replace_last(-2.0)),
                Bad("-0.0", _replace_last(-0.0))]
    return out


def _bad_axes():
    return [
        Bad("str", "01"), Bad("float-entry", [0.0, 1]), Bad("none-entry", [0, None]),
        Bad("bool-entry", [True, 1]), Bad("repeated", [1, 1]), Bad("repeated-negative", [1, -1]),
        Bad("out-of-range", [0, 2]), Bad("out-of-range-negative", [-3, 1]),
        Bad("huge", [0, 2**63]), Bad("empty", []), Bad("nested", [[0, 1]]),
        Bad("object", _NoLen()), Bad("too-long", [0, 1, -1], match="axes|size|scale"),
        Bad("ragged", [[0], [1, 2]]), Bad("ragged-empty", [[], [None]]),
    ]


def _bad_name(case_variant: str | None = None):
    out = [Bad("unknown", "no-such-name"), Bad("none", None), Bad("int", 3),
           Bad("bytes", b"linear"), Bad("float", 1.5), Bad("list", ["linear"]),
           Bad("empty", ""), Bad("object", _NoLen())]
    if case_variant is not None:
        out.append(Bad("case", case_variant))
    return out


def _bad_bool(none_ok=False, int01_ok=False):
    out = [Bad("str", "yes"), Bad("two", 2), Bad("half", 0.5), Bad("list", [True]),
           Bad("array", np.array([True, False])), Bad("object", _NoLen())]
    if not none_ok:
        out.append(Bad("none", None))
    if not int01_ok:
        out.append(Bad("one", 1))
    return out


def _bad_threads():
    return [Bad("zero", 0), Bad("negative", -1), Bad("float", 1.5), Bad("str", "2"),
            Bad("bool", True), Bad("list", [2]), Bad("nan", NAN), Bad("numpy-float", np.float64(2)),
            Bad("object", _NoLen())]


def _bad_real(nonfinite_ok=False, negative_ok=True, none_ok=False):
    out = [Bad("str", "1.0"), Bad("complex", 1j), Bad("list", [1.0]), Bad("bool", True),
           Bad("object", _NoLen())]
    if not nonfinite_ok:
        out += [Bad("nan", NAN), Bad("inf", INF), Bad("-inf", -INF)]
    if not negative_ok:
        out += [Bad("negative", -1.0)]
    if not none_ok:
        out += [Bad("none", None)]
    return out


def _bad_not_array():
    return [Bad("none", None), Bad("str", "abc"), Bad("bytes", b"abc"), Bad("dict", {"a": 1}),
            Bad("ragged", [[1.0, 2.0], [3.0]]), Bad("ragged-deep", [[[1.0]], [2.0, 3.0]])]


BAD_BY_KIND: dict[str, Callable[[], list[Bad]]] = {
    "array": _bad_not_array,
    "sizes": _bad_int_seq,
    "sizes0": lambda: _bad_int_seq(zero_ok=True),   # input shapes: 0 is a valid length
    "scales": _bad_real_seq,
    "offsets": lambda: _bad_real_seq(positive=False),
    "axes": _bad_axes,
    "name": _bad_name,
    "name-or-none": lambda: [b for b in _bad_name() if b.tag != "none"],
    "bool": _bad_bool,
    "bool01": lambda: _bad_bool(int01_ok=True),
    "bool01-none": lambda: _bad_bool(none_ok=True, int01_ok=True),
    "bool-none": lambda: _bad_bool(none_ok=True) + [Bad("zero", 0)],
    # torch reads antialias and recompute_scale_factor as truth values: only what has none
    "truth": lambda: [Bad("array", np.array([True, False]))],
    "threads": _bad_threads,
    "real": _bad_real,
    # lanczos_a: an integer from 1 to 2**20 (SPEC §2: lobes), refused for any mode
    "lobes": lambda: [Bad("zero", 0), Bad("negative", -3), Bad("float", 3.5), Bad("str", "3"),
                      Bad("bool", True), Bad("none", None), Bad("nan", NAN), Bad("list", [3]),
                      Bad("huge", 2**21), Bad("object", _NoLen())],
    "attr-ratio": lambda: _bad_real(negative_ok=False),     # ascend operator attributes
    "scale-or-none": lambda: _bad_real(negative_ok=False, none_ok=True),
    "extrapolation": lambda: _bad_real(nonfinite_ok=True),
    "dtype": lambda: [Bad("unknown", "no-such-dtype", rx.UnsupportedError, "dtype"),
                      Bad("float", 3.14, rx.UnsupportedError, "dtype"),
                      Bad("object", object, rx.UnsupportedError, "dtype"),
                      Bad("structured-object", _structured_with_object(), rx.UnsupportedError,
                          "dtype"),
                      Bad("complex", np.complex64, rx.UnsupportedError, "dtype"),
                      Bad("datetime", "M8[s]", rx.UnsupportedError, "dtype"),
                      Bad("bool", bool, rx.UnsupportedError, "dtype")],
    "feature_level": lambda: [Bad("unknown", "9_9"), Bad("hex-unknown", 0x9999),
                              Bad("negative", -1), Bad("float", 6.2), Bad("none", None),
                              Bad("empty", ""), Bad("list", ["6_2"]), Bad("bool", True),
                              Bad("object", _NoLen())],
    "product": lambda: [Bad("unknown", "atlas_z9"), Bad("none", None), Bad("int", 3),
                        Bad("list", ["atlas_a2"]), Bad("case", "ATLAS_A2"),
                        Bad("unsupported-training", "atlas_training", rx.UnsupportedError),
                        Bad("unsupported-950", "ascend910_95", rx.UnsupportedError)],
    "data_format": lambda: [Bad("unknown", "NCDHW"), Bad("int", 3), Bad("lower", "nchw"),
                            Bad("rank-mismatch", "NCL"), Bad("list", ["NCHW"])],
    "out": lambda: [],   # generated from the base call's result, see _bad_out
    # affine=(a, b) of the core facade: real scalars or arrays broadcastable to the output
    "affine": lambda: [Bad("scalar", 1.0), Bad("triple", (1.0, 2.0, 3.0)), Bad("str", "ab"),
                       Bad("shape", (np.ones(4), 0.0)), Bad("b-shape", (1.0, np.ones((2, 5)))),
                       Bad("rank", (np.ones((1, 1, 5)), 0.0)), Bad("complex", (1j, 0.0)),
                       Bad("strings", ("1", 0.0)), Bad("none-in-pair", (None, 0.0)),
                       Bad("object", _NoLen())],
}


def _bad_out(fn: Function) -> list[Bad]:
    """Bad ``out`` arrays for ``fn``: built from the shape and dtype of its valid result."""
    base = fn.base()
    result = fn.call(**base)
    shape, dtype = result.shape, result.dtype
    arrays = {k: v for k, v in base.items() if isinstance(v, np.ndarray)}
    xname = next(iter(arrays), None)

    def ro(a):
        a.flags.writeable = False
        return a

    dml_like = fn.name.startswith("dml.") and "grad" not in fn.name and fn.name != \
        "dml.upsample_2d"
    other = np.float64 if dtype != np.float64 else np.float32
    if fn.name.startswith(("resize[", "Resampler.__call__")):
        # the core facade converts into an out= of another registry dtype (SPEC §2): only
        # one outside the registry is refused
        other = np.dtype(np.complex64)
    swapped = np.dtype(other if fn.name.startswith(("resize[", "Resampler.__call__"))
                       else dtype).newbyteorder()
    bads = [
        Bad("ndim", lambda b: np.zeros(shape + (1,), dtype)),
        Bad("dtype", lambda b: np.zeros(shape, other)),
        Bad("byteorder", lambda b: np.zeros(shape, swapped)),
        Bad("readonly", lambda b: ro(np.zeros(shape, dtype))),
        Bad("broadcast", lambda b: np.broadcast_to(np.zeros(shape[-1:], dtype), shape)),
        # writeable, but its elements overlap each other (issue 15, bug 3)
        Bad("self-overlap", lambda b: np.lib.stride_tricks.as_strided(
            np.zeros(1, dtype), shape, (0,) * len(shape))),
        Bad("list", lambda b: np.zeros(shape, dtype).tolist()),
        Bad("scalar", 0.0), Bad("str", "out"),
    ]
    if dml_like:
        # DirectML: out.shape *is* the output shape; an empty one is refused.
        bads.append(Bad("zero-length", lambda b: np.zeros(shape[:-1] + (0,), dtype)))
    else:
        bads.append(Bad("shape", lambda b: np.zeros(shape[:-1] + (shape[-1] + 1,), dtype)))
    if xname is not None and arrays[xname].size >= 1:
        def overlapping(b):
            x = b[xname]
            buf = np.zeros(x.size + math.prod(shape), x.dtype)
            inside = buf[:x.size].reshape(x.shape)
            inside[...] = x
            b[xname] = inside
            start = x.size // 2
            return buf[start:start + math.prod(shape)].reshape(shape)
        bads.append(Bad("overlaps-input", Derive(overlapping, whole=True)))
    return bads


# ------------------------------------------------------------------------------ functions

def _f32(*shape):
    return np.zeros(shape, np.float32)


def _plan_call(x, out=None, threads=None):
    return rx.Resampler((4, 6), [3, 5])(x, out=out, threads=threads)


def _plan_adjoint(grad_out, out=None, threads=None):
    return rx.Resampler((4, 6), [3, 5]).adjoint(grad_out, out=out, threads=threads)


def _set_num_threads(n):
    try:
        rx.set_num_threads(n)
    finally:
        rx.set_num_threads(None)
    return np.zeros(1)


def _core_array_bad(weighted: bool, name="x", shape=(4, 6)) -> list[Bad]:
    names = _dtypes_except(WEIGHTED) if weighted else list(NEAREST_BAD)
    bads = [Bad(f"dtype-{d}", (lambda d=d: lambda b: _array(shape, d))(), rx.UnsupportedError,
                "dtype") for d in names]
    bads += [Bad("0-d", np.zeros((), np.float32), match=rf"{name}\b|0-d"),
             Bad("numpy-scalar", np.float32(1.0), match=rf"{name}\b|0-d")]
    return bads


_CORE_PARAMS = dict(size="sizes", scale="scales", axes="axes", mode="name",
                    coordinate_transform="name", nearest_mode="name", antialias="bool",
                    cubic_a="real", lanczos_a="lobes", exclude_outside="bool",
                    rounding="name")

# With size given, scale only drives the coordinate map: both together are valid.
_CORE_TEMPLATE = dict(scale=[2.0, 0.5], axes=[0, 1])

_CORE_EXTRA = [
    # (tag, kwargs mutation, error, regex)
    ("neither-size-nor-scale", dict(size=None), rx.ResamplexError, "size|scale"),
    # (a scalar size/scale without axes is valid: every axis, SPEC §2)
    ("size-too-short-without-axes", dict(size=[3]), rx.ResamplexError, "size"),
    ("scale-too-short-without-axes", dict(size=None, scale=[2.0]), rx.ResamplexError, "scale"),
    ("size-vs-axes", dict(size=[3], axes=[0, 1]), rx.ResamplexError, "size"),
    ("scale-vs-axes", dict(scale=[2.0], axes=[0, 1]), rx.ResamplexError, "scale"),
    ("scale-gives-zero", dict(size=None, scale=[0.1, 1.0]), rx.ResamplexError, "scale"),
    ("scale-tiny", dict(size=None, scale=[1e-300, 1.0]), rx.ResamplexError, "scale"),
    ("scale-denormal", dict(size=None, scale=[5e-324, 1.0]), rx.ResamplexError, "scale"),
    ("antialias-nearest", dict(mode="nearest", antialias=True), rx.ResamplexError, "antialias"),
    ("antialias-area", dict(mode="area", antialias=True), rx.ResamplexError, "antialias"),
    ("mode-case", dict(mode="Linear"), rx.ResamplexError, "mode"),
    ("mode-torch-name", dict(mode="bilinear"), rx.ResamplexError, "mode"),
    ("transform-onnx-only", dict(coordinate_transform="tf_crop_and_resize"), rx.ResamplexError,
     "coordinate_transform"),
    # too big: int64 overflow of the byte count, or more than the machine's memory
    ("huge-size-2**62", dict(size=[2**62, 3]), rx.ResamplexError, "size"),
    ("huge-size-2**63-1", dict(size=[2**63 - 1, 1]), rx.ResamplexError, "size"),
    ("huge-size-2**64", dict(size=[2**64, 1]), rx.ResamplexError, "size"),
    ("huge-size-product", dict(size=[2**31, 2**31]), rx.ResamplexError, "size"),
    ("huge-size-memory", dict(size=[2**20, 2**20]), rx.ResamplexError, "size"),
    ("huge-size-memory-cubic-aa", dict(size=[2**20, 2**20], mode="cubic", antialias=True),
     rx.ResamplexError, "size"),
    ("huge-scale", dict(size=None, scale=[1e300, 1.0]), rx.ResamplexError, "scale|size"),
    ("huge-scale-2**40", dict(size=None, scale=[2.0**40, 2.0**40]), rx.ResamplexError,
     "scale|size"),
    ("huge-scale-area", dict(size=None, scale=[2.0**40, 1.0], mode="area"), rx.ResamplexError,
     "scale|size"),
]


def _core_resize(mode: str) -> Function:
    weighted = mode != "nearest"
    return Function(
        f"resize[{mode}]", rx.resize, lambda: dict(x=_f32(4, 6), size=[3, 5], mode=mode),
        dict(x="array", **_CORE_PARAMS, dtype="dtype", affine="affine", out="out",
             threads="threads"),
        array_bad=_core_array_bad(weighted), extra=list(_CORE_EXTRA), template=_CORE_TEMPLATE)


def _resampler() -> Function:
    extra = [(t, m, e, r) for t, m, e, r in _CORE_EXTRA if "x" not in m]
    extra += [
        ("in_shape-0-d", dict(in_shape=()), rx.ResamplexError, "in_shape|0-d"),
        ("in_shape-65-d", dict(in_shape=(1,) * 65, size=None, scale=2.0, axes=0),
         rx.ResamplexError, "in_shape"),
        ("in_shape-huge-shrink-cubic-aa",
         dict(in_shape=(2**62,), size=[1], mode="cubic", antialias=True),
         rx.ResamplexError, "in_shape|size"),
        ("in_shape-huge-shrink-area", dict(in_shape=(2**62,), size=[2], mode="area"),
         rx.ResamplexError, "in_shape|size"),
        ("in_shape-huge-shrink-linear-aa",
         dict(in_shape=(2**62,), size=[2], mode="linear", antialias=True),
         rx.ResamplexError, "in_shape|size"),
        ("huge-with-dtype", dict(size=[2**40, 2**40], dtype=np.float64), rx.ResamplexError,
         "size"),
    ]
    return Function(
        "Resampler", rx.Resampler, lambda: dict(in_shape=(4, 6), size=[3, 5]),
        dict(in_shape="sizes0", **_CORE_PARAMS, dtype="dtype", affine="affine"), extra=extra,
        template=_CORE_TEMPLATE)


def _resampler_call() -> Function:
    bads = _core_array_bad(True)
    bads += [Bad("shape", _f32(4, 7), match=r"\bx\b"), Bad("rank", _f32(4, 6, 1), match=r"\bx\b"),
             Bad("transposed", _f32(6, 4), match=r"\bx\b")]
    return Function("Resampler.__call__", _plan_call, lambda: dict(x=_f32(4, 6)),
                    dict(x="array", out="out", threads="threads"), array_bad=bads)


def _resampler_adjoint() -> Function:
    bads = _core_array_bad(True, "grad_out", (3, 5))
    bads += [Bad("shape", _f32(4, 6), match="grad_out"), Bad("rank", _f32(3, 5, 1),
             match="grad_out")]
    return Function("Resampler.adjoint", _plan_adjoint, lambda: dict(grad_out=_f32(3, 5)),
                    dict(grad_out="array", out="out", threads="threads"), array_bad=bads)


def _resize_adjoint() -> Function:
    bads = _core_array_bad(True, "grad_out", (3, 5))
    bads += [Bad("shape", _f32(4, 6), match="grad_out")]
    extra = [(t, m, e, r) for t, m, e, r in _CORE_EXTRA if not t.startswith("huge")]
    extra += [("huge-in_shape", dict(in_shape=(2**40, 2**40)), rx.ResamplexError,
               "in_shape|size"),
              ("huge-in_shape-int64", dict(in_shape=(2**62, 4)), rx.ResamplexError,
               "in_shape|size")]
    return Function(
        "resize_adjoint", rx.resize_adjoint,
        lambda: dict(grad_out=_f32(3, 5), in_shape=(4, 6), size=[3, 5]),
        dict(grad_out="array", in_shape="sizes0", **_CORE_PARAMS, out="out",
             threads="threads"), array_bad=bads, extra=extra, template=_CORE_TEMPLATE)


# ---- DirectML

def _dml_array_bad(op: str, name: str, shape: tuple[int, ...], ranks: tuple[int, ...]):
    accepted = DML_DTYPES[op]
    rx_dml = rf"\b{name}\b|DML_\w+"
    bads = [Bad(f"dtype-{d}", (lambda d=d: lambda b: _array(shape, d))(), rx.UnsupportedError,
                rx_dml) for d in _dtypes_except(accepted)]
    for nd in (0, 1, 2, 3, 4, 5, 6, 7):
        if nd not in ranks:
            bads.append(Bad(f"rank-{nd}", (lambda nd=nd: lambda b: _f32(*(2,) * nd))(),
                            rx.UnsupportedError if nd else rx.ResamplexError, rx_dml))
    return bads


def _dml_levels_below(op: str) -> list[tuple[str, dict, type, str]]:
    """The operator at the two feature levels just below its first (it does not exist)."""
    first = dml.TENSOR_SUPPORT[op][0].from_level
    return [(f"feature_level-below-first-{lvl.name}", dict(feature_level=lvl.name[3:]),
             rx.UnsupportedError, rf"{op}\b") for lvl in dml.FeatureLevel if lvl < first][-2:]


_DML4 = (1, 2, 4, 6)
_OFFS = dict(input_pixel_offsets=[0.5] * 4, output_pixel_offsets=[-0.5] * 4)


def _dml_resample(fname: str) -> Function:
    op = "DML_" + fname.upper()
    fn = getattr(dml, fname)
    base: dict[str, Any] = dict(scales=[1, 1, 2, 0.5], interpolation_mode="linear")
    params = dict(x="array", scales="scales", interpolation_mode="name",
                  output_shape="sizes", out="out", feature_level="feature_level",
                  rounding="name", threads="threads")
    if fname != "resample":
        base.update(_OFFS)
        params.update(input_pixel_offsets="offsets", output_pixel_offsets="offsets")
    if fname in ("resample2", "resample3"):
        base["rounding_direction"] = "increasing"
        params["rounding_direction"] = "name"
    if fname == "resample3":
        base["antialiased"] = True
        params["antialiased"] = "bool"
    extra = [
        ("scales-float32-overflow", dict(scales=[1, 1, 1e39, 1]), rx.ResamplexError, "scales"),
        ("scales-float32-underflow", dict(scales=[1, 1, 1e-46, 1]), rx.ResamplexError, "scales"),
        ("scales-gives-zero", dict(scales=[1, 1, 0.1, 1]), rx.ResamplexError, "scales"),
        ("output_shape-conflicts-out", dict(output_shape=[1, 2, 8, 4],
                                            out=np.zeros((1, 2, 8, 3), np.float32)),
         rx.ResamplexError, "output_shape"),
        ("output_shape-zero", dict(output_shape=[1, 2, 0, 3]), rx.ResamplexError,
         "output_shape"),
        ("huge-output_shape", dict(output_shape=[1, 2, 2**40, 2**40]), rx.ResamplexError,
         "output_shape"),
        ("huge-output_shape-int64", dict(output_shape=[2**62, 2, 4, 6]), rx.ResamplexError,
         "output_shape"),
        ("huge-scales", dict(scales=[1, 1, 2.0**40, 2.0**40]), rx.ResamplexError, "scales"),
        ("huge-scales-float32-max", dict(scales=[1, 1, 3e38, 1]), rx.ResamplexError, "scales"),
        ("interpolation_mode-cubic", dict(interpolation_mode="cubic"), rx.ResamplexError,
         "interpolation_mode"),
        ("interpolation_mode-enum-value-2", dict(interpolation_mode=2), rx.ResamplexError,
         "interpolation_mode"),
    ]
    if "offsets" in str(params):
        extra += [("offsets-float32-overflow", dict(input_pixel_offsets=[0, 0, 1e39, 0]),
                   rx.ResamplexError, "input_pixel_offsets")]
    if fname == "resample3":
        extra += [("huge-antialias-window", dict(scales=[1, 1, 1, 1e-30],
                                                 output_shape=[1, 2, 4, 2**40]),
                   rx.ResamplexError, "output_shape|scales")]
    if fname in ("resample2", "resample3"):
        extra += [("rounding_direction-enum-value-2", dict(rounding_direction=2),
                   rx.ResamplexError, "rounding_direction")]
    return Function(
        f"dml.{fname}", fn, lambda: dict(x=_f32(*_DML4), **{k: list(v) if isinstance(v, list)
                                                            else v for k, v in base.items()}),
        params, array_bad=_dml_array_bad(op, "x", _DML4, (1, 2, 3, 4)),
        extra=extra + _dml_levels_below(op),
        template=dict(output_shape=[1, 2, 8, 1 if fname == "resample3" else 3]))




def _dml_upsample() -> Function:
    op = "DML_UPSAMPLE_2D"
    extra = [
        ("scale_size-zero", dict(scale_size=(0, 2)), rx.ResamplexError, "scale_size"),
        ("scale_size-negative", dict(scale_size=(2, -1)), rx.ResamplexError, "scale_size"),
        ("scale_size-float", dict(scale_size=(2.0, 2)), rx.ResamplexError, "scale_size"),
        ("scale_size-three", dict(scale_size=(2, 2, 2)), rx.ResamplexError, "scale_size"),
        ("scale_size-over-uint32", dict(scale_size=(2, 0xFFFFFFFF // 6 + 1)), rx.ResamplexError,
         "scale_size"),
        ("huge-scale_size", dict(scale_size=(2**30, 2**29)), rx.ResamplexError, "scale_size"),
        ("interpolation_mode-cubic", dict(interpolation_mode="cubic"), rx.ResamplexError,
         "interpolation_mode"),
    ]
    return Function(
        "dml.upsample_2d", dml.upsample_2d,
        lambda: dict(x=_f32(*_DML4), scale_size=(2, 3), interpolation_mode="linear"),
        dict(x="array", scale_size="sizes", interpolation_mode="name", out="out",
             feature_level="feature_level", threads="threads"),
        array_bad=_dml_array_bad(op, "x", _DML4, (4, 5)), extra=extra)


def _dml_grad(fname: str) -> Function:
    op = "DML_" + fname.upper()
    fn = getattr(dml, fname)
    base = dict(input_shape=(1, 2, 4, 6), scales=[1, 1, 2, 0.5], interpolation_mode="linear",
                **_OFFS)
    params = dict(output_gradient="array", input_shape="sizes0", scales="scales",
                  input_pixel_offsets="offsets", output_pixel_offsets="offsets",
                  interpolation_mode="name", out="out", feature_level="feature_level",
                  threads="threads")
    if fname == "resample_grad1":
        base["rounding_direction"] = "decreasing"
        params["rounding_direction"] = "name"
    extra = [
        ("input_shape-empty-axis", dict(input_shape=(1, 2, 0, 6)), rx.ResamplexError,
         "output_gradient|input_shape"),
        ("huge-input_shape", dict(input_shape=(1, 2, 2**40, 2**40)), rx.ResamplexError,
         "input_shape"),
        ("huge-input_shape-int64", dict(input_shape=(2**62, 2, 4, 6)), rx.ResamplexError,
         "input_shape"),
        ("scales-float32-overflow", dict(scales=[1, 1, 1e39, 1]), rx.ResamplexError, "scales"),
    ]
    return Function(
        f"dml.{fname}", fn,
        lambda: dict(output_gradient=_f32(1, 2, 8, 3), **{k: list(v) if isinstance(v, list)
                                                          else v for k, v in base.items()}),
        params, array_bad=_dml_array_bad(op, "output_gradient", (1, 2, 8, 3), (1, 2, 3, 4)),
        extra=extra + _dml_levels_below(op))


# ---- Ascend

def _ascend_array_bad(shape, ranks, op):
    bads = [Bad(f"dtype-{d}", (lambda d=d: lambda b: _array(shape, d))(), rx.UnsupportedError,
                "dtype|product") for d in _dtypes_except(ASCEND_DTYPES)]
    for nd in (0, 1, 2, 3, 4, 5, 6):
        if nd not in ranks:
            bads.append(Bad(f"rank-{nd}", (lambda nd=nd: lambda b: _f32(*(2,) * nd))(),
                            rx.ResamplexError, r"\bx\b"))
    return bads


def _ascend(fname: str) -> Function:
    fn = getattr(ascend, fname)
    shapes = {"upsample_nearest": (1, 2, 4, 6), "upsample_nearest_exact1d": (1, 2, 6),
              "upsample_nearest_exact2d": (1, 2, 4, 6), "upsample_nearest_exact3d": (1, 1, 2, 4, 6),
              "upsample_nearest1d": (1, 2, 6), "upsample_nearest2d": (1, 2, 4, 6)}
    sizes = {3: [9], 4: [8, 3], 5: [4, 8, 3]}
    shape = shapes[fname]
    base: dict[str, Any] = dict(output_size=sizes[len(shape)])
    params: dict[str, str] = dict(x="array", output_size="sizes", product="product",
                                  out="out", threads="threads")
    extra = [("huge-output_size", dict(output_size=[2**40] * (len(shape) - 2)),
              rx.ResamplexError, "output_size"),
             ("huge-output_size-int64", dict(output_size=[2**62] + [1] * (len(shape) - 3)),
              rx.ResamplexError, "output_size"),
             ("bfloat16-on-atlas_inference", dict(x=_array(shape, "bfloat16"),
                                                  product="atlas_inference"),
              rx.UnsupportedError, "dtype")]
    ranks = (len(shape),)
    if fname == "upsample_nearest":
        params.update(scales_h="attr-ratio", scales_w="attr-ratio", exact_mode="bool",
                      data_format="data_format")
        ranks = (3, 4)
        extra += [("scales_h-float32-overflow", dict(scales_h=1e39), rx.ResamplexError,
                   "scales_h"),
                  ("empty-spatial-axis", dict(x=_f32(1, 2, 0, 6)), rx.ResamplexError, r"\bx\b")]
    elif fname == "upsample_nearest_exact1d":
        base["scales"] = 1.5
        params["scales"] = "scale-or-none"
        extra += [("empty-input", dict(x=_f32(0, 2, 6)), rx.ResamplexError, r"\bx\b"),
                  ("scales-reciprocal-overflow", dict(scales=1e-45), rx.ResamplexError,
                   "scales")]
    elif fname == "upsample_nearest_exact2d":
        base.update(scales_h=2.0, scales_w=0.5)
        params.update(scales_h="scale-or-none", scales_w="scale-or-none")
    elif fname == "upsample_nearest_exact3d":
        base.update(scales_d=2.0, scales_h=2.0, scales_w=0.5)
        params.update(scales_d="scale-or-none", scales_h="scale-or-none",
                      scales_w="scale-or-none")
        extra += [("scale-conflicts-output_size", dict(scales_d=3.0), rx.ResamplexError,
                   "scales_d"),
                  ("empty-input", dict(x=_f32(0, 1, 2, 4, 6)), rx.ResamplexError, r"\bx\b")]
    return Function(f"ascend.{fname}", fn,
                    lambda: dict(x=_f32(*shape), **{k: list(v) if isinstance(v, list) else v
                                                    for k, v in base.items()}),
                    params, array_bad=_ascend_array_bad(shape, ranks, fname), extra=extra)


# ---- ONNX

def _onnx() -> Function:
    bads = [Bad(f"dtype-{d}", (lambda d=d: lambda b: _array((1, 2, 4, 6), d))(),
                rx.UnsupportedError, "dtype") for d in _dtypes_except(WEIGHTED)]
    bads += [Bad("0-d", np.zeros((), np.float32), match=r"\bX\b"),
             Bad("64-d-wrong-scales", lambda b: np.zeros((1,) * 64, np.float32),
                 match=r"\bX\b|scales")]
    extra = [
        ("both-scales-and-sizes", dict(sizes=[1, 2, 8, 3]), rx.ResamplexError, "scales|sizes"),
        ("neither", dict(scales=None), rx.ResamplexError, "scales|sizes"),
        ("roi-wrong-length", dict(coordinate_transformation_mode="tf_crop_and_resize",
                                  roi=[0, 0, 1, 1]), rx.ResamplexError, "roi"),
        ("roi-nan", dict(coordinate_transformation_mode="tf_crop_and_resize",
                         roi=[0, 0, 0, NAN, 1, 1, 1, 1]), rx.ResamplexError, "roi"),
        ("roi-str", dict(coordinate_transformation_mode="tf_crop_and_resize",
                         roi=["0"] * 8), rx.ResamplexError, "roi"),
        ("antialias-nearest", dict(mode="nearest", antialias=1), rx.ResamplexError, "antialias"),
        ("tf_half_pixel_for_nn", dict(coordinate_transformation_mode="tf_half_pixel_for_nn"),
         rx.ResamplexError, "coordinate_transformation_mode"),
        ("mode-area", dict(mode="area"), rx.ResamplexError, "mode"),
        ("scales-float32-overflow", dict(scales=[1, 1, 1e39, 1]), rx.ResamplexError, "scales"),
        ("scales-gives-zero", dict(scales=[1, 1, 0.1, 1]), rx.ResamplexError, "scales"),
        ("sizes-zero", dict(scales=None, sizes=[1, 2, 0, 3]), rx.ResamplexError, "sizes"),
        ("sizes-negative", dict(scales=None, sizes=[1, 2, -1, 3]), rx.ResamplexError, "sizes"),
        ("sizes-float", dict(scales=None, sizes=[1, 2, 8.5, 3]), rx.ResamplexError, "sizes"),
        ("sizes-wrong-length", dict(scales=None, sizes=[8, 3]), rx.ResamplexError, "sizes"),
        ("axes-float", dict(axes=[2.0, 3.0], scales=[2, 0.5]), rx.ResamplexError, "axes"),
        ("axes-repeated", dict(axes=[2, 2], scales=[2, 0.5]), rx.ResamplexError, "axes"),
        ("axes-out-of-range", dict(axes=[2, 4], scales=[2, 0.5]), rx.ResamplexError, "axes"),
        ("axes-empty", dict(axes=[], scales=[2, 0.5]), rx.ResamplexError, "axes"),
        ("cubic_coeff_a-float32-overflow", dict(cubic_coeff_a=1e39), rx.ResamplexError,
         "cubic_coeff_a"),
        ("extrapolation-nan-int", dict(X=np.zeros((1, 2, 4, 6), np.uint8),
                                       coordinate_transformation_mode="tf_crop_and_resize",
                                       roi=[0, 0, -0.5, 0, 1, 1, 1.5, 1],
                                       extrapolation_value=NAN),
         rx.ResamplexError, "extrapolation_value"),
        ("huge-sizes", dict(scales=None, sizes=[1, 2, 2**40, 2**40]), rx.ResamplexError,
         "output|sizes"),
        ("huge-sizes-int64", dict(scales=None, sizes=[2**62, 2, 4, 6]), rx.ResamplexError,
         "output|sizes"),
        ("huge-scales", dict(scales=[1, 1, 2.0**40, 2.0**40]), rx.ResamplexError,
         "output|scales"),
        ("huge-keep-aspect", dict(scales=None, sizes=[2**40, 2**40], axes=[2, 3],
                                  keep_aspect_ratio_policy="not_smaller"),
         rx.ResamplexError, "output|sizes"),
        ("huge-antialias-window", dict(X=np.zeros((2**20,), np.float32), scales=[2.0**-100],
                                       antialias=1), rx.ResamplexError, "scales|tables|output"),
    ]
    return Function(
        "onnx.resize", ronnx.resize,
        # the reference flavour: every dtype and layout (the onnxruntime one refuses more)
        lambda: dict(X=_f32(*_DML4), scales=[1, 1, 2, 0.5], mode="linear",
                     flavour="reference"),
        dict(X="array", roi="offsets", scales="scales", sizes="sizes", mode="name",
             coordinate_transformation_mode="name", nearest_mode="name",
             cubic_coeff_a="real", exclude_outside="bool01", extrapolation_value="extrapolation",
             antialias="bool01", axes="axes", keep_aspect_ratio_policy="name", out="out",
             threads="threads", rounding="name-or-none", flavour="name"),
        array_bad=bads, extra=extra,
        template=dict(roi=[0, 0, 0, 0, 1, 1, 1, 1], sizes=[1, 2, 8, 3], axes=[0, 1, 2, 3]),
        companion=dict(sizes=dict(scales=None)))


# ---- PyTorch

def _torch() -> Function:
    accepted = TORCH_BILINEAR_DTYPES
    bads = [Bad(f"dtype-{d}", (lambda d=d: lambda b: _array(_DML4, d))(), rx.UnsupportedError,
                "input") for d in _dtypes_except(accepted)]
    for nd in (0, 1, 2, 3, 5, 6):
        bads.append(Bad(f"rank-{nd}", (lambda nd=nd: lambda b: _f32(*(2,) * nd))(),
                        rx.ResamplexError, "input"))
    extra = [
        ("size-and-scale_factor", dict(scale_factor=2.0), rx.ResamplexError,
         "size|scale_factor"),
        ("neither", dict(size=None), rx.ResamplexError, "size|scale_factor"),
        ("align_corners-with-nearest", dict(mode="nearest", align_corners=False),
         rx.ResamplexError, "align_corners"),
        ("antialias-nearest", dict(mode="nearest", antialias=True),
         rx.ResamplexError, "antialias"),
        ("recompute-with-size", dict(recompute_scale_factor=True), rx.ResamplexError,
         "recompute_scale_factor"),
        ("mode-lanczos", dict(mode="lanczos"), rx.UnsupportedError, "mode"),
        ("mode-rank-mismatch", dict(mode="trilinear"), rx.UnsupportedError, "input"),
        ("scale_factor-nan", dict(size=None, scale_factor=NAN), rx.ResamplexError,
         "scale_factor"),
        ("scale_factor-inf", dict(size=None, scale_factor=INF), rx.ResamplexError,
         "scale_factor"),
        ("scale_factor-str", dict(size=None, scale_factor="2"), rx.ResamplexError,
         "scale_factor"),
        ("scale_factor-zero", dict(size=None, scale_factor=0.0), rx.ResamplexError,
         "size|scale_factor"),
        ("scale_factor-negative", dict(size=None, scale_factor=-2.0), rx.ResamplexError,
         "size|scale_factor"),
        ("scale_factor-wrong-length", dict(size=None, scale_factor=[2.0, 2.0, 2.0]),
         rx.ResamplexError, "scale_factor"),
        ("huge-size", dict(size=(2**40, 2**40)), rx.ResamplexError, "size"),
        ("huge-size-int64", dict(size=(2**62, 1)), rx.ResamplexError, "size"),
        ("huge-scale_factor", dict(size=None, scale_factor=2.0**40), rx.ResamplexError,
         "size|scale_factor"),
        ("huge-scale_factor-int64", dict(size=None, scale_factor=1e300), rx.ResamplexError,
         "scale_factor"),
        ("huge-antialias-shrink",
         dict(input=np.zeros((1, 1, 2**20, 4), np.float32), size=(1, 2**40), antialias=True),
         rx.ResamplexError, "size"),
    ]
    return Function(
        "torch.interpolate", rtorch.interpolate,
        lambda: dict(input=_f32(*_DML4), size=(8, 3), mode="bilinear"),
        dict(input="array", size="sizes", scale_factor="scales", mode="name",
             align_corners="bool-none", recompute_scale_factor="truth",
             antialias="truth", out="out", threads="threads"),
        array_bad=bads, extra=extra, template=dict(scale_factor=[2.0, 0.5]),
        companion=dict(scale_factor=dict(size=None)))


def _set_threads() -> Function:
    return Function("set_num_threads", _set_num_threads, lambda: dict(n=2), dict(n="threads"))


FUNCTIONS: list[Function] = [
    _core_resize("linear"), _core_resize("nearest"), _core_resize("cubic"), _core_resize("area"),
    _resampler(), _resampler_call(), _resampler_adjoint(), _resize_adjoint(), _set_threads(),
    *[_dml_resample(f) for f in ("resample", "resample1", "resample2", "resample3")],
    _dml_upsample(), _dml_grad("resample_grad"), _dml_grad("resample_grad1"),
    *[_ascend(f) for f in ("upsample_nearest", "upsample_nearest_exact1d",
                           "upsample_nearest_exact2d", "upsample_nearest_exact3d",
                           "upsample_nearest1d", "upsample_nearest2d")],
    _onnx(), _torch(),
]


# Parameter/value pairs that are *valid* for a particular function although the generic table
# calls them bad (documented behaviour, not defects).
ALLOWED = {
    # DirectML names are case-insensitive and DML's own spellings are accepted.
    ("dml.*", "interpolation_mode", "case"), ("dml.*", "rounding_direction", "case"),
    # output_shape/out.shape: DirectML takes the output shape from `out`; the scale only maps.
    ("dml.*", "output_shape", "nested"),
    # ONNX `sizes` is an int64 tensor: NumPy turns [1, 2, 8, True] into one.
    ("onnx.resize", "sizes", "bool-entry"),
}

# Messages that name a related parameter instead: a length mismatch between in_shape and
# size is reported on size; torch reports a zero output length on size, as torch does.
MATCH = {
    ("in_shape", "too-long"): "in_shape|size", ("in_shape", "too-short"): "in_shape|size",
    ("scale_factor", "zero"): "size|scale_factor", ("scale_factor", "-0.0"): "size|scale_factor",
    ("scale_factor", "negative"): "size|scale_factor",
}

# Known defects outside this helper's files, as strict xfails (they fail loudly once fixed,
# so the marker gets removed): (function, parameter, tag) -> reason.
KNOWN: dict = {}


def _allowed(fname: str, param: str, tag: str) -> bool:
    return any((f == fname or (f.endswith("*") and fname.startswith(f[:-1])))
               and p == param and t == tag for f, p, t in ALLOWED)


# ------------------------------------------------------------------------------ the matrix

@dataclass(frozen=True)
class Case:
    fn: Function
    param: str
    tag: str
    mutation: dict
    error: type
    match: str

    @property
    def id(self) -> str:
        return f"{self.fn.name}-{self.param}-{self.tag}"


def _default_match(param: str) -> str:
    return rf"\b{re.escape(param)}\b"


def _build_matrix() -> list[Case]:
    cases: list[Case] = []
    for fn in FUNCTIONS:
        for param, kind in fn.params.items():
            bads = _bad_out(fn) if kind == "out" else BAD_BY_KIND[kind]()
            if kind == "array":
                bads = bads + fn.array_bad
            for bad in bads:
                if _allowed(fn.name, param, bad.tag):
                    continue
                match = bad.match or MATCH.get((param, bad.tag)) or _default_match(param)
                if kind == "array" and bad.match is None:
                    # a value NumPy turns into an object array is refused for its dtype
                    match = rf"{match}|DML_\w+|dtype"
                cases.append(Case(fn, param, bad.tag, {param: bad.value}, bad.error, match))
        for tag, mutation, error, match in fn.extra:
            cases.append(Case(fn, "*", tag, mutation, error, match))
    return cases


MATRIX = _build_matrix()
N = len(MATRIX)


def _param(case: Case, i: int):
    reason = KNOWN.get((case.fn.name, case.param, case.tag))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, id=f"{i:04d}of{N}-{case.id}", marks=marks)


def _kwargs(case: Case) -> dict:
    fn = case.fn
    kw = fn.base()
    if case.param == "*":             # a combination: literal values
        kw.update(case.mutation)
        return kw
    (param, value), = case.mutation.items()
    valid = kw.get(param, fn.template.get(param))
    kw.update(fn.companion.get(param, {}))
    if isinstance(value, Derive):
        value = value.fn(kw) if value.whole else value.fn(valid)
    elif callable(value) and not isinstance(value, type):
        value = value(valid)          # a fresh array
    kw[param] = value
    return kw


@pytest.mark.parametrize("case", [_param(c, i) for i, c in enumerate(MATRIX, 1)])
def test_bad_input_is_refused(case: Case):
    kw = _kwargs(case)
    exc, peak = allocation_peak(lambda: case.fn.call(**kw))
    if exc is None:
        pytest.fail(f"{case.id}: accepted {case.mutation!r}")
    if not isinstance(exc, rx.ResamplexError):
        pytest.fail(f"{case.id}: raised a bare {type(exc).__name__}: {exc}")
    assert isinstance(exc, case.error), (
        f"{case.id}: raised {type(exc).__name__} ({exc}), expected {case.error.__name__}")
    assert re.search(case.match, str(exc)), (
        f"{case.id}: the message does not name the parameter ({case.match!r}): {exc}")
    assert peak < ALLOC_SLACK, f"{case.id}: allocated {peak >> 20} MiB before refusing"


def test_matrix_size():
    """Every public function has cases, and every parameter of each is in the matrix."""
    per = collections.Counter(c.fn.name for c in MATRIX)
    assert N >= 1000 and min(per.values()) >= 5, per
    assert {f.name for f in FUNCTIONS} == set(per)
    # every parameter of every public function is in the matrix
    import inspect
    for fn in FUNCTIONS:
        if fn.call in (_plan_call, _plan_adjoint, _set_num_threads):
            continue
        sig = set(inspect.signature(fn.call).parameters)
        assert sig == set(fn.params), (fn.name, sig ^ set(fn.params))


# ------------------------------------------------------------------------------ not the matrix

@pytest.mark.parametrize("threads", [2**31, 2**63, 10**6, 2**70])
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_huge_thread_counts_are_capped(threads, mode):
    # threads is "an int >= 1": a count far beyond the cores must not crash libgomp
    # (GOMP_parallel with num_threads=10**6 segfaulted) nor overflow the kernels' C int.
    x = np.arange(256 * 512, dtype=np.float32).reshape(256, 512)
    want = rx.resize(x, [300, 700], mode=mode, threads=1)
    got = rx.resize(x, [300, 700], mode=mode, threads=threads)
    assert got.tobytes() == want.tobytes()
    try:
        rx.set_num_threads(threads)
        assert rx.resize(x, [300, 700], mode=mode).tobytes() == want.tobytes()
    finally:
        rx.set_num_threads(None)


def test_user_exceptions_propagate():
    # An iterable whose __iter__ raises is the caller's bug: its own exception comes through
    # unchanged (not wrapped, not swallowed).
    class Boom:
        def __iter__(self):
            raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        rx.resize(np.zeros((4, 6), np.float32), [3, 5], axes=Boom())


@pytest.mark.parametrize("fn", [f for f in FUNCTIONS if "out" in f.params], ids=lambda f: f.name)
def test_refused_calls_leave_out_untouched(fn):
    # A call refused for its parameters never writes into `out` (validation before work).
    base = fn.base()
    result = fn.call(**base)
    out = np.full(result.shape, 7, result.dtype)
    kw = dict(base, out=out, threads=0)
    with pytest.raises(rx.ResamplexError):
        fn.call(**kw)
    assert (out == 7).all()


def test_allocation_peak_sees_numpy_buffers():
    # the measuring stick of test_bad_input_is_refused can fail: a refusal after a big
    # allocation is seen
    def late_refusal():
        np.ones(4 << 20)              # 32 MiB
        raise rx.ResamplexError("size: too late")

    exc, peak = allocation_peak(late_refusal)
    assert isinstance(exc, rx.ResamplexError) and peak >= 32 << 20
    exc, peak = allocation_peak(lambda: rx.resize(np.zeros((4, 6)), [2**40, 2**40]))
    assert isinstance(exc, rx.ResamplexError) and peak < ALLOC_SLACK


def test_torch_bilinear_dtypes_are_torchs():
    """TORCH_BILINEAR_DTYPES, the dtypes compat.torch must accept, are those torch's own
    bilinear accepts."""
    torch = pytest.importorskip("torch")
    names = {"bool": torch.bool, "int8": torch.int8, "uint8": torch.uint8,
             "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
             "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
             "float64": torch.float64, "complex64": torch.complex64,
             "complex128": torch.complex128}
    accepted = []
    for name, dt in names.items():
        try:
            torch.nn.functional.interpolate(torch.zeros((1, 1, 4, 6), dtype=dt), size=(3, 5),
                                            mode="bilinear")
        except (RuntimeError, NotImplementedError):
            continue
        accepted.append(name)
    assert sorted(accepted) == sorted(TORCH_BILINEAR_DTYPES)
