import Metrics
import Prometheus

extension ServerMetrics {
    /// `archivegate_writes_total{operation,outcome,tenant}`: encode and sanitize answers and the
    /// archives `POST /v1/archives?sanitize=true` stores (`stored_sanitize`), by outcome (`ok`,
    /// `redacted`, `rejected`, or the encode error's code).
    func recordWrite(_ operation: String, outcome: String, tenant: String) {
        Counter(label: "archivegate_writes_total", dimensions: [("operation", operation), ("outcome", outcome), ("tenant", tenant)],
                factory: PrometheusMetricsFactory(registry: registry)).increment()
    }
}
