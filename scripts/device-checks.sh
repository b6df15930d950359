#!/usr/bin/env bash
# shellcheck disable=SC2129 # one redirect per step keeps the log readable as it grows
# The GPU checks in one call, on a GPU machine that has PyTorch (its libtorch) but no
# network: the binary comes from scripts/build-cuda-for.sh, carried in .gpu/. Writes everything
# to $OUT (default .gpu/out): device.log (machine, libraries, `bench nn` up to batch 4,096 on the
# GPU and the CPU, `bench selfplay`), train.log and metrics.jsonl of a `configs/gpu.toml` run
# stopped at the deadline (it resumes with the same command). Exits early (3: a library is
# missing, 4: `bench nn` failed, 5: it ran without CUDA) so that a broken build costs seconds.
#
#   BUDGET=540 TRAIN_SET="--set bootstrap.games=3000" bash scripts/device-checks.sh
#
# BUDGET: seconds from the start to the end of everything (default 540); TRAIN_SET: extra
# arguments to `fiveup train` (e.g. a smaller distillation to reach self-play within the budget).
# BASE: a second CUDA binary (e.g. .gpu/fiveup-base, built from an earlier commit) to compare
# with: `bench nn` and `bench selfplay` then run for both, interleaved (base, new, base, new),
# into ab.log, after the first `bench nn` (a BASE that is not a file stops the script).
set -u
T0=$(date +%s)
DEADLINE=$((T0 + ${BUDGET:-540}))
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/.gpu/out}
mkdir -p "$OUT"
B=$ROOT/.gpu/fiveup
[ -f "$B" ] || { echo "device-checks.sh: no $B (build it with scripts/build-cuda-for.sh)"; exit 2; }
chmod +x "$B"
TL=${TORCH_LIB:-$(python3 -c 'import torch,os;print(os.path.join(os.path.dirname(torch.__file__),"lib"))')}
export LD_LIBRARY_PATH=$TL RUST_LOG=${RUST_LOG:-info}
left() { echo $((DEADLINE - $(date +%s))); }
log=$OUT/device.log
{
  echo "== machine"
  nvidia-smi -L
  lscpu | grep -E "Model name|^CPU\(s\)"
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.git_version)'
  ldd "$B" | grep -E "libtorch|libcudart|not found"
} >"$log" 2>&1
if ldd "$B" | grep -q "not found"; then echo "device-checks.sh: missing libraries"; cat "$log"; exit 3; fi
echo "== bench nn, default self-play net" >>"$log"
timeout 60 "$B" bench nn --batches 1,64,256,1024,4096 --seconds 1 >>"$log" 2>&1 ||
  { echo "device-checks.sh: bench nn failed"; cat "$log"; exit 4; }
grep -q "Cuda" "$log" || { echo "device-checks.sh: bench nn ran without CUDA"; cat "$log"; exit 5; }
if [ -n "${BASE:-}" ]; then
  [ -f "$BASE" ] || { echo "device-checks.sh: BASE=$BASE is not a file"; exit 2; }
  chmod +x "$BASE"
  ab=$OUT/ab.log
  for round in 1 2; do
    for who in base new; do
      bin=$B
      [ "$who" = base ] && bin=$BASE
      echo "== round $round, $who: bench nn (4x32)" >>"$ab"
      timeout 60 "$bin" bench nn --batches 64,256,1024,4096 --seconds 1 >>"$ab" 2>&1
      echo "== round $round, $who: bench selfplay --sims 32 --games 64 --concurrent 64" >>"$ab"
      timeout 60 "$bin" bench selfplay --sims 32 --games 64 --concurrent 64 --ply-cap 120 >>"$ab" 2>&1
    done
  done
fi
echo "== bench nn, configs/gpu.toml's net (6x64)" >>"$log"
timeout 60 "$B" bench nn --blocks 6 --channels 64 --batches 1,64,256,1024,4096 --seconds 1 >>"$log" 2>&1
echo "== bench nn, 6x64 on the CPU cores" >>"$log"
timeout 30 "$B" bench nn --cpu --blocks 6 --channels 64 --batches 64,256 --seconds 1 >>"$log" 2>&1
echo "== bench selfplay (the CPU table's runs, docs/BENCHMARKS.md)" >>"$log"
timeout 60 "$B" bench selfplay --sims 32 --games 64 --concurrent 64 --ply-cap 120 >>"$log" 2>&1
timeout 60 "$B" bench selfplay --sims 128 --games 32 --concurrent 32 --ply-cap 120 >>"$log" 2>&1
# The run stops at the deadline: TERM asks for a stop at the next safe point (the end of the
# generation's self-play can be minutes away), KILL follows 10 s later; either way nothing
# written is lost and the same command resumes.
budget=$(($(left) - 25))
echo "== train configs/gpu.toml for ${budget} s" >>"$log"
if [ "$budget" -gt 30 ]; then
  # shellcheck disable=SC2086
  timeout -s TERM -k 10 "$budget" "$B" train --config "$ROOT/configs/gpu.toml" --run "$ROOT/runs/gpu" ${TRAIN_SET:-} \
    >"$OUT/train.log" 2>&1
  echo "train exit status $?" >>"$log"
  cp "$ROOT/runs/gpu/metrics.jsonl" "$OUT/" 2>/dev/null
  cp "$ROOT/runs/gpu/plots/progress.png" "$OUT/" 2>/dev/null
fi
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv >>"$log" 2>&1
tail -c 8000 "$log"
