#!/usr/bin/env bash
# Builds each libFuzzer target against SessionCore's sources and runs it.
# Usage: Fuzz/run.sh [runs]   (default 10000; the published figures used 1000000)
# Each target is compiled with swiftc directly: a fuzzer supplies its own
# main, which a SwiftPM executable target cannot leave out.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10000}"
out="${FUZZ_OUT:-.build-fuzz}"
mkdir -p "$out"
core=$(find Sources/SessionCore -name '*.swift' | sort)
# Extra sources per target: the callback parser lives in SessionKit but
# depends on Foundation alone, so it compiles without SessionKit's packages.
extra_OAuthCallbackFuzz="Sources/SessionKit/OAuth/OAuthCallback.swift Sources/SessionKit/OAuth/OAuthCallbackError.swift"
for target in JWTClaimsFuzz ServerErrorBodyFuzz OAuthCallbackFuzz; do
  extra_var="extra_$target"
  extra="${!extra_var:-}"
  bin="$out/$target"
  if [ ! -x "$bin" ] || [ -n "$(find Fuzz/$target.swift $core $extra -newer "$bin" 2>/dev/null | head -n 1)" ]; then
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name SessionCoreFuzz \
      Fuzz/$target.swift $core $extra -o "$bin" 2>"$out/$target.build.log" || { cat "$out/$target.build.log"; exit 1; }
  fi
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  cp Fuzz/seeds/$target/* "$corpus/" 2>/dev/null || true
  # 16 KiB: past the 8 KiB JWT limit, so the size checks themselves are fuzzed.
  echo "fuzz: $target, $runs runs"
  log="$out/$target.log"
  status=0
  "$bin" -runs="$runs" -max_len=16384 -timeout=5 -print_final_stats=1 -artifact_prefix="$out/$target-" \
    "$corpus" >"$log" 2>&1 || status=$?
  grep -E "^Done|stat::number_of_executed_units" "$log" || true
  # libFuzzer exits non-zero on a crash, leak or timeout and saves the input
  # beside the log; fail loudly so CI does too.
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $target FAILED (exit $status); input saved as $out/$target-*"
    tail -n 40 "$log"
    exit 1
  fi
done
