import Foundation
import Testing
@testable import ArchiveGateCore

/// Sanitize writes a Foundation object with only the fields its shape decodes, and refuses a plist
/// set (issue 19): what no check looked at does not reach the app behind the gate.
@Suite struct SanitizeFieldFilterTests {
    /// One archive holding the Foundation shapes corelibs writes and decodes again, by its own
    /// NSKeyedArchiver (corelibs crashes decoding its own NSAttributedString, and refuses its own
    /// NSPersonNameComponents with absent parts: both are known corelibs bugs, see the oracle).
    static func foundationArchive() throws -> [UInt8] {
        let url = NSURL(string: "sub/page", relativeTo: URL(string: "https://example.com/base/"))!
        let indexes = NSMutableIndexSet(index: 1)
        indexes.add(9)
        let root: NSDictionary = [
            "date": NSDate(timeIntervalSinceReferenceDate: 5),
            "string": NSMutableString(string: "mutable"),
            "data": NSMutableData(bytes: [1, 2, 3], length: 3),
            "array": ["a", "b"] as NSArray,
            "set": NSSet(array: ["c"]),
            "ordered": NSOrderedSet(array: ["d", "e"]),
            "null": NSNull(),
            "url": url,
            "uuid": NSUUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!,
            "range": NSValue(range: NSRange(location: 1, length: 2)),
            "point": NSValue(point: NSPoint(x: 1, y: 2)),
            "oneRange": NSIndexSet(indexesIn: NSRange(location: 1, length: 3)),
            "twoRanges": indexes,
            "locale": NSLocale(localeIdentifier: "fr_FR"),
            "zone": NSTimeZone(name: "Europe/Paris")!,
            "interval": NSDateInterval(start: Date(timeIntervalSinceReferenceDate: 0), duration: 10),
        ]
        return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
    }

    /// `bytes` with `NS.extra` added to every instance: an inline string on odd UIDs, a reference to a
    /// new string object on even ones (a subtree no check follows). Not to corelibs' NSOrderedSet,
    /// whose collection check already refuses any field besides its consecutive `NS.object.N`.
    static func withExtraFields(_ bytes: [UInt8]) throws -> [UInt8] {
        let typed = try #require(try WriteSamples.typed(bytes))
        var document = try #require(try JSONSerialization.jsonObject(with: Data(typed)) as? [String: Any])
        var objects = try #require(document["$objects"] as? [Any])
        let hidden = objects.count
        objects.append("hidden payload")
        for (uid, object) in objects.enumerated() {
            guard var fields = object as? [String: Any], fields["$class"] != nil, fields["NS.object.0"] == nil else { continue }
            fields["NS.extra"] = uid.isMultiple(of: 2) ? ["$uid": hidden] : "inline extra"
            objects[uid] = fields
        }
        document["$objects"] = objects
        let json = try JSONSerialization.data(withJSONObject: document)
        return try ArchiveEncoder().encode(Array(json))
    }

    @Test func extraFieldsOnFoundationObjectsAreNotWritten() throws {
        let original = try Self.foundationArchive()
        let tampered = try Self.withExtraFields(original)
        let tamperedTyped = String(decoding: try #require(try WriteSamples.typed(tampered)), as: UTF8.self)
        #expect(tamperedTyped.contains("NS.extra") && tamperedTyped.contains("hidden payload"), "the tampering must be there to remove")

        let sanitizer = ArchiveSanitizer(inspector: ArchiveInspector(policy: .foundation))
        let result = try sanitizer.sanitize(tampered)
        #expect(result.report.valid, "\(result.report.violations)")
        let output = try #require(result.archive)
        let typed = String(decoding: try #require(try WriteSamples.typed(output)), as: UTF8.self)
        #expect(!typed.contains("NS.extra"))
        #expect(try Self.unkeptFields(tampered).count > 10, "the check sees the extra fields")
        #expect(try Self.unkeptFields(output).isEmpty)
        #expect(!typed.contains("hidden payload"))
        // Exactly the fields Foundation wrote: the untampered archive sanitizes to the same objects
        // with the same field names (UIDs may differ: the tampering reordered fields).
        let clean = try #require(try sanitizer.sanitize(original).archive)
        #expect(try Self.fieldNames(clean) == Self.fieldNames(output))
        #expect(try sanitizer.sanitize(output).archive == output, "idempotent")
        let again = try ArchiveInspector(policy: .foundation).validate(output)
        #expect(again.valid && again.violations.isEmpty, "\(again.violations)")
        #expect(try Inspect.json(output, policy: .foundation) == Inspect.json(original, policy: .foundation))
        // corelibs' NSKeyedUnarchiver decodes the graph Foundation archived.
        #expect(WriteSamples.sameGraph(try WriteSamples.foundationGraph(output), try WriteSamples.foundationGraph(original)))
    }

    /// `Class.key` for every field of a Foundation object in `bytes` that its shape does not decode.
    static func unkeptFields(_ bytes: [UInt8]) throws -> [String] {
        try ArchiveInspector(policy: .inspection).decode(bytes).fieldsOutsideTheirShapes()
    }

    /// Each instance's sorted field names, sorted: the objects' layout without their UIDs.
    static func fieldNames(_ bytes: [UInt8]) throws -> [[String]] {
        let typed = try #require(try WriteSamples.typed(bytes))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(typed)) as? [String: Any])
        let objects = try #require(document["$objects"] as? [Any])
        return objects.compactMap { ($0 as? [String: Any]).map { $0.keys.sorted() } }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func theKeptFieldsAreWhatFoundationWrites() {
        #expect(FoundationShape.date.keepsField("NS.time"))
        #expect(!FoundationShape.date.keepsField("NS.extra"))
        #expect(FoundationShape.string.keepsField("NS.string") && FoundationShape.string.keepsField("NS.bytes"))
        #expect(FoundationShape.orderedSet.keepsField("NS.object.12") && !FoundationShape.orderedSet.keepsField("NS.object.x"))
        #expect(!FoundationShape.array.keepsField("NS.object.0"), "only NSOrderedSet reads NS.object.N")
        #expect(FoundationShape.indexSet.keepsField("NSLocation") && FoundationShape.indexSet.keepsField("NSRangeData"))
        #expect(FoundationShape.value.keepsField("NS.special") && !FoundationShape.value.keepsField("$0"))
        #expect(FoundationShape.value.keepsField("$0", objCTypedValue: true) && !FoundationShape.value.keepsField("NS.special", objCTypedValue: true))
        #expect(!FoundationShape.decimalNumber.keepsField("NS.mantissa.bo"), "a byte order ArchiveGate does not read")
        // Apple's layout: the parts in a checked `_NSPersonNameComponentsData`, kept by sanitize.
        #expect(FoundationShape.personNameComponents.keepsField("NS.nameComponentsPrivate"))
    }

    /// A custom object whose field is a plist set, written by hand: `encode` refuses typed JSON's
    /// `$set` in a field (EncodeErrorTests), as decoding does.
    static func noteWithSet(referencingTitle: Bool) -> [UInt8] {
        HandBuilt.root { builder in
            let title = builder.add("hello")
            let members: [PropertyListValue] = referencingTitle ? [.uid(title)] : [1, 2]
            return builder.object(class: builder.classRecord("Note"), fields: ["title": .uid(title), "tags": .set(members)])
        }
    }

    /// NSKeyedArchiver never writes a plist set and corelibs' unarchiver segfaults on one, so the
    /// archive is refused whole (its decoding fails), under `reject` and `redact` alike: sanitize
    /// never gets to write it.
    @Test(arguments: [true, false])
    func aPlistSetIsRefusedWithItsPointer(_ referencingTitle: Bool) throws {
        let bytes = Self.noteWithSet(referencingTitle: referencingTitle)
        for policy in [Inspect.policy(#"{"allow": ["foundation", "Note"]}"#),
                       Inspect.policy(#"{"allow": ["foundation", "Note"], "onViolation": "redact"}"#)] {
            #expect(throws: ArchiveGateError.archive(ArchiveError(.invalidFieldValue, path: "", ""))) {
                try ArchiveSanitizer(inspector: ArchiveInspector(policy: policy)).sanitize(bytes)
            }
            do {
                _ = try ArchiveSanitizer(inspector: ArchiveInspector(policy: policy)).sanitize(bytes)
            } catch {
                #expect(error.location.hasSuffix("/tags"), "\(error)")
                #expect(error.message.contains("plist set"))
            }
        }
    }
}
