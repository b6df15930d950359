#!/usr/bin/env bash
# Training on object storage, checked through the CLI against a real S3 server (s3s-fs, installed
# and started by scripts/s3-server.sh), plus the offline validation of deploy/ (scripts/check-deploy.sh):
#   - scripts/demo-cluster.sh --quick: a trainer and two workers, one SIGKILLed mid-generation;
#   - every fault of docs/SCALING.md: unreachable endpoint, wrong credentials, missing bucket, a
#     prefix holding something else, a different config, a cache of another run, a bad worker name,
#     a second trainer, a trainer killed and restarted (its lease expires), the server going down in
#     the middle of uploads, a corrupt shard in the bucket;
#   - evaluation games on workers: scripts/demo-games-cluster.sh --quick (a coordinator and three
#     workers, one worker and the coordinator killed) and the faults of docs/SCALING.md's
#     evaluation table: unreachable endpoint, wrong credentials, a training run's prefix, a second
#     coordinator, another command on the prefix, a damaged network on the store.
# The binary: ${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/debug/fiveup} (built when missing).
# Ends with one line "cluster: N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/env.sh
source scripts/env.sh
say() { printf '[cluster %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

bin=${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/debug/fiveup}
if [ ! -x "$bin" ]; then
  say "building $bin"
  cargo build >&2 || exit 1
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$(mktemp -d /tmp/fiveup-cluster.XXXXXX)
pass=0 fail=0
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  scripts/s3-server.sh stop "$work/s3" >/dev/null 2>&1 || true
  if [ "$fail" -eq 0 ]; then rm -rf "$work"; else say "logs kept in $work"; fi
}
trap cleanup EXIT
check() {
  local name=$1; shift
  if "$@"; then
    pass=$((pass + 1)); say "ok: $name"
  else
    fail=$((fail + 1)); say "FAILED: $name"
  fi
}

# 1. deploy/ validated offline.
say "scripts/check-deploy.sh"
line=$(scripts/check-deploy.sh 2>&1 | tee "$work/deploy.log" | grep -E '^deploy: [0-9]+ passed, [0-9]+ failed$' | tail -1)
if [ -n "$line" ]; then
  read -r p f < <(echo "$line" | sed -E 's/deploy: ([0-9]+) passed, ([0-9]+) failed/\1 \2/')
  pass=$((pass + p)); fail=$((fail + f)); say "$line"
else
  fail=$((fail + 1)); say "FAILED: check-deploy.sh printed no result line (see $work/deploy.log)"
fi

# 2. The demo, quick.
check "demo-cluster.sh --quick" env FIVEUP_BIN="$bin" scripts/demo-cluster.sh --quick "$work/demo"

# 3. Faults, against one server.
scripts/s3-server.sh install
scripts/s3-server.sh start "$work/s3" >&2 || exit 1
scripts/s3-server.sh bucket "$work/s3" fiveup-test >&2 || exit 1
# shellcheck disable=SC1091
source "$work/s3/env"
port=${AWS_ENDPOINT##*:}
b=s3://fiveup-test
quick=(--config configs/quick.toml --set selfplay.concurrent_games=4 --set selfplay.full_simulations=8)

# fails NAME TEXT CMD...: the command exits non-zero within 20 s and its last line contains TEXT.
fails() {
  local name=$1 text=$2; shift 2
  local t0=$SECONDS out rc
  out=$(timeout 60 "$@" 2>&1); rc=$?
  echo "$out" >"$work/$name.log"
  local last; last=$(echo "$out" | tail -1)
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [[ "$last" == *"$text"* ]] && [ $((SECONDS - t0)) -le 20 ]; then
    say "  $last"
    return 0
  fi
  say "  rc $rc after $((SECONDS - t0)) s, last line: $last (wanted: $text)"
  return 1
}
check "unreachable endpoint" fails unreachable "cannot reach the store" \
  env AWS_ENDPOINT=http://127.0.0.1:1 "$bin" train --run "$b/r1" --cache "$work/c-r1" "${quick[@]}"
check "wrong credentials" fails creds "access denied" \
  env AWS_SECRET_ACCESS_KEY=wrong "$bin" selfplay --run "$b/r1" --cache "$work/c-r1w" --worker w1
check "missing bucket" fails bucket "the bucket does not exist" \
  "$bin" train --run s3://no-such-bucket/r1 --cache "$work/c-nb" "${quick[@]}"
curl -sf --aws-sigv4 "aws:amz:$AWS_REGION:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
  -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -X PUT --data-binary "not a run" "$AWS_ENDPOINT/fiveup-test/other/notes.txt" >/dev/null
check "a prefix holding something else" fails foreign "no fiveup run" \
  "$bin" train --run "$b/other" --cache "$work/c-other" "${quick[@]}"
"$bin" train --run "$b/r2" --cache "$work/c-r2" "${quick[@]}" --set generations=0 >/dev/null 2>&1
check "a different config" fails config "differs from the given config" \
  "$bin" train --run "$b/r2" --cache "$work/c-r2b" "${quick[@]}" --set generations=0 --set training.lr=0.5
check "a cache of another run" fails cache "this cache belongs to $b/r2" \
  "$bin" train --run "$b/r3" --cache "$work/c-r2" "${quick[@]}"
check "a bad worker name" fails name "worker name" \
  "$bin" selfplay --run "$b/r2" --cache "$work/c-bad" --worker "a/b"

# A second trainer, then the first killed and the run resumed after its lease expires.
export FIVEUP_LEASE_TTL_S=3
long=("${quick[@]}" --set selfplay.games_per_generation=100000)
"$bin" train --run "$b/r4" --cache "$work/c-r4" "${long[@]}" >/dev/null 2>"$work/r4-first.log" &
first=$!; pids+=("$first")
for _ in $(seq 1 100); do
  "$bin" runs status --run "$b/r4" 2>/dev/null | grep -q "phase selfplay" && break
  sleep 0.2
done
check "a second trainer" fails second "another trainer is running" \
  "$bin" train --run "$b/r4" --cache "$work/c-r4b" "${long[@]}"
kill -9 "$first"
restarted() {
  # The same run, told to stop after generation 0: it waits out the dead trainer's lease.
  "$bin" train --run "$b/r4" --cache "$work/c-r4" "${long[@]}" --set generations=0 >/dev/null 2>"$work/r4-restart.log" &&
    grep -q "waiting .* for it to expire" "$work/r4-restart.log" &&
    grep -q "took over the expired lease" "$work/r4-restart.log" &&
    "$bin" runs status --run "$b/r4" --verify | grep -q "phase finished"
}
check "a trainer killed and restarted" restarted
# SIGTERM (a cluster stopping the pod): a stop at the next safe point that releases the lease, so
# the next trainer starts at once (no wait for an expiry).
terminated() {
  "$bin" train --run "$b/r4" --cache "$work/c-r4" "${long[@]}" --set generations=1 >/dev/null 2>"$work/r4-term.log" &
  local t=$!
  for _ in $(seq 1 100); do
    grep -q "self-play" "$work/r4-term.log" && break
    sleep 0.2
  done
  kill -TERM "$t"
  local rc=0
  wait "$t" || rc=$?
  [ "$rc" -ne 0 ] && grep -q "stopping at the next safe point" "$work/r4-term.log" || return 1
  "$bin" train --run "$b/r4" --cache "$work/c-r4" "${long[@]}" --set generations=0 >/dev/null 2>"$work/r4-after.log" &&
    ! grep -q "waiting .* for it to expire" "$work/r4-after.log"
}
check "a trainer stopped by SIGTERM releases its lease" terminated
unset FIVEUP_LEASE_TTL_S

# The server down in the middle of uploads: the worker and the trainer retry and carry on.
outage() {
  "$bin" train --run "$b/r5" --cache "$work/c-r5" "${quick[@]}" --set generations=1 \
    --set selfplay.games_per_generation=40 --set selfplay.trainer_plays=false >/dev/null 2>"$work/r5-trainer.log" &
  local t=$!; pids+=("$t")
  "$bin" selfplay --run "$b/r5" --cache "$work/c-r5w" --worker w5 >/dev/null 2>"$work/r5-worker.log" &
  local w=$!; pids+=("$w")
  for _ in $(seq 1 300); do
    "$bin" runs status --run "$b/r5" 2>/dev/null | grep -qE "w5 ([4-9]|[1-9][0-9])" && break
    sleep 0.2
  done
  scripts/s3-server.sh stop "$work/s3" >/dev/null
  sleep 4
  scripts/s3-server.sh start "$work/s3" "$port" >/dev/null || return 1
  wait "$t" && wait "$w" &&
    grep -q "retrying in" "$work/r5-worker.log" &&
    "$bin" runs status --run "$b/r5" --verify >"$work/r5-status.txt" &&
    grep -q "all valid" "$work/r5-status.txt"
}
check "the server down mid-upload" outage

# A corrupt shard in the bucket: refused (not counted), reported by verify.
corrupt() {
  "$bin" train --run "$b/r6" --cache "$work/c-r6" "${quick[@]}" --set generations=0 >/dev/null 2>&1 || return 1
  head -c 300 /dev/urandom >"$work/evil.shard"
  curl -sf --aws-sigv4 "aws:amz:$AWS_REGION:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -X PUT --data-binary @"$work/evil.shard" \
    "$AWS_ENDPOINT/fiveup-test/r6/shards/gen-0000/evil-000000.shard" >/dev/null || return 1
  "$bin" train --run "$b/r6" --cache "$work/c-r6" "${quick[@]}" --set generations=1 >/dev/null 2>"$work/r6.log" &&
    grep -q "evil-000000.shard: refused, not counted" "$work/r6.log" &&
    ! "$bin" runs status --run "$b/r6" --verify >"$work/r6-status.txt" 2>&1 &&
    grep -q "evil-000000.shard: not a fiveup shard" "$work/r6-status.txt" &&
    ! grep -q "counted shard evil" "$work/r6-status.txt"
}
check "a corrupt shard in the bucket" corrupt

# Evaluation games on workers.
# The debug binary searches some twenty times slower than the release build the demo is sized for.
check "demo-games-cluster.sh --quick" env FIVEUP_BIN="$bin" NODES=3000 scripts/demo-games-cluster.sh --quick "$work/games-demo"
ev=(match --white ab:depth=1 --black ab:depth=1 --games 2 --openings random:2)
check "games: unreachable endpoint" fails g-unreach "cannot reach the store" \
  env AWS_ENDPOINT=http://127.0.0.1:1 "$bin" "${ev[@]}" --run "$b/e1"
check "games: wrong credentials" fails g-creds "access denied" \
  env AWS_SECRET_ACCESS_KEY=wrong "$bin" "${ev[@]}" --run "$b/e1"
check "games: a worker with wrong credentials" fails g-wcreds "access denied" \
  env AWS_SECRET_ACCESS_KEY=wrong "$bin" games worker --run "$b/e1" --name w1
check "games: a training run's prefix" fails g-train "holds a training run" "$bin" "${ev[@]}" --run "$b/r2"
check "games: a worker on a training run" fails g-wtrain "holds a training run" \
  "$bin" games worker --run "$b/r2" --name w1
# A coordinator with no worker waits; a second one on its prefix is refused, and so is another
# command on it once the first is gone.
"$bin" "${ev[@]}" --run "$b/e3" >/dev/null 2>"$work/e3.log" &
first=$!; pids+=("$first")
for _ in $(seq 1 100); do
  "$bin" games status --run "$b/e3" >/dev/null 2>&1 && break
  sleep 0.2
done
check "games: a second coordinator" fails g-second "another coordinator is running" "$bin" "${ev[@]}" --run "$b/e3"
kill -9 "$first"
check "games: another command on an evaluation's prefix" fails g-cmd "holds another evaluation" \
  "$bin" "${ev[@]}" --seed 9 --run "$b/e3"
# A network whose copy on the store is damaged: the worker says so, the coordinator stops.
damaged() {
  "$bin" match --white mcts:net=nets/fiveup-az,sims=8 --black ab:depth=1 --games 2 --run "$b/e4" \
    >/dev/null 2>"$work/e4-coord.log" &
  local c=$!; pids+=("$c")
  local obj=""
  for _ in $(seq 1 100); do
    obj=$(cd "$work/s3/data/fiveup-test" 2>/dev/null && find e4/files -name weights.safetensors 2>/dev/null | head -1)
    [ -n "$obj" ] && break
    sleep 0.2
  done
  [ -n "$obj" ] || return 1
  curl -sf --aws-sigv4 "aws:amz:$AWS_REGION:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -X PUT --data-binary "not a network" \
    "$AWS_ENDPOINT/fiveup-test/$obj" >/dev/null || return 1
  timeout 60 "$bin" games worker --run "$b/e4" --name w4 --cache "$work/c-e4" >/dev/null 2>"$work/e4-worker.log"
  local wrc=$? crc=0
  for _ in $(seq 1 150); do kill -0 "$c" 2>/dev/null || break; sleep 0.2; done
  kill -9 "$c" 2>/dev/null && return 1
  wait "$c" || crc=$?
  [ "$wrc" -eq 0 ] && [ "$crc" -ne 0 ] &&
    grep -q "does not match its checksum" "$work/e4-worker.log" &&
    tail -1 "$work/e4-coord.log" | grep -q "error: worker w4 cannot play pair"
}
check "games: a damaged network on the store" damaged

echo "cluster: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
