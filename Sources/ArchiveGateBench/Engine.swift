import ArchiveGateCore
import Foundation

/// What is measured on an input: one of ours, or Foundation's unarchiver plus JSON.
enum Engine: String, CaseIterable, Codable, Sendable {
    /// `ArchiveInspector.validate` under the strict policy: decode, structure, policy. No JSON.
    case validate
    /// `convert(mode: .plain)`: validate, then the plain JSON.
    case plain
    /// `convert(mode: .typed)`: validate, then the lossless typed JSON.
    case typed
    /// `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)`, the decoded graph turned into
    /// JSON-compatible values, then `JSONSerialization.data(withJSONObject:)`.
    case foundation

    var title: String {
        switch self {
        case .validate: "ours validate"
        case .plain: "ours validate+plain"
        case .typed: "ours typed"
        case .foundation: "Foundation"
        }
    }

    /// A measurable closure over the input file's bytes, returning the bytes of JSON produced (0
    /// for validate). Everything done here (reading the file, policy compilation) is outside the
    /// timed region. The input is held once, in the form each engine takes (`[UInt8]` for ours,
    /// `Data` for Foundation), so the child's peak memory is the engine's, plus one copy of the input.
    func prepare(inputFile: String) throws -> () throws -> Int {
        switch self {
        case .validate, .plain, .typed:
            let bytes = try InputFile.read(inputFile)
            let inspector = ArchiveInspector(policy: try StrictPolicy.make())
            return { try self.runOurs(inspector, bytes) }
        case .foundation:
            guard let data = FileManager.default.contents(atPath: inputFile) else {
                throw BenchError.usage("cannot read \(inputFile)")
            }
            return { try FoundationPeer.decodeToJSON(data).count }
        }
    }

    private func runOurs(_ inspector: ArchiveInspector, _ bytes: [UInt8]) throws -> Int {
        switch self {
        case .validate:
            let report = try inspector.validate(bytes)
            guard report.valid else { throw BenchError.rejected(report.violations.first?.message ?? "invalid") }
            return 0
        case .plain, .typed:
            let inspection = try inspector.convert(bytes, mode: self == .plain ? .plain : .typed)
            guard inspection.report.valid, let json = inspection.json else {
                throw BenchError.rejected(inspection.report.violations.first?.message ?? "invalid")
            }
            return json.count
        case .foundation:
            preconditionFailure("not one of ours")
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case rejected(String)
    case usage(String)
    case foundation(String)

    var description: String {
        switch self {
        case .rejected(let reason): "rejected by the strict policy: \(reason)"
        case .usage(let message): message
        case .foundation(let message): message
        }
    }
}

/// The strict policy ours runs under: exactly the classes the inputs use, every key of the
/// custom classes typed, unknown keys rejected. Depth is raised so the 5,000-deep chain is
/// decoded rather than refused at the default 512.
enum StrictPolicy {
    static func document() -> String {
        let post = SampleModel.className(of: Post.self)
        let person = SampleModel.className(of: Person.self)
        let node = SampleModel.className(of: ChainNode.self)
        let record = SampleModel.className(of: Record.self)
        let attachment = SampleModel.className(of: Attachment.self)
        return """
        {
          "name": "bench-strict",
          "description": "Only the benchmark's classes; every key of every custom class typed.",
          "root": ["NSArray", "\(node)"],
          "allow": ["NSArray", "NSString", "NSDate", "NSData", "NSURL", "NSUUID", "NSDictionary", "NSNumber",
                    "\(post)", "\(person)", "\(node)", "\(record)", "\(attachment)"],
          "classes": {
            "\(post)": {
              "keys": {
                "title": "NSString", "body": "NSString", "likes": "integer", "score": "real",
                "tags": {"classes": ["NSArray"], "elements": ["NSString"]},
                "author": "\(person)", "created": "NSDate"
              },
              "required": ["title", "body", "likes", "score", "tags", "author", "created"],
              "unknownKeys": "reject"
            },
            "\(person)": {
              "keys": {"name": "NSString", "email": "NSString"},
              "required": ["name", "email"],
              "unknownKeys": "reject"
            },
            "\(node)": {
              "keys": {"level": "integer", "child": "\(node)"},
              "required": ["level"],
              "unknownKeys": "reject"
            },
            "\(record)": {
              "keys": {
                "name": "NSString", "email": "NSString", "created": "NSDate", "payload": "NSData",
                "homepage": "NSURL", "id": "NSUUID",
                "tags": {"classes": ["NSArray"], "elements": ["NSString"]},
                "attributes": {"classes": ["NSDictionary"], "elements": ["NSString"], "dictionaryKeys": ["NSString"]}
              },
              "required": ["name", "email", "created", "payload", "homepage", "id", "tags", "attributes"],
              "unknownKeys": "reject"
            },
            "\(attachment)": {
              "keys": {"name": "NSString", "text": "NSString", "bytes": "NSData"},
              "required": ["name", "text", "bytes"],
              "unknownKeys": "reject"
            }
          },
          "onViolation": "reject",
          "limits": {"maxDepth": 10000, "maxInputBytes": 134217728}
        }
        """
    }

    static func make() throws -> Policy {
        try Policy.load(json: Array(document().utf8), name: "bench-strict")
    }
}

/// Reads a file straight into one `[UInt8]` (no intermediate `Data`).
enum InputFile {
    static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError.usage("cannot read \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw BenchError.usage("cannot stat \(path)") }
        let size = Int(status.st_size)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while initialized < size {
                let count = Foundation.read(descriptor, buffer.baseAddress! + initialized, size - initialized)
                if count <= 0 { break }
                initialized += count
            }
        }
        guard bytes.count == size else { throw BenchError.usage("short read from \(path)") }
        return bytes
    }
}
