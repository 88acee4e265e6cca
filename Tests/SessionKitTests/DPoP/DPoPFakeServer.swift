#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting

/// The server half of the DPoP wire (docs/DPOP.md, "The proof", "Binding",
/// "Nonces"), as a transport: it checks every proof with swift-crypto as the
/// contract says (signature by the header's `jwk`, `typ`, `alg`, `htm`, `htu`
/// without query, `iat` within server time -300…+60 s, `jti` once, `ath`,
/// nonce, and the bound `jkt`), and answers as the contract's server does.
/// Written from the contract, not from the client's code: the thumbprint and
/// `htu` are computed here independently.
final class DPoPFakeServer: HTTPTransport, @unchecked Sendable {
    static let authURL = URL(string: "https://auth.example.com")!
    static let apiURL = URL(string: "https://api.example.com")!

    /// A proof that verified, as the server read it.
    struct Proof: Sendable {
        let jwkMembers: Set<String>
        let jti: String
        let htm: String
        let htu: String
        let iat: Int
        let ath: String?
        let nonce: String?
        let jkt: String
    }

    struct Refusal: Error {
        let reason: String
    }

    struct Received: Sendable {
        let method: String
        let url: URL
        let authorization: String?
        /// The proof, when it verified; `refusal` says why not otherwise.
        let proof: Proof?
        let refusal: String?
    }

    let clock: ManualClock
    /// Server time minus the device's.
    let serverOffset: TimeInterval
    // Everything below is touched under `lock` only (`@unchecked Sendable`).
    private let lock = NSLock()
    private var refreshTokens: [String: String?] = [:]  // refresh token → bound jkt
    private var accessTokens: [String: String?] = [:]  // access token → bound jkt
    private var seenJTIs: Set<String> = []
    private var counter = 0
    private(set) var received: [Received] = []
    /// Nonces on (`--dpop-nonce`): every proof must carry `nonce`.
    var requiresNonce = false
    var nonce = "nonce-1"
    /// Always answer `use_dpop_nonce`, whatever the proof carries (a broken server).
    var alwaysAsksForNonce = false
    /// Answer the next N API requests with a bare 401 (forces a refresh and a retry).
    var rejectNextAPIRequests = 0

    init(clock: ManualClock, serverOffset: TimeInterval = 0) {
        self.clock = clock
        self.serverOffset = serverOffset
    }

    var serverNow: Date { clock.now.addingTimeInterval(serverOffset) }

    func withLock<T>(_ body: (DPoPFakeServer) -> T) -> T { lock.withLock { body(self) } }
    var requests: [Received] { lock.withLock { received } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { handle(request) }
    }

    // MARK: - Routes

    private func handle(_ request: URLRequest) -> (Data, HTTPURLResponse) {
        guard let url = request.url else { return answer(request, 400, [:], #"{"code":400}"#) }
        let method = request.httpMethod ?? "GET"
        let authorization = request.value(forHTTPHeaderField: "Authorization")
        let token = authorization.flatMap { $0.split(separator: " ", maxSplits: 1).last.map(String.init) }
        let verified = request.value(forHTTPHeaderField: "DPoP").map {
            verify($0, method: method, url: url, accessToken: authorization?.hasPrefix("DPoP ") == true ? token : nil)
        }
        let proof: Proof? = if case .success(let p)? = verified { p } else { nil }
        let refusal: String? = if case .failure(let failure)? = verified { failure.reason } else { nil }
        received.append(Received(method: method, url: url, authorization: authorization, proof: proof, refusal: refusal))
        if url.path == "/auth/v1/token" {
            return tokenEndpoint(request, url: url, proof: proof, refusal: refusal, hadProof: verified != nil)
        }
        return resource(request, url: url, authorization: authorization, token: token, proof: proof, refusal: refusal)
    }

    private func tokenEndpoint(_ request: URLRequest, url: URL, proof: Proof?, refusal: String?, hadProof: Bool) -> (Data, HTTPURLResponse) {
        if hadProof, let refusal {
            if refusal == "nonce" {
                return answer(request, 400, ["DPoP-Nonce": nonce], goTrue("use_dpop_nonce", "Use the server's DPoP nonce"))
            }
            return answer(request, 400, [:], goTrue("invalid_dpop_proof", refusal))
        }
        let grant = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "grant_type" }?.value
        var jkt = proof?.jkt
        if grant == "refresh_token" {
            let body = (try? JSONSerialization.jsonObject(with: request.httpBody ?? Data())) as? [String: Any]
            guard let presented = body?["refresh_token"] as? String, let bound = refreshTokens.removeValue(forKey: presented) else {
                return answer(request, 400, [:], goTrue("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found"))
            }
            if let bound, bound != proof?.jkt {
                // Bound: only a proof by the same key refreshes; the token is not consumed (docs/DPOP.md, "Binding").
                refreshTokens[presented] = bound
                return answer(request, 400, [:], goTrue("invalid_dpop_proof", "the session is bound to another key"))
            }
            // An unbound session refreshed with a proof becomes bound.
            jkt = bound ?? proof?.jkt
        }
        counter += 1
        let access = "access-\(counter)"
        let refresh = "refresh-\(counter)"
        accessTokens[access] = jkt
        refreshTokens[refresh] = jkt
        let body = """
            {"access_token":"\(access)","token_type":"\(jkt == nil ? "bearer" : "DPoP")","expires_in":3600,\
            "refresh_token":"\(refresh)","user":{"id":"user-1","aud":"authenticated","role":"authenticated","email":"a@example.com"}}
            """
        return answer(request, 200, [:], body)
    }

    private func resource(
        _ request: URLRequest, url: URL, authorization: String?, token: String?, proof: Proof?, refusal: String?
    ) -> (Data, HTTPURLResponse) {
        if rejectNextAPIRequests > 0 {
            rejectNextAPIRequests -= 1
            return answer(request, 401, [:], "{}")
        }
        guard let token, let bound = accessTokens[token] else {
            return answer(request, 401, [:], #"{"success":false,"error":{"code":"SESSION_EXPIRED","message":"expired"}}"#)
        }
        if refusal == "nonce" {
            return answer(
                request, 401, ["DPoP-Nonce": nonce, "WWW-Authenticate": #"DPoP algs="ES256", error="use_dpop_nonce""#],
                #"{"success":false,"error":{"code":"DPOP_PROOF_REQUIRED","message":"nonce"}}"#)
        }
        if let bound, authorization?.hasPrefix("DPoP ") != true || proof?.jkt != bound {
            return answer(
                request, 401, ["WWW-Authenticate": #"DPoP algs="ES256", error="invalid_dpop_proof""#],
                #"{"success":false,"error":{"code":"DPOP_PROOF_REQUIRED","message":"\#(refusal ?? "no proof")"}}"#)
        }
        if url.path == "/v1/redirect" { return answer(request, 307, ["Location": "/v1/target"], "") }
        return answer(request, 200, [:], #"{"success":true,"data":{}}"#)
    }

    private func goTrue(_ code: String, _ description: String) -> String {
        #"{"code":400,"error_code":"\#(code)","msg":"\#(description)","error":"\#(code)","error_description":"\#(description)"}"#
    }

    private func answer(_ request: URLRequest, _ status: Int, _ headers: [String: String], _ body: String) -> (Data, HTTPURLResponse) {
        var all = headers
        all["Date"] = ServerClockOffset.formatHTTPDate(serverNow)
        all["Content-Type"] = "application/json"
        if requiresNonce, request.value(forHTTPHeaderField: "DPoP") != nil, all["DPoP-Nonce"] == nil { all["DPoP-Nonce"] = nonce }
        return (Data(body.utf8), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: all)!)
    }

    // MARK: - The proof check (RFC 9449 §4.3, docs/DPOP.md)

    private func verify(_ jws: String, method: String, url: URL, accessToken: String?) -> Result<Proof, Refusal> {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let payloadData = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let payload = (try? JSONSerialization.jsonObject(with: payloadData)) as? [String: Any]
        else { return .failure(Refusal(reason: "not a compact JWS")) }
        guard header["typ"] as? String == "dpop+jwt", header["alg"] as? String == "ES256" else { return .failure(Refusal(reason: "typ/alg")) }
        guard let jwk = header["jwk"] as? [String: Any], jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256",
            jwk["d"] == nil, let x = jwk["x"] as? String, let y = jwk["y"] as? String,
            let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y), xBytes.count == 32, yBytes.count == 32,
            let key = try? P256.Signing.PublicKey(rawRepresentation: xBytes + yBytes)
        else { return .failure(Refusal(reason: "jwk")) }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return .failure(Refusal(reason: "signature")) }
        guard payload["htm"] as? String == method else { return .failure(Refusal(reason: "htm")) }
        var expected = URLComponents(url: url, resolvingAgainstBaseURL: true)!
        expected.query = nil
        expected.fragment = nil
        guard payload["htu"] as? String == expected.url?.absoluteString else { return .failure(Refusal(reason: "htu")) }
        guard let iat = payload["iat"] as? Int else { return .failure(Refusal(reason: "iat missing")) }
        let now = Int(serverNow.timeIntervalSince1970)
        guard iat >= now - 300, iat <= now + 60 else { return .failure(Refusal(reason: "iat outside the window")) }
        guard let jti = payload["jti"] as? String, jti.count <= 64, seenJTIs.insert(jti).inserted else { return .failure(Refusal(reason: "jti")) }
        if let accessToken {
            let ath = Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))))
            guard payload["ath"] as? String == ath else { return .failure(Refusal(reason: "ath")) }
        }
        if alwaysAsksForNonce || (requiresNonce && payload["nonce"] as? String != nonce) { return .failure(Refusal(reason: "nonce")) }
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        let jkt = Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
        return .success(
            Proof(
                jwkMembers: Set(jwk.keys), jti: jti, htm: method, htu: expected.url?.absoluteString ?? "", iat: iat,
                ath: payload["ath"] as? String, nonce: payload["nonce"] as? String, jkt: jkt))
    }

    /// The client's configuration against this server, DPoP on with `keyStore`.
    func configuration(store: some SessionStore, keyStore: (any DPoPKeyStore)?) -> SessionClientConfiguration {
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: Self.authURL), store: store, clock: clock, transport: self, launchValidation: .skip,
            jitter: .fixed(0.5), automaticRefresh: false, authorizedOrigins: [Self.apiURL])
        configuration.observesAppLifecycle = false
        configuration.dpop = keyStore.map(DPoPConfiguration.init(keyStore:))
        return configuration
    }
}
