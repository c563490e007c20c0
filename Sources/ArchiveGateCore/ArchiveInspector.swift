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

    /// A report and its JSON (a front end that streamed the JSON itself assembles this).
    public init(report: ValidationReport, json: [UInt8]?) {
        self.report = report
        self.json = json
    }
}

/// The pipeline every front end (CLI, server, benchmarks) runs:
///
///     bytes ─▶ PropertyList.read      binary or XML; flat, bounds-checked, size/count limits
///           ─▶ KeyedArchive.init      $top, $objects, class records; every UID checked once
///              (a typedstream instead: TypedStreamReader ─▶ TypedStreamLowering, the keyed
///              objects NSKeyedArchiver writes for its classes, read back the same way)
///           ─▶ PolicyEvaluator        each object once, each reference site checked; depth limit
///           ─▶ Plain/Typed renderer   one growing byte buffer; output byte/node budget; cycles → $ref
///
/// Nothing in it instantiates a class named by the archive.
///
/// The core's folders are layered the same way at compile time: Plist ← Archive ← Foundation ← Policy ← JSON ← Write
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
        let conversion = try prepareConversion(bytes)
        guard conversion.rendersJSON else { return Inspection(report: conversion.report, json: nil) }
        return Inspection(report: conversion.report, json: try conversion.renderWhole(mode: mode, pretty: pretty))
    }

    /// Decodes and evaluates `bytes` for a conversion: the report is known before any JSON is
    /// rendered, so a front end can print findings first and then render the JSON whole
    /// (`ArchiveConversion.renderWhole`) or stream it (`ArchiveConversion.stream`).
    public func prepareConversion(_ bytes: ByteStorage) throws(ArchiveGateError) -> ArchiveConversion {
        let deadline = DecodeDeadline(milliseconds: policy.limits.maxDecodeMilliseconds)
        let decoded = try decodeInput(bytes, deadline: deadline)
        let evaluation = try evaluate(decoded.archive, deadline: deadline)
        return ArchiveConversion(archive: decoded.archive, evaluation: evaluation, policy: policy, deadline: deadline,
                                 typedStream: decoded.typedStream)
    }

    /// Reads and structurally validates an archive under the policy's limits.
    /// With a `deadline`, exceeding it after either step is `archive.time_budget_exceeded`.
    public func decode(_ bytes: [UInt8], deadline: DecodeDeadline? = nil) throws(ArchiveGateError) -> KeyedArchive {
        try decode(ByteStorage(bytes), deadline: deadline)
    }

    /// `decode` of an array or of lent memory (a mapped file), read in place. An `NSArchiver`
    /// typedstream is read and lowered into the keyed archive its objects would be.
    public func decode(_ bytes: ByteStorage, deadline: DecodeDeadline? = nil) throws(ArchiveGateError) -> KeyedArchive {
        try decodeInput(bytes, deadline: deadline).archive
    }

    /// `decode`, keeping a typedstream's graph for typed mode.
    func decodeInput(_ bytes: ByteStorage, deadline: DecodeDeadline?) throws(ArchiveGateError) -> (archive: KeyedArchive, typedStream: LoweredTypedStream?) {
        if TypedStream.hasHeader(bytes) {
            let lowered = try decodeTypedStream(bytes, deadline: deadline)
            return (lowered.archive, lowered)
        }
        let plist: PropertyList
        do {
            plist = try PropertyList.read(bytes, limits: policy.limits.propertyList)
        } catch {
            throw .propertyList(error)
        }
        do {
            try deadline?.check("reading the property list")
            let archive = try KeyedArchive(plist: plist, maxObjects: policy.limits.maxObjects)
            try deadline?.check("reading the archive structure")
            return (archive, nil)
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
