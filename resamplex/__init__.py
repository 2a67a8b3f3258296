"""resamplex: fast, exact resampling of N-dimensional NumPy arrays.

See ``resamplex.resize`` for the core API, ``resamplex.show_config()`` for the build.
"""

from ._config import __version__, show_config
from ._engine.plan import cache_info as plan_cache_info
from ._engine.plan import clear_cache as clear_plan_cache
from ._engine.plan import set_cache_limit as set_plan_cache_limit
from ._errors import ResamplexError, UnsupportedError
from ._resize import Resampler, get_num_threads, resize, resize_adjoint, set_num_threads

__all__ = [
    "__version__",
    "ResamplexError",
    "Resampler",
    "UnsupportedError",
    "clear_plan_cache",
    "get_num_threads",
    "plan_cache_info",
    "resize",
    "resize_adjoint",
    "set_num_threads",
    "set_plan_cache_limit",
    "show_config",
]
