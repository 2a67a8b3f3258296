"""The ``resamplex`` command: ``info``, ``demo``, ``resize`` and ``bench``.

``resamplex info`` prints the version, the build (OpenMP, compile flags), the threads, what each
mode accepts and the operator support tables. ``resamplex demo`` resizes a built-in test chart
with every mode and coordinate transform that works in this build and writes a labelled contact
sheet (PNG, needs Pillow: the ``demo`` extra). ``resamplex resize`` resizes array and image
files (``.npy``, ``.png``, ``.jpg``, ``.tif``; the file formats are in ``resamplex._io``) into a
folder. ``resamplex bench`` times the performance workloads against the installed peers
and marks each target met or missed.

Exit status: 0 on success, 1 when the work failed, 2 for a usage error. User errors are one line
on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

import resamplex as rx
from ._resize import ANTIALIAS_MODES

PROG = "resamplex"
DEMO_DEFAULT_OUTPUT = "resamplex-demo.png"
DEMO_INSTALL_HINT = 'pip install pillow  (or the demo extra: pip install "resamplex[demo]")'

_DTYPES = (
    "float64", "float32", "float16", "bfloat16",
    "int8", "uint8", "int16", "uint16",
    "int32", "int64", "bool", "complex64",
)


class UsageError(Exception):
    """Bad command-line usage: reported in one line, exit status 2."""


class CommandError(Exception):
    """The command could not do its work: reported in one line, exit status 1."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage and calls sys.exit(2) on a bad argument; we want one line
    # and a return value, so main() can be called from Python and from tests.
    def error(self, message: str) -> None:  # type: ignore[override]
        where = self.prog[len(PROG):].strip()
        raise UsageError(f"{where + ': ' if where else ''}{message} (see '{self.prog} --help')")


# ----------------------------------------------------------------------------------------------
# helpers

def _optional_module(name: str):
    """Import ``resamplex.<name>`` if it exists: (module, None), (None, None) or (None, error)."""
    import importlib

    full = f"resamplex.{name}"
    try:
        return importlib.import_module(full), None
    except ModuleNotFoundError as exc:
        if exc.name in (full, "resamplex"):
            return None, None
        return None, f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # a module that exists but fails to import is worth a line
        return None, f"{type(exc).__name__}: {exc}"


def _library_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The core's modes, coordinate transforms and nearest modes."""
    from ._resize import MODES
    from ._tables import NEAREST_MODES, TRANSFORMS

    return tuple(MODES), tuple(TRANSFORMS), tuple(NEAREST_MODES)


def _dtype_by_name(name: str) -> np.dtype | None:
    if name == "bfloat16":
        try:
            import ml_dtypes
        except ImportError:
            return None
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _show_config() -> tuple[dict[str, Any], str]:
    """``rx.show_config()`` as (dict, printed text); it prints, so capture what it prints."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        result = rx.show_config()
    return (dict(result) if isinstance(result, dict) else {}), buf.getvalue()


def _try_resize(x: np.ndarray, **kwargs) -> tuple[np.ndarray | None, str | None, bool]:
    """Run ``rx.resize``: (result, None, False), or (None, message, internal).

    ``internal`` is False when the library refused the call (a ResamplexError: not supported
    in this build) and True when it failed in some other way (a bug worth reporting).
    """
    try:
        return rx.resize(x, **kwargs), None, False
    except (rx.ResamplexError, NotImplementedError) as exc:
        return None, str(exc) or type(exc).__name__, False
    except Exception as exc:  # noqa: BLE001 - reported, and turned into exit status 1
        return None, f"{type(exc).__name__}: {exc}", True


def _fmt_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if (len(items) >= 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in items)
                and items == list(range(items[0], items[0] + len(items)))):
            return f"{items[0]}-{items[-1]}"  # a run of ranks: 1-4
        return ", ".join(_fmt_value(v) for v in items)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_fmt_value(v)}" for k, v in value.items())
    if hasattr(value, "name") and not isinstance(value, (str, np.dtype)):  # enums
        return str(value.name)
    return str(value)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "  ") -> str:
    cells = [[str(h) for h in headers]] + [[_fmt_value(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, indent + "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _records(items: Sequence[Any]) -> tuple[list[str], list[list[Any]]] | None:
    """Column names and rows if ``items`` are records (dataclasses, namedtuples, dicts)."""
    first = items[0]
    if hasattr(first, "_fields"):  # namedtuple
        return list(first._fields), [list(r) for r in items]
    if hasattr(first, "__dataclass_fields__"):
        names = list(first.__dataclass_fields__)
        return names, [[getattr(r, n, "") for n in names] for r in items]
    if isinstance(first, Mapping):
        names = list(dict.fromkeys(k for r in items for k in r))
        return names, [[r.get(k, "") for k in names] for r in items]
    return None


def _render_support(obj: Any) -> str:
    """Render a published support table (records, or a mapping of them) as a text table."""
    if isinstance(obj, Mapping):
        keys, values = list(obj), list(obj.values())
        if not values:
            return "  (empty)"
        if all(isinstance(v, (tuple, list)) and v and _records(list(v)) for v in values):
            # key -> several records (e.g. one row per feature level): one line per record
            flat = [(k, r) for k, v in zip(keys, values) for r in v]
            names, rows = _records([r for _, r in flat])
            return _table(["name", *names], [[k, *row] for (k, _), row in zip(flat, rows)])
        found = _records(values)
        if found is None:
            return _table(["name", "value"], list(zip(keys, values)))
        names, rows = found
        if "name" in names and all(r[names.index("name")] == k for r, k in zip(rows, keys)):
            return _table(names, rows)  # the key repeats a field: do not show it twice
        return _table(["key", *names], [[k, *r] for k, r in zip(keys, rows)])
    items = list(obj)
    if not items:
        return "  (empty)"
    found = _records(items)
    if found is not None:
        return _table(*found)
    if all(isinstance(r, (tuple, list)) for r in items):
        width = max(len(r) for r in items)
        return _table([f"col{i}" for i in range(width)], [list(r) for r in items])
    return "\n".join(f"  {_fmt_value(r)}" for r in items)


# ----------------------------------------------------------------------------------------------
# info

def cmd_info(args: argparse.Namespace) -> int:
    config, printed = _show_config()
    modes, transforms, nearest_modes = _library_names()
    out = []
    out.append(f"resamplex {rx.__version__}")
    out.append(f"  package     {Path(rx.__file__).parent}")
    out.append(f"  python      {sys.version.split()[0]}, numpy {np.__version__}")

    out.append("\nbuild")
    if config:
        for key, value in config.items():
            if key in ("version", "dtypes", "modes"):
                continue
            out.append(f"  {key:<18} {_fmt_value(value)}")
    elif printed.strip():
        out.extend("  " + line for line in printed.strip().splitlines())
    else:
        out.append("  (show_config() reported nothing)")

    out.append("\nthreads")
    out.append(f"  default     {rx.get_num_threads()}")
    out.append(f"  cpus        {os.cpu_count()}")
    out.append(f"  OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset)')}")

    # What each dtype can do, found by running it: the truth of this build, not a list.
    out.append("\ndtypes x modes (tested on a 2x2 array; '-' = not supported here)")
    rows, failures = [], []
    for name in _DTYPES:
        dtype = _dtype_by_name(name)
        if dtype is None:
            rows.append([name] + ["needs ml_dtypes"] + [""] * (len(modes) - 1))
            continue
        x = np.zeros((2, 2), dtype=dtype)
        row = [name]
        for mode in modes:
            _, error, internal = _try_resize(x, size=(3, 3), mode=mode)
            row.append("yes" if error is None else "ERROR" if internal else "-")
            if internal:
                failures.append(f"{name} {mode}: {error}")
        rows.append(row)
    out.append(_table(["dtype", *modes], rows))

    out.append("\ncoordinate transforms")
    out.append("  " + ", ".join(transforms))
    out.append("nearest modes")
    out.append("  " + ", ".join(nearest_modes))

    for name, attr in (("dml", "TENSOR_SUPPORT"), ("ascend", "PRODUCTS")):
        module, error = _optional_module(name)
        if error is not None:
            out.append(f"\nresamplex.{name}: import failed ({error})")
        elif module is not None and hasattr(module, attr):
            out.append(f"\nresamplex.{name}.{attr}")
            out.append(_render_support(getattr(module, attr)))
    print("\n".join(out))
    if failures:
        for line in failures[:5]:
            print(f"{PROG}: internal error: {line}", file=sys.stderr)
        if len(failures) > 5:
            print(f"{PROG}: ... and {len(failures) - 5} more", file=sys.stderr)
        raise CommandError(f"info: {len(failures)} resize probe(s) failed inside the library "
                           "(ERROR above)")
    return 0


# ----------------------------------------------------------------------------------------------
# demo

def demo_chart(n: int = 48) -> np.ndarray:
    """The demo's synthetic chart: ``(n, n)`` float32 in [0, 1], ``n`` a multiple of 8 (>= 32).

    Top left: a checkerboard of 4-pixel squares above a 1-pixel one (aliasing), beside a strip
    of the diagonal gradient that would fill the background. Top right: concentric rings whose
    frequency grows outwards (a zone plate). Bottom left: one-pixel horizontal, vertical and
    diagonal lines and a lone bright pixel. Bottom right: a 3x3 white square on black inside a
    grey frame.
    """
    h = n // 2
    y, x = np.mgrid[0:n, 0:n].astype(np.float64)
    chart = (x + y) / (2 * (n - 1))  # diagonal gradient, 0 at top left, 1 at bottom right
    # checkerboards
    q = h // 2
    chart[:q, :q] = ((y[:q, :q] // 4 + x[:q, :q] // 4) % 2)
    chart[q:h, :q] = ((y[q:h, :q] + x[q:h, :q]) % 2)
    # zone plate
    cy, cx = (h - 1) / 2, h + (h - 1) / 2
    r2 = (y[:h, h:] - cy) ** 2 + (x[:h, h:] - cx) ** 2
    chart[:h, h:] = 0.5 + 0.5 * np.cos(np.pi * r2 / h)
    # one-pixel lines and a lone pixel on a dark field
    chart[h:, :h] = 0.15
    chart[h + 3, 2:h - 2] = 1.0
    chart[h + 2:n - 2, 3] = 1.0
    d = np.arange(h - 8)
    chart[h + 6 + d, 6 + d] = 1.0
    chart[n - 4, h - 4] = 1.0
    # a small high-contrast square in a frame
    chart[h:, h:] = 0.5
    chart[h + 4:n - 4, h + 4:n - 4] = 0.0
    m = h + h // 2
    chart[m - 1:m + 2, m - 1:m + 2] = 1.0
    return np.clip(chart, 0.0, 1.0).astype(np.float32)


_DEMO_DTYPES = ("float32", "float64", "float16", "bfloat16", "uint8", "uint16", "int8", "int16")


def _to_dtype(chart: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """[0, 1] floats -> ``dtype``: floats as they are, integers scaled to [0, max]."""
    if dtype.kind in "iu":
        return np.rint(chart.astype(np.float64) * np.iinfo(dtype).max).astype(dtype)
    return chart.astype(dtype)


def _to_unit(img: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The inverse of :func:`_to_dtype`, as float64 (for display and statistics)."""
    values = img.astype(np.float64)
    if dtype.kind in "iu":
        values /= np.iinfo(dtype).max
    return values


@dataclass
class _Tile:
    label: str                  # the row: mode (and nearest mode / antialias)
    transform: str              # the column
    kwargs: dict[str, Any]
    image: np.ndarray | None = None
    ms: float = 0.0
    error: str | None = None
    internal: bool = False      # failed inside the library (not a refusal)


@dataclass
class _Section:
    title: str
    scale: float
    rows: list[str] = field(default_factory=list)
    tiles: dict[tuple[str, str], _Tile] = field(default_factory=dict)


def _demo_variants(modes: Sequence[str], nearest_modes: Sequence[str], down: bool):
    """(row label, resize keywords) for every mode variant of one section."""
    for mode in modes:
        if mode == "nearest":
            for nm in (nearest_modes[:1] if down else nearest_modes):
                yield f"nearest {nm}", {"mode": "nearest", "nearest_mode": nm}
        else:
            yield mode, {"mode": mode}
            if down and mode in ANTIALIAS_MODES:
                yield f"{mode} antialias", {"mode": mode, "antialias": True}


def _run_section(x, title, scale, modes, transforms, nearest_modes, threads) -> _Section:
    section = _Section(title, scale)
    down = scale < 1
    for label, kwargs in _demo_variants(modes, nearest_modes, down):
        tiles = {}
        for transform in transforms:
            kw = dict(kwargs, scale=(scale, scale), coordinate_transform=transform,
                      threads=threads)
            # The best of three calls: the first also builds (and caches) the tables.
            ms = []
            for _ in range(3):
                t0 = time.perf_counter()
                image, error, internal = _try_resize(x, **kw)
                ms.append((time.perf_counter() - t0) * 1e3)
                if image is None:
                    break
            tiles[transform] = _Tile(label, transform, kw, image, min(ms), error, internal)
        if all(t.image is None and not t.internal for t in tiles.values()):
            # The whole variant is missing from this build (e.g. a mode not implemented yet).
            first = next(iter(tiles.values()))
            section.tiles[(label, "")] = first
            continue
        section.rows.append(label)
        section.tiles.update({(label, tr): t for tr, t in tiles.items()})
    return section


def _print_summary(sections: Sequence[_Section]) -> None:
    head = f"{'mode':<27} {'transform':<21} {'out shape':<10} {'ms':>7} {'min':>9} {'max':>9} {'mean':>9}"
    for section in sections:
        print(f"\n{section.title}")
        print(head)
        for (label, transform), tile in section.tiles.items():
            if transform == "":
                print(f"{label:<27} skipped: {tile.error}")
                continue
            if tile.image is None:
                what = "FAILED" if tile.internal else "n/a"
                print(f"{label:<27} {transform:<21} {what}: {tile.error}")
                continue
            img = tile.image
            shape = "x".join(str(s) for s in img.shape)
            values = img.astype(np.float64)
            print(f"{label:<27} {transform:<21} {shape:<10} {tile.ms:>7.3f} "
                  f"{values.min():>9.4g} {values.max():>9.4g} {values.mean():>9.4g}")


def _contact_sheet(chart, sections, transforms, dtype, title):
    """Draw the sections as a grid: one row per mode variant, one column per transform."""
    from PIL import Image, ImageDraw

    tile_px = 3 * chart.shape[0]
    pad, label_w, head_h, title_h = 6, 132, 14, 22
    cols = len(transforms)
    width = label_w + cols * (tile_px + pad) + pad

    def to_u8(img):
        return np.clip(np.rint(_to_unit(img, dtype) * 255), 0, 255).astype(np.uint8)

    def fit(img):
        # Show every result at the tile size: small results are enlarged by pixel replication so
        # their pixels stay visible; results of another size are centred.
        k = max(1, tile_px // max(img.shape))
        return np.repeat(np.repeat(img, k, axis=0), k, axis=1)[:tile_px, :tile_px]

    height = pad + title_h + tile_px + pad
    for section in sections:
        height += title_h + head_h + len(section.rows) * (tile_px + head_h + pad)
    sheet = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(sheet)

    def text(xy, s, fill=0, max_w=None):
        if max_w is not None and draw.textlength(s) > max_w:
            while len(s) > 1 and draw.textlength(s + "..") > max_w:
                s = s[:-1]
            s += ".."
        draw.text(xy, s, fill=fill)

    y = pad
    text((pad, y), title)
    y += title_h
    big = fit(to_u8(chart))
    sheet.paste(Image.fromarray(big), (label_w + pad, y))
    sheet.paste(Image.fromarray(to_u8(chart)), (label_w + 2 * pad + big.shape[1], y))
    text((pad, y), "input", max_w=label_w - pad)
    text((pad, y + head_h), f"{chart.shape[0]}x{chart.shape[1]}", max_w=label_w - pad)
    text((pad, y + 2 * head_h), "(shown x3 and 1:1)", fill=96, max_w=label_w - pad)
    y += tile_px + pad

    for section in sections:
        text((pad, y + 4), section.title)
        y += title_h
        for j, transform in enumerate(transforms):
            text((label_w + pad + j * (tile_px + pad), y), transform, max_w=tile_px)
        y += head_h
        for label in section.rows:
            words = label.split(" ", 1)
            text((pad, y + tile_px // 2 - head_h), words[0], max_w=label_w - pad)
            if len(words) > 1:
                text((pad, y + tile_px // 2), words[1], fill=64, max_w=label_w - pad)
            for j, transform in enumerate(transforms):
                x0 = label_w + pad + j * (tile_px + pad)
                tile = section.tiles[(label, transform)]
                if tile.image is None:
                    shade, note = (150, "library error") if tile.internal else (220, "not supported")
                    draw.rectangle([x0, y, x0 + tile_px - 1, y + tile_px - 1], fill=shade)
                    text((x0 + 4, y + tile_px // 2 - 6), note, fill=32)
                    continue
                img = fit(to_u8(tile.image))
                sheet.paste(Image.fromarray(img), (x0 + (tile_px - img.shape[1]) // 2,
                                                   y + (tile_px - img.shape[0]) // 2))
                shape = "x".join(str(s) for s in tile.image.shape)
                text((x0, y + tile_px + 1), f"{shape}  {tile.ms:.2f} ms", fill=96, max_w=tile_px)
            y += tile_px + head_h + pad
    return sheet


def _save_atomically(sheet, path: Path, fmt: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        sheet.save(tmp, format=fmt)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def cmd_demo(args: argparse.Namespace) -> int:
    try:
        from PIL import Image
    except ImportError:  # the summary is still printed; the sheet needs Pillow
        Image = None
    output = Path(args.output)
    fmt: str | None = "PNG"
    if Image is not None and output.suffix and output.suffix.lower() != ".png":
        fmt = Image.registered_extensions().get(output.suffix.lower())
        if fmt is None:
            raise UsageError(f"demo: -o {args.output!r}: unknown image file extension "
                             f"{output.suffix!r}; give a .png file name")
    if output.is_dir():
        raise UsageError(f"demo: -o {args.output!r} is a directory; give a file name")
    if not output.parent.is_dir():
        raise CommandError(f"demo: cannot write {args.output!r}: "
                           f"directory {str(output.parent)!r} does not exist")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"demo: --threads must be >= 1; got {args.threads}")

    dtype = _dtype_by_name(args.dtype)
    if dtype is None:
        raise CommandError(f"demo: dtype {args.dtype} needs ml_dtypes: pip install ml_dtypes")

    modes, transforms, nearest_modes = _library_names()
    chart = _to_dtype(demo_chart(48), dtype)
    threads = args.threads
    n = chart.shape[0]
    sections = [
        _run_section(chart, f"x{s:g}: {n}x{n} -> {int(n * s)}x{int(n * s)}", s,
                     modes, transforms, nearest_modes, threads)
        for s in (3.0, 0.5)
    ]
    if not any(section.rows for section in sections):
        errors = {t.error for s in sections for t in s.tiles.values()}
        raise CommandError(f"demo: no mode worked in this build: {'; '.join(sorted(errors))}")

    nthreads = threads if threads is not None else rx.get_num_threads()
    title = (f"resamplex {rx.__version__} demo: {n}x{n} {args.dtype} test chart, "
             f"threads={nthreads}")
    # The sheet is written before anything is printed, so that a closed pipe on stdout
    # (`resamplex demo | head`) does not lose it.
    wrote = None
    if Image is not None:
        sheet = _contact_sheet(chart, sections, transforms, dtype, title)
        try:
            _save_atomically(sheet, output, fmt)
        except OSError as exc:
            raise CommandError(f"demo: cannot write {args.output!r}: "
                               f"{exc.strerror or exc}") from None
        wrote = f"wrote {output} ({sheet.width}x{sheet.height} px)"
    print(title)
    _print_summary(sections)
    if wrote is None:
        print(f"\nPillow is not installed, so no contact sheet was written. "
              f"To get one: {DEMO_INSTALL_HINT}")
    else:
        print(f"\n{wrote}")
    _raise_internal(sections)
    return 0


def _raise_internal(sections: Sequence[_Section]) -> None:
    failed = [t for s in sections for t in s.tiles.values() if t.internal]
    if failed:
        raise CommandError(f"demo: {len(failed)} resize(s) failed inside the library (FAILED "
                           f"above; first: {failed[0].label}, {failed[0].transform}: "
                           f"{failed[0].error})")


# ----------------------------------------------------------------------------------------------
# resize

RESIZE_DESCRIPTION = """\
Resize array and image files into OUTDIR, keeping their names. Formats, by extension: .npy
(NumPy), .png/.jpg/.jpeg (imageio), .tif/.tiff (tifffile); images and TIFFs need the io extra:
pip install "resamplex[io]". Images are (H, W) or (H, W, C) arrays: without --axes they are
resized along their spatial axes 0 and 1 (channels are kept), and a .npy array along all of
its axes. --size and --scale take one value per axis in --axes, or one value for all of them.
The output has the input's dtype and format.

Nothing is overwritten without --force: an output that exists is reported and skipped (this
is checked before any work is done). An input is never overwritten, even with --force: an
output that would be one of the inputs (OUTDIR is an input's folder, or a link to one) is
refused before any work. Each file is written to a temporary file in OUTDIR and then renamed,
so OUTDIR never holds a partial file. A file that cannot be read or resized is
reported on one line and the other files are still written. Exit status: 0 when every file
was written, 1 when one was not, 2 for a usage error."""

RESIZE_EXAMPLES = """\
examples:
  resamplex resize photo.jpg -o small --scale 0.5 --antialias
  resamplex resize frames/*.png -o out --size 540 960 --mode cubic
  resamplex resize volume.npy -o out --size 64 --axes 1 2 3 --mode area
  resamplex resize photo.png -o pil --size 540 960 --mode cubic --like pil"""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not (value > 0 and np.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a positive finite number, got {text!r}")
    return value


@dataclass
class _ResizeJob:
    source: Path
    target: Path


def _resize_plan(args: argparse.Namespace) -> list[_ResizeJob]:
    """Validate the arguments that do not depend on a file; one job per input."""
    values = args.size if args.size is not None else args.scale
    option = "--size" if args.size is not None else "--scale"
    if args.axes is not None:
        if len(set(args.axes)) != len(args.axes):
            raise UsageError(f"resize: --axes: repeated axis in {' '.join(map(str, args.axes))}")
        if len(values) not in (1, len(args.axes)):
            raise UsageError(f"resize: {option}: {len(values)} values for {len(args.axes)} "
                             "axes; give one value per axis in --axes, or one for all")
    if args.antialias and args.mode not in ANTIALIAS_MODES:
        raise UsageError(f"resize: --antialias applies to modes {', '.join(ANTIALIAS_MODES)}; "
                         f"got --mode {args.mode}")
    if args.lanczos_a < 1:
        raise UsageError(f"resize: --lanczos-a must be >= 1; got {args.lanczos_a}")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"resize: --threads must be >= 1; got {args.threads}")
    outdir = Path(args.output)
    if outdir.exists() and not outdir.is_dir():
        raise UsageError(f"resize: -o {args.output!r} exists and is not a directory")
    jobs: list[_ResizeJob] = []
    by_name: dict[str, str] = {}
    for name in args.inputs:
        source = Path(name)
        if source.name in by_name:
            raise UsageError(f"resize: {by_name[source.name]!r} and {name!r} would both be "
                             f"written to {str(outdir / source.name)!r}")
        by_name[source.name] = name
        jobs.append(_ResizeJob(source, outdir / source.name))
    _refuse_overwriting_inputs(jobs)
    return jobs


def _file_keys(path: Path) -> list[Any]:
    """What identifies the file ``path`` names: its path after symbolic links and, where it
    exists, its (device, inode) (hard links; a case-insensitive file system)."""
    keys: list[Any] = [os.path.realpath(path)]
    try:
        st = path.stat()
    except OSError:  # missing or unreadable: its path is all there is to compare
        return keys
    return keys + [(st.st_dev, st.st_ino)]


def _refuse_overwriting_inputs(jobs: Sequence[_ResizeJob]) -> None:
    """An output that is one of the inputs would destroy it: refused, whatever the flags."""
    inputs: dict[Any, _ResizeJob] = {}
    for job in jobs:
        for key in _file_keys(job.source):
            inputs.setdefault(key, job)
    for job in jobs:
        other = next((inputs[k] for k in _file_keys(job.target) if k in inputs), None)
        if other is not None:
            same = "the input itself" if other is job else f"the input {str(other.source)!r}"
            raise CommandError(
                f"resize: the output for {str(job.source)!r} would be {same} "
                f"({str(job.target)!r}); an input is never overwritten, even with --force: "
                "give -o another folder")


def _resize_array(x: np.ndarray, source: Path, args: argparse.Namespace) -> np.ndarray:
    from . import _io

    axes = tuple(args.axes) if args.axes is not None else _io.default_axes(source, x.ndim)
    values = args.size if args.size is not None else args.scale
    if len(values) == 1:
        values = values * len(axes)
    elif len(values) != len(axes):
        option = "--size" if args.size is not None else "--scale"
        raise rx.ResamplexError(f"{option}: {len(values)} values for the {len(axes)} axes "
                                f"{axes} of this array; give --axes, or one value for all axes")
    key = "size" if args.size is not None else "scale"
    if getattr(args, "like", None):
        return _resize_like(x, axes, tuple(values), key, args)
    return rx.resize(x, axes=axes, mode=args.mode,
                     coordinate_transform=args.coordinate_transform,
                     nearest_mode=args.nearest_mode, antialias=args.antialias,
                     lanczos_a=args.lanczos_a, rounding=args.rounding, threads=args.threads,
                     **{key: tuple(values)})


LIKE = ("cv2", "pil", "torch", "onnx", "onnxruntime", "scipy", "skimage", "jax")


def _resize_like(x: np.ndarray, axes: tuple[int, ...], values: tuple[Any, ...], key: str,
                 args: argparse.Namespace) -> np.ndarray:
    """``--like``: the same resize as a framework computes it, through its compat front door
    (``--mode`` nearest/linear/cubic/area maps to the framework's own name)."""
    from .compat import cv2 as rcv, onnx as ronnx, pil, torch as rtorch

    like, mode = args.like, args.mode
    if like == "jax":
        return _like_jax(x, axes, values, key, args)
    # The frameworks' own names for the core modes (None: the framework has no such filter).
    own = {
        "cv2": {"lanczos": "INTER_LANCZOS4" if args.lanczos_a == 4 else None},
        "pil": {"lanczos": "LANCZOS" if args.lanczos_a == 3 else None, "hamming": "HAMMING",
                "box": "BOX"},
    }.get(like, {})
    if mode in ("lanczos", "hamming", "box") and own.get(mode) is None:
        hint = {"cv2": " (cv2 has lanczos with --lanczos-a 4)",
                "pil": " (pil has lanczos with --lanczos-a 3, hamming and box)"}.get(like, "")
        raise rx.ResamplexError(f"--like {like}: the framework has no --mode {mode}"
                                + (f" --lanczos-a {args.lanczos_a}" if mode == "lanczos" else "")
                                + hint)
    if like in ("onnx", "onnxruntime"):
        if mode == "area":
            raise rx.ResamplexError("--like onnx/onnxruntime: ONNX Resize has no 'area' mode")
        return ronnx.resize(x, axes=list(axes), mode=mode,
                            coordinate_transformation_mode=args.coordinate_transform,
                            nearest_mode=args.nearest_mode, antialias=int(args.antialias),
                            flavour="onnxruntime" if like == "onnxruntime" else "reference",
                            threads=args.threads, **{key + "s": list(values)})
    if like in ("scipy", "skimage"):
        return _like_scipy_skimage(x, axes, values, key, args)
    if sorted(axes) != [0, 1] or x.ndim not in (2, 3):
        raise rx.ResamplexError(f"--like {like}: resizes (H, W) or (H, W, C) images along "
                                f"axes 0 1; got axes {axes} of a {x.ndim}-d array")
    order = sorted(range(2), key=lambda i: axes[i])  # values in axis order (H, W)
    v = tuple(values[i] for i in order)
    H, W = x.shape[:2]
    size = v if key == "size" else (int(H * v[0]), int(W * v[1]))
    if like == "cv2":
        flag = {"nearest": rcv.INTER_NEAREST, "linear": rcv.INTER_LINEAR,
                "cubic": rcv.INTER_CUBIC, "area": rcv.INTER_AREA,
                "lanczos": rcv.INTER_LANCZOS4}[mode]
        if key == "size":
            return rcv.resize(x, (size[1], size[0]), interpolation=flag, threads=args.threads)
        return rcv.resize(x, None, fx=float(v[1]), fy=float(v[0]), interpolation=flag,
                          threads=args.threads)
    if like == "pil":
        flag = {"nearest": pil.NEAREST, "linear": pil.BILINEAR, "cubic": pil.BICUBIC,
                "area": pil.BOX, "lanczos": pil.LANCZOS, "hamming": pil.HAMMING,
                "box": pil.BOX}[mode]
        return pil.resize(x, (size[1], size[0]), flag, threads=args.threads)
    name = {"nearest": "nearest", "linear": "bilinear", "cubic": "bicubic", "area": "area"}[mode]
    chw = x[None, None] if x.ndim == 2 else np.moveaxis(x, 2, 0)[None]
    y = rtorch.interpolate(chw, size=size, mode=name, antialias=args.antialias,
                           threads=args.threads)[0]
    return y[0] if x.ndim == 2 else np.moveaxis(y, 0, 2)


def _like_jax(x: np.ndarray, axes: tuple[int, ...], values: tuple[Any, ...], key: str,
              args: argparse.Namespace) -> np.ndarray:
    """``--like jax``: ``jax.image.resize`` (``compat.jax``) with ``--mode`` nearest, linear,
    cubic, area, or lanczos with ``--lanczos-a`` 3 or 5, along any axes; ``antialias`` as
    ``--antialias`` says (JAX's own default is on); a ``--scale`` becomes the size
    ``int(n * s)``. The result is what JAX returns: float32 for integer images."""
    from .compat import jax as rjax

    methods = {"nearest": "nearest", "linear": "linear", "cubic": "cubic", "area": "area"}
    if args.mode == "lanczos" and args.lanczos_a in (3, 5):
        method = f"lanczos{args.lanczos_a}"
    elif args.mode in methods:
        method = methods[args.mode]
    else:
        raise rx.ResamplexError(f"--like jax: jax.image has --mode nearest, linear, cubic, "
                                f"area and lanczos with --lanczos-a 3 or 5; got --mode "
                                f"{args.mode}" + (f" --lanczos-a {args.lanczos_a}"
                                                  if args.mode == "lanczos" else ""))
    shape = list(x.shape)
    for a, v in zip(axes, values):
        shape[a] = int(v) if key == "size" else int(x.shape[a] * float(v))
    return rjax.resize(x, tuple(shape), method, antialias=bool(args.antialias),
                       threads=args.threads)


def _like_scipy_skimage(x: np.ndarray, axes: tuple[int, ...], values: tuple[Any, ...], key: str,
                     args: argparse.Namespace) -> np.ndarray:
    """``--like scipy``: ``scipy.ndimage.zoom`` with ``--mode`` nearest / linear / cubic as
    spline orders 0 / 1 / 3, pixel edges aligned (``grid_mode=True``, ``mode="nearest"``);
    a ``--size`` becomes the factor ``size / n`` (SciPy's output length is ``round(n * z)``).
    ``--like skimage``: ``skimage.transform.resize`` with those orders, its default edge mode
    (``reflect``) and clipping, ``anti_aliasing`` as ``--antialias`` says and
    ``preserve_range=True`` (values keep the input's scale; the result is float64, as
    scikit-image returns it); a ``--scale`` becomes the size ``round(n * s)``."""
    from .compat import scipy as rscipy, skimage as rskimage

    orders = {"nearest": 0, "linear": 1, "cubic": 3}
    like = args.like
    if args.mode not in orders:
        what = "zoom" if like == "scipy" else "resize"
        raise rx.ResamplexError(f"--like {like}: {what} has --mode nearest, linear and cubic "
                                f"(spline orders 0, 1, 3); got --mode {args.mode}")
    if like == "skimage":
        shape = list(x.shape)
        for a, v in zip(axes, values):
            shape[a] = int(v) if key == "size" else max(1, round(x.shape[a] * float(v)))
        return np.asarray(rskimage.resize(x, tuple(shape), order=orders[args.mode],
                                          anti_aliasing=bool(args.antialias),
                                          preserve_range=True))
    zooms = [1.0] * x.ndim
    for a, v in zip(axes, values):
        zooms[a] = float(v) / x.shape[a] if key == "size" else float(v)
    return rscipy.zoom(x, zooms, order=orders[args.mode], mode="nearest", grid_mode=True,
                       threads=args.threads)


def _progress(total: int) -> Any:
    """A tqdm bar on stderr for batches at a terminal; None otherwise (or without tqdm)."""
    if total < 2 or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        from ._io import IO_EXTRA_HINT

        print(f"{PROG}: resize: no progress bar: tqdm is not installed ({IO_EXTRA_HINT})",
              file=sys.stderr, flush=True)
        return None
    return tqdm(total=total, unit="file", file=sys.stderr, leave=False, dynamic_ncols=True)


def cmd_resize(args: argparse.Namespace) -> int:
    from . import _io

    jobs = _resize_plan(args)
    outdir = Path(args.output)
    failed: list[str] = []
    bar = None

    def report(job: _ResizeJob, message: str) -> None:
        failed.append(str(job.source))
        first = next((t.strip() for t in message.splitlines() if t.strip()), message)
        line = f"{PROG}: resize: {job.source}: {first}"
        if bar is not None:
            bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr, flush=True)

    # Before any work: what would be overwritten is reported and skipped.
    todo: list[_ResizeJob] = []
    for job in jobs:
        if not args.force and (job.target.exists() or job.target.is_symlink()):
            report(job, f"{job.target} exists; not overwritten (use --force)")
        else:
            todo.append(job)
    if todo:
        try:
            outdir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"resize: cannot create {args.output!r}: "
                               f"{exc.strerror or exc}") from None

    # tifffile logs what it finds wrong with a file; the one-line report below says it.
    tiff_log = logging.getLogger("tifffile")
    tiff_level = tiff_log.level
    tiff_log.setLevel(logging.ERROR)
    written = 0
    bar = _progress(len(todo))
    try:
        for job in todo:
            try:
                x = _io.read_array(job.source)
            except FileNotFoundError:
                report(job, "no such file")
            except IsADirectoryError:
                report(job, "is a directory")
            except OSError as exc:
                report(job, f"cannot read: {exc.strerror or exc}")
            except _io.FileFormatError as exc:
                report(job, str(exc))
            else:
                try:
                    y = _resize_array(x, job.source, args)
                except (rx.ResamplexError, MemoryError) as exc:
                    report(job, f"cannot resize shape {x.shape} {x.dtype}: "
                                f"{str(exc) or type(exc).__name__}")
                else:
                    try:
                        _io.write_atomic(job.target, y, overwrite=args.force)
                        written += 1
                    except FileExistsError:
                        report(job, f"{job.target} exists; not overwritten (use --force)")
                    except _io.FileFormatError as exc:
                        report(job, str(exc))
                    except OSError as exc:
                        report(job, f"cannot write {job.target}: {exc.strerror or exc}")
            if bar is not None:
                bar.update(1)
    finally:
        tiff_log.setLevel(tiff_level)
        if bar is not None:
            bar.close()
    print(f"wrote {written} of {len(jobs)} file{'s' if len(jobs) != 1 else ''} to {outdir}")
    if failed:
        raise CommandError(f"resize: {len(failed)} of {len(jobs)} file"
                           f"{'s' if len(jobs) != 1 else ''} not written (see above)")
    return 0


# ----------------------------------------------------------------------------------------------
# bench

BENCH_PLOT_HINT = 'pip install "resamplex[bench]"  (or: pip install matplotlib)'


def _check_plot_path(path: str) -> None:
    """Before any timing: --plot needs matplotlib, a folder that exists and a format that
    matplotlib writes (from the extension)."""
    try:
        import matplotlib
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise CommandError(f"bench: --plot needs matplotlib, which is not installed: "
                           f"{BENCH_PLOT_HINT}") from None
    del matplotlib
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"bench: --plot {path!r} is a directory; give a file name")
    if not target.parent.is_dir():
        raise CommandError(f"bench: cannot write {path!r}: directory "
                           f"{str(target.parent)!r} does not exist")
    formats = FigureCanvasBase.get_supported_filetypes()
    ext = target.suffix.lower().lstrip(".")
    if ext not in formats:
        raise UsageError(f"bench: --plot {path!r}: unknown image file extension "
                         f"{target.suffix!r}; give one of {', '.join('.' + f for f in formats)}")


def cmd_bench(args: argparse.Namespace) -> int:
    from . import _bench

    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads: expected an integer >= 1, got {args.threads}")
    if args.plot:
        _check_plot_path(args.plot)
    threads = args.threads or rx.get_num_threads()
    print(f"resamplex {rx.__version__} bench: {threads} thread{'s' if threads != 1 else ''}, "
          f"{'quick' if args.quick else 'full'} run", flush=True)
    print(f"machine: {_bench.machine_line()}")
    print(f"peers: {', '.join(_bench.installed_peers()) or 'none installed'}")
    print(_BENCH_WORKLOADS, flush=True)
    items = _bench.run(quick=args.quick, threads=args.threads,
                       progress=lambda name: print(f"  timing {name}", file=sys.stderr,
                                                   flush=True))
    print()
    print(_bench.format_table(items, threads))
    if args.plot:
        _bench.plot(items, args.plot, threads=threads, quick=args.quick)
        print(f"wrote {args.plot}")
    return 0


_BENCH_WORKLOADS = """\
workloads: float32 NCHW (8, 64, 128, 128) x2 nearest and linear (also channels-last, and
  float16), x0.5 linear with and without antialias; a float32 (1, 1, 128, 128, 128) volume x2
  trilinear; a float32 signal of 441000 samples to 480000 (44.1 -> 48 kHz, linear); a uint8
  1080x1920x3 image to 540x960 (also from a BGR view) and to 2160x3840 (linear; cubic and
  nearest, also to 720x1280; area to 2160x3840; RGBA and float32 nearest in the full run),
  and to a 224x224 float32 normalised CHW tensor in one call (against the NumPy
  chain: cv2.resize, astype, normalise, transpose); bfloat16 and int8
  (8, 64, 128, 128) x2 against float32 per byte; the front doors against their originals:
  compat.scipy.zoom (128^3 x2 orders 0, 1, 3; the image x0.5 order 1), compat.skimage.resize,
  compat.cv2 and compat.pil (the image to 540x960 and 2160x3840), compat.torch; arbitrary
  sizes (12 seeded random source and target sizes, 6 in the quick run) through compat.cv2,
  rx.resize, compat.pil and compat.torch, each row's median and smallest ratio over its calls;
  20 random crops of a 1200x1600x3 image to 224x224, a new shape every call. Each against the
  peers installed, same threads, fresh outputs, and a memory floor (copying an array of the
  output's size)."""


# ----------------------------------------------------------------------------------------------
# run: a script or module with patch mode on

RUN_DESCRIPTION = """\
Run a Python script (or a module, with -m, as `python -m` does) with patch mode on: the
originals' own resize functions (cv2.resize, PIL's Image.resize and reduce, scipy.ndimage.zoom
and its spline filters, skimage.transform's resize, rescale and downscale_local_mean, torch's
interpolate) take resamplex's exact doors wherever those give the original's bits and are not
slower, and the original everywhere else. The script sees its own sys.argv; its exit status is
this command's."""

RUN_EXAMPLES = """\
examples:
  resamplex run train.py --epochs 3
  resamplex run --only cv2,pil --report augment.py
  python -m resamplex run -m pytest tests/"""


def _run_options(argv: Sequence[str]) -> tuple[tuple[str, ...], bool, str | None, list[str]]:
    """``(libraries, report, module, [target, args...])`` from ``run``'s arguments; options
    end at the script (or at ``-m MODULE``), whose own arguments follow untouched."""
    from ._patch import LIBRARIES

    only: tuple[str, ...] = ()
    report = False
    i = 0
    argv = list(argv)
    while i < len(argv):
        a = argv[i]
        if a == "--report":
            report = True
        elif a == "--only" or a.startswith("--only="):
            if a == "--only":
                i += 1
                if i == len(argv):
                    raise UsageError("run: --only needs a comma-separated list of libraries")
                value = argv[i]
            else:
                value = a[len("--only="):]
            only = tuple(v.strip() for v in value.split(",") if v.strip())
            unknown = [v for v in only if v not in LIBRARIES]
            if unknown or not only:
                raise UsageError(f"run: --only takes {', '.join(LIBRARIES)}; got {value!r}")
        elif a == "-m":
            if i + 1 == len(argv):
                raise UsageError("run: -m needs a module name")
            return only, report, argv[i + 1], argv[i + 1:]
        elif a == "--":
            i += 1
            break
        elif a.startswith("-"):
            raise UsageError(f"run: unknown option {a!r} (before the script: --only LIBS, "
                             "--report, -m MODULE)")
        else:
            break
        i += 1
    if i >= len(argv):
        raise UsageError("run: expected a script to run (or -m MODULE)")
    return only, report, None, argv[i:]


def cmd_run(args: argparse.Namespace) -> int:
    import runpy

    from ._patch import format_report, patch

    only, report, module, argv = _run_options(args.argv)
    if module is None and not Path(argv[0]).is_file():
        raise UsageError(f"run: no such script: {argv[0]!r}")
    patch(*only)
    saved_argv, saved_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = list(argv)
    status = 0
    try:
        if module is not None:
            sys.path.insert(0, os.getcwd())
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, str(Path(argv[0]).resolve().parent))
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as exc:   # the script's own exit, with Python's meaning of its code
        if exc.code is None:
            status = 0
        elif isinstance(exc.code, int):
            status = exc.code
        else:
            print(exc.code, file=sys.stderr)
            status = 1
    finally:
        sys.argv = saved_argv
        if saved_path0 is not None and sys.path and sys.path[0] != saved_path0:
            sys.path.pop(0)
        if report:
            sys.stderr.write(format_report())
    return status


# ----------------------------------------------------------------------------------------------
# entry point

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Fast, exact N-D array resampling. Run a subcommand with --help for details.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("info", help="version, build, threads, supported dtypes/modes and tables",
                       description="Print the version, the build configuration (OpenMP, compile "
                       "flags), the threads, what each mode supports and the operator tables.")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("demo", help="resize a built-in test chart with every mode, write a PNG",
                       description="Resize a built-in 48x48 test chart x3 up and x0.5 down with "
                       "every mode, nearest mode and coordinate transform this build supports, "
                       "print a summary and write a labelled contact sheet (needs Pillow: "
                       'pip install "resamplex[demo]").')
    p.add_argument("-o", "--output", default=DEMO_DEFAULT_OUTPUT, metavar="FILE.png",
                   help=f"where to write the contact sheet (default: {DEMO_DEFAULT_OUTPUT})")
    p.add_argument("--dtype", default="float32", choices=_DEMO_DTYPES,
                   help="dtype of the chart; integer charts span [0, max] (default: float32)")
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="threads per resize (default: the library default)")
    p.set_defaults(func=cmd_demo)

    from ._dtypes import ROUNDING
    from ._resize import MODES
    from ._tables import NEAREST_MODES, TRANSFORMS

    p = sub.add_parser("resize", help="resize .npy, .png, .jpg and .tif files into a folder",
                       description=RESIZE_DESCRIPTION, epilog=RESIZE_EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="files to resize")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                   help="folder for the results (created if missing)")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--size", nargs="+", type=_positive_int, metavar="N",
                     help="output length of each axis in --axes (or one for all)")
    how.add_argument("--scale", nargs="+", type=_positive_float, metavar="S",
                     help="output/input factor of each axis in --axes (or one for all); "
                     "the length is floor(n * S)")
    p.add_argument("--axes", nargs="+", type=int, metavar="A",
                   help="axes to resize (default: 0 1 for images, all axes for .npy)")
    p.add_argument("--mode", default="linear", choices=MODES, help="default: linear")
    p.add_argument("--coordinate-transform", default="half_pixel", choices=TRANSFORMS,
                   metavar="T", help=f"one of {', '.join(TRANSFORMS)} (default: half_pixel)")
    p.add_argument("--nearest-mode", default="round_prefer_ceil", choices=NEAREST_MODES,
                   metavar="M", help=f"for --mode nearest: one of {', '.join(NEAREST_MODES)} "
                   "(default: round_prefer_ceil)")
    p.add_argument("--antialias", action="store_true",
                   help="widen the filter on shrinking axes (linear, cubic, lanczos, hamming, "
                        "box)")
    p.add_argument("--lanczos-a", type=int, default=3, metavar="A",
                   help="lobes of --mode lanczos, an integer >= 1 (default: 3)")
    p.add_argument("--rounding", default="half_even", choices=tuple(ROUNDING),
                   help="integer outputs of weighted modes (default: half_even)")
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="threads per resize (default: the library default)")
    p.add_argument("--like", choices=LIKE, default=None,
                   help="compute as that framework does, bit for bit (compat.cv2, compat.pil, "
                   "compat.torch, compat.onnx with the reference or onnxruntime flavour, "
                   "compat.scipy's zoom, compat.skimage's resize), or within JAX's rounding "
                   "(compat.jax's resize)")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(func=cmd_resize)

    p = sub.add_parser("bench", help="time the performance workloads against the peers",
                       description="Time resamplex and each installed peer (PyTorch, OpenCV, "
                       "Pillow, SciPy, scikit-image, ONNX Runtime, JAX) in this process, with the "
                       "same threads and fresh outputs, and against a memory floor (copying an "
                       "array of the output's size) on the performance workloads of the "
                       "specification: float32, float16, bfloat16 and int8 NCHW batches (8, 64, "
                       "128, 128) x2 and x0.5, a float32 128^3 volume x2 trilinear, a float32 "
                       "signal 441000 -> 480000 samples, a uint8 "
                       "1080x1920x3 image to 540x960, 720x1280 and 2160x3840 (linear, cubic, "
                       "nearest, area) and to a 224x224 float32 "
                       "normalised CHW tensor, and the front doors (compat.scipy.zoom, "
                       "compat.skimage.resize, compat.cv2, compat.pil, compat.torch) against "
                       "their originals, also at arbitrary sizes (seeded random source and "
                       "target sizes; per-call median and minimum) and on random crops to "
                       "224x224 with a new shape every call, and patch mode's patched calls "
                       "against the originals and the doors alone. Print the medians and "
                       "each target, met or missed.")
    p.add_argument("--quick", action="store_true", help="fewer repeats (under a minute)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="also write a bar chart (needs matplotlib: the bench extra, "
                   'pip install "resamplex[bench]"); checked before the timing starts')
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="threads for resamplex and every peer (default: the library default)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("run", help="run a script or module with patch mode on (same bits, "
                       "faster resizes)", description=RUN_DESCRIPTION, epilog=RUN_EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       usage=f"{PROG} run [--only LIBS] [--report] (script.py | -m MODULE) "
                       "[args ...]")
    p.add_argument("argv", nargs=argparse.REMAINDER, metavar="...",
                   help="--only cv2,pil,scipy,skimage,torch (default: every one installed); "
                   "--report (print which calls took the doors, and why the others did not, "
                   "on stderr at the end); then the script and its arguments, or -m MODULE")
    p.set_defaults(func=cmd_run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``resamplex`` command line; return the exit status.

    ``argv`` defaults to ``sys.argv[1:]``. Errors are one line on stderr, never a traceback:
    exit status 1 when the work failed, 2 for a usage error.

    Examples
    --------
    >>> from resamplex.cli import main
    >>> main(["--version"])  # doctest: +ELLIPSIS
    resamplex ...
    0
    """
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["run"] and argv[1:2] not in (["-h"], ["--help"]):
            # run's options end where the script's begin: argparse would read the script's
            # options (and its own, given before the script) as unknown ones of this command.
            return cmd_run(argparse.Namespace(argv=argv[1:]))
        args = parser.parse_args(argv)
        if args.version:
            print(f"resamplex {rx.__version__}")
            return 0
        if args.command is None:
            parser.print_help(sys.stderr)
            return 2
        return args.func(args)
    except UsageError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except CommandError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `resamplex info | head`: the reader left; not an error
        # Point stdout at /dev/null so the interpreter's final flush does not fail again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
