import SessionKit

/// Counts the logouts (`sessionExpired`, `signedOut`) a client reports: the
/// number reliability tests hold at zero while the session is valid.
public final class LogoutCounter: Sendable {
    private let task: Task<Int, Never>

    /// Starts listening to `client`'s events now (events published earlier are not seen).
    public init(_ client: SessionClient) {
        let events = client.events
        task = Task {
            var logouts = 0
            for await event in events {
                switch event {
                case .sessionExpired, .signedOut: logouts += 1
                default: break
                }
            }
            return logouts
        }
    }

    /// The logouts seen; call after the client's `shutdown`, which ends its event stream.
    public func total() async -> Int { await task.value }
}
