#!/usr/bin/env bash
# Throughput of self-play workers on object storage (docs/BENCHMARKS.md, "Object storage"):
#   - one worker vs two workers on the S3 server, each pinned to its own core (taskset), and the
#     same two workers on a local run directory (what the machine's two cores give without a store);
#   - one worker on the S3 server vs the same worker on a local run directory: the same worker
#     name and shard indices give the same seeds, so both play the same games (checked: the shards
#     are compared byte for byte), and only the storage differs; runs interleaved, REPS times;
#   - the remote trainer's CPU time per ingested shard (its process CPU while a worker uploads,
#     less its idle polling, measured over a window with no worker).
# Usage: scripts/bench-cluster.sh [GAMES_PER_RUN] [REPS]   (defaults 400 and 3)
# Needs a quiet machine with at least 2 cores. Prints a table; writes nothing outside a temp dir.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/env.sh
source scripts/env.sh
games=${1:-400}
reps=${2:-3}
bin=${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/release/fiveup}
[ -n "${FIVEUP_BIN:-}" ] || cargo build --release >&2
work=$(mktemp -d /tmp/fiveup-bench-cluster.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  scripts/s3-server.sh stop "$work/s3" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
scripts/s3-server.sh start "$work/s3" >&2
scripts/s3-server.sh bucket "$work/s3" bench >&2
# shellcheck disable=SC1091
source "$work/s3/env"
# The store server on core 1, as if it were elsewhere (in the two-worker runs it shares that core).
taskset -apc 1 "$S3_SERVER_PID" >/dev/null
url=s3://bench/run
sets=(--config configs/quick.toml --set generations=1 --set selfplay.games_per_generation=10000000
      --set selfplay.trainer_plays=false --set selfplay.worker_timeout_s=0 --set selfplay.concurrent_games=8 --set selfplay.games_per_shard=4
      --set selfplay.full_simulations=32 --set selfplay.cheap_simulations=16 --set selfplay.ply_cap=80)
# Trainers on core 1: they only wait (self-play is left to the workers).
taskset -c 1 "$bin" train --run "$url" --cache "$work/cache-trainer" "${sets[@]}" >/dev/null 2>"$work/trainer.log" &
remote_trainer=$!; pids+=("$remote_trainer")
taskset -c 1 "$bin" train --run "$work/local" "${sets[@]}" >/dev/null 2>"$work/trainer-local.log" &
pids+=("$!")
for _ in $(seq 1 100); do
  [ -f "$work/local/best" ] && "$bin" runs status --run "$url" 2>/dev/null | grep -q "best gen-0000" && break
  sleep 0.2
done
kill -0 "$remote_trainer" 2>/dev/null || { cat "$work/trainer.log" >&2; exit 1; }
cpu_s() { awk '{ print ($14 + $15) / 100 }' "/proc/$1/stat"; }
now() { date +%s.%N; }

# run_worker RUN CORE NAME [CACHE]: one worker playing $games games; prints its wall seconds.
run_worker() {
  local run=$1 core=$2 name=$3 cache=${4:-}
  local t0; t0=$(now)
  if [ -n "$cache" ]; then
    taskset -c "$core" "$bin" selfplay --run "$run" --cache "$cache" --worker "$name" --games "$games" >/dev/null 2>>"$work/$name.log"
  else
    taskset -c "$core" "$bin" selfplay --run "$run" --worker "$name" --games "$games" >/dev/null 2>>"$work/$name.log"
  fi
  echo "$(now) - $t0" | bc -l
}

# Idle polling cost of the remote trainer.
c0=$(cpu_s "$remote_trainer"); t0=$(now); sleep 30
idle=$(echo "($(cpu_s "$remote_trainer") - $c0) / ($(now) - $t0)" | bc -l)
printf 'remote trainer idle: %.4f CPU s per s\n' "$idle"

printf '%-4s %-28s %8s %10s\n' rep case seconds games/h
for r in $(seq 1 "$reps"); do
  wl=$(run_worker "$work/local" 0 same)
  printf '%-4s %-28s %8.1f %10.0f\n' "$r" "1 worker, local dir" "$wl" "$(echo "$games * 3600 / $wl" | bc -l)"
  c0=$(cpu_s "$remote_trainer")
  wr=$(run_worker "$url" 0 same "$work/cache-same")
  sleep 3 # the trainer ingests the last shards
  cpu=$(echo "$(cpu_s "$remote_trainer") - $c0 - $idle * ($wr + 3)" | bc -l)
  printf '%-4s %-28s %8.1f %10.0f   trainer %.1f ms CPU per shard ingested\n' "$r" "1 worker, object store" "$wr" \
    "$(echo "$games * 3600 / $wr" | bc -l)" "$(echo "$cpu * 1000 / ($games / 4)" | bc -l)"
  t0=$(now)
  run_worker "$work/local" 0 "la" >/dev/null &
  pa=$!
  run_worker "$work/local" 1 "lb" >/dev/null &
  pb=$!
  wait "$pa" "$pb"
  w2=$(echo "$(now) - $t0" | bc -l)
  printf '%-4s %-28s %8.1f %10.0f\n' "$r" "2 workers, local dir" "$w2" "$(echo "2 * $games * 3600 / $w2" | bc -l)"
  t0=$(now)
  run_worker "$url" 0 "a" "$work/cache-a" >/dev/null &
  pa=$!
  run_worker "$url" 1 "b" "$work/cache-b" >/dev/null &
  pb=$!
  wait "$pa" "$pb"
  w2=$(echo "$(now) - $t0" | bc -l)
  printf '%-4s %-28s %8.1f %10.0f\n' "$r" "2 workers, object store" "$w2" "$(echo "2 * $games * 3600 / $w2" | bc -l)"
done
# The same games: the local and the remote runs of worker "same" hold identical shards.
same=0 differ=0
for f in "$work"/local/shards/gen-0000/same-*.shard; do
  n=$(basename "$f")
  if cmp -s "$f" "$work/cache-trainer/shards/gen-0000/$n"; then same=$((same + 1)); else differ=$((differ + 1)); fi
done
echo "shards of worker 'same': $same identical in both runs, $differ different"
