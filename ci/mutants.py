#!/usr/bin/env python3
"""A small mutation check: does the test suite notice when a table builder or kernel breaks?

Each mutant in ``MUTANTS`` is a hand-written bug -- the two linear weights swapped, ties of
``round_prefer_ceil`` going down, cubic ignoring ``cubic_a`` ... -- given as exact text edits
``(old, new)`` of one source file. For each mutant the script copies the source tree (as git
sees it, plus the in-place build) to a temporary directory, applies the edits there, rebuilds
in place only if a ``.pyx``/``.pxd``/``.h`` changed, runs the mutant's test files against the
copy, and reports how many tests failed (a test process killed by a signal, as a read past
a guard page of ``tests/guarded.py`` kills it, counts as caught). A mutant that no test
catches (0 failures) makes the script exit 1. The working tree is never touched.

Run it by hand after every change of the table builders or kernels (not in CI: a full run
takes about 6-10 minutes on 2 cores; a native mutant rebuilds only the extension it edits):

    python ci/mutants.py                 # every mutant, the default test files
    python ci/mutants.py --list          # the mutants, and whether each still applies
    python ci/mutants.py -m cubic-ignores-cubic-a -m linear-weights-swapped
    python ci/mutants.py --tests tests/test_modes.py     # other test files for every mutant

Keeping it current: the edits are exact text. When the code a mutant edits moves or changes,
the script stops before running anything and names each stale mutant and the file it looked
in; rewrite that mutant's ``file``/``old``/``new`` against the new code so that it plants the
same bug (its ``why``), wherever that code now computes it, and check with ``-m NAME`` that the
tests still catch it. ``--list`` checks every mutant without running tests. Where the code
lives now: the core table builders are the Cython loops of ``resamplex/_engine/_tablegen.pyx``
(``TableBuilder``, driven by ``resamplex._tables.AxisSpec``), the adjoint's table is
``AxisTable.transpose`` in ``resamplex/_tables.py``, and the kernels' stores are in
``resamplex/_engine/kernels/_taps.pyx.tp``. Edit a template (``.pyx.tp``), never the ``.pyx`` that
setup.py renders from it (ignored by git, rewritten at every build). Where one bug needs the
same change in several places (``exclude_outside`` renormalises in the cubic and the
antialiased cubic rows), the mutant lists one edit for each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The test files run against every mutant unless it names its own: the core value tests
#: (reference comparisons for every mode, the adjoint, golden cases) and the reliability ones.
DEFAULT_TESTS = ("tests/test_modes.py", "tests/test_adjoint.py", "tests/test_resize.py",
                 "tests/test_reliability_valid.py")


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str                                  # relative to the repository root
    edits: tuple[tuple[str, str], ...]         # (old, new): each old occurs exactly once
    why: str                                   # the bug it plants
    tests: tuple[str, ...] = field(default=DEFAULT_TESTS)


TABLEGEN = "resamplex/_engine/_tablegen.pyx"

MUTANTS = [
    Mutant(
        "linear-weights-swapped", TABLEGEN,
        (("    w0 = 1.0 - f\n    w1 = f\n",
          "    w0 = f\n    w1 = 1.0 - f\n"),
         ("        w[0] = 1.0 - f\n        idx[1] = base + 1\n        w[1] = f\n",
          "        w[0] = f\n        idx[1] = base + 1\n        w[1] = 1.0 - f\n")),
        "row_linear gives i0 the weight f and i0 + 1 the weight 1 - f"),
    Mutant(
        "linear-inside-keeps-zero-weight", TABLEGEN,
        (("        return 2 if f != 0 else 1\n", "        return 2\n"),),
        "linear_at's inside path keeps the tap of weight 0 at an integer coordinate "
        "(0 * inf is NaN)"),
    Mutant(
        "window-bounds-from-the-ends-only", TABLEGEN,
        (("            if outside:  # the window from every index read, and the rows again\n",
          "            if outside and nnz < 0:\n"),),
        "TableBuilder.window_into trusts the tile's first and last outputs to bound its "
        "window where taps do not move right (cubic): indices fall outside it",
        tests=("tests/test_tables.py", "tests/test_executor.py")),
    Mutant(
        "round-prefer-ceil-ties-down", TABLEGEN,
        (("    if s.rule == N_ROUND_PREFER_CEIL:\n"
          "        k = k + (1.0 if frac >= 0.5 else 0.0)\n",
          "    if s.rule == N_ROUND_PREFER_CEIL:\n"
          "        k = k + (1.0 if frac > 0.5 else 0.0)\n"),),
        "row_nearest: round_prefer_ceil breaks ties downwards (as round_prefer_floor)"),
    Mutant(
        "cubic-ignores-cubic-a", TABLEGEN,
        (("        s.a = a\n",
          "        if scheme == SCHEME_TAPS:\n            a = -0.75\n        s.a = a\n"),),
        "the cubic taps (SCHEME_TAPS) always use a = -0.75"),
    Mutant(
        "area-overlap-off-by-one", TABLEGEN,
        (("        rw[j] = np_maximum(np_minimum(hi_c, <double>(start + j + 1))\n"
          "                           - np_maximum(lo_c, <double>(start + j)), 0.0)\n",
          "        rw[j] = np_maximum(np_minimum(hi_c, <double>(start + j + 2))\n"
          "                           - np_maximum(lo_c, <double>(start + j + 1)), 0.0)\n"),),
        "row_area weights pixel i by the overlap of [i + 1, i + 2)"),
    Mutant(
        "antialias-cubic-not-normalised", TABLEGEN,
        (("    c.total = 0.0 + pw_stream(win_raw_fn, &c, 0, K)\n",
          "    c.total = 1.0\n"),),
        "row_window_exact (antialiased cubic) leaves the stretched weights unnormalised "
        "(they sum to ~r)"),
    Mutant(
        "exclude-outside-not-renormalised", TABLEGEN,
        (("        for j in range(n):\n            rw[j] = rw[j] / total\n",
          "        for j in range(n):\n            rw[j] = rw[j]\n"),
         ("        v = win_inside(&c, j) / c.total2\n",
          "        v = win_inside(&c, j)\n")),
        "exclude_outside drops the outside taps but does not renormalise the rest (cubic: "
        "row_taps; antialiased cubic: row_window_exact)"),
    Mutant(
        "adjoint-weights-not-permuted", "resamplex/_tables.py",
        (("        return AxisTable(self.n_out, self.n_in, ptr, np.ascontiguousarray(rows[order]),\n"
          "                         np.ascontiguousarray(self.w[order]))\n",
          "        return AxisTable(self.n_out, self.n_in, ptr, np.ascontiguousarray(rows[order]),\n"
          "                         np.ascontiguousarray(self.w))\n"),),
        "AxisTable.transpose reorders the indices by input but not the weights"),
    Mutant(
        "int-store-rounds-half-up", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t\n",
          "from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t\n"
          "from libc.math cimport floor as floor_d\n"),
         ("            p[j] = <int_t>(<int>((v + magic) - magic))\n",
          "            p[j] = <int_t>(<int>floor_d(v + 0.5))\n")),
        "the contiguous integer store of half_even rounds ties up (int16/uint16, and 8-bit "
        "outputs of float64 sums)"),
    Mutant(
        "phase-int-ties-up", "resamplex/_engine/kernels/_taps_simd.h",
        (("                              : (s + (1 << (shift - 1)) - 1 + ((s >> shift) & 1)) >> shift;\n",
          "                              : (s + (1 << (shift - 1))) >> shift;\n"),
         ("        _mm256_and_si256(_mm256_sra_epi16(s, cnt), _mm256_set1_epi16(1))), cnt);\n",
          "        _mm256_set1_epi16(1)), cnt);\n"),
         ("        _mm512_and_si512(_mm512_sra_epi16(s, cnt), _mm512_set1_epi16(1))), cnt);\n",
          "        _mm512_set1_epi16(1)), cnt);\n")),
        "the exact-integer 8-bit kernels (x2 / x0.5 phase passes) round ties up, not to even",
        DEFAULT_TESTS + ("tests/test_dispatch.py",)),
    Mutant(
        "narrow-blend-drops-bias", "resamplex/_engine/kernels/_intpass_simd.h",
        (("            s0 = _mm256_sra_epi16(_mm256_add_epi16(s0, bb), sh);\n",
          "            s0 = _mm256_sra_epi16(s0, sh);\n"),),
        "the 16-bit vertical pass of a narrow ring (OpenCV uint8 linear) forgets its rounding "
        "bias in the first half of each AVX2 vector",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "narrow-up2-phases-swapped", "resamplex/_engine/kernels/_intpass.pyx",
        (("    rx_zip2_16(spare, od, row + a * c, p.hi - p.lo, c)\n",
          "    rx_zip2_16(od, spare, row + a * c, p.hi - p.lo, c)\n"),),
        "a x2 run's even and odd output rows are zipped the wrong way round in a narrow ring",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "down2-pairs-rounds-the-other-way", "resamplex/_engine/kernels/_taps_simd.h",
        (("        _mm_storeu_si128((__m128i *)(out + j), rx_round_pack16(sum, shift, 0, away));\n"
          "    }\n    return 1;\n",
          "        _mm_storeu_si128((__m128i *)(out + j), rx_round_pack16(sum, shift, 0, !away));\n"
          "    }\n    return 1;\n"),),
        "a x0.5 of uint8 pixels read in place (1, 2 or 4 bytes) rounds its ties the other way",
        ("tests/test_compat_cv2.py", "tests/test_dispatch.py")),
    Mutant(
        "halving-takes-odd-pixels", "resamplex/_engine/kernels/_gather_simd.h",
        (("            _mm_storeu_si128((__m128i *)(d + 4 * o), _mm_castps_si128(_mm_shuffle_ps(v0, v1, 0x88)));\n",
          "            _mm_storeu_si128((__m128i *)(d + 4 * o), _mm_castps_si128(_mm_shuffle_ps(v0, v1, 0xDD)));\n"),),
        "a nearest halving of 4-byte pixels copies the odd pixels instead of the even ones",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "rgb-halving-takes-odd-pixels", "resamplex/_engine/kernels/_gather_simd.h",
        (("-1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 4, 8, 9, 10, -1);\n",
          "-1, -1, -1, -1, -1, -1, -1, -1, -1, 5, 6, 7, 11, 12, 13, -1);\n"),),
        "a nearest halving of 3-byte pixels copies odd pixels into the last two of every five",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "vector-pairs-add-antisymmetric-taps", "resamplex/_engine/kernels/_floatpass_simd.h",
        (("                p = SUB(p, LOAD(x[t + 1] + j)); \\\n",
          "                p = ADD(p, LOAD(x[t + 1] + j)); \\\n"),),
        "SciPy's pairs of float64 rows, by vectors, add the taps of an antisymmetric kernel "
        "(odd derivatives) instead of subtracting them",
        ("tests/test_compat_gaussian.py",)),
    Mutant(
        "portable-symmetric-pairs-subtract", "resamplex/_engine/kernels/_floatpass_simd.h",
        (("static inline rx_v2d rx_v2d_add(rx_v2d a, rx_v2d b) { return a + b; }\n",
          "static inline rx_v2d rx_v2d_add(rx_v2d a, rx_v2d b) { return a - b; }\n"),),
        "the portable two-double vectors of a symmetric kernel's pairs (below AVX2, and the "
        "last elements at AVX2) subtract the taps' sums instead of adding them",
        ("tests/test_compat_gaussian.py",)),
    Mutant(
        "bands-smooth-from-the-rows-below", "resamplex/compat/skimage.py",
        (("    return AxisTable(hi - lo, b - a, t.ptr[a:b + 1] - p0, idx - lo, t.w[p0:p1]), lo, hi\n",
          "    return AxisTable(hi - lo, b - a, t.ptr[a:b + 1] - p0, idx - lo, t.w[p0:p1]), lo + 1, hi + 1\n"),),
        "a band of the scikit-image door smooths the input rows one below those its table "
        "names",
        ("tests/test_compat_skimage.py",)),
    Mutant(
        "pairs-run-ends-one-early", "resamplex/_engine/kernels/_floatpass.pyx",
        (("    rx_pairs_f64(acc + lo * c, rows, w + ta, signs, tb - ta, (hi - lo) * c)\n",
          "    rx_pairs_f64(acc + lo * c, rows, w + ta, signs, tb - ta, (hi - lo - 1) * c)\n"),),
        "the interior run of a float64 pairs pass over pixels leaves its last output "
        "uncomputed",
        ("tests/test_compat_gaussian.py",)),
    Mutant(
        "two-row-zoom-weighs-the-last-tap-by-the-first", "resamplex/_engine/kernels/_spline.h",
        (("        t = _mm512_add_pd(t, _mm512_mul_pd(_mm512_mul_pd(x11, va1), w1));\n",
          "        t = _mm512_add_pd(t, _mm512_mul_pd(_mm512_mul_pd(x11, va1), w0));\n"),
         ("        t = _mm256_add_pd(t, _mm256_mul_pd(_mm256_mul_pd(x11, va1), w1));\n",
          "        t = _mm256_add_pd(t, _mm256_mul_pd(_mm256_mul_pd(x11, va1), w0));\n")),
        "the vector rows of SciPy's order-1 zoom weigh the second row's second tap by the "
        "first tap's weight",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "two-row-zoom-scalar-second-tap-weighted-by-the-first", "resamplex/_engine/kernels/_spline.pyx",
        (("        v = v + (_tap(tag, r0, g1[j], cval) * a0) * b1[j]\n",
          "        v = v + (_tap(tag, r0, g1[j], cval) * a0) * b0[j]\n"),),
        "the outputs of SciPy's order-1 image zoom taken one at a time (integer inputs, cval "
        "taps at the edges) weigh the first row's second tap by the first tap's weight",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "two-row-zoom-misses-the-last-cval-output", "resamplex/_engine/kernels/_spline.pyx",
        (("        for j in range(p.n_in):\n            _put(out, cval_at[j], cval, f32)\n",
          "        for j in range(p.n_in - 1):\n            _put(out, cval_at[j], cval, f32)\n"),),
        "the order-1 image zoom by rows leaves the last of a row's outputs outside the input "
        "computed instead of cval",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "order-zero-rows-keep-negative-zero", "resamplex/_engine/kernels/_spline.h",
        (("            _mm256_storeu_ps((float*)out + j, _mm256_mask_add_ps(vc, in, v, z));\n",
          "            _mm256_storeu_ps((float*)out + j, _mm256_mask_mov_ps(vc, in, v));\n"),
         ("            _mm512_storeu_pd((double*)out + j, _mm512_mask_add_pd(vc, in, v, z));\n",
          "            _mm512_storeu_pd((double*)out + j, _mm512_mask_mov_pd(vc, in, v));\n")),
        "the vector rows of SciPy's order-0 zoom store the elements as they are, not as "
        "0.0 + x (-0.0 stays -0.0)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "store-clip-ties-go-to-the-bound", "resamplex/_engine/kernels/_spline.pyx",
        (("            t = lo if lo > d[j] else d[j]\n",
          "            t = lo if lo >= d[j] else d[j]\n"),),
        "the zoom's clip in the store gives contiguous float64 values that tie the lower "
        "bound the bound (-0.0 clipped at +0.0 is +0.0), not NumPy's value",
        ("tests/test_compat_skimage.py",)),
    Mutant(
        "two-row-zoom-rows-left-unclipped", "resamplex/_engine/kernels/_spline.pyx",
        (("            for l in range(nl):\n"
          "                _stored(p, dst + do + (at + l) * p.dstr[mid])\n"
          "        else:\n",
          "            for l in range(nl - 1):\n"
          "                _stored(p, dst + do + (at + l) * p.dstr[mid])\n"
          "        else:\n"),),
        "the two-row order-1 zoom, writing float rows straight into the output, clips all "
        "but the last row of each group",
        ("tests/test_compat_skimage.py",)),
    Mutant(
        "banded-zoom-clip-keyed-without-the-store", "resamplex/compat/skimage.py",
        (("           image.dtype, preserve_range, fused)\n",
          "           image.dtype, preserve_range)\n"),),
        "the banded smooth-and-zoom keeps its zoom plans under a key that leaves out whether "
        "they clip in the store (a clip=False call after a clip=True one reuses its plans)",
        ("tests/test_compat_skimage.py",)),
    Mutant(
        "int-range-stops-at-either-end", "resamplex/_engine/kernels/_reduce.pyx",
        (("        if lo == bottom and hi == top:\n",
          "        if lo == bottom or hi == top:\n"),),
        "the one-pass integer range stops once either end of the type is seen, not both "
        "(the other end then from the blocks read so far)",
        ("tests/test_compat_skimage.py",)),
    Mutant(
        "dense-window-pairs-one-late", "resamplex/_engine/kernels/_dense_f32.h",
        (("        rel, _mm512_slli_epi64(_mm512_add_epi64(rel, _mm512_set1_epi64(1)), 32));\n",
          "        rel, _mm512_slli_epi64(_mm512_add_epi64(rel, _mm512_set1_epi64(2)), 32));\n"),
         ("        rel, _mm256_slli_epi64(_mm256_add_epi64(rel, _mm256_set1_epi64x(1)), 32));\n",
          "        rel, _mm256_slli_epi64(_mm256_add_epi64(rel, _mm256_set1_epi64x(2)), 32));\n")),
        "the float32 dense rows read from a window take each output's second tap one element "
        "late",
        ("tests/test_dispatch.py", "tests/test_resize.py")),
    Mutant(
        "dense-window-loads-one-short", "resamplex/_engine/kernels/_dense_f32.h",
        (("                    x = rx_pick_pairs16_ps(rx_window16_ps(tmp + a0, span + 2), rel);\n",
          "                    x = rx_pick_pairs16_ps(rx_window16_ps(tmp + a0, span + 1), rel);\n"),
         ("                    x = rx_pick_pairs8_ps(rx_window8_ps(tmp + a0, span + 2), rel);\n",
          "                    x = rx_pick_pairs8_ps(rx_window8_ps(tmp + a0, span + 1), rel);\n")),
        "the float32 two-tap dense rows load their window one element short (the block's "
        "last tap reads 0)",
        ("tests/test_dispatch.py", "tests/test_resize.py")),
    Mutant(
        "dense4-window-second-pair-repeats-the-first", "resamplex/_engine/kernels/_dense_f32.h",
        (("                    xb = rx_pick_pairs16_ps(win, _mm512_add_epi64(rel, two));\n",
          "                    xb = rx_pick_pairs16_ps(win, rel);\n"),),
        "the float32 four-tap dense rows read from a window take taps 2 and 3 from taps 0 and "
        "1's elements",
        ("tests/test_dispatch.py", "tests/test_resize.py")),
    Mutant(
        "tensor-scratch-counts-kept-axes", "resamplex/_engine/compile/splines.py",
        (("            buf_len=_spline.tensor_scratch(len(self.tables) - self.lead, k, n_last, n_in_last),\n",
          "            buf_len=_spline.tensor_scratch(len(self.tables), k, n_last, n_in_last),\n"),),
        "the SciPy tensor pass sizes its products' scratch by every axis, the kept ones read "
        "at one tap included (2^(ndim - 1) products at order 1)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "two-row-zoom-folds-channels-in-axis-order", "resamplex/_engine/compile/splines.py",
        (("            grid[order] = walk              # each output's index on every folded axis\n",
          "            grid = walk\n"),),
        "the channels folded into an image's rows are walked in axis order, not in the "
        "output's memory order",
        ("tests/test_compat_scipy.py", "tests/test_compat_skimage.py")),
    Mutant(
        "bands-left-unclipped", "resamplex/compat/skimage.py",
        (("    fused = clip is not None and (not lead or finite) and _clip_in_store(clip, fdtype)\n",
          "    fused = False\n"),
         ("            if clip is not None and not fused:  # elementwise: the band's part of the clip\n",
          "            if False:\n")),
        "the scikit-image door in bands of rows leaves its output unclipped to the input's "
        "range",
        ("tests/test_compat_skimage.py",)),
    Mutant(
        "loading-pass-skips-the-floor", "resamplex/_engine/kernels/_floatpass.pyx",
        (("    if floor > -INFINITY:\n", "    if False:\n"),),
        "the float pass that reads integers as img_as_float leaves signed values below -1",
        ("tests/test_executor.py", "tests/test_compat_skimage.py")),
    Mutant(
        "loading-ring-tags-ignore-the-outer-row", "resamplex/_engine/kernels/_floatpass.pyx",
        (("                if tags[slot] != key:\n",
          "                if tags[slot] != p.off[t] * p.sstr[1]:\n"),
         ("                    tags[slot] = key\n",
          "                    tags[slot] = p.off[t] * p.sstr[1]\n")),
        "the loading float pass's ring keeps a row by its index alone, reusing it for the "
        "next outer row",
        ("tests/test_executor.py", "tests/test_compat_skimage.py")),
    Mutant(
        "pixel-run-reads-its-float-row-at-the-source-stride", "resamplex/_engine/kernels/_floatpass.pyx",
        (("        s_axis = c * 8\n", "        s_axis = p.sstr[1]\n"),),
        "the pairs run over pixels of integer or float32 data reads its float64 copy of the "
        "row with the source's pixel stride",
        ("tests/test_compat_gaussian.py",)),
    Mutant(
        "fixed-pixels-skip-last-tap", "resamplex/_engine/kernels/_fixed.pyx",
        (("        for t in range(ptr[j], ptr[j + 1]):\n            x = s + off[t]\n",
          "        for t in range(ptr[j], ptr[j + 1] - 1):\n            x = s + off[t]\n"),),
        "the fixed-point pass over interleaved pixels (Pillow 8-bit, torch channels-last) "
        "leaves out each output's last tap",
        ("tests/test_compat_pil.py",)),
    Mutant(
        "window-phase-halves-out-of-order", "resamplex/_engine/kernels/_fixed_simd.h",
        (("            if (q == 2)\n                s16 = _mm256_permute4x64_epi64(s16, 0xD8);\n",
          "            if (q == 2)\n                s16 = _mm256_permute4x64_epi64(s16, 0xE4);\n"),),
        "a halved row of torch's uint8 windows stores the middle two quarters of each vector "
        "of outputs swapped",
        ("tests/test_compat_torch.py",)),
    Mutant(
        "window-run-skips-first-tap", "resamplex/_engine/compile/fixed.py",
        (("pd=[v + c0 for v in s]",
          "pd=[v + c0 + 1 for v in s]"),),
        "the run of a fixed-point window pass reads its taps one sample late (its first tap "
        "left out). (Its first edit, c0 one column late, became a run the planner refuses once "
        "bilinear and bicubic windows were cut to their 2 and 4 taps: the same bits, not a bug.)",
        ("tests/test_compat_torch.py",)),
    Mutant(
        "block-pass-drops-partial-finish", "resamplex/_engine/compile/exact.py",
        (("        pfin=fins[spec.partial_finish or spec.finish],\n",
          "        pfin=fins[spec.finish],\n"),),
        "a block pass finishes its partial blocks like its full ones (OpenCV's area with "
        "fx/fy divides partial sums in float32 even for 8-bit data)",
        ("tests/test_compat_cv2.py", "tests/test_compat_pil.py")),
    Mutant(
        "float-up2-k-odd-row-reads-even-offsets", "resamplex/_engine/kernels/_floatpass.pyx",
        (("    _phase_k(x + p.lo * c, tmp + m, m, p.pdk + p.k, p.pwk + p.k, p.k, c)\n",
          "    _phase_k(x + p.lo * c, tmp + m, m, p.pdk, p.pwk + p.k, p.k, c)\n"),),
        "the odd outputs of a float four- or eight-tap x2 run read the even outputs' pixels",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "split-tail-not-offset", "resamplex/_engine/compile/exact.py",
        (("            soff=c0 * sz, doff=c0 * dz,\n",
          "            soff=c0 * sz, doff=0,\n"),),
        "a split pass's scalar tail writes over the start of each row instead of after the "
        "vector head",
        ("tests/test_executor.py", "tests/test_compat_cv2.py")),
    Mutant(
        "float-band-keeps-stale-rows", "resamplex/_engine/kernels/_floatpass.pyx",
        (("                start = clo + keep\n",
          "                start = chi + 1\n"),),
        "the band of a fused float pair keeps the rows it shares with the chunk before but "
        "never adds the new ones",
        ("tests/test_executor.py", "tests/test_compat_cv2.py")),
    Mutant(
        "up2-run-odd-weights-swapped", "resamplex/_engine/kernels/_intpass.pyx",
        (("    cdef int32_t u1 = <int32_t>p.pq[2], v1 = <int32_t>p.pq[3]\n",
          "    cdef int32_t u1 = <int32_t>p.pq[3], v1 = <int32_t>p.pq[2]\n"),),
        "the x2 run of a fused integer pair's first pass weighs the odd outputs' taps the "
        "wrong way round (OpenCV uint8 linear at x2)",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "down2-run-odd-tap-from-even-pixels", "resamplex/_engine/kernels/_intpass.pyx",
        (("        if d & 1:\n            rows[t] = od + (p.lo + ((d - 1) >> 1)) * c\n",
          "        if d & 1:\n            rows[t] = ev + (p.lo + ((d - 1) >> 1)) * c\n"),),
        "the x0.5 run of a fused integer pair reads its odd taps from the even pixels "
        "(OpenCV uint8 cubic and Lanczos4 at half size)",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "premultiply-rounds-down", "resamplex/_engine/kernels/_alpha.h",
        (("        const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(128);\n",
          "        const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(127);\n"),),
        "Pillow's MULDIV255 premultiplication (RGBA -> RGBa) adds 127 instead of 128 in its "
        "vector form",
        ("tests/test_compat_pil.py",)),
    Mutant(
        "float-planar-row-skips-first-tap", "resamplex/_engine/kernels/_floatpass.pyx",
        (("            for t in range(ta, tb):\n"
          "                a = a + wts[t] * load_as(<const load_t*>(base + idx[t] * s_axis), 0, div)\n",
          "            for t in range(ta + 1, tb):\n"
          "                a = a + wts[t] * load_as(<const load_t*>(base + idx[t] * s_axis), 0, div)\n"),),
        "the float pass's one-element rows skip a tap of each output (Pillow F and I;16, "
        "planar float passes)",
        ("tests/test_compat_pil.py", "tests/test_executor.py")),
    Mutant(
        "tensor-lane-products-reordered", "resamplex/_engine/kernels/_spline.h",
        (("        for (int d = 0; d < nw; d++)\n            v = _mm512_mul_pd(v, wv[d]);\n",
          "        for (int d = nw - 1; d >= 0; d--)\n            v = _mm512_mul_pd(v, wv[d]);\n"),),
        "the gathered products of the SciPy tensor pass multiply by the axes' weights last "
        "axis first (another rounding than SciPy's chain)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "short-pairs-antisymmetric-adds", "resamplex/_engine/kernels/_floatpass.pyx",
        (("                    a[k] = a[k] + _pair(wt, sign, x, xb, k, wts)\n",
          "                    a[k] = a[k] + _pair(wt, abs(sign), x, xb, k, wts)\n"),),
        "SciPy's pairs over pixels of up to 4 elements add the two elements of an "
        "antisymmetric pair instead of subtracting them (Gaussian derivatives)",
        ("tests/test_compat_gaussian.py",)),
    Mutant(
        "gathered-pads-keep-their-pixel", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        tmp[g.gpad[e]] = 0\n", "        tmp[g.gpad[e]] = tmp[g.gpad[e]]\n"),),
        "a fused pass that blends only the pixels its taps read leaves a padding tap's "
        "blended pixel in place of the padding zero",
        ("tests/test_convert.py",)),
    Mutant(
        "gathered-taps-read-the-wrong-rows", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("            out[e] = gw[e] * tmp[e] + gw[n + e] * tmp[n + e]\n",
          "            out[e] = gw[e] * tmp[n + e] + gw[n + e] * tmp[e]\n"),),
        "a fused pass that blends only the pixels its taps read weighs each tap's pixels "
        "with the other tap's weight",
        ("tests/test_convert.py",)),
    Mutant(
        "float-phase-odd-weights-swapped", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        rx_phase2_f32(tmp + p.lo * c, od, m, p.pd[2] * c, p.pd[3] * c, <float>p.pw[2],\n"
          "                      <float>p.pw[3])\n    if float_src_t is float:\n",
          "        rx_phase2_f32(tmp + p.lo * c, od, m, p.pd[2] * c, p.pd[3] * c, <float>p.pw[3],\n"
          "                      <float>p.pw[2])\n    if float_src_t is float:\n"),),
        "the x2 polyphase pass of float data weighs the two taps of its odd outputs the wrong "
        "way round",
        ("tests/test_resize.py",)),
    Mutant(
        "pair-pixels-second-row-weight", "resamplex/_engine/kernels/_taps_simd.h",
        (("                __m256 acc = _mm256_add_ps(_mm256_mul_ps(w10, x0), _mm256_mul_ps(w11, x1));\n",
          "                __m256 acc = _mm256_add_ps(_mm256_mul_ps(w10, x0), _mm256_mul_ps(w10, x1));\n"),),
        "the register form of a strong uint8 reduction's pixel pairs weighs the second input "
        "row with the first row's weight",
        ("tests/test_convert.py",)),
    Mutant(
        "phase-zip-swaps-phases", "resamplex/_engine/kernels/_taps_simd.h",
        (("            _mm_storeu_si128((__m128i *)(out + 2 * j), _mm_unpacklo_epi8(e, o));\n"
          "            _mm_storeu_si128((__m128i *)(out + 2 * j + 16), _mm_unpackhi_epi8(e, o));\n",
          "            _mm_storeu_si128((__m128i *)(out + 2 * j), _mm_unpacklo_epi8(o, e));\n"
          "            _mm_storeu_si128((__m128i *)(out + 2 * j + 16), _mm_unpackhi_epi8(o, e));\n"),
         ("        out[2 * j] = (uint8_t)e;           /* an int8 value's byte, or a uint8 value */\n"
          "        out[2 * j + 1] = (uint8_t)o;\n",
          "        out[2 * j] = (uint8_t)o;\n"
          "        out[2 * j + 1] = (uint8_t)e;\n")),
        "the x2 integer phase pass of single-element pixels zips its odd outputs before its "
        "even ones",
        ("tests/test_resize.py",)),
    Mutant(
        "permute-window-second-half-ignored", "resamplex/_engine/kernels/_pixels.h",
        (("        if (span > 128) \\\n", "        if (0 && span > 128) \\\n"),),
        "a nearest gather of 2-, 4- or 8-byte pixels through a 256-byte window takes the "
        "pixels of its second half from the first",
        ("tests/test_resize.py",)),
    Mutant(
        "permute-window-bound-doubled", "resamplex/_engine/kernels/_pixels.h",
        (("    const __m512i lim = _mm512_set1_epi64(span);\n",
          "    const __m512i lim = _mm512_set1_epi64(2 * span);\n"),),
        "a nearest gather block whose reads spread past its permute window is permuted anyway",
        ("tests/test_resize.py",)),
    Mutant(
        "three-to-two-keeps-the-wrong-phase", "resamplex/_engine/kernels/_taps_simd.h",
        (("            pk[i / 16][i % 16] = i % 3 == dc ? 0xFF : 0;\n",
          "            pk[i / 16][i % 16] = i % 3 == da ? 0xFF : 0;\n"),),
        "the 3:2 integer pass keeps the odd output's sum where the even output reads",
        ("tests/test_resize.py",)),
    Mutant(
        "phase-rows-blend-weights-swapped", "resamplex/_engine/kernels/_taps_simd.h",
        (("        _mm512_mullo_epi16(v0, CVT(_mm256_loadu_si256((const __m256i *)(x0 + j + (D))))),   \\\n",
          "        _mm512_mullo_epi16(v1, CVT(_mm256_loadu_si256((const __m256i *)(x0 + j + (D))))),   \\\n"),),
        "the x2 integer rows blended in registers (AVX-512) weigh the first input row by the "
        "second row's weight",
        ("tests/test_resize.py",)),
    Mutant(
        "phase-int-borders-drop-the-last-element", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("            if i < n_mid:\n                if r0 != NULL:\n",
          "            if i < n_mid - 1:\n                if r0 != NULL:\n"),),
        "the integer border outputs of a x2 phase pass read the row's last element as the "
        "padding zero",
        ("tests/test_resize.py",)),
    Mutant(
        "clamped-borders-stop-one-short", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        b = min(max(i + db1, 0), n - 1)\n", "        b = min(max(i + db1, 0), n - 2)\n"),),
        "the x2 border outputs computed from clamped taps (single-channel rows of two input "
        "rows) clamp the last odd output's second tap one pixel short",
        ("tests/test_resize.py",)),
    Mutant(
        "strided-pixel-reads-its-first-element-twice", "resamplex/_engine/kernels/_gather.pyx",
        (("            q[1] = p[es]\n", "            q[1] = p[0]\n"),),
        "a nearest gather of 3-byte pixels whose channels lie apart in the input (BGR viewed "
        "as RGB) reads the first channel in place of the second",
        ("tests/test_resize.py", "tests/test_compat_cv2.py")),
    Mutant(
        "reversed-pixels-keep-the-first-pixel-order", "resamplex/_engine/kernels/_gather_simd.h",
        (("_mm_setr_epi8(2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9, 14, 13, 12, 15)",
          "_mm_setr_epi8(0, 1, 2, 5, 4, 3, 8, 7, 6, 11, 10, 9, 14, 13, 12, 15)"),),
        "the shuffle that copies a BGR row viewed as RGB contiguous (SSSE3) leaves the first "
        "pixel of every five unreversed",
        ("tests/test_resize.py", "tests/test_compat_cv2.py")),
    Mutant(
        "strided-copy-moves-two-bytes-of-three", "resamplex/_engine/kernels/_gather.pyx",
        (("            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 3)\n",
          "            memcpy(d + o * ds, s + (off[o] if off != NULL else o * ss), 2)\n"),),
        "the copy that makes spaced or mirrored 3-byte pixels contiguous before a weighted "
        "pass (and the gather of a copied axis of such pixels) drops their last byte",
        ("tests/test_resize.py", "tests/test_compat_cv2.py")),
    Mutant(
        "full-row-left-border-reads-the-second-pixel", "resamplex/_engine/kernels/_taps_simd.h",
        (("7, 6, 5, 4, 3, 2, 1, 0, 0);", "7, 6, 5, 4, 3, 2, 1, 0, 1);"),),
        "the whole-row x2 kernel (AVX-512, 8-bit) takes the pixel before the row's first as "
        "its second pixel instead of the first clamped",
        ("tests/test_resize.py",)),
    Mutant(
        "full-row-right-border-unclamped", "resamplex/_engine/kernels/_taps_simd.h",
        (("p = j + 32 == n ? _mm512_permutexvar_epi16(right, c) : RX_ROWV512(CVT, 1);",
          "p = j + 32 == n ? c : RX_ROWV512(CVT, 1);"),),
        "the whole-row x2 kernel's last step reads each pixel for the one after it",
        ("tests/test_resize.py",)),
    Mutant(
        "clamped-borders-unchecked", "resamplex/_engine/compile/phases.py",
        (("        if {e: q for e, q in want.items() if q} != {e: q for e, q in got.items() if q}:\n"
          "            return False\n",
          "        pass\n"),),
        "the planner lets the whole-row x2 kernel clamp the border taps whatever the table "
        "says there",
        ("tests/test_resize.py",)),
    Mutant(
        "spline-runs-read-across-gaps", "resamplex/_engine/kernels/_spline.h",
        (("if (runs && i + 8 <= n && at[i + 7] - at[i] == 7) {",
          "if (runs && i + 8 <= n && at[i + 7] - at[i] <= 8) {"),),
        "the tensor evaluation's products load eight adjacent elements where a tile's inputs "
        "skip one (a shrinking axis), instead of gathering them",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "spline-transpose-swaps-two-columns", "resamplex/_engine/kernels/_spline.h",
        (("static const int col[4][2] = {{0, 4}, {2, 6}, {1, 5}, {3, 7}};",
          "static const int col[4][2] = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};"),),
        "the 8 x 8 transpose of the tensor evaluation (products loaded as runs, sums of eight "
        "outputs) puts columns 1 and 2 in each other's place",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "spline-avx2-transpose-repeats-a-column", "resamplex/_engine/kernels/_spline.h",
        (("    c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);\n",
          "    c[1] = _mm256_permute2f128_pd(t0, t2, 0x31);\n"),),
        "the AVX2 4 x 4 transpose of the tensor evaluation gives column 2 in column 1's place",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "tensor-mid-cval-taps-read-as-the-row-start", "resamplex/_engine/kernels/_spline.pyx",
        (("                        mcv[q * LANES + l] = True\n                        mcv_any[q] = True\n",
          "                        mcv[q * LANES + l] = True\n"),),
        "the tensor evaluation takes a group's products in vectors although a lane's tap "
        "on the axis before the last reads cval (the element at the row's start instead)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "spline-lane-loads-upper-half-one-lane-early", "resamplex/_engine/kernels/_spline.h",
        (("                              rx_load4_pd(src, off + 4, add), 1);",
          "                              rx_load4_pd(src, off + 3, add), 1);"),),
        "the lane-by-lane float64 loads of the spline evaluation at AVX-512 (channels-last "
        "products, order-1 rows without a window) give lanes 4-7 the elements of lanes 3-6",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "pairs-symmetric-loop-drops-the-last-pair", "resamplex/_engine/kernels/_floatpass_simd.h",
        (("            for (int t = 1; t < k; t += 2) \\\n",
          "            for (int t = 1; t < k - 2; t += 2) \\\n"),),
        "the float64 rows of a symmetric kernel of 3 to 13 taps (rx_pairs_sym: Gaussian "
        "filters, scikit-image's anti-aliasing) leave out their outermost pair",
        ("tests/test_compat_gaussian.py", "tests/test_compat_skimage.py")),
    Mutant(
        "tensor-three-output-tail-repeats-the-second", "resamplex/_engine/kernels/_spline.h",
        (("const ptrdiff_t j1 = m > 1 ? j + 1 : j, j2 = m > 2 ? j + 2 : j1;",
          "const ptrdiff_t j1 = m > 1 ? j + 1 : j, j2 = j1;"),),
        "the tensor evaluation's last one to three outputs of a tile (an image's three "
        "channels) take the second one's sum for the third",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-wide-runs-all-load-the-first", "resamplex/_engine/kernels/_spline.pyx",
        (("                        rb[l] = (<const double*>(src + sol[r * SPLINE_LANES + l] + i * ss))[0]",
          "                        rb[l] = (<const double*>(src + sol[l] + i * ss))[0]"),),
        "the prefilter's float64 loads of several runs of sixteen lines side by side (an "
        "axis other than the innermost) give every run the first run's lines",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-mirror-sum-lanes-mirror-themselves", "resamplex/_engine/kernels/_spline.h",
        (("        a3 = a3 + zv * (rx_load_d4(x + 12) + zzv * rx_load_d4(y + 12));",
          "        a3 = a3 + zv * (rx_load_d4(x + 12) + zzv * rx_load_d4(x + 12));"),),
        "the vector run of the prefilter's mirror initial value takes, on lanes 12-15, each "
        "term's own element for its mirror image",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-two-axis-lines-stored-at-source-strides", "resamplex/_engine/kernels/_spline.pyx",
        (("            do[l] = (first + l) * p.dstr[d]\n",
          "            do[l] = (first + l) * p.sstr[d]\n"),),
        "the prefilter's lines in turn over one other axis are stored at the source's "
        "offsets (a float32 or integer input filtered into float64)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-lanes-stored-in-reverse", "resamplex/_engine/kernels/_spline.pyx",
        (("                (<double*>(dst + do[l] + i * ds))[0] = buf[i * SPLINE_LANES + l]",
          "                (<double*>(dst + do[l] + i * ds))[0] = buf[i * SPLINE_LANES + nl - 1 - l]"),),
        "the prefilter stores its sixteen lines' float64 results each into another line's place",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-lanes-read-the-last-element-twice", "resamplex/_engine/kernels/_spline.pyx",
        (("                buf[i * SPLINE_LANES + l] = (<const double*>(src + so[l] + i * ss))[0]",
          "                buf[i * SPLINE_LANES + l] = (<const double*>(src + so[l] + (i - (i == n - 1)) * ss))[0]"),),
        "the prefilter's float64 loads of sixteen whole lines read each line's second-last "
        "element in place of its last",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "tensor-mid-taps-weighed-by-the-first", "resamplex/_engine/kernels/_spline.pyx",
        (("                    mw[q * LANES + l] = w[p.ptr[mid] + (at + l) * k + q]",
          "                    mw[q * LANES + l] = w[p.ptr[mid] + (at + l) * k]"),),
        "the tensor evaluation's per-lane taps of the axis before the last (looked up once "
        "per group of eight rows) all take the weight of the first tap",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "converting-store-reads-scratch-at-output-strides", "resamplex/_engine/compile/store.py",
        (("    store = dict(op=OP_STORE, src=src, dst=-2, shape=shape, sstr=merged[0], "
          "dstr=merged[1],\n",
          "    store = dict(op=OP_STORE, src=src, dst=-2, shape=shape, sstr=merged[1], "
          "dstr=merged[1],\n"),),
        "the converting store (a gather into another dtype, a relayout) steps through its "
        "scratch with the output's byte strides",
        ("tests/test_convert.py",)),
    Mutant(
        "jax-antialias-never-widens", "resamplex/compat/jax.py",
        (("    ks = np.maximum(inv, F32(1.0)) if antialias else F32(1.0)\n",
          "    ks = F32(1.0)\n"),),
        "compat.jax's downscaling kernels keep their width with antialias on",
        ("tests/test_compat_jax.py",)),
    Mutant(
        "jax-cubic-pytorch-edges-not-repeated", "resamplex/compat/jax.py",
        (("    lo, hi = (-radius, n_in + radius) if edge else (0, n_in)\n",
          "    lo, hi = (0, n_in)\n"),),
        "compat.jax's cubic-pytorch drops the taps past either end instead of moving them "
        "onto the edge pixel",
        ("tests/test_compat_jax.py",)),
    Mutant(
        "affine-memo-ignores-values", "resamplex/_engine/plan.py",
        (("a.shape, b.shape, a.tobytes(),\n                   b.tobytes())",
          "a.shape, b.shape)"),),
        "a repeated normalising call into channels-last pixels reuses the per-channel a and b "
        "expanded for an earlier call, whatever their values now",
        ("tests/test_convert.py",)),
    Mutant(
        "planes-mapped-with-the-next-channel", "resamplex/_engine/kernels/_taps_simd.h",
        (("                g = _mm_add_ps(_mm_mul_ps(g, a1), b1);\n",
          "                g = _mm_add_ps(_mm_mul_ps(g, a2), b1);\n"),),
        "the planar float32 store of a normalising call (HWC in, CHW out) scales the second "
        "channel by the third channel's a",
        ("tests/test_convert.py",)),
    Mutant(
        "phase-float-rows-zip-swapped", "resamplex/_engine/kernels/_taps_simd.h",
        (("                _mm512_storeu_si512((void *)(out + 4 * j), rx_bf16x16x2((E), (O)));           \\\n",
          "                _mm512_storeu_si512((void *)(out + 4 * j), rx_bf16x16x2((O), (E)));           \\\n"),
         ("                _mm512_storeu_ps((float *)out + 2 * j, _mm512_permutex2var_ps(lo_, z0, hi_)); \\\n",
          "                _mm512_storeu_ps((float *)out + 2 * j, _mm512_permutex2var_ps(hi_, z0, lo_)); \\\n")),
        "the x2 float32 / bfloat16 rows blended in registers (AVX-512) zip the odd outputs "
        "before the even ones",
        ("tests/test_resize.py",)),
    Mutant(
        "pairs-px-weights-swapped", "resamplex/_engine/kernels/_intpass_simd.h",
        (("        ww = (uint32_t)(uint16_t)(int16_t)w0 | ((uint32_t)(uint16_t)(int16_t)w1 << 16);\n",
          "        ww = (uint32_t)(uint16_t)(int16_t)w1 | ((uint32_t)(uint16_t)(int16_t)w0 << 16);\n"),
         ("                    _mm_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)v0\n"
          "                                         | ((uint32_t)(uint16_t)(int16_t)v1 << 16))));\n",
          "                    _mm_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)v1\n"
          "                                         | ((uint32_t)(uint16_t)(int16_t)v0 << 16))));\n")),
        "the two taps of a uint8 pixel pair are weighed the wrong way round in their vector "
        "form (OpenCV uint8 linear at ratios other than x2 / x0.5, 2-4 channels)",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "row-window-positions-one-late", "resamplex/_engine/kernels/_spline.h",
        (("                __m512 v0 = _mm512_permutex2var_ps(lo0, at, hi0);\n",
          "                __m512 v0 = _mm512_permutex2var_ps(lo0, _mm512_add_epi32(at, "
          "_mm512_set1_epi32(1)), hi0);\n"),),
        "the AVX-512 two-row zoom picks each tap of the first row one element after its "
        "position in the block's window",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "row-window-avx2-ignores-bit-4", "resamplex/_engine/kernels/_spline.h",
        (("    return _mm256_blendv_ps(_mm256_blendv_ps(a, b, bit3), _mm256_blendv_ps(c, d, bit3), "
          "bit4);\n",
          "    return _mm256_blendv_ps(a, b, bit3);\n"),),
        "the AVX2 window pick reads positions 16-31 of a window from its first half",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "row-window-read-whole-past-the-end", "resamplex/_engine/compile/splines.py",
        (("    table[:, 1] = np.where(ok, np.where(base + WINDOW_BYTES > end, span, -span), 0)\n",
          "    table[:, 1] = np.where(ok, -span, 0)\n"),),
        "every window is loaded whole, also where it runs past the last element of the rows "
        "(reads outside the source array)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "row-windows-take-cval-blocks", "resamplex/_engine/compile/splines.py",
        (("    ok = ~cval & (top < WINDOW_BYTES) & (rel % size == 0).all(axis=(1, 2))\n",
          "    ok = (top < WINDOW_BYTES) & (rel % size == 0).all(axis=(1, 2))\n"),),
        "a block of outputs with a tap reading cval gets a window (at a cval tap's offset)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "zoom0-lane-copies-another-source", "resamplex/_engine/kernels/_spline.pyx",
        (("                    if row == prev:     # (clipped already, where the rule clips)\n",
          "                    if prev != NULL:\n"),),
        "an order-0 output row copies the row before it whatever source row it reads",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "phase2-left-neighbour-two-back", "resamplex/_engine/kernels/_taps_simd.h",
        (("                    _mm512_castps_si512(cur), _mm512_castps_si512(prev), 15));\n",
          "                    _mm512_castps_si512(cur), _mm512_castps_si512(prev), 14));\n"),),
        "the pipelined x2 phase loop takes each even output's left tap two blended values back",
        ("tests/test_resize.py",)),
    Mutant(
        "phase2-bf16-zip-swapped", "resamplex/_engine/kernels/_taps_simd.h",
        (("             _mm512_mask_blend_epi16(0xAAAAAAAAu, re, ro))\n",
          "             _mm512_mask_blend_epi16(0x55555555u, re, ro))\n"),),
        "the AVX-512 x2 phase kernel stores each bfloat16 odd output's low half in place of the "
        "even output",
        ("tests/test_resize.py",)),
    Mutant(
        "phase2-f16-zip-swapped", "resamplex/_engine/kernels/_taps_simd.h",
        (("        return P##_or_si##BITS(P##_cvtepu16_epi32(P##_cvtps_ph(e, RX_F16_RN)),              \\\n",
          "        return P##_or_si##BITS(P##_cvtepu16_epi32(P##_cvtps_ph(o, RX_F16_RN)),              \\\n"),),
        "the x2 phase kernels (AVX2, AVX-512) store each float16 odd output in place of the even "
        "one",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "phase2-borders-rows-swapped", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("                v = w0 * _ld(<const float_src_t*>x0 + i, &w0) \\\n"
          "                    + w1 * _ld(<const float_src_t*>x1 + i, &w0)\n",
          "                v = w1 * _ld(<const float_src_t*>x0 + i, &w0) \\\n"
          "                    + w0 * _ld(<const float_src_t*>x1 + i, &w0)\n"),),
        "the outputs outside the run of a x2 float phase row blended in registers weigh the two "
        "input rows the wrong way round",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "dense2-pair-weights-swapped", "resamplex/_engine/kernels/_dense_f32.h",
        (("            p = _mm512_mul_ps(_mm512_loadu_ps(w + 2 * o), x);\n",
          "            p = _mm512_mul_ps(_mm512_permute_ps(_mm512_loadu_ps(w + 2 * o), 0xB1), x);\n"),),
        "the AVX-512 two-tap dense rows weigh each output's pair of adjacent taps the wrong way "
        "round",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "dense2-gathers-taps-that-are-not-adjacent", "resamplex/_engine/kernels/_dense_f32.h",
        (("            if (_mm512_cmpneq_epi64_mask(_mm512_add_epi64(first, one), second)) {\n",
          "            if (0 && _mm512_cmpneq_epi64_mask(_mm512_add_epi64(first, one), second)) {\n"),),
        "the AVX-512 two-tap dense rows read every output's taps as a pair of adjacent elements, "
        "also at a clamped end or a padding tap (where the second tap is elsewhere)",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "dense4-second-pair-gathered-at-the-first-tap", "resamplex/_engine/kernels/_dense_f32.h",
        (("                    xb = _mm512_castpd_ps(_mm512_i64gather_pd(t2, (const void *)tmp, 4));\n",
          "                    xb = _mm512_castpd_ps(_mm512_i64gather_pd(t0, (const void *)tmp, 4));\n"),),
        "the AVX-512 four-tap dense rows (cubic) gathered where their taps spread wide read each "
        "output's third and fourth taps at its first and second",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "dense4-sums-out-of-order", "resamplex/_engine/kernels/_dense_f32.h",
        (("            s = _mm512_add_ps(pa, _mm512_permute_ps(pa, 0xB1));\n"
          "            s = _mm512_add_ps(s, pb);\n",
          "            s = _mm512_add_ps(pb, _mm512_permute_ps(pb, 0xB1));\n"
          "            s = _mm512_add_ps(s, pa);\n"),
         ("            s = _mm512_add_ps(s, _mm512_permute_ps(pb, 0xB1));\n",
          "            s = _mm512_add_ps(s, _mm512_permute_ps(pa, 0xB1));\n")),
        "the AVX-512 four-tap dense rows add the last two taps' products first, "
        "((p2 + p3) + p0) + p1: the same terms, other roundings than the scalar loop's",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "blend-f16-drops-the-last-row", "resamplex/_engine/kernels/_taps_simd.h",
        (("        for (t = t0 + 1; t < t1; t++)                                                       \\\n",
          "        for (t = t0 + 1; t < t1 - 1; t++)                                                   \\\n"),),
        "the blend of float16 input rows (an outer axis's taps; AVX2 and AVX-512) leaves out the "
        "last row",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "pool-child-keeps-the-parents-threads", "resamplex/_engine/_pool.h",
        (("        pthread_atfork(NULL, NULL, rx_pool_after_fork_child);\n", ""),),
        "a process forked after parallel calls believes it still has the parent's pool "
        "threads (fork copies only the forking thread), so its calls run on the caller alone",
        ("tests/test_concurrency.py",)),
    Mutant(
        "pool-chunks-drop-their-last-item", "resamplex/_engine/_pool.h",
        (("        body(ctx, i, end, tid, NULL, NULL);\n",
          "        body(ctx, i, end - 1, tid, NULL, NULL);\n"),),
        "each chunk of items the pool's threads claim leaves out its last item",
        ("tests/test_concurrency.py", "tests/test_dispatch.py")),
    Mutant(
        "pool-alone-runs-one-item-short", "resamplex/_engine/_pool.h",
        (("        if (n > 0)\n            body(ctx, 0, n, 0, NULL, NULL);\n        return;\n    }\n",
          "        if (n > 0)\n            body(ctx, 0, n - 1, 0, NULL, NULL);\n        return;\n    }\n"),),
        "a call on one thread (or with every pool in use) leaves out its last item: the "
        "single run that stands for every kernel's serial loop",
        ("tests/test_concurrency.py", "tests/test_dispatch.py")),
    Mutant(
        "pool-threads-share-the-callers-scratch", "resamplex/_engine/_pool.h",
        (("        if (RX_LOAD(&p->open) && tid <= p->want)\n            rx_pool_claim(p, tid);\n",
          "        if (RX_LOAD(&p->open) && tid <= p->want)\n            rx_pool_claim(p, 0);\n"),),
        "pool threads run their items as thread 0, in the calling thread's scratch",
        ("tests/test_concurrency.py", "tests/test_dispatch.py")),
    Mutant(
        "pool-caller-leaves-before-begun-chunks-end", "resamplex/_engine/_pool.h",
        (("    RX_STORE(&p->open, 0);\n    if (RX_LOAD(&p->busy) != 0) {\n",
          "    RX_STORE(&p->open, 0);\n    if (0) {\n"),),
        "the caller returns once every item is claimed, before the chunks other threads "
        "have begun are done",
        ("tests/test_concurrency.py", "tests/test_dispatch.py")),
    Mutant(
        "floatpass-gathers-four-taps-one-output-late", "resamplex/_engine/kernels/_floatpass.pyx",
        (("        rx_dense4_f32(x, out, n_b, idx, w1)\n",
          "        rx_dense4_f32(x, out, n_b - 1, idx + 4, w1 + 4)\n"),),
        "compat.cv2's float32 single-element cubic rows (four-tap vector gathers) store each "
        "output's next one",
        ("tests/test_dispatch.py", "tests/test_compat_cv2.py")),
    Mutant(
        "dense8-adds-taps-two-and-three-swapped", "resamplex/_engine/kernels/_floatpass_simd.h",
        (("            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r2, r6, 0x20));\n"
          "            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r3, r7, 0x20));\n",
          "            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r3, r7, 0x20));\n"
          "            s = _mm256_add_ps(s, _mm256_permute2f128_ps(r2, r6, 0x20));\n"),),
        "the AVX-512 eight-tap float32 rows (compat.cv2's Lanczos-4) add tap 3's products "
        "before tap 2's: the same terms, other roundings than OpenCV's",
        ("tests/test_dispatch.py",)),
    Mutant(
        "phasek-i16-weight-pairs-swapped", "resamplex/_engine/kernels/_taps_simd.h",
        (("            VT wp = _mm##W##_set1_epi32((int)((uint32_t)(uint16_t)q[t]                         \\\n"
          "                                              | (uint32_t)(uint16_t)(t + 1 < k ? q[t + 1] : 0) \\\n",
          "            VT wp = _mm##W##_set1_epi32((int)((uint32_t)(uint16_t)(t + 1 < k ? q[t + 1] : 0) \\\n"
          "                                              | (uint32_t)(uint16_t)q[t]                       \\\n"),),
        "the integer x0.5 cubic rows (AVX2, AVX-512) weigh each pair of taps with the other's "
        "weight",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "phasek-i16-rounds-ties-up", "resamplex/_engine/kernels/_taps_simd.h",
        (("                    _mm##W##_and_si##W(_mm##W##_sra_epi32((s), (cnt)),                         \\\n"
          "                                        _mm##W##_set1_epi32(1))), (cnt)))\n",
          "                    _mm##W##_set1_epi32(1)), (cnt)))\n"),),
        "the integer x0.5 cubic rows (AVX2, AVX-512) round half up, not half to even",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "split-i16-borders-scaled-by-the-whole-shift", "resamplex/_engine/compile/phases.py",
        (("                pqk=tuple(int(v) for v in q2[0]), iscale=2.0 ** -q1[1])",
          "                pqk=tuple(int(v) for v in q2[0]), iscale=2.0 ** -(q1[1] + q2[1]))"),),
        "the outputs outside the integer x0.5 cubic run read the int16 rows scaled by 2^-(m1+m2), "
        "not 2^-m1",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "split-i16-blend-keeps-the-last-row", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("            acc[j] = <int16_t>(wt * x[j])\n",
          "            acc[j] = <int16_t>(acc[j] + wt * x[j])\n"),),
        "the integer blend of the x0.5 cubic phase rows adds the first tap to what the last "
        "output row left",
        ("tests/test_resize.py", "tests/test_dispatch.py")),
    Mutant(
        "phase2-bf16-rounds-ties-up", "resamplex/_engine/kernels/_taps_simd.h",
        (("                                             P##_and_si##BITS(P##_srli_epi32(ue, 16), one)), \\\n",
          "                                             one), \\\n"),),
        "the x2 phase kernels round bfloat16 even outputs half up, not half to even",
        ("tests/test_resize.py",)),
    Mutant(
        "phasek-drops-the-last-tap", "resamplex/_engine/kernels/_taps_simd.h",
        (("            e[j] = ((w0 * x0[j] + w1 * x1[j]) + w2 * x2[j]) + w3 * x3[j];\n",
          "            e[j] = (w0 * x0[j] + w1 * x1[j]) + w2 * x2[j];\n"),),
        "the four-tap phase rows (cubic x2 off AVX-512, and the ends of every run) leave out "
        "their last tap",
        ("tests/test_resize.py",)),
    Mutant(
        "phasek8-rounds-half-up", "resamplex/_engine/kernels/_taps_simd.h",
        (("            r = _mm512_sub_epi32(_mm512_castps_si512(_mm512_add_ps(acc, magic)), bias);\n"
          "        } else {\n"
          "            r = _mm512_cvttps_epi32(acc);\n"
          "            if (rounding == 1) {\n"
          "                __m512 f = _mm512_sub_ps(acc, _mm512_cvtepi32_ps(r));\n",
          "            r = _mm512_cvttps_epi32(_mm512_add_ps(acc, half));\n"
          "        } else {\n"
          "            r = _mm512_cvttps_epi32(acc);\n"
          "            if (rounding == 1) {\n"
          "                __m512 f = _mm512_sub_ps(acc, _mm512_cvtepi32_ps(r));\n"),),
        "the AVX-512 k-tap phase rows round 8-bit ties up instead of to even",
        ("tests/test_resize.py",)),
    Mutant(
        "split-phase-row-off-by-one", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("            q = (a % ns + ns) % ns           # C division (cdivision): a may be negative\n",
          "            q = (a % ns + ns + 1) % ns\n"),),
        "the x0.5 and 3:2 k-tap phase passes read each tap from the next pixel phase's row",
        ("tests/test_resize.py",)),
    Mutant(
        "split-negative-taps-truncated", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("            q = (a % ns + ns) % ns           # C division (cdivision): a may be negative\n",
          "            q = a % ns\n"),),
        "the x0.5 and 3:2 k-tap phase passes take C's remainder of a negative pixel offset "
        "(a tap left of the output's first pixel read from before the phase rows)",
        ("tests/test_resize.py",)),
    Mutant(
        "unzip3-rows-rotated", "resamplex/_engine/kernels/_taps_simd.h",
        (("                _mm_storeu_si128((__m128i *)(rows[s] + g * (C) + 16 * q), r);                \\\n",
          "                _mm_storeu_si128((__m128i *)(rows[(s + 1) % 3] + g * (C) + 16 * q), r);      \\\n"),),
        "the 3:2 row split (48 pixels at a time) stores each pixel phase into the next one's row",
        ("tests/test_resize.py",)),
    Mutant(
        "row-cache-ignores-the-key", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        if keys[q] == r:\n", "        if keys[q] != NULL:\n"),),
        "the split-row cache hands back any row it holds, not the one asked for",
        ("tests/test_resize.py",)),
    Mutant(
        "row-cache-kept-across-chunks", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        _row_cache_clear(_row_cache(p, scratch))\n",
          "        pass\n"),),
        "the split-row cache is not cleared when a thread starts a chunk of rows (stale rows "
        "of another call, or uninitialised memory, are taken for input rows)",
        ("tests/test_resize.py",)),
    Mutant(
        "phasek-run-one-pixel-wider", "resamplex/_engine/compile/phases.py",
        (("    hi = int(bad[bad > mid].min()) if (bad > mid).any() else ok.size\n",
          "    hi = int(bad[bad > mid].min()) + 1 if (bad > mid).any() else ok.size\n"),),
        "the phase runs take in the first pixel after them whose outputs have other taps "
        "(the clamped right border)",
        ("tests/test_resize.py",)),
    Mutant(
        "zip3-last-lanes-read-b-for-a", "resamplex/_engine/kernels/_simd.h",
        (("                                    ma1),\n", "                                    mb1),\n"),),
        "the AVX-512 zip of 3-byte pixels fills the last two lanes of a block with the second "
        "source's mask for both sources",
        ("tests/test_resize.py",)),
    Mutant(
        "zip1-lanes-out-of-order", "resamplex/_engine/kernels/_simd.h",
        (("_mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11)", "_mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11)"),),
        "the AVX-512 zip of 1-byte pixels stores its interleaved 16-byte lanes in register "
        "order, not pixel order",
        ("tests/test_resize.py",)),
    Mutant(
        "zip24-second-half-one-pixel-back", "resamplex/_engine/kernels/_simd.h",
        (("_mm512_add_epi32(d0, _mm512_set1_epi32(8))", "_mm512_add_epi32(d0, _mm512_set1_epi32(7))"),),
        "the AVX-512 zip of 2- and 4-byte pixels starts the second half of a block one pixel "
        "early",
        ("tests/test_resize.py",)),
    Mutant(
        "phase2-i16-512-unsigned-for-signed", "resamplex/_engine/kernels/_taps_simd.h",
        (("                                rx_round_pack32(sum, shift, is_signed, away));\n",
          "                                rx_round_pack32(sum, shift, !is_signed, away));\n"),),
        "the 32-wide int16 phase rows saturate int8 data as unsigned and uint8 as signed",
        ("tests/test_resize.py",)),
    Mutant(
        "up2-taps-odd-phase-reads-even-taps", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        xs[t] = row + (p.lo + p.pdk[p.rk * r + t]) * p.channels\n",
          "        xs[t] = row + (p.lo + p.pdk[t]) * p.channels\n"),),
        "the k-tap x2 phase rows read the even outputs' pixel offsets for the odd outputs too",
        ("tests/test_resize.py",)),
    Mutant(
        "zoom-kept-axes-unchecked", "resamplex/compat/scipy.py",
        (("            if dst.dtype.kind == \"f\" and not np.isfinite(dst).all():\n",
          "            if False:\n"),),
        "scipy.zoom reads the axes that keep their length at one tap without checking that "
        "the dropped +-0 products hold no NaN",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "zoom-order0-gather-copies-cval-outputs", "resamplex/compat/scipy.py",
        (("        if any(t.outside.any() or (t.idx[:, 0] < 0).any() for t in tables):\n",
          "        if False:\n"),),
        "scipy.zoom's order-0 element copy also runs where outputs read cval (outside the "
        "input), copying an element there",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "zoom-order0-float-copy-keeps-signed-zeros", "resamplex/_engine/kernels/_gather.pyx",
        (("                _plus_zero(dst + do, n, ds, itemsize, plus_zero)\n",
          "                pass\n"),),
        "scipy.zoom's order-0 copy of floats leaves out SciPy's 0.0 + v: -0.0 stays -0.0 and "
        "a signalling NaN stays signalling",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "gather-plus-zero-skips-the-last-spaced-element", "resamplex/_engine/kernels/_gather.pyx",
        (("    for o in range(n):\n        if e == 4:\n",
          "    for o in range(n - (ds != itemsize)):\n        if e == 4:\n"),),
        "the gather's + 0.0 (scipy.zoom order 0 of floats) leaves out the last element of "
        "each row of a strided output",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "zoom-order0-gather-takes-64-bit-integers", "resamplex/compat/scipy.py",
        (("    return x.dtype.itemsize <= 4 if x.dtype.kind in \"biu\" else x.dtype.kind == \"f\"\n",
          "    return x.dtype.itemsize <= 8 if x.dtype.kind in \"biu\" else x.dtype.kind == \"f\"\n"),),
        "scipy.zoom's order-0 element copy also takes int64 and uint64, whose values beyond "
        "2^53 SciPy rounds through float64",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "zoom-int64-store-saturates-at-2^63", "resamplex/_engine/kernels/_spline.pyx",
        (("                                             if t > 9223372036854775807.0 else INT64_MIN\n",
          "                                             if t >= 9223372036854775807.0 else INT64_MIN\n"),),
        "scipy.zoom's int64 store gives the maximum for 2^63 itself, where SciPy's cast "
        "overflows to INT64_MIN",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-tiny-products-always-left-out", "resamplex/_engine/kernels/_spline.h",
        (("        slow |= (sub & _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_loadu_pd(a + l)), vb,\n",
          "        slow |= 0 & (sub & _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_loadu_pd(a + l)), vb,\n"),),
        "the prefilter's sums near underflow (AVX-512) leave out every subnormal product, also "
        "beside a term so small that it changes the sum",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-scaled-products-scaled-back-wrong", "resamplex/_engine/kernels/_spline.h",
        (("    const double back = 5.421010862427522e-20;               /* 2^-64 */\n",
          "    const double back = 1.0842021724855044e-19;              /* 2^-63 */\n"),),
        "the prefilter's products with a subnormal pole power are scaled back by 2^-63 "
        "instead of 2^-64",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-group-lines-counted-along-the-filtered-axis", "resamplex/_engine/kernels/_spline.pyx",
        (("            while True:     # l < nl: a line follows, so some axis has a next index\n"
          "                if d != p.axis:\n",
          "            while True:     # l < nl: a line follows, so some axis has a next index\n"
          "                if True:\n"),),
        "the prefilter's lines taken in turn count on from the first along every axis, the "
        "filtered one too",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "prefilter-mirror-pole-power-one-too-high", "resamplex/_engine/kernels/_spline.pyx",
        (("        zn[q] = pow(p.pw[q], <double>(n - 1 if p.shift == I_MIRROR else n))\n",
          "        zn[q] = pow(p.pw[q], <double>n)\n"),),
        "the prefilter's mirror initial value weighs the far end by z^n instead of z^(n-1)",
        ("tests/test_compat_scipy.py",)),
    Mutant(
        "period-claims-twice-rounded-coordinates", "resamplex/_tables.py",
        (("        one_rounding = scale is None or transform != \"half_pixel_symmetric\" \\\n",
          "        one_rounding = True or transform != \"half_pixel_symmetric\" \\\n"),),
        "a long axis whose coordinates round before an offset is added (half_pixel_symmetric "
        "with a scale) is taken to repeat within a binade: the rounding is at another "
        "magnitude",
        ("tests/test_tables.py",)),
    Mutant(
        "periodic-tile-not-a-whole-period", "resamplex/_engine/tiles.py",
        (("        length = p * -(-RUN_TILE // p)\n",
          "        length = RUN_TILE\n"),),
        "the tiles of a periodic axis's runs start where the rows are not the middle "
        "tile's moved",
        ("tests/test_executor.py",)),
    Mutant(
        "periodic-tiles-past-the-right-end", "resamplex/_engine/tiles.py",
        (("            j_max = (b - margin - lo - t.n_in) // step\n",
          "            j_max = (b - margin - lo) // step\n"),),
        "a run's tiles go on where their windows leave the input (or the binade) on the right",
        ("tests/test_executor.py",)),
    Mutant(
        "fresh-results-off-the-huge-page", "resamplex/_engine/memory.py",
        (("    start = -block.ctypes.data % HUGE_PAGE\n",
          "    start = 0\n"),),
        "large fresh results start where malloc's block does, 16 bytes past a page",
        ("tests/test_executor.py",)),
    Mutant(
        "periodic-keeps-unbounded", "resamplex/_engine/tiles.py",
        (("        if 4 * between > n_out or between + len(runs) * length > 4 * self.tile:\n",
          "        if 4 * between > n_out:\n"),),
        "a periodic axis keeps tables of any size (a run per binade, each with a long period)",
        ("tests/test_executor.py",)),
    Mutant(
        "periodic-runs-cross-binades", "resamplex/_engine/tiles.py",
        (("        regions = [(0, n_in)] if whole else \\\n",
          "        regions = [(0, n_in)] if True else \\\n"),),
        "the runs of an axis that repeats only within binades of its coordinates span "
        "the whole input",
        ("tests/test_executor.py",)),
    Mutant(
        "native-tile-linear-drops-the-second-tap", "resamplex/_engine/_tablegen.pyx",
        (("                if f != 0:\n                    if v + 1 >= n_w:",
          "                if f != 0 and False:\n                    if v + 1 >= n_w:"),),
        "a native tile's linear rows inside the input keep only their first tap",
        ("tests/test_executor.py",)),
    Mutant(
        "native-tile-window-not-moved-left", "resamplex/_engine/_tablegen.pyx",
        (("    lo = min(mn, sp.n_in - n_w)\n", "    lo = mn\n"),),
        "a native tile's window starts at its first index even where it then passes the "
        "input's end (those tiles do not fit, and every call falls back to Python's loop)",
        ("tests/test_executor.py",)),
    Mutant(
        "native-tile-csr-offsets-unscaled", "resamplex/_engine/_tablegen.pyx",
        (("            off[j] = v * scale\n", "            off[j] = v\n"),),
        "a native tile's CSR taps are element indices, not byte offsets",
        ("tests/test_executor.py",)),
    Mutant(
        "native-tile-channel-rows-misplaced", "resamplex/_engine/_tablegen.pyx",
        (("                q = (o * channels + e) * k\n",
          "                q = (o * channels) * k\n"),),
        "a native tile's merged channels-last rows all land on the pixel's first element",
        ("tests/test_executor.py",)),
    Mutant(
        "native-tail-tile-skipped", "resamplex/_engine/_exec.pyx",
        (("            if tail >= 0:\n                failed += _run_tile(&r, tail, 0)\n",
          "            if tail >= 0:\n                pass\n"),),
        "the last tile of a native long axis (overlapping the one before it) is not run",
        ("tests/test_executor.py",)),
    Mutant(
        "native-tile-taps-one-to-the-left", "resamplex/_engine/_tablegen.pyx",
        (("                        v = base + t - (S - 1) - lo\n",
          "                        v = base + t - S - lo\n"),),
        "a native tile's cubic rows inside the input read their taps one element to the left",
        ("tests/test_executor.py",)),
    Mutant(
        "nearest-inside-rows-ties-down", "resamplex/_engine/_tablegen.pyx",
        (("            b += frac >= 0.5\n", "            b += frac > 0.5\n"),),
        "nearest rows inside the input (nearest_at's integer case: whole tables and native "
        "tiles) round round_prefer_ceil's ties down"),
    Mutant(
        "coordinates-asymmetric-by-reciprocal", "resamplex/_engine/_tablegen.pyx",
        (("            u[i] = ((o + <double>i) * a) / b\n",
          "            u[i] = (o + <double>i) * (a / b)\n"),),
        "asymmetric coordinates without a scale multiply by a rounded n_in / n_out instead "
        "of one division of exact terms",
        ("tests/test_tables.py",)),
    Mutant(
        "outer-blend-four-taps-read-the-third-row-twice", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("                    buf[j] = ((w0 * _ld(p0 + j, w) + w1 * _ld(p1 + j, w))\n"
          "                              + w2 * _ld(p2 + j, w)) + w3 * _ld(p3 + j, w)\n",
          "                    buf[j] = ((w0 * _ld(p0 + j, w) + w1 * _ld(p1 + j, w))\n"
          "                              + w2 * _ld(p2 + j, w)) + w3 * _ld(p2 + j, w)\n"),),
        "the outer-axis blend of contiguous rows, four taps a sweep, reads its fourth tap from "
        "the third tap's row",
        ("tests/test_dispatch.py", "tests/test_resize.py")),
    Mutant(
        "x2-cubic-pair-second-row-weighted-as-the-first", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        rb[j] = ((b0 * v0 + b1 * v1) + b2 * v2) + b3 * v3\n",
          "        rb[j] = ((a0 * v0 + a1 * v1) + a2 * v2) + a3 * v3\n"),),
        "8-bit x2 cubic rows blended in pairs give the second row the first row's weights",
        ("tests/test_dispatch.py",)),
    Mutant(
        "split-phase-rows-four-taps-reassociated", "resamplex/_engine/kernels/_taps.pyx.tp",
        (("        acc[j] = ((w0 * <float>x0[j] + w1 * <float>x1[j]) + w2 * <float>x2[j]) \\\n"
          "            + w3 * <float>x3[j]\n",
          "        acc[j] = (w0 * <float>x0[j] + w1 * <float>x1[j]) + (w2 * <float>x2[j] \\\n"
          "            + w3 * <float>x3[j])\n"),),
        "the four-tap blend of x0.5 and 3:2 8-bit phase rows sums its taps in pairs, not in "
        "the general pass's order",
        ("tests/test_resize.py",)),
    Mutant(
        "float-band-row-flags-never-cleared", "resamplex/_engine/kernels/_floatpass.pyx",
        (("            memset(made + (start - clo), 0, chi + 1 - start)\n", ""),),
        "the fused float sweep's band takes a row slot made for an earlier chunk as the row it "
        "needs now (its flags are not cleared for the chunk's new rows)",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "float-band-makes-only-the-first-tap-rows", "resamplex/_engine/kernels/_floatpass.pyx",
        (("            for t in range(p.ptr[o], p.ptr[o1]):\n                r = p.off[t]\n"
          "                if made[r - clo]:\n",
          "            for t in range(p.ptr[o], p.ptr[o1]):\n                r = p.off[p.ptr[o]]\n"
          "                if made[r - clo]:\n"),),
        "the fused float sweep's band makes the chunk's first row only, not every row its "
        "outputs read",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-pixel-pairs-second-output-first-weights", "resamplex/_engine/kernels/_intpass_simd.h",
        (("                    _mm_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)v2\n"
          "                                         | ((uint32_t)(uint16_t)(int16_t)v3 << 16))),\n",
          "                    _mm_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)v0\n"
          "                                         | ((uint32_t)(uint16_t)(int16_t)v1 << 16))),\n"),),
        "uint8 linear's first pass, two outputs a 256-bit multiply-add, weighs the second "
        "output with the first one's weights",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-four-tap-rows-last-output-writes-past-the-row", "resamplex/_engine/kernels/_intpass_simd.h",
        (("    if ((o + 1) * c + (4 - c) <= n_out * c) {\n",
          "    if (c == 4 || o + 1 < n_out) {\n"),),
        "uint8 cubic/Lanczos-4 rows of one-element pixels store four sums at the row's last "
        "outputs, over the next ring row's first sums",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-pair-table-second-output-reads-the-first-outputs-pixels", "resamplex/_engine/kernels/_intpass_simd.h",
        (("            memcpy(&q1, base + off[o + 1], 8);\n            x = _mm256_cvtepu8_epi16(",
          "            memcpy(&q1, base + off[o], 8);\n            x = _mm256_cvtepu8_epi16("),),
        "uint8 linear rows of 2-4 element pixels over a laid-out table, two outputs a step, "
        "give the second output of each pair the first output's pixels",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-taps-run-pair-weights-crossed", "resamplex/_engine/kernels/_intpass_simd.h",
        (("                              _mm256_permute2x128_si256(wa, wb, 0x20)),\n",
          "                              _mm256_permute2x128_si256(wa, wb, 0x02)),\n"),),
        "uint8 cubic rows of 2-4 element pixels whose taps read consecutive pixels give each "
        "pair of outputs the other's first two weights",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-pairs-four-outputs-weights-crossed", "resamplex/_engine/kernels/_intpass_simd.h",
        (("    const __m256i spread02 = _mm256_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2);\n",
          "    const __m256i spread02 = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);\n"),),
        "uint8 linear rows of 2-4 element pixels, four outputs a step, give the third output "
        "the second one's weights",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-taps-run-one-element-outputs-out-of-order", "resamplex/_engine/kernels/_intpass_simd.h",
        (("                                _mm256_permute4x64_epi64(_mm256_hadd_epi32(ma, mb), 0xD8));\n",
          "                                _mm256_permute4x64_epi64(_mm256_hadd_epi32(ma, mb), 0xE4));\n"),),
        "uint8 cubic rows of one-element pixels (eight outputs a step) store outputs 2-5 in "
        "the wrong order",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-cubic-head-clamps-at-254", "resamplex/_engine/kernels/_intpass_simd.h",
        (("        const __m256 hi = _mm256_set1_ps(255.0f);\n",
          "        const __m256 hi = _mm256_set1_ps(254.0f);\n"),),
        "the vector head of OpenCV's uint8 cubic vertical pass (16 elements a step) saturates "
        "at 254",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "f32-dense2-window-one-element-late", "resamplex/_engine/kernels/_dense_f32.h",
        (("        *x = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tmp + t[1]),\n",
          "        *x = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tmp + t[1] + 1),\n"),),
        "float32 single-element linear rows (blocks laid out once per pass, AVX2) read each "
        "block's window one element late",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "f32-dense2-pairs-first-output-reads-the-second", "resamplex/_engine/kernels/_dense_f32.h",
        (("        const __m256d a = _mm256_setr_pd(\n            rx_load_f64_bits(tmp + t[1]),",
          "        const __m256d a = _mm256_setr_pd(\n            rx_load_f64_bits(tmp + t[2]),"),
         ("        *x = _mm256_castpd_ps(_mm256_setr_pd(\n            rx_load_f64_bits(tmp + t[1]),",
          "        *x = _mm256_castpd_ps(_mm256_setr_pd(\n            rx_load_f64_bits(tmp + t[2]),")),
        "float32 single-element linear rows whose pairs lie wide apart (loaded 64 bits each, "
        "AVX2 and AVX-512) give each block's first output the second's pixels",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "f32-dense4-second-tap-row-is-the-first", "resamplex/_engine/kernels/_dense_f32.h",
        (("            _mm256_shuffle_ps(a, c, 0x44), _mm256_shuffle_ps(a, c, 0xEE)),\n",
          "            _mm256_shuffle_ps(a, c, 0x44), _mm256_shuffle_ps(a, c, 0x44)),\n"),),
        "float32 single-element cubic rows (blocks of eight laid out once per pass, AVX2) add "
        "each output's first product where its second goes",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "f32-linear-tail-kept-padded", "resamplex/_engine/kernels/_floatpass.pyx",
        (("                    if acc_t is float and p.ktail > 0:\n",
          "                    if acc_t is float and p.ktail < 0:\n"),),
        "float32 linear rows that end in one-tap outputs keep the dense row's padded sums "
        "there (a -0.0 in the last pixel turns +0.0, an infinity beside it NaN)",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "cv2-cubic-edges-keep-minus-zero", "resamplex/_engine/kernels/_floatpass.pyx",
        (("    for j in range(max(n_b - trail, lead) * c, n_b * c):\n        row[j] = zero + row[j]\n",
          "    for j in range(max(n_b - trail, lead) * c, n_b * c):\n        row[j] = row[j]\n"),),
        "OpenCV's float cubic rows sum their last, clamped outputs from their first product "
        "instead of from +0.0 (HResizeCubic's border loop), so a -0.0 sum stays -0.0",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "product-single-elements-forget-earlier-pairs", "resamplex/_engine/kernels/_prodpass.pyx",
        (("                    else:\n                        total = buf[x]\n",
          "                    else:\n                        total = 0\n"),),
        "a product pass over single elements (ONNX Runtime's linear on NCHW) starts each "
        "(z, y) tap pair's sums from 0 instead of the earlier pairs' terms",
        ("tests/test_compat_onnx.py", "tests/test_executor.py")),
    Mutant(
        "f32-pixel-pairs-weights-crossed", "resamplex/_engine/kernels/_floatpass_simd.h",
        (("                    wv[8 * tt + 4 * q + j] = w[o * k + tt];\n",
          "                    wv[8 * tt + 4 * (1 - q) + j] = w[o * k + tt];\n"),),
        "float32 rows of 2-4 element pixels, two outputs a vector, weigh each output by the "
        "other's weights",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "f32-pair-windows-one-element-short", "resamplex/_engine/kernels/_dense_f32.h",
        (("                    cnt = t[4 + 2 * q] + 1;\n",
          "                    cnt = t[4 + 2 * q];\n"),),
        "float32 two-tap rows at AVX-512 load their 32-element windows without the last "
        "pair's second element (it reads as 0)",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "product-pairs-vectors-forget-earlier-pairs", "resamplex/_engine/kernels/_prodpass_simd.h",
        (("            s = first ? rx_d2_even(x) : _mm256_add_ps(_mm256_loadu_ps(buf + o), rx_d2_even(x));\n",
          "            s = rx_d2_even(x);\n"),
         ("            s = first ? rx_d2_even(x) : _mm_add_ps(_mm_loadu_ps(buf + o), rx_d2_even(x));\n",
          "            s = rx_d2_even(x);\n")),
        "a product pass's float32 rows, several outputs a vector, start each (z, y) tap "
        "pair's sums from 0 instead of the earlier pairs' terms",
        ("tests/test_compat_onnx.py",)),
    Mutant(
        "u8-windows-eight-outputs-weights-crossed", "resamplex/_engine/kernels/_fixed_simd.h",
        (("                        _mm_loadu_si128((const __m128i *)(const void *)(wk + a * k + c))),\n",
          "                        _mm_loadu_si128((const __m128i *)(const void *)(wk + (a + 1) * k + c))),\n"),),
        "uint8 rows of byte windows (torch's uint8 bilinear/bicubic at any ratio), eight "
        "outputs a step, weigh each even output's window by the next output's weights",
        ("tests/test_compat_torch.py",)),
    Mutant(
        "u8-two-byte-windows-weights-one-output-late", "resamplex/_engine/kernels/_fixed_simd.h",
        (("                _mm256_loadu_si256((const __m256i *)(const void *)(wk + 2 * j))), bias, shift, d + j);\n",
          "                _mm256_loadu_si256((const __m256i *)(const void *)(wk + 2 * j + 2))), bias, shift, d + j);\n"),),
        "uint8 rows of two-byte windows (torch's uint8 bilinear), eight outputs a step, weigh "
        "each output by the next one's weights",
        ("tests/test_compat_torch.py",)),
    Mutant(
        "u8-four-byte-windows-outputs-out-of-order", "resamplex/_engine/kernels/_fixed_simd.h",
        (("            rx_windows_store8(_mm256_permute4x64_epi64(_mm256_hadd_epi32(a, b), 0xD8), bias, shift,\n",
          "            rx_windows_store8(_mm256_permute4x64_epi64(_mm256_hadd_epi32(a, b), 0xE4), bias, shift,\n"),),
        "uint8 rows of four-byte windows (torch's uint8 bicubic), eight outputs a step, store "
        "outputs 2-5 in the wrong order",
        ("tests/test_compat_torch.py",)),
    Mutant(
        "u8-taps-run-loop-second-output-gets-the-first-sums", "resamplex/_engine/kernels/_intpass_simd.h",
        (("                    _mm_storeu_si128((__m128i *)(void *)(ac + c), _mm256_extracti128_si256(sum, 1));\n",
          "                    _mm_storeu_si128((__m128i *)(void *)(ac + c), _mm256_castsi256_si128(sum));\n"),),
        "uint8 cubic rows of 2-4 element pixels, in the loop over a run of outputs whose taps "
        "read consecutive pixels, store the first output's sums for the second too",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "f32-pixel-taps-drop-the-last-tap", "resamplex/_engine/kernels/_floatpass_simd.h",
        (("            for (t = 1; t < k; t++) {\n                memcpy(&a, x + ix[t] * c, sizeof a);\n",
          "            for (t = 1; t < k - 1; t++) {\n                memcpy(&a, x + ix[t] * c, sizeof a);\n"),),
        "float32 rows of 2-4 element pixels sum every tap but the last in their vector form",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "crop-view-read-with-the-contiguous-stride", "resamplex/_engine/compile/exact.py",
        (('    spec["sstr"] = [stride * x.shape[0], stride] + list(spec["sstr"][2:])\n',
          '    spec["sstr"] = list(spec["sstr"])\n'),),
        "a crop read in place steps through its rows by the contiguous copy's row stride",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "cv2-linear-left-edge-keeps-its-fraction", "resamplex/_engine/_planloops.pyx",
        (("            if s < 0:\n                s = 0\n                f = 0\n",
          "            if s < 0:\n                s = 0\n"),),
        "OpenCV's horizontal linear table clamps an output left of the first pixel to it but "
        "keeps its fraction (OpenCV sets fx = 0 there)",
        ("tests/test_planloops.py", "tests/test_compat_cv2.py")),
    Mutant(
        "int-bounds-sum-only-the-first-end", "resamplex/_engine/_planloops.pyx",
        (("            mn, mx = (ta, tb) if ta <= tb else (tb, ta)\n",
          "            mn, mx = ta, tb\n"),),
        "the int32 bounds of an integer pass take each tap's term at the range's low end as "
        "its least, wrong for negative weights (cubic), so int32 sums may overflow",
        ("tests/test_planloops.py",)),
    Mutant(
        "u8-pair-planned-at-once-ring-one-row-short", "resamplex/_engine/_planloops.pyx",
        (("    k = _span_rows(&pa[0], &ia[0], dh)\n",
          "    k = _span_rows(&pa[0], &ia[0], dh) - 1\n"),),
        "OpenCV's uint8 pair planned at once keeps one row fewer in its ring than an output "
        "reads (rows overwrite each other)",
        ("tests/test_compat_cv2.py",)),
    Mutant(
        "u8-pair-planned-at-once-keeps-x2-runs", "resamplex/_engine/_planloops.pyx",
        (("            return None     # a x2 run (_up2_run)\n", "            pass\n"),),
        "a new shape's linear pair planned at once keeps a x2 enlargement without the phase "
        "kernel the pass compiler takes there (the same bytes, the slow path)",
        ("tests/test_compat_cv2.py",)),
]

#: Edits of these files rebuild the extensions (``.pyx.tp``: a Tempita template that setup.py
#: renders to the ``.pyx`` it builds).
NATIVE_SUFFIXES = (".pyx", ".pxd", ".h", ".pyx.tp")


class StaleMutant(Exception):
    pass


def _apply(text: str, mutant: Mutant) -> str:
    for old, new in mutant.edits:
        count = text.count(old)
        if count != 1:
            where = "is not in" if count == 0 else f"occurs {count} times in"
            raise StaleMutant(
                f"STALE mutant {mutant.name!r}: the text to replace {where} {mutant.file}:\n"
                f"{_indent(old)}\nThe code it mutates has moved or changed: update this "
                "mutant's file/edits in ci/mutants.py so that it plants the same bug "
                f"({mutant.why}).")
        text = text.replace(old, new)
    return text


def _indent(text: str) -> str:
    return "\n".join("    | " + line for line in text.rstrip("\n").split("\n"))


def check_all(mutants: list[Mutant]) -> list[str]:
    """Every mutant applies to the working tree: the list of problems (empty if none)."""
    problems = []
    for m in mutants:
        path = ROOT / m.file
        if not path.exists():
            problems.append(f"STALE mutant {m.name!r}: {m.file} does not exist")
            continue
        try:
            _apply(path.read_text(), m)
        except StaleMutant as exc:
            problems.append(str(exc))
    return problems


def _copy_tree(dest: Path, with_build: bool) -> None:
    """The files git tracks or would track, the in-place extension modules, generated C and
    .pyx rendered from templates, and (for a native rebuild) build/ -- so that only the
    mutated extension recompiles."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, check=True,
                            capture_output=True).stdout.split(b"\0")
    files = [f.decode() for f in listed if f]
    # A .pyx rendered from a template is ignored by git, but copying it (mtime kept) spares
    # setup.py re-rendering it and so recompiling its extension for every native mutant.
    files += [str(p.relative_to(ROOT)) for p in (ROOT / "resamplex").rglob("*")
              if p.suffix in (".so", ".pyd", ".c") or p.name == "_build_config.py"
              or (p.suffix == ".pyx" and p.with_name(p.name + ".tp").exists())]
    for rel in sorted(set(files)):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    if with_build and (ROOT / "build").is_dir():
        shutil.copytree(ROOT / "build", dest / "build", symlinks=True)


def _summary_counts(output: str) -> dict[str, int]:
    """pytest's final line ("3 failed, 120 passed, 1 xfailed in 9.1s") as counts."""
    counts: dict[str, int] = {}
    for line in reversed(output.strip().splitlines()):
        found = re.findall(r"(\d+) (failed|passed|errors?|xfailed|xpassed|skipped)", line)
        if found:
            for n, what in found:
                counts[what.rstrip("s") if what.startswith("error") else what] = int(n)
            break
    return counts


def run_tests(tree: Path, tests: tuple[str, ...],
              jobs: int) -> tuple[dict[str, int], str, int]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    res = subprocess.run([sys.executable, "-m", "pytest", *tests, "-q", "--tb=no",
                          "-p", "no:cacheprovider", "-o", "addopts="],
                         cwd=tree, env=env, capture_output=True, text=True)
    return _summary_counts(res.stdout), res.stdout + res.stderr, res.returncode


def rebuild(tree: Path, jobs: int) -> None:
    res = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-j",
                          str(jobs)], cwd=tree, capture_output=True, text=True)
    if res.returncode:
        sys.exit(f"the rebuild of the mutated tree failed:\n{res.stdout[-3000:]}"
                 f"{res.stderr[-3000:]}")


def run_mutant(m: Mutant, tests: tuple[str, ...] | None, jobs: int,
               keep: bool) -> tuple[int, int, float]:
    """(tests failed or in error, tests run, seconds) for one mutant."""
    t0 = time.time()
    native = m.file.endswith(NATIVE_SUFFIXES)
    tmp = Path(tempfile.mkdtemp(prefix=f"resamplex-mutant-{m.name}-"))
    try:
        _copy_tree(tmp, with_build=native)
        path = tmp / m.file
        path.write_text(_apply(path.read_text(), m))
        if native:
            rebuild(tmp, jobs)
        counts, output, status = run_tests(tmp, tests or m.tests, jobs)
        if not counts and status < 0:
            # the test process died of a signal (a read outside an array, at a guard page
            # of tests/guarded.py): the tests saw the bug, and a crash is a failure
            print(f"  the tests crashed (signal {-status})", flush=True)
            return 1, 1, time.time() - t0
        if not counts:
            sys.exit(f"mutant {m.name}: no pytest summary; output:\n{output[-3000:]}")
        failed = counts.get("failed", 0) + counts.get("error", 0)
        total = sum(counts.values())
        return failed, total, time.time() - t0
    finally:
        if keep:
            print(f"  (kept {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-m", "--mutant", action="append", default=[],
                    help="run only this mutant (repeatable)")
    ap.add_argument("--tests", nargs="+", help="test files to run for every mutant")
    ap.add_argument("--list", action="store_true", help="list the mutants and check they apply")
    ap.add_argument("--baseline", action="store_true",
                    help="first run the tests on the unmutated copy (they must all pass)")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")),
                    help="compile jobs for native rebuilds (default 2)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    args = ap.parse_args(argv)

    names = {m.name for m in MUTANTS}
    unknown = [n for n in args.mutant if n not in names]
    if unknown:
        ap.error(f"unknown mutant(s) {unknown}; known: {sorted(names)}")
    mutants = [m for m in MUTANTS if not args.mutant or m.name in args.mutant]

    problems = check_all(mutants)
    if args.list:
        for m in mutants:
            stale = any(f"{m.name!r}" in p for p in problems)
            print(f"{m.name:34s} {m.file:32s} {'STALE' if stale else 'applies'}  {m.why}")
    if problems:
        print("\n\n".join(problems), file=sys.stderr)
        return 2
    if args.list:
        return 0

    tests = tuple(args.tests) if args.tests else None
    if args.baseline:
        tmp = Path(tempfile.mkdtemp(prefix="resamplex-mutant-baseline-"))
        try:
            _copy_tree(tmp, with_build=False)
            counts, output, _ = run_tests(tmp, tests or DEFAULT_TESTS, args.jobs)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        bad = counts.get("failed", 0) + counts.get("error", 0)
        print(f"baseline: {counts}")
        if bad or not counts:
            print(output[-3000:], file=sys.stderr)
            return 1

    rows = []
    for m in mutants:
        print(f"mutant {m.name} ...", flush=True)
        failed, total, secs = run_mutant(m, tests, args.jobs, args.keep)
        rows.append((m, failed, total, secs))
        print(f"  {failed} of {total} tests failed ({secs:.0f} s)", flush=True)

    print()
    print("| mutant | file | tests failed | caught |")
    print("|---|---|---|---|")
    for m, failed, total, _ in rows:
        print(f"| {m.name} | {m.file} | {failed} of {total} | {'yes' if failed else 'NO'} |")
    survivors = [m.name for m, failed, _, _ in rows if not failed]
    if survivors:
        print(f"\n{len(survivors)} mutant(s) survived: {', '.join(survivors)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
