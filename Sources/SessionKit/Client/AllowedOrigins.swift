import Foundation

/// The origins a client judges its requests against, parsed once when the
/// client is made.
///
/// `send` checks every request's origin against the app's
/// ``SessionClientConfiguration/authorizedOrigins`` and the backend's, and
/// the path beside the actor checks it again against the backend's alone.
/// Parsing each configured URL (and asking the backend for its list) on
/// every call was part of the ~20 µs `send` still cost beside a hand-set
/// header (docs/BENCHMARKS.md, "Round 3, items 1–2"). Both lists are
/// constant for a client: its configuration is a `let`.
struct AllowedOrigins: Sendable {
    /// The auth backend's origins (``SessionBackend/origins``): its answers are
    /// the clock samples and the end of `offline` (docs/PROTOCOL.md, "Requests beside the actor").
    let backend: [Origin]
    /// Where the access token may go: the app's list, then the backend's (as `send` and redirects always joined them).
    let authorized: [Origin]

    init(authorizedOrigins: [URL]?, backendOrigins: [URL]) {
        // A URL without an origin (no host) matched nothing before either: `Origin.url(_:isIn:)` compared only parsed ones.
        backend = backendOrigins.compactMap { Origin($0) }
        authorized = (authorizedOrigins ?? []).compactMap { Origin($0) } + backend
    }

    /// True when `url` is one of the backend's origins; the same answer as `Origin.url(url, isIn: backend.origins)`.
    func isBackend(_ url: URL?) -> Bool {
        guard let origin = Origin(url) else { return false }
        return backend.contains(origin)
    }

    /// True when the token may go to `url`; the same answer as
    /// `Origin.url(url, isIn: (authorizedOrigins ?? []) + backend.origins)`.
    func authorizes(_ url: URL?) -> Bool {
        guard let origin = Origin(url) else { return false }
        return authorized.contains(origin)
    }
}
