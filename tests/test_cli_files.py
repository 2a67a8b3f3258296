"""``resamplex resize`` and its files: inputs are never destroyed, and a missing optional
reader is reported as the missing package (the ``io`` extra), never as a bad file."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

from resamplex import _io
from resamplex.cli import main

IO_LINE = 'pip install "resamplex[io]"'


def _resize_args(inputs, outdir, *extra):
    return ["resize", *map(str, inputs), "-o", str(outdir), *map(str, extra)]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# ------------------------------------------------------------------------------ inputs are kept

@pytest.mark.parametrize("force", [False, True])
def test_output_folder_equal_to_the_input_folder_is_refused(tmp_path, capsys, force):
    np.save(tmp_path / "a.npy", np.arange(4.0))
    np.save(tmp_path / "b.npy", np.arange(6.0))
    before = _snapshot(tmp_path)
    argv = _resize_args([tmp_path / "a.npy", tmp_path / "b.npy"], tmp_path, "--size", 8)
    assert main(argv + (["--force"] if force else [])) == 1
    assert _snapshot(tmp_path) == before  # nothing written, nothing replaced
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "an input is never overwritten" in err and str(tmp_path / "a.npy") in err


def test_same_folder_through_another_path_is_refused(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    np.save(data / "a.npy", np.arange(4.0))
    (tmp_path / "alias").symlink_to(data, target_is_directory=True)
    before = _snapshot(data)
    # -o names the folder through a symbolic link, and through "..".
    for outdir in (tmp_path / "alias", data / ".." / "data"):
        assert main(_resize_args([data / "a.npy"], outdir, "--size", 8, "--force")) == 1
        assert "an input is never overwritten" in capsys.readouterr().err
    assert _snapshot(data) == before


def test_output_that_is_a_hard_link_to_an_input_is_refused(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    np.save(tmp_path / "in" / "a.npy", np.arange(4.0))
    np.save(tmp_path / "in" / "b.npy", np.arange(3.0))
    # out/a.npy, where the result for in/a.npy goes, is another name of the input in/b.npy.
    os.link(tmp_path / "in" / "b.npy", tmp_path / "out" / "a.npy")
    before = _snapshot(tmp_path / "in")
    argv = _resize_args([tmp_path / "in" / "a.npy", tmp_path / "in" / "b.npy"],
                        tmp_path / "out", "--size", 8, "--force")
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"the input {str(tmp_path / 'in' / 'b.npy')!r}" in err
    assert _snapshot(tmp_path / "in") == before
    assert os.path.samefile(tmp_path / "out" / "a.npy", tmp_path / "in" / "b.npy")
    assert not (tmp_path / "out" / "b.npy").exists()  # refused before any work


def test_force_still_replaces_an_output_that_is_not_an_input(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(4.0))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.npy").write_bytes(b"old result")
    assert main(_resize_args([tmp_path / "a.npy"], tmp_path / "out", "--size", 8,
                             "--force")) == 0
    assert np.load(tmp_path / "out" / "a.npy").shape == (8,)


# ------------------------------------------------------------------------------ missing readers

def _hide(monkeypatch, *modules):
    """Make ``modules`` fail to import, as if they were not installed."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def _write_images(folder: Path) -> list[Path]:
    """A valid PNG, JPEG and TIFF (written before the readers are hidden)."""
    iio = pytest.importorskip("imageio.v3")
    tifffile = pytest.importorskip("tifffile")
    img = np.full((6, 8, 3), 100, dtype=np.uint8)
    paths = [folder / "p.png", folder / "j.jpg", folder / "t.tif"]
    iio.imwrite(paths[0], img)
    iio.imwrite(paths[1], img)
    tifffile.imwrite(paths[2], img)
    return paths


@pytest.mark.parametrize("hidden, affected, packages", [
    (("imageio", "imageio.v3"), ("p.png", "j.jpg"), "imageio"),
    (("PIL",), ("p.png", "j.jpg"), "Pillow"),
    (("imageio", "imageio.v3", "PIL"), ("p.png", "j.jpg"), "imageio and Pillow"),
    (("tifffile",), ("t.tif",), "tifffile"),
])
def test_a_missing_reader_is_reported_as_the_missing_package(tmp_path, capsys, monkeypatch,
                                                              hidden, affected, packages):
    paths = _write_images(tmp_path)
    _hide(monkeypatch, *hidden)
    status = main(_resize_args(paths, tmp_path / "out", "--scale", 0.5))
    assert status == 1
    err = capsys.readouterr().err.splitlines()
    for name in ("p.png", "j.jpg", "t.tif"):
        lines = [line for line in err if f"{tmp_path / name}:" in line]
        if name in affected:
            assert len(lines) == 1, err
            ext = Path(name).suffix
            assert f"{ext} files need {packages}, which" in lines[0]
            assert lines[0].endswith(IO_LINE)
            assert "not a readable" not in lines[0]
        else:
            assert lines == [], err
            assert (tmp_path / "out" / name).exists()


@pytest.mark.parametrize("name, hidden", [("x.png", ("imageio.v3",)), ("x.jpeg", ("PIL",)),
                                          ("x.tiff", ("tifffile",))])
def test_a_missing_writer_is_reported_as_the_missing_package(tmp_path, monkeypatch, name,
                                                             hidden):
    _hide(monkeypatch, *hidden)
    with pytest.raises(_io.MissingDependencyError, match=r"need .*resamplex\[io\]"):
        _io.write_atomic(tmp_path / name, np.zeros((4, 4), dtype=np.uint8))
    assert os.listdir(tmp_path) == []  # no temporary file left behind


def test_npy_files_need_no_optional_package(tmp_path, monkeypatch):
    _hide(monkeypatch, "imageio", "imageio.v3", "PIL", "tifffile", "tqdm")
    assert _io.missing_packages("npy") == []
    np.save(tmp_path / "a.npy", np.arange(4.0))
    assert main(_resize_args([tmp_path / "a.npy"], tmp_path / "o", "--size", 8)) == 0


def test_no_progress_bar_without_tqdm_says_why(monkeypatch, capsys):
    from resamplex import cli

    _hide(monkeypatch, "tqdm")
    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: True, raising=False)
    assert cli._progress(5) is None
    err = capsys.readouterr().err
    assert "tqdm is not installed" in err and IO_LINE in err
