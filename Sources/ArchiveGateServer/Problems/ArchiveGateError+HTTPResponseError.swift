import ArchiveGateCore
import HTTPTypes

/// The core's decode errors as HTTP problems. The core knows nothing of HTTP; this file is the
/// whole mapping:
/// - `plist.input_too_large` → 413 (the archive is bigger than the tenant may send);
/// - every other error, limits included (objects, depth, string/data size, output budget) → 422:
///   the request was well-formed HTTP but the archive cannot be processed under the policy.
/// The problem `code` is the core's code, so `type` is e.g. `…/problems/plist.truncated`.
extension ArchiveGateError: ProblemRepresentable {
    public var problemError: ProblemError {
        ProblemError(ProblemCode(code), detail: "\(message) (\(location))")
    }
}

extension ArchiveGateError.Code {
    /// The status and title of a problem with this code (`ProblemCode.response` asks here).
    var problemResponse: (status: HTTPResponse.Status, title: String) {
        if isInputTooLarge { return (.contentTooLarge, "Content Too Large") }
        return (.unprocessableContent, isLimit ? "Archive Exceeds a Limit" : "Not a Valid Archive")
    }
}
