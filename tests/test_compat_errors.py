"""SPEC §6: a door's argument errors are the original's, and what the original accepts the
door accepts. Each case calls the installed original and the door with the same arguments:
where the original raises, the door raises an instance of the original's exception type
(``TypeError``, ``ValueError``, SciPy's ``RuntimeError``, NumPy's ``AxisError``, torch's
``NotImplementedError``, ``cv2.error``) that is a ``ResamplexError`` as well; where the original
returns, the door returns the same array (dtype, shape and values). ``test_known_refusals``
lists the calls the original takes and the door refuses (each door's page in docs/ says why)."""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np
import pytest

import resamplex as rx

NAN, INF = float("nan"), float("inf")


class Fresh:
    """An argument made anew for every call (an array whose strides or flags matter)."""

    def __init__(self, make: Callable[[], Any], name: str) -> None:
        self.make, self.name = make, name

    def __repr__(self) -> str:
        return self.name


def _fresh(value: Any) -> Any:
    """A copy of the arrays and tensors in ``value``: a door or an original may write into
    an output, and each call gets its own."""
    if isinstance(value, Fresh):
        return value.make()
    if isinstance(value, np.ndarray):
        return value.copy()
    if type(value).__module__.startswith("torch") and hasattr(value, "clone"):
        return value.clone()
    if isinstance(value, tuple):
        return tuple(_fresh(v) for v in value)
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value


def _outcome(f: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> tuple[Any, Exception | None]:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return f(*_fresh(args), **_fresh(kwargs)), None
        except Exception as exc:  # what the call raises is what is compared
            return None, exc


def _as_numpy(value: Any) -> np.ndarray:
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    return np.asarray(value)


def _public(kind: type) -> type:
    """The class a caller catches: ``kind``, or its first base that its library makes
    public (NumPy's private ``_UFuncNoLoopError`` is caught as ``TypeError``)."""
    for cls in kind.__mro__:
        private = cls.__name__.startswith("_") or any(
            part.startswith("_") for part in cls.__module__.split("."))
        if not private:
            return cls
    return Exception


def same_outcome(original: Callable[..., Any], door: Callable[..., Any],
                 args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    want, want_exc = _outcome(original, args, kwargs)
    got, got_exc = _outcome(door, args, kwargs)
    if want_exc is not None:
        kind = _public(type(want_exc))
        assert got_exc is not None, \
            f"the original raises {kind.__name__}({want_exc}); the door returns"
        assert isinstance(got_exc, kind), \
            (f"the original raises {kind.__name__}({want_exc}); the door raises "
             f"{type(got_exc).__name__}({got_exc})")
        assert isinstance(got_exc, rx.ResamplexError), (type(got_exc), got_exc)
        return
    assert got_exc is None, \
        f"the original returns; the door raises {type(got_exc).__name__}({got_exc})"
    want, got = _as_numpy(want), _as_numpy(got)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc")


def case(name: str, *args: Any, **kwargs: Any) -> Any:
    return pytest.param(args, kwargs, id=name)


def read_only(a: np.ndarray) -> Fresh:
    def make() -> np.ndarray:
        b = a.copy()
        b.setflags(write=False)
        return b
    return Fresh(make, f"read-only {a.shape} {a.dtype}")


# ------------------------------------------------------------------------------ cv2.resize

U8 = np.arange(48, dtype=np.uint8).reshape(6, 8)
F32 = np.arange(48, dtype=np.float32).reshape(6, 8)
RGB = np.arange(144, dtype=np.uint8).reshape(6, 8, 3)

CV2 = [
    case("src-str", "abc", (4, 3)),
    case("src-none", None, (4, 3)),
    case("src-list", [[1, 2], [3, 4]], (4, 3)),
    case("src-0d", np.array(3, np.uint8), (4, 3)),
    case("src-0d-fx", np.array(3.5, np.float32), None, fx=2, fy=3, interpolation=2),
    case("src-4d", np.zeros((2, 3, 4, 5), np.uint8), (4, 3)),
    case("src-empty", np.zeros((0, 4), np.uint8), (4, 3)),
    case("src-object", np.array([[1, 2], [3, 4]], dtype=object), (4, 3)),
    case("src-complex", np.zeros((3, 4), np.complex64), (5, 2)),
    case("src-bool-linear", np.zeros((3, 4), bool), (5, 2)),
    case("src-float16-cubic", np.zeros((3, 4), np.float16), (5, 2), interpolation=2),
    case("src-int8-area", np.zeros((3, 4), np.int8), (5, 2), interpolation=3),
    case("src-int32-linear", np.zeros((3, 4), np.int32), (5, 2)),
    case("src-bool-nearest", np.eye(3, 4, dtype=bool), (5, 2), interpolation=0),
    case("src-channels-128", np.zeros((3, 4, 128), np.uint8), (5, 2)),
    case("src-channels-129", np.zeros((3, 4, 129), np.uint8), (5, 2)),
    case("src-5ch-area-fractional", np.zeros((6, 8, 5), np.uint8), (3, 2), interpolation=3),
    case("same-size-bool-cubic", np.eye(3, 4, dtype=bool), (4, 3), interpolation=2),
    case("same-size-float16-area", np.ones((3, 4), np.float16), (4, 3), interpolation=3),
    case("same-size-int32-linear", np.arange(12, dtype=np.int32).reshape(3, 4), (4, 3)),
    case("same-size-interp-7", U8, (8, 6), interpolation=7),
    case("same-size-interp-negative", U8, None, fx=1, fy=1, interpolation=-1),
    case("dsize-str", U8, "ab"),
    case("dsize-floats", U8, (4.5, 3)),
    case("dsize-float-ints", U8, (4.0, 3.0)),
    case("dsize-one", U8, (4,)),
    case("dsize-three", U8, (4, 3, 2)),
    case("dsize-int", U8, 4),
    case("dsize-none-no-fx", U8, None),
    case("dsize-zero-no-fx", U8, (0, 0)),
    case("dsize-negative", U8, (-1, 3)),
    case("dsize-negative-fx", U8, (-1, -3), fx=2, fy=2),
    case("dsize-list", U8, [4, 3]),
    case("dsize-bool", U8, (True, 3)),
    case("dsize-array", U8, np.array([4, 3])),
    case("dsize-numpy-int", U8, (np.int64(4), 3)),
    case("dsize-str-entry", U8, ("4", 3)),
    case("dsize-none-entry", U8, (None, 3)),
    case("dsize-huge", U8, (2**31, 3)),
    case("dsize-huge64", U8, (2**40, 3)),
    case("fx-str", U8, None, fx="a", fy=2),
    case("fx-none", U8, None, fx=None, fy=2),
    case("fx-none-with-dsize", U8, (4, 3), fx=None, fy=None),
    case("fx-nan", U8, None, fx=NAN, fy=2),
    case("fx-inf", U8, None, fx=INF, fy=2),
    case("fx-negative", U8, None, fx=-1.0, fy=2),
    case("fx-complex", U8, None, fx=1j, fy=2),
    case("fx-bool", U8, None, fx=True, fy=2),
    case("fx-int", U8, None, fx=2, fy=2),
    case("fx-tiny", U8, None, fx=1e-3, fy=2),
    case("fx-huge", U8, None, fx=1e12, fy=2),
    case("fx-str-with-dsize", U8, (4, 3), fx="a"),
    case("interp-7", U8, (4, 3), interpolation=7),
    case("interp-negative", U8, (4, 3), interpolation=-1),
    case("interp-float", U8, (4, 3), interpolation=1.5),
    case("interp-str", U8, (4, 3), interpolation="linear"),
    case("interp-none", U8, (4, 3), interpolation=None),
    case("interp-bool", U8, (4, 3), interpolation=True),
    case("interp-warp-flag", U8, (4, 3), interpolation=1 | 16),
    case("interp-big", U8, (4, 3), interpolation=2**40),
    case("dst-str", U8, (4, 3), dst="abc"),
    case("dst-list", U8, (4, 3), dst=[[0] * 4] * 3),
    case("dst-wrong-shape", U8, (4, 3), dst=np.zeros((5, 5), np.uint8)),
    case("dst-wrong-dtype", U8, (4, 3), dst=np.zeros((3, 4), np.float32)),
    case("dst-int64", U8, (4, 3), dst=np.zeros((3, 4), np.int64)),
    case("dst-complex", U8, (4, 3), dst=np.zeros((3, 4), np.complex64)),
    case("dst-big-endian", U8, (4, 3), dst=np.zeros((3, 4), ">u2")),
    case("dst-read-only", U8, (4, 3), dst=read_only(np.zeros((3, 4), np.uint8))),
    case("dst-read-only-other-shape", U8, (4, 3), dst=read_only(np.zeros((5, 5), np.uint8))),
    case("dst-padded-rows", U8, (4, 3),
         dst=Fresh(lambda: np.zeros((3, 10), np.uint8)[:, :4], "padded rows")),
    case("dst-column-step", U8, (4, 3),
         dst=Fresh(lambda: np.zeros((3, 8), np.uint8)[:, ::2], "column step 2")),
    case("dst-reversed-rows", U8, (4, 3),
         dst=Fresh(lambda: np.zeros((3, 4), np.uint8)[::-1], "reversed rows")),
    case("dst-fortran", U8, (4, 3),
         dst=Fresh(lambda: np.zeros((4, 3), np.uint8).T, "Fortran order")),
    case("dst-channels-reversed", RGB, (4, 3),
         dst=Fresh(lambda: np.zeros((3, 4, 3), np.uint8)[:, :, ::-1], "reversed channels")),
    case("dst-3d-one-channel", U8, (4, 3), dst=np.zeros((3, 4, 1), np.uint8)),
    case("dst-channels-129", U8, (4, 3), dst=np.zeros((3, 4, 129), np.uint8)),
]


@pytest.fixture(scope="module")
def cv2() -> Any:
    cv2 = pytest.importorskip("cv2")
    before = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    yield cv2
    cv2.ipp.setUseIPP(before)


@pytest.mark.parametrize("args, kwargs", CV2)
def test_cv2_resize(cv2: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from resamplex.compat import cv2 as door
    same_outcome(cv2.resize, door.resize, args, kwargs)


def test_cv2_errors_are_cv2_errors_once_cv2_is_imported(cv2: Any) -> None:
    """Without cv2 imported nobody can catch ``cv2.error``: the door's error is then its own
    class (and the door does not import cv2); with it, a subclass that is both."""
    import subprocess
    import sys

    from resamplex.compat import cv2 as door
    with pytest.raises(cv2.error) as info:
        door.resize(U8, (4.5, 3))
    assert isinstance(info.value, TypeError) and isinstance(info.value, rx.ResamplexError)
    assert type(info.value).__name__ == "ResamplexTypeError"
    code = ("import sys, numpy as np\n"
            "from resamplex.compat import cv2 as door\n"
            "try:\n"
            "    door.resize(np.zeros((2, 2), np.uint8), (4.5, 3))\n"
            "except TypeError as exc:\n"
            "    print(type(exc).__module__, type(exc).__name__, 'cv2' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == ["resamplex._errors", "ResamplexTypeError", "False"], out


# ------------------------------------------------------------------------------ Pillow

EMPTY = np.zeros((0, 4), np.uint8)

PIL_RESIZE = [
    case("a-int64", np.zeros((3, 4), np.int64), (4, 3)),
    case("a-5ch", np.zeros((3, 4, 5), np.uint8), (4, 3)),
    case("a-4d", np.zeros((2, 3, 4, 3), np.uint8), (4, 3)),
    case("a-empty", EMPTY, (4, 3)),
    case("a-empty-nearest", EMPTY, (4, 3), 0),
    case("a-empty-same-size", EMPTY, (4, 0)),
    case("a-empty-zero-size", EMPTY, (0, 3)),
    case("a-empty-box", EMPTY, (4, 3), 2, (0, 0, 2, 0)),
    case("a-empty-box-outside", EMPTY, (4, 3), 2, (0, 0, 4, 1)),
    case("a-empty-rgba", np.zeros((3, 0, 4), np.uint8), (4, 3), 2),
    case("a-empty-float", np.zeros((0, 4), np.float32), (4, 3), 3, None, 2.0),
    case("size-floats", U8, (4.5, 3)),
    case("size-float-ints", U8, (4.0, 3.0)),
    case("size-same-as-floats", U8, (8.0, 6.0)),
    case("size-same-as-floats-filter-float", U8, (8.0, 6.0), 2.0),
    case("size-str", U8, "ab"),
    case("size-one", U8, (4,)),
    case("size-three", U8, (4, 3, 2)),
    case("size-none", U8, None),
    case("size-int", U8, 4),
    case("size-zero", U8, (0, 3)),
    case("size-negative", U8, (-1, 3)),
    case("size-list", U8, [4, 3]),
    case("size-bool", U8, (True, 3)),
    case("size-numpy-bool", U8, (np.bool_(True), 3)),
    case("size-array", U8, np.array([4, 3])),
    case("size-numpy-int", U8, (np.int64(4), 3)),
    case("size-str-entry", U8, ("4", 3)),
    case("size-nan", U8, (NAN, 3)),
    case("resample-9", U8, (4, 3), 9),
    case("resample-negative", U8, (4, 3), -1),
    case("resample-str", U8, (4, 3), "bilinear"),
    case("resample-float", U8, (4, 3), 1.5),
    case("resample-float-int", U8, (4, 3), 2.0),
    case("resample-numpy-float-int", U8, (4, 3), np.float64(2.0)),
    case("resample-none", U8, (4, 3), None),
    case("resample-bool", U8, (4, 3), True),
    case("resample-list", U8, (4, 3), [2]),
    case("resample-numpy-int", U8, (4, 3), np.int64(2)),
    case("box-str", U8, (4, 3), 2, "abcd"),
    case("box-short", U8, (4, 3), 2, (0, 0, 4)),
    case("box-long", U8, (4, 3), 2, (0, 0, 4, 4, 4)),
    case("box-str-entry", U8, (4, 3), 2, (0, 0, "4", 4)),
    case("box-none-entry", U8, (4, 3), 2, (0, 0, None, 4)),
    case("box-negative", U8, (4, 3), 2, (-1, 0, 4, 4)),
    case("box-outside", U8, (4, 3), 2, (0, 0, 100, 4)),
    case("box-reversed", U8, (4, 3), 2, (3, 0, 1, 4)),
    case("box-inf", U8, (4, 3), 2, (0, 0, INF, 4)),
    case("box-list", U8, (4, 3), 2, [0, 0, 4, 4]),
    case("box-floats", U8, (4, 3), 2, (0.5, 0.5, 3.5, 3.5)),
    case("box-array", U8, (4, 3), 2, np.array([0, 0, 4, 4])),
    case("box-bool", U8, (4, 3), 2, (0, 0, True, 4)),
    case("box-numpy-bool", U8, (4, 3), 2, (0, 0, np.bool_(True), 4)),
    case("box-int", U8, (4, 3), 2, 4),
    case("box-empty", U8, (4, 3), 2, (2, 2, 2, 2)),
    case("gap-small", U8, (4, 3), 2, None, 0.5),
    case("gap-str", U8, (4, 3), 2, None, "a"),
    case("gap-negative", U8, (4, 3), 2, None, -1),
    case("gap-nan", U8, (4, 3), 2, None, NAN),
    case("gap-bool", U8, (4, 3), 2, None, True),
    case("gap-numpy-bool", U8, (2, 2), 2, None, np.bool_(True)),
    case("gap-int", U8, (2, 2), 2, None, 1),
    case("gap-complex", U8, (4, 3), 2, None, 1j),
]

PIL_REDUCE = [
    case("a-int64", np.zeros((3, 4), np.int64), 2),
    case("a-uint16", np.zeros((4, 4), np.uint16), 2),
    case("a-empty", EMPTY, 2),
    case("a-empty-by-one", EMPTY, 1),
    case("factor-float", U8, 1.5),
    case("factor-float-int", U8, 2.0),
    case("factor-float-one", U8, 1.0),
    case("factor-str", U8, "2"),
    case("factor-one", U8, (2,)),
    case("factor-three", U8, (2, 2, 2)),
    case("factor-zero", U8, 0),
    case("factor-negative", U8, -1),
    case("factor-pair-zero", U8, (0, 2)),
    case("factor-none", U8, None),
    case("factor-bool", U8, True),
    case("factor-numpy-bool", U8, np.bool_(True)),
    case("factor-pair-bool", U8, (True, 2)),
    case("factor-pair-float", U8, (2.0, 2)),
    case("factor-numpy-int", U8, np.int64(2)),
    case("factor-list", U8, [2, 2]),
    case("factor-array", U8, np.array([2, 2])),
    case("box-floats", U8, 2, (0.5, 0, 4, 4)),
    case("box-str", U8, 2, "abcd"),
    case("box-short", U8, 2, (0, 0, 4)),
    case("box-negative", U8, 2, (-1, 0, 4, 4)),
    case("box-outside", U8, 2, (0, 0, 100, 4)),
    case("box-reversed", U8, 2, (3, 0, 1, 4)),
    case("box-empty", U8, 2, (2, 2, 2, 2)),
    case("box-list", U8, 2, [0, 0, 4, 4]),
    case("box-partial", U8, 2, (0, 0, 7, 5)),
    case("by-one-box", U8, 1, (0, 0, 4, 4)),
    case("by-one-box-floats", U8, 1, (0.5, 0, 4, 4)),
    case("by-one-box-rounding", U8, 1, (-1, -1, 3, 2.6)),
    case("by-one-box-outside", U8, 1, (0, 0, 10, 9)),
    case("by-one-box-reversed", U8, 1, (3, 0, 1, 4)),
    case("by-one-box-empty", U8, 1, (2, 2, 2, 2)),
    case("by-one-box-str", U8, 1, "abcd"),
    case("by-one-rgba-box", np.arange(192, dtype=np.uint8).reshape(6, 8, 4), (1, 1),
         (1, 1, 5, 4)),
]


@pytest.fixture(scope="module")
def Image() -> Any:
    return pytest.importorskip("PIL.Image")


def _pillow(Image: Any, method: str) -> Callable[..., np.ndarray]:
    def original(a: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        return np.asarray(getattr(Image.fromarray(a), method)(*args, **kwargs))
    return original


@pytest.mark.parametrize("args, kwargs", PIL_RESIZE)
def test_pil_resize(Image: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from resamplex.compat import pil
    same_outcome(_pillow(Image, "resize"), pil.resize, args, kwargs)


@pytest.mark.parametrize("args, kwargs", PIL_REDUCE)
def test_pil_reduce(Image: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from resamplex.compat import pil
    same_outcome(_pillow(Image, "reduce"), pil.reduce, args, kwargs)


# ------------------------------------------------------------------------------ SciPy

X2 = np.arange(12, dtype=np.float64).reshape(3, 4)

ZOOM = [
    case("input-str", "abc", 2),
    case("input-none", None, 2),
    case("input-0d", np.array(2.0), 2),
    case("input-object", np.array([1, 2], dtype=object), 2),
    case("input-float16", np.zeros(4, np.float16), 2),
    case("input-list", [[1.0, 2.0], [3.0, 4.0]], 2),
    case("input-empty", np.zeros((0, 3)), 2),
    case("input-str-array", np.array(["a", "b"]), 2),
    case("input-big-endian", X2.astype(">f8"), 1.5, order=1),
    case("input-complex-cval-str", X2 + 1j, 1.5, cval="a"),
    case("zoom-str", X2, "2"),
    case("zoom-none", X2, None),
    case("zoom-nan", X2, NAN),
    case("zoom-inf", X2, INF),
    case("zoom-negative", X2, -1),
    case("zoom-zero", X2, 0),
    case("zoom-one-of-two", X2, (2,)),
    case("zoom-three", X2, (2, 2, 2)),
    case("zoom-str-entry", X2, (2, "a")),
    case("zoom-bool", X2, True),
    case("zoom-complex", X2, 2j),
    case("zoom-array", X2, np.array([2.0, 1.5])),
    case("zoom-2d-array", X2, np.ones((2, 2))),
    case("zoom-one-mode-unknown", X2, 1, mode="bogus"),
    case("zoom-one-order-float", X2, 1, order=2.5),
    case("zoom-one-cval-str", X2, 1, cval="a"),
    case("zoom-one-no-prefilter-mode-unknown", X2, 1, mode="bogus", prefilter=False),
    case("output-str-unknown", X2, 2, output="foo"),
    case("output-str-float16", X2, 2, output="float16"),
    case("output-str-bool", X2, 2, output="bool"),
    case("output-str-object", X2, 2, output="object"),
    case("output-float16", X2, 2, output=np.float16),
    case("output-object", X2, 2, output=object),
    case("output-complex", X2, 2, output=np.complex128),
    case("output-wrong-shape", X2, 2, output=np.zeros((3, 3))),
    case("output-read-only", X2, 1.5, output=read_only(np.zeros((4, 6)))),
    case("output-list", X2, 2, output=[0.0] * 3),
    case("output-int", X2, 2, output=3),
    case("output-int64-array", X2, 2, output=np.zeros((6, 8), np.int64)),
    case("output-float16-array", X2, 2, output=np.zeros((6, 8), np.float16)),
    case("order-negative", X2, 2, order=-1),
    case("order-6", X2, 2, order=6),
    case("order-float", X2, 2, order=2.5),
    case("order-float-int", X2, 2, order=2.0),
    case("order-between-1-and-2", X2, 2, order=1.5),
    case("order-between-1-and-2-no-prefilter", X2, 2, order=1.5, prefilter=False),
    case("order-half", X2, 2, order=0.5),
    case("order-str", X2, 2, order="3"),
    case("order-none", X2, 2, order=None),
    case("order-bool", X2, 2, order=True),
    case("order-numpy-int", X2, 2, order=np.int64(2)),
    case("order-nan", X2, 2, order=NAN),
    case("mode-unknown", X2, 2, mode="bogus"),
    case("mode-none", X2, 2, mode=None),
    case("mode-int", X2, 2, mode=3),
    case("cval-str", X2, 2, cval="a"),
    case("cval-str-number", X2, 2, cval="1.5"),
    case("cval-none", X2, 2, cval=None),
    case("cval-nan", X2, 2, cval=NAN),
    case("cval-complex", X2, 2, cval=1j),
    case("cval-bool", X2, 2, cval=True),
    case("cval-array", X2, 2, cval=np.array([1.0])),
    case("prefilter-str", X2, 2, prefilter="yes"),
    case("grid-mode-str", X2, 2, grid_mode="yes"),
    case("grid-mode-float", X2, 2, grid_mode=1.0),
    case("grid-mode-none", X2, 2, grid_mode=None),
    case("grid-mode-int", X2, 2, grid_mode=1, mode="grid-constant"),
]

FILTER_COMMON = [
    case("input-str", "abc"),
    case("input-none", None),
    case("input-object", np.array([1, 2], dtype=object)),
    case("input-float16", np.zeros(4, np.float16)),
    case("input-int64", np.arange(4, dtype=np.int64)),
    case("input-list", [[1.0, 2.0], [3.0, 4.0]]),
    case("input-empty", np.zeros((0, 3))),
    case("input-str-array", np.array(["a", "b"])),
    case("order-negative", X2, order=-1),
    case("order-6", X2, order=6),
    case("order-float", X2, order=2.5),
    case("order-float-int", X2, order=2.0),
    case("order-float-one", X2, order=1.0),
    case("order-str", X2, order="3"),
    case("order-none", X2, order=None),
    case("order-bool", X2, order=True),
    case("order-numpy-int", X2, order=np.int64(2)),
    case("order-nan", X2, order=NAN),
    case("mode-unknown", X2, mode="bogus"),
    case("mode-none", X2, mode=None),
    case("mode-int", X2, mode=3),
    case("output-str-unknown", X2, output="foo"),
    case("output-str-float16", X2, output="float16"),
    case("output-str-bool", X2, output="bool"),
    case("output-float16", X2, output=np.float16),
    case("output-object", X2, output=object),
    case("output-complex", X2, output=np.complex128),
    case("output-none", X2, output=None),
    case("output-wrong-shape", X2, output=np.zeros((3, 3))),
    case("output-list", X2, output=[0.0] * 3),
    case("output-int", X2, output=3),
    case("output-int64-array", X2, output=np.zeros((3, 4), np.int64)),
    case("output-float16-array", X2, output=np.zeros((3, 4), np.float16)),
    case("output-read-only", X2, output=read_only(np.zeros((3, 4)))),
]
# 0-d arrays (SciPy copies them, or refuses the axis), every order and kind of output;
# orders 0 and 1, where SciPy's spline_filter1d copies without a look at mode or dtype
for order in range(6):
    for output in (np.float64, None, np.float32, "int32", np.complex128, np.float16):
        for mode in ("mirror", "nearest", "bogus"):
            out_name = getattr(output, "__name__", output)
            FILTER_COMMON += [
                case(f"0d-order{order}-{out_name}-{mode}", np.array(2.5), order=order,
                     output=output, mode=mode),
                case(f"0d-uint8-order{order}-{out_name}-{mode}", np.array(7, np.uint8),
                     order=order, output=output, mode=mode),
            ]
    FILTER_COMMON += [
        case(f"0d-complex-order{order}", np.array(1 + 2j), order=order),
        case(f"0d-bool-order{order}", np.array(True), order=order),
        case(f"0d-float-order{order}", 2.5, order=order),
        case(f"0d-out-array-order{order}", np.array(2.5), order=order,
             output=np.zeros((), np.float32)),
        case(f"0d-out-wrong-shape-order{order}", np.array(2.5), order=order,
             output=np.zeros(1)),
        case(f"order{order}-mode-unknown", X2, order=order, mode="bogus"),
        case(f"order{order}-float16", np.zeros(4, np.float16), order=order),
        case(f"order{order}-output-float16", X2, order=order, output=np.float16),
        case(f"order{order}-output-object", X2, order=order, output=object),
    ]

FILTER1D = FILTER_COMMON + [
    case("axis-2", X2, axis=2),
    case("axis-minus-3", X2, axis=-3),
    case("axis-float", X2, axis=1.0),
    case("axis-str", X2, axis="0"),
    case("axis-none", X2, axis=None),
    case("axis-numpy-int", X2, axis=np.int64(0)),
    case("axis-bool", X2, axis=True),
    case("order1-axis-2", X2, order=1, axis=2),
    case("order1-axis-str", X2, order=1, axis="0"),
    case("0d-axis-0", np.array(2.5), axis=0),
    case("0d-axis-0-order1", np.array(2.5), order=1, axis=0),
]


@pytest.fixture(scope="module")
def ndimage() -> Any:
    return pytest.importorskip("scipy.ndimage")


@pytest.mark.parametrize("args, kwargs", ZOOM)
def test_scipy_zoom(ndimage: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from resamplex.compat import scipy as door
    same_outcome(ndimage.zoom, door.zoom, args, kwargs)


@pytest.mark.parametrize("args, kwargs", FILTER_COMMON)
def test_scipy_spline_filter(ndimage: Any, args: tuple[Any, ...],
                             kwargs: dict[str, Any]) -> None:
    from resamplex.compat import scipy as door
    same_outcome(ndimage.spline_filter, door.spline_filter, args, kwargs)


@pytest.mark.parametrize("args, kwargs", FILTER1D)
def test_scipy_spline_filter1d(ndimage: Any, args: tuple[Any, ...],
                               kwargs: dict[str, Any]) -> None:
    from resamplex.compat import scipy as door
    same_outcome(ndimage.spline_filter1d, door.spline_filter1d, args, kwargs)


# ------------------------------------------------------------------------------ scikit-image

IMG = np.arange(48, dtype=np.float64).reshape(6, 8) / 48
IMG8 = np.arange(48, dtype=np.uint8).reshape(6, 8) * 5

SK_COMMON = [
    case("order-6", order=6),
    case("order-negative", order=-1),
    case("order-float", order=1.5),
    case("order-float-int", order=1.0),
    case("order-half", order=0.5),
    case("order-float-above-2", order=2.5),
    case("order-str", order="1"),
    case("order-none-entry", order=[1]),
    case("order-bool", order=True),
    case("order-numpy-int", order=np.int64(1)),
    case("mode-unknown", mode="bogus"),
    case("mode-none", mode=None),
    case("mode-ndimage-name", mode="mirror"),
    case("mode-int", mode=3),
    case("mode-list", mode=["reflect"]),
    case("cval-str", cval="a"),
    case("cval-none", cval=None),
    case("cval-nan", cval=NAN),
    case("cval-complex", cval=1j),
    case("cval-bool", cval=True),
    case("cval-str-constant", cval="a", mode="constant"),
    case("sigma-negative", anti_aliasing=True, anti_aliasing_sigma=-1),
    case("sigma-str", anti_aliasing=True, anti_aliasing_sigma="a"),
    case("sigma-three", anti_aliasing=True, anti_aliasing_sigma=(1, 2, 3)),
    case("sigma-nan", anti_aliasing=True, anti_aliasing_sigma=NAN),
    case("sigma-nan-one-axis", anti_aliasing=True, anti_aliasing_sigma=(NAN, 1.0)),
    case("sigma-inf", anti_aliasing=True, anti_aliasing_sigma=INF),
    case("sigma-none-entry", anti_aliasing=True, anti_aliasing_sigma=(1, None)),
    case("anti-aliasing-str", anti_aliasing="yes"),
    case("clip-str", clip="yes"),
    case("preserve-range-str", preserve_range="yes"),
]


def _sk_resize_cases() -> list[Any]:
    cases = [
        case("image-str", "abc", (3, 4)),
        case("image-none", None, (3, 4)),
        case("image-list", [[0.0, 1.0], [2.0, 3.0]], (3, 4)),
        case("image-0d", np.array(2.0), (3, 4)),
        case("image-object", np.array([[1, 2]], dtype=object), (3, 4)),
        case("image-complex", np.zeros((3, 4), np.complex128), (3, 4)),
        case("image-float16", np.zeros((3, 4), np.float16), (3, 4)),
        case("image-empty", np.zeros((0, 4)), (3, 4)),
        case("image-bool-order1", np.zeros((3, 4), bool), (3, 4), order=1),
        case("image-bool-aa", np.zeros((6, 8), bool), (3, 4), anti_aliasing=True),
        case("shape-floats", IMG, (3.5, 4)),
        case("shape-float-ints", IMG, (3.0, 4.0)),
        case("shape-str", IMG, "ab"),
        case("shape-one", IMG, (3,)),
        case("shape-zero", IMG, (0, 4)),
        case("shape-zero-no-aa", IMG, (0, 4), anti_aliasing=False),
        case("shape-zero-uint8-order0", IMG8, (0, 4), order=0),
        case("shape-negative", IMG, (-1, 4)),
        case("shape-negative-small", IMG, (-0.4, 4)),
        case("shape-small", IMG, (0.4, 4)),
        case("shape-half", IMG, (0.5, 4)),
        case("shape-small-both", IMG, (0.4, 0.4)),
        case("shape-none", IMG, None),
        case("shape-int", IMG, 5),
        case("shape-longer", IMG, (3, 4, 2)),
        case("shape-list", IMG, [3, 4]),
        case("shape-array", IMG, np.array([3, 4])),
        case("shape-bool", IMG, (True, 4)),
        case("shape-numpy-bool", IMG, (np.bool_(True), 4)),
        case("shape-str-entry", IMG, ("3", 4)),
        case("shape-str-entry-aa", IMG, ("3", 4), anti_aliasing=False),
        case("shape-nan", IMG, (NAN, 4)),
        case("shape-inf", IMG, (INF, 4)),
        case("shape-inf-aa", IMG, (INF, 4), anti_aliasing=True),
        case("shape-complex", IMG, (3j, 4)),
        case("same-shape-cval-str", IMG, (6, 8), cval="a"),
        case("same-shape-cval-none", IMG8, (6, 8), cval=None, order=0),
        case("same-shape-cval-str-constant", IMG, (6, 8), cval="a", mode="constant"),
        case("same-shape-cval-str-sigma", IMG, (6, 8), cval="a", anti_aliasing=True,
             anti_aliasing_sigma=1.0),
    ]
    for c in SK_COMMON:
        args, kwargs = c.values
        cases.append(pytest.param((IMG, (3, 4)), kwargs, id=c.id))
        cases.append(pytest.param((IMG8, (3, 4)), kwargs, id=c.id + "-uint8"))
    return cases


def _sk_rescale_cases() -> list[Any]:
    cases = [
        case("image-str", "abc", 2),
        case("image-none", None, 2),
        case("image-0d", np.array(2.0), 2),
        case("image-object", np.array([[1, 2]], dtype=object), 2),
        case("image-complex", np.zeros((3, 4), np.complex128), 2),
        case("scale-str", IMG, "a"),
        case("scale-none", IMG, None),
        case("scale-nan", IMG, NAN),
        case("scale-inf", IMG, INF),
        case("scale-zero", IMG, 0),
        case("scale-negative", IMG, -1),
        case("scale-three", IMG, (1, 2, 3)),
        case("scale-one-of-two", IMG, (2,)),
        case("scale-bool", IMG, True),
        case("scale-str-entry", IMG, (2, "a")),
        case("scale-2d", IMG, np.ones((2, 2))),
        case("channel-axis-out", IMG, 2, channel_axis=5),
        case("channel-axis-negative-out", IMG, 2, channel_axis=-3),
        case("channel-axis-str", IMG, 2, channel_axis="a"),
        case("channel-axis-float", IMG, 2, channel_axis=1.5),
        case("channel-axis-tuple", IMG, 2, channel_axis=(0,)),
        case("channel-axis-tuple2", IMG, 2, channel_axis=(0, 1)),
        case("channel-axis-bool", IMG, 2, channel_axis=True),
        case("channel-axis-numpy-int", IMG, 2, channel_axis=np.int64(1)),
        case("channel-axis-scale-pair", IMG, (2, 2), channel_axis=1),
    ]
    for c in SK_COMMON:
        args, kwargs = c.values
        cases.append(pytest.param((IMG, 0.5), kwargs, id=c.id))
    return cases


SK_MEAN = [
    case("image-str", "abc", 2),
    case("image-none", None, 2),
    case("image-list", [[0.0, 1.0], [2.0, 3.0]], 2),
    case("image-0d", np.array(2.0), 2),
    case("image-0d-int", np.array(3, np.int16), ()),
    case("image-0d-float16", np.array(3, np.float16), 2),
    case("image-0d-pair", np.array(3.0), (2,)),
    case("factors-float", IMG, 1.5),
    case("factors-float-int", IMG, 2.0),
    case("factors-below-one", IMG, (0.5, 2)),
    case("factors-one", IMG, (2,)),
    case("factors-three", IMG, (2, 2, 2)),
    case("factors-zero", IMG, 0),
    case("factors-negative", IMG, -1),
    case("factors-str", IMG, "2"),
    case("factors-none", IMG, None),
    case("factors-pair-float", IMG, (2.0, 2)),
    case("factors-list", IMG, [2, 2]),
    case("factors-array", IMG, np.array([2, 2])),
    case("factors-bool", IMG, True),
    case("factors-numpy-int", IMG, np.int64(2)),
    case("cval-str", IMG, 3, cval="a"),
    case("cval-str-not-padded", IMG, 2, cval="a"),
    case("cval-none", IMG, 3, cval=None),
    case("cval-none-int", IMG8, 3, cval=None),
    case("cval-complex", IMG, 3, cval=1j),
    case("cval-nan", IMG, 3, cval=NAN),
    case("cval-nan-uint8", IMG8, 3, cval=NAN),
    case("cval-nan-int16", IMG8.astype(np.int16), 3, cval=NAN),
    case("cval-inf-int8", IMG8.astype(np.int8), 3, cval=INF),
    case("cval-huge-int32", IMG8.astype(np.int32), 3, cval=1e30),
    case("cval-negative-uint8", IMG8, 3, cval=-5),
]


@pytest.fixture(scope="module")
def transform() -> Any:
    return pytest.importorskip("skimage.transform")


@pytest.mark.parametrize("args, kwargs", _sk_resize_cases())
def test_skimage_resize(transform: Any, args: tuple[Any, ...],
                        kwargs: dict[str, Any]) -> None:
    from resamplex.compat import skimage as door
    same_outcome(transform.resize, door.resize, args, kwargs)


@pytest.mark.parametrize("args, kwargs", _sk_rescale_cases())
def test_skimage_rescale(transform: Any, args: tuple[Any, ...],
                         kwargs: dict[str, Any]) -> None:
    from resamplex.compat import skimage as door
    same_outcome(transform.rescale, door.rescale, args, kwargs)


@pytest.mark.parametrize("args, kwargs", SK_MEAN)
def test_skimage_downscale_local_mean(transform: Any, args: tuple[Any, ...],
                                      kwargs: dict[str, Any]) -> None:
    from resamplex.compat import skimage as door
    same_outcome(transform.downscale_local_mean, door.downscale_local_mean, args, kwargs)


# ------------------------------------------------------------------------------ torch

def _torch_cases() -> list[Any]:
    try:
        import torch
    except ImportError:
        return []
    x = torch.arange(48, dtype=torch.float32).reshape(1, 1, 6, 8)
    u8 = x.to(torch.uint8)
    x3 = torch.arange(8, dtype=torch.float32).reshape(1, 1, 8)
    return [
        case("input-2d", x[0], size=4),
        case("input-6d", x.reshape(1, 1, 1, 1, 6, 8), size=4),
        case("input-int64", x.long(), size=(3, 4)),
        case("input-int64-bilinear", x.long(), size=(3, 4), mode="bilinear"),
        case("input-bool", x > 3, size=(3, 4)),
        case("input-complex", x.to(torch.complex64), size=(3, 4)),
        case("input-uint8-area", u8, size=(3, 4), mode="area"),
        case("input-uint8-linear", u8[0], size=4, mode="linear"),
        case("input-float16-antialias", x.half(), size=(3, 4), mode="bilinear",
             antialias=True),
        case("input-empty-channels", torch.zeros(1, 0, 6, 8), size=(3, 4)),
        case("input-empty-area", torch.zeros(1, 1, 0, 8), size=(3, 4), mode="area"),
        case("neither-size-nor-scale", x),
        case("both-size-and-scale", x, size=4, scale_factor=2),
        case("size-float", x, size=4.5),
        case("size-float-int", x, size=4.0),
        case("size-str", x, size="4"),
        case("size-one-of-two", x, size=(4,)),
        case("size-three", x, size=(4, 4, 4)),
        case("size-negative", x, size=-1),
        case("size-zero", x, size=0),
        case("size-bool", x, size=(True, 4)),
        case("size-numpy-bool", x, size=(np.bool_(True), 4)),
        case("size-list", x, size=[3, 4]),
        case("size-torch-size", x, size=torch.Size([3, 4])),
        case("size-numpy-int", x, size=(np.int64(3), 4)),
        case("size-none-entry", x, size=(None, 4)),
        case("size-tensor", x, size=torch.tensor([3, 4])),
        case("size-area-zero", x, size=(0, 4), mode="area"),
        case("size-area-negative", x, size=(-1, 4), mode="area"),
        case("scale-nan", x, scale_factor=NAN),
        case("scale-inf", x, scale_factor=INF),
        case("scale-negative", x, scale_factor=-1.0),
        case("scale-zero", x, scale_factor=0.0),
        case("scale-str", x, scale_factor="2"),
        case("scale-one-of-two", x, scale_factor=(2.0,)),
        case("scale-three", x, scale_factor=(2.0, 2.0, 2.0)),
        case("scale-tiny", x, scale_factor=0.01),
        case("scale-huge", x, scale_factor=1e30),
        case("scale-bool", x, scale_factor=True),
        case("scale-bool-entry", x, scale_factor=(True, 2.0)),
        case("scale-int", x, scale_factor=2),
        case("scale-numpy-float", x, scale_factor=np.float32(2)),
        case("scale-complex", x, scale_factor=2j),
        case("scale-none-entry", x, scale_factor=(None, 2.0)),
        case("scale-tensor", x, scale_factor=torch.tensor(2.0)),
        case("scale-area-nan", x, scale_factor=NAN, mode="area"),
        case("scale-area-inf", x, scale_factor=INF, mode="area"),
        case("scale-recompute-inf", x, scale_factor=INF, recompute_scale_factor=True),
        case("mode-unknown", x, size=4, mode="bogus"),
        case("mode-none", x, size=4, mode=None),
        case("mode-upper", x, size=4, mode="BILINEAR"),
        case("mode-int", x, size=4, mode=1),
        case("mode-linear-4d", x, size=4, mode="linear"),
        case("mode-bilinear-3d", x3, size=4, mode="bilinear"),
        case("mode-trilinear-4d", x, size=4, mode="trilinear"),
        case("mode-bicubic-3d", x3, size=4, mode="bicubic"),
        case("mode-lanczos-no-antialias", x, size=4, mode="lanczos"),
        case("align-corners-nearest", x, size=4, align_corners=True),
        case("align-corners-nearest-false", x, size=4, align_corners=False),
        case("align-corners-area", x, size=4, mode="area", align_corners=False),
        case("align-corners-str", x, size=4, mode="bilinear", align_corners="yes"),
        case("align-corners-int", x, size=4, mode="bilinear", align_corners=2),
        case("align-corners-one", x, size=4, mode="bilinear", align_corners=1),
        case("align-corners-zero", x, size=4, mode="bilinear", align_corners=0),
        case("align-corners-numpy-bool", x, size=4, mode="bilinear",
             align_corners=np.bool_(True)),
        case("recompute-with-size", x, size=4, recompute_scale_factor=True),
        case("recompute-str", x, scale_factor=2.0, recompute_scale_factor="yes"),
        case("recompute-false-with-size", x, size=4, recompute_scale_factor=False),
        case("antialias-nearest", x, size=4, antialias=True),
        case("antialias-str", u8, size=4, mode="bilinear", antialias="yes"),
        case("antialias-int", u8, size=4, mode="bilinear", antialias=1),
        case("antialias-zero-nearest", x, size=4, antialias=0),
        case("antialias-3d", x3, size=4, mode="linear", antialias=True),
    ]


@pytest.mark.parametrize("args, kwargs", _torch_cases())
def test_torch_interpolate(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    torch = pytest.importorskip("torch")
    from resamplex.compat import torch as door
    same_outcome(torch.nn.functional.interpolate, door.interpolate, args, kwargs)


# ------------------------------------------------------------------------------ known refusals

def _known_refusals() -> list[Any]:
    """Calls the original takes and the door refuses, with the door's reason (docs/*.md)."""
    return [
        pytest.param("cv2", "resize", (np.arange(12).reshape(3, 4), (5, 3)),
                     dict(interpolation=0), id="cv2-int64-src (OpenCV 5.1: as int32)"),
        pytest.param("cv2", "resize", (np.arange(12, dtype=np.uint64).reshape(3, 4), (5, 3)),
                     dict(interpolation=0), id="cv2-uint64-nearest (OpenCV 5's CV_64U)"),
        pytest.param("cv2", "resize", (np.zeros((3, 4), np.int32), (5, 3)),
                     dict(interpolation=5), id="cv2-int32-linear-exact (Q32 fixed point)"),
        pytest.param("pil", "resize", (U8, (4, 3), 2, (0, 0, NAN, 4)), {},
                     id="pil-box-nan (undefined in Pillow's C code)"),
        pytest.param("pil", "resize", (U8, (4, 3), 6), {}, id="pil-mks2013"),
        pytest.param("pil", "resize", (U8, (4, 3), 7), {}, id="pil-mks2021"),
        pytest.param("skimage", "downscale_local_mean", (IMG.astype(complex), 2), {},
                     id="skimage-mean-complex"),
        pytest.param("skimage", "downscale_local_mean", (IMG, 3), dict(cval=[1, 2]),
                     id="skimage-mean-cval-pair (numpy.pad's before/after)"),
        pytest.param("torch", "interpolate",
                     (Fresh(lambda: __import__("torch").zeros(1, 1, 6, 8), "a tensor"),),
                     dict(size=(3, 4), mode="lanczos", antialias=True), id="torch-lanczos"),
    ]


def _original(library: str, name: str) -> Callable[..., Any]:
    if library == "cv2":
        return pytest.importorskip("cv2").resize
    if library == "pil":
        return _pillow(pytest.importorskip("PIL.Image"), name)
    if library == "skimage":
        return getattr(pytest.importorskip("skimage.transform"), name)
    torch = pytest.importorskip("torch")
    return torch.nn.functional.interpolate


@pytest.mark.parametrize("library, name, args, kwargs", _known_refusals())
def test_known_refusals(library: str, name: str, args: tuple[Any, ...],
                        kwargs: dict[str, Any]) -> None:
    """Each is refused with an ``UnsupportedError`` or ``ResamplexError`` while the original
    returns: when a door learns one, its case moves into the battery above."""
    import importlib
    original = _original(library, name)
    door = getattr(importlib.import_module(f"resamplex.compat.{library}"), name)
    _, want_exc = _outcome(original, args, kwargs)
    assert want_exc is None, want_exc
    _, got_exc = _outcome(door, args, kwargs)
    assert isinstance(got_exc, rx.ResamplexError), got_exc
