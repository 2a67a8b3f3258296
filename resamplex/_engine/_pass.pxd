# The kernel contract: one pass of a program, as the executor (_exec.pyx) hands it to a kernel.
#
# A plan is compiled (in Python, once per input layout: resamplex/_engine/compile/) into a
# program, a list of PassDesc; a call runs the whole list in one native call with the GIL
# released (_exec.pyx). Every kernel module exports its entry points as a KernelTable behind a
# PyCapsule named "resamplex.kernels" (see kernel_table() in each module), so the executor can
# pick an implementation once, at import.
#
# Everything a kernel needs is here, already validated and laid out: kernels check nothing.

from libc.stdint cimport int64_t


cdef enum PassOp:
    OP_GATHER = 0     # nearest: byte gather for any itemsize (_gather.pyx)
    OP_WEIGHTED = 1   # one separable pass through a tap table (_taps.pyx weighted_pass)
    OP_FUSED = 2      # an outer pass and the innermost pass in one sweep (_taps.pyx fused_pass)
    OP_FIXED = 3      # uint8 fixed point, rounding after the pass (_fixed.pyx fixed_pass)
    OP_STORE = 4      # converting store: elements of src_kind -> (affine) -> dst_kind
                      # (_taps.pyx store_run; after a gather when the output dtype differs)
    OP_INT = 5        # exact integer taps with per-tap shifts and a stated finish (_intpass.pyx)
    OP_INT_FUSED = 6  # a plain integer pass and the integer pass outside it in one sweep
    OP_FLOAT = 7      # float taps in a stated association order and store (_floatpass.pyx)
    OP_SPLINE = 8     # B-spline prefilter: recursive filter along one axis (_spline.pyx)
    OP_TENSOR = 9     # tensor-product taps in SciPy's order, float64 (_spline.pyx tensor_run)
    OP_FLOAT_FUSED = 10   # a float pass over the inner axis and the float pass outside it in
                          # one sweep through a band of rows (_floatpass.pyx float_fused_run)
    OP_BLOCK = 11     # block sums over two adjacent axes (_blockpass.pyx block_run)
    OP_PRODUCT = 12   # tensor-product taps over 2 or 3 adjacent axes (_prodpass.pyx product_run)


cdef enum Compute:
    C_DOUBLE = 0      # accumulator type of weighted passes
    C_FLOAT = 1
    ACC_INT64 = 0     # accumulator type of integer passes (OP_INT)
    ACC_INT32 = 1


cdef enum LoopShape:  # how a weighted or fixed-point pass walks its rows (_taps.pyx.tp)
    SHAPE_LAST = 0      # resampled axis innermost: dense taps over a loaded row
    SHAPE_MID = 1       # second-innermost with a short innermost axis: blend short rows
    SHAPE_OUTER = 2     # further out: blend whole rows
    SHAPE_LAST_CSR = 3  # innermost, rows too long to load into scratch: taps read in place
    TENSOR_ROWS2 = 4    # OP_TENSOR at order 1 weighting the last two axes only: each output
                        # row from two input rows (_spline.pyx _rows2)


cdef enum PhaseKind:
    PHASE_NONE = 0
    PHASE_UP2 = 1
    PHASE_DOWN2 = 2
    PHASE_DOWN32 = 3
    PHASE_RUN = 4       # OP_FLOAT, pairs on float64 pixels: outputs [lo, hi) a shifted run
cdef enum:
    BLOCK = 4096           # elements per block of the long-row loop shapes (their scratch)
    MAX_ROW = 4194304      # longest row (input + output) SHAPE_LAST loads into scratch
    MAX_CHANNELS = 16      # a channels-last axis this short merges into the resampled one
    PAIRS_MAX = 64         # taps of one output rx_pairs_f64 takes at once (float pass)
    WIDE_TAPS = 1024       # float accumulators: an output of more taps is summed in double
                           # (_taps.pyx.tp, "Wide windows"); the planner reads such tables
                           # only through the loops that do it (SHAPE_LAST_CSR, MID, OUTER)


cdef struct Affine:
    # The output's `v * a + b` (SPEC §2 affine=), applied in the compute type just before the
    # final store. `a`, `b` point to arrays of the compute type; `astr`/`bstr` are their byte
    # strides along this pass's output axes (iteration order, 0 where broadcast). a == NULL:
    # no affine. The planner compiles the strides; the executor sets a/b for each call.
    const char* a
    const char* b
    const int64_t* astr
    const int64_t* bstr
    int64_t plane_a       # planar stores (PassDesc.planes): strides of a/b between channels
    int64_t plane_b


cdef struct BlockArgs:
    # OP_BLOCK: shape (outer, ho, wo, inner), sstr/dstr the strides over (outer, y, x); output
    # row y reads input rows [ys[y], ys[y] + cy[y]), column x columns [xs[x], xs[x] + cx[x]);
    # full fh x fw blocks are summed by the groups gptr/goff (byte offsets in the block), in
    # accumulator acc_kind (0 int64, 1 float, 2 double), from 0 unless zero is 0; finish fin
    # (full) and pfin (partial blocks) as _blockpass.pyx says.
    const int64_t* ys
    const int64_t* cy
    const int64_t* xs
    const int64_t* cx
    const int64_t* gptr
    const int64_t* goff
    const int64_t* bias_p
    const int64_t* mult_p
    Py_ssize_t fh
    Py_ssize_t fw
    Py_ssize_t ngroups
    int acc_kind
    int fin
    int pfin
    int pop
    int zero
    int64_t bias_f
    int64_t mult_f
    int64_t shift_f
    int64_t shift_p
    double scale_f


cdef struct ProductArgs:
    # OP_PRODUCT: shape (outer, do, ho, wo, inner), sstr/dstr the strides over (outer, d, h,
    # w); CSR tables of the three axes (pd/id_, ph/ih, pw/iw, input indices) with weights
    # wd/wh/ww in the accumulator ``compute``; the coefficient's factor order p0, p1, p2.
    const int64_t* pd
    const int64_t* id_
    const int64_t* ph
    const int64_t* ih
    const int64_t* pw
    const int64_t* iw
    const void* wd
    const void* wh
    const void* ww
    int p0
    int p1
    int p2


cdef struct PassDesc:
    int op
    # Where the pass reads and writes: -1 = the program's input, -2 = its output,
    # k >= 0 = scratch array k of the program.
    int src
    int dst
    int ndim          # 1 <= ndim <= 64
    int axis          # the resampled axis in this pass's (coalesced) iteration order
    int loop          # loop shape (see _taps.pyx / _fixed.pyx; fused: SHAPE_MID = pixels)
    int src_kind      # _dtypes kind codes (gather: unused)
    int dst_kind
    int rounding      # _dtypes rounding code
    int compute       # Compute
    int shift         # fixed point: the final right shift
    Py_ssize_t itemsize   # gather: bytes per element
    Py_ssize_t n_in   # weighted loop 0: input row length; fused: the first pass's input
                      # row length (pixels); gather: the leading
                      # outputs of each row moved n_mid bytes at a time (rx_gather_pixels)
    Py_ssize_t k      # taps per output of a dense table; gather: innermost repeat factor
    Py_ssize_t n_mid  # fused: length of the row between the two passes; gather: 0, 4-32 or 128
    Py_ssize_t buf_len    # per-thread scratch, in elements of the compute type (int32: fixed)
    Py_ssize_t units  # independent units of work (rows): more threads than this would idle
    const int64_t* shape  # this pass's output shape, iteration order (innermost last)
    const int64_t* sstr   # byte strides of the source, same order
    const int64_t* dstr   # byte strides of the destination, same order
    const int64_t* ptr    # CSR row pointers (fused: table of the outer axis)
    const int64_t* off    # CSR byte offsets, or dense element indices (loop 0); gather: offsets
    const void* w         # weights: double/float (weighted, fused table 1), int32 (fixed)
    const int64_t* idx2   # fused: dense indices of the innermost table; gather: axis starts
    const void* w2        # fused: dense weights of the innermost table
    # Fused passes of 8-bit data whose innermost table is a x2 / x0.5 polyphase pattern
    # (compile/phases.py phase_fields): PHASE_UP2 computes the even and odd output pixels of input
    # pixels [lo, hi) as two contiguous rows, rounds them and zips them; PHASE_DOWN2 unzips
    # each input row into its even and odd pixels first; PHASE_DOWN32 (3:2, single-element
    # pixels, exact integers only) computes outputs 2k and 2k + 1 from pixels 3k + pd[0],
    # 3k + pd[1] and 3k + pd[2], 3k + pd[3] of the blended row. Pixels are `channels`
    # elements.
    int phase
    Py_ssize_t channels   # gather: > 1 where each moved element is a pixel of this many
    int64_t estride       # elements, estride bytes apart in the input (_gather.pyx)
    int plus_zero         # gather: 4 or 8 where each element moved is float32 / float64 and
                          # stored as 0.0 + v (SciPy's order 0: -0.0 -> +0.0, a signalling
                          # NaN quiet), else 0; the output is aligned for it
    Py_ssize_t lo
    Py_ssize_t hi
    Py_ssize_t pd[4]      # up: pixel offsets of the taps (even: pd[0], pd[1]; odd: pd[2], pd[3])
    double pw[4]          # their weights (down: pw[0] even pixel, pw[1] odd pixel)
    # Exact integer form of a phase pass (the float32 sums are exact there): ishift >= 0 is
    # the total shift, pq the phase weights times 2^m2, wq the outer table's weights times
    # 2^m1 (int16, indexed like w); up: the float row is still blended over input elements
    # [0, blo) and [bhi, n_mid), which the outputs outside [2 lo, 2 hi) pixels read.
    int ishift
    Py_ssize_t pq[4]
    const void* wq
    Py_ssize_t blo
    Py_ssize_t bhi
    # up, where the innermost table's weights are integers times 2^-m2 too: bq, those
    # integers (int16, dense like w2), and the outputs outside the run are computed from the
    # integer row as well (NULL: from the float row).
    const void* bq
    # up, bq given, single-element pixels: 1 where every output outside the run is the run's
    # formula with its taps clamped to the row (checked by the planner): computed so.
    int bclamp
    # Integer tap passes (OP_INT, docs/engine-passes.md "Integer pass"): shape, sstr and dstr
    # are (outer, n_out, inner) around the axis, src_kind/dst_kind _elem.pxd element codes,
    # off the input index of each tap, w int64 weights, loop 0 (blend rows) or 1 (element by
    # element); acc = sum ((x >> pre) * w) >> post, then the finish (0: ((acc + bias) * mult)
    # >> shift, 1: rintf((float)acc * fmul), 2: ((acc + bias) * mult) / 2^shift).
    int pre
    int post
    int finish
    int64_t bias
    int64_t mult
    float fmul
    const int64_t* ptr2   # OP_INT_FUSED: CSR row pointers of the first (inner) pass
    Py_ssize_t head       # OP_INT_FUSED: the first `head` elements of each output row are
    float hscale          # float32 sums instead, right to left, of (w * hscale) * (float)x,
                          # rounded half to even (OpenCV's vector head of a split pass)
    # OP_FLOAT loop 0, pairs, float64, integer source (exact.FloatPass.load): lscale != 0
    # reads each source element as max(double(x) * lscale, lfloor), every source row made so
    # once into a per-thread ring of `ring` rows (slot: input index mod ring) and summed from
    # there (scikit-image's img_as_float folded into its Gaussian's first pass)
    double lscale
    double lfloor
    Py_ssize_t ring
    # The last pass of a program whose output gets `v * a + b` (weighted, fused and store
    # passes only; aff.astr == NULL otherwise).
    Affine aff
    # Planar store (fused passes over interleaved pixels, axis == ndim - 2 only): each output
    # row of `planes` interleaved channels is stored as `planes` rows, channel k at byte
    # offset k * plane_stride, pixels dstr[ndim - 1] apart (an HWC image into CHW memory).
    # planes <= 1: an ordinary row.
    Py_ssize_t planes
    int64_t plane_stride
    # Byte offsets of this pass's first element in its source and destination (0 but for
    # the two halves of a split pass, the second of which starts `head` elements into each
    # row: OpenCV's vector loop and its scalar remainder, each an OP_INT/OP_FLOAT pass).
    int64_t soff
    int64_t doff
    # OP_FLOAT_FUSED (_floatpass.pyx float_fused_run): the first pass's weights (ptr2/idx2
    # its table), association order and stored kind (the band's); the second pass's order on
    # its first `head` elements of each row (a split pass's head; `finish` on the rest).
    const void* w1
    int order1
    int mid_kind
    int order_head
    # OP_FLOAT_FUSED with k > 0: the last `ktail` outputs of the first pass have fewer than k
    # taps (OpenCV's linear rows end in one-tap outputs). idx2/w1 hold k taps for every
    # output, the tail's padded with in-range pixels and weight 0, so the dense row is
    # computed whole; then the tail outputs again from their own taps, listed after the
    # dense ones (ptr2[o] to ptr2[o + 1], sequential order), over the padded values.
    Py_ssize_t ktail
    # OP_FLOAT_FUSED: the first `zlead` and the last `ztrail` outputs of each first-pass row
    # are summed from +0.0 (FloatPass zero_edges): 0.0 + the row's sum, made after it.
    Py_ssize_t zlead
    Py_ssize_t ztrail
    # OP_INT_FUSED with phase PHASE_DOWN2 (uint8/int8 input): outputs [lo, hi) of the first
    # pass read pixels 2 o + rd[t] with weights rw[t], t < rk (4 or 8); each input row is
    # unzipped into its even and odd pixels first (_intpass.pyx _down2_row). (OP_FUSED: rk
    # below.)
    Py_ssize_t rk
    Py_ssize_t rd[8]
    int64_t rw[8]
    # OP_INT_FUSED, uint8 input and store: 1 when the ring holds each first-pass sum shifted
    # right by `pre` as int16, and the second pass (two taps for every output, post 16,
    # mult 1, finish 0, no head) blends it with 16-bit high products: the planner bounded
    # every value inside int16 (OpenCV's own vertical form; _intpass.pyx _narrow_rows).
    int narrow
    # OP_FLOAT_FUSED with a x2 run of k = 4 or 8 taps for every output (k the dense count):
    # output pixel 2i + r reads pixels i + pdk[k r + t] with the weights pwk[k r + t].
    # OP_FUSED phase passes of rk = 3..8 taps (rk = 0: the two-tap forms above): PHASE_UP2,
    # output pixel 2i + r, i in [lo, hi), reads pixels i + pdk[rk r + t] with the weights
    # pwk[rk r + t]; PHASE_DOWN2 (8-bit), output pixel X in [lo, hi) reads pixels
    # 2 X + pdk[t] with the weights pwk[t].
    Py_ssize_t pdk[16]
    double pwk[16]
    # PHASE_DOWN2 of rk taps in exact integers (ishift >= 0): pwk times 2^m2 (and wq the outer
    # weights times 2^m1, as above)
    int pqk[16]
    float iscale          # 2^-m1: the value of one unit of those integer blended rows
    # OP_TENSOR: the leading `lead` axes are read at their first tap only (every output
    # of such an axis sits on an input element: weight 1.0 there, 0.0 at its other taps)
    int lead
    # OP_FUSED with four rows per step (axis == ndim - 2) whose innermost pass reads few of
    # a row's elements (compile/weighted.py _gathered_fields): gpix_n > 0 output pixels of `channels`
    # elements per row (n = shape[-1] = gpix_n * channels). For tap j of the dense innermost
    # table, gpix[j * gpix_n + o] is the byte offset in an input row of the pixel that output
    # pixel o reads; those pixels of each blended input row are gathered first (the first
    # gwide of each tap gwidth bytes at once, rx_gather_pixels), then blended, tap-major, and
    # the positions gpad[0 .. npad) of the blended rows (padding taps: j * n + element) set to
    # +0, the value of the padding element; gw[j * n + e] is tap j's weight of element e.
    Py_ssize_t gpix_n
    Py_ssize_t gwide
    Py_ssize_t gwidth
    Py_ssize_t npad
    const int64_t* gpix
    const int64_t* gpad
    const void* gw
    # gpair: uint8 data whose every output pixel reads two adjacent pixels (no padding): the
    # row is computed in registers from the input rows instead (rx_pairs_u8_f32), the first
    # gpwide pixels 8 bytes at a time.
    int gpair
    Py_ssize_t gpwide
    BlockArgs blk     # OP_BLOCK
    ProductArgs prod  # OP_PRODUCT


ctypedef void (*pass_fn)(const PassDesc* p, const char* src, char* dst, void* bufs,
                         int nthreads) noexcept nogil


cdef struct PassJob:
    # What the items of a parallel pass share: the context its loop body gets from the
    # thread pool (_pool.pxd, body(ctx, lo, hi, tid, ...)). The pass and its arrays, the
    # threads' scratch (thread tid's at bufs + tid * its length), and, for passes whose items
    # are fixed runs of rows (one per thread: their edges are computed twice), how they
    # split: `chunks` runs of `per` rows out of `rows`, rows of `n_row` elements.
    const PassDesc* p
    const char* src
    char* dst
    void* bufs
    Py_ssize_t rows
    Py_ssize_t per
    Py_ssize_t chunks
    Py_ssize_t n_row
    # a table the pass laid out once for all its rows (OP_FLOAT_FUSED: rx_dense2_f32_prep),
    # or NULL; read only by the pass that set it
    const void* pre


cdef struct KernelTable:
    pass_fn gather
    pass_fn weighted
    pass_fn fused
    pass_fn fixed
    pass_fn ints
    pass_fn ints_fused
    pass_fn floats
    pass_fn store
    pass_fn spline
    pass_fn tensor
    pass_fn floats_fused
    pass_fn block
    pass_fn product
