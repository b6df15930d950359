# Source me (bash): makes cargo find libtorch for the default `torch` feature.
#   source scripts/env.sh && cargo test
# Runs scripts/setup.sh first when the venv is missing (a no-op check otherwise), then exports
# LIBTORCH=<repo>/.venv/.../site-packages/torch. See scripts/setup.sh for why LIBTORCH and not
# LIBTORCH_USE_PYTORCH. Builds with --no-default-features need none of this.
_fiveup_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ ! -f "$_fiveup_root/.venv/fiveup-env.sh" ]; then
  bash "$_fiveup_root/scripts/setup.sh" >/dev/null || return 1 2>/dev/null || exit 1
fi
# shellcheck source=/dev/null
source "$_fiveup_root/.venv/fiveup-env.sh"
unset _fiveup_root
