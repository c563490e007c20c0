import Foundation
import Testing
@testable import ArchiveGateCore

/// The attribute values attributed strings carry most: fonts (UIFont, NSFont) and paragraph styles
/// (NSParagraphStyle), in group `uikit-values`. corelibs has neither UIKit nor AppKit, so the
/// archives are hand-built with the keys of UIKit's `-[UIFont encodeWithCoder:]` and UIFoundation's
/// `-[NSParagraphStyle initWithCoder:]` (iOS 18, decompiled).
@Suite struct TextAttributeClassTests {
    static let uikit = Inspect.policy(#"{"allow": ["foundation", "uikit-values"]}"#)

    /// What UIFont writes (UIFontDescriptor left out: it is a CoreText descriptor object).
    static func font(_ builder: inout KeyedArchiveBuilder, name: String = "Helvetica-Bold", size: PropertyListValue = .real(12.5),
                     className: String = "UIFont") -> UInt32 {
        let nameUID = builder.add(.string(name))
        return builder.object(class: builder.classRecord(className), fields: [
            "UIFontName": .uid(nameUID), "UIFontPointSize": size, "UIFontTraits": 2, "UISystemFont": false,
            "NSName": .uid(nameUID), "NSSize": size,
        ])
    }

    /// An attributed string "hi" whose one run has `attributes` (name → UID).
    static func attributed(_ attributes: (inout KeyedArchiveBuilder) -> [(String, UInt32)]) -> [UInt8] {
        HandBuilt.root { builder in
            let entries = attributes(&builder)
            let keys = entries.map { builder.add(.string($0.0)) }
            let dictionary = builder.dictionary(keys: keys, values: entries.map(\.1))
            let text = builder.add(.string("hi"))
            return builder.object(class: builder.classRecord("NSAttributedString"), fields: ["NSString": .uid(text), "NSAttributes": .uid(dictionary)])
        }
    }

    static let styled = attributed { builder in
        let style = builder.object(class: builder.classRecord("NSMutableParagraphStyle", chain: ["NSMutableParagraphStyle", "NSParagraphStyle", "NSObject"]),
                                   fields: ["NSAlignment": 2, "NSLineSpacing": .real(4.5), "NSFirstLineHeadIndent": 10])
        return [("NSFont", font(&builder)), ("NSParagraphStyle", style)]
    }

    /// UIKit's `UISystemFont`, which ArchiveGate does not read, is shown under `$unread`.
    @Test func fontsAndParagraphStylesRenderTheirFields() throws {
        #expect(try Inspect.json(Self.styled, policy: Self.uikit) == #"""
            {"root":[{"text":"hi","attributes":{"NSFont":{"$unread":{"UISystemFont":false},"$value":{"name":"Helvetica-Bold","size":12.5,"flags":null}},"NSParagraphStyle":{"alignment":2,"lineBreakMode":0,"writingDirection":0,"lineSpacing":4.5,"paragraphSpacing":0,"paragraphSpacingBefore":0,"headIndent":0,"firstLineHeadIndent":10,"tailIndent":0,"minimumLineHeight":0,"maximumLineHeight":0,"lineHeightMultiple":0,"tabStops":null,"allowsDefaultTighteningForTruncation":null,"tighteningFactorForTruncation":null}}}]}
            """#)
    }

    /// AppKit's NSFont: name, size and its `NSfFlags` (shown, not dropped).
    @Test func anAppKitFontShowsNameSizeAndFlags() throws {
        let bytes = HandBuilt.root { builder in
            let name = builder.add(.string("Menlo-Regular"))
            return builder.object(class: builder.classRecord("NSFont"), fields: ["NSName": .uid(name), "NSSize": 11, "NSfFlags": 16])
        }
        #expect(try Inspect.json(bytes, policy: Self.uikit) == #"{"root":{"name":"Menlo-Regular","size":11,"flags":16}}"#)
    }

    @Test func theFoundationGroupDoesNotAdmitThem() throws {
        let report = try Inspect.report(Self.styled, policy: .foundation)
        #expect(report.violations.map { "\($0.code) \($0.path)" }
            == ["policy.class_not_allowed /root/0/attributes/NSFont", "policy.class_not_allowed /root/0/attributes/NSParagraphStyle"])
    }

    /// Sanitize keeps what UIKit's decoder reads (UIFontName, UIFontPointSize, UIFontTraits) and the
    /// checked NSName/NSSize; the unchecked UISystemFont is not written.
    @Test func sanitizeKeepsTheCheckedFontFields() throws {
        let bytes = HandBuilt.root { Self.font(&$0) }
        let output = try #require(try ArchiveSanitizer(inspector: ArchiveInspector(policy: Self.uikit)).sanitize(bytes).archive)
        let typed = try #require(try Inspect.json(output, policy: Self.uikit, mode: .typed))
        for key in ["UIFontName", "UIFontPointSize", "UIFontTraits", "NSName", "NSSize"] { #expect(typed.contains("\"\(key)\"")) }
        #expect(!typed.contains("UISystemFont"))
        #expect(try Inspect.json(output, policy: Self.uikit) == #"{"root":{"name":"Helvetica-Bold","size":12.5,"flags":null}}"#)
    }

    struct Hostile: CustomTestStringConvertible, Sendable {
        let rule: String
        let code: String
        let key: String?
        var path = "/root"
        let bytes: @Sendable () -> [UInt8]
        var testDescription: String { rule }
    }

    static let hostile: [Hostile] = [
        Hostile(rule: "a font without NSSize", code: "archive.missing_field", key: "NSSize") {
            HandBuilt.root { builder in
                builder.object(class: builder.classRecord("NSFont"), fields: ["NSName": .uid(builder.add(.string("Menlo")))])
            }
        },
        Hostile(rule: "a font size that is text", code: "archive.shape_mismatch", key: "NSSize") {
            HandBuilt.root { font(&$0, size: .string("12")) }
        },
        // The walk follows NSName and checks its class where the JSON shows it.
        Hostile(rule: "a font name that is a number", code: "policy.class_mismatch", key: nil, path: "/root/name") {
            HandBuilt.root { builder in
                builder.object(class: builder.classRecord("NSFont"), fields: ["NSName": .uid(builder.add(.integer(3))), "NSSize": 11])
            }
        },
        Hostile(rule: "a line spacing that is not a number", code: "archive.shape_mismatch", key: "NSLineSpacing") {
            HandBuilt.object("NSParagraphStyle", ["NSLineSpacing": .string("4.5")])
        },
        Hostile(rule: "an alignment that is a real", code: "archive.shape_mismatch", key: "NSAlignment") {
            HandBuilt.object("NSParagraphStyle", ["NSAlignment": .real(1.5)])
        },
    ]

    @Test(arguments: hostile)
    func hostileFieldsAreTypedViolations(_ example: Hostile) throws {
        let report = try Inspect.report(example.bytes(), policy: Self.uikit)
        let violation = try #require(report.violations.first)
        #expect(violation.code.rawValue == example.code)
        #expect(violation.key == example.key)
        #expect(violation.path == example.path)
    }
}
