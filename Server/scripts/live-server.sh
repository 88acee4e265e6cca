# Sourced by the scripts that drive a live auth-server from outside
# (supabase-acceptance.sh, browser-tests.sh): a work folder, a cleanup that
# ends every child on every exit path and prints the logs of a failed run,
# the server started on a free port with its own KEK, and a service-role key.
#
# Before sourcing: `script_name` (for messages) and `server_binary`.
# Afterwards: `work`, `pids` (append children to it), `fail`, `start_ready`,
# `start_auth_server`, `write_service_role_key`. `failure_logs` names the logs in $work to print
# (default: server).

work="$(mktemp -d)"
pids=()
failure_logs=(server)
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local pid
  # A child that leads its own process group (set -m) is ended with its
  # whole group, so what it started (chromedriver, Chromium) goes with it.
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ "$status" -ne 0 ]]; then
    local log
    for log in "${failure_logs[@]}"; do
      if [[ -s "$work/$log.log" ]]; then
        echo "--- last lines of $log.log ---" >&2
        tail -n 40 "$work/$log.log" >&2
      fi
    done
    echo "$script_name: FAILED (exit $status)" >&2
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() { echo "$script_name: $*" >&2; exit 1; }

# Starts "$@" in the background with stdout in $work/$1.out and stderr in
# $work/$1.log, and waits for the line `READY <port>`; sets ready_port.
start_ready() {
  local name="$1"; shift
  # Created first: the job may not have opened it yet when sed first looks (sed then fails, exit 2).
  : >"$work/$name.out"
  "$@" >"$work/$name.out" 2>"$work/$name.log" &
  local pid=$!
  pids+=("$pid")
  ready_port=""
  for _ in $(seq 1 100); do
    ready_port="$(sed -n 's/^READY \([0-9][0-9]*\)$/\1/p' "$work/$name.out" | head -1)"
    [[ -n "$ready_port" ]] && return 0
    kill -0 "$pid" 2>/dev/null || fail "$name exited before it was ready"
    sleep 0.1
  done
  fail "$name did not print READY within 10 s"
}

# Starts `auth-server serve` on a free loopback port with a fresh SQLite file
# and KEK, plus the given flags; sets `server_pid` and `port` once it answers
# /auth/v1/health.
start_auth_server() {
  python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())' >"$work/kek"
  # LIVE_SERVER_PORT: a port chosen ahead, for a flag that must name it (a WebAuthn origin); 0 picks one.
  "$server_binary" serve --host 127.0.0.1 --port "${LIVE_SERVER_PORT:-0}" --database "$work/auth.sqlite" --log-level info \
    --key-encryption-key-file "$work/kek" "$@" >"$work/server.log" 2>&1 &
  server_pid=$!
  pids+=("$server_pid")
  port=""
  for _ in $(seq 1 300); do
    port="$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" | head -1 | cut -d: -f2 || true)"
    [[ -n "$port" ]] && break
    kill -0 "$server_pid" 2>/dev/null || fail "auth-server exited before it was listening"
    sleep 0.1
  done
  [[ -n "$port" ]] || fail "auth-server did not start listening within 30 s"
  for _ in $(seq 1 50); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/auth/v1/health" && break
    sleep 0.1
  done
  curl -sf -o /dev/null "http://127.0.0.1:$port/auth/v1/health" ||
    fail "http://127.0.0.1:$port/auth/v1/health does not answer 200"
}

# The service-role key in $work/service-role, signed by the key the server made
# at start (same database, same KEK). In a file, not on a command line, so it
# shows in no process list.
write_service_role_key() {
  "$server_binary" keys service-role --database "$work/auth.sqlite" --key-encryption-key-file "$work/kek" \
    >"$work/service-role.out" 2>"$work/service-role.log" ||
    fail "auth-server keys service-role failed: $(tail -n 5 "$work/service-role.log")"
  grep -E '^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$' "$work/service-role.out" | tail -n 1 >"$work/service-role" || true
  [[ -s "$work/service-role" ]] || fail "auth-server keys service-role printed no JWT line"
}
