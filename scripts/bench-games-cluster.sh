#!/usr/bin/env bash
# Throughput of game workers on object storage (docs/SCALING.md, "Evaluation on many machines"):
#   - the same match (fixed-node players, so the same games everywhere) played on this machine
#     (`--concurrency 1` pinned to core 0, `--concurrency 2` on both cores) and by 1, 2 and 3
#     workers through the S3 server, worker i pinned to core i mod 2 (a third worker shares a core);
#     games per hour from the wall time of each run, the coordinator's start to its end;
#   - the store's overhead per game: one worker on core 0 against `--concurrency 1` on core 0,
#     the same games, runs interleaved REPS times;
#   - an SPRT played here (`--concurrency 1`) and by two workers from the same seeds: the same
#     decision after the same pairs (their outputs compared line by line).
# Usage: scripts/bench-games-cluster.sh [GAMES] [REPS]   (defaults 40 and 2)
# Needs a quiet machine with at least 2 cores. Prints a table; writes nothing outside a temp dir.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/env.sh
source scripts/env.sh
games=${1:-40}
reps=${2:-2}
bin=${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/release/fiveup}
[ -n "${FIVEUP_BIN:-}" ] || cargo build --release >&2
work=$(mktemp -d /tmp/fiveup-bench-games.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  scripts/s3-server.sh stop "$work/s3" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
scripts/s3-server.sh install >&2
scripts/s3-server.sh start "$work/s3" >&2
scripts/s3-server.sh bucket "$work/s3" bench >&2
# shellcheck disable=SC1091
source "$work/s3/env"
cmd=(match --white ab:nodes=60000 --black ab:nodes=15000 --games "$games" --openings random:4 --seed 3 --max-plies 160)

# local CONCURRENCY CPUS: wall seconds of the match played here.
local_run() {
  local t0 t1
  t0=$(date +%s.%N)
  taskset -c "$2" "$bin" "${cmd[@]}" --concurrency "$1" >/dev/null 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}
# remote WORKERS NAME: wall seconds of the match played by that many workers through the store
# under prefix NAME (a new one each time: the same prefix would resume the finished match).
remote_run() {
  local n=$2 url=s3://bench/$2 t0 t1 c w
  t0=$(date +%s.%N)
  "$bin" "${cmd[@]}" --run "$url" >/dev/null 2>"$work/coord-$n.log" &
  c=$!; pids+=("$c")
  local ws=()
  for ((i = 0; i < $1; i++)); do
    taskset -c $((i % 2)) "$bin" games worker --run "$url" --name "w$i" --cache "$work/cache" \
      >/dev/null 2>"$work/w$n-$i.log" &
    ws+=("$!"); pids+=("$!")
  done
  wait "$c"
  t1=$(date +%s.%N)
  for w in "${ws[@]}"; do wait "$w"; done
  echo "$t1 - $t0" | bc
}
per_hour() { echo "scale=0; $games * 3600 / $1" | bc; }

echo "games per run: $games (ab:nodes=60000 vs ab:nodes=15000, random 4-ply openings, cap 160 plies)"
printf '%-34s %10s %12s\n' "setting" "wall s" "games/hour"
declare -a l1 r1
for ((k = 0; k < reps; k++)); do
  a=$(local_run 1 0); l1+=("$a")
  b=$(remote_run 1 "one-$k"); r1+=("$b")
  printf '%-34s %10.1f %12s\n' "here, --concurrency 1 (core 0)" "$a" "$(per_hour "$a")"
  printf '%-34s %10.1f %12s\n' "1 worker via S3 (core 0)" "$b" "$(per_hour "$b")"
done
a=$(local_run 2 0,1)
printf '%-34s %10.1f %12s\n' "here, --concurrency 2 (cores 0,1)" "$a" "$(per_hour "$a")"
for w in 2 3; do
  b=$(remote_run "$w" "many-$w")
  printf '%-34s %10.1f %12s\n' "$w workers via S3 (cores 0,1)" "$b" "$(per_hour "$b")"
done
sum_l=0 sum_r=0
for ((k = 0; k < reps; k++)); do
  sum_l=$(echo "$sum_l + ${l1[$k]}" | bc); sum_r=$(echo "$sum_r + ${r1[$k]}" | bc)
done
echo "store overhead per game (1 worker vs --concurrency 1, mean of $reps): $(echo "scale=3; ($sum_r - $sum_l) / ($reps * $games)" | bc) s"

# The same SPRT here and on two workers.
sprt=(sprt --a ab:nodes=20000 --b ab:nodes=5000 --elo0 0 --elo1 100 --max-games 400 --openings random:4 --seed 5 --max-plies 160)
"$bin" "${sprt[@]}" --concurrency 1 >"$work/sprt-local.out" 2>/dev/null
"$bin" "${sprt[@]}" --run s3://bench/sprt >"$work/sprt-dist.out" 2>"$work/sprt-coord.log" &
c=$!; pids+=("$c")
for i in 0 1; do
  taskset -c "$i" "$bin" games worker --run s3://bench/sprt --name "s$i" --cache "$work/cache" >/dev/null 2>&1 &
  pids+=("$!")
done
wait "$c"
if diff <(grep -v '^SPRT' "$work/sprt-local.out") <(grep -v '^SPRT' "$work/sprt-dist.out") >/dev/null; then
  echo "SPRT here and on 2 workers: identical ($(grep -c '^pairs' "$work/sprt-local.out") pairs; $(tail -1 "$work/sprt-local.out"))"
else
  echo "SPRT here and on 2 workers: DIFFERENT"; diff "$work/sprt-local.out" "$work/sprt-dist.out" || true
  exit 1
fi
