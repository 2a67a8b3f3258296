/* The vector helpers of the product pass (_prodpass.pyx). */
#ifndef RESAMPLEX_PRODPASS_SIMD_H
#define RESAMPLEX_PRODPASS_SIMD_H

#include "_simd.h"
#include "_dense_f32.h"

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

#endif
