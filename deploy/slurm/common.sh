# shellcheck shell=bash
# Sourced by trainer.sbatch, trainer-gpu.sbatch, workers.sbatch and games-workers.sbatch (not run by
# itself). Submit those from the repository root; see deploy/README.md.
#
#   fiveup_init                 cd to the repo, source the env file, check the binary, make the cache
#   fiveup_run CMD...           run CMD in the background, relay signals, requeue near the time limit

# The store URL when the script was given one (games-workers.sbatch, from its argument): it
# replaces the env file's FIVEUP_RUN. Set it after sourcing this file, before fiveup_init.
fiveup_url=""

fiveup_die() {
  echo "fiveup-slurm: error: $*" >&2
  exit 1
}

fiveup_log() {
  echo "fiveup-slurm: $(date '+%F %T') $*" >&2
}

fiveup_init() {
  [ -n "${SLURM_JOB_ID:-}" ] || fiveup_die "run this through sbatch, not directly"
  # sbatch runs a copy of the script from its spool directory: find the repo through the directory
  # sbatch was called from (or FIVEUP_DIR).
  FIVEUP_DIR=${FIVEUP_DIR:-${SLURM_SUBMIT_DIR:-$PWD}}
  cd "$FIVEUP_DIR" || fiveup_die "cannot cd to $FIVEUP_DIR"
  [ -f deploy/slurm/common.sh ] ||
    fiveup_die "$FIVEUP_DIR is not the fiveup repository: submit from its root or set FIVEUP_DIR"

  # The credentials and the run URL (deploy/slurm/env.example says what goes in).
  local env_file=${FIVEUP_ENV:-deploy/slurm/env}
  [ -r "$env_file" ] ||
    fiveup_die "no $env_file: cp deploy/slurm/env.example deploy/slurm/env && chmod 600 deploy/slurm/env, then fill it in (or set FIVEUP_ENV)"
  # shellcheck source=deploy/slurm/env.example
  source "$env_file"
  [ -z "$fiveup_url" ] || FIVEUP_RUN=$fiveup_url
  [ -n "${FIVEUP_RUN:-}" ] || fiveup_die "FIVEUP_RUN is not set in $env_file"
  case "$FIVEUP_RUN" in
    s3://* | gs://* | az://*) ;;
    *) fiveup_log "FIVEUP_RUN=$FIVEUP_RUN is not an object-store URL: every node must see it (a shared filesystem)" ;;
  esac

  # The release binary. Its rpath names the .venv libtorch it was built against, so build it where
  # the compute nodes see the same path (the repo on a shared filesystem).
  FIVEUP_BIN=${FIVEUP_BIN:-$FIVEUP_DIR/target/release/fiveup}
  [ -x "$FIVEUP_BIN" ] ||
    fiveup_die "no binary at $FIVEUP_BIN: bash scripts/setup.sh && source scripts/env.sh && cargo build --release (or set FIVEUP_BIN)"

  # Node-local scratch, one directory per job (array tasks have their own SLURM_JOB_ID). It may be
  # lost at any time; fiveup refills it from the run. Removed when the job ends.
  FIVEUP_CACHE=${FIVEUP_CACHE_ROOT:-${TMPDIR:-/tmp}}/fiveup-$SLURM_JOB_ID
  mkdir -p "$FIVEUP_CACHE" || fiveup_die "cannot create $FIVEUP_CACHE"
  trap 'rm -rf "$FIVEUP_CACHE"' EXIT
  fiveup_log "job $SLURM_JOB_ID on $(hostname): run $FIVEUP_RUN, cache $FIVEUP_CACHE, binary $FIVEUP_BIN"
}

fiveup_child=""

# USR1 comes from `#SBATCH --signal=B:USR1@...` shortly before the time limit: put the job back in
# the queue (same job id, same log with --open-mode=append). Slurm then ends this instance; the
# next one resumes from the bucket (a trainer first waits for its old lease, at most 60 s).
fiveup_requeue() {
  fiveup_log "time limit near: requeueing job $SLURM_JOB_ID"
  scontrol requeue "$SLURM_JOB_ID" || fiveup_log "scontrol requeue failed (is --requeue allowed here?)"
}

fiveup_forward() {
  [ -z "$fiveup_child" ] || kill -TERM "$fiveup_child" 2>/dev/null || true
}

fiveup_run() {
  fiveup_log "starting: $*"
  "$@" &
  fiveup_child=$!
  trap fiveup_requeue USR1
  trap fiveup_forward TERM INT
  # `wait` also returns (with a status > 128) when a trapped signal arrives: wait again while the
  # child lives, then once more for its own status (bash keeps it).
  while kill -0 "$fiveup_child" 2>/dev/null; do
    wait "$fiveup_child" || true
  done
  local rc=0
  wait "$fiveup_child" || rc=$?
  fiveup_log "exited with status $rc"
  return "$rc"
}
