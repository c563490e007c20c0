import ArchiveGateCore

/// Encode's and sanitize's promises, checked on one input:
///
/// - as typed JSON, the input gives an archive or a typed error, never a trap; an archive decodes
///   to typed JSON that encodes to an archive with the same typed JSON;
/// - as an archive, its typed JSON (when inspection renders it) encodes back to the same typed JSON;
/// - sanitized under `policy`, the output (if any) sanitizes to itself byte for byte, keeps no
///   Foundation field its shape does not decode, and validates under the policy with no violations.
public struct WriteInvariants: Sendable {
    public let policy: Policy

    public init(policy: Policy) {
        self.policy = policy
    }

    public func check(_ bytes: [UInt8]) {
        checkEncode(json: bytes)
        if let typed = try? ArchiveInspector(policy: .inspection).convert(bytes, mode: .typed).json {
            checkEncode(json: typed)
        }
        checkSanitize(bytes)
    }

    private func typed(_ archive: [UInt8]) -> [UInt8]? {
        try? ArchiveInspector(policy: .inspection).convert(archive, mode: .typed).json
    }

    private func checkEncode(json: [UInt8]) {
        let encoder = ArchiveEncoder(limits: policy.limits)
        guard let archive = try? encoder.encode(json) else { return }
        let rendered = typed(archive)
        require(rendered != nil, "an encoded archive does not convert to typed JSON")
        guard let rendered else { return }
        let again = try? encoder.encode(rendered)
        require(again != nil, "the typed JSON of an encoded archive does not encode")
        require(again.flatMap(typed) == rendered, "typed JSON → encode → typed JSON changed the graph")
    }

    private func checkSanitize(_ bytes: [UInt8]) {
        let sanitizer = ArchiveSanitizer(inspector: ArchiveInspector(policy: policy))
        guard let output = (try? sanitizer.sanitize(bytes))?.archive else { return }
        let again = try? sanitizer.sanitize(output)
        require(again?.archive == output, "sanitize is not idempotent")
        let unkept = (try? ArchiveInspector(policy: policy).decode(output))?.fieldsOutsideTheirShapes()
        require(unkept?.isEmpty == true, "the sanitized archive keeps Foundation fields its shapes do not decode: \(unkept?.prefix(3) ?? ["decode error"])")
        let report = try? ArchiveInspector(policy: policy).validate(output)
        require(report?.valid == true && report?.violations.isEmpty == true,
                "the sanitized archive does not validate cleanly: \(report?.violations.map(\.code) ?? ["decode error"])")
    }
}
