"""Type stub for the compiled ``resamplex._engine._exec`` (see ``_exec.pyx``).

The executor: compiled programs (a plan for one memory layout), the thread policy, the fast
checks of a plan's call, the call keys of the facades' fast paths, and the CPU dispatch
(the instruction-set level the kernels run at).
"""

from typing import Any

import numpy as np
import numpy.typing as npt

KINDS: dict[str, int]
ROUNDINGS: dict[str, int]
OPS: dict[str, int]
COMPUTES: dict[str, int]
LOOPS: dict[str, int]
PHASES: dict[str, int]
LIMITS: dict[str, int]
LEVELS: tuple[str, ...]

def cpu_supported_level() -> str: ...
def cpu_levels() -> list[str]: ...
def cpu_level() -> str: ...
def set_cpu_level(level: str) -> str: ...

class Program:
    """A plan compiled for one layout (see ``compile/``)."""

    work: float
    nbytes: int
    affine: bool
    call_pw: int
    def __init__(self, passes: list[dict[str, Any]], scratch_sizes: list[int],
                 work: float) -> None: ...
    @property
    def npass(self) -> int: ...
    @property
    def scratch_bytes(self) -> int: ...
    def run(self, src: np.ndarray, dst: np.ndarray, nthreads: int,
            a: np.ndarray | None = None, b: np.ndarray | None = None,
            pw: tuple[float, ...] | None = None) -> None:
        """Run every pass (``src``/``dst`` of the compiled layout; ``a``/``b``: the affine
        of a program compiled with one; ``pw``: the values of a program compiled with a
        pass's ``pw_call``). GIL released."""
    def run_tiles(self, src: np.ndarray, dst: np.ndarray, nthreads: int, filler: Any,
                  starts: npt.NDArray[np.int64], tail: int, length: int, n_w: int, k: int,
                  scale: int, channels: int, src_step: int, dst_step: int) -> int:
        """A program of one pass compiled for a tile, run over every tile of a long axis,
        each tile's taps from ``filler`` (``TableBuilder.tile_filler``); the number of tiles
        that did not fit their window (not run). GIL released."""

def openmp_enabled() -> bool: ...
def max_threads() -> int: ...
def get_default_threads() -> int: ...
def set_default_threads(n: int) -> None: ...
def get_parallel_threshold() -> float: ...
def set_parallel_threshold(work: float) -> None: ...
def threads_for(requested: int | None, work: float) -> int: ...
def cores_free() -> float: ...
def is_aligned(a: np.ndarray) -> bool: ...
def is_writeable_aligned(a: np.ndarray) -> bool: ...
def may_overlap(a: np.ndarray, b: np.ndarray) -> bool: ...
def call_key(*args: Any) -> tuple[Any, ...] | None: ...
