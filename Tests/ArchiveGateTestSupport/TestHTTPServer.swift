import Dispatch
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on a loopback (or test-namespace) address, shared by the fetch, server and
/// CLI tests (a library target, since test targets cannot share files): blocking
/// POSIX sockets, one dispatch queue per connection, `Connection: close` on every response so each
/// request is a fresh connection the fetcher must check. It counts accepted connections, which is
/// how tests prove that a refused destination never saw a single SYN/ACK.
public final class TestHTTPServer: Sendable {
    /// What to send back for a request.
    public enum Reply: Sendable {
        /// A complete response; `Content-Length` is added unless `headers` has one.
        case response(status: Int, headers: [String] = [], body: [UInt8] = [])
        /// A 200 whose body is `chunk` repeated `count` times (forever when nil), `interval` apart,
        /// delimited by closing the connection.
        case stream(chunk: [UInt8], interval: Duration = .zero, count: Int? = nil, headers: [String] = [])
        /// These exact bytes, then close (for lying headers).
        case raw([UInt8])
    }

    /// A request as the server saw it.
    public struct Request: Sendable {
        public let path: String
        /// Header lines, names lowercased (`"cookie: a=b"` → key `cookie`).
        public let headers: [String: String]
    }

    public let host: String
    public let port: UInt16
    private let listener: Int32
    private let accepts = Atomic<Int>(0)
    private let finishes = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let seen = Mutex<[Request]>([])
    private let handler: @Sendable (Request) -> Reply

    /// Connections accepted so far.
    public var acceptCount: Int { accepts.load(ordering: .sequentiallyConsistent) }
    /// Connections this server has closed so far (a stream ends when its client stops taking
    /// bytes), so tests can bound how long a client kept a connection.
    public var finishedCount: Int { finishes.load(ordering: .sequentiallyConsistent) }
    /// Requests received so far.
    public var requests: [Request] { seen.withLock { $0 } }
    /// `host:port`, bracketed for IPv6, for URLs.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    public func url(_ path: String) -> String { "http://\(authority)\(path)" }

    /// Starts listening on `host` (an IPv4 or IPv6 literal) and an ephemeral port.
    /// `backlog` 0 with no accepting lets tests fill the queue to provoke a connect timeout.
    public init(host: String = "127.0.0.1", backlog: Int32 = 64, accepting: Bool = true,
         handler: @escaping @Sendable (Request) -> Reply = { _ in .response(status: 404) }) throws {
        self.host = host
        self.handler = handler
        let isV6 = host.contains(":")
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket: \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let port: UInt16?
        if isV6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            port = Self.bind(fd, address) { $0.sin6_port }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, host, &address.sin_addr)
            port = Self.bind(fd, address) { $0.sin_port }
        }
        guard let port, listen(fd, backlog) == 0 else {
            close(fd)
            throw TestServerError("bind/listen on \(host): errno \(errno)")
        }
        self.listener = fd
        self.port = port
        if accepting {
            DispatchQueue(label: "test-server.accept").async { [self] in acceptLoop() }
        }
    }

    /// Binds `fd` to `address` and returns the port it got (ephemeral when 0 was asked for).
    private static func bind<Address>(_ fd: Int32, _ address: Address, port: (Address) -> in_port_t) -> UInt16? {
        var address = address
        var length = socklen_t(MemoryLayout<Address>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        }
        guard bound == 0 else { return nil }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: port(address))
    }

    /// Whether a listener can be bound on `host` here (a machine or namespace may lack IPv6), so a
    /// test that needs one can be skipped visibly instead of passing without testing.
    public static func canListen(on host: String) -> Bool {
        guard let probe = try? TestHTTPServer(host: host, accepting: false) else { return false }
        probe.stop()
        return true
    }

    /// Stops accepting; connections in progress end when their client goes away.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }  // close once
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the blocked accept()
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // keep it out of children the tests spawn
            accepts.add(1, ordering: .sequentiallyConsistent)
            DispatchQueue(label: "test-server.connection").async { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer {
            close(client)
            finishes.add(1, ordering: .sequentiallyConsistent)
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(client) else { return }
        seen.withLock { $0.append(request) }
        switch handler(request) {
        case .response(let status, var headers, let body):
            if !headers.contains(where: { $0.lowercased().hasPrefix("content-length:") }) {
                headers.append("Content-Length: \(body.count)")
            }
            _ = send(client, head(status: status, headers: headers) + body)
        case .stream(let chunk, let interval, let count, let headers):
            guard send(client, head(status: 200, headers: headers)) else { return }
            var sent = 0
            while count.map({ sent < $0 }) ?? true {
                if interval > .zero { Self.sleep(interval) }
                guard send(client, chunk) else { return }  // the client hung up
                sent += 1
            }
        case .raw(let bytes):
            _ = send(client, bytes)
        }
    }

    private func head(status: Int, headers: [String]) -> [UInt8] {
        Array((["HTTP/1.1 \(status) Test", "Connection: close"] + headers + ["", ""]).joined(separator: "\r\n").utf8)
    }

    private func readRequest(_ client: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < 65536 {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data += buffer[0..<count]
            if data.count >= 4, data.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\r\n").map(String.init)
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingPrefix(" ").description
        }
        return Request(path: String(parts[1]), headers: headers)
    }

    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    public static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
