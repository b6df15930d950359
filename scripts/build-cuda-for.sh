#!/usr/bin/env bash
# Builds a CUDA `fiveup` binary against a libtorch other than the pinned one (tch 0.26 wants
# 2.13), for a GPU machine that brings its own PyTorch and cannot download anything: the device
# machines lent to this project have torch 2.11.0+cu130 in /opt/torch/.venv. Run it here, carry
# .gpu/ there, and run scripts/device-checks.sh there (docs/BUILD.md, "A GPU machine with
# another libtorch").
#
#   bash scripts/build-cuda-for.sh 2.11.0     # -> .gpu/fiveup (stripped, ~21 MB), ~10 min on 2 cores
#
# What it does, in .gpu/work (ignored):
# 1. downloads the PyPI wheel torch==VERSION (the CUDA build, ~530 MB) and unpacks its headers
#    and libraries: the binary links libtorch_cuda.so so that the GPU is found at run time;
# 2. copies torch-sys 0.26.0 and replaces, in its generated C++ wrapper, every function that
#    does not compile against that libtorch (operators added after it: 15 for 2.11, none of them
#    used here) by one that reports an error;
# 3. builds the working tree's tracked files with that torch-sys patched in, the version check
#    bypassed and the CUDA libraries' own dependencies left unresolved (they resolve there).
# The binary looks for libtorch through LD_LIBRARY_PATH (the device's torch/lib).
set -euo pipefail
V=${1:?usage: build-cuda-for.sh TORCH_VERSION (e.g. 2.11.0)}
[[ $V =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "build-cuda-for.sh: '$V' is not a version like 2.11.0" >&2; exit 2; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
W=$ROOT/.gpu/work
log() { echo "build-cuda-for.sh: $*" >&2; }
mkdir -p "$W"
source "$ROOT/scripts/env.sh" >/dev/null # the project's venv: its pip, and cargo's libtorch for `cargo fetch`
PY=$ROOT/.venv/bin/python

# 1. The libtorch.
T=$W/torch-$V
if [ ! -f "$T/torch/lib/libtorch_cuda.so" ]; then
  log "downloading torch==$V (CUDA wheel, ~530 MB)"
  rm -rf "$W/whl" "$T"
  "$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 -d "$W/whl" "torch==$V"
  unzip -q -o "$W"/whl/torch-"$V"-*.whl 'torch/lib/*' 'torch/include/*' 'torch/share/*' -d "$T"
  rm -rf "$W/whl"
fi

# 2. torch-sys, with what this libtorch lacks stubbed out.
TS=$W/torch-sys-$V
if [ ! -f "$TS/.stubbed" ]; then
  (cd "$ROOT" && cargo fetch -q)
  SRC=$(find "${CARGO_HOME:-$HOME/.cargo}"/registry/src -maxdepth 2 -type d -name torch-sys-0.26.0 | head -1)
  [ -n "$SRC" ] || { log "torch-sys 0.26.0 not in the cargo registry"; exit 1; }
  rm -rf "$TS" && cp -r "$SRC" "$TS"
  CXX=(c++ -fsyntax-only -w -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 -DGLOG_USE_GLOG_EXPORT
    -I "$T/torch/include" -I "$T/torch/include/torch/csrc/api/include")
  for _ in 1 2 3 4; do
    if "${CXX[@]}" "$TS/libtch/torch_api_generated.cpp" >"$W/errors.log" 2>&1; then
      touch "$TS/.stubbed"
      break
    fi
    "$PY" - "$TS/libtch/torch_api_generated.cpp" "$W/errors.log" <<'PY'
import re, sys
path, errors = sys.argv[1], sys.argv[2]
lines = open(path).read().split("\n")
bad = {int(m.group(1)) - 1 for m in (re.search(r"torch_api_generated\.cpp:(\d+):\d+: error", l) for l in open(errors)) if m}
starts = set()
for b in bad:
    i = b
    while not re.match(r"^\w.*\) \{$", lines[i]):
        i -= 1
    starts.add(i)
if not starts:
    sys.exit("errors outside the generated wrappers: see " + errors)
for s in sorted(starts, reverse=True):
    e = s + 1
    while lines[e] != "}":
        e += 1
    name = re.search(r"(atg_\w+)", lines[s]).group(1)
    lines[s + 1:e] = ['  PROTECT(throw std::runtime_error("%s: not in this libtorch");)' % name]
    print("build-cuda-for.sh: stubbed", name, file=sys.stderr)
open(path, "w").write("\n".join(lines))
PY
  done
  [ -f "$TS/.stubbed" ] || { log "torch-sys still does not compile: $W/errors.log"; exit 1; }
  "${CXX[@]}" "$TS/libtch/torch_api.cpp" || { log "torch_api.cpp does not compile against torch $V"; exit 1; }
fi

# 3. The build: the tracked files of the working tree, torch-sys patched.
S=$W/src
rm -rf "$S" && mkdir -p "$S"
(cd "$ROOT" && git ls-files -z | tar --null -T - -c) | tar -x -C "$S"
printf '\n[patch.crates-io]\ntorch-sys = { path = "%s" }\n' "$TS" >>"$S/Cargo.toml"
log "building against torch $V (release, CUDA)"
(
  cd "$S"
  export LIBTORCH=$T/torch LIBTORCH_BYPASS_VERSION_CHECK=1 FIVEUP_TORCH_CUDA=1 CARGO_TARGET_DIR=$W/target
  # RUSTFLAGS replaces .cargo/config.toml's flags: repeat its target-cpu.
  export RUSTFLAGS="-C target-cpu=x86-64-v2 -C link-arg=-Wl,--allow-shlib-undefined"
  cargo build -q --release --bin fiveup
)
strip -o "$ROOT/.gpu/fiveup" "$W/target/release/fiveup"
log "done: .gpu/fiveup ($(du -h "$ROOT/.gpu/fiveup" | cut -f1)), links $(readelf -d "$ROOT/.gpu/fiveup" | grep -o 'libtorch_cuda.so' | head -1)"
