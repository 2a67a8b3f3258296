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


cdef inline uint16_t float_to_half(float f) noexcept nogil:
    cdef uint32_t x = float_to_bits(f)
    cdef uint32_t sign = (x >> 16) & 0x8000u
    cdef uint32_t ax = x & 0x7FFFFFFFu
    cdef uint32_t mant, q, rem, half
    cdef int shift
    if ax >= 0x7F800000u:
        if ax == 0x7F800000u:
            return <uint16_t>(sign | 0x7C00u)
        # NaN: the top 10 payload bits, never 0 (that would be inf), as NumPy does
        q = (ax & 0x7FFFFFu) >> 13
        return <uint16_t>(sign | 0x7C00u | (q if q != 0 else 1))
    if ax >= 0x477FF000u:               # >= 65520 rounds (to even) past 65504: inf
        return <uint16_t>(sign | 0x7C00u)
    if ax >= 0x38800000u:               # normal half: rebias, round the 13 dropped bits
        return <uint16_t>(sign | ((ax - 0x38000000u + 0xFFFu + ((ax >> 13) & 1u)) >> 13))
    if ax < 0x33000000u:                # below 2^-25: rounds to zero
        return <uint16_t>sign
    # subnormal half: round (1.m * 2^(e-127)) * 2^24 = mant >> (126 - e) to nearest-even
    shift = 126 - <int>(ax >> 23)
    mant = (ax & 0x7FFFFFu) | 0x800000u
    q = mant >> shift
    rem = mant & ((1u << shift) - 1u)
    half = 1u << (shift - 1)
    if rem > half or (rem == half and (q & 1u)):
        q += 1
    return <uint16_t>(sign | q)


cdef inline float bf16_to_float(uint16_t h) noexcept nogil:
    return bits_to_float((<uint32_t>h) << 16)


cdef inline uint16_t float_to_bf16(float f) noexcept nogil:
    cdef uint32_t u = float_to_bits(f)
    if (u & 0x7FFFFFFFu) > 0x7F800000u:   # NaN: keep sign and top payload, force quiet
        return <uint16_t>((u >> 16) | 0x0040u)
    return <uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16)
