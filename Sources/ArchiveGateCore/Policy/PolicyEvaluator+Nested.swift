/// How nested archives are decoded: off by default (`ArchiveInspector.decodesNestedArchives`).
struct NestingContext {
    /// Nested archives deeper than this are an error: each level is a new walk, so the depth of
    /// nesting must be bounded like any attacker-controlled depth.
    static let maxLevel = 8

    /// 0 for the outermost archive.
    var level = 0
    /// Objects decoded so far by archives nested below this one (they count against `maxObjects`).
    var nestedObjects = 0
    /// The archives decoded below this one, by the plist index of the data that holds each.
    var archives: [Int: NestedArchive] = [:]
    /// Plain property lists (not keyed archives) found in data, by the plist index of that data:
    /// plain mode renders them as `{"$plist": …}`.
    var plists: [Int: PropertyList] = [:]
}

/// A keyed archive found in an NSData value and decoded with its evaluation, for rendering in place.
struct NestedArchive {
    let archive: KeyedArchive
    let evaluation: PolicyEvaluation
}

extension PolicyEvaluator {
    /// Decodes the property list in an NSData object found at `path` under the same policy,
    /// limits and deadline, and folds its findings and violations into this report with their
    /// full path (`<path>/$archive/...`). A plain property list is kept for plain mode to render
    /// (its objects count against `maxObjects` too); an NSArchiver typedstream is lowered to its
    /// keyed archive first (`nestedTypedStream`); bytes that are neither stay data.
    mutating func evaluateNested(_ bytes: Slice<ByteStorage>, dataIndex: Int, path: String) throws(ArchiveError) {
        guard let nesting else { return }
        if nesting.level + 1 > NestingContext.maxLevel {
            throw ArchiveError(.depthLimitExceeded, path: path, "archives nest more than \(NestingContext.maxLevel) levels deep")
        }
        var limits = policy.limits
        limits.maxObjects = policy.limits.maxObjects - archive.objectCount - nesting.nestedObjects
        guard limits.maxObjects > 0 else {
            throw ArchiveError(.objectLimitExceeded, path: path, "nested archives hold more objects than the limit of \(policy.limits.maxObjects)")
        }
        if TypedStream.hasHeader(bytes) {
            guard let lowered = try nestedTypedStream(bytes, limits: limits, path: path) else { return }
            return try foldNested(lowered, dataIndex: dataIndex, limits: limits, path: path)
        }
        let plist: PropertyList
        do {
            plist = try PropertyList.read(Array(bytes), limits: limits.propertyList)
        } catch {
            if error.code == .objectLimitExceeded {
                throw ArchiveError(.objectLimitExceeded, path: path, "nested archives hold more objects than the limit of \(policy.limits.maxObjects)")
            }
            return
        }
        let nestedArchive: KeyedArchive
        do {
            nestedArchive = try KeyedArchive(plist: plist, maxObjects: limits.maxObjects)
        } catch {
            if error.code == .notAKeyedArchive {
                self.nesting?.nestedObjects += plist.objects.endIndex
                self.nesting?.plists[dataIndex] = plist
                return
            }
            throw ArchiveError(error.code, path: path + "/$archive" + error.path, error.message)
        }
        try foldNested(nestedArchive, dataIndex: dataIndex, limits: limits, path: path)
    }

    /// Evaluates a nested archive under the policy with `limits` and folds its findings and
    /// violations into this report under `<path>/$archive`.
    private mutating func foldNested(_ nestedArchive: KeyedArchive, dataIndex: Int, limits: DecodeLimits, path: String) throws(ArchiveError) {
        guard let nesting else { return }
        var nestedPolicy = policy
        nestedPolicy.limits = limits
        var inner = PolicyEvaluator(archive: nestedArchive, policy: nestedPolicy)
        inner.deadline = deadline
        inner.nesting = NestingContext(level: nesting.level + 1)
        let evaluation: PolicyEvaluation
        do {
            evaluation = try inner.evaluate()
        } catch {
            throw ArchiveError(error.code, path: path + "/$archive" + error.path, error.message)
        }
        let report = evaluation.report
        self.nesting?.nestedObjects += nestedArchive.objectCount + (inner.nesting?.nestedObjects ?? 0)
        self.nesting?.archives[dataIndex] = NestedArchive(archive: nestedArchive, evaluation: evaluation)
        let prefix = path + "/$archive"
        for finding in report.findings {
            var moved = finding
            moved.path = prefix + finding.path
            appendFinding(moved)
        }
        for violation in report.violations {
            violationCount += 1
            guard violations.count < policy.limits.maxViolations else { continue }
            var moved = violation
            moved.path = prefix + violation.path
            violations.append(moved)
        }
        // A truncated list hides violations, but the nested verdict must still count.
        if report.violationsTruncated { violationCount += 1 }
    }
}
