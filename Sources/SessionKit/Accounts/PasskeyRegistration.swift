import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Adding a passkey to the signed-in account, and listing, renaming and
/// removing the account's passkeys (docs/PASSKEYS.md).
///
/// None of these writes the session: a refusal, or a ceremony the person
/// cancels, keeps it as it is (only the engine's own rules end a session).
struct PasskeyRegistration: Sendable {
    func register(
        friendlyName: String?, using ceremony: any PasskeyCeremony, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> Passkey {
        let endpoints = try PasskeyEndpoints(engine.backend)
        let data = try await send(endpoints.registrationOptions(), on: engine)
        let challenge = try PasskeyChallenge<PasskeyCreationOptions>.decode(data)
        let credential = try await ceremony.createCredential(challenge.options)
        if Task.isCancelled { throw SessionError.cancelled }
        let verify = try endpoints.registrationVerify(
            challengeID: challenge.challengeID, credential: credential, friendlyName: friendlyName)
        let passkey = try BackendDecoding.decode(Passkey.self, from: try await send(verify, on: engine), what: "passkey")
        engine.logger.info("Registered a passkey")
        // GoTrue names a new passkey itself and takes no name at registration: rename it.
        guard let friendlyName, passkey.friendlyName != friendlyName else { return passkey }
        do {
            return try await rename(id: passkey.id, to: friendlyName, on: engine)
        } catch {
            // The passkey is registered and works; only its name is missing, which the caller sees.
            engine.logger.notice("A new passkey could not be named", metadata: ["reason": "\(error)"])
            return passkey
        }
    }

    func list(on engine: isolated any SessionEngine) async throws(SessionError) -> [Passkey] {
        let data = try await send(try PasskeyEndpoints(engine.backend).list(), on: engine)
        return try BackendDecoding.decode([Passkey].self, from: data, what: "passkey list")
    }

    func rename(id: String, to friendlyName: String, on engine: isolated any SessionEngine) async throws(SessionError) -> Passkey {
        let data = try await send(try PasskeyEndpoints(engine.backend).rename(id: id, friendlyName: friendlyName), on: engine)
        return try BackendDecoding.decode(Passkey.self, from: data, what: "passkey")
    }

    func delete(id: String, on engine: isolated any SessionEngine) async throws(SessionError) {
        _ = try await send(try PasskeyEndpoints(engine.backend).delete(id: id), on: engine)
        engine.logger.info("Removed a passkey")
    }

    /// An authorized request, its refusal explained (docs/PASSKEYS.md, "Errors").
    private func send(_ request: URLRequest, on engine: isolated any SessionEngine) async throws(SessionError) -> Data {
        do {
            return try await engine.authorizedSend(request).0
        } catch {
            throw PasskeyErrors.explained(error)
        }
    }
}
