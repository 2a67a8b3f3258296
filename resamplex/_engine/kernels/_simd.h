/* Small vector kernels for the hot loops that compilers do not vectorise on their own:
 * the shared vocabulary (each kernel module has a header of its own helpers beside it,
 * _taps_simd.h ..., and the families two kernels share, _dense_f32.h and _pixels.h).
 *
 * GCC and Clang vector extensions (portable across x86-64 SSE2, AArch64 NEON, ...); other
 * compilers get the scalar loop. Both compute, per lane, exactly the scalar expression
 * (w0 * p + w1 * q, each operation rounded to float, no contraction: the build passes
 * -ffp-contract=off), so every path gives the same bits.
 *
 * The kernel modules are compiled once per instruction-set level (setup.py LEVELS); at the
 * AVX2 level (-mavx2 -mf16c, and at the AVX-512 level, which includes them) the helpers below
 * take their 8-lane AVX2 / F16C forms. Each form computes the same values as the SSE2 and
 * scalar ones: the same operations per lane, or (F16C) a conversion that rounds the same way,
 * with the lanes where it would not (NaN payloads) sent through the scalar rule.
 */
#ifndef RESAMPLEX_SIMD_H
#define RESAMPLEX_SIMD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <math.h>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define RX_SSE2 1
#endif
#if defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>
#define RX_AVX2 1
#endif
#if defined(__SSSE3__)
#include <tmmintrin.h>
#define RX_SSSE3 1
#endif

/* a helper inlined wherever it is called (its constant arguments fold into each caller) */
#if defined(__GNUC__) || defined(__clang__)
#define RX_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define RX_ALWAYS_INLINE inline
#endif

#if defined(__AVX512F__) && defined(__AVX512BW__)
/* rx_zip2_8's AVX-512 forms, c = 1 to 4 bytes a pixel; they return how many pixels they
 * zipped (whole blocks), the rest is the caller's. c == 3: 16 pixels of a and of b (48 bytes
 * each) into 96 output bytes, six 16-byte lanes. Output byte g (pixel pair g / 6, byte g % 6 of the pair) is byte
 * 3 (g / 6) + g % 3 of a (g % 6 < 3) or of b. Lane L draws on pairs 16L / 6 .. (16L + 15) / 6,
 * at most 12 bytes of each source starting within the dword RX_Z3_W(L) (a dword permute puts
 * those 16 bytes in the lane), then one byte shuffle of each source per lane. The masks are
 * this formula, constants the compiler folds. */
#define RX_Z3_W(L) ((3 * ((16 * (L)) / 6)) / 4)
#define RX_Z3_M(L, T, B)                                                                 \
    ((((16 * (L) + (T)) % 6 >= 3) == (B))                                                \
         ? 3 * ((16 * (L) + (T)) / 6) + (16 * (L) + (T)) % 3 - 4 * RX_Z3_W(L) : -1)
#define RX_Z3_LANE(L, B)                                                                 \
    RX_Z3_M(L, 0, B), RX_Z3_M(L, 1, B), RX_Z3_M(L, 2, B), RX_Z3_M(L, 3, B),              \
    RX_Z3_M(L, 4, B), RX_Z3_M(L, 5, B), RX_Z3_M(L, 6, B), RX_Z3_M(L, 7, B),              \
    RX_Z3_M(L, 8, B), RX_Z3_M(L, 9, B), RX_Z3_M(L, 10, B), RX_Z3_M(L, 11, B),            \
    RX_Z3_M(L, 12, B), RX_Z3_M(L, 13, B), RX_Z3_M(L, 14, B), RX_Z3_M(L, 15, B)
#define RX_Z3_DW(L) RX_Z3_W(L), RX_Z3_W(L) + 1, RX_Z3_W(L) + 2, RX_Z3_W(L) + 3
static const int8_t rx_zip3_masks[2][96] = {
    {RX_Z3_LANE(0, 0), RX_Z3_LANE(1, 0), RX_Z3_LANE(2, 0), RX_Z3_LANE(3, 0), RX_Z3_LANE(4, 0),
     RX_Z3_LANE(5, 0)},
    {RX_Z3_LANE(0, 1), RX_Z3_LANE(1, 1), RX_Z3_LANE(2, 1), RX_Z3_LANE(3, 1), RX_Z3_LANE(4, 1),
     RX_Z3_LANE(5, 1)}};
static const int32_t rx_zip3_dwords[32] = {RX_Z3_DW(0), RX_Z3_DW(1), RX_Z3_DW(2), RX_Z3_DW(3),
                                           RX_Z3_DW(4), RX_Z3_DW(5)};

static inline ptrdiff_t rx_zip2_8_avx512(const uint8_t *a, const uint8_t *b, uint8_t *out,
                                         ptrdiff_t npix, ptrdiff_t c)
{
    ptrdiff_t i = 0;
    if (c == 3) {
        const __m512i w0 = _mm512_loadu_si512((const void *)rx_zip3_dwords);
        const __m512i w1 = _mm512_loadu_si512((const void *)(rx_zip3_dwords + 16));
        const __m512i ma0 = _mm512_loadu_si512((const void *)rx_zip3_masks[0]);
        const __m512i mb0 = _mm512_loadu_si512((const void *)rx_zip3_masks[1]);
        const __m256i ma1 = _mm256_loadu_si256((const __m256i *)(rx_zip3_masks[0] + 64));
        const __m256i mb1 = _mm256_loadu_si256((const __m256i *)(rx_zip3_masks[1] + 64));
        const __mmask64 m48 = 0xFFFFFFFFFFFFull;
        for (; i + 16 <= npix; i += 16) {
            __m512i va = _mm512_maskz_loadu_epi8(m48, a + 3 * i);
            __m512i vb = _mm512_maskz_loadu_epi8(m48, b + 3 * i);
            __m512i lo = _mm512_or_si512(
                _mm512_shuffle_epi8(_mm512_permutexvar_epi32(w0, va), ma0),
                _mm512_shuffle_epi8(_mm512_permutexvar_epi32(w0, vb), mb0));
            __m256i hi = _mm256_or_si256(
                _mm256_shuffle_epi8(_mm512_castsi512_si256(_mm512_permutexvar_epi32(w1, va)),
                                    ma1),
                _mm256_shuffle_epi8(_mm512_castsi512_si256(_mm512_permutexvar_epi32(w1, vb)),
                                    mb1));
            _mm512_storeu_si512((void *)(out + 6 * i), lo);
            _mm256_storeu_si256((__m256i *)(out + 6 * i + 64), hi);
        }
    } else if (c == 1) {
        /* 64 bytes of each: interleaved within 16-byte lanes, the lanes then put in order */
        const __m512i q0 = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
        const __m512i q1 = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
        for (; i + 64 <= npix; i += 64) {
            __m512i va = _mm512_loadu_si512((const void *)(a + i));
            __m512i vb = _mm512_loadu_si512((const void *)(b + i));
            __m512i lo = _mm512_unpacklo_epi8(va, vb), hi = _mm512_unpackhi_epi8(va, vb);
            _mm512_storeu_si512((void *)(out + 2 * i), _mm512_permutex2var_epi64(lo, q0, hi));
            _mm512_storeu_si512((void *)(out + 2 * i + 64),
                                _mm512_permutex2var_epi64(lo, q1, hi));
        }
    } else if (c == 2 || c == 4) {
        /* 64 bytes of each: pixel k of a and of b to pixels 2k and 2k + 1, by a two-source
         * permute of words (c = 2) or dwords (c = 4) */
        const __m512i d0 = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22,
                                             7, 23);
        const __m512i d1 = _mm512_add_epi32(d0, _mm512_set1_epi32(8));
        const __m512i h0 = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10,
                                            41, 9, 40, 8, 39, 7, 38, 6, 37, 5, 36, 4, 35, 3,
                                            34, 2, 33, 1, 32, 0);
        const __m512i h1 = _mm512_add_epi16(h0, _mm512_set1_epi16(16));
        ptrdiff_t step = 64 / c;
        for (; i + step <= npix; i += step) {
            __m512i va = _mm512_loadu_si512((const void *)(a + i * c));
            __m512i vb = _mm512_loadu_si512((const void *)(b + i * c));
            __m512i lo = c == 4 ? _mm512_permutex2var_epi32(va, d0, vb)
                                : _mm512_permutex2var_epi16(va, h0, vb);
            __m512i hi = c == 4 ? _mm512_permutex2var_epi32(va, d1, vb)
                                : _mm512_permutex2var_epi16(va, h1, vb);
            _mm512_storeu_si512((void *)(out + 2 * i * c), lo);
            _mm512_storeu_si512((void *)(out + 2 * i * c + 64), hi);
        }
    }
    return i;
}
#undef RX_Z3_DW
#undef RX_Z3_LANE
#undef RX_Z3_M
#undef RX_Z3_W
#endif

/* Pixels of c bytes from a and b alternately: out = a0 b0 a1 b1 ... (npix pixels each).
 * Byte moves only. The SSSE3 form of c == 3 loads 16 bytes at a time from a and b: they need
 * 16 bytes of slack after their last pixel (the AVX-512 forms read only their pixels'). */
static inline void rx_zip2_8(const uint8_t *a, const uint8_t *b, uint8_t *out, ptrdiff_t npix,
                             ptrdiff_t c)
{
    ptrdiff_t i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    if (c <= 4)
        i = rx_zip2_8_avx512(a, b, out, npix, c);
#endif
    if (c == 1) {
#if defined(RX_SSE2)
        for (; i < npix && npix >= 16; i += 16) {
            __m128i va, vb;
            if (i + 16 > npix)
                i = npix - 16;        /* the last pixels again, overlapping: same bytes */
            va = _mm_loadu_si128((const __m128i *)(a + i));
            vb = _mm_loadu_si128((const __m128i *)(b + i));
            _mm_storeu_si128((__m128i *)(out + 2 * i), _mm_unpacklo_epi8(va, vb));
            _mm_storeu_si128((__m128i *)(out + 2 * i + 16), _mm_unpackhi_epi8(va, vb));
        }
#endif
        for (; i < npix; i++) {
            out[2 * i] = a[i];
            out[2 * i + 1] = b[i];
        }
        return;
    }
#if defined(RX_SSE2)
    if (c == 2 || c == 4) {
        ptrdiff_t step = 16 / c;
        for (; i + step <= npix; i += step) {
            __m128i va = _mm_loadu_si128((const __m128i *)(a + i * c));
            __m128i vb = _mm_loadu_si128((const __m128i *)(b + i * c));
            __m128i lo = c == 2 ? _mm_unpacklo_epi16(va, vb) : _mm_unpacklo_epi32(va, vb);
            __m128i hi = c == 2 ? _mm_unpackhi_epi16(va, vb) : _mm_unpackhi_epi32(va, vb);
            _mm_storeu_si128((__m128i *)(out + 2 * i * c), lo);
            _mm_storeu_si128((__m128i *)(out + 2 * i * c + 16), hi);
        }
    }
#endif
#if defined(RX_SSSE3)
    if (c == 3) {
        /* four pixels of each (12 + 12 bytes) into 24 output bytes */
        const __m128i ma0 = _mm_setr_epi8(0, 1, 2, -1, -1, -1, 3, 4, 5, -1, -1, -1, 6, 7, 8, -1);
        const __m128i mb0 = _mm_setr_epi8(-1, -1, -1, 0, 1, 2, -1, -1, -1, 3, 4, 5, -1, -1, -1, 6);
        const __m128i ma1 = _mm_setr_epi8(-1, -1, 9, 10, 11, -1, -1, -1,
                                          -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i mb1 = _mm_setr_epi8(7, 8, -1, -1, -1, 9, 10, 11,
                                          -1, -1, -1, -1, -1, -1, -1, -1);
        for (; i + 4 <= npix; i += 4) {
            __m128i va = _mm_loadu_si128((const __m128i *)(a + 3 * i));
            __m128i vb = _mm_loadu_si128((const __m128i *)(b + 3 * i));
            _mm_storeu_si128((__m128i *)(out + 6 * i),
                             _mm_or_si128(_mm_shuffle_epi8(va, ma0), _mm_shuffle_epi8(vb, mb0)));
            _mm_storel_epi64((__m128i *)(out + 6 * i + 16),
                             _mm_or_si128(_mm_shuffle_epi8(va, ma1), _mm_shuffle_epi8(vb, mb1)));
        }
    }
#endif
    for (; i < npix; i++) {
        memcpy(out + 2 * i * c, a + i * c, (size_t)c);
        memcpy(out + (2 * i + 1) * c, b + i * c, (size_t)c);
    }
}

/* The inverse of rx_zip2_8: in = a0 b0 a1 b1 ... (pixels of c bytes) into a and b. The SSSE3
 * form of c == 3 stores 16 bytes at a time into a and b: they need 16 bytes of slack. */
static inline void rx_unzip2_8(const uint8_t *in, uint8_t *a, uint8_t *b, ptrdiff_t npix,
                               ptrdiff_t c)
{
    ptrdiff_t i = 0;
#if defined(RX_SSE2)
    if (c == 1) {
        const __m128i low = _mm_set1_epi16(0x00FF);
        for (; i < npix && npix >= 16; i += 16) {
            __m128i v0, v1;
            if (i + 16 > npix)
                i = npix - 16;        /* the last pixels again, overlapping: same bytes */
            v0 = _mm_loadu_si128((const __m128i *)(in + 2 * i));
            v1 = _mm_loadu_si128((const __m128i *)(in + 2 * i + 16));
            _mm_storeu_si128((__m128i *)(a + i), _mm_packus_epi16(_mm_and_si128(v0, low),
                                                                  _mm_and_si128(v1, low)));
            _mm_storeu_si128((__m128i *)(b + i), _mm_packus_epi16(_mm_srli_epi16(v0, 8),
                                                                  _mm_srli_epi16(v1, 8)));
        }
    } else if (c == 2) {
        for (; i + 8 <= npix; i += 8) {
            __m128i v0 = _mm_loadu_si128((const __m128i *)(in + 4 * i));
            __m128i v1 = _mm_loadu_si128((const __m128i *)(in + 4 * i + 16));
            /* sign-extended 16-bit halves: packs_epi32 then keeps every bit */
            _mm_storeu_si128((__m128i *)(a + 2 * i),
                             _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(v0, 16), 16),
                                             _mm_srai_epi32(_mm_slli_epi32(v1, 16), 16)));
            _mm_storeu_si128((__m128i *)(b + 2 * i),
                             _mm_packs_epi32(_mm_srai_epi32(v0, 16), _mm_srai_epi32(v1, 16)));
        }
    } else if (c == 4) {
        for (; i + 4 <= npix; i += 4) {
            __m128 v0 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(in + 8 * i)));
            __m128 v1 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(in + 8 * i + 16)));
            __m128 ev = _mm_shuffle_ps(v0, v1, 0x88), od = _mm_shuffle_ps(v0, v1, 0xDD);
            _mm_storeu_si128((__m128i *)(a + 4 * i), _mm_castps_si128(ev));
            _mm_storeu_si128((__m128i *)(b + 4 * i), _mm_castps_si128(od));
        }
    }
#endif
#if defined(RX_SSSE3)
    if (c == 3) {
        /* 24 input bytes (four pixels of each) into 12 + 12 */
        const __m128i ma0 = _mm_setr_epi8(0, 1, 2, 6, 7, 8, 12, 13, 14, -1, -1, -1,
                                          -1, -1, -1, -1);
        const __m128i ma1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 4,
                                          -1, -1, -1, -1);
        const __m128i mb0 = _mm_setr_epi8(3, 4, 5, 9, 10, 11, 15, -1, -1, -1, -1, -1,
                                          -1, -1, -1, -1);
        const __m128i mb1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, 0, 1, 5, 6, 7,
                                          -1, -1, -1, -1);
        for (; i + 4 <= npix; i += 4) {
            __m128i v0 = _mm_loadu_si128((const __m128i *)(in + 6 * i));
            __m128i v1 = _mm_loadl_epi64((const __m128i *)(in + 6 * i + 16));
            _mm_storeu_si128((__m128i *)(a + 3 * i),
                             _mm_or_si128(_mm_shuffle_epi8(v0, ma0), _mm_shuffle_epi8(v1, ma1)));
            _mm_storeu_si128((__m128i *)(b + 3 * i),
                             _mm_or_si128(_mm_shuffle_epi8(v0, mb0), _mm_shuffle_epi8(v1, mb1)));
        }
    }
#endif
    for (; i < npix; i++) {
        memcpy(a + i * c, in + 2 * i * c, (size_t)c);
        memcpy(b + i * c, in + (2 * i + 1) * c, (size_t)c);
    }
}
static inline uint16_t rx_f32_to_f16_scalar(uint32_t x);

#if defined(RX_AVX2)
/* The byte shuffle that puts bytes 0 and 1 of each 32-bit lane into its two 16-bit halves
 * (zero-extended): two adjacent uint8 taps as a pair for one 16-bit multiply-add */
static RX_ALWAYS_INLINE __m256i rx_lane_pairs_u8(void)
{
    return _mm256_setr_epi8(0, -1, 1, -1, 4, -1, 5, -1, 8, -1, 9, -1, 12, -1, 13, -1,
                            0, -1, 1, -1, 4, -1, 5, -1, 8, -1, 9, -1, 12, -1, 13, -1);
}
#endif

/* float16 <-> float32 for whole rows, four lanes at a time, branch-free. Bit for bit the
 * scalar conversions of _half.pxd (round to nearest-even, subnormals, inf, NaN payloads as
 * NumPy keeps them), which tests/test_dtypes.py checks against NumPy over every pattern. */
static inline uint16_t rx_f32_to_f16_scalar(uint32_t x)
{
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7FFFFFFFu, q;
    float f;
    if (ax > 0x7F800000u) {                       /* NaN: top payload bits, never 0 */
        q = (ax & 0x7FFFFFu) >> 13;
        return (uint16_t)(sign | 0x7C00u | (q ? q : 1u));
    }
    if (ax >= 0x477FF000u)                        /* rounds past 65504: inf */
        return (uint16_t)(sign | 0x7C00u);
    if (ax >= 0x38800000u)                        /* normal: rebias, round 13 bits to even */
        return (uint16_t)(sign | ((ax - 0x38000000u + 0xFFFu + ((ax >> 13) & 1u)) >> 13));
    memcpy(&f, &ax, 4);                           /* subnormal: let the FPU round (RNE) */
    f += 0.5f;
    memcpy(&q, &f, 4);
    return (uint16_t)(sign | (q - 0x3F000000u));
}

/* Pixels of c int16 elements (c = 1..4) from a and b alternately: out = a0 b0 a1 b1 ...
 * (npix pixels each). Element moves only. The c == 3 form loads 8 elements at a time from
 * a and b and uses 6: they need 2 elements of slack after their last pixel. */
static inline void rx_zip2_16(const int16_t *a, const int16_t *b, int16_t *out,
                              ptrdiff_t npix, ptrdiff_t c)
{
    ptrdiff_t i = 0, j;
#if defined(RX_SSE2)
    if (c == 1 || c == 2 || c == 4) {
        ptrdiff_t step = 8 / c;
        for (; i + step <= npix; i += step) {
            __m128i va = _mm_loadu_si128((const __m128i *)(a + i * c));
            __m128i vb = _mm_loadu_si128((const __m128i *)(b + i * c));
            __m128i lo = c == 1 ? _mm_unpacklo_epi16(va, vb) :
                         (c == 2 ? _mm_unpacklo_epi32(va, vb) : _mm_unpacklo_epi64(va, vb));
            __m128i hi = c == 1 ? _mm_unpackhi_epi16(va, vb) :
                         (c == 2 ? _mm_unpackhi_epi32(va, vb) : _mm_unpackhi_epi64(va, vb));
            _mm_storeu_si128((__m128i *)(out + 2 * i * c), lo);
            _mm_storeu_si128((__m128i *)(out + 2 * i * c + 8), hi);
        }
    }
#endif
#if defined(RX_SSSE3)
    if (c == 3) {
        /* two pixels of each (12 + 12 bytes) into 24 output bytes */
        const __m128i ma0 = _mm_setr_epi8(0, 1, 2, 3, 4, 5, -1, -1, -1, -1, -1, -1, 6, 7, 8, 9);
        const __m128i mb0 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, 5,
                                          -1, -1, -1, -1);
        const __m128i ma1 = _mm_setr_epi8(10, 11, -1, -1, -1, -1, -1, -1,
                                          -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i mb1 = _mm_setr_epi8(-1, -1, 6, 7, 8, 9, 10, 11,
                                          -1, -1, -1, -1, -1, -1, -1, -1);
        for (; i + 2 <= npix; i += 2) {
            __m128i va = _mm_loadu_si128((const __m128i *)(a + 3 * i));
            __m128i vb = _mm_loadu_si128((const __m128i *)(b + 3 * i));
            _mm_storeu_si128((__m128i *)(out + 6 * i),
                             _mm_or_si128(_mm_shuffle_epi8(va, ma0), _mm_shuffle_epi8(vb, mb0)));
            _mm_storel_epi64((__m128i *)(out + 6 * i + 8),
                             _mm_or_si128(_mm_shuffle_epi8(va, ma1), _mm_shuffle_epi8(vb, mb1)));
        }
    }
#endif
    for (; i < npix; i++)
        for (j = 0; j < c; j++) {
            out[2 * i * c + j] = a[i * c + j];
            out[(2 * i + 1) * c + j] = b[i * c + j];
        }
}

/* Pixels of c floats (c = 1..4) from a and b alternately: out = a0 b0 a1 b1 ... (npix pixels
 * each). Element moves only; no reads past either row's last pixel. */
static inline void rx_zip2_f32(const float *a, const float *b, float *out, ptrdiff_t npix,
                               ptrdiff_t c)
{
    ptrdiff_t i = 0, j;
#if defined(RX_SSE2)
    if (c == 1) {
        for (; i + 4 <= npix; i += 4) {
            __m128 va = _mm_loadu_ps(a + i), vb = _mm_loadu_ps(b + i);
            _mm_storeu_ps(out + 2 * i, _mm_unpacklo_ps(va, vb));
            _mm_storeu_ps(out + 2 * i + 4, _mm_unpackhi_ps(va, vb));
        }
    } else if (c == 2) {
        for (; i + 2 <= npix; i += 2) {
            __m128d va = _mm_castps_pd(_mm_loadu_ps(a + 2 * i));
            __m128d vb = _mm_castps_pd(_mm_loadu_ps(b + 2 * i));
            _mm_storeu_ps(out + 4 * i, _mm_castpd_ps(_mm_unpacklo_pd(va, vb)));
            _mm_storeu_ps(out + 4 * i + 4, _mm_castpd_ps(_mm_unpackhi_pd(va, vb)));
        }
    } else if (c == 3) {
        /* two pixels of each (6 + 6 floats) into 12 */
        for (; i + 2 <= npix; i += 2) {
            __m128 a0 = _mm_loadu_ps(a + 3 * i), b0 = _mm_loadu_ps(b + 3 * i);
            /* loadl_epi64: an unaligned 8-byte load (the floats are 4-byte aligned only) */
            __m128 a1 = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(a + 3 * i + 4)));
            __m128 b1 = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(b + 3 * i + 4)));
            __m128 x = _mm_shuffle_ps(a0, b0, _MM_SHUFFLE(0, 0, 2, 2));   /* a2 a2 b0 b0 */
            __m128 y = _mm_shuffle_ps(a0, a1, _MM_SHUFFLE(0, 0, 3, 3));   /* a3 a3 a4 a4 */
            __m128 z = _mm_shuffle_ps(a1, b0, _MM_SHUFFLE(3, 3, 1, 1));   /* a5 a5 b3 b3 */
            _mm_storeu_ps(out + 6 * i, _mm_shuffle_ps(a0, x, _MM_SHUFFLE(2, 0, 1, 0)));
            _mm_storeu_ps(out + 6 * i + 4, _mm_shuffle_ps(b0, y, _MM_SHUFFLE(2, 0, 2, 1)));
            _mm_storeu_ps(out + 6 * i + 8, _mm_shuffle_ps(z, b1, _MM_SHUFFLE(1, 0, 2, 0)));
        }
    } else if (c == 4) {
        for (; i < npix; i++) {
            _mm_storeu_ps(out + 8 * i, _mm_loadu_ps(a + 4 * i));
            _mm_storeu_ps(out + 8 * i + 4, _mm_loadu_ps(b + 4 * i));
        }
    }
#endif
    for (; i < npix; i++)
        for (j = 0; j < c; j++) {
            out[2 * i * c + j] = a[i * c + j];
            out[(2 * i + 1) * c + j] = b[i * c + j];
        }
}

#endif
