/* The vector helpers of the uint8 fixed-point passes (_fixed.pyx). */
#ifndef RESAMPLEX_FIXED_SIMD_H
#define RESAMPLEX_FIXED_SIMD_H

#include "_simd.h"

/* One output of an 8-bit fixed-point pass whose taps lie in a window of k consecutive bytes
 * (k a multiple of 8; weights of the samples the output does not read are 0): the exact int32
 * sum of w[i] * s[i], eight products at a time (pmaddwd: the products and their pairwise sums
 * fit int32, as the whole sum does by the pass's precondition). Integer sums are exact, so
 * the order, and every level, gives the same integer. */
static inline int32_t rx_window_u8(const uint8_t *s, const int16_t *w, ptrdiff_t k)
{
    ptrdiff_t i = 0;
    int32_t sum = 0;
#if defined(RX_SSE2)
    {
        const __m128i zero = _mm_setzero_si128();
        __m128i acc = zero;
        for (; i + 8 <= k; i += 8) {
            __m128i x = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(s + i)), zero);
            acc = _mm_add_epi32(acc, _mm_madd_epi16(x, _mm_loadu_si128((const __m128i *)(w + i))));
        }
        acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0x4E));
        acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0xB1));
        sum = _mm_cvtsi128_si32(acc);
    }
#endif
    for (; i < k; i++)
        sum += (int32_t)w[i] * (int32_t)s[i];
    return sum;
}

/* Outputs [j0, j1) of a uint8 row of windows (_fixed._windows, contiguous outputs): output j
 * = clip((bias + sum of its window of k bytes from s + starts[j] times the int16 weights
 * wk[j k ...]) >> shift) to 0..255, the scalar loop's integer sums (any order, the same sums).
 * AVX2, eight outputs a step: k a multiple of 8, each 8-byte chunk of two outputs' windows
 * widened into one vector and multiplied-added with their weights, the sums reduced by two
 * rounds of pairwise adds; k = 2 (bilinear), each window's two bytes loaded as 16 bits and
 * spread to a pair of 16-bit lanes, one multiply-add giving the eight sums in order; k = 4
 * (bicubic), each window's four bytes one 32-bit lane, widened by four outputs, two
 * multiply-adds and one pairwise add. Then bias, shift, clip and pack to bytes. Only the
 * windows' own bytes are read. Returns the first output not done (the caller does the rest
 * one by one). */
#if defined(RX_AVX2)
static RX_ALWAYS_INLINE void rx_windows_store8(__m256i r, int32_t bias, int shift, uint8_t *d)
{
    __m128i p;
    r = _mm256_sra_epi32(_mm256_add_epi32(r, _mm256_set1_epi32(bias)), _mm_cvtsi32_si128(shift));
    r = _mm256_min_epi32(_mm256_max_epi32(r, _mm256_setzero_si256()), _mm256_set1_epi32(255));
    p = _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
    _mm_storel_epi64((__m128i *)(void *)d, _mm_packus_epi16(p, p));
}
#endif

static inline ptrdiff_t rx_windows_u8(const uint8_t *s, const int64_t *starts,
                                      const int16_t *wk, ptrdiff_t k, ptrdiff_t j0,
                                      ptrdiff_t j1, int32_t bias, int shift, uint8_t *d)
{
    ptrdiff_t j = j0;
#if defined(RX_AVX2)
    if (k == 2) {
        const __m256i spread = rx_lane_pairs_u8();
        for (; j + 8 <= j1; j += 8) {
            uint16_t v[8];
            int q;
            for (q = 0; q < 8; q++)
                memcpy(&v[q], s + starts[j + q], 2);
            rx_windows_store8(_mm256_madd_epi16(
                _mm256_shuffle_epi8(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)v)), spread),
                _mm256_loadu_si256((const __m256i *)(const void *)(wk + 2 * j))), bias, shift, d + j);
        }
        return j;
    }
    if (k == 4) {
        for (; j + 8 <= j1; j += 8) {
            uint32_t v[8];
            __m256i a, b;
            int q;
            for (q = 0; q < 8; q++)
                memcpy(&v[q], s + starts[j + q], 4);
            /* outputs 0-3's bytes widened, times their weights: each output's two pair sums */
            a = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)v)),
                                  _mm256_loadu_si256((const __m256i *)(const void *)(wk + 4 * j)));
            b = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(v + 4))),
                                  _mm256_loadu_si256((const __m256i *)(const void *)(wk + 4 * j + 16)));
            /* pairwise adds: outputs 0, 1, 4, 5 low, 2, 3, 6, 7 high; back in order */
            rx_windows_store8(_mm256_permute4x64_epi64(_mm256_hadd_epi32(a, b), 0xD8), bias, shift,
                              d + j);
        }
        return j;
    }
    if (k % 8 == 0 && k > 0) {
        const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        for (; j + 8 <= j1; j += 8) {
            __m256i acc[4], r;
            ptrdiff_t c;
            int q;
            for (q = 0; q < 4; q++)
                acc[q] = _mm256_setzero_si256();
            for (c = 0; c < k; c += 8)
                for (q = 0; q < 4; q++) {
                    const ptrdiff_t a = j + 2 * q;
                    const __m256i x = _mm256_cvtepu8_epi16(_mm_unpacklo_epi64(
                        _mm_loadl_epi64((const __m128i *)(const void *)(s + starts[a] + c)),
                        _mm_loadl_epi64((const __m128i *)(const void *)(s + starts[a + 1] + c))));
                    const __m256i w = _mm256_inserti128_si256(_mm256_castsi128_si256(
                        _mm_loadu_si128((const __m128i *)(const void *)(wk + a * k + c))),
                        _mm_loadu_si128((const __m128i *)(const void *)(wk + (a + 1) * k + c)), 1);
                    acc[q] = _mm256_add_epi32(acc[q], _mm256_madd_epi16(x, w));
                }
            /* acc[q]: output 2q's four partial sums in the low lane, 2q + 1's in the high; two
             * rounds of pairwise adds leave outputs 0, 2, 4, 6 low and 1, 3, 5, 7 high */
            r = _mm256_hadd_epi32(_mm256_hadd_epi32(acc[0], acc[1]),
                                  _mm256_hadd_epi32(acc[2], acc[3]));
            rx_windows_store8(_mm256_permutevar8x32_epi32(r, order), bias, shift, d + j);
        }
    }
#else
    (void)s; (void)starts; (void)wk; (void)k; (void)j1; (void)bias; (void)shift; (void)d;
#endif
    return j;
}

/* One phase row of a fixed-point uint8 window pass (torch's uint8 path, _fixed.pyx):
 * out[i] = clamp((bias + sum_{t<k} w[t] * x[q*i + t]) >> shift, 0, 255) for i < n, q = 1
 * (a x2 phase) or 2 (x0.5), k even and <= 8, int16 weights: int32 sums, exact in any order.
 * AVX2: sixteen outputs at a time, each pair of taps one madd over byte pairs (q = 2: the
 * pairs are adjacent in memory; q = 1: two loads one byte apart, interleaved); reads only
 * the bytes the outputs read. */
static inline void rx_win_phase_u8(const uint8_t *x, ptrdiff_t q, const int16_t *w,
                                   ptrdiff_t k, ptrdiff_t n, int32_t bias, int shift,
                                   uint8_t *out)
{
    ptrdiff_t i = 0, t;
#if defined(RX_AVX2)
    if (n >= 16) {
        __m256i wp[4];
        const __m256i vb = _mm256_set1_epi32(bias);
        const __m128i sh = _mm_cvtsi32_si128(shift);
        for (t = 0; t < k; t += 2)
            wp[t / 2] = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)w[t + 1] << 16)
                                                    | (uint16_t)w[t]));
        for (; i < n; i += 16) {
            __m256i a0 = vb, a1 = vb, s16, b8;
            if (i + 16 > n)
                i = n - 16;           /* the last outputs again, overlapping: same values */
            for (t = 0; t < k; t += 2) {
                if (q == 2) {         /* a0: outputs 0-3 | 4-7, a1: 8-11 | 12-15 */
                    __m256i p0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(x + 2 * i + t)));
                    __m256i p1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(x + 2 * i + 16 + t)));
                    a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(p0, wp[t / 2]));
                    a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(p1, wp[t / 2]));
                } else {              /* a0: outputs 0-3 | 8-11, a1: 4-7 | 12-15 */
                    __m256i u = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(x + i + t)));
                    __m256i v = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(x + i + t + 1)));
                    a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_unpacklo_epi16(u, v), wp[t / 2]));
                    a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_unpackhi_epi16(u, v), wp[t / 2]));
                }
            }
            s16 = _mm256_packs_epi32(_mm256_sra_epi32(a0, sh), _mm256_sra_epi32(a1, sh));
            if (q == 2)
                s16 = _mm256_permute4x64_epi64(s16, 0xD8);
            /* saturating packs clamp as the scalar rule does: > 255 -> 255, < 0 -> 0 */
            b8 = _mm256_permute4x64_epi64(_mm256_packus_epi16(s16, s16), 0x08);
            _mm_storeu_si128((__m128i *)(out + i), _mm256_castsi256_si128(b8));
        }
        return;
    }
#endif
    for (; i < n; i++) {
        int32_t a = bias;
        for (t = 0; t < k; t++)
            a += (int32_t)w[t] * (int32_t)x[q * i + t];
        a >>= shift;
        out[i] = (uint8_t)(a < 0 ? 0 : (a > 255 ? 255 : a));
    }
}

#endif
