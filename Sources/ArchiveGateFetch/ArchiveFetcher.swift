import Dispatch

/// Fetches one remote archive into memory under a `FetchPolicy`, safe against SSRF.
///
/// The pipeline, per fetch:
/// 1. `CurlURL` parses the URL with libcurl's parser and checks scheme, credentials and the
///    tenant's host allow-list.
/// 2. `CurlTransfer` performs one GET with every rule set as a libcurl option or callback:
///    schemes, addresses (open-socket and pre-request callbacks against `AddressGuard`), size,
///    timeouts, proxies, cookies, credentials, TLS, content decoding.
/// 3. A 3xx with a `Location` goes back to step 1 with the target libcurl resolved, until the
///    redirect limit; any other non-2xx is `upstreamStatus`.
///
/// Redirects are followed here rather than by libcurl (`CURLOPT_FOLLOWLOCATION`) because libcurl
/// offers no hook between hops: following manually puts each target through the same host
/// allow-list and scheme checks as the first URL, spends one total-time budget across all hops,
/// and detects loops. Address checks need no such help: they happen on every connection anyway.
///
/// The blocking transfer runs on its own dispatch queue, never on the caller's thread or a NIO
/// event loop; cancelling the calling task aborts it.
public struct ArchiveFetcher: Sendable {
    /// Sent as `User-Agent`.
    public let userAgent: String

    public init(userAgent: String = "ArchiveGate-fetch/1") {
        self.userAgent = userAgent
    }

    /// Fetches `url` and returns its body, or throws why not.
    public func fetch(_ url: String, policy: FetchPolicy) async throws(FetchError) -> FetchedArchive {
        let cancellation = CancellationFlag()
        let userAgent = self.userAgent
        let result: Result<FetchedArchive, FetchError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A queue of its own: manually created serial queues get an overcommitting thread,
                // so a slow transfer never starves the shared pool.
                DispatchQueue(label: "archivegate.fetch").async {
                    continuation.resume(returning: Result { () throws(FetchError) in
                        try Self.fetchBlocking(url, policy: policy, userAgent: userAgent, cancellation: cancellation)
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// The whole fetch, synchronously, on the calling thread.
    static func fetchBlocking(_ url: String, policy: FetchPolicy, userAgent: String,
                              cancellation: CancellationFlag) throws(FetchError) -> FetchedArchive {
        let deadline = ContinuousClock.now + policy.totalTimeout
        var urls = [try CurlURL(checking: url, policy: policy)]
        let transfer = try CurlTransfer(policy: policy, userAgent: userAgent, cancellation: cancellation)
        while true {
            let current = urls[urls.count - 1]
            let response = try transfer.perform(current, remaining: deadline - ContinuousClock.now)
            if (300..<400).contains(response.status), let location = response.redirectURL {
                guard urls.count <= policy.effectiveMaxRedirects else {
                    throw FetchError(.tooManyRedirects, "more than \(policy.effectiveMaxRedirects) redirects")
                }
                let next = try CurlURL(checking: location, policy: policy)
                guard !urls.contains(where: { $0.text == next.text }) else {
                    throw FetchError(.tooManyRedirects, "redirect loop back to \(CurlURL.quoted(next.text))")
                }
                urls.append(next)
                continue
            }
            guard (200..<300).contains(response.status) else {
                throw FetchError(.upstreamStatus, status: response.status,
                                 "\(current.host) answered HTTP \(response.status)")
            }
            return FetchedArchive(bytes: response.body, finalURL: current.text, urlChain: urls.map(\.text),
                                  status: response.status, contentType: response.contentType,
                                  remoteAddress: response.remoteAddress)
        }
    }
}
