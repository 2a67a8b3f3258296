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

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

#endif
