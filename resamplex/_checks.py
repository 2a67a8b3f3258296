"""The validators every facade composes (STYLE.md: the facade validates, the kernel trusts).

Each one names the parameter, shows what was received and says what is accepted (through
``_errors``). Nothing here allocates more than the value it checks.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from . import _dtypes
from ._engine import _exec
from ._errors import ResamplexError, UnsupportedError, bad_value

MAX_NDIM = 64
INTP_MAX = int(np.iinfo(np.intp).max)


def is_int(v: Any) -> bool:
    """An integer, not a bool (``True`` is not a length)."""
    return type(v) is int or (isinstance(v, numbers.Integral)
                               and not isinstance(v, (bool, np.bool_)))


def is_real(v: Any) -> bool:
    """A real number, not a bool."""
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


def c_index(value: Any) -> int | None:
    """``value`` as CPython's integer argument formats read it (``"i"``: ``__index__``, so
    ints, bools and NumPy integers, not floats, strings or NumPy bools), or None where they
    refuse it (a ``TypeError`` in the original)."""
    try:
        return operator.index(value)
    except TypeError:
        return None


def c_double(value: Any) -> float | None:
    """``value`` as CPython's ``"d"`` and ``"f"`` formats read it (``PyFloat_AsDouble``:
    anything with ``__float__`` or ``__index__``, never a string), or None where they refuse
    it (a ``TypeError`` in the original)."""
    if isinstance(value, (str, bytes, bytearray)):
        return None
    try:
        return float(value)
    except TypeError:
        return None


def flag(name: str, value: Any, accepted: str = "True or False", *,
         ints: bool = False) -> bool:
    """A boolean argument; with ``ints``, 0 and 1 too (torch and ONNX take them)."""
    if isinstance(value, (bool, np.bool_)) or (ints and is_int(value) and value in (0, 1)):
        return bool(value)
    raise bad_value(name, value, accepted)


def as_array(x: Any, name: str) -> np.ndarray:
    """``x`` as an ndarray; what NumPy cannot make an array of (ragged lists) is refused."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (str, bytes)) or x is None:
        raise bad_value(name, x, "a numpy.ndarray")
    try:
        return np.asarray(x)
    except (ValueError, TypeError) as exc:
        raise bad_value(name, x, f"a numpy.ndarray (NumPy: {exc})") from None


def ndim(value: Any) -> int:
    """``np.ndim(value)``, or -1 where NumPy cannot make an array of it (ragged lists)."""
    try:
        return np.ndim(value)
    except (ValueError, TypeError):
        return -1


def check_threads(threads: Any, name: str = "threads") -> int:
    """``threads``: an integer >= 1."""
    if not is_int(threads) or threads < 1:
        raise bad_value(name, threads, "None or an integer >= 1")
    return int(threads)


def normalize_axes(axes: Any, ndim_: int, what: str = "input") -> tuple[int, ...]:
    """Distinct axes in ``[-ndim, ndim)``, as non-negative integers (``None``: all axes)."""
    if axes is None:
        return tuple(range(ndim_))
    seq = (axes,) if is_int(axes) else axes
    if isinstance(seq, (str, bytes)):
        raise bad_value("axes", axes, "an integer or a sequence of integers")
    try:
        seq = tuple(seq)
    except TypeError:
        raise bad_value("axes", axes, "an integer or a sequence of integers") from None
    if not seq or not all(is_int(a) for a in seq):
        raise bad_value("axes", axes, "a non-empty integer or sequence of integers")
    if any(not -ndim_ <= a < ndim_ for a in seq):
        raise bad_value("axes", axes, f"axes in [-{ndim_}, {ndim_ - 1}] for a {ndim_}-d {what}")
    norm = tuple(int(a) % ndim_ for a in seq)
    if len(set(norm)) != len(norm):
        raise bad_value("axes", axes, "no repeated axis")
    return norm


# ------------------------------------------------------------------------------ memory

@lru_cache(maxsize=1)
def memory_limit() -> int:
    """Bytes of physical memory (an allocation above it is refused before it is tried)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 1 << 46


def check_allocation(nbytes: int, what: str) -> None:
    """Refuse an allocation that overflows the address space or exceeds physical memory."""
    if nbytes > INTP_MAX:
        raise ResamplexError(f"{what}: {nbytes} bytes overflows the addressable size")
    limit = memory_limit()
    if nbytes > limit:
        raise ResamplexError(
            f"{what}: needs {nbytes / 2**30:.1f} GiB, more than this machine's "
            f"{limit / 2**30:.1f} GiB of memory"
        )


# ------------------------------------------------------------------------------ out=

def check_out_early(out: Any, shape: Sequence[int], dtype: np.dtype, hint: str = "") -> None:
    """Shape and dtype of a facade's ``out`` before anything is built (``check_out`` does the
    rest when the plan runs). ``hint`` says where the expected shape comes from."""
    if out is None:
        return
    if not isinstance(out, np.ndarray):
        raise bad_value("out", type(out).__name__, "a numpy.ndarray")
    if out.shape != tuple(shape):
        raise ResamplexError(f"out: expected shape {tuple(shape)}{hint}; got {out.shape}")
    if out.dtype != dtype:
        raise ResamplexError(f"out: expected dtype {dtype} (the input's); got {out.dtype}")


def check_out(out: Any, shape: Sequence[int], x: np.ndarray,
              dtype: np.dtype | None = None) -> None:
    """``out``: an ndarray of ``shape`` and ``dtype`` (default: ``x``'s), writeable, not
    sharing memory with ``x``."""
    if not isinstance(out, np.ndarray):
        raise bad_value("out", type(out).__name__, "a numpy.ndarray")
    if out.shape != tuple(shape):
        raise ResamplexError(f"out: expected shape {tuple(shape)}; got {out.shape}")
    want = x.dtype if dtype is None else dtype
    if out.dtype != want:
        raise ResamplexError(f"out: expected dtype {want}; got {out.dtype}")
    if not out.flags.writeable:
        raise ResamplexError("out: the array is read-only")
    if isinstance(x, np.ndarray) and _exec.may_overlap(out, x):
        raise ResamplexError("out: must not share memory with the input")
    check_out_distinct(out)


def _overlap(out: np.ndarray) -> str | None:
    """How ``out``'s elements overlap each other (a writeable ``as_strided`` view, e.g. a
    zero stride), or None where they are distinct.

    Strides that nest (each at least the extent of the smaller ones) cannot overlap; otherwise
    the byte offsets decide (up to 2**16 elements), and a larger array with interleaved
    strides counts as overlapping as well.
    """
    if out.size <= 1:
        return None
    extent = out.itemsize  # bytes spanned by the axes taken so far
    for stride, n in sorted((abs(s), n) for s, n in zip(out.strides, out.shape) if n > 1):
        if stride < extent:
            break
        extent += stride * (n - 1)
    else:
        return None
    if out.size <= 1 << 16:
        offsets = np.zeros(1, dtype=np.int64)
        for s, n in zip(out.strides, out.shape):
            offsets = (offsets[:, None] + np.arange(n, dtype=np.int64) * s).ravel()
        offsets.sort()
        if bool(np.all(np.diff(offsets) >= out.itemsize)):
            return None
    elif all(s != 0 for s, n in zip(out.strides, out.shape) if n > 1):
        return "may overlap each other (strides too intricate to check)"
    return "overlap each other"


def out_is_distinct(out: np.ndarray) -> bool:
    """Whether ``out``'s elements are distinct, as ``check_out_distinct`` requires."""
    return _overlap(out) is None


def check_out_distinct(out: np.ndarray) -> None:
    """Refuse an ``out`` whose elements overlap each other (``_overlap``): several outputs
    would race for one element, and the result would depend on the thread schedule."""
    overlap = _overlap(out)
    if overlap is None:
        return
    raise ResamplexError(f"out: its elements {overlap}: shape {out.shape}, strides "
                         f"{out.strides}; give an array of distinct elements, e.g. "
                         "numpy.empty(shape, dtype)")


# ------------------------------------------------------------------------------ dtype=, affine=

#: What a conversion carries to the plan: the output dtype (None: the input's) and the
#: affine's ``(a, b)`` in the compute type, shaped to the output's rank (None: no affine).
Conversion = tuple["np.dtype | None", "tuple[np.ndarray, np.ndarray] | None"]


def check_conversion(in_dtype: np.dtype, dtype: Any, affine: Any, out: Any,
                     out_shape: Sequence[int]) -> Conversion:
    """Validate ``dtype=``, ``affine=`` and an ``out=`` of another dtype (SPEC §2), before
    anything is allocated. Returns ``(None, None)`` when nothing converts (the output has the
    input's dtype and there is no affine), else the output dtype and the affine's arrays in
    the compute type (``_dtypes.convert_compute``)."""
    out_dtype = out.dtype if isinstance(out, np.ndarray) else None
    try:
        known = _CONVERSIONS.get((in_dtype, dtype, out_dtype))
    except TypeError:  # an unhashable dtype= (refused below)
        known = None
    if known is None:
        known = _conversion_types(in_dtype, dtype, out_dtype)
        if len(_CONVERSIONS) < 256:
            _CONVERSIONS[(in_dtype, dtype, out_dtype)] = known
    odt, compute, integer = known
    if affine is None and (odt is None or odt == in_dtype):
        return None, None
    odt = in_dtype if odt is None else odt
    if compute is None:  # a dtype outside the registry: its error
        compute = _dtypes.convert_compute(in_dtype, odt)
    return odt, (None if affine is None else
                 affine_arrays(affine, tuple(out_shape), compute, integer))


#: (input dtype, dtype=, out='s dtype) -> what ``_conversion_types`` made of them: the
#: dtypes a program converts between, looked up on every converting call.
_CONVERSIONS: dict[tuple[Any, Any, Any], tuple[np.dtype | None, np.dtype | None, bool]] = {}


def _conversion_types(in_dtype: np.dtype, dtype: Any, out_dtype: np.dtype | None
                      ) -> tuple[np.dtype | None, np.dtype | None, bool]:
    """The output dtype (None: the input's), the compute type (None where a dtype is outside
    the registry: an error if the call converts) and whether the output is an integer type,
    of a call with these dtypes; errors for a ``dtype=`` or ``out=`` outside the registry."""
    odt = None
    if dtype is not None:
        try:
            odt = _dtypes.as_dtype(dtype)
        except TypeError:
            raise UnsupportedError(
                f"dtype: expected a NumPy dtype; got {dtype!r}") from None
        _dtypes.output_info(odt)
        if out_dtype is not None and out_dtype != odt:
            raise ResamplexError(f"out: its dtype {out_dtype} disagrees with dtype={odt}")
    elif out_dtype is not None and out_dtype != in_dtype:
        odt = out_dtype
        _dtypes.output_info(odt, "out")
    full = in_dtype if odt is None else odt
    if _dtypes.registry_entry(in_dtype) is None or _dtypes.registry_entry(full) is None:
        return odt, None, False
    return odt, _dtypes.convert_compute(in_dtype, full), _dtypes.output_info(full).integer


def affine_arrays(affine: Any, shape: tuple[int, ...], compute: np.dtype,
                  integer: bool) -> tuple[np.ndarray, np.ndarray]:
    """``affine=(a, b)``: real scalars or arrays broadcastable to the output ``shape`` (NumPy
    rules), finite where the output is an integer type; returned as contiguous arrays of
    ``compute`` with ``len(shape)`` dimensions (length 1 where they broadcast). Messages show
    shapes and dtypes, never values."""
    if not isinstance(affine, (tuple, list)) or len(affine) != 2:
        what = f"a {type(affine).__name__} of {len(affine)}" \
            if isinstance(affine, (tuple, list)) else type(affine).__name__
        raise ResamplexError(f"affine: expected a pair (a, b) of numbers or arrays; got {what}")
    arrays = []
    nd = len(shape)
    for name, v in zip("ab", affine):
        if type(v) is np.ndarray and not integer and v.dtype == compute \
                and v.flags.c_contiguous and _broadcasts(v.shape, shape):
            # already of the compute type (a per-channel mean, a repeated call's arrays):
            # a view of the output's rank
            arrays.append(v if v.ndim == nd else v.reshape((1,) * (nd - v.ndim) + v.shape))
            continue
        if isinstance(v, (str, bytes)) or v is None:
            raise ResamplexError(f"affine: {name} must be a real number or an array of them; "
                                 f"got {type(v).__name__}")
        try:
            arr = v if type(v) is np.ndarray else np.asarray(v)
        except (ValueError, TypeError):
            raise ResamplexError(f"affine: {name} must be a real number or an array of them; "
                                 f"got {type(v).__name__}") from None
        if arr.dtype.kind not in "iuf":
            raise ResamplexError(f"affine: {name} must hold real numbers; got dtype {arr.dtype}")
        if not _broadcasts(arr.shape, shape):
            raise ResamplexError(f"affine: {name} of shape {arr.shape} does not broadcast to "
                                 f"the output shape {shape}")
        if arr.dtype == compute and arr.flags.c_contiguous:
            cast = arr
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                cast = np.ascontiguousarray(arr, dtype=compute)
        if integer and not bool(np.isfinite(cast).all()):
            raise ResamplexError(f"affine: {name} has a value that is not finite in {compute} "
                                 "(NaN, Inf or too large); an integer output needs finite a "
                                 "and b")
        if cast.ndim != len(shape):
            cast = cast.reshape((1,) * (len(shape) - cast.ndim) + cast.shape)
        arrays.append(cast)
    return arrays[0], arrays[1]


def _broadcasts(shape: tuple[int, ...], to: tuple[int, ...]) -> bool:
    """NumPy's broadcasting rule, against a fixed output shape ``to``."""
    d = len(to) - len(shape)
    if d < 0:
        return False
    for i, m in enumerate(shape):
        if m != 1 and m != to[d + i]:
            return False
    return True


def finite_float(value: Any) -> float | None:
    """``value`` as a finite float, or None if it is not a finite real number."""
    if not is_real(value):
        return None
    try:
        v = float(value)
    except OverflowError:
        return None
    return v if math.isfinite(v) else None
