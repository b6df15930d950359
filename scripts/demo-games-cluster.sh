#!/usr/bin/env bash
# A match played by game workers through object storage (docs/SCALING.md, "Evaluation on many
# machines"), with one worker and the coordinator killed on the way. Sets up what it needs on a
# fresh machine: libtorch (scripts/env.sh), the binary (cargo build --release) and a real S3 server
# (s3s-fs, pinned, through scripts/s3-server.sh) with a bucket; then
#   1. plays the match on this machine: the reference;
#   2. starts the same match with `--run s3://fiveup-games-demo/match` (the coordinator) and workers
#      w1, w2, w3;
#   3. SIGKILLs w2 while it plays a pair, and later the coordinator, and starts the coordinator again
#      with the same command (it resumes from the store);
#   4. checks that every pair was counted exactly once (each Pair tag twice in the records, no
#      other), that w2's unfinished pair was played again by another worker, and that the summary
#      (results, Elo) and the records equal the reference's, thinking times aside.
# Exits 0 only when all of that holds.
#
#   scripts/demo-games-cluster.sh [--quick] [DIR]
# --quick: a shorter test (scripts/test-cluster.sh runs this). DIR: where the server's data, the
# caches and the logs go (default: a new temporary directory, removed on success).
# FIVEUP_BIN: the binary to use (default: build target/release/fiveup). NODES: the stronger player's
# nodes a move (default 60000, about 3 s a pair on this machine's release build; the other has a
# quarter): games must last long enough for a worker to be killed in the middle of one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
say() { printf '[games-demo %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
work=${1:-}
keep=1
if [ -z "$work" ]; then work=$(mktemp -d /tmp/fiveup-games-demo.XXXXXX); keep=0; fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

# shellcheck source=scripts/env.sh
source scripts/env.sh
if [ -n "${FIVEUP_BIN:-}" ]; then
  bin=$FIVEUP_BIN
else
  say "building the release binary"
  cargo build --release >&2
  bin=${CARGO_TARGET_DIR:-target}/release/fiveup
fi
[ -x "$bin" ] || fail "no binary at $bin"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

scripts/s3-server.sh install
pids=()
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  scripts/s3-server.sh stop "$work/s3" >/dev/null 2>&1 || true
  if [ "$rc" -eq 0 ] && [ "$keep" -eq 0 ]; then rm -rf "$work"; fi
  if [ "$rc" -ne 0 ]; then say "logs kept in $work (coord*.log, w*.log, s3/server.log)"; fi
}
trap cleanup EXIT
scripts/s3-server.sh start "$work/s3" >&2
scripts/s3-server.sh bucket "$work/s3" fiveup-games-demo >&2
# shellcheck disable=SC1091
source "$work/s3/env"
url=s3://fiveup-games-demo/match

if [ "$quick" -eq 1 ]; then games=16; else games=60; fi
# Fixed-node players: the games depend only on their openings, so any machine plays the same ones.
nodes=${NODES:-60000}
cmd=(match --white "ab:nodes=$nodes" --black "ab:nodes=$((nodes / 4))" --games "$games" --openings random:4 --seed 11
     --max-plies 160)
export RUST_LOG=info   # the checks below read the info lines

say "reference: fiveup ${cmd[*]} --concurrency 2"
"$bin" "${cmd[@]}" --concurrency 2 --out "$work/local.pgn" >"$work/local.out" 2>"$work/local.log" \
  || fail "the reference run failed (see $work/local.log)"
tail -1 "$work/local.out" >&2

say "coordinator: fiveup ${cmd[*]} --run $url --claim-ttl 5"
start_coordinator() {
  "$bin" "${cmd[@]}" --run "$url" --claim-ttl 5 --out "$work/dist.pgn" --force \
    >"$work/coord$1.out" 2>"$work/coord$1.log" &
  coord=$!; pids+=("$coord")
}
start_coordinator 1
for w in w1 w2 w3; do
  "$bin" games worker --run "$url" --name "$w" --cache "$work/cache-$w" >"$work/$w.out" 2>"$work/$w.log" &
  pids+=("$!"); eval "pid_$w=$!"
done
# shellcheck disable=SC2154
say "workers w1 (pid $pid_w1), w2 (pid $pid_w2), w3 (pid $pid_w3) started"

status_json() { "$bin" games status --run "$url" --json 2>/dev/null; }
# `results playing(w2)` from the store.
progress() {
  status_json | python3 -c '
import json, sys
s = json.load(sys.stdin)
w2 = [w for w in s["workers"] if w.get("name") == "w2"]
print(s["results"], len(w2[0]["playing"]) if w2 else 0, (w2[0]["playing"] or [""])[0] if w2 else "")'
}

# 1. w2 SIGKILLed while it holds a pair, once a few pairs are in.
w2_pair=""
for _ in $(seq 1 1200); do
  kill -0 "$coord" 2>/dev/null || break
  read -r results playing pair < <(progress 2>/dev/null || echo "0 0 -")
  if [ "$results" -ge 2 ] && [ "$playing" -ge 1 ]; then
    kill -9 "$pid_w2"; w2_pair=$pair
    say "SIGKILL w2 while it plays pair $pair ($results results in)"
    break
  fi
  sleep 0.2
done
[ -n "$w2_pair" ] || fail "w2 never played a pair after 2 results (see $work/w2.log)"

# 2. The coordinator SIGKILLed once more pairs are in, and started again.
for _ in $(seq 1 1200); do
  read -r results _ _ < <(progress 2>/dev/null || echo "0 0 -")
  [ "$results" -ge 4 ] && break
  kill -0 "$coord" 2>/dev/null || break
  sleep 0.2
done
kill -0 "$coord" 2>/dev/null || fail "the coordinator ended before it could be killed (see $work/coord1.log)"
kill -9 "$coord"
say "SIGKILL the coordinator ($results results in); starting it again with the same command"
start_coordinator 2
# Bounded: a coordinator left without workers would wait for ever.
for _ in $(seq 1 4500); do kill -0 "$coord" 2>/dev/null || break; sleep 0.2; done
if kill -9 "$coord" 2>/dev/null; then fail "the restarted coordinator did not finish within 15 minutes"; fi
if ! wait "$coord"; then fail "the restarted coordinator failed (tail: $(tail -3 "$work/coord2.log"))"; fi
grep -q "resuming" "$work/coord2.log" || fail "the restarted coordinator did not resume from the store"
for w in w1 w3; do
  p=pid_$w
  wait "${!p}" || fail "worker $w failed (see $work/$w.log)"
done
tail -1 "$work/coord2.out" >&2
"$bin" games status --run "$url" >&2

# 3. The checks.
if grep -q "pair $w2_pair: " "$work/w1.log" "$work/w3.log"; then
  say "w2's pair $w2_pair was played again by $(grep -l "pair $w2_pair: " "$work/w1.log" "$work/w3.log" | xargs -n1 basename)"
elif grep -q "pair $w2_pair: " "$work/w2.log"; then
  say "w2 finished pair $w2_pair in the instant before the kill; its result counted"
else
  fail "w2's pair $w2_pair was not played again by another worker"
fi
summary() { grep -v -e '^records:' -e '^per move:' "$1"; }
diff <(summary "$work/local.out") <(summary "$work/coord2.out") >&2 \
  || fail "the distributed match's summary differs from the reference's"
# The reference finished its games in any order (two at once): compare them by pair and colour.
diff <(python3 scripts/records-by-pair.py "$work/local.pgn") <(python3 scripts/records-by-pair.py "$work/dist.pgn") \
  >"$work/records.diff" || fail "the distributed records differ from the reference's (see $work/records.diff)"
python3 - "$work/dist.pgn" <<'EOF' || fail "a pair was counted more than once, or half"
import collections, re, sys
pairs = collections.Counter(re.findall(r'^\[Pair "(\d+)"\]', open(sys.argv[1]).read(), re.M))
bad = {p: n for p, n in pairs.items() if n != 2}
assert not bad, f"pairs not counted exactly twice (once per colour): {bad}"
assert sorted(int(p) for p in pairs) == list(range(len(pairs))), "a pair is missing"
print(f"{len(pairs)} pairs, {2 * len(pairs)} games, each pair counted once")
EOF
say "PASSED: every pair counted once; the summary and the records equal the one-machine run's"
