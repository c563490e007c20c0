import Metrics
import Prometheus

/// The service's metrics, written through swift-metrics into a Prometheus registry that
/// `GET /metrics` renders. Each application owns its registry (tests build many apps in one
/// process, and `MetricsSystem.bootstrap` may run only once).
public struct ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// The per-request series, by label values (`MetricHandleCache`).
    private let requestCounters = MetricHandleCache<[String], Metrics.Counter>()
    private let requestTimers = MetricHandleCache<[String], Metrics.Timer>()
    private let archiveRecorders = MetricHandleCache<String, Metrics.Recorder>()
    private let violationCounters = MetricHandleCache<[String], Metrics.Counter>()
    private let findingCounters = MetricHandleCache<[String], Metrics.Counter>()

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Archive sizes from 1 KiB to 256 MiB, by powers of four.
        factory.defaultValueHistogramBuckets = (0...9).map { Double(1024 << (2 * $0)) }
        self.factory = factory
    }

    /// `archivegate_http_requests_total{method,route,status}` and
    /// `archivegate_http_request_duration_seconds{method,route}`.
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        requestCounters.handle([method, route, String(status)]) {
            Counter(label: "archivegate_http_requests_total",
                    dimensions: [("method", method), ("route", route), ("status", String(status))], factory: factory)
        }.increment()
        requestTimers.handle([method, route]) {
            Metrics.Timer(label: "archivegate_http_request_duration_seconds", dimensions: [("method", method), ("route", route)], factory: factory)
        }.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// `archivegate_archive_bytes{tenant}`: sizes of archives after inflation.
    func recordArchive(bytes: Int, tenant: String) {
        archiveRecorders.handle(tenant) {
            Recorder(label: "archivegate_archive_bytes", dimensions: [("tenant", tenant)], aggregate: true, factory: factory)
        }.record(bytes)
    }

    /// `archivegate_policy_violations_total{code,tenant}`.
    func recordViolations(_ codes: [String], tenant: String) {
        for code in codes {
            violationCounters.handle([code, tenant]) {
                Counter(label: "archivegate_policy_violations_total", dimensions: [("code", code), ("tenant", tenant)], factory: factory)
            }.increment()
        }
    }

    /// `archivegate_danger_findings_total{code,tenant}`: danger catalogue findings, acknowledged or not.
    func recordFindings(_ codes: [String], tenant: String) {
        for code in codes {
            findingCounters.handle([code, tenant]) {
                Counter(label: "archivegate_danger_findings_total", dimensions: [("code", code), ("tenant", tenant)], factory: factory)
            }.increment()
        }
    }

    /// `archivegate_fetches_total{outcome,tenant}`: `ok` or the failure code (`fetch.timeout`, …).
    func recordFetch(outcome: String, tenant: String) {
        Counter(label: "archivegate_fetches_total", dimensions: [("outcome", outcome), ("tenant", tenant)], factory: factory)
            .increment()
    }

    /// `archivegate_store_operation_duration_seconds{operation}` (put, get, summary, report, list,
    /// delete, purge) and, for failures, `archivegate_store_errors_total{operation,code}`.
    func recordStoreOperation(_ operation: String, duration: Duration, failureCode: String? = nil) {
        Metrics.Timer(label: "archivegate_store_operation_duration_seconds", dimensions: [("operation", operation)], factory: factory)
            .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        if let failureCode {
            Counter(label: "archivegate_store_errors_total", dimensions: [("operation", operation), ("code", failureCode)], factory: factory)
                .increment()
        }
    }

    /// `archivegate_results_stored_total{tenant,outcome}`: `created`, or `existing` for an idempotent re-upload.
    func recordStoredResult(created: Bool, tenant: String) {
        Counter(label: "archivegate_results_stored_total", dimensions: [("outcome", created ? "created" : "existing"), ("tenant", tenant)],
                factory: factory).increment()
    }

    /// `archivegate_results_purged_total`: expired results the background task deleted.
    func recordPurgedResults(_ count: Int) {
        Counter(label: "archivegate_results_purged_total", factory: factory).increment(by: count)
    }

    /// `archivegate_budget_refusals_total{code,tenant}`: requests refused by the memory budget
    /// (`server.busy`, `tenant.busy`).
    func recordBudgetRefusal(_ code: String, tenant: String) {
        Counter(label: "archivegate_budget_refusals_total", dimensions: [("code", code), ("tenant", tenant)], factory: factory)
            .increment()
    }

    /// `archivegate_sanitize_decodes_total{tenant}`: full decodes made by `/v1/sanitize`, one for the
    /// upload and one per redact-cascade round (`DecodePipeline.maximumSanitizeCascade` bounds them).
    func recordSanitizeDecode(tenant: String) {
        Counter(label: "archivegate_sanitize_decodes_total", dimensions: [("tenant", tenant)], factory: factory).increment()
    }

    /// `archivegate_send_timeouts_total`: connections closed because the client stopped reading.
    func recordSendTimeout() {
        Counter(label: "archivegate_send_timeouts_total", factory: factory).increment()
    }

    /// `archivegate_http_protocol_errors_total{code}`: requests refused before routing because
    /// they do not parse (`request.malformed`), their head is over the decoder's limits
    /// (`request.header_fields_too_large`) or their `Host` is missing or repeated (`request.bad_host`).
    /// They are not in `archivegate_http_requests_total`, which counts routed requests.
    func recordProtocolError(code: String) {
        Counter(label: "archivegate_http_protocol_errors_total", dimensions: [("code", code)], factory: factory).increment()
    }

    /// The Prometheus text exposition.
    public func render() -> String {
        registry.emitToString()
    }
}
