"""Arrays with no readable memory around them, for tests that a kernel reads nothing past
its input: vector loads that stray beyond the last element (or before the first) fault
there instead of reading a neighbour's bytes, which no value comparison would notice.

``guarded(shape, dtype)`` returns a C-contiguous array whose bytes end exactly where a page
that cannot be read or written begins, with another such page before it (Linux and other
POSIX systems with ``mprotect``; elsewhere a plain array, where nothing is checked).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import mmap
import math

import numpy as np

PAGE = mmap.PAGESIZE


def _protect(buf: mmap.mmap, offset: int, length: int) -> bool:
    """Make ``length`` bytes at ``offset`` of the mapping inaccessible (PROT_NONE)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    libc = ctypes.CDLL(name, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    address = ctypes.addressof(ctypes.c_char.from_buffer(buf)) + offset
    return libc.mprotect(ctypes.c_void_p(address), length, 0) == 0


def guarded(shape: tuple[int, ...], dtype) -> np.ndarray:
    """A zeroed array of ``shape`` and ``dtype`` between two inaccessible pages (see above)."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    pages = -(-nbytes // PAGE)
    buf = mmap.mmap(-1, (pages + 2) * PAGE)
    start = PAGE + pages * PAGE - nbytes            # the last byte just before the guard
    if not (_protect(buf, 0, PAGE) and _protect(buf, (pages + 1) * PAGE, PAGE)):
        return np.zeros(shape, dtype)
    return np.frombuffer(buf, dtype, math.prod(shape), start).reshape(shape)
