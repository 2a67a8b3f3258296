#!/usr/bin/env bash
# Build the sdist and a wheel for this machine, as a release would, and check both:
#
#   1. `python -m build` (build isolation: the build requirements of pyproject.toml, fetched
#      fresh) into a temporary folder: the sdist, then a wheel built *from the sdist*, so a
#      source file missing from the sdist fails the build here;
#   2. the sdist's file list: the Cython sources (.pyx, .pxd, .h), stubs and py.typed are in,
#      generated files (Cython's .c, compiled modules, _build_config.py) are out;
#   3. the wheel's file list: compiled kernels, _build_config.py, .pyi stubs, py.typed, LICENSE;
#   4. `twine check --strict` on both (the metadata and README render on PyPI);
#   5. the wheel installed into a fresh virtual environment (numpy only), then, from outside
#      the source tree: `resamplex info`, a resize compared with a known answer, the build
#      configuration, and `resamplex resize` on a .npy file.
#
# The tools (build, twine) go into the script's own virtual environment. Run from anywhere:
# `bash ci/build_wheel.sh`. Environment: PYTHON (default python3) picks the interpreter;
# RESAMPLEX_WHEEL_KEEP=1 keeps the temporary folder (its path is printed);
# RESAMPLEX_WHEEL_OUT=DIR copies the sdist and the wheel there.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/resamplex-wheel.XXXXXX")"
if [[ "${RESAMPLEX_WHEEL_KEEP:-0}" == "1" ]]; then
    trap 'echo "kept $TMP"' EXIT
else
    trap 'rm -rf "$TMP"' EXIT
fi

step() { printf '\n--> %s\n' "$*"; }
fail() { echo "error: $*" >&2; exit 1; }

step "build tools (build, twine) in $TMP/tools"
"$PYTHON" -m venv "$TMP/tools"
"$TMP/tools/bin/python" -m pip install --quiet --upgrade pip
"$TMP/tools/bin/python" -m pip install --quiet build twine

step "python -m build: sdist, then a wheel from the sdist"
# A release build needs OpenMP: a failed probe is an error here, not a serial wheel.
(cd "$ROOT" && RESAMPLEX_FAIL_NO_OPENMP=1 "$TMP/tools/bin/python" -m build --outdir "$TMP/dist" .) \
    > "$TMP/build.log" 2>&1 || { tail -n 60 "$TMP/build.log"; fail "python -m build failed"; }
tail -n 1 "$TMP/build.log"
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
         resamplex/_engine/_gather.pyx resamplex/_engine/_taps.pyx resamplex/_engine/_fixed.pyx \
         resamplex/_engine/_fused.pxd resamplex/_engine/_half.pxd resamplex/_engine/_openmp.pxd \
         resamplex/_engine/_simd.h \
         resamplex/_engine/_gather.pyi resamplex/_engine/_taps.pyi resamplex/_engine/_fixed.pyi \
         tests/conftest.py docs/core.md; do
    grep -qxF "$f" "$TMP/sdist.txt" || fail "the sdist lacks $f"
done
if grep -E '\.(c|cpp|so|pyd|o)$|_build_config\.py$|__pycache__' "$TMP/sdist.txt"; then
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
        "resamplex/_engine/_gather.pyi", "resamplex/_engine/_taps.pyi",
        "resamplex/_engine/_fixed.pyi"]
missing = [n for n in need if n not in names]
for mod in ("_gather", "_taps", "_fixed"):
    if not any(re.fullmatch(rf"resamplex/_engine/{mod}\..*(\.so|\.pyd)", n) for n in names):
        missing.append(f"resamplex/_engine/{mod} (compiled)")
if not any(re.search(r"\.dist-info/(licenses/)?LICENSE$", n) for n in names):
    missing.append("LICENSE in .dist-info")
generated = sorted(n for n in names if n.endswith((".c", ".cpp")))
if missing or generated:
    sys.exit(f"error: the wheel lacks {missing}; holds generated sources {generated}")
print(f"{len(names)} files; compiled kernels, _build_config.py, stubs, py.typed, LICENSE")
EOF

step "twine check --strict"
"$TMP/tools/bin/python" -m twine check --strict "$SDIST" "$WHEEL"

step "install the wheel into a fresh virtual environment"
"$PYTHON" -m venv "$TMP/venv"
"$TMP/venv/bin/python" -m pip install --quiet --upgrade pip
"$TMP/venv/bin/python" -m pip install --quiet "$WHEEL"

step "smoke test of the installed wheel (from outside the source tree)"
cd "$TMP"
"$TMP/venv/bin/resamplex" info > "$TMP/info.txt" || { cat "$TMP/info.txt"; fail "resamplex info failed"; }
head -n 3 "$TMP/info.txt"
"$TMP/venv/bin/python" - "$TMP/venv" <<'EOF'
import os
import sys

import numpy as np

import resamplex as rx

venv = os.path.realpath(sys.argv[1])
if not os.path.realpath(rx.__file__).startswith(venv + os.sep):
    sys.exit(f"error: resamplex imports from {rx.__file__}, not from the venv {venv}")
# Tiny known answers, worked by hand (half_pixel: u = (o + 0.5) / 2 - 0.5).
y = rx.resize(np.array([[0.0, 1.0], [2.0, 3.0]]), (3, 3))
assert np.array_equal(y, [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]]), y
y = rx.resize(np.array([0, 10, 20, 30], dtype=np.uint8), (8,))
assert y.tolist() == [0, 2, 8, 12, 18, 22, 28, 30], y
y = rx.resize(np.arange(5), (3,), mode="nearest")
assert y.tolist() == [0, 2, 4], y
cfg = rx.show_config(print_=False)
assert cfg["compiler"] != "unknown", "the wheel has no _build_config.py"
print(f"resamplex {rx.__version__}: known answers ok; openmp={cfg['openmp']}, "
      f"threads={cfg['threads']}, compile args {' '.join(cfg['compile_args'])}")
if not cfg["openmp"]:
    sys.exit("error: the wheel was built without OpenMP")
np.save("ramp.npy", np.arange(4.0))
EOF
"$TMP/venv/bin/resamplex" resize ramp.npy -o "$TMP/out" --size 8
"$TMP/venv/bin/python" -c '
import numpy as np
y = np.load("out/ramp.npy")
assert y.tolist() == [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3], y
print("resamplex resize: ok")'

if [[ -n "${RESAMPLEX_WHEEL_OUT:-}" ]]; then
    mkdir -p "$RESAMPLEX_WHEEL_OUT"
    cp "$SDIST" "$WHEEL" "$RESAMPLEX_WHEEL_OUT/"
    echo "copied to $RESAMPLEX_WHEEL_OUT"
fi
step "wheel and sdist: ok"
