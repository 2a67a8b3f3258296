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

from cython.parallel cimport prange
from libc.stdint cimport uint8_t

cdef extern from "_alpha.h" nogil:
    void rx_premultiply(const uint8_t* src, uint8_t* dst, Py_ssize_t npix, Py_ssize_t c)
    void rx_unpremultiply(const uint8_t* src, const uint8_t* table, uint8_t* dst,
                          Py_ssize_t npix, Py_ssize_t c)

# pixels per work item of the threads
DEF CHUNK = 16384


def premultiply(const uint8_t[:, ::1] src, uint8_t[:, ::1] dst, int nthreads):
    """``dst = RGBa(src)`` for pixels of ``src.shape[1]`` bytes (alpha last); same shapes."""
    cdef Py_ssize_t n = src.shape[0], c = src.shape[1], k, i0
    if n == 0:
        return
    for k in prange((n + CHUNK - 1) // CHUNK, nogil=True, num_threads=max(1, nthreads),
                    schedule="static"):
        i0 = k * CHUNK
        rx_premultiply(&src[i0, 0], &dst[i0, 0], min(CHUNK, n - i0), c)


def unpremultiply(const uint8_t[:, ::1] src, const uint8_t[::1] table, uint8_t[:, ::1] dst,
                  int nthreads):
    """``dst = RGBA(src)`` for pixels of ``src.shape[1]`` bytes (alpha last); ``table``: the
    65,536 results ``table[a << 8 | c]``; same shapes."""
    cdef Py_ssize_t n = src.shape[0], c = src.shape[1], k, i0
    if n == 0:
        return
    for k in prange((n + CHUNK - 1) // CHUNK, nogil=True, num_threads=max(1, nthreads),
                    schedule="static"):
        i0 = k * CHUNK
        rx_unpremultiply(&src[i0, 0], &table[0], &dst[i0, 0], min(CHUNK, n - i0), c)
