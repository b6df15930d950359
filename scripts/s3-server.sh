#!/usr/bin/env bash
# A real S3-compatible server (s3s-fs, pinned) for fiveup's tests and demo.
#
#   scripts/s3-server.sh install              build s3s-fs into <repo>/.tools/s3s-fs (no-op when present)
#   scripts/s3-server.sh start DIR [PORT]     run it in the background on 127.0.0.1 (free port if none given);
#                                             data in DIR/data, log DIR/server.log, pid DIR/pid, and
#                                             DIR/env holds `export` lines to `source` (AWS_ENDPOINT, keys, ...)
#   scripts/s3-server.sh bucket DIR NAME      create bucket NAME with a SigV4-signed CreateBucket (HTTP PUT)
#   scripts/s3-server.sh stop DIR             SIGTERM, then SIGKILL after 5 s; removes DIR/pid
#
# Typical use:
#   scripts/s3-server.sh start /tmp/s3 && scripts/s3-server.sh bucket /tmp/s3 fiveup
#   source /tmp/s3/env && cargo test ...; scripts/s3-server.sh stop /tmp/s3
#
# Plain curl against it (curl >= 7.75; s3s insists on the x-amz-content-sha256 header, which the
# curl here (7.88) does not add by itself, so pass it, e.g. UNSIGNED-PAYLOAD; percent-encode "/"
# in query strings, e.g. ?prefix=dir%2F, or the signature does not match):
#   source DIR/env; curl --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
#     --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' \
#     -X PUT --data-binary @file "$AWS_ENDPOINT/BUCKET/KEY"
#
# `start` runs `install` first when the binary is missing (a first build takes minutes).
# The credentials are fixed test values; the server only listens on 127.0.0.1.
# Env knobs: S3_SERVER_LOG (RUST_LOG filter for the server, default "info").
set -euo pipefail

readonly S3S_FS_VERSION=0.14.1
readonly MIN_RUSTC=1.92.0
readonly HOST=127.0.0.1
readonly ACCESS_KEY=fiveup-test
readonly SECRET_KEY=fiveup-test-secret
readonly REGION=us-east-1
readonly START_TIMEOUT_S=20
readonly STOP_TIMEOUT_S=5
readonly EMPTY_SHA256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly ROOT
readonly TOOLS_DIR="$ROOT/.tools/s3s-fs"
readonly BIN="$TOOLS_DIR/bin/s3s-fs"

PROG=$(basename "$0")
readonly PROG

die() {
  echo "$PROG: error: $*" >&2
  exit 1
}

note() {
  echo "$PROG: $*" >&2
}

usage() {
  cat >&2 <<EOF
usage: $PROG install
       $PROG start DIR [PORT]
       $PROG bucket DIR NAME
       $PROG stop DIR
EOF
  exit 2
}

need() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' not found on PATH ($2)"
}

# True when $BIN exists and reports exactly the pinned version ("s3s-fs 0.14.1").
installed() {
  [ -x "$BIN" ] && [ "$("$BIN" --version 2>/dev/null || true)" = "s3s-fs $S3S_FS_VERSION" ]
}

# version_ge A B: true when dotted version A >= B.
version_ge() {
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]
}

cmd_install() {
  installed && return 0
  if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    PATH="$HOME/.cargo/bin:$PATH"
  fi
  need cargo "install Rust >= $MIN_RUSTC, e.g. via rustup"
  need rustc "install Rust >= $MIN_RUSTC, e.g. via rustup"
  local rustc_version
  rustc_version=$(rustc --version | awk '{print $2}')
  version_ge "${rustc_version%%-*}" "$MIN_RUSTC" ||
    die "s3s-fs $S3S_FS_VERSION needs rustc >= $MIN_RUSTC, found $rustc_version"

  mkdir -p "$TOOLS_DIR"
  # Serialise concurrent installs (e.g. parallel test jobs); re-check once we hold the lock.
  exec 9>"$TOOLS_DIR/.install.lock"
  if command -v flock >/dev/null 2>&1; then
    flock 9
    if installed; then
      exec 9>&-
      return 0
    fi
  fi

  note "building s3s-fs $S3S_FS_VERSION into $TOOLS_DIR (takes a few minutes the first time)"
  local start=$SECONDS
  if ! cargo install s3s-fs --version "$S3S_FS_VERSION" --locked --features binary \
    --root "$TOOLS_DIR" --force; then
    exec 9>&-
    die "cargo install s3s-fs $S3S_FS_VERSION failed (see cargo's output above)"
  fi
  exec 9>&-
  installed || die "installed $BIN but '$BIN --version' does not report s3s-fs $S3S_FS_VERSION"
  note "installed s3s-fs $S3S_FS_VERSION in $((SECONDS - start)) s: $BIN"
}

# Prints an absolute path for directory $1 (which must exist).
abs_dir() {
  (cd "$1" && pwd)
}

# The pid in DIR/pid when that process is alive and is s3s-fs; empty otherwise.
running_pid() {
  local dir=$1 pid
  [ -f "$dir/pid" ] || return 0
  pid=$(cat "$dir/pid" 2>/dev/null || true)
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  # Guard against a recycled pid: only report it if it is really our server.
  if [ -r "/proc/$pid/cmdline" ] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 's3s-fs'; then
    return 0
  fi
  echo "$pid"
}

free_port() {
  need python3 "needed to pick a free port; or pass PORT explicitly"
  python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# True when something on $HOST accepts TCP connections on port $1.
port_in_use() {
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

# HTTP status of a plain GET to the server root ("000" when nothing answers).
probe() {
  curl -s -o /dev/null --max-time 1 -w '%{http_code}' "http://$HOST:$1/" 2>/dev/null || true
}

show_log_tail() {
  local log=$1
  if [ -s "$log" ]; then
    echo "---- last lines of $log ----" >&2
    tail -n 30 "$log" >&2
    echo "----" >&2
  else
    echo "($log is empty)" >&2
  fi
}

# launch DIR PORT: starts the server, waits for it; returns 0 when up, 1 when it died or timed out.
launch() {
  local dir=$1 port=$2 pid deadline code
  : >"$dir/server.log"
  # stdin/stdout/stderr all detached so callers capturing our output never wait on the server.
  RUST_LOG="${S3_SERVER_LOG:-info}" nohup "$BIN" \
    --host "$HOST" --port "$port" \
    --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" \
    "$dir/data" </dev/null >>"$dir/server.log" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/pid"
  deadline=$((SECONDS + START_TIMEOUT_S))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      note "s3s-fs (pid $pid) exited during startup on port $port"
      rm -f "$dir/pid"
      return 1
    fi
    code=$(probe "$port")
    # Any HTTP answer (403 without credentials is normal) means it is serving; the port was free
    # before we launched (checked by the caller), so the answer comes from our process.
    if [ -n "$code" ] && [ "$code" != "000" ] && kill -0 "$pid" 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  note "s3s-fs (pid $pid) did not answer on $HOST:$port within ${START_TIMEOUT_S} s"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true # reap it quietly (no "Killed" job notice)
  rm -f "$dir/pid"
  return 1
}

cmd_start() {
  if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
  local dir=$1 port=${2:-} pid attempt tries endpoint p
  need curl "needed to check that the server answers"
  if [ -n "$port" ]; then
    if ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
      die "PORT must be a number in 1..65535, got '$port'"
    fi
  fi
  mkdir -p "$dir/data" || die "cannot create $dir/data"
  dir=$(abs_dir "$dir")
  pid=$(running_pid "$dir")
  [ -z "$pid" ] || die "a server is already running for $dir (pid $pid); run '$PROG stop $dir' first"
  rm -f "$dir/pid" "$dir/env"

  installed || cmd_install

  # A port picked by binding port 0 can in principle be taken before the server binds it; retry then.
  tries=1
  [ -n "$port" ] || tries=3
  for ((attempt = 1; attempt <= tries; attempt++)); do
    if [ -n "$port" ]; then p=$port; else p=$(free_port); fi
    if port_in_use "$p"; then
      if [ -n "$port" ] || [ "$attempt" -ge "$tries" ]; then
        die "port $p on $HOST is already in use (another server?); pick another PORT or omit it"
      fi
      note "port $p was taken, retrying with another free port"
      continue
    fi
    if launch "$dir" "$p"; then
      port=$p
      break
    fi
    if [ "$attempt" -ge "$tries" ] || ! grep -qi 'address already in use\|AddrInUse' "$dir/server.log"; then
      show_log_tail "$dir/server.log"
      die "could not start s3s-fs for $dir (log: $dir/server.log)"
    fi
    note "port $p was taken, retrying with another free port"
  done

  pid=$(cat "$dir/pid")
  endpoint="http://$HOST:$port"
  {
    printf 'export AWS_ENDPOINT=%q\n' "$endpoint"
    printf 'export AWS_ACCESS_KEY_ID=%q\n' "$ACCESS_KEY"
    printf 'export AWS_SECRET_ACCESS_KEY=%q\n' "$SECRET_KEY"
    printf 'export AWS_REGION=%q\n' "$REGION"
    printf 'export AWS_ALLOW_HTTP=true\n'
    printf 'export S3_SERVER_PID=%q\n' "$pid"
  } >"$dir/env.tmp"
  mv "$dir/env.tmp" "$dir/env"
  echo "s3s-fs $S3S_FS_VERSION running at $endpoint (pid $pid, data $dir/data); source $dir/env"
}

cmd_bucket() {
  [ $# -eq 2 ] || usage
  local dir=$1 name=$2 body code err msg
  need curl "needed to send the signed CreateBucket request"
  [ -f "$dir/env" ] || die "no $dir/env: start the server with '$PROG start $dir' first"
  [ -n "$(running_pid "$dir")" ] || die "no s3s-fs server is running for $dir (stale $dir/env?)"
  # S3 bucket naming rules (the subset that matters for a path-style URL).
  [[ "$name" =~ ^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$ ]] ||
    die "invalid bucket name '$name' (3-63 chars of a-z 0-9 . -, starting and ending with a letter or digit)"

  # The endpoint and credentials come from DIR/env, as any caller would get them.
  local AWS_ENDPOINT AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_REGION
  # shellcheck source=/dev/null
  source "$dir/env"
  body=$(mktemp)
  # s3s requires x-amz-content-sha256, which curl 7.88 does not add by itself; curl signs it
  # along with the other x-amz-* headers. The value is the SHA-256 of the empty request body.
  code=$(curl -sS -o "$body" -w '%{http_code}' --max-time 10 \
    --aws-sigv4 "aws:amz:$AWS_REGION:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: $EMPTY_SHA256" -H 'Content-Length: 0' \
    -X PUT "$AWS_ENDPOINT/$name") || {
    rm -f "$body"
    die "CreateBucket request to $AWS_ENDPOINT/$name failed (server down?)"
  }
  if [[ "$code" == 2* ]]; then
    rm -f "$body"
    echo "created bucket $name at $AWS_ENDPOINT/$name"
    return 0
  fi
  err=$(sed -n 's:.*<Code>\(.*\)</Code>.*:\1:p' "$body" | head -n 1)
  msg=$(sed -n 's:.*<Message>\(.*\)</Message>.*:\1:p' "$body" | head -n 1)
  rm -f "$body"
  die "server refused CreateBucket '$name': HTTP $code ${err:-(no S3 error code)}${msg:+: $msg}"
}

cmd_stop() {
  [ $# -eq 1 ] || usage
  local dir=$1 pid i
  [ -d "$dir" ] || die "no such directory: $dir"
  pid=$(running_pid "$dir")
  if [ -z "$pid" ]; then
    if [ -f "$dir/pid" ]; then
      note "server for $dir was not running; removing stale $dir/pid"
      rm -f "$dir/pid"
    else
      note "no server running for $dir (no $dir/pid)"
    fi
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < STOP_TIMEOUT_S * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    note "pid $pid ignored SIGTERM for ${STOP_TIMEOUT_S} s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/pid"
  echo "stopped s3s-fs (pid $pid) for $dir"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
  install)
    [ $# -eq 0 ] || usage
    cmd_install
    ;;
  start) cmd_start "$@" ;;
  bucket) cmd_bucket "$@" ;;
  stop) cmd_stop "$@" ;;
  -h | --help | help) usage ;;
  *)
    note "unknown command '$cmd'"
    usage
    ;;
esac
