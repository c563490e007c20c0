import ArchiveGateCore
import ArchiveGateFetch
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// `POST /v1/fetch`: fetches an archive from a URL (SSRF-safe, bounded: `ArchiveFetcher`) and
/// answers the tenant's validation report, the same document as `POST /v1/validate`.
///
///     body    {"url": "https://…", "mode": "plain" | "typed", "store": false}   unknown fields → 400
///     store   true → stored like POST /v1/archives (source = the URL): 201 result + Location
///     slots   at most `fetch.maxConcurrentPerTenant` fetches per tenant → else 429 + Retry-After
///     fetch   FetchError → its own problem (403, 413, 504, 502, 400); cancelled when the client leaves
///     decode  as for uploads (422, 413)
struct FetchController {
    typealias Context = ArchiveRequestContext
    /// The JSON request body is small; anything bigger is not a fetch request.
    static let maxRequestBytes = 16 << 10
    static let fields: Set<String> = ["url", "mode", "store"]

    let metrics: ServerMetrics
    let settings: FetchSettings
    let recorder: ResultRecorder
    let fetcher = ArchiveFetcher(userAgent: "ArchiveGate-fetch/1")
    let slots = FetchSlots()

    func register(on group: RouterGroup<Context>) {
        group.post("fetch", use: fetch)
    }

    @Sendable func fetch(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let body = try await Self.parse(request)
        // Refuse before fetching anything when the result could not be kept.
        if body.store { _ = try recorder.requireStore() }
        guard slots.acquire(tenant.id, limit: settings.maxConcurrentPerTenant) else {
            metrics.recordFetch(outcome: ProblemCode.fetchConcurrencyLimited.rawValue, tenant: tenant.id)
            throw ProblemError.fetchConcurrencyLimited(limit: settings.maxConcurrentPerTenant)
        }
        defer { slots.release(tenant.id) }

        let policy = FetchPolicy(
            allowedRanges: settings.allowedRanges,
            allowedHosts: tenant.fetchAllowedHosts,
            maxBytes: min(settings.maxBytes, tenant.maxArchiveBytes),
            connectTimeout: settings.connectTimeout,
            totalTimeout: settings.totalTimeout
        )
        // A client that leaves stops its fetch (libcurl's progress callback aborts the transfer)
        // rather than holding a slot and a connection to the origin until the total timeout.
        let (fetcher, url) = (self.fetcher, body.url)
        let outcome: Result<FetchedArchive, FetchError> = await context.cancellingOnDisconnect {
            do throws(FetchError) { return .success(try await fetcher.fetch(url, policy: policy)) } catch { return .failure(error) }
        }
        let fetched: FetchedArchive
        switch outcome {
        case .success(let archive):
            fetched = archive
        case .failure(let error):
            metrics.recordFetch(outcome: error.code.rawValue, tenant: tenant.id)
            throw error
        }
        metrics.recordFetch(outcome: "ok", tenant: tenant.id)
        try context.lease.reserve(fetched.bytes.count)
        context.recordArchive(bytes: fetched.bytes.count, tenant: tenant, metrics: metrics)
        if body.store {
            return try await recorder.record(fetched.bytes, source: .url(body.url), mode: body.mode, tenant: tenant, context: context)
        }
        let report = try await context.pipeline.validate(fetched.bytes, with: tenant.inspector)
        context.record(report, tenant: tenant, metrics: metrics)
        return .json(VerdictStatus.status(report, at: .report), report.json)
    }

    private struct Wire: Decodable {
        var url: String?
        var mode: String?
        var store: Bool?
    }

    struct Body {
        var url: String
        var mode: OutputMode
        var store: Bool
    }

    /// Strict: a JSON object with a string `url`, optional `mode` and `store`, nothing else.
    static func parse(_ request: Request) async throws -> Body {
        try Context.requireMediaType(request, in: ["application/json"], named: "application/json")
        var bytes: [UInt8] = []
        for try await chunk in request.body {
            bytes.append(contentsOf: chunk.readableBytesView)
            guard bytes.count <= maxRequestBytes else { throw ProblemError.bodyTooLarge(limit: maxRequestBytes) }
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw ProblemError.invalidRequest("The body is a JSON object: {\"url\": \"https://…\", \"mode\": \"plain\", \"store\": false}.")
        }
        for key in object.keys.sorted() where !fields.contains(key) {
            throw ProblemError.invalidRequest("Unknown field '\(key)'; expected url, mode, store.")
        }
        // Typed decoding: `store` must be a JSON boolean, not 0/1 or a string.
        guard let decoded = try? JSONDecoder().decode(Wire.self, from: Data(bytes)) else {
            throw ProblemError.invalidRequest("'url' is a string, 'mode' is 'plain' or 'typed', 'store' is true or false.")
        }
        guard let url = decoded.url, !url.isEmpty else {
            throw ProblemError.invalidRequest("'url' is required: the http or https URL of the archive.")
        }
        let mode = try Context.outputMode(named: decoded.mode)
        let store = decoded.store ?? false
        return Body(url: url, mode: mode, store: store)
    }
}

/// Fetches in progress per tenant.
final class FetchSlots: Sendable {
    private let running = Mutex<[String: Int]>([:])

    func acquire(_ tenant: String, limit: Int) -> Bool {
        running.withLock { counts in
            let current = counts[tenant, default: 0]
            guard current < limit else { return false }
            counts[tenant] = current + 1
            return true
        }
    }

    func release(_ tenant: String) {
        running.withLock { counts in
            let remaining = counts[tenant, default: 1] - 1
            counts[tenant] = remaining > 0 ? remaining : nil
        }
    }
}
