import ArchiveGateTestSupport
import Testing
@testable import ArchiveGateFetch
#if canImport(Glibc)
import Glibc
#endif

/// Private and metadata addresses with real listeners on them, refused. These run only inside the
/// private network namespace `scripts/fetch-netns-test` creates (it adds the addresses to the
/// namespace's loopback and sets ARCHIVEGATE_FETCH_NETNS=1); anywhere else they are skipped, since
/// binding or connecting to such addresses on a real host would leave the machine.
@Suite(.enabled(if: getenv("ARCHIVEGATE_FETCH_NETNS").map { String(cString: $0) } == "1",
                "needs the namespace made by scripts/fetch-netns-test"))
struct NetworkNamespaceTests {
    typealias Support = FetchTestSupport

    @Test(arguments: [("10.1.2.3", "10.0.0.0/8"), ("169.254.169.254", "169.254.169.254/32"), ("fd00::1", "fd00::/8"),
                      // Issue 15: 6to4 (embedding 127.0.0.1), local NAT64, Teredo, site-local, SIIT
                      // IPv4-translated (embedding 10.1.2.3), the IETF protocol block, discard-only.
                      ("2002:7f00:1::1", "2002::/16"), ("64:ff9b:1::1", "64:ff9b:1::/48"), ("2001::1", "2001::/32"),
                      ("fec0::1", "fec0::/10"), ("::ffff:0:a01:203", "::ffff:0:0:0/96"), ("192.0.0.8", "192.0.0.0/24"),
                      ("100::1", "100::/64")])
    func privateAndMetadataAddressesAreRefusedWithoutAConnection(host: String, range: String) async throws {
        let server = try TestHTTPServer(host: host, handler: Support.routes)
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/archive"), FetchPolicy(connectTimeout: .seconds(2)))
        #expect(error?.code == .blockedDestination, "\(host): \(String(describing: error))")
        #expect(server.acceptCount == 0)
        // Control: the listener is reachable once the configuration allows its range.
        let allowed = FetchPolicy(allowedRanges: [IPAddressRange(range)!], connectTimeout: .seconds(2))
        let fetched = try await ArchiveFetcher().fetch(server.url("/archive"), policy: allowed)
        #expect(fetched.bytes == Support.archive)
        #expect(server.acceptCount == 1)
    }

    @Test func aRedirectFromAnAllowedPrivateServerToTheMetadataAddressIsRefused() async throws {
        let server = try TestHTTPServer(host: "10.1.2.3", handler: Support.routes)
        let metadata = try TestHTTPServer(host: "169.254.169.254", handler: Support.routes)
        defer { server.stop(); metadata.stop() }
        let policy = FetchPolicy(allowedRanges: [IPAddressRange("10.1.2.3")!], connectTimeout: .seconds(2))
        for location in [metadata.url("/latest/meta-data/"), "http://2852039166:\(metadata.port)/",
                         "http://[::ffff:169.254.169.254]:\(metadata.port)/", "http://169.254.43518:\(metadata.port)/"] {
            let error = await Support.fetchError(server.url("/redirect?to=\(location)"), policy)
            #expect(error?.code == .blockedDestination, "\(location): \(String(describing: error))")
        }
        #expect(metadata.acceptCount == 0)
    }
}
