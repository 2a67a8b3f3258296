"""What a user reads before using resamplex: the README's dtype table says what the code
computes in, the README renders where it is published (no relative pictures), and the package
metadata names a home page and an author (``pip show resamplex``)."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import pytest

from resamplex import _dtypes

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
pytestmark = pytest.mark.skipif(not README.exists(), reason="no README.md beside tests/")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def _dtype_rows(path: Path) -> dict[str, str]:
    """dtype name -> "computed in" cell, from the Markdown table whose last column is that."""
    rows = {}
    table = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("| dtype |") and line.rstrip().endswith("computed in |"):
            table = True
            continue
        if not table:
            continue
        if not line.startswith("|"):
            table = False
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        names = re.sub(r"\(.*?\)", "", cells[0]).replace("`", "")
        for name in (n.strip() for n in names.split(",")):
            rows[name] = cells[-1]
    return rows


@pytest.mark.parametrize("page", ["README.md", "docs/core.md"])
def test_dtype_table_says_what_the_code_computes_in(page):
    rows = _dtype_rows(ROOT / page)
    for name in _dtypes.WEIGHTED_DTYPES:
        assert name in rows, f"{page}: no row for {name}"
        compute = _dtypes._WEIGHTED[name].compute.name
        assert rows[name].startswith(compute), (page, name, rows[name], compute)


def test_readme_has_no_relative_picture():
    """PyPI shows the README without the repository's files: a relative picture is broken."""
    text = README.read_text(encoding="utf-8")
    pictures = re.findall(r"<img[^>]*\ssrc=\"([^\"]+)\"", text)
    pictures += re.findall(r"!\[[^\]]*\]\(([^)\s]+)", text)
    assert [p for p in pictures if "://" not in p] == []


def _project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]


def test_pyproject_names_a_home_page_and_authors():
    project = _project()
    assert project["authors"] and all(a.get("name") for a in project["authors"])
    urls = project["urls"]
    home = urls["Homepage"]
    assert home.startswith("https://")
    # one address to change when the repository moves: every URL starts with the home page
    assert all(u.startswith(home) for u in urls.values()), urls


def test_installed_metadata_has_them_too():
    try:
        meta = importlib.metadata.metadata("resamplex")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("resamplex is not installed (an in-place build has no metadata)")
    project = _project()
    assert meta["Author"] == project["authors"][0]["name"]
    assert f"Homepage, {project['urls']['Homepage']}" in (meta.get_all("Project-URL") or [])


def test_every_package_folder_is_installed():
    # pyproject lists the packages by name: a new subpackage left out of the list imports from
    # the source tree and is missing from every installed copy (CI failed that way once)
    with open(ROOT / "pyproject.toml", "rb") as fh:
        listed = set(tomllib.load(fh)["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "resamplex").rglob("__init__.py")
    }
    assert folders == listed
