# cython: language_level=3
"""The executor: a compiled program runs every pass of a plan in one native call.

A ``Program`` is a plan compiled for one memory layout (``compile/`` does the compiling, once,
when a layout is first seen): an array of ``PassDesc`` (the kernel contract, ``_pass.pxd``)
with their tables, the sizes of the scratch arrays between passes and of the per-thread
scratch rows. ``Program.run`` allocates that scratch, runs the passes in order with the GIL
released and frees it: nothing of a call goes through Python but the call itself.

The thread policy lives here too (``threads_for``): one rule for every facade and pass,
decided once per call from the work of the whole program.

So does the CPU dispatch: the kernel modules are built once per instruction-set level (setup.py
``LEVELS``: ``_taps``, ``_taps_avx2``, ...), each exporting its entry points as a
``KernelTable`` capsule. At import the executor takes the best level that was built and that the
CPU reports (``__builtin_cpu_supports``, which also checks that the OS saves the wide
registers), capped by ``RESAMPLEX_CPU_LEVEL``; ``set_cpu_level`` switches at run time (tests
compare every level with the baseline bit for bit). Every level computes the same arithmetic in
the same order, so the choice changes speed only.
"""

cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_GetPointer
from cpython.time cimport monotonic
from time import process_time
from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

import enum
import importlib
import os
import warnings

import numpy as np

from resamplex._engine._openmp cimport RESAMPLEX_OPENMP, resamplex_max_threads
from resamplex._engine._pool cimport run as pool_run
from resamplex._engine._tilefill cimport TileFiller
from resamplex._engine._fused cimport (
    K_BF16, K_F16, K_F32, K_F64, K_I16, K_I8, K_U16, K_U8, R_HALF_AWAY, R_HALF_EVEN,
    R_TOWARD_ZERO,
)
from resamplex._engine._pass cimport (
    BLOCK, BlockArgs, C_DOUBLE, C_FLOAT, KernelTable, MAX_CHANNELS, MAX_ROW, OP_FIXED, OP_FUSED,
    OP_BLOCK, OP_FLOAT, OP_FLOAT_FUSED, OP_GATHER, OP_INT, OP_INT_FUSED, OP_PRODUCT,
    OP_SPLINE, OP_STORE, OP_TENSOR, OP_WEIGHTED,
    PAIRS_MAX, PassDesc, PHASE_DOWN2, PHASE_DOWN32, PHASE_NONE, PHASE_RUN, PHASE_UP2,
    ProductArgs, SHAPE_LAST,
    SHAPE_LAST_CSR, SHAPE_MID, SHAPE_OUTER, TENSOR_ROWS2, WIDE_TAPS,
)

cnp.import_array()

# ------------------------------------------------------------------------------ the contract
# The codes of the kernel contract (_pass.pxd, _fused.pxd), for the planner and the dtype
# registry: defined once, in C, and read from here.

#: Element kinds of weighted passes, by dtype name.
KINDS = {"float64": K_F64, "float32": K_F32, "float16": K_F16, "bfloat16": K_BF16,
         "int8": K_I8, "uint8": K_U8, "int16": K_I16, "uint16": K_U16}
#: Integer rounding codes, by name.
ROUNDINGS = {"half_even": R_HALF_EVEN, "half_away_from_zero": R_HALF_AWAY,
             "toward_zero": R_TOWARD_ZERO}
#: Pass operations.
OPS = {"gather": OP_GATHER, "weighted": OP_WEIGHTED, "fused": OP_FUSED, "fixed": OP_FIXED,
       "store": OP_STORE, "int": OP_INT, "int_fused": OP_INT_FUSED, "float": OP_FLOAT,
       "spline": OP_SPLINE, "tensor": OP_TENSOR, "float_fused": OP_FLOAT_FUSED,
       "block": OP_BLOCK, "product": OP_PRODUCT}
#: Accumulator types.
COMPUTES = {"float64": C_DOUBLE, "float32": C_FLOAT}
#: Loop shapes of weighted and fixed-point passes (and the tensor pass's two-row form).
LOOPS = {"last": SHAPE_LAST, "mid": SHAPE_MID, "outer": SHAPE_OUTER, "last_csr": SHAPE_LAST_CSR,
         "tensor_rows2": TENSOR_ROWS2}
PHASES = {"none": PHASE_NONE, "up2": PHASE_UP2, "down2": PHASE_DOWN2,
          "down32": PHASE_DOWN32, "run": PHASE_RUN}
#: Elements per block of the long-row loop shapes; longest row a pass loads into scratch;
#: longest channels-last axis merged into the resampled one; most taps of one output the
#: float pass sums by whole rows in SciPy's pairs order; most taps of one output a weighted
#: pass with float accumulators sums in float (more: in double, by the CSR, MID and OUTER
#: loops only).
LIMITS = {"block": BLOCK, "max_row": MAX_ROW, "max_channels": MAX_CHANNELS,
          "pairs_max": PAIRS_MAX, "wide_taps": WIDE_TAPS}

cdef enum:
    ALIGN = 64    # bytes: scratch arrays start on cache lines
    HUGE_ALIGN = 2 << 20    # bytes: large scratch starts on a huge page

# ------------------------------------------------------------------------------ thread policy

# Below this much work (multiply-adds, or element copies for a gather) a call runs on one
# thread, without waking the pool (_pool.h): waking a second thread and joining it costs more
# than it saves. Calibrated by measurement (see set_parallel_threshold and the executor notes).
cdef double _parallel_threshold = 1 << 16
cdef int _default_threads = 0          # 0: follow omp_get_max_threads()
cdef int _cpu_count = max(1, os.cpu_count() or 1)


def openmp_enabled():
    """True if the kernels were compiled with OpenMP."""
    return bool(RESAMPLEX_OPENMP)


def max_threads():
    """``omp_get_max_threads()`` now (1 without OpenMP); follows OMP_NUM_THREADS, threadpoolctl."""
    return resamplex_max_threads()


def get_default_threads():
    """The thread count of ``threads=None``: ``set_default_threads``, else OpenMP's."""
    if _default_threads > 0:
        return _default_threads
    return max(1, resamplex_max_threads())


def set_default_threads(n):
    """Set the thread count of ``threads=None`` (0 restores OpenMP's default)."""
    global _default_threads
    _default_threads = min(n, 1 << 20) if n > 0 else 0


def get_parallel_threshold():
    """Work (multiply-adds or copies) below which a call runs on one thread."""
    return _parallel_threshold


def set_parallel_threshold(double work):
    """Change the serial threshold of ``threads_for`` (for calibration and tests)."""
    global _parallel_threshold
    _parallel_threshold = work


cpdef int threads_for(object requested, double work):
    """The thread count of a call: ``requested`` (an int >= 1, already validated) or the
    default, capped at the machine's hardware threads (a huge count would start as many) and
    at one thread per ``get_parallel_threshold()`` of ``work`` (1 below it: too small to pay
    for a parallel loop). Results never depend on it."""
    cdef int n
    if work < _parallel_threshold:
        return 1
    if requested is None:
        n = _default_threads if _default_threads > 0 else resamplex_max_threads()
    else:
        n = min(requested, 1 << 20)   # a huge count would overflow a C int
    cdef int cap = max(resamplex_max_threads(), _cpu_count)
    if n > cap:
        n = cap
    # every thread gets at least the threshold's work
    if _parallel_threshold > 0 and n > work / _parallel_threshold:
        n = <int>(work / _parallel_threshold)
    return n if n > 1 else 1


# ------------------------------------------------------------------------------ CPU dispatch

cdef extern from *:
    """
    /* What the CPU (and the OS, which must save the wide registers) supports: 0 = baseline,
       1 = AVX2 + F16C, 2 = AVX-512 F/BW/VL as well. GCC and Clang on x86 only. */
    static int resamplex_cpu_level(void) {
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
        __builtin_cpu_init();
        if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c")))
            return 0;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
                && __builtin_cpu_supports("avx512vl"))
            return 2;
        return 1;
    #else
        return 0;
    #endif
    }
    """
    int resamplex_cpu_level() noexcept nogil


cdef extern from *:
    """
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Ask Linux for transparent huge pages behind a large scratch block (as NumPy does for
       its arrays of 4 MiB or more): a fresh block is otherwise faulted in and cleared 4 KiB
       at a time, which costs more than the passes that write it. Advice only: an error
       (an old kernel, THP off) changes nothing. */
    static void resamplex_advise_huge(char *p, size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (n >= ((size_t)1 << 22)) {
            size_t lead = (size_t)(4096u - (uintptr_t)p % 4096u) % 4096u;
            madvise(p + lead, n - lead, MADV_HUGEPAGE);
        }
    #else
        (void)p; (void)n;
    #endif
    }
    """
    void resamplex_advise_huge(char* p, size_t n) noexcept nogil

#: Instruction-set levels, lowest first (setup.py LEVELS builds them; "baseline" always).
LEVELS = ("baseline", "avx2", "avx512")
_DISPATCHED = ("_gather", "_taps", "_fixed", "_intpass", "_floatpass", "_spline", "_prodpass")
_ONE_LEVEL = ("_blockpass",)   # built once, at the baseline: every level runs it
_KERNELS = "resamplex._engine.kernels"  # their package (setup.py KERNELS)

cdef KernelTable _kernels      # the entry points every program runs (one level's)
cdef str _level = "baseline"
cdef dict _tables = {}          # level -> its modules (kept alive: the table points into them)


def _load_level(str level):
    """The kernel modules of ``level``, or None if this build lacks one of them."""
    if level in _tables:
        return _tables[level]
    suffix = "" if level == "baseline" else "_" + level
    try:
        mods = [importlib.import_module(f"{_KERNELS}.{m}{suffix}") for m in _DISPATCHED]
        mods += [importlib.import_module(f"{_KERNELS}.{m}") for m in _ONE_LEVEL]
    except ImportError:
        return None
    _tables[level] = mods
    return mods


def cpu_supported_level():
    """The highest level of ``LEVELS`` this CPU supports (whatever was built)."""
    return LEVELS[resamplex_cpu_level()]


def cpu_levels():
    """The levels this build has and this CPU runs, lowest first."""
    top = resamplex_cpu_level()
    return [lv for i, lv in enumerate(LEVELS) if i <= top and _load_level(lv) is not None]


def cpu_level():
    """The level the kernels run at now."""
    return _level


def set_cpu_level(str level):
    """Run the kernels at ``level`` (one of ``cpu_levels()``) from now on; returns the level
    before. Results do not depend on it (every level gives the same bits): it is for tests,
    benchmarks and debugging. Not meant to be called while other threads run resamplex."""
    global _kernels, _level
    if level not in cpu_levels():
        raise ValueError(f"resamplex: cpu level {level!r} is not available here; "
                         f"available: {cpu_levels()}")
    cdef KernelTable merged
    cdef KernelTable* t
    memset(&merged, 0, sizeof(KernelTable))
    for mod in _load_level(level):
        t = <KernelTable*>PyCapsule_GetPointer(mod.kernel_table(), b"resamplex.kernels")
        if t.gather != NULL:
            merged.gather = t.gather
        if t.weighted != NULL:
            merged.weighted = t.weighted
        if t.fused != NULL:
            merged.fused = t.fused
        if t.fixed != NULL:
            merged.fixed = t.fixed
        if t.ints != NULL:
            merged.ints = t.ints
        if t.ints_fused != NULL:
            merged.ints_fused = t.ints_fused
        if t.floats != NULL:
            merged.floats = t.floats
        if t.store != NULL:
            merged.store = t.store
        if t.spline != NULL:
            merged.spline = t.spline
        if t.tensor != NULL:
            merged.tensor = t.tensor
        if t.floats_fused != NULL:
            merged.floats_fused = t.floats_fused
        if t.block != NULL:
            merged.block = t.block
        if t.product != NULL:
            merged.product = t.product
    previous = _level
    _kernels = merged
    _level = level
    return previous


def _initial_level():
    """The best available level, capped by RESAMPLEX_CPU_LEVEL (baseline, avx2, avx512)."""
    levels = cpu_levels()
    if not levels:
        # Not even the baseline's kernels import (a copy of the package without them): say
        # which, as an ImportError (resamplex/__init__.py turns it into what to do).
        for m in _DISPATCHED + _ONE_LEVEL:
            try:
                importlib.import_module(f"{_KERNELS}.{m}")
            except ImportError as exc:
                raise ImportError(f"resamplex: the kernel module {m} does not import ({exc})")
        raise ImportError("resamplex: the kernel modules import, but none gives a kernel table")
    cap = os.environ.get("RESAMPLEX_CPU_LEVEL", "").strip().lower()
    if cap:
        if cap not in LEVELS:
            warnings.warn(f"resamplex: RESAMPLEX_CPU_LEVEL={cap!r} is not one of {LEVELS}; "
                          "ignored", RuntimeWarning, stacklevel=2)
        else:
            levels = [lv for lv in levels if LEVELS.index(lv) <= LEVELS.index(cap)]
    return levels[len(levels) - 1]   # (wraparound is off in this module)


set_cpu_level(_initial_level())


# ------------------------------------------------------------------------------ programs

cdef inline Py_ssize_t _round_up(Py_ssize_t n) noexcept nogil:
    return (n + ALIGN - 1) // ALIGN * ALIGN


cdef inline bint _ready(object a, int typenum):
    # an aligned, C-contiguous, native ndarray of that type: np.ascontiguousarray would return
    # it as it is (a new shape's plan makes a program of about twenty arrays; the call costs
    # about a microsecond each)
    return type(a) is np.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>a) == typenum \
        and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>a) and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray>a)


cdef const int64_t* _i64(list keep, object a) except? NULL:
    if type(a) is tuple and len(<tuple>a) == 0:
        return NULL
    arr = a if _ready(a, cnp.NPY_INT64) else np.ascontiguousarray(a, dtype=np.int64)
    keep.append(arr)
    if cnp.PyArray_SIZE(<cnp.ndarray>arr) == 0:
        return NULL
    return <const int64_t*>cnp.PyArray_DATA(<cnp.ndarray>arr)


_TYPENUM = {np.int16: cnp.NPY_INT16, np.int32: cnp.NPY_INT32, np.int64: cnp.NPY_INT64,
            np.float32: cnp.NPY_FLOAT32, np.float64: cnp.NPY_FLOAT64}


cdef const void* _vec(list keep, object a, object dtype) except? NULL:
    if a is None:
        return NULL
    arr = a if _ready(a, _TYPENUM.get(dtype, -1)) else np.ascontiguousarray(a, dtype=dtype)
    keep.append(arr)
    if cnp.PyArray_SIZE(<cnp.ndarray>arr) == 0:
        return NULL
    return <const void*>cnp.PyArray_DATA(<cnp.ndarray>arr)


# Cores busy with other processes: a call's pool threads then get little of a core (the pool
# never waits for one that has not started, but one that loses its core mid-chunk holds that
# chunk; an OpenMP region waited for every worker: 20x the one-thread time), so a call takes
# at most as many threads as there are cores free for it: the idle time of the whole machine
# plus this process's own CPU time (all its threads, a peer library's spinning pool included),
# per second of wall time, over the interval since the last reading (/proc/stat and
# process_time, read at most every FREE_RECHECK seconds). No timing of calls enters it: a
# peer's pool spinning after its call is this process's own time, which per-program timing
# samples mistook for a busy machine.
FREE_RECHECK = 0.25
cdef double _free_at = -1.0            # when the last reading was taken (monotonic seconds)
cdef double _idle_then = -1.0          # the machine's idle seconds then (-1: no /proc/stat)
cdef double _cpu_then = 0.0            # this process's CPU seconds then
cdef double _free = 0.0                # cores free over the last interval (0: not known)
cdef double _tick = float(os.sysconf("SC_CLK_TCK")) if hasattr(os, "sysconf") else 100.0


cdef double _idle_seconds():
    # idle + iowait of every CPU since boot (Linux /proc/stat), or -1
    try:
        with open("/proc/stat", "rb") as f:
            fields = f.readline().split()
        return (float(fields[4]) + float(fields[5])) / _tick
    except (OSError, IndexError, ValueError):
        return -1.0


cdef int _threads_free(int n):
    # n, or fewer where other processes hold cores (see above)
    global _free_at, _idle_then, _cpu_then, _free
    cdef double now = monotonic(), idle, cpu
    if now - _free_at >= FREE_RECHECK:
        idle = _idle_seconds()
        cpu = process_time()
        if idle >= 0 and _idle_then >= 0 and now > _free_at:
            _free = (idle - _idle_then + cpu - _cpu_then) / (now - _free_at)
        _free_at, _idle_then, _cpu_then = now, idle, cpu
    if _free <= 0.0 or _free + 0.5 >= n:
        return n
    return max(1, <int>(_free + 0.5))


def cores_free():
    """Cores free for this process over the last reading (0.0: not known yet), as the thread
    policy sees them (``_exec.pyx``)."""
    _threads_free(1)
    return _free


cdef void _block_args(list keep, BlockArgs* b, dict spec) except *:
    # OP_BLOCK's geometry and finish from the planner's dict (exact._block_spec)
    b.ys = _i64(keep, spec["ys"])
    b.cy = _i64(keep, spec["cy"])
    b.xs = _i64(keep, spec["xs"])
    b.cx = _i64(keep, spec["cx"])
    b.gptr = _i64(keep, spec["gptr"])
    b.goff = _i64(keep, spec["goff"])
    b.bias_p = _i64(keep, spec["bias_p"])
    b.mult_p = _i64(keep, spec["mult_p"])
    b.fh, b.fw = spec["fh"], spec["fw"]
    b.ngroups = len(spec["gptr"]) - 1
    b.acc_kind, b.fin, b.pfin, b.pop = spec["acc"], spec["fin"], spec["pfin"], spec["pop"]
    b.zero = spec["zero"]
    b.bias_f, b.mult_f, b.shift_f = spec["bias"], spec["mult"], spec["shift"]
    b.shift_p = spec["shift_p"]
    b.scale_f = spec["scale"]


cdef void _product_args(list keep, ProductArgs* a, dict spec, object dt) except *:
    # OP_PRODUCT's three tables (a two-axis product: a first of one tap of weight 1)
    a.pd, a.id_ = _i64(keep, spec["pd"]), _i64(keep, spec["id"])
    a.ph, a.ih = _i64(keep, spec["ph"]), _i64(keep, spec["ih"])
    a.pw, a.iw = _i64(keep, spec["pw"]), _i64(keep, spec["iw"])
    a.wd = _vec(keep, spec["wd"], dt)
    a.wh = _vec(keep, spec["wh"], dt)
    a.ww = _vec(keep, spec["ww"], dt)
    a.p0, a.p1, a.p2 = spec["perm"]


cdef class Program:
    """A plan compiled for one layout; ``run(src, dst, nthreads)`` executes it.

    Built from a list of pass specifications (dicts whose keys are the ``PassDesc`` fields of
    ``_pass.pxd``; arrays for the pointer fields) and the byte sizes of the scratch arrays the
    passes read and write (``src``/``dst`` >= 0). ``work`` is what the thread policy weighs.
    """

    cdef PassDesc* passes
    cdef int npasses
    cdef list _keep
    cdef Py_ssize_t* _scratch_at
    cdef Py_ssize_t _scratch_bytes
    cdef Py_ssize_t _buf_bytes
    cdef readonly double work
    cdef readonly Py_ssize_t nbytes
    #: Whether a pass maps its output by ``v * a + b`` (``run`` then needs ``a`` and ``b``).
    cdef readonly bint affine
    #: How many of one pass's ``pw`` values each run supplies (``run``'s ``pw``; 0: none):
    #: ``pw[_pw_at:_pw_at + call_pw]`` of pass ``_pw_pass`` (a spec's ``pw_call``).
    cdef readonly int call_pw
    cdef int _pw_pass
    cdef int _pw_at

    def __cinit__(self, list passes, list scratch_sizes, double work):
        cdef Py_ssize_t i, j, at = 0, esize
        cdef PassDesc* p
        self._keep = []
        self.npasses = len(passes)
        self.passes = <PassDesc*>malloc(max(1, self.npasses) * sizeof(PassDesc))
        self._scratch_at = <Py_ssize_t*>malloc(max(1, len(scratch_sizes)) * sizeof(Py_ssize_t))
        if self.passes == NULL or self._scratch_at == NULL:
            raise MemoryError("resamplex: no memory for a program")
        memset(self.passes, 0, max(1, self.npasses) * sizeof(PassDesc))
        for i, size in enumerate(scratch_sizes):
            self._scratch_at[i] = at
            at += _round_up(size)
        self._scratch_bytes = at
        self._buf_bytes = 0
        self.work = work
        self.affine = False
        self.call_pw = 0
        self._pw_pass = -1
        self._pw_at = 0
        for i, spec in enumerate(passes):
            p = &self.passes[i]
            p.op = spec["op"]
            p.src = spec.get("src", -1)
            p.dst = spec.get("dst", -2)
            p.ndim = len(spec["shape"])
            p.axis = spec.get("axis", 0)
            p.loop = spec.get("loop", 0)
            p.src_kind = spec.get("src_kind", 0)
            p.dst_kind = spec.get("dst_kind", 0)
            p.rounding = spec.get("rounding", 0)
            p.compute = spec.get("compute", C_FLOAT)
            p.shift = spec.get("shift", 0)
            p.itemsize = spec.get("itemsize", 0)
            p.n_in = spec.get("n_in", 0)
            p.k = spec.get("k", 0)
            p.n_mid = spec.get("n_mid", 0)
            p.buf_len = spec.get("buf_len", 0)
            p.units = max(1, spec.get("units", 1))
            p.shape = _i64(self._keep, spec["shape"])
            p.sstr = _i64(self._keep, spec["sstr"])
            p.dstr = _i64(self._keep, spec["dstr"])
            p.ptr = _i64(self._keep, spec.get("ptr", ()))
            p.off = _i64(self._keep, spec.get("off", ()))
            p.idx2 = _i64(self._keep, spec.get("idx2", ()))
            p.phase = spec.get("phase", PHASE_NONE)
            p.channels = spec.get("channels", 1)
            p.estride = spec.get("estride", 0)
            p.plus_zero = spec.get("plus_zero", 0)
            p.lo = spec.get("lo", 0)
            p.hi = spec.get("hi", 0)
            for j, v in enumerate(spec.get("pd", (0, 0, 0, 0))):
                p.pd[j] = v
            for j, v in enumerate(spec.get("pw", (0.0, 0.0, 0.0, 0.0))):
                p.pw[j] = v
            if spec.get("pw_call") is not None:     # (at, n): pw[at:at + n] come with each run
                at_pw, n_pw = spec["pw_call"]
                if self._pw_pass >= 0 or not (0 <= at_pw and 0 < n_pw and at_pw + n_pw <= 4):
                    raise ValueError("pw_call: one pass, within its four pw values")
                self._pw_pass, self._pw_at, self.call_pw = i, at_pw, n_pw
            p.ishift = spec.get("ishift", -1)
            for j, v in enumerate(spec.get("pq", (0, 0, 0, 0))):
                p.pq[j] = v
            p.wq = _vec(self._keep, spec.get("wq"), np.int16)
            p.blo = spec.get("blo", 0)
            p.bhi = spec.get("bhi", 0)
            p.bq = _vec(self._keep, spec.get("bq"), np.int16)
            p.bclamp = spec.get("bclamp", 0)
            p.pre = spec.get("pre", 0)
            p.post = spec.get("post", 0)
            p.finish = spec.get("finish", 0)
            p.bias = spec.get("bias", 0)
            p.mult = spec.get("mult", 1)
            p.fmul = spec.get("fmul", 0.0)
            p.ptr2 = _i64(self._keep, spec.get("ptr2", ()))
            p.head = spec.get("head", 0)
            p.hscale = spec.get("hscale", 0.0)
            p.lscale = spec.get("lscale", 0.0)
            p.lfloor = spec.get("lfloor", -np.inf)
            p.ring = spec.get("ring", 0)
            if spec.get("astr") is not None:   # a and b themselves come with each run
                p.aff.astr = _i64(self._keep, spec["astr"])
                p.aff.bstr = _i64(self._keep, spec["bstr"])
                p.aff.plane_a = spec.get("plane_a", 0)
                p.aff.plane_b = spec.get("plane_b", 0)
                self.affine = True
            p.planes = spec.get("planes", 0)
            p.plane_stride = spec.get("plane_stride", 0)
            p.soff = spec.get("soff", 0)
            p.doff = spec.get("doff", 0)
            p.lead = spec.get("lead", 0)
            p.order1 = spec.get("order1", 0)
            p.mid_kind = spec.get("mid_kind", 0)
            p.order_head = spec.get("order_head", 0)
            p.ktail = spec.get("ktail", 0)
            p.zlead = spec.get("zlead", 0)
            p.ztrail = spec.get("ztrail", 0)
            p.rk = spec.get("rk", len(spec.get("rd", ())))
            for j, v in enumerate(spec.get("rd", ())):
                p.rd[j] = v
            for j, v in enumerate(spec.get("rw", ())):
                p.rw[j] = v
            p.narrow = spec.get("narrow", 0)
            p.gpix_n = spec.get("gpix_n", 0)
            p.gwide = spec.get("gwide", 0)
            p.gwidth = spec.get("gwidth", 0)
            p.gpix = _i64(self._keep, spec.get("gpix", ()))
            p.gpad = _i64(self._keep, spec.get("gpad", ()))
            p.npad = len(spec.get("gpad", ()))
            p.gpair = spec.get("gpair", 0)
            p.gpwide = spec.get("gpwide", 0)
            for j, v in enumerate(spec.get("pdk", ())):
                p.pdk[j] = v
            for j, v in enumerate(spec.get("pwk", ())):
                p.pwk[j] = v
            for j, v in enumerate(spec.get("pqk", ())):
                p.pqk[j] = v
            p.iscale = spec.get("iscale", 0.0)
            if p.op == OP_FIXED:
                p.w = _vec(self._keep, spec.get("w"), np.int32)
                esize = 4
            elif p.op == OP_INT:
                p.w = _vec(self._keep, spec.get("w"), np.int64)
                esize = 8
            elif p.op == OP_INT_FUSED:
                if not 1 <= p.k <= 16:
                    # the kernel keeps 1 to 16 ring rows (_intpass._fused_rows: row % k, and
                    # a tag a row); the planner's _RING_MAX
                    raise ValueError(f"int_fused: a ring of 1 to 16 rows; got k={p.k}")
                p.w = _vec(self._keep, spec.get("w"), np.int64)
                p.w2 = _vec(self._keep, spec.get("w2"), np.int64)
                esize = 4
            elif p.op == OP_GATHER:
                p.w = NULL
                esize = 0
            elif p.op == OP_STORE:
                p.w = NULL
                esize = 8 if p.compute == C_DOUBLE else 4
            elif p.op == OP_SPLINE or p.op == OP_TENSOR:
                # float64 throughout: weights, and per-thread scratch lines of doubles
                p.w = _vec(self._keep, spec.get("w"), np.float64)
                esize = 8
            elif p.op == OP_BLOCK:
                _block_args(self._keep, &p.blk, spec["blk"])
                p.w = NULL
                esize = 8       # per-thread rows of doubles
            elif p.op == OP_PRODUCT:
                dt = np.float64 if p.compute == C_DOUBLE else np.float32
                _product_args(self._keep, &p.prod, spec["prod"], dt)
                p.w = NULL
                esize = 8 if p.compute == C_DOUBLE else 4
            else:
                dt = np.float64 if p.compute == C_DOUBLE else np.float32
                p.w = _vec(self._keep, spec.get("w"), dt)
                p.w2 = _vec(self._keep, spec.get("w2"), dt)
                p.w1 = _vec(self._keep, spec.get("w1"), dt)
                p.gw = _vec(self._keep, spec.get("gw"), dt)
                esize = 8 if p.compute == C_DOUBLE else 4
            self._buf_bytes = max(self._buf_bytes, _round_up(p.buf_len * esize))
        self.nbytes = sum(a.nbytes for a in self._keep) + self.npasses * sizeof(PassDesc)

    def __dealloc__(self):
        free(self.passes)
        free(self._scratch_at)

    @property
    def npass(self):
        return self.npasses

    @property
    def scratch_bytes(self):
        """Bytes of scratch a call allocates (intermediates, plus per-thread rows for one)."""
        return self._scratch_bytes + self._buf_bytes

    cdef int execute(self, const char* src, char* dst, int nthreads, const char* aff_a,
                     const char* aff_b, const double* call_pw) noexcept nogil:
        # Returns 0, or -1 if the scratch could not be allocated (nothing was written then).
        # aff_a/aff_b: the affine's arrays (compute type) for the pass that applies it;
        # call_pw: the run's pw values (call_pw of them) for pass _pw_pass. A copy of that
        # pass's descriptor carries them, so concurrent calls share nothing.
        cdef Py_ssize_t total = self._scratch_bytes + nthreads * self._buf_bytes
        cdef char* raw = NULL
        cdef char* block = NULL
        cdef const PassDesc* p
        cdef const char* s
        cdef char* d
        cdef int i, nt, j
        cdef PassDesc mapped
        cdef KernelTable k = _kernels   # one level for the whole call
        cdef size_t align = ALIGN
        if total > 0:
            # from 4 MiB on, on a huge page: malloc's block starts just past a page, so the
            # huge pages at its ends would be faulted in 4 KiB at a time (plan.new_array)
            if total >= (1 << 22):
                align = HUGE_ALIGN
            raw = <char*>malloc(total + align)
            if raw == NULL:
                return -1
            resamplex_advise_huge(raw, total + align)
            block = <char*>((<uintptr_t>raw + align - 1) // align * align)
        for i in range(self.npasses):
            p = &self.passes[i]
            s = src if p.src == -1 else (<const char*>dst if p.src == -2 else
                                         block + self._scratch_at[p.src])
            d = dst if p.dst == -2 else block + self._scratch_at[p.dst]
            s = s + p.soff
            d = d + p.doff
            nt = nthreads if nthreads < p.units else <int>p.units
            if p.aff.astr != NULL or i == self._pw_pass:
                mapped = p[0]
                if p.aff.astr != NULL:
                    mapped.aff.a = aff_a
                    mapped.aff.b = aff_b
                if i == self._pw_pass:
                    for j in range(self.call_pw):
                        mapped.pw[self._pw_at + j] = call_pw[j]
                p = &mapped
            if p.op == OP_GATHER:
                k.gather(p, s, d, NULL, nt)
            elif p.op == OP_WEIGHTED:
                k.weighted(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_FUSED:
                k.fused(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_FIXED:
                k.fixed(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_INT:
                k.ints(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_INT_FUSED:
                k.ints_fused(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_FLOAT:
                k.floats(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_STORE:
                k.store(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_SPLINE:
                k.spline(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_TENSOR:
                k.tensor(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_FLOAT_FUSED:
                k.floats_fused(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_BLOCK:
                k.block(p, s, d, block + self._scratch_bytes, nt)
            elif p.op == OP_PRODUCT:
                k.product(p, s, d, block + self._scratch_bytes, nt)
        free(raw)
        return 0

    def run_tiles(self, cnp.ndarray src, cnp.ndarray dst, int nthreads, object filler,
                  const int64_t[::1] starts, int64_t tail, int64_t length, int64_t n_w,
                  int64_t k, int64_t scale, int64_t channels, int64_t src_step,
                  int64_t dst_step):
        """Run this program (one weighted pass, or a gather of one table without a repeat,
        halving or wide moves, compiled for a tile of ``length`` outputs on an input window
        of ``n_w``) over every tile of a long axis: the tiles from
        ``starts`` (disjoint, any order), then the one from ``tail`` (>= 0: it may overlap
        the others, so it runs alone, last). Each tile's taps come from ``filler`` (a
        ``TableBuilder.tile_filler`` capsule) in the pass's form (``k > 0``: dense rows of
        ``k``; ``k == 0``: CSR, offsets ``index * scale``), into a thread's own buffers, and
        the pass then reads ``src`` moved by ``lo * src_step`` bytes and writes ``dst``
        moved by ``o0 * dst_step``. Tiles are shared among the threads (GIL released).
        Returns how many tiles did not fit their window (none was run: the caller runs the
        call otherwise)."""
        cdef TileFiller* f = <TileFiller*>PyCapsule_GetPointer(filler, "resamplex.TileFiller")
        cdef TileRun r
        cdef Py_ssize_t ntiles = starts.shape[0], taps, slots, esize
        cdef int n, failed = 0
        cdef char* raw
        cdef const PassDesc* p = &self.passes[0]
        if (self.npasses != 1 or length < 1 or k < 0 or channels < 1
                or not (p.op == OP_WEIGHTED or (p.op == OP_GATHER and k == 0 and p.k == 1
                                                and p.phase == PHASE_NONE and p.n_mid == 0))):
            raise ValueError("run_tiles: a program of one weighted pass (or a plain gather), "
                             "tiles of >= 1 output")
        r.p = &self.passes[0]
        r.f = f
        r.dbl = self.passes[0].compute == C_DOUBLE
        esize = 8 if r.dbl else 4
        taps = length * max(f.row_cap, 1)
        slots = max(taps, length * channels * k)
        r.at_off = _round_up((length + 1) * 8)
        r.at_w = r.at_off + _round_up(slots * 8)
        r.at_tidx = r.at_w + _round_up(slots * esize)
        r.at_tw = r.at_tidx + _round_up(taps * 8)
        r.at_buf = r.at_tw + _round_up(taps * 8)
        r.per = r.at_buf + self._buf_bytes
        r.src = <const char*>cnp.PyArray_DATA(src)
        r.dst = <char*>cnp.PyArray_DATA(dst)
        r.length, r.n_w, r.k, r.scale, r.channels = length, n_w, k, scale, channels
        r.src_step, r.dst_step = src_step, dst_step
        n = _threads_free(nthreads) if nthreads > 1 else 1
        if n > ntiles:
            n = max(1, <int>ntiles)
        raw = <char*>malloc(n * r.per + ALIGN)
        if raw == NULL:
            raise MemoryError(f"resamplex: could not allocate {n * r.per} bytes of scratch")
        r.mem = <char*>((<uintptr_t>raw + ALIGN - 1) // ALIGN * ALIGN)
        r.starts = &starts[0] if ntiles > 0 else NULL
        r.failed = 0
        with nogil:
            pool_run(_tile_body, &r, ntiles, n)
            failed += <int>r.failed
            if tail >= 0:
                failed += _run_tile(&r, tail, 0)
        free(raw)
        return failed

    def run(self, cnp.ndarray src, cnp.ndarray dst, int nthreads, cnp.ndarray a=None,
            cnp.ndarray b=None, tuple pw=None):
        """Run every pass: ``src`` and ``dst`` must have the layout, dtype and shape this
        program was compiled for (not checked here). GIL released. A program compiled with
        an affine takes ``a`` and ``b``: contiguous arrays of the compute type, of the shapes
        it was compiled for (not checked here either; the plan passes them). One compiled
        with a pass's ``pw_call`` takes ``pw``: that many floats, that pass's values for
        this run (a clip's bounds, say).

        ``nthreads`` is an upper bound: where other processes hold cores the program takes
        at most the cores free for it (``cores_free``).
        """
        cdef const char* s = <const char*>cnp.PyArray_DATA(src)
        cdef char* d = <char*>cnp.PyArray_DATA(dst)
        cdef int rc, n, j
        cdef const char* pa = NULL
        cdef const char* pb = NULL
        cdef double values[4]
        if self.affine:
            if a is None or b is None:
                raise ValueError("resamplex: this program needs the affine's a and b")
            pa = <const char*>cnp.PyArray_DATA(a)
            pb = <const char*>cnp.PyArray_DATA(b)
        if (pw is None) != (self.call_pw == 0) or (pw is not None and len(pw) != self.call_pw):
            raise ValueError(f"resamplex: this program takes {self.call_pw} pw values a run, "
                             f"not {pw!r}")
        for j in range(self.call_pw):
            values[j] = pw[j]
        n = _threads_free(nthreads) if nthreads > 1 else 1
        with nogil:
            rc = self.execute(s, d, n, pa, pb, values)
        if rc != 0:
            raise MemoryError(
                f"resamplex: could not allocate {self.scratch_bytes} bytes of scratch")


# ------------------------------------------------------------------------------ native tiles

cdef struct TileRun:
    # what every tile of a run_tiles call shares; each thread's buffers are `per` bytes apart
    const PassDesc* p
    const TileFiller* f
    const char* src
    char* dst
    char* mem
    Py_ssize_t per
    Py_ssize_t at_off
    Py_ssize_t at_w
    Py_ssize_t at_tidx
    Py_ssize_t at_tw
    Py_ssize_t at_buf
    int64_t length
    int64_t n_w
    int64_t k
    int64_t scale
    int64_t channels
    int64_t src_step
    int64_t dst_step
    int dbl
    const int64_t* starts  # the tiles' first outputs (a parallel run)
    long failed            # tiles whose taps did not fit (a parallel run; atomic)


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static void rx_count_one(long *n) { _InterlockedIncrement(n); }
    #else
    static void rx_count_one(long *n) { __atomic_add_fetch(n, 1, __ATOMIC_RELAXED); }
    #endif
    """
    void rx_count_one(long* n) noexcept nogil


cdef void _tile_body(void* ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void* t1,
                     const void* t2) noexcept nogil:
    cdef TileRun* r = <TileRun*>ctx
    cdef Py_ssize_t t
    for t in range(lo, hi):
        if _run_tile(r, r.starts[t], tid):
            rx_count_one(&r.failed)


cdef int _run_tile(const TileRun* r, int64_t o0, int tid) noexcept nogil:
    # One tile: its taps into this thread's buffers, then the pass over its window; 1 where
    # the taps did not fit the window (nothing is read or written then).
    cdef char* m = r.mem + tid * r.per
    cdef PassDesc desc = r.p[0]
    cdef bint gather = desc.op == OP_GATHER
    cdef int64_t lo = r.f.fill(r.f.state, o0, o0 + r.length, r.n_w, r.k, r.scale,
                               r.channels, r.dbl, <int64_t*>m, <int64_t*>(m + r.at_off),
                               NULL if gather else <void*>(m + r.at_w),
                               <int64_t*>(m + r.at_tidx), <double*>(m + r.at_tw))
    if lo < 0:
        return 1
    desc.off = <const int64_t*>(m + r.at_off)
    if gather:   # byte offsets of one tap per output: the CSR form's
        _kernels.gather(&desc, r.src + lo * r.src_step, r.dst + o0 * r.dst_step, NULL, 1)
        return 0
    desc.ptr = <const int64_t*>m
    desc.w = <const void*>(m + r.at_w)
    _kernels.weighted(&desc, r.src + lo * r.src_step + desc.soff,
                      r.dst + o0 * r.dst_step + desc.doff, <void*>(m + r.at_buf), 1)
    return 0


# ------------------------------------------------------------------------------ fast checks
# The per-call checks of a plan's fast path, without building Python objects (``a.flags``,
# ``a.ctypes``, ``__array_interface__`` each allocate).

def is_aligned(cnp.ndarray a):
    """Whether every element of ``a`` is aligned for its type."""
    return cnp.PyArray_ISALIGNED(a)


def is_writeable_aligned(cnp.ndarray a):
    """Whether ``a`` is writeable and aligned."""
    return cnp.PyArray_ISWRITEABLE(a) and cnp.PyArray_ISALIGNED(a)


cdef void _extent(cnp.ndarray a, Py_ssize_t* lo, Py_ssize_t* hi) noexcept:
    cdef Py_ssize_t start = <Py_ssize_t>cnp.PyArray_DATA(a), end = start
    cdef int d
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp* strides = cnp.PyArray_STRIDES(a)
    for d in range(cnp.PyArray_NDIM(a)):
        if strides[d] < 0:
            start += (shape[d] - 1) * strides[d]
        else:
            end += (shape[d] - 1) * strides[d]
    lo[0] = start
    hi[0] = end + cnp.PyArray_ITEMSIZE(a)


def may_overlap(cnp.ndarray a, cnp.ndarray b):
    """Whether ``a`` and ``b`` may share an element: disjoint byte ranges answer at once,
    else NumPy's exact test (bounded; too hard counts as sharing)."""
    cdef Py_ssize_t a_lo, a_hi, b_lo, b_hi
    if cnp.PyArray_SIZE(a) == 0 or cnp.PyArray_SIZE(b) == 0:
        return False
    _extent(a, &a_lo, &a_hi)
    _extent(b, &b_lo, &b_hi)
    if a_hi <= b_lo or b_hi <= a_lo:
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=1 << 20))
    except np.exceptions.TooHardError:
        return True


# ------------------------------------------------------------------------------ call keys

# Argument types a facade's fast path takes as they are. Anything else (arrays, other
# sequences, user types) gives no key, and the call is validated in full.
cdef set _KEY_TYPES = {int, float, str, bool, type(None), np.float64, np.float32, np.int64,
                       np.int32, np.intp, np.uint8, np.bool_}


cdef inline bint _keyable(object v, object t):
    # Plain scalars by exact type; dtypes and enum members (a facade's own constants) too.
    return t in _KEY_TYPES or isinstance(v, (np.dtype, enum.Enum))


def call_key(*args):
    """A hashable key of a call's raw arguments, or None if one is not a plain scalar or a flat
    list/tuple of them.

    The key holds every value and its exact type, so ``True`` and ``1``, ``2`` and ``2.0``,
    a list and a tuple give different keys: a key that matches one seen before names
    arguments that passed the same validation. (NaN never matches itself: such a call is
    validated, and refused, every time.)
    """
    # One flat list: each argument's type, then its value (a scalar) or its elements' types
    # and values and a closing None (a tuple or list; an array: its dtype and values).
    cdef list key = []
    cdef object t, te
    for v in args:
        t = type(v)
        if t is tuple or t is list:
            key.append(t)
            for e in v:
                te = type(e)
                if not (te is int or te is float or _keyable(e, te)):
                    return None
                key.append(te)
                key.append(e)
            key.append(None)
        elif t is np.ndarray:
            # a small 1-d array of numbers (ONNX's scales, sizes, roi): its values and dtype
            if v.ndim != 1 or v.shape[0] > 64 or v.dtype.kind not in "biuf":
                return None
            key.append(v.dtype)
            key.extend(v.tolist())
            key.append(None)
        elif t is int or t is float or _keyable(v, t):
            key.append(t)
            key.append(v)
        else:
            return None
    return tuple(key)
