"""Every weighted mode of the core against the reference (SPEC §2, §3, issue 15).

``MODE_ROWS`` is the table of modes: a row is ``(id, keyword arguments, transforms)``. Every row
is run through ``rx.resize``, ``rx.Resampler`` and ``rx.resize_adjoint`` for every coordinate
transform and every weighted dtype, on small seeded random cases, and compared with
``tests/reference.py`` (exact tables, evaluated in float64) under the SPEC §3 tolerances; the
adjoint against the dense transpose of the reference operator. A mode added later (lanczos,
say) is one more row: the reference already has its filter (``reference.FILTERS``).

The float tolerances are relative to ``max|x|`` times the operator's gain
(``reference.request_gain``): 1 for linear and area, the product of the largest row
``sum |w|`` for cubic, whose negative lobes make float32 intermediates larger than ``max|x|``
(SPEC §3 names that overshoot); for an adjoint, the largest column sum (an enlarging axis adds
several outputs into one input).

Then hand-worked values (derivations in the comments) and live cross-checks against OpenCV
``INTER_AREA`` and PyTorch ``bicubic`` / antialiased ``bilinear``/``bicubic`` where installed.
"""

import math
import zlib

import numpy as np
import pytest

import resamplex as rx
import reference as ref

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

DTYPES = {
    "float64": np.dtype(np.float64), "float32": np.dtype(np.float32),
    "float16": np.dtype(np.float16), "bfloat16": BF16, "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8), "int16": np.dtype(np.int16), "uint16": np.dtype(np.uint16),
}

ALL = ref.TRANSFORMS
#: (id, keyword arguments of rx.resize and reference_resize, transforms to run).
#: ``area`` ignores the transform (SPEC §2: its footprint is [o*r, (o+1)*r)).
MODE_ROWS = [
    ("linear", dict(mode="linear"), ALL),
    ("linear-aa", dict(mode="linear", antialias=True), ALL),
    ("linear-aa-excl", dict(mode="linear", antialias=True, exclude_outside=True), ALL),
    ("cubic", dict(mode="cubic"), ALL),
    ("cubic-a-0.5", dict(mode="cubic", cubic_a=-0.5), ALL),
    ("cubic-a-1.25-excl", dict(mode="cubic", cubic_a=-1.25, exclude_outside=True), ALL),
    ("cubic-aa", dict(mode="cubic", antialias=True), ALL),
    ("cubic-aa-a-0.5-excl", dict(mode="cubic", antialias=True, cubic_a=-0.5,
                                 exclude_outside=True), ALL),
    ("lanczos", dict(mode="lanczos"), ALL),
    ("lanczos-a2-excl", dict(mode="lanczos", lanczos_a=2, exclude_outside=True), ALL),
    ("lanczos-a1", dict(mode="lanczos", lanczos_a=1), ("half_pixel", "asymmetric")),
    ("lanczos-aa", dict(mode="lanczos", antialias=True), ALL),
    ("lanczos-aa-a4-excl", dict(mode="lanczos", antialias=True, lanczos_a=4,
                                exclude_outside=True), ALL),
    ("hamming", dict(mode="hamming"), ALL),
    ("hamming-aa", dict(mode="hamming", antialias=True), ALL),
    ("hamming-aa-excl", dict(mode="hamming", antialias=True, exclude_outside=True), ALL),
    ("box", dict(mode="box"), ALL),
    ("box-aa", dict(mode="box", antialias=True), ALL),
    ("box-aa-excl", dict(mode="box", antialias=True, exclude_outside=True), ALL),
    ("area", dict(mode="area"), ("half_pixel", "align_corners")),
]

# Scales: dyadic and not, and strong shrinks so antialiased windows grow to ~7 input pixels.
UP = (1.25, 1.5, 1.7, 2.0, 2.5, 3.0)
DOWN = (0.15, 0.25, 0.3, 1 / 3, 0.5, 0.6, 0.75)


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _max_abs(x):
    v = np.abs(np.asarray(x).astype(np.float64))
    v = v[np.isfinite(v)]
    return float(v.max()) if v.size else 0.0


def box_fragile(shape, size, scale, axes=None, transform="half_pixel", antialias=False,
                eps=ref.FRAGILE_EPS):
    """True if a box footprint edge ``u -+ s/2`` (``s`` the stretch) lies within ``eps`` of an
    input sample in exact arithmetic, but not on it: which side the sample falls on is then
    decided by float64 rounding, like a nearest-mode near-tie (``reference.is_fragile``), and
    the library may land on either side. (Exact ties must follow the half-open rule.)"""
    for a, n_out, sc in ref.normalize_request(shape, size, scale, axes):
        n_in = shape[a]
        r = ref.ratio(n_in, n_out, sc)
        half = (r if antialias and r > 1 else 1) / 2
        for o in range(n_out):
            u = ref.source_coordinate(o, n_in, n_out, sc, transform)
            for b in (u - half, u + half):
                if 0 < abs(b - round(b)) <= eps * max(1, abs(b)):
                    return True
    return False


def _cases(rng, n=3, reject=None):
    """``n`` random requests ``(shape, size, scale)`` over all axes, 1 to 3 dims; every case
    shrinks at least one axis (antialiasing has something to do) and enlarges another where
    it has two. ``reject(shape, size, scale)``: draw again where it is true."""
    out = []
    for k in range(n):
        nd = k % 3 + 1
        how = ("size", "scale", "both")[(k + int(rng.integers(3))) % 3]
        for _ in range(100):
            shape = tuple(int(v) for v in rng.integers(2, 10, nd))
            down = [rng.random() < 0.5 for _ in shape]
            down[int(rng.integers(nd))] = True
            if nd > 1:
                down[(down.index(True) + 1) % nd] = False
            scale = [float(rng.choice(DOWN if d else UP)) for d in down]
            size = [int(max(1, math.floor(n_in * s) + int(rng.integers(-1, 2))))
                    for n_in, s in zip(shape, scale)]
            if how == "scale":
                size = None
                if any(math.floor(n_in * s) < 1 or not ref.exact_length_agrees(n_in, s)
                       for n_in, s in zip(shape, scale)):
                    continue
            elif how == "size":
                scale = None
            if reject is not None and reject(shape, size, scale):
                continue
            out.append((shape, size, scale))
            break
    return out


def _params():
    for row_id, kw, transforms in MODE_ROWS:
        for transform in transforms:
            for dname in DTYPES:
                yield pytest.param(kw, transform, dname, id=f"{row_id}-{transform}-{dname}")


@pytest.mark.parametrize("kw,transform,dname", list(_params()))
def test_mode_against_reference(kw, transform, dname):
    """rx.resize, Resampler and resize_adjoint of one mode row against the reference."""
    dtype = DTYPES[dname]
    rng = _rng("modes", tuple(sorted(kw.items())), transform, dname)
    reject = None
    if kw["mode"] == "box":
        def reject(shape, size, scale):
            return box_fragile(shape, size, scale, None, transform, kw.get("antialias", False))
    cases = _cases(rng, reject=reject)
    assert len(cases) == 3
    for i, (shape, size, scale) in enumerate(cases):
        rounding = ref.ROUNDINGS[i % 3] if dtype.kind in "iu" else "half_even"
        call = dict(kw, coordinate_transform=transform)
        what = f"shape={shape} size={size} scale={scale} {call} rounding={rounding}"
        x = ref.random_array(rng, shape, dtype)
        want = ref.reference_resize(x, size, scale, **call)
        gain = ref.request_gain(shape, size, scale, **call)
        tol = dict(rounding=rounding, xmax=_max_abs(x) * gain, passes=len(shape))
        got = rx.resize(x, size, scale=scale, rounding=rounding, **call)
        ref.assert_matches(got, want, dtype, kw["mode"], err_msg="resize " + what, **tol)
        plan = rx.Resampler(shape, size, scale=scale, dtype=dtype, rounding=rounding, **call)
        assert plan.out_shape == want.shape
        ref.assert_matches(plan(x), want, dtype, kw["mode"], err_msg="Resampler " + what,
                           **tol)
        # the adjoint: the dense transpose of the reference operator
        g = ref.random_array(rng, want.shape, dtype)
        a = ref.dense_operator(shape, size, scale, **call)
        want_t = (a.T @ g.astype(np.float64).ravel()).reshape(shape)
        gain_t = ref.request_gain(shape, size, scale, transpose=True, **call)
        tol_t = dict(rounding=rounding, xmax=_max_abs(g) * gain_t, passes=len(shape))
        got_t = rx.resize_adjoint(g, shape, size, scale=scale, rounding=rounding, **call)
        ref.assert_matches(got_t, want_t, dtype, kw["mode"], err_msg="resize_adjoint " + what,
                           **tol_t)
        ref.assert_matches(plan.adjoint(g), want_t, dtype, kw["mode"],
                           err_msg="Resampler.adjoint " + what, **tol_t)


@pytest.mark.parametrize("row_id,kw", [(r[0], r[1]) for r in MODE_ROWS],
                         ids=[r[0] for r in MODE_ROWS])
def test_mode_axes_subsets_and_layouts(row_id, kw):
    """Some axes resampled, the others copied; views and ``out=`` of any strides."""
    rng = _rng("subsets", row_id)
    x = ref.random_array(rng, (3, 8, 5, 4), np.float32)
    for axes, size, scale in (([1, 3], [3, 7], None), ([-2], None, [0.4]),
                              ([2, 0], [9, 2], [1.5, 0.5])):
        if kw["mode"] == "box" and box_fragile(x.shape, size, scale, axes, "half_pixel",
                                               kw.get("antialias", False)):
            continue  # 1/0.4 is just below 2.5: a footprint edge 1e-16 from a sample
        want = ref.reference_resize(x, size, scale, axes, **kw)
        xmax = _max_abs(x) * ref.request_gain(x.shape, size, scale, axes, **kw)
        for view in (x, np.asfortranarray(x), x[::-1, :, ::-1][::-1, :, ::-1],
                     np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)):
            got = rx.resize(view, size, scale=scale, axes=axes, **kw)
            ref.assert_matches(got, want, np.float32, kw["mode"], xmax=xmax,
                               err_msg=f"{row_id} axes={axes}")
        out = np.full((2,) + want.shape, np.float32(7))[1, ::-1][::-1]
        assert rx.resize(x, size, scale=scale, axes=axes, out=out, **kw) is out
        ref.assert_matches(out, want, np.float32, kw["mode"], xmax=xmax,
                           err_msg=f"{row_id} axes={axes} out=")


@pytest.mark.parametrize("rounding", ref.ROUNDINGS)
@pytest.mark.parametrize("dname", ["int8", "uint8", "int16", "uint16"])
def test_exact_ties_follow_the_rounding_rule(dname, rounding):
    """Halving an axis (linear or area, half_pixel) averages pairs with weights 1/2: the
    value (a + b)/2 is exact in any arithmetic, and half the outputs are ties. SPEC §3 lets an
    integer result take either neighbour only where float error could move it across a
    boundary; an exact tie must follow ``rounding`` (every dtype, contiguous and strided
    destinations, one and two resampled axes)."""
    dtype = DTYPES[dname]
    rng = _rng("ties", dname, rounding)
    x = ref.random_array(rng, (6, 64), dtype)
    for mode in ("linear", "area"):
        for size, axes in (([32], [1]), ([3, 32], [0, 1])):
            v = ref.reference_resize(x, size, axes=axes, mode=mode)
            assert ((v * 4) == np.round(v * 4)).all()        # exact quarters: ties are exact
            want = ref.expected_integer(v, dtype, rounding)
            assert (v != np.round(v)).any()
            for out in (None, np.empty(want.shape[::-1], dtype).T,
                        np.empty(want.shape[:-1] + (2 * want.shape[-1],), dtype)[..., ::2]):
                got = rx.resize(x, size, axes=axes, mode=mode, rounding=rounding, out=out)
                np.testing.assert_array_equal(got, want, err_msg=f"{mode} {size} {axes}")


# --------------------------------------------------------------------------------------------
# Hand-worked values (each also checked on the reference in test_reference.py)
# --------------------------------------------------------------------------------------------

X4 = np.array([1.0, 2.0, 4.0, 8.0])


def test_cubic_hand_worked():
    # 4 -> 8 half_pixel: u(o) = o/2 - 1/4. Output 3: u = 5/4, i0 = 1, t = 1/4, taps 0..3 at
    # distances 5/4, 1/4, 3/4, 7/4. Keys a = -3/4: W = -27/256, 225/256, 67/256, -9/256
    # -> (-27 + 2*225 + 4*67 - 8*9)/256 = 619/256 = 2.41796875.
    # Keys a = -1/2: W = -18/256, 222/256, 58/256, -6/256 -> (-18 + 444 + 232 - 48)/256 = 610/256.
    np.testing.assert_allclose(rx.resize(X4, [8], mode="cubic")[3], 619 / 256, rtol=1e-15)
    np.testing.assert_allclose(rx.resize(X4, [8], mode="cubic", cubic_a=-0.5)[3], 610 / 256,
                               rtol=1e-15)
    # Output 0: u = -1/4, i0 = -1, t = 3/4: taps -2, -1, 0, 1 at distances 7/4, 3/4, 1/4, 5/4
    # (a = -3/4: -9, 67, 225, -27 over 256). Clamped: index 0 gets 283/256, index 1 -27/256
    # -> (283 - 54)/256 = 229/256. exclude_outside: taps 0, 1 only, renormalised by 198/256:
    # (225 - 54)/198 = 171/198 = 19/22.
    np.testing.assert_allclose(rx.resize(X4, [8], mode="cubic")[0], 229 / 256, rtol=1e-15)
    np.testing.assert_allclose(rx.resize(X4, [8], mode="cubic", exclude_outside=True)[0],
                               19 / 22, rtol=1e-15)


def test_area_hand_worked():
    # 4 -> 3, r = 4/3: footprints [0, 4/3), [4/3, 8/3), [8/3, 4):
    # (1 + 2/3) / (4/3) = 5/4; (2*2/3 + 4*2/3) / (4/3) = 3; (4/3 + 8) / (4/3) = 7.
    np.testing.assert_allclose(rx.resize(X4, [3], mode="area"), [1.25, 3.0, 7.0], rtol=1e-15)
    # size 2 with scale 0.25: r = 4, footprints [0, 4) -> mean 15/4, [4, 8) beyond the input
    # -> the last sample.
    np.testing.assert_allclose(rx.resize(X4, [2], scale=[0.25], mode="area"), [3.75, 8.0],
                               rtol=1e-15)


def test_antialias_hand_worked():
    # [1, 2, 4, 8, 16, 32] -> 2, r = 3, half_pixel: u = 1, 4. Triangle 1 - |i - u|/3 on
    # |i - u| < 3: weights 1/3, 2/3, 1, 2/3, 1/3 over i = u-2 .. u+2 (sum 3).
    # u = 1, clamped (i = -1 reads 0): (1/3 + 2/3 + 2 + 8/3 + 8/3) / 3 = 25/9;
    #        exclude_outside: (2/3 + 2 + 8/3 + 8/3) / (8/3) = 3.
    # u = 4, clamped (i = 6 reads 5): (4/3 + 16/3 + 16 + 64/3 + 32/3) / 3 = 164/9;
    #        exclude_outside: (4/3 + 16/3 + 16 + 64/3) / (8/3) = 33/2.
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0, 32.0])
    np.testing.assert_allclose(rx.resize(x, [2], antialias=True), [25 / 9, 164 / 9],
                               rtol=1e-15)
    np.testing.assert_allclose(rx.resize(x, [2], antialias=True, exclude_outside=True),
                               [3.0, 16.5], rtol=1e-15)
    # Upsampling: antialias changes nothing.
    assert rx.resize(X4, [7], antialias=True).tolist() == rx.resize(X4, [7]).tolist()


# --------------------------------------------------------------------------------------------
# Live cross-checks
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dname", ["float64", "float32"])
@pytest.mark.parametrize("shape,dsize", [((12, 9), (4, 3)), ((10, 13), (3, 6)),
                                         ((7, 11), (5, 2)), ((16, 16), (8, 4))])
def test_area_against_opencv(shape, dsize, dname):
    """OpenCV ``INTER_AREA`` when shrinking is SPEC §2's box filter. OpenCV stores the
    coefficients as float32 (``computeResizeAreaTab``: ``alpha = (float)...``), each off by at
    most 2**-24 relative; per axis they sum to 1, so two axes put OpenCV within about
    2 * 2**-24 of max|x| of the exact value. It is held to 2**-22 of max|x| (a factor 2 to
    spare; 0.18 * 2**-24 was the largest seen), plus, on float32 data, the SPEC §3 float32
    tolerance and OpenCV's own rounding to float32 (4.5 ulp of max|x|). Moving a footprint
    edge by one pixel changes outputs by ~10% of max|x|."""
    cv2 = pytest.importorskip("cv2")
    rng = _rng("cv2-area", shape, dname)
    x = rng.standard_normal(shape).astype(dname)
    want_cv = cv2.resize(x, (dsize[1], dsize[0]), interpolation=cv2.INTER_AREA)
    want = ref.reference_resize(x, list(dsize), mode="area")
    tol = 2.0**-22 * _max_abs(x)
    if x.dtype == np.float32:
        tol += 4.5 * float(np.spacing(np.float32(_max_abs(x))))
    np.testing.assert_allclose(want_cv, want, rtol=0, atol=tol, err_msg="reference vs OpenCV")
    got = rx.resize(x, list(dsize), mode="area")
    np.testing.assert_allclose(got, want_cv, rtol=0, atol=tol, err_msg="resamplex vs OpenCV")


def _torch_interpolate(x, size, **kw):
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(np.ascontiguousarray(x)[None, None])
    return torch.nn.functional.interpolate(t, size=tuple(size), **kw)[0, 0].numpy()


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("shape,size", [((5, 7), (9, 4)), ((8, 3), (3, 10)), ((4, 4), (13, 1)),
                                        ((6, 9), (6, 9))])
def test_cubic_against_torch(shape, size, align_corners):
    """torch ``bicubic`` is Keys a = -0.75 with clamped taps, half_pixel (no clamping of the
    coordinate for cubic) or align_corners: our ``cubic``. float64 throughout, so to 1e-12."""
    rng = _rng("torch-cubic", shape, size, align_corners)
    x = rng.standard_normal(shape)
    transform = "align_corners" if align_corners else "half_pixel"
    want_t = _torch_interpolate(x, size, mode="bicubic", align_corners=align_corners)
    want = ref.reference_resize(x, list(size), mode="cubic", coordinate_transform=transform)
    tol = 1e-12 * _max_abs(x)
    np.testing.assert_allclose(want_t, want, rtol=0, atol=tol, err_msg="reference vs torch")
    got = rx.resize(x, list(size), mode="cubic", coordinate_transform=transform)
    np.testing.assert_allclose(got, want_t, rtol=0, atol=tol, err_msg="resamplex vs torch")


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("shape,size", [((17, 9), (4, 3)), ((9, 20), (7, 3)), ((5, 6), (2, 11)),
                                        ((30, 4), (3, 4))])
def test_antialias_against_torch(shape, size, mode):
    """torch ``antialias=True`` (Pillow's rule): the filter stretched by the shrink factor,
    taps outside the input dropped and the rest renormalised, bicubic with a = -0.5. That is
    our antialias with ``exclude_outside=True`` (and ``cubic_a=-0.5``). float64, to 1e-12."""
    rng = _rng("torch-aa", shape, size, mode)
    x = rng.standard_normal(shape)
    kw = dict(mode="linear") if mode == "bilinear" else dict(mode="cubic", cubic_a=-0.5)
    kw.update(antialias=True, exclude_outside=True)
    want_t = _torch_interpolate(x, size, mode=mode, antialias=True, align_corners=False)
    want = ref.reference_resize(x, list(size), **kw)
    tol = 1e-12 * _max_abs(x)
    np.testing.assert_allclose(want_t, want, rtol=0, atol=tol, err_msg="reference vs torch")
    got = rx.resize(x, list(size), **kw)
    np.testing.assert_allclose(got, want_t, rtol=0, atol=tol, err_msg="resamplex vs torch")
