#!/usr/bin/env bash
# Acceptance: the unmodified `supabase_auth` Python client (PyPI) against a
# live auth-server on loopback, with a real SMTP listener (aiosmtpd) taking
# its mail and a local stand-in for Apple's key server. The flows are in
# Tests/Acceptance/supabase_auth_flows.py: email code sign-in (with sign-up,
# refresh and single use), password sign-up confirmed by the mailed code
# (refused with email_not_confirmed before), password reset by emailed code, Sign in with Apple
# by ID token, no mail for an unknown address, and the admin API (client.admin
# with a service-role key from `auth-server keys service-role`: users created,
# listed, banned and deleted, a session minted by generate_link, the audit log),
# and re-authentication: reauthenticate() mails a nonce that update_user({"password",
# "nonce"}) spends, past a short re-authentication window (5 s here).
# Then Tests/Acceptance/supabase_auth_linking.py: link_identity's provider URL,
# Apple ID tokens linked to an anonymous user (who becomes permanent),
# get_user_identities and unlink_identity (ACCEPTANCE_PLANT=no-link must fail).
# Then Tests/Acceptance/supabase_auth_accounts.py (issue 40): an anonymous user
# made permanent by update_user({"email"}) and verify_otp(type="email_change"),
# then a password; and a confirmed person's email change with both codes. The
# server runs with --anonymous-sign-ins for it. Last Tests/Acceptance/dpop_interop.py (issue 43):
# a DPoP client whose proofs `cryptography` builds signs up bound, refreshes, calls
# /v1/auth/me, and a stolen refresh token is refused without its key (docs/DPOP.md).
#
#   scripts/supabase-acceptance.sh                          # from anywhere
#   ACCEPTANCE_PLANT=wrong-code scripts/supabase-acceptance.sh   # must fail
#   ACCEPTANCE_PLANT=no-ban scripts/supabase-acceptance.sh       # must fail
#   ACCEPTANCE_PLANT=autoconfirm scripts/supabase-acceptance.sh  # must fail
#   ACCEPTANCE_PLANT=no-nonce scripts/supabase-acceptance.sh     # must fail
#   ACCEPTANCE_PLANT=email-change-one-code scripts/supabase-acceptance.sh  # must fail
#
# Needs the debug build (`swift build`) and python3 with supabase_auth,
# aiosmtpd, cryptography and pyjwt installed. Exits non-zero on any failure,
# printing the auth-server log's tail. Environment: AUTH_SERVER (the binary),
# PYTHON (default python3), ACCEPTANCE_TIMEOUT (seconds for the flows,
# default 90), ACCEPTANCE_PLANT, ACCEPTANCE_TRACEBACK=1 (Python tracebacks).
set -euo pipefail
cd "$(dirname "$0")/.."

server_binary="${AUTH_SERVER:-.build/debug/auth-server}"
python="${PYTHON:-python3}"
flows_timeout="${ACCEPTANCE_TIMEOUT:-90}"
flows=Tests/Acceptance/supabase_auth_flows.py
accounts=Tests/Acceptance/supabase_auth_accounts.py
issuer="https://test-issuer.example"
client_id="com.example.app"
mail_from="Acceptance <auth@example.com>"

if [[ ! -x "$server_binary" ]]; then
  echo "No $server_binary: build first (swift build)." >&2
  exit 2
fi
if ! "$python" -c 'import supabase_auth, aiosmtpd, cryptography, jwt' 2>/dev/null; then
  echo "$python lacks supabase_auth, aiosmtpd, cryptography or pyjwt: pip install supabase_auth aiosmtpd cryptography pyjwt" >&2
  exit 2
fi

script_name=supabase-acceptance
source scripts/live-server.sh
failure_logs=(server smtp jwks)

mkdir "$work/mail"
start_ready smtp "$python" scripts/smtp-listener.py --port 0 --maildir "$work/mail"
smtp_port="$ready_port"
# Apple's stand-in first: its URL is one of the server's flags.
start_ready jwks "$python" "$flows" jwks --key-file "$work/apple-key.pem"
jwks_port="$ready_port"
# The plant: sign-ups confirmed without mail, which flow 2 must notice.
planted=()
[[ "${ACCEPTANCE_PLANT:-}" == autoconfirm ]] && planted=(--autoconfirm)
# A 5 s re-authentication window: flow 6 waits it out to need the nonce, and
# flow 2's update_user, a moment after its recovery sign-in, stays inside it.
reauthentication_window=5
# Linking (supabase_auth_linking.py): a provider named as supabase_auth's Provider type
# allows (github), only so link_identity has a provider URL to point at; it is never called.
cat >"$work/providers.json" <<'JSON'
[{"name": "github", "authorize_url": "https://github.com/login/oauth/authorize",
  "token_url": "https://github.com/login/oauth/access_token", "account_id_field": "id",
  "client_id": "acceptance", "client_secret": "acceptance"}]
JSON
start_auth_server "${planted[@]}" --manual-linking --anonymous-sign-ins --oauth-providers "$work/providers.json" \
  --reauthentication-window "$reauthentication_window" \
  --smtp-url "smtp://127.0.0.1:$smtp_port?tls=none" --mail-from "$mail_from" \
  --redirect-allow-list "http://localhost:3000/*" \
  --apple-client-ids "$client_id" --apple-jwks-url "http://127.0.0.1:$jwks_port/keys" --apple-issuer "$issuer"
base="http://127.0.0.1:$port"
write_service_role_key
echo "auth-server on $base, SMTP listener on 127.0.0.1:$smtp_port, Apple JWKS on 127.0.0.1:$jwks_port"

# In the background and waited for, so a signal to this script reaches the trap at once.
timeout --kill-after=5 "$flows_timeout" "$python" "$flows" flows --url "$base/auth/v1" --maildir "$work/mail" \
  --key-file "$work/apple-key.pem" --issuer "$issuer" --client-id "$client_id" --mail-from "$mail_from" \
  --service-key-file "$work/service-role" --reauthentication-window "$reauthentication_window" &
flows_pid=$!
pids+=("$flows_pid")
status=0
wait "$flows_pid" || status=$?
[[ "$status" -eq 124 ]] && fail "the flows did not finish within $flows_timeout s"
[[ "$status" -eq 0 ]] || fail "the flows failed (exit $status)"

timeout --kill-after=5 30 "$python" Tests/Acceptance/supabase_auth_linking.py --url "$base/auth/v1" \
  --key-file "$work/apple-key.pem" --issuer "$issuer" --client-id "$client_id" &
flows_pid=$!
pids+=("$flows_pid")
status=0
wait "$flows_pid" || status=$?
[[ "$status" -eq 124 ]] && fail "the linking checks did not finish within 30 s"
[[ "$status" -eq 0 ]] || fail "the linking checks failed (exit $status)"
# The account flows leave from 127.0.0.2: the per-IP mail budget the flows above spent is not theirs.
timeout --kill-after=5 "$flows_timeout" "$python" "$accounts" --url "$base/auth/v1" --maildir "$work/mail" \
  --local-address 127.0.0.2 &
flows_pid=$!
pids+=("$flows_pid")
status=0
wait "$flows_pid" || status=$?
[[ "$status" -eq 124 ]] && fail "the account flows did not finish within $flows_timeout s"
[[ "$status" -eq 0 ]] || fail "the account flows failed (exit $status)"

# DPoP (issue 43, item 9): proofs built with `cryptography` by a client that imports nothing of
# this repository, and supabase_auth unbound beside it; from 127.0.0.3, its own anonymous budget.
timeout --kill-after=5 20 "$python" Tests/Acceptance/dpop_interop.py --url "$base" --local-address 127.0.0.3 &
flows_pid=$!
pids+=("$flows_pid")
status=0
wait "$flows_pid" || status=$?
[[ "$status" -eq 124 ]] && fail "the DPoP interop client did not finish within 20 s"
[[ "$status" -eq 0 ]] || fail "the DPoP interop client failed (exit $status)"

if grep -qiE 'fatal|crash' "$work/server.log"; then
  fail "auth-server logged a crash"
fi
kill -0 "$server_pid" 2>/dev/null || fail "auth-server is no longer running after the flows"
echo "supabase-acceptance: all flows passed"
