"""``resamplex resize --like``: a framework's resize on files, equal to the framework itself."""

from __future__ import annotations

import numpy as np
import pytest

from resamplex.cli import main


@pytest.fixture
def image(tmp_path):
    a = np.random.default_rng(0).integers(0, 256, (23, 31, 3), dtype=np.uint8)
    path = tmp_path / "img.npy"
    np.save(path, a)
    return a, path


def run(path, out, *extra):
    assert main(["resize", str(path), "-o", str(out), "--axes", "0", "1", *extra]) == 0
    return np.load(out / path.name)


def test_like_cv2(image, tmp_path):
    cv2 = pytest.importorskip("cv2")
    a, path = image
    before = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    try:
        got = run(path, tmp_path / "o1", "--size", "9", "40", "--mode", "cubic", "--like", "cv2")
        np.testing.assert_array_equal(got, cv2.resize(a, (40, 9), interpolation=cv2.INTER_CUBIC))
        got = run(path, tmp_path / "o2", "--scale", "0.5", "--mode", "area", "--like", "cv2")
        np.testing.assert_array_equal(
            got, cv2.resize(a, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    finally:
        cv2.ipp.setUseIPP(before)


def test_like_pil(image, tmp_path):
    Image = pytest.importorskip("PIL.Image")
    a, path = image
    got = run(path, tmp_path / "o", "--size", "9", "40", "--mode", "cubic", "--like", "pil")
    np.testing.assert_array_equal(got, np.asarray(Image.fromarray(a).resize((40, 9),
                                                                            Image.BICUBIC)))


def test_like_onnxruntime_and_torch(image, tmp_path):
    a, path = image
    from resamplex.compat import onnx as ronnx, torch as rtorch

    got = run(path, tmp_path / "o1", "--size", "9", "40", "--like", "onnxruntime")
    np.testing.assert_array_equal(got, ronnx.resize(a, sizes=[9, 40], axes=[0, 1],
                                                    mode="linear"))
    got = run(path, tmp_path / "o2", "--size", "9", "40", "--like", "torch")
    ref = rtorch.interpolate(np.moveaxis(a, 2, 0)[None], size=(9, 40), mode="bilinear")[0]
    np.testing.assert_array_equal(got, np.moveaxis(ref, 0, 2))


def test_like_refuses_what_the_framework_cannot_do(image, tmp_path, capsys):
    _, path = image
    code = main(["resize", str(path), "-o", str(tmp_path / "o"), "--size", "4", "5", "6",
                 "--like", "cv2"])
    assert code != 0
    assert "--like cv2" in capsys.readouterr().err


def test_like_scipy(image, tmp_path):
    ndi = pytest.importorskip("scipy.ndimage")
    a, path = image
    got = run(path, tmp_path / "o1", "--size", "9", "40", "--mode", "linear", "--like", "scipy")
    np.testing.assert_array_equal(got, ndi.zoom(a, (9 / 23, 40 / 31, 1), order=1,
                                                 mode="nearest", grid_mode=True))
    got = run(path, tmp_path / "o2", "--scale", "1.5", "1.5", "--mode", "cubic", "--like",
              "scipy")
    np.testing.assert_array_equal(got, ndi.zoom(a, (1.5, 1.5, 1), order=3, mode="nearest",
                                                 grid_mode=True))


def test_like_skimage(image, tmp_path, capsys):
    transform = pytest.importorskip("skimage.transform")
    a, path = image
    got = run(path, tmp_path / "o1", "--size", "9", "40", "--mode", "linear", "--like",
              "skimage", "--antialias")
    want = transform.resize(a, (9, 40, 3), order=1, anti_aliasing=True, preserve_range=True)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    got = run(path, tmp_path / "o2", "--scale", "1.5", "0.5", "--mode", "cubic", "--like",
              "skimage")
    want = transform.resize(a, (34, 16, 3), order=3, anti_aliasing=False, preserve_range=True)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    code = main(["resize", str(path), "-o", str(tmp_path / "o3"), "--axes", "0", "1",
                 "--size", "9", "40", "--mode", "area", "--like", "skimage"])
    assert code != 0 and "--like skimage" in capsys.readouterr().err


def test_like_jax(image, tmp_path, capsys):
    jax = pytest.importorskip("jax")
    from resamplex.compat import jax as rjax

    a, path = image
    got = run(path, tmp_path / "o1", "--size", "9", "40", "--mode", "cubic", "--like", "jax",
              "--antialias")
    assert got.dtype == np.float32 and got.shape == (9, 40, 3)
    np.testing.assert_array_equal(got, rjax.resize(a, (9, 40, 3), "cubic", antialias=True))
    want = np.asarray(jax.image.resize(a, (9, 40, 3), "cubic", antialias=True))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)
    got = run(path, tmp_path / "o2", "--scale", "0.5", "--mode", "nearest", "--like", "jax")
    np.testing.assert_array_equal(got, np.asarray(jax.image.resize(a, (11, 15, 3), "nearest")))
    got = run(path, tmp_path / "o3", "--scale", "2", "--mode", "lanczos", "--lanczos-a", "5",
              "--like", "jax")
    np.testing.assert_allclose(got, np.asarray(jax.image.resize(a, (46, 62, 3), "lanczos5",
                                                                antialias=False)),
                               rtol=1e-5, atol=1e-3)
    assert main(["resize", str(path), "-o", str(tmp_path / "o4"), "--axes", "0", "1",
                 "--size", "9", "9", "--mode", "lanczos", "--lanczos-a", "4",
                 "--like", "jax"]) != 0
    assert "--lanczos-a 3 or 5" in capsys.readouterr().err
