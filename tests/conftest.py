"""Shared pytest configuration for the resamplex tests."""

import os
import sys

import pytest

# tests/reference.py is imported as a plain module by every test file.
sys.path.insert(0, os.path.dirname(__file__))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slow: large-memory or long-running tests (run by default; deselect with -m 'not slow')",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # The large-memory tests (several GiB each) share one xdist group: under `--dist loadgroup`
    # (pyproject.toml's addopts) they run in one worker, one after another, never side by side.
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.xdist_group("large-memory"))
