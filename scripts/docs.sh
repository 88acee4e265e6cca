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
set -euo pipefail
cd "$(dirname "$0")/.."
output=".build-docs/SessionKit.doccarchive"
SESSIONKIT_DOCC=1 swift package --scratch-path .build-docs \
    --allow-writing-to-directory .build-docs \
    generate-documentation --target SessionKit --warnings-as-errors --output-path "$output"
echo "docs: ok ($output)"
