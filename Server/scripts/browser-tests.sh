#!/usr/bin/env bash
# Real-browser tests of /account and /admin: headless Chromium driven by
# Selenium against a live auth-server on loopback. The flows are in
# Tests/Browser/console_flows.py: account sign-in and the devices table, one
# device signed out, the admin console (search, ban with user_banned at
# refresh, unban, audit log, signing keys), CSRF (forged posts from another
# site and from a same-site other origin refused; the page's own form works),
# no horizontal scroll at 390x844 and an accessibility smoke check; then the
# account page for people without a password: a provider-only person (a
# Strava-shaped fake provider, Tests/Browser/fake_provider.py) and an
# email-code-only person sign in, see their devices and delete the account
# after a mailed code (a real SMTP listener, aiosmtpd), and a forged deletion
# without the code is refused. The server runs with a 5 s re-authentication
# window, so the flows wait it out instead of a clock being moved. Flow 8
# (Tests/Browser/mfa_flows.py) adds an authenticator app on the page, decodes
# its QR code from a screenshot with zbar (pyzbar on libzbar0) and signs in
# again with pyotp's code (pip install pyotp pyzbar; apt-get install libzbar0).
# Flow 9 (Tests/Browser/passkey_flows.py): passkeys with Chromium's virtual
# authenticator: added on /account, signed out, signed in with one, removed.
#
#   scripts/browser-tests.sh                                  # from anywhere
#   BROWSER_PLANT=forged-csrf scripts/browser-tests.sh        # must fail
#   BROWSER_PLANT=forged-with-code scripts/browser-tests.sh   # must fail
#   BROWSER_README_IMAGES=1 scripts/browser-tests.sh          # also docs/images/{account,admin}.png
#
# Needs the debug build (`swift build`), /usr/bin/chromium,
# /usr/bin/chromedriver and python3 with selenium. Exits 2 when one is
# missing, non-zero on any failure, printing the auth-server log's tail.
# Environment: AUTH_SERVER (the binary), PYTHON (default python3),
# BROWSER_TIMEOUT (seconds for the flows, default 150), BROWSER_SCREENSHOTS
# (default .build/browser-screenshots), BROWSER_README_IMAGES=1,
# BROWSER_PLANT.
set -euo pipefail
cd "$(dirname "$0")/.."

server_binary="${AUTH_SERVER:-.build/debug/auth-server}"
python="${PYTHON:-python3}"
flows_timeout="${BROWSER_TIMEOUT:-150}"
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
if ! "$python" -c 'import selenium, aiosmtpd' 2>/dev/null; then
  echo "$python lacks selenium or aiosmtpd: pip install selenium aiosmtpd" >&2
  exit 2
fi

script_name=browser-tests
source scripts/live-server.sh
failure_logs=(server smtp provider)

# Background jobs in their own process groups, so cleanup can end each with all its children.
set -m

mkdir "$work/mail"
start_ready smtp "$python" scripts/smtp-listener.py --port 0 --maildir "$work/mail"
smtp_port="$ready_port"
start_ready provider "$python" Tests/Browser/fake_provider.py --providers-file "$work/providers.json"
reauthentication_window=5
# Passkeys (flow 8, Tests/Browser/passkey_flows.py): the RP ID is localhost and the origin names
# the port, so the port is chosen before the server starts.
LIVE_SERVER_PORT="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
passkeys=(--passkeys --webauthn-rp-id localhost --webauthn-rp-display-name "Browser tests"
  --webauthn-rp-origins "http://localhost:$LIVE_SERVER_PORT")
# --autoconfirm: flow 1's password sign-up signs in at once, as it did before mail was on.
start_auth_server "${passkeys[@]}" --autoconfirm --smtp-url "smtp://127.0.0.1:$smtp_port?tls=none" --mail-from "Browser tests <auth@example.com>" \
  --oauth-providers "$work/providers.json" --reauthentication-window "$reauthentication_window"
write_service_role_key
# localhost, not 127.0.0.1: the flows' attacker site is http://127.0.0.1:<port>, another site.
base="http://localhost:$port"
echo "auth-server on $base; screenshots in $screenshots"

args=(--url "$base" --service-key-file "$work/service-role" --screenshots "$screenshots" --maildir "$work/mail"
  --reauthentication-window "$reauthentication_window")
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
