"""Array files for ``resamplex resize``: read by extension, write atomically.

======================  ===============================  ============================================
extension               read and written with            array
======================  ===============================  ============================================
``.npy``                NumPy (``allow_pickle`` off)     any shape and fixed-size dtype
``.png``                imageio (Pillow)                 ``(H, W)`` or ``(H, W, C)``, uint8 or uint16
``.jpg``, ``.jpeg``     imageio (Pillow), quality 95     ``(H, W)`` or ``(H, W, 3)``, uint8
``.tif``, ``.tiff``     tifffile                         ``(H, W)`` or ``(H, W, C)``, any TIFF dtype
======================  ===============================  ============================================

Images are resized along their two spatial axes ``(0, 1)`` unless the caller names other
axes; a ``.npy`` array along all of its axes (:func:`default_axes`). imageio and tifffile are
the ``io`` extra (``pip install "resamplex[io]"``); ``.npy`` files need nothing more.

A file is written to a temporary name in the destination folder and renamed over the final
name (:func:`write_atomic`), so a reader never sees half a file and a failed write leaves
nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "FORMATS",
    "NEEDS",
    "FileFormatError",
    "MissingDependencyError",
    "default_axes",
    "file_kind",
    "missing_packages",
    "read_array",
    "write_atomic",
]

#: File extension (lower case) -> kind: ``"npy"``, ``"image"`` (PNG, JPEG) or ``"tiff"``.
FORMATS: Mapping[str, str] = MappingProxyType({
    ".npy": "npy",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".tif": "tiff",
    ".tiff": "tiff",
})

IO_EXTRA_HINT = 'pip install "resamplex[io]"'


class FileFormatError(ValueError):
    """A file whose name or content is not an array this module reads or writes."""


def file_kind(path: str | os.PathLike[str]) -> str:
    """The kind of file ``path`` names, from its extension (see :data:`FORMATS`).

    Raises
    ------
    FileFormatError
        For an extension that is not in :data:`FORMATS`.

    Examples
    --------
    >>> from resamplex._io import file_kind
    >>> file_kind("scan.TIF"), file_kind("photo.jpeg"), file_kind("volume.npy")
    ('tiff', 'image', 'npy')
    """
    ext = Path(path).suffix.lower()
    kind = FORMATS.get(ext)
    if kind is None:
        known = ", ".join(FORMATS)
        raise FileFormatError(f"unknown file extension {ext or '(none)'!r}; "
                              f"expected one of {known}")
    return kind


def default_axes(path: str | os.PathLike[str], ndim: int) -> tuple[int, ...]:
    """The axes ``resamplex resize`` resamples when none are given.

    Images (PNG, JPEG, TIFF) are ``(H, W)`` or ``(H, W, C)``: the spatial axes ``(0, 1)``.
    A ``.npy`` array: all of its axes.

    Examples
    --------
    >>> from resamplex._io import default_axes
    >>> default_axes("photo.png", 3), default_axes("volume.npy", 3)
    ((0, 1), (0, 1, 2))
    """
    if file_kind(path) == "npy" or ndim < 2:
        return tuple(range(ndim))
    return (0, 1)


#: The modules each kind of file needs: (import name, package to install), the ``io`` extra.
NEEDS: Mapping[str, tuple[tuple[str, str], ...]] = MappingProxyType({
    "npy": (),
    "image": (("imageio.v3", "imageio"), ("PIL", "Pillow")),  # imageio's pillow plugin
    "tiff": (("tifffile", "tifffile"),),
})


class MissingDependencyError(FileFormatError):
    """A format's optional reader/writer is not installed (the file itself may be fine)."""


def missing_packages(kind: str) -> list[str]:
    """The packages of :data:`NEEDS` that a ``kind`` of file needs and that do not import."""
    import importlib

    missing = []
    for module, package in NEEDS[kind]:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(package)
    return missing


def _need(module: str, ext: str) -> Any:
    """The module that reads/writes ``ext`` files, after checking that every package the
    format needs imports (MissingDependencyError names the missing ones, never the file)."""
    import importlib

    missing = missing_packages(FORMATS[ext])
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise MissingDependencyError(f"{ext} files need {' and '.join(missing)}, which {verb} "
                                     f"not installed: {IO_EXTRA_HINT}")
    return importlib.import_module(module)


def read_array(path: str | os.PathLike[str]) -> npt.NDArray[Any]:
    """Read the array in ``path``, by its extension (see :data:`FORMATS`).

    Raises
    ------
    MissingDependencyError
        The format's reader is not installed (a FileFormatError that names the package).
    FileFormatError
        Unknown extension, or content that is not an array of the expected layout (an image
        must be ``(H, W)`` or ``(H, W, C)``).
    OSError
        The file cannot be read.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> from resamplex._io import read_array, write_atomic
    >>> folder = tempfile.mkdtemp()
    >>> write_atomic(os.path.join(folder, "a.npy"), np.arange(3.0))
    >>> read_array(os.path.join(folder, "a.npy"))
    array([0., 1., 2.])
    """
    kind = file_kind(path)
    ext = Path(path).suffix.lower()
    array: npt.NDArray[Any]
    if kind == "npy":
        try:
            array = np.load(path, allow_pickle=False)
        except ValueError as exc:  # not an .npy file, or one that holds Python objects
            raise FileFormatError(f"not a readable .npy array ({exc})") from None
        if not isinstance(array, np.ndarray):  # pragma: no cover - np.load of a .npz name
            raise FileFormatError("not a single .npy array")
        return array
    # A missing reader is said before the file is opened, and never as a bad file.
    reader = _need("tifffile" if kind == "tiff" else "imageio.v3", ext)
    try:
        if kind == "tiff":
            array = np.asarray(reader.imread(path))
        else:  # Pillow's reader only: imageio would try every plugin it has on a bad file
            array = np.asarray(reader.imread(path, plugin="pillow"))
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        raise
    except Exception as exc:  # TiffFileError, Pillow's UnidentifiedImageError, ValueError, ...
        if kind == "tiff":
            raise FileFormatError(f"not a readable TIFF file ({_describe(exc)})") from None
        # imageio says only that its Pillow plugin "can not handle" the file
        raise FileFormatError(f"not a readable {ext} image (Pillow cannot identify or "
                              "decode it)") from None
    if array.size == 0:
        raise FileFormatError(f"no image data (shape {array.shape})")
    if array.ndim not in (2, 3):
        raise FileFormatError(f"expected an (H, W) or (H, W, C) image; got shape {array.shape}")
    return array


def _describe(exc: BaseException) -> str:
    """An exception as one short line (readers' messages can span several)."""
    text = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _write(fh: IO[bytes], array: npt.NDArray[Any], ext: str) -> None:
    kind = FORMATS[ext]
    if kind == "npy":
        np.save(fh, array, allow_pickle=False)
    elif kind == "tiff":
        _need("tifffile", ext).imwrite(fh, array)
    else:
        iio = _need("imageio.v3", ext)
        extra = {"quality": 95} if ext in (".jpg", ".jpeg") else {}
        iio.imwrite(fh, array, plugin="pillow", extension=ext, **extra)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], array: npt.NDArray[Any], *,
                 overwrite: bool = False) -> None:
    """Write ``array`` to ``path`` in the format its extension names, atomically.

    The data goes to a hidden temporary file in the same folder, which is flushed to disk
    and then renamed to ``path`` (``os.replace``): readers see the old file or the new one,
    never a part, and a failed write removes the temporary file. Without ``overwrite``, an
    existing ``path`` is never replaced (``FileExistsError``), even one that appears while
    the data is written.

    Raises
    ------
    FileExistsError
        ``path`` exists and ``overwrite`` is False.
    FileFormatError
        Unknown extension, a writer that is not installed, or an array the format cannot
        hold.
    OSError
        The folder cannot be written.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> from resamplex._io import write_atomic
    >>> folder = tempfile.mkdtemp()
    >>> write_atomic(os.path.join(folder, "b.npy"), np.zeros(2))
    >>> sorted(os.listdir(folder))                     # no temporary file left behind
    ['b.npy']
    >>> try:
    ...     write_atomic(os.path.join(folder, "b.npy"), np.ones(2))
    ... except FileExistsError:
    ...     print("kept")
    kept
    """
    path = Path(path)
    file_kind(path)
    ext = path.suffix.lower()
    if not overwrite and path.exists():
        raise FileExistsError(f"{path} exists")
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)  # reopened by name: writers such as tifffile want a named file object
    tmp = Path(tmp_name)
    try:
        with open(tmp, "wb") as fh:
            try:
                _write(fh, array, ext)
            except (OSError, FileFormatError):
                raise
            except Exception as exc:  # the writer refused the array (dtype, shape)
                raise FileFormatError(f"cannot write this array as {ext} "
                                      f"(shape {array.shape}, dtype {array.dtype}): "
                                      f"{_describe(exc)}") from None
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes the file private (0600); give it the mode a new file would get.
        os.chmod(tmp, 0o666 & ~_umask())
        if overwrite:
            os.replace(tmp, path)
        else:
            _rename_no_replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _rename_no_replace(tmp: Path, path: Path) -> None:
    """Rename ``tmp`` to ``path`` unless ``path`` exists (then FileExistsError)."""
    try:
        # A hard link fails if the name exists: no window in which a file that appeared
        # since the caller checked could be replaced.
        os.link(tmp, path)
    except FileExistsError:
        raise FileExistsError(f"{path} exists") from None
    except OSError:  # a file system without hard links: check, then rename
        if path.exists():
            raise FileExistsError(f"{path} exists") from None
        os.replace(tmp, path)
    # (with the link made, the finally clause of write_atomic removes the temporary name)
