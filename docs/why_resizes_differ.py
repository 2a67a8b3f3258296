"""Draw docs/why_resizes_differ.png: one test chart resized by each framework, and the
differences.

    python docs/why_resizes_differ.py [output.png]

Every framework's result comes from its resamplex front door (``compat.cv2``, ``compat.pil``,
``compat.torch``, ``compat.onnx``), which is bit for bit the framework's own; where the
framework itself is installed the script checks that too (OpenCV with IPP off). Needs
matplotlib.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from resamplex.cli import demo_chart
from resamplex.compat import cv2 as rcv
from resamplex.compat import onnx as ronnx
from resamplex.compat import pil
from resamplex.compat import torch as rtorch

N_IN, N_OUT = 128, 48  # a 2.67x shrink: no framework can take an integer shortcut


def chart() -> np.ndarray:
    return np.rint(demo_chart(N_IN).astype(np.float64) * 255).astype(np.uint8)


def results(a: np.ndarray) -> dict[str, np.ndarray]:
    """Each framework's "bilinear" (and area) downscale of the uint8 chart."""
    nchw = a[None, None]
    return {
        "OpenCV\nINTER_LINEAR": rcv.resize(a, (N_OUT, N_OUT), interpolation=rcv.INTER_LINEAR),
        "OpenCV\nINTER_AREA": rcv.resize(a, (N_OUT, N_OUT), interpolation=rcv.INTER_AREA),
        "Pillow\nBILINEAR": pil.resize(a, (N_OUT, N_OUT), pil.BILINEAR),
        "PyTorch bilinear": rtorch.interpolate(nchw, size=(N_OUT, N_OUT), mode="bilinear")[0, 0],
        "PyTorch bilinear\nantialias=True": rtorch.interpolate(nchw, size=(N_OUT, N_OUT),
                                                               mode="bilinear",
                                                               antialias=True)[0, 0],
        "ONNX Runtime\nlinear": ronnx.resize(nchw, sizes=[1, 1, N_OUT, N_OUT],
                                             mode="linear")[0, 0],
        "onnx.reference\nlinear": ronnx.resize(nchw, sizes=[1, 1, N_OUT, N_OUT], mode="linear",
                                               flavour="reference")[0, 0],
        "ONNX Runtime\nlinear antialias": ronnx.resize(nchw, sizes=[1, 1, N_OUT, N_OUT],
                                                       mode="linear", antialias=1)[0, 0],
    }


def check_against_originals(a: np.ndarray, got: dict[str, np.ndarray]) -> list[str]:
    """Compare with the installed originals; returns the names checked."""
    checked = []
    try:
        import cv2

        before = cv2.ipp.useIPP()
        cv2.ipp.setUseIPP(False)
        for flag, name in ((cv2.INTER_LINEAR, "OpenCV\nINTER_LINEAR"),
                           (cv2.INTER_AREA, "OpenCV\nINTER_AREA")):
            assert np.array_equal(cv2.resize(a, (N_OUT, N_OUT), interpolation=flag), got[name])
            checked.append(name)
        cv2.ipp.setUseIPP(before)
    except ImportError:
        pass
    try:
        from PIL import Image

        assert np.array_equal(np.asarray(Image.fromarray(a).resize((N_OUT, N_OUT),
                                                                   Image.BILINEAR)),
                              got["Pillow\nBILINEAR"])
        checked.append("Pillow\nBILINEAR")
    except ImportError:
        pass
    try:
        import torch

        t = torch.from_numpy(a[None, None])
        for aa, name in ((False, "PyTorch bilinear"), (True, "PyTorch bilinear\nantialias=True")):
            ref = torch.nn.functional.interpolate(t, size=(N_OUT, N_OUT), mode="bilinear",
                                                  antialias=aa).numpy()[0, 0]
            assert np.array_equal(ref, got[name])
            checked.append(name)
    except ImportError:
        pass
    return checked


def draw(a: np.ndarray, got: dict[str, np.ndarray], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base_name = "Pillow\nBILINEAR"
    base = got[base_name].astype(np.int16)
    names = list(got)
    fig, axes = plt.subplots(2, len(names) + 1, figsize=(2.0 * (len(names) + 1), 4.6),
                             gridspec_kw=dict(wspace=0.06, hspace=0.28))
    axes[0, 0].imshow(a, cmap="gray", vmin=0, vmax=255, interpolation="nearest")
    axes[0, 0].set_title(f"test chart\n{N_IN} x {N_IN} uint8", fontsize=8)
    axes[1, 0].text(0.5, 0.5, f"difference\nfrom Pillow\nBILINEAR\n(red: brighter,\n"
                    "blue: darker,\nfull scale 64)", ha="center", va="center", fontsize=8)
    for i, name in enumerate(names, start=1):
        img = got[name]
        axes[0, i].imshow(img, cmap="gray", vmin=0, vmax=255, interpolation="nearest")
        axes[0, i].set_title(f"{name}\n-> {N_OUT} x {N_OUT}", fontsize=8)
        d = img.astype(np.int16) - base
        axes[1, i].imshow(d, cmap="RdBu_r", vmin=-64, vmax=64, interpolation="nearest")
        label = ("the reference" if name == base_name else
                 f"max |d| {int(np.abs(d).max())}\n{100 * (d != 0).mean():.0f}% of pixels")
        axes[1, i].set_title(label, fontsize=8)
    for ax in axes.ravel():
        ax.set_xticks([])
        ax.set_yticks([])
    for spine in axes[1, 0].spines.values():
        spine.set_visible(False)
    fig.suptitle("The same \"bilinear\" downscale in eight frameworks (all bit-exact "
                 "reproductions by resamplex.compat)", fontsize=10, y=1.06)
    fig.savefig(path, dpi=90, bbox_inches="tight")


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("why_resizes_differ.png")
    a = chart()
    got = results(a)
    checked = check_against_originals(a, got)
    draw(a, got, out)
    print(f"wrote {out}; checked against the installed originals: "
          f"{', '.join(n.replace(chr(10), ' ') for n in checked) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
