#!/usr/bin/env bash
# Static types: `mypy --strict` on the public API and on tests/typing_usage.py, a program that
# uses it the way a typed user's code does. The files and the few per-module relaxations are in
# pyproject.toml ([tool.mypy]); the compiled kernels are seen through their .pyi stubs, so no
# build is needed. Needs mypy (in the test extra: pip install ".[test]"). Extra arguments go to
# mypy, e.g. `ci/typecheck.sh --no-incremental`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python -m mypy --version
python -m mypy --strict "$@"
