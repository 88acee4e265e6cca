import SessionKit

extension CLIContext {
    /// Runs `body` with a fresh client and always shuts it down (saving
    /// anything unsaved and waiting for an in-flight refresh) before returning.
    func withClient<T: Sendable>(
        _ mode: Mode = .oneShot, signedIn: Bool = true, _ body: (SessionClient) async throws -> T
    ) async throws -> T {
        let client = makeClient(mode)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(client))
        } catch {
            result = .failure(error)
        }
        await client.shutdown()
        switch result {
        case .success(let value):
            return value
        case .failure(let error as SessionError):
            throw CLIError(error, signedIn: signedIn)
        case .failure(let error):
            throw error
        }
    }

    /// Restores the profile's session, then runs `body` with it.
    ///
    /// - Throws: ``CLIError/notSignedIn()`` or ``CLIError/expired(_:)`` (exit 1)
    ///   when there is no usable session; the command's own failures otherwise.
    func withSession<T: Sendable>(_ body: (SessionClient, Session) async throws -> T) async throws -> T {
        try await withClient { client in
            // An expired access token is refreshed here (with the cross-process lock).
            let state = try await spin("Checking your session") { try await client.restore() }
            switch state {
            case .signedIn(let session), .offline(let session), .needsAttention(let session, _):
                // Offline or refused in between: the command's own request tries again and says what failed.
                return try await body(client, session)
            case .expired(let reason):
                throw CLIError.expired(reason)
            case .locked(let reason):
                throw CLIError.locked(reason)
            case .signedOut, .restoring:
                throw CLIError.notSignedIn()
            }
        }
    }
}
