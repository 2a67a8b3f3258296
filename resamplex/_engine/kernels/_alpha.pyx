# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Pillow's premultiplied alpha for ``LA``/``RGBA`` images (``compat.pil``): ``RGBA -> RGBa``
before a convolution filter and ``RGBa -> RGBA`` after it, on contiguous rows of pixels whose
last byte is the alpha. The arithmetic of Pillow's ``Convert.c``:

- premultiply: each colour byte ``c`` becomes ``MULDIV255(c, a)`` =
  ``((t >> 8) + t) >> 8`` with ``t = c * a + 128`` (exact: ``t`` < 2^16);
- unpremultiply: ``c`` becomes ``min(255, 255 * c // a)``, or stays ``c`` when ``a`` is 0 or
  255, looked up in the table the caller gives (``table[a << 8 | c]``).

The alpha byte is copied. Rows are split among threads (GIL released).
"""

from libc.stdint cimport uint8_t

from resamplex._engine._pool cimport run as pool_run

cdef extern from "_alpha.h" nogil:
    void rx_premultiply(const uint8_t* src, uint8_t* dst, Py_ssize_t npix, Py_ssize_t c)
    void rx_unpremultiply(const uint8_t* src, const uint8_t* table, uint8_t* dst,
                          Py_ssize_t npix, Py_ssize_t c)

# pixels per work item of the threads
DEF CHUNK = 16384


cdef struct Pixels:
    const uint8_t* src
    const uint8_t* table
    uint8_t* dst
    Py_ssize_t n
    Py_ssize_t c


cdef void _premultiply_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                            const void* t2) noexcept nogil:
    # chunks [lo, hi) of CHUNK pixels
    cdef const Pixels* j = <const Pixels*>ctx
    cdef Py_ssize_t i0 = lo * CHUNK
    rx_premultiply(j.src + i0 * j.c, j.dst + i0 * j.c, min(hi * CHUNK, j.n) - i0, j.c)


cdef void _unpremultiply_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid,
                              const void* t1, const void* t2) noexcept nogil:
    cdef const Pixels* j = <const Pixels*>ctx
    cdef Py_ssize_t i0 = lo * CHUNK
    rx_unpremultiply(j.src + i0 * j.c, j.table, j.dst + i0 * j.c, min(hi * CHUNK, j.n) - i0,
                     j.c)


def premultiply(const uint8_t[:, ::1] src, uint8_t[:, ::1] dst, int nthreads):
    """``dst = RGBa(src)`` for pixels of ``src.shape[1]`` bytes (alpha last); same shapes."""
    cdef Pixels j
    j.n, j.c = src.shape[0], src.shape[1]
    if j.n == 0:
        return
    j.src, j.dst, j.table = &src[0, 0], &dst[0, 0], NULL
    with nogil:
        pool_run(_premultiply_body, &j, (j.n + CHUNK - 1) // CHUNK, max(1, nthreads))


def unpremultiply(const uint8_t[:, ::1] src, const uint8_t[::1] table, uint8_t[:, ::1] dst,
                  int nthreads):
    """``dst = RGBA(src)`` for pixels of ``src.shape[1]`` bytes (alpha last); ``table``: the
    65,536 results ``table[a << 8 | c]``; same shapes."""
    cdef Pixels j
    j.n, j.c = src.shape[0], src.shape[1]
    if j.n == 0:
        return
    j.src, j.dst, j.table = &src[0, 0], &dst[0, 0], &table[0]
    with nogil:
        pool_run(_unpremultiply_body, &j, (j.n + CHUNK - 1) // CHUNK, max(1, nthreads))
