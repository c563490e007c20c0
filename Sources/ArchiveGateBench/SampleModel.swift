import Foundation

// The custom `NSSecureCoding` classes the benchmark archives. Foundation on Linux writes their
// `$classname` module-qualified (`ArchiveGateBench.Post`); `SampleModel.className(of:)` gives the
// exact spelling the strict policy must name.

/// A blog post: two long strings, inline numbers, a tag list of shared strings, a shared author
/// and a date — the mix real archives carry.
final class Post: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let title: String
    let body: String
    let likes: Int
    let score: Double
    let tags: IdentityArray
    let author: Person
    let created: Date

    init(title: String, body: String, likes: Int, score: Double, tags: [String], author: Person, created: Date) {
        self.title = title
        self.body = body
        self.likes = likes
        self.score = score
        self.tags = IdentityArray(strings: tags)
        self.author = author
        self.created = created
    }

    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(body as NSString, forKey: "body")
        coder.encode(likes, forKey: "likes")
        coder.encode(score, forKey: "score")
        coder.encode(tags, forKey: "tags")
        coder.encode(author, forKey: "author")
        coder.encode(created as NSDate, forKey: "created")
    }

    required init?(coder: NSCoder) {
        guard let title = coder.decodeObject(of: NSString.self, forKey: "title"),
              let body = coder.decodeObject(of: NSString.self, forKey: "body"),
              let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? NSArray,
              let author = coder.decodeObject(of: Person.self, forKey: "author"),
              let created = coder.decodeObject(of: NSDate.self, forKey: "created") else { return nil }
        self.title = title as String
        self.body = body as String
        self.likes = coder.decodeInteger(forKey: "likes")
        self.score = coder.decodeDouble(forKey: "score")
        self.tags = IdentityArray(strings: tags.compactMap { $0 as? String })
        self.author = author
        self.created = created as Date
    }
}

/// A post's author, shared by many posts (one object in the archive, many UID edges to it).
final class Person: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let email: String

    init(name: String, email: String) {
        self.name = name
        self.email = email
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(email as NSString, forKey: "email")
    }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
              let email = coder.decodeObject(of: NSString.self, forKey: "email") else { return nil }
        self.name = name as String
        self.email = email as String
    }
}

/// One link of the deep chain: `child` is the next node, absent on the last.
final class ChainNode: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let level: Int
    let child: ChainNode?

    init(level: Int, child: ChainNode?) {
        self.level = level
        self.child = child
    }

    func encode(with coder: NSCoder) {
        coder.encode(level, forKey: "level")
        if let child { coder.encode(child, forKey: "child") }
    }

    required init?(coder: NSCoder) {
        level = coder.decodeInteger(forKey: "level")
        // corelibs reports a missing key as an error under secure coding; the last node has none.
        child = coder.containsValue(forKey: "child") ? coder.decodeObject(of: ChainNode.self, forKey: "child") : nil
    }
}

/// An `NSArray` hashed and compared by identity, archived as a plain `NSArray`.
///
/// corelibs' archiver finds already-written objects by `hash`/`isEqual`, and `NSArray.hash` is its
/// count: every equal-sized array collides, so archiving thousands of them is quadratic (and equal
/// arrays get merged). Identity hashing keeps it linear; `classForKeyedArchiver` keeps the
/// `$classname` `NSArray`, so the archive is byte-for-byte what a client's plain arrays produce.
final class IdentityArray: NSArray {
    private let storage: [AnyObject]

    init(objects: [AnyObject]) {
        storage = objects
        super.init()
    }

    convenience init(strings: [String]) {
        self.init(objects: strings.map { $0 as NSString })
    }

    required init(objects: UnsafePointer<AnyObject>?, count: Int) {
        storage = count == 0 ? [] : Array(UnsafeBufferPointer(start: objects, count: count))
        super.init()
    }

    required init?(coder: NSCoder) {
        nil
    }

    required convenience init(arrayLiteral elements: Any...) {
        self.init(objects: elements.map { $0 as AnyObject })
    }

    override var count: Int { storage.count }

    override func object(at index: Int) -> Any { storage[index] }

    override var hash: Int { ObjectIdentifier(self).hashValue }

    override func isEqual(_ object: Any?) -> Bool {
        (object as AnyObject?) === self
    }

    override var classForKeyedArchiver: AnyClass? { NSArray.self }
}

enum SampleModel {
    /// The `$classname` Foundation writes for `type` on this platform.
    static func className(of type: AnyClass) -> String {
        NSStringFromClass(type)
    }

    /// Classes handed to `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)`.
    static let foundationClasses: [AnyClass] = [
        NSArray.self, NSString.self, NSDate.self, NSNumber.self, Post.self, Person.self, ChainNode.self,
        NSDictionary.self, NSData.self, NSURL.self, NSUUID.self, Record.self, Attachment.self,
    ]
}
