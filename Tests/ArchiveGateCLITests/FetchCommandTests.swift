import ArchiveGateTestSupport
import Foundation
import Testing

/// `archivegate fetch` against an origin server on 127.0.0.1.
@Suite struct FetchCommandTests {
    @Test func fetchesValidatesAndConverts() throws {
        let archive = try CLITests.archive(["a", "b"] as NSArray)
        let origin = try TestHTTPServer { request in
            request.path == "/list.archive" ? .response(status: 200, body: archive) : .response(status: 404)
        }
        defer { origin.stop() }
        let url = origin.url("/list.archive")

        // Loopback is denied unless allowed, and nothing reaches the listener.
        let blocked = try CLIRunner.run(["fetch", url])
        #expect(blocked.status == 2)
        #expect(blocked.stdout.isEmpty)
        #expect(blocked.stderr.contains("fetch.blocked_destination: "), "\(blocked.stderr)")
        #expect(blocked.stderr.split(separator: "\n").count == 1)
        #expect(origin.acceptCount == 0)

        let report = try CLIRunner.run(["fetch", "--allow-range", "127.0.0.0/8", url])
        #expect(report.status == 0, "\(report.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        #expect(json?["verdict"] as? String == "accepted")
        #expect((json?["report"] as? [String: Any])?["valid"] as? Bool == true)

        let converted = try CLIRunner.run(["fetch", "--allow-range", "127.0.0.0/8", "--convert", url])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout == "{\"root\":[\"a\",\"b\"]}\n")

        let missing = try CLIRunner.run(["fetch", "--allow-range", "127.0.0.0/8", origin.url("/missing")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("fetch.upstream_status: "))
    }

    /// libcurl is loaded on the first fetch, not at start-up: with an unloadable `libcurl.so.4`
    /// first on the library search path, other commands run as usual and `fetch` fails with a
    /// typed error that says what to install, before any connection.
    @Test func withoutLibcurlOnlyFetchFails() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent("libcurl.so.4").path, contents: Data()))
        let withoutLibcurl = ["LD_LIBRARY_PATH": directory.path]
        let archive = try CLITests.archive(["a", "b"] as NSArray)
        let origin = try TestHTTPServer { _ in .response(status: 200, body: archive) }
        defer { origin.stop() }

        let archivePath = try CLIRunner.write(archive, named: "list.archive", in: directory)
        let validated = try CLIRunner.run(["validate", archivePath], environment: withoutLibcurl)
        #expect(validated.status == 0, "\(validated.stderr)")

        let fetched = try CLIRunner.run(["fetch", "--allow-range", "127.0.0.0/8", origin.url("/list.archive")],
                                        environment: withoutLibcurl)
        #expect(fetched.status == 2)
        #expect(fetched.stdout.isEmpty)
        #expect(fetched.stderr.hasPrefix("archivegate: fetch.unavailable: "), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("libcurl.so.4") && fetched.stderr.contains("libcurl4"), "\(fetched.stderr)")
        #expect(origin.acceptCount == 0)
    }
}
