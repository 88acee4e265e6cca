import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JWTKit
import SessionCore
import SessionKit
import SessionServer

/// Item 7: our hand-written ES256 verification and signing beside jwt-kit 5's,
/// on the same token and the same claims, in one thread, interleaved.
///
/// Verify: a real access token from this server, through
/// `AccessTokenVerifier.verify` and through `JWTKeyCollection.verify` with the
/// server's public key under the same kid. Sign: the service-role key through
/// `AuthServer.serviceRoleKey` (the issuer's public entry point: key-ring
/// lookup, JSON, base64url, ECDSA) against `JWTKeyCollection.sign` of the same
/// claims with a P-256 key of its own (the key does not change the cost).
enum JWTKitComparison {
    static func run(report: Report, quick: Bool) async throws {
        let seconds = quick ? 0.3 : 1
        let server = try await Bench.makeServer(Bench.serverConfiguration(clock: SystemClock()))
        try await server.withRunningServer { baseURL in
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            let token = try await Bench.signUp(baseURL, email: "jwtkit@example.com", transport: transport).accessToken
            let kid = try await server.keyRing.currentKeyID()
            guard let publicKey = try await server.keyRing.verificationKey(kid: kid) else {
                throw BenchError("the key ring has no key for its own kid")
            }
            let verifying = JWTKeyCollection()
            await verifying.add(ecdsa: try ES256PublicKey(backing: publicKey), kid: JWKIdentifier(string: kid))
            let signing = JWTKeyCollection()
            await signing.add(ecdsa: ES256PrivateKey(), kid: "bench")
            let audience = server.configuration.audience
            let issuer = server.configuration.issuer
            let verifier = server.verifier

            // Both must accept the token before either is timed.
            _ = try await verifier.verify(token, now: Date())
            _ = try await jwtKitVerify(token, keys: verifying, audience: audience, issuer: issuer)

            let arms: [() async throws -> Double] = [
                { try await rate(seconds) { _ = try await verifier.verify(token, now: Date()) } },
                { try await rate(seconds) { try await jwtKitVerify(token, keys: verifying, audience: audience, issuer: issuer) } },
                { try await rate(seconds) { _ = try await server.serviceRoleKey(lifetime: 3600) } },
                { try await rate(seconds) { _ = try await signing.sign(serviceRole(audience: audience, issuer: issuer), kid: "bench") } },
            ]
            let results = try await Repeated.rounds(Repeated.repetitions, arms)
            await record(results, report: report)
        }
    }

    static func record(_ results: [[Double]], report: Report) async {
        let column = { (arm: Int) in Spread(results.map { $0[arm] }) }
        await report.add("7", "ES256 verifies/s, AccessTokenVerifier.verify (ours)", column(0), format: Format.rate)
        await report.add("7", "ES256 verifies/s, jwt-kit 5 JWTKeyCollection.verify", column(1), format: Format.rate)
        await report.add("7", "ES256 signs/s, our issuer (service-role key)", column(2), format: Format.rate)
        await report.add("7", "ES256 signs/s, jwt-kit 5 JWTKeyCollection.sign", column(3), format: Format.rate)
        for (name, ours, theirs) in [("verify", 0, 1), ("sign", 2, 3)] {
            let ratio = Spread(results.map { $0[ours] / $0[theirs] })
            await report.add("7", "\(name): ours ÷ jwt-kit (rate)", ratio, detail: verdict(ratio))
        }
    }

    /// Which is faster, claimed only when every repetition agrees.
    static func verdict(_ ratio: Spread) -> String {
        guard ratio.excludes(1) else { return "neither clearly faster: the repetitions straddle 1" }
        return ratio.median > 1 ? "ours is faster" : "jwt-kit is faster"
    }

    /// jwt-kit's verify plus the `aud` and `iss` checks ours makes inside its own.
    @discardableResult
    static func jwtKitVerify(_ token: String, keys: JWTKeyCollection, audience: String, issuer: String) async throws -> JWTKitPayloads.Access {
        let payload = try await keys.verify(token, as: JWTKitPayloads.Access.self)
        try payload.aud.verifyIntendedAudience(includes: audience)
        guard payload.iss.value == issuer else { throw BenchError("jwt-kit: unexpected iss") }
        return payload
    }

    static func serviceRole(audience: String, issuer: String) -> JWTKitPayloads.ServiceRole {
        let now = Date()
        return JWTKitPayloads.ServiceRole(
            sub: "service_role", aud: AudienceClaim(value: [audience]), role: "service_role",
            iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(3600)), iss: IssuerClaim(value: issuer))
    }

    /// Operations per second of `body`, run back to back for `seconds`.
    static func rate(_ seconds: Double, _ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        var count = 0
        while ContinuousClock.now < deadline {
            for _ in 0..<20 { try await body() }
            count += 20
        }
        return Double(count) / (ContinuousClock.now - start).seconds
    }
}
