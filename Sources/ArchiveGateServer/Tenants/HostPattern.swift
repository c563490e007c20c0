/// How much of the web a `fetchAllowedHosts` entry admits, judged where tenant files are loaded.
/// The matcher (`FetchPolicy.allowsHost`) knows exact names and a leading `*.` only.
enum HostPattern {
    enum Breadth: Equatable {
        /// One host, or the subdomains of a name with at least two labels (`*.example.com`).
        case narrow
        /// `*` (any host) or a wildcard over one label (`*.com`): needs `acknowledgeAnyFetchHost`.
        case overBroad
        /// A `*` that is not the whole entry nor a whole leading label (`*.*`, `a*.example.com`):
        /// the matcher would read it literally and match nothing, so it is refused as a typo.
        case misplacedWildcard
    }

    static func breadth(of entry: String) -> Breadth {
        var pattern = Substring(entry.lowercased())
        if pattern.hasSuffix(".") { pattern = pattern.dropLast() }
        if pattern == "*" { return .overBroad }
        let wildcard = pattern.hasPrefix("*.")
        let rest = wildcard ? pattern.dropFirst(2) : pattern
        if rest.contains("*") || rest.isEmpty { return .misplacedWildcard }
        return wildcard && !rest.contains(".") ? .overBroad : .narrow
    }
}
