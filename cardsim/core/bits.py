"""Bit operations the rules engines share, compiled to single machine instructions.

``popcount(x)``: the number of set bits of an integer, as LLVM's ``ctpop`` (one ``popcnt``
instruction on x86-64 CPUs that have it; numba compiles for the host CPU). The bit-trick versions
it replaces took 8-12 instructions; a collection or hand held as a bit mask is counted on nearly
every decision of some games. The argument is taken as it is typed: a negative int32 counts its
32 bits.
"""

from llvmlite import ir
from numba import types
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
