# The kernels' parallel loop (_pool.h): body(ctx, lo, hi, tid, NULL, NULL) for ranges [lo, hi)
# that together cover [0, n) once, on the caller (tid 0) and up to nthreads - 1 pool threads;
# with one thread it is one call over [0, n). The caller never waits for a thread that has not
# started. Every kernel module calls it through here, so the whole library has one pool. A
# body specialised for element types (a fused function) takes typed pointers as t1 and t2
# (always NULL) and is cast to body_fn: its specialisation, e.g. `<body_fn>_cb[src_t, acc_t]`.

ctypedef void (*body_fn)(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                         const void* t2) noexcept nogil

cdef void run(body_fn body, void* ctx, Py_ssize_t n, int nthreads) noexcept nogil
