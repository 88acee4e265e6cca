#!/usr/bin/env bash
# Builds each libFuzzer target from its Fuzz/<Target>.swift plus the sources it
# needs, and runs it over a corpus seeded from Fuzz/seeds/<Target>/.
# Usage: Fuzz/run.sh [runs]   (default 10000; the published figures used 1000000)
# Each target is compiled with swiftc directly: a fuzzer supplies its own
# main, which a SwiftPM executable target cannot leave out.
#
# A target gets SessionCore's sources plus the files in extra_<Target>;
# core_<Target>=no leaves SessionCore out, module_<Target> renames the module.
# Client targets: JWTClaimsFuzz, ServerErrorBodyFuzz, OAuthCallbackFuzz
# Server targets (Server/Sources/SessionServer files that import Foundation
# alone, or SessionCore too, so the server's packages are never built):
#   RedirectAllowListFuzz  redirect allow-list parsing and allows(_:)
#   EmailInputFuzz         MailAddress, MailTemplate rendering, MIME output, BanDuration
#   ProviderResponseFuzz   provider token/user-info JSON to ProviderAccount; JWK/JWKS decoding
#   SMTPURLFuzz            SMTPConfiguration(url:)
#   WebAuthnParsersFuzz    the hand-written CBOR decoder, COSE keys, authenticator data,
#                          attestation objects and client data (passkeys, docs/PASSKEYS.md)
#   DPoPProofFuzz          DPoP proofs (compact JWS, JOSE header, jwk, claims), the hand-written
#                          JSON fast path against JSONDecoder, and htu normalisation
#                          (docs/DPOP.md); the signature check is swift-crypto's
# PEM keys are not a target: the server hands PEM text straight to
# swift-crypto (P256.Signing.PrivateKey(pemRepresentation:)), whose parser is
# BoringSSL's and fuzzed upstream; what is ours around keys, JWK and JWKS
# decoding, is in ProviderResponseFuzz.
# Server files that use ConfigurationError get a stub in the target file: the
# real one is declared in Storage/PostgresDriver.swift, which needs PostgresKit.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10000}"
out="${FUZZ_OUT:-.build-fuzz}"
mkdir -p "$out"
core=$(find Sources/SessionCore -name '*.swift' | sort)
# Extra sources per target: the callback parser lives in SessionKit but
# depends on Foundation alone, so it compiles without SessionKit's packages.
extra_OAuthCallbackFuzz="Sources/SessionKit/OAuth/OAuthCallback.swift Sources/SessionKit/OAuth/OAuthCallbackError.swift"
# The token target also checks the base64url decoder against Foundation's.
extra_JWTClaimsFuzz="Fuzz/FuzzCheck.swift"
# Server targets: SessionServer as a whole needs Hummingbird, NIO and Postgres,
# but these files need Foundation alone (ProviderAccount.swift also SessionCore).
server=Server/Sources/SessionServer
core_RedirectAllowListFuzz=no
# Every server target checks properties through Fuzz/FuzzCheck.swift.
extra_RedirectAllowListFuzz="Fuzz/FuzzCheck.swift $server/Configuration/RedirectAllowList.swift \
$server/Configuration/ConfigurationError.swift"
core_EmailInputFuzz=no
extra_EmailInputFuzz="$server/Mail/MailAddress.swift $server/Mail/MailError.swift $server/Mail/MailMessage.swift \
$server/Mail/MailMessage+MIME.swift $server/Mail/MIMEEncoding.swift $server/Mail/RFC5322Date.swift \
$server/Mail/MailTemplate.swift $server/Admin/BanDuration.swift $server/Errors/AuthError.swift \
$server/Configuration/ConfigurationError.swift Fuzz/FuzzCheck.swift"
# ProviderAccount.swift says `import SessionCore`: naming the module SessionCore
# turns that import into a warning instead of a missing module.
module_ProviderResponseFuzz=SessionCore
extra_ProviderResponseFuzz="$server/OAuth/ProviderAccount.swift $server/Tokens/JWK.swift Fuzz/FuzzCheck.swift"
core_SMTPURLFuzz=no
extra_SMTPURLFuzz="$server/Mail/SMTP/SMTPConfiguration.swift $server/Mail/SMTP/SMTPConfiguration+URL.swift \
$server/Mail/MailError.swift Fuzz/FuzzCheck.swift"
core_WebAuthnParsersFuzz=no
webauthn=$server/WebAuthn
extra_WebAuthnParsersFuzz="$webauthn/CBORValue.swift $webauthn/CBORError.swift $webauthn/CBORDecoder.swift \
$webauthn/COSEKey.swift $webauthn/WebAuthnError.swift $webauthn/AuthenticatorData.swift $webauthn/AttestationObject.swift \
$webauthn/ClientData.swift Fuzz/FuzzCheck.swift"
# The DPoP files say `import SessionCore`: as for ProviderResponseFuzz, the module is named so.
module_DPoPProofFuzz=SessionCore
dpop=$server/DPoP
extra_DPoPProofFuzz="$dpop/DPoPError.swift $dpop/DPoPProof.swift $dpop/DPoPPublicKey.swift $dpop/DPoPURL.swift \
$dpop/DPoPPlainJSON.swift Fuzz/FuzzCheck.swift"
for target in JWTClaimsFuzz ServerErrorBodyFuzz OAuthCallbackFuzz \
  RedirectAllowListFuzz EmailInputFuzz ProviderResponseFuzz SMTPURLFuzz WebAuthnParsersFuzz DPoPProofFuzz; do
  extra_var="extra_$target"
  extra="${!extra_var:-}"
  core_var="core_$target"
  sources="$core"
  if [ "${!core_var:-yes}" = no ]; then sources=""; fi
  module_var="module_$target"
  module="${!module_var:-SessionCoreFuzz}"
  bin="$out/$target"
  if [ ! -x "$bin" ] || [ -n "$(find Fuzz/$target.swift $sources $extra -newer "$bin" 2>/dev/null | head -n 1)" ]; then
    # -package-name: the server files it compiles declare some types `package` (for the benchmarks).
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "$module" -package-name SessionKitFuzz \
      Fuzz/$target.swift $sources $extra -o "$bin" 2>"$out/$target.build.log" || { cat "$out/$target.build.log"; exit 1; }
  fi
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  cp Fuzz/seeds/$target/* "$corpus/" 2>/dev/null || true
  # 16 KiB: past the 8 KiB JWT limit, so the size checks themselves are fuzzed.
  echo "fuzz: $target, $runs runs"
  log="$out/$target.log"
  status=0
  # The Swift runtime's own crash backtracer would bury the fatal message
  # under ASan noise about its helper thread; libFuzzer prints the stack.
  SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}" "$bin" -runs="$runs" -max_len=16384 -timeout=5 -print_final_stats=1 -artifact_prefix="$out/$target-" \
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
