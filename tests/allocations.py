"""How much a call allocates, for tests that a refusal comes before any big allocation
(SPEC §8: "never allocate gigabytes first"). Speed is never asserted in unit tests; memory is.

``tracemalloc`` sees every Python allocation and NumPy's array buffers (NumPy reports them to
it), so an output or a table allocated before a refusal shows up in the peak.
"""

import tracemalloc

#: A refusal allocates less than this (the largest bad-input call's own arrays are far below).
ALLOC_SLACK = 16 << 20


def allocation_peak(call):
    """Run ``call()``; return ``(exception or None, bytes)``: the tracemalloc peak above the
    memory traced when it started. Tracing is on only during the call."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            call()
        except BaseException as exc:  # noqa: BLE001 - the caller decides what is allowed
            error = exc
        else:
            error = None
        return error, tracemalloc.get_traced_memory()[1] - base
    finally:
        if started:
            tracemalloc.stop()
