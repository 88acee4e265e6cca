#!/usr/bin/env bash
# Runs schemathesis (from PyPI) against a live auth-server on loopback, with
# openapi.yaml as the contract: zero 5xx, and every response's status,
# content type, headers and body must match the document.
#
#   scripts/schemathesis.sh                      # CI size (SCHEMATHESIS_EXAMPLES=25)
#   SCHEMATHESIS_EXAMPLES=500 scripts/schemathesis.sh   # full size
#   SCHEMATHESIS_DATABASE=postgres://… scripts/schemathesis.sh   # against PostgreSQL
#
# Needs the debug build (`swift build`), python3 and PyPI. Installs
# schemathesis into .build/schemathesis-venv once. Exits non-zero on any
# failure. Environment: SCHEMATHESIS_VERSION, SCHEMATHESIS_EXAMPLES,
# SCHEMATHESIS_SEED, AUTH_SERVER (the binary), SCHEMATHESIS_DATABASE (a
# PostgreSQL URL; a fresh schema is used in it; default a temporary SQLite file).
set -euo pipefail
cd "$(dirname "$0")/.."

version="${SCHEMATHESIS_VERSION:-4.32.5}"
examples="${SCHEMATHESIS_EXAMPLES:-25}"
seed="${SCHEMATHESIS_SEED:-20261122}"
server_binary="${AUTH_SERVER:-.build/debug/auth-server}"
venv=.build/schemathesis-venv

if [[ ! -x "$server_binary" ]]; then
  echo "No $server_binary: build first (swift build)." >&2
  exit 2
fi
if [[ ! -x "$venv/bin/schemathesis" ]] || [[ "$("$venv/bin/schemathesis" --version)" != *"$version"* ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==$version"
fi

work="$(mktemp -d)"
database="$work/auth.sqlite"
if [[ -n "${SCHEMATHESIS_DATABASE:-}" ]]; then
  # A schema of its own, so runs never meet each other's rows.
  separator="?"; [[ "$SCHEMATHESIS_DATABASE" == *"?"* ]] && separator="&"
  database="${SCHEMATHESIS_DATABASE}${separator}schema=schemathesis_$(date +%s)_$$"
fi
server_pid=""
cleanup() {
  # SIGKILL: the server holds nothing worth a graceful stop (a temp SQLite file).
  if [[ -n "$server_pid" ]]; then kill -9 "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Passkeys and the apple-app-site-association on, so their routes answer more than 404
# (off, every passkey route is 404 passkey_disabled: PasskeyRoutesTests).
"$server_binary" serve --host 127.0.0.1 --port 0 --database "$database" --log-level info \
  --passkeys --webauthn-rp-id example.com --webauthn-rp-display-name Example --webauthn-rp-origins https://example.com \
  --apple-app-ids ABCDE12345.com.example.app \
  >"$work/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 300); do
  port="$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" | head -1 | cut -d: -f2 || true)"
  [[ -n "$port" ]] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
[[ -n "$port" ]] || { echo "auth-server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
base="http://127.0.0.1:$port"

# A signed-in user for the Bearer routes (one per phase: phase 2 ends sessions).
# Both sign up before phase 1: its fuzzing spends the per-IP sign-up limit, and
# a sign-up after it got 429, so phase 2 once ran with an empty Bearer token.
# A token that cannot be had stops the run (a `$(…)` inside an argument would
# not trip `set -e`).
token() {
  local answer
  answer="$(curl -s -X POST "$base/auth/v1/signup" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1@example.com\",\"password\":\"correct-horse-battery\"}")"
  python3 -c 'import json,sys; print(json.loads(sys.argv[1])["access_token"])' "$answer" 2>/dev/null || {
    echo "sign-up of $1 gave no access token: ${answer:0:200}" >&2
    return 1
  }
}
phase1_token="$(token phase1)"
phase2_token="$(token phase2)"

checks="${SCHEMATHESIS_CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance}"
repo="$(pwd)"
run() {
  # From the temporary folder: schemathesis keeps state in ./.schemathesis.
  (cd "$work" && "$repo/$venv/bin/schemathesis" run "$repo/openapi.yaml" --url "$base" --checks "$checks" \
    --max-examples "$examples" --seed "$seed" --workers 1 --no-color \
    --suppress-health-check all --warnings off --generation-database none "$@")
}

# Never echo the URL: it may carry the database password.
echo "schemathesis $version against $base ($([[ -n "${SCHEMATHESIS_DATABASE:-}" ]] && echo PostgreSQL || echo SQLite)), $examples examples per operation, seed $seed"
status=0
# Phase 1: everything that keeps the session alive, and the stateful run that
# follows openapi.yaml's links (sign-up → refresh → refresh …).
run -H "Authorization: Bearer $phase1_token" \
  --exclude-operation-id logout --exclude-operation-id deleteMe --exclude-operation-id revokeSession || status=$?
# Phase 2: the operations that end sessions or the account, with a fresh user.
run -H "Authorization: Bearer $phase2_token" \
  --include-operation-id logout --include-operation-id deleteMe --include-operation-id revokeSession \
  --phases examples,coverage,fuzzing || status=$?

if grep -qiE 'fatal|crash' "$work/server.log"; then
  echo "auth-server logged a crash:" >&2
  cat "$work/server.log" >&2
  status=1
fi
exit "$status"
