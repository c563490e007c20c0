import Crypto

/// An API key as stored at rest: the lowercase hex SHA-256 of the key. Keys themselves are never
/// stored or logged; `archivegate hash-key` prints this form.
public struct APIKeyHash: Sendable, Hashable {
    /// The 32 digest bytes.
    let digest: [UInt8]

    /// The demo tenant's key, published in README.md and scripts/serve: anyone can use it, so a
    /// server reachable from elsewhere must not accept it (see `TenantRegistry+Exposure`).
    public static let publishedDemoKey = APIKeyHash(key: "demo-key-change-me")

    /// Hashes a presented key.
    public init(key: String) {
        digest = Array(SHA256.hash(data: Array(key.utf8)))
    }

    /// Parses 64 hex digits (either case); nil for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        var index = 0
        while index < 64 {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        digest = bytes
    }

    /// Lowercase hex, as written in tenant files.
    public var hex: String { Hex.lowercase(digest) }

    /// Compares every byte whatever the first difference, so response time says nothing about
    /// how much of a guessed hash matched.
    public func constantTimeEquals(_ other: APIKeyHash) -> Bool {
        guard digest.count == other.digest.count else { return false }
        var difference: UInt8 = 0
        for index in digest.indices {
            difference |= digest[index] ^ other.digest[index]
        }
        return difference == 0
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
