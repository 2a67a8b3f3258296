"""The ``resamplex`` command line: ``main(argv)`` called in-process, exit status returned."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import resamplex as rx
from resamplex import _bench, _io
from resamplex.cli import main


def _files(folder: Path) -> list[str]:
    """Every name in ``folder``, hidden ones (temporary files) included."""
    return sorted(os.listdir(folder))


# ------------------------------------------------------------------------------ info, demo, bench

def test_version(capsys):
    assert main(["--version"]) == 0
    assert rx.__version__ in capsys.readouterr().out


def test_info(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"resamplex {rx.__version__}")
    assert "dtypes x modes" in out and "openmp" in out


def test_demo(tmp_path, capsys):
    pytest.importorskip("PIL")
    sheet = tmp_path / "sheet.png"
    assert main(["demo", "-o", str(sheet)]) == 0
    assert sheet.stat().st_size > 0
    assert f"wrote {sheet}" in capsys.readouterr().out
    assert _files(tmp_path) == ["sheet.png"]


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2


def test_bench_help(capsys):
    assert main(["bench", "--help"]) == 0
    assert "--quick" in capsys.readouterr().out


def test_bench_quick_on_a_tiny_workload(monkeypatch, capsys):
    def tiny(threads, quick):
        x = np.ones((4, 4), dtype=np.float32)
        return [_bench.Workload("tiny 4x4 x2 linear", [_bench.within_floor(1e9)], lambda: {
            "resamplex": lambda: rx.resize(x, (8, 8), threads=threads),
            "floor": lambda: np.ones((8, 8), np.float32).copy(),
        })]

    monkeypatch.setattr(_bench, "workloads", tiny)
    assert main(["bench", "--quick", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "tiny 4x4 x2 linear" in out and "x the memory floor" in out
    assert "1 target met, 0 missed" in out


# ------------------------------------------------------------------------------ resize

def _resize_args(inputs, outdir, *extra):
    return ["resize", *map(str, inputs), "-o", str(outdir), *map(str, extra)]


def test_resize_lanczos_and_pillow_filters(tmp_path):
    x = np.random.default_rng(3).random((9, 11)).astype(np.float32)
    np.save(tmp_path / "a.npy", x)
    for extra, kw in ((["--mode", "lanczos", "--lanczos-a", "2"], dict(mode="lanczos",
                                                                       lanczos_a=2)),
                      (["--mode", "hamming", "--antialias"], dict(mode="hamming",
                                                                  antialias=True)),
                      (["--mode", "box", "--antialias"], dict(mode="box", antialias=True))):
        out = tmp_path / kw["mode"]
        assert main(_resize_args([tmp_path / "a.npy"], out, "--size", 4, 5, *extra)) == 0
        np.testing.assert_array_equal(np.load(out / "a.npy"), rx.resize(x, (4, 5), **kw))


def test_resize_npy_matches_the_library(tmp_path, capsys):
    x = np.random.default_rng(0).random((5, 7, 3))
    np.save(tmp_path / "vol.npy", x)
    out = tmp_path / "out" / "nested"  # created, parents included
    assert main(_resize_args([tmp_path / "vol.npy"], out, "--size", 10, 14, 6,
                             "--mode", "cubic")) == 0
    got = np.load(out / "vol.npy")
    np.testing.assert_array_equal(got, rx.resize(x, (10, 14, 6), mode="cubic"))
    assert "wrote 1 of 1 file" in capsys.readouterr().out


def test_resize_npy_axes_scale_and_options(tmp_path):
    x = (np.arange(2 * 9 * 4, dtype=np.uint8) * 3).reshape(2, 9, 4)
    np.save(tmp_path / "a.npy", x)
    assert main(_resize_args([tmp_path / "a.npy"], tmp_path / "out", "--scale", 0.5,
                             "--axes", 1, 2, "--antialias", "--rounding",
                             "half_away_from_zero", "--coordinate-transform",
                             "pytorch_half_pixel", "--threads", 1)) == 0
    want = rx.resize(x, scale=(0.5, 0.5), axes=(1, 2), antialias=True,
                     rounding="half_away_from_zero",
                     coordinate_transform="pytorch_half_pixel")
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "a.npy"), want)


def test_resize_nearest_mode(tmp_path):
    x = np.arange(10)
    np.save(tmp_path / "r.npy", x)
    assert main(_resize_args([tmp_path / "r.npy"], tmp_path / "o", "--size", 3,
                             "--mode", "nearest", "--nearest-mode", "floor")) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "o" / "r.npy"),
                                  rx.resize(x, (3,), mode="nearest", nearest_mode="floor"))


def test_resize_png_round_trip(tmp_path):
    iio = pytest.importorskip("imageio.v3")
    rng = np.random.default_rng(1)
    rgb = rng.integers(0, 256, (12, 10, 3), dtype=np.uint8)
    gray16 = rng.integers(0, 65536, (12, 10), dtype=np.uint16)
    iio.imwrite(tmp_path / "rgb.png", rgb)
    iio.imwrite(tmp_path / "gray16.png", gray16)
    out = tmp_path / "out"
    # One --size value for both spatial axes; the channels are kept.
    assert main(_resize_args([tmp_path / "rgb.png", tmp_path / "gray16.png"], out,
                             "--size", 20)) == 0
    got = iio.imread(out / "rgb.png")
    np.testing.assert_array_equal(got, rx.resize(rgb, (20, 20), axes=(0, 1)))
    got16 = iio.imread(out / "gray16.png")
    assert got16.dtype == np.uint16
    np.testing.assert_array_equal(got16, rx.resize(gray16, (20, 20)))
    assert _files(out) == ["gray16.png", "rgb.png"]


def test_resize_jpeg(tmp_path):
    iio = pytest.importorskip("imageio.v3")
    img = np.full((16, 24, 3), 128, dtype=np.uint8)
    iio.imwrite(tmp_path / "p.jpg", img)
    assert main(_resize_args([tmp_path / "p.jpg"], tmp_path / "o", "--scale", 0.5)) == 0
    got = iio.imread(tmp_path / "o" / "p.jpg")  # lossy: the shape, and roughly the values
    assert got.shape == (8, 12, 3) and got.dtype == np.uint8
    assert np.abs(got.astype(int) - 128).max() <= 3


@pytest.mark.parametrize("dtype", ["float32", "uint16", "uint8"])
def test_resize_tiff_round_trip(tmp_path, dtype):
    tifffile = pytest.importorskip("tifffile")
    rng = np.random.default_rng(2)
    x = (rng.random((9, 11, 2)) * 1000).astype(dtype)
    tifffile.imwrite(tmp_path / "s.tif", x)
    assert main(_resize_args([tmp_path / "s.tif"], tmp_path / "o", "--size", 18, 5,
                             "--mode", "area")) == 0
    got = tifffile.imread(tmp_path / "o" / "s.tif")
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, rx.resize(x, (18, 5), axes=(0, 1), mode="area"))


def test_batch_with_bad_files_writes_the_others(tmp_path, capsys):
    good = [tmp_path / "a.npy", tmp_path / "b.npy"]
    for i, path in enumerate(good):
        np.save(path, np.full((4, 4), float(i)))
    (tmp_path / "corrupt.npy").write_bytes(b"this is not an npy file")
    np.save(tmp_path / "objects.npy", np.array([{}, None], dtype=object), allow_pickle=True)
    np.save(tmp_path / "too_small.npy", np.zeros((4,)))  # 2 sizes for a 1-d array
    (tmp_path / "notes.txt").write_text("hello")
    inputs = [good[0], tmp_path / "corrupt.npy", tmp_path / "objects.npy",
              tmp_path / "missing.npy", tmp_path / "too_small.npy", tmp_path / "notes.txt",
              good[1]]
    out = tmp_path / "out"
    assert main(_resize_args(inputs, out, "--size", 8, 8)) == 1
    assert _files(out) == ["a.npy", "b.npy"]
    np.testing.assert_array_equal(np.load(out / "b.npy"), np.ones((8, 8)))
    captured = capsys.readouterr()
    assert "wrote 2 of 7 files" in captured.out
    err = captured.err.splitlines()
    for name in ("corrupt.npy", "objects.npy", "missing.npy", "too_small.npy", "notes.txt"):
        lines = [line for line in err if f"{tmp_path / name}:" in line]
        assert len(lines) == 1, (name, err)  # one line per bad file
    assert err[-1] == "resamplex: error: resize: 5 of 7 files not written (see above)"
    assert "Traceback" not in captured.err


def test_corrupt_images_are_reported(tmp_path, capsys):
    pytest.importorskip("imageio.v3")
    pytest.importorskip("tifffile")
    (tmp_path / "bad.png").write_bytes(b"\x89PNG but not really")
    (tmp_path / "bad.tif").write_bytes(b"II*\x00garbage")
    np.save(tmp_path / "ok.npy", np.zeros((2, 2)))
    paths = [tmp_path / "bad.png", tmp_path / "bad.tif", tmp_path / "ok.npy"]
    assert main(_resize_args(paths, tmp_path / "o", "--size", 3)) == 1
    assert _files(tmp_path / "o") == ["ok.npy"]
    err = capsys.readouterr().err
    assert f"{tmp_path / 'bad.png'}: not a readable .png image" in err
    assert f"{tmp_path / 'bad.tif'}:" in err
    assert len(err.splitlines()) == 3


def test_never_overwrites_without_force(tmp_path, capsys, monkeypatch):
    np.save(tmp_path / "a.npy", np.zeros((2, 2)))
    np.save(tmp_path / "b.npy", np.ones((2, 2)))
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.npy").write_bytes(b"precious")
    read = []
    real_read = _io.read_array
    monkeypatch.setattr(_io, "read_array", lambda p: read.append(Path(p).name) or real_read(p))
    assert main(_resize_args([tmp_path / "a.npy", tmp_path / "b.npy"], out,
                             "--size", 4, 4)) == 1
    assert (out / "a.npy").read_bytes() == b"precious"
    assert read == ["b.npy"]  # the skipped file is not even read
    np.testing.assert_array_equal(np.load(out / "b.npy"), np.ones((4, 4)))
    err = capsys.readouterr().err
    assert f"{out / 'a.npy'} exists; not overwritten (use --force)" in err

    # --force replaces it
    assert main(_resize_args([tmp_path / "a.npy"], out, "--size", 4, 4, "--force")) == 0
    np.testing.assert_array_equal(np.load(out / "a.npy"), np.zeros((4, 4)))


def test_a_file_that_appears_during_the_run_is_not_replaced(tmp_path):
    target = tmp_path / "x.npy"
    target.write_bytes(b"appeared")
    with pytest.raises(FileExistsError):
        _io.write_atomic(target, np.zeros(2))
    assert target.read_bytes() == b"appeared"
    assert _files(tmp_path) == ["x.npy"]


def test_atomic_write_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    np.save(tmp_path / "a.npy", np.zeros((2, 2)))
    np.save(tmp_path / "b.npy", np.ones((2, 2)))
    out = tmp_path / "out"
    real_write = _io._write

    def failing_write(fh, array, ext):
        real_write(fh, array, ext)  # a partial file exists on disk at this point
        if fh.name.startswith(str(out / ".a.npy.")):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(_io, "_write", failing_write)
    assert main(_resize_args([tmp_path / "a.npy", tmp_path / "b.npy"], out,
                             "--size", 3, 3)) == 1
    assert _files(out) == ["b.npy"]  # a.npy neither partly written nor left as a temp file
    err = capsys.readouterr().err
    assert f"cannot write {out / 'a.npy'}: No space left on device" in err


def test_output_file_mode_follows_umask(tmp_path):
    _io.write_atomic(tmp_path / "m.npy", np.zeros(2))
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "m.npy").stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize("argv, message", [
    (["--size", "4", "--scale", "2"], "not allowed with argument"),
    ([], "one of the arguments --size --scale is required"),
    (["--size", "0"], "expected an integer >= 1"),
    (["--scale", "nan"], "expected a positive finite number"),
    (["--size", "4", "4", "4", "--axes", "0", "1"], "3 values for 2 axes"),
    (["--size", "4", "--axes", "0", "0"], "repeated axis"),
    (["--size", "4", "--mode", "nearest", "--antialias"], "--antialias applies"),
    (["--size", "4", "--mode", "bilinear"], "invalid choice"),
    (["--size", "4", "--threads", "0"], "--threads must be >= 1"),
    (["--size", "4", "--mode", "lanczos", "--lanczos-a", "0"], "--lanczos-a must be >= 1"),
    (["--size", "4", "--mode", "area", "--antialias"], "--antialias applies"),
])
def test_resize_usage_errors(tmp_path, capsys, argv, message):
    np.save(tmp_path / "a.npy", np.zeros((2, 2)))
    assert main(["resize", str(tmp_path / "a.npy"), "-o", str(tmp_path / "o"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()  # nothing done


def test_two_inputs_with_one_output_name_are_refused(tmp_path, capsys):
    for sub in ("x", "y"):
        (tmp_path / sub).mkdir()
        np.save(tmp_path / sub / "same.npy", np.zeros(2))
    argv = _resize_args([tmp_path / "x" / "same.npy", tmp_path / "y" / "same.npy"],
                        tmp_path / "o", "--size", 4)
    assert main(argv) == 2
    assert "would both be written to" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_output_must_be_a_directory(tmp_path, capsys):
    np.save(tmp_path / "a.npy", np.zeros(2))
    (tmp_path / "file").write_text("")
    assert main(_resize_args([tmp_path / "a.npy"], tmp_path / "file", "--size", 4)) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_progress_bar_only_for_batches_at_a_terminal(monkeypatch):
    pytest.importorskip("tqdm")
    from resamplex import cli

    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: False, raising=False)
    assert cli._progress(5) is None
    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: True, raising=False)
    assert cli._progress(1) is None
    bar = cli._progress(5)
    assert bar is not None
    bar.close()


def test_default_axes():
    assert _io.default_axes("a.png", 3) == (0, 1)
    assert _io.default_axes("a.tif", 2) == (0, 1)
    assert _io.default_axes("a.npy", 4) == (0, 1, 2, 3)
    with pytest.raises(_io.FileFormatError, match="unknown file extension '.gif'"):
        _io.default_axes("a.gif", 2)
