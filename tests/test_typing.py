"""The typed usage examples (``tests/typing_usage.py``, checked by ``ci/typecheck.sh``) run, and
every type they pin with ``assert_type`` holds at run time too.

``typing_extensions.assert_type`` does nothing at run time; here it is replaced by a check of
the value against the annotation (the subset ``typing_usage`` uses: NumPy arrays, ``int``,
``bool``, ``str``, ``tuple[int, ...]``, ``dict[str, Any]`` and exception classes), and the
number of checks is counted, so a call that stops returning what its annotation promises -- or
an example that stops running its checks -- fails here.
"""

import typing

import numpy as np
import pytest

import typing_usage


def _holds(value, annotation) -> bool:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is np.ndarray or annotation is np.ndarray:
        return isinstance(value, np.ndarray)
    if origin is tuple:
        assert args[-1] is Ellipsis, annotation
        return isinstance(value, tuple) and all(_holds(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(_holds(k, args[0]) for k in value)
    if annotation is typing.Any:
        return True
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(annotation, type):
        return isinstance(value, annotation)
    raise AssertionError(f"test_typing cannot check {annotation!r}")


@pytest.fixture
def checked(monkeypatch):
    """Replace ``assert_type`` in typing_usage by a run-time check; yield the list of checks."""
    seen = []

    def assert_type(value, annotation):
        assert _holds(value, annotation), f"{value!r} is not a {annotation!r}"
        seen.append(annotation)
        return value

    monkeypatch.setattr(typing_usage, "assert_type", assert_type)
    return seen


def test_holds_can_fail():
    import numpy.typing as npt
    assert not _holds([1.0], npt.NDArray[typing.Any])
    assert not _holds((1, 2.0), tuple[int, ...])
    assert not _holds(True, int)
    assert not _holds({1: 2}, dict[str, typing.Any])


def test_typing_usage_core(checked):
    typing_usage.core()
    # y, out_shape, in_shape, adjoint, resize_adjoint, get_num_threads, show_config, __version__
    assert len(checked) == 8


def test_typing_usage_facades(checked):
    typing_usage.facades()
    # dml.resample, dml.supports, ascend.upsample_nearest, ascend.supports, interpolate,
    # onnx.resize
    assert len(checked) == 6
