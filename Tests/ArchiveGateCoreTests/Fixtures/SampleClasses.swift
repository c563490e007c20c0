import Foundation

// Custom NSSecureCoding classes for fixtures. Foundation on Linux archives them under their
// module-qualified names (`ArchiveGateCoreTests.SamplePost`); `setClassName` is not honoured.
// The `init?(coder:)`s exist because NSCoding demands them; the tests never unarchive with
// Foundation (its unarchiver is not safe on untrusted input on Linux).

/// A post: an object title (UID to an inline string), an inline integer, an optional key that is
/// only written when present, an array, and an optional author written as nil when absent.
class SamplePost: NSObject, NSSecureCoding {
    class var supportsSecureCoding: Bool { true }

    var title: String
    var likes: Int
    var subtitle: String?
    var tags: [String]
    var author: SampleAuthor?

    init(title: String, likes: Int, subtitle: String? = nil, tags: [String] = [], author: SampleAuthor? = nil) {
        self.title = title
        self.likes = likes
        self.subtitle = subtitle
        self.tags = tags
        self.author = author
    }

    required init?(coder: NSCoder) {
        guard let title = coder.decodeObject(of: NSString.self, forKey: "title") as String? else { return nil }
        self.title = title
        likes = coder.decodeInteger(forKey: "likes")
        subtitle = coder.decodeObject(of: NSString.self, forKey: "subtitle") as String?
        tags = []
        author = coder.decodeObject(of: SampleAuthor.self, forKey: "author")
    }

    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "title")
        coder.encode(likes, forKey: "likes")
        if let subtitle { coder.encode(subtitle, forKey: "subtitle") }
        coder.encode(tags as NSArray, forKey: "tags")
        coder.encode(author, forKey: "author")
    }
}

/// A subclass: its archive claims `[SampleImagePost, SamplePost, NSObject]` in `$classes`.
final class SampleImagePost: SamplePost {
    override class var supportsSecureCoding: Bool { true }

    var image: Data
    var width: Double

    init(title: String, likes: Int, image: Data, width: Double) {
        self.image = image
        self.width = width
        super.init(title: title, likes: likes)
    }

    required init?(coder: NSCoder) {
        image = coder.decodeObject(of: NSData.self, forKey: "image") as Data? ?? Data()
        width = coder.decodeDouble(forKey: "width")
        super.init(coder: coder)
    }

    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(image, forKey: "image")
        coder.encode(width, forKey: "width")
    }
}

final class SampleAuthor: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    var name: String

    init(name: String) { self.name = name }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String? else { return nil }
        self.name = name
    }

    func encode(with coder: NSCoder) { coder.encode(name, forKey: "name") }
}

/// A tree node whose children point back at their parent: parent↔child cycles.
final class SampleNode: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    var name: String
    var parent: SampleNode?
    var children: [SampleNode] = []

    init(name: String) { self.name = name }

    required init?(coder: NSCoder) { nil }

    /// Appends `child` and points it back at this node.
    @discardableResult
    func adopt(_ child: SampleNode) -> SampleNode {
        child.parent = self
        children.append(child)
        return child
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(parent, forKey: "parent")
        coder.encode(children as NSArray, forKey: "children")
    }
}

/// Two keys that may hold the same object, for sharing and per-site policy checks.
final class SamplePair: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    var first: Any?
    var second: Any?

    init(first: Any?, second: Any?) {
        self.first = first
        self.second = second
    }

    required init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        coder.encode(first, forKey: "first")
        coder.encode(second, forKey: "second")
    }
}

/// Whatever `value` holds under the key `value`; scalars go inline with the typed encoders.
final class SampleBox: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    enum Content {
        /// `encode(_: Any?, forKey:)`: a UID to the object (inline strings, numbers, data included).
        case object(Any?)
        /// `encode(_: Int, forKey:)`: an inline integer in the object's dictionary.
        case integer(Int)
        /// `encode(_: Double, forKey:)`: an inline real.
        case real(Double)
        /// `encode(_: Bool, forKey:)`: an inline boolean.
        case bool(Bool)
    }

    var content: Content
    /// Extra keys written after `value`, each as an object.
    var extras: [(String, Any)]

    init(_ content: Content, extras: [(String, Any)] = []) {
        self.content = content
        self.extras = extras
    }

    required init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        switch content {
        case .object(let object): coder.encode(object, forKey: "value")
        case .integer(let integer): coder.encode(integer, forKey: "value")
        case .real(let real): coder.encode(real, forKey: "value")
        case .bool(let bool): coder.encode(bool, forKey: "value")
        }
        for (key, object) in extras { coder.encode(object, forKey: key) }
    }
}
