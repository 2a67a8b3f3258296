"""Type stub for the compiled ``resamplex._engine._pool`` (see ``_pool.pyx``): the kernels'
thread pool. Its parallel loop is C only; Python sees how many threads it has started."""

def pool_threads() -> int:
    """Pool threads this process has started (0 before its first parallel call, and in a
    child after ``fork``)."""
