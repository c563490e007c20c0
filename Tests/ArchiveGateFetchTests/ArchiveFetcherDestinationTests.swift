import ArchiveGateTestSupport
import Glibc
import Testing
@testable import ArchiveGateFetch

/// Where a fetch may connect: every spelling of a denied address, redirects to denied addresses,
/// proxies from the environment, TLS verification. "Refused" always means: zero connections
/// accepted by a listener that a permitted fetch demonstrably reaches.
@Suite struct ArchiveFetcherDestinationTests {
    typealias Support = FetchTestSupport

    /// Spellings of 127.0.0.1 (and 0.0.0.0, which Linux also routes to local listeners).
    static let ipv4LoopbackSpellings = [
        "127.0.0.1", "2130706433", "0x7f000001", "127.1", "0177.0.0.1", "0x7f.1",
        "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[64:ff9b::7f00:1]", "[::127.0.0.1]", "localhost",
        "0.0.0.0", "0",
    ]

    @Test(arguments: ipv4LoopbackSpellings)
    func deniedSpellingsOfIPv4LoopbackNeverConnect(host: String) async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError("http://\(host):\(server.port)/archive", Support.otherRangePolicy)
        #expect(error?.code == .blockedDestination, "\(host): \(String(describing: error))")
        #expect(server.acceptCount == 0)
    }

    /// The control for the test above: the same spellings do reach the listener when allowed.
    @Test(arguments: ["2130706433", "0x7f000001", "127.1", "0177.0.0.1", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]"])
    func theSameSpellingsReachTheListenerWhenAllowed(host: String) async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        defer { server.stop() }
        let fetched = try await ArchiveFetcher().fetch("http://\(host):\(server.port)/archive", policy: Support.loopbackPolicy())
        #expect(fetched.bytes == Support.archive)
        #expect(server.acceptCount == 1)
    }

    @Test(.enabled(if: TestHTTPServer.canListen(on: "::1"), "this machine has no IPv6 loopback (::1) to listen on"),
          arguments: ["[::1]", "[0:0:0:0:0:0:0:1]", "[0::1]", "localhost"])
    func deniedSpellingsOfIPv6LoopbackNeverConnect(host: String) async throws {
        let server = try TestHTTPServer(host: "::1", handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError("http://\(host):\(server.port)/archive", Support.otherRangePolicy)
        #expect(error?.code == .blockedDestination)
        #expect(server.acceptCount == 0)
        let allowed = Support.loopbackPolicy { $0.allowedRanges = [IPAddressRange("::1")!] }
        #expect(await Support.fetchError("http://[::1]:\(server.port)/archive", allowed) == nil)
    }

    /// The allowed server redirects to a second listener on 127.0.0.2, which the policy does not
    /// allow, and to the cloud metadata address; neither gets a connection.
    @Test(arguments: ["http://127.0.0.2:PORT/archive", "http://2130706434:PORT/archive", "http://127.2:PORT/archive",
                      "http://[::ffff:127.0.0.2]:PORT/archive", "http://169.254.169.254/latest/meta-data/",
                      "http://[::ffff:169.254.169.254]/", "http://[fd00::1]:PORT/", "http://10.1.2.3:PORT/"])
    func redirectsToDeniedAddressesAreRefused(template: String) async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        let target = try TestHTTPServer(host: "127.0.0.2", handler: Support.routes)
        defer { server.stop(); target.stop() }
        let location = template.replacing("PORT", with: String(target.port))
        let error = await Support.fetchError(server.url("/redirect?to=\(location)"), Support.loopbackPolicy())
        #expect(error?.code == .blockedDestination, "\(location): \(String(describing: error))")
        #expect(server.acceptCount == 1)
        #expect(target.acceptCount == 0)
    }

    @Test func proxyEnvironmentVariablesAreIgnored() async throws {
        let server = try TestHTTPServer(handler: Support.routes)
        let proxy = try TestHTTPServer(handler: Support.routes)
        defer { server.stop(); proxy.stop() }
        // Set and never unset: other tests run concurrently, and the fetcher must ignore these
        // anyway. (curl reads the lower-case http_proxy and upper-case for the rest.)
        for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
            setenv(name, proxy.url(""), 1)
        }
        unsetenv("NO_PROXY")
        unsetenv("no_proxy")
        let fetched = try await ArchiveFetcher().fetch(server.url("/archive"), policy: Support.loopbackPolicy())
        #expect(fetched.bytes == Support.archive)
        #expect(proxy.acceptCount == 0)
        #expect(server.requests.first?.path == "/archive")  // origin-form, not a proxy request
    }

    /// A self-signed certificate on an allowed address is still refused: verification stays on.
    @Test(.enabled(if: access("/usr/bin/openssl", X_OK) == 0), .timeLimit(.minutes(1)))
    func tlsCertificatesAreVerified() async throws {
        let directory = "/tmp/archivegate-fetch-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await Subprocess.shell("mkdir -p \(directory) && cd \(directory) && openssl req -x509 -newkey rsa:2048 -nodes "
            + "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem -days 1 2>/dev/null")
        defer { _ = try? Subprocess.spawn(["/bin/rm", "-rf", directory]).wait() }
        let port = try Self.freePort()
        let server = try Subprocess.spawn(["/usr/bin/openssl", "s_server", "-accept", "127.0.0.1:\(port)",
                                           "-cert", "\(directory)/cert.pem", "-key", "\(directory)/key.pem", "-www", "-quiet"])
        defer { server.kill() }
        var error: FetchError?
        for _ in 0..<50 {  // until s_server listens
            error = await Support.fetchError("https://127.0.0.1:\(port)/", Support.loopbackPolicy())
            if error?.message.contains("certificate") == true { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.message.contains("certificate") == true, "\(String(describing: error))")
    }

    private static func freePort() throws -> UInt16 {
        let probe = try TestHTTPServer(accepting: false)
        defer { probe.stop() }
        return probe.port
    }
}
