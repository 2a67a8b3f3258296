"""The typed usage examples (``tests/typing_usage.py``, checked by ``ci/typecheck.sh``) run."""

import typing_usage


def test_typing_usage_core():
    typing_usage.core()


def test_typing_usage_facades():
    typing_usage.facades()
