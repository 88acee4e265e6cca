import SessionServer

extension AppLife {
    /// Once the family is revoked for reuse, decides (once) whether a lost
    /// answer explains it, while the server still has the family's rows.
    func traceReuse() async throws {
        guard reuseExplainedByLostAnswer == nil, let sessionID,
            let record = try await world.server.store.session(id: sessionID), record.revokedReason == "reuse"
        else { return }
        reuseExplainedByLostAnswer = try await lostAnswerExplainsReuse(sessionID: sessionID)
    }

    /// Whether a reuse the server detected in this life is one a lost answer
    /// explains (see `RotationAnswers`). Only a server without successor
    /// recovery may end a session that way; with recovery, every reuse stays a violation.
    func lostAnswerExplainsReuse(sessionID: String) async throws -> Bool {
        guard !parameters.successorRecovery, network.answers.sawReuse else { return false }
        let rows = try await world.server.store.refreshTokens(sessionID: sessionID)
        let successors = Dictionary(rows.map { ($0.tokenHash, $0.successorHash) }, uniquingKeysWith: { first, _ in first })
        return network.answers.explainsReuse { successors[$0] ?? nil }
    }
}
