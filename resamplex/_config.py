"""Version and build information."""

from __future__ import annotations

from typing import Any

from . import _dtypes
from ._engine import _exec

try:
    from importlib.metadata import PackageNotFoundError, version as _version

    __version__ = _version("resamplex")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.1.0"

_BUILD: dict[str, Any] = {}
try:
    # Written by setup.py's build_ext; absent from a source tree that was never built.
    from ._build_config import CONFIG  # type: ignore[import-not-found, unused-ignore]

    _BUILD = dict(CONFIG)
except ImportError:  # pragma: no cover - built without setup.py's build_ext
    pass


def show_config(print_: bool = True) -> dict[str, Any]:
    """Report how this copy of resamplex was built and will run.

    Returns a dict (``version``, ``openmp``, ``threads``, ``max_threads``, ``compile_args``,
    ``link_args``, ``native``, ``cpu_level``, ``cpu_levels``, ``dtypes``, ``modes``) and,
    unless ``print_=False``, prints it. ``cpu_level`` is the instruction-set level the kernels
    run at: the best of ``cpu_levels`` (the levels built that this CPU runs), capped by the
    environment variable ``RESAMPLEX_CPU_LEVEL`` (``baseline``, ``avx2``, ``avx512``).

    Examples
    --------
    >>> import resamplex as rx
    >>> cfg = rx.show_config(print_=False)
    >>> cfg["cpu_level"] in cfg["cpu_levels"], "linear" in cfg["modes"]
    (True, True)
    """
    from ._resize import MODES, get_num_threads

    info: dict[str, Any] = {
        "version": __version__,
        "openmp": bool(_exec.openmp_enabled()),
        "threads": get_num_threads(),
        "max_threads": int(_exec.max_threads()),
        "compiler": _BUILD.get("compiler", "unknown"),
        "compile_args": list(_BUILD.get("compile_args", [])),
        "link_args": list(_BUILD.get("link_args", [])),
        "native": bool(_BUILD.get("native", False)),
        "cpu_level": _exec.cpu_level(),
        "cpu_levels": _exec.cpu_levels(),
        "numpy_build": _BUILD.get("numpy_build", "unknown"),
        "dtypes": {
            "nearest": "any fixed-size dtype (byte copy)",
            "weighted": list(_dtypes.WEIGHTED_DTYPES)
            if _dtypes.bfloat16_installed()
            else [d for d in _dtypes.WEIGHTED_DTYPES if d != "bfloat16"],
        },
        "modes": list(MODES),
    }
    if print_:
        width = max(len(k) for k in info)
        for k, v in info.items():
            print(f"{k:<{width}}  {v}")
    return info
