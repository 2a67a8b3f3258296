"""The kernels: one Cython module per pass kind, each exporting its entry points as a
``KernelTable`` (``_pass.pxd``) that the executor (``_engine/_exec.pyx``) runs.

``_gather`` (byte moves), ``_taps`` (weighted taps, fused and phase sweeps; rendered from
``_taps.pyx.tp``), ``_fixed`` (uint8 fixed point), ``_intpass``, ``_floatpass``,
``_blockpass``, ``_prodpass`` (the exact passes of the front doors), ``_spline`` (B-spline
prefilters and interpolation), ``_alpha`` (premultiplied alpha) and ``_reduce`` (block means).
The dispatched ones (setup.py ``DISPATCHED``) are built once per instruction-set level
(``_taps_avx2``, ``_taps_avx512``, ...). Their vector helpers are C headers beside them.
"""
