import ArchiveGateInflate

/// The gzip inflater's errors as HTTP problems; the inflater knows nothing of HTTP, and this file is
/// the whole mapping: output past the tenant's archive limit → 413 `request.inflated_too_large`,
/// a bad stream → 400 `request.invalid_gzip`, zlib unavailable → 500 `server.internal`.
extension InflateError: ProblemRepresentable {
    public var problemError: ProblemError {
        switch code {
        case .inflatedTooLarge: .inflatedTooLarge(limit: limit ?? 0)
        case .invalidGzip: .invalidGzip(message)
        default: .internalError
        }
    }

    public var logsCause: Bool { code == .unavailable }
}
