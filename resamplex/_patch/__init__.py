"""Patch mode (SPEC §6.1): the originals' own functions routed to the exact doors.

``patch("cv2")`` replaces ``cv2.resize`` with a function of the same name, signature and
docstring that asks the door's *cover check* first: a call the door reproduces bit for bit
(types, dtypes, modes, devices, flags, the original's build, and sizes where the door is not
slower) takes the door; every other call goes to the original function, untouched, so its
result and its errors are the original's. The check reads the arguments only: it allocates
nothing and writes nothing, and a call that falls through costs the original's time plus the
check (a microsecond or two).

Each library has a module here (``cv2``, ``pil``, ``scipy``, ``skimage``, ``torch``) that lists
its :class:`Target` s: where the original lives and the route that covers it. A route is a
function built from the original; it returns the door's result, or a :class:`Fall` (one
constant per reason, so a fall-through allocates nothing) that sends the call to the original
and names why in :func:`patch_report`.

Libraries not yet imported are patched as they are imported (an import hook on the module
that defines each target), so ``patch()`` imports nothing and ``resamplex run script.py``
costs a script nothing for the libraries it never uses. Names other modules of the same
library bound to an original (``skimage.transform.resize``, ``scipy.ndimage.zoom``) are
replaced too, and put back by :func:`unpatch`. Everything here holds one lock, so patching,
unpatching and imports in several threads see one state.

The package is ``_patch`` (private) so that ``resamplex.patch`` stays the function.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.abc
import importlib.util
import itertools
import numbers
import os
import platform
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

from .._errors import bad_choice

__all__ = ["patch", "unpatch", "patched", "patch_report", "format_report", "LIBRARIES",
           "Fall", "Target", "bind", "is_int", "is_real", "settings"]


class Fall:
    """A route's answer "not covered": the call goes to the original; ``reason`` says why."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Fall({self.reason!r})"


@dataclass(frozen=True)
class Target:
    """One patched function: ``module.path`` (``path`` may go through a class, as
    ``Image.resize``), its ``route`` (built from the original) and the package prefixes
    whose modules' names bound to the original are replaced too."""

    module: str
    path: str
    route: Callable[[Callable[..., Any]], Callable[..., Any]]
    rebind: tuple[str, ...] = ()
    public: str = ""            # the name users call it by, for the report

    @property
    def name(self) -> str:
        return self.public or f"{self.module}.{self.path}"


#: Library name -> the module (under ``resamplex._patch``) that lists its targets, and the
#: top-level package whose presence makes it "installed".
LIBRARIES = {
    "cv2": "cv2",
    "pil": "PIL",
    "scipy": "scipy",
    "skimage": "skimage",
    "torch": "torch",
}

_LOCK = threading.RLock()


class _Settings:
    """``small``: whether calls smaller than a route's measured threshold go to the original
    (they do, for speed; the bits are the same either way). The environment variable
    ``RESAMPLEX_PATCH_EVERY_SIZE=1`` turns it off, so that a test suite run patched sends
    every covered call, however small, through the door (docs/patch.md, "How it is
    verified")."""

    small = os.environ.get("RESAMPLEX_PATCH_EVERY_SIZE", "") not in ("1", "true", "yes")


settings = _Settings()


@dataclass
class _Stats:
    """Counts for one target: itertools counters, whose ``next`` is atomic under the GIL, so
    calls in several threads lose no count."""

    routed: Iterator[int] = field(default_factory=itertools.count)
    reasons: dict[str, Iterator[int]] = field(default_factory=dict)

    def fell(self, reason: str) -> None:
        counter = self.reasons.get(reason)
        if counter is None:
            counter = self.reasons.setdefault(reason, itertools.count())
        next(counter)


def _count(counter: Iterator[int]) -> int:
    # the value an itertools.count would give next, read without advancing it
    return int(repr(counter)[6:-1])


_STATS: dict[str, _Stats] = {}


@dataclass
class _Applied:
    target: Target
    original: Callable[..., Any]
    wrapper: Callable[..., Any]
    places: list[tuple[Any, str]]          # (namespace object, attribute) now holding wrapper


_APPLIED: dict[str, list[_Applied]] = {}      # library -> targets patched
_WAITING: dict[str, set[str]] = {}           # module name -> libraries waiting for its import


def _targets(library: str) -> list[Target]:
    mod = importlib.import_module(f"{__name__}.{library}")
    return list(mod.TARGETS)


def _installed(library: str) -> bool:
    try:
        return importlib.util.find_spec(LIBRARIES[library]) is not None
    except (ImportError, ValueError):
        return False


def _resolve(target: Target) -> tuple[Any, str]:
    """(the namespace holding the original, its attribute name)."""
    owner: Any = sys.modules[target.module]
    *outer, attr = target.path.split(".")
    for part in outer:
        owner = getattr(owner, part)
    return owner, attr


#: The doors are checked bit for bit against the originals' x86-64 builds; elsewhere (aarch64
#: wheels, whose C compilers fuse multiply-adds, OpenCV's and Pillow's other kernels there)
#: every call goes to the original.
X86_64 = platform.machine().lower() in ("x86_64", "amd64")
NOT_X86_64 = Fall("not x86-64: the original's build here is not the one the door reproduces")


def _elsewhere(*args: Any, **kwargs: Any) -> Fall:
    return NOT_X86_64


def _wrap(target: Target, original: Callable[..., Any]) -> Callable[..., Any]:
    route = target.route(original) if X86_64 else _elsewhere
    stats = _STATS.setdefault(target.name, _Stats())

    @functools.wraps(original)
    def patched(*args: Any, **kwargs: Any) -> Any:
        try:
            result = route(*args, **kwargs)
        except Exception as exc:
            # A call the check let through and the door refused: arguments the original
            # refuses too (its own error follows), or a gap in the check. Either way the
            # caller gets the original's result or error, and the report shows the call.
            stats.fell(f"the door refused it ({type(exc).__name__}: {exc})"[:240])
            return original(*args, **kwargs)
        if result.__class__ is Fall:
            stats.fell(result.reason)
            return original(*args, **kwargs)
        next(stats.routed)
        return result

    patched.__resamplex_original__ = original  # type: ignore[attr-defined]
    return patched


def _apply(library: str, target: Target) -> None:
    owner, attr = _resolve(target)
    original = getattr(owner, attr)
    if getattr(original, "__resamplex_original__", None) is not None:
        return                                  # already ours (patched twice)
    wrapper = _wrap(target, original)
    setattr(owner, attr, wrapper)
    places = [(owner, attr)]
    for name, module in list(sys.modules.items()):
        if module is None or module is owner or not name.startswith(target.rebind):
            continue
        for key, value in list(getattr(module, "__dict__", {}).items()):
            if value is original:
                setattr(module, key, wrapper)
                places.append((module, key))
    _APPLIED.setdefault(library, []).append(_Applied(target, original, wrapper, places))


def _on_import(module_name: str) -> None:
    with _LOCK:
        for library in sorted(_WAITING.pop(module_name, ())):
            for target in _targets(library):
                if target.module == module_name:
                    _apply(library, target)


class _LoaderProxy(importlib.abc.Loader):
    """The real loader, whose ``exec_module`` patches the module's targets once it ran."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        _on_import(module.__name__)


class _ImportHook(importlib.abc.MetaPathFinder):
    """On ``sys.meta_path`` while a patched library's module is still to be imported."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname not in _WAITING:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _LoaderProxy(spec.loader)
                return spec
        return None


_HOOK = _ImportHook()


def _hook_needed() -> None:
    if _WAITING and _HOOK not in sys.meta_path:
        sys.meta_path.insert(0, _HOOK)
    elif not _WAITING and _HOOK in sys.meta_path:
        sys.meta_path.remove(_HOOK)


def _libraries(libraries: tuple[str, ...], *, installed_only: bool) -> list[str]:
    names = []
    for lib in libraries:
        if not isinstance(lib, str) or lib not in LIBRARIES:
            raise bad_choice("libraries", lib, LIBRARIES)
        if lib not in names:
            names.append(lib)
    if not libraries:
        names = [lib for lib in LIBRARIES if not installed_only or _installed(lib)]
    return names


def _patch_one(library: str, targets: list[Target]) -> bool:
    if library in _APPLIED or any(library in libs for libs in _WAITING.values()):
        return False
    for target in targets:
        module = sys.modules.get(target.module)
        if module is not None and getattr(module, "__spec__", None) is not None \
                and not getattr(module.__spec__, "_initializing", False):
            _apply(library, target)
        else:
            _WAITING.setdefault(target.module, set()).add(library)
    return True


def patch(*libraries: str) -> list[str]:
    """Route the originals' own resize functions to the doors, in this process.

    Parameters
    ----------
    *libraries : str
        Any of ``"cv2"`` (``cv2.resize``), ``"pil"`` (``PIL.Image.Image.resize`` and
        ``reduce``, so ``thumbnail`` and ``ImageOps`` too), ``"scipy"``
        (``scipy.ndimage.zoom``, ``spline_filter``, ``spline_filter1d``), ``"skimage"``
        (``skimage.transform.resize``, ``rescale``, ``downscale_local_mean``) and ``"torch"``
        (``torch.nn.functional.interpolate``). None: every one that is installed.

    Returns
    -------
    list of str
        The libraries this call patched (those patched before are left as they are).

    A library not imported yet is patched when it is imported. A patched call takes the door
    only where the door gives the original's bits and is not slower; every other call runs
    the original (see :func:`patch_report`). ``docs/patch.md`` has the table of what is
    covered.

    Examples
    --------
    >>> import resamplex as rx
    >>> rx.patch("cv2")
    ['cv2']
    >>> rx.patch("cv2")                        # twice: nothing more
    []
    >>> rx.unpatch("cv2")
    ['cv2']
    """
    with _LOCK:
        names = _libraries(libraries, installed_only=True)
        targets = {lib: _targets(lib) for lib in names}      # every route found first
        done = [lib for lib in names if _patch_one(lib, targets[lib])]
        _hook_needed()
        return done


def unpatch(*libraries: str) -> list[str]:
    """Put back the very objects :func:`patch` replaced (no argument: every library).

    Returns the libraries that were patched and are no longer. The counts of
    :func:`patch_report` are kept.
    """
    with _LOCK:
        names = _libraries(libraries, installed_only=False)
        done = []
        for lib in names:
            was = False
            for module in list(_WAITING):
                if lib in _WAITING[module]:
                    _WAITING[module].discard(lib)
                    was = True
                    if not _WAITING[module]:
                        del _WAITING[module]
            for applied in reversed(_APPLIED.pop(lib, [])):
                was = True
                for owner, attr in applied.places:
                    if getattr(owner, attr, None) is applied.wrapper:
                        setattr(owner, attr, applied.original)
                _restore_copies(applied)
            if was:
                done.append(lib)
        _hook_needed()
        return done


def _restore_copies(applied: _Applied) -> None:
    """Put the original back wherever the library copied the wrapper after it was patched
    (``cv2``'s package copies its native module's names as it finishes importing)."""
    target = applied.target
    prefixes = (target.module.split(".")[0],) + target.rebind
    for name, module in list(sys.modules.items()):
        if module is None or not (name == prefixes[0] or name.startswith(prefixes)):
            continue
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            if value is applied.wrapper:
                setattr(module, key, applied.original)


@contextlib.contextmanager
def patched(*libraries: str) -> Iterator[list[str]]:
    """``with resamplex.patched("cv2"):`` -- patched inside, and afterwards as before (a
    library patched before the block stays patched). Yields the libraries it patched."""
    done = patch(*libraries)
    try:
        yield done
    finally:
        if done:
            unpatch(*done)


def patch_report(*, reset: bool = False) -> dict[str, dict[str, Any]]:
    """Per patched function (``"cv2.resize"``, ...): ``{"routed": n, "original": m,
    "reasons": {reason: count}}``, since the process started (or the last ``reset``).

    ``routed`` calls took the door; ``original`` calls went to the original function, each
    under the reason its route gave ("a cv2.UMat", "mode 'P'", "a CUDA tensor", ...).
    """
    with _LOCK:
        report = {}
        for name in sorted(_STATS):
            stats = _STATS[name]
            reasons = {r: _count(c) for r, c in stats.reasons.items()}
            reasons = {r: n for r, n in sorted(reasons.items(), key=lambda kv: -kv[1]) if n}
            report[name] = {"routed": _count(stats.routed),
                            "original": sum(reasons.values()), "reasons": reasons}
        if reset:
            for stats in _STATS.values():
                stats.routed = itertools.count()
                stats.reasons = {}
        return report


def format_report(report: dict[str, dict[str, Any]] | None = None) -> str:
    """:func:`patch_report` as a table of text."""
    report = patch_report() if report is None else report
    if not report:
        return "resamplex patch report: no patched function was called\n"
    lines = ["resamplex patch report", ""]
    for name, row in report.items():
        total = row["routed"] + row["original"]
        lines.append(f"{name}: {total} calls, {row['routed']} took the door, "
                     f"{row['original']} went to the original")
        for reason, n in row["reasons"].items():
            lines.append(f"    {n:>8}  {reason}")
    return "\n".join(lines) + "\n"


_MISSING = object()


def bind(args: tuple[Any, ...], kwargs: dict[str, Any], names: tuple[str, ...],
         defaults: tuple[Any, ...], positional: int | None = None) -> list[Any] | None:
    """The values of ``names`` as a call with ``args`` and ``kwargs`` gives them (the last
    ``len(defaults)`` names have those defaults; only the first ``positional`` may be given
    by position), or None where the call does not fit (too many, unknown or repeated
    arguments, a required one missing): such a call is the original's to refuse."""
    n = len(names)
    given = len(args)
    if given > (n if positional is None else positional):
        return None
    first_default = n - len(defaults)
    if not kwargs:                      # the common call: positional arguments only
        return None if given < first_default else [*args, *defaults[given - first_default:]]
    values = list(args) + [_MISSING] * (n - given)
    if kwargs:
        for key, value in kwargs.items():
            try:
                i = names.index(key)
            except ValueError:
                return None
            if values[i] is not _MISSING:
                return None
            values[i] = value
    for i in range(given, n):
        if values[i] is _MISSING:
            if i < first_default:
                return None
            values[i] = defaults[i - first_default]
    return values


def is_int(v: Any) -> bool:
    """A Python or NumPy integer, not a bool (plain ints first: the ABC check is slow)."""
    t = type(v)
    if t is int:
        return True
    return t is not bool and isinstance(v, numbers.Integral) and not isinstance(v, np.bool_)


def is_real(v: Any) -> bool:
    """A Python or NumPy real number, not a bool."""
    t = type(v)
    if t is float or t is int:
        return True
    return t is not bool and isinstance(v, numbers.Real) and not isinstance(v, np.bool_)
