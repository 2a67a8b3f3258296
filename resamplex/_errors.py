"""Exceptions and the helpers that word their messages.

Every message names the parameter, shows what was received and says what is accepted.
"""

from __future__ import annotations

from typing import Any, Iterable


class ResamplexError(ValueError):
    """A bad parameter value or combination.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> try:
    ...     rx.resize(np.zeros(4), (2,), mode="bilinear")
    ... except rx.ResamplexError as exc:
    ...     print(exc)
    mode: expected one of 'nearest', 'linear', 'cubic', 'lanczos', 'hamming', 'box', 'area'; got 'bilinear'
    """


class UnsupportedError(ResamplexError, TypeError):
    """A dtype, rank, feature level or product that the operator does not support.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> try:
    ...     rx.resize(np.zeros(4, dtype=np.int64), (2,))    # linear: not for int64
    ... except rx.UnsupportedError as exc:
    ...     print(isinstance(exc, TypeError), isinstance(exc, ValueError))
    True True
    """


class ResamplexTypeError(ResamplexError, TypeError):
    """An argument of a type the original library refuses with ``TypeError`` (a float where
    it takes an integer, a string where it takes a number): the front doors raise it where
    the original raises ``TypeError``, and it is a ``ResamplexError`` as well.

    Examples
    --------
    >>> import numpy as np, resamplex as rx
    >>> from resamplex.compat import pil
    >>> try:
    ...     pil.reduce(np.zeros((4, 4), np.uint8), 1.5)    # Pillow: TypeError
    ... except TypeError as exc:
    ...     print(isinstance(exc, rx.ResamplexTypeError), isinstance(exc, ValueError))
    True True
    """


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def bad_value(name: str, value: Any, accepted: str) -> ResamplexError:
    """``name``: expected ``accepted``, got ``value``."""
    return ResamplexError(f"{name}: expected {accepted}, got {_show(value)}")


def bad_type(name: str, value: Any, accepted: str) -> ResamplexTypeError:
    """``name``: expected ``accepted``, got ``value`` (of a type the original refuses)."""
    return ResamplexTypeError(f"{name}: expected {accepted}, got {_show(value)}")


def bad_choice(name: str, value: Any, choices: Iterable[str]) -> ResamplexError:
    """``name`` must be one of the ``choices``."""
    listed = ", ".join(repr(c) for c in choices)
    return ResamplexError(f"{name}: expected one of {listed}; got {_show(value)}")
