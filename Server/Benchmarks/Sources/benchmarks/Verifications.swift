import Crypto
import Foundation
import SessionCore
import SessionServer

/// Item 9: the server's newer verifications beside the raw crypto each one
/// needs, one thread, in the same run: a TOTP check beside the three
/// HMAC-SHA-1s of its ±1-step window, a passkey assertion beside one ES256
/// verify of the same signed bytes, a DPoP proof beside one ES256 verify of
/// its signing input (Verifications+DPoP.swift).
///
/// Every pair is one ``VerificationPair``; all pairs' arms run in each
/// repetition, interleaved (A B C D, then D C B A, …), and each ratio is
/// taken within one repetition. A pair's ratio over 1 would mean the server
/// path is cheaper than its own crypto: it cannot be, so ~1 is the ceiling.
enum Verifications {
    /// The goal for every pair: the server's path at ≥ 0.8 of the rate its crypto alone allows.
    static let goal = Goal.atLeast(0.8)

    /// A server verification and the raw crypto it cannot do without.
    struct VerificationPair {
        /// What the server verifies, as the figure names it ("TOTP verify").
        let name: String
        /// What the raw arm does, as the figure names it ("3 × HMAC-SHA-1").
        let rawName: String
        /// One verification through the server's own code; throws when it refuses.
        let verify: () throws -> Void
        /// The raw crypto of one verification; returns whether it accepted.
        let raw: () -> Bool
    }

    static func run(report: Report, quick: Bool) async throws {
        let seconds = quick ? 0.2 : 0.5
        // Adding a verification is one more element here (and nothing else).
        let pairs = [try totpPair(), try passkeyPair(), try dpopPair()]
        // Both arms of every pair must accept before either is timed.
        for pair in pairs {
            try pair.verify()
            guard pair.raw() else { throw BenchError("\(pair.name): the raw arm refused its own input") }
        }
        var arms: [() async throws -> Double] = []
        for pair in pairs {
            arms.append { try rate(seconds, pair.verify) }
            arms.append { rate(seconds) { _ = pair.raw() } }
        }
        let results = try await Repeated.rounds(Repeated.repetitions, arms)
        for (index, pair) in pairs.enumerated() {
            let (server, raw) = (2 * index, 2 * index + 1)
            let serverRate = Spread(results.map { $0[server] })
            let rawRate = Spread(results.map { $0[raw] })
            await report.add("9", "\(pair.name): verifications/s, the server's code, 1 thread", serverRate, format: Format.rate)
            await report.add("9", "\(pair.name): \(pair.rawName)/s, raw, 1 thread", rawRate, format: Format.rate)
            await report.add(
                "9", "\(pair.name) ÷ \(pair.rawName) (rate)", Spread(results.map { $0[server] / $0[raw] }), goal: goal,
                detail: String(
                    format: "%.1f µs vs %.1f µs a verification", 1e6 / serverRate.median, 1e6 / rawRate.median))
        }
    }

    /// FactorService.verify's code check: the opened secret's base32 decoded,
    /// then `TOTP.matchingStep` (every step of the window compared in constant
    /// time). Raw: the window's three HMAC-SHA-1s with a key made once.
    static func totpPair() throws -> VerificationPair {
        let secretBytes = (0..<20).map { _ in UInt8.random(in: .min ... .max) }
        let secret = Base32.encode(secretBytes)
        let now = Date()
        let code = TOTP(secret: secretBytes).code(step: TOTP.step(at: now))
        let key = SymmetricKey(data: secretBytes)
        guard let expected = UInt32(code) else { throw BenchError("TOTP: the code is not six digits") }
        let current = TOTP.step(at: now)
        let counters = (current - 1...current + 1).map { step in
            withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Data($0) }
        }
        return VerificationPair(
            name: "TOTP verify", rawName: "3 × HMAC-SHA-1",
            verify: {
                guard let bytes = Base32.decode(secret), TOTP(secret: bytes).matchingStep(of: code, at: now) != nil else {
                    throw BenchError("TOTP: the current code did not match")
                }
            },
            raw: {
                // The three MACs, and the current step's truncated to the code (RFC 4226 §5.3) to accept.
                var current: UInt32 = 0
                for (index, counter) in counters.enumerated() {
                    let mac = HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: key)
                    if index == 1 { current = mac.withUnsafeBytes(truncated) }
                }
                return current == expected
            })
    }

    /// `WebAuthnVerifier.verifyAssertion` with the stored COSE key, as
    /// PasskeyService calls it. Raw: one ES256 verify of the same signed bytes
    /// (authenticator data ‖ SHA-256(client data)) with the key and signature
    /// already parsed.
    static func passkeyPair() throws -> VerificationPair {
        let rpID = "example.com"
        let origin = "https://example.com"
        let verifier = WebAuthnVerifier(rpID: rpID, origins: [origin])
        let privateKey = P256.Signing.PrivateKey()
        let challenge = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        let clientData = Array(
            #"{"type":"webauthn.get","challenge":"\#(Base64URL.encode(Data(challenge)))","origin":"\#(origin)","crossOrigin":false}"#
                .utf8)
        // RP ID hash, flags UP | UV | BE | BS (a synced passkey), counter 0 (synced passkeys report none).
        let authenticatorData = Array(SHA256.hash(data: Array(rpID.utf8))) + [0x1d, 0, 0, 0, 0]
        let signed = authenticatorData + Array(SHA256.hash(data: clientData))
        let signature = try privateKey.signature(for: signed)
        let der = Array(signature.derRepresentation)
        let coseKey = COSEKey(algorithm: .es256, publicKey: Array(privateKey.publicKey.rawRepresentation))
        let publicKey = privateKey.publicKey
        return VerificationPair(
            name: "passkey assertion verify", rawName: "ES256 verify",
            verify: {
                _ = try verifier.verifyAssertion(
                    clientDataJSON: clientData, authenticatorData: authenticatorData, signature: der,
                    challenge: challenge, publicKey: coseKey, storedSignCount: 0, storedBackupEligible: true)
            },
            raw: { publicKey.isValidSignature(signature, for: signed) })
    }

    /// RFC 4226 §5.3's dynamic truncation of a 20-byte MAC, as a six-digit number.
    static func truncated(_ mac: UnsafeRawBufferPointer) -> UInt32 {
        let offset = Int(mac[19] & 0x0F)
        let value = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        return value % 1_000_000
    }

    /// Operations per second of `body` on this thread, run back to back for `seconds`.
    static func rate(_ seconds: Double, _ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        var count = 0
        while ContinuousClock.now < deadline {
            for _ in 0..<50 { try body() }
            count += 50
        }
        return Double(count) / (ContinuousClock.now - start).seconds
    }
}
