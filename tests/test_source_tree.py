"""Importing a copy of resamplex whose compiled kernels are missing says why, and what to do.

The common case is Python run from the repository root of a fresh clone (``python -m resamplex
info``, ``python -m doctest README.md``): the current directory comes first on ``sys.path``, and
the source folder, without compiled kernels, hides an installed resamplex. Each test copies the
package's Python files (no compiled modules) to a temporary folder and imports it from there in
a subprocess.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import resamplex
from resamplex import _kernels

PACKAGE = Path(resamplex.__file__).resolve().parent
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES) + (".pyd", ".so")


def _copy_without_kernels(dest: Path, *, source_tree: bool) -> Path:
    ignore = shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__")
    shutil.copytree(PACKAGE, dest / "resamplex", ignore=ignore)
    assert list((dest / "resamplex" / "_engine").glob("*.pyx")), "no Cython sources copied"
    if source_tree:  # what makes a folder a source tree (their content is not read)
        (dest / "setup.py").write_text("# the repository's setup.py\n")
        (dest / "pyproject.toml").write_text("# the repository's pyproject.toml\n")
    return dest


def _copy_compiled(root: Path, *folders: str) -> None:
    """This build's compiled modules of the package's ``folders`` into the copy at ``root``."""
    for folder in folders:
        for compiled in PACKAGE.joinpath(folder).iterdir():
            if compiled.name.endswith(SUFFIXES):
                shutil.copy2(compiled, root / "resamplex" / folder / compiled.name)


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_kernels_of_this_copy_are_all_built():
    assert _kernels.missing_kernels() == []


def test_import_from_a_source_tree_without_kernels_says_what_to_do(tmp_path):
    root = _copy_without_kernels(tmp_path, source_tree=True)
    result = _run(root, "-c", "import resamplex")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: resamplex is imported from its source tree at "
                           f"{root / 'resamplex'}")
    assert "_taps" in last  # names what is missing
    for advice in ("Run from another directory", "pip install --no-build-isolation -e .",
                   "python setup.py build_ext --inplace"):
        assert advice in last
    assert "cannot import name" not in result.stderr
    assert "During handling" not in result.stderr  # one exception, not a chain


def test_python_m_resamplex_in_a_source_tree_without_kernels(tmp_path):
    root = _copy_without_kernels(tmp_path, source_tree=True)
    result = _run(root, "-m", "resamplex", "info")
    assert result.returncode == 1
    assert "resamplex is imported from its source tree" in result.stderr
    assert "Run from another directory" in result.stderr
    assert result.stdout == ""


def test_an_installed_copy_without_kernels_asks_for_a_reinstall(tmp_path):
    root = _copy_without_kernels(tmp_path, source_tree=False)
    result = _run(root, "-c", "import resamplex")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: resamplex at {root / 'resamplex'} has no compiled "
                           "kernels for this Python")
    assert "--force-reinstall" in last and "source tree" not in last


def test_a_copy_without_the_kernels_folder_says_what_to_do(tmp_path):
    """The runner built (``_engine/_exec``) but not one kernel module: the executor finds no
    level it can run and says so as an ImportError, which the package turns into advice
    (it read past the end of the empty list of levels before: a crash)."""
    root = _copy_without_kernels(tmp_path, source_tree=True)
    _copy_compiled(root, "_engine")
    result = _run(root, "-c", "import resamplex")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: resamplex is imported from its source tree")
    assert "kernels/_taps" in last and "_tablegen" not in last  # names only what is missing


def test_other_import_errors_are_not_hidden(tmp_path):
    """With its kernels in place, a copy whose import fails for another reason says that."""
    root = _copy_without_kernels(tmp_path, source_tree=True)
    _copy_compiled(root, "_engine", "_engine/kernels")
    (root / "resamplex" / "_errors.py").write_text("import no_such_module_for_resamplex\n")
    result = _run(root, "-c", "import resamplex")
    assert result.returncode == 1
    assert "No module named 'no_such_module_for_resamplex'" in result.stderr
    assert "source tree" not in result.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_generated_files_stay_out_of_git():
    """setup.py copies the compiled kernels into the source tree: they must stay ignored."""
    root = PACKAGE.parent
    if not (root / ".gitignore").is_file():
        pytest.skip("not a git checkout")
    names = [f"resamplex/_engine/kernels/_taps{importlib.machinery.EXTENSION_SUFFIXES[0]}",
             "resamplex/_build_config.py"]
    result = subprocess.run(["git", "check-ignore", *names], cwd=root, capture_output=True,
                            text=True)
    if result.returncode == 128:
        pytest.skip("not a git checkout")
    assert result.stdout.split() == names
