#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes torchvision's ResNet-18 as linalg on tensors, NCHW, the way torch-mlir exports a
frozen model (batch norm folded into each convolution's bias): tensor.pad before padded
convolutions and the max pool, linalg.conv_2d_nchw_fchw accumulating into its broadcast
bias, ReLU and residual adds as linalg.generic, the classifier as a transposed weight
into linalg.matmul. All weights and biases come in one flat argument, sliced and reshaped
per layer, so a driver passes two arguments: the image and the parameters.

usage: resnet18.py [--size 32] [--classes 1000] > resnet18.mlir
Prints the multiply-adds of the convolutions and the classifier on stderr."""
import argparse
import sys


class Writer:
    def __init__(self, classes):
        self.lines = []
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

    def pad(self, x, shape, p, value):
        if p == 0:
            return x, shape
        out = [shape[0], shape[1], shape[2] + 2 * p, shape[3] + 2 * p]
        r = self.fresh("pad")
        self.emit(f"{r} = tensor.pad {x} low[0, 0, {p}, {p}] high[0, 0, {p}, {p}] {{")
        self.emit("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
        self.emit(f"  tensor.yield {value} : f32")
        self.emit(f"}} : {ttype(shape)} to {ttype(out)}")
        return r, out

    def conv(self, x, shape, filters, k, stride, p):
        """conv + folded batch norm: the bias broadcast, then the conv into it."""
        n, c, h, w = shape
        xp, pshape = self.pad(x, shape, p, "%zero")
        oh = (pshape[2] - k) // stride + 1
        ow = (pshape[3] - k) // stride + 1
        out = [n, filters, oh, ow]
        weight = self.params([filters, c, k, k])
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
        self.emit(f"{r} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = "
                  f"dense<{stride}> : tensor<2xi64>}} ins({xp}, {weight} : {ttype(pshape)}, "
                  f"{ttype([filters, c, k, k])}) outs({init} : {ttype(out)}) -> {ttype(out)}")
        self.macs += n * filters * oh * ow * c * k * k
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

    def add(self, x, y, shape):
        return self.elementwise([x, y], shape, ["%y = arith.addf %a0, %a1 : f32", "linalg.yield %y : f32"])

    def maxpool(self, x, shape):
        xp, pshape = self.pad(x, shape, 1, "%ninf")
        out = [shape[0], shape[1], (pshape[2] - 3) // 2 + 1, (pshape[3] - 3) // 2 + 1]
        empty = self.fresh("e")
        self.emit(f"{empty} = tensor.empty() : {ttype(out)}")
        fill = self.fresh("f")
        self.emit(f"{fill} = linalg.fill ins(%ninf : f32) outs({empty} : {ttype(out)}) -> {ttype(out)}")
        window = self.fresh("k")
        self.emit(f"{window} = tensor.empty() : tensor<3x3xf32>")
        r = self.fresh("pool")
        self.emit(f"{r} = linalg.pooling_nchw_max {{dilations = dense<1> : tensor<2xi64>, strides = "
                  f"dense<2> : tensor<2xi64>}} ins({xp}, {window} : {ttype(pshape)}, tensor<3x3xf32>) "
                  f"outs({fill} : {ttype(out)}) -> {ttype(out)}")
        return r, out

    def block(self, x, shape, filters, stride):
        y, s1 = self.conv(x, shape, filters, 3, stride, 1)
        y = self.relu(y, s1)
        y, s2 = self.conv(y, s1, filters, 3, 1, 1)
        if stride != 1 or shape[1] != filters:
            x, _ = self.conv(x, shape, filters, 1, stride, 0)
        y = self.add(y, x, s2)
        return self.relu(y, s2), s2

    def head(self, x, shape):
        """Global average pool, then the classifier: x * W^T + b."""
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
        self.emit(f"{r} = linalg.matmul ins({mean}, {wt} : tensor<{n}x{c}xf32>, tensor<{c}x{k}xf32>) "
                  f"outs({init} : tensor<{n}x{k}xf32>) -> tensor<{n}x{k}xf32>")
        self.macs += n * c * k
        return r, [n, k]


def ttype(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=32, help="input height and width")
    parser.add_argument("--classes", type=int, default=1000)
    args = parser.parse_args()
    w = Writer(args.classes)
    shape = [1, 3, args.size, args.size]
    x, shape = w.conv("%x", shape, 64, 7, 2, 3)
    x = w.relu(x, shape)
    x, shape = w.maxpool(x, shape)
    for filters, stride in [(64, 1), (64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1)]:
        x, shape = w.block(x, shape, filters, stride)
    logits, out = w.head(x, shape)
    print("// Generated by bench/models/resnet18.py: torchvision's ResNet-18, NCHW, batch norm")
    print(f"// folded; {args.size}x{args.size} input, {w.macs} multiply-adds, {w.offset} parameters.")
    print("#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>")
    print("#channel = affine_map<(n, c, h, w) -> (c)>")
    print("#nc = affine_map<(n, c, h, w) -> (n, c)>")
    print("#id2 = affine_map<(n, k) -> (n, k)>")
    print("#col = affine_map<(n, k) -> (k)>")
    print(f"func.func @resnet18(%x: {ttype([1, 3, args.size, args.size])}, %params: tensor<?xf32>) "
          f"-> {ttype(out)} {{")
    print("  %zero = arith.constant 0.0 : f32")
    print("  %ninf = arith.constant 0xFF800000 : f32")
    print("\n".join(w.lines))
    print(f"  return {logits} : {ttype(out)}")
    print("}")
    print(f"resnet18: {w.macs} multiply-adds, {w.offset} parameters", file=sys.stderr)


if __name__ == "__main__":
    main()
