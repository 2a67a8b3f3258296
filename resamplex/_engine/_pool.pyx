# cython: language_level=3, boundscheck=False, wraparound=False
"""The kernels' thread pool (``_pool.h``): one parallel loop for every kernel module.

A kernel hands ``run`` its loop body as a C function ``body(ctx, lo, hi, tid, t1, t2)`` and a
context pointer; ``run`` calls it over ranges of items that cover them all once, on the calling
thread and on pool threads (with one thread: one call over every item, so a kernel keeps no
serial loop beside its parallel one). Unlike an
OpenMP parallel region, the call never waits for a thread that has not started: it waits only
for items other threads have begun, so cores busy with other work cost at most the
one-thread time.

STYLE.md's threads convention names OpenMP ``prange``. The thread count is still decided in
Python (``_exec.threads_for``) and still follows ``omp_get_max_threads()``, so
``OMP_NUM_THREADS`` and threadpoolctl work as it asks; only the loop is this pool's, for the
reason above (an OpenMP region always waits at its end for every thread of its team).
"""

cdef extern from "_pool.h" nogil:
    ctypedef void (*rx_body_fn)(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid,
                                const void* t1, const void* t2) noexcept nogil
    void rx_pool_run(rx_body_fn body, void* ctx, Py_ssize_t n, int nthreads)
    int rx_pool_threads()


cdef void run(body_fn body, void* ctx, Py_ssize_t n, int nthreads) noexcept nogil:
    rx_pool_run(<rx_body_fn>body, ctx, n, nthreads)


def pool_threads():
    """How many pool threads this process has started (0 before the first parallel call,
    and in a child after fork)."""
    return rx_pool_threads()
