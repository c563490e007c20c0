/// Decides whether a connection to an address may be made: the SSRF deny list, minus the ranges
/// the server configuration explicitly allows.
///
/// It is consulted with the *connected* socket address (libcurl's open-socket and pre-request
/// callbacks), never with the URL's spelling, so DNS answers, rebinding and odd numeric spellings
/// all end up as the same 32 or 128 bits before the decision.
public struct AddressGuard: Sendable {
    /// Loopback, private, link-local (incl. 169.254.169.254), CGNAT, IETF protocol assignments
    /// (`192.0.0.0/24`), benchmarking, multicast, reserved, broadcast; IPv6 unspecified, loopback,
    /// ULA, link-local, site-local (`fec0::/10`, deprecated but still routed inside some sites),
    /// multicast, discard-only (`100::/64`), the deprecated IPv4-compatible block `::/96` (which also
    /// holds `::` and `::1`), and the blocks that carry an IPv4 address to a translator or relay which
    /// would forward to it: SIIT IPv4-translated `::ffff:0:0:0/96`, local-use NAT64
    /// `64:ff9b:1::/48`, 6to4 `2002::/16` and Teredo `2001::/32`.
    public static let deniedRanges: [IPAddressRange] = [
        "0.0.0.0/8", "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
        "169.254.0.0/16", "100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
        "255.255.255.255/32",
        "::/128", "::1/128", "::/96", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8", "100::/64",
        "::ffff:0:0:0/96", "64:ff9b:1::/48", "2002::/16", "2001::/32",
    ].map { IPAddressRange($0)! }

    /// IPv4-mapped IPv6 (`::ffff:a.b.c.d`): a socket to it *is* a connection to the IPv4 address.
    static let ipv4Mapped = IPAddressRange("::ffff:0:0/96")!
    /// NAT64 well-known prefix (RFC 6052): a translator would forward to the embedded IPv4.
    static let nat64 = IPAddressRange("64:ff9b::/96")!

    /// Blocks whose addresses carry an IPv4 address to a translator or relay that would forward to
    /// it (IPv4-compatible, SIIT, both NAT64 prefixes, 6to4, Teredo): allowing any of them opens
    /// whatever IPv4 address it embeds, private ones included.
    static let translatorRanges: [IPAddressRange] = [
        "::/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "2001::/32",
    ].map { IPAddressRange($0)! }

    /// Why allowing `range` opens more than one network the deny list protects, for the rule that
    /// such a range needs an acknowledgement; nil when it opens part or all of one protected
    /// network (`10.1.0.0/16`, `127.0.0.0/8`, `::1`) or none. Judged by what the range admits, not
    /// by its prefix length: `::/8` is narrow by length yet admits `::1`, SIIT and NAT64.
    public static func breadthConcern(allowing range: IPAddressRange) -> String? {
        let protected = deniedRanges.filter { denied in !translatorRanges.contains(denied) }
        if protected.contains(where: { $0.contains(range) }) { return nil }
        if let translator = translatorRanges.first(where: { $0.overlaps(range) }) {
            return "\(range) admits \(translator), whose addresses a translator or relay forwards to the IPv4 address they embed"
        }
        let touched = deniedRanges.filter { $0.overlaps(range) }
        guard !touched.isEmpty else { return nil }
        return "\(range) admits \(touched.map(\.description).joined(separator: ", ")) of the deny list and addresses around \(touched.count == 1 ? "it" : "them")"
    }

    /// Ranges the deployment allows despite the deny list (tests allow their loopback server).
    public let allowedRanges: [IPAddressRange]

    public init(allowing allowedRanges: [IPAddressRange] = []) {
        self.allowedRanges = allowedRanges
    }

    /// Nil when a connection to `address` is allowed; otherwise why it is not, for messages.
    public func denial(for address: IPAddress) -> String? {
        // Mapped addresses are judged as the IPv4 address they reach, for allowing and denying.
        let target = Self.ipv4Mapped.contains(address) ? address.lowIPv4! : address
        if allowedRanges.contains(where: { $0.contains(target) }) { return nil }
        if let range = Self.deniedRanges.first(where: { $0.contains(target) }) {
            return "\(address) is in the denied range \(range)"
        }
        if Self.nat64.contains(target), let embedded = target.lowIPv4,
           !allowedRanges.contains(where: { $0.contains(embedded) }),
           let range = Self.deniedRanges.first(where: { $0.contains(embedded) }) {
            return "\(address) embeds \(embedded) (NAT64), which is in the denied range \(range)"
        }
        return nil
    }

    /// True when a connection to `address` is allowed.
    public func permits(_ address: IPAddress) -> Bool { denial(for: address) == nil }
}
