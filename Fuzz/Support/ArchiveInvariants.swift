import ArchiveGateCore
import Foundation

/// The inspector's promises, checked on one input under one policy:
///
/// - the same bytes give the same outcome twice (error code, or report and JSON bytes);
/// - `validate` and `convert` agree: same decode error, or the same report (`convert` may then
///   only fail while rendering, with a render-time code);
/// - JSON is present exactly when the verdict is not `rejected` (inspection also renders an archive
///   rejected only for Foundation shape mismatches), is valid JSON, and fits
///   `limits.maxOutputBytes`; pretty JSON is the same value as compact JSON.
public struct ArchiveInvariants: Sendable {
    /// Codes only the renderers throw: `validate` can succeed where `convert` then fails with one.
    static let renderCodes: Set<String> = [
        "archive.output_limit_exceeded", "archive.depth_limit_exceeded", "archive.collection_cycle",
        "archive.length_mismatch", "archive.malformed_foundation_object",
    ]

    /// Outputs up to this size are also parsed by Foundation's `JSONSerialization`.
    static let foundationCheckBytes = 16 << 10

    public let inspector: ArchiveInspector

    public init(policy: Policy) {
        inspector = ArchiveInspector(policy: policy)
    }

    /// Runs validate, plain and typed convert (twice each) on `bytes` and checks every promise.
    public func check(_ bytes: [UInt8]) {
        let verdict = outcome { () throws(ArchiveGateError) in try inspector.validate(bytes) }
        let again = outcome { () throws(ArchiveGateError) in try inspector.validate(bytes) }
        require(verdict == again, "validate gave two different outcomes: \(summary(verdict)) then \(summary(again))")
        for mode in OutputMode.allCases {
            let first = outcome { () throws(ArchiveGateError) in Converted(try inspector.convert(bytes, mode: mode)) }
            let second = outcome { () throws(ArchiveGateError) in Converted(try inspector.convert(bytes, mode: mode)) }
            require(first == second, "\(mode) convert gave two different outcomes: \(summary(first)) then \(summary(second))")
            checkAgreement(verdict: verdict, conversion: first, mode: mode)
            if case .success(let inspection) = first, let json = inspection.json {
                checkJSON(json, mode: mode, pretty: bytes)
            }
        }
    }

    private func checkAgreement(verdict: Outcome<ValidationReport>, conversion: Outcome<Converted>, mode: OutputMode) {
        switch (verdict, conversion) {
        case (.failure(let code), .failure(let other)):
            require(code == other, "validate failed with \(code), \(mode) convert with \(other)")
        case (.failure(let code), .success):
            fatalError("fuzz invariant broken: validate failed with \(code), \(mode) convert succeeded")
        case (.success, .failure(let code)):
            require(Self.renderCodes.contains(code), "validate succeeded, \(mode) convert failed with \(code)")
        case (.success(let report), .success(let inspection)):
            require(report == inspection.report, "validate and \(mode) convert reports differ")
            // Inspection (any class) still renders an archive whose only violations are Foundation
            // shape mismatches (archive.* codes): it shows them as {"$class": …} and stays invalid.
            let inspectsShapes = inspector.policy.allowed.acceptsAnyClass && !report.violations.isEmpty
                && report.violations.allSatisfy { $0.code.rawValue.hasPrefix("archive.") }
            // Only `accepted` is valid; every verdict but `rejected` renders (redacted, accepted
            // with inspection findings, an undecoded nested archive shown as data).
            require(report.valid == (report.verdict == .accepted), "valid \(report.valid) beside verdict \(report.verdict)")
            let passes: Bool
            if case .rejected = report.verdict { passes = inspectsShapes } else { passes = true }
            require((inspection.json != nil) == passes,
                    "\(mode) JSON present: \(inspection.json != nil), verdict \(report.verdict), policy \(inspector.policy.onViolation)")
        }
    }

    private func checkJSON(_ json: [UInt8], mode: OutputMode, pretty source: [UInt8]) {
        require(json.count <= inspector.policy.limits.maxOutputBytes,
                "\(mode) JSON is \(json.count) bytes; the limit is \(inspector.policy.limits.maxOutputBytes)")
        require(JSONSyntax.isValid(json), "\(mode) JSON is not valid JSON: \(String(decoding: json.prefix(400), as: UTF8.self))")
        if json.count <= Self.foundationCheckBytes {
            require((try? JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])) != nil,
                    "JSONSerialization rejects the \(mode) JSON: \(String(decoding: json.prefix(400), as: UTF8.self))")
        }
        // Pretty printing only adds whitespace between tokens (or, being larger, hits the budget).
        switch outcome({ () throws(ArchiveGateError) in Converted(try inspector.convert(source, mode: mode, pretty: true)) }) {
        case .success(let pretty):
            guard let prettyJSON = pretty.json else { fatalError("fuzz invariant broken: pretty \(mode) convert gave no JSON") }
            require(prettyJSON.count <= inspector.policy.limits.maxOutputBytes, "pretty \(mode) JSON is over the budget")
            require(JSONSyntax.minified(prettyJSON) == JSONSyntax.minified(json), "pretty and compact \(mode) JSON differ")
        case .failure(let code):
            require(code == "archive.output_limit_exceeded", "compact \(mode) convert succeeded, pretty failed with \(code)")
        }
    }
}

/// A result compared by value: the error's code, or the value.
enum Outcome<Value: Equatable>: Equatable {
    case success(Value)
    case failure(String)
}

/// An `Inspection` compared by value.
struct Converted: Equatable {
    var report: ValidationReport
    var json: [UInt8]?

    init(_ inspection: Inspection) {
        report = inspection.report
        json = inspection.json
    }
}

/// A short description of an outcome for a failure message.
func summary(_ outcome: Outcome<ValidationReport>) -> String {
    switch outcome {
    case .failure(let code): return code
    case .success(let report): return summary(report)
    }
}

func summary(_ outcome: Outcome<Converted>) -> String {
    switch outcome {
    case .failure(let code): return code
    case .success(let converted): return summary(converted.report) + ", JSON \(converted.json?.count ?? -1) bytes"
    }
}

func summary(_ report: ValidationReport) -> String {
    let violations = report.violations.prefix(3).map { "\($0.code) at \($0.path)" }.joined(separator: "; ")
    let classes = report.classes.map { "\($0.name)×\($0.count)\($0.claimedClasses)" }.joined(separator: " ")
    return "valid \(report.valid), classes [\(classes)], \(report.violations.count) violations [\(violations)]"
}

func outcome<Value>(_ body: () throws(ArchiveGateError) -> Value) -> Outcome<Value> {
    do throws(ArchiveGateError) {
        return .success(try body())
    } catch {
        return .failure(error.code.rawValue)
    }
}
