# The one vocabulary of element types shared by every kernel.
#
# 16-bit floats get their own struct types so that a fused function can tell float16 from
# bfloat16 from uint16 (all three are 16-bit words). Python-facing functions never take typed
# buffers: they take addresses and byte strides, so any dtype (float16, bfloat16, structured
# bytes) reaches the kernels through a view the facade has already validated.

from libc.stdint cimport (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t,
                          uint64_t)


cdef struct f16_t:
    uint16_t bits

cdef struct bf16_t:
    uint16_t bits


# Element types a weighted pass reads.
ctypedef fused src_t:
    double
    float
    f16_t
    bf16_t
    int8_t
    uint8_t
    int16_t
    uint16_t


# The integer element types (the spline kernels' and the reductions' integer inputs).
ctypedef fused int_t:
    uint8_t
    int8_t
    uint16_t
    int16_t
    uint32_t
    int32_t
    uint64_t
    int64_t


# Accumulator (compute) types: float64 data computes in double, everything else in float.
ctypedef fused acc_t:
    float
    double


# Element kinds (resamplex._dtypes reads them through _exec.KINDS).
cdef enum Kind:
    K_F64 = 0
    K_F32 = 1
    K_F16 = 2
    K_BF16 = 3
    K_I8 = 4
    K_U8 = 5
    K_I16 = 6
    K_U16 = 7


# Integer rounding (resamplex._dtypes reads them through _exec.ROUNDINGS).
cdef enum Rounding:
    R_HALF_EVEN = 0
    R_HALF_AWAY = 1
    R_TOWARD_ZERO = 2
