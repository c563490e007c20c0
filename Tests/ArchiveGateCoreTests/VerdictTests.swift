import Testing
@testable import ArchiveGateCore

/// The one verdict rule (`Verdict`), as a table and on real archives under gate, redact and
/// inspection policies; and its JSON next to `valid`.
@Suite struct VerdictTests {
    /// (violations, unacknowledged findings, undecoded nested archives, redacts, inspection) → verdict.
    static let rule: [(Int, Int, Int, Bool, Bool, Verdict)] = [
        (0, 0, 0, false, false, .accepted),
        (0, 0, 0, true, true, .accepted),
        (2, 0, 0, false, false, .rejected(violations: 2)),
        (2, 1, 0, false, false, .rejected(violations: 3)),
        (0, 1, 0, false, false, .rejected(violations: 1)),
        (2, 1, 0, true, false, .redacted(violations: 3)),
        (0, 1, 0, true, false, .redacted(violations: 1)),
        (1, 4, 0, false, true, .rejected(violations: 1)),
        (0, 4, 0, false, true, .acceptedWithFindings(findings: 4)),
        (0, 1, 1, false, true, .inconclusive(.nestedArchiveNotDecoded)),
        (0, 0, 1, false, true, .inconclusive(.nestedArchiveNotDecoded)),
        (0, 1, 1, false, false, .rejected(violations: 1)),
    ]

    @Test func theRuleTable() {
        for (violations, findings, nested, redacts, inspection, expected) in Self.rule {
            let verdict = Verdict(violations: violations, unacknowledgedFindings: findings, undecodedNestedArchives: nested,
                                  redacts: redacts, inspection: inspection)
            #expect(verdict == expected, "\((violations, findings, nested, redacts, inspection))")
        }
    }

    @Test func onlyAcceptedIsValid() {
        let all: [Verdict] = [.accepted, .acceptedWithFindings(findings: 1), .redacted(violations: 1), .rejected(violations: 1),
                              .malformed(ArchiveGateError.Code(PropertyListError.Code.truncated)),
                              .inconclusive(.noArchiveFound), .plist]
        #expect(all.filter(\.isValid) == [.accepted])
        #expect(all.map(\.name) == Verdict.names)
        #expect(!Verdict.inconclusive(.nestedArchiveNotDecoded).isValid)
        #expect(all.filter(\.releasesContent).map(\.name) == ["accepted", "acceptedWithFindings", "redacted", "plist"])
    }

    @Test func decodeErrorsAreMalformedInconclusiveOrPlist() {
        let plain = ArchiveGateError.archive(ArchiveError(.notAKeyedArchive, path: "", "an array"))
        #expect(Verdict(plain) == .plist)
        let deep = ArchiveGateError.archive(ArchiveError(.depthLimitExceeded, path: "/root", "deep"))
        #expect(Verdict(deep) == .inconclusive(.limit(deep.code)))
        #expect(Verdict(deep).reason == "archive.depth_limit_exceeded")
        let big = ArchiveGateError.propertyList(PropertyListError(.inputTooLarge, offset: 0, "big"))
        #expect(Verdict(big) == .inconclusive(.limit(big.code)))
        let truncated = ArchiveGateError.propertyList(PropertyListError(.truncated, offset: 3, "short"))
        #expect(Verdict(truncated) == .malformed(truncated.code))
        #expect(Verdict(truncated).reason == "plist.truncated")
        #expect(Verdict(truncated).description == "malformed (plist.truncated)")
    }

    @Test func aPlainPropertyListIsNotMalformed() throws {
        let plain = PropertyListValue.array([.string("a"), .integer(1)])
        do throws(ArchiveGateError) {
            _ = try ArchiveInspector(policy: .foundation).validate(ArchiveEncoder.write(plain, format: .binary))
            Issue.record("a plain plist evaluated as an archive")
        } catch {
            #expect(Verdict(error) == .plist)
        }
    }

    @Test func gatePolicyRejectsADangerFinding() throws {
        let report = try Inspect.report(DangerArchives.archive(for: "danger.predicate"), policy: .foundation)
        #expect(report.verdict == .rejected(violations: report.violations.count + report.unacknowledgedFindings.count))
        #expect(!report.valid)
    }

    /// Inspection reports findings without refusing, but never calls them valid.
    @Test func inspectionWithAnUnacknowledgedFindingIsNotValid() throws {
        let bytes = DangerArchives.archive(for: "danger.predicate")
        let report = try Inspect.report(bytes, policy: .inspection)
        #expect(report.verdict == .acceptedWithFindings(findings: report.unacknowledgedFindings.count))
        #expect(!report.valid)
        #expect(try Inspect.json(bytes, policy: .inspection) != nil)
        // …and sanitize refuses to write it: a canonical archive is what an app decodes.
        let sanitized = try ArchiveSanitizer(inspector: ArchiveInspector(policy: .inspection)).sanitize(bytes)
        #expect(sanitized.archive == nil)
        #expect(sanitized.report.verdict == report.verdict)
    }

    @Test func anAcknowledgedFindingIsAccepted() throws {
        let policy = Inspect.policy(#"{"allow": ["foundation", "NSComparisonPredicate", "NSKeyPathExpression", "NSConstantValueExpression", "NSPredicateOperator"], "acknowledge": ["NSComparisonPredicate", "NSKeyPathExpression", "NSConstantValueExpression"]}"#)
        let report = try Inspect.report(DangerArchives.archive(for: "danger.predicate"), policy: policy)
        #expect(report.unacknowledgedFindings.isEmpty, "\(report.findings)")
        #expect(report.verdict == .accepted)
        #expect(report.valid)
    }

    @Test func anUndecodedNestedArchiveIsInconclusiveAndADecodedOneIsChecked() throws {
        let bytes = DangerArchives.nested(DangerArchives.archive(for: "danger.predicate"), levels: 1)
        let undecoded = try Inspect.report(bytes, policy: .inspection)
        #expect(undecoded.verdict == .inconclusive(.nestedArchiveNotDecoded))
        #expect(!undecoded.valid)
        #expect(try Inspect.json(bytes, policy: .inspection) != nil)
        let decoded = try ArchiveInspector(policy: .inspection, decodesNestedArchives: true).validate(bytes)
        #expect(decoded.verdict == .acceptedWithFindings(findings: decoded.unacknowledgedFindings.count))
        let gate = try ArchiveInspector(policy: .foundation, decodesNestedArchives: true).validate(bytes)
        #expect(gate.verdict == .rejected(violations: gate.violations.count + gate.unacknowledgedFindings.count))
    }

    @Test func redactingPolicyIsRedactedAndItsOutputAccepted() throws {
        let policy = Inspect.policy(#"{"allow": ["foundation"], "onViolation": "redact"}"#)
        let bytes = DangerArchives.archive(for: "danger.predicate")
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: policy)).sanitize(bytes)
        guard case .redacted(let count) = result.report.verdict else {
            Issue.record("\(result.report.verdict)")
            return
        }
        #expect(count >= 1)
        let output = try #require(result.archive)
        #expect(try Inspect.report(output, policy: policy).verdict == .accepted)
    }

    @Test func theReportCarriesTheVerdictBesideValid() throws {
        let nested = try Inspect.report(DangerArchives.nested(DangerArchives.archive(for: "danger.predicate"), levels: 1), policy: .inspection)
        let json = String(decoding: nested.json, as: UTF8.self)
        #expect(json.contains(#""valid":false,"verdict":"inconclusive","verdictReason":"danger.nested_archive","violations":"#))
        var builder = KeyedArchiveBuilder()
        let text = builder.add(.string("hello"))
        builder.setTop("root", builder.array(of: [text]))
        let valid = try Inspect.report(builder.binary(), policy: .foundation)
        #expect(String(decoding: valid.json, as: UTF8.self).contains(#""valid":true,"verdict":"accepted","violations":"#))
    }
}
