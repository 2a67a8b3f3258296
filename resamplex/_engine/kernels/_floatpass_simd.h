/* The vector helpers of the exact float passes (_floatpass.pyx). */
#ifndef RESAMPLEX_FLOATPASS_SIMD_H
#define RESAMPLEX_FLOATPASS_SIMD_H

#include "_simd.h"
#include "_dense_f32.h"

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
