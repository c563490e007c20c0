/// A CIDR block such as `10.0.0.0/8` or `fc00::/7`; a bare address means just that address.
public struct IPAddressRange: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the block (host bits are zero).
    public let network: IPAddress
    /// Leading bits that every member shares with `network`.
    public let prefixLength: Int

    /// Parses `address/prefix` or a bare address with the strict spellings of `IPAddress.init(_:)`.
    /// Refuses set host bits (`10.0.0.1/8`): in an allow list that is almost always a typo, and
    /// silently widening it would allow more than the operator wrote.
    public init?(_ text: String) {
        let pieces = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(pieces[0])) else { return nil }
        let length: Int
        if pieces.count == 2 {
            let digits = pieces[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCII),
                  let parsed = Int(digits), (0...address.bitWidth).contains(parsed) else { return nil }
            length = parsed
        } else {
            length = address.bitWidth
        }
        guard Self.hostBits(of: address, prefixLength: length) == 0 else { return nil }
        self.network = address
        self.prefixLength = length
    }

    /// True when `address` is in the block. Families never match each other: IPv4-mapped IPv6 is
    /// unmapped by `AddressGuard`, not here, so a range means exactly what it says.
    public func contains(_ address: IPAddress) -> Bool {
        switch (network, address) {
        case (.v4(let base), .v4(let candidate)):
            let mask: UInt32 = prefixLength == 0 ? 0 : ~UInt32(0) << UInt32(32 - prefixLength)
            return candidate & mask == base
        case (.v6(let base), .v6(let candidate)):
            let mask: UInt128 = prefixLength == 0 ? 0 : ~UInt128(0) << UInt128(128 - prefixLength)
            return candidate & mask == base
        default:
            return false
        }
    }

    /// True when every address of `other` is in this block.
    public func contains(_ other: IPAddressRange) -> Bool {
        prefixLength <= other.prefixLength && contains(other.network)
    }

    /// True when the blocks share an address (CIDR blocks overlap only by nesting).
    public func overlaps(_ other: IPAddressRange) -> Bool {
        contains(other) || other.contains(self)
    }

    public var description: String { "\(network)/\(prefixLength)" }

    private static func hostBits(of address: IPAddress, prefixLength: Int) -> UInt128 {
        switch address {
        case .v4(let value):
            prefixLength == 32 ? 0 : UInt128(value & (~UInt32(0) >> UInt32(prefixLength)))
        case .v6(let value):
            prefixLength == 128 ? 0 : value & (~UInt128(0) >> UInt128(prefixLength))
        }
    }
}
