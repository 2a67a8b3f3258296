"""Why ``import resamplex`` failed when its compiled kernels are missing, in words.

The kernels are Cython extension modules in ``resamplex/_engine/`` (the runner and the native
table builders) and ``resamplex/_engine/kernels/`` (one per pass kind). A copy of the package
without them is either the source tree (a fresh clone, or one built for another Python), most
often met by running Python from the repository root, where ``python -m ...``, ``python -c``
and ``python -m doctest`` put the current directory first on ``sys.path`` and the source folder
hides an installed resamplex, or an installation that lost them. Python then says only
``cannot import name '_taps' from 'resamplex._engine'``; :func:`missing_kernels_error` says
what is happening and what to do (as NumPy and scikit-learn do for their source trees).

This module imports nothing compiled, so it works exactly where the kernels are missing.
"""

from __future__ import annotations

import importlib.machinery
import re
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_ENGINE = _PACKAGE / "_engine"
#: The folders of the compiled modules.
_FOLDERS = (_ENGINE, _ENGINE / "kernels")


#: The per-instruction-set-level copies of the kernel modules (``_taps_avx2.pyx``: setup.py
#: LEVELS) are optional: a build may leave a level out, and the executor runs the best level
#: that is there.
_LEVEL_COPY = re.compile(r".+_(avx2|avx512)$")


def missing_kernels() -> list[str]:
    """Names of the engine's Cython modules (``*.pyx``, ``*.pyx.tp`` in ``_engine/`` and
    ``_engine/kernels/``, named from ``_engine``) that have no compiled module for this Python
    beside them; empty when every one is built."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    missing = []
    for folder in _FOLDERS:
        # Tempita templates (``_taps.pyx.tp``) render to a .pyx only at build time.
        stems = {p.name.split(".", 1)[0]
                 for p in (*folder.glob("*.pyx"), *folder.glob("*.pyx.tp"))}
        prefix = "" if folder == _ENGINE else folder.name + "/"
        for stem in sorted(s for s in stems if not _LEVEL_COPY.fullmatch(s)):
            if not any((folder / (stem + suffix)).is_file() for suffix in suffixes):
                missing.append(prefix + stem)
    return missing


def is_source_tree() -> bool:
    """Whether the package lies in its repository (``setup.py`` and ``pyproject.toml`` beside it)."""
    root = _PACKAGE.parent
    return (root / "setup.py").is_file() and (root / "pyproject.toml").is_file()


def missing_kernels_error(missing: list[str]) -> ImportError:
    """The ImportError to raise instead of Python's when ``missing`` kernels are not built."""
    names = ", ".join(missing)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if is_source_tree():
        message = (
            f"resamplex is imported from its source tree at {_PACKAGE}, where its compiled "
            f"kernels are not built for this Python (no {suffix} for {names} in _engine/). "
            "Running Python from the repository root does this: `python -m`, `python -c` and "
            "`python -m doctest` put the current directory first on sys.path, ahead of an "
            "installed resamplex. Run from another directory, or build the kernels here: "
            "`pip install .` (also leaves them in the source tree), "
            "`pip install --no-build-isolation -e .` (editable) or "
            "`python setup.py build_ext --inplace`."
        )
    else:
        message = (
            f"resamplex at {_PACKAGE} has no compiled kernels for this Python (no {suffix} "
            f"for {names} in _engine/): the installation is incomplete or was made for "
            "another Python. Reinstall it with this Python: "
            "`python -m pip install --force-reinstall resamplex`."
        )
    return ImportError(message, name="resamplex", path=str(_PACKAGE))
