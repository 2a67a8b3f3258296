"""The executor: compiled programs, the shared plan cache, the thread policy, long axes.

Values are checked against the float64 reference (tests/reference.py); the properties here
(bits that do not depend on threads, tiles or the cache; what the fast path refuses) are the
library's own invariants.
"""

import threading

import numpy as np
import pytest

import resamplex as rx
from resamplex import _resize
from resamplex._engine import _exec, memory, plan as plan_mod, tiles

import reference as ref
from guarded import guarded


@pytest.fixture
def fresh_cache():
    rx.clear_plan_cache()
    yield
    rx.set_plan_cache_limit(256 << 20)
    rx.clear_plan_cache()


# ------------------------------------------------------------------------------ plan cache

def test_cache_info_counts_plans_and_bytes(fresh_cache):
    x = np.arange(24.0).reshape(4, 6)
    rx.resize(x, (8, 12))
    info = rx.plan_cache_info()
    assert info["plans"] == 1 and info["misses"] == 1
    assert info["bytes"] > 0
    rx.resize(x, (8, 12))
    assert rx.plan_cache_info()["plans"] == 1
    assert rx.plan_cache_info()["hits"] >= 1
    rx.clear_plan_cache()
    assert rx.plan_cache_info()["plans"] == 0 and rx.plan_cache_info()["bytes"] == 0


def test_cache_stays_within_its_byte_bound(fresh_cache):
    rx.set_plan_cache_limit(1_000_000)
    rng = np.random.default_rng(0)
    for n in range(40, 400, 7):  # a stream of distinct shapes
        x = rng.random((n, 3))
        y = rx.resize(x, (2 * n + 1,), axes=(0,))
        assert rx.plan_cache_info()["bytes"] <= 1_000_000
        ref.assert_matches(y, ref.reference_resize(x, (2 * n + 1,), axes=(0,)), x.dtype,
                           "linear")
    assert 0 < rx.plan_cache_info()["plans"] < 40


def test_cache_of_size_zero_keeps_nothing_and_still_works(fresh_cache):
    rx.set_plan_cache_limit(0)
    x = np.arange(5.0)
    ref.assert_matches(rx.resize(x, (9,)), ref.reference_resize(x, (9,)), x.dtype, "linear")
    assert rx.plan_cache_info()["plans"] == 0


@pytest.mark.parametrize("bad", [-1, 1.5, True, "1"])
def test_cache_limit_refuses_bad_values(bad):
    with pytest.raises(rx.ResamplexError, match="max_bytes"):
        rx.set_plan_cache_limit(bad)


def test_every_facade_shares_the_cache(fresh_cache):
    from resamplex import ascend, dml
    from resamplex.compat import onnx, torch as ct

    x = np.random.default_rng(1).random((1, 3, 8, 8)).astype(np.float32)
    rx.resize(x, scale=(2.0, 2.0), axes=(2, 3))
    dml.resample(x, [1, 1, 2, 2], interpolation_mode="linear")
    onnx.resize(x, scales=[1, 1, 2, 2], mode="linear")
    ct.interpolate(x, scale_factor=2, mode="bilinear")
    ascend.upsample_nearest(x, [16, 16])
    assert rx.plan_cache_info()["plans"] == 5


# ------------------------------------------------------------------------------ fast path

def test_repeated_calls_are_validated_like_the_first():
    """A call whose raw arguments match an earlier valid call skips validation: arguments
    that differ only in type (True vs 1, 2 vs 2.0) must not match it."""
    x = np.arange(8.0)
    rx.resize(x, (4,), antialias=True)
    rx.resize(x, (4,), antialias=False)
    with pytest.raises(rx.ResamplexError, match="antialias"):
        rx.resize(x, (4,), antialias=1)
    rx.resize(x, [4])
    with pytest.raises(rx.ResamplexError, match="size"):
        rx.resize(x, [4.0])
    rx.resize(x, scale=[2.0])
    with pytest.raises(rx.ResamplexError, match="scale"):
        rx.resize(x, scale=[True])
    with pytest.raises(rx.ResamplexError, match="scale"):
        rx.resize(x, scale=[float("nan")])
    with pytest.raises(rx.ResamplexError, match="rounding"):
        rx.resize(x, (4,), rounding="half_up")
    with pytest.raises(rx.ResamplexError, match="threads"):
        rx.resize(x, (4,), threads=0)


def test_call_key_types():
    key = _exec.call_key
    assert key(1) != key(True) and key(2) != key(2.0) and key([2]) != key((2,))
    assert key((2, 3), None) != key((2,), 3)
    assert key(np.arange(3)) != key(np.arange(3.0))
    assert key(object()) is None and key([[1]]) is None and key(np.zeros((2, 2))) is None
    assert key(float("nan")) != key(float("nan"))
    # a sequence's elements cannot pass for the arguments after it, nor an array for a list
    assert key((1, 2), 3) != key((1,), 2, 3) and key((1, 2)) != key(1, 2)
    assert key(np.array([1.0, 2.0])) != key([1.0, 2.0]) and key(None) != key((None,))
    assert key((1, 2), 3) == key((1, 2), 3) and hash(key(np.dtype("uint8"), (4, 5)))


def test_fast_path_checks_layout_alignment_and_out():
    rng = np.random.default_rng(2)
    x = rng.random((6, 10)).astype(np.float32)
    want = ref.reference_resize(x, (9, 7))
    r = rx.Resampler(x.shape, (9, 7))
    for _ in range(2):  # the second call of each takes the compiled program
        ref.assert_matches(r(x), want, x.dtype, "linear")
        ref.assert_matches(r(np.asfortranarray(x)), want, x.dtype, "linear")
        ref.assert_matches(r(x[::-1][::-1]), want, x.dtype, "linear")
        out = np.zeros((9, 7), np.float32, order="F")
        assert r(x, out=out) is out
        ref.assert_matches(out, want, x.dtype, "linear")
    # an unaligned view with the strides of a compiled layout
    raw = np.zeros(x.nbytes + 1, np.uint8)
    unaligned = raw[1:].view(np.float32).reshape(x.shape)
    unaligned[...] = x
    assert not unaligned.flags.aligned
    ref.assert_matches(r(unaligned), want, x.dtype, "linear")
    # out of the right strides but read-only, or overlapping the input
    ro = np.zeros((9, 7), np.float32)
    ro.flags.writeable = False
    with pytest.raises(rx.ResamplexError, match="read-only"):
        r(x, out=ro)
    big = np.zeros((9, 10), np.float32)
    with pytest.raises(rx.ResamplexError, match="share memory"):
        rx.Resampler((9, 10), (9, 7))(big, out=big[:, :7])


def test_concurrent_calls_of_one_cached_plan_give_the_serial_bits():
    rng = np.random.default_rng(3)
    xs = [rng.random((3, 37, 41)).astype(np.float32) for _ in range(8)]
    want = [rx.resize(x, (50, 30), axes=(1, 2), mode="cubic", threads=1) for x in xs]
    got = [None] * 8
    errors = []

    def work(i):
        try:
            for _ in range(20):
                got[i] = rx.resize(xs[i], (50, 30), axes=(1, 2), mode="cubic", threads=2)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


# ------------------------------------------------------------------------------ threads

def test_thread_policy():
    threshold = _exec.get_parallel_threshold()
    assert _exec.threads_for(None, threshold - 1) == 1
    assert _exec.threads_for(8, threshold - 1) == 1
    assert _exec.threads_for(1, 1e12) == 1
    # each thread gets at least the threshold's work
    assert _exec.threads_for(8, 2.5 * threshold) == min(2, _exec.threads_for(8, 1e12))
    assert _exec.threads_for(8, 1.5 * threshold) == 1
    assert _exec.cores_free() >= 0.0
    assert 1 <= _exec.threads_for(10**9, 1e12) <= max(_exec.max_threads(), __import__("os").cpu_count())
    rx.set_num_threads(1)
    try:
        assert _exec.threads_for(None, 1e12) == 1
    finally:
        rx.set_num_threads(None)


def test_results_do_not_depend_on_the_parallel_threshold():
    rng = np.random.default_rng(4)
    x = rng.random((5, 33, 47, 3)).astype(np.float16)
    old = _exec.get_parallel_threshold()
    try:
        _exec.set_parallel_threshold(0)
        a = rx.resize(x, (61, 20), axes=(1, 2), threads=2)
        _exec.set_parallel_threshold(1e18)
        b = rx.resize(x, (61, 20), axes=(1, 2), threads=2)
    finally:
        _exec.set_parallel_threshold(old)
    np.testing.assert_array_equal(a.view(np.uint16), b.view(np.uint16))


# ------------------------------------------------------------------------------ fresh results

@pytest.mark.parametrize("dtype", ["float32", "int8", ">f8", "bfloat16"])
def test_large_fresh_results_start_on_a_huge_page(dtype):
    """Results of 4 MiB and more start on a 2 MiB boundary (each end's huge page then fits in
    the block, and is not faulted in 4 KiB at a time); smaller ones are plain arrays. Either
    way a C-contiguous, writeable array of the shape and dtype, holding the resize."""
    if dtype == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes")
        dt = np.dtype(ml_dtypes.bfloat16)
    else:
        dt = np.dtype(dtype)
    big = memory.new_array((3, 1024, 1400), dt)
    assert big.ctypes.data % memory.HUGE_PAGE == 0
    assert big.shape == (3, 1024, 1400) and big.dtype == dt
    assert big.flags.c_contiguous and big.flags.writeable
    small = memory.new_array((100, 1000), dt)
    assert small.shape == (100, 1000) and small.flags.owndata
    # just under glibc's adaptive mmap ceiling: a plain array, which malloc recycles from call
    # to call, where the block with a huge page more would be fresh memory every time
    rows = (memory.MMAP_CEILING - memory.HUGE_PAGE // 2) // (4096 * dt.itemsize)
    near = memory.new_array((rows, 4096), dt)
    assert near.shape == (rows, 4096) and near.flags.owndata and near.flags.c_contiguous
    assert memory.MMAP_CEILING - memory.HUGE_PAGE < near.nbytes <= memory.MMAP_CEILING
    x = np.arange(4 * 512 * 600, dtype=np.float32).reshape(4, 512, 600).astype(dt)
    y = rx.resize(x, (1024, 1200), axes=(1, 2), mode="nearest")
    assert y.ctypes.data % memory.HUGE_PAGE == 0
    np.testing.assert_array_equal(y, x.repeat(2, axis=1).repeat(2, axis=2))
    z = rx.resize(x.astype(np.float32), (1024, 1200), axes=(1, 2))
    assert z.ctypes.data % memory.HUGE_PAGE == 0 and z.flags.c_contiguous


# ------------------------------------------------------------------------------ long axes

@pytest.mark.parametrize("mode,antialias", [("nearest", False), ("linear", False),
                                            ("linear", True), ("cubic", True), ("area", False)])
@pytest.mark.parametrize("layout", ["1d", "rows", "channels_last"])
def test_tiled_axis_gives_the_whole_table_bits(monkeypatch, fresh_cache, mode, antialias,
                                                layout):
    """A long axis is built and run tile by tile; the bits are those of the whole table."""
    rng = np.random.default_rng(5)
    shape, axes, size = {"1d": ((3001,), (0,), (4999,)),
                         "rows": ((7, 1500), (0, 1), (5, 2900)),
                         "channels_last": ((1200, 3), (0,), (700,))}[layout]
    x = (rng.random(shape) * 255).astype(np.uint8 if mode == "nearest" else np.float32)
    kw = dict(axes=axes, mode=mode, antialias=antialias)
    whole = rx.resize(x, size, **kw)
    rx.clear_plan_cache()
    monkeypatch.setattr(_resize, "TILE_TABLE_BYTES", 4096)
    plan = _resize.core_plan(_resize._core_args(x.shape, size, None, axes, mode, "half_pixel",
                                                "round_prefer_ceil", antialias, -0.75, False))
    assert plan.tiled is not None
    tiled = rx.resize(x, size, **kw)
    np.testing.assert_array_equal(tiled, whole)
    if mode in ("nearest", "linear") and not antialias:
        ref.assert_matches(tiled, ref.reference_resize(x, size, axes=axes, mode=mode),
                           x.dtype, mode)


@pytest.mark.parametrize("mode,antialias,transform", [
    ("nearest", False, "asymmetric"), ("linear", False, "half_pixel"),
    ("linear", True, "half_pixel"), ("cubic", False, "align_corners"),
    ("cubic", True, "pytorch_half_pixel"), ("area", False, "half_pixel"),
    ("lanczos", False, "tf_half_pixel_for_nn")])
@pytest.mark.parametrize("layout", ["1d_up", "rows_up", "columns_up", "channels_last_down",
                                    "1d_x1.5", "1d_44100_to_48000"])
def test_periodic_tiles_are_kept_and_give_the_whole_table_bits(monkeypatch, fresh_cache, mode,
                                                              antialias, transform, layout):
    """A long axis whose rows repeat (sizes Q : P) keeps its tiles: runs of one table moved
    by whole periods, each run one call, and the tiles between them. Every tile of every run
    is the table the builder makes for its range, and every call (any layout, ``out=``, a
    conversion) gives the whole table's bits. Where the ratio is not dyadic, a run's tiles
    read one binade of the input (coordinates round alike only there)."""
    rng = np.random.default_rng(7)
    e = transform == "align_corners"  # (n_out - 1) / (n_in - 1) is the ratio
    shape, axes, size = {"1d_up": ((3000 + e,), (0,), (6000 + e,)),
                         "rows_up": ((7, 1536 + e), (0, 1), (5, 3072 + e)),
                         "columns_up": ((1536 + e, 5), (0, 1), (3072 + e, 7)),
                         "channels_last_down": ((9600 + e, 3), (0,), (2400 + e,)),
                         "1d_x1.5": ((4000 + e,), (0,), (6000 + e,)),
                         "1d_44100_to_48000": ((44100 + e,), (0,), (48000 + e,))}[layout]
    x = (rng.random(shape) * 255).astype(np.uint8 if mode == "nearest" else np.float32)
    kw = dict(axes=axes, mode=mode, antialias=antialias, coordinate_transform=transform)
    whole = rx.resize(x, size, **kw)
    converted = rx.resize(x, size, dtype=np.float64, affine=(0.5, -3.0), **kw)
    out = np.empty(whole.shape[::-1], whole.dtype).T  # another layout: maybe another order
    whole_f = rx.resize(x, size, out=out, **kw).copy()
    rx.clear_plan_cache()
    # small tiles (but of a period at least, 160 outputs at 44100 -> 48000, and keeping a
    # run per binade within the bound of four tiles)
    monkeypatch.setattr(_resize, "TILE_TABLE_BYTES",
                        {"1d_x1.5": 131072, "1d_44100_to_48000": 524288}.get(layout, 32768))
    monkeypatch.setattr(tiles, "RUN_TILE", 8)
    plan = _resize.core_plan(_resize._core_args(x.shape, size, None, axes, mode, transform,
                                                "round_prefer_ceil", antialias, -0.75, False))
    tiled = plan.tables[plan.tiled]
    assert tiled.period is not None
    before = plan.nbytes
    np.testing.assert_array_equal(rx.resize(x, size, **kw), whole)
    (runs,) = plan.tiling._tiles.values()  # one pass order
    assert plan.nbytes > before  # the kept tiles count
    # the runs cover the outputs in order, most of them in runs of many tiles
    a = plan.tiled
    lengths = [r[4].out_shape[a + (r[1] > 1)] for r in runs]
    assert [r[0] for r in runs] == [0] + [r[0] + r[1] * n for r, n in zip(runs, lengths)][:-1]
    assert runs[-1][0] + runs[-1][1] * lengths[-1] == tiled.n_out
    everywhere = tiled.period[2]
    assert everywhere == (layout in ("1d_up", "rows_up", "columns_up", "channels_last_down"))
    assert max(r[1] for r in runs) >= (10 if everywhere else 3)
    assert len(runs) <= (6 if everywhere else 3 * tiled.n_in.bit_length())
    # every tile of every run is what the builder makes for its range, over its window
    spec = tiled.spec
    margin = spec.taps_bound + 2
    for (o0, count, lo, step, tile), n in zip(runs, lengths):
        got = tile.tables[a + (count > 1)]
        if count > 1 and not everywhere:  # in one binade
            k = (lo - margin).bit_length() - 1
            assert 1 << k <= lo - margin and lo + (count - 1) * step + got.n_in + margin <= 2 << k
        for j in range(count):
            want, want_lo = spec.window(o0 + j * n, o0 + (j + 1) * n, spec.window_buffers(n))
            assert lo + j * step == want_lo and got.n_in == want.n_in and got.n_out == n
            assert got.ptr.tobytes() == want.ptr.tobytes()
            assert got.idx.tobytes() == want.idx.tobytes()
            assert got.w.tobytes() == want.w.tobytes()
    # again, into an out= laid out otherwise, and converting
    out[...] = 7
    rx.resize(x, size, out=out, **kw)
    np.testing.assert_array_equal(out, whole_f)
    np.testing.assert_array_equal(rx.resize(x, size, dtype=np.float64, affine=(0.5, -3.0),
                                            **kw), converted)
    np.testing.assert_array_equal(rx.resize(x, size, **kw), whole)


def test_periodic_tiles_keep_a_bounded_share(monkeypatch):
    """What a periodic axis keeps (its runs' tables and the tiles between them) is at most
    4 tiles of outputs (what the largest table built whole holds) and a quarter of the axis
    between runs; beyond that it tiles as an axis without a period does."""
    from resamplex._tables import AxisSpec
    monkeypatch.setattr(tiles, "RUN_TILE", 8)
    spec = AxisSpec(44100, 48000, None, mode="linear", transform="half_pixel")
    assert spec.period == (160, 147, False)
    runs = tiles.TiledAxis(spec, 4000).runs()
    kept = sum(t.n_out for *_, t in runs)
    assert runs is not None and 4 * 160 < kept <= 4 * 4000
    assert tiles.TiledAxis(spec, kept // 4 - 1).runs() is None
    assert tiles.TiledAxis(spec, 159).runs() is None  # a tile shorter than the period
    short = AxisSpec(4410, 4800, None, mode="linear", transform="half_pixel")
    assert tiles.TiledAxis(short, 4000).runs() is None  # mostly between runs


def _awkward_rows(rng, case, n_in, dtypes):
    """Case ``case``'s input of 1 or 2 rows of ``n_in``: a dtype of ``dtypes``, reversed and
    strided or not, read-only or not; and a rounding (one of three for integers)."""
    dt = np.dtype(dtypes[case % len(dtypes)])
    rounding = ["half_even", "half_away_from_zero", "toward_zero"][case % 3] \
        if dt.kind in "iu" else "half_even"
    base = ref.random_array(rng, (int(rng.integers(1, 3)), n_in * 2), dt)
    x = base[:, ::-2] if case % 2 else base[:, :n_in]  # reversed and strided, or not
    x.flags.writeable = bool(case % 3)
    return x, rounding


def _whole_then_tiled(monkeypatch, x, n_out, kw, tile):
    """``x`` resized along axis 1 to ``n_out`` (``kw``: resize's keywords), into a strided,
    transposed ``out=`` and fresh: with the whole table, then after ``tile()`` makes the axis
    tiled; both results compared bit for bit. Returns the tiled call's plan."""
    outs = []
    for tiled in (False, True):
        rx.clear_plan_cache()
        if tiled:
            tile()
        out = np.zeros((n_out * 2, x.shape[0]), x.dtype).T[:, ::2]
        rx.resize(x, (n_out,), out=out, **kw)
        outs.append((out.copy(), rx.resize(x, (n_out,), **kw)))
        plan = _resize.core_plan(_resize._core_args(
            x.shape, (n_out,), None, (1,), kw["mode"], kw["coordinate_transform"],
            kw.get("nearest_mode", "round_prefer_ceil"), kw.get("antialias", False), -0.75,
            kw.get("exclude_outside", False)))
        assert (plan.tiled is not None) == tiled
    monkeypatch.undo()
    for whole, tiled in zip(*outs):
        np.testing.assert_array_equal(whole, tiled, err_msg=str((kw, x.dtype)))
    return plan


def test_periodic_tiles_take_any_array(monkeypatch, fresh_cache):
    """Random long axes (periodic and not) tile by tile, from arrays of any layout (reversed,
    strided, read-only, big-endian) into any ``out=``, every dtype and rounding: the bits of
    the whole table's plan, run on the same arrays."""
    rng = np.random.default_rng(11)
    ratios = [(1, 2), (2, 1), (2, 3), (3, 1), (147, 160), (7, 11), (1, 1)]
    dtypes = [np.float32, np.float64, np.float16, np.uint8, np.int16, ">f4"]
    kept = 0
    for case in range(40):
        q, p = ratios[case % len(ratios)]
        m = int(rng.integers(2500, 4000)) // p + 1
        n_in, n_out = q * m + int(case % 5 == 0), p * m
        mode = ["linear", "nearest", "cubic", "area", "lanczos"][case % 5]
        transform = ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"][case % 4]
        x, rounding = _awkward_rows(rng, case, n_in, dtypes)
        kw = dict(axes=(1,), mode=mode, coordinate_transform=transform, rounding=rounding)

        def tile():
            monkeypatch.setattr(_resize, "TILE_TABLE_BYTES", 32768)
            monkeypatch.setattr(tiles, "RUN_TILE", 8)

        plan = _whole_then_tiled(monkeypatch, x, n_out, kw, tile)
        kept += isinstance(plan.tiling._tile_tables, list)
    assert kept >= 20  # most ran as kept runs of tiles


def _long_axis_plan(x, size, scale, axes, mode, transform, antialias):
    return _resize.core_plan(_resize._core_args(x.shape, size, scale, axes, mode, transform,
                                                "round_prefer_ceil", antialias, -0.75, False))


@pytest.mark.parametrize("mode,antialias,transform", [
    ("nearest", False, "asymmetric"), ("nearest", False, "half_pixel"),
    ("linear", False, "half_pixel"), ("linear", False, "align_corners"),
    ("linear", True, "half_pixel"), ("cubic", False, "pytorch_half_pixel"),
    ("cubic", True, "half_pixel"), ("area", False, "half_pixel"),
    ("lanczos", False, "asymmetric")])
@pytest.mark.parametrize("layout", ["1d_up", "1d_down", "1d_scale", "rows", "columns",
                                    "channels_last"])
def test_native_tiles_give_the_whole_table_bits(monkeypatch, fresh_cache, mode, antialias,
                                                 transform, layout):
    """A long axis without a period runs in one compiled loop: each tile's taps built in a
    thread's buffers, in the form its pass reads (dense rows, a row per channel where a
    short channels-last axis is merged into it, or CSR byte offsets), and run at once. The
    bits are the whole table's, on 1 and 3 threads, fresh and into a strided ``out=``.
    Nearest runs its gather in the generic form: one byte offset an output."""
    rng = np.random.default_rng(13)
    shape, axes, size, scale = {
        "1d_up": ((3001,), (0,), (4999,), None),
        "1d_down": ((4999,), (0,), (1801,), None),
        "1d_scale": ((3001,), (0,), None, (1.618,)),
        "rows": ((3, 2501), (1,), (4111,), None),
        "columns": ((2501, 20), (0,), (4111,), None),
        "channels_last": ((2501, 3), (0,), (4111,), None)}[layout]
    dt = [np.float32, np.float64, np.uint8, np.float16][len(layout) % 4]
    x = ref.random_array(rng, shape, np.dtype(dt))
    kw = dict(size=size, scale=scale, axes=axes, mode=mode, antialias=antialias,
              coordinate_transform=transform)
    whole = rx.resize(x, **kw)
    assert _long_axis_plan(x, size, scale, axes, mode, transform, antialias).tiled is None
    rx.clear_plan_cache()
    monkeypatch.setattr(_resize, "TILE_TABLE_BYTES", 4096)
    monkeypatch.setattr(tiles.TiledAxis, "runs", lambda self: None)  # as if no period
    monkeypatch.setattr(tiles, "NATIVE_TILE", 97)
    plan = _long_axis_plan(x, size, scale, axes, mode, transform, antialias)
    assert plan.tiled is not None
    for threads in (1, 3):
        np.testing.assert_array_equal(rx.resize(x, threads=threads, **kw), whole)
    # an input with unreadable pages around it: no tile's window passes its ends
    g = guarded(x.shape, x.dtype)
    g[...] = x
    np.testing.assert_array_equal(rx.resize(g, threads=2, **kw), whole)
    entries = [e for e in plan.tiling._native.values() if e is not None]
    assert len(entries) == 1
    # channels per row (a gather moves whole pixels); CSR for columns and gathers
    assert entries[0][6] == (3 if layout == "channels_last" and mode != "nearest" else 1)
    assert (entries[0][4] == 0) == (layout == "columns" or mode == "nearest")
    out = np.full(whole.shape[::-1], 7, whole.dtype).T
    rx.resize(x, out=out, threads=2, **kw)
    np.testing.assert_array_equal(out, whole)
    # every tile fit its window: nothing fell back to the tiles in Python
    y = np.empty_like(whole)
    assert plan.tiling._run_native(plan.run_order(x.strides, y.strides), x, y, 2, "half_even")
    np.testing.assert_array_equal(y, whole)
    # (with a scale the reference's exact coordinates decide nearest ties otherwise than
    # float64's: the whole table is the check there)
    if mode in ("nearest", "linear") and not antialias and dt != np.float16 and (
            scale is None or mode == "linear"):
        ref.assert_matches(whole, ref.reference_resize(
            x, size, scale, axes=axes, mode=mode, coordinate_transform=transform),
            x.dtype, mode)


def test_native_tiles_on_an_axis_without_a_period(fresh_cache, monkeypatch):
    """A long axis whose period is too long to keep (70001 outputs: one period) runs
    natively by itself, with the library's own tile sizes, and gives the whole table's
    bits; a tail tile overlapping the last full one included."""
    rng = np.random.default_rng(17)
    x = rng.random((2, 39997)).astype(np.float32)
    whole = rx.resize(x, (70001,), axes=(1,))
    rx.clear_plan_cache()
    monkeypatch.setattr(_resize, "TILE_TABLE_BYTES", 65536)
    plan = _long_axis_plan(x, (70001,), None, (1,), "linear", "half_pixel", False)
    assert plan.tiled is not None and plan.tables[1].period is None
    np.testing.assert_array_equal(rx.resize(x, (70001,), axes=(1,), threads=2), whole)
    (entry,) = plan.tiling._native.values()
    assert entry is not None and 70001 % entry[2] != 0


def test_native_tiles_take_any_array(monkeypatch, fresh_cache):
    """Random long axes without a period, from arrays of any layout (reversed, strided,
    read-only, big-endian: the last runs tile by tile in Python) into any ``out=``, every
    dtype and rounding: the bits of the whole table's plan on the same arrays."""
    rng = np.random.default_rng(19)
    dtypes = [np.float32, np.float64, np.float16, np.uint8, np.int16, ">f4"]
    native = 0
    for case in range(24):
        n_in = int(rng.integers(1500, 4000))
        n_out = int(rng.integers(1500, 4000))
        mode = ["linear", "cubic", "area", "lanczos", "nearest"][case % 5]
        transform = ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
                     "half_pixel_symmetric", "tf_half_pixel_for_nn"][case % 6]
        x, rounding = _awkward_rows(rng, case, n_in, dtypes)
        kw = dict(axes=(1,), mode=mode, coordinate_transform=transform, rounding=rounding,
                  nearest_mode=["round_prefer_ceil", "round_prefer_floor", "floor",
                                "ceil"][case % 4],
                  antialias=bool(case % 5 == 1 and mode not in ("area", "nearest")),
                  exclude_outside=bool(case % 3 == 1 and mode in ("cubic", "lanczos")),
                  threads=int(rng.integers(1, 4)))
        tile_length = int(rng.integers(50, 300))

        def tile():
            monkeypatch.setattr(_resize, "TILE_TABLE_BYTES", 16384)
            monkeypatch.setattr(tiles.TiledAxis, "runs", lambda self: None)
            monkeypatch.setattr(tiles, "NATIVE_TILE", tile_length)

        plan = _whole_then_tiled(monkeypatch, x, n_out, kw, tile)
        native += any(e is not None for e in plan.tiling._native.values())
    assert native >= 18  # all but the big-endian inputs and outputs of weighted modes


def test_native_tiles_that_do_not_fit_fall_back(monkeypatch, fresh_cache):
    """Where a tile does not fit its window, the call runs tile by tile in Python (the same
    bits), the layout is not tried natively again, and its program no longer counts in the
    plan's bytes."""
    x = np.random.default_rng(23).random(4999).astype(np.float32)
    whole = rx.resize(x, (3001,))
    rx.clear_plan_cache()
    monkeypatch.setattr(_resize, "TILE_TABLE_BYTES", 4096)
    monkeypatch.setattr(tiles.TiledAxis, "runs", lambda self: None)
    monkeypatch.setattr(tiles, "NATIVE_TILE", 97)
    real = tiles.TileRunner._native_tiles

    def short_windows(self, *args):  # the program's, with windows half as long
        entry = real(self, *args)
        return entry[:3] + (entry[3] // 2,) + entry[4:]

    monkeypatch.setattr(tiles.TileRunner, "_native_tiles", short_windows)
    plan = _long_axis_plan(x, (3001,), None, (0,), "linear", "half_pixel", False)
    before = plan.nbytes
    np.testing.assert_array_equal(rx.resize(x, (3001,), axes=(0,)), whole)
    assert list(plan.tiling._native.values()) == [None] and plan.nbytes == before
    np.testing.assert_array_equal(rx.resize(x, (3001,), axes=(0,), threads=2), whole)


def test_native_tiles_refuse_a_window_too_short():
    """A tile whose taps do not fit its window is not run (the caller then runs the call
    tile by tile in Python): the builder finds no window for it, and ``run_tiles`` counts
    it without reading or writing anything."""
    from resamplex._engine._tablegen import csr_to_dense
    from resamplex._tables import AxisSpec, AxisTable
    for mode in ("nearest", "linear", "area", "cubic"):  # each its own row loop
        spec = AxisSpec(5000, 3001, None, mode=mode, transform="half_pixel")
        b = spec._builder
        lo, ptr, idx, w = b.tile_csr(1000, 1100, 200)
        want, want_lo = spec.window(1000, 1100, spec.window_buffers(100))
        assert want.ptr.tolist() == ptr.tolist() and want.w.tobytes() == w.tobytes()
        assert (want.idx + want_lo - lo).tolist() == idx.tolist() and lo <= want_lo
        assert b.tile_csr(1000, 1100, want.n_in - 1) is None
        assert b.tile_csr(0, 100, 5000) is not None and b.tile_csr(0, 100, 5000)[0] == 0
    # a program for 100 outputs on a window of 200, run over tiles that need 170: fine; with
    # windows of 160: every tile refused, the output untouched
    x = np.arange(5000, dtype=np.float32)
    lo, ptr, idx, w = b.tile_csr(0, 100, 200)
    table = AxisTable(200, 100, ptr, idx, w)
    didx, dw = np.empty(400, np.int64), np.empty(400)
    csr_to_dense(200, ptr, idx, w, 4, didx, dw)
    table.__dict__["dense"] = (didx.reshape(100, 4), dw.reshape(100, 4))
    program = plan_mod.Plan((200,), [table], weighted=True).compile(x.dtype, (4,), (4,), 0)
    starts = np.arange(0, 1000, 100, dtype=np.int64)
    for n_w, failed in ((200, 0), (160, 10)):
        y = np.full(3001, 7.0, np.float32)
        got = program.run_tiles(x, y, 2, b.tile_filler(), starts, -1, 100, n_w, 4, 1, 1, 4, 4)
        assert got == failed
        if failed:
            assert (y == 7).all()
        else:
            np.testing.assert_array_equal(y[:1000], rx.resize(x, (3001,), mode="cubic")[:1000])
            assert (y[1000:] == 7).all()


@pytest.mark.slow
def test_nearest_on_an_axis_of_more_than_2_31_elements():
    """SPEC §8 / issue 11: 2^31 + 5 -> 2^31 + 9 uint8 elements in about 4 GiB of in + out."""
    n_in, n_out = 2**31 + 5, 2**31 + 9
    x = np.zeros(n_in, np.uint8)
    x[:256] = np.arange(256)
    x[-256:] = np.arange(256)
    y = rx.resize(x, [n_out], mode="nearest")
    assert y.shape == (n_out,)
    for o in (0, 1, 100, 255, n_out // 2, n_out - 256, n_out - 1):
        i = ref.nearest_index(ref.source_coordinate(o, n_in, n_out), n_in)
        assert y[o] == x[i], o


def test_exact_passes_are_prepared_once_per_dtype():
    """A plan of exact passes makes its kernels' arguments on the first call with a dtype and
    counts their bytes; later calls (any layout, byte order, ``out``) give the same bits."""
    from resamplex._engine.compile.exact import FloatPass, IntPass
    from resamplex._engine.plan import Plan
    from resamplex._tables import AxisTable

    rng = np.random.default_rng(3)
    tables = [AxisTable.from_taps(6, np.array([[0, 1], [2, 3], [4, 5]]),
                                  np.array([[0.5, 0.5], [0.25, 0.75], [1.0, 0.0]])),
              AxisTable.from_taps(5, np.array([[0, 1], [1, 2], [3, 4], [4, 4]]),
                                  np.array([[0.5, 0.5], [0.5, 0.5], [0.75, 0.25], [1, 0]]))]
    plan = Plan((6, 5), tables, weighted=True, order=[1, 0], keep_order=True,
                passes=[FloatPass("float32"), FloatPass("float32")])
    x = rng.standard_normal((6, 5)).astype(np.float32)
    before = plan.nbytes
    first = plan(x)
    assert list(plan.prepared) == [np.dtype(np.float32)] and plan.nbytes > before
    grown = plan.nbytes
    for y in (x, np.asfortranarray(x), x.astype(">f4")):
        assert np.array_equal(plan(y), first)
        out = np.full((4, 3), 9, y.dtype).T
        assert plan(y, out=out) is out and np.array_equal(out, first)
    assert plan.nbytes == grown
    with pytest.raises(rx.ResamplexError, match="threads"):
        plan(x, threads=0)
    with pytest.raises(rx.ResamplexError, match="shape"):
        plan(x[:5])
    bad = Plan((6, 5), tables, weighted=True, order=[1, 0], keep_order=True,
               passes=[IntPass("int32"), IntPass("int32")])
    for _ in range(2):  # refused every time, and nothing is kept
        with pytest.raises(ValueError, match="integer weights"):
            bad(x.astype(np.int32))
    assert not bad.prepared


def _float_pass_reference(x, table_taps, axis, order, compute, store):
    """One float tap pass of docs/engine-passes.md, element-wise in NumPy (each product and
    sum rounded to ``compute``, as the C kernels without fused multiply-adds); integer stores
    round half to even and saturate."""
    ct = np.dtype(compute).type
    xm = np.moveaxis(x, axis, 0)
    rows = []
    with np.errstate(invalid="ignore", over="ignore"):   # inf - inf, as the kernels
        for taps in table_taps:
            rows.append(_float_output(xm, taps, order, compute, ct, store))
    return np.moveaxis(np.stack(rows), 0, axis)


def _float_output(xm, taps, order, compute, ct, store):
    """One output of a float pass: its taps summed in ``order``, then stored."""
    terms = [ct(w) * xm[i].astype(compute) for i, w in taps]
    if not terms:
        acc = np.zeros(xm.shape[1:], compute)
    elif order == "nested":
        acc = terms[-1]
        for term in terms[-2::-1]:
            acc = term + acc
    else:
        acc = terms[0] if order == "sequential" else np.zeros(xm.shape[1:], compute) + terms[0]
        for term in terms[1:]:
            acc = acc + term
    acc = acc.astype(compute)
    if np.dtype(store).kind in "iu":  # rounded half to even, saturated, NaN -> 0
        info = np.iinfo(store)
        acc = np.clip(np.nan_to_num(np.rint(acc), nan=0.0), info.min, info.max)
    return acc.astype(store)


def _random_taps(rng, n_in, n_out, most, dtype):
    """Random CSR taps: up to ``most`` per output (some none), indices anywhere in
    ``[0, n_in)`` and not sorted, weights exact in ``dtype``."""
    taps = []
    for _ in range(n_out):
        k = int(rng.integers(0, most + 1))
        idx = rng.integers(0, n_in, k)
        w = rng.standard_normal(k).astype(dtype).astype(np.float64)
        taps.append(list(zip(idx.tolist(), w.tolist())))
    return taps


@pytest.mark.parametrize("src, compute", [("float32", "float32"), ("uint16", "float32"),
                                          ("float64", "float64"), ("int16", "float64")])
@pytest.mark.parametrize("channels", [1, 3, 17])
@pytest.mark.parametrize("band", [1 << 19, 64])
def test_two_float_passes_in_one_sweep(monkeypatch, fresh_cache, src, compute, channels, band):
    """Two float passes over an axis and the axis just outside it run as one OP_FLOAT_FUSED
    pass through a band of rows (a band of one row too, which recomputes and moves rows):
    the values of the two passes, element by element, at 1 and 2 threads; a split second
    pass takes each half's order (and weights: a head that scales them runs unfused, as a
    head pass and a tail pass offset into the same rows)."""
    from resamplex._engine.compile import exact as _exact
    from resamplex._engine.compile.exact import FloatPass, SplitPass
    from resamplex._engine.plan import Plan
    from resamplex._tables import AxisTable

    monkeypatch.setattr(_exact, "_BAND_BYTES", band)
    rng = np.random.default_rng(channels)
    H, W, oh, ow = 23, 19, 31, 14
    shape = (2, H, W, channels)
    x = (rng.standard_normal(shape) * 300).astype(src)
    if src.startswith("float"):
        x.flat[rng.integers(0, x.size, 5)] = [-0.0, np.inf, -np.inf, 1e30, -1e-30]

    def table(n_in, taps):
        ptr = np.cumsum([0] + [len(t) for t in taps])
        idx = np.array([i for t in taps for i, _ in t], np.int64)
        w = np.array([v for t in taps for _, v in t], np.float64)
        return AxisTable(n_in, len(taps), ptr, idx, w)

    dense = [[(int(i), float(np.float32(v))) for i, v in zip(rng.integers(0, W, 4),
                                                             rng.standard_normal(4))]
             for _ in range(ow)]
    for inner_taps, order1 in ((dense, "sequential"), (dense, "nested"),
                               (_random_taps(rng, W, ow, 5, compute), "sequential_from_zero"),
                               (_random_taps(rng, W, ow, 5, compute), "sequential")):
        outer_taps = _random_taps(rng, H, oh, 6, compute)
        tables = [None, table(H, outer_taps), table(W, inner_taps), None]
        mid = _float_pass_reference(x, inner_taps, 2, order1, compute, compute)
        # a split second pass whose halves weigh alike fuses; one whose head scales its
        # weights (OpenCV's uint8 cubic head) runs as two passes between the same arrays
        for second, orders, scale in (
                (FloatPass(src, compute, "sequential"), None, 1.0),
                (SplitPass(4, FloatPass(src, compute, "nested"),
                           FloatPass(src, compute, "sequential")),
                 ("nested", "sequential"), 1.0),
                (SplitPass(4, FloatPass(src, compute, "nested", weight_scale=0.5),
                           FloatPass(src, compute, "sequential")),
                 ("nested", "sequential"), 0.5)):
            plan = Plan(shape, tables, weighted=True, order=[2, 1], keep_order=True,
                        passes=[FloatPass(compute, compute, order1), second])
            if orders is None:
                want = _float_pass_reference(mid, outer_taps, 1, "sequential", compute, src)
            else:
                scaled = [[(i, w * scale) for i, w in taps] for taps in outer_taps]
                head = _float_pass_reference(mid, scaled, 1, "nested", compute, src)
                want = _float_pass_reference(mid, outer_taps, 1, "sequential", compute, src)
                flat_h, flat_w = head.reshape(2, oh, -1), want.reshape(2, oh, -1)
                cut = flat_w.shape[-1] // 4 * 4
                flat_w[..., :cut] = flat_h[..., :cut]
            for threads in (1, 2):
                got = plan(x, threads=threads)
                assert got.dtype == want.dtype and got.shape == want.shape
                assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), \
                    (order1, orders, threads)
            # one native pass; the core's own arithmetic (one float type, sequential
            # orders) runs as the core's weighted program instead
            core = src == compute and order1 == "sequential" and orders is None
            program = plan.prepared[x.dtype].program
            assert program is not None and (core or program.npass == (1 if scale == 1 else 3))


@pytest.mark.parametrize("src", ["uint8", "int8", "uint16", "int16", "int32"])
def test_loading_float_pass_at_every_cpu_level(fresh_cache, src):
    """A float pass that reads its integer source as ``max(float64(x) * scale, floor)``
    (``FloatPass.load``: scikit-image's img_as_float in its Gaussian's first pass, each row
    made once into a ring) gives SciPy's correlate1d of the array converted first, bit for
    bit: symmetric and antisymmetric pairs, each mode's folded taps (a row read twice by one
    output, rows read from the far end), rows of 16 to 67 elements around the vector widths,
    two outer rows, float64 outputs summed in place and float32 ones stored, 1-3 threads,
    every CPU level. Refused (before anything runs) where it cannot run."""
    import dataclasses

    ndimage = pytest.importorskip("scipy.ndimage")   # the reference (an optional test extra)
    from resamplex._engine.compile import exact as _exact
    from resamplex._engine.compile.exact import FloatPass
    from resamplex._engine.plan import Plan
    from resamplex._tables import AxisTable
    from resamplex.compat import _gaussian

    rng = np.random.default_rng(len(src) + 17)
    info = np.iinfo(src)
    lo, hi = max(int(info.min), -(1 << 20)), min(int(info.max), 1 << 20)
    loads = [(1.0 / float(info.max), -1.0 if info.min < 0 else -np.inf), (1.0, -np.inf)]
    cases = [((2, 29, 16, 1), "reflect", 0.9, 0), ((2, 40, 7, 3), "mirror", 2.3, 1),
             ((2, 9, 67, 1), "nearest", 1.6, 0), ((2, 35, 11, 2), "wrap", 0.6, 1),
             ((2, 5, 9, 2), "reflect", 3.0, 0), ((2, 33, 8, 2), "wrap", 0.6, 0)]
    before = _exec.cpu_level()
    try:
        for level in _exec.cpu_levels():
            _exec.set_cpu_level(level)
            for i, (shape, mode, sigma, deriv) in enumerate(cases):
                x = rng.integers(lo, hi, shape, dtype=src, endpoint=True)
                x[0, 0, :3] = info.min
                x[1, -1, -3:] = info.max
                w = _gaussian._kernel(sigma, deriv, 4.0, None)
                table = _gaussian.correlate_table(w, shape[1], _gaussian._mode(mode))
                for j, (scale, floor) in enumerate(loads):
                    conv = np.maximum(np.multiply(x, scale, dtype=np.float64), floor)
                    want = ndimage.correlate1d(conv, w, axis=1, mode=mode)
                    for store in ("float64", "float32"):
                        plan = Plan(shape, [None, table, None, None], weighted=True,
                                    order=[1], keep_order=True,
                                    passes=[FloatPass(store, "float64", "pairs",
                                                      load=(scale, floor))])
                        got = np.empty(shape, store)
                        if i == len(cases) - 1:   # 31 and 32 in the slots of 1 and 2
                            assert _exact.ring_slots(table, 16) is None
                            with pytest.raises(ValueError, match="loading float pass"):
                                _exact.run(plan, x, got, 1)
                            continue
                        _exact.run(plan, x, got, 1 + (i + j) % 3)
                        assert np.array_equal(got.view(np.uint8),
                                              want.astype(store).view(np.uint8)), \
                            (level, shape, mode, scale, store)
                        assert plan.prepared[x.dtype].program.npass == 1
    finally:
        _exec.set_cpu_level(before)

    x = rng.integers(0, 100, (4, 6, 20), dtype=src)
    load = FloatPass("float64", "float64", "pairs", load=(0.5, -np.inf))
    pair = AxisTable(6, 3, np.array([0, 2, 4, 6]), np.array([0, 1, 2, 2, 4, 5]),
                     np.full(6, 0.5))
    collide = AxisTable(6, 3, np.array([0, 2, 4, 6]), np.array([0, 2, 2, 3, 3, 5]),
                        np.full(6, 0.5))
    refused = [
        (x, [None, pair, None], [1], [load]),                               # ok: below
        (x.astype(np.float64), [None, pair, None], [1], [load]),            # a float source
        (x, [None, pair, None], [1], [dataclasses.replace(load, order="sequential")]),
        (x, [None, pair, None], [1], [dataclasses.replace(load, compute="float32")]),
        (x, [None, collide, None], [1], [load]),                            # taps in one slot
        (x, [None, pair, None], [1], [dataclasses.replace(load, load=(0.0, -np.inf))]),
        (x, [None, pair, None], [1], [dataclasses.replace(load, load=(np.inf, -np.inf))]),
        (x[..., :8], [None, pair, None], [1], [load]),                      # rows of 8
        (x, [AxisTable(4, 2, np.array([0, 1, 2]), np.array([0, 3]), np.ones(2)), pair, None],
         [0, 1], [FloatPass("float64", "float64"), load]),                  # not the first
    ]
    for k, (data, tables, order, passes) in enumerate(refused):
        plan = Plan(data.shape, tables, weighted=True, order=order, keep_order=True,
                    passes=passes)
        out = np.empty(plan.out_shape)
        if k == 0:
            _exact.run(plan, data, out, 1)
            continue
        with pytest.raises(ValueError, match="loading float pass"):
            _exact.run(plan, data, out, 1)


def test_remembered_calls_follow_the_cache(fresh_cache):
    # A facade's remembered call holds its plan; once the cache has dropped the plan, the
    # call finds (and the cache holds) a plan again, with the same result. (uint16: the
    # door's uint8 linear calls keep a program planned at once instead, plan.PROGRAMS.)
    from resamplex.compat import cv2 as rcv

    x = np.random.default_rng(5).integers(0, 65536, (12, 10, 3), dtype=np.uint16)
    first = rcv.resize(x, (7, 5))
    assert np.array_equal(rcv.resize(x, (7, 5)), first)
    hits = rx.plan_cache_info()["hits"]
    assert np.array_equal(rcv.resize(x, (7, 5)), first)
    assert rx.plan_cache_info()["hits"] > hits
    rx.clear_plan_cache()
    for _ in range(3):
        assert np.array_equal(rcv.resize(x, (7, 5)), first)
    assert rx.plan_cache_info()["plans"] == 1


def test_fused_integer_program_refuses_a_ring_the_kernel_cannot_keep():
    # The fused integer kernel keeps 1 to 16 ring rows (a tag each, row % k): a spec outside
    # that is refused when the program is made, never run.
    from resamplex._engine.compile import exact as _exact
    from resamplex._engine import _planloops
    from resamplex.compat import cv2 as rcv

    spec, work = _planloops.cv2_u8_pair(40, 50, 3, 150, 17, 23, 17 / 40, 23 / 50, False,
                                        _exec.OPS["int_fused"], _exact.ELEM["uint8"],
                                        *rcv._pair_constants(rcv.INTER_LINEAR))
    x = np.random.default_rng(3).integers(0, 256, (40, 50, 3), dtype=np.uint8)
    out = np.empty((17, 23, 3), np.uint8)
    _exec.Program([spec], [], work).run(x, out, 1)
    assert np.array_equal(out, rcv.resize(x, (23, 17)))
    for k in (0, -1, 17):
        with pytest.raises(ValueError, match="ring of 1 to 16 rows"):
            _exec.Program([dict(spec, k=k)], [], work)
