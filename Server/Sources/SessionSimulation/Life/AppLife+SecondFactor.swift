import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import SessionKitTesting
import SessionServer

/// A life with a second factor (issue 38, item 8; docs/RELIABILITY.md): the
/// person enrols a TOTP factor and verifies a code, so the session is at
/// `aal2`; from then on every access token the app holds must stay `aal2`
/// through every fault, kill and clock jump, and the server's session too.
///
/// Enrolment goes over raw HTTP straight to the server (the SDK's `mfa`
/// surface is not on main); the app then refreshes with the refresh token it
/// holds, which the verify swapped out moments before: within the reuse grace
/// the server hands it the verify's successor at `aal2` (docs/MFA.md, "The
/// session after verify"), as a client that lost the verify answer would get.
extension AppLife {
    /// Enrols and verifies a factor on a clean network, then brings the app's session to `aal2`.
    func enrolSecondFactor(_ app: AppProcess) async throws {
        guard let accessToken = app.client.currentState.session?.accessToken else {
            throw SimulationError(description: "life \(report.index): no session to enrol a factor with")
        }
        let enrolled = try Self.object(
            try await world.serverCall("POST", "auth/v1/factors", ["factor_type": "totp", "friendly_name": "sim phone"], bearer: accessToken))
        guard let factorID = enrolled["id"] as? String, let totp = enrolled["totp"] as? [String: Any],
            let secret = (totp["secret"] as? String).flatMap(SimulatedAuthenticator.init(base32:))
        else { throw SimulationError(description: "life \(report.index): enrolment answered \(enrolled)") }
        let challenge = try Self.object(
            try await world.serverCall("POST", "auth/v1/factors/\(factorID)/challenge", nil, bearer: accessToken))
        guard let challengeID = challenge["id"] as? String else {
            throw SimulationError(description: "life \(report.index): challenge answered \(challenge)")
        }
        let verified = try Self.object(
            try await world.serverCall(
                "POST", "auth/v1/factors/\(factorID)/verify",
                ["challenge_id": challengeID, "code": secret.code(at: world.serverClock.now)], bearer: accessToken))
        guard verified["access_token"] is String else {
            throw SimulationError(description: "life \(report.index): verify answered \(verified)")
        }
        self.factorID = factorID
        // The verify answer stays here: the app refreshes with what it holds (within the grace).
        _ = try await app.client.refresh()
        guard Self.assuranceLevel(of: app.client.currentState.session?.accessToken) == "aal2" else {
            throw SimulationError(description: "life \(report.index): the refresh after verify did not give aal2")
        }
        report.hasSecondFactor = true
        trace.note("second factor \(factorID.prefix(8)) verified; the app's session is aal2")
    }

    /// Counts a session dropped to `aal1`: the app's access token, or the server's session row.
    func checkAssurance(_ app: AppProcess?) async throws {
        guard report.hasSecondFactor, !ended else { return }
        if let token = app?.client.currentState.session?.accessToken, Self.assuranceLevel(of: token) != "aal2" {
            trace.note("the app holds an access token at \(Self.assuranceLevel(of: token) ?? "no level")")
            report.assuranceDrops += 1
        } else if let sessionID, let record = try await world.server.store.session(id: sessionID), !record.isRevoked,
            record.assuranceLevel != "aal2"
        {
            trace.note("the server's session is at \(record.assuranceLevel)")
            report.assuranceDrops += 1
        }
    }

    /// The planted defect `sessionLevelDropped`: the server forgets the session's level
    /// (here: its factor is deleted behind the app's back), so the next refresh answers `aal1`.
    func dropLevelIfSabotaged() async throws {
        guard parameters.sabotage == .sessionLevelDropped, report.hasSecondFactor, let factorID, let userID else { return }
        self.factorID = nil
        let key = try await world.server.serviceRoleKey(lifetime: 3600)
        _ = try await world.serverCall("DELETE", "auth/v1/admin/users/\(userID)/factors/\(factorID)", nil, bearer: key)
        trace.note("planted: the server dropped the session to aal1")
    }

    /// The `aal` claim of a JWT, `nil` when it has none.
    static func assuranceLevel(of token: String?) -> String? {
        guard let token else { return nil }
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload) else { return nil }
        do {
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["aal"] as? String
        } catch {
            // Not JSON: no level, which the caller counts as a drop.
            return nil
        }
    }

    private static func object(_ answer: (Data, HTTPURLResponse)) throws -> [String: Any] {
        guard (200..<300).contains(answer.1.statusCode), let object = try JSONSerialization.jsonObject(with: answer.0) as? [String: Any]
        else { throw SimulationError(description: "the server answered \(answer.1.statusCode): \(String(decoding: answer.0, as: UTF8.self))") }
        return object
    }
}

extension SimulationWorld {
    /// One request straight to the server, no faults (what another device or the app's own setup does).
    func serverCall(_ method: String, _ path: String, _ body: [String: String]?, bearer: String) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: serverURL.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        request.setValue("anon-key", forHTTPHeaderField: "apikey")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        return try await cleanTransport.send(request)
    }
}

/// An authenticator app: RFC 6238 codes (HMAC-SHA-1, 6 digits, 30 s) from a base32 secret.
struct SimulatedAuthenticator: Sendable {
    let secret: [UInt8]

    init?(base32: String) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0
        var value = 0
        var bytes: [UInt8] = []
        for character in base32.uppercased() where character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            value = (value << 5) | index
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((value >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        secret = bytes
    }

    func code(at date: Date) -> String {
        let counter = UInt64(date.timeIntervalSince1970 / 30).bigEndian
        let message = withUnsafeBytes(of: counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let number = (UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
            | UInt32(mac[offset + 3])) % 1_000_000
        let text = String(number)
        return String(repeating: "0", count: 6 - text.count) + text
    }
}
