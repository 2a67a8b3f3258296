"""``PIL.Image.Image.resize`` and ``.reduce`` -> ``resamplex.compat.pil`` where the door gives
Pillow's bits (and so ``thumbnail`` and ``ImageOps.fit/contain/pad/cover/scale``, which call
them).

Each route follows Pillow 13's own ``Image.resize`` / ``Image.reduce`` (``PIL/Image.py``)
step by step: every argument Pillow would refuse, in Python or in its C code, sends the call
to Pillow (so the error is Pillow's, message and all); a call Pillow answers with a copy or a
crop (same size and the whole image, ``reduce`` by 1) goes to Pillow too; ``LA`` and ``RGBA``
with a filter other than ``NEAREST`` are premultiplied and divided back by the door as
Pillow's ``convert`` does; ``reducing_gap`` reduces first as Pillow does. The image is loaded
first (``self.load()``), and the result is ``self._new(core)``: Pillow's mode, size, bytes and
``info`` (its ``_new`` copies ``info``).

Covered: the modes of :data:`resamplex.compat.pil.MODES` (``L``, ``LA``, ``La``, ``RGB``,
``RGBA``, ``RGBa``, ``RGBX``, ``CMYK``, ``YCbCr``, ``LAB``, ``HSV``, ``I;16``, ``I``, ``F``;
``reduce``: all but ``I;16``, which Pillow refuses), filters ``NEAREST``, ``BOX``,
``BILINEAR``, ``HAMMING``, ``BICUBIC``, ``LANCZOS``, boxes, ``reducing_gap``, Pillow 13 (on
x86-64, the machinery's rule). Not covered, so Pillow's own: modes ``1`` and ``P`` (Pillow
resizes them with ``NEAREST``, fast already) and the rest (``PA``, ``I;16B``, ...),
``MKS2013``/``MKS2021``, a subclass with its own ``convert`` or ``reduce`` where Pillow's path
calls them (the JPEG 2000 plugin's ``reduce``), other Pillow versions, and calls where Pillow
is faster (:data:`SMALL`: small images; ``I`` with the short filters and ``I``/``F``
``reduce`` at every size).

Pixels in and out: a loaded Pillow image in one block (Pillow allocates images up to its block
size, 16 MiB, so) exports its memory through the Arrow C data interface, and the door reads a
NumPy view of it (:func:`_arrow_view`): no copy in. Pillow stores every multi-band 8-bit mode
as 4 bytes a pixel; the door reads whole pixels (``RGBX``, or ``RGBA`` for ``LA``) and its
result is Pillow's storage, mapped by ``Image.core.map_buffer``: no copy out either. The
exceptions, measured faster (:data:`BANDS`, :data:`_TWO`): large ``RGB``, ``YCbCr``, ``HSV``
convolutions read the three bands (a strided view the engine packs) and their result is
unpacked into Pillow's pixels (one copy); ``LA``/``La`` convolutions take Pillow's packed
bytes (``numpy.asarray``) and are unpacked back. Images in several blocks are read with
``numpy.asarray`` (one copy). Pillow never shows the padding bytes of the 3-band and 2-band
modes (``tobytes``, ``getpixel``, ``numpy.asarray``) and leaves different values there
itself (its resize writes 0, ``frombytes`` 255, ``reduce`` either, ``NEAREST`` copies them);
results routed here have the bytes the door computed or unpacked there.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any, Callable

import numpy as np

from . import Fall, Target, bind, is_int, is_real, settings

_RESIZE_NAMES = ("self", "size", "resample", "box", "reducing_gap")
_REDUCE_NAMES = ("self", "factor", "box")

NEAREST, LANCZOS, BILINEAR, BICUBIC, BOX, HAMMING, MKS2013, MKS2021 = range(8)

#: "Never slower": calls smaller than these go to Pillow, which is faster there (a patched
#: call pays the route's checks, the door's argument checks and plan lookup, and the pixels'
#: way in and out: about 8 us for a 16x16 L image, whose Pillow resize takes 4 us).
#: ``SMALL[group][filter] = (least input pixels when the call shrinks, least output pixels
#: when it does not)``, the input being the box's area; ``"reduce"``: the least box area.
#: Pillow's work grows with the input when it shrinks and with the output when it enlarges,
#: so one bound each. ``NEVER``: Pillow was as fast or faster at every size measured.
#: Groups: ``"8-bit"`` (L, RGB, RGBX, CMYK, RGBa, YCbCr, HSV, LAB), ``"RGBA"`` and ``"LA"``
#: (premultiplied around the filters, as Pillow converts them), ``"La"``, ``"I;16"``, ``"I"``,
#: ``"F"``.
#:
#: Set by measurement: Pillow 13.0.0 on this repository's 2-core x86-64 machine (AVX-512;
#: shared, so +-10 % noise), 1 thread, the median of 11-15 alternating batches of the
#: patched call against the original (unpatched between batches), n x n random images halved
#: and doubled, n = 8, 16, 24, 32, 48, 64, 96, 128, 192, 256 (512 to 1024 where no size up
#: to 256 was faster): the least size measured from which every mode of the group was faster
#: (L and RGB for ``"8-bit"``, CMYK checked too), then checked again at each bound and raised
#: where a check fell under 1. The comments give Pillow's time over the patched call's, for
#: n halved (``/2``) and doubled (``x2``), below the bound and at it (a range: two runs).
NEVER = 1 << 62
#: ``reduce`` blocks of more pixels go to Pillow: the door's plan grows with the block (its
#: summation template) and Pillow is as fast from 8 x 8 on. Measured (1 thread, 1024 x 1024
#: L, Pillow / door): 4 x 4 0.53 / 0.28 ms; 8 x 8 0.62 / 0.65 ms (1.8 ms with the plan
#: built); 32 x 32 0.50 / 0.59 ms (4.2 ms built); F alike; 2048 x 2048 L by 128: 3.7 /
#: 2.7 ms, 52 ms built.
REDUCE_BLOCK = 32
SMALL: dict[str, dict[int | str, tuple[int, int]]] = {
    "8-bit": {
        NEAREST: (512 * 512, 192 * 192),  # /2: 384 RGB 0.96, 512 1.13-1.18; x2: 64 0.72, 96 1.24
        BOX: (192 * 192, 96 * 96),        # /2: 128 L 0.98, 192 1.18; x2: 24 RGB 0.89, 48 1.16
        # x0.6 RGB, 1 thread: 200 0.92 / 0.85, 256 0.98 / 1.02, 384 1.16 / 1.16 (BILINEAR /
        # HAMMING; 2 threads 1.09-1.36 from 200 on)
        BILINEAR: (320 * 320, 80 * 80),   # /2: 96 L 0.98, 128 1.13; x2: 32 L 1.05, 40 1.10
        HAMMING: (320 * 320, 80 * 80),    # /2: 64 L 0.94, 128 1.22; x2: 32 L 1.03, 40 1.17
        BICUBIC: (128 * 128, 64 * 64),    # /2: 96 L 1.01, 128 1.25; x2: 16 RGB 0.90, 32 1.17
        LANCZOS: (48 * 48, 32 * 32),      # /2: 24 RGB 0.88, 48 1.12; x2: 8 L 0.67, 16 1.16
        "reduce": (256 * 256, 0),         # 192 L 0.77; 256 L 1.19, RGB 2.00, CMYK 2.94
    },
    "RGBA": {
        NEAREST: (512 * 512, 192 * 192),  # /2: 256 0.58, 512 1.11; x2: 64 0.76, 96 1.23
        BOX: (96 * 96, 96 * 96),          # /2: 64 1.00, 96 1.15; x2: 32 1.06, 48 1.35
        BILINEAR: (128 * 128, 96 * 96),   # /2: 96 1.00, 128 1.40; x2: 32 1.01, 48 1.35
        HAMMING: (96 * 96, 64 * 64),      # /2: 48 0.87, 96 1.32; x2: 16 0.68, 32 1.22
        BICUBIC: (96 * 96, 64 * 64),      # /2: 64 0.93, 96 1.46; x2: 16 0.73, 32 1.22
        LANCZOS: (64 * 64, 64 * 64),      # /2: 48 0.92, 64 1.35; x2: 16 0.92, 32 1.04-1.54
        "reduce": (96 * 96, 0),           # 64 0.95, 96 1.07-1.53
    },
    "LA": {
        NEAREST: (768 * 768, 256 * 256),  # /2: 512 0.89-1.13, 768 1.47; x2: 96 0.99, 128 1.66
        BOX: (NEVER, 1024 * 1024),        # /2: 512 0.81; x2: 256 0.93, 512 1.12-1.24
        BILINEAR: (NEVER, 256 * 256),     # /2: 512 0.97; x2: 64 0.91, 128 1.11-1.18
        HAMMING: (NEVER, 256 * 256),      # /2: 512 0.94; x2: 64 1.05, 128 1.17-1.24
        BICUBIC: (NEVER, 256 * 256),      # /2: 512 1.02; x2: 64 1.00, 128 1.21
        LANCZOS: (128 * 128, 128 * 128),  # /2: 64 0.93, 128 1.19-1.22; x2: 32 1.02, 64 1.30
        "reduce": (512 * 512, 0),         # 256 1.05, 512 1.31-1.44
    },
    "La": {
        NEAREST: (768 * 768, 192 * 192),  # /2: 512 1.00-1.08, 768 1.39; x2: 64 0.78, 96 1.19
        BOX: (256 * 256, 128 * 128),      # /2: 128 0.94, 256 1.08-1.16; x2: 32 0.73, 64 1.26
        BILINEAR: (256 * 256, 128 * 128),  # /2: 128 1.01, 256 1.39; x2: 32 0.89, 64 1.53
        HAMMING: (256 * 256, 128 * 128),  # /2: 128 1.06, 256 1.39; x2: 32 0.95, 64 1.62
        BICUBIC: (128 * 128, 128 * 128),  # /2: 64 0.82, 128 1.14; x2: 32 1.00, 64 1.70
        LANCZOS: (128 * 128, 64 * 64),    # /2: 64 1.02, 128 1.50; x2: 16 0.86, 32 1.43
        "reduce": (256 * 256, 0),         # 128 0.62, 256 1.52
    },
    "I;16": {
        NEAREST: (128 * 128, 64 * 64),    # /2: 64 0.64, 128 1.14-1.66; x2: 16 0.69, 32 1.70
        BOX: (256 * 256, 128 * 128),      # /2: 128 0.99, 256 1.27; x2: 32 0.83, 64 1.22
        BILINEAR: (256 * 256, 128 * 128),  # /2: 128 1.04, 256 1.28-1.50; x2: 32 0.99-1.31, 64 1.43
        HAMMING: (128 * 128, 128 * 128),  # /2: 64 0.95, 128 1.13; x2: 32 0.94, 64 1.34
        BICUBIC: (128 * 128, 64 * 64),    # /2: 64 0.99, 128 1.22; x2: 16 0.72, 32 1.17
        LANCZOS: (64 * 64, 64 * 64),      # /2: 32 0.90, 64 1.52; x2: 16 1.07, 32 1.59
        "reduce": (NEVER, 0),             # Pillow refuses it (I16_REDUCE comes first)
    },
    "I": {
        NEAREST: (512 * 512, 192 * 192),  # /2: 256 0.72, 512 1.12; x2: 64 0.84, 96 1.33
        BOX: (NEVER, NEVER),              # 0.71-0.78 at 512 and 1024, both ways
        BILINEAR: (NEVER, NEVER),         # 0.85-0.88 at 512 and 1024
        HAMMING: (NEVER, NEVER),          # 0.87-0.93 at 512 and 1024
        BICUBIC: (NEVER, NEVER),          # 1.00-1.05 at 256 to 1024
        LANCZOS: (128 * 128, 64 * 64),    # /2: 64 1.11, 128 1.19-1.24; x2: 16 0.89, 32 1.21
        "reduce": (NEVER, 0),             # 0.42 at 512 and 1024
    },
    "F": {
        NEAREST: (512 * 512, 192 * 192),  # /2: 256 0.72, 512 1.13; x2: 64 0.80, 96 1.31
        BOX: (256 * 256, 128 * 128),      # /2: 128 0.84, 256 1.26; x2: 32 0.68, 64 1.11
        BILINEAR: (256 * 256, 128 * 128),  # /2: 128 0.91, 256 1.16; x2: 32 0.85, 64 1.39
        HAMMING: (128 * 128, 128 * 128),  # /2: 64 0.82, 128 1.17; x2: 32 1.01, 64 1.49
        BICUBIC: (128 * 128, 128 * 128),  # /2: 64 0.76, 128 1.08; x2: 32 0.95, 64 1.41
        LANCZOS: (64 * 64, 64 * 64),      # /2: 32 0.86, 64 1.24; x2: 16 0.94, 32 1.43
        "reduce": (NEVER, 0),             # 0.47 at 512 and 1024
    },
}
_GROUP = {"RGBA": "RGBA", "LA": "LA", "La": "La", "I;16": "I;16", "I": "I", "F": "F"}

NOT_IMAGE = Fall("self is not a PIL.Image.Image")
VERSION = Fall("not Pillow 13: its resize and reduce were not checked against the door")
BAD_ARGS = Fall("arguments Pillow refuses (its error is Pillow's)")
BAD_SIZE = Fall("a size Pillow refuses (its error is Pillow's)")
BAD_FILTER = Fall("a resample filter Pillow refuses (its error is Pillow's)")
MKS = Fall("MKS2013 or MKS2021: the door does not compute them")
BAD_GAP = Fall("a reducing_gap Pillow refuses (its error is Pillow's)")
BAD_BOX = Fall("a box Pillow refuses (its error is Pillow's)")
BAD_FACTOR = Fall("a reduce factor Pillow refuses (its error is Pillow's)")
SAME = Fall("same size, whole image: Pillow's copy")
FACTOR_ONE = Fall("reduce factor (1, 1): Pillow's crop")
MODE_P = Fall("mode 'P' (Pillow resizes its palette indices with NEAREST)")
MODE_1 = Fall("mode '1' (Pillow resizes it with NEAREST)")
MODE_OTHER = Fall("a mode the door does not take (PA, I;16B, I;16L, BGR;15, ...)")
I16_REDUCE = Fall("mode 'I;16' reduced (Image.reduce or reducing_gap): Pillow refuses it")
OVERRIDE = Fall("an Image subclass with its own convert or reduce on Pillow's path")
SMALL_CALL = Fall("small image: Pillow is faster")
SLOWER = Fall("Pillow is faster for this mode and filter at every size measured "
              "(I with BOX/BILINEAR/HAMMING/BICUBIC, I and F reduce, LA shrinking)")
LAB_BLOCKS = Fall("a LAB image in several blocks (over 16 MiB): read only through tobytes")
BIG_BLOCK = Fall("a reduce block of more than 32 pixels: Pillow is as fast (measured; same "
                 "bits either way)")
LOADED = Fall("the image's mode or size changed as it loaded")
LOAD_FAILED = Fall("the image failed to load (Pillow loads it again and raises its error)")

_MODE_FALLS = {"P": MODE_P, "1": MODE_1}

#: mode -> (NumPy dtype of a sample, bytes a pixel in Pillow's storage, the bytes of a pixel
#: the door reads (None: all), the door's ``mode=``, whether the door's result is Pillow's
#: storage row for row, so that ``Image.core.map_buffer`` takes it without a copy).
#: ``LAB`` is resampled as its stored bytes (``a`` and ``b`` offset by 128, which Pillow's
#: ``tobytes`` and ``frombytes`` convert to and from signed bytes): all four, as ``RGBX``.
_LAYOUT: dict[str, tuple[str, int, slice | None, str, bool]] = {
    "L": ("u1", 1, None, "L", True), "I;16": ("<u2", 2, None, "I;16", True),
    "I": ("<i4", 4, None, "I", True), "F": ("<f4", 4, None, "F", True),
    "RGBA": ("u1", 4, None, "RGBA", True), "RGBa": ("u1", 4, None, "RGBa", True),
    "RGBX": ("u1", 4, None, "RGBX", True), "CMYK": ("u1", 4, None, "CMYK", True),
    "LAB": ("u1", 4, None, "RGBX", True),
    "RGB": ("u1", 4, slice(0, 3), "RGB", False), "YCbCr": ("u1", 4, slice(0, 3), "YCbCr", False),
    "HSV": ("u1", 4, slice(0, 3), "HSV", False),
    "LA": ("u1", 4, None, "RGBA", True), "La": ("u1", 4, None, "RGBX", True),
}
#: ``LA`` and ``La`` are read as whole pixels (``RGBA``/``RGBX``: Pillow stores ``L, L, L, A``)
#: for ``NEAREST`` and ``reduce``; with the other filters the door's two-channel passes on
#: Pillow's packed bytes (``numpy.asarray``: one copy in, one out) beat four channels read
#: in place (1024x1024 LA, 1 thread, patched over Pillow: BILINEAR halved 1.03 against 0.94,
#: doubled 1.47 against 1.41, LANCZOS 1.18 / 1.98 against 1.01 / 1.32; reduce(2) whole
#: pixels 1.45 against 0.69).
_TWO = frozenset({"LA", "La"})
#: Modes whose ``numpy.asarray`` is Pillow's storage (the others' pixels are 4 bytes there).
_ASARRAY_MAPPED = frozenset({"L", "I;16", "I", "F", "RGBA", "RGBa", "RGBX", "CMYK"})

#: The 3-band modes, whose fourth byte is padding, are read two ways. Whole pixels, as
#: ``RGBX`` (four channels; nothing copied in or out: the result is mapped), or the three
#: bands of Pillow's 4-byte pixels (a strided view, which the engine packs in one threaded
#: pass before its 3-channel passes) with the result unpacked into Pillow's pixels (one
#: copy). :data:`BANDS` says which filters read the bands, ``(when shrinking, when
#: enlarging)``, for calls of at least :data:`WHOLE` pixels (the larger of input and output);
#: the rest (``NEAREST``, ``BOX``, ``reduce``, small calls) read whole pixels. Measured, 1
#: thread, patched call against Pillow (ratios whole / bands): 1080x1920 RGB halved, BILINEAR
#: 1.32 / 1.54, BICUBIC 1.40 / 1.63, LANCZOS 1.41 / 1.71, BOX 1.41 / 1.38; doubled, BILINEAR
#: 2.67 / 2.21, BICUBIC 2.41 / 2.33, LANCZOS 2.51 / 2.60 (256x256 and 512x512 doubled: the
#: bands 5-20 % ahead for BICUBIC, LANCZOS); NEAREST 1080p halved 3-4x faster whole; n x n
#: images: whole pixels ahead up to n = 128 (2x at n = 16-32), even at 128.
_THREE = frozenset({"RGB", "YCbCr", "HSV"})
BANDS = {BILINEAR: (True, False), HAMMING: (True, False), BICUBIC: (True, True),
         LANCZOS: (True, True)}
WHOLE = 1 << 15


# ------------------------------------------------------------------------------ pixels


class _ArrowArray(ctypes.Structure):
    """The Arrow C data interface's ``struct ArrowArray``."""


_ArrowArray._fields_ = [
    ("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(_ArrowArray))),
    ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p),
]

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _Borrowed:
    """A read-only NumPy view's base: Pillow's memory, alive while ``capsule`` is (Pillow's
    Arrow export holds a reference on the image's memory until the capsule releases it)."""

    __slots__ = ("__array_interface__", "capsule")

    def __init__(self, capsule: Any, interface: dict[str, Any]) -> None:
        self.capsule = capsule
        self.__array_interface__ = interface


def _arrow_view(core: Any, mode: str, W: int, H: int) -> np.ndarray | None:
    """Pillow's pixels as a NumPy view (``(H, W)`` or ``(H, W, 4)`` with Pillow's 4-byte
    pixels), or None where the image does not export one block."""
    try:
        capsule = core.__arrow_c_array__()
    except Exception:   # several blocks ("rows are not contiguous"), or no Arrow export
        return None
    dtype, pixel = _LAYOUT[mode][:2]
    array = _ArrowArray.from_address(_capsule_pointer(capsule, b"arrow_array"))
    n = W * H
    if array.length != n or array.offset != 0:
        return None
    if pixel == 4 and dtype == "u1":
        if array.n_children != 1:
            return None
        array = array.children[0].contents
        if array.length != 4 * n or array.offset != 0:
            return None
        shape: tuple[int, ...] = (H, W, 4)
    else:
        shape = (H, W)
    if array.n_buffers != 2 or not array.buffers[1]:
        return None
    interface = {"data": (array.buffers[1], True), "shape": shape, "typestr": dtype,
                 "strides": None, "version": 3}
    return np.asarray(_Borrowed(capsule, interface))


def _load(image: Any, mode: str, W: int, H: int) -> Fall | None:
    """Load ``image`` (a lazy file's pixels) as Pillow's resize would; a reason to go to
    Pillow if that fails or changes the image, else None."""
    try:
        image.load()
    except Exception:
        return LOAD_FAILED
    core = image.im
    if core is None or core.mode != mode or core.size != (W, H):
        return LOADED
    return None


def _pixels(image: Any, mode: str, W: int, H: int,
            whole: bool) -> tuple[np.ndarray, str, bool] | None:
    """(the array the door takes for ``image`` (loaded), the door's ``mode=``, whether its
    result maps into Pillow's storage): a view of Pillow's memory where it exports one
    block, else ``numpy.asarray`` (one copy). ``whole``: read 3-band pixels as ``RGBX`` (and
    ``LA``/``La`` as ``RGBA``/``RGBX``, else packed).
    None for a ``LAB`` image in several blocks (``numpy.asarray`` gives signed ``a``, ``b``)."""
    view = None if mode in _TWO and not whole else _arrow_view(image.im, mode, W, H)
    if view is None:
        if mode == "LAB":
            return None
        return np.asarray(image), mode, mode in _ASARRAY_MAPPED
    _, _, channels, door_mode, mapped = _LAYOUT[mode]
    if whole and mode in _THREE:
        return view, "RGBX", True
    return (view if channels is None else view[:, :, channels]), door_mode, mapped


def _result(image: Any, Image: Any, mode: str, out: np.ndarray, mapped: bool) -> Any:
    """``image._new`` of the door's ``out`` in ``mode``: Pillow's info (and palette rules).
    ``mapped``: ``out`` is Pillow's storage of ``mode`` (1 or 4 bytes a pixel, or 2 for
    ``I;16``), taken without a copy; else it is unpacked from ``mode``'s raw bytes."""
    size = (out.shape[1], out.shape[0])
    out = np.ascontiguousarray(out)
    if mapped:
        core = Image.core.map_buffer(out, size, "raw", 0, (mode, 0, 1))
    else:
        core = Image.frombytes(mode, size, out, "raw", mode).im
    return image._new(core)


# ------------------------------------------------------------------------------ routes


def _live_version(PIL: Any) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in str(PIL.__version__).split(".")[:2])
    except ValueError:
        return ()


def _common(original: Callable[..., Any]) -> tuple[Any, Any, Fall | None]:
    import PIL
    from PIL import Image

    from ..compat import pil as door

    version = _live_version(PIL)
    if not version or version[0] != 13 or door.pillow_version[0] != version[0]:
        return Image, door, VERSION
    return Image, door, None


def _number(v: Any) -> bool:
    return is_real(v) and isinstance(v, (int, float, np.integer, np.floating))


def _route_resize(original: Callable[..., Any]) -> Callable[..., Any]:
    Image, door, never = _common(original)
    ImageClass = Image.Image
    modes = door.MODES
    filters = frozenset({NEAREST, LANCZOS, BILINEAR, BICUBIC, BOX, HAMMING})
    small, group = SMALL, _GROUP

    def resize(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _RESIZE_NAMES, (None, None, None))
        if v is None:
            return BAD_ARGS
        self, size, resample, box, reducing_gap = v
        if not isinstance(self, ImageClass):
            return NOT_IMAGE
        if never is not None:
            return never
        # Pillow's Python checks, in its order
        if resample is None:
            f = BICUBIC
        elif not is_int(resample):
            return BAD_FILTER
        else:
            f = int(resample)
            if f not in filters:
                return MKS if f in (MKS2013, MKS2021) else BAD_FILTER
        if reducing_gap is not None and not (_number(reducing_gap) and reducing_gap >= 1.0):
            return BAD_GAP
        if type(size) not in (tuple, list) and type(size) is not np.ndarray:
            return BAD_SIZE
        size_t = tuple(size)
        if len(size_t) != 2 or not is_int(size_t[0]) or not is_int(size_t[1]):
            return BAD_SIZE
        w, h = int(size_t[0]), int(size_t[1])
        if w < 1 or h < 1 or w >= 2**31 or h >= 2**31:
            return BAD_SIZE
        W, H = self.size
        if box is None:
            b = (0.0, 0.0, float(W), float(H))
            box_py: tuple[Any, ...] = (0, 0, W, H)
        else:
            if type(box) not in (tuple, list) or len(box) != 4 \
                    or not all(_number(c) for c in box):
                return BAD_BOX
            box_py = tuple(box)
            # the C code reads the box as float32 and checks it so
            b = tuple(float(np.float32(c)) for c in box_py)  # type: ignore[assignment]
            if not all(math.isfinite(c) for c in b) or b[0] < 0 or b[1] < 0 \
                    or b[2] > W or b[3] > H or b[2] < b[0] or b[3] < b[1]:
                return BAD_BOX
        if (w, h) == (W, H) and box_py == (0, 0, W, H):
            return SAME
        mode = self.mode
        if mode not in modes:
            return _MODE_FALLS.get(mode, MODE_OTHER)
        cls = type(self)
        alpha = mode in ("LA", "RGBA") and f != NEAREST
        if alpha and cls is not ImageClass and cls.convert is not ImageClass.convert:
            return OVERRIDE
        if reducing_gap is not None and f != NEAREST:
            fx = int((box_py[2] - box_py[0]) / w / reducing_gap) or 1
            fy = int((box_py[3] - box_py[1]) / h / reducing_gap) or 1
            if fx > 1 or fy > 1:
                if mode == "I;16":
                    return I16_REDUCE
                if not alpha and ((cls is not ImageClass and cls.reduce is not ImageClass.reduce)
                                  or "reduce" in self.__dict__):
                    return OVERRIDE
        n_in, n_out = (b[2] - b[0]) * (b[3] - b[1]), w * h
        shrink = n_out < n_in
        least = small[group.get(mode, "8-bit")][f][0 if shrink else 1]
        if (n_in if shrink else n_out) < least and settings.small:
            return SLOWER if least == NEVER else SMALL_CALL
        fell = _load(self, mode, W, H)
        if fell is not None:
            return fell
        if mode in _TWO:
            whole = f == NEAREST
        else:
            bands = BANDS.get(f)
            whole = bands is None or not bands[0 if shrink else 1] or max(n_in, n_out) < WHOLE
        got = _pixels(self, mode, W, H, whole)
        if got is None:
            return LAB_BLOCKS
        a, door_mode, mapped = got
        out = door.resize(a, (w, h), f, box, reducing_gap, mode=door_mode)
        return _result(self, Image, mode, out, mapped)

    return resize


def _route_reduce(original: Callable[..., Any]) -> Callable[..., Any]:
    Image, door, never = _common(original)
    ImageClass = Image.Image
    modes = door.MODES
    small, group = SMALL, _GROUP

    def reduce(*args: Any, **kwargs: Any) -> Any:
        v = bind(args, kwargs, _REDUCE_NAMES, (None,))
        if v is None:
            return BAD_ARGS
        self, factor, box = v
        if not isinstance(self, ImageClass):
            return NOT_IMAGE
        if never is not None:
            return never
        if type(factor) in (tuple, list):
            if len(factor) != 2 or not is_int(factor[0]) or not is_int(factor[1]):
                return BAD_FACTOR
            fx, fy = int(factor[0]), int(factor[1])
        elif is_int(factor):
            fx = fy = int(factor)
        else:
            return BAD_FACTOR
        if fx < 1 or fy < 1 or fx >= 2**31 or fy >= 2**31:
            return BAD_FACTOR
        if fx == 1 and fy == 1:
            return FACTOR_ONE
        W, H = self.size
        if box is None:
            x0, y0, x1, y1 = 0, 0, W, H
        else:
            if type(box) not in (tuple, list) or len(box) != 4 \
                    or not all(is_int(c) for c in box):
                return BAD_BOX
            x0, y0, x1, y1 = (int(c) for c in box)
            if x0 < 0 or y0 < 0 or x1 > W or y1 > H or x1 <= x0 or y1 <= y0:
                return BAD_BOX
        mode = self.mode
        if mode not in modes:
            return _MODE_FALLS.get(mode, MODE_OTHER)
        if mode == "I;16":
            return I16_REDUCE
        cls = type(self)
        if mode in ("LA", "RGBA") and cls is not ImageClass \
                and cls.convert is not ImageClass.convert:
            return OVERRIDE
        least = small[group.get(mode, "8-bit")]["reduce"][0]
        if (x1 - x0) * (y1 - y0) < least and settings.small:
            return SLOWER if least == NEVER else SMALL_CALL
        if min(fx, x1 - x0 + 1) * min(fy, y1 - y0 + 1) > REDUCE_BLOCK and settings.small:
            return BIG_BLOCK
        fell = _load(self, mode, W, H)
        if fell is not None:
            return fell
        got = _pixels(self, mode, W, H, True)
        if got is None:
            return LAB_BLOCKS
        a, door_mode, mapped = got
        out = door.reduce(a, (fx, fy), (x0, y0, x1, y1), mode=door_mode)
        return _result(self, Image, mode, out, mapped)

    return reduce


TARGETS = [Target("PIL.Image", "Image.resize", _route_resize),
           Target("PIL.Image", "Image.reduce", _route_reduce)]
