// Writes the committed fuzz seeds (Fuzz/seeds) with Foundation's own NSKeyedArchiver and
// PropertyListSerialization, so the fuzzers start from archives shaped like real ones.
//
//     swiftc -O -module-name NotesKit Fuzz/generate-seeds.swift -o /tmp/generate-seeds \
//         && SWIFT_DETERMINISTIC_HASHING=1 /tmp/generate-seeds Fuzz/seeds
//
// The module name makes the custom class `NotesKit.Note`, the class the strict fuzz policy
// (Fuzz/Support/FuzzPolicies.swift) has a schema for. Only archives this program wrote are ever
// unarchived by Foundation — none is, here.
import Foundation

/// Shaped like the strict policy's `NotesKit.Note`: inline bool/integer/real, object strings, an
/// array, a dictionary, a URL, a UUID, child notes and a back reference (a cycle).
final class Note: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var title = "hello"
    var body: String? = "body text é"
    var pinned = true
    var revision = 42
    var score = 1.5
    var tags = ["a", "b"]
    var meta: [String: Any] = ["k": 1, "when": Date(timeIntervalSinceReferenceDate: 0)]
    var link: URL? = URL(string: "https://example.com/x?y=1")
    var id = UUID(uuidString: "54CD5574-E957-4499-8A09-DAB688C0B586")!
    var children: [Note] = []
    weak var parent: Note?

    override init() {}
    required init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "title")
        coder.encode(body, forKey: "body")
        coder.encode(pinned, forKey: "pinned")
        coder.encode(revision, forKey: "revision")
        coder.encode(score, forKey: "score")
        coder.encode(tags as NSArray, forKey: "tags")
        coder.encode(meta as NSDictionary, forKey: "meta")
        coder.encode(link.map { $0 as NSURL }, forKey: "link")
        coder.encode(id as NSUUID, forKey: "id")
        coder.encode(children as NSArray, forKey: "children")
        coder.encode(parent, forKey: "parent")
    }
}

let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")

func write(_ name: String, _ data: Data) {
    try! data.write(to: folder.appendingPathComponent(name))
}

func archive(_ name: String, _ root: Any, xml: Bool = false) {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.outputFormat = xml ? .xml : .binary
    archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    write(name + (xml ? ".xml" : ".bplist"), archiver.encodedData)
}

let parent = Note()
let child = Note()
child.title = "child"
child.body = nil
child.parent = parent
parent.children = [child]

for xml in [false, true] {
    archive("note", parent, xml: xml)
    archive("strings", ["x", "ünïcode", "😀", ""] as NSArray, xml: xml)
    archive("numbers", [0, -1, 255, 65_536, Int64.max, Int64.min, 3.25, true] as NSArray, xml: xml)
    archive("dictionary", ["a": "b", "n": NSNull(), "d": Data([0, 1, 2, 255])] as NSDictionary, xml: xml)
    archive("set", NSSet(array: [1, 2, 3]), xml: xml)
    archive("orderedset", NSOrderedSet(array: ["x", "y"]), xml: xml)
    archive("date", Date(timeIntervalSinceReferenceDate: 123.5) as NSDate, xml: xml)
    archive("data", Data("plist".utf8) as NSData, xml: xml)
}

// Plain property lists (not archives): every value kind, in both formats.
let plain: [String: Any] = [
    "string": "text", "unicode": "ünïcode 😀", "int": 7, "negative": -3, "big": Int64.max, "real": 0.5,
    "true": true, "false": false, "date": Date(timeIntervalSinceReferenceDate: 1e9),
    "data": Data([0xDE, 0xAD]), "array": [1, "two", [3]], "nested": ["k": ["v"]],
]
write("plain.bplist", try! PropertyListSerialization.data(fromPropertyList: plain, format: .binary, options: 0))
write("plain.xml", try! PropertyListSerialization.data(fromPropertyList: plain, format: .xml, options: 0))
