@_exported import SessionCore

// SessionKit: the client SDK. Start at `SessionClient`.
//
// Layout (public API at the top of the target, machinery in folders):
// - `SessionClient` (+ `Client/` extensions): the actor an app talks to.
// - `Refresh/`: the pure `RefreshStateMachine`, `Backoff`, `JitterSource`,
//   `ServerClockOffset` and `ResponseClassifier` (docs/PROTOCOL.md).
// - `Storage/`: `SessionStore`, `StoredSession`, in-memory, file and keychain stores.
// - `Backends/`: `SessionBackend`, `GoTrueBackend`, `CustomBackend`.
// - `Transport/`: `HTTPTransport`, `URLSessionTransport`, `TransportMiddleware`.
//
// A short-lived process (a CLI) uses it as:
//
//     let client = SessionClient(configuration: .init(
//         backend: .goTrue(url: url, apiKey: key),
//         store: FileSessionStore(directory: dir),
//         launchValidation: .skip, automaticRefresh: false))
//     _ = try await client.restore()
//     let token = try await client.accessToken()
//     await client.shutdown()
