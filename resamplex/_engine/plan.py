"""Plans: the axis tables of one input shape, and running them.

``Plan`` is the one executor every facade shares: axis tables in, results out. A facade
(core, ``dml``, ``ascend``, ``compat``, ``dask``) validates its own parameters, builds tables
and gets its ``Plan`` from the one plan cache (``cache.PLANS``); the plan validates the array
and ``out``, and runs. The first time a plan meets a memory layout (dtype, strides, rounding)
it compiles a ``Program`` for it (``compile/``; ``_exec.pyx`` runs it): every pass with its
kernel arguments, loop shape, tables in the compute type, and the sizes of its scratch. Every
later call with that layout is one dictionary lookup and one native call, with the GIL
released. A plan with a long axis runs it tile by tile (``tiles.py``); a plan of exact
passes runs them through ``compile.exact.run``.

The plan holds no convention of its own: pass order, loop shapes and layouts are the engine's.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any, Iterable, Sequence

import numpy as np

from .. import _dtypes
from .._checks import as_array, check_allocation, check_out, check_threads
from .._errors import ResamplexError, UnsupportedError
from .._tables import AxisTable
from . import _exec
from ._exec import Program, threads_for
from .cache import BYTES_LOCK, MAX_PROGRAMS, PLANS, PlanCache
from .compile import exact
from .compile import program as compile_program
from .compile.codes import MAX_MERGED_CHANNELS
from .memory import (affine_strides, empty_fresh, empty_like_layout, fresh_layout,
                     layout_perm, merged_view, new_array, table_bytes)
from .tiles import TiledAxis, TileRunner

# Per-channel affines of at most this many elements (a and b together) are remembered once
# expanded over a merged pixel row, keyed by their bytes (Plan._mergeable_affine).
_AFFINE_MEMO_ELEMENTS = 256

#: ``Plan.__call__``'s rounding when the caller names none: the plan's own.
_OWN_ROUNDING: Any = object()


def _aligned_table(t: AxisTable) -> AxisTable:
    """``t`` with aligned, contiguous arrays. The kernels read them through typed pointers, and
    arrays unpickled from out-of-band buffers (dask.distributed frames) can be misaligned,
    which is undefined behaviour there (UBSan: "load of misaligned address")."""
    if all(f.aligned and f.c_contiguous for f in (t.ptr.flags, t.idx.flags, t.w.flags)):
        return t
    ptr, idx, w = (np.require(a, None, ["A", "C"]) for a in (t.ptr, t.idx, t.w))
    return dataclasses.replace(t, ptr=ptr, idx=idx, w=w)


class Plan:
    """Axis tables for one input shape, and how to apply them.

    ``tables[d]`` is the ``AxisTable`` of axis ``d`` or ``None`` (the axis is copied).
    ``weighted=False`` means every table is a gather (nearest): one byte-copy pass for any dtype.
    ``order`` is the sequence of resampled axes for weighted passes; it is chosen to minimise
    multiply-adds (the innermost axis goes last, to share a sweep with the pass before it) and
    can be given by conventions that prescribe one (``keep_order=True`` then runs exactly it).
    ``fixed=True``: uint8 only, every table carries integer weights and a ``shift``; each pass
    rounds to uint8 in fixed point (``_engine/kernels/_fixed.pyx``), in ``order``.
    ``passes``: one exact pass spec per step of ``order`` (``compile/exact.py``: integer, float,
    split and block passes, each with its own arithmetic and storage type), for front
    doors that reproduce another library bit for bit; the facade has validated the dtype.
    Such a plan runs its passes through ``compile.exact.run`` (docs/engine-passes.md).
    ``plus_zero=True`` (a gather): float32 and float64 elements are stored as ``0.0 + v``,
    SciPy's order 0 (``-0.0`` comes out ``+0.0``, a signalling NaN quiet; compat.scipy).
    """

    def __init__(self, in_shape: Sequence[int],
                 tables: Sequence[AxisTable | TiledAxis | None], *,
                 weighted: bool, op: str = "resize", order: Sequence[int] | None = None,
                 fixed: bool = False, keep_order: bool = False,
                 passes: Sequence[Any] | None = None, rounding: str = "half_even",
                 plus_zero: bool = False):
        self.in_shape = tuple(int(n) for n in in_shape)
        self.plus_zero = plus_zero
        #: The integer rounding of a call that names none (a front door whose original
        #: rounds its exact sums another way than half to even).
        self.rounding = rounding
        keep = fixed or passes is not None  # prescribed arithmetic: identity tables still run
        self.tables: list[Any] = [
            t if isinstance(t, TiledAxis) else
            None if t is None or (not keep and t.is_identity) else _aligned_table(t)
            for t in tables]
        tiled = [a for a, t in enumerate(self.tables) if isinstance(t, TiledAxis)]
        if len(tiled) > 1:
            raise ValueError("resamplex: a plan tiles at most one axis")
        #: The axis whose table is built tile by tile when the plan runs (a long axis), or None.
        self.tiled = tiled[0] if tiled else None
        self.out_shape = tuple(n if t is None else t.n_out for n, t in zip(self.in_shape, tables))
        self.passes = None if passes is None else tuple(passes)
        self.weighted = weighted or fixed or passes is not None
        #: A weighted plan whose every table reads one input with weight 1 (area enlarging
        #: by an integer factor, say) computes ``1 * x``, which is ``x`` in every arithmetic
        #: and rounds to ``x``: it runs as a gather. (A signalling NaN comes out as it went
        #: in instead of quieted; every other value, -0.0 and infinities included, is the
        #: same.) The dtype is still checked as a weighted mode's.
        self.copies = self.tiled is None and all(
            t is None or (weighted and not keep and t.is_gather) for t in self.tables)
        self.fixed = fixed
        self.op = op
        self.order = self._best_order() if order is None else \
            [a for a in order if self.tables[a] is not None]
        self.keep_order = keep_order
        if self.passes is not None:
            if self.tiled is not None:
                raise ValueError("resamplex: a plan of exact passes does not tile")
            exact.check_steps(self.order, self.passes)
        self.nbytes = sum(table_bytes(t) for t in self.tables if not isinstance(t, TiledAxis))
        self._programs: dict[tuple[Any, ...], tuple[Program, Any, Any]] = {}
        #: Plans of exact passes: their kernels' arguments per native input dtype, made on
        #: the first call with it (``exact.prepare``).
        self.prepared: dict[np.dtype, exact.Prepared] = {}
        self._merged: dict[tuple[int, int, tuple[int, ...]], Plan] = {}
        #: How a plan with a tiled axis runs, and what it keeps for that (``tiles.py``).
        self.tiling = TileRunner(self) if self.tiled is not None else None
        #: The last per-channel affine expanded over a merged pixel row (_mergeable_affine).
        self._affine_memo: tuple[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] | None = None
        self._adjoint: Plan | None = None
        self.owner: Plan | None = None         # the plan a merged or adjoint plan belongs to
        self.held_by: PlanCache | None = None    # the cache holding this (root) plan, if any
        #: What a facade keeps with its plan (e.g. the outputs it fills afterwards).
        self.extra: Any = None
        #: Elements per pixel of the innermost axis: > 1 for a plan that merged a short
        #: channels-last axis into the resampled one (``merged_inner``).
        self.channels = 1

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

    def check_input(self, x: Any, name: str = "x") -> np.ndarray:
        """``x`` as an ndarray of this plan's input shape and a dtype its passes take."""
        x = as_array(x, name)
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

    def __call__(self, x: Any, out: np.ndarray | None = None, threads: int | None = None,
                 rounding: Any = _OWN_ROUNDING, dtype: np.dtype | None = None,
                 affine: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Resample ``x`` into a new array (laid out like ``x``) or into ``out``; integer
        outputs round by ``rounding`` (validated like every argument: ``None`` is refused),
        by the plan's own when it is not given.

        ``dtype`` (an output dtype other than ``x``'s) and ``affine`` (``(a, b)`` from
        ``_checks.check_conversion``, validated by the facade) convert in the final store.
        """
        if rounding is _OWN_ROUNDING:
            rounding = self.rounding
        if dtype is not None or affine is not None:
            return self._call_convert(x, out, threads, rounding, dtype, affine)
        # The common case first: a layout this plan has compiled before. Its key holds the
        # dtype, strides and rounding, which were validated when it was compiled.
        if self.tiled is not None:
            return self._call_tiled(x, out, threads, rounding)
        if self.passes is not None:
            return self._call_passes(x, out, threads)
        if type(x) is np.ndarray and type(rounding) is str:
            if out is None:
                entry = self._programs.get((x.dtype, x.strides, rounding))
                if entry is not None and x.shape == self.in_shape and _exec.is_aligned(x):
                    program = entry[0]
                    result = empty_fresh(entry[1], x.dtype)
                    n = threads_for(None if threads is None else check_threads(threads),
                                    program.work)
                    program.run(x, result, n)
                    return result
            elif type(out) is np.ndarray:
                entry = self._programs.get((x.dtype, x.strides, out.strides, rounding))
                if (entry is not None and x.shape == self.in_shape
                        and out.shape == self.out_shape and out.dtype == x.dtype
                        and _exec.is_aligned(x) and _exec.is_writeable_aligned(out)
                        and not _exec.may_overlap(out, x)):
                    program = entry[0]
                    n = threads_for(None if threads is None else check_threads(threads),
                                    program.work)
                    program.run(x, out, n)
                    return out
        return self._call(x, out, threads, rounding)

    def _call(self, x: Any, out: np.ndarray | None, threads: int | None,
              rounding: str) -> np.ndarray:
        x = self.check_input(x)
        rcode = _dtypes.rounding_code(rounding)
        if threads is not None:
            threads = check_threads(threads)
        if out is not None:
            check_out(out, self.out_shape, x)
        else:
            check_allocation(math.prod(self.out_shape) * x.dtype.itemsize, "output")
        result = out
        if result is None:
            result = empty_like_layout(self.out_shape, x.dtype,
                                       layout_perm(x.shape, x.strides))
        if result.size == 0:
            return result
        # Weighted kernels read and write native, aligned elements; anything else goes
        # through a native copy (the conversion is exact, the result the same). The gather
        # moves bytes and takes any element as it is.
        src, dst = x, result
        if self.weighted:
            native = x.dtype.newbyteorder("=")
            if not (x.flags.aligned and x.dtype.isnative):
                src = x.astype(native, order="K")
            if self.packs(src):
                src = contiguous(src, threads)
            if not (result.flags.aligned and result.dtype.isnative):
                dst = empty_like_layout(self.out_shape, native,
                                        layout_perm(result.shape, result.strides))
        fresh = out is None and dst is result and type(src) is np.ndarray
        key: tuple[Any, ...] = (src.dtype, src.strides, rounding) if fresh else \
            (src.dtype, src.strides, dst.strides, rounding)
        entry = self._programs.get(key)
        if entry is None:
            program = self.compile(src.dtype, src.strides, dst.strides, rcode)
            entry = (program, fresh_layout(self.out_shape, x) if fresh else None, None)
            self._remember(key, entry)
        program = entry[0]
        program.run(src, dst, threads_for(threads, program.work))
        if dst is not result:
            np.copyto(result, dst)
        return result

    def _call_convert(self, x: Any, out: np.ndarray | None, threads: int | None,
                      rounding: str, dtype: np.dtype | None,
                      affine: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
        """A call whose output has another dtype or an affine (SPEC §2): the last pass of a
        weighted program stores ``v * a + b`` rounded to the output dtype; a gather (nearest,
        or no resampled axis) copies into scratch and a converting store pass follows."""
        if self.passes is not None or self.fixed:
            raise UnsupportedError(f"{self.op}: this plan's passes do not convert dtypes")
        if type(x) is np.ndarray and type(rounding) is str \
                and (out is None or type(out) is np.ndarray) \
                and (affine is None or (type(affine[0]) is np.ndarray
                                        and type(affine[1]) is np.ndarray)):
            # A conversion of a layout this plan has converted before, into a fresh array or
            # an out= laid out as before: its key holds both dtypes, both layouts (None: the
            # fresh array's, made from the input's), the rounding and the affine's shapes, all
            # validated then (the affine's values by the facade, on this call too).
            odt = (x.dtype if dtype is None else dtype) if out is None else out.dtype
            key = ("convert", x.dtype, x.strides, odt, None if out is None else out.strides,
                   rounding, None if affine is None else (affine[0].shape, affine[1].shape))
            entry = self._programs.get(key)
            if (entry is not None and x.shape == self.in_shape
                    and (affine is None or (affine[0].dtype == entry[2]
                                            and affine[1].dtype == entry[2]))
                    and _exec.is_aligned(x)
                    and (out is None or (out.shape == self.out_shape
                                         and (dtype is None or out.dtype == dtype)
                                         and _exec.is_writeable_aligned(out)
                                         and not _exec.may_overlap(out, x)))):
                program = entry[0]
                merge, layout = entry[1]
                if out is None:
                    out = empty_fresh(layout, odt)
                va = vb = None
                if affine is not None:
                    va, vb = affine
                    if merge:
                        va, vb = self._mergeable_affine(x.strides, out.strides, va, vb)
                program.run(x, out, threads_for(None if threads is None else
                                                check_threads(threads), program.work), va, vb)
                return out
        x = self.check_input(x)
        rcode = _dtypes.rounding_code(rounding)
        if threads is not None:
            threads = check_threads(threads)
        odt = x.dtype if dtype is None else _dtypes.as_dtype(dtype)
        compute = _dtypes.convert_compute(x.dtype, odt)
        a: np.ndarray | None = None
        b: np.ndarray | None = None
        if affine is not None:
            a, b = (np.ascontiguousarray(v, dtype=compute) for v in affine)
        if out is not None:
            check_out(out, self.out_shape, x, odt)
            result = out
        else:
            check_allocation(math.prod(self.out_shape) * odt.itemsize, "output")
            result = empty_like_layout(self.out_shape, odt, layout_perm(x.shape, x.strides))
        if result.size == 0:
            return result
        if self.tiled is not None:
            return self._call_tiled(x, result, threads, rounding, odt,
                                    None if a is None or b is None else (a, b))
        # The kernels read and write native, aligned elements (the store converts by kind).
        src, dst = x, result
        if not (x.flags.aligned and x.dtype.isnative):
            src = x.astype(x.dtype.newbyteorder("="), order="K")
        if self.weighted and self.packs(src):
            src = contiguous(src, threads)
        if not (result.flags.aligned and result.dtype.isnative):
            dst = empty_like_layout(self.out_shape, odt.newbyteorder("="),
                                    layout_perm(result.shape, result.strides))
        aff_key = None if a is None or b is None else (a.shape, b.shape)
        # a fresh result laid out as this call made it is keyed by None (the fast path above)
        fresh = out is None and dst is result and src is x
        key = ("convert", src.dtype, src.strides, dst.dtype, None if fresh else dst.strides,
               rounding, aff_key)
        merge = a is not None and self.weighted and self.mergeable(src.strides,
                                                                   dst.strides) is not None
        if a is not None and b is not None and merge:
            a, b = self._mergeable_affine(src.strides, dst.strides, a, b)
        entry = self._programs.get(key)
        if entry is None:
            aff = None if a is None or b is None else (affine_strides(a, self.out_shape),
                                                       affine_strides(b, self.out_shape))
            # (program, (whether a and b expand over merged pixels, the fresh result's
            # layout), their compute dtype)
            entry = (self.compile(src.dtype, src.strides, dst.strides, rcode,
                                  out_dtype=dst.dtype, affine=aff),
                     (merge, fresh_layout(self.out_shape, x) if fresh else None), compute)
            self._remember(key, entry)
        program = entry[0]
        program.run(src, dst, threads_for(threads, program.work), a, b)
        if dst is not result:
            np.copyto(result, dst)
        return result

    def _mergeable_affine(self, xs: Sequence[int], os_: Sequence[int], a: np.ndarray,
                          b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``a``, ``b`` expanded over a channels-last pixel row where that lets the merged
        sweep (``merged_inner``) run: a per-channel ``(C,)`` becomes a ``(W_out, C)`` pattern
        (a few kilobytes per call), so the row is one contiguous axis for the affine too."""
        small = a.size + b.size <= _AFFINE_MEMO_ELEMENTS
        if small:
            # A repeated call's per-channel values: expanded once (their bytes are the key,
            # so a changed value is expanded anew).
            key = (tuple(xs), tuple(os_), a.dtype, b.dtype, a.shape, b.shape, a.tobytes(),
                   b.tobytes())
            memo = self._affine_memo
            if memo is not None and memo[0] == key:
                return memo[1]
        pair = self.mergeable(xs, os_)
        if pair is None:
            return a, b
        w_ax, c_ax = pair
        c = self.in_shape[c_ax]
        expanded = []
        for v in (a, b):
            st = affine_strides(v, self.out_shape)
            if st[w_ax] != c * st[c_ax]:
                shape = list(v.shape)
                shape[w_ax], shape[c_ax] = self.out_shape[w_ax], c
                v = np.ascontiguousarray(np.broadcast_to(v, shape))
            expanded.append(v)
        if small:
            self._affine_memo = (key, (expanded[0], expanded[1]))
        return expanded[0], expanded[1]

    def _checked_call(self, x: Any, out: np.ndarray | None, threads: int | None,
                      like_input: bool) -> tuple[np.ndarray, int | None, np.ndarray]:
        """The checked input, thread count and result array (``out``, or a new array laid out
        like the input if ``like_input``, else C-ordered) of a call outside the programs."""
        x = self.check_input(x)
        if threads is not None:
            threads = check_threads(threads)
        if out is not None:
            check_out(out, self.out_shape, x)
            return x, threads, out
        check_allocation(math.prod(self.out_shape) * x.dtype.itemsize, "output")
        if not like_input:
            return x, threads, new_array(self.out_shape, x.dtype)
        return x, threads, empty_like_layout(self.out_shape, x.dtype,
                                             layout_perm(x.shape, x.strides))

    def _call_passes(self, x: Any, out: np.ndarray | None,
                     threads: int | None) -> np.ndarray:
        """Run a plan of exact passes (front doors): ``compile.exact.run``, one executor program."""
        if out is None and type(x) is np.ndarray and x.shape == self.in_shape \
                and x.dtype in self.prepared:
            # A dtype this plan has run its passes on before: validated then, and so is the
            # allocation of a result (``compile.exact.run`` is reached only for a non-empty one).
            if threads is not None:
                threads = check_threads(threads)
            result = new_array(self.out_shape, x.dtype)
            x, program = self._passes_input(x, threads)
            exact.run(self, x, result, threads, program)
            return result
        x, threads, result = self._checked_call(x, out, threads, like_input=False)
        if result.size == 0:
            return result
        if all(t is None for t in self.tables):
            np.copyto(result, x)
            return result
        x, program = self._passes_input(x, threads)
        exact.run(self, x, result, threads, program)
        return result

    def _passes_input(self, x: np.ndarray, threads: int | None) -> tuple[np.ndarray, Any]:
        """``x`` as the passes read it, and the program that reads it there: a native view
        whose rows the program reads in place (``exact.in_place``) with its own
        program; else a C-contiguous copy (threaded) where it is not C-contiguous, and None
        (``compile.exact.run`` takes the plan's program, or copies a non-native input itself)."""
        if x.flags.c_contiguous or not x.dtype.isnative:
            return x, None
        program = exact.in_place(self, x)
        return (x, program) if program is not None else (contiguous(x, threads), None)

    def _call_tiled(self, x: Any, out: np.ndarray | None, threads: int | None,
                    rounding: str, dtype: np.dtype | None = None,
                    affine: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """A call of a plan with a long axis, run tile by tile (``TileRunner.run``)."""
        _dtypes.rounding_code(rounding)
        if dtype is None:
            x, threads, result = self._checked_call(x, out, threads, like_input=True)
        else:  # from _call_convert: checked there, ``out`` is the result
            result = out  # type: ignore[assignment]
        if result.size == 0:
            return result
        return self.tiling.run(x, result, threads, rounding, dtype, affine)

    def tile_plan(self, table: AxisTable, order: list[int], count: int = 1) -> Plan:
        """The plan of one tile of the tiled axis: ``table`` on its input window; for
        ``count > 1`` tiles, with an axis of ``count`` before it (``tiles.split_axis``)."""
        a = int(self.tiled)  # type: ignore[arg-type]
        tables: list[Any] = list(self.tables)
        tables[a] = table
        in_shape = list(self.in_shape)
        in_shape[a] = table.n_in
        if count > 1:
            tables.insert(a, None)
            in_shape.insert(a, count)
            order = [d + (d >= a) for d in order]
        return Plan(in_shape, tables, weighted=self.weighted, op=self.op, order=order,
                    fixed=self.fixed, keep_order=True, plus_zero=self.plus_zero)

    def _remember(self, key: tuple[Any, ...], entry: tuple[Program, Any, Any]) -> None:
        """Keep a compiled program (a few layouts per plan); the cache counts its bytes."""
        programs = self._programs
        while len(programs) >= MAX_PROGRAMS:
            old = programs.pop(next(iter(programs)), None)
            if old is not None:
                self.grew(-old[0].nbytes)
        programs[key] = entry
        self.grew(entry[0].nbytes)

    def grew(self, delta: int) -> None:
        """This plan holds ``delta`` more bytes: so do the plans that own it (a merged or
        adjoint plan belongs to the plan that made it), and the cache that holds the root."""
        with BYTES_LOCK:
            node: Plan | None = self
            root = self
            while node is not None:
                node.nbytes += delta
                root = node
                node = node.owner
            if root.held_by is not None:
                root.held_by.grew(delta)

    def compile(self, dtype: np.dtype, x_strides: Sequence[int], out_strides: Sequence[int],
                rcode: int, out_dtype: np.dtype | None = None,
                affine: tuple[list[int], list[int]] | None = None) -> Program:
        """The program of this plan for arrays of ``dtype`` with these byte strides
        (``compile.program``)."""
        return compile_program(self, dtype, x_strides, out_strides, rcode, out_dtype, affine)

    def packs(self, x: np.ndarray) -> bool:
        """Whether a weighted call copies ``x`` C-contiguous first (``contiguous``): its
        innermost axis in memory is a short copied one beside a resampled axis, but its pixels
        are not runs of adjacent elements (channels reversed, as in a BGR image viewed as RGB,
        or spaced, as RGB out of RGBA; or pixels apart, as in a mirrored row). The passes
        would then move one pixel's channels per row; after the copy they merge the channels
        into the row (``merged_inner``). The sums are those of a contiguous input."""
        perm = layout_perm(x.shape, x.strides)
        if len(perm) < 2 or self.tiled is not None or self.copies:
            return False
        w_ax, c_ax = perm[-2], perm[-1]
        c = x.shape[c_ax]
        return (self.tables[w_ax] is not None and self.tables[c_ax] is None
                and 1 < c <= MAX_MERGED_CHANNELS and 0 not in x.strides  # not broadcast
                and not (x.strides[c_ax] == x.itemsize and x.strides[w_ax] == c * x.itemsize))

    def mergeable(self, x_strides: Sequence[int],
                  out_strides: Sequence[int]) -> tuple[int, int] | None:
        """``(w, c)`` if a short copied innermost axis ``c`` can merge into resampled ``w``."""
        perm = layout_perm(self.out_shape, out_strides)
        if len(perm) < 2:
            return None
        w_ax, c_ax = perm[-2], perm[-1]
        c = self.in_shape[c_ax]
        if self.tables[w_ax] is None or self.tables[c_ax] is not None \
                or not 1 < c <= MAX_MERGED_CHANNELS:
            return None
        for strides in (x_strides, out_strides):
            if strides[w_ax] != c * strides[c_ax]:
                return None
        return w_ax, c_ax

    def run_order(self, x_strides: Sequence[int], out_strides: Sequence[int]) -> list[int]:
        """The order in which weighted passes run for arrays with these byte strides.

        ``self.order``, except that the innermost axis of the output's layout, if resampled
        (or merged with a short copied innermost axis, see ``merged_inner``), goes last to
        share a sweep with the pass before it; with ``keep_order`` exactly ``self.order``.
        The value of every output depends on this order (float intermediates) and on nothing
        else of the layout: chunked execution passes the whole array's run order with
        ``keep_order=True`` to get the whole array's bits.
        """
        order = list(self.order)
        if self.keep_order or not order:
            return order
        pair = self.mergeable(x_strides, out_strides)
        last = pair[0] if pair is not None else layout_perm(self.out_shape, out_strides)[-1]
        if last in order:
            order.remove(last)
            order.append(last)
        return order

    def merged_inner(self, x_strides: Sequence[int], out_strides: Sequence[int],
                     affine: tuple[list[int], list[int]] | None = None
                     ) -> tuple[Plan, list[int], list[int], tuple[int, int, int]] | None:
        """Channels-last: view a resampled axis and a short copied innermost axis as one.

        ``(..., W, C)`` with ``C`` small and both arrays contiguous over ``(W, C)`` becomes
        ``(..., W*C)`` with W's table expanded (output ``o*C + k`` reads ``i*C + k`` with the
        same weight): the same sums, now on an innermost axis, so the fused sweep applies.
        An affine's arrays must be viewable that way too (a scalar, or laid out like the
        output); a per-channel one is not, and the pixels keep their own axes.
        Returns the merged plan, the strides of both arrays viewed that way and
        ``(w_ax, c_ax, c)`` (``merged_view``), or None.
        """
        pair = self.mergeable(x_strides, out_strides)
        if pair is None:
            return None
        w_ax, c_ax = pair
        if affine is not None and any(s[w_ax] != self.in_shape[c_ax] * s[c_ax] for s in affine):
            return None
        table, c = self.tables[w_ax], self.in_shape[c_ax]
        order = self.run_order(x_strides, out_strides)
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
            merged.owner = self
            merged.channels = c
            self._merged[key] = merged
            self.grew(merged.nbytes)

        where = (w_ax, c_ax, c)
        return (merged, merged_view(x_strides, *where), merged_view(out_strides, *where),
                where)

    def adjoint_plan(self) -> Plan:
        """The plan of the adjoint: transposed tables, input and output shapes swapped."""
        if self._adjoint is None:
            check_allocation(math.prod(self.in_shape), "in_shape")  # at least a byte each
            check_allocation(sum(t.n_in + 1 for t in self.tables if t is not None) * 32,
                             "in_shape")
            tables = [None if t is None else
                      (t.table(0, t.n_out) if isinstance(t, TiledAxis) else t).transpose()
                      for t in self.tables]
            adjoint = Plan(self.out_shape, tables, weighted=True, op=self.op + " adjoint")
            adjoint.owner = self
            self._adjoint = adjoint
            self.grew(adjoint.nbytes)
        return self._adjoint


def contiguous(x: np.ndarray, threads: int | None = None) -> np.ndarray:
    """A C-contiguous copy of ``x`` made by one gather pass over its rows (threaded): whole
    pixels at a time, or a pixel's elements where its channels are reversed or spaced, where
    NumPy's copy of such views goes element by element."""
    check_allocation(x.nbytes, "scratch")
    shape = x.shape
    plan = PLANS.get_or_build(("contiguous", shape),
                              lambda: Plan(shape, [None] * len(shape), weighted=False,
                                           op="copy"))
    return plan(x, out=np.empty(shape, x.dtype), threads=threads)
