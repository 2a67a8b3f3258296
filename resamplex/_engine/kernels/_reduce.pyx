# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Reductions the doors need beside the passes (plain functions; GIL released).

``int_range(a)``: the minimum and maximum of an integer or bool array in one pass over its
memory, where NumPy's ``a.min()`` and ``a.max()`` make two; the pass stops at the end of a
block (16 KiB) once both have reached the type's ends, as nothing after them can change
either (a photograph's 0 and 255 are often within its first rows). ``compat.skimage`` clips
to the input's range; for a uint8 1080x1920x3 image the two NumPy passes were 4-5% of its
``resize`` (perf, one thread).
"""

import numpy as np

cimport numpy as cnp
from resamplex._engine._fused cimport int_t
from libc.stdint cimport (INT8_MAX, INT8_MIN, INT16_MAX, INT16_MIN, INT32_MAX, INT32_MIN,
                          INT64_MAX, INT64_MIN, UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX,
                          int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                          uint64_t)

cnp.import_array()

cdef enum:
    RANGE_BLOCK = 16384     # bytes between the checks for the type's ends


cdef void _range(const int_t* x, Py_ssize_t n, int_t bottom, int_t top,
                 int_t* ends) noexcept nogil:
    # ends[0], ends[1] = min(x[:n]), max(x[:n]), n >= 1; in blocks, each a loop the compiler
    # vectorises (a min and a max a vector), stopping where both are at the type's ends
    cdef Py_ssize_t i = 0, j, end, step = RANGE_BLOCK // sizeof(int_t)
    cdef int_t lo = x[0], hi = x[0], v
    while i < n:
        end = i + step if i + step < n else n
        for j in range(i, end):
            v = x[j]
            lo = v if v < lo else lo
            hi = v if v > hi else hi
        if lo == bottom and hi == top:
            break
        i = end
    ends[0] = lo
    ends[1] = hi


cdef object _typed(const int_t[::1] x, int_t bottom, int_t top, object dtype):
    cdef int_t ends[2]
    with nogil:
        _range(&x[0], x.shape[0], bottom, top, ends)
    return np.array([ends[0], ends[1]], dtype=dtype)


def int_range(a):
    """``np.array([a.min(), a.max()], a.dtype)`` for a non-empty integer or bool array
    ``a`` of any layout (those whose elements are not one contiguous block of native
    order: NumPy's own two passes)."""
    a = np.asarray(a)
    if a.size == 0 or a.dtype.kind not in "biu":
        raise ValueError(f"int_range: a non-empty integer or bool array, not {a.dtype} "
                         f"of shape {a.shape}")
    if not (a.flags.c_contiguous or a.flags.f_contiguous) or not a.dtype.isnative:
        return np.array([a.min(), a.max()], dtype=a.dtype)
    flat = a.reshape(-1, order="F" if not a.flags.c_contiguous else "C")
    size, kind = a.dtype.itemsize, a.dtype.kind
    if kind == "b":
        return _typed[uint8_t](flat.view(np.uint8), 0, 1, np.uint8).astype(bool)
    if kind == "u":
        if size == 1:
            return _typed[uint8_t](flat, 0, UINT8_MAX, a.dtype)
        if size == 2:
            return _typed[uint16_t](flat, 0, UINT16_MAX, a.dtype)
        if size == 4:
            return _typed[uint32_t](flat, 0, UINT32_MAX, a.dtype)
        return _typed[uint64_t](flat, 0, UINT64_MAX, a.dtype)
    if size == 1:
        return _typed[int8_t](flat, INT8_MIN, INT8_MAX, a.dtype)
    if size == 2:
        return _typed[int16_t](flat, INT16_MIN, INT16_MAX, a.dtype)
    if size == 4:
        return _typed[int32_t](flat, INT32_MIN, INT32_MAX, a.dtype)
    return _typed[int64_t](flat, INT64_MIN, INT64_MAX, a.dtype)
