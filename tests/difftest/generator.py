# SPDX-License-Identifier: Apache-2.0
"""Random, valid MLIR functions on tensors (and some on memrefs), from a seed.

A function is built backwards from the value it returns: `Builder.make(elem, sizes)`
asks for a tensor of that element type and those concrete sizes and picks an op that
can produce it (a matmul form, an elementwise op, a cast, a math function, a
broadcast, a reduction, a transpose, a reshape, a slice, a pad), asking in turn for its
operands, down to function arguments. Every value carries what the comparison needs:
a bound on its magnitude, a bound on the absolute error two correct implementations
may differ by, whether it is exact (integers, or floats whose every partial result is
an integer below 2^24), and whether it may hold NaN or infinities.

Ops are kept as objects so that a mismatch can be minimised by bypassing them one at a
time (see `Case.without`).
"""
import math
import random
import struct

F32, I8, I32 = "f32", "i8", "i32"
ELEM_BYTES = {F32: 4, I8: 1, I32: 4}
UNIT_ROUNDOFF = 2.0 ** -24
FLT_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
EXACT_LIMIT = 2.0 ** 24
# An ulp of a value below `bound` is at most 2u * bound (u = 2^-24).
ULP_PER_BOUND = 2 * UNIT_ROUNDOFF

# Sizes near the edges that matter: 0, 1, the inline rule's K bounds (8, 16), vector
# widths, and odd ones.
SMALL_SIZES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 8, 9, 15, 16, 16, 17]
MATMUL_SIZES = SMALL_SIZES + [31, 32, 33, 48, 64, 65]
K_SIZES = [0, 1, 2, 3, 4, 7, 8, 8, 9, 15, 16, 16, 17, 32, 33, 40]

# Math functions: the stated bound between two correct implementations, as
# (relative error in units of the last place, absolute floor as a multiple of the
# input's magnitude bound times the unit roundoff, absolute floor). The floor covers
# subnormal results; the scaled floor covers compositions that cancel (GELU for
# negative inputs). See README.md.
# The bounds are tests/math's stated ones for mips-compile's approximations plus one
# ulp for libm's own error; the floor 2^-126 covers exp's flushed subnormal results.
MATH_FUNCTIONS = {
    "exp": (3, 0.0, 2.0 ** -126),
    "log": (2, 0.0, 2.0 ** -126),
    "tanh": (6, 0.0, 2.0 ** -126),
    "erf": (7, 0.0, 2.0 ** -126),
    "rsqrt": (3, 0.0, 2.0 ** -126),
    "sigmoid": (4, 0.0, 2.0 ** -126),
    "gelu": (9, 8.0, 2.0 ** -126),
}


def mlir_type(elem, sizes, dynamic):
    dims = "".join(("?" if d else str(s)) + "x" for s, d in zip(sizes, dynamic))
    return f"tensor<{dims}{elem}>"


class Value:
    """A tensor value: its type, its concrete sizes and what the comparison knows."""

    def __init__(self, elem, sizes, dynamic=None, bound=0.0, err=0.0, exact=True, special=False):
        self.elem = elem
        self.sizes = list(sizes)
        self.dynamic = list(dynamic) if dynamic is not None else [False] * len(sizes)
        self.bound = bound  # |value| <= bound, for finite values
        self.err = err  # |ours - reference| <= err (absolute), when both are finite
        self.rel_ulps = 0  # plus this many ulps of the reference (math results)
        self.exact = exact  # no rounding anywhere: the comparison is bit for bit
        self.special = special  # may hold NaN, infinities, huge or subnormal values

    @property
    def type(self):
        return mlir_type(self.elem, self.sizes, self.dynamic)

    @property
    def count(self):
        return math.prod(self.sizes)

    def tolerance(self):
        """(absolute, ulps) for comparing this value, as a result."""
        if self.elem != F32 or self.exact:
            return 0.0, 0
        return self.err, self.rel_ulps


class Arg(Value):
    """A function argument: how its data is generated and how it is laid out in memory."""

    def __init__(self, elem, sizes, dynamic, data_kind, view, **kw):
        super().__init__(elem, sizes, dynamic, **kw)
        self.data_kind = data_kind  # exact | real | special | int
        self.view = view  # dense | offset | padded | transposed | broadcast
        self.memref = False  # a memref argument (the same view reaches the reference)
        self.output = False  # written by the function (memref cases)
        self.data = None

    @property
    def type(self):
        if not self.memref:
            return super().type
        dims = "".join(("?" if d else str(s)) + "x" for s, d in zip(self.sizes, self.dynamic))
        strides = ", ".join("?" for _ in self.sizes)
        return f"memref<{dims}{self.elem}, strided<[{strides}], offset: ?>>"


class Op:
    """One op of a generated function: its operands, its result and how it prints."""

    kind = "op"

    def __init__(self, inputs, output):
        self.inputs = inputs
        self.output = output

    def render(self, ctx):
        raise NotImplementedError


class Emitter:
    """Names values and collects the lines of one function body."""

    def __init__(self, names):
        self.names = names  # Value id -> SSA name
        self.lines = []
        self.counter = 0
        self.constants = {}

    def fresh(self, hint="v"):
        self.counter += 1
        return f"%{hint}{self.counter}"

    def name(self, value):
        return self.names[id(value)]

    def bind(self, value, ssa):
        self.names[id(value)] = ssa

    def emit(self, line):
        self.lines.append("  " + line)

    def index(self, i):
        key = ("index", i)
        if key not in self.constants:
            ssa = self.fresh("c")
            self.emit(f"{ssa} = arith.constant {i} : index")
            self.constants[key] = ssa
        return self.constants[key]

    def scalar(self, elem, literal):
        key = (elem, literal)
        if key not in self.constants:
            ssa = self.fresh("k")
            self.emit(f"{ssa} = arith.constant {literal} : {elem}")
            self.constants[key] = ssa
        return self.constants[key]

    def dim(self, value, axis):
        ssa = self.fresh("d")
        self.emit(f"{ssa} = tensor.dim {self.name(value)}, {self.index(axis)} : {value.type}")
        return ssa

    def empty(self, out, sources):
        """tensor.empty of `out`'s type; a dynamic dim's size comes from
        sources[axis] = (operand, its axis)."""
        dyn = [self.dim(*sources[a]) for a, d in enumerate(out.dynamic) if d]
        ssa = self.fresh("e")
        self.emit(f"{ssa} = tensor.empty({', '.join(dyn)}) : {out.type}")
        return ssa

    def zeros(self, out, sources):
        init = self.empty(out, sources)
        zero = self.scalar(out.elem, "0.0" if out.elem == F32 else "0")
        ssa = self.fresh("z")
        self.emit(f"{ssa} = linalg.fill ins({zero} : {out.elem}) outs({init} : {out.type}) -> {out.type}")
        return ssa


def float_literal(x):
    return "0x%08X" % struct.unpack("<I", struct.pack("<f", x))[0]


def identity_map(rank):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def generic_elementwise(ctx, out, inputs, body, sources):
    """A linalg.generic over `out`'s shape; `body(ctx_lines, args)` returns the
    yielded SSA name, given block arguments named %a0, %a1, ... and %o."""
    rank = len(out.sizes)
    init = ctx.empty(out, sources)
    maps = ", ".join([identity_map(rank)] * (len(inputs) + 1))
    iters = ", ".join(['"parallel"'] * rank)
    ins = ", ".join(ctx.name(v) for v in inputs)
    in_types = ", ".join(v.type for v in inputs)
    ssa = ctx.fresh("g")
    ctx.emit(f"{ssa} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} "
             f"ins({ins} : {in_types}) outs({init} : {out.type}) {{")
    args = ", ".join(f"%a{i}: {v.elem}" for i, v in enumerate(inputs))
    ctx.lines.append(f"  ^bb0({args}{', ' if inputs else ''}%o: {out.elem}):")
    lines = []
    result = body(lines, [f"%a{i}" for i in range(len(inputs))])
    for line in lines:
        ctx.lines.append("    " + line)
    ctx.lines.append(f"    linalg.yield {result} : {out.elem}")
    ctx.emit(f"}} -> {out.type}")
    return ssa


# ---------------------------------------------------------------------------------
# Ops


class CastToType(Op):
    """tensor.cast between static and dynamic dims (same sizes)."""

    kind = "cast-shape"

    def render(self, ctx):
        ssa = ctx.fresh("t")
        (x,) = self.inputs
        ctx.emit(f"{ssa} = tensor.cast {ctx.name(x)} : {x.type} to {self.output.type}")
        return ssa


class Elementwise(Op):
    kind = "elementwise"

    def __init__(self, inputs, output, fn):
        super().__init__(inputs, output)
        self.fn = fn

    def render(self, ctx):
        a, b = self.inputs
        out = self.output
        if self.fn in ("add", "mul", "max") and all(v.type == out.type for v in self.inputs) and out.elem == F32:
            # The named ops, as models write them.
            named = {"add": "linalg.add", "mul": "linalg.mul", "max": "linalg.max"}[self.fn]
            init = ctx.empty(out, [(a, i) for i in range(len(out.sizes))])
            ssa = ctx.fresh("w")
            ctx.emit(f"{ssa} = {named} ins({ctx.name(a)}, {ctx.name(b)} : {a.type}, {b.type}) "
                     f"outs({init} : {out.type}) -> {out.type}")
            return ssa

        def body(lines, args):
            x, y = args
            f = out.elem == F32
            op = {
                "add": "arith.addf" if f else "arith.addi",
                "sub": "arith.subf" if f else "arith.subi",
                "mul": "arith.mulf" if f else "arith.muli",
                "max": "arith.maximumf" if f else "arith.maxsi",
                "min": "arith.minimumf" if f else "arith.minsi",
            }.get(self.fn)
            if op is not None:
                lines.append(f"%r = {op} {x}, {y} : {out.elem}")
                return "%r"
            assert self.fn == "select"  # x > y ? x : y * 0.5-ish
            cmp = f"arith.cmpf ogt, {x}, {y}" if f else f"arith.cmpi sgt, {x}, {y}"
            lines.append(f"%p = {cmp} : {out.elem}")
            lines.append(f"%r = arith.select %p, {y}, {x} : {out.elem}")
            return "%r"

        return generic_elementwise(ctx, out, self.inputs, body, [(a, i) for i in range(len(out.sizes))])


class Convert(Op):
    """Element type casts: sitofp, fptosi, extsi, trunci."""

    kind = "convert"

    def render(self, ctx):
        (x,) = self.inputs
        out = self.output

        def body(lines, args):
            (a,) = args
            s, d = x.elem, out.elem
            if s in (I8, I32) and d == F32:
                lines.append(f"%r = arith.sitofp {a} : {s} to f32")
            elif s == F32:
                lines.append(f"%r = arith.fptosi {a} : f32 to {d}")
            elif s == I8:
                lines.append(f"%r = arith.extsi {a} : i8 to i32")
            else:
                lines.append(f"%r = arith.trunci {a} : i32 to i8")
            return "%r"

        return generic_elementwise(ctx, out, [x], body, [(x, i) for i in range(len(out.sizes))])


class MathFn(Op):
    kind = "math"

    def __init__(self, inputs, output, fn, form=0):
        super().__init__(inputs, output)
        self.fn = fn
        self.form = form  # GELU: which of the ways models write it

    def render(self, ctx):
        (x,) = self.inputs
        out = self.output

        def body(lines, args):
            (a,) = args
            fn = self.fn
            if fn in ("exp", "log", "tanh", "erf", "rsqrt"):
                lines.append(f"%r = math.{fn} {a} : f32")
            elif fn == "sigmoid":
                lines.append("%one = arith.constant 1.0 : f32")
                lines.append(f"%n = arith.negf {a} : f32")
                lines.append("%e = math.exp %n : f32")
                lines.append("%d = arith.addf %one, %e : f32")
                lines.append("%r = arith.divf %one, %d : f32")
            else:  # gelu: 0.5 * x * (1 + erf(x / sqrt(2))), nested three ways
                lines.append("%half = arith.constant 0.5 : f32")
                lines.append("%one = arith.constant 1.0 : f32")
                if self.form == 1:
                    lines.append("%s = arith.constant 1.41421354 : f32")
                    lines.append(f"%xs = arith.divf {a}, %s : f32")
                else:
                    lines.append("%s = arith.constant 0.707106769 : f32")
                    lines.append(f"%xs = arith.mulf {a}, %s : f32")
                lines.append("%e = math.erf %xs : f32")
                if self.form == 0:
                    lines.append("%p = arith.addf %one, %e : f32")
                    lines.append(f"%h = arith.mulf {a}, %half : f32")
                    lines.append("%r = arith.mulf %h, %p : f32")
                else:
                    lines.append("%p = arith.addf %e, %one : f32")
                    lines.append(f"%m = arith.mulf {a}, %p : f32")
                    lines.append("%r = arith.mulf %half, %m : f32" if self.form == 1
                                 else "%r = arith.mulf %m, %half : f32")
            return "%r"

        return generic_elementwise(ctx, out, [x], body, [(x, i) for i in range(len(out.sizes))])


class Broadcast(Op):
    """linalg.broadcast of a lower-rank operand along `dims`."""

    kind = "broadcast"

    def __init__(self, inputs, output, dims, sources):
        super().__init__(inputs, output)
        self.dims = dims
        self.sources = sources  # per output axis: (value, axis)

    def render(self, ctx):
        (x,) = self.inputs
        init = ctx.empty(self.output, self.sources)
        ssa = ctx.fresh("b")
        ctx.emit(f"{ssa} = linalg.broadcast ins({ctx.name(x)} : {x.type}) outs({init} : {self.output.type}) "
                 f"dimensions = [{', '.join(map(str, self.dims))}]")
        return ssa


class Reduce(Op):
    kind = "reduce"

    def __init__(self, inputs, output, axis, fn):
        super().__init__(inputs, output)
        self.axis = axis
        self.fn = fn

    def render(self, ctx):
        (x,) = self.inputs
        out = self.output
        sources = [(x, a) for a in range(len(x.sizes)) if a != self.axis]
        f = out.elem == F32
        if self.fn == "sum":
            init = ctx.zeros(out, sources)
            op = "arith.addf" if f else "arith.addi"
        else:
            init_empty = ctx.empty(out, sources)
            lowest = ctx.scalar(out.elem, "0xFF800000" if f else str(-(2 ** 31)))
            init = ctx.fresh("z")
            ctx.emit(f"{init} = linalg.fill ins({lowest} : {out.elem}) outs({init_empty} : {out.type}) -> {out.type}")
            op = "arith.maximumf" if f else "arith.maxsi"
        ssa = ctx.fresh("r")
        ctx.emit(f"{ssa} = linalg.reduce ins({ctx.name(x)} : {x.type}) outs({init} : {out.type}) "
                 f"dimensions = [{self.axis}]")
        ctx.lines.append(f"    (%x: {out.elem}, %acc: {out.elem}) {{")
        ctx.lines.append(f"      %y = {op} %x, %acc : {out.elem}")
        ctx.lines.append(f"      linalg.yield %y : {out.elem}")
        ctx.lines.append("    }")
        return ssa


class Constant(Op):
    """A dense constant of the module (a model's weights): small exact values."""

    kind = "constant"

    def __init__(self, output, values):
        super().__init__([], output)
        self.values = values  # flat, row-major

    def render(self, ctx):
        def nested(flat, sizes):
            if not sizes:
                return str(flat[0])
            step = len(flat) // sizes[0] if sizes[0] else 0
            return "[" + ", ".join(nested(flat[i * step:(i + 1) * step], sizes[1:])
                                   for i in range(sizes[0])) + "]"
        literal = nested(self.values, self.output.sizes)
        ssa = ctx.fresh("w")
        ctx.emit(f"{ssa} = arith.constant dense<{literal}> : {self.output.type}")
        return ssa


class Transpose(Op):
    kind = "transpose"

    def __init__(self, inputs, output, perm):
        super().__init__(inputs, output)
        self.perm = perm

    def render(self, ctx):
        (x,) = self.inputs
        init = ctx.empty(self.output, [(x, p) for p in self.perm])
        ssa = ctx.fresh("t")
        ctx.emit(f"{ssa} = linalg.transpose ins({ctx.name(x)} : {x.type}) outs({init} : {self.output.type}) "
                 f"permutation = [{', '.join(map(str, self.perm))}]")
        return ssa


def pair_groups(rank, axis):
    """The reassociation of a reshape that merges axes (axis, axis + 1) of `rank`."""
    groups, a = [], 0
    while a < rank:
        groups.append([a, a + 1] if a == axis else [a])
        a += 2 if a == axis else 1
    return groups


class Collapse(Op):
    """Merges axes (axis, axis + 1) of a static operand."""

    kind = "reshape"

    def __init__(self, inputs, output, axis):
        super().__init__(inputs, output)
        self.axis = axis

    def render(self, ctx):
        (x,) = self.inputs
        groups = pair_groups(len(x.sizes), self.axis)
        ssa = ctx.fresh("s")
        ctx.emit(f"{ssa} = tensor.collapse_shape {ctx.name(x)} {groups} : {x.type} into {self.output.type}")
        return ssa


class Expand(Op):
    """Splits output axes (axis, axis + 1) from one axis of a static operand."""

    kind = "reshape"

    def __init__(self, inputs, output, axis):
        super().__init__(inputs, output)
        self.axis = axis

    def render(self, ctx):
        (x,) = self.inputs
        out = self.output
        groups = pair_groups(len(out.sizes), self.axis)
        ssa = ctx.fresh("s")
        shape = ", ".join(map(str, out.sizes))
        ctx.emit(f"{ssa} = tensor.expand_shape {ctx.name(x)} {groups} output_shape [{shape}] : "
                 f"{x.type} into {out.type}")
        return ssa


class Slice(Op):
    kind = "slice"

    def __init__(self, inputs, output, offsets, steps):
        super().__init__(inputs, output)
        self.offsets = offsets
        self.steps = steps

    def render(self, ctx):
        (x,) = self.inputs
        out = self.output
        ssa = ctx.fresh("s")
        ctx.emit(f"{ssa} = tensor.extract_slice {ctx.name(x)}[{', '.join(map(str, self.offsets))}] "
                 f"[{', '.join(map(str, out.sizes))}] [{', '.join(map(str, self.steps))}] : {x.type} to {out.type}")
        return ssa


class Pad(Op):
    kind = "pad"

    def __init__(self, inputs, output, low, high, value):
        super().__init__(inputs, output)
        self.low, self.high, self.value = low, high, value

    def render(self, ctx):
        (x,) = self.inputs
        out = self.output
        lit = float_literal(self.value) if out.elem == F32 else str(int(self.value))
        pad = ctx.scalar(out.elem, lit)
        ssa = ctx.fresh("p")
        ctx.emit(f"{ssa} = tensor.pad {ctx.name(x)} low[{', '.join(map(str, self.low))}] "
                 f"high[{', '.join(map(str, self.high))}] {{")
        idx = ", ".join(f"%i{i}: index" for i in range(len(out.sizes)))
        ctx.lines.append(f"  ^bb0({idx}):")
        ctx.lines.append(f"    tensor.yield {pad} : {out.elem}")
        ctx.emit(f"}} : {x.type} to {out.type}")
        return ssa


MAP_A = {"n": "(m, k)", "t": "(k, m)"}
MAP_B = {"n": "(k, n)", "t": "(n, k)"}
BATCH_MAP_A = {"n": "(b, m, k)", "t": "(b, k, m)"}
BATCH_MAP_B = {"n": "(b, k, n)", "t": "(b, n, k)"}


class Matmul(Op):
    """Every matmul form mips-compile sends to libmips. inputs = [a, b] or [a, b, c]
    (c: the accumulator, else zeros); the layouts say which operands are stored
    transposed."""

    kind = "matmul"

    def __init__(self, inputs, output, form, ta, tb, zero_points=(0, 0)):
        super().__init__(inputs, output)
        self.form, self.ta, self.tb = form, ta, tb
        self.zero_points = zero_points

    @staticmethod
    def _body(ctx, a, b, out):
        ctx.lines.append(f"  ^bb0(%x: {a.elem}, %y: {b.elem}, %acc: {out.elem}):")
        if out.elem == F32:
            ctx.lines.append("    %p = arith.mulf %x, %y : f32")
            ctx.lines.append("    %s = arith.addf %acc, %p : f32")
        else:
            ctx.lines.append("    %xe = arith.extsi %x : i8 to i32")
            ctx.lines.append("    %ye = arith.extsi %y : i8 to i32")
            ctx.lines.append("    %p = arith.muli %xe, %ye : i32")
            ctx.lines.append("    %s = arith.addi %acc, %p : i32")
        ctx.lines.append(f"    linalg.yield %s : {out.elem}")

    def init(self, ctx, sources):
        if len(self.inputs) == 3:
            return ctx.name(self.inputs[2])
        return ctx.zeros(self.output, sources)

    def render(self, ctx):
        a, b = self.inputs[:2]
        out = self.output
        form = self.form
        ssa = ctx.fresh("m")
        ins = f"ins({ctx.name(a)}, {ctx.name(b)} : {a.type}, {b.type})"
        if form in ("matmul", "quantized"):
            m_src = (a, 1 if self.ta == "t" else 0)
            n_src = (b, 0 if self.tb == "t" else 1)
            init = self.init(ctx, [m_src, n_src])
            maps = ""
            if self.ta == "t" or self.tb == "t":
                maps = (f"indexing_maps = [affine_map<(m, n, k) -> {MAP_A[self.ta]}>, "
                        f"affine_map<(m, n, k) -> {MAP_B[self.tb]}>, affine_map<(m, n, k) -> (m, n)>] ")
            if form == "matmul":
                ctx.emit(f"{ssa} = linalg.matmul {maps}{ins} outs({init} : {out.type}) -> {out.type}")
            else:
                za = ctx.scalar(I32, str(self.zero_points[0]))
                zb = ctx.scalar(I32, str(self.zero_points[1]))
                ctx.emit(f"{ssa} = linalg.quantized_matmul ins({ctx.name(a)}, {ctx.name(b)}, {za}, {zb} : "
                         f"{a.type}, {b.type}, i32, i32) outs({init} : {out.type}) -> {out.type}")
        elif form in ("batch", "quantized_batch"):
            sources = [(a, 0), (a, 2 if self.ta == "t" else 1), (b, 1 if self.tb == "t" else 2)]
            init = self.init(ctx, sources)
            if form == "batch":
                maps = ""
                if self.ta == "t" or self.tb == "t":
                    maps = (f"indexing_maps = [affine_map<(b, m, n, k) -> {BATCH_MAP_A[self.ta]}>, "
                            f"affine_map<(b, m, n, k) -> {BATCH_MAP_B[self.tb]}>, "
                            f"affine_map<(b, m, n, k) -> (b, m, n)>] ")
                ctx.emit(f"{ssa} = linalg.batch_matmul {maps}{ins} outs({init} : {out.type}) -> {out.type}")
            else:
                za = ctx.scalar(I32, str(self.zero_points[0]))
                zb = ctx.scalar(I32, str(self.zero_points[1]))
                ctx.emit(f"{ssa} = linalg.quantized_batch_matmul ins({ctx.name(a)}, {ctx.name(b)}, {za}, {zb} : "
                         f"{a.type}, {b.type}, i32, i32) outs({init} : {out.type}) -> {out.type}")
        elif form == "matvec":
            init = self.init(ctx, [(a, 0)])
            ctx.emit(f"{ssa} = linalg.matvec {ins} outs({init} : {out.type}) -> {out.type}")
        elif form == "vecmat":
            init = self.init(ctx, [(b, 1)])
            ctx.emit(f"{ssa} = linalg.vecmat {ins} outs({init} : {out.type}) -> {out.type}")
        elif form == "generic":
            m_src = (a, 1 if self.ta == "t" else 0)
            n_src = (b, 0 if self.tb == "t" else 1)
            init = self.init(ctx, [m_src, n_src])
            ctx.emit(f"{ssa} = linalg.generic {{indexing_maps = [affine_map<(m, n, k) -> {MAP_A[self.ta]}>, "
                     f"affine_map<(m, n, k) -> {MAP_B[self.tb]}>, affine_map<(m, n, k) -> (m, n)>], "
                     f'iterator_types = ["parallel", "parallel", "reduction"]}} {ins} outs({init} : {out.type}) {{')
            self._body(ctx, a, b, out)
            ctx.emit(f"}} -> {out.type}")
        elif form in ("contract", "generic_matvec", "generic_vecmat", "generic_batch_shared"):
            if form == "contract":
                dims, maps = "(m, n, k)", [MAP_A[self.ta], MAP_B[self.tb], "(m, n)"]
                sources = [(a, 1 if self.ta == "t" else 0), (b, 0 if self.tb == "t" else 1)]
                iters = ["parallel", "parallel", "reduction"]
            elif form == "generic_matvec":
                dims, maps, sources = "(m, k)", ["(m, k)", "(k)", "(m)"], [(a, 0)]
                iters = ["parallel", "reduction"]
            elif form == "generic_vecmat":
                dims, maps, sources = "(n, k)", ["(k)", "(k, n)", "(n)"], [(b, 1)]
                iters = ["parallel", "reduction"]
            elif self.shared == "b":
                dims, maps = "(b, m, n, k)", ["(b, m, k)", "(k, n)", "(b, m, n)"]
                sources = [(a, 0), (a, 1), (b, 1)]
                iters = ["parallel", "parallel", "parallel", "reduction"]
            else:
                dims, maps = "(b, m, n, k)", ["(m, k)", "(b, k, n)", "(b, m, n)"]
                sources = [(b, 0), (a, 0), (b, 2)]
                iters = ["parallel", "parallel", "parallel", "reduction"]
            init = self.init(ctx, sources)
            amaps = ", ".join(f"affine_map<{dims} -> {m}>" for m in maps)
            if form == "contract":
                ctx.emit(f"{ssa} = linalg.contract indexing_maps = [{amaps}] {ins} outs({init} : {out.type}) -> {out.type}")
                return ssa
            its = ", ".join(f'"{i}"' for i in iters)
            ctx.emit(f"{ssa} = linalg.generic {{indexing_maps = [{amaps}], iterator_types = [{its}]}} "
                     f"{ins} outs({init} : {out.type}) {{")
            self._body(ctx, a, b, out)
            ctx.emit(f"}} -> {out.type}")
        elif form == "tosa":
            # tosa.matmul: 3-D, static here; zero points as tensor<1xT> constants.
            za, zb = self.zero_points
            e = a.elem
            lit = (lambda z: f"{float(z)}") if e == F32 else (lambda z: str(z))
            zat, zbt = ctx.fresh("za"), ctx.fresh("zb")
            ctx.emit(f'{zat} = "tosa.const"() <{{values = dense<{lit(za)}> : tensor<1x{e}>}}> : () -> tensor<1x{e}>')
            ctx.emit(f'{zbt} = "tosa.const"() <{{values = dense<{lit(zb)}> : tensor<1x{e}>}}> : () -> tensor<1x{e}>')
            ctx.emit(f"{ssa} = tosa.matmul {ctx.name(a)}, {ctx.name(b)}, {zat}, {zbt} : "
                     f"({a.type}, {b.type}, tensor<1x{e}>, tensor<1x{e}>) -> {out.type}")
        else:
            raise AssertionError(form)
        return ssa


class Conv(Op):
    """A 2-D convolution: linalg.conv_2d_nhwc_hwcf, _nhwc_fhwc or _nchw_fchw; inputs =
    [input, filter] or [input, filter, init]."""

    kind = "conv"

    def __init__(self, inputs, output, form, strides, dilations, zero_points=None):
        super().__init__(inputs, output)
        self.form, self.strides, self.dilations = form, strides, dilations
        self.zero_points = zero_points  # (input, filter): the int8 _q form

    def render(self, ctx):
        x, w = self.inputs[:2]
        out = self.output
        if len(self.inputs) == 3:
            init = ctx.name(self.inputs[2])
        elif self.form == "depthwise_nhwc_hwc":
            init = ctx.zeros(out, [(x, 0), None, None, (w, 2)])
        elif self.form == "depthwise_nchw_chw":
            init = ctx.zeros(out, [(x, 0), (w, 0), None, None])
        else:
            axes = [(x, 0), (w, 3 if self.form == "nhwc_hwcf" else 0), None, None]
            if self.form == "nchw_fchw":
                axes = [(x, 0), (w, 0), None, None]
            sources = axes if self.form == "nchw_fchw" else [(x, 0), None, None, (w, 3 if self.form == "nhwc_hwcf" else 0)]
            init = ctx.zeros(out, sources)
        ssa = ctx.fresh("conv")
        attrs = (f"{{dilations = dense<[{self.dilations[0]}, {self.dilations[1]}]> : tensor<2xi64>, "
                 f"strides = dense<[{self.strides[0]}, {self.strides[1]}]> : tensor<2xi64>}}")
        if self.zero_points is not None:
            zx = ctx.scalar(I32, str(self.zero_points[0]))
            zw = ctx.scalar(I32, str(self.zero_points[1]))
            ctx.emit(f"{ssa} = linalg.conv_2d_{self.form}_q {attrs} ins({ctx.name(x)}, {ctx.name(w)}, {zx}, {zw} : "
                     f"{x.type}, {w.type}, i32, i32) outs({init} : {out.type}) -> {out.type}")
            return ssa
        name = self.form.replace("depthwise_", "depthwise_conv_2d_") if self.form.startswith("depthwise") \
            else f"conv_2d_{self.form}"
        ctx.emit(f"{ssa} = linalg.{name} {attrs} ins({ctx.name(x)}, {ctx.name(w)} : {x.type}, {w.type}) "
                 f"outs({init} : {out.type}) -> {out.type}")
        return ssa


# ---------------------------------------------------------------------------------
# Cases


class Case:
    """One generated function: arguments, ops in definition order, one result."""

    def __init__(self, name, args, ops, result, on_memrefs=False):
        self.name = name
        self.args = args
        self.ops = ops
        self.result = result
        self.on_memrefs = on_memrefs

    def render(self, reference=False):
        names = {id(a): f"%arg{i}" for i, a in enumerate(self.args)}
        ctx = Emitter(names)
        for op in self.ops:
            ctx.bind(op.output, op.render(ctx))
        # The reference may not write its tensor arguments either, so an argument
        # written by mips-compile's code shows as a difference.
        params = ", ".join(f"%arg{i}: {a.type}" + (" {bufferization.writable = false}"
                                                   if reference and not a.memref else "")
                           for i, a in enumerate(self.args))
        attrs = " attributes {llvm.emit_c_interface}" if reference else ""
        if self.on_memrefs:
            head = f"func.func @{self.name}({params}){attrs} {{"
            tail = "  return"
        else:
            head = f"func.func @{self.name}({params}) -> {self.result.type}{attrs} {{"
            tail = f"  return {ctx.name(self.result)} : {self.result.type}"
        return "\n".join([head] + ctx.lines + [tail, "}"])

    def op_mix(self):
        kinds = [op.kind if op.kind != "matmul" else f"matmul.{op.form}" for op in self.ops]
        if self.on_memrefs:
            kinds.append("memref")
        return kinds

    def without(self, index):
        """This case with op `index` bypassed (its result replaced by an operand of
        the same type), and ops left unused dropped; None if no operand fits."""
        op = self.ops[index]
        if self.on_memrefs:
            return None
        same = [v for v in op.inputs if v.type == op.output.type]
        if not same:
            return None
        replacement = same[0]

        def swap(v):
            return replacement if v is op.output else v

        ops = []
        for other in self.ops:
            if other is op:
                continue
            clone = _shallow_copy(other)
            clone.inputs = [swap(v) for v in other.inputs]
            ops.append(clone)
        result = swap(self.result)
        # Drop ops whose results are no longer used.
        live = {id(result)}
        kept = []
        for o in reversed(ops):
            if id(o.output) in live:
                kept.append(o)
                live.update(id(v) for v in o.inputs)
        kept.reverse()
        args = [a for a in self.args if id(a) in live or a.output]
        if not args:
            return None
        return Case(self.name, args, kept, result, self.on_memrefs)


SPEC_PREFIX = "// difftest-case: "


def case_spec(case):
    """One comment line that lets `ReplayCase` rebuild what the harness needs."""
    import json
    spec = {"memrefs": case.on_memrefs,
            "args": [{"elem": a.elem, "sizes": a.sizes, "view": a.view, "data": a.data_kind,
                      "memref": a.memref, "output": a.output} for a in case.args],
            "result": {"elem": case.result.elem, "sizes": case.result.sizes,
                       "tolerance": list(case.result.tolerance())}}
    return SPEC_PREFIX + json.dumps(spec, separators=(",", ":"))


class ReplayCase:
    """A case read back from a reproducer or a regression file: its function text as
    written, its arguments' layouts and data kinds, its result's tolerance."""

    def __init__(self, text, name, data_seed):
        import json
        import re
        spec_lines = [l for l in text.splitlines() if l.startswith(SPEC_PREFIX)]
        if not spec_lines:
            raise ValueError(f"no '{SPEC_PREFIX.strip()}' line")
        spec = json.loads(spec_lines[0][len(SPEC_PREFIX):])
        body = "\n".join(l for l in text.splitlines() if not l.startswith("//")).strip()
        self.text = re.sub(r"func\.func @[A-Za-z0-9_$.]+\(", f"func.func @{name}(", body, count=1)
        self.name = name
        self.on_memrefs = spec["memrefs"]
        self.ops = []
        self.args = []
        for a in spec["args"]:
            arg = Arg(a["elem"], a["sizes"], None, a["data"], a["view"])
            arg.memref, arg.output = a["memref"], a["output"]
            self.args.append(arg)
        r = spec["result"]
        self.result = Value(r["elem"], r["sizes"])
        tolerance = tuple(r["tolerance"])
        self.result.tolerance = lambda: tolerance
        fill_data(self, random.Random(data_seed))

    def load_inputs(self, path):
        """The argument data of a reproducer's inputs.bin (one case)."""
        with open(path, "rb") as f:
            blob = f.read()
        count, = struct.unpack_from("<q", blob, 0)
        if count != 1:
            raise ValueError(f"{path} holds {count} cases, not one")
        at, = struct.unpack_from("<q", blob, 8)
        for a in self.args:
            fmt = {F32: "f", I8: "b", I32: "i"}[a.elem]
            n = a.count
            a.data = list(struct.unpack_from(f"<{n}{fmt}", blob, at))
            at += n * ELEM_BYTES[a.elem]

    def render(self, reference=False):
        if not reference:
            return self.text
        head, _, rest = self.text.partition("\n")
        assert head.endswith("{"), head
        return head[:-1].rstrip() + " attributes {llvm.emit_c_interface} {\n" + rest

    def op_mix(self):
        return ["replayed"]

    def without(self, index):
        return None


def _shallow_copy(op):
    clone = object.__new__(type(op))
    clone.__dict__.update(op.__dict__)
    return clone


class Builder:
    """Builds one case from a random.Random."""

    def __init__(self, rng, name, depth=3, forms=None):
        self.rng = rng
        self.name = name
        self.depth = depth
        self.args = []
        self.ops = []
        self.forms = forms

    # -- leaves

    def arg(self, elem, sizes, dynamic=None, data_kind=None, allow_broadcast=True):
        rng = self.rng
        if dynamic is None:
            dynamic = [rng.random() < 0.3 for _ in sizes]
        if data_kind is None:
            data_kind = "int" if elem != F32 else rng.choice(["exact", "exact", "real"])
        views = ["dense", "dense", "offset", "padded", "transposed"]
        if allow_broadcast and len(sizes) >= 2:
            views.append("broadcast")
        view = rng.choice(views) if sizes else "dense"
        a = Arg(elem, sizes, dynamic, data_kind, view)
        if elem == I8:
            a.bound = 128
        elif elem == I32:
            a.bound = 2 ** 20
        elif data_kind == "exact":
            a.bound = 4.0
        elif data_kind == "real":
            a.bound = 1.0
            a.exact = False
        else:
            a.bound = FLT_MAX
            a.exact = False
            a.special = True
        self.args.append(a)
        return a

    def add(self, op):
        self.ops.append(op)
        return op.output

    def fit(self, value, dynamic):
        """`value` with exactly these dynamic flags (a tensor.cast if needed)."""
        if dynamic is None or value.dynamic == list(dynamic):
            return value
        out = derived(value, value.elem, value.sizes, dynamic)
        return self.add(CastToType([value], out))

    # -- producers

    def make(self, elem, sizes, depth, dynamic=None, finite=True, bound_limit=None):
        """A value of this element type and these sizes. finite: no NaN/Inf/huge
        values (it feeds a sum). bound_limit: its magnitude bound must stay below."""
        rng = self.rng
        rank = len(sizes)
        choices = [("arg", 3)]
        if depth > 0:
            choices += [("elementwise", 3), ("convert", 1.5), ("transpose", 1), ("slice", 1),
                        ("pad", 1), ("broadcast", 1), ("reduce", 1), ("reshape", 1)]
            if elem == F32:
                choices.append(("math", 2))
            if rank in (1, 2, 3) and elem in (F32, I32):
                choices.append(("matmul", 4))
            if rank == 4 and elem in (F32, I32):
                choices.append(("conv", 4))
        kinds, weights = zip(*choices)
        for _ in range(8):
            kind = rng.choices(kinds, weights)[0]
            value = getattr(self, "make_" + kind)(elem, sizes, depth - 1, finite)
            if value is None:
                continue
            if bound_limit is not None and value.elem == F32 and value.bound > bound_limit:
                continue
            return self.fit(value, dynamic)
        data_kind = None
        if elem == F32 and bound_limit is not None and bound_limit < 4.0:
            data_kind = "real"
        return self.fit(self.arg(elem, sizes, data_kind=data_kind), dynamic)

    def make_arg(self, elem, sizes, depth, finite):
        data_kind = None
        if elem == F32 and not finite:
            data_kind = "special" if self.rng.random() < 0.3 else None
        return self.arg(elem, sizes, data_kind=data_kind)

    def make_elementwise(self, elem, sizes, depth, finite):
        rng = self.rng
        fn = rng.choice(["add", "sub", "mul", "max", "min", "select"])
        if elem == I8:
            return None  # i8 arithmetic wraps at 8 bits: fine, but models do it in i32
        a = self.make(elem, sizes, depth, finite=finite)
        b = self.make(elem, sizes, depth, dynamic=a.dynamic, finite=finite)
        if (a.special or b.special) and (a.err or b.err or a.rel_ulps or b.rel_ulps):
            # An absolute bound scaled by FLT_MAX would let anything through.
            return None
        out = derived(a, elem, sizes, a.dynamic)
        combine_bounds(out, fn, a, b)
        if elem == F32 and out.bound > FLT_MAX / 4 and finite:
            return None
        return self.add(Elementwise([a, b], out, fn))

    def make_convert(self, elem, sizes, depth, finite):
        rng = self.rng
        sources = {F32: [I8, I32], I32: [I8, F32], I8: [I32]}[elem]
        src = rng.choice(sources)
        if src == F32:
            # fptosi is poison out of range and rounding-sensitive: only from exact values.
            x = self.make(F32, sizes, depth, finite=True, bound_limit=2.0 ** 20)
            if not x.exact:
                return None
        else:
            x = self.make(src, sizes, depth, finite=True)
        out = derived(x, elem, sizes, x.dynamic)
        if elem == F32:
            # sitofp of identical integers rounds identically on both sides (err 0);
            # beyond 2^24 the values are no longer integers exact under arithmetic.
            out.bound = float(x.bound)
            out.exact = x.bound < EXACT_LIMIT
            out.err = 0.0
        elif elem == I32:
            out.bound = min(x.bound, 2 ** 31)
        else:
            out.bound = 128
        return self.add(Convert([x], out))

    def make_math(self, elem, sizes, depth, finite):
        rng = self.rng
        fn = rng.choice(list(MATH_FUNCTIONS))
        if finite:
            # Inputs that keep the result finite and bounded.
            limit = {"exp": 8.0, "log": None, "tanh": None, "erf": None, "rsqrt": None,
                     "sigmoid": None, "gelu": None}[fn]
            if fn in ("log", "rsqrt"):
                return None  # negative or zero inputs give NaN/Inf
            x = self.make(F32, sizes, depth, finite=True, bound_limit=limit or 1e6)
        else:
            # Math on raw inputs over every range, specials included (GELU's allowance
            # scales with |x|, so it gets bounded inputs).
            kinds = ["real"] if fn == "gelu" else ["special", "special", "real"]
            x = self.arg(F32, sizes, data_kind=rng.choice(kinds))
        out = derived(x, F32, sizes, x.dynamic)
        rel, scaled, floor = MATH_FUNCTIONS[fn]
        bound = {"exp": math.exp(min(x.bound, 88.0)) if x.bound < 88 else FLT_MAX,
                 "log": FLT_MAX, "tanh": 1.0, "erf": 1.0, "rsqrt": FLT_MAX, "sigmoid": 1.0,
                 "gelu": x.bound}[fn]
        out.bound = bound
        out.special = x.special or fn in ("log", "rsqrt")
        out.exact = False
        # Propagated input error (derivative bounds), then the function's own.
        slope = {"exp": bound, "log": FLT_MAX, "tanh": 1.0, "erf": 1.13, "rsqrt": FLT_MAX,
                 "sigmoid": 0.25, "gelu": 1.13}[fn]
        propagated = 0.0 if x.err == 0 else slope * x.err
        out.err = propagated + scaled * UNIT_ROUNDOFF * x.bound + floor
        out.rel_ulps = rel
        if x.rel_ulps:
            out.err += slope * x.rel_ulps * ULP_PER_BOUND * x.bound
        form = rng.randrange(3) if fn == "gelu" else 0
        return self.add(MathFn([x], out, fn, form))

    def make_transpose(self, elem, sizes, depth, finite):
        rank = len(sizes)
        if rank < 2:
            return None
        perm = list(range(rank))
        self.rng.shuffle(perm)
        if perm == sorted(perm):
            perm = perm[::-1]
        # out[i...] = in[...]: out axis i is input axis perm[i].
        in_sizes = [0] * rank
        for i, p in enumerate(perm):
            in_sizes[p] = sizes[i]
        x = self.make(elem, in_sizes, depth, finite=finite)
        out = derived(x, elem, sizes, [x.dynamic[p] for p in perm])
        return self.add(Transpose([x], out, perm))

    def make_slice(self, elem, sizes, depth, finite):
        rng = self.rng
        if 0 in sizes:
            return None  # upstream calls any offset into a zero-size slice out of bounds
        offsets, steps, in_sizes = [], [], []
        for s in sizes:
            step = rng.choice([1, 1, 1, 2])
            off = rng.choice([0, 0, 1, 3])
            extra = rng.choice([0, 1, 2])
            offsets.append(off)
            steps.append(step)
            in_sizes.append(off + (s - 1) * step + 1 + extra if s > 0 else off + extra)
        if math.prod(in_sizes) > 8192:
            return None
        x = self.make(elem, in_sizes, depth, dynamic=[False] * len(sizes), finite=finite)
        out = derived(x, elem, sizes, [False] * len(sizes))
        return self.add(Slice([x], out, offsets, steps))

    def make_pad(self, elem, sizes, depth, finite):
        rng = self.rng
        low = [rng.choice([0, 0, 1, 2]) if s >= 2 else 0 for s in sizes]
        high = [rng.choice([0, 1]) if s - lo >= 1 else 0 for s, lo in zip(sizes, low)]
        in_sizes = [s - lo - hi for s, lo, hi in zip(sizes, low, high)]
        # Upstream bufferizes a pad of an empty source into an out-of-bounds subview.
        if any(s <= 0 for s in in_sizes) or (sum(low) + sum(high) == 0):
            return None
        x = self.make(elem, in_sizes, depth, dynamic=[False] * len(sizes), finite=finite)
        value = rng.choice([0.0, 1.0, -2.0]) if elem == F32 else rng.choice([0, 1, -3])
        out = derived(x, elem, sizes, [False] * len(sizes))
        out.bound = max(x.bound, abs(value))
        return self.add(Pad([x], out, low, high, value))

    def make_broadcast(self, elem, sizes, depth, finite):
        rank = len(sizes)
        if rank < 1:
            return None
        axis = self.rng.randrange(rank)
        in_sizes = sizes[:axis] + sizes[axis + 1:]
        x = self.make(elem, in_sizes, depth, finite=finite)
        dynamic = x.dynamic[:axis] + [False] + x.dynamic[axis:]
        out = derived(x, elem, sizes, dynamic)
        sources = []
        j = 0
        for i in range(rank):
            if i == axis:
                sources.append(None)
            else:
                sources.append((x, j))
                j += 1
        return self.add(Broadcast([x], out, [axis], sources))

    def make_reduce(self, elem, sizes, depth, finite):
        rng = self.rng
        if len(sizes) >= 3 or elem == I8:
            return None
        axis = rng.randrange(len(sizes) + 1)
        n = rng.choice([0, 1, 2, 5, 8, 16, 33])
        in_sizes = sizes[:axis] + [n] + sizes[axis:]
        if math.prod(in_sizes) > 8192:
            return None
        fn = rng.choice(["sum", "sum", "max"])
        if fn == "max" and n == 0:
            return None  # -Inf (or INT_MIN) from nothing: fine, but not finite
        x = self.make(elem, in_sizes, depth, finite=finite or fn == "sum")
        out = derived(x, elem, sizes, x.dynamic[:axis] + x.dynamic[axis + 1:])
        if fn == "sum":
            out.bound = x.bound * n
            if elem == F32:
                out.exact = x.exact and out.bound < EXACT_LIMIT
                out.err = n * x.err + x.rel_ulps * ULP_PER_BOUND * x.bound * n + \
                    2 * (n + 1) * UNIT_ROUNDOFF * out.bound
                out.rel_ulps = 0
        else:
            out.err = x.err + x.rel_ulps * ULP_PER_BOUND * x.bound
            out.rel_ulps = 0
        return self.add(Reduce([x], out, axis, fn))

    def make_reshape(self, elem, sizes, depth, finite):
        rng = self.rng
        rank = len(sizes)
        if rank >= 2 and rng.random() < 0.5:
            axis = rng.randrange(rank - 1)
            merged = sizes[axis] * sizes[axis + 1]
            x = self.make(elem, sizes[:axis] + [merged] + sizes[axis + 2:], depth,
                          dynamic=[False] * (rank - 1), finite=finite)
            out = derived(x, elem, sizes, [False] * rank)
            return self.add(Expand([x], out, axis))
        if rank >= 4:
            return None
        axis = rng.randrange(rank) if rank else 0
        if rank == 0:
            return None
        s = sizes[axis]
        factors = [f for f in range(1, s + 1) if s % f == 0] or [1]
        f = rng.choice(factors)
        in_sizes = sizes[:axis] + [f, s // f if f else 0] + sizes[axis + 1:]
        x = self.make(elem, in_sizes, depth, dynamic=[False] * (rank + 1), finite=finite)
        out = derived(x, elem, sizes, [False] * rank)
        return self.add(Collapse([x], out, axis))

    def make_matmul(self, elem, sizes, depth, finite):
        rng = self.rng
        rank = len(sizes)
        forms = {1: ["matvec", "vecmat", "generic_matvec", "generic_vecmat"],
                 2: ["matmul", "matmul", "generic", "quantized", "contract"],
                 3: ["batch", "batch", "quantized_batch", "tosa", "generic_batch_shared"]}[rank]
        if elem == F32:
            forms = [f for f in forms if not f.startswith("quantized")]
        else:
            forms = [f for f in forms if f != "contract"]
        if self.forms:
            forms = [f for f in forms if f in self.forms] or forms
        form = rng.choice(forms)
        in_elem = F32 if elem == F32 else rng.choice([I8, I8, I8, I32]) if form in (
            "matmul", "generic", "batch", "matvec", "vecmat", "generic_matvec", "generic_vecmat",
            "generic_batch_shared") else I8
        if in_elem == I32:
            return None  # i32 x i32 matmuls stay loops in mips-compile; not a libmips form
        k = rng.choice(K_SIZES)
        ta = rng.choice("nt") if form in ("matmul", "generic", "batch", "contract") else "n"
        tb = rng.choice("nt") if form in ("matmul", "generic", "batch", "contract") else "n"
        shared = rng.choice("ab")
        if form in ("matvec", "generic_matvec"):
            m, = sizes
            a_sizes, b_sizes = [m, k], [k]
        elif form in ("vecmat", "generic_vecmat"):
            n, = sizes
            a_sizes, b_sizes = [k], [k, n]
        elif form == "generic_batch_shared":
            bt, m, n = sizes
            a_sizes = [bt, m, k] if shared == "b" else [m, k]
            b_sizes = [k, n] if shared == "b" else [bt, k, n]
        elif rank == 2:
            m, n = sizes
            a_sizes = [k, m] if ta == "t" else [m, k]
            b_sizes = [n, k] if tb == "t" else [k, n]
        else:
            bt, m, n = sizes
            a_sizes = [bt, k, m] if ta == "t" else [bt, m, k]
            b_sizes = [bt, n, k] if tb == "t" else [bt, k, n]
        if math.prod(sizes) * max(k, 1) > 65536:
            return None
        static = form == "tosa"
        if static and (k == 0 or 0 in sizes):
            return None  # TOSA tensors have no empty dimensions
        # Operands: small exact values keep every sum exact; real values carry a bound.
        limit = 8.0 if elem == F32 else None
        dyn = [False] * len(a_sizes) if static else None
        # Sometimes A is a constant of the module: an NCHW convolution's filters, which
        # mips-compile makes the B of the transposed product when that is narrower
        # (transposed at compile time, or packed once with --mips-pack-constant-weights).
        if form in ("matmul", "generic", "contract", "matvec") and 0 < math.prod(a_sizes) <= 4096 \
                and rng.random() < 0.2:
            a = self.make_constant(in_elem, a_sizes)
        else:
            a = self.make(in_elem, a_sizes, depth, dynamic=dyn, finite=True, bound_limit=limit)
        # Sometimes B is a constant of the module, as a model's weights are (mips-compile
        # can pack those once).
        if form in ("matmul", "generic", "contract", "vecmat") and 0 < math.prod(b_sizes) <= 4096 \
                and rng.random() < 0.25:
            b = self.make_constant(in_elem, b_sizes)
        else:
            b = self.make(in_elem, b_sizes, depth,
                          dynamic=[False] * len(b_sizes) if static else None,
                          finite=True, bound_limit=limit)
        zero_points = (0, 0)
        if form.startswith("quantized") or (form == "tosa" and in_elem == I8):
            zero_points = (rng.choice([0, 0, 3, -128, 127, -7]), rng.choice([0, 0, 5, -128, 127]))
        inputs = [a, b]
        out = Value(elem, sizes, self._matmul_out_dynamic(form, a, b, ta, tb, shared))
        if form != "tosa" and rng.random() < 0.4:
            c = self.make(elem, sizes, depth, dynamic=out.dynamic, finite=True, bound_limit=64.0)
            inputs.append(c)
        if static:
            out.dynamic = [False] * rank
        if elem == F32:
            bc = inputs[2].bound if len(inputs) == 3 else 0.0
            ec = inputs[2].err if len(inputs) == 3 else 0.0
            exact_c = inputs[2].exact if len(inputs) == 3 else True
            out.bound = bc + k * a.bound * b.bound
            ea = a.err + a.rel_ulps * ULP_PER_BOUND * a.bound
            eb = b.err + b.rel_ulps * ULP_PER_BOUND * b.bound
            if len(inputs) == 3:
                ec += inputs[2].rel_ulps * ULP_PER_BOUND * inputs[2].bound
            out.exact = a.exact and b.exact and exact_c and out.bound < EXACT_LIMIT
            out.err = ec + k * (a.bound * eb + b.bound * ea + ea * eb) + \
                2 * (k + 2) * UNIT_ROUNDOFF * out.bound
        else:
            zmax = max(abs(z) for z in zero_points)
            out.bound = min(2 ** 31, (inputs[2].bound if len(inputs) == 3 else 0) +
                            k * (128 + zmax) ** 2)
        op = Matmul(inputs, out, form, ta, tb, zero_points)
        op.shared = shared
        return self.add(op)

    def make_constant(self, elem, sizes):
        rng = self.rng
        count = math.prod(sizes)
        if elem == F32:
            values = [f"{float(rng.randint(-4, 4)):.1f}" for _ in range(count)]
            out = Value(elem, sizes, [False] * len(sizes), bound=4.0)
        else:
            values = [str(rng.randint(-128, 127)) for _ in range(count)]
            out = Value(elem, sizes, [False] * len(sizes), bound=128)
        return self.add(Constant(out, values))

    def make_conv(self, elem, sizes, depth, finite):
        """A convolution producing `sizes`: [N, OH, OW, F] (NHWC) or [N, F, OH, OW]."""
        rng = self.rng
        form = rng.choice(["nhwc_hwcf", "nhwc_fhwc", "nchw_fchw"])
        # f32 depthwise convs become the compiler's own vector code.
        if elem == F32 and rng.random() < 0.3:
            form = rng.choice(["depthwise_nhwc_hwc", "depthwise_nchw_chw"])
        depthwise = form.startswith("depthwise")
        in_elem = F32 if elem == F32 else I8
        if form in ("nchw_fchw", "depthwise_nchw_chw"):
            n, f, oh, ow = sizes
        else:
            n, oh, ow, f = sizes
        if 0 in sizes:
            return None
        kh, kw = rng.choice([1, 1, 2, 3]), rng.choice([1, 1, 2, 3])
        strides = (rng.choice([1, 1, 2]), rng.choice([1, 1, 2]))
        dilations = (rng.choice([1, 1, 2]), rng.choice([1, 1, 2]))
        c = f if depthwise else rng.choice([1, 2, 3, 4, 8])
        h = (oh - 1) * strides[0] + (kh - 1) * dilations[0] + 1 + rng.choice([0, 0, 1])
        w_ = (ow - 1) * strides[1] + (kw - 1) * dilations[1] + 1 + rng.choice([0, 0, 1])
        k = kh * kw * (1 if depthwise else c)
        if n * h * w_ * c > 8192 or math.prod(sizes) * k > 65536:
            return None
        nchw = form in ("nchw_fchw", "depthwise_nchw_chw")
        x_sizes = [n, c, h, w_] if nchw else [n, h, w_, c]
        w_sizes = {"nhwc_hwcf": [kh, kw, c, f], "nhwc_fhwc": [f, kh, kw, c], "nchw_fchw": [f, c, kh, kw],
                   "depthwise_nhwc_hwc": [kh, kw, c], "depthwise_nchw_chw": [c, kh, kw]}[form]
        limit = 8.0 if elem == F32 else None
        # Mostly static (the shapes mips-compile sends to libmips); dynamic ones stay loops.
        static = rng.random() < 0.85
        x = None
        if static and form != "depthwise_nhwc_hwc" and rng.random() < 0.35:
            # Zero padding around the image, as models write it: on a small image some
            # taps read only padding (compiled without them).
            x = self.make_conv_padding(in_elem, x_sizes, depth, 2 if nchw else 1, limit)
        if x is None:
            x = self.make(in_elem, x_sizes, depth, dynamic=[False] * 4 if static else None, finite=True,
                          bound_limit=limit)
        if static and 0 < math.prod(w_sizes) <= 4096 and rng.random() < 0.3:
            wt = self.make_constant(in_elem, w_sizes)  # a frozen model's filters
        else:
            wt = self.make(in_elem, w_sizes, depth, dynamic=[False] * len(w_sizes) if static else None,
                           finite=True, bound_limit=limit)
        out = Value(elem, sizes, [False] * 4)
        inputs = [x, wt]
        if rng.random() < 0.3:
            inputs.append(self.make(elem, sizes, depth, dynamic=[False] * 4, finite=True, bound_limit=64.0))
        if elem == F32:
            bc = inputs[2].bound if len(inputs) == 3 else 0.0
            ec = inputs[2].err if len(inputs) == 3 else 0.0
            exact_c = inputs[2].exact if len(inputs) == 3 else True
            out.bound = bc + k * x.bound * wt.bound
            ea = x.err + x.rel_ulps * ULP_PER_BOUND * x.bound
            eb = wt.err + wt.rel_ulps * ULP_PER_BOUND * wt.bound
            if len(inputs) == 3:
                ec += inputs[2].rel_ulps * ULP_PER_BOUND * inputs[2].bound
            out.exact = x.exact and wt.exact and exact_c and out.bound < EXACT_LIMIT
            out.err = ec + k * (x.bound * eb + wt.bound * ea + ea * eb) + 2 * (k + 2) * UNIT_ROUNDOFF * out.bound
            zero_points = None
        else:
            # int8 NHWC convs are also written with zero points (TOSA's quantized conv2d).
            zero_points = None
            if form != "nchw_fchw" and rng.random() < 0.5:
                zero_points = (rng.choice([0, 3, -128, 127]), rng.choice([0, -5, -128, 127]))
            zmax = max(abs(z) for z in zero_points) if zero_points else 0
            out.bound = min(2 ** 31, (inputs[2].bound if len(inputs) == 3 else 0) + k * (128 + zmax) ** 2)
        return self.add(Conv(inputs, out, form, strides, dilations, zero_points))

    def make_conv_padding(self, elem, sizes, depth, first_spatial, limit):
        """A conv input of `sizes` that is a smaller image padded with zeros in its two
        spatial dims (from `first_spatial`), or None if no image fits."""
        rng = self.rng
        low, high = [0] * 4, [0] * 4
        for d in (first_spatial, first_spatial + 1):
            low[d], high[d] = rng.choice([0, 1, 1, 2, 3]), rng.choice([0, 1, 1, 2])
        in_sizes = [s - lo - hi for s, lo, hi in zip(sizes, low, high)]
        if any(s <= 0 for s in in_sizes) or sum(low) + sum(high) == 0:
            return None
        x = self.make(elem, in_sizes, depth, dynamic=[False] * 4, finite=True, bound_limit=limit)
        out = derived(x, elem, sizes, [False] * 4)
        out.bound = x.bound
        return self.add(Pad([x], out, low, high, 0.0 if elem == F32 else 0))

    @staticmethod
    def _matmul_out_dynamic(form, a, b, ta, tb, shared):
        if form in ("matvec", "generic_matvec"):
            return [a.dynamic[0]]
        if form in ("vecmat", "generic_vecmat"):
            return [b.dynamic[1]]
        if form == "generic_batch_shared":
            if shared == "b":
                return [a.dynamic[0], a.dynamic[1], b.dynamic[1]]
            return [b.dynamic[0], a.dynamic[0], b.dynamic[2]]
        if form in ("matmul", "generic", "quantized", "contract"):
            return [a.dynamic[1 if ta == "t" else 0], b.dynamic[0 if tb == "t" else 1]]
        return [a.dynamic[0], a.dynamic[2 if ta == "t" else 1], b.dynamic[1 if tb == "t" else 2]]

    # -- whole cases

    def tensor_case(self):
        rng = self.rng
        rank = rng.choice([1, 2, 2, 2, 3, 4])
        if rank == 4:
            sizes = [rng.choice([1, 1, 2]), rng.choice([1, 2, 3, 5, 8]), rng.choice([1, 2, 4, 7, 8]),
                     rng.choice([1, 2, 3, 4, 8, 16])]
            elem = rng.choice([F32, F32, F32, I32])
            result = self.make_conv(elem, sizes, self.depth - 1, True)
            if result is None:
                result = self.make(elem, sizes, self.depth, finite=False)
            if isinstance(result, Arg):
                result = self.make_elementwise(elem, sizes, 0, False)
            return Case(self.name, self.args, self.ops, result) if result is not None else None
        pool = MATMUL_SIZES if rank <= 2 else SMALL_SIZES
        sizes = [rng.choice(pool) for _ in range(rank)]
        if rank == 3:
            sizes[0] = rng.choice([0, 1, 2, 3, 4])
        while math.prod(sizes) > 4096:
            sizes[rng.randrange(rank)] //= 2
        elem = rng.choice([F32, F32, F32, I32])
        # Most cases are rooted at a matmul form, as models are.
        if rng.random() < 0.6 and (elem == F32 or rank in (1, 2, 3)):
            result = self.make_matmul(elem, sizes, self.depth - 1, True)
            if result is None:
                result = self.make(elem, sizes, self.depth, finite=False)
        else:
            result = self.make(elem, sizes, self.depth, finite=False)
        result = self.fit(result, [rng.random() < 0.2 for _ in sizes])
        if isinstance(result, Arg):
            # A function returning its argument tests nothing: add one op.
            result = self.make_elementwise(elem, sizes, 0, False) or self.make_convert(elem, sizes, 0, False)
            if result is None:
                return None
        return Case(self.name, self.args, self.ops, result)

    def memref_case(self):
        """linalg.(batch_)matmul / quantized matmul on strided memrefs, writing C."""
        rng = self.rng
        form = rng.choice(["matmul", "matmul", "batch", "quantized"])
        elem = I32 if form == "quantized" else rng.choice([F32, F32, I32])
        in_elem = F32 if elem == F32 else I8
        m, n, k = rng.choice(MATMUL_SIZES), rng.choice(MATMUL_SIZES), rng.choice(K_SIZES)
        while m * n * max(k, 1) > 65536:
            m //= 2
        ta = rng.choice("nt") if form != "quantized" else "n"
        tb = rng.choice("nt") if form != "quantized" else "n"
        batch = [rng.choice([1, 2, 3])] if form == "batch" else []
        a_sizes = batch + ([k, m] if ta == "t" else [m, k])
        b_sizes = batch + ([n, k] if tb == "t" else [k, n])
        mk = lambda sizes: self.arg(in_elem, sizes, allow_broadcast=False)
        a, b = mk(a_sizes), mk(b_sizes)
        c = self.arg(elem, batch + [m, n], allow_broadcast=False)
        for v in (a, b, c):
            v.memref = True
        c.output = True
        zero_points = (0, 0)
        if form == "quantized":
            zero_points = (rng.choice([0, 3, -128, 127]), rng.choice([0, 5, -128]))
        out = Value(elem, c.sizes, c.dynamic)
        if elem == F32:
            out.bound = c.bound + k * a.bound * b.bound
            out.exact = a.exact and b.exact and c.exact and out.bound < EXACT_LIMIT
            out.err = 2 * (k + 2) * UNIT_ROUNDOFF * out.bound
        op = MemrefMatmul([a, b, c], out, form, ta, tb, zero_points)
        self.ops.append(op)
        return Case(self.name, self.args, self.ops, out, on_memrefs=True)


class MemrefMatmul(Op):
    kind = "matmul"

    def __init__(self, inputs, output, form, ta, tb, zero_points):
        super().__init__(inputs, output)
        self.form, self.ta, self.tb, self.zero_points = form, ta, tb, zero_points

    def render(self, ctx):
        a, b, c = self.inputs
        ins = f"ins({ctx.name(a)}, {ctx.name(b)} : {a.type}, {b.type})"
        outs = f"outs({ctx.name(c)} : {c.type})"
        if self.form == "quantized":
            za = ctx.scalar(I32, str(self.zero_points[0]))
            zb = ctx.scalar(I32, str(self.zero_points[1]))
            ctx.emit(f"linalg.quantized_matmul ins({ctx.name(a)}, {ctx.name(b)}, {za}, {zb} : "
                     f"{a.type}, {b.type}, i32, i32) {outs}")
        else:
            maps = ""
            if self.ta == "t" or self.tb == "t":
                if self.form == "batch":
                    maps = (f"indexing_maps = [affine_map<(b, m, n, k) -> {BATCH_MAP_A[self.ta]}>, "
                            f"affine_map<(b, m, n, k) -> {BATCH_MAP_B[self.tb]}>, "
                            f"affine_map<(b, m, n, k) -> (b, m, n)>] ")
                else:
                    maps = (f"indexing_maps = [affine_map<(m, n, k) -> {MAP_A[self.ta]}>, "
                            f"affine_map<(m, n, k) -> {MAP_B[self.tb]}>, affine_map<(m, n, k) -> (m, n)>] ")
            name = "linalg.batch_matmul" if self.form == "batch" else "linalg.matmul"
            ctx.emit(f"{name} {maps}{ins} {outs}")
        return ctx.name(c)


def derived(like, elem, sizes, dynamic):
    out = Value(elem, sizes, dynamic, bound=like.bound, err=like.err, exact=like.exact,
                special=like.special)
    out.rel_ulps = like.rel_ulps
    return out


def combine_bounds(out, fn, a, b):
    if out.elem != F32:
        big = {"add": a.bound + b.bound, "sub": a.bound + b.bound, "mul": a.bound * b.bound}
        out.bound = min(2 ** 31, big.get(fn, max(a.bound, b.bound)))
        return
    ea = a.err + a.rel_ulps * ULP_PER_BOUND * a.bound
    eb = b.err + b.rel_ulps * ULP_PER_BOUND * b.bound
    out.special = a.special or b.special
    out.rel_ulps = 0
    # One IEEE operation on identical operands rounds identically on both sides: it
    # adds rounding error only where its operands already differ.
    rounding = 2 * UNIT_ROUNDOFF if (ea or eb) else 0.0
    if fn in ("add", "sub"):
        out.bound = a.bound + b.bound
        out.exact = a.exact and b.exact and out.bound < EXACT_LIMIT
        out.err = ea + eb + rounding * out.bound
    elif fn == "mul":
        out.bound = min(FLT_MAX, a.bound * b.bound)
        out.exact = a.exact and b.exact and out.bound < EXACT_LIMIT
        out.err = ea * b.bound + eb * a.bound + ea * eb + rounding * out.bound
    else:
        # max, min and select (min written as a select): 1-Lipschitz in each operand,
        # so a comparison that flips within the error moves the result no further.
        out.bound = max(a.bound, b.bound)
        out.exact = a.exact and b.exact
        out.err = max(ea, eb)


def generate_case(seed, index, name=None):
    """The case with this (seed, index): the same pair always gives the same case."""
    rng = random.Random(f"{seed}:{index}")
    for attempt in range(20):
        b = Builder(rng, name or f"case{index}", depth=rng.choice([1, 2, 2, 3]))
        case = b.memref_case() if rng.random() < 0.12 else b.tensor_case()
        if case is not None and case.args and all(a.count <= 16384 for a in case.args):
            fill_data(case, rng)
            return case
    raise RuntimeError(f"no case for seed {seed} index {index}")


SPECIALS = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-45, -1e-45, 1e-38, 3e38, -3e38,
            88.7, 89.0, -87.0, -104.0, 1e-7, -1e-7, 2.0 ** -20, 1e5, -1e5]


def fill_data(case, rng):
    for a in case.args:
        n = a.count
        if a.elem == I8:
            a.data = [rng.randint(-128, 127) for _ in range(n)]
        elif a.elem == I32:
            a.data = [rng.randint(-2 ** 20, 2 ** 20) for _ in range(n)]
        elif a.data_kind == "exact":
            a.data = [float(rng.randint(-4, 4)) for _ in range(n)]
        elif a.data_kind == "real":
            a.data = [rng.uniform(-1.0, 1.0) for _ in range(n)]
        else:
            def special():
                r = rng.random()
                if r < 0.35:
                    return rng.choice(SPECIALS)
                if r < 0.7:
                    return rng.uniform(-6.0, 6.0)
                return math.copysign(10.0 ** rng.uniform(-40, 38), rng.choice([-1, 1]))
            a.data = [special() for _ in range(n)]
        if a.view == "broadcast" and a.sizes and a.sizes[0] > 0:
            # A zero stride along the first axis: every slice is the first one.
            inner = n // a.sizes[0]
            a.data = a.data[:inner] * a.sizes[0]


def pack(elem, values):
    fmt = {F32: "f", I8: "b", I32: "i"}[elem]
    if elem == F32:
        out = bytearray()
        for v in values:
            try:
                out += struct.pack("<f", v)
            except OverflowError:
                out += struct.pack("<f", math.copysign(float("inf"), v))
        return bytes(out)
    return struct.pack(f"<{len(values)}{fmt}", *values)
