#!/usr/bin/env bash
# The browser tests of the page of `fiveup serve` (web/tests/*.test.mjs, node:test + playwright-core
# driving Debian's headless Chromium against the real server binary).
# Installs what is missing: chromium (apt), web/node_modules (npm ci), the binary (cargo build).
# The binary: ${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/debug/fiveup}.
# SCREENSHOTS=1 also writes docs/img/web-*.png (otherwise that test is skipped: counted as ignored).
# Ends with one line in cargo's format, which scripts that total `test result:` lines count.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
step() { printf '\n==> %s\n' "$*" >&2; }

if [ ! -x /usr/bin/chromium ]; then
  step "apt-get install chromium"
  if ! apt-get install -y chromium >&2; then
    apt-get update >&2
    apt-get install -y chromium >&2
  fi
fi

if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; then
  step "npm ci (web/)"
  (cd web && npm ci --no-audit --no-fund >&2)
  touch web/node_modules
fi

bin=${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/debug/fiveup}
# The page is embedded in the binary: a binary older than the page or the code is rebuilt (after
# `cargo test` in scripts/test.sh it is fresh and nothing is built).
stale=""
if [ -x "$bin" ] && [ -z "${FIVEUP_BIN:-}" ]; then
  stale=$(find web/static src build.rs Cargo.toml Cargo.lock -newer "$bin" -print -quit)
fi
if [ ! -x "$bin" ] || [ -n "$stale" ]; then
  if [ -n "$stale" ]; then why="older than $stale"; else why="missing"; fi
  step "cargo build ($bin is $why)"
  # shellcheck source=scripts/env.sh
  source scripts/env.sh
  cargo build >&2
fi
export FIVEUP_BIN=$bin

step "node --test web/tests/"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
node --test --test-reporter=spec web/tests/ 2>&1 | tee "$log" || status=$?
# the spec reporter's summary: "ℹ pass N" and "ℹ fail M"
passed=$(awk 'NF == 3 && $2 == "pass" && $3 ~ /^[0-9]+$/ { n = $3 } END { print n + 0 }' "$log")
failed=$(awk 'NF == 3 && $2 == "fail" && $3 ~ /^[0-9]+$/ { n = $3 } END { print n + 0 }' "$log")
skipped=$(awk 'NF == 3 && $2 == "skipped" && $3 ~ /^[0-9]+$/ { n = $3 } END { print n + 0 }' "$log")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if [ "$failed" -eq 0 ]; then word=ok; else word=FAILED; fi
echo "test result: $word. $passed passed; $failed failed; $skipped ignored; 0 measured; 0 filtered out"
[ "$failed" -eq 0 ]
