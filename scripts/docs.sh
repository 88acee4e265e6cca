#!/usr/bin/env bash
# Builds SessionKit's DocC documentation with swift-docc-plugin and fails on
# any warning in it (a broken symbol link, a missing article): CI runs it.
#
#   scripts/docs.sh            # archive in .build-docs/SessionKit.doccarchive
#
# The plugin is added to the manifest only when SESSIONKIT_DOCC is set, so an
# app that depends on this package never resolves it (scripts/check-consumer.sh).
# --warnings-as-errors applies to SessionKit's own catalog and doc comments;
# dependencies' documentation is not built.
# It builds in the package's own .build, where scripts/test has built
# SessionKit's dependencies already: a folder of its own rebuilt swift-crypto
# for two of CI's minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
output=".build-docs/SessionKit.doccarchive"
mkdir -p .build-docs
SESSIONKIT_DOCC=1 swift package \
    --allow-writing-to-directory .build-docs \
    generate-documentation --target SessionKit --warnings-as-errors --output-path "$output"
echo "docs: ok ($output)"
