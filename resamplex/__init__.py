"""resamplex: fast, exact resampling of N-dimensional NumPy arrays.

See ``resamplex.resize`` for the core API, ``resamplex.show_config()`` for the build.
"""

try:
    from ._config import __version__, show_config
    from ._engine.cache import cache_info as plan_cache_info
    from ._engine.cache import clear_cache as clear_plan_cache
    from ._engine.cache import set_cache_limit as set_plan_cache_limit
    from ._errors import ResamplexError, ResamplexTypeError, UnsupportedError
    from ._patch import patch, patch_report, patched, unpatch
    from ._resize import Resampler, get_num_threads, resize, resize_adjoint, set_num_threads
except ImportError:
    # Python's own message for missing compiled kernels ("cannot import name '_taps' from
    # 'resamplex._engine'") says nothing of the cause: usually a source tree on sys.path.
    from ._kernels import missing_kernels, missing_kernels_error

    _missing = missing_kernels()
    if _missing:
        raise missing_kernels_error(_missing) from None
    raise

__all__ = [
    "__version__",
    "ResamplexError",
    "ResamplexTypeError",
    "Resampler",
    "UnsupportedError",
    "clear_plan_cache",
    "get_num_threads",
    "patch",
    "patch_report",
    "patched",
    "plan_cache_info",
    "resize",
    "resize_adjoint",
    "set_num_threads",
    "set_plan_cache_limit",
    "unpatch",
    "show_config",
]
