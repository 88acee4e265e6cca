import _CryptoExtras
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer
import Testing

/// Sign in with Apple by ID token (`grant_type=id_token`), against a JWKS
/// served on loopback and RSA keys made here: Apple's checks, and identities
/// linked by `(provider, sub)`, never by email.
struct AppleIDTokenTests {
    static let clientID = "com.example.app"
    /// RSA key generation is slow: one key for the suite, one stranger for forgeries.
    static let appleKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let strangerKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    static func jwks() throws -> JWKS {
        let primitives = try appleKey.publicKey.getKeyPrimitives()
        return JWKS(keys: [
            JWK(kty: "RSA", crv: nil, x: nil, y: nil, kid: "apple-1", alg: "RS256", use: "sig",
                n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
        ])
    }

    static func nonceHash(_ raw: String) -> String {
        SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// An ID token as Apple shapes it; `change` edits the claims, `key`/`alg`/`kid` forge.
    static func idToken(
        now: Date, sub: String = "001234.abcd", nonce: String? = "raw-nonce", email: String? = "ada@privaterelay.appleid.com",
        key: _RSA.Signing.PrivateKey = appleKey, alg: String = "RS256", kid: String = "apple-1",
        change: (inout [String: JSONValue]) -> Void = { _ in }
    ) throws -> String {
        var claims: [String: JSONValue] = [
            "iss": .string("https://appleid.apple.com"), "aud": .string(clientID), "sub": .string(sub),
            "iat": .number(now.timeIntervalSince1970.rounded()), "exp": .number(now.timeIntervalSince1970.rounded() + 600),
            "email_verified": .string("true"), "is_private_email": .string("true"),
        ]
        if let nonce { claims["nonce"] = .string(nonceHash(nonce)) }
        if let email { claims["email"] = .string(email) }
        change(&claims)
        let header = Base64URL.encode(Data(#"{"alg":"\#(alg)","kid":"\#(kid)"}"#.utf8))
        let payload = Base64URL.encode(try JSONEncoder().encode(claims))
        let input = header + "." + payload
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// An auth server whose Apple keys come from a real loopback JWKS server.
    static func withServer(
        _ database: TestDatabase = .sqlite, live: Bool = false,
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let keys = try jwks()
        let router = Router()
        let document = try JSONEncoder().encode(keys)
        router.get("auth/keys") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
        }
        try await Application(router: router).test(.live) { jwksServer in
            let port = try #require(jwksServer.port)
            let test = try await TestServer.make(database) {
                $0.apple = AppleSignInConfiguration(
                    clientIDs: [clientID, "com.example.web"], jwksURL: URL(string: "http://127.0.0.1:\(port)/auth/keys")!)
            }
            if live {
                try await test.runLive { client in try await body(test, client) }
            } else {
                try await test.run { client in try await body(test, client) }
            }
        }
    }

    static func signIn(_ client: any TestClientProtocol, _ token: String, nonce: String? = "raw-nonce") async throws -> TestResponse {
        let nonceField = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return try await client.send(
            .post, "/auth/v1/token?grant_type=id_token",
            json: #"{"provider":"apple","id_token":"\#(token)"\#(nonceField)}"#)
    }

    @Test(arguments: TestDatabase.all)
    func signsInLinksBySubAndRefreshes(database: TestDatabase) async throws {
        try await Self.withServer(database) { test, client in
            let first = try await Self.signIn(client, try Self.idToken(now: test.clock.now)).decode(TokenResponse.self)
            #expect(first.user?.email == "ada@privaterelay.appleid.com")
            #expect(first.user?.identities?.first?.provider == "apple")
            // The same Apple account, another email (the person changed it): the same user.
            let again = try await Self.signIn(
                client, try Self.idToken(now: test.clock.now, email: "other@example.com")).decode(TokenResponse.self)
            #expect(again.user?.id == first.user?.id)
            #expect(try await client.refresh(first.refreshToken).status == .ok)
            let settings = try await client.send(.get, "/auth/v1/settings").jsonObject()
            #expect((settings["external"] as? [String: Any])?["apple"] as? Bool == true)
        }
    }

    @Test func anEmailAlreadyTakenIsNotLinked() async throws {
        try await Self.withServer { test, client in
            let owner = try await client.signUp("ada@example.com")
            let apple = try await Self.signIn(client, try Self.idToken(now: test.clock.now, email: "ada@example.com"))
                .decode(TokenResponse.self)
            #expect(apple.user?.id != owner.user?.id)
            #expect(apple.user?.email == nil)
        }
    }

    static let refusals: [(String, @Sendable (Date) throws -> String, String?)] = [
        ("signed by another key", { try idToken(now: $0, key: strangerKey) }, "raw-nonce"),
        ("alg none", { try idToken(now: $0, alg: "none") }, "raw-nonce"),
        ("HS256", { try idToken(now: $0, alg: "HS256") }, "raw-nonce"),
        ("unknown kid", { try idToken(now: $0, kid: "apple-9") }, "raw-nonce"),
        ("another issuer", { try idToken(now: $0) { $0["iss"] = .string("https://evil.example") } }, "raw-nonce"),
        ("another app", { try idToken(now: $0) { $0["aud"] = .string("com.evil.app") } }, "raw-nonce"),
        ("expired", { now in try idToken(now: now) { $0["exp"] = .number(now.timeIntervalSince1970 - 120) } }, "raw-nonce"),
        ("no exp", { try idToken(now: $0) { $0["exp"] = nil } }, "raw-nonce"),
        ("wrong nonce", { try idToken(now: $0) }, "another-nonce"),
        ("nonce in the token, none sent", { try idToken(now: $0) }, nil),
        ("nonce sent, none in the token", { try idToken(now: $0, nonce: nil) }, "raw-nonce"),
        ("no sub", { try idToken(now: $0) { $0["sub"] = nil } }, "raw-nonce"),
        ("garbage", { _ in "not.a.jwt" }, "raw-nonce"),
    ]

    @Test func refusesWhatAppleDidNotSignForThisApp() async throws {
        try await Self.withServer { test, client in
            for (name, make, nonce) in Self.refusals {
                let response = try await Self.signIn(client, try make(test.clock.now), nonce: nonce)
                #expect(response.status == .badRequest, "\(name)")
                #expect(response.goTrueErrorCode == "bad_jwt", "\(name)")
            }
            // The Services ID is a listed client too; an array `aud` works.
            let web = try Self.idToken(now: test.clock.now) { $0["aud"] = .array([.string("com.example.web")]) }
            #expect(try await Self.signIn(client, web).status == .ok)
        }
    }

    @Test func withoutAppleConfiguredTheGrantSaysSo() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let response = try await Self.signIn(client, try Self.idToken(now: test.clock.now))
            #expect(response.status == .badRequest)
            #expect(response.goTrueErrorCode == "provider_disabled")
        }
    }

    /// The SDK's `signInWithApple` against the live server: a stored session;
    /// a refused token is `invalidCredentials` naming the check, and keeps the session it had.
    @Test func theSDKSignsInWithAppleEndToEnd() async throws {
        try await Self.withServer(live: true) { test, client in
            let port = try #require(client.port)
            let sdk = test.sdkClient(port: port)
            let nonce = AppleSignInNonce()
            let token = try Self.idToken(now: test.clock.now, nonce: nonce.raw)
            let session = try await sdk.signInWithApple(idToken: token, nonce: nonce.raw)
            #expect(session.user?.identities?.first?.provider == "apple")
            #expect(sdk.currentState == .signedIn(session))

            let refused = await #expect(throws: SessionError.self) {
                try await sdk.signInWithApple(idToken: token, nonce: AppleSignInNonce().raw)
            }
            #expect(refused == .invalidCredentials)
            #expect(refused?.message.contains("nonce") == true)
            #expect(sdk.currentState == .signedIn(session))
        }
    }
}
