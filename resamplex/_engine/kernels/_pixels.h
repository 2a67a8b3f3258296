/* Pixels moved whole between contiguous rows (permuted blocks of 2-8 byte pixels, awkward
 * sizes in one wide move): the gather (_gather) and the tap kernels' gathered rows (_taps). */
#ifndef RESAMPLEX_PIXELS_H
#define RESAMPLEX_PIXELS_H

#include "_simd.h"

/* Nearest along the innermost axis of interleaved data: n pixels of p bytes each (a pixel is
 * every channel of one position) into a contiguous output row; pixel o comes from s + off[o].
 * The first `wide` pixels are moved `width` bytes at a time (4, 8, 16 or 32: one move where a
 * 3-, 6- or 12-byte pixel would take several small ones). The planner guarantees that
 * those reads stay inside the input row and those writes inside the output row; the bytes
 * written past a pixel land on later pixels of the same row, which are written after it, in
 * order, so the row ends with exactly the gathered bytes. The rest move p bytes at a time, a
 * constant size for the usual pixels. Bytes move unchanged (NaN payloads included). */
/* The loops are unrolled by four: a pixel is three instructions (its offset, the load, the
 * store), and the loop's own count and branch cost as much again. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define RX_UNROLL4 _Pragma("GCC unroll 4")
#elif defined(__clang__)
#define RX_UNROLL4 _Pragma("unroll 4")
#else
#define RX_UNROLL4
#endif
#define RX_PIXELS(P) \
    case P: \
        RX_UNROLL4 \
        for (; o < n; o++) \
            memcpy(d + o * (P), s + off[o], (P)); \
        break;
#define RX_WIDE(W) \
    RX_UNROLL4 \
    for (; o < wide; o++) \
        memcpy(d + o * p, s + off[o], (W));
/* Pixels of p = 2, 4 or 8 bytes by permutes (AVX-512): the 64 / p outputs of a block from
 * o read pixels within `span` bytes (128 or 256) of s + off[o], so two (or four) loads and
 * one (or two) two-source permutes give them all, at any ratio that does not skip more than
 * one pixel in two (or three in four); a block whose reads spread wider (or go backwards)
 * moves its pixels one at a time. For each output o < wide the caller keeps `span` bytes
 * from s + off[o] inside the input row and 64 bytes from d + o p inside the output row.
 * Returns the first output not written. */
#if defined(__AVX512F__) && defined(__AVX512BW__)
static inline ptrdiff_t rx_permute_pixels(const char *s, char *d, const int64_t *off,
                                          ptrdiff_t p, ptrdiff_t wide, ptrdiff_t span)
{
    const ptrdiff_t m = 64 / p;
    const __m512i lim = _mm512_set1_epi64(span);
    ptrdiff_t o, j;
    for (o = 0; o < wide; o += m) {
        const __m512i base = _mm512_set1_epi64(off[o]);
        const char *w = s + off[o];
        __m512i q[4], idx, r;
        __mmask8 bad = 0;
        for (j = 0; j < m / 8; j++) {
            /* byte distances from the block's first read, unsigned: a read before it is huge */
            q[j] = _mm512_sub_epi64(_mm512_loadu_si512((const void *)(off + o + 8 * j)), base);
            bad |= _mm512_cmpge_epu64_mask(q[j], lim);
        }
        if (bad) {
            for (j = 0; j < m; j++)
                memcpy(d + (o + j) * p, s + off[o + j], (size_t)p);
            continue;
        }
        /* element indices into the window; each permute uses the bits below 128 bytes' worth,
         * the next bit picks the second pair of loads */
#define RX_PERMUTE(EPI, TEST, BIT) \
        r = _mm512_permutex2var_##EPI(_mm512_loadu_si512((const void *)w), idx, \
                                      _mm512_loadu_si512((const void *)(w + 64))); \
        if (span > 128) \
            r = _mm512_mask_blend_##EPI(TEST(idx, _mm512_set1_##EPI(BIT)), r, \
                _mm512_permutex2var_##EPI(_mm512_loadu_si512((const void *)(w + 128)), idx, \
                                          _mm512_loadu_si512((const void *)(w + 192))));
        if (p == 8) {
            idx = _mm512_srli_epi64(q[0], 3);
            RX_PERMUTE(epi64, _mm512_test_epi64_mask, 16)
        } else if (p == 4) {
            idx = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(q[0])),
                                     _mm512_cvtepi64_epi32(q[1]), 1);
            idx = _mm512_srli_epi32(idx, 2);
            RX_PERMUTE(epi32, _mm512_test_epi32_mask, 32)
        } else {
            __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi64_epi16(q[0])),
                                                 _mm512_cvtepi64_epi16(q[1]), 1);
            __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi64_epi16(q[2])),
                                                 _mm512_cvtepi64_epi16(q[3]), 1);
            idx = _mm512_srli_epi16(_mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1), 1);
            RX_PERMUTE(epi16, _mm512_test_epi16_mask, 64)
        }
#undef RX_PERMUTE
        _mm512_storeu_si512((void *)(d + o * p), r);
    }
    return o;
}
#endif

static inline void rx_gather_pixels(const char *s, char *d, ptrdiff_t n, const int64_t *off,
                                    ptrdiff_t p, ptrdiff_t wide, ptrdiff_t width)
{
    ptrdiff_t o = 0;
    if (width == 128 || width == 256) {   /* pixels of 2, 4 or 8 bytes (the planner) */
#if defined(__AVX512F__) && defined(__AVX512BW__)
        /* constant sizes, so each loop is compiled for its own pixel and window */
#define RX_PERMUTE_SPANS(P) \
        o = width == 128 ? rx_permute_pixels(s, d, off, P, wide, 128) \
                         : rx_permute_pixels(s, d, off, P, wide, 256);
        if (p == 2) {
            RX_PERMUTE_SPANS(2)
        } else if (p == 4) {
            RX_PERMUTE_SPANS(4)
        } else {
            RX_PERMUTE_SPANS(8)
        }
#undef RX_PERMUTE_SPANS
#endif
    } else if (width == 4) {
        RX_WIDE(4)
    } else if (width == 8) {
        RX_WIDE(8)
    } else if (width == 16) {
        RX_WIDE(16)
    } else if (width == 32) {
        RX_WIDE(32)
    }
    switch (p) {
    RX_PIXELS(1) RX_PIXELS(2) RX_PIXELS(3) RX_PIXELS(4) RX_PIXELS(5) RX_PIXELS(6)
    RX_PIXELS(8) RX_PIXELS(10) RX_PIXELS(12) RX_PIXELS(16) RX_PIXELS(24) RX_PIXELS(32)
    default:
        for (; o < n; o++)
            memcpy(d + o * p, s + off[o], (size_t)p);
        break;
    }
}
#undef RX_PIXELS
#undef RX_WIDE

#endif
