import ArchiveGateTestSupport
@testable import ArchiveGateFetch

/// Shared pieces of the fetch tests: a payload, policies, the standard routes, and helpers.
enum FetchTestSupport {
    /// Stands in for an archive; the fetcher does not look inside.
    static let archive: [UInt8] = Array("bplist00 pretend this is an NSKeyedArchiver archive".utf8)

    /// The test server on 127.0.0.1 is reachable only because the policy allows it explicitly.
    static func loopbackPolicy(_ change: (inout FetchPolicy) -> Void = { _ in }) -> FetchPolicy {
        var policy = FetchPolicy(allowedRanges: [IPAddressRange("127.0.0.1/32")!],
                                 connectTimeout: .seconds(2), totalTimeout: .seconds(10))
        change(&policy)
        return policy
    }

    /// A policy that allows only a *different* loopback address than the test servers use, so any
    /// connection that reaches a server would be a hole in the checks.
    static let otherRangePolicy = FetchPolicy(allowedRanges: [IPAddressRange("127.0.0.2/32")!],
                                              connectTimeout: .seconds(2), totalTimeout: .seconds(10))

    /// Routes every test server understands.
    /// - `/archive`, `/echo`: the archive.
    /// - `/chain/N`: N relative redirects, then the archive. `/loop`: redirects to itself.
    /// - `/redirect?to=URL`: a 302 to URL, verbatim. `/set-cookie`: sets a cookie, then `/echo`.
    /// - `/status/N`: an empty response with status N.
    @Sendable static func routes(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        let path = request.path
        if path == "/archive" || path == "/echo" {
            return .response(status: 200, headers: ["Content-Type: application/x-plist"], body: archive)
        }
        if path.hasPrefix("/chain/"), let count = Int(path.dropFirst("/chain/".count)) {
            if count == 0 { return .response(status: 200, body: archive) }
            return .response(status: 302, headers: ["Location: /chain/\(count - 1)"])
        }
        if path == "/loop" { return .response(status: 301, headers: ["Location: /loop"]) }
        if path.hasPrefix("/redirect?to=") {
            return .response(status: 302, headers: ["Location: \(path.dropFirst("/redirect?to=".count))"])
        }
        if path == "/set-cookie" {
            return .response(status: 302, headers: ["Set-Cookie: session=secret; Path=/", "Location: /echo"])
        }
        if path.hasPrefix("/status/"), let status = Int(path.dropFirst("/status/".count)) {
            return .response(status: status)
        }
        return .response(status: 404)
    }

    /// The error a fetch throws, or nil when it succeeds.
    static func fetchError(_ url: String, _ policy: FetchPolicy) async -> FetchError? {
        do {
            _ = try await ArchiveFetcher().fetch(url, policy: policy)
            return nil
        } catch {
            return error
        }
    }

    /// Seconds since `start`, for asserting that limits fire promptly.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
