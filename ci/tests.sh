#!/usr/bin/env bash
# The test run for a developer whose environment is already set up: resamplex built in place
# (`python setup.py build_ext --inplace`) and the test extras installed (`pip install
# ".[test]"` or the packages it lists). `python -m pytest` puts the repository root first on
# sys.path, so this tests the in-place build. Extra arguments go to pytest, e.g.
# `ci/tests.sh -x -k nearest`. For the fresh-machine run that CI does, see .ci/run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python -c 'import resamplex as rx; print("resamplex", rx.__version__, "from", rx.__file__)'
set +e
python -m pytest tests -q "$@"
status=$?
set -e
if [[ $status -eq 5 ]]; then
    echo "error: pytest collected no tests" >&2
    exit 1
elif [[ $status -ne 0 ]]; then
    exit "$status"
fi
python -m doctest -o NORMALIZE_WHITESPACE README.md
echo "README examples: ok"
