#!/usr/bin/env bash
# resamplex's kernels under AddressSanitizer + UndefinedBehaviorSanitizer (RELIABILITY.md).
#
# Copies the repository (the files git tracks or would track, as .ci/run does) to a temporary
# directory, builds the extensions there in place with RESAMPLEX_SANITIZE=1 (setup.py adds
# -fsanitize=address,undefined -fno-omit-frame-pointer -g; this script adds
# -fsanitize=float-cast-overflow, which -fsanitize=undefined leaves out), and runs the tests
# against that build with libasan (and libstdc++, so that C++ exceptions thrown inside torch
# reach ASan's interceptor) preloaded. The normal in-place build is never touched.
#
# First it checks that the sanitizers fire at all: a deliberate out-of-bounds read through the
# gather kernel and a deliberate negative shift through the fixed-point kernel (both called with
# arguments the facades would never pass) must each be reported. Then any ASan or UBSan report
# in the test run fails it: both halt on the first error, and their logs must stay empty.
#
# Usage: ci/sanitize.sh [--serial] [--only PATH]... [extra pytest arguments]
#   (default)   every test file except the > 2**31-element tests (-m "not slow": they need
#               ~9 GiB before ASan's shadow memory), quick fuzz profile; the kernels at -O1
#               (setup.py). ~10 min on 2 cores (build ~5 min, tests ~5 min on two workers).
#   --serial    build without OpenMP (RESAMPLEX_NO_OPENMP=1): the serial fallback.
#   --only P    run only test path P (repeatable), e.g. --only tests/test_fuzz.py.
#   --sdist F   build and test the sdist F (its sources and tests) instead of a copy of the
#               tree: a file the sdist lacks fails here (.ci/run; ci/build_wheel.sh makes it).
# Environment: PYTHON (default python3), JOBS (compile jobs, default 2), RESAMPLEX_FUZZ (quick
# or long, passed through), RESAMPLEX_SANITIZE_KEEP=1 keeps the temporary copy.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
JOBS="${JOBS:-2}"
SERIAL=0
SDIST=""
ONLY=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --serial) SERIAL=1; shift ;;
        --sdist) SDIST="$(realpath "$2")"; shift 2 ;;
        --only) ONLY+=("$2"); shift 2 ;;
        *) break ;;
    esac
done

TMP="$(mktemp -d "${TMPDIR:-/tmp}/resamplex-sanitize.XXXXXX")"
if [[ "${RESAMPLEX_SANITIZE_KEEP:-0}" == "1" ]]; then
    trap 'echo "kept $TMP"' EXIT
else
    trap 'rm -rf "$TMP"' EXIT
fi
step() { printf '\n==> %s\n' "$*"; }
t_start=$SECONDS

SRC="$TMP/src"
mkdir -p "$SRC"
if [[ -n "$SDIST" ]]; then
    step "the sdist $(basename "$SDIST") in $SRC"
    tar -xzf "$SDIST" -C "$SRC" --strip-components=1
elif git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    step "copy of $ROOT in $SRC"
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) \
        | (cd "$ROOT" && tar --null -T - --ignore-failed-read -cf - 2>/dev/null) \
        | tar -xf - -C "$SRC"
else
    step "copy of $ROOT in $SRC"
    tar -C "$ROOT" --exclude=./build --exclude=./dist --exclude='*.so' --exclude='*.c' \
        --exclude='*.egg-info' --exclude=.git -cf - . | tar -xf - -C "$SRC"
fi
cd "$SRC"
rm -rf build resamplex/_engine/*.so resamplex/_engine/*.c

step "build: RESAMPLEX_SANITIZE=1$([[ $SERIAL == 1 ]] && echo ' RESAMPLEX_NO_OPENMP=1')"
export RESAMPLEX_SANITIZE=1
# The kernels at the baseline and AVX2 levels (the one this CI machine runs by default, unless
# it has AVX-512): the AVX-512 copies are the same source with other -m flags, and leaving them
# out keeps CI within its time (RESAMPLEX_CPU_LEVELS overrides).
export RESAMPLEX_CPU_LEVELS="${RESAMPLEX_CPU_LEVELS:-baseline,avx2}"
if [[ $SERIAL == 1 ]]; then export RESAMPLEX_NO_OPENMP=1; fi
export CFLAGS="${CFLAGS:-} -fsanitize=float-cast-overflow"
export LDFLAGS="${LDFLAGS:-} -fsanitize=float-cast-overflow"
"$PYTHON" setup.py -q build_ext --inplace -j "$JOBS" > "$TMP/build.log" 2>&1 \
    || { tail -n 40 "$TMP/build.log"; exit 1; }
"$PYTHON" - <<'EOF'
import os  # read the generated file: importing resamplex needs libasan preloaded
ns = {}
exec(open("resamplex/_build_config.py").read(), ns)
CONFIG = ns["CONFIG"]
assert CONFIG["sanitize"] and "-fsanitize=address,undefined" in CONFIG["compile_args"], CONFIG
assert CONFIG["openmp"] == (os.environ.get("RESAMPLEX_NO_OPENMP") != "1"), CONFIG
print("build config:", CONFIG["compile_args"], "openmp:", CONFIG["openmp"])
EOF
t_build=$((SECONDS - t_start))
echo "built in ${t_build} s"

LIBASAN="$(gcc -print-file-name=libasan.so)"
LIBSTDCXX="$(gcc -print-file-name=libstdc++.so)"
if [[ ! -e "$LIBASAN" ]]; then
    echo "error: gcc has no libasan.so ($LIBASAN)" >&2
    exit 1
fi
PRELOAD="$LIBASAN"
if [[ -e "$LIBSTDCXX" ]]; then PRELOAD="$LIBASAN $LIBSTDCXX"; fi
LOGS="$TMP/sanitizer-logs"
mkdir -p "$LOGS"
# detect_leaks=0: CPython and NumPy keep memory until exit by design; leaks are measured by
# tests/test_concurrency.py instead (resident memory over 10,000 calls, without ASan).
# allocator_may_return_null=1: an allocation the machine cannot hold returns NULL (NumPy's
# MemoryError), as without the sanitizer under a memory limit; some tests make an original
# library (OpenCV) ask for tens of GiB, which ASan otherwise turns into an abort.
asan_options() {
    echo "detect_leaks=0:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:allocator_may_return_null=1:log_path=$1"
}
ubsan_options() { echo "print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$1"; }

step "self-test: the sanitizers report a deliberate kernel error"
canary() {  # $1 = name, $2 = expected report; python code on stdin
    local dir="$TMP/canary-$1"
    mkdir -p "$dir"
    set +e
    (LD_PRELOAD="$PRELOAD" ASAN_OPTIONS="$(asan_options "$dir/asan")" \
        UBSAN_OPTIONS="$(ubsan_options "$dir/ubsan")" "$PYTHON" - > "$dir/out" 2>&1) 2>/dev/null
    local rc=$?
    set -e
    if [[ $rc -eq 0 ]] || ! cat "$dir"/* 2>/dev/null | grep -q "$2"; then
        echo "error: the $1 canary was not reported (exit $rc); the sanitizers are not active" >&2
        cat "$dir"/* >&2 || true
        exit 1
    fi
    echo "$1: reported ($2)"
}
canary heap-overflow "heap-buffer-overflow" <<'EOF'
import numpy as np
from resamplex._engine._exec import Program
src = np.zeros(1024, np.float32)            # 4 KiB, outside NumPy's small-buffer cache
dst = np.zeros(1, np.float32)
# a gather program whose one output element reads byte offset 4096: one past the end of src
Program([dict(op=0, itemsize=4, shape=[1], sstr=[4], dstr=[4], off=[4096], idx2=[0, 1],
              units=1)], [], 1.0).run(src, dst, 1)
EOF
canary negative-shift "shift exponent" <<'EOF'
import numpy as np
from resamplex._engine._exec import Program
src = np.zeros(4, np.uint8)
dst = np.zeros(4, np.uint8)
# shift=0: the rounding bias 1 << (shift - 1) is a negative shift (the planner passes >= 1)
Program([dict(op=3, shape=[4], sstr=[1], dstr=[1], axis=0, loop=0, ptr=[0, 1, 2, 3, 4],
              off=[0, 1, 2, 3], w=np.ones(4, np.int32), shift=0, buf_len=4, units=1)],
        [], 4.0).run(src, dst, 1)
EOF

TESTS=(tests)
if [[ ${#ONLY[@]} -gt 0 ]]; then TESTS=("${ONLY[@]}"); fi
export RESAMPLEX_FUZZ="${RESAMPLEX_FUZZ:-quick}"

step "pytest under ASan + UBSan: ${TESTS[*]} (-m 'not slow', fuzz profile $RESAMPLEX_FUZZ)"
t_tests=$SECONDS
set +e
LD_PRELOAD="$PRELOAD" ASAN_OPTIONS="$(asan_options "$LOGS/asan")" \
    UBSAN_OPTIONS="$(ubsan_options "$LOGS/ubsan")" \
    "$PYTHON" -m pytest "${TESTS[@]}" -m "not slow" -q -p no:cacheprovider "$@" 2>&1 \
    | tee "$TMP/pytest.log"
status=${PIPESTATUS[0]}
set -e
t_tests=$((SECONDS - t_tests))

reports=$(find "$LOGS" -type f -size +0 | wc -l)
if [[ $reports -ne 0 ]]; then
    echo "error: $reports sanitizer report(s):" >&2
    for f in "$LOGS"/*; do echo "---- $f" >&2; head -n 80 "$f" >&2; done
    exit 1
fi
if grep -q -E "ERROR: AddressSanitizer|runtime error:" "$TMP/pytest.log"; then
    echo "error: a sanitizer report in the test output" >&2
    exit 1
fi
case $status in
    0) ;;
    5) echo "error: pytest collected no tests" >&2; exit 1 ;;
    *) echo "error: pytest failed under the sanitizers (exit status $status)" >&2; exit "$status" ;;
esac
step "no sanitizer report (build ${t_build} s, tests ${t_tests} s, total $((SECONDS - t_start)) s)"
tail -n 1 "$TMP/pytest.log"
