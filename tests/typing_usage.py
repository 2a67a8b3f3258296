"""How a typed program uses resamplex: checked by ``mypy --strict`` (ci/typecheck.sh), run by
``tests/test_typing.py``.

Each line below is a call a user writes; mypy checks it against the public annotations and
the ``.pyi`` stubs of the compiled modules. ``assert_type`` pins the types the
API promises (at run time it returns its argument).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import resamplex as rx
from resamplex import ascend, dml
from resamplex.compat import onnx
from resamplex.compat.torch import interpolate


def core() -> None:
    x: npt.NDArray[np.float32] = np.zeros((4, 6), dtype=np.float32)
    y = rx.resize(x, (8, 12))
    assert_type(y, npt.NDArray[Any])
    rx.resize(x, scale=(0.5,), axes=(1,), mode="area", threads=1)
    rx.resize(x, 3, axes=0, mode="nearest", nearest_mode="floor")
    rx.resize(x, (np.int64(8), 12))                         # NumPy integers are sizes
    rx.resize(x, np.array([8, 12]))
    rx.resize(x, scale=np.float32(2.0), axes=[-1])          # a scalar factor with axes
    rx.resize([[0.0, 1.0], [2.0, 3.0]], (3, 3))             # anything NumPy makes an array of
    rx.resize(x, (8, 12), mode="cubic", cubic_a=-0.5, exclude_outside=True,
              coordinate_transform="align_corners", antialias=False, rounding="half_even",
              out=np.empty((8, 12), np.float32))

    img = np.zeros((6, 8, 3), np.uint8)                     # resize, convert, normalise
    std, mean = np.array([0.229, 0.224, 0.225]), np.array([0.485, 0.456, 0.406])
    chw = np.empty((3, 4, 4), np.float32)
    rx.resize(img, (4, 4), axes=(0, 1), dtype=np.float32, affine=(1 / (255 * std), -mean / std),
              out=chw.transpose(1, 2, 0))
    rx.resize(img, (4, 4), axes=(0, 1), dtype="float16", affine=(1 / 255, 0.0))
    rx.Resampler((6, 8, 3), (4, 4), axes=(0, 1), dtype=np.float32, affine=[0.5, -1.0])

    plan = rx.Resampler((4, 6), (8, 12), dtype=np.float32, mode="linear")
    assert_type(plan.out_shape, tuple[int, ...])
    assert_type(plan.in_shape, tuple[int, ...])
    z = plan(x, threads=2)
    g = plan.adjoint(z)
    assert_type(g, npt.NDArray[Any])
    assert_type(rx.resize_adjoint(z, (4, 6), (8, 12)), npt.NDArray[Any])

    rx.set_num_threads(2)
    assert_type(rx.get_num_threads(), int)
    rx.set_num_threads(None)
    config = rx.show_config(print_=False)
    assert_type(config, dict[str, Any])
    assert_type(rx.__version__, str)

    try:
        rx.resize(x, (0, 0))
    except rx.UnsupportedError as exc:
        assert_type(exc, rx.UnsupportedError)
    except rx.ResamplexError as exc:
        assert isinstance(exc, ValueError)


def facades() -> None:
    nchw = np.zeros((1, 1, 2, 2), dtype=np.float32)
    assert_type(dml.resample(nchw, (1, 1, 2, 2), interpolation_mode="linear"),
                npt.NDArray[Any])
    dml.resample(nchw, (1.0, 1.0, 2.0, 2.0), interpolation_mode=dml.InterpolationMode.LINEAR,
                 feature_level=dml.FeatureLevel.FL_6_2)
    dml.resample1(nchw, (1, 1, 2, 2), (0.5, 0.5, 0.5, 0.5), (-0.5, -0.5, -0.5, -0.5),
                  interpolation_mode="nearest_neighbor")
    dml.resample2(nchw, (1, 1, 2, 2), (0, 0, 0, 0), (0, 0, 0, 0),
                  interpolation_mode="nearest_neighbor", rounding_direction="decreasing")
    dml.resample3(np.zeros((1, 1, 8, 8), np.float32), (1, 1, 0.25, 0.25), (0, 0, 0, 0), (0, 0, 0, 0),
                  interpolation_mode="linear", rounding_direction=dml.AxisDirection.INCREASING,
                  antialiased=True)
    dml.upsample_2d(nchw, (2, 2), interpolation_mode="nearest_neighbor")
    dml.resample_grad(np.ones((1, 1, 4, 4), np.float32), (1, 1, 2, 2), (1, 1, 2, 2),
                      (0.5, 0.5, 0.5, 0.5), (-0.5, -0.5, -0.5, -0.5),
                      interpolation_mode="linear")
    assert_type(dml.supports("RESAMPLE", 4, "int8", "6_2"), bool)

    assert_type(ascend.upsample_nearest(nchw, (4, 4), exact_mode=True), npt.NDArray[Any])
    ascend.upsample_nearest_exact1d(np.zeros((1, 1, 3), np.float32), (6,), 2.0)
    ascend.upsample_nearest_exact2d(nchw, (4, 4), 2.0, 2.0, product="atlas_a3")
    ascend.upsample_nearest_exact3d(np.zeros((1, 1, 2, 2, 2), np.float32), (4, 4, 4))
    ascend.upsample_nearest1d(np.zeros((1, 1, 3), np.float32), (6,))
    ascend.upsample_nearest2d(nchw, (4, 4))
    assert_type(ascend.supports("atlas_a2", "bfloat16"), bool)

    assert_type(interpolate(nchw, scale_factor=2, mode="bilinear", align_corners=False),
                npt.NDArray[Any])
    interpolate(nchw, size=(3, 3), mode="nearest-exact", antialias=False, threads=1)
    assert_type(onnx.resize(nchw, scales=[1, 1, 2, 2], mode="linear"), npt.NDArray[Any])
    onnx.resize(nchw, sizes=[1, 1, 3, 3], mode="nearest", nearest_mode="floor",
                coordinate_transformation_mode="asymmetric")


def patch_mode() -> None:
    assert_type(rx.patch("cv2", "pil"), list[str])
    with rx.patched("scipy") as done:
        assert_type(done, list[str])
    assert_type(rx.unpatch(), list[str])
    report = rx.patch_report(reset=True)
    assert_type(report, dict[str, dict[str, Any]])


if __name__ == "__main__":
    core()
    facades()
    patch_mode()
