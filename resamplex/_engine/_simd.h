/* Small vector kernels for the hot loops that compilers do not vectorise on their own.
 *
 * GCC and Clang vector extensions (portable across x86-64 SSE2, AArch64 NEON, ...); other
 * compilers get the scalar loop. Both compute, per lane, exactly the scalar expression
 * (w0 * p + w1 * q, each operation rounded to float, no contraction: the build passes
 * -ffp-contract=off), so every path gives the same bits.
 */
#ifndef RESAMPLEX_SIMD_H
#define RESAMPLEX_SIMD_H

#include <stdint.h>
#include <string.h>
#include <stddef.h>

/* Four interleaved rows (tmp4[4*i + b] is element i of row b), two taps per output:
 * r_b[o] = w[2o] * tmp4[4*idx[2o] + b] + w[2o+1] * tmp4[4*idx[2o+1] + b]. */
static inline void rx_dense4x2_f32(const float *tmp4, float *r0, float *r1, float *r2,
                                   float *r3, ptrdiff_t n, const int64_t *idx,
                                   const float *w)
{
    ptrdiff_t o;
#if defined(__GNUC__) || defined(__clang__)
    typedef float v4f __attribute__((vector_size(16)));
    for (o = 0; o < n; o++) {
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
    for (o = 0; o < n; o++) {
        const float *p = tmp4 + 4 * idx[2 * o], *q = tmp4 + 4 * idx[2 * o + 1];
        float wa = w[2 * o], wb = w[2 * o + 1];
        r0[o] = wa * p[0] + wb * q[0];
        r1[o] = wa * p[1] + wb * q[1];
        r2[o] = wa * p[2] + wb * q[2];
        r3[o] = wa * p[3] + wb * q[3];
    }
#endif
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
#if defined(__GNUC__) || defined(__clang__)
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

#endif
