"""The documentation pages: present, linked from the README, and their tables current.

(Their ``>>>`` examples run as doctests in .ci/run, against the installed package.)
"""

import re
from pathlib import Path

import pytest

from resamplex import ascend, dml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = ["core.md", "directml.md", "ascend.md", "pytorch.md", "onnx.md", "dask.md", "cli.md",
         "cv2.md", "pil.md", "scipy.md", "skimage.md", "engine-passes.md", "engine.md", "jax.md",
         "patch.md"]

pytestmark = pytest.mark.skipif(not (ROOT / "README.md").exists() or not DOCS.is_dir(),
                                reason="no README.md and docs/ beside tests/")


def _links(path):
    """Relative link targets in a Markdown file (Markdown and HTML syntax), anchors removed."""
    text = path.read_text(encoding="utf-8")
    found = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    found += re.findall(r'(?:src|href)="([^"#]+)"', text)
    return [t for t in found if "://" not in t]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_exists_and_the_readme_links_it(page):
    assert (DOCS / page).is_file()
    assert f"docs/{page}" in _links(ROOT / "README.md")


@pytest.mark.parametrize("source", ["README.md"] + [f"docs/{p}" for p in PAGES])
def test_relative_links_resolve(source):
    path = ROOT / source
    if not path.exists():
        pytest.skip(f"no {source}")
    for target in _links(path):
        assert (path.parent / target).exists(), f"{source} links to missing {target}"


def test_demo_picture_is_small():
    size = (DOCS / "demo.png").stat().st_size
    assert 0 < size < 300_000


def test_directml_page_has_the_current_support_table():
    assert dml.support_table_markdown() in (DOCS / "directml.md").read_text(encoding="utf-8")


def test_ascend_page_has_the_current_product_table():
    assert ascend.product_table_markdown() in (DOCS / "ascend.md").read_text(encoding="utf-8")


def test_why_picture_is_small():
    size = (DOCS / "why_resizes_differ.png").stat().st_size
    assert 0 < size < 300_000
