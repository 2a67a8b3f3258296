# cython: language_level=3
"""Integer tap pass: exact integer arithmetic with per-tap shifts, a bias, a multiplier and a
final shift (docs/engine-passes.md, "int pass").

For output ``o`` of the resampled axis and every element ``j`` of the inner row::

    acc = sum over taps t of ((x_t[j] >> pre) * w[t]) >> post      (int64, arithmetic shifts)
    v   = ((acc + bias) * mult) >> shift                            (finish 0)
    v   = rintf((float)acc * fmul)                                  (finish 1: float32 finish)
    v   = ((acc + bias) * mult) / 2^shift                           (finish 2: C division,
                                                                     toward zero)
    out = saturate(v) stored as dst_kind

Integer sums are exact, so the tap order does not matter; only the per-tap shifts (which floor
each term) make the taps of one output non-mergeable. This covers fixed-point resizers that
keep an integer intermediate between passes (OpenCV's uint8 linear, cubic, Lanczos and
LINEAR_EXACT paths, Pillow's 8-bit convolution) and integer block sums finished by a float32
multiply.

Preconditions (the pipeline guarantees them; nothing is checked here):
- the source is viewed as ``(outer, n_in, inner)`` with byte strides ``(s_outer, s_axis, size)``
  and the destination as ``(outer, n_out, inner)`` with ``(d_outer, d_axis, size)``: rows of
  ``inner`` elements are contiguous in both; source and destination do not overlap;
- CSR taps: output ``o`` reads input indices ``idx[t]`` (in range) with weights ``w[t]`` for
  ``t`` in ``[ptr[o], ptr[o+1])``; no term or sum overflows int64;
- ``bufs`` has ``nthreads`` rows of ``inner`` int64 (``loop == 0``) or ``n_out * inner``
  (``loop == 1``); every shape entry >= 1.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport rintf
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t

from resamplex._engine._elem cimport (
    E_U8, E_I8, E_U16, E_I16, E_I32, E_I64, store_i64_row,
)


ctypedef fused in_t:
    uint8_t
    int8_t
    uint16_t
    int16_t
    int32_t
    int64_t


cdef inline void _finish(int64_t* acc, Py_ssize_t n, int finish, int64_t bias, int64_t mult,
                         int shift, float fmul) noexcept nogil:
    cdef Py_ssize_t j
    if finish == 0:
        if mult == 1:
            for j in range(n):
                acc[j] = (acc[j] + bias) >> shift
        else:
            for j in range(n):
                acc[j] = ((acc[j] + bias) * mult) >> shift
    elif finish == 1:
        for j in range(n):
            acc[j] = <int64_t>rintf(<float>acc[j] * fmul)
    else:
        for j in range(n):
            acc[j] = ((acc[j] + bias) * mult) / ((<int64_t>1) << shift)


cdef void _item(const in_t* tag, const char* src, char* dst, Py_ssize_t r, int loop,
                Py_ssize_t n_out, Py_ssize_t inner, int64_t s_outer, int64_t s_axis,
                int64_t d_outer, int64_t d_axis, const int64_t* ptr, const int64_t* idx,
                const int64_t* w, int pre, int post, int64_t bias, int64_t mult, int shift,
                int finish, float fmul, int dst_kind, int64_t* acc) noexcept nogil:
    cdef Py_ssize_t q, o, j, t, o0, o1
    cdef const char* base
    cdef const in_t* x
    cdef int64_t wt, a
    if loop == 0:          # one output row of `inner` elements: blend whole rows
        q = r // n_out
        o0 = r - q * n_out
        o1 = o0 + 1
    else:                  # every output of one outer index, element by element
        q = r
        o0 = 0
        o1 = n_out
    base = src + q * s_outer
    for o in range(o0, o1):
        if loop == 0:
            for j in range(inner):
                acc[j] = 0
            for t in range(ptr[o], ptr[o + 1]):
                x = <const in_t*>(base + idx[t] * s_axis)
                wt = w[t]
                if pre == 0 and post == 0:
                    for j in range(inner):
                        acc[j] = acc[j] + wt * <int64_t>x[j]
                else:
                    for j in range(inner):
                        acc[j] = acc[j] + (((<int64_t>x[j] >> pre) * wt) >> post)
            _finish(acc, inner, finish, bias, mult, shift, fmul)
            store_i64_row(acc, dst + q * d_outer + o * d_axis, inner, dst_kind)
        else:
            for j in range(inner):
                a = 0
                for t in range(ptr[o], ptr[o + 1]):
                    x = <const in_t*>(base + idx[t] * s_axis)
                    a = a + (((<int64_t>x[j] >> pre) * w[t]) >> post)
                acc[o * inner + j] = a
    if loop == 1:
        _finish(acc, n_out * inner, finish, bias, mult, shift, fmul)
        for o in range(n_out):
            store_i64_row(acc + o * inner, dst + q * d_outer + o * d_axis, inner, dst_kind)


def int_pass(size_t src, int64_t s_outer, int64_t s_axis, size_t dst, int64_t d_outer,
             int64_t d_axis, Py_ssize_t outer, Py_ssize_t n_out, Py_ssize_t inner,
             int src_kind, int dst_kind, const int64_t[::1] ptr, const int64_t[::1] idx,
             const int64_t[::1] w, int pre, int post, int64_t bias, int64_t mult, int shift,
             int finish, float fmul, int loop, int64_t[:, ::1] bufs, int nthreads):
    """Resample one axis with the integer arithmetic of the module docstring. GIL released.

    ``loop`` 0: one work item per output row (``inner`` long, for long rows); 1: one per outer
    index, every output element by element (short rows). Both give the same values.
    """
    cdef Py_ssize_t items = outer * n_out if loop == 0 else outer, r, blen = bufs.shape[1]
    cdef const char* s = <const char*>src
    cdef char* d = <char*>dst
    cdef const int64_t* pi = &idx[0] if idx.shape[0] else NULL
    cdef const int64_t* pw = &w[0] if w.shape[0] else NULL
    cdef int64_t* b = &bufs[0, 0]
    with nogil:
        if src_kind == E_U8:
            for r in prange(items, num_threads=nthreads, schedule="static"):
                _item(<const uint8_t*>NULL, s, d, r, loop, n_out, inner, s_outer, s_axis,
                      d_outer, d_axis, &ptr[0], pi, pw, pre, post, bias, mult, shift, finish,
                      fmul, dst_kind, b + threadid() * blen)
        elif src_kind == E_I8:
            for r in prange(items, num_threads=nthreads, schedule="static"):
                _item(<const int8_t*>NULL, s, d, r, loop, n_out, inner, s_outer, s_axis,
                      d_outer, d_axis, &ptr[0], pi, pw, pre, post, bias, mult, shift, finish,
                      fmul, dst_kind, b + threadid() * blen)
        elif src_kind == E_U16:
            for r in prange(items, num_threads=nthreads, schedule="static"):
                _item(<const uint16_t*>NULL, s, d, r, loop, n_out, inner, s_outer, s_axis,
                      d_outer, d_axis, &ptr[0], pi, pw, pre, post, bias, mult, shift, finish,
                      fmul, dst_kind, b + threadid() * blen)
        elif src_kind == E_I16:
            for r in prange(items, num_threads=nthreads, schedule="static"):
                _item(<const int16_t*>NULL, s, d, r, loop, n_out, inner, s_outer, s_axis,
                      d_outer, d_axis, &ptr[0], pi, pw, pre, post, bias, mult, shift, finish,
                      fmul, dst_kind, b + threadid() * blen)
        elif src_kind == E_I32:
            for r in prange(items, num_threads=nthreads, schedule="static"):
                _item(<const int32_t*>NULL, s, d, r, loop, n_out, inner, s_outer, s_axis,
                      d_outer, d_axis, &ptr[0], pi, pw, pre, post, bias, mult, shift, finish,
                      fmul, dst_kind, b + threadid() * blen)
        else:
            for r in prange(items, num_threads=nthreads, schedule="static"):
                _item(<const int64_t*>NULL, s, d, r, loop, n_out, inner, s_outer, s_axis,
                      d_outer, d_axis, &ptr[0], pi, pw, pre, post, bias, mult, shift, finish,
                      fmul, dst_kind, b + threadid() * blen)
