/* Pillow's premultiplied alpha on rows of pixels of c bytes, alpha last (_alpha.pyx). Written
 * with restrict pointers so that the compiler vectorises the byte loops. */
#ifndef RESAMPLEX_ALPHA_H
#define RESAMPLEX_ALPHA_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define RX_ALPHA_SSE2 1
#endif

/* dst = MULDIV255(c, a) on the colour bytes: t = c * a + 128; ((t >> 8) + t) >> 8. */
static inline void rx_premultiply(const uint8_t *restrict src, uint8_t *restrict dst,
                                  ptrdiff_t npix, ptrdiff_t c) {
    ptrdiff_t i = 0, j;
    if (c == 4) {
#if defined(RX_ALPHA_SSE2)
        /* four pixels at a time in 16-bit lanes: each pixel's alpha in its four lanes, the
         * same integers (every t < 2^16), the alpha bytes put back as they were */
        const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(128);
        const __m128i amask = _mm_set1_epi32((int)0xFF000000u);
        for (; i + 4 <= npix; i += 4) {
            __m128i v = _mm_loadu_si128((const __m128i *)(src + 4 * i));
            __m128i a32 = _mm_srli_epi32(v, 24);
            __m128i a16 = _mm_or_si128(a32, _mm_slli_epi32(a32, 16));
            __m128i lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
            __m128i tl = _mm_add_epi16(_mm_mullo_epi16(lo, _mm_unpacklo_epi32(a16, a16)), half);
            __m128i th = _mm_add_epi16(_mm_mullo_epi16(hi, _mm_unpackhi_epi32(a16, a16)), half);
            tl = _mm_srli_epi16(_mm_add_epi16(tl, _mm_srli_epi16(tl, 8)), 8);
            th = _mm_srli_epi16(_mm_add_epi16(th, _mm_srli_epi16(th, 8)), 8);
            __m128i r = _mm_packus_epi16(tl, th);
            r = _mm_or_si128(_mm_andnot_si128(amask, r), _mm_and_si128(amask, v));
            _mm_storeu_si128((__m128i *)(dst + 4 * i), r);
        }
#endif
        for (; i < npix; i++) {
            uint32_t a = src[4 * i + 3], t;
            t = src[4 * i] * a + 128;
            dst[4 * i] = (uint8_t)(((t >> 8) + t) >> 8);
            t = src[4 * i + 1] * a + 128;
            dst[4 * i + 1] = (uint8_t)(((t >> 8) + t) >> 8);
            t = src[4 * i + 2] * a + 128;
            dst[4 * i + 2] = (uint8_t)(((t >> 8) + t) >> 8);
            dst[4 * i + 3] = (uint8_t)a;
        }
        return;
    }
    for (i = 0; i < npix; i++) {
        uint32_t a = src[c * i + c - 1];
        for (j = 0; j < c - 1; j++) {
            uint32_t t = src[c * i + j] * a + 128;
            dst[c * i + j] = (uint8_t)(((t >> 8) + t) >> 8);
        }
        dst[c * i + c - 1] = (uint8_t)a;
    }
}

/* dst = table[a << 8 | c] on the colour bytes. */
static inline void rx_unpremultiply(const uint8_t *restrict src, const uint8_t *restrict table,
                                    uint8_t *restrict dst, ptrdiff_t npix, ptrdiff_t c) {
    ptrdiff_t i, j;
    for (i = 0; i < npix; i++) {
        uint32_t a = src[c * i + c - 1];
        const uint8_t *row = table + (a << 8);
        for (j = 0; j < c - 1; j++)
            dst[c * i + j] = row[src[c * i + j]];
        dst[c * i + c - 1] = (uint8_t)a;
    }
}

#endif
