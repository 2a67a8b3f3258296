# cython: language_level=3
"""B-spline kernels: the recursive prefilter (OP_SPLINE) and the tensor-product evaluation in
SciPy's order (OP_TENSOR). Both compute in float64.

The arithmetic is that of SciPy's ``ndimage`` (``ni_splines.c`` ``apply_filter`` and its
initial conditions; ``ni_interpolation.c`` ``NI_ZoomShift``), operation for operation, so that
the results are the same bits: the compiler does not reassociate floating-point sums and the
build forbids fused multiply-adds (setup.py ``-ffp-contract=off``).

Entry points (the kernel contract, ``_pass.pxd``), called by the executor:

``spline_run`` (OP_SPLINE), one axis of the prefilter. ``shape``, ``sstr``, ``dstr``: the
array's shape and the byte strides of source and destination (they may be the same memory:
each line is read whole before it is written); ``axis``: the filtered axis; ``src_kind``,
``dst_kind``: element codes (``ELEMS``); ``rounding``: the store rule (``STORES``); ``k``: the
number of poles (1 or 2) and ``pw[0..k)`` the poles; ``shift``: the initial conditions
(``INITS``); ``buf_len >= shape[axis]`` doubles per thread; ``units``: the number of lines.

``tensor_run`` (OP_TENSOR), every axis at once: output element ``o`` is, over the taps
``(f_0, ..., f_{n-1})`` of its axes in row-major order (last axis fastest), starting from
``t = 0.0``, ``t += ((x[f] * w_0[f_0]) * w_1[f_1]) * ...`` (no multiplication when ``k == 1``:
order 0), then stored by ``rounding``. ``shape``/``dstr``: the output; ``sstr``: the source's
byte strides; ``k``: taps per output on every axis; ``ptr[d]``: where axis ``d``'s taps start
in ``off`` (byte offsets into the source, ``CVAL_TAP`` for a tap that reads ``cval``; the last
axis: element indices, ``n_in`` for a cval tap, laid out tap-major, ``[t * n_out + o]``) and
``w`` (float64, laid out like ``off``), ``ptr[d] // k`` where its output flags start in
``idx2`` (1: that output is ``cval``); ``n_in``: the source's length along the last axis;
``pw[0]``: cval. ``buf_len``: doubles of scratch per thread (see ``tensor_scratch``).

Preconditions (the planner guarantees them; nothing here is checked): every shape entry >= 1,
offsets inside the source, source and destination do not overlap (tensor), aligned native
elements.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport pow
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                          uint64_t, INT64_MIN)

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pass cimport KernelTable, PassDesc


cdef enum Elem:
    E_F64 = 0
    E_F32 = 1
    E_U8 = 2
    E_I8 = 3
    E_U16 = 4
    E_I16 = 5
    E_U32 = 6
    E_I32 = 7
    E_U64 = 8
    E_I64 = 9
    E_BOOL = 10

cdef enum Store:
    S_INTERP = 0    # NI_ZoomShift's store: integers round half away (t + 0.5 / t - 0.5), clamp
    S_CAST = 1      # a C cast (spline_filter's line buffers): truncate, wrap

cdef enum Init:
    I_MIRROR = 0
    I_REFLECT = 1
    I_WRAP = 2

#: Element codes by dtype name (bool is read and written as a byte 0/1).
ELEMS = {"float64": E_F64, "float32": E_F32, "uint8": E_U8, "int8": E_I8, "uint16": E_U16,
         "int16": E_I16, "uint32": E_U32, "int32": E_I32, "uint64": E_U64, "int64": E_I64,
         "bool": E_BOOL}
STORES = {"interp": S_INTERP, "cast": S_CAST}
INITS = {"mirror": I_MIRROR, "reflect": I_REFLECT, "wrap": I_WRAP}
#: The byte offset of a tap that reads cval (grid-constant).
CVAL_TAP = INT64_MIN

ctypedef fused elem_t:
    double
    float
    uint8_t
    int8_t
    uint16_t
    int16_t
    uint32_t
    int32_t
    uint64_t
    int64_t


# ------------------------------------------------------------------------------ loads, stores

cdef inline double _load(const char* p, int kind) noexcept nogil:
    if kind == E_F64:
        return (<const double*>p)[0]
    if kind == E_F32:
        return (<const float*>p)[0]
    if kind == E_U8 or kind == E_BOOL:
        return (<const uint8_t*>p)[0]
    if kind == E_I8:
        return (<const int8_t*>p)[0]
    if kind == E_U16:
        return (<const uint16_t*>p)[0]
    if kind == E_I16:
        return (<const int16_t*>p)[0]
    if kind == E_U32:
        return (<const uint32_t*>p)[0]
    if kind == E_I32:
        return (<const int32_t*>p)[0]
    if kind == E_U64:
        return <double>(<const uint64_t*>p)[0]
    return <double>(<const int64_t*>p)[0]


cdef inline double _uint_interp(double t, double top) noexcept nogil:
    # CASE_INTERP_OUT_UINT: t > 0 ? t + 0.5 : 0, then at most the type's maximum
    t = t + 0.5 if t > 0 else 0.0
    return top if t > top else t


cdef inline double _int_interp(double t, double lo, double hi) noexcept nogil:
    # CASE_INTERP_OUT_INT: half away from zero by adding +-0.5, then clamp; the cast truncates
    t = t + 0.5 if t > 0 else t - 0.5
    t = hi if t > hi else t
    return lo if t < lo else t


cdef void _store_row(const double* v, char* dst, Py_ssize_t n, int64_t ds, int kind,
                     int rule) noexcept nogil:
    cdef Py_ssize_t j
    cdef double t
    if kind == E_F64:
        for j in range(n):
            (<double*>(dst + j * ds))[0] = v[j]
    elif kind == E_F32:
        for j in range(n):
            (<float*>(dst + j * ds))[0] = <float>v[j]
    elif kind == E_BOOL:
        # npy_bool is an unsigned char: a C cast, not a truth test (0.5 stores False)
        for j in range(n):
            (<uint8_t*>(dst + j * ds))[0] = <uint8_t><int32_t>v[j]
    elif rule == S_CAST:
        # a C cast from double: the 8- and 16-bit types go through int (x86: truncate, wrap)
        for j in range(n):
            t = v[j]
            if kind == E_U8:
                (<uint8_t*>(dst + j * ds))[0] = <uint8_t><int32_t>t
            elif kind == E_I8:
                (<int8_t*>(dst + j * ds))[0] = <int8_t><int32_t>t
            elif kind == E_U16:
                (<uint16_t*>(dst + j * ds))[0] = <uint16_t><int32_t>t
            elif kind == E_I16:
                (<int16_t*>(dst + j * ds))[0] = <int16_t><int32_t>t
            elif kind == E_U32:
                (<uint32_t*>(dst + j * ds))[0] = <uint32_t><int64_t>t
            elif kind == E_I32:
                (<int32_t*>(dst + j * ds))[0] = <int32_t>t
            elif kind == E_U64:
                (<uint64_t*>(dst + j * ds))[0] = <uint64_t>t if t >= 0 else \
                    <uint64_t><int64_t>t
            else:
                (<int64_t*>(dst + j * ds))[0] = <int64_t>t
    elif kind == E_U8:
        for j in range(n):
            (<uint8_t*>(dst + j * ds))[0] = <uint8_t>_uint_interp(v[j], 255.0)
    elif kind == E_U16:
        for j in range(n):
            (<uint16_t*>(dst + j * ds))[0] = <uint16_t>_uint_interp(v[j], 65535.0)
    elif kind == E_U32:
        for j in range(n):
            (<uint32_t*>(dst + j * ds))[0] = <uint32_t>_uint_interp(v[j], 4294967295.0)
    elif kind == E_U64:
        for j in range(n):
            t = _uint_interp(v[j], 18446744073709551615.0)
            # 2^64 itself (the double nearest the maximum) saturates instead of overflowing
            (<uint64_t*>(dst + j * ds))[0] = <uint64_t>t if t < 18446744073709551616.0 \
                else <uint64_t>0xFFFFFFFFFFFFFFFF
    elif kind == E_I8:
        for j in range(n):
            (<int8_t*>(dst + j * ds))[0] = <int8_t><int32_t>_int_interp(v[j], -128.0, 127.0)
    elif kind == E_I16:
        for j in range(n):
            (<int16_t*>(dst + j * ds))[0] = <int16_t><int32_t>_int_interp(v[j], -32768.0,
                                                                          32767.0)
    elif kind == E_I32:
        for j in range(n):
            (<int32_t*>(dst + j * ds))[0] = <int32_t>_int_interp(v[j], -2147483648.0,
                                                                 2147483647.0)
    else:
        for j in range(n):
            t = _int_interp(v[j], -9223372036854775808.0, 9223372036854775807.0)
            (<int64_t*>(dst + j * ds))[0] = <int64_t>t if t < 9223372036854775807.0 \
                else <int64_t>0x7FFFFFFFFFFFFFFF


# ------------------------------------------------------------------------------ the prefilter
# ni_splines.c: gain, then for each pole a causal pass from its initial value and an
# anti-causal pass from its own; the initial values follow the boundary mode.

cdef void _init_causal_mirror(double* c, Py_ssize_t n, double z) noexcept nogil:
    cdef Py_ssize_t i
    cdef double z_i = z
    cdef double z_n_1 = pow(z, <double>(n - 1))
    c[0] = c[0] + z_n_1 * c[n - 1]
    for i in range(1, n - 1):
        c[0] += z_i * (c[i] + z_n_1 * c[n - 1 - i])
        z_i *= z
    c[0] /= 1 - z_n_1 * z_n_1


cdef void _init_anticausal_mirror(double* c, Py_ssize_t n, double z) noexcept nogil:
    c[n - 1] = (z * c[n - 2] + c[n - 1]) * z / (z * z - 1)


cdef void _init_causal_wrap(double* c, Py_ssize_t n, double z) noexcept nogil:
    cdef Py_ssize_t i
    cdef double z_i = z
    for i in range(1, n):
        c[0] += z_i * c[n - i]
        z_i *= z
    c[0] /= 1 - z_i


cdef void _init_anticausal_wrap(double* c, Py_ssize_t n, double z) noexcept nogil:
    cdef Py_ssize_t i
    cdef double z_i = z
    for i in range(n - 1):
        c[n - 1] += z_i * c[i]
        z_i *= z
    c[n - 1] *= z / (z_i - 1)


cdef void _init_causal_reflect(double* c, Py_ssize_t n, double z) noexcept nogil:
    cdef Py_ssize_t i
    cdef double z_i = z
    cdef double z_n = pow(z, <double>n)
    cdef double c0 = c[0]
    c[0] = c[0] + z_n * c[n - 1]
    for i in range(1, n):
        c[0] += z_i * (c[i] + z_n * c[n - 1 - i])
        z_i *= z
    c[0] *= z / (1 - z_n * z_n)
    c[0] += c0


cdef void _init_anticausal_reflect(double* c, Py_ssize_t n, double z) noexcept nogil:
    c[n - 1] *= z / (z - 1)


cdef void _filter_line(double* c, Py_ssize_t n, const double* poles, int npoles,
                       int init) noexcept nogil:
    cdef double gain = 1.0, z
    cdef Py_ssize_t i
    cdef int q
    for q in range(npoles):
        z = poles[q]
        gain *= (1.0 - z) * (1.0 - 1.0 / z)
    for i in range(n):
        c[i] *= gain
    for q in range(npoles):
        z = poles[q]
        if init == I_MIRROR:
            _init_causal_mirror(c, n, z)
        elif init == I_REFLECT:
            _init_causal_reflect(c, n, z)
        else:
            _init_causal_wrap(c, n, z)
        for i in range(1, n):
            c[i] += z * c[i - 1]
        if init == I_MIRROR:
            _init_anticausal_mirror(c, n, z)
        elif init == I_REFLECT:
            _init_anticausal_reflect(c, n, z)
        else:
            _init_anticausal_wrap(c, n, z)
        for i in range(n - 2, -1, -1):
            c[i] = z * (c[i + 1] - c[i])


cdef inline void _spline_line(const PassDesc* p, const char* src, char* dst, Py_ssize_t r,
                              double* buf) noexcept nogil:
    cdef Py_ssize_t rem = r, q, i, n = p.shape[p.axis]
    cdef int64_t so = 0, do = 0
    cdef int d
    for d in range(p.ndim - 1, -1, -1):
        if d == p.axis:
            continue
        q = rem % p.shape[d]
        rem = rem // p.shape[d]
        so += q * p.sstr[d]
        do += q * p.dstr[d]
    cdef int64_t ss = p.sstr[p.axis]
    for i in range(n):
        buf[i] = _load(src + so + i * ss, p.src_kind)
    if n > 1:
        _filter_line(buf, n, p.pw, <int>p.k, p.shift)
    _store_row(buf, dst + do, n, p.dstr[p.axis], p.dst_kind, p.rounding)


cdef void spline_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                     int nthreads) noexcept nogil:
    """OP_SPLINE: filter every line along ``axis`` (see the module docstring)."""
    cdef Py_ssize_t lines = 1, r
    cdef int d
    cdef double* b = <double*>bufs
    for d in range(p.ndim):
        if d != p.axis:
            lines *= p.shape[d]
    if nthreads <= 1:
        for r in range(lines):
            _spline_line(p, src, dst, r, b)
        return
    for r in prange(lines, num_threads=nthreads, schedule="static"):
        _spline_line(p, src, dst, r, b + threadid() * p.buf_len)


# ------------------------------------------------------------------------------ evaluation
# NI_ZoomShift: per output, over the product of every axis's taps (row-major), the tap's
# element times each axis's weight in axis order, added to t from 0.0. For one output row
# (every axis but the last fixed), the outer axes' taps are a few combinations c, and the
# product ``(x * w_0) * ... * w_{n-2}`` of combination c does not depend on the output's
# position along the row: it is computed once per input element of the row (``u``), and
# each output adds ``u[i] * w_last`` over c (outer) and its last-axis taps (inner), the order
# SciPy adds them in. Same operations on the same operands: the same bits.

def tensor_scratch(int ndim, Py_ssize_t k, Py_ssize_t n_last, Py_ssize_t n_in_last):
    """Doubles of per-thread scratch ``tensor_run`` needs: an output row of ``n_last``, one
    product row of ``n_in_last + 1`` per combination of the outer axes' taps (the last slot
    for taps reading cval), the weights of one combination."""
    cdef Py_ssize_t combos = 1
    cdef int d
    for d in range(ndim - 1):
        combos *= k
    return n_last + combos * (n_in_last + 1) + ndim


cdef enum:
    LANES = 8       # outputs accumulated side by side (independent sums: no reordering)
    MAX_TAPS = 6


cdef void _tensor_row(const elem_t* tag, const PassDesc* p, const char* src, char* dst,
                      Py_ssize_t r, double* buf) noexcept nogil:
    cdef int nd = p.ndim, last = p.ndim - 1, d
    cdef Py_ssize_t k = p.k, n = p.shape[last], n_in = p.n_in, combos = 1, c, j, q, i
    cdef Py_ssize_t rem = r, oq, j0, nb, jj, stride = p.n_in + 1
    cdef Py_ssize_t o[64]
    cdef int64_t do = 0, lo, base, ss = p.sstr[last]
    cdef double cval = p.pw[0], v
    cdef const int64_t* off = p.off
    cdef const int64_t* flags = p.idx2
    cdef const double* w = <const double*>p.w
    cdef double* acc = buf
    cdef double* u = buf + n
    cdef double* cw
    cdef double* uc
    cdef bint outside = False, cflag
    cdef int64_t lp = p.ptr[last]
    cdef const int64_t* li = off + lp           # last axis: element indices, tap-major
    cdef const double* lw = w + lp              # (q * n + j), n_in for a cval tap
    cdef const char* row
    cdef double a[LANES]
    cdef int64_t ix[LANES * MAX_TAPS]
    cdef double wx[LANES * MAX_TAPS]
    for d in range(last - 1, -1, -1):
        oq = rem % p.shape[d]
        rem = rem // p.shape[d]
        o[d] = oq
        do += oq * p.dstr[d]
        if flags[p.ptr[d] // k + oq]:
            outside = True
    if outside:
        for j in range(n):
            acc[j] = cval
        _store_row(acc, dst + do, n, p.dstr[last], p.dst_kind, p.rounding)
        return
    for d in range(last):
        combos *= k
    cw = u + combos * stride
    # one product row per combination of the outer axes' taps
    for c in range(combos):
        rem = c
        base = 0
        cflag = False
        for d in range(last - 1, -1, -1):
            q = rem % k
            rem = rem // k
            lo = off[p.ptr[d] + o[d] * k + q]
            if lo == INT64_MIN:
                cflag = True
            else:
                base += lo
            cw[d] = w[p.ptr[d] + o[d] * k + q]
        row = src + base
        uc = u + c * stride
        if k == 1:      # order 0: the element itself, no weights
            for i in range(n_in):
                uc[i] = cval if cflag else <double>(<const elem_t*>(row + i * ss))[0]
            uc[n_in] = cval
            continue
        for i in range(n_in):
            v = cval if cflag else <double>(<const elem_t*>(row + i * ss))[0]
            for d in range(last):
                v = v * cw[d]
            uc[i] = v
        v = cval
        for d in range(last):
            v = v * cw[d]
        uc[n_in] = v
    # each output: t = 0.0, then over the combinations (outer) and its last-axis taps (inner)
    j0 = 0
    while j0 < n:
        nb = min(<Py_ssize_t>LANES, n - j0)
        for q in range(k):
            for jj in range(LANES):
                ix[q * LANES + jj] = li[q * n + j0 + jj] if jj < nb else n_in
                wx[q * LANES + jj] = lw[q * n + j0 + jj] if jj < nb else 0.0
        for jj in range(LANES):
            a[jj] = 0.0
        if k == 1:
            for c in range(combos):
                uc = u + c * stride
                for jj in range(LANES):
                    a[jj] = a[jj] + uc[ix[jj]]
        else:
            for c in range(combos):
                uc = u + c * stride
                for q in range(k):
                    for jj in range(LANES):
                        a[jj] = a[jj] + uc[ix[q * LANES + jj]] * wx[q * LANES + jj]
        for jj in range(nb):
            acc[j0 + jj] = cval if flags[lp // k + j0 + jj] else a[jj]
        j0 += LANES
    _store_row(acc, dst + do, n, p.dstr[last], p.dst_kind, p.rounding)


cdef void _tensor_rows(const elem_t* tag, const PassDesc* p, const char* src, char* dst,
                       double* bufs, int nthreads) noexcept nogil:
    cdef Py_ssize_t rows = 1, r
    cdef int d
    for d in range(p.ndim - 1):
        rows *= p.shape[d]
    if nthreads <= 1:
        for r in range(rows):
            _tensor_row(tag, p, src, dst, r, bufs)
        return
    for r in prange(rows, num_threads=nthreads, schedule="static"):
        _tensor_row(tag, p, src, dst, r, bufs + threadid() * p.buf_len)


cdef void tensor_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                     int nthreads) noexcept nogil:
    """OP_TENSOR: evaluate every output (see the module docstring)."""
    cdef double* b = <double*>bufs
    cdef int kind = p.src_kind
    if kind == E_F64:
        _tensor_rows(<const double*>NULL, p, src, dst, b, nthreads)
    elif kind == E_F32:
        _tensor_rows(<const float*>NULL, p, src, dst, b, nthreads)
    elif kind == E_U8 or kind == E_BOOL:
        _tensor_rows(<const uint8_t*>NULL, p, src, dst, b, nthreads)
    elif kind == E_I8:
        _tensor_rows(<const int8_t*>NULL, p, src, dst, b, nthreads)
    elif kind == E_U16:
        _tensor_rows(<const uint16_t*>NULL, p, src, dst, b, nthreads)
    elif kind == E_I16:
        _tensor_rows(<const int16_t*>NULL, p, src, dst, b, nthreads)
    elif kind == E_U32:
        _tensor_rows(<const uint32_t*>NULL, p, src, dst, b, nthreads)
    elif kind == E_I32:
        _tensor_rows(<const int32_t*>NULL, p, src, dst, b, nthreads)
    elif kind == E_U64:
        _tensor_rows(<const uint64_t*>NULL, p, src, dst, b, nthreads)
    else:
        _tensor_rows(<const int64_t*>NULL, p, src, dst, b, nthreads)


# ---- the kernel table of this module (the executor picks one per instruction-set level) ----

cdef KernelTable _table
_table.spline = spline_run
_table.tensor = tensor_run


def kernel_table():
    """This module's entry points (the kernel contract, ``_pass.pxd``) as a PyCapsule named
    ``resamplex.kernels`` holding a ``KernelTable``; the executor (``_exec.pyx``) reads it."""
    return PyCapsule_New(<void*>&_table, b"resamplex.kernels", NULL)
