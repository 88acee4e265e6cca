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
for target in JWTClaimsFuzz ServerErrorBodyFuzz; do
  bin="$out/$target"
  if [ ! -x "$bin" ] || [ -n "$(find Fuzz/$target.swift $core -newer "$bin" 2>/dev/null | head -n 1)" ]; then
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name SessionCoreFuzz \
      Fuzz/$target.swift $core -o "$bin" 2>"$out/$target.build.log" || { cat "$out/$target.build.log"; exit 1; }
  fi
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  cp Fuzz/seeds/$target/* "$corpus/" 2>/dev/null || true
  echo "fuzz: $target, $runs runs"
  "$bin" -runs="$runs" -max_len=4096 -timeout=5 -print_final_stats=1 "$corpus" 2>&1 \
    | grep -E "Done|stat::number_of_executed_units|ERROR|SUMMARY|crash" || true
  # libFuzzer exits non-zero on a crash; re-check so the script fails loudly.
  "$bin" -runs=0 "$corpus" >/dev/null 2>&1
done
