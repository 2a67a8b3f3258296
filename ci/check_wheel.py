"""Smoke test of an installed resamplex wheel, run from outside the source tree.

Used by ci/build_wheel.sh (on the auditwheel-repaired wheel, in a fresh virtual environment with
no compiler on PATH) and by cibuildwheel's test-command (pyproject.toml). It checks:

- resamplex imports from the environment given with ``--venv`` (not from a source tree);
- tiny known answers, worked out by hand (so a wrong kernel cannot pass);
- the build configuration is in the wheel (``_build_config.py``) and OpenMP is on;
- on Linux, the OpenMP runtime that the kernels use is the copy vendored into the wheel
  (``resamplex.libs/libgomp-*.so*``, put there by ``auditwheel repair``), not the system's:
  every libgomp mapped into the process after a parallel resize lies in ``resamplex.libs``.

Usage: ``python ci/check_wheel.py [--venv DIR] [--no-vendored-openmp]``. Exit status 0 when every
check passes; the first failure is printed and exits 1.
"""

from __future__ import annotations

import argparse
import os
import sys


def _fail(message: str) -> None:
    sys.exit(f"error: {message}")


def _mapped_libraries(fragment: str) -> set[str]:
    """Paths of the shared objects mapped into this process whose name contains ``fragment``."""
    paths = set()
    with open("/proc/self/maps", encoding="utf-8") as fh:
        for line in fh:
            parts = line.split(None, 5)
            if len(parts) == 6 and fragment in os.path.basename(parts[5].strip()):
                paths.add(parts[5].strip())
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", help="the environment resamplex must be imported from")
    parser.add_argument("--no-vendored-openmp", action="store_true",
                        help="skip the check that libgomp comes from the wheel (an unrepaired "
                        "linux_x86_64 wheel)")
    args = parser.parse_args()

    import numpy as np

    import resamplex as rx

    where = os.path.realpath(rx.__file__)
    if args.venv and not where.startswith(os.path.realpath(args.venv) + os.sep):
        _fail(f"resamplex imports from {rx.__file__}, not from {args.venv}")

    # Known answers (half_pixel: u = (o + 0.5) * n_in / n_out - 0.5).
    y = rx.resize(np.array([[0.0, 1.0], [2.0, 3.0]]), (3, 3))
    if not np.array_equal(y, [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]]):
        _fail(f"2x2 -> 3x3 linear gave {y.tolist()}")
    y = rx.resize(np.array([0, 10, 20, 30], dtype=np.uint8), (8,))
    if y.tolist() != [0, 2, 8, 12, 18, 22, 28, 30]:
        _fail(f"uint8 4 -> 8 linear gave {y.tolist()}")
    y = rx.resize(np.arange(5), (3,), mode="nearest")
    if y.tolist() != [0, 2, 4]:
        _fail(f"5 -> 3 nearest gave {y.tolist()}")
    # A parallel call big enough to start the OpenMP team (and load its runtime): a ramp
    # stays a ramp under linear resampling, so the answer is known without resamplex.
    ramp = np.broadcast_to(np.arange(512, dtype=np.float64), (512, 512))
    y = rx.resize(ramp, (512, 1024), threads=2)
    want = np.clip((np.arange(1024) + 0.5) / 2 - 0.5, 0, 511)
    if not np.allclose(y, want[None, :], rtol=0, atol=1e-12):
        _fail("512x512 ramp -> 512x1024 linear is not a ramp")

    cfg = rx.show_config(print_=False)
    if cfg["compiler"] == "unknown":
        _fail("the wheel has no _build_config.py")
    if not cfg["openmp"]:
        _fail("the wheel was built without OpenMP")
    line = (f"resamplex {rx.__version__} from {os.path.dirname(where)}: known answers ok; "
            f"openmp={cfg['openmp']}, threads={cfg['threads']}")

    if sys.platform.startswith("linux") and not args.no_vendored_openmp:
        libs = os.path.join(os.path.dirname(os.path.dirname(where)), "resamplex.libs")
        vendored = sorted(os.listdir(libs)) if os.path.isdir(libs) else []
        if not any(name.startswith("libgomp") for name in vendored):
            _fail(f"no libgomp vendored in {libs} (found {vendored}): was the wheel repaired "
                  "with auditwheel?")
        mapped = _mapped_libraries("libgomp")
        if not mapped:
            _fail("no libgomp is loaded after a parallel resize")
        foreign = [p for p in mapped if os.path.dirname(os.path.realpath(p)) !=
                   os.path.realpath(libs)]
        if foreign:
            _fail(f"the kernels use a libgomp from outside the wheel: {foreign}")
        line += f"; OpenMP runtime from the wheel: {', '.join(map(os.path.basename, mapped))}"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
