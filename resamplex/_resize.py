"""Core ``resize``, ``Resampler`` and ``resize_adjoint``: validate -> tables -> engine.

``Plan`` is the one executor every facade shares: axis tables in, kernels out. Facades (core,
``dml``, ``ascend``, ``compat``) validate their own parameters, build tables, and hand a
``Plan`` the array; ``Plan`` validates the array and ``out``, lays out memory and runs the
Cython passes. It holds no convention of its own.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
import os
import threading
from functools import lru_cache
from typing import Any, Iterable, Sequence, SupportsFloat, SupportsIndex, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _dtypes
from ._engine import _fixed, _gather, _pipeline, _taps
from ._errors import ResamplexError, UnsupportedError, bad_choice, bad_value
from ._tables import NEAREST_MODES, TRANSFORMS, AxisTable, core_table

MODES = ("nearest", "linear", "cubic", "area")

# What the public signatures accept (the validation in _core_args is the authority).
#: ``size=``: an output length per axis in ``axes``, or one length with ``axes=``.
SizeLike: TypeAlias = "SupportsIndex | Sequence[SupportsIndex] | npt.NDArray[np.integer[Any]]"
#: ``scale=``: an output/input factor per axis in ``axes``, or one factor with ``axes=``.
ScaleLike: TypeAlias = "SupportsFloat | Sequence[SupportsFloat] | npt.NDArray[np.floating[Any]]"
#: ``axes=``: one axis or several (negative counts from the end).
AxesLike: TypeAlias = "SupportsIndex | Sequence[SupportsIndex]"

# Below this many multiply-adds (or element copies) a call runs on one thread: starting a
# parallel region costs more than it saves.
_MIN_PARALLEL_WORK = 1 << 16
_MAX_NDIM = 64
_INTP_MAX = int(np.iinfo(np.intp).max)
_CPU_COUNT = os.cpu_count() or 1
# Longest row (input plus output elements) the kernels load into per-thread scratch; longer
# rows are processed in place, in blocks.
_MAX_ROW = 1 << 22

# ------------------------------------------------------------------------------ threads

_thread_state = threading.local()
_default_threads: int | None = None


def get_num_threads() -> int:
    """Threads a call uses when ``threads=None``.

    Follows ``set_num_threads`` if it was called, else OpenMP's ``omp_get_max_threads()``, so
    ``OMP_NUM_THREADS`` and ``threadpoolctl.threadpool_limits`` take effect.

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.get_num_threads() >= 1
    True
    """
    if _default_threads is not None:
        return _default_threads
    return max(1, int(_taps.max_threads()))


def set_num_threads(n: int | None) -> None:
    """Set the default thread count (``None`` restores the OpenMP default).

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.set_num_threads(1); rx.get_num_threads()
    1
    >>> rx.set_num_threads(None)
    """
    global _default_threads
    _default_threads = None if n is None else _check_threads(n, "n")


def _check_threads(threads: Any, name: str = "threads") -> int:
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or threads < 1:
        raise bad_value(name, threads, "None or an integer >= 1")
    return int(threads)


def _resolve_threads(threads: Any, work: float) -> int:
    n = get_num_threads() if threads is None else _check_threads(threads)
    # At most as many threads as the machine runs at once: results do not depend on the count,
    # and a huge count (threads=10**6) crashes libgomp's GOMP_parallel or overflows a C int.
    cap = max(1, int(_taps.max_threads()), _CPU_COUNT)
    return 1 if work < _MIN_PARALLEL_WORK else min(n, cap)


def _as_array(x: Any, name: str) -> np.ndarray:
    """``x`` as an ndarray; what NumPy cannot make an array of (ragged lists) is refused."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (str, bytes)) or x is None:
        raise bad_value(name, x, "a numpy.ndarray")
    try:
        return np.asarray(x)
    except (ValueError, TypeError) as exc:
        raise bad_value(name, x, f"a numpy.ndarray (NumPy: {exc})") from None


def _ndim(value: Any) -> int:
    """``np.ndim(value)``, or -1 where NumPy cannot make an array of it (ragged lists)."""
    try:
        return np.ndim(value)
    except (ValueError, TypeError):
        return -1


# ------------------------------------------------------------------------------ memory guards

@lru_cache(maxsize=1)
def _memory_limit() -> int:
    """Bytes of physical memory (an allocation above it is refused before it is tried)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 1 << 46


def check_allocation(nbytes: int, what: str) -> None:
    """Refuse an allocation that overflows the address space or exceeds physical memory."""
    if nbytes > _INTP_MAX:
        raise ResamplexError(f"{what}: {nbytes} bytes overflows the addressable size")
    limit = _memory_limit()
    if nbytes > limit:
        raise ResamplexError(
            f"{what}: needs {nbytes / 2**30:.1f} GiB, more than this machine's "
            f"{limit / 2**30:.1f} GiB of memory"
        )


def check_out_early(out: Any, shape: Sequence[int], dtype: np.dtype, hint: str = "") -> None:
    """Shape and dtype of a facade's ``out`` before anything is built (Plan checks the rest:
    writeable, no overlap). ``hint`` says where the expected shape comes from."""
    if out is None:
        return
    if not isinstance(out, np.ndarray):
        raise bad_value("out", type(out).__name__, "a numpy.ndarray")
    if out.shape != tuple(shape):
        raise ResamplexError(f"out: expected shape {tuple(shape)}{hint}; got {out.shape}")
    if out.dtype != dtype:
        raise ResamplexError(f"out: expected dtype {dtype} (the input's); got {out.dtype}")


# ------------------------------------------------------------------------------ the executor

def _layout_perm(shape: Sequence[int], strides: Sequence[int]) -> list[int]:
    """Axes from outermost to innermost memory order (largest |stride| first).

    Axes of length <= 1 and broadcast (zero-stride) axes count as outermost; ties keep axis
    order, so a C-contiguous array gives the identity.
    """
    def key(a: int) -> tuple[int, int]:
        s = abs(strides[a])
        return (0, 0) if shape[a] <= 1 or s == 0 else (1, -s)

    return sorted(range(len(shape)), key=lambda a: (key(a), a))


def _empty_like_layout(shape: Sequence[int], dtype: npt.DTypeLike,
                       perm: Sequence[int]) -> np.ndarray:
    """``np.empty(shape)`` whose memory order is ``perm`` (outermost first)."""
    base = np.empty([shape[a] for a in perm], dtype=dtype)
    return base.transpose(np.argsort(perm))


def _coalesce(shape: list[int], sstr: list[int], dstr: list[int],
              axis: int) -> tuple[list[int], list[int], list[int], int]:
    """Merge neighbouring axes (other than ``axis``) that are contiguous in both arrays."""
    out_shape, out_s, out_d = [shape[0]], [sstr[0]], [dstr[0]]
    new_axis = 0 if axis == 0 else -1
    for i in range(1, len(shape)):
        prev_is_axis = (len(out_shape) - 1) == new_axis
        if (i != axis and not prev_is_axis and out_s[-1] == sstr[i] * shape[i]
                and out_d[-1] == dstr[i] * shape[i]):
            out_shape[-1] *= shape[i]
            out_s[-1], out_d[-1] = sstr[i], dstr[i]
            continue
        out_shape.append(shape[i])
        out_s.append(sstr[i])
        out_d.append(dstr[i])
        if i == axis:
            new_axis = len(out_shape) - 1
    return out_shape, out_s, out_d, new_axis


def _as_i64(values: Sequence[int]) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _aligned_table(t: AxisTable) -> AxisTable:
    """``t`` with aligned, contiguous arrays. The kernels read them through typed pointers, and
    arrays unpickled from out-of-band buffers (dask.distributed frames) can be misaligned,
    which is undefined behaviour there (UBSan: "load of misaligned address")."""
    arrays = (t.ptr, t.idx, t.w)
    if all(a.flags.aligned and a.flags.c_contiguous for a in arrays):
        return t
    ptr, idx, w = (np.require(a, None, ["A", "C"]) for a in arrays)
    return dataclasses.replace(t, ptr=ptr, idx=idx, w=w)


class Plan:
    """Axis tables for one input shape, and how to apply them.

    ``tables[d]`` is the ``AxisTable`` of axis ``d`` or ``None`` (the axis is copied).
    ``weighted=False`` means every table is a gather (nearest): one byte-copy pass for any dtype.
    ``order`` is the sequence of resampled axes for weighted passes; it is chosen to minimise
    multiply-adds (the innermost axis goes last, to share a sweep with the pass before it) and
    can be given by conventions that prescribe one.
    ``fixed=True``: uint8 only, every table carries integer weights and a ``shift``; each pass
    rounds to uint8 in fixed point (``_engine/_fixed.pyx``), in ``order``.
    ``passes``: one exact pass spec per step of ``order`` (``_engine/_pipeline.py``: integer,
    float, split and block passes, each with its own arithmetic and storage type), for front
    doors that reproduce another library bit for bit; the facade has validated the dtype.
    """

    def __init__(self, in_shape: Sequence[int], tables: Sequence[AxisTable | None], *,
                 weighted: bool, op: str = "resize", order: Sequence[int] | None = None,
                 fixed: bool = False, keep_order: bool = False,
                 passes: Sequence[_pipeline.PassSpec] | None = None):
        self.in_shape = tuple(int(n) for n in in_shape)
        keep = fixed or passes is not None  # prescribed arithmetic: identity tables still run
        self.tables = [None if t is None or (t.is_identity and not keep) else _aligned_table(t)
                       for t in tables]
        self.out_shape = tuple(n if t is None else t.n_out for n, t in zip(self.in_shape, tables))
        self.passes = None if passes is None else tuple(passes)
        self.weighted = weighted or fixed or passes is not None
        self.fixed = fixed
        self.op = op
        self.order = self._best_order() if order is None else \
            [a for a in order if self.tables[a] is not None]
        self.keep_order = keep_order
        self._merged: dict[tuple[int, int, tuple[int, ...]], Plan] = {}
        if self.passes is not None:
            _pipeline.check_steps(self.order, self.passes)

    def _best_order(self) -> list[int]:
        axes = [a for a, t in enumerate(self.tables) if t is not None]

        def cost(order: Iterable[int]) -> float:
            shape = list(self.in_shape)
            total = 0.0
            for a in order:
                shape[a] = self.tables[a].n_out
                total += math.prod(shape) * max(self.tables[a].mean_taps, 1.0)
            return total

        if len(axes) <= 6:
            return list(min(itertools.permutations(axes), key=cost)) if axes else []
        # Many axes: shrink first, grow last.
        return sorted(axes, key=lambda a: self.tables[a].n_out / max(self.tables[a].n_in, 1))

    # --------------------------------------------------------------- validation of arrays

    def _check_input(self, x: Any, name: str = "x") -> np.ndarray:
        x = _as_array(x, name)
        if x.ndim == 0:
            raise ResamplexError(f"{name}: 0-d arrays have no axis to resample; got shape ()")
        if x.shape != self.in_shape:
            raise ResamplexError(
                f"{name}: this plan was made for shape {self.in_shape}; got shape {x.shape}")
        if self.fixed and x.dtype != np.uint8:
            raise UnsupportedError(f"{name}: {self.op} in fixed point takes uint8; got {x.dtype}")
        if self.passes is not None:
            _dtypes.check_nearest_dtype(x.dtype)  # the facade chose the passes for this dtype
        elif self.weighted:
            _dtypes.weighted_info(x.dtype, "linear" if self.op == "resize" else self.op)
        else:
            _dtypes.check_nearest_dtype(x.dtype)
        return x

    def _check_out(self, out: Any, x: np.ndarray) -> None:
        if not isinstance(out, np.ndarray):
            raise bad_value("out", type(out).__name__, "a numpy.ndarray")
        if out.shape != self.out_shape:
            raise ResamplexError(f"out: expected shape {self.out_shape}; got {out.shape}")
        if out.dtype != x.dtype:
            raise ResamplexError(f"out: expected dtype {x.dtype}; got {out.dtype}")
        if not out.flags.writeable:
            raise ResamplexError("out: the array is read-only")
        try:
            # (NumPy's stubs allow only the max_work constants, not a work bound)
            overlap = np.shares_memory(out, x, max_work=1 << 20)  # type: ignore[arg-type, unused-ignore]
        except np.exceptions.TooHardError:
            overlap = True
        if overlap:
            raise ResamplexError("out: must not share memory with the input")

    # --------------------------------------------------------------- application

    def __call__(self, x: Any, out: np.ndarray | None = None, threads: int | None = None,
                 rounding: str = "half_even") -> np.ndarray:
        x = self._check_input(x)
        rcode = _dtypes.rounding_code(rounding)
        if threads is not None:
            _check_threads(threads)
        if out is not None:
            self._check_out(out, x)
        else:
            nbytes = math.prod(self.out_shape) * x.dtype.itemsize
            check_allocation(nbytes, "output")
        result = out
        if result is None:
            result = _empty_like_layout(self.out_shape, x.dtype,
                                        _layout_perm(x.shape, x.strides))
        if result.size == 0:
            return result
        if all(t is None for t in self.tables):
            np.copyto(result, x)
            return result
        if self.passes is not None:
            _pipeline.run(self, x, result, threads)
            return result
        if not self.weighted:
            self._gather(x, result, threads)
            return result
        if self.fixed:
            self._fixed(x, result, threads)
            return result
        # Weighted kernels read and write native, aligned elements; anything else goes
        # through a native copy (the conversion is exact, the result the same).
        native = x.dtype.newbyteorder("=")
        src = x if (x.flags.aligned and x.dtype.isnative) else x.astype(native, order="K")
        direct = result.flags.aligned and result.dtype.isnative
        dst = result if direct else _empty_like_layout(
            self.out_shape, native, _layout_perm(result.shape, result.strides))
        self._weighted(src, dst, threads, rcode)
        if not direct:
            np.copyto(result, dst)
        return result

    def _gather(self, x: np.ndarray, out: np.ndarray, threads: int | None) -> None:
        perm = _layout_perm(out.shape, out.strides)
        offsets, starts = [], [0]
        for a in perm:
            t = self.tables[a]
            if t is not None:  # copied axes need no table: the kernel strides through them
                offsets.append(t.idx * x.strides[a])
            starts.append(starts[-1] + (0 if t is None else t.n_out))
        n = _resolve_threads(threads, out.size)
        _gather.gather(x.ctypes.data, out.ctypes.data, x.dtype.itemsize,
                       _as_i64([out.shape[a] for a in perm]),
                       _as_i64([x.strides[a] for a in perm]),
                       _as_i64([out.strides[a] for a in perm]),
                       np.concatenate(offsets) if offsets else np.empty(0, np.int64),
                       _as_i64(starts), n)

    def _mergeable(self, x_strides: Sequence[int],
                   out_strides: Sequence[int]) -> tuple[int, int] | None:
        """``(w, c)`` if a short copied innermost axis ``c`` can merge into resampled ``w``."""
        perm = _layout_perm(self.out_shape, out_strides)
        if len(perm) < 2:
            return None
        w_ax, c_ax = perm[-2], perm[-1]
        c = self.in_shape[c_ax]
        if self.tables[w_ax] is None or self.tables[c_ax] is not None or not 1 < c <= 16:
            return None
        for strides in (x_strides, out_strides):
            if strides[w_ax] != c * strides[c_ax]:
                return None
        return w_ax, c_ax

    def run_order(self, x_strides: Sequence[int], out_strides: Sequence[int]) -> list[int]:
        """The order in which weighted passes run for arrays with these byte strides.

        ``self.order``, except that the innermost axis of the output's layout, if resampled
        (or merged with a short copied innermost axis, see ``_merged_inner``), goes last to
        share a sweep with the pass before it; with ``keep_order`` exactly ``self.order``.
        The value of every output depends on this order (float intermediates) and on nothing
        else of the layout: chunked execution passes the whole array's run order with
        ``keep_order=True`` to get the whole array's bits.
        """
        order = list(self.order)
        if self.keep_order or not order:
            return order
        pair = self._mergeable(x_strides, out_strides)
        last = pair[0] if pair is not None else _layout_perm(self.out_shape, out_strides)[-1]
        if last in order:
            order.remove(last)
            order.append(last)
        return order

    def _merged_inner(self, x: np.ndarray,
                      out: np.ndarray) -> tuple[Plan, np.ndarray, np.ndarray] | None:
        """Channels-last: view a resampled axis and a short copied innermost axis as one.

        ``(..., W, C)`` with ``C`` small and both arrays contiguous over ``(W, C)`` becomes
        ``(..., W*C)`` with W's table expanded (output ``o*C + k`` reads ``i*C + k`` with the
        same weight): the same sums, now on an innermost axis, so the fused sweep applies.
        Returns ``(plan, x, out)`` for the merged view, or None.
        """
        pair = self._mergeable(x.strides, out.strides)
        if pair is None:
            return None
        w_ax, c_ax = pair
        table, c = self.tables[w_ax], self.in_shape[c_ax]
        order = self.run_order(x.strides, out.strides)
        key = (w_ax, c_ax, tuple(order))
        merged = self._merged.get(key)
        if merged is None:
            k = np.arange(c)
            rows = np.repeat(np.diff(table.ptr), c)
            ptr = np.zeros(table.n_out * c + 1, dtype=np.int64)
            np.cumsum(rows, out=ptr[1:])
            # output (o, k): the taps of o, each index i -> i*c + k
            starts = np.repeat(table.ptr[:-1], c)
            tap = np.arange(ptr[-1]) - np.repeat(ptr[:-1], rows)
            src_tap = np.repeat(starts, rows) + tap
            kk = np.repeat(np.tile(k, table.n_out), rows)
            expanded = AxisTable(table.n_in * c, table.n_out * c, ptr,
                                 table.idx[src_tap] * c + kk, table.w[src_tap])
            keep = [a for a in range(len(self.in_shape)) if a != c_ax]
            tables = [expanded if a == w_ax else self.tables[a] for a in keep]
            shape = [self.in_shape[a] * (c if a == w_ax else 1) for a in keep]
            merged = Plan(shape, tables, weighted=True, op=self.op,
                          order=[a if a < c_ax else a - 1 for a in order], keep_order=True)
            self._merged[key] = merged

        def view(arr: np.ndarray) -> np.ndarray:
            shape = [n * (c if a == w_ax else 1) for a, n in enumerate(arr.shape) if a != c_ax]
            strides = [arr.strides[a] // (c if a == w_ax else 1)
                       for a in range(arr.ndim) if a != c_ax]
            return np.lib.stride_tricks.as_strided(arr, shape, strides,
                                                   writeable=arr.flags.writeable)

        return merged, view(x), view(out)

    def _weighted(self, x: np.ndarray, out: np.ndarray, threads: int | None,
                  rcode: int) -> None:
        merged = self._merged_inner(x, out)
        if merged is not None:
            plan, x2, out2 = merged
            plan._weighted(x2, out2, threads, rcode)
            return
        info = _dtypes.weighted_info(x.dtype, self.op)
        compute = info.compute
        ckind = 0 if compute == np.float64 else 1
        perm = _layout_perm(out.shape, out.strides)
        # The innermost axis, if resampled, normally goes last and shares a sweep with the
        # pass before it (see _taps.fused_pass): no scratch array between those two passes.
        order = self.run_order(x.strides, out.strides)
        fuse = (len(order) >= 2 and order[-1] == perm[-1]
                and self.tables[perm[-1]].n_in + self.tables[perm[-1]].n_out <= _MAX_ROW)
        shape = list(self.in_shape)
        src = x
        i = 0
        while i < len(order):
            a = order[i]
            table = self.tables[a]
            last = i == len(order) - 1 or (fuse and i == len(order) - 2)
            src_kind = info.kind if i == 0 else ckind
            dst_kind = info.kind if last else ckind
            if fuse and i == len(order) - 2:
                self._fused(src, out, shape, perm, a, order[-1], src_kind, dst_kind, rcode,
                            compute, threads)
                return
            shape[a] = table.n_out
            if last:
                dst = out
            else:
                check_allocation(math.prod(shape) * compute.itemsize, "scratch")
                dst = _empty_like_layout(shape, compute, perm)
            pshape, sstr, dstr, axis = _coalesce(
                [shape[p] for p in perm], [src.strides[p] for p in perm],
                [dst.strides[p] for p in perm], perm.index(a))
            ndim = len(pshape)
            if axis == ndim - 1 and table.n_in + table.n_out <= _MAX_ROW:
                loop, row = 0, pshape[-1] + table.n_in + 1
            elif axis == ndim - 1:
                loop, row = 3, min(pshape[-1], 4096)
            elif (axis == ndim - 2 and pshape[-1] < 32 and pshape[-1] * pshape[-2] <= _MAX_ROW
                  and dstr[-2] == pshape[-1] * dstr[-1]):
                loop, row = 1, pshape[-1] * pshape[-2]
            else:
                loop, row = 2, min(pshape[-1], 4096)
            n = _resolve_threads(threads, dst.size * max(table.mean_taps, 1.0))
            n = max(1, min(n, dst.size // (pshape[-1] * (pshape[-2] if loop == 1 else 1))))
            if loop == 0:
                idx, w = table.dense
                k, offsets = idx.shape[1], idx.reshape(-1)
            else:
                k, offsets, w = 0, table.idx * src.strides[a], table.w
            _taps.weighted_pass(
                src_kind, dst_kind, rcode,
                src.ctypes.data, _as_i64(sstr), dst.ctypes.data, _as_i64(dstr),
                _as_i64(pshape), axis, loop, table.n_in, k,
                table.ptr, offsets, w.reshape(-1).astype(compute),
                np.empty((n, row), dtype=compute), n)
            src = dst
            i += 1

    def _fused(self, src: np.ndarray, out: np.ndarray, shape: list[int], perm: list[int],
               a: int, inner: int, src_kind: int, dst_kind: int, rcode: int,
               compute: np.dtype, threads: int | None) -> None:
        """The last two passes (outer axis ``a``, then the innermost axis) in one sweep."""
        t1, t2 = self.tables[a], self.tables[inner]
        n_mid = shape[inner]
        shape = list(shape)
        shape[a], shape[inner] = t1.n_out, t2.n_out
        pos = perm.index(a)
        n = _resolve_threads(threads, out.size * (t1.mean_taps + t2.mean_taps))
        n = max(1, min(n, out.size // t2.n_out))
        idx2, w2 = t2.dense
        _taps.fused_pass(
            src_kind, dst_kind, rcode,
            src.ctypes.data, _as_i64([src.strides[p] for p in perm]),
            out.ctypes.data, _as_i64([out.strides[p] for p in perm]),
            _as_i64([shape[p] for p in perm]), pos, n_mid,
            t1.ptr, t1.idx * src.strides[a], t1.w.astype(compute),
            idx2.shape[1], idx2.reshape(-1), w2.reshape(-1).astype(compute),
            np.empty((n, 5 * n_mid + 4 + 4 * t2.n_out if pos == len(perm) - 2
                      else n_mid + 1 + t2.n_out), dtype=compute), n)

    def _fixed(self, x: np.ndarray, out: np.ndarray, threads: int | None) -> None:
        """uint8 passes in fixed point, each rounding to uint8, in ``self.order``."""
        perm = _layout_perm(out.shape, out.strides)
        shape = list(self.in_shape)
        src = x
        for i, a in enumerate(self.order):
            table = self.tables[a]
            shape[a] = table.n_out
            dst = out if i == len(self.order) - 1 else _empty_like_layout(shape, np.uint8, perm)
            pshape, sstr, dstr, axis = _coalesce(
                [shape[p] for p in perm], [src.strides[p] for p in perm],
                [dst.strides[p] for p in perm], perm.index(a))
            loop, row = 2, pshape[-1]
            if axis == len(pshape) - 1:
                loop = 0
            elif axis == len(pshape) - 2 and pshape[-1] < 32 \
                    and dstr[-2] == pshape[-1] * dstr[-1]:
                loop = 1
            n = _resolve_threads(threads, dst.size * max(table.mean_taps, 1.0))
            n = max(1, min(n, dst.size // (row * (pshape[-2] if loop == 1 else 1))))
            _fixed.fixed_pass(src.ctypes.data, _as_i64(sstr), dst.ctypes.data, _as_i64(dstr),
                              _as_i64(pshape), axis, loop, table.ptr,
                              table.idx * src.strides[a], table.w.astype(np.int32),
                              int(table.shift),  # type: ignore[arg-type]  # fixed tables have one
                              np.empty((n, row), dtype=np.int32), n)
            src = dst

    def adjoint_plan(self) -> "Plan":
        """The plan of the adjoint: transposed tables, input and output shapes swapped."""
        check_allocation(math.prod(self.in_shape), "in_shape")  # at least a byte each
        check_allocation(sum(t.n_in + 1 for t in self.tables if t is not None) * 32,
                         "in_shape")
        tables = [None if t is None else t.transpose() for t in self.tables]
        return Plan(self.out_shape, tables, weighted=True, op=self.op + " adjoint")


# ------------------------------------------------------------------------------ core facade

def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _normalize_shape(in_shape: Any) -> tuple[int, ...]:
    if isinstance(in_shape, (str, bytes)):  # iterable, but not a shape (b"34" -> (51, 52))
        raise bad_value("in_shape", in_shape, "a sequence of non-negative integers")
    try:
        shape = tuple(in_shape)
    except TypeError:
        raise bad_value("in_shape", in_shape, "a sequence of non-negative integers") from None
    if not shape:
        raise ResamplexError("in_shape: 0-d arrays have no axis to resample; got ()")
    if len(shape) > _MAX_NDIM:
        raise bad_value("in_shape", shape, f"at most {_MAX_NDIM} dimensions")
    if not all(_is_int(n) and 0 <= n <= _INTP_MAX for n in shape):
        raise bad_value("in_shape", shape, "a sequence of non-negative integers")
    return tuple(int(n) for n in shape)


def _normalize_axes(axes: Any, ndim: int) -> tuple[int, ...]:
    if axes is None:
        return tuple(range(ndim))
    seq = (axes,) if _is_int(axes) else axes
    try:
        seq = tuple(seq)
    except TypeError:
        raise bad_value("axes", axes, "an integer or a sequence of integers") from None
    if not seq or not all(_is_int(a) for a in seq):
        raise bad_value("axes", axes, "a non-empty integer or sequence of integers")
    bad = [a for a in seq if not -ndim <= a < ndim]
    if bad:
        raise bad_value("axes", axes, f"axes in [-{ndim}, {ndim - 1}] for a {ndim}-d input")
    norm = tuple(int(a) % ndim for a in seq)
    if len(set(norm)) != len(norm):
        raise bad_value("axes", axes, "no repeated axis")
    return norm


def _per_axis(name: str, value: Any, n: int, axes_given: bool) -> tuple[Any, ...] | None:
    if value is None:
        return None
    if _ndim(value) == 0:
        if not axes_given:
            raise ResamplexError(
                f"{name}: a scalar {name} needs axes=; give one {name} per axis otherwise; "
                f"got {value!r}")
        return (value.item() if isinstance(value, np.generic) else value,) * n
    try:
        seq = tuple(v.item() if isinstance(v, np.generic) else v for v in value)
    except TypeError:
        raise bad_value(name, value, f"a sequence of {n}") from None
    if len(seq) != n:
        raise ResamplexError(f"{name}: expected {n} entries (one per resampled axis); "
                             f"got {len(seq)}: {value!r}")
    return seq


def output_lengths(in_shape: tuple[int, ...], axes: tuple[int, ...],
                   size: tuple[Any, ...] | None,
                   scale: tuple[Any, ...] | None) -> tuple[int, ...]:
    """Validate ``size``/``scale`` and return the output length of each axis in ``axes``."""
    if size is not None:
        for v in size:
            if not _is_int(v) or v < 0:
                raise bad_value("size", v, "integers >= 1")
    if scale is not None:
        for v in scale:
            if not _is_real(v) or not math.isfinite(float(v)) or float(v) <= 0 \
                    or not math.isfinite(1.0 / float(v)):  # subnormal: r = 1/scale overflows
                raise bad_value("scale", v, "positive finite numbers (with a finite 1/scale)")
    lengths = []
    for i, a in enumerate(axes):
        n_in = in_shape[a]
        if size is not None:
            n_out = int(size[i])
        else:
            prod = n_in * float(scale[i])
            if prod >= 2.0**62:
                raise ResamplexError(f"scale: axis {a} of length {n_in} times {scale[i]!r} "
                                     "gives an output length that overflows")
            n_out = math.floor(prod)
        if n_in == 0 and n_out != 0:
            raise ResamplexError(f"size: axis {a} has length 0 (nothing to sample from) and can "
                                 f"only keep length 0; got {n_out}")
        if n_in > 0 and n_out < 1:
            what = "size" if size is not None else "scale"
            got = size[i] if size is not None else f"{scale[i]!r} (length {n_in} -> {n_out})"
            raise ResamplexError(f"{what}: every output length must be >= 1; axis {a} got {got}")
        lengths.append(n_out)
    return tuple(lengths)


def _core_args(in_shape: Any, size: Any, scale: Any, axes: Any, mode: Any,
               coordinate_transform: Any, nearest_mode: Any, antialias: Any, cubic_a: Any,
               exclude_outside: Any) -> tuple[Any, ...]:
    """Validate the core parameters; return a hashable key for the plan cache."""
    shape = _normalize_shape(in_shape)
    if size is None and scale is None:
        raise ResamplexError("size, scale: give size= (output lengths) or scale= (factors); "
                             "got neither")
    axes_given = axes is not None
    axes_t = _normalize_axes(axes, len(shape))
    size_t = _per_axis("size", size, len(axes_t), axes_given)
    scale_t = _per_axis("scale", scale, len(axes_t), axes_given)
    if mode not in MODES:
        raise bad_choice("mode", mode, MODES)
    if coordinate_transform not in TRANSFORMS:
        raise bad_choice("coordinate_transform", coordinate_transform, TRANSFORMS)
    if nearest_mode not in NEAREST_MODES:
        raise bad_choice("nearest_mode", nearest_mode, NEAREST_MODES)
    if not isinstance(antialias, (bool, np.bool_)):
        raise bad_value("antialias", antialias, "True or False")
    if antialias and mode not in ("linear", "cubic"):
        raise ResamplexError(f"antialias: applies to modes 'linear' and 'cubic'; got mode={mode!r}")
    if not _is_real(cubic_a) or not math.isfinite(cubic_a):
        raise bad_value("cubic_a", cubic_a, "a finite number")
    if not isinstance(exclude_outside, (bool, np.bool_)):
        raise bad_value("exclude_outside", exclude_outside, "True or False")
    lengths = output_lengths(shape, axes_t, size_t, scale_t)
    scales = tuple(None if scale_t is None else float(s)  # type: ignore[arg-type]
                   for s in (scale_t or (None,) * len(axes_t)))
    return (shape, axes_t, lengths, scales, mode, coordinate_transform, nearest_mode,
            float(cubic_a), bool(exclude_outside), bool(antialias))


def _check_plan_size(key: tuple[Any, ...], itemsize: int) -> None:
    """Refuse outputs (and tables) too big to allocate, before building anything."""
    shape, axes, lengths, scales, mode = key[:5]
    antialias = key[-1]
    out_shape = list(shape)
    for a, n in zip(axes, lengths):
        out_shape[a] = n
    check_allocation(math.prod(out_shape) * itemsize, "size")
    # Tables (dense while built), even when another axis is empty and the output has no
    # element: up to 4 taps of 48 bytes of working arrays per output; area and antialias
    # windows cover the input about twice more; the antialiased cubic window grows with the
    # shrink factor r (2 ceil(2r) + 1 taps per output).
    taps = 0
    for a, n, s in zip(axes, lengths, scales):
        taps += 4 * n
        if mode == "area" or antialias:
            taps += 2 * shape[a]
        if antialias and mode == "cubic" and n:
            r = 1.0 / s if s is not None else shape[a] / n
            taps += n * (2 * math.ceil(min(2.0 * r, 2.0**62)) + 1)  # no OverflowError on inf
    check_allocation(taps * 48, "size")


@lru_cache(maxsize=64)
def _cached_plan(key: tuple[Any, ...]) -> Plan:
    shape, axes, lengths, scales, mode, transform, nearest_mode, cubic_a, exclude, aa = key
    tables: list[AxisTable | None] = [None] * len(shape)
    for a, n_out, s in zip(axes, lengths, scales):
        n_in = shape[a]
        if n_in == 0:
            continue
        tables[a] = core_table(n_in, n_out, s, mode=mode, transform=transform,
                               nearest_mode=nearest_mode, cubic_a=cubic_a,
                               exclude_outside=exclude, antialias=aa)
    return Plan(shape, tables, weighted=mode != "nearest")


class Resampler:
    """A reusable resampling plan for one input shape (SPEC §2).

    Parameters are those of :func:`resize`; ``dtype`` (optional) is checked up front.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> plan = rx.Resampler((2, 4), size=(8,), axes=(1,), mode="linear")
    >>> plan.out_shape
    (2, 8)
    >>> plan(np.array([[0., 1, 2, 3], [4, 5, 6, 7]]))[0]
    array([0.  , 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.  ])
    """

    def __init__(self, in_shape: Sequence[SupportsIndex], size: SizeLike | None = None, *,
                 scale: ScaleLike | None = None, axes: AxesLike | None = None,
                 dtype: npt.DTypeLike | None = None, mode: str = "linear",
                 coordinate_transform: str = "half_pixel",
                 nearest_mode: str = "round_prefer_ceil", antialias: bool = False,
                 cubic_a: float = -0.75, exclude_outside: bool = False,
                 rounding: str = "half_even"):
        key = _core_args(in_shape, size, scale, axes, mode, coordinate_transform, nearest_mode,
                         antialias, cubic_a, exclude_outside)
        _dtypes.rounding_code(rounding)
        itemsize = 1
        if dtype is not None:
            try:
                dt = np.dtype(dtype)
            except TypeError:
                raise UnsupportedError(f"dtype: expected a NumPy dtype; got {dtype!r}") from None
            if mode == "nearest":
                _dtypes.check_nearest_dtype(dt)
            else:
                _dtypes.weighted_info(dt, mode)
            itemsize = dt.itemsize
        _check_plan_size(key, itemsize)
        self._plan = _cached_plan(key)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self.mode = mode
        self.rounding = rounding

    @property
    def in_shape(self) -> tuple[int, ...]:
        return self._plan.in_shape

    @property
    def out_shape(self) -> tuple[int, ...]:
        return self._plan.out_shape

    def _check_dtype(self, x: Any, name: str) -> None:
        if self.dtype is not None and isinstance(x, np.ndarray) and x.dtype != self.dtype:
            raise ResamplexError(f"{name}: this plan was made for dtype {self.dtype}; "
                                 f"got {x.dtype}")

    def __call__(self, x: npt.ArrayLike, out: np.ndarray | None = None,
                 threads: int | None = None) -> np.ndarray:
        """Resample ``x`` (shape ``in_shape``) into a new array or ``out``.

        Examples
        --------
        >>> import numpy as np, resamplex as rx
        >>> plan = rx.Resampler((2,), (4,))
        >>> plan(np.array([0.0, 8.0]))
        array([0., 2., 6., 8.])
        >>> out = np.empty(4)
        >>> plan(np.array([8.0, 0.0]), out=out) is out
        True
        """
        self._check_dtype(x, "x")
        return self._plan(x, out=out, threads=threads, rounding=self.rounding)

    def adjoint(self, grad_out: npt.ArrayLike, out: np.ndarray | None = None,
                threads: int | None = None) -> np.ndarray:
        """Apply the transpose: ``<self(x), g> == <x, self.adjoint(g)>``; shape ``in_shape``.

        Computed as a gather over transposed tables (deterministic, parallel), in the weighted
        arithmetic of the dtype (nearest's adjoint sums, so it is weighted too).

        Examples
        --------
        >>> import numpy as np, resamplex as rx
        >>> plan = rx.Resampler((2,), (4,))
        >>> plan.adjoint(np.array([1.0, 0.0, 0.0, 0.0]))   # output 0 reads input 0 only
        array([1., 0.])
        >>> plan.adjoint(np.ones(4))
        array([2., 2.])
        """
        self._check_dtype(grad_out, "grad_out")
        plan = self._plan.adjoint_plan()
        g = plan._check_input(grad_out, "grad_out")
        return plan(g, out=out, threads=threads, rounding=self.rounding)

    def __repr__(self) -> str:
        return f"Resampler({self.in_shape} -> {self.out_shape}, mode={self.mode!r})"


def resize(x: npt.ArrayLike, size: SizeLike | None = None, *, scale: ScaleLike | None = None,
           axes: AxesLike | None = None, mode: str = "linear", coordinate_transform: str = "half_pixel",
           nearest_mode: str = "round_prefer_ceil", antialias: bool = False,
           cubic_a: float = -0.75, exclude_outside: bool = False, rounding: str = "half_even",
           out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
    """Resample an N-dimensional array along any of its axes (SPEC §2).

    Parameters
    ----------
    x : numpy.ndarray
        Input of any shape (at least 1-d), strides and memory order.
    size : sequence of int, optional
        Output length of each axis in ``axes``.
    scale : sequence of float, optional
        Output/input factor of each axis in ``axes``. Alone, the output length is
        ``floor(n_in * scale)``; with ``size``, it drives the coordinate map (crop / clamp).
    axes : int or sequence of int, optional
        Axes that ``size``/``scale`` describe (default: all). Others are copied.
    mode : {"nearest", "linear", "cubic", "area"}
        ``linear`` is N-linear over every resampled axis; ``cubic`` the Keys kernel
        (``cubic_a``, ``exclude_outside``); ``area`` a box filter over each output's footprint.
    coordinate_transform : {"half_pixel", "pytorch_half_pixel", "half_pixel_symmetric",
        "align_corners", "asymmetric", "tf_half_pixel_for_nn"}
    nearest_mode : {"round_prefer_ceil", "round_prefer_floor", "floor", "ceil"}
    rounding : {"half_even", "half_away_from_zero", "toward_zero"}
        Integer outputs of weighted modes; then saturated.
    out : numpy.ndarray, optional
        Destination of the output shape and dtype, any strides, not overlapping ``x``.
    threads : int, optional
        Thread count (default :func:`get_num_threads`).

    Returns
    -------
    numpy.ndarray
        Same dtype as ``x``; memory order follows ``x``.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> rx.resize(np.array([0.0, 10.0]), (4,))
    array([ 0. ,  2.5,  7.5, 10. ])
    >>> rx.resize(np.arange(5), (3,), mode="nearest")
    array([0, 2, 4])
    """
    x = _as_array(x, "x")
    if x.ndim == 0:
        raise ResamplexError(f"x: 0-d arrays have no axis to resample; got {x!r}")
    key = _core_args(getattr(x, "shape", np.shape(x)), size, scale, axes, mode,
                     coordinate_transform, nearest_mode, antialias, cubic_a, exclude_outside)
    itemsize = getattr(getattr(x, "dtype", None), "itemsize", 8)
    _check_plan_size(key, itemsize)
    return _cached_plan(key)(x, out=out, threads=threads, rounding=rounding)


def resize_adjoint(grad_out: npt.ArrayLike, in_shape: Sequence[SupportsIndex],
                   size: SizeLike | None = None, *, scale: ScaleLike | None = None,
                   axes: AxesLike | None = None, mode: str = "linear",
                   coordinate_transform: str = "half_pixel",
                   nearest_mode: str = "round_prefer_ceil", antialias: bool = False,
                   cubic_a: float = -0.75, exclude_outside: bool = False,
                   rounding: str = "half_even", out: np.ndarray | None = None,
                   threads: int | None = None) -> np.ndarray:
    """The gradient of :func:`resize` with respect to its input.

    ``grad_out`` has the forward output's shape; the result has ``in_shape``. It is the exact
    transpose of the forward operator: ``<resize(x), g> == <x, resize_adjoint(g, x.shape)>``.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> rx.resize_adjoint(np.ones(4), (2,), (4,))
    array([2., 2.])
    """
    plan = Resampler(in_shape, size, scale=scale, axes=axes, mode=mode,
                     coordinate_transform=coordinate_transform, nearest_mode=nearest_mode,
                     antialias=antialias, cubic_a=cubic_a, exclude_outside=exclude_outside,
                     rounding=rounding)
    return plan.adjoint(grad_out, out=out, threads=threads)
