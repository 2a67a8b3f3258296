/* Small vector kernels for the hot loops that compilers do not vectorise on their own.
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

/* Interleave four rows of n floats: tmp4[4*i + b] = r_b[i] (pure data movement; a 4x4
 * transpose per four columns, scalar for the rest). */
static inline void rx_interleave4_f32(const float *r0, const float *r1, const float *r2,
                                      const float *r3, float *tmp4, ptrdiff_t n)
{
    ptrdiff_t i = 0;
#if defined(RX_SSE2)
    for (; i + 4 <= n; i += 4) {
        __m128 a = _mm_loadu_ps(r0 + i), b = _mm_loadu_ps(r1 + i);
        __m128 c = _mm_loadu_ps(r2 + i), d = _mm_loadu_ps(r3 + i);
        _MM_TRANSPOSE4_PS(a, b, c, d);
        _mm_storeu_ps(tmp4 + 4 * i, a);
        _mm_storeu_ps(tmp4 + 4 * i + 4, b);
        _mm_storeu_ps(tmp4 + 4 * i + 8, c);
        _mm_storeu_ps(tmp4 + 4 * i + 12, d);
    }
#endif
    for (; i < n; i++) {
        tmp4[4 * i] = r0[i];
        tmp4[4 * i + 1] = r1[i];
        tmp4[4 * i + 2] = r2[i];
        tmp4[4 * i + 3] = r3[i];
    }
}

/* One output row of a fused pass of uint8 data whose innermost taps read adjacent pixel pairs
 * (compile/weighted.py _gathered_fields: gpair): output pixel o reads pixels i0 and i0 + 1 of c <= 4
 * channels, pixel i0 at byte offset poff[o] of every input row (row t at s + roff[t]), with
 * weights wa[o * c], wb[o * c]. Channel ch of it is wa * T(i0 c + ch) + wb * T(i0 c + c + ch),
 * T(e) the input rows blended in float32 (w1[0] * x0[e], then + w1[t] * xt[e], tap by tap):
 * the products and sums of blending whole rows and taking the two taps from them, so the
 * same bits. The first `wide` pixels read 8 bytes from poff[o] (inside the row: the planner
 * checks it) and keep both pixels of all rows in one register; the rest, one by one. */
static inline void rx_pairs_u8_f32(const char *s, const int64_t *roff, const float *w1,
                                   ptrdiff_t nt, const int64_t *poff, const float *wa,
                                   const float *wb, ptrdiff_t npix, ptrdiff_t c, ptrdiff_t wide,
                                   float *out)
{
    ptrdiff_t o = 0, t, ch;
#if defined(RX_AVX2)
    if (nt >= 1 && c >= 1 && c <= 4) {
        /* lane ch of the folded sum is lane ch plus lane c + ch; lanes [c, 2c) take wb */
        const __m256i fold = _mm256_setr_epi32((int)c, (int)c + 1, (int)c + 2, (int)c + 3,
                                               0, 0, 0, 0);
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256 second = _mm256_castsi256_ps(_mm256_and_si256(
            _mm256_cmpgt_epi32(lane, _mm256_set1_epi32((int)c - 1)),
            _mm256_cmpgt_epi32(_mm256_set1_epi32(2 * (int)c), lane)));
        const __m128i keep = _mm_cmpgt_epi32(_mm_set1_epi32((int)c), _mm_setr_epi32(0, 1, 2, 3));
        /* Pixels before `plain` store all four lanes with one plain store: lanes c..3 land
         * on the next pixel's elements, which are written after (ascending order) and lie
         * inside the row (o c + 4 <= npix c). The masked store is kept for the last pixels
         * only: on AMD cores it is microcoded, ~10x the cost of a plain store. */
        const ptrdiff_t plain = npix * c >= 4 ? (npix * c - 4) / c + 1 : 0;
#define RX_PAIRS_STORE(o_, v_) do { \
            if ((o_) < plain) _mm_storeu_ps(out + (o_) * c, (v_)); \
            else _mm_maskstore_ps(out + (o_) * c, keep, (v_)); } while (0)
        if (nt == 2) {      /* the common case (linear rows), without the loop over rows */
            const __m256 w10 = _mm256_set1_ps(w1[0]), w11 = _mm256_set1_ps(w1[1]);
            const char *r0 = s + roff[0], *r1 = s + roff[1];
            for (; o < wide; o++) {
                __m256 x0 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                    _mm_loadl_epi64((const __m128i *)(r0 + poff[o]))));
                __m256 x1 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                    _mm_loadl_epi64((const __m128i *)(r1 + poff[o]))));
                __m256 acc = _mm256_add_ps(_mm256_mul_ps(w10, x0), _mm256_mul_ps(w11, x1));
                __m256 w = _mm256_blendv_ps(_mm256_set1_ps(wa[o * c]), _mm256_set1_ps(wb[o * c]),
                                            second);
                __m256 prod = _mm256_mul_ps(acc, w);
                _mm_prefetch(r0 + poff[o] + 512, _MM_HINT_T0);
                _mm_prefetch(r1 + poff[o] + 512, _MM_HINT_T0);
                prod = _mm256_add_ps(prod, _mm256_permutevar8x32_ps(prod, fold));
                RX_PAIRS_STORE(o, _mm256_castps256_ps128(prod));
            }
        }
        for (; o < wide; o++) {
            const char *p = s + poff[o];
            __m256 x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i *)(p + roff[0]))));
            __m256 acc = _mm256_mul_ps(_mm256_set1_ps(w1[0]), x);
            __m256 w, prod;
            /* the rows are read a little at a time from far apart: ask for them early */
            for (t = 0; t < nt; t++)
                _mm_prefetch(p + roff[t] + 512, _MM_HINT_T0);
            for (t = 1; t < nt; t++) {
                x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                    _mm_loadl_epi64((const __m128i *)(p + roff[t]))));
                acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(w1[t]), x));
            }
            w = _mm256_blendv_ps(_mm256_set1_ps(wa[o * c]), _mm256_set1_ps(wb[o * c]), second);
            prod = _mm256_mul_ps(acc, w);
            prod = _mm256_add_ps(prod, _mm256_permutevar8x32_ps(prod, fold));
            RX_PAIRS_STORE(o, _mm256_castps256_ps128(prod));
        }
#undef RX_PAIRS_STORE
    }
#endif
    for (; o < npix; o++) {
        for (ch = 0; ch < c; ch++) {
            const uint8_t *p = (const uint8_t *)(s + poff[o]) + ch;
            float ta = w1[0] * (float)p[roff[0]], tb = w1[0] * (float)p[roff[0] + c];
            for (t = 1; t < nt; t++) {
                ta = ta + w1[t] * (float)p[roff[t]];
                tb = tb + w1[t] * (float)p[roff[t] + c];
            }
            out[o * c + ch] = wa[o * c] * ta + wb[o * c] * tb;
        }
    }
}

/* A row of npix interleaved pixels of c floats as c rows of npix (channel k at out + k * ps):
 * moves only, SSE shuffles for c == 3 and c == 4; with av (not NULL) each value of channel k
 * becomes v * av[k] + bv[k] on the way (a multiply, then an add: the affine's two roundings). */
static inline void rx_unzip_f32(const float *row, float *out, ptrdiff_t npix, ptrdiff_t c,
                                ptrdiff_t ps, const float *av, const float *bv)
{
    ptrdiff_t j = 0, k;
#if defined(RX_SSE2)
    float *o0 = out, *o1 = out + ps, *o2 = out + 2 * ps, *o3 = out + 3 * ps;
    if (c == 3) {
        /* with av, each plane mapped by v * a_k + b_k on the way (two roundings) */
        const __m128 a0 = _mm_set1_ps(av ? av[0] : 0.0f), a1 = _mm_set1_ps(av ? av[1] : 0.0f);
        const __m128 a2 = _mm_set1_ps(av ? av[2] : 0.0f), b0 = _mm_set1_ps(av ? bv[0] : 0.0f);
        const __m128 b1 = _mm_set1_ps(av ? bv[1] : 0.0f), b2 = _mm_set1_ps(av ? bv[2] : 0.0f);
        for (; j + 4 <= npix; j += 4) {
            /* a = r0 g0 b0 r1, b = g1 b1 r2 g2, d = b2 r3 g3 b3 */
            __m128 a = _mm_loadu_ps(row + 3 * j), b = _mm_loadu_ps(row + 3 * j + 4);
            __m128 d = _mm_loadu_ps(row + 3 * j + 8);
            __m128 r = _mm_shuffle_ps(a, _mm_shuffle_ps(b, d, _MM_SHUFFLE(1, 1, 2, 2)),
                                      _MM_SHUFFLE(2, 0, 3, 0));         /* r0 r1 r2 r3 */
            __m128 g = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1)),
                                      _mm_shuffle_ps(b, d, _MM_SHUFFLE(2, 2, 3, 3)),
                                      _MM_SHUFFLE(2, 0, 2, 0));         /* g0 g1 g2 g3 */
            __m128 bl = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2)),
                                       _mm_shuffle_ps(d, d, _MM_SHUFFLE(3, 3, 0, 0)),
                                       _MM_SHUFFLE(2, 0, 2, 0));        /* b0 b1 b2 b3 */
            if (av) {
                r = _mm_add_ps(_mm_mul_ps(r, a0), b0);
                g = _mm_add_ps(_mm_mul_ps(g, a1), b1);
                bl = _mm_add_ps(_mm_mul_ps(bl, a2), b2);
            }
            _mm_storeu_ps(o0 + j, r);
            _mm_storeu_ps(o1 + j, g);
            _mm_storeu_ps(o2 + j, bl);
        }
    } else if (c == 4 && !av) {
        for (; j + 4 <= npix; j += 4) {
            __m128 a = _mm_loadu_ps(row + 4 * j), b = _mm_loadu_ps(row + 4 * j + 4);
            __m128 e = _mm_loadu_ps(row + 4 * j + 8), f = _mm_loadu_ps(row + 4 * j + 12);
            _MM_TRANSPOSE4_PS(a, b, e, f);
            _mm_storeu_ps(o0 + j, a);
            _mm_storeu_ps(o1 + j, b);
            _mm_storeu_ps(o2 + j, e);
            _mm_storeu_ps(o3 + j, f);
        }
    }
#endif
    if (av) {
        for (; j < npix; j++)
            for (k = 0; k < c; k++)
                out[k * ps + j] = row[j * c + k] * av[k] + bv[k];
        return;
    }
    for (; j < npix; j++)
        for (k = 0; k < c; k++)
            out[k * ps + j] = row[j * c + k];
}

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

/* in = p0 p1 p2 p3 ... (pixels of c bytes, 3 ngroups of them) into a = p0 p3 p6 ...,
 * b = p1 p4 ..., d = p2 p5 ...: the three pixel phases of a row, for 3:2 passes. Byte moves
 * only; with SSSE3 and c <= 4, 48 pixels at a time by byte shuffles (reads and writes stay
 * inside the rows). */
static inline void rx_unzip3_8(const uint8_t *in, uint8_t *a, uint8_t *b, uint8_t *d,
                               ptrdiff_t ngroups, ptrdiff_t c)
{
    ptrdiff_t g = 0;
#if defined(RX_SSSE3)
    uint8_t *rows[3];
    rows[0] = a;
    rows[1] = b;
    rows[2] = d;
    /* A block of 48 input pixels (3C chunks of 16 bytes) gives 16 pixels of each row: byte
     * L of chunk Q of row S is byte RX_U3_SRC(C, S, Q, L) of the block, so that chunk is the
     * OR of one byte shuffle of each input chunk it draws on (consecutive ones). C is a
     * constant and the loops unroll, so every mask is a constant the compiler folds. */
#define RX_U3_SRC(C, S, Q, L) \
    ((3 * ((16 * (Q) + (L)) / (C)) + (S)) * (C) + (16 * (Q) + (L)) % (C))
#define RX_U3_M(C, S, Q, I, L) \
    ((RX_U3_SRC(C, S, Q, L) >> 4) == (I) ? (RX_U3_SRC(C, S, Q, L) & 15) : -1)
#define RX_U3_MASK(C, S, Q, I)                                                               \
    _mm_setr_epi8(RX_U3_M(C, S, Q, I, 0), RX_U3_M(C, S, Q, I, 1), RX_U3_M(C, S, Q, I, 2),   \
                  RX_U3_M(C, S, Q, I, 3), RX_U3_M(C, S, Q, I, 4), RX_U3_M(C, S, Q, I, 5),   \
                  RX_U3_M(C, S, Q, I, 6), RX_U3_M(C, S, Q, I, 7), RX_U3_M(C, S, Q, I, 8),   \
                  RX_U3_M(C, S, Q, I, 9), RX_U3_M(C, S, Q, I, 10), RX_U3_M(C, S, Q, I, 11), \
                  RX_U3_M(C, S, Q, I, 12), RX_U3_M(C, S, Q, I, 13), RX_U3_M(C, S, Q, I, 14),\
                  RX_U3_M(C, S, Q, I, 15))
#define RX_UNZIP3_BLOCKS(C)                                                                  \
    for (; g + 16 <= ngroups; g += 16) {                                                     \
        __m128i v[3 * (C)];                                                                  \
        const uint8_t *blk = in + 3 * g * (C);                                               \
        int i, s, q;                                                                         \
        _Pragma("GCC unroll 12")                                                             \
        for (i = 0; i < 3 * (C); i++)                                                        \
            v[i] = _mm_loadu_si128((const __m128i *)(blk + 16 * i));                         \
        _Pragma("GCC unroll 3")                                                              \
        for (s = 0; s < 3; s++) {                                                            \
            _Pragma("GCC unroll 4")                                                          \
            for (q = 0; q < (C); q++) {                                                      \
                __m128i r = _mm_setzero_si128();                                             \
                _Pragma("GCC unroll 4")                                                      \
                for (i = RX_U3_SRC(C, s, q, 0) >> 4; i <= RX_U3_SRC(C, s, q, 15) >> 4; i++)  \
                    r = _mm_or_si128(r, _mm_shuffle_epi8(v[i], RX_U3_MASK(C, s, q, i)));     \
                _mm_storeu_si128((__m128i *)(rows[s] + g * (C) + 16 * q), r);                \
            }                                                                                \
        }                                                                                    \
    }
    if (c == 1) {
        RX_UNZIP3_BLOCKS(1)
    } else if (c == 2) {
        RX_UNZIP3_BLOCKS(2)
    } else if (c == 3) {
        RX_UNZIP3_BLOCKS(3)
    } else if (c == 4) {
        RX_UNZIP3_BLOCKS(4)
    }
#undef RX_UNZIP3_BLOCKS
#undef RX_U3_MASK
#undef RX_U3_M
#undef RX_U3_SRC
#endif
    for (; g < ngroups; g++) {
        memcpy(a + g * c, in + 3 * g * c, (size_t)c);
        memcpy(b + g * c, in + (3 * g + 1) * c, (size_t)c);
        memcpy(d + g * c, in + (3 * g + 2) * c, (size_t)c);
    }
}

/* e[j] = wa * v[j + da] + wb * v[j + db] for j in [0, n): one phase of a polyphase innermost
 * pass, the two-tap sum of _row_dense in the same order (the compiler vectorises it). */
static inline void rx_phase2_f32(const float *v, float *e, ptrdiff_t n, ptrdiff_t da,
                                 ptrdiff_t db, float wa, float wb)
{
    ptrdiff_t j;
    const float *pa = v + da, *pb = v + db;
    for (j = 0; j < n; j++)
        e[j] = wa * pa[j] + wb * pb[j];
}

/* e[j] = (...(w[0] x_0[j] + w[1] x_1[j]) + ...) + w[k-1] x_(k-1)[j] for j in [0, n): one
 * phase of a polyphase innermost pass of k taps (3..8), each tap a contiguous row x_t (the
 * blended row at the tap's offset), the sum of _row_dense in the same order (the first
 * product, then acc + product, tap by tap). Four and six taps in one sweep with the sum in a
 * register (the compiler vectorises each loop), other counts a tap at a time. */
static inline void rx_phasek_f32(const float *const *x, float *e, ptrdiff_t n,
                                 const double *w, ptrdiff_t k)
{
    ptrdiff_t j, t;
    if (k == 4) {
        const float w0 = (float)w[0], w1 = (float)w[1], w2 = (float)w[2], w3 = (float)w[3];
        const float *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
        for (j = 0; j < n; j++)
            e[j] = ((w0 * x0[j] + w1 * x1[j]) + w2 * x2[j]) + w3 * x3[j];
        return;
    }
    if (k == 6) {
        const float w0 = (float)w[0], w1 = (float)w[1], w2 = (float)w[2], w3 = (float)w[3];
        const float w4 = (float)w[4], w5 = (float)w[5];
        const float *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3], *x4 = x[4], *x5 = x[5];
        for (j = 0; j < n; j++)
            e[j] = ((((w0 * x0[j] + w1 * x1[j]) + w2 * x2[j]) + w3 * x3[j]) + w4 * x4[j])
                   + w5 * x5[j];
        return;
    }
    {
        const float w0 = (float)w[0], w1 = (float)w[1];
        const float *x0 = x[0], *x1 = x[1];
        for (j = 0; j < n; j++)
            e[j] = w0 * x0[j] + w1 * x1[j];
    }
    for (t = 2; t < k; t++) {
        const float *xt = x[t];
        float wt = (float)w[t];
        for (j = 0; j < n; j++)
            e[j] = e[j] + wt * xt[j];
    }
}

/* rx_phasek_f32's sums rounded into 8-bit outputs as they are made, 16 at a time (AVX-512),
 * without the float row: clamped to the type's range, then rounded half to even, half away
 * from zero or toward zero (`rounding` 0, 1, 2: the integers of rx_store8_f32,
 * rx_store8_f32_away and the C conversion). Returns how many of the n outputs it made (a
 * multiple of 16; 0 at other levels): the caller makes the rest. */
static inline ptrdiff_t rx_phasek_8(const float *const *x, uint8_t *out, ptrdiff_t n,
                                    const double *w, ptrdiff_t k, int is_signed, int rounding)
{
#if defined(__AVX512F__) && defined(__AVX512BW__)
    const __m512 lo = _mm512_set1_ps(is_signed ? -128.0f : 0.0f);
    const __m512 hi = _mm512_set1_ps(is_signed ? 127.0f : 255.0f);
    const __m512 magic = _mm512_set1_ps(12582912.0f), half = _mm512_set1_ps(0.5f);
    const __m512 mhalf = _mm512_set1_ps(-0.5f);
    const __m512i bias = _mm512_set1_epi32(0x4B400000), one = _mm512_set1_epi32(1);
    __m512 wv[8];
    ptrdiff_t j, t;
    for (t = 0; t < k; t++)
        wv[t] = _mm512_set1_ps((float)w[t]);
    for (j = 0; j + 16 <= n; j += 16) {
        __m512 acc;
        __m512i r;
        if (k == 4) {
            acc = _mm512_add_ps(_mm512_add_ps(
                      _mm512_add_ps(_mm512_mul_ps(wv[0], _mm512_loadu_ps(x[0] + j)),
                                    _mm512_mul_ps(wv[1], _mm512_loadu_ps(x[1] + j))),
                      _mm512_mul_ps(wv[2], _mm512_loadu_ps(x[2] + j))),
                  _mm512_mul_ps(wv[3], _mm512_loadu_ps(x[3] + j)));
        } else {
            acc = _mm512_mul_ps(wv[0], _mm512_loadu_ps(x[0] + j));
            for (t = 1; t < k; t++)
                acc = _mm512_add_ps(acc, _mm512_mul_ps(wv[t], _mm512_loadu_ps(x[t] + j)));
        }
        acc = _mm512_min_ps(_mm512_max_ps(acc, lo), hi);
        if (rounding == 0) {
            r = _mm512_sub_epi32(_mm512_castps_si512(_mm512_add_ps(acc, magic)), bias);
        } else {
            r = _mm512_cvttps_epi32(acc);
            if (rounding == 1) {
                __m512 f = _mm512_sub_ps(acc, _mm512_cvtepi32_ps(r));
                r = _mm512_mask_add_epi32(r, _mm512_cmp_ps_mask(f, half, _CMP_GE_OQ), r, one);
                r = _mm512_mask_sub_epi32(r, _mm512_cmp_ps_mask(f, mhalf, _CMP_LE_OQ), r, one);
            }
        }
        _mm_storeu_si128((__m128i *)(out + j), _mm512_cvtepi32_epi8(r));
    }
    return j;
#else
    (void)x; (void)out; (void)n; (void)w; (void)k; (void)is_signed; (void)rounding;
    return 0;
#endif
}

/* Exact integer forms of the polyphase kernels, for 8-bit data whose float32 sums are exact
 * (compile/phases.py phase_fields checks it: integer weights q = w * 2^m, sums bounded well inside
 * int16). A value is then an integer s, the float32 value s / 2^shift exactly, and rounding
 * s half-to-even by the shift gives the float32 store's bits. */

/* r[j] = sum_t q[t] * x_t[j] over the rows x_t = s + off[t] (n elements; 0 without taps). */
#define RX_BLEND_I16(T, NAME)                                                                \
    static inline void NAME(const char *s, int16_t *r, ptrdiff_t n, ptrdiff_t t0,           \
                            ptrdiff_t t1, const int64_t *off, const int16_t *q)             \
    {                                                                                        \
        ptrdiff_t j, t;                                                                      \
        if (t0 == t1) {                                                                      \
            memset(r, 0, (size_t)n * sizeof(int16_t));                                       \
            return;                                                                          \
        }                                                                                    \
        if (t1 - t0 == 2) {   /* the usual two rows in one sweep: r is written once */       \
            const T *p0 = (const T *)(s + off[t0]), *p1 = (const T *)(s + off[t0 + 1]);     \
            int16_t w0 = q[t0], w1 = q[t0 + 1];                                              \
            for (j = 0; j < n; j++)                                                          \
                r[j] = (int16_t)(w0 * p0[j] + w1 * p1[j]);                                   \
            return;                                                                          \
        }                                                                                    \
        {                                                                                    \
            const T *p = (const T *)(s + off[t0]);                                           \
            int16_t w = q[t0];                                                               \
            for (j = 0; j < n; j++)                                                          \
                r[j] = (int16_t)(w * p[j]);                                                  \
        }                                                                                    \
        for (t = t0 + 1; t < t1; t++) {                                                      \
            const T *p = (const T *)(s + off[t]);                                            \
            int16_t w = q[t];                                                                \
            for (j = 0; j < n; j++)                                                          \
                r[j] = (int16_t)(r[j] + w * p[j]);                                           \
        }                                                                                    \
    }
RX_BLEND_I16(uint8_t, rx_blend_u8_i16)
RX_BLEND_I16(int8_t, rx_blend_i8_i16)
#undef RX_BLEND_I16

/* Round s / 2^shift and saturate to [lo, hi]: half to even (arithmetic shift: floor, then
 * up past the half or at an exact half with an odd floor), or with `away` half away from zero
 * (up at the half for s >= 0, down for s < 0). */
static inline int rx_round_i16(int s, int shift, int lo, int hi, int away)
{
    int q = !shift ? s : away ? (s + (1 << (shift - 1)) - (s < 0)) >> shift
                              : (s + (1 << (shift - 1)) - 1 + ((s >> shift) & 1)) >> shift;
    return q < lo ? lo : (q > hi ? hi : q);
}

/* rx_round_i16 on 16 (32) lanes, without the saturation (the bounds checked by the planner
 * keep every sum inside int16). */
#if defined(RX_AVX2)
static inline __m256i rx_round16_256(__m256i s, int shift, int away)
{
    __m128i cnt = _mm_cvtsi32_si128(shift);
    if (!shift)
        return s;
    if (away)
        return _mm256_sra_epi16(_mm256_add_epi16(_mm256_add_epi16(
            s, _mm256_set1_epi16((int16_t)(1 << (shift - 1)))), _mm256_srai_epi16(s, 15)), cnt);
    return _mm256_sra_epi16(_mm256_add_epi16(_mm256_add_epi16(
        s, _mm256_set1_epi16((int16_t)((1 << (shift - 1)) - 1))),
        _mm256_and_si256(_mm256_sra_epi16(s, cnt), _mm256_set1_epi16(1))), cnt);
}
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__)
static inline __m512i rx_round16_512(__m512i s, int shift, int away)
{
    __m128i cnt = _mm_cvtsi32_si128(shift);
    if (!shift)
        return s;
    if (away)
        return _mm512_sra_epi16(_mm512_add_epi16(_mm512_add_epi16(
            s, _mm512_set1_epi16((int16_t)(1 << (shift - 1)))), _mm512_srai_epi16(s, 15)), cnt);
    return _mm512_sra_epi16(_mm512_add_epi16(_mm512_add_epi16(
        s, _mm512_set1_epi16((int16_t)((1 << (shift - 1)) - 1))),
        _mm512_and_si512(_mm512_sra_epi16(s, cnt), _mm512_set1_epi16(1))), cnt);
}
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__)
/* rx_round16_512, then saturated to 8 bits as rx_round_pack16's pack does: 32 bytes. */
static inline __m256i rx_round_pack32(__m512i s, int shift, int is_signed, int away)
{
    s = rx_round16_512(s, shift, away);
    return is_signed ? _mm512_cvtsepi16_epi8(s)
                     : _mm512_cvtusepi16_epi8(_mm512_max_epi16(s, _mm512_setzero_si512()));
}
#endif
#if defined(RX_AVX2)
/* rx_round16_256, then saturated to 8 bits by the pack: 16 bytes. */
static inline __m128i rx_round_pack16(__m256i s, int shift, int is_signed, int away)
{
    __m128i lo, hi;
    s = rx_round16_256(s, shift, away);
    lo = _mm256_castsi256_si128(s);
    hi = _mm256_extracti128_si256(s, 1);
    return is_signed ? _mm_packs_epi16(lo, hi) : _mm_packus_epi16(lo, hi);
}
#endif

/* rx_round_i16 on int32 lanes, without the saturation (the caller packs and clamps). */
#define RX_ROUND32(W, s, shift, away, cnt)                                                     \
    (!(shift) ? (s)                                                                            \
     : (away) ? _mm##W##_sra_epi32(_mm##W##_add_epi32(_mm##W##_add_epi32(                      \
                    (s), _mm##W##_set1_epi32(1 << ((shift) - 1))), _mm##W##_srai_epi32((s), 31)), \
                    (cnt))                                                                     \
              : _mm##W##_sra_epi32(_mm##W##_add_epi32(_mm##W##_add_epi32(                      \
                    (s), _mm##W##_set1_epi32((1 << ((shift) - 1)) - 1)),                       \
                    _mm##W##_and_si##W(_mm##W##_sra_epi32((s), (cnt)),                         \
                                        _mm##W##_set1_epi32(1))), (cnt)))

/* One output phase of k taps (3..8: x0.5 cubic of 8-bit data) in exact integers:
 * out[j] = rx_round_i16(sum_t q[t] * x_t[j], shift) saturated to the 8-bit type, over int16
 * rows x_t (blended rows times 2^m1), summed in int32: the planner bounds every sum inside
 * 2^24, so it is exact whatever the order, and its value times 2^-shift is the float32 sum
 * of the float pass (rx_phasek_8). Vector steps take the taps in pairs, the two rows
 * interleaved and multiplied by their weight pair (madd); every output is made. */
#define RX_PHASEK_I16_STEP(W, VT, N, LOAD)                                                     \
    for (; j + (N) <= n; j += (N)) {                                                           \
        VT sl = _mm##W##_setzero_si##W(), sh = sl, v;                                         \
        for (t = 0; t < k; t += 2) {                                                           \
            VT a = LOAD(x[t] + j);                                                             \
            VT b = t + 1 < k ? LOAD(x[t + 1] + j) : _mm##W##_setzero_si##W();                 \
            VT wp = _mm##W##_set1_epi32((int)((uint32_t)(uint16_t)q[t]                         \
                                              | (uint32_t)(uint16_t)(t + 1 < k ? q[t + 1] : 0) \
                                                    << 16));                                   \
            sl = _mm##W##_add_epi32(sl, _mm##W##_madd_epi16(_mm##W##_unpacklo_epi16(a, b), wp)); \
            sh = _mm##W##_add_epi32(sh, _mm##W##_madd_epi16(_mm##W##_unpackhi_epi16(a, b), wp)); \
        }                                                                                      \
        v = _mm##W##_packs_epi32(RX_ROUND32(W, sl, shift, away, cnt),                          \
                                 RX_ROUND32(W, sh, shift, away, cnt));                         \
        v = _mm##W##_min_epi16(_mm##W##_max_epi16(v, _mm##W##_set1_epi16((int16_t)lo)),        \
                               _mm##W##_set1_epi16((int16_t)hi));                              \
        RX_PHASEK_I16_PUT##W(out + j, v);                                                      \
    }
#define RX_LOAD512(p) _mm512_loadu_si512((const void *)(p))
#define RX_LOAD256(p) _mm256_loadu_si256((const __m256i *)(p))
#define RX_PHASEK_I16_PUT512(d, v) _mm256_storeu_si256((__m256i *)(d), _mm512_cvtepi16_epi8(v))
#define RX_PHASEK_I16_PUT256(d, v)                                                             \
    _mm_storeu_si128((__m128i *)(d),                                                           \
                     is_signed ? _mm_packs_epi16(_mm256_castsi256_si128(v),                    \
                                                 _mm256_extracti128_si256(v, 1))               \
                               : _mm_packus_epi16(_mm256_castsi256_si128(v),                   \
                                                  _mm256_extracti128_si256(v, 1)))
static inline void rx_phasek_i16(const int16_t *const *x, uint8_t *out, ptrdiff_t n,
                                 const int *q, ptrdiff_t k, int shift, int is_signed, int away)
{
    ptrdiff_t j = 0, t;
    const int lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
#if defined(RX_AVX2)
    const __m128i cnt = _mm_cvtsi32_si128(shift);
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__)
    RX_PHASEK_I16_STEP(512, __m512i, 32, RX_LOAD512)
#endif
#if defined(RX_AVX2)
    RX_PHASEK_I16_STEP(256, __m256i, 16, RX_LOAD256)
#endif
    for (; j < n; j++) {
        int s = 0;
        for (t = 0; t < k; t++)
            s += q[t] * x[t][j];
        out[j] = (uint8_t)rx_round_i16(s, shift, lo, hi, away);
    }
}
#undef RX_PHASEK_I16_STEP
#undef RX_PHASEK_I16_PUT512
#undef RX_PHASEK_I16_PUT256
#undef RX_LOAD512
#undef RX_LOAD256
#undef RX_ROUND32

/* One phase row, rounded into 8-bit: e[j] = round(qa * v[j + da] + qb * v[j + db]). */
static inline void rx_phase2_i16(const int16_t *v, uint8_t *e, ptrdiff_t n, ptrdiff_t da,
                                 ptrdiff_t db, int16_t qa, int16_t qb, int shift, int is_signed,
                                 int away)
{
    ptrdiff_t j = 0;
    const int16_t *pa = v + da, *pb = v + db;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    {
        /* 32 outputs a step */
        __m512i wa = _mm512_set1_epi16(qa), wb = _mm512_set1_epi16(qb);
        for (; j + 32 <= n; j += 32) {
            __m512i sum = _mm512_add_epi16(
                _mm512_mullo_epi16(wa, _mm512_loadu_si512((const void *)(pa + j))),
                _mm512_mullo_epi16(wb, _mm512_loadu_si512((const void *)(pb + j))));
            _mm256_storeu_si256((__m256i *)(e + j),
                                rx_round_pack32(sum, shift, is_signed, away));
        }
    }
#endif
#if defined(RX_AVX2)
    {
        __m256i wa = _mm256_set1_epi16(qa), wb = _mm256_set1_epi16(qb);
        for (; j < n && n >= 16; j += 16) {
            __m256i a, b, sum;
            if (j + 16 > n)
                j = n - 16;           /* the last outputs again, overlapping: same values */
            a = _mm256_loadu_si256((const __m256i *)(pa + j));
            b = _mm256_loadu_si256((const __m256i *)(pb + j));
            sum = _mm256_add_epi16(_mm256_mullo_epi16(wa, a), _mm256_mullo_epi16(wb, b));
            _mm_storeu_si128((__m128i *)(e + j), rx_round_pack16(sum, shift, is_signed, away));
        }
    }
#endif
    if (is_signed) {
        for (; j < n; j++)
            e[j] = (uint8_t)(int8_t)rx_round_i16((int16_t)(qa * pa[j] + qb * pb[j]), shift,
                                                 -128, 127, away);
    } else {
        for (; j < n; j++)
            e[j] = (uint8_t)rx_round_i16((int16_t)(qa * pa[j] + qb * pb[j]), shift, 0, 255,
                                         away);
    }
}

/* Both phase rows of single-element pixels, rounded and zipped straight into the output:
 * out[2j] = round(qa0 * v[j + da0] + qb0 * v[j + db0]), out[2j + 1] the same with the second
 * phase, for j < n. The values of rx_phase2_i16 for each phase and rx_zip2_8 (c = 1), without
 * the two phase rows in between. */
static inline void rx_phase2_zip_i16(const int16_t *v, uint8_t *out, ptrdiff_t n,
                                     ptrdiff_t da0, ptrdiff_t db0, int16_t qa0, int16_t qb0,
                                     ptrdiff_t da1, ptrdiff_t db1, int16_t qa1, int16_t qb1,
                                     int shift, int is_signed, int away)
{
    ptrdiff_t j = 0;
    int lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
#if defined(RX_AVX2)
    if (n >= 16) {
        __m256i wa0 = _mm256_set1_epi16(qa0), wb0 = _mm256_set1_epi16(qb0);
        __m256i wa1 = _mm256_set1_epi16(qa1), wb1 = _mm256_set1_epi16(qb1);
        for (; j < n; j += 16) {
            __m256i s0, s1;
            __m128i e, o;
            if (j + 16 > n)
                j = n - 16;           /* the last outputs again, overlapping: same values */
            s0 = _mm256_add_epi16(
                _mm256_mullo_epi16(wa0, _mm256_loadu_si256((const __m256i *)(v + da0 + j))),
                _mm256_mullo_epi16(wb0, _mm256_loadu_si256((const __m256i *)(v + db0 + j))));
            s1 = _mm256_add_epi16(
                _mm256_mullo_epi16(wa1, _mm256_loadu_si256((const __m256i *)(v + da1 + j))),
                _mm256_mullo_epi16(wb1, _mm256_loadu_si256((const __m256i *)(v + db1 + j))));
            e = rx_round_pack16(s0, shift, is_signed, away);
            o = rx_round_pack16(s1, shift, is_signed, away);
            _mm_storeu_si128((__m128i *)(out + 2 * j), _mm_unpacklo_epi8(e, o));
            _mm_storeu_si128((__m128i *)(out + 2 * j + 16), _mm_unpackhi_epi8(e, o));
        }
        return;
    }
#endif
    for (; j < n; j++) {
        int e = rx_round_i16((int16_t)(qa0 * v[da0 + j] + qb0 * v[db0 + j]), shift, lo, hi, away);
        int o = rx_round_i16((int16_t)(qa1 * v[da1 + j] + qb1 * v[db1 + j]), shift, lo, hi, away);
        out[2 * j] = (uint8_t)e;           /* an int8 value's byte, or a uint8 value */
        out[2 * j + 1] = (uint8_t)o;
    }
}

/* x2 of single-element 8-bit pixels in exact integers straight from the two input rows of
 * an output row: v[i] = w0 x0[i] + w1 x1[i] (the blended row, never stored: storing it and
 * loading it back at odd offsets stalls on store forwarding), out[2j] = round(qa0 v[j + da0]
 * + qb0 v[j + db0]), out[2j + 1] = round(qa1 v[j + da1] + qb1 v[j + db1]) (rx_round_i16,
 * saturated to 8 bits), j < n. The values of rx_blend_*_i16 and rx_phase2_zip_i16; x0 and
 * x1 are read at j + d for those four offsets only. Zipping the 16-bit sums before the pack
 * keeps the bytes in order within each 128-bit lane, so no lane crossing is needed. */
#define RX_PHASE2_ROWS(T, NAME, SIGNED, CVT256, CVT512, PACK256, PACK512)                     \
    static inline void NAME(const T *x0, const T *x1, int16_t w0, int16_t w1, uint8_t *out,  \
                            ptrdiff_t n, ptrdiff_t da0, ptrdiff_t db0, int16_t qa0,          \
                            int16_t qb0, ptrdiff_t da1, ptrdiff_t db1, int16_t qa1,          \
                            int16_t qb1, int shift, int away)                                \
    {                                                                                        \
        ptrdiff_t j = 0;                                                                     \
        const int share = db0 == da1;   /* the usual taps (-1, 0) and (0, 1): one row less */ \
        (void)share;                                                                         \
        RX_PHASE2_ROWS_512(CVT512, PACK512)                                                  \
        RX_PHASE2_ROWS_256(CVT256, PACK256)                                                  \
        for (; j < n; j++) {                                                                 \
            int e = rx_round_i16((int16_t)(qa0 * (w0 * x0[j + da0] + w1 * x1[j + da0])      \
                                           + qb0 * (w0 * x0[j + db0] + w1 * x1[j + db0])),   \
                                 shift, SIGNED ? -128 : 0, SIGNED ? 127 : 255, away);        \
            int o = rx_round_i16((int16_t)(qa1 * (w0 * x0[j + da1] + w1 * x1[j + da1])      \
                                           + qb1 * (w0 * x0[j + db1] + w1 * x1[j + db1])),   \
                                 shift, SIGNED ? -128 : 0, SIGNED ? 127 : 255, away);        \
            out[2 * j] = (uint8_t)e;                                                         \
            out[2 * j + 1] = (uint8_t)o;                                                     \
        }                                                                                    \
    }
#if defined(__AVX512F__) && defined(__AVX512BW__)
#define RX_PHASE2_ROWS_512(CVT, PACK)                                                        \
    if (n >= 32) {                                                                           \
        const __m512i v0 = _mm512_set1_epi16(w0), v1 = _mm512_set1_epi16(w1);               \
        const __m512i a0 = _mm512_set1_epi16(qa0), b0 = _mm512_set1_epi16(qb0);             \
        const __m512i a1 = _mm512_set1_epi16(qa1), b1 = _mm512_set1_epi16(qb1);             \
        for (; j < n; j += 32) {                                                             \
            __m512i e, o;                                                                    \
            if (j + 32 > n)                                                                  \
                j = n - 32;           /* the last outputs again, overlapping: same values */ \
            __m512i vb0 = RX_ROWV512(CVT, db0);                                              \
            e = _mm512_add_epi16(_mm512_mullo_epi16(a0, RX_ROWV512(CVT, da0)),               \
                                 _mm512_mullo_epi16(b0, vb0));                               \
            o = _mm512_add_epi16(                                                            \
                _mm512_mullo_epi16(a1, share ? vb0 : RX_ROWV512(CVT, da1)),                  \
                _mm512_mullo_epi16(b1, RX_ROWV512(CVT, db1)));                               \
            e = rx_round16_512(e, shift, away);                                              \
            o = rx_round16_512(o, shift, away);                                              \
            _mm512_storeu_si512((void *)(out + 2 * j), PACK(_mm512_unpacklo_epi16(e, o),     \
                                                            _mm512_unpackhi_epi16(e, o)));   \
        }                                                                                    \
        return;                                                                              \
    }
#define RX_ROWV512(CVT, D)                                                                   \
    _mm512_add_epi16(                                                                        \
        _mm512_mullo_epi16(v0, CVT(_mm256_loadu_si256((const __m256i *)(x0 + j + (D))))),   \
        _mm512_mullo_epi16(v1, CVT(_mm256_loadu_si256((const __m256i *)(x1 + j + (D))))))
#else
#define RX_PHASE2_ROWS_512(CVT, PACK)
#endif
#if defined(RX_AVX2)
#define RX_PHASE2_ROWS_256(CVT, PACK)                                                        \
    if (n >= 16) {                                                                           \
        const __m256i v0 = _mm256_set1_epi16(w0), v1 = _mm256_set1_epi16(w1);               \
        const __m256i a0 = _mm256_set1_epi16(qa0), b0 = _mm256_set1_epi16(qb0);             \
        const __m256i a1 = _mm256_set1_epi16(qa1), b1 = _mm256_set1_epi16(qb1);             \
        for (; j < n; j += 16) {                                                             \
            __m256i e, o;                                                                    \
            if (j + 16 > n)                                                                  \
                j = n - 16;                                                                  \
            __m256i vb0 = RX_ROWV256(CVT, db0);                                              \
            e = _mm256_add_epi16(_mm256_mullo_epi16(a0, RX_ROWV256(CVT, da0)),               \
                                 _mm256_mullo_epi16(b0, vb0));                               \
            o = _mm256_add_epi16(_mm256_mullo_epi16(a1, share ? vb0 : RX_ROWV256(CVT, da1)), \
                                 _mm256_mullo_epi16(b1, RX_ROWV256(CVT, db1)));              \
            e = rx_round16_256(e, shift, away);                                              \
            o = rx_round16_256(o, shift, away);                                              \
            _mm256_storeu_si256((__m256i *)(out + 2 * j), PACK(_mm256_unpacklo_epi16(e, o),  \
                                                               _mm256_unpackhi_epi16(e, o))); \
        }                                                                                    \
        return;                                                                              \
    }
#define RX_ROWV256(CVT, D)                                                                   \
    _mm256_add_epi16(                                                                        \
        _mm256_mullo_epi16(v0, CVT(_mm_loadu_si128((const __m128i *)(x0 + j + (D))))),      \
        _mm256_mullo_epi16(v1, CVT(_mm_loadu_si128((const __m128i *)(x1 + j + (D))))))
#else
#define RX_PHASE2_ROWS_256(CVT, PACK)
#endif
/* rx_phase2_rows over a whole row of n pixels, the taps outside it clamped to its ends (the
   planner's bclamp: the table's outputs there are exactly that), so the border outputs come
   out of the same vector steps: the first step takes pixel j - 1 from a word permute of the
   step's own pixels (lane 0 repeated), the last step (j = n - 32, overlapping) pixel j + 1
   likewise (lane 31 repeated); every other load reads inside the rows. AVX-512 only, tap
   offsets -1, 0 or 1 and n >= 64: returns 1 if it wrote the row, else 0 (nothing written). */
#define RX_PHASE2_FULL(T, NAME, CVT, PACK)                                                   \
    static inline int NAME(const T *x0, const T *x1, int16_t w0, int16_t w1, uint8_t *out,   \
                           ptrdiff_t n, ptrdiff_t da0, ptrdiff_t db0, int16_t qa0,           \
                           int16_t qb0, ptrdiff_t da1, ptrdiff_t db1, int16_t qa1,           \
                           int16_t qb1, int shift, int away)                                 \
    {                                                                                        \
        RX_PHASE2_FULL_512(CVT, PACK)                                                        \
        (void)x0; (void)x1; (void)w0; (void)w1; (void)out; (void)n; (void)da0; (void)db0;    \
        (void)qa0; (void)qb0; (void)da1; (void)db1; (void)qa1; (void)qb1; (void)shift;       \
        (void)away;                                                                          \
        return 0;                                                                            \
    }
#if defined(__AVX512F__) && defined(__AVX512BW__)
#define RX_PHASE2_FULL_512(CVT, PACK)                                                        \
    if (n >= 64 && da0 >= -1 && da0 <= 1 && db0 >= -1 && db0 <= 1 && da1 >= -1 && da1 <= 1  \
        && db1 >= -1 && db1 <= 1) {                                                          \
        ptrdiff_t j;                                                                         \
        const __m512i v0 = _mm512_set1_epi16(w0), v1 = _mm512_set1_epi16(w1);               \
        const __m512i a0 = _mm512_set1_epi16(qa0), b0 = _mm512_set1_epi16(qb0);             \
        const __m512i a1 = _mm512_set1_epi16(qa1), b1 = _mm512_set1_epi16(qb1);             \
        const __m512i left = _mm512_set_epi16(30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,    \
                                              19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8,  \
                                              7, 6, 5, 4, 3, 2, 1, 0, 0);                    \
        const __m512i right = _mm512_set_epi16(31, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,  \
                                               21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,   \
                                               10, 9, 8, 7, 6, 5, 4, 3, 2, 1);               \
        for (j = 0; j < n; j += 32) {                                                        \
            __m512i c, m, p, e, o;                                                           \
            if (j + 32 > n)                                                                  \
                j = n - 32;           /* the last outputs again, overlapping: same values */ \
            c = RX_ROWV512(CVT, 0);                                                          \
            m = j == 0 ? _mm512_permutexvar_epi16(left, c) : RX_ROWV512(CVT, -1);            \
            p = j + 32 == n ? _mm512_permutexvar_epi16(right, c) : RX_ROWV512(CVT, 1);       \
            e = _mm512_add_epi16(                                                            \
                _mm512_mullo_epi16(a0, da0 < 0 ? m : da0 > 0 ? p : c),                       \
                _mm512_mullo_epi16(b0, db0 < 0 ? m : db0 > 0 ? p : c));                      \
            o = _mm512_add_epi16(                                                            \
                _mm512_mullo_epi16(a1, da1 < 0 ? m : da1 > 0 ? p : c),                       \
                _mm512_mullo_epi16(b1, db1 < 0 ? m : db1 > 0 ? p : c));                      \
            e = rx_round16_512(e, shift, away);                                              \
            o = rx_round16_512(o, shift, away);                                              \
            _mm512_storeu_si512((void *)(out + 2 * j), PACK(_mm512_unpacklo_epi16(e, o),     \
                                                            _mm512_unpackhi_epi16(e, o)));   \
        }                                                                                    \
        return 1;                                                                            \
    }
#else
#define RX_PHASE2_FULL_512(CVT, PACK)
#endif
RX_PHASE2_FULL(uint8_t, rx_phase2_full_u8, _mm512_cvtepu8_epi16, _mm512_packus_epi16)
RX_PHASE2_FULL(int8_t, rx_phase2_full_i8, _mm512_cvtepi8_epi16, _mm512_packs_epi16)
#undef RX_PHASE2_FULL
#undef RX_PHASE2_FULL_512

RX_PHASE2_ROWS(uint8_t, rx_phase2_rows_u8, 0, _mm256_cvtepu8_epi16, _mm512_cvtepu8_epi16,
               _mm256_packus_epi16, _mm512_packus_epi16)
RX_PHASE2_ROWS(int8_t, rx_phase2_rows_i8, 1, _mm256_cvtepi8_epi16, _mm512_cvtepi8_epi16,
               _mm256_packs_epi16, _mm512_packs_epi16)
#undef RX_PHASE2_ROWS
#undef RX_PHASE2_ROWS_512
#undef RX_PHASE2_ROWS_256
#undef RX_ROWV512
#undef RX_ROWV256

/* Two rows of 8 (AVX2) or 16 (AVX-512) float32 blends of bfloat16 values to bfloat16,
 * rounded to nearest even, zipped: e in the low halves of the 32-bit lanes, o in the high
 * (o's rounded value left in place by a word blend). The rounding alone, without
 * rx_store_bf16's NaN rule: a NaN among blends of bfloat16 values is quiet and its low 16
 * bits are zero (an input's payload, or the default NaN), so the rounding adds at most 0x8000
 * to them, no carry, and keeps the bits the NaN rule gives. */
#define RX_BF16_PAIR(NAME, VF, VI, P, BITS, ZIP)                                            \
    static inline VI NAME(VF e, VF o)                                                       \
    {                                                                                       \
        const VI bias = P##_set1_epi32(0x7FFF), one = P##_set1_epi32(1);                    \
        VI ue = P##_castps_si##BITS(e), uo = P##_castps_si##BITS(o);                        \
        VI re = P##_srli_epi32(P##_add_epi32(P##_add_epi32(ue, bias),                       \
                                             P##_and_si##BITS(P##_srli_epi32(ue, 16), one)), \
                               16);                                                         \
        VI ro = P##_add_epi32(P##_add_epi32(uo, bias),                                      \
                              P##_and_si##BITS(P##_srli_epi32(uo, 16), one));               \
        return ZIP;                                                                         \
    }

/* Output o of a dense row of k taps, the scalar form of rx_dense2/4/8_f32 (their blocks whose
 * taps are not adjacent, and their tails): (...((w0 t[i0] + w1 t[i1]) + w2 t[i2]) ...) +
 * w(k-1) t[i(k-1)], _row_dense's order. k is a constant at every call (the loop unrolls). */
static inline float rx_dense_k_1(const float *tmp, const int64_t *idx, const float *w,
                                 ptrdiff_t o, int k)
{
    const int64_t *iq = idx + k * o;
    const float *wq = w + k * o;
    float a = wq[0] * tmp[iq[0]];
    int t;
    for (t = 1; t < k; t++)
        a = a + wq[t] * tmp[iq[t]];
    return a;
}

/* The float32 pairs (tmp[at[l]], tmp[at[l] + 1]) of a block of outputs (lanes 2l, 2l + 1),
 * for rx_dense2_f32 and rx_dense4_f32: where every at[l] - a0 lies in [0, span] (at[0] == a0,
 * span: the block's last first tap's distance from it, small: the taps close together, as in
 * a resize by a factor below about 2), one masked load of the elements a0 ... a0 + span + last
 * (only those: they lie between the block's taps, so nothing outside the row is read) and one
 * permutation per pair; the caller gathers otherwise. The same elements either way, without
 * the gather, which costs tens of cycles on CPUs with the Gather Data Sampling mitigation. */
#if defined(__AVX512F__)
static inline int rx_window_fits8(__m512i rel, int64_t span)
{
    return span >= 0 && !_mm512_cmpgt_epu64_mask(rel, _mm512_set1_epi64(span));
}

static inline __m512 rx_window16_ps(const float *p, int64_t count)      /* count <= 16 */
{
    return _mm512_maskz_loadu_ps((__mmask16)((1u << count) - 1u), p);
}

static inline __m512 rx_pick_pairs16_ps(__m512 win, __m512i rel)
{
    /* lanes 2l, 2l + 1: rel[l], rel[l] + 1 (the low and high halves of each 64-bit lane) */
    const __m512i at = _mm512_or_si512(
        rel, _mm512_slli_epi64(_mm512_add_epi64(rel, _mm512_set1_epi64(1)), 32));
    return _mm512_permutexvar_ps(at, win);
}
#elif defined(RX_AVX2)
static inline int rx_window_fits4(__m256i rel, int64_t span)
{
    const __m256i out = _mm256_or_si256(_mm256_cmpgt_epi64(rel, _mm256_set1_epi64x(span)),
                                        _mm256_cmpgt_epi64(_mm256_setzero_si256(), rel));
    return span >= 0 && _mm256_testz_si256(out, out);
}

static inline __m256 rx_window8_ps(const float *p, int64_t count)       /* count <= 8 */
{
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count),
                                         _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_maskload_ps(p, m);
}

static inline __m256 rx_pick_pairs8_ps(__m256 win, __m256i rel)
{
    const __m256i at = _mm256_or_si256(
        rel, _mm256_slli_epi64(_mm256_add_epi64(rel, _mm256_set1_epi64x(1)), 32));
    return _mm256_permutevar8x32_ps(win, at);
}
#endif

/* Dense rows of two taps, float32 (_row_dense's k == 2): out[o] = w[2o] tmp[idx[2o]] +
 * w[2o + 1] tmp[idx[2o + 1]], o < n. Where the two taps of a block of outputs (8 at AVX-512,
 * 4 at AVX2) are adjacent elements (idx[2o + 1] == idx[2o] + 1: linear inside the row), each
 * output's pair is one 64-bit lane (picked from a window of the row, rx_pick_pairs16_ps, or
 * gathered where the block's taps spread wider), multiplied by its two weights as they lie
 * in w and summed tap 0 + tap 1: the scalar loop's products and sums in its order, so the
 * same bits.
 * Other blocks (a clamped end, a padding tap) take the scalar loop. The pairs read are the
 * taps themselves (idx[2o] and idx[2o] + 1 == idx[2o + 1]): nothing outside the row. */
static inline void rx_dense2_f32(const float *tmp, float *out, ptrdiff_t n, const int64_t *idx,
                                 const float *w)
{
    ptrdiff_t o = 0;
#if defined(__AVX512F__)
    {
        ptrdiff_t q;
        const __m512i one = _mm512_set1_epi64(1);
        const __m512i ev = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
        const __m512i od = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
        const __m512i pick = _mm512_set_epi32(15, 13, 11, 9, 7, 5, 3, 1, 14, 12, 10, 8, 6, 4, 2, 0);
        for (; o + 8 <= n; o += 8) {
            __m512i a = _mm512_loadu_si512((const void *)(idx + 2 * o));
            __m512i b = _mm512_loadu_si512((const void *)(idx + 2 * o + 8));
            __m512i first = _mm512_permutex2var_epi64(a, ev, b);
            __m512i second = _mm512_permutex2var_epi64(a, od, b);
            __m512 x, p;
            if (_mm512_cmpneq_epi64_mask(_mm512_add_epi64(first, one), second)) {
                for (q = o; q < o + 8; q++)
                    out[q] = rx_dense_k_1(tmp, idx, w, q, 2);
                continue;
            }
            {
                const int64_t a0 = idx[2 * o], span = idx[2 * o + 14] - a0;
                const __m512i rel = _mm512_sub_epi64(first, _mm512_set1_epi64(a0));
                if (span <= 14 && rx_window_fits8(rel, span))
                    x = rx_pick_pairs16_ps(rx_window16_ps(tmp + a0, span + 2), rel);
                else
                    x = _mm512_castpd_ps(_mm512_i64gather_pd(first, (const void *)tmp, 4));
            }
            p = _mm512_mul_ps(_mm512_loadu_ps(w + 2 * o), x);
            /* even lanes: tap 0's product + tap 1's */
            p = _mm512_add_ps(p, _mm512_permute_ps(p, 0xB1));
            _mm256_storeu_ps(out + o, _mm512_castps512_ps256(_mm512_permutexvar_ps(pick, p)));
        }
    }
#elif defined(RX_AVX2)
    {
        ptrdiff_t q;
        const __m256i one = _mm256_set1_epi64x(1);
        const __m256i pick = _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0);
        for (; o + 4 <= n; o += 4) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(idx + 2 * o));
            __m256i b = _mm256_loadu_si256((const __m256i *)(idx + 2 * o + 4));
            /* unpack within 128-bit lanes: outputs (0, 2, 1, 3); put back in order */
            __m256i first = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), 0xD8);
            __m256i second = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(a, b), 0xD8);
            __m256 x, p;
            if (_mm256_movemask_epi8(_mm256_cmpeq_epi64(_mm256_add_epi64(first, one), second))
                    != -1) {
                for (q = o; q < o + 4; q++)
                    out[q] = rx_dense_k_1(tmp, idx, w, q, 2);
                continue;
            }
            {
                const int64_t a0 = idx[2 * o], span = idx[2 * o + 6] - a0;
                const __m256i rel = _mm256_sub_epi64(first, _mm256_set1_epi64x(a0));
                if (span <= 6 && rx_window_fits4(rel, span))
                    x = rx_pick_pairs8_ps(rx_window8_ps(tmp + a0, span + 2), rel);
                else
                    x = _mm256_castpd_ps(_mm256_i64gather_pd((const double *)tmp, first, 4));
            }
            p = _mm256_mul_ps(_mm256_loadu_ps(w + 2 * o), x);
            p = _mm256_add_ps(p, _mm256_permute_ps(p, 0xB1));
            _mm_storeu_ps(out + o, _mm256_castps256_ps128(_mm256_permutevar8x32_ps(p, pick)));
        }
    }
#endif
    for (; o < n; o++)
        out[o] = rx_dense_k_1(tmp, idx, w, o, 2);
}

/* rx_dense2_f32's blocks of four outputs laid out once for the rows of a pass (n outputs,
 * rows of n_in elements; AVX2, and blocks of eight at AVX-512), where each output's two taps are adjacent
 * elements: per block RX_D2_BLOCK int32, first its form: RX_D2_WINDOW where an 8-element
 * window of the row from a0 = t[1] holds the four pairs, output q's at its places t[2 + 2q]
 * and t[3 + 2q]; RX_D2_PAIRS where the pairs lie wider apart, their first taps in t[1..5);
 * RX_D2_NONE where the taps are not such pairs (a clamped end). Blocks past n / 4 whole
 * ones are not laid out. Returns 0 where nothing is (another level). */
#define RX_D2_BLOCK 10
#define RX_D2_NONE 0
#define RX_D2_WINDOW 1
#define RX_D2_PAIRS 2
static inline int rx_dense2_f32_prep(ptrdiff_t n, const int64_t *idx, int64_t n_in,
                                     int32_t *tab)
{
#if defined(__AVX512F__)
    /* AVX-512: blocks of eight outputs, 2 RX_D2_BLOCK int32 each: RX_D2_WINDOW where a
     * window of at most 32 elements from a0 = t[1] holds the eight pairs (t[2]: the masks of
     * its two loads of 16, bits 0-15 and 16-31: the elements up to the last pair's second;
     * t[3 + 2q], t[4 + 2q]: output q's places),
     * RX_D2_PAIRS (first taps in t[1..9)) or RX_D2_NONE, as below */
    ptrdiff_t b, q;
    for (b = 0; 8 * b + 8 <= n; b++) {
        const int64_t *ix = idx + 16 * b, a0 = ix[0];
        int32_t *t = tab + 2 * RX_D2_BLOCK * b;
        int pairs = n_in <= INT32_MAX, window = a0 >= 0;
        for (q = 0; q < 8; q++) {
            pairs &= ix[2 * q + 1] == ix[2 * q] + 1 && ix[2 * q] >= 0 && ix[2 * q] + 1 < n_in;
            window &= ix[2 * q] - a0 >= 0 && ix[2 * q] - a0 <= 30;
        }
        for (q = 0; q < 2 * RX_D2_BLOCK; q++)
            t[q] = 0;
        t[0] = !pairs ? RX_D2_NONE : window ? RX_D2_WINDOW : RX_D2_PAIRS;
        if (t[0] == RX_D2_WINDOW) {
            int32_t cnt = 0;
            t[1] = (int32_t)a0;
            for (q = 0; q < 8; q++) {
                t[3 + 2 * q] = (int32_t)(ix[2 * q] - a0);
                t[4 + 2 * q] = (int32_t)(ix[2 * q] - a0 + 1);
                if (t[4 + 2 * q] >= cnt)
                    cnt = t[4 + 2 * q] + 1;
            }
            /* the two loads' masks: elements [0, cnt) of the window */
            t[2] = (int32_t)((cnt >= 16 ? 0xFFFFu : (1u << cnt) - 1u)
                             | ((cnt > 16 ? (1u << (cnt - 16)) - 1u : 0u) << 16));
        } else if (t[0] == RX_D2_PAIRS) {
            for (q = 0; q < 8; q++)
                t[1 + q] = (int32_t)ix[2 * q];
        }
    }
    return 1;
#elif defined(RX_AVX2)
    ptrdiff_t b, q;
    for (b = 0; 4 * b + 4 <= n; b++) {
        const int64_t *ix = idx + 8 * b, a0 = ix[0];
        int32_t *t = tab + RX_D2_BLOCK * b;
        int pairs = n_in <= INT32_MAX, window = a0 >= 0 && a0 + 8 <= n_in;
        for (q = 0; q < 4; q++) {
            pairs &= ix[2 * q + 1] == ix[2 * q] + 1 && ix[2 * q] >= 0 && ix[2 * q] + 1 < n_in;
            window &= ix[2 * q] - a0 >= 0 && ix[2 * q] - a0 <= 6;
        }
        for (q = 0; q < RX_D2_BLOCK; q++)
            t[q] = 0;
        t[0] = !pairs ? RX_D2_NONE : window ? RX_D2_WINDOW : RX_D2_PAIRS;
        if (t[0] == RX_D2_WINDOW) {
            t[1] = (int32_t)a0;
            for (q = 0; q < 4; q++) {
                t[2 + 2 * q] = (int32_t)(ix[2 * q] - a0);
                t[3 + 2 * q] = (int32_t)(ix[2 * q] - a0 + 1);
            }
        } else if (t[0] == RX_D2_PAIRS) {
            for (q = 0; q < 4; q++)
                t[1 + q] = (int32_t)ix[2 * q];
        }
    }
    return 1;
#else
    (void)n; (void)idx; (void)n_in; (void)tab;
    return 0;
#endif
}

/* Two adjacent floats as the 64 bits of a double (memcpy: p is only float-aligned) */
static inline double rx_load_f64_bits(const float *p)
{
    double d;
    memcpy(&d, p, sizeof d);
    return d;
}

/* The pairs of a block laid out by rx_dense2_f32_prep (t: the block's int32; eight outputs
 * at AVX-512, four at AVX2) as the lanes 2q, 2q + 1 of one vector: 1, or 0 where the block is
 * not laid out (RX_D2_NONE). */
#if defined(__AVX512F__)
static RX_ALWAYS_INLINE int rx_d2_pairs(const float *tmp, const int32_t *t, __m512 *x)
{
    if (t[0] == RX_D2_WINDOW) {
        /* the window's elements (only those: they lie between the block's taps) as two
         * masked loads of 16, the sixteen lanes picked from both by one permutation */
        const uint32_t m = (uint32_t)t[2];
        const __m512i at = _mm512_loadu_si512((const void *)(t + 3));
        if (m >> 16)
            *x = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps((__mmask16)m, tmp + t[1]), at,
                                        _mm512_maskz_loadu_ps((__mmask16)(m >> 16),
                                                              tmp + t[1] + 16));
        else
            *x = _mm512_permutexvar_ps(at, _mm512_maskz_loadu_ps((__mmask16)m, tmp + t[1]));
        return 1;
    }
    if (t[0] == RX_D2_PAIRS) {
        /* each pair one 64-bit load */
        const __m256d a = _mm256_setr_pd(
            rx_load_f64_bits(tmp + t[1]), rx_load_f64_bits(tmp + t[2]),
            rx_load_f64_bits(tmp + t[3]), rx_load_f64_bits(tmp + t[4]));
        const __m256d b = _mm256_setr_pd(
            rx_load_f64_bits(tmp + t[5]), rx_load_f64_bits(tmp + t[6]),
            rx_load_f64_bits(tmp + t[7]), rx_load_f64_bits(tmp + t[8]));
        *x = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(a), b, 1));
        return 1;
    }
    return 0;
}

/* lanes 0, 2, 4, ... and 1, 3, 5, ... of p (tap 0's and tap 1's products) in output order */
static RX_ALWAYS_INLINE __m256 rx_d2_even(__m512 p)
{
    return _mm512_castps512_ps256(_mm512_permutexvar_ps(
        _mm512_set_epi32(15, 13, 11, 9, 7, 5, 3, 1, 14, 12, 10, 8, 6, 4, 2, 0), p));
}

static RX_ALWAYS_INLINE __m256 rx_d2_odd(__m512 p)
{
    return _mm512_castps512_ps256(_mm512_permutexvar_ps(
        _mm512_set_epi32(14, 12, 10, 8, 6, 4, 2, 0, 15, 13, 11, 9, 7, 5, 3, 1), p));
}
#elif defined(RX_AVX2)
static RX_ALWAYS_INLINE int rx_d2_pairs(const float *tmp, const int32_t *t, __m256 *x)
{
    if (t[0] == RX_D2_WINDOW) {
        *x = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tmp + t[1]),
                                      _mm256_loadu_si256((const __m256i *)(t + 2)));
        return 1;
    }
    if (t[0] == RX_D2_PAIRS) {
        /* each pair one 64-bit load */
        *x = _mm256_castpd_ps(_mm256_setr_pd(
            rx_load_f64_bits(tmp + t[1]), rx_load_f64_bits(tmp + t[2]),
            rx_load_f64_bits(tmp + t[3]), rx_load_f64_bits(tmp + t[4])));
        return 1;
    }
    return 0;
}

static RX_ALWAYS_INLINE __m128 rx_d2_even(__m256 p)
{
    return _mm256_castps256_ps128(_mm256_permutevar8x32_ps(
        p, _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0)));
}

static RX_ALWAYS_INLINE __m128 rx_d2_odd(__m256 p)
{
    return _mm256_castps256_ps128(_mm256_permutevar8x32_ps(
        p, _mm256_set_epi32(6, 4, 2, 0, 7, 5, 3, 1)));
}
#endif

/* rx_dense2_f32 over blocks laid out by rx_dense2_f32_prep: a laid-out block's four pairs
 * (eight at AVX-512, from a window of up to 32 elements: reductions to about a quarter)
 * picked from its window by its places (one permute) or loaded 64 bits each, multiplied by
 * the weights as they lie in w and summed tap 0 + tap 1, as rx_dense2_f32; the other blocks
 * and the last outputs by rx_dense2_f32 itself. The same products and sums, so the same
 * bits. */
static inline void rx_dense2_f32_pre(const float *tmp, float *out, ptrdiff_t n,
                                     const int64_t *idx, const float *w, const int32_t *tab)
{
    ptrdiff_t o = 0;
#if defined(__AVX512F__)
    for (; o + 8 <= n; o += 8) {
        __m512 x, p;
        if (!rx_d2_pairs(tmp, tab + 2 * RX_D2_BLOCK * (o / 8), &x)) {
            rx_dense2_f32(tmp, out + o, 8, idx + 2 * o, w + 2 * o);
            continue;
        }
        p = _mm512_mul_ps(_mm512_loadu_ps(w + 2 * o), x);
        /* even lanes: tap 0's product + tap 1's */
        p = _mm512_add_ps(p, _mm512_permute_ps(p, 0xB1));
        _mm256_storeu_ps(out + o, rx_d2_even(p));
    }
#elif defined(RX_AVX2)
    for (; o + 4 <= n; o += 4) {
        __m256 x, p;
        if (!rx_d2_pairs(tmp, tab + RX_D2_BLOCK * (o / 4), &x)) {
            rx_dense2_f32(tmp, out + o, 4, idx + 2 * o, w + 2 * o);
            continue;
        }
        p = _mm256_mul_ps(_mm256_loadu_ps(w + 2 * o), x);
        p = _mm256_add_ps(p, _mm256_permute_ps(p, 0xB1));
        _mm_storeu_ps(out + o, rx_d2_even(p));
    }
#else
    (void)tab;
#endif
    if (o < n)
        rx_dense2_f32(tmp, out + o, n - o, idx + 2 * o, w + 2 * o);
}

/* One (z, y) tap pair of a product pass's row of single float32 elements (_prodpass._row,
 * inner 1) over a W table of two taps on every output (idx/w dense, laid out by
 * rx_dense2_f32_prep in tab, or NULL): output o's terms c_t x[idx[2o + t]], t = 0, 1, with the
 * coefficient c_t = (w_t a) b (where 0), (a w_t) b (where 1) or (a b) w_t (where 2), summed
 * into buf[o]: c_0 x_0 + c_1 x_1 for the first pair (first), (buf[o] + c_0 x_0) + c_1 x_1
 * after it; each product and sum rounded as the scalar loop rounds it, so the same bits. */
static RX_ALWAYS_INLINE float rx_prod2_coef(int where, float wt, float a, float b)
{
    return where == 0 ? (wt * a) * b : where == 1 ? (a * wt) * b : (a * b) * wt;
}

/* rx_prod2_f32's outputs [o, e) one by one */
static inline void rx_prod2_f32_1(const float *row, float *buf, ptrdiff_t o, ptrdiff_t e,
                                  const int64_t *idx, const float *w, float a, float b,
                                  int where, int first)
{
    for (; o < e; o++) {
        float t = rx_prod2_coef(where, w[2 * o], a, b) * row[idx[2 * o]];
        if (!first)
            t = buf[o] + t;
        buf[o] = t + rx_prod2_coef(where, w[2 * o + 1], a, b) * row[idx[2 * o + 1]];
    }
}

static inline void rx_prod2_f32(const float *row, float *buf, ptrdiff_t n, const int64_t *idx,
                                const float *w, float a, float b, int where, int first,
                                const int32_t *tab)
{
    ptrdiff_t o = 0;
#if defined(RX_AVX2)
    if (tab != NULL) {
#if defined(__AVX512F__)
        const __m512 va = _mm512_set1_ps(a), vb = _mm512_set1_ps(b);
        const __m512 ab = _mm512_mul_ps(va, vb);
        for (; o + 8 <= n; o += 8) {
            __m512 x, c, wt;
            __m256 s;
            if (!rx_d2_pairs(row, tab + 2 * RX_D2_BLOCK * (o / 8), &x)) {
                rx_prod2_f32_1(row, buf, o, o + 8, idx, w, a, b, where, first);
                continue;
            }
            wt = _mm512_loadu_ps(w + 2 * o);
            c = where == 0 ? _mm512_mul_ps(_mm512_mul_ps(wt, va), vb)
              : where == 1 ? _mm512_mul_ps(_mm512_mul_ps(va, wt), vb) : _mm512_mul_ps(ab, wt);
            x = _mm512_mul_ps(c, x);
            s = first ? rx_d2_even(x) : _mm256_add_ps(_mm256_loadu_ps(buf + o), rx_d2_even(x));
            _mm256_storeu_ps(buf + o, _mm256_add_ps(s, rx_d2_odd(x)));
        }
#else
        const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
        const __m256 ab = _mm256_mul_ps(va, vb);
        for (; o + 4 <= n; o += 4) {
            __m256 x, c, wt;
            __m128 s;
            if (!rx_d2_pairs(row, tab + RX_D2_BLOCK * (o / 4), &x)) {
                rx_prod2_f32_1(row, buf, o, o + 4, idx, w, a, b, where, first);
                continue;
            }
            wt = _mm256_loadu_ps(w + 2 * o);
            c = where == 0 ? _mm256_mul_ps(_mm256_mul_ps(wt, va), vb)
              : where == 1 ? _mm256_mul_ps(_mm256_mul_ps(va, wt), vb) : _mm256_mul_ps(ab, wt);
            x = _mm256_mul_ps(c, x);
            s = first ? rx_d2_even(x) : _mm_add_ps(_mm_loadu_ps(buf + o), rx_d2_even(x));
            _mm_storeu_ps(buf + o, _mm_add_ps(s, rx_d2_odd(x)));
        }
#endif
    }
#else
    (void)tab;
#endif
    rx_prod2_f32_1(row, buf, o, n, idx, w, a, b, where, first);
}

/* Dense rows of four taps, float32 (_row_dense's k == 4: cubic and the like): out[o] =
 * ((w0 t[i0] + w1 t[i1]) + w2 t[i2]) + w3 t[i3] for the four taps of output o, o < n. Where
 * all four taps of each of a block of 8 outputs are adjacent elements (i0 + 1, + 2, + 3: rows
 * inside the input), each output's taps are two 64-bit gather lanes (pairs i0, i0 + 1 and
 * i0 + 2, i0 + 3; from one window of the row where the block's taps lie within 16 elements,
 * else gathered), weighed by its weights as they lie in w, summed in the scalar loop's order:
 * the same bits. Other blocks take the scalar loop; AVX-512 only (float64 rows stay scalar:
 * a gather per tap was no faster there). */
static inline void rx_dense4_f32(const float *tmp, float *out, ptrdiff_t n, const int64_t *idx,
                                 const float *w)
{
    ptrdiff_t o = 0;
#if defined(__AVX512F__)
    {
        ptrdiff_t q;
        const __m512i i0 = _mm512_set_epi64(0, 0, 0, 0, 12, 8, 4, 0);
        const __m512i i1 = _mm512_set_epi64(0, 0, 0, 0, 13, 9, 5, 1);
        const __m512i i2 = _mm512_set_epi64(0, 0, 0, 0, 14, 10, 6, 2);
        const __m512i i3 = _mm512_set_epi64(0, 0, 0, 0, 15, 11, 7, 3);
        const __m512i ev = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
        const __m512i od = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
        const __m512i pick = _mm512_set_epi32(15, 13, 11, 9, 7, 5, 3, 1, 14, 12, 10, 8, 6, 4, 2, 0);
        const __m512i one = _mm512_set1_epi64(1), two = _mm512_set1_epi64(2);
        const __m512i three = _mm512_set1_epi64(3);
        for (; o + 8 <= n; o += 8) {
            const int64_t *ix = idx + 4 * o;
            __m512i a = _mm512_loadu_si512((const void *)ix);
            __m512i b = _mm512_loadu_si512((const void *)(ix + 8));
            __m512i c = _mm512_loadu_si512((const void *)(ix + 16));
            __m512i d = _mm512_loadu_si512((const void *)(ix + 24));
#define RX_TAP(SEL) _mm512_inserti64x4(_mm512_permutex2var_epi64(a, SEL, b), \
                                       _mm512_castsi512_si256(_mm512_permutex2var_epi64(c, SEL, d)), 1)
            __m512i t0 = RX_TAP(i0), t1 = RX_TAP(i1), t2 = RX_TAP(i2), t3 = RX_TAP(i3);
#undef RX_TAP
            __m512d wa, wb, w0 = _mm512_loadu_pd((const double *)(w + 4 * o)),
                    w1 = _mm512_loadu_pd((const double *)(w + 4 * o + 16));
            __m512 pa, pb, s;
            if (_mm512_cmpneq_epi64_mask(_mm512_add_epi64(t0, one), t1)
                    | _mm512_cmpneq_epi64_mask(_mm512_add_epi64(t0, two), t2)
                    | _mm512_cmpneq_epi64_mask(_mm512_add_epi64(t0, three), t3)) {
                for (q = o; q < o + 8; q++)
                    out[q] = rx_dense_k_1(tmp, idx, w, q, 4);
                continue;
            }
            /* each output's weights as two 64-bit pairs: (w0, w1) and (w2, w3) */
            wa = _mm512_permutex2var_pd(w0, ev, w1);
            wb = _mm512_permutex2var_pd(w0, od, w1);
            {
                const int64_t a0 = ix[0], span = ix[28] - a0;
                const __m512i rel = _mm512_sub_epi64(t0, _mm512_set1_epi64(a0));
                __m512 xa, xb;
                if (span <= 12 && rx_window_fits8(rel, span)) {
                    const __m512 win = rx_window16_ps(tmp + a0, span + 4);
                    xa = rx_pick_pairs16_ps(win, rel);
                    xb = rx_pick_pairs16_ps(win, _mm512_add_epi64(rel, two));
                } else {
                    xa = _mm512_castpd_ps(_mm512_i64gather_pd(t0, (const void *)tmp, 4));
                    xb = _mm512_castpd_ps(_mm512_i64gather_pd(t2, (const void *)tmp, 4));
                }
                pa = _mm512_mul_ps(_mm512_castpd_ps(wa), xa);
                pb = _mm512_mul_ps(_mm512_castpd_ps(wb), xb);
            }
            /* even lanes: ((p0 + p1) + p2) + p3 */
            s = _mm512_add_ps(pa, _mm512_permute_ps(pa, 0xB1));
            s = _mm512_add_ps(s, pb);
            s = _mm512_add_ps(s, _mm512_permute_ps(pb, 0xB1));
            _mm256_storeu_ps(out + o, _mm512_castps512_ps256(_mm512_permutexvar_ps(pick, s)));
        }
    }
#endif
    for (; o < n; o++)
        out[o] = rx_dense_k_1(tmp, idx, w, o, 4);
}

/* rx_dense4_f32's blocks of eight outputs laid out once for the rows of a pass (n outputs,
 * rows of n_in elements; AVX2 and AVX-512, where it beats rx_dense4_f32's gathers and
 * permutations: 2.6x on a 2.7x float32 cubic reduction, Zen 4): per block 9 int32, 1 where each output's
 * four taps are four adjacent elements inside the row (else 0), then the eight outputs'
 * first taps. Blocks past n / 8 whole ones are not laid out. Returns 0 where nothing is
 * (another level). The table fits rx_dense2_f32_prep's (n / 4 + 1) RX_D2_BLOCK int32. */
static inline int rx_dense4_f32_prep(ptrdiff_t n, const int64_t *idx, int64_t n_in,
                                     int32_t *tab)
{
#if defined(RX_AVX2)
    ptrdiff_t b, q;
    for (b = 0; 8 * b + 8 <= n; b++) {
        int32_t *t = tab + 9 * b;
        int ok = n_in <= INT32_MAX;
        for (q = 0; q < 8; q++) {
            const int64_t *ix = idx + 4 * (8 * b + q);
            ok &= ix[0] >= 0 && ix[0] + 3 < n_in && ix[1] == ix[0] + 1 && ix[2] == ix[0] + 2
                  && ix[3] == ix[0] + 3;
        }
        t[0] = ok;
        for (q = 0; q < 8; q++)
            t[1 + q] = ok ? (int32_t)idx[4 * (8 * b + q)] : 0;
    }
    return 1;
#else
    (void)n; (void)idx; (void)n_in; (void)tab;
    return 0;
#endif
}

/* rx_dense4_f32 over blocks laid out by rx_dense4_f32_prep: a laid-out block's eight outputs
 * four taps each in one 128-bit load, times their weights as they lie in w (outputs q and
 * q + 4 in one vector), transposed so that each vector holds one tap of the eight, summed
 * ((p0 + p1) + p2) + p3: the scalar loop's products and sums, so the same bits; the other
 * blocks and the last outputs by rx_dense4_f32. */
static inline void rx_dense4_f32_pre(const float *tmp, float *out, ptrdiff_t n,
                                     const int64_t *idx, const float *w, const int32_t *tab)
{
    ptrdiff_t o = 0;
#if defined(RX_AVX2)
    for (; o + 8 <= n; o += 8) {
        const int32_t *t = tab + 9 * (o / 8);
        __m256 r[4], a, b, c, d;
        int q;
        if (!t[0]) {
            rx_dense4_f32(tmp, out + o, 8, idx + 4 * o, w + 4 * o);
            continue;
        }
        for (q = 0; q < 4; q++)
            r[q] = _mm256_mul_ps(
                _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(w + 4 * (o + q))),
                                     _mm_loadu_ps(w + 4 * (o + q + 4)), 1),
                _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(tmp + t[1 + q])),
                                     _mm_loadu_ps(tmp + t[5 + q]), 1));
        /* per 128-bit lane a 4 x 4 transpose: r[q] (output q's four products) to tap rows */
        a = _mm256_unpacklo_ps(r[0], r[1]);
        b = _mm256_unpackhi_ps(r[0], r[1]);
        c = _mm256_unpacklo_ps(r[2], r[3]);
        d = _mm256_unpackhi_ps(r[2], r[3]);
        _mm256_storeu_ps(out + o, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(
            _mm256_shuffle_ps(a, c, 0x44), _mm256_shuffle_ps(a, c, 0xEE)),
            _mm256_shuffle_ps(b, d, 0x44)), _mm256_shuffle_ps(b, d, 0xEE)));
    }
#else
    (void)tab;
#endif
    if (o < n)
        rx_dense4_f32(tmp, out + o, n - o, idx + 4 * o, w + 4 * o);
}

/* The blocks of a float32 single-element dense table of k = 2 or 4 taps per output laid out
 * once for all the rows of a pass (rx_dense2_f32_prep, rx_dense4_f32_prep), in memory of
 * their own that the caller frees, or NULL: another k, no memory, or a level without those
 * forms (the rows then run without the layout, the same bits). */
static inline int32_t *rx_dense_f32_layout(ptrdiff_t n, const int64_t *idx, int64_t n_in,
                                           ptrdiff_t k)
{
    int32_t *tab;
    if (k != 2 && k != 4)
        return NULL;
    /* rx_dense4_f32_prep's 9 int32 per 8 outputs fit the pairs' RX_D2_BLOCK per 4 */
    tab = (int32_t *)malloc(((size_t)n / 4 + 1) * RX_D2_BLOCK * sizeof(int32_t));
    if (tab != NULL && !(k == 2 ? rx_dense2_f32_prep(n, idx, n_in, tab)
                                : rx_dense4_f32_prep(n, idx, n_in, tab))) {
        free(tab);
        tab = NULL;
    }
    return tab;
}

/* Dense rows of eight taps, float32 (_row_dense's k == 8, sequential order: Lanczos-4 and the
 * like): out[o] = (...((w0 t[i0] + w1 t[i1]) + w2 t[i2]) ... ) + w7 t[i7], o < n. Where all
 * eight taps of each of a block of 8 outputs are adjacent elements (i0 + 1, ..., i0 + 7: rows
 * inside the input), each output's eight products are one vector (its taps loaded as they lie
 * in the row, times its weights as they lie in w); the 8 x 8 block is transposed, so that
 * vector t holds tap t of the 8 outputs, and summed t = 0, 1, ..., 7: the scalar loop's
 * products and sums in its order, the same bits. Other blocks take the scalar loop; AVX-512
 * only (its masks check the taps), as rx_dense4_f32. */
static inline void rx_dense8_f32(const float *tmp, float *out, ptrdiff_t n, const int64_t *idx,
                                 const float *w)
{
    ptrdiff_t o = 0;
#if defined(__AVX512F__)
    {
        ptrdiff_t q;
        const __m512i step = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
        for (; o + 8 <= n; o += 8) {
            const int64_t *ix = idx + 8 * o;
            const float *wx = w + 8 * o;
            __mmask8 bad = 0;
            __m256 r0, r1, r2, r3, r4, r5, r6, r7, t0, t1, t2, t3, t4, t5, t6, t7, s;
            for (q = 0; q < 8; q++)
                bad |= _mm512_cmpneq_epi64_mask(
                    _mm512_loadu_si512((const void *)(ix + 8 * q)),
                    _mm512_add_epi64(_mm512_set1_epi64(ix[8 * q]), step));
            if (bad) {
                for (q = o; q < o + 8; q++)
                    out[q] = rx_dense_k_1(tmp, idx, w, q, 8);
                continue;
            }
#define RX_P(Q) _mm256_mul_ps(_mm256_loadu_ps(wx + 8 * (Q)), _mm256_loadu_ps(tmp + ix[8 * (Q)]))
            r0 = RX_P(0); r1 = RX_P(1); r2 = RX_P(2); r3 = RX_P(3);
            r4 = RX_P(4); r5 = RX_P(5); r6 = RX_P(6); r7 = RX_P(7);
#undef RX_P
            /* transpose: r_q lane t -> vector t lane q */
            t0 = _mm256_unpacklo_ps(r0, r1); t1 = _mm256_unpackhi_ps(r0, r1);
            t2 = _mm256_unpacklo_ps(r2, r3); t3 = _mm256_unpackhi_ps(r2, r3);
            t4 = _mm256_unpacklo_ps(r4, r5); t5 = _mm256_unpackhi_ps(r4, r5);
            t6 = _mm256_unpacklo_ps(r6, r7); t7 = _mm256_unpackhi_ps(r6, r7);
            r0 = _mm256_shuffle_ps(t0, t2, 0x44); r1 = _mm256_shuffle_ps(t0, t2, 0xEE);
            r2 = _mm256_shuffle_ps(t1, t3, 0x44); r3 = _mm256_shuffle_ps(t1, t3, 0xEE);
            r4 = _mm256_shuffle_ps(t4, t6, 0x44); r5 = _mm256_shuffle_ps(t4, t6, 0xEE);
            r6 = _mm256_shuffle_ps(t5, t7, 0x44); r7 = _mm256_shuffle_ps(t5, t7, 0xEE);
            /* vector t = lanes t of (r0 r4), (r1 r5), ...: tap t of outputs 0-3, then 4-7 */
            s = _mm256_permute2f128_ps(r0, r4, 0x20);
            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r1, r5, 0x20));
            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r2, r6, 0x20));
            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r3, r7, 0x20));
            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r0, r4, 0x31));
            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r1, r5, 0x31));
            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r2, r6, 0x31));
            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r3, r7, 0x31));
            _mm256_storeu_ps(out + o, s);
        }
    }
#endif
    for (; o < n; o++)
        out[o] = rx_dense_k_1(tmp, idx, w, o, 8);
}

/* x2 of float32, bfloat16 or float16 (kind: RX_ROWS_F32, _BF16, _F16) single-element rows
 * straight from the two input rows of an output row, float32 arithmetic: v(i) = w0 x0[i] +
 * w1 x1[i] (the blended row, never stored: _row_outer's two products and sum), out[2j] =
 * wa0 v(j + da0) + wb0 v(j + db0), out[2j + 1] = wa1 v(j + da1) + wb1 v(j + db1)
 * (rx_phase2_f32's), 16-bit kinds rounded to nearest even (rx_store_bf16's and
 * rx_store_f16's rules), j < n. The same operations in the same order as the blend, the two
 * phase rows, the store and the zip, so the same bits, without the rows in between (loading
 * the stored row back at odd offsets stalls on store forwarding). x0 and x1 are read at
 * j + d for those four offsets only. float16 needs F16C (RX_AVX2 builds; the caller checks
 * RX_F16_ROWS). F16C converts like the scalar rules except that it quiets a signalling NaN,
 * on the way in or out; every value here is a product or a sum, which quiets it anyway
 * (x86 keeps the first NaN operand's payload, quieted), and a quiet NaN narrows to float16
 * by both as its top payload bits. */
#define RX_ROWS_F32 0
#define RX_ROWS_BF16 1
#define RX_ROWS_F16 2
#if defined(RX_AVX2)
#define RX_F16_ROWS 1
#else
#define RX_F16_ROWS 0
#endif
#if defined(RX_AVX2)
static inline __m256 rx_ld8_rows(const char *x, ptrdiff_t i, int kind)
{
    if (kind == RX_ROWS_F16)
        return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + 2 * i)));
    if (kind == RX_ROWS_BF16)
        return _mm256_castsi256_ps(_mm256_slli_epi32(
            _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(x + 2 * i))), 16));
    return _mm256_loadu_ps((const float *)x + i);
}
RX_BF16_PAIR(rx_bf16x8x2, __m256, __m256i, _mm256, 256, _mm256_blend_epi16(re, ro, 0xAA))
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__)
static inline __m512 rx_ld16_rows(const char *x, ptrdiff_t i, int kind)
{
    if (kind == RX_ROWS_F16)
        return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(x + 2 * i)));
    if (kind == RX_ROWS_BF16)
        return _mm512_castsi512_ps(_mm512_slli_epi32(
            _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(x + 2 * i))), 16));
    return _mm512_loadu_ps((const float *)x + i);
}
RX_BF16_PAIR(rx_bf16x16x2, __m512, __m512i, _mm512, 512,
             _mm512_mask_blend_epi16(0xAAAAAAAAu, re, ro))
#endif
#undef RX_BF16_PAIR
/* The same zip of two float16 rows, F16C's rounding (nearest even). */
#define RX_F16_PAIR(NAME, VF, VI, P, BITS)                                                  \
    static inline VI NAME(VF e, VF o)                                                       \
    {                                                                                       \
        return P##_or_si##BITS(P##_cvtepu16_epi32(P##_cvtps_ph(e, RX_F16_RN)),              \
                               P##_slli_epi32(P##_cvtepu16_epi32(P##_cvtps_ph(o, RX_F16_RN)),  \
                                              16));                                         \
    }
#define RX_F16_RN (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#if defined(RX_AVX2)
RX_F16_PAIR(rx_f16x8x2, __m256, __m256i, _mm256, 256)
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__)
RX_F16_PAIR(rx_f16x16x2, __m512, __m512i, _mm512, 512)
#endif
#undef RX_F16_PAIR
#undef RX_F16_RN
static inline uint16_t rx_f32_to_f16_scalar(uint32_t x);
static inline float rx_f16_to_f32_scalar(uint32_t h);
static inline float rx_ld1_rows(const char *x, ptrdiff_t i, int kind)
{
    float f;
    if (kind == RX_ROWS_F16)
        return rx_f16_to_f32_scalar(((const uint16_t *)x)[i]);
    if (kind == RX_ROWS_BF16) {
        uint32_t u = (uint32_t)((const uint16_t *)x)[i] << 16;
        memcpy(&f, &u, 4);
        return f;
    }
    return ((const float *)x)[i];
}
static inline uint16_t rx_bf16_1(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)((u >> 16) | 0x0040u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
static inline void rx_phase2_rows_f(const char *x0, const char *x1, int kind, float w0, float w1,
                                    char *out, ptrdiff_t n, ptrdiff_t da0, ptrdiff_t db0,
                                    float wa0, float wb0, ptrdiff_t da1, ptrdiff_t db1,
                                    float wa1, float wb1)
{
    ptrdiff_t j = 0;
    const int share = db0 == da1;   /* the usual taps (-1, 0) and (0, 1): one row less */
    (void)share;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    if (n >= 16) {
        const __m512 v0 = _mm512_set1_ps(w0), v1 = _mm512_set1_ps(w1);
        const __m512 ea = _mm512_set1_ps(wa0), eb = _mm512_set1_ps(wb0);
        const __m512 oa = _mm512_set1_ps(wa1), ob = _mm512_set1_ps(wb1);
        const __m512i z0 = _mm512_set_epi32(23, 22, 21, 20, 7, 6, 5, 4, 19, 18, 17, 16, 3, 2, 1, 0);
        const __m512i z1 = _mm512_set_epi32(31, 30, 29, 28, 15, 14, 13, 12, 27, 26, 25, 24, 11, 10, 9, 8);
#define RX_V16(I) _mm512_add_ps(_mm512_mul_ps(v0, rx_ld16_rows(x0, (I), kind)), \
                                _mm512_mul_ps(v1, rx_ld16_rows(x1, (I), kind)))
#define RX_OUT16(E, O)                                                                        \
        do {                                                                                  \
            if (kind == RX_ROWS_BF16)                                                         \
                _mm512_storeu_si512((void *)(out + 4 * j), rx_bf16x16x2((E), (O)));           \
            else if (kind == RX_ROWS_F16)                                                     \
                _mm512_storeu_si512((void *)(out + 4 * j), rx_f16x16x2((E), (O)));            \
            else {                                                                            \
                __m512 lo_ = _mm512_unpacklo_ps((E), (O)), hi_ = _mm512_unpackhi_ps((E), (O)); \
                _mm512_storeu_ps((float *)out + 2 * j, _mm512_permutex2var_ps(lo_, z0, hi_)); \
                _mm512_storeu_ps((float *)out + 2 * j + 16,                                   \
                                 _mm512_permutex2var_ps(lo_, z1, hi_));                       \
            }                                                                                 \
        } while (0)
        if (share && da0 == db0 - 1 && db1 == db0 + 1 && n >= 32) {
            /* the usual taps v(j - 1), v(j), v(j + 1) (shifted by db0): each block of 16
             * blended values once, its neighbours' lanes by valignd from the blocks on either
             * side (the same sums, so the same bits); the last blocks the general way */
            __m512 prev = _mm512_setzero_ps(), cur = RX_V16(db0), next;
            for (; j + 32 <= n; j += 16) {
                __m512 a0, b1;
                next = RX_V16(j + 16 + db0);
                a0 = j == 0 ? RX_V16(da0) : _mm512_castsi512_ps(_mm512_alignr_epi32(
                    _mm512_castps_si512(cur), _mm512_castps_si512(prev), 15));
                b1 = _mm512_castsi512_ps(_mm512_alignr_epi32(
                    _mm512_castps_si512(next), _mm512_castps_si512(cur), 1));
                RX_OUT16(_mm512_add_ps(_mm512_mul_ps(ea, a0), _mm512_mul_ps(eb, cur)),
                         _mm512_add_ps(_mm512_mul_ps(oa, cur), _mm512_mul_ps(ob, b1)));
                prev = cur;
                cur = next;
            }
        }
        for (; j < n; j += 16) {
            __m512 a0, b0, a1, b1;
            if (j + 16 > n)
                j = n - 16;           /* the last outputs again, overlapping: same values */
            a0 = RX_V16(j + da0);
            b0 = RX_V16(j + db0);
            a1 = share ? b0 : RX_V16(j + da1);
            b1 = RX_V16(j + db1);
            RX_OUT16(_mm512_add_ps(_mm512_mul_ps(ea, a0), _mm512_mul_ps(eb, b0)),
                     _mm512_add_ps(_mm512_mul_ps(oa, a1), _mm512_mul_ps(ob, b1)));
        }
#undef RX_OUT16
#undef RX_V16
        return;
    }
#endif
#if defined(RX_AVX2)
    if (n >= 8) {
        const __m256 v0 = _mm256_set1_ps(w0), v1 = _mm256_set1_ps(w1);
#define RX_V8(D) _mm256_add_ps(_mm256_mul_ps(v0, rx_ld8_rows(x0, j + (D), kind)), \
                               _mm256_mul_ps(v1, rx_ld8_rows(x1, j + (D), kind)))
        for (; j < n; j += 8) {
            __m256 a0, b0, a1, b1, e, o;
            if (j + 8 > n)
                j = n - 8;
            a0 = RX_V8(da0);
            b0 = RX_V8(db0);
            a1 = share ? b0 : RX_V8(da1);
            b1 = RX_V8(db1);
            e = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(wa0), a0), _mm256_mul_ps(_mm256_set1_ps(wb0), b0));
            o = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(wa1), a1), _mm256_mul_ps(_mm256_set1_ps(wb1), b1));
            if (kind == RX_ROWS_BF16) {
                _mm256_storeu_si256((__m256i *)(out + 4 * j), rx_bf16x8x2(e, o));
            } else if (kind == RX_ROWS_F16) {
                _mm256_storeu_si256((__m256i *)(out + 4 * j), rx_f16x8x2(e, o));
            } else {
                __m256 lo = _mm256_unpacklo_ps(e, o), hi = _mm256_unpackhi_ps(e, o);
                _mm256_storeu_ps((float *)out + 2 * j, _mm256_permute2f128_ps(lo, hi, 0x20));
                _mm256_storeu_ps((float *)out + 2 * j + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
            }
        }
#undef RX_V8
        return;
    }
#endif
    for (; j < n; j++) {
        float a0 = w0 * rx_ld1_rows(x0, j + da0, kind) + w1 * rx_ld1_rows(x1, j + da0, kind);
        float b0 = w0 * rx_ld1_rows(x0, j + db0, kind) + w1 * rx_ld1_rows(x1, j + db0, kind);
        float a1 = w0 * rx_ld1_rows(x0, j + da1, kind) + w1 * rx_ld1_rows(x1, j + da1, kind);
        float b1 = w0 * rx_ld1_rows(x0, j + db1, kind) + w1 * rx_ld1_rows(x1, j + db1, kind);
        float e = wa0 * a0 + wb0 * b0, o = wa1 * a1 + wb1 * b1;
        if (kind == RX_ROWS_BF16) {
            ((uint16_t *)out)[2 * j] = rx_bf16_1(e);
            ((uint16_t *)out)[2 * j + 1] = rx_bf16_1(o);
        } else if (kind == RX_ROWS_F16) {
            uint32_t ue, uo;
            memcpy(&ue, &e, 4);
            memcpy(&uo, &o, 4);
            ((uint16_t *)out)[2 * j] = rx_f32_to_f16_scalar(ue);
            ((uint16_t *)out)[2 * j + 1] = rx_f32_to_f16_scalar(uo);
        } else {
            ((float *)out)[2 * j] = e;
            ((float *)out)[2 * j + 1] = o;
        }
    }
}

/* Two outputs from every three single-element 8-bit pixels (3:2, e.g. 1080p -> 720p) in
 * exact integers: output 2k = round(qa v[3k + da] + qb v[3k + da + 1]), output 2k + 1 =
 * round(qc v[3k + dc] + qd v[3k + dc + 1]) (rx_round_i16: by 2^shift, saturated to 8 bits),
 * k < npairs, da != dc in 0..2. The vector loop forms both sums at each of 48 positions,
 * keeps by a blend the one that position feeds and moves the kept bytes into order by two
 * byte shuffles per 16 outputs; it reads v[0 .. 3 npairs] (the element after the row too). */
static inline void rx_phase32_i16(const int16_t *v, uint8_t *out, ptrdiff_t npairs,
                                  ptrdiff_t da, int16_t qa, int16_t qb, ptrdiff_t dc,
                                  int16_t qc, int16_t qd, int shift, int is_signed, int away)
{
    ptrdiff_t k = 0;
    const int lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
#if defined(RX_AVX2)
    if (npairs >= 16) {
        const __m256i wa = _mm256_set1_epi16(qa), wb = _mm256_set1_epi16(qb);
        const __m256i wc = _mm256_set1_epi16(qc), wd = _mm256_set1_epi16(qd);
        uint8_t pk[3][16], sk[4][16];
        __m128i pick[3], sel[4];
        int i, j;
        /* position i of a block feeds the odd output where i % 3 == dc */
        for (i = 0; i < 48; i++)
            pk[i / 16][i % 16] = i % 3 == dc ? 0xFF : 0;
        /* output j of a block (32) takes position 3 (j / 2) + da or + dc: outputs 0-15 from
         * positions 0-23 (vectors 0 and 1), 16-31 from 24-47 (vectors 1 and 2) */
        memset(sk, 0x80, sizeof sk);
        for (j = 0; j < 32; j++) {
            int pos = 3 * (j / 2) + (int)(j & 1 ? dc : da);
            sk[2 * (j / 16) + (pos / 16 - j / 16)][j % 16] = (uint8_t)(pos % 16);
        }
        for (i = 0; i < 3; i++)
            pick[i] = _mm_loadu_si128((const __m128i *)pk[i]);
        for (i = 0; i < 4; i++)
            sel[i] = _mm_loadu_si128((const __m128i *)sk[i]);
        for (; k + 16 <= npairs; k += 16) {
            const int16_t *b = v + 3 * k;
            __m128i m[3];
            for (i = 0; i < 3; i++) {
                __m256i x = _mm256_loadu_si256((const __m256i *)(b + 16 * i));
                __m256i y = _mm256_loadu_si256((const __m256i *)(b + 16 * i + 1));
                __m256i e = _mm256_add_epi16(_mm256_mullo_epi16(wa, x), _mm256_mullo_epi16(wb, y));
                __m256i o = _mm256_add_epi16(_mm256_mullo_epi16(wc, x), _mm256_mullo_epi16(wd, y));
                m[i] = _mm_blendv_epi8(rx_round_pack16(e, shift, is_signed, away),
                                       rx_round_pack16(o, shift, is_signed, away), pick[i]);
            }
            _mm_storeu_si128((__m128i *)(out + 2 * k), _mm_or_si128(
                _mm_shuffle_epi8(m[0], sel[0]), _mm_shuffle_epi8(m[1], sel[1])));
            _mm_storeu_si128((__m128i *)(out + 2 * k + 16), _mm_or_si128(
                _mm_shuffle_epi8(m[1], sel[2]), _mm_shuffle_epi8(m[2], sel[3])));
        }
    }
#endif
    for (; k < npairs; k++) {
        out[2 * k] = (uint8_t)rx_round_i16((int16_t)(qa * v[3 * k + da] + qb * v[3 * k + da + 1]),
                                           shift, lo, hi, away);
        out[2 * k + 1] = (uint8_t)rx_round_i16((int16_t)(qc * v[3 * k + dc] + qd * v[3 * k + dc + 1]),
                                               shift, lo, hi, away);
    }
}

/* x0.5 with two input rows: out[j] = round(qa * (q0 * a[j] + q1 * a2[j])
 *                                          + qb * (q0 * b[j] + q1 * b2[j])). */
#if defined(RX_AVX2)
#define RX_DOWN2_WIDE(CVT, SIGNED)                                                           \
    {                                                                                        \
        __m256i w0 = _mm256_set1_epi16(q0), w1 = _mm256_set1_epi16(q1);                     \
        __m256i wa = _mm256_set1_epi16(qa), wb = _mm256_set1_epi16(qb);                     \
        for (; j < n && n >= 16; j += 16) {                                                  \
            if (j + 16 > n)                                                                  \
                j = n - 16;           /* the last outputs again, overlapping */              \
            __m256i va = CVT(_mm_loadu_si128((const __m128i *)(a + j)));                     \
            __m256i va2 = CVT(_mm_loadu_si128((const __m128i *)(a2 + j)));                   \
            __m256i vb = CVT(_mm_loadu_si128((const __m128i *)(b + j)));                     \
            __m256i vb2 = CVT(_mm_loadu_si128((const __m128i *)(b2 + j)));                   \
            __m256i e = _mm256_add_epi16(_mm256_mullo_epi16(w0, va),                         \
                                         _mm256_mullo_epi16(w1, va2));                       \
            __m256i o = _mm256_add_epi16(_mm256_mullo_epi16(w0, vb),                         \
                                         _mm256_mullo_epi16(w1, vb2));                       \
            __m256i sum = _mm256_add_epi16(_mm256_mullo_epi16(wa, e),                        \
                                           _mm256_mullo_epi16(wb, o));                       \
            _mm_storeu_si128((__m128i *)(out + j), rx_round_pack16(sum, shift, SIGNED, away));\
        }                                                                                    \
    }
#else
#define RX_DOWN2_WIDE(CVT, SIGNED)
#endif
#define RX_DOWN2_I16(T, NAME, LO, HI, CVT, SIGNED)                                           \
    static inline void NAME(const T *a, const T *b, const T *a2, const T *b2, T *out,       \
                            ptrdiff_t n, int16_t q0, int16_t q1, int16_t qa, int16_t qb,    \
                            int shift, int away)                                             \
    {                                                                                        \
        ptrdiff_t j = 0;                                                                     \
        RX_DOWN2_WIDE(CVT, SIGNED)                                                           \
        for (; j < n; j++) {                                                                 \
            int16_t e = (int16_t)(q0 * a[j] + q1 * a2[j]);                                   \
            int16_t o = (int16_t)(q0 * b[j] + q1 * b2[j]);                                   \
            out[j] = (T)rx_round_i16((int16_t)(qa * e + qb * o), shift, LO, HI, away);       \
        }                                                                                    \
    }
RX_DOWN2_I16(uint8_t, rx_down2_u8, 0, 255, _mm256_cvtepu8_epi16, 0)
RX_DOWN2_I16(int8_t, rx_down2_i8, -128, 127, _mm256_cvtepi8_epi16, 1)
#undef RX_DOWN2_I16
#undef RX_DOWN2_WIDE

#if defined(RX_SSE2)
/* Output o's c <= 4 int32 sums, the low lanes of sum, into acc[o c ..]: all four lanes where
 * the lanes past c land on the next outputs' sums (stored after it, never past the row's
 * n_out c sums), the c lanes alone at the row's end. */
static inline void rx_store_px_sums(int32_t *acc, ptrdiff_t o, int c, ptrdiff_t n_out,
                                    __m128i sum)
{
    if ((o + 1) * c + (4 - c) <= n_out * c) {
        _mm_storeu_si128((__m128i *)(acc + o * c), sum);
    } else {
        int32_t tmp[4];
        _mm_storeu_si128((__m128i *)tmp, sum);
        memcpy(acc + o * c, tmp, (size_t)c * sizeof(int32_t));
    }
}

/* Output o's c <= 4 int16 values, the low lanes of v, into out16[o c ..]: all four where the
 * lanes past c land on the next outputs' values (stored after it), the c lanes alone at the
 * row's last output. */
static inline void rx_store_px16(int16_t *out16, ptrdiff_t o, int c, ptrdiff_t n_out,
                                 __m128i v)
{
    if (c == 4 || o + 1 < n_out) {
        _mm_storel_epi64((__m128i *)(out16 + o * c), v);
    } else {
        int16_t t[8];
        _mm_storeu_si128((__m128i *)t, v);
        memcpy(out16 + o * c, t, (size_t)c * sizeof(int16_t));
    }
}
#endif

/* Two taps for every output over pixels of c = 2, 3 or 4 uint8 elements (_intpass.pyx
 * _pairs): sum = w[2o] x_a[ch] + w[2o+1] x_b[ch], x_a and x_b the pixels at byte offsets
 * idx[2o] s and idx[2o+1] s of base, into acc[o c + ch] (int32), or, with out16, as
 * (int16)(sum >> pre) into out16[o c + ch] (rx_narrow16's value: the planner bounded it).
 * Each pixel is read as its c bytes only; the two are interleaved and zero-extended to 16
 * bits, and one multiply-add of 16-bit pairs gives the c sums (integers: the scalar loop's
 * values exactly). Returns 0 when a weight does not fit int16: the caller's scalar loop then
 * makes every output again. n_in: the row's pixels (those at offsets 0 .. (n_in - 1) s).
 * At the AVX2 level, where the pixels are contiguous (s == c), two outputs whose taps read
 * adjacent pixels take one 8-byte load each (inside the row: the pixel pair and what follows
 * it up to 8 bytes), a byte shuffle for the interleave and one 256-bit multiply-add for both:
 * the same products and sums. */
static inline int rx_pairs_px_u8(const uint8_t *base, ptrdiff_t n_out, int c, int64_t s,
                                 const int64_t *idx, const int64_t *w, int32_t *acc,
                                 int pre, int16_t *out16, int64_t n_in)
{
#if defined(RX_SSE2)
    ptrdiff_t o = 0;
    const __m128i zero = _mm_setzero_si128(), sh = _mm_cvtsi32_si128(pre);
#if defined(RX_AVX2)
    /* interleave each 8-byte load's two pixels: a0 b0 a1 b1 ..., zeros past 2c bytes */
    const __m128i mk = c == 2 ? _mm_setr_epi8(0, 2, 1, 3, -1, -1, -1, -1, 8, 10, 9, 11, -1, -1, -1, -1)
                     : c == 3 ? _mm_setr_epi8(0, 3, 1, 4, 2, 5, -1, -1, 8, 11, 9, 12, 10, 13, -1, -1)
                     : _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    /* a load of 8 bytes at pixel i stays inside the row when i <= last */
    const int64_t last = (s == c && c >= 2 && n_in * c >= 8) ? (n_in * c - 8) / c : -1;
#endif
    while (o < n_out) {
        const uint8_t *pa, *pb;
        int64_t w0, w1;
        uint32_t a, b;
        __m128i ab, sum;
        uint32_t ww;
#if defined(RX_AVX2)
        /* outputs o and o + 1 at once; o + 2 < n_out: the second's 4-lane store stays inside
         * the row's n_out c sums (c >= 2) */
        if (o + 2 < n_out) {
            const int64_t i0 = idx[2 * o], i1 = idx[2 * o + 2];
            if (idx[2 * o + 1] == i0 + 1 && idx[2 * o + 3] == i1 + 1 && 0 <= i0 && i0 <= last
                    && 0 <= i1 && i1 <= last) {
                const int64_t v0 = w[2 * o], v1 = w[2 * o + 1], v2 = w[2 * o + 2], v3 = w[2 * o + 3];
                int64_t q0, q1;
                __m256i x, wv, s2;
                if (v0 < -32768 || v0 > 32767 || v1 < -32768 || v1 > 32767 || v2 < -32768
                        || v2 > 32767 || v3 < -32768 || v3 > 32767)
                    return 0;
                memcpy(&q0, base + i0 * c, 8);
                memcpy(&q1, base + i1 * c, 8);
                /* 16-bit lanes 0-7: output o's pixel pair, 8-15: output o + 1's */
                x = _mm256_cvtepu8_epi16(_mm_shuffle_epi8(_mm_set_epi64x(q1, q0), mk));
                wv = _mm256_set_m128i(
                    _mm_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)v2
                                         | ((uint32_t)(uint16_t)(int16_t)v3 << 16))),
                    _mm_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)v0
                                         | ((uint32_t)(uint16_t)(int16_t)v1 << 16))));
                s2 = _mm256_madd_epi16(x, wv);
                if (out16 != NULL) {
                    __m256i p = _mm256_packs_epi32(_mm256_sra_epi32(s2, sh),
                                                   _mm256_setzero_si256());
                    _mm_storel_epi64((__m128i *)(out16 + o * c), _mm256_castsi256_si128(p));
                    _mm_storel_epi64((__m128i *)(out16 + (o + 1) * c),
                                     _mm256_extracti128_si256(p, 1));
                } else {
                    _mm_storeu_si128((__m128i *)(acc + o * c), _mm256_castsi256_si128(s2));
                    _mm_storeu_si128((__m128i *)(acc + (o + 1) * c),
                                     _mm256_extracti128_si256(s2, 1));
                }
                o += 2;
                continue;
            }
        }
#endif
        pa = base + idx[2 * o] * s;
        pb = base + idx[2 * o + 1] * s;
        w0 = w[2 * o];
        w1 = w[2 * o + 1];
        if (w0 < -32768 || w0 > 32767 || w1 < -32768 || w1 > 32767)
            return 0;
        if (c == 4) {
            memcpy(&a, pa, 4);
            memcpy(&b, pb, 4);
        } else {    /* byte by byte: no read past the pixel, no store-forwarding stall */
            a = (uint32_t)pa[0] | ((uint32_t)pa[1] << 8);
            b = (uint32_t)pb[0] | ((uint32_t)pb[1] << 8);
            if (c == 3) {
                a |= (uint32_t)pa[2] << 16;
                b |= (uint32_t)pb[2] << 16;
            }
        }
        ab = _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)a),
                                                 _mm_cvtsi32_si128((int)b)), zero);
        ww = (uint32_t)(uint16_t)(int16_t)w0 | ((uint32_t)(uint16_t)(int16_t)w1 << 16);
        sum = _mm_madd_epi16(ab, _mm_set1_epi32((int)ww));
        /* c < 4: the lanes past c land where the next output's sums go next */
        if (out16 != NULL) {
            rx_store_px16(out16, o, c, n_out, _mm_packs_epi32(_mm_sra_epi32(sum, sh), zero));
        } else if (c == 4 || o + 1 < n_out) {
            _mm_storeu_si128((__m128i *)(acc + o * c), sum);
        } else {
            int32_t t[4];
            _mm_storeu_si128((__m128i *)t, sum);
            memcpy(acc + o * c, t, (size_t)c * sizeof(int32_t));
        }
        o++;
    }
    return 1;
#else
    (void)base; (void)n_out; (void)c; (void)s; (void)idx; (void)w; (void)acc; (void)pre;
    (void)out16; (void)n_in;
    return 0;
#endif
}

/* k taps for every output (k = 2, 4 or 8; a dense table idx/w of k entries per output) over
 * pixels of c = 2, 3 or 4 float32 elements (the first pass of the fused float sweep,
 * _floatpass._dense_row; OpenCV's linear, cubic and Lanczos-4 at any ratio): out[o c + j] =
 * ((w0 x0[j] + w1 x1[j]) + w2 x2[j]) + ..., each product and each sum rounded in turn (no
 * contraction), x_t the pixel idx[o k + t] of the row x of n_in pixels. Four lanes an output:
 * the lanes past c read the next pixel's elements and land where the next output's go next,
 * so an output one of whose taps reads the row's last pixel (c < 4), or whose four-lane store
 * would leave the n_out c outputs, goes element by element. k is 2, 4 or 8, c 2 to 4. */

/* rx_taps_px_f32 with c and k constants at each call (the loops unroll, and consecutive
 * outputs' sums, independent of each other, overlap in the pipeline) */
static RX_ALWAYS_INLINE void rx_taps_px_f32_ck(const float *x, float *out, ptrdiff_t n_out,
                                               const int c, const int k, const int64_t *idx,
                                               const float *w, int64_t n_in)
{
    ptrdiff_t o, j;
    int t;
    for (o = 0; o < n_out; o++) {
        const int64_t *ix = idx + o * k;
        const float *wt = w + o * k;
#if defined(__GNUC__) || defined(__clang__)
        typedef float v4f __attribute__((vector_size(16)));
        int inside = (o + 1) * c + (4 - c) <= n_out * c;
        if (c < 4)
            for (t = 0; t < k; t++)
                inside &= ix[t] < n_in - 1;
        if (inside) {
            v4f a, r;
            memcpy(&a, x + ix[0] * c, sizeof a);
            r = (v4f){wt[0], wt[0], wt[0], wt[0]} * a;
            for (t = 1; t < k; t++) {
                memcpy(&a, x + ix[t] * c, sizeof a);
                r = r + (v4f){wt[t], wt[t], wt[t], wt[t]} * a;
            }
            memcpy(out + o * c, &r, sizeof r);
            continue;
        }
#endif
        for (j = 0; j < c; j++) {
            float r = wt[0] * x[ix[0] * c + j];
            for (t = 1; t < k; t++)
                r = r + wt[t] * x[ix[t] * c + j];
            out[o * c + j] = r;
        }
    }
    (void)n_in;
}

static inline void rx_taps_px_f32(const float *x, float *out, ptrdiff_t n_out, int c, int k,
                                  const int64_t *idx, const float *w, int64_t n_in)
{
#define RX_TAPS_PX_F32_K(C)                                                       \
    do {                                                                          \
        if (k == 2)                                                               \
            rx_taps_px_f32_ck(x, out, n_out, C, 2, idx, w, n_in);                 \
        else if (k == 4)                                                          \
            rx_taps_px_f32_ck(x, out, n_out, C, 4, idx, w, n_in);                 \
        else                                                                      \
            rx_taps_px_f32_ck(x, out, n_out, C, 8, idx, w, n_in);                 \
    } while (0)
    if (c == 2)
        RX_TAPS_PX_F32_K(2);
    else if (c == 3)
        RX_TAPS_PX_F32_K(3);
    else
        RX_TAPS_PX_F32_K(4);
#undef RX_TAPS_PX_F32_K
}

/* rx_taps_px_f32 two outputs at a time (AVX2; the first pass of the fused float sweep over
 * pixels of c = 2 to 4 float32 elements, k = 2, 4 or 8 taps on every output): a layout made
 * once for all the rows of a pass (rx_taps_px2_f32_layout), per block of outputs 2b, 2b + 1:
 * one int32, 1 where rx_taps_px_f32 would take its four-lane form for both outputs (every tap
 * inside the row, both stores inside the n_out c outputs), else 0; then for each tap t the
 * two outputs' element offsets of their pixels (int32: idx c); then for each tap the eight
 * weights of the two outputs' vector (w of output 2b in the low four lanes, of 2b + 1 in the
 * high four). Made where the row's n_in c elements fit int32; NULL at another level, for
 * another c or k, or without memory (the rows then run rx_taps_px_f32 itself). */
#define RX_PX2_WORDS(k) (1 + 10 * (k))
static inline int32_t *rx_taps_px2_f32_layout(ptrdiff_t n_out, int c, int k,
                                              const int64_t *idx, const float *w, int64_t n_in)
{
#if defined(RX_AVX2)
    ptrdiff_t b, nb = n_out / 2;
    int32_t *tab;
    if (!(k == 2 || k == 4 || k == 8) || c < 2 || c > 4 || nb < 1 || n_in < 1
            || n_in > INT32_MAX / 4)
        return NULL;
    tab = (int32_t *)malloc((size_t)nb * RX_PX2_WORDS(k) * sizeof(int32_t));
    if (tab == NULL)
        return NULL;
    for (b = 0; b < nb; b++) {
        int32_t *t = tab + b * RX_PX2_WORDS(k);
        float *wv = (float *)(void *)(t + 1 + 2 * k);
        int ok = 1, q, tt, j;
        for (q = 0; q < 2; q++) {
            const ptrdiff_t o = 2 * b + q;
            ok &= o * c + 4 <= n_out * c;
            for (tt = 0; tt < k; tt++) {
                const int64_t i = idx[o * k + tt];
                const int inside = i >= 0 && (c == 4 ? i < n_in : i < n_in - 1);
                ok &= inside;
                t[1 + 2 * tt + q] = inside ? (int32_t)(i * c) : 0;
                for (j = 0; j < 4; j++)
                    wv[8 * tt + 4 * q + j] = w[o * k + tt];
            }
        }
        t[0] = ok;
    }
    return tab;
#else
    (void)n_out; (void)c; (void)k; (void)idx; (void)w; (void)n_in;
    return NULL;
#endif
}

/* rx_taps_px_f32 over rx_taps_px2_f32_layout's blocks: a laid-out block's two outputs in one
 * 256-bit vector (each output's pixel loaded as four lanes into its half, times its weight
 * broadcast over its half), each lane ((w0 x0 + w1 x1) + w2 x2) + ..., the scalar loop's
 * products and sums in its order, so the same bits; stored as rx_taps_px_f32 stores an
 * output (c < 4: the lanes past c where the next output's elements go next); the other blocks
 * and the last output by rx_taps_px_f32. c and k constants at each call. */
static RX_ALWAYS_INLINE void rx_taps_px2_f32_ck(const float *x, float *out, ptrdiff_t n_out,
                                                const int c, const int k, const int64_t *idx,
                                                const float *w, int64_t n_in,
                                                const int32_t *tab)
{
    ptrdiff_t o = 0;
#if defined(RX_AVX2)
    for (; o + 2 <= n_out; o += 2) {
        const int32_t *t = tab + (o / 2) * RX_PX2_WORDS(k);
        const float *wv = (const float *)(const void *)(t + 1 + 2 * k);
        __m256 r;
        int tt;
        if (!t[0]) {
            rx_taps_px_f32_ck(x, out + o * c, 2, c, k, idx + o * k, w + o * k, n_in);
            continue;
        }
        r = _mm256_mul_ps(_mm256_loadu_ps(wv), _mm256_insertf128_ps(
            _mm256_castps128_ps256(_mm_loadu_ps(x + t[1])), _mm_loadu_ps(x + t[2]), 1));
        for (tt = 1; tt < k; tt++)
            r = _mm256_add_ps(r, _mm256_mul_ps(_mm256_loadu_ps(wv + 8 * tt), _mm256_insertf128_ps(
                _mm256_castps128_ps256(_mm_loadu_ps(x + t[1 + 2 * tt])),
                _mm_loadu_ps(x + t[2 + 2 * tt]), 1)));
        if (c == 4) {
            _mm256_storeu_ps(out + o * 4, r);
        } else {
            _mm_storeu_ps(out + o * c, _mm256_castps256_ps128(r));
            _mm_storeu_ps(out + (o + 1) * c, _mm256_extractf128_ps(r, 1));
        }
    }
#else
    (void)tab;
#endif
    if (o < n_out)
        rx_taps_px_f32_ck(x, out + o * c, n_out - o, c, k, idx + o * k, w + o * k, n_in);
}

static inline void rx_taps_px2_f32(const float *x, float *out, ptrdiff_t n_out, int c, int k,
                                   const int64_t *idx, const float *w, int64_t n_in,
                                   const int32_t *tab)
{
#define RX_TAPS_PX2_F32_K(C)                                                      \
    do {                                                                          \
        if (k == 2)                                                               \
            rx_taps_px2_f32_ck(x, out, n_out, C, 2, idx, w, n_in, tab);           \
        else if (k == 4)                                                          \
            rx_taps_px2_f32_ck(x, out, n_out, C, 4, idx, w, n_in, tab);           \
        else                                                                      \
            rx_taps_px2_f32_ck(x, out, n_out, C, 8, idx, w, n_in, tab);           \
    } while (0)
    if (c == 2)
        RX_TAPS_PX2_F32_K(2);
    else if (c == 3)
        RX_TAPS_PX2_F32_K(3);
    else
        RX_TAPS_PX2_F32_K(4);
#undef RX_TAPS_PX2_F32_K
}

/* rx_pairs_px_u8 for k taps on every output (k = 4 or 8: OpenCV's cubic and Lanczos-4 at any
 * ratio, a dense table idx/w of k entries per output), into int32 sums: the taps two by two,
 * each pair of pixels one multiply-add of 16-bit pairs, the pairs' sums added in turn (integer
 * sums: any order gives the same ones). Pixels of c = 1 to 4 uint8 elements, s bytes apart;
 * acc receives n_out * c sums. Precondition: every weight within int16 (the planner's
 * condition). Returns 0 (nothing written) without SSE2; the caller then sums tap by tap.
 * Pixels are read as 4 bytes where that stays inside the row of n_in pixels, byte by byte
 * otherwise. */
static RX_ALWAYS_INLINE int rx_taps_px_u8_ck(const uint8_t *base, ptrdiff_t n_out, const int c,
                                             int64_t s, const int k, const int64_t *idx,
                                             const int64_t *w, int32_t *acc, int64_t n_in)
{
#if defined(RX_SSE2)
    ptrdiff_t o;
    const __m128i zero = _mm_setzero_si128();
    /* a 4-byte load at a pixel's offset stays in the row when the offset is at most this */
    const int64_t last = (n_in - 1) * s + c - 4;
    if (!(k == 4 || k == 8) || c < 1 || c > 4)
        return 0;
    for (o = 0; o < n_out; o++) {
        const int64_t *ix = idx + o * k, *wt = w + o * k;
        __m128i sum = zero;
        int t, wide = 1;
        if (c < 4)
            for (t = 0; t < k; t++)
                wide &= ix[t] * s <= last;
        for (t = 0; t < k; t += 2) {
            const uint8_t *pa = base + ix[t] * s, *pb = base + ix[t + 1] * s;
            uint32_t a, b, ww;
            if (c == 4 || wide) {   /* c < 4: the bytes past the pixel land in unused lanes */
                memcpy(&a, pa, 4);
                memcpy(&b, pb, 4);
            } else {    /* byte by byte: no read past the pixel */
                a = pa[0];
                b = pb[0];
                if (c > 1) {
                    a |= (uint32_t)pa[1] << 8;
                    b |= (uint32_t)pb[1] << 8;
                }
                if (c > 2) {
                    a |= (uint32_t)pa[2] << 16;
                    b |= (uint32_t)pb[2] << 16;
                }
            }
            ww = (uint32_t)(uint16_t)(int16_t)wt[t] | ((uint32_t)(uint16_t)(int16_t)wt[t + 1] << 16);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(
                _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)a),
                                                    _mm_cvtsi32_si128((int)b)), zero),
                _mm_set1_epi32((int)ww)));
        }
        rx_store_px_sums(acc, o, c, n_out, sum);
    }
    return 1;
#else
    (void)base; (void)n_out; (void)c; (void)s; (void)k; (void)idx; (void)w; (void)acc;
    (void)n_in;
    return 0;
#endif
}

/* rx_taps_px_u8_ck with c and k constants at each call; n_in: the row's pixels */
static inline int rx_taps_px_u8(const uint8_t *base, ptrdiff_t n_out, int c, int64_t s, int k,
                                const int64_t *idx, const int64_t *w, int32_t *acc,
                                int64_t n_in)
{
    if (k != 4 && k != 8)
        return 0;
#define RX_TAPS_PX_U8_C(C) (k == 4 ? rx_taps_px_u8_ck(base, n_out, C, s, 4, idx, w, acc, n_in) \
                                   : rx_taps_px_u8_ck(base, n_out, C, s, 8, idx, w, acc, n_in))
    switch (c) {
    case 1: return RX_TAPS_PX_U8_C(1);
    case 2: return RX_TAPS_PX_U8_C(2);
    case 3: return RX_TAPS_PX_U8_C(3);
    case 4: return RX_TAPS_PX_U8_C(4);
    default: return 0;
    }
#undef RX_TAPS_PX_U8_C
}

#if defined(RX_SSE2)
/* A pixel of c = 2, 3 or 4 float32 elements in the low lanes (0 in the others); its c
 * floats only are read. */
static RX_ALWAYS_INLINE __m128 rx_px_f32_load(const float *p, const int c)
{
    if (c == 4)
        return _mm_loadu_ps(p);
    /* 8 bytes through the unaligned 64-bit load: p is only float-aligned */
    if (c == 2)
        return _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)p));
    return _mm_movelh_ps(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)p)), _mm_load_ss(p + 2));
}

/* Float32 rows of pixels of c = 2, 3 or 4 elements, every output o summing its taps
 * [ptr[o], ptr[o + 1]) (pixels at byte offsets idx[t] s of base) into acc[o c + ch]: order 0
 * from its first product, order 1 from 0, then each product added in tap order (_floatpass
 * _short_k's loop), one element a lane: a multiply and an add a tap, no fused multiply-add,
 * so the same float operations and bits. */
static RX_ALWAYS_INLINE void rx_short_k_f32_c(const char *base, ptrdiff_t n_out, const int c,
                                              int64_t s, const int64_t *ptr,
                                              const int64_t *idx, const float *w, int order,
                                              float *acc)
{
    ptrdiff_t o;
    for (o = 0; o < n_out; o++) {
        int64_t t = ptr[o];
        const int64_t tb = ptr[o + 1];
        __m128 a = _mm_setzero_ps();
        float *d = acc + o * c;
        if (tb > t && order == 0) {
            a = _mm_mul_ps(_mm_set1_ps(w[t]), rx_px_f32_load((const float *)(base + idx[t] * s), c));
            t++;
        }
        for (; t < tb; t++)
            a = _mm_add_ps(a, _mm_mul_ps(_mm_set1_ps(w[t]),
                                         rx_px_f32_load((const float *)(base + idx[t] * s), c)));
        if (c == 4) {
            _mm_storeu_ps(d, a);
        } else {
            _mm_storel_epi64((__m128i *)d, _mm_castps_si128(a));
            if (c == 3)
                _mm_store_ss(d + 2, _mm_movehl_ps(a, a));
        }
    }
}
#endif

/* rx_short_k_f32_c with c a constant at each call; returns 0 (nothing written) without SSE2
 * or for c outside 2..4 or another order: the caller's loop then runs. */
static inline int rx_short_k_f32(const char *base, ptrdiff_t n_out, int c, int64_t s,
                                 const int64_t *ptr, const int64_t *idx, const float *w,
                                 int order, float *acc)
{
#if defined(RX_SSE2)
    if (order != 0 && order != 1)
        return 0;
    switch (c) {
    case 2: rx_short_k_f32_c(base, n_out, 2, s, ptr, idx, w, order, acc); return 1;
    case 3: rx_short_k_f32_c(base, n_out, 3, s, ptr, idx, w, order, acc); return 1;
    case 4: rx_short_k_f32_c(base, n_out, 4, s, ptr, idx, w, order, acc); return 1;
    default: return 0;
    }
#else
    (void)base; (void)n_out; (void)c; (void)s; (void)ptr; (void)idx; (void)w; (void)order;
    (void)acc;
    return 0;
#endif
}

/* rx_taps_px_u8_prep's flag of an output whose each four taps read four consecutive pixels
 * of a packed row, whose 16 bytes from the first lie inside the row: one load for them. */
#define RX_TAPS_RUN 2

/* The table of rx_taps_px_u8 laid out once for all the rows of a pass, so that a row reads
 * no 64-bit index, multiplies no offset and packs no weight (k = 4 or 8 taps an output,
 * pixels of c = 1 to 4 uint8 elements s bytes apart, rows of n_in pixels): per output its k
 * byte offsets (off, int32), its weights as int16 pairs for four lanes (pk: per four taps 8
 * int32, (w0 | w1 << 16) four times then (w2 | w3 << 16) four times) and once (cw: k / 2
 * int32, (w0 | w1 << 16), (w2 | w3 << 16), ...), and in wide[o] bit 0
 * where each of its pixels may be read as 4 bytes inside the row (c = 4, or the offset at
 * most (n_in - 1) s + c - 4), bit 1 where besides each four taps read consecutive pixels of
 * packed rows (s = c), 16 bytes from the first inside the row (RX_TAPS_RUN). Returns 0
 * (nothing to use) without SSE2, where an index is outside the row, a weight outside int16
 * or the row's bytes outside int32. */
static inline int rx_taps_px_u8_prep(ptrdiff_t n_out, int c, int64_t s, int k,
                                     const int64_t *idx, const int64_t *w, int64_t n_in,
                                     int32_t *off, int32_t *pk, int32_t *cw, uint8_t *wide)
{
#if defined(RX_SSE2)
    ptrdiff_t o;
    int t, g, lane;
    const int64_t last = (n_in - 1) * s + c - 4;
    if ((k != 4 && k != 8) || c < 1 || c > 4 || s < c || n_in < 1
            || (n_in - 1) * s + c > INT32_MAX)
        return 0;
    for (o = 0; o < n_out; o++) {
        int ok = 1, run = s == c;
        for (t = 0; t < k; t++) {
            const int64_t i = idx[o * k + t], v = w[o * k + t];
            if (i < 0 || i >= n_in || v < INT16_MIN || v > INT16_MAX)
                return 0;
            off[o * k + t] = (int32_t)(i * s);
            ok &= c == 4 || i * s <= last;
            run &= t % 4 == 0 ? (i * s + 16 <= n_in * s) : (i == idx[o * k + t - 1] + 1);
        }
        wide[o] = (uint8_t)(ok | (ok && run ? RX_TAPS_RUN : 0));
        for (g = 0; g < k / 4; g++)
            for (t = 0; t < 2; t++) {
                const int64_t *q = w + o * k + 4 * g + 2 * t;
                const uint32_t pair = (uint32_t)(uint16_t)(int16_t)q[0]
                                      | ((uint32_t)(uint16_t)(int16_t)q[1] << 16);
                for (lane = 0; lane < 4; lane++)
                    pk[(o * (k / 4) + g) * 8 + 4 * t + lane] = (int32_t)pair;
                cw[o * (k / 2) + 2 * g + t] = (int32_t)pair;
            }
    }
    return 1;
#else
    (void)n_out; (void)c; (void)s; (void)k; (void)idx; (void)w; (void)n_in; (void)off;
    (void)pk; (void)cw; (void)wide;
    return 0;
#endif
}

/* A pixel of c uint8 elements as the low bytes of 32 bits: 4 bytes at once where wide (the
 * bytes past the pixel land in lanes the caller drops), byte by byte otherwise. */
static RX_ALWAYS_INLINE uint32_t rx_px_u8_load(const uint8_t *p, const int c, int wide)
{
    uint32_t a;
    if (c == 4 || wide) {
        memcpy(&a, p, 4);
        return a;
    }
    a = p[0];
    if (c > 1)
        a |= (uint32_t)p[1] << 8;
    if (c > 2)
        a |= (uint32_t)p[2] << 16;
    return a;
}

#if defined(RX_SSE2)
#if defined(RX_AVX2)
/* The bytes of four consecutive pixels of c elements (a 16-byte load from the first) zipped
 * as rx_taps_pre_u8's pairs: element j of pixels 0 and 1 in bytes 2j and 2j + 1, of pixels 2
 * and 3 in bytes 8 + 2j and 9 + 2j (j < c; the lanes past c zero). */
static RX_ALWAYS_INLINE __m128i rx_taps_run_mask(const int c)
{
    return c == 1 ? _mm_setr_epi8(0, 1, -1, -1, -1, -1, -1, -1, 2, 3, -1, -1, -1, -1, -1, -1)
         : c == 2 ? _mm_setr_epi8(0, 2, 1, 3, -1, -1, -1, -1, 4, 6, 5, 7, -1, -1, -1, -1)
         : c == 3 ? _mm_setr_epi8(0, 3, 1, 4, 2, 5, -1, -1, 6, 9, 7, 10, 8, 11, -1, -1)
         : _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
}
#endif

/* One output of rx_taps_pre_u8_ck: its c <= 4 int32 sums in the low lanes. AVX2: its four
 * pixels of four taps in one vector, their bytes zipped by pairs of taps and widened to 16
 * lanes, one multiply-add of 16-bit pairs; SSE2: two taps a multiply-add. */
static RX_ALWAYS_INLINE __m128i rx_taps_pre_u8_one(const uint8_t *base, const int c,
                                                   const int k, const int32_t *ox,
                                                   const int32_t *wq, const int wd)
{
    int g;
#if defined(RX_AVX2)
    const __m128i zip = _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
#else
    const __m128i zero = _mm_setzero_si128();
#endif
    __m128i sum = _mm_setzero_si128();
#if defined(RX_AVX2)
    if (wd & RX_TAPS_RUN) {
        for (g = 0; g < k / 4; g++) {
            const __m256i m = _mm256_madd_epi16(
                _mm256_cvtepu8_epi16(_mm_shuffle_epi8(
                    _mm_loadu_si128((const __m128i *)(const void *)(base + ox[4 * g])),
                    rx_taps_run_mask(c))),
                _mm256_loadu_si256((const __m256i *)(wq + 8 * g)));
            sum = _mm_add_epi32(sum, _mm_add_epi32(_mm256_castsi256_si128(m),
                                                   _mm256_extracti128_si256(m, 1)));
        }
        return sum;
    }
#endif
    for (g = 0; g < k / 4; g++) {
        const uint32_t a = rx_px_u8_load(base + ox[4 * g], c, wd);
        const uint32_t b = rx_px_u8_load(base + ox[4 * g + 1], c, wd);
        const uint32_t d = rx_px_u8_load(base + ox[4 * g + 2], c, wd);
        const uint32_t e = rx_px_u8_load(base + ox[4 * g + 3], c, wd);
#if defined(RX_AVX2)
        const __m128i v = _mm_shuffle_epi8(_mm_setr_epi32((int)a, (int)b, (int)d, (int)e),
                                           zip);
        const __m256i m = _mm256_madd_epi16(_mm256_cvtepu8_epi16(v),
                                            _mm256_loadu_si256((const __m256i *)(wq + 8 * g)));
        sum = _mm_add_epi32(sum, _mm_add_epi32(_mm256_castsi256_si128(m),
                                               _mm256_extracti128_si256(m, 1)));
#else
        sum = _mm_add_epi32(sum, _mm_madd_epi16(
            _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)a),
                                                _mm_cvtsi32_si128((int)b)), zero),
            _mm_loadu_si128((const __m128i *)(wq + 8 * g))));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(
            _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)d),
                                                _mm_cvtsi32_si128((int)e)), zero),
            _mm_loadu_si128((const __m128i *)(wq + 8 * g + 4))));
#endif
    }
    return sum;
}
#endif

#if defined(RX_AVX2)
/* Two outputs of rx_taps_pre_u8_ck whose k taps read consecutive pixels (RX_TAPS_RUN): per
 * 128-bit lane one output, its pixels four at a time in one 16-byte load, zipped to pairs of
 * pixels 0 and 1 and of 2 and 3 of each element (zip2), times (w0, w1) and (w2, w3); ox, wq:
 * the first output's offsets and laid-out weights (the second's follow them). */
static RX_ALWAYS_INLINE __m256i rx_taps_pair_u8(const uint8_t *base, const int k,
                                                const int32_t *ox, const int32_t *wq,
                                                __m256i zip2)
{
    const __m256i z = _mm256_setzero_si256();
    __m256i sum = z;
    int g;
    for (g = 0; g < k / 4; g++) {
        const __m256i v = _mm256_shuffle_epi8(_mm256_inserti128_si256(
            _mm256_castsi128_si256(
                _mm_loadu_si128((const __m128i *)(const void *)(base + ox[4 * g]))),
            _mm_loadu_si128((const __m128i *)(const void *)(base + ox[k + 4 * g])), 1),
            zip2);
        const __m256i wa = _mm256_loadu_si256((const __m256i *)(wq + 8 * g));
        const __m256i wb = _mm256_loadu_si256((const __m256i *)(wq + (k / 4) * 8 + 8 * g));
        sum = _mm256_add_epi32(sum, _mm256_add_epi32(
            _mm256_madd_epi16(_mm256_unpacklo_epi8(v, z),
                              _mm256_permute2x128_si256(wa, wb, 0x20)),
            _mm256_madd_epi16(_mm256_unpackhi_epi8(v, z),
                              _mm256_permute2x128_si256(wa, wb, 0x31))));
    }
    return sum;
}
#endif

/* rx_taps_px_u8 over a table laid out by rx_taps_px_u8_prep: the same int32 sums (integer
 * sums of int16 products, in any grouping the same). AVX2: eight one-element outputs of
 * four consecutive pixels (RX_TAPS_RUN) at once, each's four bytes in a 32-bit lane; two
 * outputs whose four taps read
 * consecutive pixels (RX_TAPS_RUN) at once, each's pixels in one 16-byte load, the bytes
 * zipped by pairs of taps and widened, two multiply-adds of 16-bit pairs; else four
 * pixels of an output in one vector, one multiply-add for four taps; SSE2: two taps a
 * multiply-add, as rx_taps_px_u8. */
static RX_ALWAYS_INLINE void rx_taps_pre_u8_ck(const uint8_t *base, ptrdiff_t n_out,
                                               const int c, const int k, const int32_t *off,
                                               const int32_t *pk, const int32_t *cw,
                                               const uint8_t *wide, int32_t *acc)
{
#if defined(RX_SSE2)
    ptrdiff_t o = 0;
#if defined(RX_AVX2)
    const __m256i zip2 = _mm256_broadcastsi128_si256(rx_taps_run_mask(c));
#endif
    while (o < n_out) {
        const int32_t *ox = off + o * k, *wq = pk + o * (k / 4) * 8;
#if defined(RX_AVX2)
        uint64_t flags;
        if (c == 1 && k == 4 && o + 8 <= n_out
                && (memcpy(&flags, wide + o, 8),
                    (flags & 0x0202020202020202ULL) == 0x0202020202020202ULL)) {
            /* eight one-element outputs of four consecutive pixels each: their four bytes
             * in one 32-bit lane each, widened by four outputs, multiplied by (w0, w1) and
             * (w2, w3), the pairs' sums added by output (hadd, then the 64-bit quarters in
             * output order) */
            const __m256i v = _mm256_setr_epi32(
                (int)rx_px_u8_load(base + ox[0], 4, 1), (int)rx_px_u8_load(base + ox[4], 4, 1),
                (int)rx_px_u8_load(base + ox[8], 4, 1), (int)rx_px_u8_load(base + ox[12], 4, 1),
                (int)rx_px_u8_load(base + ox[16], 4, 1), (int)rx_px_u8_load(base + ox[20], 4, 1),
                (int)rx_px_u8_load(base + ox[24], 4, 1), (int)rx_px_u8_load(base + ox[28], 4, 1));
            const __m256i ma = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(v)),
                                                 _mm256_loadu_si256((const __m256i *)(cw + 2 * o)));
            const __m256i mb = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1)),
                                                 _mm256_loadu_si256((const __m256i *)(cw + 2 * o + 8)));
            _mm256_storeu_si256((__m256i *)(acc + o),
                                _mm256_permute4x64_epi64(_mm256_hadd_epi32(ma, mb), 0xD8));
            o += 8;
            continue;
        }
        if (c >= 2 && o + 2 <= n_out && (wide[o] & wide[o + 1] & RX_TAPS_RUN)) {
            /* a run of outputs whose taps read consecutive pixels (all of a row but its
             * ends), two a step in a loop of their own: pointers stepped, no flag test per
             * pair, both stores whole (the run stops where the second's lanes past c would
             * leave the row) */
            ptrdiff_t e = o + 2;
            while (e < n_out && (wide[e] & RX_TAPS_RUN))
                e++;
            if (c < 4 && e == n_out)
                e--;
            if (o + 2 <= e) {
                const int32_t *ox2 = off + o * k, *wq2 = pk + o * (k / 4) * 8;
                int32_t *ac = acc + o * c;
                for (; o + 2 <= e; o += 2, ox2 += 2 * k, wq2 += 2 * (k / 4) * 8, ac += 2 * c) {
                    const __m256i sum = rx_taps_pair_u8(base, k, ox2, wq2, zip2);
                    _mm_storeu_si128((__m128i *)(void *)ac, _mm256_castsi256_si128(sum));
                    _mm_storeu_si128((__m128i *)(void *)(ac + c), _mm256_extracti128_si256(sum, 1));
                }
                continue;
            }
        }
        if (o + 2 <= n_out && (wide[o] & wide[o + 1] & RX_TAPS_RUN)) {
            const __m256i sum = rx_taps_pair_u8(base, k, ox, wq, zip2);
            /* the first's lanes past c land on the second's sums, stored after it */
            rx_store_px_sums(acc, o, c, n_out, _mm256_castsi256_si128(sum));
            rx_store_px_sums(acc, o + 1, c, n_out, _mm256_extracti128_si256(sum, 1));
            o += 2;
            continue;
        }
#endif
        rx_store_px_sums(acc, o, c, n_out, rx_taps_pre_u8_one(base, c, k, ox, wq, wide[o]));
        o++;
    }
#else
    (void)base; (void)n_out; (void)c; (void)k; (void)off; (void)pk; (void)cw; (void)wide;
    (void)acc;
#endif
}

/* rx_taps_pre_u8_ck with c and k constants at each call */
static inline void rx_taps_pre_u8(const uint8_t *base, ptrdiff_t n_out, int c, int k,
                                  const int32_t *off, const int32_t *pk, const int32_t *cw,
                                  const uint8_t *wide, int32_t *acc)
{
#define RX_TAPS_PRE_U8_C(C) do { if (k == 4) rx_taps_pre_u8_ck(base, n_out, C, 4, off, pk, cw, wide, acc); \
                                 else rx_taps_pre_u8_ck(base, n_out, C, 8, off, pk, cw, wide, acc); } while (0)
    switch (c) {
    case 1: RX_TAPS_PRE_U8_C(1); break;
    case 2: RX_TAPS_PRE_U8_C(2); break;
    case 3: RX_TAPS_PRE_U8_C(3); break;
    default: RX_TAPS_PRE_U8_C(4); break;
    }
#undef RX_TAPS_PRE_U8_C
}

/* rx_pairs_px_u8's table laid out once for the rows of a call (_intpass._narrow_rows): per
 * output o its two taps' byte offsets off[o] and off[n_out + o], its weights as one int32 of
 * two int16 pk[o], and adj[o] = 1 where its taps are adjacent pixels of a contiguous row and
 * an 8-byte load at the first stays inside the row (s == c, i0 + 1 == i1, i0 c + 8 <= n_in c).
 * Returns 0 (nothing to use) where a tap lies outside the row, a weight does not fit int16,
 * c is not 1 to 4 or an offset does not fit int32: the caller keeps its own loops. */
static inline int rx_pairs_px_u8_prep(ptrdiff_t n_out, int c, int64_t s, const int64_t *idx,
                                      const int64_t *w, int64_t n_in, int32_t *off,
                                      int32_t *pk, uint8_t *adj)
{
#if defined(RX_SSE2)
    ptrdiff_t o;
    const int64_t last = (s == c && n_in * c >= 8) ? (n_in * c - 8) / c : -1;
    if (c < 1 || c > 4 || s < c || n_in < 1 || (n_in - 1) * s + c > INT32_MAX)
        return 0;
    for (o = 0; o < n_out; o++) {
        const int64_t i0 = idx[2 * o], i1 = idx[2 * o + 1], v0 = w[2 * o], v1 = w[2 * o + 1];
        if (i0 < 0 || i0 >= n_in || i1 < 0 || i1 >= n_in || v0 < INT16_MIN || v0 > INT16_MAX
                || v1 < INT16_MIN || v1 > INT16_MAX)
            return 0;
        off[o] = (int32_t)(i0 * s);
        off[n_out + o] = (int32_t)(i1 * s);
        pk[o] = (int32_t)((uint32_t)(uint16_t)(int16_t)v0
                          | ((uint32_t)(uint16_t)(int16_t)v1 << 16));
        adj[o] = (uint8_t)(i1 == i0 + 1 && i0 <= last);
    }
    return 1;
#else
    (void)n_out; (void)c; (void)s; (void)idx; (void)w; (void)n_in; (void)off; (void)pk;
    (void)adj;
    return 0;
#endif
}

#if defined(RX_AVX2)
/* The byte shuffle that puts bytes 0 and 1 of each 32-bit lane into its two 16-bit halves
 * (zero-extended): two adjacent uint8 taps as a pair for one 16-bit multiply-add */
static RX_ALWAYS_INLINE __m256i rx_lane_pairs_u8(void)
{
    return _mm256_setr_epi8(0, -1, 1, -1, 4, -1, 5, -1, 8, -1, 9, -1, 12, -1, 13, -1,
                            0, -1, 1, -1, 4, -1, 5, -1, 8, -1, 9, -1, 12, -1, 13, -1);
}
#endif

/* rx_pairs_px_u8 (its out16 form: (int16)(sum >> pre) into out16[o c + ch], the planner
 * bounded the sums) over a table laid out by rx_pairs_px_u8_prep: the same integer products
 * and sums, without the checks and the packing of weights per output. AVX2: two outputs of
 * c >= 2 elements in one multiply-add (as rx_pairs_px_u8), or eight one-element outputs whose
 * taps are adjacent: a 4-byte gather at each first tap, its two bytes as a 16-bit pair, one
 * multiply-add of the eight packed weights. c constant at each call (rx_pairs_pre_u8). */
static RX_ALWAYS_INLINE void rx_pairs_pre_u8_c(const uint8_t *base, ptrdiff_t n_out,
                                               const int c, const int32_t *off,
                                               const int32_t *pk, const uint8_t *adj,
                                               int pre, int16_t *out16)
{
#if defined(RX_SSE2)
    ptrdiff_t o = 0;
    const int32_t *off2 = off + n_out;
    const __m128i zero = _mm_setzero_si128(), sh = _mm_cvtsi32_si128(pre);
#if defined(RX_AVX2)
    const __m128i mk = c == 2 ? _mm_setr_epi8(0, 2, 1, 3, -1, -1, -1, -1, 8, 10, 9, 11, -1, -1, -1, -1)
                     : c == 3 ? _mm_setr_epi8(0, 3, 1, 4, 2, 5, -1, -1, 8, 11, 9, 12, 10, 13, -1, -1)
                     : _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    /* pk[o], pk[o + 1] to the low and the high 128-bit lane */
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i pair1 = rx_lane_pairs_u8();
    /* mk in both 128-bit lanes; pk[o], pk[o + 2] and pk[o + 1], pk[o + 3] to the lanes */
    const __m256i mk2 = _mm256_broadcastsi128_si256(mk);
    const __m256i spread02 = _mm256_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2);
    const __m256i spread13 = _mm256_setr_epi32(1, 1, 1, 1, 3, 3, 3, 3);
#else
    (void)adj;
#endif
    while (o < n_out) {
        const uint8_t *pa, *pb;
        uint32_t a, b;
        __m128i v;
#if defined(RX_AVX2)
        if (c == 1 && o + 8 <= n_out) {
            uint64_t flags;
            memcpy(&flags, adj + o, 8);
            if (flags == 0x0101010101010101ULL) {
                __m256i x = _mm256_i32gather_epi32((const int *)(const void *)base,
                                                   _mm256_loadu_si256((const __m256i *)(off + o)),
                                                   1);
                x = _mm256_madd_epi16(_mm256_shuffle_epi8(x, pair1),
                                      _mm256_loadu_si256((const __m256i *)(pk + o)));
                x = _mm256_packs_epi32(_mm256_sra_epi32(x, sh), x);
                _mm_storeu_si128((__m128i *)(out16 + o),
                                 _mm256_castsi256_si128(_mm256_permute4x64_epi64(x, 0x08)));
                o += 8;
                continue;
            }
        }
        /* outputs o .. o + 3 at once (c >= 2, each one 8-byte load): outputs o and o + 2 in
         * the low and high 128-bit lanes of one vector, o + 1 and o + 3 of another (the
         * zipped bytes' low and high halves, zero-extended), a multiply-add each; the same
         * products, sums and stores as two steps below. o + 4 < n_out: the last 4-lane
         * store stays inside the row's n_out c values. */
        if (c >= 2 && o + 4 < n_out) {
            uint32_t four;
            memcpy(&four, adj + o, 4);
            if (four == 0x01010101u) {
                int64_t q0, q1, q2, q3;
                __m256i x, w, p0, p1;
                __m128i l0, l1;
                memcpy(&q0, base + off[o], 8);
                memcpy(&q1, base + off[o + 1], 8);
                memcpy(&q2, base + off[o + 2], 8);
                memcpy(&q3, base + off[o + 3], 8);
                x = _mm256_shuffle_epi8(_mm256_setr_epi64x(q0, q1, q2, q3), mk2);
                w = _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(pk + o)));
                p0 = _mm256_madd_epi16(_mm256_unpacklo_epi8(x, _mm256_setzero_si256()),
                                       _mm256_permutevar8x32_epi32(w, spread02));
                p1 = _mm256_madd_epi16(_mm256_unpackhi_epi8(x, _mm256_setzero_si256()),
                                       _mm256_permutevar8x32_epi32(w, spread13));
                p0 = _mm256_packs_epi32(_mm256_sra_epi32(p0, sh), _mm256_sra_epi32(p1, sh));
                l0 = _mm256_castsi256_si128(p0);
                l1 = _mm256_extracti128_si256(p0, 1);
                _mm_storel_epi64((__m128i *)(out16 + o * c), l0);
                _mm_storel_epi64((__m128i *)(out16 + (o + 1) * c), _mm_unpackhi_epi64(l0, l0));
                _mm_storel_epi64((__m128i *)(out16 + (o + 2) * c), l1);
                _mm_storel_epi64((__m128i *)(out16 + (o + 3) * c), _mm_unpackhi_epi64(l1, l1));
                o += 4;
                continue;
            }
        }
        /* outputs o and o + 1 at once; o + 2 < n_out: the second's 4-lane store stays
         * inside the row's n_out c values (c >= 2) */
        if (c >= 2 && o + 2 < n_out && (adj[o] & adj[o + 1])) {
            int64_t q0, q1;
            __m256i x, p;
            memcpy(&q0, base + off[o], 8);
            memcpy(&q1, base + off[o + 1], 8);
            x = _mm256_cvtepu8_epi16(_mm_shuffle_epi8(_mm_set_epi64x(q1, q0), mk));
            p = _mm256_madd_epi16(x, _mm256_permutevar8x32_epi32(
                _mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(pk + o))), spread));
            p = _mm256_packs_epi32(_mm256_sra_epi32(p, sh), _mm256_setzero_si256());
            _mm_storel_epi64((__m128i *)(out16 + o * c), _mm256_castsi256_si128(p));
            _mm_storel_epi64((__m128i *)(out16 + (o + 1) * c), _mm256_extracti128_si256(p, 1));
            o += 2;
            continue;
        }
#endif
        pa = base + off[o];
        pb = base + off2[o];
        if (c == 1) {
            const int32_t sum = (int32_t)pa[0] * (int16_t)(uint16_t)(uint32_t)pk[o]
                                + (int32_t)pb[0] * (int16_t)(uint16_t)((uint32_t)pk[o] >> 16);
            out16[o] = (int16_t)(sum >> pre);
            o++;
            continue;
        }
        a = rx_px_u8_load(pa, c, 0);    /* the pixel's bytes alone (4 bytes when c == 4) */
        b = rx_px_u8_load(pb, c, 0);
        v = _mm_madd_epi16(_mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)a),
                                                                _mm_cvtsi32_si128((int)b)),
                                             zero),
                           _mm_set1_epi32(pk[o]));
        /* c < 4: the lanes past c land where the next output's values go next */
        rx_store_px16(out16, o, c, n_out, _mm_packs_epi32(_mm_sra_epi32(v, sh), zero));
        o++;
    }
#else
    (void)base; (void)n_out; (void)c; (void)off; (void)pk; (void)adj; (void)pre; (void)out16;
#endif
}

/* rx_pairs_pre_u8_c with c constant at each call */
static inline void rx_pairs_pre_u8(const uint8_t *base, ptrdiff_t n_out, int c,
                                   const int32_t *off, const int32_t *pk, const uint8_t *adj,
                                   int pre, int16_t *out16)
{
    switch (c) {
    case 1: rx_pairs_pre_u8_c(base, n_out, 1, off, pk, adj, pre, out16); break;
    case 2: rx_pairs_pre_u8_c(base, n_out, 2, off, pk, adj, pre, out16); break;
    case 3: rx_pairs_pre_u8_c(base, n_out, 3, off, pk, adj, pre, out16); break;
    default: rx_pairs_pre_u8_c(base, n_out, 4, off, pk, adj, pre, out16); break;
    }
}

/* x0.5 of uint8 rows straight from their interleaved pixels, without unzipping them: output
 * element j (channel k of pixel X) reads channel k of pixels 2X and 2X + 1 of rows r0 and
 * r1, and out[j] = round(q0 * (qa * e0 + qb * o0) + q1 * (qa * e1 + qb * o1)), the integer
 * rx_down2_u8 forms (integer sums in any order are the same; int16 arithmetic wraps, the
 * planner bounded the sum, and maddubs cannot saturate when |qa| + |qb| <= 128). The bytes of
 * each even/odd pair are shuffled next to each other and multiplied and added in one
 * maddubs. AVX2 level only, pixels of 1 to 4 bytes, n >= 16 (a multiple of c); returns 1
 * when it made all n outputs, 0 when the caller must (other levels and shapes). */
static inline int rx_down2_pairs_u8(const uint8_t *r0, const uint8_t *r1, uint8_t *out,
                                    ptrdiff_t n, ptrdiff_t c, int16_t q0, int16_t q1,
                                    int16_t qa, int16_t qb, int shift, int away)
{
#if defined(RX_AVX2)
    ptrdiff_t j;
    __m256i m, wq, w0, w1;
    if (!(c == 1 || c == 2 || c == 3 || c == 4) || n < 16 || qa < -128 || qa > 127
            || qb < -128 || qb > 127 || (qa < 0 ? -qa : qa) + (qb < 0 ? -qb : qb) > 128)
        return 0;
    wq = _mm256_set1_epi16((int16_t)(((uint16_t)(uint8_t)qb << 8) | (uint8_t)qa));
    w0 = _mm256_set1_epi16(q0);
    w1 = _mm256_set1_epi16(q1);
    if (c == 3) {
        /* twelve outputs (four pixel pairs of 6 bytes) a step: bytes 0-11 of the 24 in the
         * low lane, bytes 12-23 in the high one (loaded from byte 8, so no read passes byte
         * 24), each pair's bytes shuffled next to each other; 6 sums per lane, compacted */
        const __m256i m3 = _mm256_setr_epi8(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1,
                                            4, 7, 5, 8, 6, 9, 10, 13, 11, 14, 12, 15, -1, -1, -1, -1);
        const __m128i keep = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1);
        for (j = 0; j < n; j += 12) {
            __m256i v0, v1, sum;
            __m128i b;
            if (j + 12 > n)
                j = n - 12;           /* the last outputs again, overlapping: same values */
            v0 = _mm256_loadu2_m128i((const __m128i *)(r0 + 2 * j + 8), (const __m128i *)(r0 + 2 * j));
            v1 = _mm256_loadu2_m128i((const __m128i *)(r1 + 2 * j + 8), (const __m128i *)(r1 + 2 * j));
            v0 = _mm256_shuffle_epi8(v0, m3);
            v1 = _mm256_shuffle_epi8(v1, m3);
            sum = _mm256_add_epi16(_mm256_mullo_epi16(w0, _mm256_maddubs_epi16(v0, wq)),
                                   _mm256_mullo_epi16(w1, _mm256_maddubs_epi16(v1, wq)));
            b = _mm_shuffle_epi8(rx_round_pack16(sum, shift, 0, away), keep);
            _mm_storel_epi64((__m128i *)(out + j), b);
            {
                int32_t last = _mm_cvtsi128_si32(_mm_srli_si128(b, 8));
                memcpy(out + j + 8, &last, 4);
            }
        }
        return 1;
    }
    if (c == 2)
        m = _mm256_setr_epi8(0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11, 12, 14, 13, 15,
                             0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11, 12, 14, 13, 15);
    else
        m = _mm256_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,
                             0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    for (j = 0; j < n; j += 16) {
        __m256i v0, v1, sum;
        if (j + 16 > n)
            j = n - 16;               /* the last outputs again, overlapping: same values */
        v0 = _mm256_loadu_si256((const __m256i *)(r0 + 2 * j));
        v1 = _mm256_loadu_si256((const __m256i *)(r1 + 2 * j));
        if (c != 1) {                 /* 16-byte lanes hold whole pixel pairs */
            v0 = _mm256_shuffle_epi8(v0, m);
            v1 = _mm256_shuffle_epi8(v1, m);
        }
        sum = _mm256_add_epi16(_mm256_mullo_epi16(w0, _mm256_maddubs_epi16(v0, wq)),
                               _mm256_mullo_epi16(w1, _mm256_maddubs_epi16(v1, wq)));
        _mm_storeu_si128((__m128i *)(out + j), rx_round_pack16(sum, shift, 0, away));
    }
    return 1;
#else
    (void)r0; (void)r1; (void)out; (void)n; (void)c; (void)q0; (void)q1; (void)qa; (void)qb;
    (void)shift; (void)away;
    return 0;
#endif
}

#if defined(RX_SSE2)
/* a[q] holds output o + q of rows 0..3 (lane b = row b): a 4x4 transpose turns lanes-by-row
 * into lanes-by-output, and each row gets one vector store at o. */
static inline void rx_store_rows4(__m128 *a, float *r0, float *r1, float *r2, float *r3,
                                  ptrdiff_t o)
{
    _MM_TRANSPOSE4_PS(a[0], a[1], a[2], a[3]);
    _mm_storeu_ps(r0 + o, a[0]);
    _mm_storeu_ps(r1 + o, a[1]);
    _mm_storeu_ps(r2 + o, a[2]);
    _mm_storeu_ps(r3 + o, a[3]);
}
#endif
#if defined(RX_AVX2)
/* The same for eight outputs: a[q] holds output o + q in its low 128-bit lane and o + q + 4
 * in its high one; the transpose runs within each lane. */
static inline void rx_store_rows8(const __m256 *a, float *r0, float *r1, float *r2,
                                  float *r3, ptrdiff_t o)
{
    __m256 t0 = _mm256_unpacklo_ps(a[0], a[1]), t1 = _mm256_unpackhi_ps(a[0], a[1]);
    __m256 t2 = _mm256_unpacklo_ps(a[2], a[3]), t3 = _mm256_unpackhi_ps(a[2], a[3]);
    _mm256_storeu_ps(r0 + o, _mm256_shuffle_ps(t0, t2, 0x44));
    _mm256_storeu_ps(r1 + o, _mm256_shuffle_ps(t0, t2, 0xEE));
    _mm256_storeu_ps(r2 + o, _mm256_shuffle_ps(t1, t3, 0x44));
    _mm256_storeu_ps(r3 + o, _mm256_shuffle_ps(t1, t3, 0xEE));
}
#endif

/* Four interleaved rows (tmp4[4*i + b] is element i of row b), two taps per output:
 * r_b[o] = w[2o] * tmp4[4*idx[2o] + b] + w[2o+1] * tmp4[4*idx[2o+1] + b]. */
static inline void rx_dense4x2_f32(const float *tmp4, float *r0, float *r1, float *r2,
                                   float *r3, ptrdiff_t n, const int64_t *idx,
                                   const float *w)
{
    ptrdiff_t o = 0;
#if defined(RX_AVX2)
    /* Eight outputs at a time: outputs o..o+3 in the low 128-bit lane, o+4..o+7 in the high
     * one; the same 4x4 transpose as below, within each lane. */
    for (; o + 8 <= n; o += 8) {
        __m256 a[4];
        int q;
        for (q = 0; q < 4; q++) {
            ptrdiff_t lo = 2 * (o + q), hi = 2 * (o + q + 4);
            __m256 p = _mm256_set_m128(_mm_loadu_ps(tmp4 + 4 * idx[hi]),
                                       _mm_loadu_ps(tmp4 + 4 * idx[lo]));
            __m256 r = _mm256_set_m128(_mm_loadu_ps(tmp4 + 4 * idx[hi + 1]),
                                       _mm_loadu_ps(tmp4 + 4 * idx[lo + 1]));
            __m256 wa = _mm256_set_m128(_mm_set1_ps(w[hi]), _mm_set1_ps(w[lo]));
            __m256 wb = _mm256_set_m128(_mm_set1_ps(w[hi + 1]), _mm_set1_ps(w[lo + 1]));
            a[q] = _mm256_add_ps(_mm256_mul_ps(wa, p), _mm256_mul_ps(wb, r));
        }
        rx_store_rows8(a, r0, r1, r2, r3, o);
    }
#endif
#if defined(RX_SSE2)
    /* Four outputs of the four rows at a time: a 4x4 transpose turns lanes-by-row into
     * lanes-by-output, so each row gets one vector store. */
    for (; o + 4 <= n; o += 4) {
        __m128 a[4];
        int q;
        for (q = 0; q < 4; q++) {
            const float *p = tmp4 + 4 * idx[2 * (o + q)], *r = tmp4 + 4 * idx[2 * (o + q) + 1];
            a[q] = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(w[2 * (o + q)]), _mm_loadu_ps(p)),
                              _mm_mul_ps(_mm_set1_ps(w[2 * (o + q) + 1]), _mm_loadu_ps(r)));
        }
        rx_store_rows4(a, r0, r1, r2, r3, o);
    }
    for (; o < n; o++) {
        const float *p = tmp4 + 4 * idx[2 * o], *q = tmp4 + 4 * idx[2 * o + 1];
        float wa = w[2 * o], wb = w[2 * o + 1];
        r0[o] = wa * p[0] + wb * q[0];
        r1[o] = wa * p[1] + wb * q[1];
        r2[o] = wa * p[2] + wb * q[2];
        r3[o] = wa * p[3] + wb * q[3];
    }
#elif defined(__GNUC__) || defined(__clang__)
    typedef float v4f __attribute__((vector_size(16)));
    for (; o < n; o++) {
        v4f p, q, a, wa, wb;
        memcpy(&p, tmp4 + 4 * idx[2 * o], sizeof p);
        memcpy(&q, tmp4 + 4 * idx[2 * o + 1], sizeof q);
        wa = (v4f){w[2 * o], w[2 * o], w[2 * o], w[2 * o]};
        wb = (v4f){w[2 * o + 1], w[2 * o + 1], w[2 * o + 1], w[2 * o + 1]};
        a = wa * p + wb * q;
        r0[o] = a[0];
        r1[o] = a[1];
        r2[o] = a[2];
        r3[o] = a[3];
    }
#else
    for (; o < n; o++) {
        const float *p = tmp4 + 4 * idx[2 * o], *q = tmp4 + 4 * idx[2 * o + 1];
        float wa = w[2 * o], wb = w[2 * o + 1];
        r0[o] = wa * p[0] + wb * q[0];
        r1[o] = wa * p[1] + wb * q[1];
        r2[o] = wa * p[2] + wb * q[2];
        r3[o] = wa * p[3] + wb * q[3];
    }
#endif
}

/* Four interleaved rows, k >= 1 taps per output (rx_dense4x2_f32 for any k):
 * r_b[o] = w[ok] * tmp4[4*idx[ok] + b], then + w[ok+j] * tmp4[4*idx[ok+j] + b] for j = 1..k-1,
 * in that order, each operation rounded to float. */
static inline void rx_dense4k_f32(const float *tmp4, float *r0, float *r1, float *r2,
                                  float *r3, ptrdiff_t n, ptrdiff_t k, const int64_t *idx,
                                  const float *w)
{
    ptrdiff_t o = 0, j;
#if defined(RX_AVX2)
    /* Eight outputs at a time: o..o+3 in the low 128-bit lane, o+4..o+7 in the high one. */
    for (; o + 8 <= n; o += 8) {
        __m256 a[4];
        int q;
        for (q = 0; q < 4; q++) {
            const int64_t *il = idx + (o + q) * k, *ih = idx + (o + q + 4) * k;
            const float *wl = w + (o + q) * k, *wh = w + (o + q + 4) * k;
            a[q] = _mm256_mul_ps(_mm256_set_m128(_mm_set1_ps(wh[0]), _mm_set1_ps(wl[0])),
                                 _mm256_set_m128(_mm_loadu_ps(tmp4 + 4 * ih[0]),
                                                 _mm_loadu_ps(tmp4 + 4 * il[0])));
            for (j = 1; j < k; j++)
                a[q] = _mm256_add_ps(a[q], _mm256_mul_ps(
                    _mm256_set_m128(_mm_set1_ps(wh[j]), _mm_set1_ps(wl[j])),
                    _mm256_set_m128(_mm_loadu_ps(tmp4 + 4 * ih[j]),
                                    _mm_loadu_ps(tmp4 + 4 * il[j]))));
        }
        rx_store_rows8(a, r0, r1, r2, r3, o);
    }
#endif
#if defined(RX_SSE2)
    for (; o + 4 <= n; o += 4) {
        __m128 a[4];
        int q;
        for (q = 0; q < 4; q++) {
            const int64_t *ix = idx + (o + q) * k;
            const float *wt = w + (o + q) * k;
            a[q] = _mm_mul_ps(_mm_set1_ps(wt[0]), _mm_loadu_ps(tmp4 + 4 * ix[0]));
            for (j = 1; j < k; j++)
                a[q] = _mm_add_ps(a[q], _mm_mul_ps(_mm_set1_ps(wt[j]),
                                                   _mm_loadu_ps(tmp4 + 4 * ix[j])));
        }
        rx_store_rows4(a, r0, r1, r2, r3, o);
    }
#endif
    for (; o < n; o++) {
        const float *p = tmp4 + 4 * idx[o * k];
        float wt = w[o * k];
        float a0 = wt * p[0], a1 = wt * p[1], a2 = wt * p[2], a3 = wt * p[3];
        for (j = 1; j < k; j++) {
            p = tmp4 + 4 * idx[o * k + j];
            wt = w[o * k + j];
            a0 = a0 + wt * p[0];
            a1 = a1 + wt * p[1];
            a2 = a2 + wt * p[2];
            a3 = a3 + wt * p[3];
        }
        r0[o] = a0;
        r1[o] = a1;
        r2[o] = a2;
        r3[o] = a3;
    }
}

/* Sixteen or thirty-two int32 lanes (four vectors, in order) into as many bytes, saturated
 * to int8 or uint8 by two packs (the values are in range already: the packs only narrow). The
 * AVX2 packs work within 128-bit lanes, so a final permutation puts the 4-byte groups back in
 * order. */
#if defined(RX_AVX2)
static inline void rx_pack32_8(const __m256i *r, unsigned char *d, int is_signed)
{
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i a = _mm256_packs_epi32(r[0], r[1]), b = _mm256_packs_epi32(r[2], r[3]);
    __m256i c = is_signed ? _mm256_packs_epi16(a, b) : _mm256_packus_epi16(a, b);
    _mm256_storeu_si256((__m256i *)d, _mm256_permutevar8x32_epi32(c, order));
}
#endif
#if defined(RX_SSE2)
static inline void rx_pack16_8(const __m128i *r, unsigned char *d, int is_signed)
{
    __m128i a = _mm_packs_epi32(r[0], r[1]), b = _mm_packs_epi32(r[2], r[3]);
    _mm_storeu_si128((__m128i *)d, is_signed ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b));
}
#endif

/* As rx_store8_f32, rounding half away from zero (C round()): clamp (NaN -> lo), truncate
 * (exact: the clamped values are small), then step away from zero where the part cut off,
 * v - trunc(v), exact too, is a half or more. The same integer as the scalar loop of every
 * other level, with no call to roundf. */
static inline void rx_store8_f32_away(const float *buf, void *dst, ptrdiff_t n, float lo,
                                      float hi)
{
    ptrdiff_t j = 0;
    unsigned char *d = (unsigned char *)dst;
#if defined(RX_AVX2)
    {
        const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
        const __m256 half = _mm256_set1_ps(0.5f), mhalf = _mm256_set1_ps(-0.5f);
        for (; j + 32 <= n; j += 32) {
            __m256i r[4];
            int q;
            for (q = 0; q < 4; q++) {
                __m256 v = _mm256_min_ps(_mm256_max_ps(_mm256_loadu_ps(buf + j + 8 * q), vlo),
                                         vhi);
                __m256i t = _mm256_cvttps_epi32(v);
                __m256 f = _mm256_sub_ps(v, _mm256_cvtepi32_ps(t));
                t = _mm256_sub_epi32(t, _mm256_castps_si256(_mm256_cmp_ps(f, half, _CMP_GE_OQ)));
                r[q] = _mm256_add_epi32(t, _mm256_castps_si256(_mm256_cmp_ps(f, mhalf,
                                                                              _CMP_LE_OQ)));
            }
            rx_pack32_8(r, d + j, lo < 0.0f);
        }
    }
#endif
#if defined(RX_SSE2)
    {
        const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi);
        const __m128 half = _mm_set1_ps(0.5f), mhalf = _mm_set1_ps(-0.5f);
        for (; j + 16 <= n; j += 16) {
            __m128i r[4];
            int q;
            for (q = 0; q < 4; q++) {
                __m128 v = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(buf + j + 4 * q), vlo), vhi);
                __m128i t = _mm_cvttps_epi32(v);
                __m128 f = _mm_sub_ps(v, _mm_cvtepi32_ps(t));
                t = _mm_sub_epi32(t, _mm_castps_si128(_mm_cmpge_ps(f, half)));
                r[q] = _mm_add_epi32(t, _mm_castps_si128(_mm_cmple_ps(f, mhalf)));
            }
            rx_pack16_8(r, d + j, lo < 0.0f);
        }
    }
#endif
    for (; j < n; j++) {
        float v = buf[j], f;
        int t;
        v = v >= lo ? v : lo;
        v = v <= hi ? v : hi;
        t = (int)v;
        f = v - (float)t;
        d[j] = (unsigned char)(t + (f >= 0.5f) - (f <= -0.5f));
    }
}

/* Round float accumulators half-to-even and saturate into [lo, hi] (8-bit types), contiguous.
 * Clamp first (the bounds are integers, so the result is the same as rounding first), then
 * add 1.5 * 2^23: for |v| <= 2^22 the sum's low mantissa bits are the rounded integer
 * (round-to-nearest-even is the FPU's mode), read off the bit pattern; the low byte is the
 * uint8 or int8 (two's complement) pattern. NaN cannot occur (integer data); it would
 * saturate to lo. */
static inline void rx_store8_f32(const float *buf, void *dst, ptrdiff_t n, float lo, float hi)
{
    ptrdiff_t j = 0;
    unsigned char *d = (unsigned char *)dst;
#if defined(RX_AVX2)
    {
        /* 32 at a time, as the SSE2 loop below. */
        const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
        const __m256 magic = _mm256_set1_ps(12582912.0f);
        const __m256i bias = _mm256_set1_epi32(0x4B400000);
        for (; j + 32 <= n; j += 32) {
            __m256i r[4];
            int q;
            for (q = 0; q < 4; q++) {
                __m256 v = _mm256_loadu_ps(buf + j + 8 * q);
                v = _mm256_add_ps(_mm256_min_ps(_mm256_max_ps(v, vlo), vhi), magic);
                r[q] = _mm256_sub_epi32(_mm256_castps_si256(v), bias);
            }
            rx_pack32_8(r, d + j, lo < 0.0f);
        }
    }
#endif
#if defined(RX_SSE2)
    /* 16 at a time: max/min (MAXPS returns its second operand for NaN: -> lo), the magic add,
     * then two saturating packs (values are already in range, so they only narrow). */
    const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi), magic = _mm_set1_ps(12582912.0f);
    const __m128i bias = _mm_set1_epi32(0x4B400000);
    for (; j + 16 <= n; j += 16) {
        __m128i r[4];
        int q;
        for (q = 0; q < 4; q++) {
            __m128 v = _mm_loadu_ps(buf + j + 4 * q);
            v = _mm_add_ps(_mm_min_ps(_mm_max_ps(v, vlo), vhi), magic);
            r[q] = _mm_sub_epi32(_mm_castps_si128(v), bias);
        }
        rx_pack16_8(r, d + j, lo < 0.0f);
    }
#elif defined(__GNUC__) || defined(__clang__)
    typedef float v4f __attribute__((vector_size(16)));
    typedef int v4i __attribute__((vector_size(16)));
    const v4f vlo = {lo, lo, lo, lo}, vhi = {hi, hi, hi, hi};
    const v4f magic = {12582912.0f, 12582912.0f, 12582912.0f, 12582912.0f};
    const v4i bias = {0x4B400000, 0x4B400000, 0x4B400000, 0x4B400000};
    for (; j + 4 <= n; j += 4) {
        v4f v;
        v4i m, r;
        memcpy(&v, buf + j, sizeof v);
        m = (v4i)(v >= vlo);            /* NaN compares false: -> lo */
        v = (v4f)(((v4i)v & m) | ((v4i)vlo & ~m));
        m = (v4i)(v <= vhi);
        v = (v4f)(((v4i)v & m) | ((v4i)vhi & ~m));
        v = v + magic;
        r = (v4i)v - bias;
        d[j] = (unsigned char)r[0];
        d[j + 1] = (unsigned char)r[1];
        d[j + 2] = (unsigned char)r[2];
        d[j + 3] = (unsigned char)r[3];
    }
#endif
    for (; j < n; j++) {
        float v = buf[j];
        int r;
        v = v >= lo ? v : lo;
        v = v <= hi ? v : hi;
        v = v + 12582912.0f;
        memcpy(&r, &v, sizeof r);
        d[j] = (unsigned char)(r - 0x4B400000);
    }
}

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

/* Eight 32-bit lanes whose low 16 bits are wanted -> eight uint16 (SSE2 has no unsigned
 * 32->16 pack: sign-extend the low halves, then the signed pack keeps the bit patterns). */
#if defined(RX_SSE2)
static inline __m128i rx_low16x8(__m128i a, __m128i b)
{
    a = _mm_srai_epi32(_mm_slli_epi32(a, 16), 16);
    b = _mm_srai_epi32(_mm_slli_epi32(b, 16), 16);
    return _mm_packs_epi32(a, b);
}

static inline __m128i rx_select(__m128i m, __m128i a, __m128i b)
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

/* Unsigned a < b on 32-bit lanes (SSE2 compares are signed: flip the sign bits). */
static inline __m128i rx_ltu32(__m128i a, __m128i b)
{
    const __m128i flip = _mm_set1_epi32((int)0x80000000u);
    return _mm_cmplt_epi32(_mm_xor_si128(a, flip), _mm_xor_si128(b, flip));
}

static inline __m128i rx_f32_to_f16x4(__m128 f)
{
    const __m128i absmask = _mm_set1_epi32(0x7FFFFFFF);
    __m128i x = _mm_castps_si128(f), ax = _mm_and_si128(x, absmask);
    __m128i sign = _mm_and_si128(_mm_srli_epi32(x, 16), _mm_set1_epi32(0x8000));
    __m128i odd = _mm_and_si128(_mm_srli_epi32(ax, 13), _mm_set1_epi32(1));
    __m128i normal = _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(
        _mm_sub_epi32(ax, _mm_set1_epi32(0x38000000)), _mm_set1_epi32(0xFFF)), odd), 13);
    __m128i sub = _mm_sub_epi32(_mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(ax),
                                                             _mm_set1_ps(0.5f))),
                                _mm_set1_epi32(0x3F000000));
    __m128i payload = _mm_srli_epi32(_mm_and_si128(ax, _mm_set1_epi32(0x7FFFFF)), 13);
    __m128i nanv = _mm_or_si128(_mm_or_si128(_mm_set1_epi32(0x7C00), payload),
                                _mm_and_si128(_mm_cmpeq_epi32(payload, _mm_setzero_si128()),
                                              _mm_set1_epi32(1)));
    __m128i r = rx_select(rx_ltu32(ax, _mm_set1_epi32(0x38800000)), sub, normal);
    r = rx_select(rx_ltu32(ax, _mm_set1_epi32(0x477FF000)), r, _mm_set1_epi32(0x7C00));
    r = rx_select(rx_ltu32(_mm_set1_epi32(0x7F800000), ax), nanv, r);
    return _mm_or_si128(r, sign);
}
#endif

static inline void rx_store_f16(const float *buf, uint16_t *d, ptrdiff_t n)
{
    ptrdiff_t j = 0;
#if defined(RX_AVX2)
    /* F16C rounds to nearest-even with subnormals and overflow as the rule above; it would
     * quiet a signalling NaN, so a group of eight holding a NaN takes the scalar rule. */
    for (; j + 8 <= n; j += 8) {
        __m256 v = _mm256_loadu_ps(buf + j);
        if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {
            int q;
            for (q = 0; q < 8; q++) {
                uint32_t x;
                memcpy(&x, buf + j + q, 4);
                d[j + q] = rx_f32_to_f16_scalar(x);
            }
        } else {
            _mm_storeu_si128((__m128i *)(d + j),
                             _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
        }
    }
#endif
#if defined(RX_SSE2)
    for (; j + 8 <= n; j += 8) {
        __m128i a = rx_f32_to_f16x4(_mm_loadu_ps(buf + j));
        __m128i b = rx_f32_to_f16x4(_mm_loadu_ps(buf + j + 4));
        _mm_storeu_si128((__m128i *)(d + j), rx_low16x8(a, b));
    }
#elif defined(__GNUC__) || defined(__clang__)
    typedef unsigned int v4u __attribute__((vector_size(16)));
    typedef int v4i __attribute__((vector_size(16)));
    typedef float v4f __attribute__((vector_size(16)));
    for (; j + 4 <= n; j += 4) {
        v4u x, ax, sign, normal, sub, nanv, r, payload;
        v4i m;
        v4f fa;
        memcpy(&x, buf + j, 16);
        sign = (x >> 16) & 0x8000u;
        ax = x & 0x7FFFFFFFu;
        normal = (ax - 0x38000000u + 0xFFFu + ((ax >> 13) & 1u)) >> 13;
        memcpy(&fa, &ax, 16);
        fa = fa + 0.5f;
        memcpy(&sub, &fa, 16);
        sub = sub - 0x3F000000u;
        payload = (ax & 0x7FFFFFu) >> 13;
        nanv = 0x7C00u | payload | (v4u)((v4i)(payload == 0u) & 1);
        m = (v4i)(ax < 0x38800000u);
        r = (sub & (v4u)m) | (normal & ~(v4u)m);
        m = (v4i)(ax >= 0x477FF000u);
        r = (0x7C00u & (v4u)m) | (r & ~(v4u)m);
        m = (v4i)(ax > 0x7F800000u);
        r = (nanv & (v4u)m) | (r & ~(v4u)m);
        r = r | sign;
        d[j] = (uint16_t)r[0];
        d[j + 1] = (uint16_t)r[1];
        d[j + 2] = (uint16_t)r[2];
        d[j + 3] = (uint16_t)r[3];
    }
#endif
    for (; j < n; j++) {
        uint32_t x;
        memcpy(&x, buf + j, 4);
        d[j] = rx_f32_to_f16_scalar(x);
    }
}

static inline float rx_f16_to_f32_scalar(uint32_t h)
{
    uint32_t o = (h & 0x7FFFu) << 13, e = o & 0x0F800000u;
    float f;
    o += 0x38000000u;
    if (e == 0x0F800000u) {
        o += 0x38000000u;
    } else if (e == 0u) {
        o += 0x00800000u;
        memcpy(&f, &o, 4);
        f -= 6.103515625e-05f;
        memcpy(&o, &f, 4);
    }
    o |= (h & 0x8000u) << 16;
    memcpy(&f, &o, 4);
    return f;
}

static inline void rx_load_f16(const uint16_t *s, float *out, ptrdiff_t n)
{
    ptrdiff_t j = 0;
#if defined(RX_AVX2)
    /* F16C is exact for every finite value and infinity; it would quiet a signalling NaN,
     * so a group of eight holding an exponent of all ones takes the scalar rule. */
    {
        const __m128i expmask = _mm_set1_epi16(0x7C00);
        for (; j + 8 <= n; j += 8) {
            __m128i h = _mm_loadu_si128((const __m128i *)(s + j));
            if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(h, expmask), expmask))) {
                int q;
                for (q = 0; q < 8; q++)
                    out[j + q] = rx_f16_to_f32_scalar(s[j + q]);
            } else {
                _mm256_storeu_ps(out + j, _mm256_cvtph_ps(h));
            }
        }
    }
#elif defined(__GNUC__) || defined(__clang__)
    typedef unsigned int v4u __attribute__((vector_size(16)));
    typedef int v4i __attribute__((vector_size(16)));
    typedef float v4f __attribute__((vector_size(16)));
    for (; j + 4 <= n; j += 4) {
        v4u h = {s[j], s[j + 1], s[j + 2], s[j + 3]};
        v4u o = (h & 0x7FFFu) << 13, e = o & 0x0F800000u, sub;
        v4i m;
        v4f f;
        o = o + 0x38000000u;                       /* rebias the exponent */
        m = (v4i)(e == 0x0F800000u);               /* inf / NaN: exponent to 255 */
        o = o + (0x38000000u & (v4u)m);
        sub = o + 0x00800000u;                     /* zero / subnormal: renormalise */
        memcpy(&f, &sub, 16);
        f = f - 6.103515625e-05f;                  /* 2^-14 */
        memcpy(&sub, &f, 16);
        m = (v4i)(e == 0u);
        o = (sub & (v4u)m) | (o & ~(v4u)m);
        o = o | ((h & 0x8000u) << 16);
        memcpy(out + j, &o, 16);
    }
#endif
    for (; j < n; j++)
        out[j] = rx_f16_to_f32_scalar(s[j]);
}

/* float16 rows for _row_outer: buf[j] = w[t0] x_t0[j], then buf[j] + w[t] x_t[j] for t = t0 + 1
 * .. t1 - 1 (x_t: the float16 row at s + off[t]; t1 > t0), each product and sum rounded to
 * float, in that order: the chunked form's values (rx_load_f16, then the blend). With F16C
 * (RX_AVX2 builds) the sums of 16 (AVX-512) or 8 elements stay in a register across the taps
 * and each row's elements are converted as they are loaded, without a row of floats in
 * between: F16C quiets a signalling NaN, which the product quiets anyway (the same bits).
 * Returns 0 where it did nothing (no F16C: the caller converts in chunks). */
static inline int rx_blend_f16(const char *s, float *buf, ptrdiff_t n, ptrdiff_t t0,
                               ptrdiff_t t1, const int64_t *off, const float *w)
{
#if defined(RX_AVX2)
    ptrdiff_t j = 0, t;
    /* LANES elements a step, loaded by rx_ld8_rows / rx_ld16_rows (F16C) */
#define RX_BLEND(LANES, VF, P, LD)                                                          \
    for (; j + LANES <= n; j += LANES) {                                                    \
        VF acc = P##_mul_ps(P##_set1_ps(w[t0]), LD(s + off[t0], j, RX_ROWS_F16));           \
        for (t = t0 + 1; t < t1; t++)                                                       \
            acc = P##_add_ps(acc, P##_mul_ps(P##_set1_ps(w[t]),                             \
                                             LD(s + off[t], j, RX_ROWS_F16)));              \
        P##_storeu_ps(buf + j, acc);                                                        \
    }
#if defined(__AVX512F__) && defined(__AVX512BW__)
    RX_BLEND(16, __m512, _mm512, rx_ld16_rows)
#endif
    RX_BLEND(8, __m256, _mm256, rx_ld8_rows)
#undef RX_BLEND
    for (; j < n; j++) {
        float acc = w[t0] * rx_ld1_rows(s + off[t0], j, RX_ROWS_F16);
        for (t = t0 + 1; t < t1; t++)
            acc = acc + w[t] * rx_ld1_rows(s + off[t], j, RX_ROWS_F16);
        buf[j] = acc;
    }
    return 1;
#else
    (void)s; (void)buf; (void)n; (void)t0; (void)t1; (void)off; (void)w;
    return 0;
#endif
}

/* float32 -> bfloat16, round to nearest-even; NaN keeps sign and top payload, made quiet. */
static inline void rx_store_bf16(const float *buf, uint16_t *d, ptrdiff_t n)
{
    ptrdiff_t j = 0;
#if defined(RX_AVX2)
    for (; j + 16 <= n; j += 16) {
        __m256i r[2];
        int q;
        for (q = 0; q < 2; q++) {
            __m256i u = _mm256_castps_si256(_mm256_loadu_ps(buf + j + 8 * q));
            __m256i ax = _mm256_and_si256(u, _mm256_set1_epi32(0x7FFFFFFF));
            __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
            __m256i rounded = _mm256_srli_epi32(
                _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7FFF)), odd), 16);
            __m256i nanv = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x0040));
            /* ax <= 0x7FFFFFFF: the signed compare is the unsigned one */
            __m256i isnan = _mm256_cmpgt_epi32(ax, _mm256_set1_epi32(0x7F800000));
            r[q] = _mm256_blendv_epi8(rounded, nanv, isnan);
        }
        /* every lane is in [0, 0xFFFF]: the saturating pack only narrows; then undo the
         * per-128-bit-lane interleave */
        _mm256_storeu_si256((__m256i *)(d + j),
                            _mm256_permute4x64_epi64(_mm256_packus_epi32(r[0], r[1]), 0xD8));
    }
#endif
#if defined(RX_SSE2)
    for (; j + 8 <= n; j += 8) {
        __m128i r[2];
        int q;
        for (q = 0; q < 2; q++) {
            __m128i u = _mm_castps_si128(_mm_loadu_ps(buf + j + 4 * q));
            __m128i ax = _mm_and_si128(u, _mm_set1_epi32(0x7FFFFFFF));
            __m128i odd = _mm_and_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(1));
            __m128i rounded = _mm_srli_epi32(
                _mm_add_epi32(_mm_add_epi32(u, _mm_set1_epi32(0x7FFF)), odd), 16);
            __m128i nanv = _mm_or_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(0x0040));
            r[q] = rx_select(rx_ltu32(_mm_set1_epi32(0x7F800000), ax), nanv, rounded);
        }
        _mm_storeu_si128((__m128i *)(d + j), rx_low16x8(r[0], r[1]));
    }
#endif
    for (; j < n; j++) {
        uint32_t u;
        memcpy(&u, buf + j, 4);
        if ((u & 0x7FFFFFFFu) > 0x7F800000u)
            d[j] = (uint16_t)((u >> 16) | 0x0040u);
        else
            d[j] = (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
    }
}

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

/* The second pass of an int32 fused integer pair (_intpass.pyx _fused_rows) for 2 or 4 taps
 * without shifts, finish 0 and a uint8 store: per element a = 0; a = a + w * h for each tap
 * in order, then ((a + bias) * mult) >> shift saturated to 0..255, the same integers as the
 * tap loop, finish and store one after the other. The planner bounds every partial sum
 * inside int32. `restrict`: the rows and the output do not overlap (uint8 stores could alias
 * anything otherwise, and the loop would not vectorise). */
static inline uint8_t rx_sat_u8(int32_t a) {
    return (uint8_t)(a < 0 ? 0 : (a > 255 ? 255 : a));
}

static inline void rx_blend2_u8(const int32_t *restrict h0, const int32_t *restrict h1,
                                int32_t w0, int32_t w1, ptrdiff_t m, int32_t bias,
                                int32_t mult, int shift, uint8_t *restrict d) {
    ptrdiff_t j;
    for (j = 0; j < m; j++) {
        int32_t a = w0 * h0[j];
        a = a + w1 * h1[j];
        d[j] = rx_sat_u8(((a + bias) * mult) >> shift);
    }
}

static inline void rx_blend4_u8(const int32_t *restrict h0, const int32_t *restrict h1,
                                const int32_t *restrict h2, const int32_t *restrict h3,
                                const int64_t *w, ptrdiff_t m, int32_t bias, int32_t mult,
                                int shift, uint8_t *restrict d) {
    ptrdiff_t j;
    const int32_t w0 = (int32_t)w[0], w1 = (int32_t)w[1], w2 = (int32_t)w[2], w3 = (int32_t)w[3];
    for (j = 0; j < m; j++) {
        int32_t a = w0 * h0[j];
        a = a + w1 * h1[j];
        a = a + w2 * h2[j];
        a = a + w3 * h3[j];
        d[j] = rx_sat_u8(((a + bias) * mult) >> shift);
    }
}

/* acc[e] = sum over taps t of w[t] * p[t][e], e in [0, n), from 0 in tap order, for 4 or 8
 * taps of uint8 rows (the rows a x0.5 integer pass reads through the even and odd pixels of an
 * unzipped input row, _intpass.pyx _down2_row). Integer sums bounded inside int32 by the
 * planner; `restrict` so the loop vectorises. */
static inline void rx_taps4_u8(const uint8_t *restrict p0, const uint8_t *restrict p1,
                               const uint8_t *restrict p2, const uint8_t *restrict p3,
                               const int64_t *w, ptrdiff_t n, int32_t *restrict acc) {
    const int32_t w0 = (int32_t)w[0], w1 = (int32_t)w[1], w2 = (int32_t)w[2], w3 = (int32_t)w[3];
    ptrdiff_t e;
    for (e = 0; e < n; e++)
        acc[e] = w0 * p0[e] + w1 * p1[e] + w2 * p2[e] + w3 * p3[e];
}

static inline void rx_taps8_u8(const uint8_t *const *p, const int64_t *w, ptrdiff_t n,
                               int32_t *restrict acc) {
    const uint8_t *restrict p0 = p[0], *restrict p1 = p[1], *restrict p2 = p[2];
    const uint8_t *restrict p3 = p[3], *restrict p4 = p[4], *restrict p5 = p[5];
    const uint8_t *restrict p6 = p[6], *restrict p7 = p[7];
    const int32_t w0 = (int32_t)w[0], w1 = (int32_t)w[1], w2 = (int32_t)w[2], w3 = (int32_t)w[3];
    const int32_t w4 = (int32_t)w[4], w5 = (int32_t)w[5], w6 = (int32_t)w[6], w7 = (int32_t)w[7];
    ptrdiff_t e;
    for (e = 0; e < n; e++)
        acc[e] = w0 * p0[e] + w1 * p1[e] + w2 * p2[e] + w3 * p3[e]
               + w4 * p4[e] + w5 * p5[e] + w6 * p6[e] + w7 * p7[e];
}

/* OpenCV's vector head of the uint8 cubic vertical pass (_intpass.pyx _float_head) for 4 taps,
 * each element in a register: f = w3 * (float)h3; f = w2 * (float)h2 + f; ...; then rounded
 * half to even and saturated to uint8. Each product and sum rounded to float (the build passes
 * -ffp-contract=off), the same operations in the same order as the row loops. */
static inline void rx_head4_u8(const int32_t *restrict h0, const int32_t *restrict h1,
                               const int32_t *restrict h2, const int32_t *restrict h3,
                               float w0, float w1, float w2, float w3, ptrdiff_t m,
                               uint8_t *restrict d) {
    ptrdiff_t j = 0;
#if defined(RX_AVX2)
    {
        /* 16 elements a step: the same float operations lane by lane; the sums are finite
         * (int32 rows, finite weights), so clamping to [0, 255] before the rounding
         * conversion (cvtps2dq, to nearest even as rintf) gives the same integers as after */
        const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        const __m256 v0 = _mm256_set1_ps(w0), v1 = _mm256_set1_ps(w1), v2 = _mm256_set1_ps(w2);
        const __m256 v3 = _mm256_set1_ps(w3), lo = _mm256_setzero_ps();
        const __m256 hi = _mm256_set1_ps(255.0f);
        for (; j + 16 <= m; j += 16) {
            __m256i q[2];
            int u;
            for (u = 0; u < 2; u++) {
                const ptrdiff_t e = j + 8 * u;
                __m256 f = _mm256_mul_ps(v3, _mm256_cvtepi32_ps(
                    _mm256_loadu_si256((const __m256i *)(h3 + e))));
                f = _mm256_add_ps(_mm256_mul_ps(v2, _mm256_cvtepi32_ps(
                    _mm256_loadu_si256((const __m256i *)(h2 + e)))), f);
                f = _mm256_add_ps(_mm256_mul_ps(v1, _mm256_cvtepi32_ps(
                    _mm256_loadu_si256((const __m256i *)(h1 + e)))), f);
                f = _mm256_add_ps(_mm256_mul_ps(v0, _mm256_cvtepi32_ps(
                    _mm256_loadu_si256((const __m256i *)(h0 + e)))), f);
                q[u] = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f, lo), hi));
            }
            /* 16 values in [0, 255]: packed lane by lane, then put in order */
            {
                const __m256i w16 = _mm256_packus_epi32(q[0], q[1]);   /* a0-3 b0-3 | a4-7 b4-7 */
                const __m256i b8 = _mm256_permutevar8x32_epi32(
                    _mm256_packus_epi16(w16, w16), order);
                _mm_storeu_si128((__m128i *)(d + j), _mm256_castsi256_si128(b8));
            }
        }
    }
#endif
    for (; j < m; j++) {
        float f = w3 * (float)h3[j];
        f = w2 * (float)h2[j] + f;
        f = w1 * (float)h1[j] + f;
        f = w0 * (float)h0[j] + f;
        f = rintf(f);
        d[j] = (uint8_t)(int32_t)(f < 0.0f ? 0.0f : (f > 255.0f ? 255.0f : f));
    }
}

/* ---- the narrow ring of a fused integer pair (_intpass.pyx _narrow_rows): the first
 * pass's sums kept as int16 after their shift right by `pre`, the second pass's two taps as
 * 16-bit high products: ((h >> pre) * w) >> 16 is the high half of an int16 x int16 product,
 * exactly (OpenCV's own vertical form for uint8 linear). The planner bounds every value these
 * kernels form inside int16 and every weight inside int16. */

/* out[e] = (u * a[e] + v * b[e]) >> pre, the sum in int32 (exact), for uint8 rows a and b:
 * the even or the odd outputs of a x2 run (exact._up2_run), one contiguous row each. */
static inline void rx_pair16_u8(const uint8_t *restrict a, const uint8_t *restrict b,
                                int32_t u, int32_t v, int pre, ptrdiff_t n,
                                int16_t *restrict out)
{
    ptrdiff_t e = 0;
#if defined(RX_AVX2)
    {
        const __m256i uv = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)v << 16)
                                                       | (uint16_t)u));
        const __m128i sh = _mm_cvtsi32_si128(pre);
        for (; e + 16 <= n; e += 16) {
            __m256i x = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(a + e)));
            __m256i y = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(b + e)));
            /* lane by lane: (x0 y0 .. x3 y3 | x8 y8 ..), (x4 y4 .. | x12 y12 ..) */
            __m256i lo = _mm256_sra_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(x, y), uv), sh);
            __m256i hi = _mm256_sra_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(x, y), uv), sh);
            _mm256_storeu_si256((__m256i *)(out + e), _mm256_packs_epi32(lo, hi));
        }
    }
#elif defined(RX_SSE2)
    {
        const __m128i uv = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)v << 16)
                                                    | (uint16_t)u));
        const __m128i sh = _mm_cvtsi32_si128(pre), z = _mm_setzero_si128();
        for (; e + 8 <= n; e += 8) {
            __m128i x = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(a + e)), z);
            __m128i y = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(b + e)), z);
            __m128i lo = _mm_sra_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(x, y), uv), sh);
            __m128i hi = _mm_sra_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(x, y), uv), sh);
            _mm_storeu_si128((__m128i *)(out + e), _mm_packs_epi32(lo, hi));
        }
    }
#endif
    for (; e < n; e++)
        out[e] = (int16_t)((u * (int32_t)a[e] + v * (int32_t)b[e]) >> pre);
}

/* out[e] = h[e] >> pre as int16 (the value fits: the planner bounded it) */
static inline void rx_narrow16(const int32_t *restrict h, ptrdiff_t n, int pre,
                               int16_t *restrict out)
{
    ptrdiff_t e = 0;
#if defined(RX_SSE2)
    const __m128i sh = _mm_cvtsi32_si128(pre);
    for (; e + 8 <= n; e += 8) {
        __m128i lo = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)(h + e)), sh);
        __m128i hi = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)(h + e + 4)), sh);
        _mm_storeu_si128((__m128i *)(out + e), _mm_packs_epi32(lo, hi));
    }
#endif
    for (; e < n; e++)
        out[e] = (int16_t)(h[e] >> pre);
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

/* d[j] = saturate_u8((((h0[j] * w0) >> 16) + ((h1[j] * w1) >> 16) + bias) >> shift): the
 * second pass of a narrow ring (two taps, post 16, mult 1), each product the high half of
 * an int16 x int16 product, the sum and bias bounded inside int16 by the planner. */
static inline void rx_blend2_s16(const int16_t *restrict h0, const int16_t *restrict h1,
                                 int32_t w0, int32_t w1, ptrdiff_t m, int32_t bias,
                                 int shift, uint8_t *restrict d)
{
    ptrdiff_t j = 0;
#if defined(RX_AVX2)
    {
        const __m256i a0 = _mm256_set1_epi16((int16_t)w0), a1 = _mm256_set1_epi16((int16_t)w1);
        const __m256i bb = _mm256_set1_epi16((int16_t)bias);
        const __m128i sh = _mm_cvtsi32_si128(shift);
        for (; j + 32 <= m; j += 32) {
            __m256i s0 = _mm256_add_epi16(
                _mm256_mulhi_epi16(_mm256_loadu_si256((const __m256i *)(h0 + j)), a0),
                _mm256_mulhi_epi16(_mm256_loadu_si256((const __m256i *)(h1 + j)), a1));
            __m256i s1 = _mm256_add_epi16(
                _mm256_mulhi_epi16(_mm256_loadu_si256((const __m256i *)(h0 + j + 16)), a0),
                _mm256_mulhi_epi16(_mm256_loadu_si256((const __m256i *)(h1 + j + 16)), a1));
            s0 = _mm256_sra_epi16(_mm256_add_epi16(s0, bb), sh);
            s1 = _mm256_sra_epi16(_mm256_add_epi16(s1, bb), sh);
            /* packus works in 128-bit lanes: (s0 lo, s1 lo | s0 hi, s1 hi) -> in order */
            _mm256_storeu_si256((__m256i *)(d + j),
                                _mm256_permute4x64_epi64(_mm256_packus_epi16(s0, s1), 0xD8));
        }
    }
#endif
#if defined(RX_SSE2)
    {
        const __m128i a0 = _mm_set1_epi16((int16_t)w0), a1 = _mm_set1_epi16((int16_t)w1);
        const __m128i bb = _mm_set1_epi16((int16_t)bias);
        const __m128i sh = _mm_cvtsi32_si128(shift);
        for (; j + 16 <= m; j += 16) {
            __m128i s0 = _mm_add_epi16(
                _mm_mulhi_epi16(_mm_loadu_si128((const __m128i *)(h0 + j)), a0),
                _mm_mulhi_epi16(_mm_loadu_si128((const __m128i *)(h1 + j)), a1));
            __m128i s1 = _mm_add_epi16(
                _mm_mulhi_epi16(_mm_loadu_si128((const __m128i *)(h0 + j + 8)), a0),
                _mm_mulhi_epi16(_mm_loadu_si128((const __m128i *)(h1 + j + 8)), a1));
            s0 = _mm_sra_epi16(_mm_add_epi16(s0, bb), sh);
            s1 = _mm_sra_epi16(_mm_add_epi16(s1, bb), sh);
            _mm_storeu_si128((__m128i *)(d + j), _mm_packus_epi16(s0, s1));
        }
    }
#endif
    for (; j < m; j++) {
        int32_t a = (((int32_t)h0[j] * w0) >> 16) + (((int32_t)h1[j] * w1) >> 16);
        d[j] = rx_sat_u8((a + bias) >> shift);
    }
}

/* OpenCV's float32 2x2 area (ResizeAreaFastVec_SIMD_32f) over one row of whole blocks:
 * out[x*c + k] = ((r0[2xc + k] + r0[2xc + c + k]) + (r1[2xc + k] + r1[2xc + c + k])) * scale
 * for x < wo, pixels of c floats (c == 1 and c == 4 in vectors, each lane the same
 * operations in the same order; others scalar). */
static inline void rx_area2x2_f32(const float *r0, const float *r1, float *out, ptrdiff_t wo,
                                  ptrdiff_t c, float scale)
{
    ptrdiff_t x = 0, k;
#if defined(RX_SSE2)
    const __m128 s = _mm_set1_ps(scale);
    if (c == 1) {
        for (; x + 4 <= wo; x += 4) {
            __m128 a0 = _mm_loadu_ps(r0 + 2 * x), a1 = _mm_loadu_ps(r0 + 2 * x + 4);
            __m128 b0 = _mm_loadu_ps(r1 + 2 * x), b1 = _mm_loadu_ps(r1 + 2 * x + 4);
            __m128 top = _mm_add_ps(_mm_shuffle_ps(a0, a1, 0x88), _mm_shuffle_ps(a0, a1, 0xDD));
            __m128 bot = _mm_add_ps(_mm_shuffle_ps(b0, b1, 0x88), _mm_shuffle_ps(b0, b1, 0xDD));
            _mm_storeu_ps(out + x, _mm_mul_ps(_mm_add_ps(top, bot), s));
        }
    } else if (c == 4) {
        for (; x < wo; x++) {
            __m128 top = _mm_add_ps(_mm_loadu_ps(r0 + 8 * x), _mm_loadu_ps(r0 + 8 * x + 4));
            __m128 bot = _mm_add_ps(_mm_loadu_ps(r1 + 8 * x), _mm_loadu_ps(r1 + 8 * x + 4));
            _mm_storeu_ps(out + 4 * x, _mm_mul_ps(_mm_add_ps(top, bot), s));
        }
    }
#endif
    for (; x < wo; x++)
        for (k = 0; k < c; k++)
            out[x * c + k] = ((r0[2 * x * c + k] + r0[2 * x * c + c + k])
                              + (r1[2 * x * c + k] + r1[2 * x * c + c + k])) * scale;
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

/* SciPy's pairs order (order 3 of the float pass) over n float64 elements whose k taps are
 * rows x[0..k-1]: d[j] = w[0] x[0][j]; then for each pair (a, a + 1), a = 1, 3, ...:
 * d[j] = d[j] + (x[a][j] + x[a+1][j]) w[a] (sign[a] > 0), (x[a][j] - x[a+1][j]) w[a]
 * (sign[a] < 0) or x[a][j] w[a] (0: x[a+1] not read); a last unpaired tap adds w[t] x[t][j].
 * Each operation rounded to double, in that order, in every form (no contraction); d is
 * not one of the rows. */
#define RX_PAIRS_STEP(V, LOAD, STORE, SET1, ADD, SUB, MUL) \
    for (; j + (ptrdiff_t)(sizeof(V) / sizeof(double)) <= n; j += (ptrdiff_t)(sizeof(V) / sizeof(double))) { \
        V acc = MUL(SET1(w[0]), LOAD(x[0] + j)); \
        for (t = 1; t + 1 < k; t += 2) { \
            V p = LOAD(x[t] + j); \
            if (sign[t] > 0) \
                p = ADD(p, LOAD(x[t + 1] + j)); \
            else if (sign[t] < 0) \
                p = SUB(p, LOAD(x[t + 1] + j)); \
            acc = ADD(acc, MUL(p, SET1(w[t]))); \
        } \
        if (t < k) \
            acc = ADD(acc, MUL(SET1(w[t]), LOAD(x[t] + j))); \
        STORE(d + j, acc); \
    }

/* rx_pairs_f64 where k is odd (every tap after the first paired) and every pair adds
 * (sign > 0: a symmetric kernel, such as a Gaussian's): the same operations with the taps'
 * rows and weights held in registers, the loop over the pairs unrolled for a constant k
 * (the generic loop reloads them and branches on the signs per vector: with it the 5-tap
 * Gaussian of compat.skimage's anti-aliasing, uint8 1080x1920x3 -> 540x960, was 42% of the
 * door's time, with this loop 33%). Returns the elements done. */
#define RX_PAIRS_SYM_MAX 13
#define RX_PAIRS_SYM_STEP(V, LOAD, STORE, SET1, ADD, MUL) { \
        V wv[RX_PAIRS_SYM_MAX]; \
        for (int t = 0; t < k; t++) \
            wv[t] = SET1(w[t]); \
        for (; j + (ptrdiff_t)(sizeof(V) / sizeof(double)) <= n; \
             j += (ptrdiff_t)(sizeof(V) / sizeof(double))) { \
            V acc = MUL(wv[0], LOAD(r[0] + j)); \
            for (int t = 1; t < k; t += 2) \
                acc = ADD(acc, MUL(ADD(LOAD(r[t] + j), LOAD(r[t + 1] + j)), wv[t])); \
            STORE(d + j, acc); \
        } \
    }
#if defined(__GNUC__) || defined(__clang__)
/* Two doubles in GCC's portable vectors (SSE2 at the baseline level, NEON on aarch64): the
 * same multiplies and adds lane by lane, so the same bits as the scalar loop. */
typedef double rx_v2d __attribute__((vector_size(16)));
static inline rx_v2d rx_v2d_load(const double *p) { rx_v2d a; memcpy(&a, p, sizeof a); return a; }
static inline void rx_v2d_store(double *p, rx_v2d a) { memcpy(p, &a, sizeof a); }
static inline rx_v2d rx_v2d_set1(double v) { return (rx_v2d){v, v}; }
static inline rx_v2d rx_v2d_add(rx_v2d a, rx_v2d b) { return a + b; }
static inline rx_v2d rx_v2d_mul(rx_v2d a, rx_v2d b) { return a * b; }
#endif
static inline __attribute__((always_inline)) ptrdiff_t
rx_pairs_sym(double *d, const double *const *x, const double *w, const int k, ptrdiff_t n)
{
    const double *r[RX_PAIRS_SYM_MAX];
    for (int t = 0; t < k; t++)
        r[t] = x[t];
    ptrdiff_t j = 0;
#if defined(__AVX512F__)
    RX_PAIRS_SYM_STEP(__m512d, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd,
                      _mm512_add_pd, _mm512_mul_pd)
#endif
#if defined(RX_AVX2)
    RX_PAIRS_SYM_STEP(__m256d, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd,
                      _mm256_add_pd, _mm256_mul_pd)
#endif
#if defined(__GNUC__) || defined(__clang__)
    RX_PAIRS_SYM_STEP(rx_v2d, rx_v2d_load, rx_v2d_store, rx_v2d_set1, rx_v2d_add, rx_v2d_mul)
#else
    (void)r;
#endif
    return j;
}
#undef RX_PAIRS_SYM_STEP

static inline void rx_pairs_f64(double *d, const double *const *x, const double *w,
                                const int *sign, ptrdiff_t k, ptrdiff_t n)
{
    ptrdiff_t j = 0, t;
    int sym = (k & 1) && k >= 3 && k <= RX_PAIRS_SYM_MAX;
    for (t = 1; sym && t < k; t += 2)
        sym = sign[t] > 0;
    if (sym) {
        switch (k) {
        case 3: j = rx_pairs_sym(d, x, w, 3, n); break;
        case 5: j = rx_pairs_sym(d, x, w, 5, n); break;
        case 7: j = rx_pairs_sym(d, x, w, 7, n); break;
        case 9: j = rx_pairs_sym(d, x, w, 9, n); break;
        case 11: j = rx_pairs_sym(d, x, w, 11, n); break;
        default: j = rx_pairs_sym(d, x, w, 13, n); break;
        }
    }
#if defined(__AVX512F__)
    RX_PAIRS_STEP(__m512d, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd, _mm512_add_pd,
                  _mm512_sub_pd, _mm512_mul_pd)
#endif
#if defined(RX_AVX2)
    RX_PAIRS_STEP(__m256d, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, _mm256_add_pd,
                  _mm256_sub_pd, _mm256_mul_pd)
#endif
#if defined(RX_SSE2)
    RX_PAIRS_STEP(__m128d, _mm_loadu_pd, _mm_storeu_pd, _mm_set1_pd, _mm_add_pd, _mm_sub_pd,
                  _mm_mul_pd)
#endif
    for (; j < n; j++) {
        double acc = w[0] * x[0][j];
        for (t = 1; t + 1 < k; t += 2) {
            double p = x[t][j];
            if (sign[t] > 0)
                p = p + x[t + 1][j];
            else if (sign[t] < 0)
                p = p - x[t + 1][j];
            acc = acc + p * w[t];
        }
        if (t < k)
            acc = acc + w[t] * x[t][j];
        d[j] = acc;
    }
}
#undef RX_PAIRS_STEP


#endif
