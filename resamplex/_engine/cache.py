"""What the engine keeps between calls: the one plan cache (``PLANS``, bounded by the bytes its
plans hold), the facades' call memos (``CallMemo``: raw arguments -> plan), the programs
facades planned without a plan (``PROGRAMS``), the axis tables kept for plans of new shapes
(``TABLES``), and the lock every byte count changes under (``BYTES_LOCK``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .._errors import ResamplexError
from .._tables import AxisTable
from ._exec import Program, threads_for
from .memory import new_array, table_bytes

if TYPE_CHECKING:  # pragma: no cover
    from .plan import Plan

#: Programs kept per plan (one per memory layout met; a layout is dtype, strides, rounding),
#: and native tile programs per tiled plan.
MAX_PROGRAMS = 16

#: Held by every change of a plan's byte count (``Plan.grew``) and of what a plan keeps.
BYTES_LOCK = threading.RLock()


class PlanCache:
    """The one plan cache of every facade, bounded by the bytes its plans hold.

    Keys are the facades' own (each starts with the facade's name); a plan's bytes are its
    tables plus every program, merged or adjoint plan it compiled since. Least recently used
    plans go first; a plan larger than the whole bound is returned but not kept. Safe under
    concurrent calls: lookups are single dictionary operations under the GIL and every
    change of the contents or the byte count holds a lock.
    """

    def __init__(self, max_bytes: int = 256 << 20):
        self._plans: OrderedDict[Any, Plan] = OrderedDict()
        self._lock = threading.RLock()
        self.max_bytes = int(max_bytes)
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: Any) -> Plan | None:
        plan = self._plans.get(key)
        if plan is not None:
            self.hits += 1
            try:
                self._plans.move_to_end(key)
            except KeyError:  # evicted by another thread in between
                pass
        return plan

    def get_or_build(self, key: Any, build: Callable[[], Plan]) -> Plan:
        """The plan under ``key``, built (outside the lock) and kept if it is missing."""
        plan = self.get(key)
        if plan is None:
            self.misses += 1
            plan = build()
            self.put(key, plan)
        return plan

    def put(self, key: Any, plan: Plan) -> None:
        with self._lock:
            if key in self._plans:
                return
            plan.held_by = self
            self._plans[key] = plan
            self.bytes += plan.nbytes
            self._evict()

    def grew(self, delta: int) -> None:
        """A plan held here now holds ``delta`` more bytes (``Plan.grew``)."""
        with self._lock:
            self.bytes += delta
            self._evict()

    def _evict(self) -> None:
        while self.bytes > self.max_bytes and self._plans:
            _, old = self._plans.popitem(last=False)
            old.held_by = None
            self.bytes -= old.nbytes

    def clear(self) -> None:
        with self._lock:
            for plan in self._plans.values():
                plan.held_by = None
            self._plans.clear()
            self.bytes = self.hits = self.misses = 0

    def set_max_bytes(self, max_bytes: int) -> None:
        with self._lock:
            self.max_bytes = int(max_bytes)
            self._evict()

    def info(self) -> dict[str, int]:
        with self._lock:
            return {"plans": len(self._plans), "bytes": self.bytes,
                    "max_bytes": self.max_bytes, "hits": self.hits, "misses": self.misses}


#: The plan cache every facade shares.
PLANS = PlanCache()


class CallMemo:
    """A facade's raw call arguments seen before -> the cache key of their validated plan.

    A call whose arguments (``_exec.call_key``: values and exact types) match an earlier call
    that passed validation goes straight to its plan: the facade validates nothing twice.
    A facade may keep something of its own beside the key (``extra``: what it does with the
    plan's result). Bounded: cleared when it holds ``max_entries`` keys.
    """

    def __init__(self, max_entries: int = 4096):
        self._seen: dict[Any, tuple[Any, Any, Plan]] = {}
        self.max_entries = max_entries
        self._lookups = 0

    def plan(self, raw: Any) -> Plan | None:
        """The plan of arguments seen before (``raw`` from ``call_key``), or None."""
        found = self.lookup(raw)
        return None if found is None else found[0]

    def lookup(self, raw: Any) -> tuple[Plan, Any] | None:
        """``(plan, extra)`` of arguments seen before, or None."""
        if raw is None:
            return None
        seen = self._seen.get(raw)
        if seen is None:
            return None
        key, extra, plan = seen
        self._lookups += 1
        if plan.held_by is None or not self._lookups & 63:
            # evicted since (then built again, or not), and now and then a use the cache's
            # recency order sees: the plan in hand otherwise, without hashing its key
            plan = PLANS.get(key)  # type: ignore[assignment]
            if plan is None:
                return None
            self._seen[raw] = (key, extra, plan)
        else:
            PLANS.hits += 1
        return plan, extra

    def remember(self, raw: Any, key: Any, extra: Any = None) -> None:
        if raw is None:
            return
        plan = PLANS._plans.get(key)
        if plan is None:   # not kept (larger than the cache's bound)
            return
        if len(self._seen) >= self.max_entries:
            self._seen.clear()
        self._seen[raw] = (key, extra, plan)


class KeptProgram:
    """An executor program a facade planned without a ``Plan`` (``compat.cv2``'s uint8 pairs
    of new shapes, planned in one native call): what it computes a ``shape`` output of
    ``dtype`` from, for input rows ``stride`` bytes apart (the layout it was compiled for),
    its thread ``work``, and what the facade keeps beside it (``extra``)."""

    __slots__ = ("program", "work", "shape", "dtype", "stride", "extra")

    def __init__(self, program: Program, work: float, shape: tuple[int, ...], dtype: np.dtype,
                 stride: int | None, extra: Any = None):
        self.program, self.work, self.shape = program, work, shape
        self.dtype, self.stride, self.extra = dtype, stride, extra

    def run_new(self, x: np.ndarray, threads: int | None) -> np.ndarray:
        """The program run on ``x`` (laid out as compiled for; not checked here) into a new
        array; ``threads`` already validated."""
        result = new_array(self.shape, self.dtype)
        self.program.run(x, result, threads_for(threads, self.work))
        return result


class KeptPrograms:
    """Raw call arguments (``_exec.call_key``) -> the ``KeptProgram`` a facade planned for
    them: a call seen again runs its program without planning, as ``CallMemo`` gives a plan.
    Emptied when it would hold more than ``max_bytes`` of programs or ``max_entries`` of
    them (ever-new shapes keep it bounded), and by ``clear_cache``."""

    def __init__(self, max_bytes: int = 16 << 20, max_entries: int = 1024):
        self._kept: dict[Any, KeptProgram] = {}
        self._lock = threading.Lock()
        self.bytes = 0
        self.max_bytes, self.max_entries = max_bytes, max_entries

    def get(self, raw: Any) -> KeptProgram | None:
        return self._kept.get(raw)

    def remember(self, raw: Any, kept: KeptProgram) -> None:
        size = kept.program.nbytes
        if raw is None or size > self.max_bytes:
            return
        with self._lock:
            old = self._kept.pop(raw, None)
            if old is not None:
                self.bytes -= old.program.nbytes
            if self.bytes + size > self.max_bytes or len(self._kept) >= self.max_entries:
                self._kept.clear()
                self.bytes = 0
            self._kept[raw] = kept
            self.bytes += size

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.bytes = 0


PROGRAMS = KeptPrograms()


def cache_info() -> dict[str, int]:
    """The shared plan cache: plans held, bytes they hold, the byte bound, hits and misses.

    Examples
    --------
    >>> import resamplex as rx
    >>> sorted(rx.plan_cache_info())
    ['bytes', 'hits', 'max_bytes', 'misses', 'plans']
    """
    return PLANS.info()


class KeptTables:
    """Axis tables a facade keeps by the parameters that made them, least recently used
    dropped first beyond ``max_bytes`` (counted twice: the planner keeps its analysis of a
    table beside it, ``exact._table_memo``). Plans of new shapes that share an axis (random
    crops of one image resized to one size) then share its table and that analysis."""

    def __init__(self, max_bytes: int = 16 << 20):
        self._tables: OrderedDict[Any, AxisTable] = OrderedDict()
        self._lock = threading.Lock()
        self.max_bytes = max_bytes
        self.bytes = 0

    def get_or_build(self, key: Any, build: Callable[[], AxisTable]) -> AxisTable:
        with self._lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
                return table
        table = build()
        size = 2 * table_bytes(table)
        with self._lock:
            if key in self._tables or size > self.max_bytes:
                return self._tables.get(key, table)
            self._tables[key] = table
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, old = self._tables.popitem(last=False)
                self.bytes -= 2 * table_bytes(old)
        return table

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()
            self.bytes = 0


TABLES = KeptTables()


def clear_cache() -> None:
    """Drop every cached plan (and the programs compiled for them, the axis tables kept for
    plans of new shapes, and the programs facades planned without a plan).

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.clear_plan_cache(); rx.plan_cache_info()["plans"]
    0
    """
    PLANS.clear()
    TABLES.clear()
    PROGRAMS.clear()


def set_cache_limit(max_bytes: int) -> None:
    """Bound the plan cache to ``max_bytes`` bytes of tables and programs (default 256 MiB).

    Plans are dropped least recently used first; ``0`` keeps nothing cached.

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.set_plan_cache_limit(64 << 20); rx.plan_cache_info()["max_bytes"]
    67108864
    >>> rx.set_plan_cache_limit(256 << 20)
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise ResamplexError(f"max_bytes: expected an integer >= 0; got {max_bytes!r}")
    PLANS.set_max_bytes(max_bytes)
