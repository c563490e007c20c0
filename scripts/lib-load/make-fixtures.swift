// Writes the archives scripts/load and scripts/robustness send (config/load/archives/*.archive),
// with Foundation's own NSKeyedArchiver, from custom NSSecureCoding classes. Run by
// scripts/lib-load/make-fixtures (compiled with -module-name LoadFixture, so the archives say
// `LoadFixture.Notebook`, `LoadFixture.Note`, `LoadFixture.Person`, as any Linux client's would).
// The output is committed; regenerate only when the shapes change. SWIFT_DETERMINISTIC_HASHING=1
// keeps it byte-stable.
//
//   notebook-1k.archive    a notebook with 2 notes (~1 KB)
//   notebook-200k.archive  a notebook with 600 notes (~200 KB)
//   notebook-5m.archive    a notebook with 12,900 notes (~5 MB): not committed; scripts/load makes it
//                          on first use in .build-load-fixtures/ (`make-fixtures DIR notebook-5m`)
import Foundation

/// An NSArray hashed by identity, archived as NSArray: corelibs' archiver looks written objects up
/// by hash/isEqual and NSArray's hash is its count, so many equal-sized arrays would be quadratic
/// (and merged). See Sources/ArchiveGateBench/SampleModel.swift.
final class IdentityArray: NSArray {
    private let storage: [AnyObject]
    init(objects: [AnyObject]) { storage = objects; super.init() }
    required init(objects: UnsafePointer<AnyObject>?, count: Int) {
        storage = count == 0 ? [] : Array(UnsafeBufferPointer(start: objects, count: count))
        super.init()
    }
    required init?(coder: NSCoder) { nil }
    required convenience init(arrayLiteral elements: Any...) { self.init(objects: elements.map { $0 as AnyObject }) }
    override var count: Int { storage.count }
    override func object(at index: Int) -> Any { storage[index] }
    override var hash: Int { ObjectIdentifier(self).hashValue }
    override func isEqual(_ object: Any?) -> Bool { (object as AnyObject?) === self }
    override var classForKeyedArchiver: AnyClass? { NSArray.self }
}

final class Person: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String, email: String
    init(name: String, email: String) { self.name = name; self.email = email }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(email as NSString, forKey: "email")
    }
    required init?(coder: NSCoder) { nil }
}

final class Note: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let title: String, body: String, revision: Int, pinned: Bool, created: Date
    let tags: IdentityArray, author: Person
    init(index: Int, author: Person, bodyLength: Int) {
        title = "Note \(index)"
        let words = ["archive", "keyed", "policy", "tenant", "secure", "coding", "value", "graph"]
        var text = ""
        var word = index
        while text.utf8.count < bodyLength {
            text += words[Int(UInt(bitPattern: word) % UInt(words.count))] + " "
            word = word &* 31 &+ 7
        }
        body = text
        revision = index * 3
        pinned = index % 5 == 0
        created = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        tags = IdentityArray(objects: ["tag\(index % 7)" as NSString, "load" as NSString])
        self.author = author
    }
    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(body as NSString, forKey: "body")
        coder.encode(revision, forKey: "revision")
        coder.encode(pinned, forKey: "pinned")
        coder.encode(created as NSDate, forKey: "created")
        coder.encode(tags, forKey: "tags")
        coder.encode(author, forKey: "author")
    }
    required init?(coder: NSCoder) { nil }
}

final class Notebook: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String, owner: Person, notes: IdentityArray
    init(notes count: Int, bodyLength: Int) {
        name = "Load test notebook"
        let owner = Person(name: "Ada Load", email: "ada@example.com")
        self.owner = owner
        notes = IdentityArray(objects: (0..<count).map { Note(index: $0, author: owner, bodyLength: bodyLength) })
    }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(owner, forKey: "owner")
        coder.encode(notes, forKey: "notes")
    }
    required init?(coder: NSCoder) { nil }
}

let directory = CommandLine.arguments.dropFirst().first ?? "config/load/archives"
let shapes = [("notebook-1k", 2, 40), ("notebook-200k", 600, 220), ("notebook-5m", 12_900, 220)]
// Without names: the committed ones.
let wanted = CommandLine.arguments.count > 2 ? Array(CommandLine.arguments.dropFirst(2)) : ["notebook-1k", "notebook-200k"]
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
for (name, notes, bodyLength) in shapes where wanted.contains(name) {
    let data = try NSKeyedArchiver.archivedData(withRootObject: Notebook(notes: notes, bodyLength: bodyLength),
                                                requiringSecureCoding: true)
    try data.write(to: URL(fileURLWithPath: "\(directory)/\(name).archive"))
    print("\(directory)/\(name).archive: \(data.count) bytes; classes:",
          NSStringFromClass(Notebook.self), NSStringFromClass(Note.self), NSStringFromClass(Person.self))
}
