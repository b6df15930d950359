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
# Each step's start is printed with the seconds since the script began, and a table of the steps'
# durations closes the run, so the suite's slow parts are visible in every CI log.
started=$SECONDS
last_step="" last_at=$SECONDS
timings=()
step_done() { [ -z "$last_step" ] || timings+=("$(printf '%5d s  %s' $((SECONDS - last_at)) "$last_step")"); }
step() {
  step_done
  last_step="$*" last_at=$SECONDS
  printf '\n==> [%d s] %s\n' $((SECONDS - started)) "$*" >&2
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
step "cargo fmt --check"
cargo fmt --check
step "cargo clippy (no torch)"
cargo clippy --all-targets --no-default-features -- -D warnings
step "cargo clippy (torch)"
cargo clippy --all-targets -- -D warnings
# --lib --bins --tests: the examples have no tests and clippy --all-targets has already compiled
# them in both feature sets; linking them again in the test profile is work without a check.
step "cargo test (no torch)"
cargo test --no-default-features --lib --bins --tests 2>&1 | tee -a "$log"
step "cargo test (torch)"
cargo test --lib --bins --tests 2>&1 | tee -a "$log"
step "browser tests (scripts/test-web.sh)"
scripts/test-web.sh 2>&1 | tee -a "$log"
step "object storage and deploy/ (scripts/test-cluster.sh)"
scripts/test-cluster.sh 2>&1 | tee -a "$log"
step_done
printf '\nstep durations (total %d s):\n' $((SECONDS - started)) >&2
printf '%s\n' "${timings[@]}" >&2
awk '/^test result:/ { p += $4; f += $6 } /^cluster: [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4 }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
