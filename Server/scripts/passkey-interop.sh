#!/usr/bin/env bash
# Passkeys against a live auth-server, driven by a software authenticator
# built on python-fido2 and cryptography (Tests/Acceptance/passkey_interop.py):
# registration, sign-in, management and the attacks of issue 39, item 10.
#
#   scripts/passkey-interop.sh        # from anywhere; about 5 s once built
#
# Needs the debug build (`swift build`) and python3 with fido2 and
# cryptography. Environment: AUTH_SERVER (the binary), PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

server_binary="${AUTH_SERVER:-.build/debug/auth-server}"
python="${PYTHON:-python3}"
if [[ ! -x "$server_binary" ]]; then
  echo "No $server_binary: build first (swift build)." >&2
  exit 2
fi
if ! "$python" -c 'import fido2, cryptography' 2>/dev/null; then
  echo "$python lacks fido2 or cryptography: pip install fido2 cryptography" >&2
  exit 2
fi

script_name=passkey-interop
source scripts/live-server.sh
start_auth_server --passkeys --webauthn-rp-id example.com --webauthn-rp-display-name Example \
  --webauthn-rp-origins https://example.com
timeout 60 "$python" Tests/Acceptance/passkey_interop.py "http://127.0.0.1:$port"
