/// Sample files into a suggestion: the policy workflow's first step (`policy suggest`). This folder
/// sits above the pipeline, like `ArchiveInspector` at the core's root: it runs the whole pipeline
/// on samples (decode, evaluate, nested archives) and so may use every folder.
extension PolicySuggester {
    /// What one sample held that the reviewer should know of.
    public struct SampleObservation: Sendable {
        /// Keyed archives found in NSData and decoded (their classes are in the suggestion too).
        public var nestedArchives = 0
        /// The danger findings the suggestion acknowledges for this sample.
        public var findings: [ValidationReport.Finding] = []
        /// Foundation objects whose fields do not match their class (`archive.*` codes): no policy
        /// can admit the sample, whatever it allows.
        public var shapeViolations: [ValidationReport.Violation] = []
    }

    /// How samples are read: any class admitted, nested archives decoded, default limits.
    public static let sampleInspector = ArchiveInspector(policy: .inspection, decodesNestedArchives: true)

    /// Decodes one sample and adds its archive and every archive nested in its NSData values, and
    /// acknowledges its danger findings. A sample that is no keyed archive (malformed, a plain
    /// property list, over a limit) throws and adds nothing.
    public mutating func addSample(_ bytes: ByteStorage, label: String) throws(ArchiveGateError) -> SampleObservation {
        let conversion = try Self.sampleInspector.prepareConversion(bytes)
        beginSample(label)
        var observation = SampleObservation()
        // Nested archives nest at most `NestingContext.maxLevel` deep; an explicit stack all the same.
        var pending = [(conversion.archive, conversion.evaluation)]
        while let (archive, evaluation) = pending.popLast() {
            add(archive)
            for nested in evaluation.nested.values {
                observation.nestedArchives += 1
                pending.append((nested.archive, nested.evaluation))
            }
        }
        // Findings of nested archives are folded into the outer report with their full paths.
        for finding in conversion.report.findings {
            noteFinding(finding)
            observation.findings.append(finding)
        }
        observation.shapeViolations = conversion.report.violations
        return observation
    }
}
