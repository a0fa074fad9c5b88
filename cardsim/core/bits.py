"""Bit and memory operations the rules engines share, compiled to a few machine instructions.

``popcount(x)``: the number of set bits of an integer, as LLVM's ``ctpop`` (one ``popcnt``
instruction on x86-64 CPUs that have it; numba compiles for the host CPU). The bit-trick versions
it replaces took 8-12 instructions; a collection or hand held as a bit mask is counted on nearly
every decision of some games. The argument is taken as it is typed: a negative int32 counts its
32 bits.

``low_bit_index(x)``: the index of the lowest set bit of a non-zero integer, as LLVM's ``cttz``
(one ``tzcnt`` or ``bsf`` instruction), for the loops over the set bits of a bit set (cards, trees,
orchards, birds). The de Bruijn multiplication and table read it replaced took a multiply, a shift
and a load per bit; ``popcount((x & -x) - 1)``, three instructions and a ``popcnt``.

``copy_within(a, dst, src, n)``: ``a[dst:dst + n] = a[src:src + n]`` for two ranges of a
contiguous 1-D array that do not overlap, as one ``memcpy``. LLVM writes a copy of a constant
length as a few vector moves; the element by element loop it replaces stayed scalar (the two
ranges are in the same array: LLVM cannot tell they do not overlap), and numba's slice assignment
may allocate a temporary, which the rules engines must not. A constant length is copied in pieces
LLVM writes inline (``_INLINE_COPY_BYTES``).

``as_index(i)``: the integer ``i`` as an unsigned (uint64) index. numba indexes an array with a
signed integer through Python's negative-index wraparound (a compare and a select at every read
and write: ~100 instructions of a 4-player Piña Pirata turn); an unsigned index goes straight to
the element. For an index that cannot be negative: a field's offset in a state vector plus a
non-negative part. Only for indexing: numba types arithmetic mixing uint64 and int64 as float64.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Set bits of the integer ``x``, as an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        (value,) = args
        counted = builder.ctpop(value)
        return builder.zext(counted, ir.IntType(64)) if value.type.width < 64 else counted

    return types.int64(x), codegen


@intrinsic
def low_bit_index(typingctx, x):
    """Index of the lowest set bit of the integer ``x`` (not 0: undefined for 0), as an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        (value,) = args
        index = builder.cttz(value, ir.Constant(ir.IntType(1), 1))
        return builder.zext(index, ir.IntType(64)) if value.type.width < 64 else index

    return types.int64(x), codegen


_INLINE_COPY_BYTES = 256
"""LLVM's x86 backend writes a ``memcpy`` of a constant length inline as at most 8 moves (8 AVX
registers: 256 bytes) and calls libc's beyond that (~75 instructions for 300 bytes, where the
inline moves are ~20): ``copy_within`` of a constant length copies in pieces of this size."""


@intrinsic
def copy_within(typingctx, a, dst, src, n):
    """``a[dst:dst + n] = a[src:src + n]`` (ranges within ``a``, not overlapping; unchecked)."""
    if not (
        isinstance(a, types.Array)
        and a.ndim == 1
        and a.layout == "C"
        and all(isinstance(t, types.Integer) for t in (dst, src, n))
    ):
        return None

    def codegen(context, builder, signature, args):
        array_type, dst_type, src_type, n_type = signature.args
        array, dst_index, src_index, count = args
        dst_index = context.cast(builder, dst_index, dst_type, types.intp)
        src_index = context.cast(builder, src_index, src_type, types.intp)
        count = context.cast(builder, count, n_type, types.intp)
        data = context.make_array(array_type)(context, builder, array).data
        item = context.get_abi_sizeof(context.get_data_type(array_type.dtype))
        pieces = [(0, count)]
        if isinstance(count, ir.Constant):  # pieces of at most 256 bytes (below)
            step = max(1, _INLINE_COPY_BYTES // item)
            pieces = [
                (i, ir.Constant(count.type, min(step, count.constant - i)))
                for i in range(0, count.constant, step)
            ]
        for offset, length in pieces:
            cgutils.raw_memcpy(
                builder,
                builder.gep(data, [builder.add(dst_index, ir.Constant(dst_index.type, offset))]),
                builder.gep(data, [builder.add(src_index, ir.Constant(src_index.type, offset))]),
                length,
                item,
            )
        return context.get_dummy_value()

    return types.none(a, dst, src, n), codegen


@intrinsic
def as_index(typingctx, i):
    """``i`` as a uint64, for ``array[as_index(i)]`` (``i`` not negative; module docstring)."""
    if not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], signature.args[0], types.uint64)

    return types.uint64(i), codegen
