"""Build resamplex's Cython kernels.

OpenMP is probed by compiling, linking and running a tiny program with the compiler that will
build the extensions; if that fails the kernels are built serial (``prange`` degrades to a plain
loop) and ``resamplex.show_config()`` says so. ``RESAMPLEX_NO_OPENMP=1`` forces the serial build,
``RESAMPLEX_FAIL_NO_OPENMP=1`` turns a failed probe into a build error (for CI), and
``RESAMPLEX_NATIVE=1`` adds ``-march=native`` for local builds (wheels stay portable).
``RESAMPLEX_SANITIZE=1`` builds with AddressSanitizer and UndefinedBehaviorSanitizer (line tables
only, ``-g1``); other builds carry no debug information (``-g0``) unless ``RESAMPLEX_DEBUG=1``.
A regular build also copies the compiled modules into the source tree (so that Python run from
the repository root finds them; see ``build_ext_openmp``); ``RESAMPLEX_NO_COPY_TO_SOURCE=1``
leaves the source tree alone.

Runtime CPU dispatch: on x86-64 with GCC or Clang the kernel modules (``DISPATCHED``) are
built once per instruction-set level (``LEVELS``) from the same source, as ``kernels/_taps``
(baseline), ``kernels/_taps_avx2``, ``kernels/_taps_avx512``, ...; the executor picks the
best level the CPU reports at import (``_exec.pyx``). A level the compiler cannot build is left
out (the build says so), and every other platform or compiler builds the baseline only.
``RESAMPLEX_CPU_LEVELS=baseline`` (a comma list) limits the levels built;
``RESAMPLEX_NATIVE=1`` builds the baseline only.
"""

import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

OPENMP_PROBE = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
    int n = 0;
    #pragma omp parallel reduction(+:n)
    n += 1;
    printf("%d\n", n);
    return n > 0 ? 0 : 1;
}
"""


# Instruction-set levels of the dispatched kernel modules: name, compiler flags. The same
# source compiles at every level; what differs is what the compiler may use (and the vector
# helpers of kernels/_simd.h and the headers beside it, which test __AVX2__ / __F16C__ /
# __AVX512F__). No level enables FMA, and every level compiles with -ffp-contract=off: the
# arithmetic, and so every bit of every result, is the same at every level (SPEC §3).
LEVELS = [
    ("baseline", []),
    ("avx2", ["-mavx2", "-mf16c"]),
    ("avx512", ["-mavx2", "-mf16c", "-mavx512f", "-mavx512bw", "-mavx512vl"]),
]
# The kernel modules built per level (each exports its entry points as a KernelTable capsule).
DISPATCHED = ["_gather", "_taps", "_fixed", "_intpass", "_floatpass", "_spline", "_prodpass"]
# The folder of the kernels under resamplex/_engine (one module per pass kind), and its
# modules built once: the dispatched ones at the baseline, and those every level shares.
KERNELS = "kernels"
KERNEL_MODULES = DISPATCHED + ["_blockpass", "_alpha", "_reduce"]
# The runner (_exec, its thread pool) and the native table builders, in resamplex/_engine.
ENGINE = ["_pool", "_exec", "_tablegen", "_planloops"]
# Modules by compile time, longest first (see _extensions).
COMPILE_ORDER = ["_taps", "_floatpass", "_intpass", "_spline", "_exec", "_tablegen",
                 "_planloops", "_reduce", "_alpha"]


def _dispatch_levels():
    """The levels this build targets: every level on x86-64 with GCC/Clang (those the compiler
    accepts are kept by build_ext), the baseline elsewhere."""
    machine = platform.machine().lower()
    if machine not in ("x86_64", "amd64") or os.environ.get("RESAMPLEX_NATIVE") == "1":
        return ["baseline"]
    if sys.platform == "win32":  # MSVC: no __builtin_cpu_supports; baseline only
        return ["baseline"]
    wanted = os.environ.get("RESAMPLEX_CPU_LEVELS")
    names = [n for n, _ in LEVELS]
    if wanted:
        names = [n for n in names if n == "baseline" or n in wanted.split(",")]
    return names


def _level_of(ext_name):
    for name, flags in LEVELS[1:]:
        if ext_name.endswith("_" + name):
            return name, flags
    return "baseline", []


def _compiler_accepts(compiler, flags):
    """True if the compiler builds a small file with ``flags`` (an old compiler may not know
    AVX-512)."""
    tmp = tempfile.mkdtemp(prefix="resamplex-isa-")
    try:
        src = os.path.join(tmp, "isa.c")
        Path(src).write_text("int resamplex_isa_probe(int x) { return x + 1; }\n")
        compiler.compile([src], output_dir=tmp, extra_postargs=list(flags))
        return True
    except Exception:  # the compiler refused a flag
        return False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _openmp_flags(compiler_type):
    if compiler_type == "msvc":
        return ["/openmp"], []
    if sys.platform == "darwin" and "openmp" in os.environ.get("CPPFLAGS", ""):
        # Apple clang: the user passes -Xpreprocessor -fopenmp / -lomp through CPPFLAGS/LDFLAGS.
        # The compiler applies CPPFLAGS and CFLAGS, and LDFLAGS to extensions, but not LDFLAGS
        # to the probe's executable: hand them to it (repeating them for extensions is harmless).
        return [], shlex.split(os.environ.get("LDFLAGS", ""))
    return ["-fopenmp"], ["-fopenmp"]


def _probe_openmp(compiler, cflags, lflags):
    """Compile, link and run a parallel region; True only if all three work."""
    tmp = tempfile.mkdtemp(prefix="resamplex-omp-")
    cwd = os.getcwd()
    try:
        os.chdir(tmp)
        Path("probe.c").write_text(OPENMP_PROBE)
        objs = compiler.compile(["probe.c"], extra_postargs=cflags)
        compiler.link_executable(objs, "probe", extra_postargs=lflags)
        exe = os.path.join(tmp, "probe" + (".exe" if os.name == "nt" else ""))
        out = subprocess.run([exe], capture_output=True, text=True, timeout=60)
        return out.returncode == 0 and out.stdout.strip().isdigit()
    except Exception:  # any compile, link or run failure means "no OpenMP"
        return False
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp, ignore_errors=True)


class build_ext_openmp(build_ext):
    """build_ext that adds OpenMP flags when they work and records the build configuration.

    A regular build (``pip install .``, a wheel) also copies the compiled kernels into the
    source tree, as ``--inplace`` and editable installs do: Python run from the repository root
    (``python -m resamplex``, ``python -m doctest README.md``) imports the source folder ahead of
    the installed package, and finds it complete. Best effort: a read-only tree is left as it
    is (importing from it then says what is missing: ``resamplex/_kernels.py``).
    """

    def finalize_options(self):
        super().finalize_options()
        # Compile the modules in parallel (one per CPU) unless -j says otherwise: a pip install
        # builds about fifteen of them (three per instruction-set level).
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self):
        in_tree = self.inplace or getattr(self, "editable_mode", False)
        super().run()
        if not in_tree and os.environ.get("RESAMPLEX_NO_COPY_TO_SOURCE") != "1":
            try:
                self.copy_extensions_to_source()
            except Exception as exc:  # DistutilsFileError, OSError: not worth failing for
                print(f"resamplex: compiled kernels not copied into the source tree ({exc})",
                      file=sys.stderr)

    def build_extensions(self):
        ctype = self.compiler.compiler_type
        cflags, lflags = _openmp_flags(ctype)
        want = os.environ.get("RESAMPLEX_NO_OPENMP") != "1"
        openmp = want and _probe_openmp(self.compiler, cflags, lflags)
        if want and not openmp:
            if os.environ.get("RESAMPLEX_FAIL_NO_OPENMP") == "1":
                raise RuntimeError("OpenMP probe failed and RESAMPLEX_FAIL_NO_OPENMP=1")
            print("resamplex: OpenMP not available, building serial kernels", file=sys.stderr)
        extra_c, extra_l = [], []
        if ctype == "msvc":
            extra_c += ["/O2", "/fp:precise"]
        else:
            # -ffp-contract=off: no fused multiply-add, so every code path (scalar, vectorised,
            # native or portable build) rounds the same way and results stay bitwise stable.
            extra_c += ["-O3", "-ffp-contract=off", "-fno-math-errno", "-Wno-unused-function"]
            # GCC limits inlining to a growth of the module's own size: the kernel modules'
            # row kernels (run kernels with their channel counts fixed) must inline into
            # their callers, which the default allowance stopped doing once a module lost its
            # Python entry points (measured: twice the time of OpenCV's uint8 cubic at x2)
            growth = "--param=inline-unit-growth=200"
            if _compiler_accepts(self.compiler, [growth]):
                extra_c.append(growth)
            if os.environ.get("RESAMPLEX_NATIVE") == "1":
                extra_c.append("-march=native")
            # Debug information: none by default (Python's own CFLAGS bring -g), which builds
            # the kernels in four fifths of the time with the same machine code (measured:
            # _taps.c 119 s with -g, 96 s with -g0, .text byte-identical); RESAMPLEX_DEBUG=1
            # keeps full -g for gdb and perf's source lines. The sanitizer build keeps line
            # tables (-g1: a report's stack names file and line) at three quarters of -g's time.
            if os.environ.get("RESAMPLEX_SANITIZE") == "1":
                # -Og after -O3: optimised for debugging, and a build of the instrumented
                # kernels in a tenth of -O3's time (measured: _taps_avx2.c 71 s at -O1, 32 s at
                # -Og; _taps.c 333 s at -O3), which keeps CI within its half hour. The suite
                # under the sanitizers takes as long as at -O1 (390 s vs 376-416 s: its time is
                # Python's and the originals', not the kernels').
                san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g1"]
                extra_c.append("-Og")
                extra_c += san
                extra_l += san
            elif os.environ.get("RESAMPLEX_DEBUG") != "1":
                extra_c.append("-g0")
        if openmp:
            extra_c += cflags
            extra_l += lflags
        levels = []
        kept = []
        for ext in self.extensions:
            level, flags = _level_of(ext.name)
            if level != "baseline" and not _compiler_accepts(self.compiler, flags):
                print(f"resamplex: the compiler does not build {level} ({' '.join(flags)}); "
                      f"leaving out {ext.name}", file=sys.stderr)
                continue
            if level not in levels:
                levels.append(level)
            ext.extra_compile_args = list(ext.extra_compile_args or []) + extra_c + flags
            ext.extra_link_args = list(ext.extra_link_args or []) + extra_l
            kept.append(ext)
        self.extensions[:] = kept
        config = {
            "openmp": openmp,
            "compiler": ctype,
            "compile_args": extra_c,
            "link_args": extra_l,
            "native": os.environ.get("RESAMPLEX_NATIVE") == "1",
            "sanitize": os.environ.get("RESAMPLEX_SANITIZE") == "1",
            "cpu_levels": levels,
            "numpy_build": np.__version__,
        }
        text = "# Generated by setup.py at build time; do not edit.\nCONFIG = " + json.dumps(
            config, indent=4
        ).replace("true", "True").replace("false", "False") + "\n"
        for root in {Path("resamplex"), Path(self.build_lib) / "resamplex"}:
            if root.is_dir():
                (root / "_build_config.py").write_text(text)
        super().build_extensions()


def _extensions():
    inc = np.get_include()
    npymath = str(Path(inc).parent / "lib")
    common = dict(
        include_dirs=[inc, "resamplex/_engine", "resamplex/_engine/kernels"],
        library_dirs=[npymath],
        libraries=["npymath"] + (["m", "pthread"] if os.name == "posix" else []),
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    engine = Path("resamplex/_engine")
    kernels = engine / KERNELS
    _render_templates(kernels)
    # module paths under _engine: the runner and native planners there, the kernels in their room
    names = list(ENGINE) + [f"{KERNELS}/{n}" for n in KERNEL_MODULES]
    for level in _dispatch_levels()[1:]:
        for name in DISPATCHED:
            copy = (kernels / f"{name}.pyx").read_text()
            _write_if_changed(kernels / f"{name}_{level}.pyx", copy)
            names.append(f"{KERNELS}/{name}_{level}")
    # Longest compile first: the parallel build hands each free worker the next module, and a
    # long one started last leaves the other workers idle (two workers: about 30 s of a
    # 450 s build). The order is the modules' compile times measured at -O3; new modules
    # (not listed) go last, in their order above.
    def cost(path):  # (module, the widest level first)
        name = path.rsplit("/", 1)[-1]
        level, _ = _level_of(name)
        base = name if level == "baseline" else name[:-len(level) - 1]
        rank = COMPILE_ORDER.index(base) if base in COMPILE_ORDER else len(COMPILE_ORDER)
        return rank, -[n for n, _ in LEVELS].index(level)
    names.sort(key=cost)
    return [
        Extension("resamplex._engine." + path.replace("/", "."), [f"resamplex/_engine/{path}.pyx"],
                  **common)
        for path in names
    ]


def _write_if_changed(target, text):
    # Unchanged files keep their time stamps, so Cython does not regenerate their C.
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


def _render_templates(folder):
    """Generate each ``X.pyx`` from its Tempita template ``X.pyx.tp`` (STYLE.md: dispatch
    written once, as a table; the generated file is not committed)."""
    from Cython import Tempita

    for template in sorted(folder.glob("*.pyx.tp")):
        target = template.with_suffix("")
        _write_if_changed(target, Tempita.sub(template.read_text()))


# Commands that build or install the kernels; the others (sdist, egg_info, dist_info: the
# metadata and the source archive) need no C, and translating every module for them took CI
# 100 s (python -m build --sdist, whose isolated environment translates them all anew).
_BUILD_COMMANDS = {"build", "build_ext", "bdist", "bdist_wheel", "bdist_egg", "install",
                   "develop", "editable_wheel"}


def _source_only():
    argv = set(sys.argv[1:])
    return bool(argv & {"sdist", "egg_info", "dist_info"}) and not argv & _BUILD_COMMANDS


setup(
    ext_modules=_extensions() if _source_only() else cythonize(
        _extensions(),
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        nthreads=os.cpu_count() or 1,
    ),
    cmdclass={"build_ext": build_ext_openmp},
)
