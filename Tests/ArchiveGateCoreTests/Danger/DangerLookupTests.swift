import Testing
@testable import ArchiveGateCore

/// The catalogue cannot be dodged by spelling (issue 31): class names are matched as Foundation's
/// lookup sees them, along the claimed `$classes` chain, and predicate/expression objects by their
/// keys whatever their class says; sanitize and encode do not write such archives unremarked.
@Suite struct DangerLookupTests {
    /// `[object]` under `$top["root"]`, the object of class `name` (chain `chain`) with `fields`.
    static func archive(_ name: String, chain: [String]? = nil,
                        fields: (inout KeyedArchiveBuilder) -> KeyValuePairs<String, PropertyListValue>) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let values = fields(&builder)
        let object = builder.object(class: builder.classRecord(name, chain: chain ?? [name, "NSObject"]), fields: values)
        builder.setTop("root", builder.array(of: [object]))
        return builder.binary()
    }

    static func sortDescriptor(named name: String, chain: [String]? = nil) -> [UInt8] {
        archive(name, chain: chain) { builder in ["NSKey": .uid(builder.add("name")), "NSAscending": true] }
    }

    @Test(arguments: [
        ("NSSortDescriptor\u{0}", "lookup"),  // Apple: the name is a C string to the runtime
        ("NSSortDescriptor\u{0}Harmless", "lookup"),
        ("Foundation.NSSortDescriptor", "lookup"),  // corelibs: unqualified names are Foundation's
    ])
    func aNameTheLookupMapsIsFound(name: String, via: String) throws {
        let report = try Inspect.report(Self.sortDescriptor(named: name), policy: .inspection)
        let finding = try #require(report.findings.first { $0.path == "/root/0" }, "\(report.findings)")
        #expect(finding.code == .sortDescriptor)
        #expect(finding.className == name)
        #expect(finding.via?.rawValue == via)
        #expect(finding.matched == "NSSortDescriptor")
        #expect(finding.keyPaths == ["name"])
        #expect(!finding.acknowledged)
        let gate = try Inspect.report(Self.sortDescriptor(named: name), policy: Inspect.policy(#"{"allow": ["*"], "inspection": false}"#))
        #expect(!gate.valid)
    }

    @Test func aCanonicallyEquivalentSpellingIsFound() throws {
        // U+212A KELVIN SIGN: canonically "K", as corelibs' Swift dictionary of classes compares.
        let bytes = Self.archive("NS\u{212A}eyPathExpression") { _ in ["Title": 1] }
        let report = try Inspect.report(bytes, policy: .inspection)
        #expect(report.findings.map(\.code) == [.expression])
        #expect(report.findings.map(\.className) == ["NS\u{212A}eyPathExpression"])
    }

    @Test func otherNamesAreNotMapped() throws {
        for name in ["nssortdescriptor", " NSSortDescriptor", "Foundation.Sub.NSSortDescriptor", "Evil.NSSortDescriptor"] {
            let report = try Inspect.report(Self.sortDescriptor(named: name), policy: .inspection)
            #expect(report.findings.filter { $0.code == .sortDescriptor }.isEmpty, "\(name): \(report.findings)")
        }
        #expect(ClassLookupName.normalised("NSPredicate\u{0}x") == "NSPredicate")
        #expect(ClassLookupName.normalised("Foundation.NSData") == "NSData")
        #expect(ClassLookupName.normalised("Foundation.") == "Foundation.")
    }

    @Test func aChainNamingACatalogueClassIsFound() throws {
        for chain in [["Innocent", "NSSortDescriptor", "NSObject"], ["Innocent", "Foundation.NSPredicate"],
                      ["Innocent", "Other", "NSInvocation\u{0}"]] {
            let report = try Inspect.report(Self.sortDescriptor(named: "Innocent", chain: chain), policy: .inspection)
            let finding = try #require(report.findings.first { $0.path == "/root/0" }, "\(chain)")
            #expect(finding.via == .chain)
            #expect(finding.className == "Innocent")
            #expect(finding.matched == ClassLookupName.normalised(chain[chain.count == 3 && chain[1] == "Other" ? 2 : 1]))
        }
        // A real subclass chain stays an ordinary class match.
        let report = try Inspect.report(DangerArchives.archive(for: "danger.predicate"), policy: .inspection)
        #expect(report.findings.allSatisfy { $0.via == nil })
    }

    @Test func predicateAndExpressionKeysAreFoundWhateverTheClass() throws {
        let function = Self.archive("Note") { builder in
            ["NSExpressionType": 4, "NSSelectorName": .uid(builder.add("evaluate:with:")),
             "NSOperand": .uid(builder.add("x")), "NSConstantValueClassName": .uid(builder.add("_NSPredicateUtilities"))]
        }
        let report = try Inspect.report(function, policy: .inspection)
        let finding = try #require(report.findings.first)
        #expect(finding.code == .expression)
        #expect(finding.via == .keys)
        #expect(finding.matched == "NSExpressionType")
        #expect(finding.functions == ["evaluate:with:"])
        #expect(finding.classConstants == ["_NSPredicateUtilities"])
        #expect(finding.selectors == nil && finding.keyPaths == nil)

        let comparison = Self.archive("Memo") { builder in
            ["NSLeftExpression": .uid(builder.add("a")), "NSRightExpression": .uid(builder.add("b"))]
        }
        #expect(try Inspect.report(comparison, policy: .inspection).findings.map(\.code) == [.predicate])

        let customOperator = Self.archive("Op") { builder in
            ["NSOperatorType": 11, "NSSelectorName": .uid(builder.add("isEqualTo:"))]
        }
        let operatorFinding = try #require(try Inspect.report(customOperator, policy: .inspection).findings.first)
        #expect(operatorFinding.selectors == ["isEqualTo:"])
        #expect(operatorFinding.functions == nil)

        // Keys compare by UTF-16 code units: a look-alike key is not the key Foundation reads.
        let lookalike = Self.archive("Note") { _ in ["NSExpressionTyp\u{0065}\u{301}": 4, "Title": 1] }
        #expect(try Inspect.report(lookalike, policy: .inspection).findings.isEmpty)
    }

    /// ASCII keys (binary plists) are compared by their bytes in place, other keys (XML's UTF-8
    /// strings, binary UTF-16 ones) as strings: both find the same key entry.
    @Test func keysAreFoundWhateverTheirStringKind() throws {
        var builder = KeyedArchiveBuilder()
        let object = builder.object(class: builder.classRecord("Note"),
                                    fields: ["Title": 1, "NSExpressionType": 4, "NSSelectorName": .uid(builder.add("evaluate:"))])
        builder.setTop("root", builder.array(of: [object]))
        for (spelling, bytes) in [("binary", builder.binary()), ("xml", XMLPropertyListWriter.write(builder.value))] {
            let finding = try #require(try Inspect.report(bytes, policy: .inspection).findings.first, "\(spelling)")
            #expect(finding.code == .expression, "\(spelling)")
            #expect(finding.via == .keys, "\(spelling)")
            #expect(finding.matched == "NSExpressionType", "\(spelling)")
        }
        // Short keys and keys not starting with N are never a catalogue key, whatever the kind.
        let plain = Self.archive("Note") { _ in ["NS": 1, "xNSExpressionType": 2, "NSExpressionTypes": 3] }
        #expect(try Inspect.report(plain, policy: .inspection).findings.isEmpty)
    }

    @Test func acknowledgementNamesTheClassAndEveryFunction() throws {
        let bytes = Self.archive("Note") { builder in ["NSSelectorName": .uid(builder.add("system:"))] }
        let classOnly = Inspect.policy(#"{"allow": ["foundation", "Note"], "acknowledge": ["Note"]}"#)
        let report = try Inspect.report(bytes, policy: classOnly)
        #expect(report.findings.map(\.acknowledged) == [false])
        #expect(!report.valid)
        let both = Inspect.policy(#"{"allow": ["foundation", "Note"], "acknowledge": ["Note", "system:"]}"#)
        let acknowledged = try Inspect.report(bytes, policy: both)
        #expect(acknowledged.findings.map(\.acknowledged) == [true])
        #expect(acknowledged.valid)
    }

    /// An inspection policy that acknowledges every finding `bytes` has (class and named
    /// selectors/functions/constants): sanitize writes only accepted archives (`Verdict`), so the
    /// rewrite of an archive with findings is seen once they are acknowledged.
    private static func acknowledgingEveryFinding(in bytes: [UInt8]) throws -> Policy {
        let findings = try Inspect.report(bytes, policy: .inspection).findings
        let names = Set(findings.flatMap { [$0.className] + $0.namesToAcknowledge }).sorted()
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return Inspect.policy(#"{"allow": ["*"], "inspection": true, "acknowledge": ["# + list + "]}")
    }

    @Test func sanitizeLeavesSmuggledChainClassesOut() throws {
        let bytes = Self.sortDescriptor(named: "Innocent", chain: ["Innocent", "NSSortDescriptor", "Base", "NSObject"])
        // Unacknowledged, the finding keeps sanitize from writing anything, even for inspection.
        #expect(try ArchiveSanitizer(inspector: ArchiveInspector(policy: .inspection)).sanitize(bytes).archive == nil)
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: Self.acknowledgingEveryFinding(in: bytes))).sanitize(bytes)
        #expect(result.report.findings.map(\.via) == [.chain])
        let output = try KeyedArchive(plist: PropertyList.read(try #require(result.archive)))
        let innocent = try #require(output.classes.first { $0.name == "Innocent" })
        #expect(innocent.claimedChain == ["Innocent", "Base", "NSObject"])
        // A true subclass keeps its chain.
        let predicateBytes = DangerArchives.archive(for: "danger.predicate")
        let predicate = try ArchiveSanitizer(inspector: ArchiveInspector(policy: Self.acknowledgingEveryFinding(in: predicateBytes)))
            .sanitize(predicateBytes)
        let written = try KeyedArchive(plist: PropertyList.read(try #require(predicate.archive)))
        #expect(written.classes.first { $0.name == "NSComparisonPredicate" }?.claimedChain == ["NSComparisonPredicate", "NSPredicate", "NSObject"])
        // Under a gate policy the smuggling object is refused, not written.
        let gate = try ArchiveSanitizer(inspector: ArchiveInspector(policy: Inspect.policy(#"{"allow": ["*"], "inspection": false}"#))).sanitize(bytes)
        #expect(gate.archive == nil)
    }

    @Test func encodeReportsTheFindingsOfWhatItWrites() throws {
        let bytes = Self.sortDescriptor(named: "NSSortDescriptor\u{0}")
        let typed = try #require(try ArchiveInspector(policy: .inspection).convert(bytes, mode: .typed).json)
        let encoded = try ArchiveEncoder().encodeReporting(typed)
        #expect(encoded.findings.map(\.code) == [.sortDescriptor])
        #expect(encoded.findings.map(\.via) == [.lookup])
        #expect(encoded.findings.map(\.acknowledged) == [false])
        var acknowledging = ArchiveEncoder()
        acknowledging.acknowledged = ["NSSortDescriptor\u{0}"]
        #expect(try acknowledging.encodeReporting(typed).findings.map(\.acknowledged) == [true])
    }
}
