import Foundation
import Testing
@testable import ArchiveGateCore

/// Apple's layouts of classes corelibs writes differently (docs/FOUNDATION-LAYOUTS.md), hand-built
/// with the keys Apple's Foundation and AppKit write (the real corpus has them: AppleCorpusTests).
@Suite struct AppleLayoutTests {
    /// Apple's NSPersonNameComponents: the parts in `_NSPersonNameComponentsData`.
    static func privateNameComponents(given: String, family: String, privateClass: String = "_NSPersonNameComponentsData") -> [UInt8] {
        HandBuilt.root { builder in
            let parts = builder.object(class: builder.classRecord(privateClass), fields: [
                "NS.givenName": .uid(builder.add(.string(given))), "NS.familyName": .uid(builder.add(.string(family))),
                "NS.middleName": .uid(0), "NS.namePrefix": .uid(0), "NS.nameSuffix": .uid(0), "NS.nickname": .uid(0),
                "NS.phoneticRepresentation": .uid(0),
            ])
            return builder.object(class: builder.classRecord("NSPersonNameComponents"), fields: ["NS.nameComponentsPrivate": .uid(parts)])
        }
    }

    @Test func applesPrivateNameComponentsAreShownAndValidUnderTheFoundationGroup() throws {
        let bytes = Self.privateNameComponents(given: "Mr", family: "Tester")
        #expect(try Inspect.json(bytes, policy: .foundation) == #"""
            {"root":{"namePrefix":null,"givenName":"Mr","middleName":null,"familyName":"Tester","nameSuffix":null,"nickname":null,"phoneticRepresentation":null}}
            """#)
        #expect(try Inspect.report(bytes, policy: .foundation).valid)
    }

    /// Foundation decodes the private class only inside its owner.
    @Test func thePrivateNameClassAloneIsNotAdmitted() throws {
        let bytes = HandBuilt.object("_NSPersonNameComponentsData", ["NS.givenName": .uid(0)])
        let report = try Inspect.report(bytes, policy: .foundation)
        #expect(report.violations.map { "\($0.code) \($0.path)" } == ["policy.class_not_allowed /root"])
        #expect(!Policy.foundationGroup.contains("_NSPersonNameComponentsData"))
    }

    static let appKit = Inspect.policy(#"{"allow": ["foundation", "uikit-values"]}"#)

    @Test func aCatalogColorShowsItsNamesAndFallback() throws {
        let bytes = HandBuilt.root { builder in
            let fallback = builder.object(class: builder.classRecord("NSColor"), fields: [
                "NSColorSpace": .integer(3), "NSWhite": .data(Array("0.602\0".utf8)),
            ])
            return builder.object(class: builder.classRecord("NSColor"), fields: [
                "NSColorSpace": .integer(6), "NSCatalogName": .uid(builder.add(.string("System"))),
                "NSColorName": .uid(builder.add(.string("controlColor"))), "NSColor": .uid(fallback),
            ])
        }
        #expect(try Inspect.json(bytes, policy: Self.appKit) == #"""
            {"root":{"colorSpace":"catalog","catalogName":"System","colorName":"controlColor","color":{"colorSpace":"calibratedWhite","white":0.602,"alpha":1}}}
            """#)
        #expect(try Inspect.report(bytes, policy: Self.appKit).valid)
    }

    @Test func aCMYKColorShowsItsComponents() throws {
        let bytes = HandBuilt.object("NSColor", ["NSColorSpace": .integer(5), "NSCMYK": .data(Array("0.1 0.2 0.3 0.4\0".utf8))])
        #expect(try Inspect.json(bytes, policy: Self.appKit)
            == #"{"root":{"colorSpace":"deviceCMYK","cyan":0.1,"magenta":0.2,"yellow":0.3,"black":0.4,"alpha":1}}"#)
    }

    /// A catalog colour whose fallback is itself a catalog colour nests; the chain ends in a
    /// component colour or `null`.
    @Test func aChainOfCatalogFallbacksNests() throws {
        let bytes = HandBuilt.root { builder in
            var color = builder.object(class: builder.classRecord("NSColor"), fields: ["NSColorSpace": .integer(4), "NSWhite": .data(Array("1".utf8))])
            for name in ["inner", "outer"] {
                color = builder.object(class: builder.classRecord("NSColor"), fields: [
                    "NSColorSpace": .integer(6), "NSCatalogName": .uid(builder.add(.string("System"))),
                    "NSColorName": .uid(builder.add(.string(name))), "NSColor": .uid(color),
                ])
            }
            return color
        }
        #expect(try Inspect.json(bytes, policy: Self.appKit) == #"""
            {"root":{"colorSpace":"catalog","catalogName":"System","colorName":"outer","color":{"colorSpace":"catalog","catalogName":"System","colorName":"inner","color":{"colorSpace":"deviceWhite","white":1,"alpha":1}}}}
            """#)
    }
}
