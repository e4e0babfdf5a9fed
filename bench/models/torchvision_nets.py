#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes torchvision's ResNet-18, SqueezeNet 1.1 or MobileNetV2 as linalg on tensors,
NCHW, the way torch-mlir exports a frozen model (batch norm folded into each
convolution's bias): tensor.pad before padded convolutions and max pools (ceil-mode pools
pad their high side further), linalg.conv_2d_nchw_fchw and depthwise_conv_2d_nchw_chw
accumulating into their broadcast bias, activations and residual adds as linalg.generic,
channel concatenation as tensor.concat, the classifier as a transposed weight into
linalg.matmul. All weights and biases come in one flat argument, sliced and reshaped per
layer, so a driver passes two arguments: the image and the parameters. With
--weights constants each weight and bias is instead a constant of its own, as a frozen
model exports them (`arith.constant dense_resource<...>`, pseudo-random values carried
in the file's resource section), and the function takes the image alone.

usage: torchvision_nets.py {resnet18,squeezenet,mobilenetv2} [--size 32] [--classes 1000]
                           [--name FUNCTION] [--weights {argument,constants}] > NET.mlir
Prints the multiply-adds of the convolutions and the classifier on stderr."""
import argparse
import random
import struct
import sys


class Writer:
    def __init__(self, classes, constants=False):
        self.lines = []
        self.constants = constants
        self.resources = []  # (name, hex blob) of each constant, with --weights constants
        self.random = random.Random(2026)
        self.next_id = 0
        self.offset = 0  # into the flat parameters
        self.macs = 0
        self.classes = classes

    def fresh(self, name):
        self.next_id += 1
        return f"%{name}{self.next_id}"

    def emit(self, line):
        self.lines.append("  " + line)

    def params(self, shape):
        """A view of the next prod(shape) parameters as a tensor of `shape`."""
        size = 1
        for d in shape:
            size *= d
        if self.constants:
            return self.constant(shape, size)
        flat = self.fresh("p")
        self.emit(f"{flat} = tensor.extract_slice %params[{self.offset}] [{size}] [1] : "
                  f"tensor<?xf32> to tensor<{size}xf32>")
        self.offset += size
        if len(shape) == 1:
            return flat
        view = self.fresh("w")
        dims = ", ".join(str(d) for d in shape)
        self.emit(f"{view} = tensor.expand_shape {flat} [[{', '.join(str(i) for i in range(len(shape)))}]] "
                  f"output_shape [{dims}] : tensor<{size}xf32> into {ttype(shape)}")
        return view

    def constant(self, shape, size):
        """The next parameters as a constant. Weights are uniform in +-sqrt(6 / fan-in),
        which keeps the activations' scale through a convolution and a ReLU, so that
        every layer, the first too, shapes the logits; biases are small."""
        fan_in = size // shape[0] if len(shape) > 1 else 0
        bound = (6 / fan_in) ** 0.5 if fan_in else 0.1
        values = [self.random.uniform(-bound, bound) for _ in range(size)]
        self.offset += size
        name = f"param{len(self.resources)}"
        # A resource blob: its alignment as a little-endian u32, then the data.
        blob = struct.pack("<I", 4) + struct.pack(f"<{size}f", *values)
        self.resources.append((name, blob.hex().upper()))
        value = self.fresh("c")
        self.emit(f"{value} = arith.constant dense_resource<{name}> : {ttype(shape)}")
        return value

    def pad(self, x, shape, p, value, extra=0):
        """Pads height and width by p, and the high side by `extra` more (ceil-mode pools)."""
        if p == 0 and extra == 0:
            return x, shape
        out = [shape[0], shape[1], shape[2] + 2 * p + extra, shape[3] + 2 * p + extra]
        r = self.fresh("pad")
        self.emit(f"{r} = tensor.pad {x} low[0, 0, {p}, {p}] high[0, 0, {p + extra}, {p + extra}] {{")
        self.emit("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
        self.emit(f"  tensor.yield {value} : f32")
        self.emit(f"}} : {ttype(shape)} to {ttype(out)}")
        return r, out

    def conv(self, x, shape, filters, k, stride, p, depthwise=False):
        """conv + folded batch norm: the bias broadcast, then the conv into it. A depthwise
        conv (groups = channels = filters) has its [C, 1, k, k] weight as [C, k, k]."""
        n, c, h, w = shape
        xp, pshape = self.pad(x, shape, p, "%zero")
        oh = (pshape[2] - k) // stride + 1
        ow = (pshape[3] - k) // stride + 1
        out = [n, filters, oh, ow]
        wshape = [c, k, k] if depthwise else [filters, c, k, k]
        weight = self.params(wshape)
        bias = self.params([filters])
        empty = self.fresh("e")
        self.emit(f"{empty} = tensor.empty() : {ttype(out)}")
        init = self.fresh("b")
        self.emit(f"{init} = linalg.generic {{indexing_maps = [#channel, #id4], iterator_types = "
                  f"[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins({bias} : tensor<{filters}xf32>) "
                  f"outs({empty} : {ttype(out)}) {{")
        self.emit("^bb0(%in: f32, %o: f32):")
        self.emit("  linalg.yield %in : f32")
        self.emit(f"}} -> {ttype(out)}")
        r = self.fresh("conv")
        op = "depthwise_conv_2d_nchw_chw" if depthwise else "conv_2d_nchw_fchw"
        self.emit(f"{r} = linalg.{op} {{dilations = dense<1> : tensor<2xi64>, strides = "
                  f"dense<{stride}> : tensor<2xi64>}} ins({xp}, {weight} : {ttype(pshape)}, "
                  f"{ttype(wshape)}) outs({init} : {ttype(out)}) -> {ttype(out)}")
        self.macs += n * oh * ow * k * k * (c if depthwise else c * filters)
        return r, out

    def elementwise(self, inputs, shape, body):
        empty = self.fresh("e")
        self.emit(f"{empty} = tensor.empty() : {ttype(shape)}")
        r = self.fresh("v")
        maps = ", ".join(["#id4"] * (len(inputs) + 1))
        ins = ", ".join(inputs)
        types = ", ".join([ttype(shape)] * len(inputs))
        args = ", ".join(f"%a{i}: f32" for i in range(len(inputs)))
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
                  f"[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins({ins} : {types}) "
                  f"outs({empty} : {ttype(shape)}) {{")
        self.emit(f"^bb0({args}, %o: f32):")
        for line in body:
            self.emit("  " + line)
        self.emit(f"}} -> {ttype(shape)}")
        return r

    def relu(self, x, shape):
        return self.elementwise([x], shape, ["%y = arith.maximumf %a0, %zero : f32", "linalg.yield %y : f32"])

    def relu6(self, x, shape):
        return self.elementwise([x], shape, ["%l = arith.maximumf %a0, %zero : f32",
                                             "%y = arith.minimumf %l, %six : f32", "linalg.yield %y : f32"])

    def add(self, x, y, shape):
        return self.elementwise([x, y], shape, ["%y = arith.addf %a0, %a1 : f32", "linalg.yield %y : f32"])

    def concat(self, parts, shapes):
        """Along the channels."""
        out = [shapes[0][0], sum(s[1] for s in shapes), shapes[0][2], shapes[0][3]]
        r = self.fresh("cat")
        self.emit(f"{r} = tensor.concat dim(1) {', '.join(parts)} : "
                  f"({', '.join(ttype(s) for s in shapes)}) -> {ttype(out)}")
        return r, out

    def maxpool(self, x, shape, k=3, stride=2, p=1, ceil=False):
        size = shape[2] + 2 * p - k
        o = -(-size // stride) + 1 if ceil else size // stride + 1
        if ceil and (o - 1) * stride >= shape[2] + p:
            o -= 1  # PyTorch: the last window starts inside the image or its low padding
        extra = (o - 1) * stride + k - (shape[2] + 2 * p)
        xp, pshape = self.pad(x, shape, p, "%ninf", max(extra, 0))
        out = [shape[0], shape[1], o, o]
        empty = self.fresh("e")
        self.emit(f"{empty} = tensor.empty() : {ttype(out)}")
        fill = self.fresh("f")
        self.emit(f"{fill} = linalg.fill ins(%ninf : f32) outs({empty} : {ttype(out)}) -> {ttype(out)}")
        window = self.fresh("k")
        self.emit(f"{window} = tensor.empty() : tensor<{k}x{k}xf32>")
        r = self.fresh("pool")
        self.emit(f"{r} = linalg.pooling_nchw_max {{dilations = dense<1> : tensor<2xi64>, strides = "
                  f"dense<{stride}> : tensor<2xi64>}} ins({xp}, {window} : {ttype(pshape)}, tensor<{k}x{k}xf32>) "
                  f"outs({fill} : {ttype(out)}) -> {ttype(out)}")
        return r, out

    def mean(self, x, shape):
        """Global average pool and flatten: [n, c]."""
        n, c, h, w = shape
        empty = self.fresh("e")
        self.emit(f"{empty} = tensor.empty() : tensor<{n}x{c}xf32>")
        zeros = self.fresh("f")
        self.emit(f"{zeros} = linalg.fill ins(%zero : f32) outs({empty} : tensor<{n}x{c}xf32>) -> tensor<{n}x{c}xf32>")
        total = self.fresh("sum")
        self.emit(f"{total} = linalg.generic {{indexing_maps = [#id4, #nc], iterator_types = "
                  f"[\"parallel\", \"parallel\", \"reduction\", \"reduction\"]}} ins({x} : {ttype(shape)}) "
                  f"outs({zeros} : tensor<{n}x{c}xf32>) {{")
        self.emit("^bb0(%a: f32, %acc: f32):")
        self.emit("  %y = arith.addf %a, %acc : f32")
        self.emit("  linalg.yield %y : f32")
        self.emit(f"}} -> tensor<{n}x{c}xf32>")
        mean = self.fresh("mean")
        self.emit(f"{mean} = linalg.generic {{indexing_maps = [#id2, #id2], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({total} : tensor<{n}x{c}xf32>) "
                  f"outs({empty} : tensor<{n}x{c}xf32>) {{")
        self.emit("^bb0(%a: f32, %o: f32):")
        self.emit(f"  %area = arith.constant {float(h * w)} : f32")
        self.emit("  %y = arith.divf %a, %area : f32")
        self.emit("  linalg.yield %y : f32")
        self.emit(f"}} -> tensor<{n}x{c}xf32>")
        return mean, [n, c]

    def classifier(self, x, shape):
        """x * W^T + b."""
        n, c = shape
        k = self.classes
        weight = self.params([k, c])
        bias = self.params([k])
        te = self.fresh("e")
        self.emit(f"{te} = tensor.empty() : tensor<{c}x{k}xf32>")
        wt = self.fresh("wt")
        self.emit(f"{wt} = linalg.transpose ins({weight} : tensor<{k}x{c}xf32>) outs({te} : "
                  f"tensor<{c}x{k}xf32>) permutation = [1, 0]")
        oe = self.fresh("e")
        self.emit(f"{oe} = tensor.empty() : tensor<{n}x{k}xf32>")
        init = self.fresh("b")
        self.emit(f"{init} = linalg.generic {{indexing_maps = [#col, #id2], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({bias} : tensor<{k}xf32>) outs({oe} : tensor<{n}x{k}xf32>) {{")
        self.emit("^bb0(%in: f32, %o: f32):")
        self.emit("  linalg.yield %in : f32")
        self.emit(f"}} -> tensor<{n}x{k}xf32>")
        r = self.fresh("logits")
        self.emit(f"{r} = linalg.matmul ins({x}, {wt} : tensor<{n}x{c}xf32>, tensor<{c}x{k}xf32>) "
                  f"outs({init} : tensor<{n}x{k}xf32>) -> tensor<{n}x{k}xf32>")
        self.macs += n * c * k
        return r, [n, k]


def resnet18(w, x, shape):
    def block(x, shape, filters, stride):
        y, s1 = w.conv(x, shape, filters, 3, stride, 1)
        y = w.relu(y, s1)
        y, s2 = w.conv(y, s1, filters, 3, 1, 1)
        if stride != 1 or shape[1] != filters:
            x, _ = w.conv(x, shape, filters, 1, stride, 0)
        y = w.add(y, x, s2)
        return w.relu(y, s2), s2

    x, shape = w.conv(x, shape, 64, 7, 2, 3)
    x = w.relu(x, shape)
    x, shape = w.maxpool(x, shape)
    for filters, stride in [(64, 1), (64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1)]:
        x, shape = block(x, shape, filters, stride)
    return w.classifier(*w.mean(x, shape))


def squeezenet(w, x, shape):
    """SqueezeNet 1.1: no batch norm; its classifier is a 1x1 conv, ReLU and a mean."""
    def fire(x, shape, squeeze, expand):
        s, ss = w.conv(x, shape, squeeze, 1, 1, 0)
        s = w.relu(s, ss)
        e1, s1 = w.conv(s, ss, expand, 1, 1, 0)
        e1 = w.relu(e1, s1)
        e3, s3 = w.conv(s, ss, expand, 3, 1, 1)
        e3 = w.relu(e3, s3)
        return w.concat([e1, e3], [s1, s3])

    x, shape = w.conv(x, shape, 64, 3, 2, 0)
    x = w.relu(x, shape)
    for stage in [[(16, 64), (16, 64)], [(32, 128), (32, 128)], [(48, 192), (48, 192), (64, 256), (64, 256)]]:
        x, shape = w.maxpool(x, shape, p=0, ceil=True)
        for squeeze, expand in stage:
            x, shape = fire(x, shape, squeeze, expand)
    x, shape = w.conv(x, shape, w.classes, 1, 1, 0)
    x = w.relu(x, shape)
    return w.mean(x, shape)


def mobilenetv2(w, x, shape):
    def conv_relu6(x, shape, filters, k, stride, depthwise=False):
        x, shape = w.conv(x, shape, filters, k, stride, k // 2, depthwise)
        return w.relu6(x, shape), shape

    x, shape = conv_relu6(x, shape, 32, 3, 2)
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                       (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            y, ys = x, shape
            if t != 1:
                y, ys = conv_relu6(y, ys, shape[1] * t, 1, 1)
            y, ys = conv_relu6(y, ys, ys[1], 3, stride, depthwise=True)
            y, ys = w.conv(y, ys, c, 1, 1, 0)
            if stride == 1 and shape[1] == c:
                y = w.add(y, x, ys)
            x, shape = y, ys
    x, shape = conv_relu6(x, shape, 1280, 1, 1)
    return w.classifier(*w.mean(x, shape))


NETS = {"resnet18": (resnet18, "ResNet-18, batch norm folded"),
        "squeezenet": (squeezenet, "SqueezeNet 1.1"),
        "mobilenetv2": (mobilenetv2, "MobileNetV2, batch norm folded")}


def ttype(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("net", choices=sorted(NETS))
    parser.add_argument("--size", type=int, default=32, help="input height and width")
    parser.add_argument("--classes", type=int, default=1000)
    parser.add_argument("--name", help="the function's name (default: the network's)")
    parser.add_argument("--weights", choices=["argument", "constants"], default="argument",
                        help="one flat argument of parameters, or a constant per weight and bias")
    args = parser.parse_args()
    name = args.name or args.net
    build, title = NETS[args.net]
    w = Writer(args.classes, constants=args.weights == "constants")
    shape = [1, 3, args.size, args.size]
    logits, out = build(w, "%x", shape)
    print(f"// Generated by bench/models/torchvision_nets.py {' '.join(sys.argv[1:])}: torchvision's {title},")
    print(f"// NCHW; {args.size}x{args.size} input, {w.macs} multiply-adds, {w.offset} parameters.")
    print("#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>")
    print("#channel = affine_map<(n, c, h, w) -> (c)>")
    print("#nc = affine_map<(n, c, h, w) -> (n, c)>")
    print("#id2 = affine_map<(n, k) -> (n, k)>")
    print("#col = affine_map<(n, k) -> (k)>")
    params = "" if w.constants else ", %params: tensor<?xf32>"
    print(f"func.func @{name}(%x: {ttype(shape)}{params}) -> {ttype(out)} {{")
    print("  %zero = arith.constant 0.0 : f32")
    print("  %ninf = arith.constant 0xFF800000 : f32")
    if args.net == "mobilenetv2":
        print("  %six = arith.constant 6.0 : f32")
    print("\n".join(w.lines))
    print(f"  return {logits} : {ttype(out)}")
    print("}")
    if w.resources:
        print("{-#\n  dialect_resources: {\n    builtin: {")
        print(",\n".join(f'      {n}: "0x{blob}"' for n, blob in w.resources))
        print("    }\n  }\n#-}")
    print(f"{name}: {w.macs} multiply-adds, {w.offset} parameters", file=sys.stderr)


if __name__ == "__main__":
    main()
