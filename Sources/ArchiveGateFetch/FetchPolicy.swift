/// The limits and permissions for one fetch: server-wide ranges plus the tenant's restrictions.
public struct FetchPolicy: Sendable {
    /// Redirects are never followed more often than this, whatever the policy says (DESIGN §8).
    public static let redirectCeiling = 5

    /// Address ranges allowed despite the deny list (server configuration; tests allow loopback).
    public var allowedRanges: [IPAddressRange]
    /// Host names the tenant may fetch from, for the URL and every redirect target; nil allows
    /// any host. An entry matches the host exactly (case-insensitive, trailing dot ignored);
    /// `*.example.com` matches subdomains of example.com but not example.com itself. IP-literal
    /// hosts match only an entry written the same way. Write internationalized names in punycode.
    public var allowedHosts: [String]?
    /// The most body bytes accepted, counted after content decoding.
    public var maxBytes: Int
    /// Time allowed for each TCP (and TLS) connect.
    public var connectTimeout: Duration
    /// Time allowed for the whole fetch, redirects included.
    public var totalTimeout: Duration
    /// The transfer is aborted when it stays below `lowSpeedLimit` bytes/s for `lowSpeedTime`.
    public var lowSpeedLimit: Int
    public var lowSpeedTime: Duration
    /// Redirects to follow; capped at `redirectCeiling`.
    public var maxRedirects: Int

    public init(
        allowedRanges: [IPAddressRange] = [],
        allowedHosts: [String]? = nil,
        maxBytes: Int = 16 * 1024 * 1024,
        connectTimeout: Duration = .seconds(5),
        totalTimeout: Duration = .seconds(30),
        lowSpeedLimit: Int = 1024,
        lowSpeedTime: Duration = .seconds(10),
        maxRedirects: Int = FetchPolicy.redirectCeiling
    ) {
        self.allowedRanges = allowedRanges
        self.allowedHosts = allowedHosts
        self.maxBytes = maxBytes
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.maxRedirects = maxRedirects
    }

    /// Redirects actually followed: the policy's number within 0...redirectCeiling.
    var effectiveMaxRedirects: Int { min(max(maxRedirects, 0), Self.redirectCeiling) }

    /// True when `host` (as libcurl's URL parser reports it) may be fetched from.
    public func allowsHost(_ host: String) -> Bool {
        guard let allowedHosts else { return true }
        let candidate = Self.normalized(host)
        return allowedHosts.contains { entry in
            let pattern = Self.normalized(entry)
            if pattern.hasPrefix("*.") {
                let suffix = pattern.dropFirst(1)  // ".example.com"
                return candidate.hasSuffix(suffix) && candidate.count > suffix.count
            }
            return candidate == pattern
        }
    }

    private static func normalized(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
}

/// A fetched body and where it came from.
public struct FetchedArchive: Sendable {
    /// The response body, content-decoded, at most `FetchPolicy.maxBytes` long.
    public let bytes: [UInt8]
    /// The URL the body was served from, after redirects.
    public let finalURL: String
    /// Every URL requested, in order, starting with the one asked for.
    public let urlChain: [String]
    /// The final response's status (2xx).
    public let status: Int
    /// The final response's `Content-Type`, if any.
    public let contentType: String?
    /// The address of the server that sent the body, as libcurl reports it.
    public let remoteAddress: String?
}
