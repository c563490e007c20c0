import CCurl

/// A URL parsed by libcurl's own URL parser (`CURLU`), checked against the fetch rules.
///
/// The parsed handle itself is handed to the transfer (`CURLOPT_CURLU`), so the host that was
/// checked is the host libcurl connects to: no second parser can read the string differently.
final class CurlURL {
    /// The `CURLU *`; freed with the object, which must outlive the easy handle's use of it.
    let handle: OpaquePointer
    /// The loaded libcurl (`curl_url_*` live there).
    private let curl: Libcurl
    /// The URL as libcurl normalizes it (used for the redirect chain and loop detection).
    private(set) var text: String
    /// The host in ASCII (punycode for internationalized names), brackets kept for IPv6.
    private(set) var host: String

    /// Parses `text` and applies the URL-level rules: http/https only, a host, no credentials,
    /// and the tenant's host allow-list. Addresses are judged later, at connect time.
    init(checking input: String, policy: FetchPolicy) throws(FetchError) {
        let curl = try Libcurl.shared()
        guard let handle = curl.api.url() else { throw FetchError(.connectionFailed, "libcurl could not allocate a URL") }
        self.handle = handle
        self.curl = curl
        // Set before any throw below, so deinit always sees initialized stored properties.
        self.text = input
        self.host = ""
        // libcurl reads a C string: a NUL would silently cut the URL there, and other control
        // characters have no business in a URL (RFC 3986 has them percent-encoded).
        if let offset = input.unicodeScalars.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            let scalar = input.unicodeScalars[offset]
            let position = input.unicodeScalars.distance(from: input.unicodeScalars.startIndex, to: offset)
            throw FetchError(.invalidURL, "the URL holds the control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(4)) at character \(position); percent-encode it: \(Self.quoted(input))")
        }
        let parsed = curl.api.url_set(handle, CURLUPART_URL, input, 0)
        if parsed == CURLUE_UNSUPPORTED_SCHEME {
            throw FetchError(.notHTTP, "only http and https URLs can be fetched: \(Self.quoted(input))")
        }
        guard parsed == CURLUE_OK else {
            throw FetchError(.invalidURL, "not a valid absolute URL (\(String(cString: curl.api.url_strerror(parsed)))): \(Self.quoted(input))")
        }
        let scheme = Self.part(curl, handle, CURLUPART_SCHEME)?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw FetchError(.notHTTP, "only http and https URLs can be fetched, not \(scheme ?? "?"): \(Self.quoted(input))")
        }
        // Refused rather than stripped: the service has no notion of upstream credentials, and a
        // URL that carries none can never leak them to a redirect target.
        guard Self.part(curl, handle, CURLUPART_USER) == nil, Self.part(curl, handle, CURLUPART_PASSWORD) == nil else {
            throw FetchError(.invalidURL, "URLs with credentials (user:password@) are not fetched")
        }
        guard let host = Self.part(curl, handle, CURLUPART_HOST, flags: UInt32(CURLU_PUNYCODE)), !host.isEmpty,
              let normalized = Self.part(curl, handle, CURLUPART_URL) else {
            throw FetchError(.invalidURL, "the URL has no usable host: \(Self.quoted(input))")
        }
        guard policy.allowsHost(host) else {
            throw FetchError(.blockedDestination, "host \(host) is not on this tenant's allow list")
        }
        self.text = normalized
        self.host = host
    }

    deinit { curl.api.url_cleanup(handle) }

    private static func part(_ curl: Libcurl, _ handle: OpaquePointer, _ part: CURLUPart, flags: UInt32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl.api.url_get(handle, part, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl.api.free(value) }
        return String(cString: value)
    }

    /// URLs in messages are cut short: they come from untrusted input and end up in logs.
    static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(200).map { $0.isASCII && $0.value >= 0x20 ? String($0) : "?" }.joined()
        return "\"\(shown)\(text.unicodeScalars.count > 200 ? "…" : "")\""
    }
}

private extension String {
    /// `"0"` → `"0000"`, for U+ notation.
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
