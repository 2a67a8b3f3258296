/* The vector helpers of the block pass (_blockpass.pyx). */
#ifndef RESAMPLEX_BLOCKPASS_SIMD_H
#define RESAMPLEX_BLOCKPASS_SIMD_H

#include "_simd.h"

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

#endif
