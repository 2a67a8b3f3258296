"""Type stub for the compiled ``resamplex._engine.kernels._intpass`` (see ``_intpass.pyx`` and
docs/engine-passes.md): its kernels run inside the executor."""

from typing import Any

def kernel_table() -> Any:
    """The module's entry points as a ``resamplex.kernels`` capsule."""
