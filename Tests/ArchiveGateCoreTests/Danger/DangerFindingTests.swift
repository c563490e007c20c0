import Testing
@testable import ArchiveGateCore

/// Every danger catalogue entry is found, with its path, under a gate policy, in inspection mode
/// and two archives deep inside NSData.
@Suite struct DangerFindingTests {
    static let codes = DangerArchives.samples.map(\.code)

    @Test func everyCatalogueEntryHasASample() {
        #expect(Set(DangerCatalogue.builtIn.entries.map(\.code.rawValue)) == Set(Self.codes))
        #expect(Set(DangerCatalogue.builtIn.entries.map(\.code.rawValue)).count == DangerCatalogue.builtIn.entries.count)
        for entry in DangerCatalogue.builtIn.entries {
            #expect(entry.code.rawValue.hasPrefix("danger."))
            #expect(!entry.reason.isEmpty && !entry.reference.isEmpty)
        }
    }

    static func finding(_ report: ValidationReport, _ code: String, at path: String) -> ValidationReport.Finding? {
        report.findings.first { $0.code.rawValue == code && $0.path == path }
    }

    @Test(arguments: DangerArchives.samples.map(\.code))
    func gatePolicyFindsAndRefuses(code: String) throws {
        let className = DangerArchives.samples.first { $0.code == code }!.className
        let report = try Inspect.report(DangerArchives.archive(for: code), policy: .foundation)
        let finding = try #require(Self.finding(report, code, at: DangerArchives.path), "\(report.findings)")
        #expect(finding.className == className)
        #expect(!finding.acknowledged)
        #expect(!report.valid)
        #expect(try Inspect.json(DangerArchives.archive(for: code), policy: .foundation) == nil)
    }

    @Test(arguments: DangerArchives.samples.map(\.code))
    func inspectionReportsButRenders(code: String) throws {
        let bytes = DangerArchives.archive(for: code)
        let report = try Inspect.report(bytes, policy: .inspection)
        #expect(Self.finding(report, code, at: DangerArchives.path) != nil, "\(report.findings)")
        #expect(!report.unacknowledgedFindings.isEmpty)
        #expect(report.violations.isEmpty)
        #expect(try Inspect.json(bytes, policy: .inspection) != nil)
    }

    @Test(arguments: DangerArchives.samples.map(\.code))
    func nestedTwoLevelsInsideData(code: String) throws {
        let bytes = DangerArchives.nested(DangerArchives.archive(for: code), levels: 2)
        for policy in [Policy.inspection, .foundation] {
            let report = try ArchiveInspector(policy: policy, decodesNestedArchives: true).validate(bytes)
            #expect(Self.finding(report, code, at: DangerArchives.nestedPath(2)) != nil, "\(report.findings)")
            #expect(Self.finding(report, "danger.nested_archive", at: DangerArchives.path) != nil)
            #expect(Self.finding(report, "danger.nested_archive", at: DangerArchives.nestedPath(1)) != nil)
            // Decoded and checked: a gate refuses the finding; inspection shows it without calling it valid.
            #expect(!report.valid)
            #expect(report.verdict == (policy.inspection ? .acceptedWithFindings(findings: report.unacknowledgedFindings.count)
                                                         : .rejected(violations: report.violations.count + report.unacknowledgedFindings.count)))
        }
    }

    @Test func nestedArchivesAreOnlyAFindingWhenNotDecoded() throws {
        let bytes = DangerArchives.nested(DangerArchives.archive(for: "danger.predicate"), levels: 1)
        let report = try Inspect.report(bytes, policy: .inspection)
        #expect(report.findings.map(\.code.rawValue) == ["danger.nested_archive"])
        #expect(report.findings.map(\.path) == [DangerArchives.path])
    }

    @Test func nestedViolationsCarryTheirFullPath() throws {
        let bytes = DangerArchives.nested(DangerArchives.archive(for: "danger.predicate"), levels: 1)
        let policy = Inspect.policy(#"{"allow": ["foundation"], "acknowledge": ["NSData", "NSComparisonPredicate"]}"#)
        let report = try ArchiveInspector(policy: policy, decodesNestedArchives: true).validate(bytes)
        #expect(report.violations.map(\.path) == ["/root/0/$archive/root/0"])
        #expect(report.violations.map(\.code.rawValue) == ["policy.class_not_allowed"])
        #expect(!report.valid)
    }

    @Test func nestedObjectsCountAgainstTheObjectLimit() throws {
        let bytes = DangerArchives.nested(DangerArchives.archive(for: "danger.predicate"), levels: 1)
        func policy(maxObjects: Int) -> Policy {
            var policy = Policy.inspection
            policy.limits.maxObjects = maxObjects
            return policy
        }
        // The smallest limit the outer archive alone decodes under: no room left for the nested one.
        var smallest = 1
        while smallest < 500, (try? ArchiveInspector(policy: policy(maxObjects: smallest)).validate(bytes)) == nil { smallest += 1 }
        #expect(smallest < 500)
        do {
            _ = try ArchiveInspector(policy: policy(maxObjects: smallest), decodesNestedArchives: true).validate(bytes)
            Issue.record("the nested archive did not count against maxObjects")
        } catch {
            #expect(error.code.rawValue == "archive.object_limit_exceeded")
        }
        let report = try ArchiveInspector(policy: policy(maxObjects: 500), decodesNestedArchives: true).validate(bytes)
        #expect(report.verdict == .acceptedWithFindings(findings: report.unacknowledgedFindings.count))
    }

    @Test func unreachableObjectsAreStillFound() throws {
        var builder = KeyedArchiveBuilder()
        _ = DangerArchives.predicate(in: &builder)
        builder.setTop("root", builder.add("just a string"))
        let report = try Inspect.report(builder.binary(), policy: .foundation)
        #expect(report.findings.contains { $0.code.rawValue == "danger.predicate" && $0.path.hasPrefix("/$objects/") })
        #expect(!report.valid)
    }

    @Test func findingsAreReportedUnderAllowStar() throws {
        let policy = Inspect.policy(#"{"allow": ["*"]}"#)
        let report = try Inspect.report(DangerArchives.archive(for: "danger.predicate"), policy: policy)
        #expect(Self.finding(report, "danger.predicate", at: "/root/0") != nil)
        #expect(report.violations.isEmpty)
        #expect(!report.valid)  // a gate policy: `*` admits the class, the finding still refuses it
        #expect(policy.lint.map(\.code.rawValue) == ["lint.any_class"])
    }
}
