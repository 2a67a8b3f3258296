/* Dense float32 rows: every output's k taps at fixed slots (two- and four-tap blocks,
 * windows of contiguous taps, their layouts laid out once per pass), shared by the
 * weighted taps (_taps), the exact float passes (_floatpass) and the product pass
 * (_prodpass). */
#ifndef RESAMPLEX_DENSE_F32_H
#define RESAMPLEX_DENSE_F32_H

#include "_simd.h"

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

#endif
