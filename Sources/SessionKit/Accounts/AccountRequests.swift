import Foundation
import Logging
import SessionCore

/// Requests about the signed-in account: the profile, deletion, the device list.
struct AccountRequests: Sendable {
    func me(on engine: isolated any SessionEngine) async throws(SessionError) -> SessionUser {
        let (data, _) = try await engine.authorizedSend(try engine.backend.request(for: .currentUser))
        let user = try engine.backend.decodeUser(data)
        await engine.replaceUser(with: user)
        return user
    }

    func updateProfile(_ update: ProfileUpdate, on engine: isolated any SessionEngine) async throws(SessionError) -> SessionUser {
        let data = try await gatewayOnly("updateProfile", hint: "use updateUser(UserAttributes(data: …)), which GoTrue has", on: engine) {
            () async throws(SessionError) in try await engine.authorizedSend(try engine.backend.request(for: .updateProfile(update))).0
        }
        let user = try engine.backend.decodeUser(data)
        await engine.replaceUser(with: user)
        return user
    }

    func updateUser(_ attributes: UserAttributes, on engine: isolated any SessionEngine) async throws(SessionError) -> SessionUser {
        let (data, _) = try await engine.authorizedSend(try engine.backend.request(for: .updateUser(attributes)))
        let user = try engine.backend.decodeUser(data)
        await engine.replaceUser(with: user)
        return user
    }

    /// Deletes the account, then ends the session here.
    func deleteAccount(currentPassword: String?, nonce: String?, on engine: isolated any SessionEngine) async throws(SessionError) {
        let proof = AccountDeletion(currentPassword: currentPassword, nonce: nonce.map { EmailCodeSignIn.digits($0) })
        _ = try await gatewayOnly(
            "deleteAccount",
            hint: "hosted Supabase has no self-service deletion; the usual pattern is a server function (an Edge Function) that checks the user's access token and deletes the user with the service-role key (auth.admin.deleteUser)",
            on: engine
        ) { () async throws(SessionError) in try await engine.authorizedSend(try engine.backend.request(for: .deleteAccount(proof))).0 }
        engine.logger.info("The account was deleted; signed out")
        await engine.endSession(.signedOut)
    }

    func deviceSessions(on engine: isolated any SessionEngine) async throws(SessionError) -> [DeviceSession] {
        let (data, _) = try await engine.authorizedSend(try engine.backend.request(for: .listSessions))
        return try BackendDecoding.decode([DeviceSession].self, from: data, what: "session list")
    }

    func revokeDeviceSession(id: String, on engine: isolated any SessionEngine) async throws(SessionError) {
        _ = try await engine.authorizedSend(try engine.backend.request(for: .revokeSession(id: id)))
    }

    /// Runs a call to `auth-server`'s gateway; on a GoTrue backend whose
    /// server has none (a 404: hosted Supabase), answers ``SessionError/unsupported``
    /// with `hint` instead of a bare "not found".
    private func gatewayOnly(
        _ operation: String, hint: String, on engine: isolated any SessionEngine,
        _ call: () async throws(SessionError) -> Data
    ) async throws(SessionError) -> Data {
        do {
            return try await call()
        } catch where error == .notFound && engine.backend is GoTrueBackend {
            throw SessionError.unsupported.with(
                message: "This server does not offer \(operation) (no /v1 gateway): \(hint).", status: error.status)
        }
    }
}
