import CoreMetrics
import Metrics
import Prometheus

/// The server's counters, through swift-metrics into its own Prometheus
/// registry (no global bootstrap, so several servers can live in one test process).
public struct ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        self.factory = PrometheusMetricsFactory(registry: registry)
    }

    func signIn(succeeded: Bool) {
        Counter(label: "auth_sign_ins_total", dimensions: [("result", succeeded ? "success" : "failure")], factory: factory)
            .increment()
    }

    func refresh(outcome: String) {
        Counter(label: "auth_refreshes_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    func reuseDetected() {
        Counter(label: "auth_refresh_reuse_detected_total", factory: factory).increment()
    }

    func unauthorized(code: String) {
        Counter(label: "auth_unauthorized_total", dimensions: [("code", code)], factory: factory).increment()
    }

    /// One email's end: `sent`, `failed` (given up) or `dropped` (the queue was full).
    func mail(outcome: String) {
        Counter(label: "auth_mail_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    func request(status: Int) {
        Counter(label: "http_requests_total", dimensions: [("status", String(status))], factory: factory).increment()
    }

    /// The Prometheus text exposition of every counter.
    public func render() -> String {
        registry.emitToString()
    }
}
