#!/usr/bin/env bash
# Tags a release of SessionKit: the version stated in
# Sources/SessionKit/SessionKitVersion.swift, once CHANGELOG.md's newest
# heading and the README's install line say the same and the tests pass.
#
#   scripts/release.sh            # checks, then creates the tag (no push)
#   scripts/release.sh --check    # checks only
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/.*static let current = "\([0-9.]*\)".*/\1/p' Sources/SessionKit/SessionKitVersion.swift)
[ -n "$version" ] || { echo "release: no version in SessionKitVersion.swift" >&2; exit 1; }
newest=$(grep -m1 '^## ' CHANGELOG.md | sed 's/^## \([^ ]*\).*/\1/')
[ "$newest" = "$version" ] || { echo "release: CHANGELOG.md's newest heading is $newest, the package states $version" >&2; exit 1; }
grep -q "from: \"$version\"" README.md || { echo "release: the README's install line does not name $version" >&2; exit 1; }
if grep -m1 '^## ' CHANGELOG.md | grep -q unreleased; then
    echo "release: CHANGELOG.md still says '$version (unreleased)': give it the release date first" >&2
    [ "${1:-}" = "--check" ] && exit 0 || exit 1
fi
[ "${1:-}" = "--check" ] && { echo "release: $version is consistent"; exit 0; }
git diff --quiet && git diff --cached --quiet || { echo "release: commit your changes first" >&2; exit 1; }
scripts/test client
git tag -a "$version" -m "SessionKit $version"
echo "release: tagged $version; push it with: git push origin $version"
