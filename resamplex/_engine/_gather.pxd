# Entry point of _gather.pyx for the executor (the kernel contract is _pass.pxd).
from resamplex._engine._pass cimport PassDesc

cdef void gather_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                     int nthreads) noexcept nogil
