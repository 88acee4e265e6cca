import ServiceLifecycle

/// Runs the store's connections for the lifetime of the service group; put
/// it first so it shuts down last, after the HTTP server has drained.
struct DatabaseService: Service {
    let store: AuthStore

    func run() async throws {
        // Each driver watches for graceful shutdown itself: SQLite must close
        // its file after the last transaction, which cancellation would skip.
        try await store.run()
    }
}
