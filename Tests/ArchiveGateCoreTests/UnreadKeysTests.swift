import Foundation
import Testing
@testable import ArchiveGateCore

/// Fields a Foundation class's definition does not read are shown, never dropped: plain JSON writes
/// the object as `{"$unread": {…}, "$value": <natural form>}` (docs/FOUNDATION-LAYOUTS.md "Nothing
/// dropped silently"). Foundation ignores them, so the verdict does not change.
@Suite struct UnreadKeysTests {
    static func plain(_ bytes: [UInt8], policy: Policy = .foundation) throws -> (json: String, valid: Bool) {
        let result = try ArchiveInspector(policy: policy).convert(bytes, mode: .plain)
        return (String(decoding: try #require(result.json), as: UTF8.self), result.report.valid)
    }

    static func date(_ builder: inout KeyedArchiveBuilder, extra: KeyValuePairs<String, PropertyListValue>) -> UInt32 {
        var entries = [PropertyListValue.Entry(key: "NS.time", value: .real(709479508.623529))]
        entries += extra.map { PropertyListValue.Entry(key: $0.key, value: $0.value) }
        return builder.object(class: builder.classRecord("NSDate"), entries: entries)
    }

    @Test func aValueKeepsItsNaturalFormUnderValueAndShowsTheUnreadFields() throws {
        var builder = KeyedArchiveBuilder()
        let note = builder.add("seen")
        let date = Self.date(&builder, extra: ["NS.note": .uid(note), "NS.count": 3, "NS.list": .array([.integer(1), .string("x")])])
        builder.setTop("root", date)
        let (json, valid) = try Self.plain(builder.binary())
        #expect(json == #"{"root":{"$unread":{"NS.note":"seen","NS.count":3,"NS.list":[1,"x"]},"$value":"2023-06-26T13:38:28.623529Z"}}"#)
        #expect(valid, "Foundation ignores the fields: the verdict does not change")
    }

    @Test func anArchiveWithoutUnreadFieldsRendersAsBefore() throws {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", Self.date(&builder, extra: [:]))
        #expect(try Self.plain(builder.binary()).json == #"{"root":"2023-06-26T13:38:28.623529Z"}"#)
    }

    /// What an unread field refers to is not walked (Foundation never decodes it), so it is shown
    /// as `{"$uid": n}`, whatever its class; the policy's class list does not apply to it.
    @Test func aReferenceToAnObjectIsShownAsItsUID() throws {
        var builder = KeyedArchiveBuilder()
        let payload = builder.object(class: builder.classRecord("Sneaky.Payload"), fields: ["command": .uid(builder.add("rm"))])
        let text = builder.add("a")
        let array = builder.object(class: builder.classRecord("NSArray"),
                                   fields: ["NS.objects": .array([.uid(text)]), "NS.hidden": .uid(payload)])
        builder.setTop("root", array)
        let (json, valid) = try Self.plain(builder.binary())
        #expect(json == #"{"root":{"$unread":{"NS.hidden":{"$uid":\#(payload)}},"$value":["a"]}}"#)
        #expect(valid)
        let typed = String(decoding: try #require(try ArchiveInspector(policy: .foundation).convert(builder.binary(), mode: .typed).json), as: UTF8.self)
        #expect(typed.contains(#""NS.hidden":{"$uid":\#(payload)}"#) && typed.contains(#""command""#), "typed mode keeps every field")
    }

    /// A shared container written with its unread fields: later sites point at its `$value`, and
    /// so does a cycle back to it through a custom object.
    @Test func referencesAndCyclesPointIntoValue() throws {
        var builder = KeyedArchiveBuilder()
        let array = builder.reserve()
        let node = builder.object(class: builder.classRecord("Node"), fields: ["parent": .uid(array)])
        let arrayClass = builder.classRecord("NSArray")
        builder.set(array, to: .dictionary([.init(key: "$class", value: .uid(arrayClass)),
                                            .init(key: "NS.objects", value: .array([.uid(node)])),
                                            .init(key: "NS.extra", value: .integer(7))]))
        builder.setTop("root", builder.array(of: [array, array]))
        let (json, _) = try Self.plain(builder.binary(), policy: .inspection)
        #expect(json == #"{"root":[{"$unread":{"NS.extra":7},"$value":[{"$class":"Node","parent":{"$ref":"/root/0/$value"}}]},{"$ref":"/root/0/$value"}]}"#)
    }

    @Test func theUnreadFieldsCountAgainstTheOutputBudget() throws {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", Self.date(&builder, extra: ["NS.list": .array((0 ..< 50).map { .integer(Int128($0)) })]))
        var policy = Policy.foundation
        policy.limits.maxOutputNodes = 20
        #expect { try Self.plain(builder.binary(), policy: policy) } throws: { error in
            (error as? ArchiveGateError)?.code.rawValue == "archive.output_limit_exceeded"
        }
    }
}
