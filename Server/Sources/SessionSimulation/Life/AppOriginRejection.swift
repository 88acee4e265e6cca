import Foundation

/// The one 401 a life of the targeted world meets on the app's own origin
/// (issue 44): the app's API refuses, once, a token it accepted before — the
/// `Authorization` header lost on the way, as ``AuthRequiredGlitch`` answers
/// it (401 `AUTH_REQUIRED`, no `WWW-Authenticate` error).
///
/// Why: `send` to that origin goes beside the client actor, and the planted
/// `fast-path-skips-rejection` hands such a 401 to the app instead of the
/// engine. The adversarial world's own 401s there (a clock the client
/// misjudged, a revoked session) came with 2 seeds of 4, so the plant went
/// unseen with the others. This one comes in every life that sends the app's
/// origin a token it accepted before (11 to 15 lives of 24 with seeds
/// 20261124, 7, 42 and 99). The SDK refreshes once and retries, and the app
/// sees its answer; planted, the app sees the 401 while the session is valid
/// ("401s reaching the app while the session was valid", 11 to 13 a run).
/// One refresh more per such life: no life, no wall time worth counting.
///
/// Shared by the life's processes (app and extension): once per life.
final class AppOriginRejection: @unchecked Sendable {
    // `@unchecked`: the fields are touched under `lock` only.
    private let lock = NSLock()
    private var accepted: String?
    private var answered = false

    /// The app's origin answered 2xx to `bearer` (a token the API accepts).
    func accepted(_ bearer: String) { lock.withLock { accepted = bearer } }

    /// True once per life: for a request whose token the API accepted before
    /// (never a fresh one, which the SDK's retry carries).
    func take(for bearer: String) -> Bool {
        lock.withLock {
            guard !answered, accepted == bearer else { return false }
            answered = true
            return true
        }
    }

    /// Whether the life met it.
    var wasAnswered: Bool { lock.withLock { answered } }
}
