"""Huawei Ascend CANN nearest-neighbour upsampling, value for value (SPEC §5).

Two levels are reproduced:

* the graph operator ``UpsampleNearest`` (:func:`upsample_nearest`), whose ``scales_h`` /
  ``scales_w`` attributes are *source-per-destination* ratios (input/output), used as given;
* the aclnn API (:func:`upsample_nearest_exact1d`, :func:`upsample_nearest_exact2d`,
  :func:`upsample_nearest_exact3d`, :func:`upsample_nearest1d`, :func:`upsample_nearest2d`),
  whose scales follow PyTorch (output/input) and are inverted before they reach the kernel.

Every function is validation, one axis table per resampled axis (:func:`nearest_table`) and a
shared :class:`~resamplex._resize.Plan`: nearest is a byte gather, so values are copied bit for
bit, NaN payloads included. ``PRODUCTS`` is the product/dtype support table; it drives
validation, messages, :func:`product_table_markdown` and the tests.

Sources: hicann/ops-cv ``image/upsample_nearest`` (tiling ``ComputeScaleValue``, kernel
``CalculateIdxTensor``), ``image/upsample_nearest_exact3d``, ``image/resize_nearest_neighbor_v2``
and the aclnn wrappers beside them; see ``research/ascend_torch.md`` §2–§3.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Sequence

import numpy as np

from . import _dtypes
from ._errors import ResamplexError, UnsupportedError, bad_choice, bad_value
from ._checks import as_array, check_allocation, check_out_early, finite_float
from ._checks import check_threads as _check_threads, ndim as _ndim
from ._engine.cache import PLANS
from ._engine.plan import Plan
from ._tables import AxisTable

__all__ = [
    "DTYPES",
    "PRODUCTS",
    "Product",
    "nearest_table",
    "product_table_markdown",
    "supports",
    "upsample_nearest",
    "upsample_nearest1d",
    "upsample_nearest2d",
    "upsample_nearest_exact1d",
    "upsample_nearest_exact2d",
    "upsample_nearest_exact3d",
]

# ------------------------------------------------------------------------------ products

#: Data types of the nearest operators (registry name -> CANN name), in CANN's order.
DTYPES: Mapping[str, str] = MappingProxyType(
    {"float32": "FLOAT32", "float16": "FLOAT16", "bfloat16": "BFLOAT16"})


@dataclass(frozen=True)
class Product:
    """One Ascend product family and the dtypes its nearest operators accept."""

    name: str                 # the ``product=`` value
    title: str                # the family as Huawei's documentation names it
    supported: bool           # the operators exist on this product
    dtypes: tuple[str, ...]   # registry names (``DTYPES`` keys); empty when not supported


_ALL = tuple(DTYPES)

#: The Ascend products (SPEC §5). Supported: ``atlas_a3``, ``atlas_a2``, ``atlas_inference``
#: (no BFLOAT16). The others are listed so that they are refused by name rather than as typos.
PRODUCTS: Mapping[str, Product] = MappingProxyType({p.name: p for p in (
    Product("atlas_a3", "Atlas A3 training series / Atlas A3 inference series", True, _ALL),
    Product("atlas_a2", "Atlas A2 training series / Atlas 800I A2 inference / A200I A2 Box",
            True, _ALL),
    Product("atlas_inference", "Atlas inference series", True, ("float32", "float16")),
    Product("ascend910_95", "Ascend 950PR / Ascend 950DT", False, ()),
    Product("atlas_200i_500_a2", "Atlas 200I/500 A2 inference products", False, ()),
    Product("atlas_training", "Atlas training series", False, ()),
    Product("atlas_200_300_500_inference", "Atlas 200/300/500 inference products", False, ()),
)})

DEFAULT_PRODUCT = "atlas_a2"


def _product(product: Any) -> Product:
    if not isinstance(product, str) or product not in PRODUCTS:
        raise bad_choice("product", product, PRODUCTS)
    return PRODUCTS[product]


def _dtype_key(dtype: Any) -> str | None:
    """Registry name of ``dtype`` (``np.float16``, ``"float16"``, ``"FLOAT16"``, a bfloat16
    dtype), or None if it is not a dtype at all. Byte order does not matter: nearest copies."""
    if isinstance(dtype, str):
        for key, label in DTYPES.items():
            if dtype in (key, label):
                return key
    try:
        dt = _dtypes.as_dtype(dtype)
    except TypeError:
        return None
    return _dtypes.dtype_name(dt.newbyteorder("=") if not dt.isnative else dt)


def _label(key: str) -> str:
    return DTYPES.get(key, key)


def supports(product: str, dtype: Any) -> bool:
    """Whether the Ascend nearest operators accept ``dtype`` on ``product`` (``PRODUCTS``).

    An unknown product name raises :class:`~resamplex.ResamplexError` listing the known ones.

    Examples
    --------
    >>> from resamplex import ascend
    >>> ascend.supports("atlas_a2", "BFLOAT16"), ascend.supports("atlas_inference", "bfloat16")
    (True, False)
    >>> ascend.supports("atlas_training", "float32")
    False
    """
    entry = _product(product)
    return _dtype_key(dtype) in entry.dtypes


def _check_support(op: str, product: Any, dtype: np.dtype) -> None:
    """Refuse an unsupported product or dtype, naming both (UnsupportedError)."""
    entry = _product(product)
    key = _dtype_key(dtype) or str(dtype)
    if not entry.supported:
        usable = ", ".join(p.name for p in PRODUCTS.values() if p.supported)
        raise UnsupportedError(
            f"product: ascend.{op} is not available on {entry.name} ({entry.title}); got "
            f"product={entry.name!r} with dtype {_label(key)}; supported products: {usable}")
    if key not in entry.dtypes:
        others = [p.name for p in PRODUCTS.values() if key in p.dtypes]
        hint = f" ({_label(key)} is supported on {', '.join(others)})" if others else ""
        raise UnsupportedError(
            f"dtype: ascend.{op} on {entry.name} ({entry.title}) supports "
            f"{', '.join(_label(k) for k in entry.dtypes)}; got {_label(key)}{hint}")


def product_table_markdown() -> str:
    """``PRODUCTS`` as a Markdown table (for the README, docs and ``resamplex info``).

    Examples
    --------
    >>> from resamplex import ascend
    >>> print(ascend.product_table_markdown().splitlines()[0])
    | `product=` | Ascend products | supported | FLOAT32 | FLOAT16 | BFLOAT16 |
    """
    head = ["`product=`", "Ascend products", "supported", *DTYPES.values()]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for p in PRODUCTS.values():
        marks = ["yes" if k in p.dtypes else ("no" if p.supported else "—") for k in DTYPES]
        lines.append("| " + " | ".join(
            [f"`{p.name}`", p.title, "yes" if p.supported else "no", *marks]) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ axis tables

def nearest_table(n_in: int, n_out: int, ratio: np.float32, exact: bool) -> AxisTable:
    """The Ascend nearest index of every output along one axis, as a gather table.

    ``ratio`` is the float32 source-per-destination ratio the kernel receives. Float32
    arithmetic, one rounding per operation and no fused multiply-add, as the A2/A3 and 310P
    kernels compute it (``upsample_nearest.h`` ``CalculateIdxTensor``: ``ArithProgression``,
    ``Adds``, ``Muls``, ``Floor``, ``Mins``)::

        exact:  src = min(floor(fl32(fl32(o + 0.5) * ratio)), n_in - 1)
        legacy: src = min(floor(fl32(o * ratio)), n_in - 1)

    NumPy float32 array operations round each result to float32 and never fuse them. The
    clamp is taken in float64 so that an infinite product (a huge ratio) lands on ``n_in - 1``
    as the kernel's ``Mins`` does.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.ascend import nearest_table
    >>> nearest_table(6, 4, np.float32(1.5), exact=True).idx     # floor((o + 0.5) * 1.5)
    array([0, 2, 3, 5])
    >>> nearest_table(6, 4, np.float32(1.5), exact=False).idx    # floor(o * 1.5)
    array([0, 1, 3, 4])
    """
    o = np.arange(n_out, dtype=np.int64).astype(np.float32)
    if exact:
        o += np.float32(0.5)
    t = o * np.float32(ratio)
    src = np.minimum(np.floor(t).astype(np.float64), n_in - 1).astype(np.int64)
    return AxisTable.gather(n_in, src)


def _size_ratio(n_in: int, n_out: int) -> np.float32:
    """``(float)in / (float)out``: the ratio derived from the sizes, a float32 division."""
    return np.float32(n_in) / np.float32(n_out)


def _op_ratio(attr: np.float32, n_in: int, n_out: int, same_size_is_one: bool) -> np.float32:
    """The tiling's ``ComputeScaleValue``: ``1`` for an unchanged axis of a 4-D input, else the
    float32 attribute if it is > 0, else the ratio of the sizes."""
    if same_size_is_one and n_in == n_out:
        return np.float32(1.0)
    if attr > 0:
        return attr
    return _size_ratio(n_in, n_out)


def _reciprocal_attr(scale: float | None) -> np.float32:
    """What the aclnn layer hands the kernel for a PyTorch-style ``scale`` (output/input):
    ``float(1.0 / scale)``, the reciprocal taken in double, or 0 ("derive from the sizes")."""
    if scale is None or scale <= 0:
        return np.float32(0.0)
    return np.float32(1.0 / scale)


# ------------------------------------------------------------------------------ validation

_AXIS_NAMES = {3: ("L",), 4: ("H", "W"), 5: ("D", "H", "W")}
_FORMATS = {"NCL": (3, (2,)), "NLC": (3, (1,)), "NCHW": (4, (2, 3)), "NHWC": (4, (1, 2))}


def _check_rank(op: str, x: np.ndarray, ranks: Sequence[int], layouts: str) -> None:
    if x.ndim not in ranks:
        raise UnsupportedError(f"x: ascend.{op} takes {layouts} arrays; got {x.ndim}-D "
                               f"shape {x.shape}")


def _check_output_size(output_size: Any, names: Sequence[str]) -> tuple[int, ...]:
    n = len(names)
    accepted = f"a sequence of {n} integer{'s' if n > 1 else ''} >= 1 (the new {', '.join(names)})"
    if isinstance(output_size, (str, bytes)) or _ndim(output_size) != 1:
        raise bad_value("output_size", output_size, accepted)
    sizes = tuple(output_size)
    if len(sizes) != n or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                  and v >= 1 for v in sizes):  # type: ignore[operator]
        raise bad_value("output_size", output_size, accepted)
    return tuple(int(v) for v in sizes)


def _to_float32(v: float) -> np.float32:
    """Round to float32; out-of-range values become inf (checked by the callers)."""
    with np.errstate(over="ignore"):
        return np.float32(v)


def _check_attr(name: str, value: Any) -> np.float32:
    """An operator-level ratio attribute (input/output; 0 = derive from the sizes), as the
    float32 the operator stores."""
    v = finite_float(value)
    if v is None or v < 0 or not math.isfinite(_to_float32(v)):
        raise bad_value(name, value, "a finite float32 ratio input/output >= 0 "
                        "(0 derives it from the sizes)")
    return np.float32(v)


def _check_scale(name: str, value: Any) -> float | None:
    """An aclnn-level scale (output/input, as PyTorch's; None or 0 = derive from the sizes)."""
    if value is None:
        return None
    s = finite_float(value)
    if s is None or s < 0:
        raise bad_value(name, value, "None or a finite scale output/input >= 0 "
                        "(None or 0 derives it from the sizes)")
    if s > 0 and not math.isfinite(_to_float32(1.0 / s)):
        raise bad_value(name, value, "a scale whose reciprocal is a finite float32 (> 3e-39)")
    return s


def _check_spatial(x: np.ndarray, axes: Sequence[int], names: Sequence[str],
                   allow_empty_batch: bool, op: str) -> None:
    """Spatial input axes must have something to sample from; an empty N or C gives an empty
    result where the operator allows it."""
    for a, nm in zip(axes, names):
        if x.shape[a] == 0:
            raise ResamplexError(f"x: axis {nm} has length 0 (nothing to sample from); "
                                 f"got shape {x.shape}")
    if not allow_empty_batch and x.size == 0:
        raise ResamplexError(f"x: ascend.{op} does not accept empty arrays (as CANN); "
                             f"got shape {x.shape}")


def _out_shape(x: np.ndarray, axes: Sequence[int], sizes: Sequence[int]) -> tuple[int, ...]:
    shape = list(x.shape)
    for a, n in zip(axes, sizes):
        shape[a] = n
    return tuple(shape)


# ------------------------------------------------------------------------------ execution

def _plan(in_shape: tuple[int, ...], axes: tuple[int, ...], sizes: tuple[int, ...],
          ratios: tuple[float, ...], exact: bool, op: str) -> Plan:
    """The gather plan of validated arguments, from the shared plan cache."""
    def build() -> Plan:
        tables: list[AxisTable | None] = [None] * len(in_shape)
        for a, n_out, r in zip(axes, sizes, ratios):
            tables[a] = nearest_table(in_shape[a], n_out, np.float32(r), exact)
        return Plan(in_shape, tables, weighted=False, op=f"ascend.{op}")

    return PLANS.get_or_build(("ascend", in_shape, axes, sizes, ratios, exact, op), build)


def _run(op: str, x: np.ndarray, axes: Sequence[int], sizes: Sequence[int],
         ratio_of: Any, exact: bool, out: Any, threads: Any) -> np.ndarray:
    """Check ``out``, ``threads`` and the allocation, then build the tables and gather.

    ``ratio_of(i, n_in, n_out)`` gives the float32 ratio of the ``i``-th resampled axis.
    """
    shape = _out_shape(x, axes, sizes)
    check_out_early(out, shape, x.dtype, " (N and C kept, spatial axes from output_size)")
    if threads is not None:
        _check_threads(threads)
    if out is None:
        check_allocation(math.prod(shape) * x.dtype.itemsize, "output_size")
    check_allocation(sum(sizes) * 40, "output_size")  # the tables: int64 index + pointer + weight
    ratios = tuple(float(ratio_of(i, x.shape[a], n)) for i, (a, n) in enumerate(zip(axes, sizes)))
    plan = _plan(tuple(x.shape), tuple(axes), tuple(sizes), ratios, bool(exact), op)
    return plan(x, out=out, threads=threads)


# ------------------------------------------------------------------------------ operator level

def upsample_nearest(x: Any, output_size: Sequence[int], *, scales_h: float = 0.0,
                     scales_w: float = 0.0, exact_mode: bool = False,
                     data_format: str | None = None, product: str = DEFAULT_PRODUCT,
                     out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
    """The CANN graph operator ``UpsampleNearest`` (``image/upsample_nearest``).

    Parameters
    ----------
    x : numpy.ndarray
        ``(N, C, L)`` or ``(N, C, H, W)``; with ``data_format`` also ``(N, L, C)`` or
        ``(N, H, W, C)``. FLOAT32, FLOAT16 or BFLOAT16 (see ``PRODUCTS``).
    output_size : sequence of int
        The new ``(L,)`` or ``(H, W)``, each >= 1.
    scales_h, scales_w : float
        Source-per-destination ratios (input/output, *not* PyTorch's output/input), stored as
        float32 and used as they are when > 0; 0 derives the ratio ``float32(in)/float32(out)``.
        A 3-D input uses ``scales_h`` for L and ignores ``scales_w``. On a 4-D input an axis
        whose length does not change uses ratio 1, whatever its attribute says.
    exact_mode : bool
        ``True``: ``min(floor(fl32(fl32(o + 0.5) * r)), in - 1)`` (pixel centres, as PyTorch's
        ``nearest-exact``); ``False`` (the operator's default): ``min(floor(fl32(o * r)), in - 1)``
        (pixel corners, as PyTorch's legacy ``nearest``).
    data_format : {"NCHW", "NHWC", "NCL", "NLC"}, optional
        Which axes are spatial; default NCHW for 4-D and NCL for 3-D input.
    product : str
        An entry of ``PRODUCTS`` (default ``"atlas_a2"``).
    out : numpy.ndarray, optional
        Destination of the output shape and dtype, any strides, not overlapping ``x``.
    threads : int, optional
        Thread count (default :func:`resamplex.get_num_threads`).

    Returns
    -------
    numpy.ndarray
        ``x`` with its spatial axes resampled; elements are copied bit for bit.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import ascend
    >>> x = np.arange(5, dtype=np.float32).reshape(1, 1, 5)
    >>> ascend.upsample_nearest(x, [3])[0, 0]                   # legacy: corners
    array([0., 1., 3.], dtype=float32)
    >>> ascend.upsample_nearest(x, [3], exact_mode=True)[0, 0]   # exact: centres
    array([0., 2., 4.], dtype=float32)
    >>> ascend.upsample_nearest(x, [3], scales_h=0.5)[0, 0]      # ratio given: in/out = 0.5
    array([0., 0., 1.], dtype=float32)
    """
    op = "upsample_nearest"
    x = as_array(x, "x")
    _check_support(op, product, x.dtype)
    _check_rank(op, x, (3, 4), "3-D (N, C, L) / (N, L, C) or 4-D (N, C, H, W) / (N, H, W, C)")
    if data_format is None:
        data_format = "NCHW" if x.ndim == 4 else "NCL"
    if not isinstance(data_format, str) or data_format not in _FORMATS:
        raise bad_choice("data_format", data_format, _FORMATS)
    rank, axes = _FORMATS[data_format]
    if rank != x.ndim:
        fits = " or ".join(repr(f) for f, (r, _) in _FORMATS.items() if r == x.ndim)
        raise bad_value("data_format", data_format, f"{fits} for a {x.ndim}-D x")
    names = _AXIS_NAMES[x.ndim]
    sizes = _check_output_size(output_size, names)
    attrs = (_check_attr("scales_h", scales_h), _check_attr("scales_w", scales_w))
    if not isinstance(exact_mode, (bool, np.bool_)):
        raise bad_value("exact_mode", exact_mode, "True or False")
    _check_spatial(x, axes, names, True, op)
    four_d = x.ndim == 4

    def ratio_of(i: int, n_in: int, n_out: int) -> np.float32:
        return _op_ratio(attrs[i], n_in, n_out, four_d)

    return _run(op, x, axes, sizes, ratio_of, bool(exact_mode), out, threads)


# ------------------------------------------------------------------------------ aclnn level

def _aclnn(op: str, x: Any, output_size: Any, n_spatial: int,
           scales: Sequence[tuple[str, Any]] | None, *, exact: bool, same_size_is_one: bool,
           all_or_none: bool, allow_empty_batch: bool, product: Any, out: Any,
           threads: Any) -> np.ndarray:
    """The shared body of the aclnn functions: ``(N, C, *spatial)`` input, spatial axes last.

    ``scales`` is ``None`` for the APIs without scales, else ``(name, value)`` per spatial axis.
    ``same_size_is_one``: the 4-D operator's shortcut (ratio 1 for an unchanged length);
    ``all_or_none``: the 3-D rule (reciprocals only if every scale is > 0).
    """
    x = as_array(x, "x")
    _check_support(op, product, x.dtype)
    rank = n_spatial + 2
    names = _AXIS_NAMES[rank]
    _check_rank(op, x, (rank,), f"{rank}-D (N, C, {', '.join(names)})")
    axes = tuple(range(2, rank))
    sizes = _check_output_size(output_size, names)
    checked = [None] * n_spatial if scales is None else [_check_scale(nm, v) for nm, v in scales]
    _check_spatial(x, axes, names, allow_empty_batch, op)
    if all_or_none:
        if all(s is not None and s > 0 for s in checked):
            # every scale was given and is > 0 here
            _check_scales_match(x, axes, sizes, scales, checked)  # type: ignore[arg-type]
        else:
            checked = [None] * n_spatial
    attrs = [_reciprocal_attr(s) for s in checked]

    def ratio_of(i: int, n_in: int, n_out: int) -> np.float32:
        return _op_ratio(attrs[i], n_in, n_out, same_size_is_one)

    return _run(op, x, axes, sizes, ratio_of, exact, out, threads)


def _check_scales_match(x: np.ndarray, axes: Sequence[int], sizes: Sequence[int],
                        scales: Sequence[tuple[str, Any]], checked: Sequence[float]) -> None:
    """``aclnnUpsampleNearestExact3d``: with all scales given, each output length must be
    ``int64(in * s)``, or within ``[int64(in * (s - 1e-5)), int64(in * (s + 1e-5))]``."""
    for (name, _), a, n_out, s in zip(scales, axes, sizes, checked):
        n_in = x.shape[a]
        low, mid, high = (_trunc(n_in * v) for v in (s - 1e-5, s, s + 1e-5))
        if n_out == mid or low <= n_out <= high:
            continue
        raise ResamplexError(
            f"{name}: scale conflicts with output_size: length {n_in} times {s!r} gives "
            f"{mid}, output_size asks for {n_out} (give all scales consistent with "
            "output_size, or leave one None to derive them all from the sizes)")


def _trunc(v: float) -> float:
    """C's ``int64(v)`` for the comparisons above (an infinite product stays infinite)."""
    return float(math.trunc(v)) if math.isfinite(v) else v


def upsample_nearest_exact1d(x: Any, output_size: Sequence[int], scales: float | None = None,
                             *, product: str = DEFAULT_PRODUCT, out: np.ndarray | None = None,
                             threads: int | None = None) -> np.ndarray:
    """``aclnnUpsampleNearestExact1d``: ``(N, C, L)`` -> ``(N, C, output_size[0])``.

    ``l_src = min(floor(fl32(fl32(l + 0.5) * r)), L - 1)`` with ``r = float32(1.0 / scales)``
    (reciprocal in double) when ``scales > 0``, else ``float32(L) / float32(out_L)``; ``None``
    and 0 both mean "derive from the sizes" (torch_npu passes ``scales.value_or(0)``). A
    positive scale is always honoured, also when the length does not change, as in PyTorch's
    ``nearest-exact``. Empty arrays are refused, as CANN does.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import ascend
    >>> x = np.arange(3, dtype=np.float32).reshape(1, 1, 3)
    >>> ascend.upsample_nearest_exact1d(x, [5])[0, 0]
    array([0., 0., 1., 2., 2.], dtype=float32)
    """
    return _aclnn("upsample_nearest_exact1d", x, output_size, 1, [("scales", scales)],
                  exact=True, same_size_is_one=False, all_or_none=False,
                  allow_empty_batch=False, product=product, out=out, threads=threads)


def upsample_nearest_exact2d(x: Any, output_size: Sequence[int], scales_h: float | None = None,
                             scales_w: float | None = None, *, product: str = DEFAULT_PRODUCT,
                             out: np.ndarray | None = None,
                             threads: int | None = None) -> np.ndarray:
    """``aclnnUpsampleNearestExact2d``: ``(N, C, H, W)`` -> ``(N, C, *output_size)``.

    Per axis, ``src = min(floor(fl32(fl32(o + 0.5) * r)), in - 1)`` with
    ``r = float32(1.0 / s)`` when ``s > 0``, else ``float32(in) / float32(out)``; an axis whose
    length does not change uses ``r = 1`` whatever its scale (the operator's 4-D shortcut: here
    CANN differs from PyTorch's ``nearest-exact``, which honours e.g. ``scale_factor=1.09`` on
    10 -> 10). The two scales are independent. A channels-last array (NHWC memory) is read in
    place and gives a channels-last result. An empty N or C gives an empty result (CANN returns
    early on empty tensors).

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import ascend
    >>> x = np.arange(10, dtype=np.float32).reshape(1, 1, 1, 10)
    >>> ascend.upsample_nearest_exact2d(x, [2, 5])[0, 0, 0]
    array([1., 3., 5., 7., 9.], dtype=float32)
    >>> ascend.upsample_nearest_exact2d(x, [1, 10], 1.0, 1.09)[0, 0, 0]   # 10 -> 10: identity
    array([0., 1., 2., 3., 4., 5., 6., 7., 8., 9.], dtype=float32)
    """
    return _aclnn("upsample_nearest_exact2d", x, output_size, 2,
                  [("scales_h", scales_h), ("scales_w", scales_w)],
                  exact=True, same_size_is_one=True, all_or_none=False,
                  allow_empty_batch=True, product=product, out=out, threads=threads)


def upsample_nearest_exact3d(x: Any, output_size: Sequence[int], scales_d: float | None = None,
                             scales_h: float | None = None, scales_w: float | None = None, *,
                             product: str = DEFAULT_PRODUCT, out: np.ndarray | None = None,
                             threads: int | None = None) -> np.ndarray:
    """``aclnnUpsampleNearestExact3d``: ``(N, C, D, H, W)`` -> ``(N, C, *output_size)``.

    Per axis, ``src = min(floor(fl32(fl32(o + 0.5) * r)), in - 1)``. The reciprocals
    ``r = float32(1.0 / s)`` are used only if **all three** scales are > 0; otherwise every
    axis uses ``float32(in) / float32(out)``. With all three given, each output length must
    agree with its scale (``int64(in * s)``, within ±1e-5 on ``s``), or CANN's "Scale conflicts
    with outputSize" is raised as :class:`~resamplex.ResamplexError`. No shortcut for unchanged
    lengths. Empty arrays are refused, as CANN does.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import ascend
    >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 1, 1, 4)
    >>> ascend.upsample_nearest_exact3d(x, [1, 1, 8], 1.0, 1.0, 2.0)[0, 0, 0, 0]
    array([0., 0., 1., 1., 2., 2., 3., 3.], dtype=float32)
    """
    return _aclnn("upsample_nearest_exact3d", x, output_size, 3,
                  [("scales_d", scales_d), ("scales_h", scales_h), ("scales_w", scales_w)],
                  exact=True, same_size_is_one=False, all_or_none=True,
                  allow_empty_batch=False, product=product, out=out, threads=threads)


def upsample_nearest1d(x: Any, output_size: Sequence[int], *, product: str = DEFAULT_PRODUCT,
                       out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
    """``aclnnUpsampleNearest1d``: ``(N, C, L)`` -> ``(N, C, output_size[0])``, legacy rule.

    ``l_src = min(floor(fl32(l * r)), L - 1)`` with ``r = float32(L) / float32(out_L)``
    (``ResizeNearestNeighborV2`` with ``align_corners=False, half_pixel_centers=False``; equal
    to PyTorch's ``nearest`` given a size). The API takes no scales.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import ascend
    >>> x = np.arange(3, dtype=np.float32).reshape(1, 1, 3)
    >>> ascend.upsample_nearest1d(x, [5])[0, 0]
    array([0., 0., 1., 1., 2.], dtype=float32)
    """
    return _aclnn("upsample_nearest1d", x, output_size, 1, None, exact=False,
                  same_size_is_one=False, all_or_none=False, allow_empty_batch=True,
                  product=product, out=out, threads=threads)


def upsample_nearest2d(x: Any, output_size: Sequence[int], *, product: str = DEFAULT_PRODUCT,
                       out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
    """``aclnnUpsampleNearest2d``: ``(N, C, H, W)`` -> ``(N, C, *output_size)``, legacy rule.

    Per axis ``src = min(floor(fl32(o * r)), in - 1)`` with ``r = float32(in) / float32(out)``
    (``ResizeNearestNeighborV2`` with ``align_corners=False, half_pixel_centers=False``; equal
    to PyTorch's ``nearest`` given a size). The API takes no scales.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex import ascend
    >>> x = np.arange(6, dtype=np.float32).reshape(1, 1, 1, 6)
    >>> ascend.upsample_nearest2d(x, [1, 3])[0, 0, 0]
    array([0., 2., 4.], dtype=float32)
    """
    return _aclnn("upsample_nearest2d", x, output_size, 2, None, exact=False,
                  same_size_is_one=False, all_or_none=False, allow_empty_batch=True,
                  product=product, out=out, threads=threads)
