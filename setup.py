"""Build resamplex's Cython kernels.

OpenMP is probed by compiling, linking and running a tiny program with the compiler that will
build the extensions; if that fails the kernels are built serial (``prange`` degrades to a plain
loop) and ``resamplex.show_config()`` says so. ``RESAMPLEX_NO_OPENMP=1`` forces the serial build,
``RESAMPLEX_FAIL_NO_OPENMP=1`` turns a failed probe into a build error (for CI), and
``RESAMPLEX_NATIVE=1`` adds ``-march=native`` for local builds (wheels stay portable).
``RESAMPLEX_SANITIZE=1`` builds with AddressSanitizer and UndefinedBehaviorSanitizer.
A regular build also copies the compiled modules into the source tree (so that Python run from
the repository root finds them; see ``build_ext_openmp``); ``RESAMPLEX_NO_COPY_TO_SOURCE=1``
leaves the source tree alone.
"""

import json
import os
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
            if os.environ.get("RESAMPLEX_NATIVE") == "1":
                extra_c.append("-march=native")
            if os.environ.get("RESAMPLEX_SANITIZE") == "1":
                san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"]
                extra_c += san
                extra_l += san
        if openmp:
            extra_c += cflags
            extra_l += lflags
        for ext in self.extensions:
            ext.extra_compile_args = list(ext.extra_compile_args or []) + extra_c
            ext.extra_link_args = list(ext.extra_link_args or []) + extra_l
        config = {
            "openmp": openmp,
            "compiler": ctype,
            "compile_args": extra_c,
            "link_args": extra_l,
            "native": os.environ.get("RESAMPLEX_NATIVE") == "1",
            "sanitize": os.environ.get("RESAMPLEX_SANITIZE") == "1",
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
        include_dirs=[inc, "resamplex/_engine"],
        library_dirs=[npymath],
        libraries=["npymath"] + (["m"] if os.name == "posix" else []),
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    _render_templates(Path("resamplex/_engine"))
    names = ["_gather", "_taps", "_fixed", "_exec", "_tablegen", "_intpass", "_floatpass",
             "_blockpass", "_prodpass"]
    return [
        Extension(f"resamplex._engine.{n}", [f"resamplex/_engine/{n}.pyx"], **common)
        for n in names
    ]


def _render_templates(folder):
    """Generate each ``X.pyx`` from its Tempita template ``X.pyx.tp`` (STYLE.md: dispatch
    written once, as a table; the generated file is not committed)."""
    from Cython import Tempita

    for template in sorted(folder.glob("*.pyx.tp")):
        target = template.with_suffix("")
        text = Tempita.sub(template.read_text())
        if not target.exists() or target.read_text() != text:
            target.write_text(text)


setup(
    ext_modules=cythonize(
        _extensions(),
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
    cmdclass={"build_ext": build_ext_openmp},
)
