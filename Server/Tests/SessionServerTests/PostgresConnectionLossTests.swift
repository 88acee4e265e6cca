import Foundation
import SQLKit
import SessionKitTesting
import Testing
@testable import SessionServer

/// A PostgreSQL connection that drops mid-transaction (restart, failover,
/// `pg_terminate_backend`) fails the transaction as `databaseUnavailable`
/// (answered 503) at once, and the pool recovers.
///
/// Regression: postgres-nio 1.33 discards a query written to a connection
/// whose channel has closed, without failing it, so the transaction and the
/// HTTP request behind it hung forever (DatabaseRestartTests hung for 10 minutes).
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "SESSIONKIT_TEST_POSTGRES_URL is not set: no PostgreSQL to test against"))
struct PostgresConnectionLossTests {
    @Test func aStatementOnADroppedConnectionFailsAsDatabaseUnavailableInsteadOfHanging() async throws {
        let test = try await TestServer.make(.postgres)
        let store = test.server.store
        try await test.run { _ in
            let outcome = await Self.outcome(ifFinishedWithin: 120) {
                try await store.withTransaction { db in
                    do {
                        try await db.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
                        Issue.record("PostgreSQL did not terminate the backend")
                    } catch {
                        // Expected: 57P01, terminating connection due to administrator command.
                    }
                    // Wait until the channel has closed and its handlers are gone,
                    // then keep using the transaction, as a request mid-rotation would.
                    let live = try #require(db as? LiveConnectionDatabase)
                    await live.closed()
                    try await db.raw("SELECT 1").run()
                }
            }
            switch outcome {
            case nil:
                Issue.record("a statement on the dropped connection never completed (the request would hang)")
            case .success:
                Issue.record("a statement on a dropped connection succeeded")
            case .failure(let error):
                #expect(error as? AuthError == .databaseUnavailable, "\(String(reflecting: error))")
            }
            // The pool replaces the dropped connection.
            let one = try await store.withTransaction { db in
                try await db.raw("SELECT 1 AS one").first()?.decode(column: "one", as: Int.self)
            }
            #expect(one == 1)
        }
    }

    /// `work`'s result, or `nil` when it has not finished after `seconds`
    /// (the work is then abandoned: this guards against a hang, it times nothing).
    static func outcome<T: Sendable>(
        ifFinishedWithin seconds: Int, _ work: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error>? {
        let first = FirstAnswer<Result<T, any Error>?>()
        return await withCheckedContinuation { continuation in
            Task { await first.install(continuation) }
            Task {
                do { await first.answer(.success(try await work())) } catch { await first.answer(.failure(error)) }
            }
            Task {
                try await Task.sleep(for: .seconds(seconds))
                await first.answer(nil)
            }
        }
    }
}

/// Resumes a continuation with the first answer given; later answers are dropped.
private actor FirstAnswer<Value: Sendable> {
    private var continuation: CheckedContinuation<Value, Never>?
    private var pending: Value??
    private var done = false

    func install(_ continuation: CheckedContinuation<Value, Never>) {
        if let pending, let value = pending {
            done = true
            continuation.resume(returning: value)
        } else {
            self.continuation = continuation
        }
    }

    func answer(_ value: Value) {
        guard !done, pending == nil else { return }
        if let continuation {
            done = true
            self.continuation = nil
            continuation.resume(returning: value)
        } else {
            pending = .some(value)
        }
    }
}
