#!/usr/bin/env bash
# Calibration study for `fiveup values`: how the logit per pawn β, and the precision it
# buys per CPU second, depend on the engine's node budget and the ply cap.
#
#   scripts/values-calibration.sh [RULESET] [PAIRS] [SETTINGS...]
#   scripts/values-calibration.sh fiveup 300 450:300 1700:300 3000:300 3000:600
#
# Each setting NODES:MAXPLIES plays the pawn-odds matches P, PP and PPPP (PAIRS colour-swapped
# pairs each) into $RUNS/values-cal-RULESET-NODES-MAXPLIES (RUNS defaults to runs; resumable: a
# rerun plays only what is missing), then prints one line per setting:
#   β ± 1.96 se, the CPU seconds per game (user+sys, summed over resumed invocations in
#   $out.cpu), the share of draws and of games stopped by the ply cap, and the figure of merit
#   (se(β)/β)² · CPU-s: the CPU seconds one unit of relative precision costs, smaller is better
#   (a piece value is a logit divided by β, so its interval scales with se(β)/β and 1/√games).
# Uses the release binary (built first if missing; FIVEUP_BIN names another) and CONCURRENCY
# games at once (default 2, both cores).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
RULESET=${1:-fiveup}
PAIRS=${2:-300}
shift $(($# < 2 ? $# : 2))
SETTINGS=("$@")
[ ${#SETTINGS[@]} -gt 0 ] || SETTINGS=(450:300 1700:300 3000:300 3000:600)
source scripts/env.sh
BIN=${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/release/fiveup}
RUNS=${RUNS:-runs}
CONCURRENCY=${CONCURRENCY:-2}
mkdir -p "$RUNS"
[ -x "$BIN" ] || cargo build --release --bin fiveup
printf '%-8s %-6s %-16s %-9s %-6s %-6s %s\n' nodes cap beta cpu/game draws capped merit
for s in "${SETTINGS[@]}"; do
  nodes=${s%%:*}
  cap=${s##*:}
  out=$RUNS/values-cal-$RULESET-$nodes-$cap
  /usr/bin/time -o "$out.cpu.new" -f '%U %S' "$BIN" values --ruleset "$RULESET" --method imbalance \
    --imbalances P,PP,PPPP --pairs "$PAIRS" --engine "ab:nodes=$nodes,hash=4" --max-plies "$cap" \
    --concurrency "$CONCURRENCY" --bootstrap 200 --out "$out" >"$out.log" 2>"$out.err"
  # $out.cpu accumulates the CPU seconds of every (resumed) invocation.
  prev=$(cat "$out.cpu" 2>/dev/null || echo 0 0)
  awk -v p="$prev" '{ split(p, a, " "); printf "%.2f %.2f\n", a[1] + $1, a[2] + $2 }' <(tail -n 1 "$out.cpu.new") >"$out.cpu"
  rm -f "$out.cpu.new"
  python3 - "$out" "$(cat "$out.cpu")" <<'PY'
import json, sys
out, cpu = sys.argv[1], sys.argv[2].split()
rep = json.load(open(f"{out}/values.json"))
imb = rep["imbalance"]
beta, se = imb["beta"], imb["beta_se"]
games = [json.loads(l) for l in open(f"{out}/iter-0/games.jsonl")]
n = len(games)
cpu_s = sum(map(float, cpu)) if len(cpu) == 2 else float("nan")
per = cpu_s / n if n else float("nan")
draws = sum(g["result"] == "1/2-1/2" for g in games) / n
capped = sum(g["rule"] == "adjudication" for g in games) / n
merit = (se / beta) ** 2 * cpu_s if beta > 0 else float("inf")
nodes, cap = out.rsplit("-", 2)[-2:]
print(f"{nodes:<8} {cap:<6} {beta:.3f} ± {1.96*se:.3f}    {per:<9.3f} {draws:<6.2f} {capped:<6.2f} {merit:.1f}")
PY
done
