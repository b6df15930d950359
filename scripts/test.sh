#!/usr/bin/env bash
# The checks a change must pass: formatting, clippy with and without the `torch` feature, and the
# tests (with torch). Installs libtorch into .venv first if needed (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/env.sh
source scripts/env.sh
cargo fmt --check
cargo clippy --all-targets --no-default-features -- -D warnings
cargo clippy --all-targets -- -D warnings
cargo test --no-default-features
cargo test
