import ArchiveGateCore
import HTTPTypes

/// Encode errors as HTTP problems: `encode.input_too_large` → 413, every other one → 422 (the
/// request was well-formed HTTP, the typed JSON cannot be encoded). The detail names the JSON pointer.
extension EncodeError {
    var problemError: ProblemError {
        let detail = "\(message) (\(location))"
        if code == .inputTooLarge {
            return ProblemError(.contentTooLarge, code: code.rawValue, title: "Content Too Large", detail: detail)
        }
        return ProblemError(.unprocessableContent, code: code.rawValue,
                            title: isLimit ? "Typed JSON Exceeds a Limit" : "Not Encodable Typed JSON", detail: detail)
    }
}
