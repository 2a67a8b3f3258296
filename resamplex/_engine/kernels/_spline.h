/* The inner sums of the tensor-product evaluation (_spline.pyx, OP_TENSOR), in vectors.
 *
 * Four outputs j..j+3 of eight output rows (lanes) at once: for each combination c of the
 * outer axes' taps (outer loop) and each last-axis tap q (inner loop),
 *     acc[t][l] = acc[t][l] + u[c][idx[q][j+t]][l] * w[q][j+t]
 * from acc = 0.0. Each lane of each output is one chain of additions in SciPy's order; the
 * vectors only hold independent chains side by side. A multiplication, then an addition, each
 * rounded (the build passes -ffp-contract=off: no fused multiply-add): the same bits as the
 * scalar loop, which other compilers get.
 */
#ifndef RESAMPLEX_SPLINE_H
#define RESAMPLEX_SPLINE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#define RX_SPLINE_VECTORS 1     /* rx_spline_products8 in vectors (else a scalar loop) */
#else
#define RX_SPLINE_VECTORS 0
#endif

#if defined(__AVX2__) || defined(__AVX512F__)
/* Four elements, at byte offsets off[l] + add of src, read as float32 (rx_load4_ps) or
 * float64 (rx_load4_pd), as a vector in lane order: scalar loads put together, the same
 * values a gather gives; the eight-lane forms (rx_load8_ps, rx_load8_pd) join two of them.
 * In place of the gather instructions, which are slow where the Gather Data Sampling
 * mitigation is on (Intel's microcode default since 2023): on a 2-core Xeon (AVX-512) an
 * eight-lane gather took 11 ns where these loads took 2.5, and the channels-last evaluation
 * of an image (rx_spline_products8) ran in two thirds of the time with them. */
static inline __m128 rx_load4_ps(const char* src, const int64_t* off, int64_t add) {
    float f[4];
    for (int l = 0; l < 4; l++)
        memcpy(&f[l], src + off[l] + add, sizeof(float));
    return _mm_setr_ps(f[0], f[1], f[2], f[3]);
}

static inline __m256d rx_load4_pd(const char* src, const int64_t* off, int64_t add) {
    double v[4];
    for (int l = 0; l < 4; l++)
        memcpy(&v[l], src + off[l] + add, sizeof(double));
    return _mm256_setr_pd(v[0], v[1], v[2], v[3]);
}

static inline __m256 rx_load8_ps(const char* src, const int64_t* off, int64_t add) {
    return _mm256_set_m128(rx_load4_ps(src, off + 4, add), rx_load4_ps(src, off, add));
}
#endif

#if defined(__AVX512F__)
/* rx_load8_ps's float64 form */
static inline __m512d rx_load8_pd(const char* src, const int64_t* off, int64_t add) {
    return _mm512_insertf64x4(_mm512_castpd256_pd512(rx_load4_pd(src, off, add)),
                              rx_load4_pd(src, off + 4, add), 1);
}
#endif

#if defined(__GNUC__) || defined(__clang__)
typedef double rx_d4 __attribute__((vector_size(32)));

static inline rx_d4 rx_load_d4(const double* p) {
    rx_d4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void rx_store_d4(double* p, rx_d4 v) {
    memcpy(p, &v, sizeof v);
}
#endif

#if defined(__AVX512F__)
/* c[e] = (r[0][e], ..., r[7][e]): an 8 x 8 block of doubles transposed (unpack, then two
 * rounds of 128-bit lane shuffles). Moves only. */
static inline void rx_transpose8_pd(__m512d r[8], __m512d c[8]) {
    __m512d a[8], b[8];
    for (int m = 0; m < 4; m++) {
        a[2 * m] = _mm512_unpacklo_pd(r[2 * m], r[2 * m + 1]);       /* columns 0 2 4 6 */
        a[2 * m + 1] = _mm512_unpackhi_pd(r[2 * m], r[2 * m + 1]);   /* columns 1 3 5 7 */
    }
    for (int h = 0; h < 2; h++) {       /* rows 0-3, then 4-7 */
        b[4 * h] = _mm512_shuffle_f64x2(a[4 * h], a[4 * h + 2], _MM_SHUFFLE(2, 0, 2, 0));
        b[4 * h + 1] = _mm512_shuffle_f64x2(a[4 * h], a[4 * h + 2], _MM_SHUFFLE(3, 1, 3, 1));
        b[4 * h + 2] = _mm512_shuffle_f64x2(a[4 * h + 1], a[4 * h + 3],
                                            _MM_SHUFFLE(2, 0, 2, 0));
        b[4 * h + 3] = _mm512_shuffle_f64x2(a[4 * h + 1], a[4 * h + 3],
                                            _MM_SHUFFLE(3, 1, 3, 1));
    }
    /* b[0]: columns 0, 4 of rows 0-3; b[1]: 2, 6; b[2]: 1, 5; b[3]: 3, 7 (b[4..7]: rows 4-7) */
    static const int col[4][2] = {{0, 4}, {2, 6}, {1, 5}, {3, 7}};
    for (int q = 0; q < 4; q++) {
        c[col[q][0]] = _mm512_shuffle_f64x2(b[q], b[q + 4], _MM_SHUFFLE(2, 0, 2, 0));
        c[col[q][1]] = _mm512_shuffle_f64x2(b[q], b[q + 4], _MM_SHUFFLE(3, 1, 3, 1));
    }
}
#elif defined(__AVX2__)
/* c[e] = (r[0][e], ..., r[3][e]): a 4 x 4 block of doubles transposed. Moves only. */
static inline void rx_transpose4_pd(const __m256d r[4], __m256d c[4]) {
    __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
    __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
    c[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    c[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    c[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}
#endif

/* The products of one combination of the outer axes' taps for eight lanes at once:
 *     out[i * 8 + l] = (((x_l[at[i]] * wo[0]) * ... * wo[no - 1]) * wm[l]
 * with x_l the element at byte offset base0 + moff[l] + at[i] * ss of src, read as float32
 * (f32 = 1) or float64: the lanes (rows along the axis before the last) share the taps of
 * the axes before theirs (offset base0, weights wo) and differ on their own (moff, wm). The
 * slot after them, out[n * 8 + l], takes the same products of cval (the taps that read it).
 * The same multiplications in the same order as the scalar loop of _spline.pyx, in vectors
 * at AVX2 and AVX-512 (the build passes -ffp-contract=off); the caller takes its own per-lane
 * loop at the baseline (RX_SPLINE_VECTORS 0). The lanes' weights are read as a vector from
 * the caller's per-group table, never assembled lane by lane just before (a vector load of
 * eight scalar stores waits for them to retire: a store-forwarding stall per combination).
 * Runs of adjacent elements of contiguous rows (eight with AVX-512, four with AVX2) are
 * loaded and transposed; shorter runs (an image's three or four channels) are read lane by
 * lane (rx_load8_ps, rx_load8_pd):
 * float32 540x960x3 order 3, 1 thread, 18 -> 12 ms at AVX-512 and 23 -> 11 at AVX2 against
 * gathers on a Xeon with the Gather Data Sampling mitigation (on a CPU without it gathers had
 * measured faster than a transpose of masked loads: 10.3 -> 9.0 ms). */
static inline void rx_spline_products8(const char* src, int64_t base0, const int64_t* moff,
                                       int64_t ss, const int64_t* at, ptrdiff_t n,
                                       const double* wo, int no, const double* wm,
                                       double cval, int f32, double* out) {
#if defined(__AVX512F__)
    /* each lane's row offset, base0 + moff[l], by one vector add into base[] (a scalar
     * loop in its place: float64 540x960x3 order 3 at 1 thread 12.2 -> 13.7-16 ms) */
    __m512i b = _mm512_add_epi64(_mm512_set1_epi64(base0),
                                 _mm512_loadu_si512((const void*)moff));
    __m512d wv[64];
    for (int d = 0; d < no; d++)
        wv[d] = _mm512_set1_pd(wo[d]);
    wv[no] = _mm512_loadu_pd(wm);
    const int nw = no + 1;
    int64_t base[8];
    _mm512_storeu_si512((void*)base, b);
    /* Contiguous rows: where eight inputs in turn are adjacent elements (at is strictly
     * increasing: at[i + 7] - at[i] == 7), each lane's eight are one load from its row,
     * transposed into the eight vectors the lane loads would give (the same values). */
    const int runs = ss == (f32 ? 4 : 8);
    ptrdiff_t i = 0;
    while (i < n) {
        if (runs && i + 8 <= n && at[i + 7] - at[i] == 7) {
            __m512d r[8], c[8];
            for (int l = 0; l < 8; l++) {
                const char* e = src + base[l] + at[i] * ss;
                r[l] = f32 ? _mm512_cvtps_pd(_mm256_loadu_ps((const float*)e))
                           : _mm512_loadu_pd((const double*)e);
            }
            rx_transpose8_pd(r, c);
            for (int e = 0; e < 8; e++) {
                __m512d v = c[e];
                for (int d = 0; d < nw; d++)
                    v = _mm512_mul_pd(v, wv[d]);
                _mm512_storeu_pd(out + (i + e) * 8, v);
            }
            i += 8;
            continue;
        }
        __m512d v = f32 ? _mm512_cvtps_pd(rx_load8_ps(src, base, at[i] * ss))
                        : rx_load8_pd(src, base, at[i] * ss);
        for (int d = 0; d < nw; d++)
            v = _mm512_mul_pd(v, wv[d]);
        _mm512_storeu_pd(out + i * 8, v);
        i++;
    }
    __m512d v = _mm512_set1_pd(cval);
    for (int d = 0; d < nw; d++)
        v = _mm512_mul_pd(v, wv[d]);
    _mm512_storeu_pd(out + n * 8, v);
#elif defined(__AVX2__)
    __m256i bo = _mm256_set1_epi64x(base0);
    __m256i b0 = _mm256_add_epi64(bo, _mm256_loadu_si256((const __m256i*)moff));
    __m256i b1 = _mm256_add_epi64(bo, _mm256_loadu_si256((const __m256i*)(moff + 4)));
    __m256d wm0 = _mm256_loadu_pd(wm), wm1 = _mm256_loadu_pd(wm + 4);
    int64_t base[8];
    _mm256_storeu_si256((__m256i*)base, b0);
    _mm256_storeu_si256((__m256i*)(base + 4), b1);
    const int runs = ss == (f32 ? 4 : 8);
    ptrdiff_t i = 0;
    while (i < n) {
        if (runs && i + 4 <= n && at[i + 3] - at[i] == 3) {
            /* four adjacent elements of each lane's row: loaded, transposed per four lanes */
            __m256d r[8], c[8];
            for (int l = 0; l < 8; l++) {
                const char* e = src + base[l] + at[i] * ss;
                r[l] = f32 ? _mm256_cvtps_pd(_mm_loadu_ps((const float*)e))
                           : _mm256_loadu_pd((const double*)e);
            }
            rx_transpose4_pd(r, c);             /* c[e]: lanes 0-3 of element i + e */
            rx_transpose4_pd(r + 4, c + 4);     /* c[4 + e]: lanes 4-7 */
            for (int e = 0; e < 4; e++) {
                __m256d v0 = c[e], v1 = c[4 + e];
                for (int d = 0; d < no; d++) {
                    v0 = _mm256_mul_pd(v0, _mm256_set1_pd(wo[d]));
                    v1 = _mm256_mul_pd(v1, _mm256_set1_pd(wo[d]));
                }
                _mm256_storeu_pd(out + (i + e) * 8, _mm256_mul_pd(v0, wm0));
                _mm256_storeu_pd(out + (i + e) * 8 + 4, _mm256_mul_pd(v1, wm1));
            }
            i += 4;
            continue;
        }
        const int64_t add = at[i] * ss;
        __m256d v0, v1;
        if (f32) {
            v0 = _mm256_cvtps_pd(rx_load4_ps(src, base, add));
            v1 = _mm256_cvtps_pd(rx_load4_ps(src, base + 4, add));
        } else {
            v0 = rx_load4_pd(src, base, add);
            v1 = rx_load4_pd(src, base + 4, add);
        }
        for (int d = 0; d < no; d++) {
            v0 = _mm256_mul_pd(v0, _mm256_set1_pd(wo[d]));
            v1 = _mm256_mul_pd(v1, _mm256_set1_pd(wo[d]));
        }
        _mm256_storeu_pd(out + i * 8, _mm256_mul_pd(v0, wm0));
        _mm256_storeu_pd(out + i * 8 + 4, _mm256_mul_pd(v1, wm1));
        i++;
    }
    __m256d v0 = _mm256_set1_pd(cval), v1 = v0;
    for (int d = 0; d < no; d++) {
        v0 = _mm256_mul_pd(v0, _mm256_set1_pd(wo[d]));
        v1 = _mm256_mul_pd(v1, _mm256_set1_pd(wo[d]));
    }
    _mm256_storeu_pd(out + n * 8, _mm256_mul_pd(v0, wm0));
    _mm256_storeu_pd(out + n * 8 + 4, _mm256_mul_pd(v1, wm1));
#else
    for (ptrdiff_t i = 0; i <= n; i++) {
        for (int l = 0; l < 8; l++) {
            double v = cval;
            if (i < n) {
                const char* e = src + base0 + moff[l] + at[i] * ss;
                if (f32) {
                    float f;
                    memcpy(&f, e, sizeof f);
                    v = (double)f;
                } else {
                    memcpy(&v, e, sizeof v);
                }
            }
            for (int d = 0; d < no; d++)
                v = v * wo[d];
            out[i * 8 + l] = v * wm[l];
        }
    }
#endif
}

/* rows[l * rs + j + t] for l < 8, t < 4. u: combos blocks of `slot` positions of 8 lanes;
 * li / lw: the last axis's tap positions in u and weights, tap-major ([q * ts + j]). */
static inline void rx_spline_sum4x8(double* rows, ptrdiff_t rs, ptrdiff_t ts, ptrdiff_t j,
                                    const double* u, ptrdiff_t combos, ptrdiff_t slot,
                                    ptrdiff_t k, const int64_t* li, const double* lw) {
#if defined(__GNUC__) || defined(__clang__)
    rx_d4 a0 = {0.0, 0.0, 0.0, 0.0}, a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, d0 = a0,
          d1 = a0;
    for (ptrdiff_t c = 0; c < combos; c++) {
        const double* uc = u + c * slot * 8;
        for (ptrdiff_t q = 0; q < k; q++) {
            const int64_t* ix = li + q * ts + j;
            const double* wx = lw + q * ts + j;
            const double* p0 = uc + ix[0] * 8;
            const double* p1 = uc + ix[1] * 8;
            const double* p2 = uc + ix[2] * 8;
            const double* p3 = uc + ix[3] * 8;
            rx_d4 w0 = {wx[0], wx[0], wx[0], wx[0]}, w1 = {wx[1], wx[1], wx[1], wx[1]};
            rx_d4 w2 = {wx[2], wx[2], wx[2], wx[2]}, w3 = {wx[3], wx[3], wx[3], wx[3]};
            a0 = a0 + rx_load_d4(p0) * w0;
            a1 = a1 + rx_load_d4(p0 + 4) * w0;
            b0 = b0 + rx_load_d4(p1) * w1;
            b1 = b1 + rx_load_d4(p1 + 4) * w1;
            c0 = c0 + rx_load_d4(p2) * w2;
            c1 = c1 + rx_load_d4(p2 + 4) * w2;
            d0 = d0 + rx_load_d4(p3) * w3;
            d1 = d1 + rx_load_d4(p3 + 4) * w3;
        }
    }
#if defined(__AVX2__) && !defined(__AVX512F__)
    {   /* lanes 0-3 and 4-7 of the four outputs, transposed: each lane's four in one store */
        __m256d r[4], c[4];
        memcpy(&r[0], &a0, sizeof r[0]); memcpy(&r[1], &b0, sizeof r[1]);
        memcpy(&r[2], &c0, sizeof r[2]); memcpy(&r[3], &d0, sizeof r[3]);
        rx_transpose4_pd(r, c);
        for (int l = 0; l < 4; l++)
            _mm256_storeu_pd(rows + l * rs + j, c[l]);
        memcpy(&r[0], &a1, sizeof r[0]); memcpy(&r[1], &b1, sizeof r[1]);
        memcpy(&r[2], &c1, sizeof r[2]); memcpy(&r[3], &d1, sizeof r[3]);
        rx_transpose4_pd(r, c);
        for (int l = 0; l < 4; l++)
            _mm256_storeu_pd(rows + (4 + l) * rs + j, c[l]);
        return;
    }
#endif
    double acc[4][8];
    rx_store_d4(acc[0], a0); rx_store_d4(acc[0] + 4, a1);
    rx_store_d4(acc[1], b0); rx_store_d4(acc[1] + 4, b1);
    rx_store_d4(acc[2], c0); rx_store_d4(acc[2] + 4, c1);
    rx_store_d4(acc[3], d0); rx_store_d4(acc[3] + 4, d1);
#else
    double acc[4][8];
    for (int t = 0; t < 4; t++)
        for (int l = 0; l < 8; l++)
            acc[t][l] = 0.0;
    for (ptrdiff_t c = 0; c < combos; c++) {
        const double* uc = u + c * slot * 8;
        for (ptrdiff_t q = 0; q < k; q++) {
            for (int t = 0; t < 4; t++) {
                const double* p = uc + li[q * ts + j + t] * 8;
                double w = lw[q * ts + j + t];
                for (int l = 0; l < 8; l++)
                    acc[t][l] = acc[t][l] + p[l] * w;
            }
        }
    }
#endif
    for (int l = 0; l < 8; l++)
        for (int t = 0; t < 4; t++)
            rows[l * rs + j + t] = acc[t][l];
}

/* rx_spline_sum4x8 for the last m outputs of a tile (1 <= m <= 3: an image's three
 * channels, or a tile's tail): three outputs' chains side by side (j + m - 1 taken again
 * where m < 3, not stored): three independent chains of adds rather than one output's
 * waiting on itself. Each chain the same as rx_spline_sum4x8's. */
static inline void rx_spline_sum3x8(double* rows, ptrdiff_t rs, ptrdiff_t ts, ptrdiff_t j,
                                    ptrdiff_t m, const double* u, ptrdiff_t combos,
                                    ptrdiff_t slot, ptrdiff_t k, const int64_t* li,
                                    const double* lw) {
    const ptrdiff_t j1 = m > 1 ? j + 1 : j, j2 = m > 2 ? j + 2 : j1;
#if defined(__AVX512F__)
    __m512d a = _mm512_setzero_pd(), b = a, c3 = a;
    for (ptrdiff_t c = 0; c < combos; c++) {
        const double* uc = u + c * slot * 8;
        for (ptrdiff_t q = 0; q < k; q++) {
            const int64_t* ix = li + q * ts;
            const double* wx = lw + q * ts;
            a = _mm512_add_pd(a, _mm512_mul_pd(_mm512_loadu_pd(uc + ix[j] * 8),
                                               _mm512_set1_pd(wx[j])));
            b = _mm512_add_pd(b, _mm512_mul_pd(_mm512_loadu_pd(uc + ix[j1] * 8),
                                               _mm512_set1_pd(wx[j1])));
            c3 = _mm512_add_pd(c3, _mm512_mul_pd(_mm512_loadu_pd(uc + ix[j2] * 8),
                                                 _mm512_set1_pd(wx[j2])));
        }
    }
    double acc[3][8];
    _mm512_storeu_pd(acc[0], a);
    _mm512_storeu_pd(acc[1], b);
    _mm512_storeu_pd(acc[2], c3);
#elif defined(__GNUC__) || defined(__clang__)
    rx_d4 a0 = {0.0, 0.0, 0.0, 0.0}, a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0;
    for (ptrdiff_t c = 0; c < combos; c++) {
        const double* uc = u + c * slot * 8;
        for (ptrdiff_t q = 0; q < k; q++) {
            const int64_t* ix = li + q * ts;
            const double* wx = lw + q * ts;
            const double* p0 = uc + ix[j] * 8;
            const double* p1 = uc + ix[j1] * 8;
            const double* p2 = uc + ix[j2] * 8;
            rx_d4 w0 = {wx[j], wx[j], wx[j], wx[j]}, w1 = {wx[j1], wx[j1], wx[j1], wx[j1]};
            rx_d4 w2 = {wx[j2], wx[j2], wx[j2], wx[j2]};
            a0 = a0 + rx_load_d4(p0) * w0;
            a1 = a1 + rx_load_d4(p0 + 4) * w0;
            b0 = b0 + rx_load_d4(p1) * w1;
            b1 = b1 + rx_load_d4(p1 + 4) * w1;
            c0 = c0 + rx_load_d4(p2) * w2;
            c1 = c1 + rx_load_d4(p2 + 4) * w2;
        }
    }
    double acc[3][8];
    rx_store_d4(acc[0], a0); rx_store_d4(acc[0] + 4, a1);
    rx_store_d4(acc[1], b0); rx_store_d4(acc[1] + 4, b1);
    rx_store_d4(acc[2], c0); rx_store_d4(acc[2] + 4, c1);
#else
    double acc[3][8];
    const ptrdiff_t jt[3] = {j, j1, j2};
    for (int t = 0; t < 3; t++)
        for (int l = 0; l < 8; l++)
            acc[t][l] = 0.0;
    for (ptrdiff_t c = 0; c < combos; c++) {
        const double* uc = u + c * slot * 8;
        for (ptrdiff_t q = 0; q < k; q++) {
            for (int t = 0; t < 3; t++) {
                const double* p = uc + li[q * ts + jt[t]] * 8;
                double w = lw[q * ts + jt[t]];
                for (int l = 0; l < 8; l++)
                    acc[t][l] = acc[t][l] + p[l] * w;
            }
        }
    }
#endif
    for (int l = 0; l < 8; l++)
        for (ptrdiff_t t = 0; t < m; t++)
            rows[l * rs + j + t] = acc[t][l];
}

/* rx_spline_sum4x8 for eight outputs j..j+7: with AVX-512 the eight lanes of an output are
 * one vector (the same chains, in the same order), and the 8 x 8 block of sums is transposed
 * so that each lane's row takes its eight outputs in one store. */
static inline void rx_spline_sum8x8(double* rows, ptrdiff_t rs, ptrdiff_t ts, ptrdiff_t j,
                                    const double* u, ptrdiff_t combos, ptrdiff_t slot,
                                    ptrdiff_t k, const int64_t* li, const double* lw) {
#if defined(__AVX512F__)
    __m512d acc[8], c8[8];
    for (int t = 0; t < 8; t++)
        acc[t] = _mm512_setzero_pd();
    for (ptrdiff_t c = 0; c < combos; c++) {
        const double* uc = u + c * slot * 8;
        for (ptrdiff_t q = 0; q < k; q++) {
            const int64_t* ix = li + q * ts + j;
            const double* wx = lw + q * ts + j;
            for (int t = 0; t < 8; t++)
                acc[t] = _mm512_add_pd(acc[t], _mm512_mul_pd(_mm512_loadu_pd(uc + ix[t] * 8),
                                                             _mm512_set1_pd(wx[t])));
        }
    }
    rx_transpose8_pd(acc, c8);      /* c8[l]: lane l's eight outputs */
    for (int l = 0; l < 8; l++)
        _mm512_storeu_pd(rows + l * rs + j, c8[l]);
#else
    rx_spline_sum4x8(rows, rs, ts, j, u, combos, slot, k, li, lw);
    rx_spline_sum4x8(rows, rs, ts, j + 4, u, combos, slot, k, li, lw);
#endif
}

/* One output row of an order-1 evaluation whose only weighted axes are the last two (OP_TENSOR,
 * loop TENSOR_ROWS2): the two taps of the axis before the last read rows r0 and r1 (weights
 * a0, a1), the two taps of the last axis the elements at byte offsets g0[j] and g1[j] of
 * those rows (weights b0[j], b1[j]). SciPy's order: the outer tap, then the last-axis tap,
 *     out[j] = (((0.0 + (x0[g0] * a0) * b0) + (x0[g1] * a0) * b1)
 *                     + (x1[g0] * a1) * b0) + (x1[g1] * a1) * b1
 * with x read as float32 (f32 = 1) or float64, out[j] a double, or a float (out_f32 = 1: the
 * C cast of the sum, as the float32 store takes it); each multiplication and addition rounded
 * (-ffp-contract=off), so the vectors, which hold independent outputs side by side, give the
 * scalar loop's bits. The integer types take the caller's scalar loop.
 * win (AVX-512; NULL: none): splines.row_windows's table, one block per eight outputs from
 * the first: where its base is >= 0, the block's taps lie among the elements from that byte
 * offset of each row, loaded whole (two vectors, where count < 0; else only the count
 * elements that hold taps, masked) and picked by a permutation at the positions that
 * follow; else the taps are loaded one by one (rx_load8_ps, rx_load8_pd). AVX2: float32
 * windows, four outputs at a time (rx_window32_ps, rx_pick32_ps). */
static inline double rx_zoom1_load(const char* p, int f32) {
    if (f32) {
        float f;
        memcpy(&f, p, sizeof f);
        return (double)f;
    }
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

#if defined(__AVX512F__)
/* A window of splines.row_windows (AVX-512): the 128 bytes from p in two registers, whole
 * (count < 0) or only its first count elements (masked loads: nothing past them is read;
 * the rest are 0). */
static inline void rx_window_ps(const float* p, int64_t count, __m512* lo, __m512* hi) {
    if (count < 0) {    /* the whole window lies in the source */
        *lo = _mm512_loadu_ps(p);
        *hi = _mm512_loadu_ps(p + 16);
        return;
    }
    *lo = _mm512_maskz_loadu_ps((__mmask16)(count >= 16 ? 0xFFFFu : (1u << count) - 1u), p);
    *hi = _mm512_maskz_loadu_ps((__mmask16)(count <= 16 ? 0u : (1u << (count - 16)) - 1u),
                                p + 16);
}

static inline void rx_window_pd(const double* p, int64_t count, __m512d* lo, __m512d* hi) {
    if (count < 0) {
        *lo = _mm512_loadu_pd(p);
        *hi = _mm512_loadu_pd(p + 8);
        return;
    }
    *lo = _mm512_maskz_loadu_pd((__mmask8)(count >= 8 ? 0xFFu : (1u << count) - 1u), p);
    *hi = _mm512_maskz_loadu_pd((__mmask8)(count <= 8 ? 0u : (1u << (count - 8)) - 1u), p + 8);
}
#endif

#if defined(__AVX2__) && !defined(__AVX512F__)
/* The AVX2 side of the windows of splines.row_windows (float32 sources): the 32 floats from
 * p, whole (count < 0) or only the first count of them (masked loads: nothing past them is
 * read, as VMASKMOVPS does not fault on masked-out elements), and the element at[i] (0-31)
 * of them for each of eight lanes: four permutations within the registers, then blends by
 * bits 3 and 4 of the position. Moves only: the values are the elements' bits. */
static inline void rx_window32_ps(const float* p, int64_t count, __m256 w[4]) {
    if (count < 0) {
        for (int r = 0; r < 4; r++)
            w[r] = _mm256_loadu_ps(p + 8 * r);
        return;
    }
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int r = 0; r < 4; r++) {
        __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count - 8 * r), lane);
        w[r] = _mm256_maskload_ps(p + 8 * r, m);
    }
}

static inline __m256 rx_pick32_ps(const __m256 w[4], __m256i at) {
    __m256 a = _mm256_permutevar8x32_ps(w[0], at), b = _mm256_permutevar8x32_ps(w[1], at);
    __m256 c = _mm256_permutevar8x32_ps(w[2], at), d = _mm256_permutevar8x32_ps(w[3], at);
    __m256 bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(at, 28));
    __m256 bit4 = _mm256_castsi256_ps(_mm256_slli_epi32(at, 27));
    return _mm256_blendv_ps(_mm256_blendv_ps(a, b, bit3), _mm256_blendv_ps(c, d, bit3), bit4);
}
#endif

static inline void rx_zoom1_row(const char* r0, const char* r1, double a0, double a1,
                                const int64_t* g0, const int64_t* g1, const double* b0,
                                const double* b1, ptrdiff_t n, int f32, int out_f32,
                                const int64_t* win, void* out) {
    ptrdiff_t j = 0;
#if defined(__AVX512F__)
    const __m512d va0 = _mm512_set1_pd(a0), va1 = _mm512_set1_pd(a1);
    const __m512d zero = _mm512_setzero_pd();
    for (; j + 8 <= n; j += 8) {
        const int64_t* wb = win != NULL ? win + (j / 8) * 10 : NULL;
        __m512d w0 = _mm512_loadu_pd(b0 + j), w1 = _mm512_loadu_pd(b1 + j);
        __m512d x00, x01, x10, x11;
        if (wb != NULL && wb[0] >= 0) {
            const int64_t count = wb[1];
            const __m512i at = _mm512_loadu_si512((const void*)(wb + 2));
            if (f32) {          /* up to 32 floats; one permutation gives both taps */
                const float* p0 = (const float*)(r0 + wb[0]);
                const float* p1 = (const float*)(r1 + wb[0]);
                __m512 lo0, hi0, lo1, hi1;
                rx_window_ps(p0, count, &lo0, &hi0);
                rx_window_ps(p1, count, &lo1, &hi1);
                __m512 v0 = _mm512_permutex2var_ps(lo0, at, hi0);
                __m512 v1 = _mm512_permutex2var_ps(lo1, at, hi1);
                x00 = _mm512_cvtps_pd(_mm512_castps512_ps256(v0));
                x01 = _mm512_cvtps_pd(_mm256_castpd_ps(
                    _mm512_extractf64x4_pd(_mm512_castps_pd(v0), 1)));
                x10 = _mm512_cvtps_pd(_mm512_castps512_ps256(v1));
                x11 = _mm512_cvtps_pd(_mm256_castpd_ps(
                    _mm512_extractf64x4_pd(_mm512_castps_pd(v1), 1)));
            } else {            /* up to 16 doubles */
                const double* p0 = (const double*)(r0 + wb[0]);
                const double* p1 = (const double*)(r1 + wb[0]);
                const __m512i t0 = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(at));
                const __m512i t1 = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(at, 1));
                __m512d lo0, hi0, lo1, hi1;
                rx_window_pd(p0, count, &lo0, &hi0);
                rx_window_pd(p1, count, &lo1, &hi1);
                x00 = _mm512_permutex2var_pd(lo0, t0, hi0);
                x01 = _mm512_permutex2var_pd(lo0, t1, hi0);
                x10 = _mm512_permutex2var_pd(lo1, t0, hi1);
                x11 = _mm512_permutex2var_pd(lo1, t1, hi1);
            }
        } else if (f32) {
            x00 = _mm512_cvtps_pd(rx_load8_ps(r0, g0 + j, 0));
            x01 = _mm512_cvtps_pd(rx_load8_ps(r0, g1 + j, 0));
            x10 = _mm512_cvtps_pd(rx_load8_ps(r1, g0 + j, 0));
            x11 = _mm512_cvtps_pd(rx_load8_ps(r1, g1 + j, 0));
        } else {
            x00 = rx_load8_pd(r0, g0 + j, 0);
            x01 = rx_load8_pd(r0, g1 + j, 0);
            x10 = rx_load8_pd(r1, g0 + j, 0);
            x11 = rx_load8_pd(r1, g1 + j, 0);
        }
        __m512d t = _mm512_add_pd(zero, _mm512_mul_pd(_mm512_mul_pd(x00, va0), w0));
        t = _mm512_add_pd(t, _mm512_mul_pd(_mm512_mul_pd(x01, va0), w1));
        t = _mm512_add_pd(t, _mm512_mul_pd(_mm512_mul_pd(x10, va1), w0));
        t = _mm512_add_pd(t, _mm512_mul_pd(_mm512_mul_pd(x11, va1), w1));
        if (out_f32)
            _mm256_storeu_ps((float*)out + j, _mm512_cvtpd_ps(t));
        else
            _mm512_storeu_pd((double*)out + j, t);
    }
#elif defined(__AVX2__)
    const __m256d va0 = _mm256_set1_pd(a0), va1 = _mm256_set1_pd(a1);
    const __m256d zero = _mm256_setzero_pd();
    __m256 win0[4], win1[4];    /* the two rows' windows of the block loaded last */
    ptrdiff_t loaded = -1;
    for (; j + 4 <= n; j += 4) {
        /* float32 windows (the blocks of eight outputs, four at a time), else loads */
        const ptrdiff_t blk = j / 8;
        const int64_t* wb = win != NULL && f32 && blk * 8 + 8 <= n ? win + blk * 10 : NULL;
        __m256d w0 = _mm256_loadu_pd(b0 + j), w1 = _mm256_loadu_pd(b1 + j);
        __m256d x00, x01, x10, x11;
        if (wb != NULL && wb[0] >= 0) {
            if (loaded != blk) {
                rx_window32_ps((const float*)(r0 + wb[0]), wb[1], win0);
                rx_window32_ps((const float*)(r1 + wb[0]), wb[1], win1);
                loaded = blk;
            }
            /* this half's positions: tap 0's four, then tap 1's */
            const int32_t* at = (const int32_t*)(wb + 2) + (j & 4);
            const __m256i ix = _mm256_set_m128i(_mm_loadu_si128((const __m128i*)(at + 8)),
                                                _mm_loadu_si128((const __m128i*)at));
            const __m256 v0 = rx_pick32_ps(win0, ix), v1 = rx_pick32_ps(win1, ix);
            x00 = _mm256_cvtps_pd(_mm256_castps256_ps128(v0));
            x01 = _mm256_cvtps_pd(_mm256_extractf128_ps(v0, 1));
            x10 = _mm256_cvtps_pd(_mm256_castps256_ps128(v1));
            x11 = _mm256_cvtps_pd(_mm256_extractf128_ps(v1, 1));
        } else if (f32) {
            x00 = _mm256_cvtps_pd(rx_load4_ps(r0, g0 + j, 0));
            x01 = _mm256_cvtps_pd(rx_load4_ps(r0, g1 + j, 0));
            x10 = _mm256_cvtps_pd(rx_load4_ps(r1, g0 + j, 0));
            x11 = _mm256_cvtps_pd(rx_load4_ps(r1, g1 + j, 0));
        } else {
            x00 = rx_load4_pd(r0, g0 + j, 0);
            x01 = rx_load4_pd(r0, g1 + j, 0);
            x10 = rx_load4_pd(r1, g0 + j, 0);
            x11 = rx_load4_pd(r1, g1 + j, 0);
        }
        __m256d t = _mm256_add_pd(zero, _mm256_mul_pd(_mm256_mul_pd(x00, va0), w0));
        t = _mm256_add_pd(t, _mm256_mul_pd(_mm256_mul_pd(x01, va0), w1));
        t = _mm256_add_pd(t, _mm256_mul_pd(_mm256_mul_pd(x10, va1), w0));
        t = _mm256_add_pd(t, _mm256_mul_pd(_mm256_mul_pd(x11, va1), w1));
        if (out_f32)
            _mm_storeu_ps((float*)out + j, _mm256_cvtpd_ps(t));
        else
            _mm256_storeu_pd((double*)out + j, t);
    }
#endif
    for (; j < n; j++) {
        double t = 0.0;
        t = t + (rx_zoom1_load(r0 + g0[j], f32) * a0) * b0[j];
        t = t + (rx_zoom1_load(r0 + g1[j], f32) * a0) * b1[j];
        t = t + (rx_zoom1_load(r1 + g0[j], f32) * a1) * b0[j];
        t = t + (rx_zoom1_load(r1 + g1[j], f32) * a1) * b1[j];
        if (out_f32)
            ((float*)out)[j] = (float)t;
        else
            ((double*)out)[j] = t;
    }
}

/* Outputs [j0, j1) of rx_zoom0_row, one at a time. */
static inline void rx_zoom0_span(const char* row, int64_t ss, const int64_t* li, ptrdiff_t j0,
                                 ptrdiff_t j1, int64_t n_in, double cval, int f32, void* out) {
    for (ptrdiff_t j = j0; j < j1; j++) {
        int64_t i = li[j];
        if (f32)
            ((float*)out)[j] = i == n_in ? (float)cval
                                         : (float)(0.0 + rx_zoom1_load(row + i * ss, 1));
        else
            ((double*)out)[j] = i == n_in ? cval : 0.0 + rx_zoom1_load(row + i * ss, 0);
    }
}

/* One output row of an order-0 evaluation (OP_TENSOR, k == 1) stored in the input's own float
 * type: out[j] = 0.0 + x[li[j]] (SciPy's t = 0.0, then the element: -0.0 becomes +0.0, a
 * signalling NaN quiet; the same in float as in double), or cval (as the store casts it) where
 * li[j] == n_in. The row's elements are ss bytes apart; in vectors where they are adjacent:
 * through the windows of win (splines.row_windows on the taps' byte offsets, its first eight
 * positions per block: as in rx_zoom1_row; AVX2: float32 only), else gathered (AVX-512) or
 * one at a time. */
static inline void rx_zoom0_row(const char* row, int64_t ss, const int64_t* li, ptrdiff_t n,
                                int64_t n_in, double cval, int f32, const int64_t* win,
                                void* out) {
    ptrdiff_t j = 0;
#if defined(__AVX512F__)
    const __m512i vn = _mm512_set1_epi64(n_in);
    if (f32 && ss == 4) {
        const __m256 vc = _mm256_set1_ps((float)cval), z = _mm256_setzero_ps();
        for (; j + 8 <= n; j += 8) {
            const int64_t* wb = win != NULL ? win + (j / 8) * 10 : NULL;
            if (wb != NULL && wb[0] >= 0) {
                const float* p = (const float*)(row + wb[0]);
                const __m512i at = _mm512_loadu_si512((const void*)(wb + 2));
                __m512 lo, hi;
                rx_window_ps(p, wb[1], &lo, &hi);
                __m256 v = _mm512_castps512_ps256(_mm512_permutex2var_ps(lo, at, hi));
                _mm256_storeu_ps((float*)out + j, _mm256_add_ps(v, z));
                continue;
            }
            __m512i ix = _mm512_loadu_si512((const void*)(li + j));
            __mmask8 in = _mm512_cmplt_epi64_mask(ix, vn);
            __m256 v = _mm512_mask_i64gather_ps(vc, in, ix, (const void*)row, 4);
            _mm256_storeu_ps((float*)out + j, _mm256_mask_add_ps(vc, in, v, z));
        }
    } else if (!f32 && ss == 8) {
        const __m512d vc = _mm512_set1_pd(cval), z = _mm512_setzero_pd();
        for (; j + 8 <= n; j += 8) {
            const int64_t* wb = win != NULL ? win + (j / 8) * 10 : NULL;
            if (wb != NULL && wb[0] >= 0) {
                const double* p = (const double*)(row + wb[0]);
                const __m512i at = _mm512_cvtepu32_epi64(
                    _mm256_loadu_si256((const __m256i*)(wb + 2)));
                __m512d lo, hi;
                rx_window_pd(p, wb[1], &lo, &hi);
                _mm512_storeu_pd((double*)out + j,
                                 _mm512_add_pd(_mm512_permutex2var_pd(lo, at, hi), z));
                continue;
            }
            __m512i ix = _mm512_loadu_si512((const void*)(li + j));
            __mmask8 in = _mm512_cmplt_epi64_mask(ix, vn);
            __m512d v = _mm512_mask_i64gather_pd(vc, in, ix, (const void*)row, 8);
            _mm512_storeu_pd((double*)out + j, _mm512_mask_add_pd(vc, in, v, z));
        }
    }
#elif defined(__AVX2__)
    if (f32 && ss == 4 && win != NULL) {
        const __m256 z = _mm256_setzero_ps();
        __m256 w[4];
        for (; j + 8 <= n; j += 8) {
            const int64_t* wb = win + (j / 8) * 10;
            if (wb[0] < 0) {        /* a cval output or a wide block: one at a time */
                rx_zoom0_span(row, ss, li, j, j + 8, n_in, cval, f32, out);
                continue;
            }
            rx_window32_ps((const float*)(row + wb[0]), wb[1], w);
            const __m256i at = _mm256_loadu_si256((const __m256i*)(wb + 2));
            _mm256_storeu_ps((float*)out + j, _mm256_add_ps(rx_pick32_ps(w, at), z));
        }
    }
#else
    (void)win;
#endif
    rx_zoom0_span(row, ss, li, j, n, n_in, cval, f32, out);
}

/* The prefilter's recursions on 16 lines side by side (_spline.pyx _filter_lanes, the lines
 * laid out c[i * 16 + l]), each lane the same operations in the same order as SciPy's loops
 * (ni_splines.c apply_filter), with the previous element kept in registers (four vectors of
 * four: independent chains) rather than read back from memory, which the compiler does not
 * do for Cython's lane loops (they ran as scalar operations, one lane at a time). */
#if defined(__GNUC__) || defined(__clang__)
#define RX_LANES16_LOAD(p, v) \
    rx_d4 v##0 = rx_load_d4(p), v##1 = rx_load_d4((p) + 4), v##2 = rx_load_d4((p) + 8), \
          v##3 = rx_load_d4((p) + 12)
#define RX_LANES16_STORE(p, v) \
    do { rx_store_d4(p, v##0); rx_store_d4((p) + 4, v##1); rx_store_d4((p) + 8, v##2); \
         rx_store_d4((p) + 12, v##3); } while (0)
#endif

/* The causal pass: c[i] = c[i] + z * c[i - 1] for i = 1 .. n - 1. */
static inline void rx_causal16(double* c, ptrdiff_t n, double z) {
#if defined(__GNUC__) || defined(__clang__)
    const rx_d4 zv = {z, z, z, z};
    RX_LANES16_LOAD(c, p);
    for (ptrdiff_t i = 1; i < n; i++) {
        double* r = c + i * 16;
        RX_LANES16_LOAD(r, x);
        p0 = x0 + zv * p0;
        p1 = x1 + zv * p1;
        p2 = x2 + zv * p2;
        p3 = x3 + zv * p3;
        RX_LANES16_STORE(r, p);
    }
#else
    for (ptrdiff_t i = 1; i < n; i++)
        for (int l = 0; l < 16; l++)
            c[i * 16 + l] = c[i * 16 + l] + z * c[(i - 1) * 16 + l];
#endif
}

/* The anti-causal pass: c[i] = z * (c[i + 1] - c[i]) for i = n - 2 .. 0. */
static inline void rx_anticausal16(double* c, ptrdiff_t n, double z) {
#if defined(__GNUC__) || defined(__clang__)
    const rx_d4 zv = {z, z, z, z};
    RX_LANES16_LOAD(c + (n - 1) * 16, p);
    for (ptrdiff_t i = n - 2; i >= 0; i--) {
        double* r = c + i * 16;
        RX_LANES16_LOAD(r, x);
        p0 = zv * (p0 - x0);
        p1 = zv * (p1 - x1);
        p2 = zv * (p2 - x2);
        p3 = zv * (p3 - x3);
        RX_LANES16_STORE(r, p);
    }
#else
    for (ptrdiff_t i = n - 2; i >= 0; i--)
        for (int l = 0; l < 16; l++)
            c[i * 16 + l] = z * (c[(i + 1) * 16 + l] - c[i * 16 + l]);
#endif
}

/* The mirror and reflect initial values' sum (_spline.pyx _mirror_sum) from term *i on:
 * c0[l] = c0[l] + z_i * (c[i][l] + zz * c[n - 1 - i][l]), z_i = z_i * z, for i up to n - 2,
 * with c0 in registers, while zz and z_i are normal or zero (the plain products: the caller
 * takes the rest, near underflow, term by term). Updates *i and *z_i to where it stopped. */
static inline void rx_mirror_run16(const double* c, ptrdiff_t n, double z, double zz,
                                   ptrdiff_t* i, double* z_i, double* c0) {
    const double tiny = 2.2250738585072014e-308;
    ptrdiff_t j = *i;
    double zj = *z_i;
    if (zz != 0.0 && fabs(zz) < tiny)
        return;
#if defined(__GNUC__) || defined(__clang__)
    const rx_d4 zzv = {zz, zz, zz, zz};
    RX_LANES16_LOAD(c0, a);
    for (; j < n - 1 && !(zj != 0.0 && fabs(zj) < tiny); j++) {
        const double* x = c + j * 16;
        const double* y = c + (n - 1 - j) * 16;
        const rx_d4 zv = {zj, zj, zj, zj};
        a0 = a0 + zv * (rx_load_d4(x) + zzv * rx_load_d4(y));
        a1 = a1 + zv * (rx_load_d4(x + 4) + zzv * rx_load_d4(y + 4));
        a2 = a2 + zv * (rx_load_d4(x + 8) + zzv * rx_load_d4(y + 8));
        a3 = a3 + zv * (rx_load_d4(x + 12) + zzv * rx_load_d4(y + 12));
        zj *= z;
    }
    RX_LANES16_STORE(c0, a);
#else
    for (; j < n - 1 && !(zj != 0.0 && fabs(zj) < tiny); j++) {
        for (int l = 0; l < 16; l++)
            c0[l] = c0[l] + zj * (c[j * 16 + l] + zz * c[(n - 1 - j) * 16 + l]);
        zj *= z;
    }
#endif
    *i = j;
    *z_i = zj;
}

/* The zs rx_plus_tiny takes beside a subnormal zz. */
static inline double rx_tiny_scale(double zz)
{
    return zz * 18446744073709551616.0;                      /* zz * 2^64, exact */
}

/* The prefilter's initial values near underflow (_spline.pyx _plus_zz):
 * s[l] = a[l] + zz * b[l] for l < n (a multiple of 8), the same bits as that expression, for a
 * subnormal zz, given zs = rx_tiny_scale(zz) (itself a product with a subnormal operand: a
 * caller with one zz for many calls takes it once). A product with a subnormal operand costs a
 * microcode assist on x86 (~150 cycles, and SciPy's lines of 538-566 elements at order 3 take
 * one per element). Here each product is taken with zz * 2^64 (exact: a subnormal scaled by a
 * power of two) and scaled back by 2^-64, which rounds the same wherever the product is normal
 * or zero (scaling by a power of two is exact there). Where the product is subnormal (a tiny
 * b), a[l] + it is a[l] when |a[l]| >= 2^-968 (it is under half the spacing of the doubles on
 * either side of a[l], 2^-1021 at the least), so the lane adds 0.0 instead. Only where neither
 * holds (a and b both tiny: rare) are the products taken directly. NaN and infinities pass as
 * products. */
static inline void rx_plus_tiny(const double *a, const double *b, double zz, double zs,
                                double *s, ptrdiff_t n)
{
    const double normal = 4.1045368012983762e-289;           /* 2^-958: zs * b normal after */
    const double big = 4.008336720017946e-292;               /* 2^-968 */
    const double back = 5.421010862427522e-20;               /* 2^-64 */
    ptrdiff_t l;
    int slow = 0;
#if defined(__AVX512F__)
    const __m512d vzs = _mm512_set1_pd(zs), vn = _mm512_set1_pd(normal),
                  vb = _mm512_set1_pd(big), vk = _mm512_set1_pd(back), z0 = _mm512_setzero_pd();
    __m512d q[8];
    for (l = 0; l < n && l < 64; l += 8) {
        __m512d m = _mm512_mul_pd(vzs, _mm512_loadu_pd(b + l)), am = _mm512_abs_pd(m);
        __mmask8 sub = _mm512_cmp_pd_mask(am, z0, _CMP_GT_OQ)
                     & _mm512_cmp_pd_mask(am, vn, _CMP_LT_OQ);
        slow |= (sub & _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_loadu_pd(a + l)), vb,
                                          _CMP_LT_OQ)) != 0;
        q[l / 8] = _mm512_maskz_mov_pd((__mmask8)~sub, m);
    }
    if (!slow && n <= 64) {
        for (l = 0; l < n; l += 8)
            _mm512_storeu_pd(s + l, _mm512_add_pd(_mm512_loadu_pd(a + l),
                                                  _mm512_mul_pd(q[l / 8], vk)));
        return;
    }
#else
    double q[64];
    double m;
    int sub;
    for (l = 0; l < n && l < 64; l++) {
        m = zs * b[l];
        sub = (m != 0.0) & (m < normal) & (m > -normal);
        slow |= sub & (a[l] < big) & (a[l] > -big);
        q[l] = sub ? 0.0 : m;
    }
    if (!slow && n <= 64) {
        for (l = 0; l < n; l++)
            s[l] = a[l] + q[l] * back;
        return;
    }
#endif
    for (l = 0; l < n; l++)
        s[l] = a[l] + zz * b[l];
}

#endif
