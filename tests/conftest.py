"""Shared pytest configuration for the resamplex tests."""

import os
import sys

# tests/reference.py is imported as a plain module by every test file.
sys.path.insert(0, os.path.dirname(__file__))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slow: large-memory or long-running tests (run by default; deselect with -m 'not slow')",
    )
