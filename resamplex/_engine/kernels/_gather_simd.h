/* The vector helpers of the gather (_gather.pyx). */
#ifndef RESAMPLEX_GATHER_SIMD_H
#define RESAMPLEX_GATHER_SIMD_H

#include "_simd.h"
#include "_pixels.h"

/* Repeat each of n elements (itemsize 1, 2, 4 or 8 bytes) f times, contiguous rows: integer-
 * factor nearest upsampling of the innermost axis, by duplication instead of a gather through
 * a table of offsets. Bytes move unchanged (NaN payloads included). */
static inline void rx_repeat(const char *s, char *d, ptrdiff_t n, ptrdiff_t f, ptrdiff_t itemsize)
{
    ptrdiff_t i = 0, r;
    if (f == 2) {
#if defined(RX_AVX2)
        /* 32 bytes in, 64 out: the unpacks work within 128-bit lanes, the permutes restore
         * the order. */
        for (; i * itemsize + 32 <= n * itemsize; i += 32 / itemsize) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(s + i * itemsize)), lo, hi;
            switch (itemsize) {
            case 1: lo = _mm256_unpacklo_epi8(v, v); hi = _mm256_unpackhi_epi8(v, v); break;
            case 2: lo = _mm256_unpacklo_epi16(v, v); hi = _mm256_unpackhi_epi16(v, v); break;
            case 4: lo = _mm256_unpacklo_epi32(v, v); hi = _mm256_unpackhi_epi32(v, v); break;
            default: lo = _mm256_unpacklo_epi64(v, v); hi = _mm256_unpackhi_epi64(v, v); break;
            }
            _mm256_storeu_si256((__m256i *)(d + 2 * i * itemsize),
                                _mm256_permute2x128_si256(lo, hi, 0x20));
            _mm256_storeu_si256((__m256i *)(d + 2 * i * itemsize + 32),
                                _mm256_permute2x128_si256(lo, hi, 0x31));
        }
#endif
#if defined(RX_SSE2)
        for (; i * itemsize + 16 <= n * itemsize; i += 16 / itemsize) {
            __m128i v = _mm_loadu_si128((const __m128i *)(s + i * itemsize)), lo, hi;
            switch (itemsize) {
            case 1: lo = _mm_unpacklo_epi8(v, v); hi = _mm_unpackhi_epi8(v, v); break;
            case 2: lo = _mm_unpacklo_epi16(v, v); hi = _mm_unpackhi_epi16(v, v); break;
            case 4: lo = _mm_unpacklo_epi32(v, v); hi = _mm_unpackhi_epi32(v, v); break;
            default: lo = _mm_unpacklo_epi64(v, v); hi = _mm_unpackhi_epi64(v, v); break;
            }
            _mm_storeu_si128((__m128i *)(d + 2 * i * itemsize), lo);
            _mm_storeu_si128((__m128i *)(d + 2 * i * itemsize + 16), hi);
        }
#endif
    }
    switch (itemsize) {   /* the rest, and other factors: constant-size copies */
    case 1:
        for (; i < n; i++)
            for (r = 0; r < f; r++)
                d[i * f + r] = s[i];
        break;
    case 2:
        for (; i < n; i++)
            for (r = 0; r < f; r++)
                memcpy(d + (i * f + r) * 2, s + i * 2, 2);
        break;
    case 4:
        for (; i < n; i++)
            for (r = 0; r < f; r++)
                memcpy(d + (i * f + r) * 4, s + i * 4, 4);
        break;
    default:
        for (; i < n; i++)
            for (r = 0; r < f; r++)
                memcpy(d + (i * f + r) * 8, s + i * 8, 8);
        break;
    }
}

/* Pixels of three bytes with their bytes reversed (a BGR row viewed as RGB): d[3o + k] =
   s[3o + 2 - k] for o < n, s the row's first byte in memory. SSSE3: five pixels per 16-byte
   shuffle (its 16th byte is written again by the next step); the last pixels, where a load
   or a store would leave the rows, one at a time. */
static inline void rx_reverse3(const char *s, char *d, ptrdiff_t n)
{
    ptrdiff_t o = 0;
#if defined(RX_SSSE3)
    const __m128i rev = _mm_setr_epi8(2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9, 14, 13, 12, 15);
    for (; o + 6 <= n; o += 5)
        _mm_storeu_si128((__m128i *)(d + 3 * o),
                         _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(s + 3 * o)), rev));
#endif
    for (; o < n; o++) {
        d[3 * o] = s[3 * o + 2];
        d[3 * o + 1] = s[3 * o + 1];
        d[3 * o + 2] = s[3 * o];
    }
}

/* Every other pixel: d[o] = s[2o] for o < n, pixels of p = 1, 2, 3, 4 or 8 bytes (nearest
 * halving a row). Byte moves only. The vector forms read pixel 2n - 1 too: the caller keeps
 * it inside the row. */
static inline void rx_even_pixels(const char *s, char *d, ptrdiff_t n, ptrdiff_t p)
{
    ptrdiff_t o = 0;
#if defined(RX_SSSE3)
    if (p == 3) {
        /* five outputs (15 bytes) per step from input pixels 0, 2, 4 (the first 16 bytes)
           and 6, 8 (the next 16); the 16th byte stored is written again by the next step.
           The reads end at byte 6o + 32 <= 6n while o + 6 <= n; the stores at 3o + 16. */
        const __m128i lo = _mm_setr_epi8(0, 1, 2, 6, 7, 8, 12, 13, 14, -1, -1, -1, -1, -1, -1, -1);
        const __m128i hi = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 4, 8, 9, 10, -1);
        for (; o + 6 <= n; o += 5) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(s + 6 * o));
            const __m128i b = _mm_loadu_si128((const __m128i *)(s + 6 * o + 16));
            _mm_storeu_si128((__m128i *)(d + 3 * o),
                             _mm_or_si128(_mm_shuffle_epi8(a, lo), _mm_shuffle_epi8(b, hi)));
        }
        for (; o < n; o++)
            memcpy(d + 3 * o, s + 6 * o, 3);
        return;
    }
#endif
#if defined(RX_AVX2)
    if (p == 1 && n >= 32) {
        const __m256i low = _mm256_set1_epi16(0x00FF);
        for (; o < n; o += 32) {
            __m256i v0, v1;
            if (o + 32 > n)
                o = n - 32;           /* the last outputs again, overlapping: same bytes */
            v0 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s + 2 * o)), low);
            v1 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s + 2 * o + 32)), low);
            _mm256_storeu_si256((__m256i *)(d + o),
                                _mm256_permute4x64_epi64(_mm256_packus_epi16(v0, v1), 0xD8));
        }
        return;
    }
#endif
#if defined(RX_SSE2)
    if (p == 1 && n >= 16) {
        const __m128i low = _mm_set1_epi16(0x00FF);
        for (; o < n; o += 16) {
            __m128i v0, v1;
            if (o + 16 > n)
                o = n - 16;
            v0 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(s + 2 * o)), low);
            v1 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(s + 2 * o + 16)), low);
            _mm_storeu_si128((__m128i *)(d + o), _mm_packus_epi16(v0, v1));
        }
        return;
    }
    if (p == 2 && n >= 8) {
        for (; o < n; o += 8) {
            __m128i v0, v1;
            if (o + 8 > n)
                o = n - 8;
            /* the low 16 bits of each 32, sign-extended: packs_epi32 keeps every bit */
            v0 = _mm_srai_epi32(_mm_slli_epi32(_mm_loadu_si128((const __m128i *)(s + 4 * o)), 16), 16);
            v1 = _mm_srai_epi32(_mm_slli_epi32(_mm_loadu_si128((const __m128i *)(s + 4 * o + 16)), 16), 16);
            _mm_storeu_si128((__m128i *)(d + 2 * o), _mm_packs_epi32(v0, v1));
        }
        return;
    }
    if (p == 4 && n >= 4) {
        for (; o < n; o += 4) {
            __m128 v0, v1;
            if (o + 4 > n)
                o = n - 4;
            v0 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(s + 8 * o)));
            v1 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(s + 8 * o + 16)));
            _mm_storeu_si128((__m128i *)(d + 4 * o), _mm_castps_si128(_mm_shuffle_ps(v0, v1, 0x88)));
        }
        return;
    }
    if (p == 8 && n >= 2) {
        for (; o < n; o += 2) {
            if (o + 2 > n)
                o = n - 2;
            _mm_storeu_si128((__m128i *)(d + 8 * o), _mm_castpd_si128(_mm_unpacklo_pd(
                _mm_castsi128_pd(_mm_loadu_si128((const __m128i *)(s + 16 * o))),
                _mm_castsi128_pd(_mm_loadu_si128((const __m128i *)(s + 16 * o + 16))))));
        }
        return;
    }
#endif
    switch (p) {   /* constant sizes: one move each, not a call */
    case 1: for (; o < n; o++) d[o] = s[2 * o]; break;
    case 2: for (; o < n; o++) memcpy(d + o * 2, s + 4 * o, 2); break;
    case 3: for (; o < n; o++) memcpy(d + o * 3, s + 6 * o, 3); break;
    case 4: for (; o < n; o++) memcpy(d + o * 4, s + 8 * o, 4); break;
    default: for (; o < n; o++) memcpy(d + o * 8, s + 16 * o, 8); break;
    }
}

#endif
