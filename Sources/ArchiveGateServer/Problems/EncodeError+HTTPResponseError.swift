import ArchiveGateCore
import HTTPTypes

/// Encode errors as HTTP problems (`POST /v1/encode`): `encode.input_too_large` → 413, every other
/// one → 422 (the request was well-formed HTTP, the typed JSON cannot be encoded). The detail names
/// the JSON pointer; this file is the whole mapping.
extension EncodeError: ProblemRepresentable {
    public var problemError: ProblemError {
        ProblemError(ProblemCode(code), detail: "\(message) (\(location))")
    }
}

extension EncodeError.Code {
    /// The status and title of a problem with this code (`ProblemCode.response` asks here).
    var problemResponse: (status: HTTPResponse.Status, title: String) {
        if self == .inputTooLarge { return (.contentTooLarge, "Content Too Large") }
        return (.unprocessableContent, EncodeError(self, pointer: "", "").isLimit ? "Typed JSON Exceeds a Limit" : "Not Encodable Typed JSON")
    }
}
