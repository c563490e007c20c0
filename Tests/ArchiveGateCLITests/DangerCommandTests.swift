import ArchiveGateCore
import Foundation
import Testing

/// The danger catalogue and the policy lint through the real `archivegate` binary.
@Suite struct DangerCommandTests {
    /// `{"root": [NSComparisonPredicate]}`, written as Foundation archives a predicate.
    static func predicateInArray() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let keyPathClass = builder.classRecord("NSKeyPathExpression", chain: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"])
        let keyPath = builder.object(class: keyPathClass, fields: ["NSExpressionType": 3, "NSKeyPath": .uid(builder.add("name"))])
        let constantClass = builder.classRecord("NSConstantValueExpression", chain: ["NSConstantValueExpression", "NSExpression", "NSObject"])
        let constant = builder.object(class: constantClass, fields: ["NSExpressionType": 0, "NSConstantValue": .uid(builder.add("x"))])
        let operatorClass = builder.classRecord("NSPredicateOperator", chain: ["NSPredicateOperator", "NSObject"])
        let comparison = builder.object(class: operatorClass, fields: ["NSOperatorType": 4, "NSModifier": 0, "NSOptions": 0])
        let predicateClass = builder.classRecord("NSComparisonPredicate", chain: ["NSComparisonPredicate", "NSPredicate", "NSObject"])
        let predicate = builder.object(class: predicateClass, fields: ["NSPredicateOperator": .uid(comparison),
                                                                       "NSLeftExpression": .uid(keyPath),
                                                                       "NSRightExpression": .uid(constant)])
        builder.setTop("root", builder.array(of: [predicate]))
        return builder.binary()
    }

    static func file(_ bytes: [UInt8], _ name: String) throws -> String {
        try CLIRunner.write(bytes, named: name, in: try CLIRunner.temporaryDirectory())
    }

    @Test func validateInInspectionModeReportsThePredicateAndExitsOne() throws {
        let file = try Self.file(Self.predicateInArray(), "predicate.archive")
        let result = try CLIRunner.run(["validate", "--allow-any-class", file])
        #expect(result.status == 1)
        let line = try #require(result.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let report = try #require(object["report"] as? [String: Any])
        // No violation (inspection admits every class), but an unacknowledged finding is never valid.
        #expect(report["valid"] as? Bool == false)
        #expect(report["verdict"] as? String == "acceptedWithFindings")
        #expect(object["verdict"] as? String == "acceptedWithFindings")
        let findings = try #require(report["findings"] as? [[String: Any]])
        let predicate = try #require(findings.first { $0["code"] as? String == "danger.predicate" })
        #expect(predicate["path"] as? String == "/root/0")
        #expect(predicate["class"] as? String == "NSComparisonPredicate")
        #expect((predicate["reference"] as? String)?.contains("CVE-2023-23530") == true)
        #expect(result.stderr.contains("finding danger.predicate (NSComparisonPredicate) at /root/0"))
    }

    @Test func convertInInspectionModePrintsTheJSONAndNamesTheFinding() throws {
        let file = try Self.file(Self.predicateInArray(), "predicate.archive")
        let result = try CLIRunner.run(["convert", "--allow-any-class", file])
        #expect(result.status == 1, "shown, not refused, but not valid either: \(result.stderr)")
        #expect(result.stderr.contains("accepted with 3 unacknowledged findings, not valid"))
        #expect(result.stdout.hasPrefix("{\"root\":[{"))
        #expect(result.stdout.contains("\"$class\":\"NSComparisonPredicate\""))
        #expect(result.stderr.contains("finding danger.predicate (NSComparisonPredicate) at /root/0"))
    }

    @Test func theDefaultPolicyRefusesThePredicate() throws {
        let file = try Self.file(Self.predicateInArray(), "predicate.archive")
        let validate = try CLIRunner.run(["validate", file])
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("\"valid\":false"))
        #expect(validate.stdout.contains("\"code\":\"danger.predicate\""))
        let convert = try CLIRunner.run(["convert", file])
        #expect(convert.status == 1)
        #expect(convert.stdout.isEmpty)
        #expect(convert.stderr.contains("danger.predicate"))
    }

    @Test func nestedFlagDecodesAnArchiveInsideData() throws {
        var outer = KeyedArchiveBuilder()
        let data = outer.add(.data(Self.predicateInArray()))
        outer.setTop("root", outer.array(of: [data]))
        let file = try Self.file(outer.binary(), "nested.archive")
        let plain = try CLIRunner.run(["validate", "--allow-any-class", file])
        #expect(plain.stdout.contains("\"code\":\"danger.nested_archive\""))
        #expect(!plain.stdout.contains("danger.predicate"))
        let nested = try CLIRunner.run(["validate", "--allow-any-class", "--nested", file])
        #expect(nested.status == 1)
        #expect(nested.stdout.contains("\"path\":\"/root/0/$archive/root/0\""))
        #expect(nested.stdout.contains("\"code\":\"danger.predicate\""))
    }

    @Test func nestedFlagRendersTheNestedArchiveInPlace() throws {
        var outer = KeyedArchiveBuilder()
        let data = outer.add(.data(Self.predicateInArray()))
        outer.setTop("root", outer.array(of: [data]))
        let file = try Self.file(outer.binary(), "nested-convert.archive")
        let flat = try CLIRunner.run(["convert", "--allow-any-class", file])
        #expect(!flat.stdout.contains("$archive"), "\(flat.stdout)")
        let nested = try CLIRunner.run(["convert", "--allow-any-class", "--nested", file])
        #expect(nested.status == 1, "the nested predicate is an unacknowledged finding: \(nested.stderr)")
        #expect(flat.status == 3, "an undecoded nested archive is inconclusive: \(flat.stderr)")
        #expect(nested.stdout.hasPrefix(#"{"root":[{"$archive":{"root":[{"$class":"NSComparisonPredicate""#), "\(nested.stdout)")
        #expect(nested.stderr.contains("/root/0/$archive/root/0"), "\(nested.stderr)")
        let typed = try CLIRunner.run(["convert", "--allow-any-class", "--nested", "--mode", "typed", file])
        #expect(typed.stdout.contains(#"{"$archive":{"$archiver":"NSKeyedArchiver""#), "\(typed.stdout)")
    }

    @Test(arguments: [
        (#"{"allow": ["*"]}"#, "lint.any_class at /allow/0"),
        (#"{"allow": ["plist", "NSObject"]}"#, "lint.nsobject at /allow/1"),
        (#"{"root": ["foundation"], "allow": ["plist"]}"#, "lint.group_root at /root/0"),
    ])
    func policyCheckStrictRefusesOverBroadPolicies(policy: String, expected: String) throws {
        let file = try Self.file(Array(policy.utf8), "broad.json")
        let strict = try CLIRunner.run(["policy", "check", "--strict", file])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains(expected), "\(strict.stdout)")
        let lenient = try CLIRunner.run(["policy", "check", file])
        #expect(lenient.status == 0)
    }

    @Test func policyCheckStrictPrintsEveryFinding() throws {
        let file = try Self.file(Array(#"{"root": ["plist"], "allow": ["*", "NSObject"]}"#.utf8), "broad.json")
        let strict = try CLIRunner.run(["policy", "check", "--strict", file])
        #expect(strict.status == 1)
        #expect(strict.stdout.split(separator: "\n").count == 3)
    }

    @Test func policyCheckStrictAcceptsInspectionAndNarrowPolicies() throws {
        for policy in [#"{"inspection": true, "allow": ["*"]}"#, #"{"root": ["NSArray"], "allow": ["foundation"]}"#] {
            let file = try Self.file(Array(policy.utf8), "ok.json")
            let result = try CLIRunner.run(["policy", "check", "--strict", file])
            #expect(result.status == 0, "\(policy): \(result.stderr)")
        }
    }

    @Test func acknowledgingByWildcardIsAUsageError() throws {
        let file = try Self.file(Array(#"{"allow": ["foundation"], "acknowledge": ["NS*"]}"#.utf8), "ack.json")
        let result = try CLIRunner.run(["policy", "check", file])
        #expect(result.status == 64)
        #expect(result.stderr.contains("/acknowledge/0"))
    }
}
