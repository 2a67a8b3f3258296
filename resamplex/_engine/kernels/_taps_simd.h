/* The vector helpers of the weighted tap kernels (_taps.pyx.tp). */
#ifndef RESAMPLEX_TAPS_SIMD_H
#define RESAMPLEX_TAPS_SIMD_H

#include "_simd.h"
#include "_dense_f32.h"
#include "_pixels.h"

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

#endif
