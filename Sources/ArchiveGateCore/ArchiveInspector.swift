/// How converted JSON is shaped.
public enum OutputMode: String, Hashable, Sendable, CaseIterable, Codable {
    /// Natural JSON: Foundation values as JSON values, custom objects as `{"$class": …}`.
    case plain
    /// The archive graph itself, lossless: `$objects`, `{"$uid": n}` edges, tagged scalars.
    case typed
}

/// A validation report and, when the policy lets the archive through, its JSON.
public struct Inspection: Sendable {
    public var report: ValidationReport
    /// The rendered JSON; nil when the report is invalid and the policy says `reject`.
    public var json: [UInt8]?
}

/// The pipeline every front end (CLI, server, benchmarks) runs:
///
///     bytes ─▶ PropertyList.read      binary or XML; flat, bounds-checked, size/count limits
///           ─▶ KeyedArchive.init      $top, $objects, class records; every UID checked once
///           ─▶ PolicyEvaluator        each object once, each reference site checked; depth limit
///           ─▶ Plain/Typed renderer   one growing byte buffer; output byte/node budget; cycles → $ref
///
/// Nothing in it instantiates a class named by the archive.
///
/// The core's folders are layered the same way at compile time: Plist ← Archive ← Policy ← JSON ← Write
/// (encode and sanitize: `ArchiveEncoder`, `ArchiveSanitizer`).
/// A folder uses only its own types, those of the folders to its left and the shared vocabulary at
/// the core's root (`JSONPointer`, `ReferenceSite`); only this file, which assembles the pipeline,
/// and `ArchiveGateError` see every folder. `scripts/check-layers` fails on a use to the right.
public struct ArchiveInspector: Sendable {
    public var policy: Policy
    /// Decode NSData that holds a keyed archive too, under the same policy, limits and deadline
    /// (`--nested`, `?nested=true`). Off by default; such data is a danger finding either way.
    public var decodesNestedArchives: Bool

    public init(policy: Policy, decodesNestedArchives: Bool = false) {
        self.policy = policy
        self.decodesNestedArchives = decodesNestedArchives
    }

    /// Decodes and evaluates `bytes`; the report says whether the policy accepts the archive.
    public func validate(_ bytes: [UInt8]) throws(ArchiveGateError) -> ValidationReport {
        try validate(ByteStorage(bytes))
    }

    /// Decodes and evaluates `bytes` (an array or lent memory such as a mapped file, read in place).
    public func validate(_ bytes: ByteStorage) throws(ArchiveGateError) -> ValidationReport {
        let deadline = DecodeDeadline(milliseconds: policy.limits.maxDecodeMilliseconds)
        let archive = try decode(bytes, deadline: deadline)
        return try evaluate(archive, deadline: deadline).report
    }

    /// Decodes, evaluates and — unless the policy rejects the archive — renders it as JSON.
    public func convert(_ bytes: [UInt8], mode: OutputMode, pretty: Bool = false) throws(ArchiveGateError) -> Inspection {
        try convert(ByteStorage(bytes), mode: mode, pretty: pretty)
    }

    /// `convert` of an array or of lent memory (a mapped file), read in place.
    public func convert(_ bytes: ByteStorage, mode: OutputMode, pretty: Bool = false) throws(ArchiveGateError) -> Inspection {
        let deadline = DecodeDeadline(milliseconds: policy.limits.maxDecodeMilliseconds)
        let archive = try decode(bytes, deadline: deadline)
        let evaluation = try evaluate(archive, deadline: deadline)
        // Inspection mode (any class) is for looking at what an archive holds: an object whose
        // fields do not match its Foundation class is shown as `{"$class": …}` and reported, and
        // the report stays invalid.
        let inspectsShapes = policy.allowed.acceptsAnyClass && evaluation.onlyShapeViolations
        if !evaluation.report.valid, policy.onViolation == .reject, !inspectsShapes {
            return Inspection(report: evaluation.report, json: nil)
        }
        do throws(ArchiveError) {
            let json = try render(archive, evaluation, mode: mode, pretty: pretty)
            try deadline.check("rendering")
            return Inspection(report: evaluation.report, json: json)
        } catch {
            throw .archive(error)
        }
    }

    /// The archive's JSON, nested archives (`--nested`) rendered first and written in place as
    /// `{"$archive": …}` in the same mode. Archives nest at most `NestingContext.maxLevel` deep, so
    /// this recursion is bounded; the output byte budget applies to each and to the whole.
    private func render(_ archive: KeyedArchive, _ evaluation: PolicyEvaluation, mode: OutputMode,
                        pretty: Bool) throws(ArchiveError) -> [UInt8] {
        var nestedJSON: [Int: [UInt8]] = [:]
        for (index, nested) in evaluation.nested {
            var wrapped = Array(#"{"$archive":"#.utf8)
            wrapped += try render(nested.archive, nested.evaluation, mode: mode, pretty: false)
            wrapped.append(UInt8(ascii: "}"))
            nestedJSON[index] = wrapped
        }
        switch mode {
        case .plain:
            if let minimum = evaluation.minimumPlainNodes, minimum > UInt64(policy.limits.maxOutputNodes) {
                let count = minimum == .max ? "more than 2^64" : String(minimum)
                throw ArchiveError(.outputLimitExceeded, path: "",
                                   "shared references would expand to \(count) JSON values; the limit is \(policy.limits.maxOutputNodes)")
            }
            var renderer = PlainRenderer(archive: archive, redactions: evaluation.redactions,
                                         limits: policy.limits, pretty: pretty, shapes: evaluation.shapes,
                                         nestedJSON: nestedJSON)
            return try renderer.render()
        case .typed:
            var renderer = TypedRenderer(archive: archive, redactions: evaluation.redactions,
                                         limits: policy.limits, pretty: pretty, nestedJSON: nestedJSON)
            return try renderer.render()
        }
    }

    /// Reads and structurally validates an archive under the policy's limits.
    /// With a `deadline`, exceeding it after either step is `archive.time_budget_exceeded`.
    public func decode(_ bytes: [UInt8], deadline: DecodeDeadline? = nil) throws(ArchiveGateError) -> KeyedArchive {
        try decode(ByteStorage(bytes), deadline: deadline)
    }

    /// `decode` of an array or of lent memory (a mapped file), read in place.
    public func decode(_ bytes: ByteStorage, deadline: DecodeDeadline? = nil) throws(ArchiveGateError) -> KeyedArchive {
        let plist: PropertyList
        do {
            plist = try PropertyList.read(bytes, limits: policy.limits.propertyList)
        } catch {
            if error.code == .notAPropertyList, TypedStream.hasHeader(bytes) { throw .archive(TypedStream.unsupported) }
            throw .propertyList(error)
        }
        do {
            try deadline?.check("reading the property list")
            let archive = try KeyedArchive(plist: plist, maxObjects: policy.limits.maxObjects)
            try deadline?.check("reading the archive structure")
            return archive
        } catch {
            throw .archive(error)
        }
    }

    private func evaluate(_ archive: KeyedArchive, deadline: DecodeDeadline) throws(ArchiveGateError) -> PolicyEvaluation {
        var evaluator = PolicyEvaluator(archive: archive, policy: policy)
        evaluator.deadline = deadline
        if decodesNestedArchives { evaluator.nesting = NestingContext() }
        do {
            return try evaluator.evaluate()
        } catch {
            throw .archive(error)
        }
    }
}
