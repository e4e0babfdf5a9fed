# SPDX-License-Identifier: Apache-2.0
"""The C harness and the inputs file for a list of cases (see difftest_harness.h)."""
import struct

from generator import ELEM_BYTES, pack

VIEWS = {"dense": "DT_DENSE", "offset": "DT_OFFSET", "padded": "DT_PADDED",
         "transposed": "DT_TRANSPOSED", "broadcast": "DT_BROADCAST"}


def module_text(cases, reference=False):
    return "\n\n".join(c.render(reference=reference) for c in cases) + "\n"


def harness_source(cases):
    lines = ['#include "difftest_harness.h"', ""]
    for i, case in enumerate(cases):
        params = ", ".join(["dt_memref *"] * (len(case.args) + (0 if case.on_memrefs else 1)))
        lines.append(f"void _mlir_ciface_{case.name}({params});")
        lines.append(f"static void run_{i}(dt_io *io, int64_t case_index) {{")
        for j, a in enumerate(case.args):
            sizes = ", ".join(map(str, a.sizes)) or "0"
            lines.append(f"  static const int64_t s{j}[] = {{{sizes}}};")
            lines.append(f"  dt_arg a{j};")
            lines.append(f"  dt_arg_make(io, &a{j}, {len(a.sizes)}, {ELEM_BYTES[a.elem]}, s{j}, "
                         f"{VIEWS[a.view]}, {int(a.memref)}, {int(a.output)});")
        names = ", ".join(f"&a{j}" for j in range(len(case.args)))
        lines.append(f"  dt_arg *const args[] = {{{names}}};")
        call_args = ", ".join(f"&a{j}.d" for j in range(len(case.args)))
        if case.on_memrefs:
            lines.append(f"  _mlir_ciface_{case.name}({call_args});")
            lines.append(f"  dt_check_args(io, args, {len(case.args)});")
            out = next(j for j, a in enumerate(case.args) if a.output)
            lines.append(f"  dt_write_view(io, case_index, a{out}.d.aligned, a{out}.d.offset, a{out}.rank, "
                         f"a{out}.sizes, a{out}.strides, a{out}.elem_bytes);")
        else:
            r = case.result
            lines.append("  dt_memref result;")
            lines.append("  memset(&result, 0, sizeof result);")
            lines.append(f"  _mlir_ciface_{case.name}(&result, {call_args});")
            lines.append(f"  dt_check_args(io, args, {len(case.args)});")
            lines.append(f"  dt_write_result(io, case_index, &result, {len(r.sizes)}, {ELEM_BYTES[r.elem]}, "
                         f"args, {len(case.args)});")
        lines.append(f"  dt_free_args(args, {len(case.args)});")
        lines.append("}")
        lines.append("")
    table = ", ".join(f"run_{i}" for i in range(len(cases)))
    lines.append(f"static const dt_case_fn cases[] = {{{table}}};")
    lines.append("int main(int argc, char **argv) {")
    lines.append(f"  return dt_main(argc, argv, cases, {len(cases)});")
    lines.append("}")
    return "\n".join(lines) + "\n"


def inputs_blob(cases):
    blobs = []
    for case in cases:
        blobs.append(b"".join(pack(a.elem, a.data) for a in case.args))
    header = 8 + 8 * len(cases)
    offsets, at = [], header
    for b in blobs:
        offsets.append(at)
        at += len(b)
    return struct.pack(f"<q{len(cases)}q", len(cases), *offsets) + b"".join(blobs)


def read_outputs(path):
    """{case index: (flags, elem bytes, raw bytes)} from an outputs file."""
    results = {}
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at + 32 <= len(data):
        case, flags, count, eb = struct.unpack_from("<qqqq", data, at)
        at += 32
        raw = data[at:at + count * eb]
        at += count * eb
        results[case] = (flags, eb, raw)
    return results
