#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Whole model functions (bench/models/*.mlir) counted under qemu with mips-bench's
# instruction-count plugin, one thread, at several VLENs, side by side in one run:
# mips-compile (libmips calls, polynomial math), mips-compile --mips-precise-math
# (libm per element), and an upstream-only pipeline (mlir-opt to loops, then clang -O3
# with +v). Prints the busiest count (max of scalar instructions and vector cost) and,
# where the program multiplies, eff = ideal / busiest with ideal = MACs / (VLEN/32), and
# the share of the busiest count that stays when libmips does no work (outside libmips).
#
# usage: bench/models.sh [build dir (default build)] [VLENs (default "128 256 1024")]
#                        [functions (default all), e.g. "gelu softmax"]
# MIPS_FLAGS adds mips-compile flags to the mips column (e.g. --mips-any-order).
# THREADS="1 2 4 8" counts the mips column instead on each of those thread counts
# (MIPS_NUM_THREADS; each guest thread a vCPU to the plugin) and prints, per model, the
# busiest thread, the speedup over the first count and par_eff = ideal / (T * busiest).
# Each program calls its model once before the counted call, as a model runs many
# times: the first call of a process also binds libmips's symbols (lazily, through the
# dynamic loader) and fills its dispatch table, and with --mips-pack-constant-weights
# packs the weights. WARM_UP=0 counts the first call instead.
# The <net>_224 rows (issue 42's networks at 224x224, frozen, default options) are counted
# only when named in the third argument: each is about 50 times a 32x32 row. Their
# multiply-adds come from the generator's header line ("auto").
# The <net>_frozen rows are the torchvision networks with constant weights, as a frozen
# model exports them (written here by torchvision_nets.py --weights constants), compiled
# with --mips-pack-constant-weights; the <net>_frozen_default rows the same with the
# default options (narrow products' weights transposed at compile time).
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup models.sh "${1:-}" libmips.so.1
libmips=$libmips_dir
vlens=${2:-128 256 1024}
only=${3:-}
cc=(clang-22 --target=riscv64-linux-gnu -fuse-ld=lld -march=rv64gcv)

# The upstream-only lowering (the e2e tests' and difftest's reference), then LLVM -O3
# for rv64gcv.
upstream_object() { # <model.mlir> <out.o>
  "$root/tests/e2e/upstream_object.sh" "$1" - "$2" clang-22 --target=riscv64-linux-gnu \
    -march=rv64gcv -O3
}

# A libmips that does no work, for the share of the count outside libmips.
mkdir -p "$work/null"
"${cc[@]}" -O2 -shared -fPIC -Wl,-soname,libmips.so.1 -Wl,--version-script="$root/abi/libmips.map" \
  -Wl,--undefined-version "$root/bench/models/null_provider.c" -o "$work/null/libmips.so.1"

# count <program> <vlen> <shapes...>: the busiest count of the model call
# (LIBMIPS_DIR: the libmips.so.1 to run it with; COUNT_THREADS: its threads, default 1).
count() {
  local program=$1 vlen=$2
  shift 2
  MIPS_NUM_THREADS=${COUNT_THREADS:-1} COUNT_MODEL_WARM_UP=${WARM_UP:-1} LD_LIBRARY_PATH=${LIBMIPS_DIR:-$libmips} qemu-riscv64 -L /usr/riscv64-linux-gnu \
    -cpu "rv64,v=true,vext_spec=v1.0,vlen=$vlen" -d plugin -D "$work/counts.log" \
    -plugin "$plugin,vlen=$vlen" "$program" "$@" >/dev/null
  sed -nE 's/.*region=1 .*busiest=([0-9]+).*/\1/p' "$work/counts.log"
}

# model <file> <function> <MACs or elements:N> <shapes...>
models=(
  "convolutions conv3x3 4718592 1x34x34x16 3x3x16x32"
  "convolutions relu_conv3x3 4718592 1x34x34x16 3x3x16x32"
  "convolutions conv1x1 1048576 1x16x16x64 1x1x64x64"
  "convolutions conv3x3s2 1179648 1x34x34x16 3x3x16x32"
  "convolutions nchw3x3s2 110592 2x8x17x17 12x8x3x3"
  "convolutions nchw3x3 9437184 1x64x18x18 64x64x3x3"
  "convolutions depthwise3x3 884736 1x34x34x96 3x3x96"
  "convolutions relu_depthwise3x3 884736 1x34x34x96 3x3x96"
  "convolutions depthwise3x3_nchw 884736 1x96x34x34 96x3x3"
  "transformer block 52428800 64x256 256x1024 256x1024 1024x256"
  "mlp mlp 16777216 64x256 256x512 512 512x256"
  "activations gelu elements:65536 64x1024"
  "activations softmax elements:16384 256x64"
  "activations softmax3d elements:16384 4x64x64"
  "resnet18 resnet18 37523456 1x3x32x32 11684712"
  "squeezenet squeezenet 3502784 1x3x32x32 1235496"
  "squeezenet64 squeezenet64 21584576 1x3x64x64 1235496"
  "mobilenetv2 mobilenetv2 7392128 1x3x32x32 3487816"
  "frozen:resnet18 resnet18_frozen 37523456 1x3x32x32"
  "frozen:squeezenet squeezenet_frozen 3502784 1x3x32x32"
  "frozen:mobilenetv2 mobilenetv2_frozen 7392128 1x3x32x32"
  "frozen-default:resnet18 resnet18_frozen_default 37523456 1x3x32x32"
  "frozen-default:squeezenet squeezenet_frozen_default 3502784 1x3x32x32"
  "frozen-default:mobilenetv2 mobilenetv2_frozen_default 7392128 1x3x32x32"
  "decode decode 1048576 1x1024"
  "frozen-default:resnet18@224 resnet18_224 auto 1x3x224x224"
  "frozen-default:squeezenet@224 squeezenet_224 auto 1x3x224x224"
  "frozen-default:mobilenetv2@224 mobilenetv2_224 auto 1x3x224x224"
)
# Whether a model entry is counted: named in the third argument, or, without one, any
# but the 224x224 rows.
selected() { # <file> <fn>
  if [ -n "$only" ]; then [[ " $only " == *" $2 "* ]]; else [[ $1 != *@* ]]; fi
}

# The source of a model entry's program, in $src (flags for mips-compile in $flags); an
# "auto" work count becomes the generator's multiply-adds.
model_source() { # <file> <fn>
  src=$root/bench/models/$1.mlir
  flags=()
  if [[ $1 == frozen:* || $1 == frozen-default:* ]]; then
    local net=${1#*:} size=32
    if [[ $net == *@* ]]; then size=${net#*@} net=${net%@*}; fi
    src=$work/$2.mlir
    python3 "$root/bench/models/torchvision_nets.py" "$net" --size "$size" --weights constants \
      --name "$2" >"$src" 2>"$work/generator.log" || { cat "$work/generator.log" >&2; exit 1; }
    if [[ $1 == frozen:* ]]; then flags=(--mips-pack-constant-weights); fi
  fi
  if [ "$work_count" = auto ]; then
    work_count=$(sed -nE '2s/.* ([0-9]+) multiply-adds.*/\1/p' "$src")
  fi
}

link_program() { # <object> <program> <fn>
  "${cc[@]}" -O2 -DMODEL_FN="$3" "$root/bench/models/count_model.c" "$1" \
    -L"$libmips" -lmips -Wl,-rpath,"$libmips" -lm -o "$2"
}

if [ -n "${THREADS:-}" ]; then
  printf '%-26s %5s %7s | %12s %8s %8s\n' model VLEN threads busiest speedup par_eff
  for entry in "${models[@]}"; do
    read -r file fn work_count shapes <<<"$entry"
    selected "$file" "$fn" || continue
    [[ $work_count == elements:* ]] && continue   # no multiply-adds: no par_eff
    model_source "$file" "$fn"
    "$compile" "$src" --target=riscv64 --static-embedding "${flags[@]}" ${MIPS_FLAGS:-} -o "$work/mips.o"
    link_program "$work/mips.o" "$work/mips" "$fn"
    for vlen in $vlens; do
      first=
      for t in $THREADS; do
        # shellcheck disable=SC2086
        b=$(COUNT_THREADS=$t count "$work/mips" "$vlen" $shapes)
        first=${first:-$b}
        printf '%-26s %5s %7s | %12d %7.2fx %8.3f\n' "$fn" "$vlen" "$t" "$b" \
          "$(bc -l <<<"$first / $b")" "$(bc -l <<<"$work_count / ($vlen / 32) / ($t * $b)")"
      done
    done
  done
  exit 0
fi

printf '%-18s %5s | %12s %6s %8s | %12s | %12s %6s | %s\n' model VLEN mips eff outside "precise math" upstream eff "upstream/mips"
for entry in "${models[@]}"; do
  read -r file fn work_count shapes <<<"$entry"
  selected "$file" "$fn" || continue
  model_source "$file" "$fn"
  for variant in mips precise upstream; do
    case $variant in
      mips) "$compile" "$src" --target=riscv64 --static-embedding "${flags[@]}" ${MIPS_FLAGS:-} -o "$work/$variant.o" ;;
      precise) "$compile" "$src" --target=riscv64 --static-embedding "${flags[@]}" --mips-precise-math -o "$work/$variant.o" ;;
      upstream) upstream_object "$src" "$work/$variant.o" ;;
    esac
    link_program "$work/$variant.o" "$work/$variant" "$fn"
  done
  for vlen in $vlens; do
    # shellcheck disable=SC2086
    m=$(count "$work/mips" "$vlen" $shapes)
    # shellcheck disable=SC2086
    p=$(count "$work/precise" "$vlen" $shapes)
    # shellcheck disable=SC2086
    u=$(count "$work/upstream" "$vlen" $shapes)
    if [[ $work_count == elements:* ]]; then
      n=${work_count#elements:}
      printf '%-18s %5s | %9.2f/el %6s %8s | %9.2f/el | %9.2f/el %6s | %.1fx\n' "$fn" "$vlen" \
        "$(bc -l <<<"$m / $n")" - - "$(bc -l <<<"$p / $n")" "$(bc -l <<<"$u / $n")" - "$(bc -l <<<"$u / $m")"
    else
      ideal=$(bc -l <<<"$work_count / ($vlen / 32)")
      # shellcheck disable=SC2086
      o=$(LIBMIPS_DIR=$work/null count "$work/mips" "$vlen" $shapes)
      printf '%-18s %5s | %12d %6.3f %7.1f%% | %12d | %12d %6.3f | %.1fx\n' "$fn" "$vlen" "$m" \
        "$(bc -l <<<"$ideal / $m")" "$(bc -l <<<"100 * $o / $m")" "$p" "$u" "$(bc -l <<<"$ideal / $u")" \
        "$(bc -l <<<"$u / $m")"
    fi
  done
done
