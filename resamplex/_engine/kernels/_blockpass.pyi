"""Type stub for the compiled ``resamplex._engine.kernels._blockpass`` (see ``_blockpass.pyx`` and
docs/engine-passes.md): its kernel runs inside the executor (OP_BLOCK)."""

from typing import Any

def kernel_table() -> Any:
    """The module's entry point as a ``resamplex.kernels`` capsule."""
