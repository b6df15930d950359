#!/usr/bin/env bash
# What watching a tournament costs the tournament: plays the same node-limited tournament (fixed
# work, so its wall time measures only the machine) ROUNDS times without and with VIEWERS
# simultaneous viewers of its watch page, interleaved, with `fiveup serve` running in both.
# A viewer does what the page does: GET /api/runs/NAME/tournament every 2 s (the page's poll;
# rendering happens in the viewer's browser, not on the server). Prints one line per run and the
# tournament's and the server's CPU time, then the mean wall times. The machine must be otherwise
# quiet for the wall times to mean anything; the server's CPU time per request does not care.
#   scripts/bench-viewers.sh            # VIEWERS=20 ROUNDS=3 GAMES=60 by default
# Uses ${FIVEUP_BIN:-target/release/fiveup} (build it with `cargo build --release`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin=${FIVEUP_BIN:-target/release/fiveup}
viewers=${VIEWERS:-20}
rounds=${ROUNDS:-3}
games=${GAMES:-60}
[ -x "$bin" ] || { echo "bench-viewers: $bin is missing: cargo build --release" >&2; exit 1; }
# With two or more cores the tournament is pinned to core 0 and the server and viewers to core 1,
# so the comparison is of the server's work, not of the scheduler's.
pin_one="" pin_other=""
if command -v taskset > /dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_one="taskset -c 0" pin_other="taskset -c 1"
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

cpu_ms() { # utime + stime of a process, in ms
  awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$1/stat"
}

one_run() { # $1: label, $2: number of viewers
  local dir="$work/run-$1" port server start end cpu0 cpu1 reqs=0
  mkdir -p "$dir/t"
  : > "$dir/serve.out"
  $pin_other "$bin" serve --port 0 --runs "$dir/t" > "$dir/serve.out" 2> "$dir/serve.err" &
  server=$!
  pids+=("$server")
  for _ in $(seq 100); do grep -q listening "$dir/serve.out" && break; sleep 0.05; done
  port=$(sed -n 's|.*127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/serve.out")
  local vp=()
  for i in $(seq "$2"); do
    $pin_other bash -c "while :; do curl -s -o /dev/null http://127.0.0.1:$port/api/runs/t/tournament && echo >> '$dir/reqs'; sleep 2; done" &
    vp+=("$!")
    pids+=("$!")
  done
  cpu0=$(cpu_ms "$server")
  start=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$dir/time" $pin_one "$bin" tournament --players ab:nodes=4000 ab:depth=3 --games "$games" --concurrency 1 \
    --openings random:6 --seed 11 --max-plies 200 --out "$dir/t" > /dev/null 2>&1
  end=$(date +%s.%N)
  cpu1=$(cpu_ms "$server")
  for p in "${vp[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$dir/reqs" ] && reqs=$(wc -l < "$dir/reqs")
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  printf '%-12s viewers %2d  wall %7.2f s  tournament cpu %7.2f s  server cpu %5d ms  requests %d\n' \
    "$1" "$2" "$(echo "$end - $start" | bc)" "$(awk '{ print $1 + $2 }' "$dir/time")" "$((cpu1 - cpu0))" "$reqs"
}

for r in $(seq "$rounds"); do
  one_run "r$r-none" 0
  one_run "r$r-viewers" "$viewers"
done | tee "$work/log"
awk '{ k = ($3 == 0) ? "none" : "viewers"; s[k] += $5; c[k] += $9; n[k]++; if ($3 > 0) { ms += $13; rq += $16 } }
     END { printf "mean wall: none %.2f s, with viewers %.2f s (%+.1f%%); tournament cpu %.2f s vs %.2f s; server %.2f ms cpu per request\n",
           s["none"]/n["none"], s["viewers"]/n["viewers"], 100 * (s["viewers"]/n["viewers"] - s["none"]/n["none"]) / (s["none"]/n["none"]),
           c["none"]/n["none"], c["viewers"]/n["viewers"], (rq > 0) ? ms / rq : 0 }' "$work/log"
