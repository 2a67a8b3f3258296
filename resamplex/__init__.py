"""resamplex: fast, exact resampling of N-dimensional NumPy arrays.

See ``resamplex.resize`` for the core API, ``resamplex.show_config()`` for the build.
"""

from ._config import __version__, show_config
from ._errors import ResamplexError, UnsupportedError
from ._resize import Resampler, get_num_threads, resize, resize_adjoint, set_num_threads

__all__ = [
    "__version__",
    "ResamplexError",
    "Resampler",
    "UnsupportedError",
    "get_num_threads",
    "resize",
    "resize_adjoint",
    "set_num_threads",
    "show_config",
]
