#!/usr/bin/env bash
# Sets everything up on a fresh machine and runs the main job: the training pipeline on the
# default CPU config (configs/cpu.toml, embedded in the binary) in the local run directory
# runs/cpu. Stop it with Ctrl-C at any time; running this again resumes where it stopped.
# Extra arguments go to `fiveup train` (e.g. --config configs/quick.toml --run runs/quick).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source scripts/env.sh
cargo build --release
if [ "$#" -eq 0 ]; then
  set -- --run runs/cpu
fi
echo "run.sh: fiveup train $*: progress below (bars on a terminal, a line every 30 s in a log);" \
  "Ctrl-C stops it, running scripts/run.sh again resumes" >&2
exec ./target/release/fiveup train "$@"
