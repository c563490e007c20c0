#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as a number, so that ranges are plain integer comparisons.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    case v6(UInt128)

    /// Parses the strict, canonical spellings used in configuration and by libcurl when it reports
    /// a connected address: dotted-quad decimal IPv4 (no leading zeros) or RFC 4291 IPv6, with or
    /// without brackets. Legacy forms such as `127.1` are refused here on purpose: a config that
    /// says `127.1/32` is a typo, not a wish.
    public init?(_ text: String) {
        if text.hasPrefix("[") || text.hasSuffix("]") {
            // Brackets only ever wrap IPv6, as in URLs.
            guard text.count > 2, text.hasPrefix("["), text.hasSuffix("]"),
                  let v6 = Self.presentationToNumber(String(text.dropFirst().dropLast()), family: AF_INET6, size: 16)
            else { return nil }
            self = .v6(v6)
        } else if let v4 = Self.presentationToNumber(text, family: AF_INET, size: 4) {
            self = .v4(UInt32(truncatingIfNeeded: v4))
        } else if let v6 = Self.presentationToNumber(text, family: AF_INET6, size: 16) {
            self = .v6(v6)
        } else {
            return nil
        }
    }

    /// Parses a URL host the way the system resolver would treat a numeric host, including the
    /// legacy `inet_aton` forms (`2130706433`, `0x7f000001`, `127.1`, `0177.0.0.1`) and bracketed
    /// IPv6 (`[::ffff:127.0.0.1]`). Returns nil for names. For classifying a URL host (tests,
    /// diagnostics): fetch decisions are made on the connected socket address, never on this.
    public init?(host: String) {
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), case .v6? = IPAddress(host) else { return nil }
            self.init(host)
        } else if let v4 = Self.parseLegacyIPv4(host) {
            self = .v4(v4)
        } else {
            return nil
        }
    }

    /// The address in a socket address of family `AF_INET` or `AF_INET6`; nil for anything else.
    init?(socketAddress: UnsafePointer<sockaddr>, length: Int) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let raw = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self = .v4(UInt32(bigEndian: raw))
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            var bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self = .v6(withUnsafeBytes(of: &bytes) { Self.bigEndianNumber($0) })
        default:
            return nil
        }
    }

    /// Bits in the address: 32 or 128.
    public var bitWidth: Int {
        switch self {
        case .v4: 32
        case .v6: 128
        }
    }

    /// The IPv4 address carried in the low 32 bits of an IPv6 address.
    var lowIPv4: IPAddress? {
        guard case .v6(let value) = self else { return nil }
        return .v4(UInt32(truncatingIfNeeded: value))
    }

    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xff) }.joined(separator: ".")
        case .v6(let value):
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in 0..<16 { bytes[index] = UInt8(truncatingIfNeeded: value >> UInt128(8 * (15 - index))) }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, bytes, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    // MARK: - Parsing helpers

    /// `inet_pton`: strict, and the same parser the C library uses for the connected address.
    private static func presentationToNumber(_ text: String, family: Int32, size: Int) -> UInt128? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(family, text, &bytes) == 1 else { return nil }
        return bytes.prefix(size).withUnsafeBytes { bigEndianNumber($0) }
    }

    private static func bigEndianNumber(_ bytes: UnsafeRawBufferPointer) -> UInt128 {
        bytes.reduce(UInt128(0)) { ($0 << 8) | UInt128($1) }
    }

    /// `inet_aton` rules: 1–4 dot-separated parts, each decimal, octal (leading 0) or hex (0x);
    /// the last part fills all remaining bytes (`127.1` is 127.0.0.1). A trailing dot is allowed
    /// because resolvers strip it. Written out rather than calling `inet_aton`, which in glibc
    /// also accepts trailing garbage after whitespace.
    static func parseLegacyIPv4(_ host: String) -> UInt32? {
        var text = Substring(host)
        if text.hasSuffix(".") { text = text.dropLast() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = parseLegacyNumber(part) else { return nil }
            values.append(value)
        }
        var result: UInt64 = 0
        for value in values.dropLast() {
            guard value <= 0xff else { return nil }
            result = (result << 8) | value
        }
        let remainingBits = UInt64(8 * (5 - values.count))
        guard let last = values.last, last < (1 << remainingBits) else { return nil }
        return UInt32((result << remainingBits) | last)
    }

    private static func parseLegacyNumber(_ part: Substring) -> UInt64? {
        let lower = part.lowercased()
        let (digits, radix): (Substring, Int)
        if lower.hasPrefix("0x") {
            (digits, radix) = (Substring(lower.dropFirst(2)), 16)
        } else if lower.hasPrefix("0"), lower.count > 1 {
            (digits, radix) = (Substring(lower.dropFirst()), 8)
        } else {
            (digits, radix) = (Substring(lower), 10)
        }
        // Bounded length keeps the parse from overflowing; real parts never come near it.
        guard !digits.isEmpty, digits.count <= 12 else { return nil }
        return UInt64(digits, radix: radix)
    }
}
