"""The codes and limits of the kernel contract (``_pass.pxd``), as the executor reports them:
what a pass spec's ``op``, ``compute``, ``phase`` and ``loop`` fields hold, and the sizes the
loops are built for."""

from __future__ import annotations

from .. import _exec

# The codes of the kernel contract (_pass.pxd), as the kernels define them.
OP_GATHER, OP_WEIGHTED, OP_FUSED, OP_FIXED, OP_STORE = (
    _exec.OPS[k] for k in ("gather", "weighted", "fused", "fixed", "store"))
C_DOUBLE, C_FLOAT = _exec.COMPUTES["float64"], _exec.COMPUTES["float32"]
PHASE_NONE, PHASE_UP2, PHASE_DOWN2, PHASE_DOWN32 = (
    _exec.PHASES[k] for k in ("none", "up2", "down2", "down32"))
SHAPE_LAST, SHAPE_MID, SHAPE_OUTER, SHAPE_LAST_CSR = (_exec.LOOPS[k] for k in
                                                      ("last", "mid", "outer", "last_csr"))
BLOCK, MAX_ROW, MAX_MERGED_CHANNELS, WIDE_TAPS = (
    _exec.LIMITS[k] for k in ("block", "max_row", "max_channels", "wide_taps"))
