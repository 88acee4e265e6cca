#!/usr/bin/env bash
# The public API does not break within the 0.x series: the client's library
# products are compared with a named base by
# `swift package diagnose-api-breaking-changes`, which builds the base in a
# scratch copy and fails on any removed or changed public declaration.
#
# The base: $SESSIONKIT_API_BASE if set, else the last release tag, else the
# commit before the engine/flows split (issue 36), whose API it kept.
#
# Cost: a clean build of the base (swift-crypto's BoringSSL most of it) plus
# this tree's modules: 1,255 s measured on 2 cores shared with five other
# builds (2026-11-27); alone it is about a clean client build.
set -euo pipefail
cd "$(dirname "$0")/.."

default_base="a9bcd78"
base="${SESSIONKIT_API_BASE:-}"
if [ -z "$base" ]; then
    base="$(git describe --tags --abbrev=0 --match '[0-9]*' 2>/dev/null || true)"
fi
base="${base:-$default_base}"

# A shallow clone may not hold the base: fetch it once rather than fail obscurely.
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    echo "check-api: fetching $base"
    git fetch --quiet --depth=1 origin "$base" || { echo "check-api: the base $base is not in this clone" >&2; exit 1; }
fi

echo "check-api: comparing the public API with $base"
start=$(date +%s)
# A break a minor 0.x version makes on purpose (CHANGELOG.md says what to change)
# is listed, message by message, in scripts/api-breakage-allowlist.txt.
allow=()
[ -f scripts/api-breakage-allowlist.txt ] && allow=(--breakage-allowlist-path scripts/api-breakage-allowlist.txt)
swift package diagnose-api-breaking-changes "$base" --products SessionKit SessionCore SessionKitTesting "${allow[@]}"
echo "check-api: no API break against $base ($(( $(date +%s) - start )) s)"
