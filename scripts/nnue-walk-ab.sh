#!/usr/bin/env bash
# Interleaved A/B timing of NNUE incremental evaluation (docs/BENCHMARKS.md, NNUE): for ROUNDS
# rounds, every network with every `nnue_speed` binary in turn (`walk 10`, the best of 10 walks
# kept), then per binary and network the median and the maximum of the rounds in M evals/s.
# On a shared host only figures taken side by side like this are comparable.
#
#   scripts/nnue-walk-ab.sh ROUNDS "BIN_A BIN_B" NET...
#   (BIN: a copy of target/release/examples/nnue_speed of each build;
#    NET: a .nnue file or random:RULESET:SHAPE, e.g. random:fiveup:64p-16-32)
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS \"BIN_A BIN_B ...\" NET..." >&2
  exit 2
fi
rounds=$1 bins=$2
shift 2
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "$0: ROUNDS must be a positive whole number, not '$rounds'" >&2; exit 2; }
for b in $bins; do [ -x "$b" ] || { echo "$0: no executable binary at $b" >&2; exit 2; }; done
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
[ -f "$here/env.sh" ] && source "$here/env.sh"
for _ in $(seq "$rounds"); do
  for net in "$@"; do
    for b in $bins; do
      best=$("$b" "$net" walk 10 | grep -o '[0-9.]* M/s' | awk '{print $1}' | sort -g | tail -1)
      echo "$(basename "$b") $net $best"
    done
  done
done | sort -k1,1 -k2,2 -k3,3g | awk '
  { key = $1 " " $2; v[key, ++n[key]] = $3 }
  END {
    for (k in n) {
      c = n[k]; m = (c % 2) ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2
      printf "%s median %.2f max %.2f rounds %d\n", k, m, v[k, c], c
    }
  }' | sort -k2,2 -k1,1
