#!/usr/bin/env bash
# A training run on object storage with a trainer and two workers, one of them killed mid-generation
# (docs/SCALING.md). Sets up what it needs on a fresh machine: libtorch (scripts/env.sh), the binary
# (cargo build --release), and a real S3 server (s3s-fs, pinned, through scripts/s3-server.sh) with a
# bucket; then
#   1. starts `fiveup train --run s3://fiveup-demo/run` on configs/quick.toml (longer generations,
#      self-play left to the workers: selfplay.trainer_plays = false) and workers w1 and w2;
#   2. SIGKILLs w2 once it has uploaded shards of generation 0, while generation 0 is still open;
#   3. waits for the run to finish, then checks with `fiveup runs status --verify` that every
#      shard in the bucket is whole and valid and that every shard the trainer counted is there,
#      valid and counted once, and that w2's uploaded shards were counted.
# Exits 0 only when all of that holds.
#
#   scripts/demo-cluster.sh [--quick] [DIR]
# --quick: one short generation (scripts/test.sh runs this). DIR: where the server's data, the
# caches and the logs go (default: a new temporary directory, removed on success).
# FIVEUP_BIN: the binary to use (default: build target/release/fiveup).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
say() { printf '[demo %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
work=${1:-}
keep=1
if [ -z "$work" ]; then work=$(mktemp -d /tmp/fiveup-demo.XXXXXX); keep=0; fi
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
  if [ "$rc" -ne 0 ]; then say "logs kept in $work (trainer.log, w1.log, w2.log, s3/server.log)"; fi
}
trap cleanup EXIT
scripts/s3-server.sh start "$work/s3" >&2
scripts/s3-server.sh bucket "$work/s3" fiveup-demo >&2
# shellcheck disable=SC1091
source "$work/s3/env"
url=s3://fiveup-demo/run

if [ "$quick" -eq 1 ]; then
  gens=1 games=48 sims=16
else
  gens=2 games=240 sims=32
fi
sets=(--set "generations=$gens" --set "selfplay.games_per_generation=$games" --set selfplay.concurrent_games=4
      --set selfplay.games_per_shard=2 --set "selfplay.full_simulations=$sims" --set selfplay.cheap_simulations=8
      --set selfplay.ply_cap=60 --set selfplay.trainer_plays=false)
export RUST_LOG=${RUST_LOG:-info}
say "trainer: fiveup train --run $url --config configs/quick.toml ${sets[*]}"
"$bin" train --run "$url" --cache "$work/cache-trainer" --config configs/quick.toml "${sets[@]}" \
  >"$work/trainer.out" 2>"$work/trainer.log" &
trainer=$!; pids+=("$trainer")
for w in w1 w2; do
  "$bin" selfplay --run "$url" --cache "$work/cache-$w" --worker "$w" >"$work/$w.out" 2>"$work/$w.log" &
  pids+=("$!")
done
w1=${pids[1]} w2=${pids[2]}
say "workers w1 (pid $w1) and w2 (pid $w2) started"

# Kill w2 with SIGKILL once it has uploaded shards of generation 0 and the generation is still open.
status_json() { "$bin" runs status --run "$url" --json 2>/dev/null; }
w2_games() {
  status_json | python3 -c '
import json, sys
s = json.load(sys.stdin)
g0 = [g for g in s["generations"] if g["generation"] == 0]
if not g0: print("0 open"); sys.exit()
print(g0[0]["by_worker"].get("w2", 0), "closed" if g0[0]["counted"] else "open")'
}
killed=""
for _ in $(seq 1 600); do
  kill -0 "$trainer" 2>/dev/null || break
  read -r n state < <(w2_games || echo "0 open")
  if [ "$n" -ge 4 ] && [ "$state" = open ]; then
    kill -9 "$w2"
    killed=$n
    say "SIGKILL w2 mid-generation 0, after it uploaded $n games"
    break
  fi
  sleep 0.5
done
[ -n "$killed" ] || fail "w2 never uploaded 4 games while generation 0 was open (see $work/w2.log)"

say "waiting for the trainer to finish the run"
if ! wait "$trainer"; then fail "the trainer failed (tail of $work/trainer.log: $(tail -3 "$work/trainer.log"))"; fi
wait "$w1" || fail "worker w1 failed (see $work/w1.log)"
cat "$work/trainer.out"

say "fiveup runs status --run $url --verify"
"$bin" runs status --run "$url" --verify | tee "$work/status.txt" >&2 || fail "verification found problems"
"$bin" runs status --run "$url" --verify --json >"$work/status.json"
python3 - "$work/status.json" "$gens" "$killed" <<'EOF' || fail "the counts do not add up"
import json, sys
s = json.load(open(sys.argv[1]))
gens, killed = int(sys.argv[2]), int(sys.argv[3])
assert s["state"]["phase"] == "finished" and s["state"]["generation"] == gens, s["state"]
assert s["verify"]["ok"], s["verify"]
for g in s["generations"]:
    c = g["counted"]
    assert c is not None, f"generation {g['generation']} was never counted"
    names = [x["name"] for x in c["shards"]]
    assert len(names) == len(set(names)), "a shard counted twice"
    assert c["games"] >= c["target"], c
    print(f"gen {g['generation']}: {c['games']} games counted (target {c['target']}) from {len(names)} shards: "
          + ", ".join(f"{w} {n}" for w, n in c["by_worker"].items())
          + f"; {g['games']} games in the bucket")
g0 = s["generations"][0]
w2 = g0["by_worker"].get("w2", 0)
counted_w2 = g0["counted"]["by_worker"].get("w2", 0)
# Every game w2 had uploaded while generation 0 was open is counted (a shard it finished in the
# instant before the kill, after the trainer closed the count, would be in the bucket uncounted).
assert counted_w2 >= killed, f"w2 had {killed} games uploaded before the kill, {counted_w2} counted"
print(f"w2 (killed): {w2} games uploaded, {counted_w2} counted; its games in flight were lost")
EOF
say "PASSED: generation(s) complete, every shard valid and counted once"
