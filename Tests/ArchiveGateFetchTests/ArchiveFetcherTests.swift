import ArchiveGateTestSupport
import Testing
@testable import ArchiveGateFetch

/// Fetching, redirects, schemes, hosts, credentials and cookies, against a test server on 127.0.0.1.
@Suite struct ArchiveFetcherTests {
    typealias Support = FetchTestSupport

    @Test func fetchesAnArchiveFromAnExplicitlyAllowedServer() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let fetched = try await ArchiveFetcher().fetch(server.url("/archive"), policy: Support.loopbackPolicy())
        #expect(fetched.bytes == Support.archive)
        #expect(fetched.status == 200)
        #expect(fetched.contentType == "application/x-plist")
        #expect(fetched.remoteAddress == "127.0.0.1")
        #expect(fetched.finalURL == server.url("/archive"))
        let request = try #require(server.requests.first)
        #expect(request.headers["accept-encoding"] == "gzip, deflate")
        #expect(request.headers["user-agent"] == "ArchiveGate-fetch/1")
    }

    @Test func loopbackIsDeniedUnlessTheConfigAllowsIt() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/archive"), FetchPolicy())
        #expect(error?.code == .blockedDestination)
        #expect(server.acceptCount == 0)
    }

    @Test func followsFiveRedirects() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let fetched = try await ArchiveFetcher().fetch(server.url("/chain/5"), policy: Support.loopbackPolicy())
        #expect(fetched.bytes == Support.archive)
        #expect(fetched.urlChain == (0...5).reversed().map { server.url("/chain/\($0)") })
    }

    @Test func theSixthRedirectFails() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/chain/6"), Support.loopbackPolicy { $0.maxRedirects = 50 })
        #expect(error?.code == .tooManyRedirects)
        #expect(server.requests.count == 6)  // the first request and five redirects, no more
    }

    @Test func aTenantMayAllowFewerRedirects() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let policy = Support.loopbackPolicy { $0.maxRedirects = 1 }
        #expect(await Support.fetchError(server.url("/chain/1"), policy) == nil)
        #expect(await Support.fetchError(server.url("/chain/2"), policy)?.code == .tooManyRedirects)
    }

    @Test func redirectLoopsFail() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/loop"), Support.loopbackPolicy())
        #expect(error?.code == .tooManyRedirects)
        #expect(server.requests.count == 1)
    }

    @Test(arguments: ["file:///etc/passwd", "gopher://AUTHORITY/_GET", "ftp://AUTHORITY/", "dict://AUTHORITY/d:x",
                      "HTTPS+unknown://AUTHORITY/", "javascript:alert(1)", "ldap://AUTHORITY/", "telnet://AUTHORITY/"])
    func onlyHTTPAndHTTPSAreFetched(template: String) async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let url = template.replacing("AUTHORITY", with: server.authority)
        let error = await Support.fetchError(url, Support.loopbackPolicy())
        #expect(error?.code == .notHTTP, "\(url): \(String(describing: error))")
        #expect(server.acceptCount == 0)
    }

    @Test(arguments: ["file:///etc/passwd", "gopher://TARGET/_GET", "ftp://TARGET/", "dict://TARGET/"])
    func redirectsToOtherSchemesAreRefused(template: String) async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        let target = try TestHTTPServer(handler: Support.routes)
        defer { server.stop(); target.stop() }
        let location = template.replacing("TARGET", with: target.authority)
        let error = await Support.fetchError(server.url("/redirect?to=\(location)"), Support.loopbackPolicy())
        #expect(error?.code == .notHTTP)
        #expect(target.acceptCount == 0)
    }

    @Test(arguments: ["", "not a url", "http://", "http://[::1", "//example.com/archive", "http://exa mple.com/",
                      "http://example.com:99999/"])
    func malformedURLsAreRefused(url: String) async {
        #expect(await Support.fetchError(url, FetchPolicy())?.code == .invalidURL)
    }

    /// A NUL would cut the C string libcurl reads, fetching `…/archive` while `source` said more.
    @Test(arguments: ["\u{0}", "\u{0}.evil", "\r\nX-Injected: 1", "\t", "\u{7F}", "\u{1B}"])
    func controlCharactersInURLsAreRefusedBeforeConnecting(suffix: String) async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/archive") + suffix, Support.loopbackPolicy())
        #expect(error?.code == .invalidURL, "\(String(describing: error))")
        #expect(error?.message.contains("control character") == true)
        #expect(server.acceptCount == 0)
    }

    /// An upstream that answers with something other than HTTP is a bad gateway (502 in the
    /// server), not the client's bad request.
    @Test(arguments: ["SSH-2.0-OpenSSH_9.2\r\n", "220 smtp.example ESMTP\r\n", "hello"])
    func nonHTTPBannersAreConnectionFailures(banner: String) async throws {
        let server = try TestHTTPServer { _ in .raw(Array(banner.utf8)) }
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/archive"), Support.loopbackPolicy())
        #expect(error?.code == .connectionFailed, "\(String(describing: error))")
        #expect(error?.message.contains("did not answer HTTP") == true, "\(String(describing: error))")
    }

    @Test func urlsWithCredentialsAreRefusedBeforeConnecting() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        for url in ["http://user:secret@\(server.authority)/archive", "http://user@\(server.authority)/archive"] {
            #expect(await Support.fetchError(url, Support.loopbackPolicy())?.code == .invalidURL)
        }
        #expect(server.acceptCount == 0)
    }

    @Test func cookiesAreNotSentBack() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        _ = try await ArchiveFetcher().fetch(server.url("/set-cookie"), policy: Support.loopbackPolicy())
        let requests = server.requests
        #expect(requests.map(\.path) == ["/set-cookie", "/echo"])
        #expect(requests.allSatisfy { $0.headers["cookie"] == nil && $0.headers["authorization"] == nil })
    }

    @Test(arguments: [404, 500, 204, 304])
    func nonSuccessStatusesAreUpstreamErrors(status: Int) async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/status/\(status)"), Support.loopbackPolicy())
        if status == 204 {
            #expect(error == nil)  // 2xx with an empty body is a success; the decoder judges the bytes
        } else {
            #expect(error?.code == .upstreamStatus)
            #expect(error?.status == status)
        }
    }

    @Test func hostsOutsideTheTenantsAllowListAreRefusedBeforeConnecting() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let refused = Support.loopbackPolicy { $0.allowedHosts = ["archives.example.com"] }
        #expect(await Support.fetchError(server.url("/archive"), refused)?.code == .blockedDestination)
        #expect(server.acceptCount == 0)
        let allowed = Support.loopbackPolicy { $0.allowedHosts = ["127.0.0.1"] }
        #expect(await Support.fetchError(server.url("/archive"), allowed) == nil)
    }

    @Test func everyRedirectTargetIsCheckedAgainstTheHostAllowList() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let policy = Support.loopbackPolicy { $0.allowedHosts = ["127.0.0.1"] }
        // localhost resolves to an allowed address, but it is not an allowed *host*.
        let error = await Support.fetchError(server.url("/redirect?to=http://localhost:\(server.port)/archive"), policy)
        #expect(error?.code == .blockedDestination)
        #expect(server.requests.map(\.path) == ["/redirect?to=http://localhost:\(server.port)/archive"])
    }
}
