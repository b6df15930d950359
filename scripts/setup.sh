#!/usr/bin/env bash
# Installs libtorch for tch 0.26 (PyPI torch==2.13.0) into ./.venv, idempotently: a second run
# only checks and exits within a second. Run from anywhere; the venv lives at the repo root.
#
#   bash scripts/setup.sh            # CPU: ~540 MB download, ~1.5 GB on disk
#   FIVEUP_TORCH_CUDA=1 bash scripts/setup.sh   # + all CUDA wheels (~2.7 GB download)
#   source scripts/env.sh            # then cargo sees LIBTORCH (scripts/env.sh runs this if needed)
#
# Progress goes to stderr; the `export` lines cargo needs go to stdout and to
# .venv/fiveup-env.sh, which scripts/env.sh sources.
#
# Why LIBTORCH and not LIBTORCH_USE_PYTORCH=1: in that mode torch-sys
# runs `python -c "import torch"` to find the library, and `import torch` needs every nvidia-*
# wheel torch depends on (~2.7 GB), even on a CPU-only machine. We install the torch wheel with
# --no-deps plus the only two CUDA libraries that libtorch_cpu.so itself links (cudart, cupti),
# and point LIBTORCH at the wheel's torch/ directory, which holds the same headers and shared
# libraries libtorch ships. Same pinned version, a fifth of the download; Python's `import torch`
# does not work in this venv, and nothing here needs it.
# With FIVEUP_TORCH_CUDA=1 the full wheel set is installed and build.rs links libtorch_cuda.
set -euo pipefail

TORCH_VERSION=2.13.0 # the libtorch version tch 0.26.0 is built against
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"
MODE=cpu
[ "${FIVEUP_TORCH_CUDA:-0}" = 1 ] && MODE=cuda
MARKER="$VENV/.fiveup-torch"
log() { echo "setup.sh: $*" >&2; }

have() { # already installed in the wanted mode (a cuda install also serves cpu)?
  [ -x "$VENV/bin/python" ] && [ -f "$MARKER" ] || return 1
  local got
  got=$(cat "$MARKER")
  [ "$got" = "torch==$TORCH_VERSION cuda" ] || [ "$got" = "torch==$TORCH_VERSION $MODE" ] || return 1
  [ -f "$(cat "$VENV/.fiveup-libtorch" 2>/dev/null)/lib/libtorch_cpu.so" ]
}

if have; then
  log "torch==$TORCH_VERSION ($(cat "$MARKER")) already in $VENV"
else
  if ! "$VENV/bin/python" -c '' 2>/dev/null; then
    log "creating $VENV"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
  fi
  PIP=("$VENV/bin/python" -m pip install --disable-pip-version-check --progress-bar off -q)
  rm -f "$MARKER"
  if [ "$MODE" = cuda ]; then
    log "installing torch==$TORCH_VERSION with its CUDA deps (~2.7 GB)"
    "${PIP[@]}" "torch==$TORCH_VERSION"
  else
    log "installing torch==$TORCH_VERSION --no-deps + cudart/cupti (~540 MB)"
    # libtorch_cpu.so has DT_NEEDED libcudart.so.13 and libcupti.so.13; these are the versions
    # torch 2.13.0's cuda-toolkit==13.0.3 pin resolves to.
    "${PIP[@]}" --no-deps "torch==$TORCH_VERSION" \
      nvidia-cuda-runtime==13.0.96 nvidia-cuda-cupti==13.0.85
  fi
  purelib=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  [ -f "$purelib/torch/lib/libtorch_cpu.so" ] || {
    log "no libtorch_cpu.so under $purelib/torch"
    exit 1
  }
  echo "$purelib/torch" >"$VENV/.fiveup-libtorch"
  echo "torch==$TORCH_VERSION $MODE" >"$MARKER"
  log "done"
fi

LIBTORCH_DIR=$(cat "$VENV/.fiveup-libtorch")
cat >"$VENV/fiveup-env.sh" <<ENV
export LIBTORCH="$LIBTORCH_DIR"
unset LIBTORCH_USE_PYTORCH
ENV
cat "$VENV/fiveup-env.sh"
