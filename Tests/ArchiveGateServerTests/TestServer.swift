import ArchiveGateKeys
import ArchiveGateServer
import ArchiveGateStore
import ArchiveGateTestSupport
import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1

/// Tenants used across the tests. Keys are plaintext here only; the files hold their hashes.
enum TestTenant: String, CaseIterable {
    /// `foundation` classes only, reject: custom classes are violations.
    case alpha
    /// Any class (`*`): the same Note archive is valid.
    case beta
    /// Tiny limits: 4 KiB bodies, 64 KiB archives, 1 request/s with a burst of 3.
    case tiny
    /// `foundation` classes only, redact: custom classes become null (sanitize, convert).
    case redactor

    var key: String { "\(rawValue)-test-key" }

    var fileContents: String {
        let hash = APIKeyHash(key: key).hex
        switch self {
        case .alpha:
            return #"{"id":"alpha","keys":["\#(hash)"],"policy":{"allow":["foundation"]},"maxBodyBytes":4194304,"maxArchiveBytes":8388608,"rateLimit":{"requestsPerSecond":100000,"burst":100000}}"#
        case .beta:
            return #"{"id":"beta","keys":["\#(hash)"],"policy":{"allow":["*"],"inspection":true},"rateLimit":{"requestsPerSecond":100000,"burst":100000}}"#
        case .tiny:
            return #"{"id":"tiny","keys":["\#(hash)"],"policy":{"allow":["foundation"]},"maxBodyBytes":4096,"maxArchiveBytes":65536,"rateLimit":{"requestsPerSecond":1,"burst":3}}"#
        case .redactor:
            return #"{"id":"redactor","keys":["\#(hash)"],"policy":{"allow":["foundation"],"onViolation":"redact"},"rateLimit":{"requestsPerSecond":100000,"burst":100000}}"#
        }
    }
}

/// A response read in full.
struct TestReply {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
    }

    /// Plain JSON renders `$top` as an object; NSKeyedArchiver stores the root object under "root".
    var topRoot: [String: Any] { json["root"] as? [String: Any] ?? [:] }

    var text: String { String(decoding: body, as: UTF8.self) }
}

enum TestServer {
    /// A config folder with `tenants/` holding every `TestTenant`.
    static func makeConfigDirectory() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("archivegate-test-\(UUID().uuidString)")
        let tenants = root.appendingPathComponent("tenants")
        try FileManager.default.createDirectory(at: tenants, withIntermediateDirectories: true)
        for tenant in TestTenant.allCases {
            try tenant.fileContents.write(to: tenants.appendingPathComponent("\(tenant.rawValue).json"), atomically: true, encoding: .utf8)
        }
        return root.path
    }

    /// Runs `body` against a live server on an ephemeral loopback port.
    /// `configure` adjusts the configuration first (e.g. `fetch.allowedRanges`); `store` backs
    /// `/v1/archives` (nil: those endpoints answer 503 `store.disabled`).
    /// `log` receives the server's log lines (at the configuration's `logLevel`).
    static func run(configure: (inout ServerConfiguration) -> Void = { _ in },
                    store: (any ResultStore)? = nil,
                    log: CapturedLog? = nil,
                    _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let directory = try makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.tenantsDirectory = directory + "/tenants"
        configuration.logLevel = .warning
        configure(&configuration)
        var logger = log.map { log in Logger(label: "archivegate-test") { _ in CapturedLog.Handler(log: log) } }
            ?? Logger(label: "archivegate-test")
        logger.logLevel = .warning
        let app = try buildApplication(configuration: configuration, logger: logger, store: store)
        // The server's tasks run on threads of their own, not on the cooperative pool the other
        // suites' synchronous tests hold (`DedicatedExecutor`).
        try await withTaskExecutorPreference(.tests) {
            try await app.test(.live) { client in
                try await body(client.port!)
            }
        }
    }

    /// One request with AsyncHTTPClient (a real client over loopback).
    static func send(
        _ path: String, method: HTTPMethod = .POST, port: Int, key: String? = nil, body: [UInt8]? = nil,
        contentType: String? = "application/octet-stream", headers: [(String, String)] = [],
        client: HTTPClient = .shared
    ) async throws -> TestReply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let collected = try await response.body.collect(upTo: 256 << 20)
        return TestReply(status: Int(response.status.code), headers: response.headers, body: Array(collected.readableBytesView))
    }
}

extension HTTPClient {
    /// A client allowed `connections` parallel HTTP/1.1 connections to one host (the shared one
    /// queues beyond a handful).
    static func parallel(_ connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
