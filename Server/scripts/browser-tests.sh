#!/usr/bin/env bash
# Real-browser tests of /account and /admin: headless Chromium driven by
# Selenium against a live auth-server on loopback. The flows are in
# Tests/Browser/console_flows.py: account sign-in and the devices table, one
# device signed out, the admin console (search, ban with user_banned at
# refresh, unban, audit log, signing keys), CSRF (forged posts from another
# site and from a same-site other origin refused; the page's own form works),
# no horizontal scroll at 390x844 and an accessibility smoke check.
#
#   scripts/browser-tests.sh                                  # from anywhere
#   BROWSER_PLANT=forged-csrf scripts/browser-tests.sh        # must fail
#   BROWSER_README_IMAGES=1 scripts/browser-tests.sh          # also docs/images/{account,admin}.png
#
# Needs the debug build (`swift build`), /usr/bin/chromium,
# /usr/bin/chromedriver and python3 with selenium. Exits 2 when one is
# missing, non-zero on any failure, printing the auth-server log's tail.
# Environment: AUTH_SERVER (the binary), PYTHON (default python3),
# BROWSER_TIMEOUT (seconds for the flows, default 90), BROWSER_SCREENSHOTS
# (default .build/browser-screenshots), BROWSER_README_IMAGES=1,
# BROWSER_PLANT.
set -euo pipefail
cd "$(dirname "$0")/.."

server_binary="${AUTH_SERVER:-.build/debug/auth-server}"
python="${PYTHON:-python3}"
flows_timeout="${BROWSER_TIMEOUT:-90}"
flows=Tests/Browser/console_flows.py
screenshots="${BROWSER_SCREENSHOTS:-$PWD/.build/browser-screenshots}"

if [[ ! -x "$server_binary" ]]; then
  echo "No $server_binary: build first (swift build)." >&2
  exit 2
fi
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  if [[ ! -x "$tool" ]]; then
    echo "No $tool: apt-get install chromium chromium-driver" >&2
    exit 2
  fi
done
if ! "$python" -c 'import selenium' 2>/dev/null; then
  echo "$python lacks selenium: pip install selenium" >&2
  exit 2
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local pid
  # Each child leads its own process group (set -m below): the group is
  # signalled, so chromedriver and Chromium go with the Python that started them.
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 30); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ "$status" -ne 0 && -s "$work/server.log" ]]; then
    echo "--- last lines of server.log ---" >&2
    tail -n 40 "$work/server.log" >&2
  fi
  [[ "$status" -ne 0 ]] && echo "browser-tests: FAILED (exit $status)" >&2
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() { echo "browser-tests: $*" >&2; exit 1; }

# Background jobs in their own process groups, so cleanup can end each with all its children.
set -m

"$python" -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())' >"$work/kek"
"$server_binary" serve --host 127.0.0.1 --port 0 --database "$work/auth.sqlite" --log-level info \
  --key-encryption-key-file "$work/kek" >"$work/server.log" 2>&1 &
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
curl -sf -o /dev/null "http://127.0.0.1:$port/auth/v1/health" || fail "http://127.0.0.1:$port/auth/v1/health does not answer 200"
# The service-role key, signed by the key the server made at start: same database, same KEK.
# In a file, not on a command line, so it shows in no process list.
"$server_binary" keys service-role --database "$work/auth.sqlite" --key-encryption-key-file "$work/kek" \
  >"$work/service-role.out" 2>"$work/service-role.log" || fail "auth-server keys service-role failed: $(tail -n 5 "$work/service-role.log")"
grep -E '^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$' "$work/service-role.out" | tail -n 1 >"$work/service-role" || true
[[ -s "$work/service-role" ]] || fail "auth-server keys service-role printed no JWT line"
# localhost, not 127.0.0.1: the flows' attacker site is http://127.0.0.1:<port>, another site.
base="http://localhost:$port"
echo "auth-server on $base; screenshots in $screenshots"

args=(--url "$base" --service-key-file "$work/service-role" --screenshots "$screenshots")
[[ "${BROWSER_README_IMAGES:-}" == 1 ]] && args+=(--readme-images "$(cd .. && pwd)/docs/images")
[[ -n "${BROWSER_PLANT:-}" ]] && args+=(--plant "$BROWSER_PLANT")
# In the background and waited for, so a signal to this script reaches the trap at once.
timeout --kill-after=5 "$flows_timeout" "$python" -u "$flows" "${args[@]}" &
flows_pid=$!
pids+=("$flows_pid")
status=0
wait "$flows_pid" || status=$?
[[ "$status" -eq 124 ]] && fail "the flows did not finish within $flows_timeout s"
[[ "$status" -eq 0 ]] || fail "the flows failed (exit $status)"

if grep -qiE 'fatal|crash|A page failed' "$work/server.log"; then
  fail "auth-server logged a crash or a failed page"
fi
kill -0 "$server_pid" 2>/dev/null || fail "auth-server is no longer running after the flows"
echo "browser-tests: all flows passed"
