"""Type stub for the compiled ``resamplex._engine.kernels._prodpass`` (see ``_prodpass.pyx`` and
docs/engine-passes.md): its kernel runs inside the executor (OP_PRODUCT)."""

from typing import Any

def kernel_table() -> Any:
    """The module's entry point as a ``resamplex.kernels`` capsule."""
