/// Turns typed JSON (the lossless `--mode typed` form) back into an `NSKeyedArchiver` archive.
///
///     JSON bytes ─▶ TypedJSONReader       strict JSON, tags, limits; errors name their JSON pointer
///                ─▶ Binary/XML writer      the plist the JSON describes, in the order it gives
///                ─▶ read back              PropertyList + KeyedArchive + the inspection walk: a
///                                          dangling `$uid`, a bad class record or a collection that
///                                          contains itself is refused with the archive's own code
///
/// The archive is only returned once ArchiveGate's own decoder accepts it, so `encode` never hands
/// out bytes that `convert` would refuse. Structural errors point into `$objects` exactly as in the
/// typed JSON (`/$objects/4/NS.objects/1`); errors found by the walk (collection cycles, depth)
/// point into the plain JSON, as `convert` reports them, and name the UIDs involved.
public struct ArchiveEncoder: Sendable {
    /// The same limits a decode runs under: input size, depth, value count, string and data sizes,
    /// and `maxOutputBytes` for the archive written.
    public var limits: DecodeLimits
    /// Asked while the archive is written, besides `maxOutputBytes` (a server's memory budget and
    /// amplification cap); nil: only `maxOutputBytes`.
    public var outputGate: (any OutputGate)?

    /// Classes (and functions, selectors, class constants) whose danger findings are acknowledged,
    /// as a policy's `acknowledge` (see `Policy.acknowledges`).
    public var acknowledged: Set<String> = []

    /// The policy the written archive is checked under, as any archive read (`Encoded.report`);
    /// nil: the inspection policy with `limits` and `acknowledged`.
    public var policy: Policy?

    public init(limits: DecodeLimits = DecodeLimits(), outputGate: (any OutputGate)? = nil) {
        self.limits = limits
        self.outputGate = outputGate
    }

    /// An encoder whose archive is checked under `policy` (its limits and acknowledgements). encode
    /// never redacts: under a policy whose `onViolation` is `redact` a violation rejects (sanitize
    /// the archive to redact it), so the archive written is exactly what the JSON describes.
    public init(policy: Policy, outputGate: (any OutputGate)? = nil) {
        self.init(limits: policy.limits, outputGate: outputGate)
        acknowledged = policy.acknowledged
        var checked = policy
        checked.onViolation = .reject
        self.policy = checked
    }

    /// An encoded archive and the report of reading it back, so that a caller never writes a
    /// predicate, a smuggled `$classes` chain or an expression-shaped object unremarked.
    public struct Encoded: Sendable {
        /// The archive as written, whatever its verdict (`releasedArchive` is what a caller may hand out).
        public var archive: [UInt8]
        /// The written archive's report under the encoder's policy: its verdict, violations and findings.
        public var report: ValidationReport
        /// Findings of the read-back walk (acknowledged per `acknowledged`).
        public var findings: [ValidationReport.Finding] { report.findings }
        /// The archive when its verdict releases content (`Verdict.releasesContent`), else nil.
        public var releasedArchive: [UInt8]? { report.verdict.releasesContent ? archive : nil }
    }

    /// The archive `json` describes, in `format` (binary by default).
    public func encode(_ json: [UInt8], format: PropertyList.Format = .binary) throws(EncodeError) -> [UInt8] {
        try encodeReporting(json, format: format).archive
    }

    /// The archive `json` describes and the danger findings the read-back walk made in it.
    public func encodeReporting(_ json: [UInt8], format: PropertyList.Format = .binary) throws(EncodeError) -> Encoded {
        var reader = TypedJSONReader(json, limits: limits, format: format)
        let value = try reader.read()
        guard case .dictionary = value else {
            throw EncodeError(.init(archive: .notAKeyedArchive), pointer: "", "typed JSON is an object with $archiver, $version, $top and $objects")
        }
        let bytes: [UInt8]
        do {
            bytes = try Self.write(value, format: format, bound: OutputBound(maxBytes: limits.maxOutputBytes, gate: outputGate))
        } catch {
            throw EncodeError(.outputLimitExceeded, pointer: "", "the archive \(error.reason)")
        }
        return Encoded(archive: bytes, report: try check(bytes))
    }

    /// Writes a property-list value in `format`, unbounded (tests and tools that trust the value).
    static func write(_ value: PropertyListValue, format: PropertyList.Format) -> [UInt8] {
        switch format {
        case .binary: BinaryPropertyListWriter.write(value)
        case .xml: XMLPropertyListWriter.write(value)
        }
    }

    /// Writes a property-list value in `format`, stopping as soon as `bound` refuses the output.
    static func write(_ value: PropertyListValue, format: PropertyList.Format, bound: OutputBound) throws(OutputBoundExceeded) -> [UInt8] {
        switch format {
        case .binary: try BinaryPropertyListWriter.write(value, bound: bound)
        case .xml: try XMLPropertyListWriter.write(value, bound: bound)
        }
    }

    /// Reads `bytes` back as `validate` would (`policy`, else the inspection policy with these
    /// limits) and maps the first structural error to an `EncodeError`; returns the report.
    func check(_ bytes: [UInt8]) throws(EncodeError) -> ValidationReport {
        var readLimits = limits.propertyList
        readLimits.maxInputBytes = max(readLimits.maxInputBytes, bytes.count)
        let plist: PropertyList
        do {
            plist = try PropertyList.read(bytes, limits: readLimits)
        } catch {
            throw EncodeError(.init(propertyList: error.code), pointer: "", error.message)
        }
        do throws(ArchiveError) {
            let archive = try KeyedArchive(plist: plist, maxObjects: limits.maxObjects)
            var checked = policy ?? .inspection
            checked.limits = limits
            checked.acknowledged = acknowledged
            var evaluator = PolicyEvaluator(archive: archive, policy: checked)
            return try evaluator.evaluate().report
        } catch {
            throw EncodeError(.init(archive: error.code), pointer: error.path, error.message)
        }
    }
}
