#!/usr/bin/env bash
# Proves that an app adding this repository for `SessionKit` resolves nothing
# of the server's: a throwaway package depends on the repository root by path,
# resolves, and the packages SwiftPM cloned are compared with the allowed set
# (swift-log, swift-crypto and what they depend on themselves).
#
#   scripts/check-consumer.sh        # exits non-zero and names any extra package
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/App/Sources/App"
# A path dependency's identity is its folder's name: reach the root through one called SessionKit.
ln -s "$root" "$work/SessionKit"
cat > "$work/App/Package.swift" <<MANIFEST
// swift-tools-version:6.2
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "../SessionKit")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "SessionKit", package: "SessionKit")])]
)
MANIFEST
echo 'import SessionKit' > "$work/App/Sources/App/main.swift"
(cd "$work/App" && swift package resolve >/dev/null)
resolved="$(ls "$work/App/.build/checkouts" | sort)"
# swift-crypto 4 depends on swift-asn1; swift-log on nothing.
allowed="swift-asn1 swift-crypto swift-log"
extra=""
for package in $resolved; do
  case " $allowed " in *" $package "*) ;; *) extra="$extra $package" ;; esac
done
echo "an app depending on SessionKit resolves: $(echo $resolved | tr '\n' ' ')"
if [ -n "$extra" ]; then
  echo "check-consumer: FAILED, packages outside swift-log, swift-crypto and their dependencies:$extra" >&2
  exit 1
fi
echo "check-consumer: ok (nothing of the server's)"
