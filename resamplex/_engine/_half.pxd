# float16 / bfloat16 <-> float32 conversions, inline.
#
# All four are inline bit manipulations, checked in tests/test_dtypes.py against NumPy and
# ml_dtypes over all 65,536 16-bit patterns, every rounding midpoint and millions of random
# float32 patterns. float -> half rounds to nearest-even with subnormals, overflow to inf and
# NaN payloads as NumPy's npy_float_to_half does (an out-of-line call there: 5x slower here).

from libc.stdint cimport uint16_t, uint32_t
from libc.string cimport memcpy


cdef inline float bits_to_float(uint32_t u) noexcept nogil:
    cdef float f
    memcpy(&f, &u, 4)
    return f


cdef inline uint32_t float_to_bits(float f) noexcept nogil:
    cdef uint32_t u
    memcpy(&u, &f, 4)
    return u


cdef inline float half_to_float(uint16_t h) noexcept nogil:
    cdef uint32_t sign = (<uint32_t>(h & 0x8000u)) << 16
    cdef uint32_t exp = (h >> 10) & 0x1Fu
    cdef uint32_t man = h & 0x3FFu
    cdef float f
    if exp == 0x1Fu:                      # inf / NaN: keep the payload
        return bits_to_float(sign | 0x7F800000u | (man << 13))
    if exp != 0:                          # normal
        return bits_to_float(sign | ((exp + 112u) << 23) | (man << 13))
    # zero or subnormal: man * 2^-24 is exact in float32
    f = (<float>man) * 5.9604644775390625e-08
    return -f if sign else f


cdef extern from "_simd.h" nogil:
    uint16_t rx_f32_to_f16_scalar(uint32_t x)


cdef inline uint16_t float_to_half(float f) noexcept nogil:
    # One scalar rule, shared with the vector row conversions' tails in _simd.h.
    return rx_f32_to_f16_scalar(float_to_bits(f))


cdef inline float bf16_to_float(uint16_t h) noexcept nogil:
    return bits_to_float((<uint32_t>h) << 16)


cdef inline uint16_t float_to_bf16(float f) noexcept nogil:
    cdef uint32_t u = float_to_bits(f)
    if (u & 0x7FFFFFFFu) > 0x7F800000u:   # NaN: keep sign and top payload, force quiet
        return <uint16_t>((u >> 16) | 0x0040u)
    return <uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16)
