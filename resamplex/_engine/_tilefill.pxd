# The table builder's entry point for the executor's native tiles (``_tablegen.TableBuilder
# .tile_filler``, ``_exec.Program.run_tiles``): a long axis without a period is built and run
# tile by tile in one compiled loop, each tile's taps written straight in the form its pass
# reads, in a thread's own buffers.

from libc.stdint cimport int64_t

# fill(state, o0, o1, n_w, k, scale, channels, dbl, ptr, off, w, tidx, tw): the taps of outputs
# o0 .. o1 - 1 over an input window of n_w elements from the returned start lo (the window
# holding every index they read, moved left where it would pass the input's end), or -1
# where they do not fit in n_w, a row has more than k taps (k > 0) or scratch is short.
# k > 0: dense rows of k taps (off: indices from lo, padding n_w with weight -0.0, +0.0
# first in a row without taps), for pixels of `channels` elements a row per element (row
# o * channels + e, indices index * channels + e, padding n_w * channels: a plan's merged
# channels-last axis); k == 0: CSR (ptr, off = index from lo times scale; channels 1). w is
# double (dbl) or float; w NULL: the offsets alone (NEAREST, k == 0: a gather's). tidx, tw:
# (o1 - o0) * row_cap taps of scratch; ptr: o1 - o0 + 1.
ctypedef int64_t (*tile_fill_fn)(const void* state, int64_t o0, int64_t o1, int64_t n_w,
                                 int64_t k, int64_t scale, int64_t channels, int dbl,
                                 int64_t* ptr,
                                 int64_t* off, void* w, int64_t* tidx,
                                 double* tw) noexcept nogil

cdef struct TileFiller:
    const void* state
    tile_fill_fn fill
    int64_t row_cap    # the most taps of any row
