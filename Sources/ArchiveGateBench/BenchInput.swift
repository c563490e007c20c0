import ArchiveGateSeededRandom
import Foundation

/// One benchmark input: a name for `--cases`, how it is made, and the parameters its cache file is
/// keyed by (so a change of parameters regenerates it, and a rerun never does).
struct BenchInput: Sendable {
    enum Recipe: Sendable {
        /// `count` posts with bodies of about `bodyLength` characters, `authors` shared `Person`s.
        case posts(count: Int, bodyLength: Int, authors: Int, xml: Bool)
        /// A chain of `depth` `ChainNode`s, each holding the next.
        case chain(depth: Int)
        /// An `NSArray` of `count` references to one string of `length` characters.
        case sharedString(count: Int, length: Int)
        /// An `NSArray` of `count` dense `Record`s (~11 small objects each).
        case records(count: Int, xml: Bool)
        /// An `NSArray` of `count` `Attachment`s, each a string of `textLength` characters and
        /// `dataLength` bytes of data.
        case attachments(count: Int, textLength: Int, dataLength: Int)
    }

    let name: String
    let summary: String
    let recipe: Recipe

    /// Bump when the generator changes what it writes for the same parameters.
    private static let generatorVersion = 1

    /// All inputs, in table order.
    static let all: [BenchInput] = [
        BenchInput(name: "1kb", summary: "2 posts, 1 author",
                   recipe: .posts(count: 2, bodyLength: 120, authors: 1, xml: false)),
        BenchInput(name: "2mb", summary: "2,000 posts, 50 shared authors",
                   recipe: .posts(count: 2_000, bodyLength: 620, authors: 50, xml: false)),
        BenchInput(name: "50mb", summary: "50,000 posts, 500 shared authors",
                   recipe: .posts(count: 50_000, bodyLength: 620, authors: 500, xml: false)),
        BenchInput(name: "deep5000", summary: "chain of 5,000 nested custom objects",
                   recipe: .chain(depth: 5_000)),
        BenchInput(name: "shared100k", summary: "one 100-char string referenced 100,000 times",
                   recipe: .sharedString(count: 100_000, length: 100)),
        BenchInput(name: "xml2mb", summary: "the 2mb archive as XML",
                   recipe: .posts(count: 2_000, bodyLength: 620, authors: 50, xml: true)),
        BenchInput(name: "dense1mb", summary: "1,000 dense records (the dense52mb shape, small)",
                   recipe: .records(count: 1_000, xml: false)),
        BenchInput(name: "dense52mb", summary: "50,000 dense records: strings, a date, data, a URL, a UUID, tags, a nested dictionary each",
                   recipe: .records(count: 50_000, xml: false)),
        BenchInput(name: "densexml", summary: "5,000 dense records as XML",
                   recipe: .records(count: 5_000, xml: true)),
        BenchInput(name: "blobs", summary: "200 attachments: a 50,000-character string and 50,000 bytes of data each",
                   recipe: .attachments(count: 200, textLength: 50_000, dataLength: 50_000)),
    ]

    /// The inputs `--quick` measures.
    static let quickNames = ["1kb", "2mb"]

    static func named(_ name: String) -> BenchInput? {
        all.first { $0.name == name }
    }

    /// The cache file name: every parameter that changes the bytes is in it.
    var cacheFileName: String {
        let key: String
        switch recipe {
        case .posts(let count, let bodyLength, let authors, let xml):
            key = "posts-n\(count)-b\(bodyLength)-a\(authors)-\(xml ? "xml" : "bin")"
        case .chain(let depth):
            key = "chain-d\(depth)"
        case .sharedString(let count, let length):
            key = "shared-n\(count)-l\(length)"
        case .records(let count, let xml):
            key = "records-n\(count)-\(xml ? "xml" : "bin")"
        case .attachments(let count, let textLength, let dataLength):
            key = "attachments-n\(count)-t\(textLength)-d\(dataLength)"
        }
        return "\(key)-g\(Self.generatorVersion).plist"
    }
}

/// Makes inputs with Foundation's own `NSKeyedArchiver` and caches them under a directory.
struct InputCache {
    let directory: URL

    /// The input's bytes, generated on first use. Returns whether it was generated now.
    func bytes(for input: BenchInput) throws -> (bytes: [UInt8], generatedSeconds: Double?) {
        let file = directory.appendingPathComponent(input.cacheFileName)
        if let data = FileManager.default.contents(atPath: file.path) {
            return ([UInt8](data), nil)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let start = MonotonicClock.now()
        let data = try InputGenerator.archive(input.recipe)
        let seconds = MonotonicClock.seconds(since: start)
        // Write to a temporary name first so an interrupted run never leaves a truncated cache.
        let partial = file.appendingPathExtension("partial")
        try data.write(to: partial)
        guard rename(partial.path, file.path) == 0 else {
            throw BenchError.usage("cannot rename \(partial.path): errno \(errno)")
        }
        return ([UInt8](data), seconds)
    }

    /// The path of an input's cache file (children read it instead of regenerating).
    func path(for input: BenchInput) -> String {
        directory.appendingPathComponent(input.cacheFileName).path
    }
}

/// Builds the object graphs and archives them with `NSKeyedArchiver` (requiring secure coding).
enum InputGenerator {
    static func archive(_ recipe: BenchInput.Recipe) throws -> Data {
        switch recipe {
        case .posts(let count, let bodyLength, let authors, let xml):
            let root = IdentityArray(objects: posts(count: count, bodyLength: bodyLength, authors: authors))
            return try archive(root, xml: xml)
        case .chain(let depth):
            var node: ChainNode?
            for level in stride(from: depth - 1, through: 0, by: -1) {
                node = ChainNode(level: level, child: node)
            }
            return try archive(node!, xml: false)
        case .sharedString(let count, let length):
            var generator = SeededRandom(seed: 7)
            let shared = text(length: length, using: &generator) as NSString
            let root = IdentityArray(objects: Array(repeating: shared, count: count))
            return try archive(root, xml: false)
        case .records(let count, let xml):
            return try archive(IdentityArray(objects: records(count: count)), xml: xml)
        case .attachments(let count, let textLength, let dataLength):
            var generator = SeededRandom(seed: 11)
            let items = (0 ..< count).map { index in
                Attachment(name: "attachment-\(index).bin", text: text(length: textLength, using: &generator),
                           bytes: Data((0 ..< dataLength).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
            }
            return try archive(IdentityArray(objects: items), xml: false)
        }
    }

    private static func archive(_ root: NSObject, xml: Bool) throws -> Data {
        if !xml {
            return try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true)
        }
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.outputFormat = .xml
        archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// Deterministic posts: same parameters, same objects (and with deterministic hashing, the
    /// same archive bytes).
    static func posts(count: Int, bodyLength: Int, authors authorCount: Int) -> [Post] {
        var generator = SeededRandom(seed: 42)
        let people = (0 ..< authorCount).map { index in
            Person(name: "Author \(index) \(words[index % words.count].capitalized)",
                   email: "author\(index)@example.org")
        }
        let vocabulary = (0 ..< 24).map { "tag-\(words[$0])" }
        let epoch = Date(timeIntervalSinceReferenceDate: 700_000_000)
        return (0 ..< count).map { index in
            let tagCount = 1 + Int(generator.next() % 4)
            let tags = (0 ..< tagCount).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
            return Post(title: "Post \(index): \(text(length: 40, using: &generator))",
                        body: text(length: bodyLength, using: &generator),
                        likes: Int(generator.next() % 100_000),
                        score: Double(generator.next() % 1_000_000) / 1_000,
                        tags: tags,
                        author: people[Int(generator.next() % UInt64(people.count))],
                        created: epoch.addingTimeInterval(Double(index) * 3_600.5))
        }
    }

    /// Deterministic dense records (issue 18's shape): about 1,040 archive bytes in 11 objects each (~95 bytes per object).
    static func records(count: Int) -> [Record] {
        var generator = SeededRandom(seed: 18)
        let vocabulary = (0 ..< 24).map { "tag-\(words[$0])" }
        let kinds = ["draft", "published", "archived", "deleted"]
        let epoch = Date(timeIntervalSinceReferenceDate: 700_000_000)
        return (0 ..< count).map { index in
            let word = words[Int(generator.next() % UInt64(words.count))]
            var uuidBytes = [UInt8](repeating: 0, count: 16)
            for offset in stride(from: 0, to: 16, by: 8) {
                withUnsafeBytes(of: generator.next()) { uuidBytes.replaceSubrange(offset ..< offset + 8, with: $0) }
            }
            let identifier = uuidBytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
            let payload = Data((0 ..< 48).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let tagCount = 2 + Int(generator.next() % 3)
            let tags = (0 ..< tagCount).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
            let attributes = IdentityDictionary(pairs: [
                ("kind", kinds[Int(generator.next() % UInt64(kinds.count))] as NSString),
                ("note", text(length: 240, using: &generator) as NSString),
            ])
            return Record(name: "Record \(index) \(word.capitalized) \(text(length: 24, using: &generator))",
                          email: "\(word).\(index)@example.org",
                          created: epoch.addingTimeInterval(Double(index) * 61.25),
                          payload: payload,
                          homepage: URL(string: "https://example.org/records/\(index)/\(word)")!,
                          identifier: identifier, tags: tags, attributes: attributes)
        }
    }

    private static func text(length: Int, using generator: inout SeededRandom) -> String {
        var text = ""
        text.reserveCapacity(length + 16)
        while text.utf8.count < length {
            if !text.isEmpty { text += " " }
            text += words[Int(generator.next() % UInt64(words.count))]
        }
        return text
    }

    private static let words = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
        "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
        "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip",
        "commodo", "consequat", "duis", "aute", "irure", "reprehenderit", "voluptate", "velit", "esse",
    ]
}
