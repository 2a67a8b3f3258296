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
(``INITS``); ``units`` and ``buf_len`` (doubles per thread): ``spline_units`` (SPLINE_LANES
lines at a time: neighbours along the innermost axis where that is not the filtered one and
holds SPLINE_LANES elements or more, else SPLINE_LANES lines in turn, each from its own
offset).

``tensor_run`` (OP_TENSOR), every axis at once: output element ``o`` is, over the taps
``(f_0, ..., f_{n-1})`` of its axes in row-major order (last axis fastest), starting from
``t = 0.0``, ``t += ((x[f] * w_0[f_0]) * w_1[f_1]) * ...`` (no multiplication when ``k == 1``:
order 0), then stored by ``rounding``. ``shape``/``dstr``: the output; ``sstr``: the source's
byte strides; ``k``: taps per output on every axis; ``ptr[d]``: where axis ``d``'s taps start
in ``off`` and ``w`` (float64), ``ptr[d] // k`` where its output flags start in ``idx2`` (1:
that output is ``cval``). Axes before the last: byte offsets into the source (``CVAL_TAP``
for a tap that reads ``cval``), output-major ``[o * k + t]``. The last axis, order 0: element
indices (``n_in`` for a cval tap and for an output flagged cval); orders 1-5: tiles (``splines.last_axis_tiles``, their table at
``off[ptr[ndim]:]``), each tap the position of its input among the tile's distinct inputs
(their count for cval), tap-major within the tile. ``n_in``: the source's length along the
last axis (order 0), or the most distinct inputs of a tile; ``pw[0]``: cval (``rounding``
``S_CLIP``, float outputs only: each output row, once stored, is clipped to ``[pw[1], pw[2]]``
as ``np.clip`` would clip it); ``units``:
``tensor_units``; ``buf_len``: ``tensor_scratch``. ``loop == TENSOR_ROWS2`` (order 1, the
axes before the last two read at their one tap of weight 1.0): each output row from two
input rows (``_rows2``); the last axis's entries are then byte offsets into those rows
(``CVAL_TAP``: cval; none in outputs ``[lo, hi)``) and weights, tap-major, its flags the
``n_in`` outputs that are cval, listed; for float32 and float64 sources, the windows of the
blocks of eight outputs from ``lo`` follow at ``off[ptr[ndim]:]`` (``splines.row_windows``).

Preconditions (the planner guarantees them; nothing here is checked): every shape entry >= 1,
offsets inside the source, source and destination do not overlap (tensor), aligned native
elements.
"""

from libc.math cimport fabs, pow
from libc.string cimport memcpy
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                          uint64_t, INT64_MIN)

from cpython.pycapsule cimport PyCapsule_New

from resamplex._engine._pool cimport body_fn, run as pool_run
from resamplex._engine._pass cimport KernelTable, PassDesc, PassJob, TENSOR_ROWS2
from resamplex._engine._fused cimport int_t


cdef extern from "_spline.h" nogil:
    int RX_SPLINE_VECTORS
    double rx_tiny_scale(double zz)
    void rx_plus_tiny(const double* a, const double* b, double zz, double zs, double* s,
                      Py_ssize_t n)
    void rx_causal16(double* c, Py_ssize_t n, double z)
    void rx_anticausal16(double* c, Py_ssize_t n, double z)
    void rx_mirror_run16(const double* c, Py_ssize_t n, double z, double zz, Py_ssize_t* i,
                         double* z_i, double* c0)
    void rx_spline_products8(const char* src, int64_t base0, const int64_t* moff, int64_t ss,
                             const int64_t* at, Py_ssize_t n, const double* wo, int no,
                             const double* wm, double cval, int f32, double* out)
    void rx_spline_sum4x8(double* rows, Py_ssize_t rs, Py_ssize_t ts, Py_ssize_t j,
                          const double* u, Py_ssize_t combos, Py_ssize_t slot, Py_ssize_t k,
                          const int64_t* li, const double* lw)
    void rx_spline_sum3x8(double* rows, Py_ssize_t rs, Py_ssize_t ts, Py_ssize_t j,
                          Py_ssize_t m, const double* u, Py_ssize_t combos, Py_ssize_t slot,
                          Py_ssize_t k, const int64_t* li, const double* lw)
    void rx_spline_sum8x8(double* rows, Py_ssize_t rs, Py_ssize_t ts, Py_ssize_t j,
                          const double* u, Py_ssize_t combos, Py_ssize_t slot, Py_ssize_t k,
                          const int64_t* li, const double* lw)
    void rx_zoom1_row(const char* r0, const char* r1, double a0, double a1, const int64_t* g0,
                      const int64_t* g1, const double* b0, const double* b1, Py_ssize_t n,
                      int f32, int out_f32, const int64_t* win, void* out)
    void rx_zoom0_row(const char* row, int64_t ss, const int64_t* li, Py_ssize_t n,
                      int64_t n_in, double cval, int f32, const int64_t* win, void* out)


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
    S_CLIP = 2      # float outputs (OP_TENSOR): as S_INTERP, then each row stored is clipped
                    # to [pw[1], pw[2]] in the output's type (_clip_row: NumPy's np.clip)

cdef enum:
    SPLINE_LANES = 16   # prefilter lines side by side (axes other than the innermost; the
                        # recursions of _spline.h, rx_causal16 ..., take sixteen)
    SPLINE_WIDE = 8     # runs of SPLINE_LANES neighbour lines one unit loads and stores
                        # together (_spline_lanes), at most: _runs_per_unit
    WIDE_DOUBLES = 1 << 19  # the scratch those runs may take (4 MiB a thread)

cdef enum Init:
    I_MIRROR = 0
    I_REFLECT = 1
    I_WRAP = 2

#: Element codes by dtype name (bool is read and written as a byte 0/1).
ELEMS = {"float64": E_F64, "float32": E_F32, "uint8": E_U8, "int8": E_I8, "uint16": E_U16,
         "int16": E_I16, "uint32": E_U32, "int32": E_I32, "uint64": E_U64, "int64": E_I64,
         "bool": E_BOOL}
STORES = {"interp": S_INTERP, "cast": S_CAST, "clip": S_CLIP}
INITS = {"mirror": I_MIRROR, "reflect": I_REFLECT, "wrap": I_WRAP}
#: The byte offset of a tap that reads cval (grid-constant).
CVAL_TAP = INT64_MIN

ctypedef fused elem_t:
    double
    float
    int_t


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


cdef inline int32_t _to_i32(double t) noexcept nogil:
    # (int32_t)t as x86 computes it, which is what SciPy's own casts give: truncation inside
    # the type; NaN and values outside it give INT32_MIN (cvttsd2si's "indefinite"), here
    # without C's undefined behaviour there
    if t > -2147483649.0 and t < 2147483648.0:
        return <int32_t>t
    return <int32_t>(-2147483647 - 1)


cdef inline int64_t _to_i64(double t) noexcept nogil:
    # (int64_t)t the same way: INT64_MIN for NaN and values outside the type
    if t >= -9223372036854775808.0 and t < 9223372036854775808.0:
        return <int64_t>t
    return INT64_MIN


cdef inline uint64_t _to_u64(double t) noexcept nogil:
    # (uint64_t)t for t >= 0 as x86-64's generic code computes it (the conversion of
    # t - 2^63 for the upper half): 0 for 2^64 and above
    if t < 18446744073709551616.0:
        return <uint64_t>t
    return 0


cdef inline double _uint_interp(double t, double top) noexcept nogil:
    # CASE_INTERP_OUT_UINT: t > 0 ? t + 0.5 : 0, then at most the type's maximum
    t = t + 0.5 if t > 0 else 0.0
    return top if t > top else t


cdef inline double _int_interp(double t, double lo, double hi) noexcept nogil:
    # CASE_INTERP_OUT_INT: half away from zero by adding +-0.5, then clamp; the cast truncates
    t = t + 0.5 if t > 0 else t - 0.5
    t = hi if t > hi else t
    return lo if t < lo else t


cdef void _store_row(const double* values, char* dst, Py_ssize_t n, int64_t ds, int kind,
                     int rule, Py_ssize_t vs=1) noexcept nogil:
    # values[j * vs] -> dst + j * ds, by the store rule of the output's kind
    cdef Py_ssize_t j
    cdef double t
    cdef const double* v = values
    cdef float* f32
    cdef double* f64
    if vs == 1 and kind == E_F32 and ds == 4:      # contiguous float rows: vectorisable
        f32 = <float*>dst
        for j in range(n):
            f32[j] = <float>v[j]
        return
    if vs == 1 and kind == E_F64 and ds == 8:
        f64 = <double*>dst
        for j in range(n):
            f64[j] = v[j]
        return
    if kind == E_F64:
        for j in range(n):
            (<double*>(dst + j * ds))[0] = v[j * vs]
    elif kind == E_F32:
        for j in range(n):
            (<float*>(dst + j * ds))[0] = <float>v[j * vs]
    elif kind == E_BOOL:
        # npy_bool is an unsigned char: a C cast, not a truth test (0.5 stores False)
        for j in range(n):
            (<uint8_t*>(dst + j * ds))[0] = <uint8_t>_to_i32(v[j * vs])
    elif rule == S_CAST:
        # a C cast from double: the 8- and 16-bit types go through int (x86: truncate, wrap)
        for j in range(n):
            t = v[j * vs]
            if kind == E_U8:
                (<uint8_t*>(dst + j * ds))[0] = <uint8_t>_to_i32(t)
            elif kind == E_I8:
                (<int8_t*>(dst + j * ds))[0] = <int8_t>_to_i32(t)
            elif kind == E_U16:
                (<uint16_t*>(dst + j * ds))[0] = <uint16_t>_to_i32(t)
            elif kind == E_I16:
                (<int16_t*>(dst + j * ds))[0] = <int16_t>_to_i32(t)
            elif kind == E_U32:
                (<uint32_t*>(dst + j * ds))[0] = <uint32_t>_to_i64(t)
            elif kind == E_I32:
                (<int32_t*>(dst + j * ds))[0] = _to_i32(t)
            elif kind == E_U64:
                (<uint64_t*>(dst + j * ds))[0] = _to_u64(t) if t >= 0 else \
                    <uint64_t>_to_i64(t)
            else:
                (<int64_t*>(dst + j * ds))[0] = _to_i64(t)
    elif kind == E_U8:
        for j in range(n):
            (<uint8_t*>(dst + j * ds))[0] = <uint8_t>_uint_interp(v[j * vs], 255.0)
    elif kind == E_U16:
        for j in range(n):
            (<uint16_t*>(dst + j * ds))[0] = <uint16_t>_uint_interp(v[j * vs], 65535.0)
    elif kind == E_U32:
        for j in range(n):
            (<uint32_t*>(dst + j * ds))[0] = <uint32_t>_uint_interp(v[j * vs], 4294967295.0)
    elif kind == E_U64:
        for j in range(n):
            # the maximum is 2^64 as a double, so the clamp gives 2^64, whose cast wraps to 0
            # on x86-64 (as SciPy's: 1e30 and infinity store 0)
            (<uint64_t*>(dst + j * ds))[0] = _to_u64(_uint_interp(v[j * vs],
                                                                  18446744073709551615.0))
    elif kind == E_I8:
        for j in range(n):
            (<int8_t*>(dst + j * ds))[0] = <int8_t>_to_i32(_int_interp(v[j * vs], -128.0, 127.0))
    elif kind == E_I16:
        for j in range(n):
            (<int16_t*>(dst + j * ds))[0] = <int16_t>_to_i32(_int_interp(v[j * vs], -32768.0,
                                                                         32767.0))
    elif kind == E_I32:
        for j in range(n):
            (<int32_t*>(dst + j * ds))[0] = _to_i32(_int_interp(v[j * vs], -2147483648.0,
                                                                2147483647.0))
    else:
        for j in range(n):
            # as SciPy's int64 store computes on x86-64: beyond either end, that end; 2^63
            # itself (not beyond the maximum, 2^63 as a double) and NaN by the cast, INT64_MIN
            t = v[j * vs]
            t = t + 0.5 if t > 0 else t - 0.5
            (<int64_t*>(dst + j * ds))[0] = (<int64_t>0x7FFFFFFFFFFFFFFF
                                             if t > 9223372036854775807.0 else INT64_MIN
                                             if t < -9223372036854775808.0 else _to_i64(t))


# ------------------------------------------------------------------------------ the prefilter
# ni_splines.c: gain, then for each pole a causal pass from its initial value and an
# anti-causal pass from its own; the initial values follow the boundary mode.

cdef void _clip_row(char* row, Py_ssize_t n, int64_t ds, int kind, double lo,
                    double hi) noexcept nogil:
    # np.clip(row, lo, hi) in place, in the row's float type (lo, hi: values of that type,
    # not NaN): a value below lo is lo, then one above hi is hi, NaN stays, a tie keeps the
    # value (-0.0 clipped at +0.0 stays -0.0). That is NumPy 2.2's clip and later; before,
    # a tie went to the bound (only the sign of a zero differs), and NaN bounds make NaN
    # (compat.skimage._clip_in_store says where the two agree). A row just stored (in
    # cache); contiguous rows in vectors: one max and one min a step, whose operand order
    # keeps NaN (maxpd(lo, t) is t unless lo > t).
    cdef Py_ssize_t j
    cdef double t
    cdef float tf, lof = <float>lo, hif = <float>hi
    cdef double* d = <double*>row
    cdef float* f = <float*>row
    if kind == E_F64 and ds == 8:
        for j in range(n):
            t = lo if lo > d[j] else d[j]
            d[j] = hi if hi < t else t
    elif kind == E_F32 and ds == 4:
        for j in range(n):
            tf = lof if lof > f[j] else f[j]
            f[j] = hif if hif < tf else tf
    elif kind == E_F64:
        for j in range(n):
            t = (<double*>(row + j * ds))[0]
            t = lo if lo > t else t
            (<double*>(row + j * ds))[0] = hi if hi < t else t
    elif kind == E_F32:
        for j in range(n):
            tf = (<float*>(row + j * ds))[0]
            tf = lof if lof > tf else tf
            (<float*>(row + j * ds))[0] = hif if hif < tf else tf


cdef inline void _stored(const PassDesc* p, char* row) noexcept nogil:
    # after an output row of OP_TENSOR is stored: its clip, where the store rule asks for one
    if p.rounding == S_CLIP:
        _clip_row(row, p.shape[p.ndim - 1], p.dstr[p.ndim - 1], p.dst_kind, p.pw[1], p.pw[2])


cdef inline bint _subnormal(double x) noexcept nogil:
    return x != 0.0 and fabs(x) < 2.2250738585072014e-308


cdef inline double _tiny_scale(double zz) noexcept nogil:
    # what _plus_zz takes beside zz: rx_tiny_scale(zz) (_spline.h) where zz is subnormal,
    # else 0.0 (the plain products)
    return rx_tiny_scale(zz) if _subnormal(zz) else 0.0


cdef inline void _plus_zz(const double* a, const double* b, double zz, double zs,
                          double* s) noexcept nogil:
    # s[l] = a[l] + zz * b[l] on every lane (s may be a), zs = _tiny_scale(zz): through
    # rx_plus_tiny (_spline.h) where zz is subnormal, the same bits without its assists
    cdef Py_ssize_t l
    if zs != 0.0:
        rx_plus_tiny(a, b, zz, zs, s, SPLINE_LANES)
    else:
        for l in range(SPLINE_LANES):
            s[l] = a[l] + zz * b[l]


cdef double _mirror_sum(const double* c, Py_ssize_t n, double z, double zz, double zs,
                        double* c0) noexcept nogil:
    # The sum of the mirror and reflect initial values (ni_splines.c): c0 = c[0] + zz c[n-1],
    # then c0 += z^i (c[i] + zz c[n-1-i]) for i = 1 .. n-2, per lane; returns z^(n-1) as
    # the loop's products make it. zs = _tiny_scale(zz): products with a subnormal zz or z^i
    # (lines of 538 elements and more at order 3) take rx_plus_tiny, the same bits.
    cdef double z_i = z
    cdef double s[SPLINE_LANES]
    cdef Py_ssize_t i, i0 = 1, L = SPLINE_LANES
    _plus_zz(c, c + (n - 1) * L, zz, zs, c0)
    rx_mirror_run16(c, n, z, zz, &i0, &z_i, c0)     # the terms before any underflow
    for i in range(i0, n - 1):
        _plus_zz(c + i * L, c + (n - 1 - i) * L, zz, zs, s)
        _plus_zz(c0, s, z_i, _tiny_scale(z_i), c0)
        z_i *= z
    return z_i


cdef inline void _pole_powers(const PassDesc* p, double* zn) noexcept nogil:
    # zn[q] = pole q to the power its initial value takes (mirror: n - 1, reflect: n), once
    # per run of lines rather than per line as SciPy's pow (the same value)
    cdef Py_ssize_t n = p.shape[p.axis]
    cdef int q
    for q in range(<int>p.k):
        zn[q] = pow(p.pw[q], <double>(n - 1 if p.shift == I_MIRROR else n))


cdef void _filter_lanes(double* c, Py_ssize_t n, const double* poles, int npoles,
                        int init, const double* zn) noexcept nogil:
    # SciPy's filter of one line (ni_splines.c apply_filter: the gain, then per pole the
    # causal initial value and pass, the anti-causal initial value and pass, by the mode's
    # initial conditions) on SPLINE_LANES lines at once, laid out c[i * SPLINE_LANES + l]:
    # per lane the same operations in the same order (the powers of z are shared scalars)
    cdef double gain = 1.0, z, z_i, z_n, zz, zs
    cdef double c0[SPLINE_LANES]
    cdef double keep[SPLINE_LANES]
    cdef double keep2[SPLINE_LANES]
    cdef Py_ssize_t i, l, L = SPLINE_LANES
    cdef int q
    for q in range(npoles):
        z = poles[q]
        gain *= (1.0 - z) * (1.0 - 1.0 / z)
    for i in range(n * L):
        c[i] *= gain
    for q in range(npoles):
        z = poles[q]
        z_i = z
        if init == I_MIRROR:
            zz = zn[q]          # pow(z, n - 1)
            _mirror_sum(c, n, z, zz, _tiny_scale(zz), c0)
            for l in range(L):
                c0[l] /= 1 - zz * zz
                c[l] = c0[l]
        elif init == I_REFLECT:
            zz = zn[q]          # pow(z, n)
            for l in range(L):
                keep[l] = c[l]
            zs = _tiny_scale(zz)
            z_i = _mirror_sum(c, n, z, zz, zs, c0)
            # the last term reads c[0], which SciPy's loop has been accumulating into
            _plus_zz(c + (n - 1) * L, c0, zz, zs, keep2)
            _plus_zz(c0, keep2, z_i, _tiny_scale(z_i), c0)
            for l in range(L):
                c0[l] *= z / (1 - zz * zz)
                c0[l] += keep[l]
                c[l] = c0[l]
        else:
            for l in range(L):
                c0[l] = c[l]
            for i in range(1, n):
                _plus_zz(c0, c + (n - i) * L, z_i, _tiny_scale(z_i), c0)
                z_i *= z
            for l in range(L):
                c0[l] /= 1 - z_i
                c[l] = c0[l]
        rx_causal16(c, n, z)        # c[i] += z * c[i - 1]
        z_i = z
        if init == I_MIRROR:
            for l in range(L):
                c[(n - 1) * L + l] = (z * c[(n - 2) * L + l] + c[(n - 1) * L + l]) * z / \
                    (z * z - 1)
        elif init == I_REFLECT:
            for l in range(L):
                c[(n - 1) * L + l] *= z / (z - 1)
        else:
            for l in range(L):
                c0[l] = c[(n - 1) * L + l]
            for i in range(n - 1):
                _plus_zz(c0, c + i * L, z_i, _tiny_scale(z_i), c0)
                z_i *= z
            for l in range(L):
                c0[l] *= z / (z_i - 1)
                c[(n - 1) * L + l] = c0[l]
        rx_anticausal16(c, n, z)    # c[i] = z * (c[i + 1] - c[i])


cdef inline void _load_lanes(const char* src, const int64_t* so, int64_t ss, Py_ssize_t n,
                             Py_ssize_t nl, int kind, double* buf) noexcept nogil:
    # buf[i * SPLINE_LANES + l] = element i of lane l's line (src + so[l] + i * ss); 0.0 in
    # the lanes past nl. Element by element, the float kinds without a dispatch per element.
    cdef Py_ssize_t i, l
    if nl == SPLINE_LANES and kind == E_F64:
        for i in range(n):
            for l in range(SPLINE_LANES):
                buf[i * SPLINE_LANES + l] = (<const double*>(src + so[l] + i * ss))[0]
    elif nl == SPLINE_LANES and kind == E_F32:
        for i in range(n):
            for l in range(SPLINE_LANES):
                buf[i * SPLINE_LANES + l] = (<const float*>(src + so[l] + i * ss))[0]
    else:
        for i in range(n):
            for l in range(SPLINE_LANES):
                buf[i * SPLINE_LANES + l] = _load(src + so[l] + i * ss, kind) if l < nl else 0.0


cdef inline void _store_lanes(const double* buf, char* dst, const int64_t* do, int64_t ds,
                              Py_ssize_t n, Py_ssize_t nl, int kind, int rule) noexcept nogil:
    # lane l's line (buf[i * SPLINE_LANES + l]) to dst + do[l] + i * ds, l < nl, by the
    # store rule (_store_row); float outputs element by element, the lanes side by side
    cdef Py_ssize_t i, l
    if kind == E_F64:
        for i in range(n):
            for l in range(nl):
                (<double*>(dst + do[l] + i * ds))[0] = buf[i * SPLINE_LANES + l]
    elif kind == E_F32:
        for i in range(n):
            for l in range(nl):
                (<float*>(dst + do[l] + i * ds))[0] = <float>buf[i * SPLINE_LANES + l]
    else:
        for l in range(nl):
            _store_row(buf + l, dst + do[l], n, ds, kind, rule, SPLINE_LANES)


cdef inline Py_ssize_t _runs_per_unit(Py_ssize_t n) noexcept nogil:
    # the runs of SPLINE_LANES lines of length n a unit of _spline_lanes takes (spline_units
    # counts the units and their scratch by the same)
    return max(1, min(<Py_ssize_t>SPLINE_WIDE, WIDE_DOUBLES // max(n * SPLINE_LANES, 1)))


cdef inline void _spline_lanes(const PassDesc* p, const char* src, char* dst, Py_ssize_t g,
                               double* buf, const double* zn) noexcept nogil:
    # Up to _runs_per_unit runs of SPLINE_LANES lines that are neighbours along the innermost
    # axis (not the filtered one), each run filtered in its own part of buf (n * SPLINE_LANES
    # doubles), but loaded and stored element by element across all of them: the lines of an
    # image's first axis are one element per row, the rows a page or more apart, and a row's
    # few cache lines at a time kept the memory waiting (float64 1080x1920x3, first axis:
    # about 7 ns an element with one run, 2 ns where the image fits in the cache)
    cdef int last = p.ndim - 1, d
    cdef Py_ssize_t inner = p.shape[last], per = (inner + SPLINE_LANES - 1) // SPLINE_LANES
    cdef Py_ssize_t n = p.shape[p.axis], wide = _runs_per_unit(n)
    cdef Py_ssize_t per_w = (per + wide - 1) // wide
    cdef Py_ssize_t rem = g // per_w, run0 = (g % per_w) * wide, q, l, r, i
    cdef Py_ssize_t runs = min(wide, per - run0)
    cdef Py_ssize_t first = run0 * SPLINE_LANES
    cdef Py_ssize_t nl = min(runs * SPLINE_LANES, inner - first)    # lines in all
    cdef int64_t so = first * p.sstr[last], do = first * p.dstr[last]
    cdef int64_t sol[SPLINE_LANES * SPLINE_WIDE]
    cdef int64_t dol[SPLINE_LANES * SPLINE_WIDE]
    cdef int64_t ss = p.sstr[p.axis], ds = p.dstr[p.axis]
    cdef double* rb
    for d in range(last - 1, -1, -1):
        if d == p.axis:
            continue
        q = rem % p.shape[d]
        rem = rem // p.shape[d]
        so += q * p.sstr[d]
        do += q * p.dstr[d]
    for l in range(SPLINE_LANES * SPLINE_WIDE):
        sol[l] = so + l * p.sstr[last]
        dol[l] = do + l * p.dstr[last]
    if nl == runs * SPLINE_LANES:
        # whole runs of lines: element i of every line, then element i + 1
        for i in range(n):
            for r in range(runs):
                rb = buf + r * n * SPLINE_LANES + i * SPLINE_LANES
                if p.src_kind == E_F64:
                    for l in range(SPLINE_LANES):
                        rb[l] = (<const double*>(src + sol[r * SPLINE_LANES + l] + i * ss))[0]
                elif p.src_kind == E_F32:
                    for l in range(SPLINE_LANES):
                        rb[l] = (<const float*>(src + sol[r * SPLINE_LANES + l] + i * ss))[0]
                else:
                    for l in range(SPLINE_LANES):
                        rb[l] = _load(src + sol[r * SPLINE_LANES + l] + i * ss, p.src_kind)
    else:
        for r in range(runs):
            _load_lanes(src, sol + r * SPLINE_LANES, ss, n,
                        min(<Py_ssize_t>SPLINE_LANES, nl - r * SPLINE_LANES), p.src_kind,
                        buf + r * n * SPLINE_LANES)
    if n > 1:
        for r in range(runs):
            _filter_lanes(buf + r * n * SPLINE_LANES, n, p.pw, <int>p.k, p.shift, zn)
    if nl == runs * SPLINE_LANES and p.dst_kind == E_F64:
        for i in range(n):
            for r in range(runs):
                rb = buf + r * n * SPLINE_LANES + i * SPLINE_LANES
                for l in range(SPLINE_LANES):
                    (<double*>(dst + dol[r * SPLINE_LANES + l] + i * ds))[0] = rb[l]
    else:
        for r in range(runs):
            _store_lanes(buf + r * n * SPLINE_LANES, dst, dol + r * SPLINE_LANES, ds, n,
                         min(<Py_ssize_t>SPLINE_LANES, nl - r * SPLINE_LANES), p.dst_kind,
                         p.rounding)


cdef inline void _spline_group(const PassDesc* p, const char* src, char* dst, Py_ssize_t g,
                               double* buf, const double* zn) noexcept nogil:
    # SPLINE_LANES lines in turn (row-major over the axes other than the filtered one), each
    # from its own offset, side by side in buf as _filter_lanes takes them: the innermost
    # axis filtered, or one too short to hold SPLINE_LANES lines (an image's channels). Lanes
    # past the last line are zeros (filtered, never stored).
    # With one other axis each line's offset is its index times that axis's stride; else the
    # first line's position by divisions, the others by counting on from it (the axes other
    # than the filtered one, innermost first): short lines (an image's channels) cost little
    # more than their index arithmetic.
    cdef Py_ssize_t lines = 1, first = g * SPLINE_LANES, rem = first, l, nl
    cdef Py_ssize_t n = p.shape[p.axis]
    cdef Py_ssize_t at[64]
    cdef int64_t so[SPLINE_LANES]
    cdef int64_t do[SPLINE_LANES]
    cdef int64_t s0 = 0, d0 = 0
    cdef int d
    for d in range(p.ndim):
        if d != p.axis:
            lines *= p.shape[d]
    nl = min(<Py_ssize_t>SPLINE_LANES, lines - first)
    if p.ndim == 2:     # one other axis (what coalescing leaves of an image's pixels)
        d = 1 - p.axis
        for l in range(nl):
            so[l] = (first + l) * p.sstr[d]
            do[l] = (first + l) * p.dstr[d]
    else:
        for d in range(p.ndim - 1, -1, -1):
            at[d] = 0
            if d != p.axis:
                at[d] = rem % p.shape[d]
                rem = rem // p.shape[d]
                s0 += at[d] * p.sstr[d]
                d0 += at[d] * p.dstr[d]
        so[0] = s0
        do[0] = d0
        for l in range(1, nl):
            d = p.ndim - 1
            while True:     # l < nl: a line follows, so some axis has a next index
                if d != p.axis:
                    at[d] += 1
                    s0 += p.sstr[d]
                    d0 += p.dstr[d]
                    if at[d] < p.shape[d]:
                        break
                    s0 -= p.shape[d] * p.sstr[d]
                    d0 -= p.shape[d] * p.dstr[d]
                    at[d] = 0
                d -= 1
            so[l] = s0
            do[l] = d0
    _load_lanes(src, so, p.sstr[p.axis], n, nl, p.src_kind, buf)
    if n > 1:
        _filter_lanes(buf, n, p.pw, <int>p.k, p.shift, zn)
    _store_lanes(buf, dst, do, p.dstr[p.axis], n, nl, p.dst_kind, p.rounding)


cdef inline bint _by_groups(const int64_t* shape, int ndim, int axis) noexcept nogil:
    # _spline_group rather than _spline_lanes (spline_units decides the same way)
    return axis == ndim - 1 or shape[ndim - 1] < SPLINE_LANES


cdef void _spline_group_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                             const void* t2) noexcept nogil:
    cdef const PassJob* j = <const PassJob*>ctx
    cdef Py_ssize_t r
    cdef double zn[2]
    _pole_powers(j.p, zn)
    for r in range(lo, hi):
        _spline_group(j.p, j.src, j.dst, r, <double*>j.bufs + tid * j.p.buf_len, zn)


cdef void _spline_lanes_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                             const void* t2) noexcept nogil:
    cdef const PassJob* j = <const PassJob*>ctx
    cdef Py_ssize_t r
    cdef double zn[2]
    _pole_powers(j.p, zn)
    for r in range(lo, hi):
        _spline_lanes(j.p, j.src, j.dst, r, <double*>j.bufs + tid * j.p.buf_len, zn)


cdef void spline_run(const PassDesc* p, const char* src, char* dst, void* bufs,
                     int nthreads) noexcept nogil:
    """OP_SPLINE: filter every line along ``axis`` (see the module docstring)."""
    cdef PassJob j
    j.p, j.src, j.dst, j.bufs = p, src, dst, bufs
    pool_run(_spline_group_body if _by_groups(p.shape, p.ndim, p.axis) else _spline_lanes_body,
             &j, p.units, nthreads)


# ------------------------------------------------------------------------------ evaluation
# NI_ZoomShift: per output, over the product of every axis's taps (row-major), the tap's
# element times each axis's weight in axis order, added to t from 0.0.
# (The leading `lead` axes, whose outputs each sit on an input element, are read at that
# tap only: the caller checks that dropping their +-0 products changes nothing.)
#
# Outputs are taken LANES rows at a time (rows: the last axis; the LANES rows are neighbours
# along the axis before it). Every row of a group reads the same last-axis taps with the same
# weights; what differs is the product of the outer axes' weights. So for each combination c
# of outer taps and each row (lane) l, u[c][i][l] = (x * w_0) * ... * w_{n-2} is formed once
# per input element i of the row it reads (the product SciPy forms for every tap that reads
# it), and then each output j of the group adds, over c (outer) and its last-axis taps q
# (inner), u[c][idx[q, j]][l] * w_last[q, j]: LANES independent sums from the same contiguous
# slots, each in SciPy's order. Same operations on the same operands: the same bits.

cdef enum:
    LANES = 8       # output rows side by side (the vector sums of _spline.h assume 8)
    MAX_TAPS = 6    # taps per output on an axis: order + 1, orders 0-5


def spline_units(tuple shape, int axis):
    """The work units of a prefilter pass along ``axis`` of ``shape`` (SPLINE_LANES lines
    each: neighbours along the innermost axis, or lines in turn where that axis is the
    filtered one or shorter than SPLINE_LANES), and the doubles of scratch each thread
    needs."""
    cdef Py_ssize_t lines = 1, inner = shape[len(shape) - 1], i
    cdef int64_t dims[64]
    for i in range(len(shape)):
        dims[i] = shape[i]
        if i != axis:
            lines *= shape[i]
    cdef Py_ssize_t n = max(<Py_ssize_t>shape[axis], 1)
    if _by_groups(dims, len(shape), axis):
        return (lines + SPLINE_LANES - 1) // SPLINE_LANES, _thread_scratch(n * SPLINE_LANES)
    cdef Py_ssize_t per = (inner + SPLINE_LANES - 1) // SPLINE_LANES, wide = _runs_per_unit(n)
    return ((lines // inner) * ((per + wide - 1) // wide),
            _thread_scratch(n * SPLINE_LANES * wide))


cdef Py_ssize_t _thread_scratch(Py_ssize_t doubles):
    # a thread's scratch (bufs + tid * buf_len) in whole pages and a page more: the
    # threads' scratch then never shares a page or sits right after another's, so one core's
    # prefetches do not pull in the lines another core writes (zoom of a float32 128^3
    # volume x2, 2 threads: order 1 19.5 -> 12.3 ms, order 3 73 -> 47 ms on a 2-core EPYC;
    # 1 thread 23 and 89 ms)
    return (doubles + 511) // 512 * 512 + 512


def tensor_scratch(int ndim, Py_ssize_t k, Py_ssize_t n_last, Py_ssize_t n_in_last):
    """Doubles of per-thread scratch ``tensor_run`` needs: LANES output rows of ``n_last``,
    the products (LANES per combination of the outer axes' taps and distinct input of a tile
    of the row, ``n_in_last`` at most, plus a slot for taps reading cval), in whole pages
    (``_thread_scratch``): every thread's scratch then starts on a cache line as the first
    one's does (its vectors never straddle two)."""
    cdef Py_ssize_t combos = 1
    cdef int d
    for d in range(ndim - 1):
        combos *= k
    return _thread_scratch(LANES * n_last + LANES * combos * (n_in_last + 1) + ndim)


def tensor_units(tuple shape):
    """The work units (groups of up to LANES rows) of an output of ``shape``."""
    cdef Py_ssize_t outer = 1, m = 1
    cdef Py_ssize_t i
    if len(shape) >= 2:
        m = shape[len(shape) - 2]
        for i in range(len(shape) - 2):
            outer *= shape[i]
    return outer * ((m + LANES - 1) // LANES)


cdef inline void _products1(const elem_t* row, int64_t ss, const int64_t* at, Py_ssize_t n,
                            double w0, double* out) noexcept nogil:
    cdef Py_ssize_t i
    cdef const char* r = <const char*>row
    for i in range(n):
        out[i * LANES] = <double>(<const elem_t*>(r + at[i] * ss))[0] * w0


cdef inline void _products2(const elem_t* row, int64_t ss, const int64_t* at, Py_ssize_t n,
                            double w0, double w1, double* out) noexcept nogil:
    cdef Py_ssize_t i
    cdef const char* r = <const char*>row
    for i in range(n):
        out[i * LANES] = (<double>(<const elem_t*>(r + at[i] * ss))[0] * w0) * w1


cdef inline double _tap(const elem_t* tag, const char* row, int64_t at, double cval) noexcept nogil:
    # the element at byte offset ``at`` of ``row``, or cval (a cval row, a cval tap)
    if row == NULL or at == INT64_MIN:
        return cval
    return <double>(<const elem_t*>(row + at))[0]


cdef inline void _put(char* row, Py_ssize_t j, double v, bint f32) noexcept nogil:
    if f32:
        (<float*>row)[j] = <float>v
    else:
        (<double*>row)[j] = v


cdef inline void _rows2_span(const elem_t* tag, const char* r0, const char* r1, double a0,
                             double a1, const int64_t* g0, const int64_t* g1, const double* b0,
                             const double* b1, Py_ssize_t j0, Py_ssize_t j1, double cval,
                             char* out, bint f32) noexcept nogil:
    # outputs [j0, j1) of one row of _rows2, one at a time (rx_zoom1_row's scalar loop, with
    # cval rows and taps)
    cdef Py_ssize_t j
    cdef double v
    for j in range(j0, j1):
        v = 0.0
        v = v + (_tap(tag, r0, g0[j], cval) * a0) * b0[j]
        v = v + (_tap(tag, r0, g1[j], cval) * a0) * b1[j]
        v = v + (_tap(tag, r1, g0[j], cval) * a1) * b0[j]
        v = v + (_tap(tag, r1, g1[j], cval) * a1) * b1[j]
        _put(out, j, v, f32)


cdef void _rows2(const elem_t* tag, const PassDesc* p, const char* src, const Py_ssize_t* o,
                 Py_ssize_t at, Py_ssize_t nl, const bint* lane_out, char* rows,
                 Py_ssize_t rs, bint f32) noexcept nogil:
    # loop TENSOR_ROWS2: order 1, the leading axes at their one tap (weight 1.0: no product
    # changes by it), so an output reads two rows along the axis before the last (a0, a1) at
    # the last axis's two taps (b0, b1): t = 0.0, then ((x * a) * b) over (row, tap) in that
    # order, as the general walk adds them. The last axis's taps: byte offsets g0/g1 into the
    # rows (CVAL_TAP outside [lo, hi)) and weights b0/b1, tap-major at ptr[last]; its n_in
    # outputs flagged cval listed at idx2[ptr[last] // 2]. Lane l's row: rows + l * rs bytes,
    # doubles or floats (f32: the float32 store's C cast), cval where flagged.
    cdef int mid = p.ndim - 2, d
    cdef Py_ssize_t n = p.shape[p.ndim - 1], l, m0, j
    cdef int64_t lo
    cdef const int64_t* off = p.off
    cdef const double* w = <const double*>p.w
    cdef const int64_t* g0 = off + p.ptr[p.ndim - 1]
    cdef const int64_t* g1 = g0 + n
    cdef const double* b0 = w + p.ptr[p.ndim - 1]
    cdef const double* b1 = b0 + n
    cdef const int64_t* cval_at = p.idx2 + p.ptr[p.ndim - 1] // 2
    cdef const char* r0
    cdef const char* r1
    cdef const char* lead = src
    cdef double a0, a1, cval = p.pw[0]
    cdef char* out
    for d in range(mid):
        lo = off[p.ptr[d] + o[d] * 2]
        if lo == INT64_MIN:
            lead = NULL
            break
        lead += lo
    for l in range(nl):
        out = rows + l * rs
        if lane_out[l]:
            for j in range(n):
                _put(out, j, cval, f32)
            continue
        m0 = p.ptr[mid] + (at + l) * 2
        r0 = NULL
        r1 = NULL
        if lead != NULL and off[m0] != INT64_MIN:
            r0 = lead + off[m0]
        if lead != NULL and off[m0 + 1] != INT64_MIN:
            r1 = lead + off[m0 + 1]
        a0 = w[m0]
        a1 = w[m0 + 1]
        if (elem_t is float or elem_t is double) and r0 != NULL and r1 != NULL:
            rx_zoom1_row(r0, r1, a0, a1, g0 + p.lo, g1 + p.lo, b0 + p.lo, b1 + p.lo,
                         p.hi - p.lo, elem_t is float, f32, off + p.ptr[p.ndim],
                         out + p.lo * (4 if f32 else 8))
            _rows2_span(tag, r0, r1, a0, a1, g0, g1, b0, b1, 0, p.lo, cval, out, f32)
            _rows2_span(tag, r0, r1, a0, a1, g0, g1, b0, b1, p.hi, n, cval, out, f32)
        else:
            _rows2_span(tag, r0, r1, a0, a1, g0, g1, b0, b1, 0, n, cval, out, f32)
        for j in range(p.n_in):
            _put(out, cval_at[j], cval, f32)


cdef void _tensor_group(const elem_t* tag, const PassDesc* p, const char* src, char* dst,
                        Py_ssize_t g, double* buf) noexcept nogil:
    cdef int nd = p.ndim, last = p.ndim - 1, d, mid = p.ndim - 2
    cdef Py_ssize_t k = p.k, n = p.shape[last], n_in = p.n_in, combos = 1, c, j, q, i, l
    cdef Py_ssize_t m = p.shape[mid] if nd >= 2 else 1
    cdef Py_ssize_t per = (m + LANES - 1) // LANES, rem, oq, nl, at, slot
    cdef Py_ssize_t o[64]
    cdef int64_t do = 0, lo, base, ss = p.sstr[last]
    cdef double cval = p.pw[0], v
    cdef const int64_t* off = p.off
    cdef const int64_t* flags = p.idx2
    cdef const double* w = <const double*>p.w
    cdef double* rows = buf                     # LANES rows of n
    cdef double* u = buf + LANES * n            # [c][i][lane]
    cdef double* uc
    cdef double* outrow
    cdef bint outer_out = False, cflag
    cdef bint lane_out[LANES]
    cdef int64_t lp = p.ptr[last]
    cdef const int64_t* li = off + lp   # last axis, order 0: element indices (n_in: cval
                                        # taps and cval outputs);
    cdef const double* lw = w + lp      # else per tile, local indices (see below)
    cdef const char* row
    cdef double wl[64]
    cdef double lw8[64 * LANES]     # [d][lane]
    cdef int64_t lbase[LANES]
    cdef bint lcval[LANES]
    cdef bint every, direct
    cdef Py_ssize_t digit[64]
    for d in range(p.lead, last):
        combos *= k
    # the group: outer index (axes before mid) and its first row along mid; the two-row form
    # takes the outer index fastest (a thread's groups then read the same input rows in turn)
    if p.loop == TENSOR_ROWS2:
        rem = g % (p.units // per)
        o[mid] = (g // (p.units // per)) * LANES
    else:
        rem = g // per
        o[mid if nd >= 2 else 0] = (g % per) * LANES
    for d in range(mid - 1, -1, -1):
        oq = rem % p.shape[d]
        rem = rem // p.shape[d]
        o[d] = oq
        do += oq * p.dstr[d]
        if flags[p.ptr[d] // k + oq]:
            outer_out = True
    at = o[mid] if nd >= 2 else 0
    nl = min(<Py_ssize_t>LANES, m - at)
    for l in range(LANES):
        lane_out[l] = outer_out or l >= nl or (nd >= 2 and flags[p.ptr[mid] // k + at + l] != 0)
    if p.loop == TENSOR_ROWS2:
        if (p.dst_kind == E_F64 or p.dst_kind == E_F32) and p.dstr[last] == (
                8 if p.dst_kind == E_F64 else 4):
            # float rows: straight into the output
            _rows2(tag, p, src, o, at, nl, lane_out, dst + do + at * p.dstr[mid], p.dstr[mid],
                   p.dst_kind == E_F32)
            for l in range(nl):
                _stored(p, dst + do + (at + l) * p.dstr[mid])
        else:
            _rows2(tag, p, src, o, at, nl, lane_out, <char*>rows, n * 8, False)
            for l in range(nl):
                _store_row(rows + l * n, dst + do + (at + l) * p.dstr[mid], n, p.dstr[last],
                           p.dst_kind, p.rounding)
                _stored(p, dst + do + (at + l) * p.dstr[mid])
        return
    cdef const int64_t* win0 = NULL
    cdef const char* prev = NULL
    cdef char* prev_out = NULL
    cdef char* drow
    if k == 1:
        # order 0: one tap per axis, no weights: t = 0.0 + x (or cval), straight into the row
        # (float outputs of the input's type: straight into the output, rx_zoom0_row, through
        # the planner's windows where the source row is contiguous; a lane that reads the
        # same source row as the one before copies that lane's output row)
        direct = ((elem_t is float and p.dst_kind == E_F32 and p.dstr[last] == 4)
                  or (elem_t is double and p.dst_kind == E_F64 and p.dstr[last] == 8))
        if (elem_t is float or elem_t is double) and ss == sizeof(elem_t):
            win0 = off + p.ptr[nd]
        for l in range(nl):
            outrow = rows + l * n
            if lane_out[l]:
                prev = NULL
                for j in range(n):
                    outrow[j] = cval
            else:
                if nd >= 2:
                    o[mid] = at + l
                base = 0
                cflag = False
                for d in range(last):
                    lo = off[p.ptr[d] + o[d]]
                    if lo == INT64_MIN:
                        cflag = True
                    else:
                        base += lo
                row = src + base
                if direct and not cflag:
                    drow = dst + do + (at + l) * (p.dstr[mid] if nd >= 2 else 0)
                    if row == prev:     # (clipped already, where the rule clips)
                        memcpy(drow, prev_out, n * sizeof(elem_t))
                    else:
                        rx_zoom0_row(row, ss, li, n, n_in, cval, elem_t is float, win0, drow)
                        _stored(p, drow)
                    prev = row
                    prev_out = drow
                    continue
                prev = NULL
                # the source row as t = 0.0 + x, and cval after it (for taps and outputs that
                # read cval: the planner points them there); then a gather
                if cflag:
                    for i in range(n_in + 1):
                        u[i] = cval
                else:
                    for i in range(n_in):
                        u[i] = 0.0 + <double>(<const elem_t*>(row + i * ss))[0]
                    u[n_in] = cval
                for j in range(n):
                    outrow[j] = u[li[j]]
            drow = dst + do + (at + l) * (p.dstr[mid] if nd >= 2 else 0)
            _store_row(outrow, drow, n, p.dstr[last], p.dst_kind, p.rounding)
            _stored(p, drow)
        return
    # Tile by tile along the row (_engine/compile/splines.py last_axis_tiles): a tile's outputs read
    # a few distinct inputs; their products are formed once per combination of the outer
    # axes' taps and lane, into u[c][m][lane] (m: the tile's m-th distinct input; the last
    # slot for taps reading cval).
    cdef const int64_t* td = off + p.ptr[nd]
    cdef Py_ssize_t ntiles = td[0], tt, j0, tn, u0, nu, jj
    cdef const int64_t* tj = td + 1
    cdef const int64_t* tu = tj + ntiles + 1
    cdef const int64_t* uq
    cdef const int64_t* tli
    cdef const double* tlw
    # The lanes differ on the axis before the last only: its taps (byte offset, cval, weight)
    # per tap and lane, looked up once for the group (a lane that is cval reads none)
    cdef int64_t moff[MAX_TAPS * LANES]
    cdef double mw[MAX_TAPS * LANES]
    cdef bint mcv[MAX_TAPS * LANES]
    cdef bint mcv_any[MAX_TAPS]         # some lane's tap q reads cval
    cdef double wo[64]                  # the axes before mid: one weight for every lane
    cdef bint any_out = False, cv0
    cdef int64_t base0
    for l in range(LANES):
        any_out = any_out or lane_out[l]
    if last >= 1:
        for q in range(k):
            mcv_any[q] = False
            for l in range(LANES):
                moff[q * LANES + l] = 0
                mw[q * LANES + l] = 0.0
                mcv[q * LANES + l] = False
                if not lane_out[l]:
                    lo = off[p.ptr[mid] + (at + l) * k + q]
                    if lo == INT64_MIN:
                        mcv[q * LANES + l] = True
                        mcv_any[q] = True
                    else:
                        moff[q * LANES + l] = lo
                    mw[q * LANES + l] = w[p.ptr[mid] + (at + l) * k + q]
    for tt in range(ntiles):
        j0 = tj[tt]
        tn = tj[tt + 1] - j0
        u0 = tu[tt]
        nu = tu[tt + 1] - u0
        uq = tu + ntiles + 1 + u0
        slot = nu + 1
        for d in range(last):
            digit[d] = 0
        for c in range(combos):
            # c's taps on the outer axes: digit[d] (row-major, counted up without divisions)
            uc = u + c * slot * LANES
            base0 = 0
            cv0 = False
            for d in range(last - 1):   # the axes before mid: one tap for every lane
                lo = off[p.ptr[d] + o[d] * k + digit[d]]
                if lo == INT64_MIN:
                    cv0 = True
                else:
                    base0 += lo
                wo[d] = w[p.ptr[d] + o[d] * k + digit[d]]
            # all eight lanes in vectors where they read the input (mid's taps and weights
            # straight from the group's tables), else each lane's row and weights in turn
            every = RX_SPLINE_VECTORS and (elem_t is float or elem_t is double) and last >= 1 \
                and not any_out and not cv0 and not mcv_any[digit[mid]]
            if every:
                q = digit[mid] * LANES
                rx_spline_products8(src, base0, moff + q, ss, uq, nu, wo, last - 1, mw + q,
                                    cval, elem_t is float, uc)
            elif last >= 1:
                q = digit[mid] * LANES
                for l in range(LANES):
                    lbase[l] = base0 + moff[q + l]
                    lcval[l] = cv0 or mcv[q + l]
                    for d in range(last - 1):
                        lw8[d * LANES + l] = wo[d]
                    lw8[mid * LANES + l] = mw[q + l]
            else:                       # one axis: every lane reads the row itself
                for l in range(LANES):
                    lbase[l] = 0
                    lcval[l] = False
            for l in range(LANES):
                if every:
                    break
                if lane_out[l]:
                    for i in range(slot):
                        uc[i * LANES + l] = 0.0
                    continue
                cflag = lcval[l]
                for d in range(last):
                    wl[d] = lw8[d * LANES + l]
                row = src + lbase[l]
                if cflag:
                    v = cval
                    for d in range(last):
                        v = v * wl[d]
                    for i in range(nu):
                        uc[i * LANES + l] = v
                elif last == 0:     # one axis: the elements themselves
                    for i in range(nu):
                        uc[i * LANES + l] = <double>(<const elem_t*>(row + uq[i] * ss))[0]
                elif last == 1:     # (x * w_0): the common shapes unrolled
                    _products1(<const elem_t*>row, ss, uq, nu, wl[0], uc + l)
                elif last == 2:     # ((x * w_0) * w_1)
                    _products2(<const elem_t*>row, ss, uq, nu, wl[0], wl[1], uc + l)
                else:
                    for i in range(nu):
                        v = <double>(<const elem_t*>(row + uq[i] * ss))[0]
                        for d in range(last):
                            v = v * wl[d]
                        uc[i * LANES + l] = v
                v = cval
                for d in range(last):
                    v = v * wl[d]
                uc[nu * LANES + l] = v
            d = last - 1
            while d >= p.lead:      # the leading axes stay at their first tap
                digit[d] += 1
                if digit[d] < k:
                    break
                digit[d] = 0
                d -= 1
        # each output: t = 0.0, then over the combinations (outer) and its last-axis taps
        # (inner); eight or four outputs at a time, then the last one to three (independent
        # chains), each in SciPy's order
        tli = li + k * j0       # this tile's taps: local indices, tap-major ([q * tn + jj])
        tlw = lw + k * j0
        jj = 0
        while jj + 8 <= tn:
            rx_spline_sum8x8(rows + j0, n, tn, jj, u, combos, slot, k, tli, tlw)
            jj += 8
        while jj + 4 <= tn:
            rx_spline_sum4x8(rows + j0, n, tn, jj, u, combos, slot, k, tli, tlw)
            jj += 4
        if jj < tn:
            rx_spline_sum3x8(rows + j0, n, tn, jj, tn - jj, u, combos, slot, k, tli, tlw)
    cdef const int64_t* last_out = flags + lp // k     # the last axis's outputs that are cval
    for l in range(nl):
        outrow = rows + l * n
        if lane_out[l]:
            for j in range(n):
                outrow[j] = cval
        else:
            for j in range(n):
                if last_out[j]:
                    outrow[j] = cval
        drow = dst + do + (at + l) * (p.dstr[mid] if nd >= 2 else 0)
        _store_row(outrow, drow, n, p.dstr[last], p.dst_kind, p.rounding)
        _stored(p, drow)


cdef void _tensor_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const elem_t* t1,
                       const void* t2) noexcept nogil:
    cdef const PassJob* j = <const PassJob*>ctx
    cdef Py_ssize_t g
    for g in range(lo, hi):
        _tensor_group(t1, j.p, j.src, j.dst, g, <double*>j.bufs + tid * j.p.buf_len)


cdef void _tensor_rows(const elem_t* tag, const PassDesc* p, const char* src, char* dst,
                       double* bufs, int nthreads) noexcept nogil:
    cdef PassJob j
    j.p, j.src, j.dst, j.bufs = p, src, dst, bufs
    pool_run(<body_fn>_tensor_body[elem_t], &j, p.units, nthreads)


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
