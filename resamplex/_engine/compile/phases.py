"""The polyphase forms of a fused pass (x2, x0.5 and 3:2 runs of equal taps along a
contiguous row) and their integer forms where the float32 arithmetic is exact: the fields
that turn a fused pass's general loop into a phase kernel, with the same sums."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ... import _dtypes
from .codes import PHASE_DOWN2, PHASE_DOWN32, PHASE_UP2

if TYPE_CHECKING:  # pragma: no cover
    from ..plan import Plan


def _clamped_borders(idx: np.ndarray, bq: np.ndarray, n: int, lo: int, hi: int,
                     pd: Sequence[int], pq: Sequence[int]) -> bool:
    """Whether every output outside the run ``[2 lo, 2 hi)`` of a x2 phase pass of
    single-element pixels weighs the input elements (integer weights ``bq`` on the dense
    taps ``idx``; ``n`` is the padding) as the run's formula does with its taps clamped to
    ``[0, n)``: output ``2i + r`` = ``pq[2r] x[clamp(i + pd[2r])] + pq[2r + 1]
    x[clamp(i + pd[2r + 1])]``. Then the kernel computes them so, without the table."""
    for j in [*range(2 * lo), *range(2 * hi, idx.shape[0])]:
        i, r = divmod(j, 2)
        want: dict[int, int] = {}
        for t in (2 * r, 2 * r + 1):
            e = min(max(i + pd[t], 0), n - 1)
            want[e] = want.get(e, 0) + int(pq[t])
        got: dict[int, int] = {}
        for e, q in zip(idx[j].tolist(), bq[j].tolist()):
            if e < n:
                got[e] = got.get(e, 0) + q
        if {e: q for e, q in want.items() if q} != {e: q for e, q in got.items() if q}:
            return False
    return True


def _run_around(ok: np.ndarray, mid: int) -> tuple[int, int] | None:
    """The run ``[lo, hi)`` of true entries of ``ok`` around ``mid``, or None where
    ``ok[mid]`` is false or the run is shorter than 4."""
    bad = np.flatnonzero(~ok)
    if not ok[mid]:
        return None
    lo = int(bad[bad < mid].max()) + 1 if (bad < mid).any() else 0
    hi = int(bad[bad > mid].min()) if (bad > mid).any() else ok.size
    return (lo, hi) if hi - lo >= 4 else None


def _row_cache_len(buf_len: int, n_mid: int) -> int:
    """A thread's scratch for a x0.5 or 3:2 phase pass of k taps on 8-bit data: the rest,
    then its cache of split input rows (``_row_cache`` in ``_taps.pyx.tp``: at a 16-float
    boundary, a 64-float header, then ``RC_SLOTS`` = 8 rows of ``n_mid + 64`` bytes)."""
    return (buf_len + 15) // 16 * 16 + 64 + (8 * (n_mid + 64) + 3) // 4


def _dyadic(w: np.ndarray, ptr: np.ndarray,
            limit: int) -> tuple[np.ndarray, int, int] | None:
    """``(q, m, top)``: ``q = float32(w) * 2^m`` as integers (int32), for the smallest
    ``m <= 9`` that makes every one an integer, and ``top``, the largest sum of ``|q|`` over a
    row ``[ptr[o], ptr[o+1])``, if it is at most ``limit``; else None."""
    wf = np.asarray(w, np.float32).astype(np.float64).reshape(-1)
    for m in range(10):
        q = wf * float(1 << m)
        if not np.array_equal(q, np.floor(q)):
            continue
        sums = np.concatenate(([0.0], np.cumsum(np.abs(q))))
        top = int(np.max(sums[ptr[1:]] - sums[ptr[:-1]])) if ptr.size > 1 else 0
        return (q.astype(np.int32), m, top) if top <= limit else None
    return None


def phase_fields(plan: Plan, dtype: np.dtype, n_mid: int, outer: int, inner: int,
                 xs: Sequence[int], os_: Sequence[int], rcode: int) -> dict[str, Any]:
    """The fields that make a fused pass of 8-bit data polyphase (``_phase_row`` in
    ``_taps.pyx.tp``; x2 of float32, float16 and bfloat16 data too, ``_phase_float_row``),
    or ``{}``.

    Its innermost table, read in pixels of ``plan.channels`` elements (channels-last
    merged into the axis), must be x2 (output pixels ``2i`` and ``2i + 1`` read input
    pixels at fixed offsets from ``i`` with fixed weights, for ``i`` in a run
    ``[lo, hi)``; the outputs outside it keep the general loop) or x0.5 (every output
    pixel ``X`` reads pixels ``2X`` and ``2X + 1`` with fixed weights), with two taps,
    both arrays contiguous along the axis. The sums are those of the general loop, in
    the same order, so the bits are the same. Where that float32 arithmetic is exact
    (``_exact_fields``) the kernel computes it in int16 instead. 3:2 of single-element
    8-bit pixels (``PHASE_DOWN32``: outputs ``2k`` and ``2k + 1`` read two neighbouring
    pixels from ``3k + pd[0]`` and ``3k + pd[2]``, e.g. 1080p to 720p) only in int16.
    Tables of 3-8 taps (cubic, Lanczos) take x2 the same way, and x0.5 and 3:2 of 8-bit
    data over a run ``[lo, hi)`` of output pixels ``X`` reading pixels ``2X + pdk[t]``
    (3:2: output pixels ``2g + r`` reading ``3g + pdk[rk r + t]``; the outputs outside
    keep their dense taps): ``rk`` taps per phase at pixel offsets ``pdk`` with weights
    ``pwk`` (``_phase_up2_k``, ``_phase_split_k``), in float32.
    """
    t = plan.tables[inner]
    idx, w = t.dense
    c = plan.channels
    eight = dtype in (np.uint8, np.int8)
    k = idx.shape[1]
    if not (eight or _dtypes.dtype_name(dtype) in ("float32", "float16", "bfloat16")) \
            or not 2 <= k <= 8 or xs[inner] != dtype.itemsize \
            or os_[inner] != dtype.itemsize or n_mid != t.n_in or t.n_in % c or t.n_out % c:
        return {}
    w_in, w_out = t.n_in // c, t.n_out // c
    wf = w.astype(np.float32)
    pix, pw = idx[::c] // c, wf[::c]
    # every channel of an output pixel reads the same pixels with the same weights
    same = ((idx == np.repeat(pix, c, axis=0) * c + np.tile(np.arange(c), w_out)[:, None])
            & (wf == np.repeat(pw, c, axis=0))).reshape(w_out, k * c).all(axis=1)
    fields: dict[str, Any] = dict(channels=c, buf_len=5 * n_mid + t.n_out + 16)
    if w_out == 2 * w_in and w_in >= 8:
        # output pixels 2 i + r read pixels i + d[r, t]
        found = _phase_run(pix, pw, same, 1, 2)
        if found is None:
            return {}
        lo, hi, d, phases = found
        pd = tuple(int(v) for v in d.reshape(-1))
        run = dict(fields, phase=PHASE_UP2, lo=lo, hi=hi)
        if k > 2:       # cubic, Lanczos: float32 sums of k taps per phase
            # x2 cubic blends two output rows that read the same input rows in one
            # sweep: the second row after the phase rows (_taps _up2_second_row)
            second = 3 * n_mid + 1 + t.n_out + (2 * (n_mid + 16) + 3) // 4
            run["buf_len"] = max(run["buf_len"], second + n_mid + 1)
            return dict(run, rk=k, pdk=pd, pwk=tuple(float(v) for v in phases))
        if eight:
            # two taps: the float row the outputs outside the run read (their float
            # sums) is needed only up to blo and from bhi on when the run's rows are
            # blended in registers (float rows form those outputs from the input rows)
            used = idx < t.n_in                    # padding taps read the zero after
            left = idx[:2 * lo * c][used[:2 * lo * c]]
            right = idx[2 * hi * c:][used[2 * hi * c:]]
            run.update(blo=int(left.max()) + 1 if left.size else 0,
                       bhi=int(right.min()) if right.size else n_mid)
        exact = _exact_fields(plan, dtype, outer, phases, rcode, w) if eight else {}
        if "bq" in exact and c == 1 and _clamped_borders(idx, exact["bq"], n_mid, lo, hi,
                                                         pd, exact["pq"]):
            exact["bclamp"] = 1
        return dict(run, pd=pd, pw=tuple(float(v) for v in phases), **exact)
    if eight and k > 2 and w_in == 2 * w_out and w_out >= 8:
        # x0.5 of k taps (cubic, Lanczos): output pixel X reads pixels 2 X + d[t]
        split = _split_fields(fields, pix, pw, same, 2, 1, n_mid)
        if split:
            split.update(_split_exact(plan, dtype, outer, np.asarray(split["pwk"]), rcode))
        return split
    if eight and k == 2 and w_in == 2 * w_out and w_out >= 4:
        x = np.arange(w_out)
        if not (same.all() and np.array_equal(pix, np.stack([2 * x, 2 * x + 1], axis=1))
                and (pw == pw[0]).all()):
            return {}
        return dict(fields, phase=PHASE_DOWN2,
                    pw=(float(pw[0, 0]), float(pw[0, 1]), 0.0, 0.0),
                    **_exact_fields(plan, dtype, outer, pw[0], rcode))
    if eight and k > 2 and 2 * w_in == 3 * w_out and w_out >= 16:
        # 3:2 of k taps (cubic, Lanczos; 1080p to 720p): output pixel 2 g + r reads
        # pixels 3 g + d[r, t]
        return _split_fields(fields, pix, pw, same, 3, 2, n_mid)
    if eight and k == 2 and c == 1 and 2 * w_in == 3 * w_out and w_out >= 32:
        # 3:2: outputs 2k and 2k + 1 read pixels 3k + d and 3k + d + 1 (d fixed per
        # parity, different) with fixed weights, the whole row; integers only
        x = np.arange(w_out)
        d = pix[:2, 0]
        if d[0] == d[1] or not (0 <= d).all() or not (d <= 2).all() \
                or not np.array_equal(pix[:, 0], 3 * (x // 2) + d[x % 2]) \
                or not np.array_equal(pix[:, 1], pix[:, 0] + 1) \
                or not (pw == pw[:2][x % 2]).all():
            return {}
        phases = pw[:2].reshape(-1)
        exact = _exact_fields(plan, dtype, outer, phases, rcode)
        if not exact:
            return {}
        return dict(fields, phase=PHASE_DOWN32,
                    pd=(int(d[0]), int(d[0]) + 1, int(d[1]), int(d[1]) + 1),
                    pw=tuple(float(v) for v in phases), **exact)
    return {}


def _split_fields(fields: dict[str, Any], pix: np.ndarray, pw: np.ndarray,
                  same: np.ndarray, ns: int, npo: int, n_mid: int) -> dict[str, Any]:
    """The fields of an 8-bit phase pass of k taps that splits input rows into ``ns``
    pixel phases (``_phase_split_k``): x0.5 (``ns`` 2, ``npo`` 1 output pixel per group)
    or 3:2 (3 and 2), or ``{}``: the run of ``_phase_run``; the outputs outside it
    keep their dense taps."""
    found = _phase_run(pix, pw, same, ns, npo)
    if found is None:
        return {}
    lo, hi, d, phases = found
    return dict(fields, phase=PHASE_DOWN2 if ns == 2 else PHASE_DOWN32, lo=lo, hi=hi,
                rk=pix.shape[1], pdk=tuple(int(v) for v in d.reshape(-1)),
                pwk=tuple(float(v) for v in phases),
                buf_len=_row_cache_len(fields["buf_len"], n_mid))


def _phase_run(pix: np.ndarray, pw: np.ndarray, same: np.ndarray, ns: int,
               npo: int) -> tuple[int, int, np.ndarray, np.ndarray] | None:
    """The polyphase pattern of groups of ``npo`` output pixels over ``ns`` input pixels
    (x2: 1 and 2; x0.5: 2 and 1; 3:2: 3 and 2): output pixel ``npo g + r`` reads pixels
    ``ns g + d[r, t]`` with the weights of the middle group's pixel ``r``, for the groups
    ``g`` of a run ``[lo, hi)`` around the middle (``_run_around``). ``(lo, hi, d,
    weights)``, ``d`` and ``weights`` ``npo`` rows of taps (weights flattened), or None.
    ``pix``, ``pw``: each output pixel's taps and float32 weights; ``same``: whether all
    its channels read alike."""
    x = np.arange(pix.shape[0])
    mid = pix.shape[0] // (2 * npo)
    ref = slice(npo * mid, npo * mid + npo)
    d = pix[ref] - ns * mid
    ok = same & (pix == ns * (x[:, None] // npo) + d[x % npo]).all(axis=1) \
        & (pw == pw[ref][x % npo]).all(axis=1)
    span = _run_around(ok.reshape(-1, npo).all(axis=1), mid)
    return None if span is None else (span[0], span[1], d, pw[ref].reshape(-1))


def _exact_outer(plan: Plan, dtype: np.dtype, outer: int, rcode: int, limit: int | None
                 ) -> tuple[int, tuple[np.ndarray, int, int]] | None:
    """What the integer phase forms (``_exact_fields``, ``_split_exact``) first need:
    ``(top, q1)``, the largest magnitude of the 8-bit type and the outer table's weights
    as integers times 2^-m1 (``_dyadic``, with ``sum |q1|`` at most ``limit``; None: every
    blended value inside int16, ``32767 // top``), or None where the rounding is neither
    ``half_even`` nor ``half_away_from_zero`` (the integer shift rounds only those) or
    the weights are not such integers."""
    if rcode not in (_dtypes.rounding_code("half_even"),
                     _dtypes.rounding_code("half_away_from_zero")):
        return None
    top = 255 if dtype == np.uint8 else 128
    t1 = plan.tables[outer]
    q1 = _dyadic(t1.w, t1.ptr, 32767 // top if limit is None else limit)
    return None if q1 is None else (top, q1)


def _exact_fields(plan: Plan, dtype: np.dtype, outer: int, phases: np.ndarray,
                  rcode: int, dense: np.ndarray | None = None) -> dict[str, Any]:
    """The integer form of a phase pass, or ``{}``: with ``half_even`` or
    ``half_away_from_zero`` rounding (the integer shift rounds either way), where the
    outer table's float32 weights are integers ``q1`` times 2^-m1 and the phase weights
    (two per phase) integers ``q2`` times 2^-m2, with every sum of 8-bit values that the
    pass forms bounded by 32767 in magnitude even with the rounding bias added. Then every
    float32 product and sum of the float pass is exact, its value is the integer sum
    times 2^-(m1+m2), and rounding that integer by the shift gives the same bits.
    ``dense``: the innermost table's dense weights; where they too are integers times
    2^-m2 (``bq``), the outputs outside the phase run are computed from the integer row
    as well (their int32 sums inside 2^24, where float32 is exact)."""
    outer_q = _exact_outer(plan, dtype, outer, rcode, 128)
    q2 = None if outer_q is None else _dyadic(phases, np.arange(0, phases.size + 1, 2), 128)
    if outer_q is None or q2 is None:
        return {}
    top, q1 = outer_q
    if top * q1[2] * q2[2] + (1 << (q1[1] + q2[1])) > 32767:
        return {}
    fields = dict(ishift=q1[1] + q2[1], wq=q1[0].astype(np.int16),
                  pq=tuple(int(v) for v in q2[0]) + (0,) * (4 - q2[0].size))
    if dense is not None:
        bq = np.asarray(dense, np.float32).astype(np.float64) * float(1 << q2[1])
        if np.array_equal(bq, np.floor(bq)) and np.abs(bq).max(initial=0) < 1 << 15 \
                and top * q1[2] * np.abs(bq).sum(axis=1).max(initial=0) < 1 << 24:
            fields["bq"] = bq.astype(np.int16)
    return fields


def _split_exact(plan: Plan, dtype: np.dtype, outer: int, phases: np.ndarray,
                 rcode: int) -> dict[str, Any]:
    """The integer form of an 8-bit x0.5 phase pass of k taps (``_phase_split_k``), or
    ``{}``: with ``half_even`` or ``half_away_from_zero`` rounding, where the outer
    table's float32 weights are integers ``q1`` times 2^-m1 with every blended 8-bit
    value inside int16 (``top * sum |q1| <= 32767``), and the k phase weights integers
    ``q2`` times 2^-m2 with ``top * sum |q1| * sum |q2| < 2^24``. Then every float32
    product and sum of the float pass is exact (its values are integers times
    2^-(m1+m2) below 2^24 of them): the int16 rows hold the blended rows times 2^m1, the
    int32 sums the outputs times 2^(m1+m2), and rounding those by the shift gives the
    float store's bits. (Cubic at x0.5: weights in 32nds or 16ths, exact; Lanczos: not
    dyadic, float32.)"""
    outer_q = _exact_outer(plan, dtype, outer, rcode, None)
    if outer_q is None or outer_q[1][2] == 0:
        return {}
    top, q1 = outer_q
    q2 = _dyadic(phases, np.array([0, phases.size]), ((1 << 24) - 1) // (top * q1[2]))
    if q2 is None or np.abs(q2[0]).max(initial=0) >= 1 << 15:
        return {}
    return dict(ishift=q1[1] + q2[1], wq=q1[0].astype(np.int16),
                pqk=tuple(int(v) for v in q2[0]), iscale=2.0 ** -q1[1])
