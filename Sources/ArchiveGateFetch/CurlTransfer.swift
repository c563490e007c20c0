import CCurl
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Set from any thread when the caller's task is cancelled; read by the progress callback.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// One libcurl easy handle configured with every fetch rule, performing one request per hop.
/// Lives on the transfer thread only; the callbacks reach its state through their `clientp`.
final class CurlTransfer {
    /// What the callbacks record, reset for each hop.
    final class State {
        let addressGuard: AddressGuard
        let maxBytes: Int
        let cancellation: CancellationFlag
        var body: [UInt8] = []
        var exceededCap = false
        var blockedReason: String?
        init(addressGuard: AddressGuard, maxBytes: Int, cancellation: CancellationFlag) {
            self.addressGuard = addressGuard
            self.maxBytes = maxBytes
            self.cancellation = cancellation
        }
    }

    /// One hop's response.
    struct Response {
        var status: Int
        var redirectURL: String?
        var contentType: String?
        var remoteAddress: String?
        var body: [UInt8]
    }

    private let handle: UnsafeMutableRawPointer
    /// The loaded libcurl (`curl_easy_*` live there).
    private let curl: Libcurl
    private let state: State
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// The easy handle points into the last URL it was given (`CURLOPT_CURLU`), so every URL
    /// performed is kept until the handle is cleaned up in `deinit`.
    private var performedURLs: [CurlURL] = []

    init(policy: FetchPolicy, userAgent: String, cancellation: CancellationFlag) throws(FetchError) {
        // Loading runs curl_global_init (once per process) before this first handle.
        let curl: Libcurl
        do throws(FetchError) { curl = try Libcurl.shared() } catch {
            errorBuffer.deallocate()
            throw error
        }
        guard let handle = curl.api.easy_init() else {
            errorBuffer.deallocate()
            throw FetchError(.connectionFailed, "libcurl could not create a handle")
        }
        self.handle = handle
        self.curl = curl
        self.state = State(addressGuard: AddressGuard(allowing: policy.allowedRanges),
                           maxBytes: policy.maxBytes, cancellation: cancellation)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try configure(policy: policy, userAgent: userAgent)
    }

    deinit {
        curl.api.easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    // MARK: - Options

    private func configure(policy: FetchPolicy, userAgent: String) throws(FetchError) {
        let context = Unmanaged.passUnretained(state).toOpaque()  // `self` owns `state` for the handle's life
        var failed: [String] = []
        func check(_ code: CURLcode, _ name: String) { if code != CURLE_OK { failed.append(name) } }
        let setopt = curl.api.easy_setopt
        func long(_ option: CURLoption, _ value: Int, _ name: String) { check(ag_curl_setopt_long(setopt, handle, option, value), name) }
        func string(_ option: CURLoption, _ value: String, _ name: String) { check(ag_curl_setopt_string(setopt, handle, option, value), name) }

        long(CURLOPT_NOSIGNAL, 1, "NOSIGNAL")  // many threads: no SIGALRM-based DNS timeouts
        check(ag_curl_setopt_pointer(setopt, handle, CURLOPT_ERRORBUFFER, errorBuffer), "ERRORBUFFER")
        // Schemes, for the first request and (should auto-follow ever be enabled) for redirects.
        string(CURLOPT_PROTOCOLS_STR, "http,https", "PROTOCOLS_STR")
        string(CURLOPT_REDIR_PROTOCOLS_STR, "http,https", "REDIR_PROTOCOLS_STR")
        // Redirects are followed by ArchiveFetcher, one checked hop at a time (see there).
        long(CURLOPT_FOLLOWLOCATION, 0, "FOLLOWLOCATION")
        long(CURLOPT_MAXREDIRS, policy.effectiveMaxRedirects, "MAXREDIRS")
        long(CURLOPT_HTTPGET, 1, "HTTPGET")
        // HTTP/0.9 would pass any TCP service's banner off as a body.
        long(CURLOPT_HTTP09_ALLOWED, 0, "HTTP09_ALLOWED")
        // Proxies: "" beats http_proxy/https_proxy/ALL_PROXY in the environment, "*" NO_PROXY.
        string(CURLOPT_PROXY, "", "PROXY")
        string(CURLOPT_NOPROXY, "*", "NOPROXY")
        // Credentials: none set, ~/.netrc ignored, never re-sent to another host. No cookie
        // engine: COOKIEFILE/COOKIEJAR are never set, so Set-Cookie is dropped.
        long(CURLOPT_NETRC, Int(CURL_NETRC_IGNORED.rawValue), "NETRC")
        long(CURLOPT_UNRESTRICTED_AUTH, 0, "UNRESTRICTED_AUTH")
        long(CURLOPT_SSL_VERIFYPEER, 1, "SSL_VERIFYPEER")
        long(CURLOPT_SSL_VERIFYHOST, 2, "SSL_VERIFYHOST")
        // Only zlib encodings are asked for; libcurl decodes whatever it receives and the write
        // callback sees decoded bytes, so the byte cap bounds a gzip bomb's output. libcurl 7.88.1
        // also refuses more than 5 stacked encodings.
        string(CURLOPT_ACCEPT_ENCODING, "gzip, deflate", "ACCEPT_ENCODING")
        string(CURLOPT_USERAGENT, userAgent, "USERAGENT")
        // Size: the announced length is refused up front; the write callback caps the rest
        // (7.88's MAXFILESIZE does not stop a body without Content-Length).
        check(ag_curl_setopt_off(setopt, handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(policy.maxBytes)), "MAXFILESIZE_LARGE")
        long(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(policy.connectTimeout), "CONNECTTIMEOUT_MS")
        if policy.lowSpeedLimit > 0 {
            long(CURLOPT_LOW_SPEED_LIMIT, policy.lowSpeedLimit, "LOW_SPEED_LIMIT")
            long(CURLOPT_LOW_SPEED_TIME, max(1, (Self.milliseconds(policy.lowSpeedTime) + 999) / 1000), "LOW_SPEED_TIME")
        }

        check(ag_curl_set_opensocket_function(setopt, handle) { context, _, address in
            guard let context, let address else { return CURL_SOCKET_BAD }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            let target = IPAddress(socketAddress: ag_curl_sockaddr_address(address), length: Int(address.pointee.addrlen))
            guard let target else {
                state.blockedReason = "a connection to a non-IP address was refused"
                return CURL_SOCKET_BAD
            }
            if let reason = state.addressGuard.denial(for: target) {
                state.blockedReason = reason
                return CURL_SOCKET_BAD  // no socket, so no packet ever leaves
            }
            return socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
        }, "OPENSOCKETFUNCTION")
        check(ag_curl_setopt_pointer(setopt, handle, CURLOPT_OPENSOCKETDATA, context), "OPENSOCKETDATA")

        // Second look, before every request, at the address the (possibly reused) connection
        // actually reached: catches anything that bypassed the open-socket callback.
        check(ag_curl_set_prereq_function(setopt, handle) { context, primaryIP, _, _, _ in
            guard let context else { return CURL_PREREQFUNC_ABORT }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            let text = primaryIP.map { String(cString: $0) } ?? ""
            guard let address = IPAddress(text) else {
                state.blockedReason = "the connected address \"\(text)\" could not be checked"
                return CURL_PREREQFUNC_ABORT
            }
            if let reason = state.addressGuard.denial(for: address) {
                state.blockedReason = reason
                return CURL_PREREQFUNC_ABORT
            }
            return CURL_PREREQFUNC_OK
        }, "PREREQFUNCTION")
        check(ag_curl_setopt_pointer(setopt, handle, CURLOPT_PREREQDATA, context), "PREREQDATA")

        check(ag_curl_set_write_function(setopt, handle) { data, size, count, context in
            guard let context else { return 0 }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            // Returning less than `length` makes libcurl abort with CURLE_WRITE_ERROR.
            guard length <= state.maxBytes - state.body.count else {
                state.exceededCap = true
                return 0
            }
            if let data, length > 0 {
                data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
                }
            }
            return length
        }, "WRITEFUNCTION")
        check(ag_curl_setopt_pointer(setopt, handle, CURLOPT_WRITEDATA, context), "WRITEDATA")

        // The progress callback exists to abort promptly when the caller's task is cancelled.
        long(CURLOPT_NOPROGRESS, 0, "NOPROGRESS")
        check(ag_curl_set_xferinfo_function(setopt, handle) { context, _, _, _, _ in
            guard let context else { return 1 }
            return Unmanaged<State>.fromOpaque(context).takeUnretainedValue().cancellation.isCancelled ? 1 : 0
        }, "XFERINFOFUNCTION")
        check(ag_curl_setopt_pointer(setopt, handle, CURLOPT_XFERINFODATA, context), "XFERINFODATA")

        // A libcurl that rejects one of these would silently drop a rule: refuse to fetch instead.
        guard failed.isEmpty else {
            throw FetchError(.connectionFailed, "libcurl refused options: \(failed.joined(separator: ", "))")
        }
    }

    // MARK: - Performing

    /// Requests `url` (GET) with `remaining` of the total time budget left.
    func perform(_ url: CurlURL, remaining: Duration) throws(FetchError) -> Response {
        state.body = []
        state.exceededCap = false
        state.blockedReason = nil
        errorBuffer[0] = 0
        if !performedURLs.contains(where: { $0 === url }) { performedURLs.append(url) }
        let milliseconds = Self.milliseconds(remaining)
        guard milliseconds > 0 else { throw FetchError(.timeout, "the total timeout expired") }
        let setopt = curl.api.easy_setopt
        guard ag_curl_setopt_pointer(setopt, handle, CURLOPT_CURLU, UnsafeMutableRawPointer(url.handle)) == CURLE_OK,
              ag_curl_setopt_long(setopt, handle, CURLOPT_TIMEOUT_MS, milliseconds) == CURLE_OK else {
            throw FetchError(.connectionFailed, "libcurl refused the URL or timeout")
        }
        let code = curl.api.easy_perform(handle)
        guard code == CURLE_OK else { throw error(for: code, url: url) }

        var status = 0
        _ = ag_curl_getinfo_long(curl.api.easy_getinfo, handle, CURLINFO_RESPONSE_CODE, &status)
        return Response(status: status,
                        redirectURL: info(CURLINFO_REDIRECT_URL),
                        contentType: info(CURLINFO_CONTENT_TYPE),
                        remoteAddress: info(CURLINFO_PRIMARY_IP),
                        body: state.body)
    }

    private func info(_ item: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ag_curl_getinfo_string(curl.api.easy_getinfo, handle, item, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// Turns libcurl's result into our codes. What the callbacks recorded comes first: a refused
    /// socket surfaces from libcurl as a mere "couldn't connect".
    private func error(for code: CURLcode, url: CurlURL) -> FetchError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl.api.easy_strerror(code))
        if let reason = state.blockedReason {
            return FetchError(.blockedDestination, "connection to \(url.host) refused: \(reason)")
        }
        if state.exceededCap || code == CURLE_FILESIZE_EXCEEDED {
            return FetchError(.tooLarge, "the body from \(url.host) exceeds the limit of \(state.maxBytes) bytes")
        }
        switch code {
        case CURLE_ABORTED_BY_CALLBACK where state.cancellation.isCancelled:
            return FetchError(.cancelled, "the fetch was cancelled")
        case CURLE_OPERATION_TIMEDOUT:
            return FetchError(.timeout, detail)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY:
            // Schemes were checked on every URL before its transfer, so here libcurl means the
            // upstream's reply is not HTTP (an SSH or SMTP banner, HTTP/0.9): a bad gateway, not
            // a bad request.
            return FetchError(.connectionFailed, "\(url.host) did not answer HTTP: \(detail)")
        case CURLE_URL_MALFORMAT:
            return FetchError(.invalidURL, detail)
        default:
            return FetchError(.connectionFailed, detail)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (total, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int.max : Int(clamping: total + attoseconds / 1_000_000_000_000_000)
    }
}
