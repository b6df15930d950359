#!/usr/bin/env bash
# Sets everything up on a fresh machine, builds the release binary and starts the web page:
# `fiveup serve` on http://127.0.0.1:8080/ (docs/WEB.md). Extra arguments go to `fiveup serve`
# (e.g. --runs runs/tournament-example --runs runs/cpu --port 8081). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source scripts/env.sh
cargo build --release
exec ./target/release/fiveup serve "$@"
