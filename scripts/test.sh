#!/usr/bin/env bash
# The checks a change must pass: formatting, clippy with and without the `torch` feature, and the
# tests (without and with torch). Installs libtorch into .venv first if needed (scripts/setup.sh).
# Then the browser tests of the web page (scripts/test-web.sh: Debian's chromium driven by
# playwright-core against the real `fiveup serve`; it installs what is missing), and training on
# object storage against a real S3 server plus the offline checks of deploy/ (scripts/test-cluster.sh:
# it installs s3s-fs, kubectl, the Kubernetes schemas, shellcheck and sbatch when missing).
# Ends with one line totalling every test run: "tests: N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/env.sh
source scripts/env.sh
step() { printf '\n==> %s\n' "$*" >&2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
step "cargo fmt --check"
cargo fmt --check
step "cargo clippy (no torch)"
cargo clippy --all-targets --no-default-features -- -D warnings
step "cargo clippy (torch)"
cargo clippy --all-targets -- -D warnings
step "cargo test (no torch)"
cargo test --no-default-features 2>&1 | tee -a "$log"
step "cargo test (torch)"
cargo test 2>&1 | tee -a "$log"
step "browser tests (scripts/test-web.sh)"
scripts/test-web.sh 2>&1 | tee -a "$log"
step "object storage and deploy/ (scripts/test-cluster.sh)"
scripts/test-cluster.sh 2>&1 | tee -a "$log"
awk '/^test result:/ { p += $4; f += $6 } /^cluster: [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4 }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
