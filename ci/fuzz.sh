#!/usr/bin/env bash
# Long fuzzing run, by hand (RELIABILITY.md): tests/test_fuzz.py with RESAMPLEX_FUZZ=long
# (25x the quick profile's examples, random instead of derandomized), against the in-place build
# (`python setup.py build_ext --inplace`), with a printed seed.
#
# Usage: ci/fuzz.sh [--seed N] [--sanitize] [--leaks] [extra pytest arguments]
#   --seed N     reuse a seed (a failure prints the one to pass here); default: random
#   --sanitize   the same long run under ASan + UBSan (through ci/sanitize.sh, ~10 min more)
#   --leaks      also the 10,000-call resident-memory tests of tests/test_concurrency.py
# A failing example is printed with a @reproduce_failure(...) blob; `--seed N` reruns the run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"
SEED=""
SANITIZE=0
LEAKS=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seed) SEED="$2"; shift 2 ;;
        --sanitize) SANITIZE=1; shift ;;
        --leaks) LEAKS=1; shift ;;
        *) break ;;
    esac
done
if [[ -z "$SEED" ]]; then
    SEED="$("$PYTHON" -c 'import random; print(random.randrange(2**32))')"
fi
echo "fuzz seed: $SEED   (rerun with: ci/fuzz.sh --seed $SEED)"
export RESAMPLEX_FUZZ=long

if [[ $SANITIZE == 1 ]]; then
    exec ci/sanitize.sh --only tests/test_fuzz.py --hypothesis-seed="$SEED" "$@"
fi

TESTS=(tests/test_fuzz.py)
if [[ $LEAKS == 1 ]]; then TESTS+=(tests/test_concurrency.py); fi
t0=$SECONDS
set +e
"$PYTHON" -m pytest "${TESTS[@]}" -q -p no:cacheprovider --hypothesis-seed="$SEED" \
    --hypothesis-show-statistics "$@"
status=$?
set -e
echo "fuzz: $((SECONDS - t0)) s, seed $SEED, exit status $status"
if [[ $status -ne 0 ]]; then
    echo "error: the long fuzz run failed; rerun with: ci/fuzz.sh --seed $SEED" >&2
fi
exit $status
