import Testing
@testable import ArchiveGateCore

/// `acknowledge`, `inspection`, the lint of over-broad policies, `admittedBy` and the time budget.
@Suite struct DangerPolicyTests {
    @Test func acknowledgingAClassByNameMakesItValid() throws {
        let policy = Inspect.policy(#"{"allow": ["foundation", "NSSortDescriptor"], "acknowledge": ["NSSortDescriptor"]}"#)
        let report = try Inspect.report(DangerArchives.archive(for: "danger.sort_descriptor"), policy: policy)
        #expect(report.valid)
        #expect(report.findings.map(\.code.rawValue) == ["danger.sort_descriptor"])
        #expect(report.findings.map(\.acknowledged) == [true])
        #expect(report.unacknowledgedFindings.isEmpty)
    }

    @Test func acknowledgingAnotherClassDoesNotHelp() throws {
        let policy = Inspect.policy(#"{"allow": ["foundation", "NSSortDescriptor"], "acknowledge": ["NSPredicate"]}"#)
        let report = try Inspect.report(DangerArchives.archive(for: "danger.sort_descriptor"), policy: policy)
        #expect(!report.valid)
        #expect(report.findings.map(\.acknowledged) == [false])
    }

    @Test(arguments: [#"["*"]"#, #"["NS*"]"#, #"["NSSortDescriptor", "*Predicate"]"#, #"["foundation"]"#])
    func acknowledgingByWildcardIsALoadError(list: String) {
        #expect(throws: PolicyError.self) { try Policy.load(json: Array(#"{"acknowledge": \#(list)}"#.utf8)) }
        do {
            _ = try Policy.load(json: Array(#"{"acknowledge": \#(list)}"#.utf8))
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.path.hasPrefix("/acknowledge/"))
        }
    }

    @Test func theDefaultPolicyRefusesAPredicateInAnArray() throws {
        let report = try Inspect.report(DangerArchives.archive(for: "danger.predicate"), policy: .foundation)
        #expect(!report.valid)
        #expect(report.findings.first?.code.rawValue == "danger.predicate")
        #expect(report.findings.first?.path == "/root/0")
    }

    @Test func inspectionFlagInAPolicyFileReportsWithoutRefusing() throws {
        let policy = Inspect.policy(#"{"inspection": true, "allow": ["*"]}"#)
        #expect(policy.inspection && policy.lint.isEmpty)
        let report = try Inspect.report(DangerArchives.archive(for: "danger.predicate"), policy: policy)
        #expect(!report.valid)
        #expect(report.verdict == .acceptedWithFindings(findings: report.unacknowledgedFindings.count))
        #expect(report.unacknowledgedFindings.map(\.code.rawValue).contains("danger.predicate"))
        #expect(report.classes.first { $0.name == "NSComparisonPredicate" }?.admittedBy == ["inspection"])
    }

    @Test func lintNamesEveryOverBroadRule() {
        let policy = Inspect.policy(#"""
            {"root": ["foundation", "Note"], "allow": ["plist", "*"],
             "classes": {"Note": {"keys": {"any": "NSObject", "list": {"classes": ["NSArray"], "elements": ["*"]}}}}}
            """#)
        #expect(policy.lint.map { "\($0.code) \($0.path)" } == [
            "lint.group_root /root/0",
            "lint.any_class /allow/1",
            "lint.nsobject /classes/Note/keys/any",
            "lint.any_class /classes/Note/keys/list/elements/0",
        ])
        #expect(Inspect.policy(#"{"allow": ["foundation"], "root": ["NSArray"]}"#).lint.isEmpty)
        #expect(Inspect.policy(#"{"inspection": true, "root": ["plist"], "allow": ["*", "NSObject"]}"#).lint.isEmpty)
    }

    @Test func inspectionMustBeABoolean() {
        #expect(throws: PolicyError.self) { try Policy.load(json: Array(#"{"inspection": "yes"}"#.utf8)) }
    }

    @Test func admittedByNamesTheRule() throws {
        var builder = KeyedArchiveBuilder()
        let title = builder.add("hello")
        let tag = builder.add("tag")
        let tags = builder.array(of: [tag])
        let noteClass = builder.classRecord("Note", chain: ["Note", "NSObject"])
        let note = builder.object(class: noteClass, fields: ["title": .uid(title), "tags": .uid(tags)])
        builder.setTop("root", builder.array(of: [note]))
        let policy = Inspect.policy(#"""
            {"root": ["NSArray"], "allow": ["plist", "Note"],
             "classes": {"Note": {"keys": {"title": "NSString", "tags": {"classes": ["NSArray"], "elements": ["NSString"]}}}}}
            """#)
        let report = try Inspect.report(builder.binary(), policy: policy)
        #expect(report.valid, "\(report.violations)")
        let admitted = Dictionary(uniqueKeysWithValues: report.classes.map { ($0.name, $0.admittedBy) })
        #expect(admitted["Note"] == ["allow"])
        #expect(admitted["NSArray"] == ["key:Note.tags", "root"])
        #expect(admitted["NSString"] == ["key:Note.tags", "key:Note.title"])
    }

    /// One key admits three classes by turns (the collection, then its mixed elements), in two
    /// owners of different classes: the walk's memo of recent key rules (two per key object) must
    /// not hide any of them.
    @Test func everyClassAKeyAdmitsIsNamedWhenTheyAlternate() throws {
        var builder = KeyedArchiveBuilder()
        var notes: [UInt32] = []
        for index in 0 ..< 3 {
            let tags = builder.array(of: [builder.add(.string("tag \(index)")), builder.add(.integer(Int128(index))),
                                          builder.add(.string("other \(index)")), builder.add(.integer(7))])
            let className = index == 1 ? "Draft" : "Note"
            let noteClass = builder.classRecord(className, chain: [className, "NSObject"])
            notes.append(builder.object(class: noteClass, fields: ["tags": .uid(tags)]))
        }
        builder.setTop("root", builder.array(of: notes))
        let tagsSchema = #"{"keys": {"tags": {"classes": ["NSArray"], "elements": ["NSString", "NSNumber"]}}}"#
        let policy = Inspect.policy(#"{"root": ["NSArray"], "allow": ["Note", "Draft"], "classes": {"Note": "# + tagsSchema
                                    + #", "Draft": "# + tagsSchema + "}}")
        let report = try Inspect.report(builder.binary(), policy: policy)
        #expect(report.valid, "\(report.violations)")
        let admitted = Dictionary(uniqueKeysWithValues: report.classes.map { ($0.name, $0.admittedBy) })
        #expect(admitted["NSArray"] == ["key:Draft.tags", "key:Note.tags", "root"])
        #expect(admitted["NSString"] == ["key:Draft.tags", "key:Note.tags"])
        #expect(admitted["NSNumber"] == ["key:Draft.tags", "key:Note.tags"])
    }

    @Test func aDecodeOverItsTimeBudgetIsATypedError() throws {
        var builder = KeyedArchiveBuilder(capacity: 200_001)
        let strings = (0 ..< 200_000).map { builder.add(.string("string number \($0)")) }
        builder.setTop("root", builder.array(of: strings))
        let bytes = builder.binary()
        var policy = Policy.inspection
        policy.limits.maxDecodeMilliseconds = 1
        for decode in [{ _ = try ArchiveInspector(policy: policy).validate(bytes) },
                       { _ = try ArchiveInspector(policy: policy).convert(bytes, mode: .plain) }] {
            do {
                try decode()
                Issue.record("a 1 ms budget was not exceeded")
            } catch let error as ArchiveGateError {
                #expect(error.code == .init(ArchiveError.Code.timeBudgetExceeded))
                #expect(error.isLimit)
            }
        }
        policy.limits.maxDecodeMilliseconds = 600_000
        #expect(try ArchiveInspector(policy: policy).validate(bytes).valid)
    }

    @Test func theBudgetIsAPolicyLimit() {
        let policy = Inspect.policy(#"{"limits": {"maxDecodeMilliseconds": 250}}"#)
        #expect(policy.limits.maxDecodeMilliseconds == 250)
        #expect(policy.limits.entries.contains { $0 == ("maxDecodeMilliseconds", 250) })
    }
}
