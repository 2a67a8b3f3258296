# Element codes and row stores shared by the exact pass variants (_intpass, _floatpass,
# _blockpass). See docs/engine-passes.md for the contract of each variant.
#
# The codes are those of resamplex._engine.compile.exact.ELEM (keep the two in step). Integer
# stores saturate to the type's range; float stores into an integer type first round by
# `rounding`, then saturate (NaN goes to 0). Float stores into a float type are plain C casts
# (round to nearest).

from libc.math cimport rint, rintf, round as round_d, roundf, trunc, truncf
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t

from resamplex._engine._fused cimport f16_t
from resamplex._engine._half cimport float_to_half, half_to_float


cdef enum Elem:
    E_U8 = 0
    E_I8 = 1
    E_U16 = 2
    E_I16 = 3
    E_I32 = 4
    E_I64 = 5
    E_F32 = 6
    E_F64 = 7
    E_F16 = 8     # IEEE half; computed in float, stored round-to-nearest-even


cdef enum Rnd:
    RND_HALF_EVEN = 0        # rint (the current, default rounding mode)
    RND_HALF_AWAY = 1        # round(): exact half away from zero
    RND_TOWARD_ZERO = 2      # trunc
    RND_ADD_HALF_TRUNC = 3   # trunc(v + 0.5) for v >= 0, trunc(v - 0.5) below, in the
                             # accumulator type (Pillow's ROUND_UP: not always round())


ctypedef fused acc_t:
    float
    double


cdef inline int64_t _sat(int64_t v, int64_t lo, int64_t hi) noexcept nogil:
    return lo if v < lo else (hi if v > hi else v)


cdef inline void store_i64_row(const int64_t* acc, char* dst, Py_ssize_t n,
                               int kind) noexcept nogil:
    """Saturate ``n`` int64 values into a contiguous row of ``kind``."""
    cdef Py_ssize_t j
    if kind == E_U8:
        for j in range(n):
            (<uint8_t*>dst)[j] = <uint8_t>_sat(acc[j], 0, 255)
    elif kind == E_I8:
        for j in range(n):
            (<int8_t*>dst)[j] = <int8_t>_sat(acc[j], -128, 127)
    elif kind == E_U16:
        for j in range(n):
            (<uint16_t*>dst)[j] = <uint16_t>_sat(acc[j], 0, 65535)
    elif kind == E_I16:
        for j in range(n):
            (<int16_t*>dst)[j] = <int16_t>_sat(acc[j], -32768, 32767)
    elif kind == E_I32:
        for j in range(n):
            (<int32_t*>dst)[j] = <int32_t>_sat(acc[j], -2147483648, 2147483647)
    elif kind == E_I64:
        for j in range(n):
            (<int64_t*>dst)[j] = acc[j]
    elif kind == E_F32:
        for j in range(n):
            (<float*>dst)[j] = <float>acc[j]
    elif kind == E_F16:
        for j in range(n):
            (<uint16_t*>dst)[j] = float_to_half(<float>acc[j])
    else:
        for j in range(n):
            (<double*>dst)[j] = <double>acc[j]


cdef inline acc_t round_by(acc_t v, int rounding) noexcept nogil:
    if acc_t is float:
        if rounding == RND_HALF_EVEN:
            return rintf(v)
        if rounding == RND_HALF_AWAY:
            return roundf(v)
        if rounding == RND_TOWARD_ZERO:
            return truncf(v)
        return truncf(v + <float>0.5) if v >= 0 else truncf(v - <float>0.5)
    else:
        if rounding == RND_HALF_EVEN:
            return rint(v)
        if rounding == RND_HALF_AWAY:
            return round_d(v)
        if rounding == RND_TOWARD_ZERO:
            return trunc(v)
        return trunc(v + 0.5) if v >= 0 else trunc(v - 0.5)


cdef inline acc_t _satf(acc_t v, acc_t lo, acc_t hi) noexcept nogil:
    # NaN fails both tests of the first comparison chain: send it to 0 explicitly.
    if v != v:
        return 0
    return lo if v < lo else (hi if v > hi else v)


cdef inline void store_f_row(const acc_t* acc, char* dst, Py_ssize_t n, int kind,
                             int rounding) noexcept nogil:
    """Round (integer kinds) and saturate ``n`` float values into a contiguous row."""
    cdef Py_ssize_t j
    if kind == E_F32:
        for j in range(n):
            (<float*>dst)[j] = <float>acc[j]
    elif kind == E_F64:
        for j in range(n):
            (<double*>dst)[j] = <double>acc[j]
    elif kind == E_F16:
        for j in range(n):
            (<uint16_t*>dst)[j] = float_to_half(<float>acc[j])
    elif kind == E_U8:
        for j in range(n):
            (<uint8_t*>dst)[j] = <uint8_t>_satf(round_by(acc[j], rounding), 0, 255)
    elif kind == E_I8:
        for j in range(n):
            (<int8_t*>dst)[j] = <int8_t>_satf(round_by(acc[j], rounding), -128, 127)
    elif kind == E_U16:
        for j in range(n):
            (<uint16_t*>dst)[j] = <uint16_t>_satf(round_by(acc[j], rounding), 0, 65535)
    elif kind == E_I16:
        for j in range(n):
            (<int16_t*>dst)[j] = <int16_t>_satf(round_by(acc[j], rounding), -32768, 32767)
    elif kind == E_I32:
        for j in range(n):
            (<int32_t*>dst)[j] = <int32_t>_satf(<double>round_by(acc[j], rounding),
                                               -2147483648.0, 2147483647.0)
    else:
        for j in range(n):
            (<int64_t*>dst)[j] = <int64_t>_satf(<double>round_by(acc[j], rounding),
                                               -9223372036854775808.0, 9223372036854774784.0)


ctypedef fused load_t:
    uint8_t
    int8_t
    uint16_t
    int16_t
    int32_t
    f16_t
    float
    double


cdef inline acc_t load_as(const load_t* p, Py_ssize_t j, const acc_t* tag) noexcept nogil:
    """Element ``j`` of ``p`` converted to the accumulator type (float16 through float)."""
    if load_t is f16_t:
        return <acc_t>half_to_float(p[j].bits)
    else:
        return <acc_t>p[j]
