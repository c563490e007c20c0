/// Decodes an archive under a policy and writes a fresh, canonical archive of what the policy
/// admitted — the bytes an app behind the gate decodes are ArchiveGate's, never the sender's:
///
/// - only objects reachable from `$top`, numbered breadth first from `$top` in its order, fields
///   in the order the original gives them: the same graph always gives the same bytes;
/// - each object written once, whatever the number of sites that share it; class records written
///   once per class name and chain, with only `$classname` and `$classes`;
/// - a custom class whose policy schema refuses unknown keys keeps only the keys the schema names;
///   a Foundation class keeps only the fields its shape decodes (`FoundationShape.keepsField`):
///   an extra key on an NSDate or NSString is not written;
/// - a field holding a plist set (which NSKeyedArchiver never writes and corelibs crashes on) is
///   refused with `archive.invalid_field_value`, whatever the policy;
/// - under `redact`, every redacted object and reference site becomes `$null` (UID 0), so the
///   violating subtree is not in the output at all — except inside Foundation collections, which
///   cannot hold nil: there the element (a dictionary's key and value) is left out;
/// - under `reject`, an archive with violations gives no output, exactly as `convert` answers.
public struct ArchiveSanitizer: Sendable {
    public var inspector: ArchiveInspector
    /// The most required-key cascade rounds under `redact` (each is a full decode of the output);
    /// more → `archive.depth_limit_exceeded`. The server lowers it (`DecodePipeline`).
    public var maximumCascade = Self.defaultMaximumCascade
    /// Asked while each output is written, besides the policy's `maxOutputBytes` (a server's memory
    /// budget and amplification cap); nil: only `maxOutputBytes`.
    public var outputGate: (any OutputGate)?
    /// Told once per full decode `sanitize` makes (the original, then each cascade round's
    /// output), so that a caller can count what a cascade cost; the server does
    /// (`archivegate_sanitize_decodes_total`). Nil: nobody is told.
    public var onDecode: (@Sendable () -> Void)?

    public init(inspector: ArchiveInspector) {
        self.inspector = inspector
    }

    /// A validation report and, when the policy lets the archive through, the sanitized archive.
    public struct Result: Sendable {
        public var report: ValidationReport
        /// The canonical archive; nil when the policy rejects the original.
        public var archive: [UInt8]?
    }

    /// Sanitizes `bytes`, writing the result in `format` (binary by default).
    ///
    /// Under `redact`, when something was redacted, the output is checked against the policy again: nulling a value can leave its
    /// holder without a required key (a broken NSUUID under a required `id`), which only the next
    /// evaluation sees. Such holders are nulled in further rounds until the output validates with no
    /// violations, so sanitizing the output again gives the same bytes. Each round nulls at least one
    /// more object nearer `$top`, so the rounds are bounded by the depth limit, `maximumCascade`
    /// (and the deadline); the violations of later rounds are added to the report.
    ///
    /// Every output is bounded while it is written (`OutputBound`: `maxOutputBytes` and
    /// `outputGate`), not measured once finished.
    public func sanitize(_ bytes: [UInt8], format: PropertyList.Format = .binary) throws(ArchiveGateError) -> Result {
        let policy = inspector.policy
        let deadline = DecodeDeadline(milliseconds: policy.limits.maxDecodeMilliseconds)
        var result = try writeOnce(bytes, format: format, deadline: deadline)
        // Nothing redacted, nothing to cascade: the canonical rewrite of an archive with no
        // violations has none either (FuzzWrite checks it), so only redacting calls pay for the check.
        guard policy.onViolation == .redact, !result.report.violations.isEmpty, var output = result.archive else { return result }
        let maximumRounds = min(policy.limits.maxDepth, maximumCascade) + 1
        for _ in 0 ..< maximumRounds {
            let again = try writeOnce(output, format: format, deadline: deadline)
            guard !again.report.violations.isEmpty, let rewritten = again.archive, rewritten != output else { return result }
            if case .redacted(let earlier) = result.report.verdict {
                result.report.settle(.redacted(violations: earlier + again.report.violations.count))
            }
            for violation in again.report.violations where result.report.violations.count < policy.limits.maxViolations {
                result.report.violations.append(violation)
            }
            if again.report.violationsTruncated { result.report.violationsTruncated = true }
            output = rewritten
            result.archive = rewritten
        }
        throw .archive(ArchiveError(.depthLimitExceeded, path: "",
                                    "redacting left holders without required keys for more than \(maximumRounds) rounds"))
    }

    /// The most rounds of required-key cascades `sanitize` follows by default (each round is a full decode).
    public static let defaultMaximumCascade = 64

    private func writeOnce(_ bytes: [UInt8], format: PropertyList.Format,
                           deadline: DecodeDeadline) throws(ArchiveGateError) -> Result {
        let policy = inspector.policy
        onDecode?()
        let archive = try inspector.decode(bytes, deadline: deadline)
        var evaluator = PolicyEvaluator(archive: archive, policy: policy)
        evaluator.deadline = deadline
        let evaluation: PolicyEvaluation
        do {
            evaluation = try evaluator.evaluate()
        } catch {
            throw .archive(error)
        }
        // Unlike convert, inspection's shape findings do not pass: the output must decode in Foundation.
        // Nor do unacknowledged danger findings or an undecoded nested archive: a canonical archive
        // is what an app behind the gate decodes, so only what the verdict accepts (or redacted) is written.
        switch evaluation.report.verdict {
        case .accepted, .redacted: break
        default: return Result(report: evaluation.report, archive: nil)
        }
        let bound = OutputBound(maxBytes: policy.limits.maxOutputBytes, gate: outputGate)
        var writer = CanonicalArchiveWriter(archive: archive, redactions: evaluation.redactions, policy: policy, bound: bound)
        let value: PropertyListValue
        do {
            value = try writer.build()
        } catch {
            throw .archive(error)
        }
        let output: [UInt8]
        do {
            output = try ArchiveEncoder.write(value, format: format, bound: bound)
        } catch {
            throw .archive(ArchiveError(.outputLimitExceeded, path: "", "the sanitized archive \(error.reason)"))
        }
        do {
            try deadline.check("writing the sanitized archive")
        } catch {
            throw .archive(error)
        }
        return Result(report: evaluation.report, archive: output)
    }
}
