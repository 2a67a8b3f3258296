"""SciPy's ``ndimage.gaussian_filter`` / ``gaussian_filter1d`` as axis tables (SPEC §6).

The scikit-image door smooths before it shrinks with these; the SciPy door re-exports them.
The rules, from SciPy 1.17 (``scipy/ndimage/_filters.py``, ``src/ni_filters.c``
``NI_Correlate1D``, ``src/ni_support.c`` ``NI_ExtendLine``), checked against the wheel:

- **Kernel** (:func:`gaussian_kernel1d`): ``x = -r..r``, ``phi = exp(-0.5 / sigma^2 * x^2)``,
  ``phi / phi.sum()`` in float64 (NumPy's sum), times SciPy's derivative polynomial for
  ``order > 0``; the radius is ``int(truncate * sigma + 0.5)`` unless ``radius`` is given.
  ``gaussian_filter1d`` correlates with the reversed kernel.
- **Boundaries** (:func:`correlate_table`): every out-of-range tap is mapped to the input
  index ``NI_ExtendLine`` copies there, for any radius (also longer than the axis):
  ``reflect``/``grid-mirror`` (``d c b a | a b c d | d c b a``), ``mirror``
  (``d c b | a b c d | c b a``), ``nearest`` (edge values), ``wrap``/``grid-wrap``
  (periodic); ``constant``/``grid-constant`` read ``cval`` outside: the tap is dropped when
  ``cval == 0`` (SciPy adds ``(0 + x) w``, the same value), otherwise the axis is padded with
  ``cval`` (as float64, like SciPy's line buffer) before its pass.
- **Arithmetic** (bit for bit with SciPy on x86-64): every element is read as float64; each
  output is ``NI_Correlate1D``'s float64 sum, in its order: ``x[0] w[0]``, then the pairs from
  the outermost in, ``+ (x[-j] + x[j]) w[-j]`` (``-`` for antisymmetric kernels), through the
  engine's float pass with ``order="pairs"`` (the tables keep SciPy's pairs: see
  :func:`correlate_table`); stored into the output dtype after *each* axis: float32 rounds to
  nearest, integers are truncated toward zero, and where a value may leave the integer type
  (derivatives, data or ``cval`` outside its range, NaN) as the C cast of the x86-64 wheels
  stores it (through int32: out of its range INT_MIN, then the low bits; int64 outputs
  saturate instead). Axes run in the order given; ``gaussian_filter`` skips axes with
  ``sigma <= 1e-15``.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import numpy as np

from .._checks import as_array, check_allocation, check_threads, is_int, is_real
from .._engine.compile import exact as _exact
from .._engine.compile.exact import FloatPass
from .._engine.cache import PLANS
from .._engine.plan import Plan
from .._errors import ResamplexError, UnsupportedError, bad_choice, bad_value
from .._tables import AxisTable

__all__ = ["MODES", "gaussian_filter", "gaussian_filter1d", "gaussian_kernel1d",
           "correlate_table"]

#: ndimage's boundary modes of the filters, and the extension each one means for a filter
#: (``_ni_support._extend_mode_to_code``: grid-mirror is reflect, grid-wrap is wrap,
#: grid-constant is constant).
MODES = {"reflect": "reflect", "grid-mirror": "reflect", "mirror": "mirror",
         "nearest": "nearest", "wrap": "wrap", "grid-wrap": "wrap",
         "constant": "constant", "grid-constant": "constant"}
# Element types the float pass reads as they are; others are read through float64 (exact
# for every value SciPy's double line buffer holds the same way).
_SOURCES = {"uint8", "int8", "uint16", "int16", "int32", "float32", "float64"}
# Output types the pass stores (SciPy's other outputs: bool, (u)int64 beyond int64, complex).
_STORES = ("uint8", "int8", "uint16", "int16", "int32", "int64", "float32", "float64")


# ------------------------------------------------------------------------------ tables

def gaussian_kernel1d(sigma: float, order: int, radius: int) -> np.ndarray:
    """The 1-D Gaussian kernel (or its ``order``-th derivative) of ``2 radius + 1`` taps.

    SciPy's ``_gaussian_kernel1d``, in the same float64 operations:
    ``phi = exp(-0.5 / sigma^2 * x^2)`` for ``x = -radius..radius``, ``phi / phi.sum()``;
    for ``order > 0`` the polynomial ``q`` with ``d^n/dx^n phi = q phi``.

    Examples
    --------
    >>> from resamplex.compat._gaussian import gaussian_kernel1d
    >>> gaussian_kernel1d(1.0, 0, 2).round(4)
    array([0.0545, 0.2442, 0.4026, 0.2442, 0.0545])
    """
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi = np.exp(-0.5 / sigma2 * x ** 2)
    phi = phi / phi.sum()
    if order == 0:
        return phi
    powers = np.arange(order + 1)
    q = np.zeros(order + 1)
    q[0] = 1
    step = np.diag(powers[1:], 1) + np.diag(np.ones(order) / -sigma2, -1)
    for _ in range(order):
        q = step.dot(q)
    return (x[:, None] ** powers).dot(q) * phi


def _symmetry(fw: np.ndarray) -> int:
    """``NI_Correlate1D``'s test: 1 symmetric, -1 antisymmetric, 0 neither (odd lengths)."""
    size = fw.shape[0]
    if size % 2 == 0:
        return 0
    c = size // 2
    left, right = fw[c - 1::-1] if c else fw[:0], fw[c + 1:]
    eps = np.finfo(np.float64).eps
    if bool(np.all(np.abs(right - left) <= eps)):
        return 1
    if bool(np.all(np.abs(right + left) <= eps)):
        return -1
    return 0


def _extend(pos: np.ndarray, n: int, mode: str) -> np.ndarray:
    """The input index ``NI_ExtendLine`` places at position ``pos`` (any integer) of a line of
    ``n`` elements; -1 for ``constant`` outside."""
    if mode == "nearest":
        return np.clip(pos, 0, n - 1)
    if mode == "wrap":
        return np.mod(pos, n)
    if mode == "reflect":
        m = np.mod(pos, 2 * n)
        return np.where(m < n, m, 2 * n - 1 - m)
    if mode == "mirror":
        if n == 1:
            return np.zeros_like(pos)
        m = np.mod(pos, 2 * n - 2)
        return np.where(m < n, m, 2 * n - 2 - m)
    return np.where((pos >= 0) & (pos < n), pos, -1)


def correlate_table(weights: np.ndarray, n: int, mode: str, *, pad: int = 0) -> AxisTable:
    """The table of SciPy's ``correlate1d`` (origin 0) along a line of ``n`` elements.

    Output ``i`` reads input ``i + k - size // 2`` with weight ``weights[k]``, its position
    mapped into the line by ``mode`` (a filter mode of :data:`MODES`). Taps are stored in
    ``NI_Correlate1D``'s order (see the module docstring): for symmetric and antisymmetric
    kernels the centre, then the pairs from the outermost in, each pair weighted by its left
    weight (``+w`` / ``-w``); otherwise the last tap, then the others left to right. For
    ``constant`` with ``pad > 0`` the input line is ``pad`` values of ``cval``, the line,
    ``pad`` more (``n + 2 pad`` inputs, ``pad`` at least the kernel's half-width); with
    ``pad == 0`` outside taps read ``cval == 0``: in a pair, the inside tap comes first and the
    outside one becomes a placeholder of weight 0 (the ``"pairs"`` pass then adds the inside
    tap alone, SciPy's ``(x + 0) w``); a pair wholly outside is left out. Pair weights are
    kept even when 0 (SciPy multiplies by them too); other kernels drop zero-weight taps.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat._gaussian import correlate_table
    >>> t = correlate_table(np.array([0.25, 0.5, 0.25]), 3, "reflect")
    >>> t.idx[:3].tolist(), t.w[:3].tolist()     # output 0: centre, then 0 (reflected), 1
    ([0, 0, 1], [0.5, 0.25, 0.25])
    """
    fw = np.asarray(weights, dtype=np.float64)
    size = fw.shape[0]
    size1 = size // 2
    size2 = size - size1 - 1
    sym = _symmetry(fw)
    if sym:
        offsets = [0] + [s * j for j in range(size1, 0, -1) for s in (-1, 1)]
        tap_w = [fw[size1]] + [w for j in range(size1, 0, -1)
                               for w in (fw[size1 - j], sym * fw[size1 - j])]
    else:
        offsets = [size2] + list(range(-size1, size2))
        tap_w = [fw[size1 + size2]] + [fw[size1 + j] for j in range(-size1, size2)]
    offsets_a = np.asarray(offsets, dtype=np.int64)
    pos = np.arange(n, dtype=np.int64)[:, None] + offsets_a[None, :]
    w = np.array(np.broadcast_to(np.asarray(tap_w, dtype=np.float64), pos.shape))
    if mode == "constant" and pad:
        idx, n_in = pos + pad, n + 2 * pad
    else:
        idx, n_in = _extend(pos, n, mode), n
    inside = idx >= 0
    if sym:
        # Pairs stay pairs (FloatPass order "pairs"): a pair with one tap outside becomes its
        # inside tap followed by a placeholder of weight 0 reading the same element (SciPy:
        # (x + 0) * w); a pair wholly outside adds SciPy's (0 + 0) * w = 0 and is left out.
        # Zero weights are kept otherwise: SciPy multiplies by them too.
        left, right = np.s_[:, 1::2], np.s_[:, 2::2]
        lone_right = ~inside[left] & inside[right]
        for arr in (idx, w):                      # the inside tap first
            lo, hi = arr[left].copy(), arr[right].copy()
            arr[left] = np.where(lone_right, hi, lo)
            arr[right] = np.where(lone_right, lo, hi)
        one = inside[left] ^ inside[right]
        idx[right] = np.where(one, idx[left], idx[right])
        w[right] = np.where(one, 0.0, w[right])
        both = inside[left] | inside[right]
        keep = np.ones(pos.shape, dtype=bool)
        keep[left] = both
        keep[right] = both
    else:
        keep = inside & (w != 0)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(keep.sum(axis=1), out=ptr[1:])
    return AxisTable(n_in, n, ptr, np.ascontiguousarray(idx[keep]),
                     np.ascontiguousarray(w[keep]))


# ------------------------------------------------------------------------------ validation

def _output(output: Any, x: np.ndarray) -> tuple[np.dtype, np.ndarray | None]:
    """``_ni_support._get_output``: the output dtype, and the array to fill if one is given."""
    if output is None:
        dtype = x.dtype
        array = None
    elif isinstance(output, np.ndarray):
        if output.shape != x.shape:
            raise ResamplexError(f"output: expected shape {x.shape} (the input's); got "
                                 f"{output.shape}")
        if not output.flags.writeable:
            raise ResamplexError("output: the array is read-only")
        dtype, array = output.dtype, output
    else:
        try:
            dtype = np.dtype(output)
        except TypeError:
            raise bad_value("output", output, "None, a dtype or a numpy.ndarray") from None
        array = None
    if dtype.name not in _STORES or not dtype.isnative:
        raise UnsupportedError(f"output: gaussian_filter stores {', '.join(_STORES)}; got "
                               f"{dtype}")
    return dtype, array


def _check_input(input: Any) -> np.ndarray:
    x = as_array(input, "input")
    if x.dtype.kind not in "biuf" or x.dtype == np.float16:
        raise UnsupportedError(f"input: gaussian_filter takes bool, integer, float32 and "
                               f"float64 arrays (as SciPy); got {x.dtype}")
    return x


def _mode(mode: Any, name: str = "mode") -> str:
    if not isinstance(mode, str) or mode not in MODES:
        raise bad_choice(name, mode, MODES)
    return MODES[mode]


def _sequence(value: Any, n: int, name: str) -> list[Any]:
    """``_ni_support._normalize_sequence``: a scalar (or string) for every axis, or one
    value per axis."""
    if isinstance(value, str) or not isinstance(value, (Sequence, np.ndarray)):
        return [value] * n
    values = list(value)
    if len(values) != n:
        raise ResamplexError(f"{name}: expected one value per filtered axis ({n}); got "
                             f"{len(values)}")
    return values


def _axes(axes: Any, ndim: int) -> tuple[int, ...]:
    """``_ni_support._check_axes``: None = every axis; an int or a sequence of unique ints."""
    if axes is None:
        return tuple(range(ndim))
    items = [axes] if is_int(axes) else axes
    if not isinstance(items, (Sequence, np.ndarray)) or not all(is_int(a) for a in items):
        raise bad_value("axes", axes, "an integer, a sequence of integers or None")
    for a in items:
        if not -ndim <= a < ndim:
            raise ResamplexError(f"axes: axis {a} is out of range for {ndim} dimensions")
    out = tuple(int(a) % ndim for a in items)
    if len(set(out)) != len(out):
        raise ResamplexError(f"axes: must be unique; got {tuple(items)!r}")
    return out


def _kernel(sigma: Any, order: Any, truncate: Any, radius: Any) -> np.ndarray:
    """``gaussian_filter1d``'s checks and its (reversed) correlation weights."""
    if not is_real(sigma) or not math.isfinite(float(sigma)):
        raise bad_value("sigma", sigma, "a finite real number")
    if not is_real(truncate) or not math.isfinite(float(truncate)):
        raise bad_value("truncate", truncate, "a finite real number")
    if not is_int(order) or order < 0:
        raise bad_value("order", order, "an integer >= 0")
    sd = float(sigma)
    if sd == 0:
        raise ResamplexError("sigma: must be non-zero for gaussian_filter1d (SciPy divides "
                             "by sigma**2); got 0")
    lw = int(truncate * sd + 0.5) if radius is None else radius
    if not isinstance(lw, numbers.Integral) or lw < 0:
        raise bad_value("radius", lw, "a nonnegative integer (radius, or "
                        "int(truncate * sigma + 0.5) when radius is None)")
    check_allocation((2 * int(lw) + 1) * 8 * 4, "radius")
    return gaussian_kernel1d(sd, int(order), int(lw))[::-1]


# ------------------------------------------------------------------------------ running

def _plan(shape: tuple[int, ...], steps: tuple[tuple[int, bytes, str], ...], store: str,
          pad: int) -> Plan:
    """One plan for ``steps`` (axis, weights, mode), each a float64 pass storing ``store``."""
    def build() -> Plan:
        tables: list[AxisTable | None] = [None] * len(shape)
        in_shape = list(shape)
        for axis, raw, mode in steps:
            table = correlate_table(np.frombuffer(raw, np.float64), shape[axis], mode,
                                    pad=pad)
            tables[axis] = table
            in_shape[axis] = table.n_in
        specs = [FloatPass(store, compute="float64", rounding="toward_zero",
                           order="pairs" if _symmetry(np.frombuffer(raw, np.float64))
                           else "sequential") for _, raw, _ in steps]
        return Plan(in_shape, tables, weighted=True, op="gaussian_filter",
                    order=[s[0] for s in steps], keep_order=True, passes=specs)

    return PLANS.get_or_build(("scipy.gaussian", shape, steps, store, pad), build)


def _source(x: np.ndarray) -> np.ndarray:
    """``x`` in a type the float pass reads, with the values SciPy's line buffer holds."""
    return x if x.dtype.name in _SOURCES and x.dtype.isnative else x.astype(np.float64)


def _correlate(x: np.ndarray, steps: list[tuple[int, np.ndarray, str]], cval: float,
               dtype: np.dtype, array: np.ndarray | None, threads: int | None) -> np.ndarray:
    """Run ``steps`` (axis, weights, filter mode) on ``x`` into ``array`` or a new array."""
    if array is not None and np.shares_memory(array, x):
        x = x.copy()  # SciPy reads whole lines before it writes: in place works there
    result = array if array is not None else np.empty(x.shape, dtype)
    if not steps:
        np.copyto(result, x, casting="unsafe")   # SciPy: output[...] = input[...]
        return result
    if x.size == 0:
        return result
    check_allocation(x.size * 8 * 2, "input")
    keyed = [(a, w.tobytes(), m) for a, w, m in steps]
    store = dtype.name
    padded = cval != 0 and any(m == "constant" for _, _, m in steps)
    wraps = _may_wrap(x, steps, cval, dtype)
    if not padded and not wraps and (store in _SOURCES or len(steps) == 1):
        plan = _plan(x.shape, tuple(keyed), store, 0)
        _exact.run(plan, _source(x), result, threads)
        return result
    # One plan per axis, each reading the previous one's output as float64 (what SciPy's
    # line buffer holds): for int64 outputs, which the pass does not read back; for
    # constant with cval != 0, where SciPy extends every line of every pass with cval (also
    # the lines of the previous pass's output), the input of such a pass is padded with cval
    # along its axis (padding all axes at once would feed the next pass filtered cval); and
    # for integer outputs that may leave their range, stored through int64 and cast as C
    # casts there (``_c_cast``).
    cur: np.ndarray = x
    for k, (axis, raw, mode) in enumerate(keyed):
        pad = (len(raw) // 8) // 2 if mode == "constant" and cval != 0 else 0
        src = _source(cur)
        if pad:
            widths = [(0, 0)] * x.ndim
            widths[axis] = (pad, pad)
            src = np.pad(cur.astype(np.float64), widths, constant_values=float(cval))
        plan = _plan(x.shape, ((axis, raw, mode),), "int64" if wraps else store, pad)
        last = k == len(keyed) - 1
        dst = result if last and not wraps else np.empty(x.shape, "int64" if wraps else dtype)
        _exact.run(plan, np.ascontiguousarray(src), dst, threads)
        cur = _c_cast(dst, dtype) if wraps else dst
        if wraps and last:
            np.copyto(result, cur)
    return result


def _may_wrap(x: np.ndarray, steps: list[tuple[int, np.ndarray, str]], cval: float,
              dtype: np.dtype) -> bool:
    """Whether some sum may fall outside the integer output type (or be NaN): a kernel with a
    negative weight (derivatives), or data or ``cval`` outside the type's range. Smoothing
    (weights >= 0, summing to 1) keeps every value inside ``[min, max]`` of what it reads."""
    if dtype.kind not in "iu" or dtype == np.int64 or x.size == 0:
        return False
    if any(bool((w < 0).any()) for _, w, _ in steps):
        return True
    info = np.iinfo(dtype)
    lo, hi = np.min(x), np.max(x)
    if np.isnan(lo) or np.isnan(hi) or lo < info.min or hi > info.max:
        return True
    return any(m == "constant" for _, _, m in steps) and not info.min <= cval <= info.max


def _c_cast(v: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``int64`` values truncated from float64 (saturated) as SciPy's C cast on x86-64 stores
    them into a narrower integer type: a conversion to int32 (out of its range: INT_MIN), then
    the low bits."""
    v = np.where((v < -(2 ** 31)) | (v > 2 ** 31 - 1), np.int64(-(2 ** 31)), v)
    return v.astype(dtype)


def _cval(cval: Any) -> float:
    if not is_real(cval):
        raise bad_value("cval", cval, "a real number")
    return float(cval)


def gaussian_filter1d(input: Any, sigma: float, axis: int = -1, order: int = 0,
                      output: Any = None, mode: str = "reflect", cval: float = 0.0,
                      truncate: float = 4.0, *, radius: int | None = None,
                      threads: int | None = None) -> np.ndarray:
    """1-D Gaussian filter along ``axis``: ``scipy.ndimage.gaussian_filter1d``.

    Parameters
    ----------
    input : array_like
        bool, integer, float32 or float64 data.
    sigma : float
        Standard deviation of the Gaussian kernel (non-zero).
    axis : int, optional
        The axis to filter (default the last).
    order : int, optional
        0 smooths; ``n > 0`` correlates with the ``n``-th derivative of the Gaussian.
    output : numpy.ndarray or dtype, optional
        The array to fill, or the output dtype (default: the input's).
    mode : str, optional
        ``reflect`` (default), ``constant``, ``nearest``, ``mirror``, ``wrap``,
        ``grid-constant``, ``grid-mirror``, ``grid-wrap``.
    cval : float, optional
        The value outside the input for ``constant`` / ``grid-constant``.
    truncate : float, optional
        The radius is ``int(truncate * sigma + 0.5)`` taps each side.
    radius : int, optional
        The radius itself (overrides ``truncate``).
    threads : int, optional
        Thread count (default ``resamplex.get_num_threads()``); results do not depend on it.

    Returns
    -------
    numpy.ndarray
        The filtered array (``output`` if an array was given).

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat._gaussian import gaussian_filter1d
    >>> gaussian_filter1d([1.0, 2.0, 3.0, 4.0, 5.0], 1)
    array([1.42704095, 2.06782203, 3.        , 3.93217797, 4.57295905])
    """
    x = _check_input(input)
    if x.ndim == 0:
        raise ResamplexError("input: 0-d arrays have no axis to filter; got shape ()")
    if not is_int(axis) or not -x.ndim <= axis < x.ndim:
        raise bad_value("axis", axis, f"an integer in [-{x.ndim}, {x.ndim - 1}]")
    weights = _kernel(sigma, order, truncate, radius)
    fmode = _mode(mode)
    c = _cval(cval)
    dtype, array = _output(output, x)
    if threads is not None:
        threads = check_threads(threads)
    return _correlate(x, [(int(axis) % x.ndim, weights, fmode)], c, dtype, array, threads)


def gaussian_filter(input: Any, sigma: Any, order: Any = 0, output: Any = None,
                    mode: Any = "reflect", cval: float = 0.0, truncate: float = 4.0, *,
                    radius: Any = None, axes: Any = None,
                    threads: int | None = None) -> np.ndarray:
    """Multidimensional Gaussian filter: ``scipy.ndimage.gaussian_filter``.

    A sequence of 1-D filters (:func:`gaussian_filter1d`), one per axis in ``axes`` in
    increasing order, each stored into the output dtype; ``sigma``, ``order``, ``mode`` and
    ``radius`` are scalars or one value per axis. Axes with ``sigma <= 1e-15`` are copied.

    Parameters
    ----------
    input : array_like
        bool, integer, float32 or float64 data.
    sigma : float or sequence of floats
        Standard deviations, per axis or one for all.
    order : int or sequence of ints, optional
        0 smooths; ``n > 0``: ``n``-th derivative of the Gaussian along that axis.
    output : numpy.ndarray or dtype, optional
        The array to fill, or the output dtype (default: the input's).
    mode : str or sequence of str, optional
        Boundary mode(s), as :func:`gaussian_filter1d`.
    cval : float, optional
        The value outside the input for the constant modes.
    truncate : float, optional
        Radius in standard deviations.
    radius : int or sequence of ints, optional
        The radius per axis (overrides ``truncate``).
    axes : int or sequence of ints, optional
        The axes to filter (default all).
    threads : int, optional
        Thread count; results do not depend on it.

    Returns
    -------
    numpy.ndarray
        The filtered array.

    Examples
    --------
    >>> import numpy as np
    >>> from resamplex.compat._gaussian import gaussian_filter
    >>> a = np.arange(50, step=2).reshape((5, 5))
    >>> gaussian_filter(a, sigma=1)
    array([[ 4,  6,  8,  9, 11],
           [10, 12, 14, 15, 17],
           [20, 22, 24, 25, 27],
           [29, 31, 33, 34, 36],
           [35, 37, 39, 40, 42]])
    """
    x = _check_input(input)
    dtype, array = _output(output, x)
    ax = _axes(axes, x.ndim)
    n = len(ax)
    sigmas = _sequence(sigma, n, "sigma")
    orders = _sequence(order, n, "order")
    modes = _sequence(mode, n, "mode")
    radii = _sequence(radius, n, "radius")
    c = _cval(cval)
    for s in sigmas:
        if not is_real(s) or math.isnan(float(s)):
            raise bad_value("sigma", s, "real numbers")
    steps = [(a, _kernel(s, o, truncate, r), _mode(m))
             for a, s, o, m, r in zip(ax, sigmas, orders, modes, radii) if s > 1e-15]
    if threads is not None:
        threads = check_threads(threads)
    return _correlate(x, steps, c, dtype, array, threads)
