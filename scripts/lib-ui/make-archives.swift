// Writes the archives scripts/test-ui feeds the inspector page, with Foundation's own NSKeyedArchiver:
//
//   hostile.archive   strings, dictionary keys, a URL and a class name shaped as markup and script
//                     (`<script>`, `"><img src=x onerror=…>`, `javascript:` URLs): the page must
//                     show them as text and run none of them
//   large.archive     an array of 50,000 distinct strings (50,000+ objects): the tree must stay lazy
//   fetched.archive   a small valid archive the test has the server fetch from a loopback URL
//   note-N.archive    twelve small distinct archives, to fill more than one page of stored results
//
// Usage: make-archives <output folder>
import Foundation

/// A custom class archived under a hostile class name (`setClassName`): the demo policy rejects it,
/// and the report names it in the class table and the violation.
final class Hostile: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    func encode(with coder: NSCoder) {
        coder.encode("<img src=x onerror=alert('field')>" as NSString, forKey: "<b onmouseover=alert('key')>")
    }

    override init() {}
    required init?(coder: NSCoder) { nil }
}

let folder = URL(fileURLWithPath: CommandLine.arguments[1])

let hostile: NSDictionary = [
    "<script>alert('key')</script>": "<script>alert('value')</script>",
    "name": "\"><img src=x onerror=alert('name')>",
    "quote": "'><svg onload=alert('svg')>",
    "link": "javascript:alert('link')",
    "homepage": NSURL(string: "javascript:alert('url')")!,
    "style": "<style>body{display:none}</style>",
    "list": ["<iframe src=\"javascript:alert('frame')\"></iframe>", "</li></ul><script>alert('list')</script>"] as NSArray,
    "object": Hostile(),
]
// XML output, so the class name can be swapped for a hostile one afterwards: Linux Foundation's
// `setClassName(_:for:)` has no effect (it looks the class up under its metatype's name).
let archiver = NSKeyedArchiver(requiringSecureCoding: true)
archiver.outputFormat = .xml
archiver.encode(hostile, forKey: NSKeyedArchiveRootObjectKey)
archiver.finishEncoding()
let xml = String(decoding: archiver.encodedData, as: UTF8.self)
let hostileClass = "&quot;&gt;&lt;img src=x onerror=alert('class')&gt;"
let hostileXML = xml.replacingOccurrences(of: "<string>InspectorTest.Hostile</string>", with: "<string>\(hostileClass)</string>")
guard hostileXML != xml else { fatalError("the archive does not name InspectorTest.Hostile") }
try Data(hostileXML.utf8).write(to: folder.appendingPathComponent("hostile.archive"))

let large = NSMutableArray()
for index in 0..<50_000 { large.add("item \(index)" as NSString) }
let largeData = try NSKeyedArchiver.archivedData(withRootObject: large, requiringSecureCoding: true)
try largeData.write(to: folder.appendingPathComponent("large.archive"))
let fetched: NSDictionary = ["name": "Grace Hopper", "via": "a loopback URL"]
try NSKeyedArchiver.archivedData(withRootObject: fetched, requiringSecureCoding: true)
    .write(to: folder.appendingPathComponent("fetched.archive"))

// Twelve small distinct results, so the stored list has a second page (10 per page).
for page in 1...12 {
    let note: NSDictionary = ["note": "page test \(page)", "index": page]
    try NSKeyedArchiver.archivedData(withRootObject: note, requiringSecureCoding: true)
        .write(to: folder.appendingPathComponent("note-\(page).archive"))
}
print("wrote hostile.archive (\(hostileXML.utf8.count) bytes), large.archive (\(largeData.count) bytes)")

// Data for the hex view, a nested keyed archive (opened in place with `?nested=true`) and a date.
let inner: NSDictionary = ["inner": "nested value"]
let innerData = try NSKeyedArchiver.archivedData(withRootObject: inner, requiringSecureCoding: true)
let withData: NSDictionary = [
    "blob": Data([0x00, 0x01, 0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0xFF]) as NSData,
    "archive": innerData as NSData,
]
try NSKeyedArchiver.archivedData(withRootObject: withData, requiringSecureCoding: true)
    .write(to: folder.appendingPathComponent("data.archive"))

// docs/INSPECTOR.md's walkthrough: 10,000 objects and one predicate among them. Linux Foundation
// cannot archive an NSPredicate, so a stand-in class is archived and renamed in the XML (as above).
final class Needle: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    func encode(with coder: NSCoder) {
        coder.encode("subject CONTAINS[c] 'invoice'" as NSString, forKey: "NSPredicateFormat")
    }
    override init() {}
    required init?(coder: NSCoder) { nil }
}

let haystack = NSMutableArray()
for index in 0..<3_330 {
    haystack.add(["id": index as NSNumber, "subject": "message \(index)" as NSString, "read": (index % 3 == 0) as NSNumber] as NSDictionary)
}
haystack.insert(["id": 1_234_567 as NSNumber, "subject": "rule" as NSString, "filter": Needle()] as NSDictionary, at: 2_718)
let haystackArchiver = NSKeyedArchiver(requiringSecureCoding: true)
haystackArchiver.outputFormat = .xml
haystackArchiver.encode(haystack, forKey: NSKeyedArchiveRootObjectKey)
haystackArchiver.finishEncoding()
let haystackXML = String(decoding: haystackArchiver.encodedData, as: UTF8.self)
let predicateXML = haystackXML.replacingOccurrences(of: "<string>InspectorTest.Needle</string>", with: "<string>NSPredicate</string>")
guard predicateXML != haystackXML else { fatalError("the archive does not name InspectorTest.Needle") }
try Data(predicateXML.utf8).write(to: folder.appendingPathComponent("predicate.archive"))
