import Crypto
import Foundation
import SessionCore

/// Passkey ceremonies and management (docs/PASSKEYS.md): issues options
/// with a stored single-use challenge, verifies the answer with
/// ``WebAuthnVerifier``, and stores or uses the credential.
struct PasskeyService: Sendable {
    let configuration: PasskeyConfiguration
    let sessions: SessionService

    var store: AuthStore { sessions.store }
    var clock: any SessionClock { sessions.clock }
    var verifier: WebAuthnVerifier { WebAuthnVerifier(rpID: configuration.rpID, origins: configuration.origins) }
    private var timeout: Int { Int(configuration.challengeLifetime * 1000) }

    /// Managing passkeys needs AAL2 once the account has a verified second
    /// factor, as GoTrue asks (docs/MFA.md): a stolen AAL1 session must not
    /// add a way in that skips the second factor. 403 `insufficient_aal`, a
    /// step-up request, never a sign-out.
    func requireStepUpIfEnrolled(_ identity: AuthenticatedIdentity) async throws {
        try await AssuranceGate(store: store).requireAAL2IfEnrolled(
            identity, status: 403, "AAL2 is required to manage passkeys once a second factor is verified.")
    }

    /// `POST /passkeys/registration/options`: creation options for the signed-in user.
    func registrationOptions(
        for user: UserRecord
    ) async throws -> PasskeyWire.OptionsResponse<PasskeyWire.CredentialCreation> {
        let existing = try await store.passkeys(userID: user.id)
        guard existing.count < configuration.maximumPerUser else {
            throw AuthError.tooManyPasskeys(limit: configuration.maximumPerUser)
        }
        let challenge = try await store.createWebAuthnChallenge(
            kind: .registration, userID: user.id, challenge: Self.randomChallenge(), now: clock.now,
            lifetime: configuration.challengeLifetime)
        let name = user.email ?? user.id
        let options = PasskeyWire.CreationOptions(
            rp: .init(id: configuration.rpID, name: configuration.rpDisplayName),
            user: .init(id: Base64URL.encode(Data(user.id.utf8)), name: name, displayName: name),
            challenge: Base64URL.encode(Data(challenge.challenge)),
            pubKeyCredParams: COSEKey.Algorithm.allCases.map { .init(alg: $0.rawValue) },
            timeout: timeout,
            // The authenticator refuses to make a second passkey for this account.
            excludeCredentials: existing.map { .init(id: $0.credentialID, transports: $0.transports.isEmpty ? nil : $0.transports) })
        return .init(
            challengeID: challenge.id, options: .init(publicKey: options),
            expiresAt: Int(challenge.expiresAt.timeIntervalSince1970))
    }

    /// `POST /passkeys/registration/verify`: checks the new credential and adds it to the account.
    func register(
        _ request: PasskeyWire.VerifyRequest, user: UserRecord, ip: String?
    ) async throws -> PasskeyWire.Passkey {
        let name = try request.friendlyName.map(Self.validName)
        let challenge = try await consume(request.challengeID, kind: .registration, userID: user.id)
        let credential = request.credential
        let rawID = try Self.credentialID(credential)
        let clientData = try Self.bytes(credential.response.clientDataJSON, "response.clientDataJSON")
        let attestationObject = try Self.bytes(credential.response.attestationObject, "response.attestationObject")
        let registration: WebAuthnVerifier.Registration
        do throws(WebAuthnError) {
            registration = try verifier.verifyRegistration(
                clientDataJSON: clientData, attestationObject: attestationObject, challenge: challenge.challenge)
        } catch {
            throw AuthError.webauthnVerificationFailed(error.description)
        }
        guard registration.credentialID == rawID else {
            throw AuthError.webauthnVerificationFailed("rawId is not the credential ID in the authenticator data.")
        }
        let transports = (credential.response.transports ?? []).prefix(8).map { String($0.prefix(32)) }
            .filter { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") } }
        let record = PasskeyRecord(
            id: UUID().uuidString.lowercased(), userID: user.id, credentialID: Base64URL.encode(Data(rawID)),
            publicKey: registration.publicKeyBytes, algorithm: registration.publicKey.algorithm.rawValue,
            signCount: registration.signCount, backupEligible: registration.backupEligible, backedUp: registration.backedUp,
            transports: transports, aaguid: registration.aaguid.map { String(format: "%02x", $0) }.joined(),
            friendlyName: name, createdAt: clock.now, lastUsedAt: nil)
        try await store.insertPasskey(record, maximum: configuration.maximumPerUser, ip: ip)
        return PasskeyWire.Passkey(record)
    }

    /// `POST /passkeys/authentication/options`: request options naming no user.
    func authenticationOptions() async throws -> PasskeyWire.OptionsResponse<PasskeyWire.RequestOptions> {
        let challenge = try await store.createWebAuthnChallenge(
            kind: .authentication, userID: nil, challenge: Self.randomChallenge(), now: clock.now,
            lifetime: configuration.challengeLifetime)
        let options = PasskeyWire.RequestOptions(
            challenge: Base64URL.encode(Data(challenge.challenge)), timeout: timeout, rpId: configuration.rpID)
        return .init(challengeID: challenge.id, options: options, expiresAt: Int(challenge.expiresAt.timeIntervalSince1970))
    }

    /// `POST /passkeys/authentication/verify`: checks the assertion and starts a session (`amr` method `passkey`).
    func signIn(_ request: PasskeyWire.VerifyRequest, origin: SessionService.Origin) async throws -> TokenResponse {
        let (_, user) = try await verifyAssertion(request, ip: origin.ip)
        return try await sessions.startSession(for: user, origin: origin, method: "passkey")
    }

    /// Checks an assertion (§7.2) on a sign-in challenge and records the
    /// passkey's use: the passkey and its owner. The account page uses it to
    /// sign in and as proof of presence (docs/PASSKEYS.md, "The account page").
    func verifyAssertion(_ request: PasskeyWire.VerifyRequest, ip: String?) async throws -> (PasskeyRecord, UserRecord) {
        let challenge = try await consume(request.challengeID, kind: .authentication, userID: nil)
        let credential = request.credential
        let rawID = try Self.credentialID(credential)
        // One answer for an unknown credential and for another user's: neither tells which accounts exist.
        guard let passkey = try await store.passkey(credentialID: Base64URL.encode(Data(rawID))) else {
            throw AuthError.webauthnVerificationFailed("this passkey is not registered here.")
        }
        // §7.2 step 6: the user handle, when sent, must be the credential's owner's.
        if let handle = credential.response.userHandle, !handle.isEmpty {
            guard Base64URL.decode(handle).map({ String(decoding: $0, as: UTF8.self) }) == passkey.userID else {
                throw AuthError.webauthnVerificationFailed("the user handle is not the passkey's owner.")
            }
        }
        let clientData = try Self.bytes(credential.response.clientDataJSON, "response.clientDataJSON")
        let authenticatorData = try Self.bytes(credential.response.authenticatorData, "response.authenticatorData")
        let signature = try Self.bytes(credential.response.signature, "response.signature")
        let assertion: WebAuthnVerifier.Assertion
        do throws(WebAuthnError) {
            assertion = try verifier.verifyAssertion(
                clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
                challenge: challenge.challenge, publicKey: try COSEKey(bytes: passkey.publicKey),
                storedSignCount: passkey.signCount, storedBackupEligible: passkey.backupEligible)
        } catch {
            throw AuthError.webauthnVerificationFailed(error.description)
        }
        guard let user = try await store.user(id: passkey.userID) else {
            throw AuthError.webauthnVerificationFailed("this passkey is not registered here.")
        }
        try await store.recordPasskeyUse(
            id: passkey.id, signCount: assertion.signCount, backedUp: assertion.backedUp, verifiedAgainst: passkey.signCount,
            now: clock.now, ip: ip)
        return (passkey, user)
    }

    /// `PATCH /passkeys/{id}`.
    func rename(id: String, userID: String, to name: String, ip: String?) async throws -> PasskeyWire.Passkey {
        guard let record = try await store.renamePasskey(id: id, userID: userID, name: try Self.validName(name), now: clock.now, ip: ip)
        else { throw AuthError.passkeyNotFound }
        return PasskeyWire.Passkey(record)
    }

    /// `DELETE /passkeys/{id}`.
    func remove(id: String, userID: String, ip: String?) async throws {
        guard try await store.deletePasskey(id: id, userID: userID, now: clock.now, ip: ip) else { throw AuthError.passkeyNotFound }
    }

    // MARK: Helpers

    private func consume(
        _ id: String, kind: WebAuthnChallengeRecord.Kind, userID: String?
    ) async throws -> WebAuthnChallengeRecord {
        guard id.utf8.count <= 64, let challenge = try await store.consumeWebAuthnChallenge(id: id, kind: kind, userID: userID)
        else { throw AuthError.webauthnChallengeNotFound }
        guard challenge.expiresAt > clock.now else { throw AuthError.webauthnChallengeExpired }
        return challenge
    }

    /// 32 random bytes (WebAuthn Level 3 §13.4.3 asks for at least 16).
    static func randomChallenge() -> [UInt8] {
        Array(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    /// A passkey's name: 1 to 120 characters, none of them a control character (GoTrue's bound).
    static func validName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 120,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw AuthError.invalidRequest(field: "friendly_name", "friendly_name must be 1 to 120 characters, without control characters.")
        }
        return trimmed
    }

    /// The credential ID, from `rawId`, which must be `id` and a `public-key` credential.
    static func credentialID(_ credential: PasskeyWire.CredentialJSON) throws -> [UInt8] {
        guard credential.type == "public-key" else {
            throw AuthError.invalidRequest(field: "credential.type", "credential.type must be public-key.")
        }
        let raw = try bytes(credential.rawId, "rawId")
        guard Base64URL.decode(credential.id).map({ Array($0) }) == raw, !raw.isEmpty,
            raw.count <= AuthenticatorData.maximumCredentialIDLength
        else {
            throw AuthError.invalidRequest(field: "credential.id", "credential.id and credential.rawId must be the same credential ID.")
        }
        return raw
    }

    /// A base64url field of the credential's JSON, decoded.
    static func bytes(_ text: String?, _ field: String) throws -> [UInt8] {
        guard let text else { throw AuthError.invalidRequest(field: "credential.\(field)", "credential.\(field) is required.") }
        guard let data = Base64URL.decode(text) else {
            throw AuthError.invalidRequest(field: "credential.\(field)", "credential.\(field) must be base64url.")
        }
        return Array(data)
    }
}
