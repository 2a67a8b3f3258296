# Every direct omp_* call goes through here, so the kernels build without OpenMP.
# (The kernels' loops run on resamplex's own pool, _pool.h: OpenMP only sets the default
# thread count.)

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    #define RESAMPLEX_OPENMP 1
    static int resamplex_max_threads(void) { return omp_get_max_threads(); }
    #else
    #define RESAMPLEX_OPENMP 0
    static int resamplex_max_threads(void) { return 1; }
    #endif
    """
    int RESAMPLEX_OPENMP
    int resamplex_max_threads() noexcept nogil
