import ArchiveGateCore
import ArchiveGateStore
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Builds the HTTP service. `archivegate serve` and the tests call this same function.
///
///     bytes ─▶ NIO HTTP/1 codec ─▶ HTTPConformanceHandler  parser errors → 431/400 problem, Host, HTTP/1.0 close
///           ─▶ RequestTimeout, EarlyClose, ExpectContinue, HeadRequest, ClientDisconnect, ResponseWritten, SendTimeout handlers ─▶ router:
///     request ─▶ RequestIdMiddleware     X-Request-Id in and out
///             ─▶ AccessLogMiddleware     one log line + HTTP metrics per request
///             ─▶ ProblemMiddleware       every error → application/problem+json
///             ─▶ ExpectContinueMiddleware  `100 Continue` when the handler first reads the body
///             ─▶ /healthz /version /readyz /metrics /openapi.yaml        (no auth)
///             ─▶ / and /ui/<file>: InspectorController (the inspector page; ui.enabled)   (no auth)
///             ─▶ /v1 and /: AuthenticationMiddleware ─▶ RateLimitMiddleware ─▶ MemoryBudgetMiddleware ─▶ ArchiveController  (validate, convert)
///                     (Bearer key → tenant)      (token bucket → 429)    ResultsController  (/v1/archives → store)
///                                                                        FetchController    (libcurl → core [→ store])
///                                                                        InspectController  (report + JSON for the page)
///
/// `store` backs `/v1/archives`; with nil those endpoints answer 503 `store.disabled`. The caller
/// owns it (opens it before, closes it after the application ran); the application runs the
/// background purge of expired results. Throws when the tenant files cannot be loaded: better not
/// to start than to start half-configured.
public func buildApplication(
    configuration: ServerConfiguration,
    logger: Logger? = nil,
    metrics: ServerMetrics = ServerMetrics(),
    store: (any ResultStore)? = nil
) throws -> some ApplicationProtocol {
    var logger = logger ?? Logger(label: "archivegate")
    logger.logLevel = configuration.logLevel
    let tenantDirectories = (configuration.tenantsDirectory.map { [$0] } ?? []) + configuration.extraTenantsDirectories
    let tenants = try TenantRegistry.load(directories: tenantDirectories, defaults: configuration.tenantDefaults)
    try tenants.refusePublishedKeys(bindingTo: configuration.host)
    if tenants.tenants.isEmpty {
        logger.warning("no tenants configured: every /v1 request will be answered 401",
                       metadata: ["tenants_directory": .string(tenantDirectories.joined(separator: ", "))])
    } else {
        logger.info("tenants loaded", metadata: ["tenants": .string(tenants.tenants.map(\.id).joined(separator: ","))])
    }
    for risk in configuration.riskySettings {
        logger.warning("risky setting acknowledged: \(risk)")
    }
    for tenant in tenants.tenants {
        for risk in tenant.acknowledgedRisks {
            logger.warning("risky tenant setting acknowledged: \(risk)", metadata: ["tenant": .string(tenant.id)])
        }
    }

    let router = Router(context: ArchiveRequestContext.self)
    let routeMethods = RouteMethodTable()
    router.addMiddleware {
        RequestIdMiddleware()
        AccessLogMiddleware(logger: logger, metrics: metrics)
        ProblemMiddleware(routes: routeMethods)
        ExpectContinueMiddleware()
    }
    var budgetLimits = configuration.memory.limits()
    budgetLimits.tenants = tenants.tenants.count
    let budget = MemoryBudget(limits: budgetLimits)
    let largestConvertible = DecodeEstimate.largestConvertible(within: min(budget.limits.tenantBytes, budget.limits.totalBytes))
    logger.info("memory budget", metadata: ["bytes": .stringConvertible(budget.limits.totalBytes),
                                            "tenant_bytes": .stringConvertible(budget.limits.tenantBytes),
                                            "decode_bytes_per_object": .stringConvertible(DecodeEstimate.bytesPerObject),
                                            "largest_convertible_archive_bytes": .stringConvertible(largestConvertible)])
    for tenant in tenants.tenants where tenant.maxArchiveBytes > largestConvertible {
        logger.warning("a tenant's maxArchiveBytes is more than its share of the memory budget can convert (docs/MEMORY.md)",
                       metadata: ["tenant": .string(tenant.id), "max_archive_bytes": .stringConvertible(tenant.maxArchiveBytes),
                                  "largest_convertible_archive_bytes": .stringConvertible(largestConvertible)])
    }
    OperationsController(metrics: metrics, tenantCount: tenants.tenants.count, store: store, memory: budget.limits).register(on: router)
    if configuration.uiEnabled { InspectorController().register(on: router) }
    let recorder = ResultRecorder(store: store, metrics: metrics)
    APIRoutes(
        middleware: [AuthenticationMiddleware(tenants: tenants),
                     RateLimitMiddleware(),
                     MemoryBudgetMiddleware(budget: budget,
                                            amplificationCap: AmplificationCap(factor: configuration.memory.amplificationFactor),
                                            metrics: metrics)],
        controllers: [ArchiveController(metrics: metrics).register,
                      WriteController(metrics: metrics).register,
                      ResultsController(recorder: recorder, maxPageSize: configuration.store.maxPageSize).register,
                      FetchController(metrics: metrics, settings: configuration.fetch, recorder: recorder).register,
                      InspectController(metrics: metrics).register]
    ).register(on: router)
    routeMethods.load(from: router.routes)

    let http1 = HTTP1Channel.Configuration(
        additionalChannelHandlers: [RequestTimeoutHandler(headTimeout: TimeAmount(configuration.headerTimeout),
                                                          bodyTimeout: TimeAmount(configuration.bodyTimeout)),
                                    EarlyCloseHandler(),
                                    ExpectContinueHandler(),
                                    HeadRequestHandler(),
                                    ClientDisconnectHandler(),
                                    ResponseWrittenHandler(),
                                    SendTimeoutHandler(timeout: TimeAmount(configuration.sendTimeout),
                                                       onTimeout: { metrics.recordSendTimeout() })],
        idleTimeout: TimeAmount(configuration.idleTimeout)
    )
    let protocolLogger = logger
    let server = HTTPServerBuilder { responder in
        ConformingHTTP1Channel(http1: HTTP1Channel(responder: responder, configuration: http1),
                               makeConformanceHandler: { HTTPConformanceHandler(limits: http1.httpDecoder, logger: protocolLogger, metrics: metrics) })
    }
    return Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "archivegate"),
        services: store.map { [PurgeService(store: $0, interval: configuration.store.purgeInterval, metrics: metrics, logger: logger)] } ?? [],
        logger: logger
    )
}
