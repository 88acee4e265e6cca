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

/// GoTrue's `/auth/v1/passkeys` in front of a ``FakeAuthBackend`` (which
/// answers everything else and issues the sessions), with GoTrue's shapes
/// (`internal/api/passkey_*.go`, docs/PASSKEYS.md): options in the
/// `{challenge_id, options, expires_at}` envelope, the creation options
/// wrapped as go-webauthn's `{"publicKey": …}`, registration's
/// `credential_response`, no name taken at registration.
///
/// It checks what a relying party must (WebAuthn Level 3 §7.1, §7.2): the
/// challenge issued and unused, the client data's type and origin, the RP
/// ID hash, UP and UV, the signature by the registered key, the counter.
/// It reads the attestation object and COSE key only in the layout
/// ``SoftwareAuthenticator`` writes (the server has the real CBOR reader).
actor FakePasskeyServer: HTTPTransport {
    let fake: FakeAuthBackend
    let rpID = "example.com"
    let origins = ["https://example.com"]
    /// Sends the creation options bare (as auth-server did before it matched GoTrue, and as supabase-swift reads them) instead of GoTrue's `{"publicKey": …}`.
    var bareCreationOptions = false

    private struct Challenge {
        let value: Data
        let registration: Bool
        let userEmail: String?
    }

    private struct Stored {
        let passkeyID: String
        let email: String
        let key: P256.Signing.PublicKey
        var counter: UInt32
        var friendlyName: String?
        let createdAt = Date(timeIntervalSince1970: 1_795_000_000)
    }

    private var challenges: [String: Challenge] = [:]
    private var stored: [Data: Stored] = [:]
    private(set) var requests: [String] = []
    /// The verify requests' bodies, as sent.
    private(set) var verifyBodies: [Data] = []

    init(fake: FakeAuthBackend) {
        self.fake = fake
    }

    func setBareCreationOptions(_ value: Bool) { bareCreationOptions = value }
    var passkeyCount: Int { stored.count }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, url.path.hasPrefix("/auth/v1/passkeys") else { return try await fake.send(request) }
        let route = "\(request.httpMethod ?? "GET") \(url.path.dropFirst("/auth/v1/passkeys".count))"
        requests.append(route)
        if route.hasSuffix("/verify") { verifyBodies.append(request.httpBody ?? Data()) }
        let body = request.httpBody.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        switch route {
        case "POST /authentication/options":
            return answer(url, 200, options(registration: false, email: nil))
        case "POST /authentication/verify":
            return try await authenticate(url, body)
        default:
            break
        }
        // Everything else needs a session: the fake that issued the token says whose it is.
        var me = URLRequest(url: fake.baseURL.appendingPathComponent("auth/v1/user"))
        me.setValue(request.value(forHTTPHeaderField: "Authorization"), forHTTPHeaderField: "Authorization")
        let (userData, userResponse) = try await fake.send(me)
        guard userResponse.statusCode == 200, let user = try JSONSerialization.jsonObject(with: userData) as? [String: Any],
            let email = user["email"] as? String
        else { return (userData, userResponse) }
        switch route {
        case "POST /registration/options":
            return answer(url, 200, options(registration: true, email: email))
        case "POST /registration/verify":
            return register(url, body, email: email)
        case "GET ":
            return answer(url, 200, stored.values.filter { $0.email == email }.map(listItem))
        default:
            let id = String(url.lastPathComponent)
            guard let key = stored.first(where: { $0.value.passkeyID == id && $0.value.email == email })?.key else {
                return error(url, 404, "validation_failed", "Passkey not found")
            }
            if request.httpMethod == "DELETE" {
                stored[key] = nil
                return answer(url, 204, nil)
            }
            stored[key]?.friendlyName = body["friendly_name"] as? String
            return answer(url, 200, listItem(stored[key]!))
        }
    }

    private func options(registration: Bool, email: String?) -> [String: Any] {
        let id = UUID().uuidString.lowercased()
        let challenge = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        challenges[id] = Challenge(value: challenge, registration: registration, userEmail: email)
        var options: [String: Any] = ["challenge": Base64URL.encode(challenge), "timeout": 300_000]
        if registration, let email {
            options["rp"] = ["id": rpID, "name": "Example"]
            options["user"] = ["id": Base64URL.encode(Data(email.utf8)), "name": email, "displayName": email]
            options["pubKeyCredParams"] = [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -8]]
            let excluded: [[String: Any]] = stored.filter { $0.value.email == email }.map { entry in
                ["type": "public-key", "id": Base64URL.encode(entry.key)]
            }
            options["excludeCredentials"] = excluded
            options["authenticatorSelection"] = ["residentKey": "required", "userVerification": "required"]
            options["attestation"] = "none"
        } else {
            options["rpId"] = rpID
            options["allowCredentials"] = [[String: Any]]()
            options["userVerification"] = "required"
        }
        var wrapped: Any = options
        if registration && !bareCreationOptions { wrapped = ["publicKey": options] as [String: Any] }
        return ["challenge_id": id, "options": wrapped, "expires_at": 1_795_000_300]
    }

    private func register(_ url: URL, _ body: [String: Any], email: String) -> (Data, HTTPURLResponse) {
        guard let response = (body["credential_response"] as? [String: Any])?["response"] as? [String: Any] else {
            return error(url, 400, "validation_failed", "credential_response is required")
        }
        // GoTrue's registration looks the challenge up without consuming it on a failure; it must be the caller's.
        guard let id = body["challenge_id"] as? String, let challenge = challenges[id], challenge.registration,
            challenge.userEmail == email
        else { return error(url, 400, "webauthn_challenge_not_found", "Challenge not found") }
        guard let clientData = bytes(response["clientDataJSON"]), let attestation = bytes(response["attestationObject"]),
            let authData = Self.authData(inAttestation: attestation)
        else { return error(url, 400, "webauthn_verification_failed", "Invalid credential response") }
        if let failure = check(clientData, type: "webauthn.create", challenge.value) ?? check(authData) {
            return error(url, 400, "webauthn_verification_failed", failure)
        }
        guard authData[32] & 0x40 != 0, authData.count > 55 else { return error(url, 400, "webauthn_verification_failed", "no credential") }
        let idLength = Int(authData[53]) << 8 | Int(authData[54])
        let credentialID = authData.subdata(in: 55..<(55 + idLength))
        guard let key = Self.es256Key(in: authData.suffix(from: 55 + idLength)) else {
            return error(url, 400, "webauthn_verification_failed", "unsupported key")
        }
        guard stored[credentialID] == nil else { return error(url, 422, "webauthn_credential_exists", "already registered") }
        challenges[id] = nil
        stored[credentialID] = Stored(passkeyID: UUID().uuidString.lowercased(), email: email, key: key, counter: 0)
        var item = listItem(stored[credentialID]!)
        item["backup_eligible"] = true
        item["backed_up"] = true
        item["transports"] = ["internal"]
        return answer(url, 200, item)
    }

    private func authenticate(_ url: URL, _ body: [String: Any]) async throws -> (Data, HTTPURLResponse) {
        // GoTrue consumes the challenge whatever the outcome.
        guard let id = body["challenge_id"] as? String, let challenge = challenges.removeValue(forKey: id), !challenge.registration else {
            return error(url, 400, "webauthn_challenge_not_found", "Challenge not found or already used")
        }
        guard let credential = body["credential"] as? [String: Any], let response = credential["response"] as? [String: Any],
            let rawID = bytes(credential["rawId"]), let clientData = bytes(response["clientDataJSON"]),
            let authData = bytes(response["authenticatorData"]), let signature = bytes(response["signature"])
        else { return error(url, 400, "webauthn_verification_failed", "Invalid credential response") }
        if let failure = check(clientData, type: "webauthn.get", challenge.value) ?? check(authData) {
            return error(url, 400, "webauthn_verification_failed", failure)
        }
        guard var entry = stored[rawID], bytes(response["userHandle"]) == Data(entry.email.utf8) else {
            return error(url, 400, "webauthn_verification_failed", "Credential verification failed")
        }
        let signed = authData + Data(SHA256.hash(data: clientData))
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature), entry.key.isValidSignature(parsed, for: signed)
        else { return error(url, 400, "webauthn_verification_failed", "bad signature") }
        let counter = UInt32(authData[33]) << 24 | UInt32(authData[34]) << 16 | UInt32(authData[35]) << 8 | UInt32(authData[36])
        guard counter == 0 || counter > entry.counter else { return error(url, 400, "webauthn_verification_failed", "counter went back") }
        entry.counter = counter
        stored[rawID] = entry
        guard let session = await fake.issueSession(email: entry.email) else { return error(url, 403, "user_not_found", "gone") }
        return (try WireCoding.encoder().encode(session), HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)!)
    }

    /// §7.1 steps 7-11 / §7.2 steps 11-14: type, challenge, origin.
    private func check(_ clientData: Data, type: String, _ challenge: Data) -> String? {
        guard let json = try? JSONSerialization.jsonObject(with: clientData) as? [String: Any] else { return "client data is not JSON" }
        if json["type"] as? String != type { return "wrong type" }
        if bytes(json["challenge"]) != challenge { return "wrong challenge" }
        if !origins.contains(json["origin"] as? String ?? "") { return "origin not allowed" }
        return nil
    }

    /// RP ID hash, UP and UV.
    private func check(_ authData: Data) -> String? {
        guard authData.count >= 37 else { return "authenticator data too short" }
        if authData.prefix(32) != Data(SHA256.hash(data: Data(rpID.utf8))) { return "wrong RP ID hash" }
        if authData[32] & 0x05 != 0x05 { return "user presence or verification missing" }
        return nil
    }

    private func bytes(_ value: Any?) -> Data? { (value as? String).flatMap { Base64URL.decode($0) } }

    /// The byte string after the text key "authData" (the last member, as the software authenticator writes it).
    private static func authData(inAttestation object: Data) -> Data? {
        let key = Data([0x68] + Array("authData".utf8))
        guard let range = object.range(of: key), range.upperBound + 2 < object.count else { return nil }
        // A byte string of 24-255 bytes (0x58, one length byte) or 256-65535 (0x59, two).
        let head = object[range.upperBound]
        guard head == 0x58 || head == 0x59 else { return nil }
        let start = range.upperBound + (head == 0x58 ? 2 : 3)
        let length = head == 0x58
            ? Int(object[range.upperBound + 1]) : Int(object[range.upperBound + 1]) << 8 | Int(object[range.upperBound + 2])
        return start + length == object.count ? object.subdata(in: start..<object.count) : nil
    }

    /// x (key -2) and y (key -3) of an EC2 COSE key with alg -7, as 32-byte strings.
    private static func es256Key(in cose: Data) -> P256.Signing.PublicKey? {
        let cose = Data(cose)
        guard cose.range(of: Data([0x03, 0x26])) != nil,
            let x = cose.range(of: Data([0x21, 0x58, 0x20])), let y = cose.range(of: Data([0x22, 0x58, 0x20])),
            x.upperBound + 32 <= cose.count, y.upperBound + 32 <= cose.count
        else { return nil }
        return try? P256.Signing.PublicKey(
            rawRepresentation: cose.subdata(in: x.upperBound..<(x.upperBound + 32)) + cose.subdata(in: y.upperBound..<(y.upperBound + 32)))
    }

    private func listItem(_ entry: Stored) -> [String: Any] {
        var item: [String: Any] = ["id": entry.passkeyID, "created_at": "2026-11-18T17:46:40.123456789Z"]
        if let name = entry.friendlyName { item["friendly_name"] = name }
        return item
    }

    private func error(_ url: URL, _ status: Int, _ code: String, _ message: String) -> (Data, HTTPURLResponse) {
        answer(url, status, ["code": status, "error_code": code, "msg": message])
    }

    private func answer(_ url: URL, _ status: Int, _ object: Any?) -> (Data, HTTPURLResponse) {
        let data = object.map { (try? JSONSerialization.data(withJSONObject: $0)) ?? Data() } ?? Data()
        return (data, HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: ["Content-Type": "application/json"])!)
    }
}
