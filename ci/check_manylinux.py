"""Check a wheel repaired by ``auditwheel repair`` (ci/build_wheel.sh): a manylinux tag, one
libgomp vendored in ``resamplex.libs/``, and every compiled kernel that uses OpenMP linked to
that copy (its ``DT_NEEDED`` names the vendored file, never ``libgomp.so.1``, and its run path
leads from ``$ORIGIN`` to ``resamplex.libs``); a kernel without parallel regions needs none. Prints the glibc the tag needs, and a note when that is newer
than manylinux_2_28's (what cibuildwheel's release image gives).

Usage: ``python ci/check_manylinux.py WHEEL`` (with pyelftools, which auditwheel installs).
"""

from __future__ import annotations

import io
import re
import sys
import zipfile

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile


def main(wheel: str) -> int:
    tag = re.search(r"-(manylinux_(\d+)_(\d+)_\w+)\.whl$", wheel)
    if tag is None:
        sys.exit(f"error: the repaired wheel has no manylinux tag: {wheel}")
    z = zipfile.ZipFile(wheel)
    names = z.namelist()
    vendored = [n for n in names if re.fullmatch(r"resamplex\.libs/libgomp[^/]*\.so[.\d]*", n)]
    if len(vendored) != 1:
        sys.exit(f"error: expected one libgomp in resamplex.libs/, found {vendored}")
    gomp = vendored[0].split("/")[1]
    kernels = [n for n in names if re.fullmatch(r"resamplex/_engine/\w+\..*\.so", n)]
    if not kernels:
        sys.exit("error: no compiled kernels in the wheel")
    linked = 0
    for name in kernels:
        elf = ELFFile(io.BytesIO(z.read(name)))
        dynamic = next(s for s in elf.iter_sections() if isinstance(s, DynamicSection))
        tags = list(dynamic.iter_tags())
        needed = [t.needed for t in tags if t.entry.d_tag == "DT_NEEDED"]
        paths = [t.runpath for t in tags if t.entry.d_tag == "DT_RUNPATH"]
        paths += [t.rpath for t in tags if t.entry.d_tag == "DT_RPATH"]
        # A module without parallel regions (the table builder) needs no libgomp at all (the
        # linker drops it); one with them must need the vendored copy, never the system's.
        if any(n.startswith("libgomp.so") for n in needed):
            sys.exit(f"error: {name} needs {needed}: the system's libgomp, not the vendored {gomp}")
        if gomp not in needed:
            continue
        linked += 1
        if not any("$ORIGIN" in p and "resamplex.libs" in p for p in paths):
            sys.exit(f"error: {name} has no $ORIGIN run path to resamplex.libs: {paths}")
    if not linked:
        sys.exit(f"error: no compiled kernel needs the vendored {gomp}")
    major, minor = int(tag.group(2)), int(tag.group(3))
    print(f"{wheel.rsplit('/', 1)[-1]}: {gomp} vendored, {linked} of {len(kernels)} kernels "
          "linked to it (the others use no OpenMP); "
          f"needs glibc >= {major}.{minor}")
    if (major, minor) > (2, 28):
        print(f"note: this machine's glibc gives manylinux_{major}_{minor}: PyPI takes it, but pip "
              f"installs it only where glibc >= {major}.{minor} (not on RHEL 8 or Ubuntu 20.04, "
              "for instance). Release wheels come from cibuildwheel's manylinux_2_28 image "
              "(pyproject.toml, [tool.cibuildwheel]).")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
