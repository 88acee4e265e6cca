#!/usr/bin/env bash
# Acceptance for second factors (issue 38, item 10): the unmodified
# `supabase_auth` Python client's mfa.enroll, challenge, verify,
# challenge_and_verify, list_factors, get_authenticator_assurance_level and
# unenroll against a live auth-server on loopback, with codes from pyotp, and
# every enrolment's SVG QR code rasterised (cairosvg) and decoded by zbar
# (pyzbar). The flows are in Tests/Acceptance/supabase_auth_mfa.py.
#
#   scripts/supabase-mfa-acceptance.sh                              # from anywhere
#   ACCEPTANCE_PLANT=wrong-code scripts/supabase-mfa-acceptance.sh  # must fail
#   ACCEPTANCE_PLANT=bad-qr scripts/supabase-mfa-acceptance.sh      # must fail
#
# Needs the debug build (`swift build`), python3 with supabase_auth, pyotp,
# pyzbar and cairosvg, and Debian's libzbar0 and libcairo2. Takes 30 to 60 s:
# one check waits for the next 30-second TOTP step. Environment: AUTH_SERVER,
# PYTHON, ACCEPTANCE_TIMEOUT (default 120), ACCEPTANCE_PLANT, ACCEPTANCE_TRACEBACK=1.
set -euo pipefail
cd "$(dirname "$0")/.."

server_binary="${AUTH_SERVER:-.build/debug/auth-server}"
python="${PYTHON:-python3}"
flows_timeout="${ACCEPTANCE_TIMEOUT:-120}"

if [[ ! -x "$server_binary" ]]; then
  echo "No $server_binary: build first (swift build)." >&2
  exit 2
fi
if ! "$python" -c 'import supabase_auth, pyotp, pyzbar.pyzbar, cairosvg' 2>/dev/null; then
  echo "$python lacks supabase_auth, pyotp, pyzbar or cairosvg (or libzbar0/libcairo2): pip install supabase_auth pyotp pyzbar cairosvg; apt-get install libzbar0 libcairo2" >&2
  exit 2
fi

script_name=supabase-mfa-acceptance
source scripts/live-server.sh

start_auth_server
base="http://127.0.0.1:$port"
echo "auth-server on $base"

timeout --kill-after=5 "$flows_timeout" "$python" Tests/Acceptance/supabase_auth_mfa.py --url "$base/auth/v1" &
flows_pid=$!
pids+=("$flows_pid")
status=0
wait "$flows_pid" || status=$?
[[ "$status" -eq 124 ]] && fail "the checks did not finish within $flows_timeout s"
[[ "$status" -eq 0 ]] || fail "the checks failed (exit $status)"

if grep -qiE 'fatal|crash' "$work/server.log"; then
  fail "auth-server logged a crash"
fi
echo "supabase-mfa-acceptance: all checks passed"
