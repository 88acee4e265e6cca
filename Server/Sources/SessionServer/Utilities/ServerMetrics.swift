import CoreMetrics
import Metrics
import Prometheus

/// The server's counters, through swift-metrics into its own Prometheus
/// registry (no global bootstrap, so several servers can live in one test process).
public struct ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// `http_requests_total` by status, made once for the statuses this server answers:
    /// through the factory, every request paid a registry lookup (a lock, the label and
    /// dimensions hashed) that cost more than the increment (docs/BENCHMARKS.md, "Where
    /// the request's time goes"). Any other status still goes through the factory.
    private let requestCounters: [Int: CoreMetrics.Counter]

    public init() {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        self.registry = registry
        self.factory = factory
        let statuses = [200, 201, 204, 302, 303, 400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500, 503]
        self.requestCounters = Dictionary(uniqueKeysWithValues: statuses.map { status in
            (status, Self.requestCounter(status: status, factory: factory))
        })
    }

    func signIn(succeeded: Bool) {
        Counter(label: "auth_sign_ins_total", dimensions: [("result", succeeded ? "success" : "failure")], factory: factory)
            .increment()
    }

    func refresh(outcome: String) {
        Counter(label: "auth_refreshes_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// A code refused because its address spent its guessing budget.
    func emailCodeGuessesLimited() {
        Counter(label: "auth_email_code_guesses_limited_total", factory: factory).increment()
    }

    /// A `current_password` check refused because its account spent its password budget.
    func passwordChecksLimited() {
        Counter(label: "auth_password_checks_limited_total", factory: factory).increment()
    }

    func reuseDetected() {
        Counter(label: "auth_refresh_reuse_detected_total", factory: factory).increment()
    }

    /// A DPoP proof refused, by reason (`missing`, `key_mismatch`, `jti`…): `missing` and
    /// `key_mismatch` on a bound refresh are possible thefts (docs/DPOP.md).
    func dpopRefused(reason: String) {
        Counter(label: "auth_dpop_proofs_refused_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    func unauthorized(code: String) {
        Counter(label: "auth_unauthorized_total", dimensions: [("code", code)], factory: factory).increment()
    }

    /// One email's end: `sent`, `failed` (given up) or `dropped` (the queue was full).
    func mail(outcome: String) {
        Counter(label: "auth_mail_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    func request(status: Int) {
        (requestCounters[status] ?? Self.requestCounter(status: status, factory: factory)).increment()
    }

    private static func requestCounter(status: Int, factory: PrometheusMetricsFactory) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "http_requests_total", dimensions: [("status", String(status))], factory: factory)
    }

    /// The Prometheus text exposition of every counter.
    public func render() -> String {
        registry.emitToString()
    }
}
