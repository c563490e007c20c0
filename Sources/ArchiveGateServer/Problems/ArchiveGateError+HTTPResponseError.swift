import ArchiveGateCore

/// The core's decode errors as HTTP problems. The core knows nothing of HTTP; this file is the
/// whole mapping:
/// - `plist.input_too_large` → 413 (the archive is bigger than the tenant may send);
/// - every other error, limits included (objects, depth, string/data size, output budget) → 422:
///   the request was well-formed HTTP but the archive cannot be processed under the policy.
/// The problem `code` is the core's code, so `type` is e.g. `…/problems/plist.truncated`.
extension ArchiveGateError: ProblemRepresentable {
    public var problemError: ProblemError {
        let detail = "\(message) (\(location))"
        if case .propertyList(let error) = self, error.code == .inputTooLarge {
            return ProblemError(.contentTooLarge, code: code, title: "Content Too Large", detail: detail)
        }
        return ProblemError(.unprocessableContent, code: code,
                            title: isLimit ? "Archive Exceeds a Limit" : "Not a Valid Archive", detail: detail)
    }
}
