/* The vector helpers of the exact integer passes (_intpass.pyx). */
#ifndef RESAMPLEX_INTPASS_SIMD_H
#define RESAMPLEX_INTPASS_SIMD_H

#include "_simd.h"

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

#endif
