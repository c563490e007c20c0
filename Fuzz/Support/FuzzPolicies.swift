import ArchiveGateCore

/// The policies and limits the fuzz targets run under. The limits are small so that a slow or
/// memory-hungry input is a bug at the fuzzer's `-timeout=2` / `-malloc_limit_mb=256`, not a
/// legitimately large archive.
public enum FuzzPolicies {
    public static let limits: DecodeLimits = {
        var limits = DecodeLimits()
        limits.maxInputBytes = 1 << 20
        limits.maxObjects = 100_000
        limits.maxDepth = 64
        limits.maxStringBytes = 256 << 10
        limits.maxDataBytes = 256 << 10
        limits.maxOutputBytes = 1 << 20
        limits.maxOutputNodes = 100_000
        limits.maxViolations = 100
        return limits
    }()

    /// Any class, rendered, never instantiated; a violation (there are none by class) rejects.
    public static let inspection: Policy = {
        var policy = Policy.inspection
        policy.limits = limits
        return policy
    }()

    /// `plist` classes plus one custom class with a key schema, redacting violations: exercises
    /// the evaluator's expectation checks and the renderers' redaction paths.
    public static let strict: Policy = {
        let document = #"""
        {
          "name": "fuzz-strict",
          "root": ["NotesKit.Note", "NSArray", "NSDictionary", "NSString"],
          "allow": ["plist", "NSNull", "NSUUID", "NSURL"],
          "classes": {
            "NotesKit.Item": {"keys": {"id": "NSUUID", "created": "NSDate"}, "required": ["id"]},
            "NotesKit.Note": {
              "extends": "NotesKit.Item",
              "keys": {
                "title": "NSString",
                "body": ["NSString", "NSNull"],
                "pinned": "bool",
                "revision": "integer",
                "score": "real",
                "tags": {"classes": ["NSArray", "NSMutableArray"], "elements": ["NSString"]},
                "meta": {"classes": ["NSDictionary"], "dictionaryKeys": ["NSString"], "elements": ["plist"]},
                "link": "NSURL",
                "children": {"classes": ["NSArray"], "elements": ["NotesKit.Note"]},
                "parent": "NotesKit.Note"
              },
              "required": ["title"],
              "unknownKeys": "reject"
            }
          },
          "onViolation": "redact",
          "limits": {"maxInputBytes": 1048576, "maxObjects": 100000, "maxDepth": 64,
                     "maxStringBytes": 262144, "maxDataBytes": 262144, "maxOutputBytes": 1048576,
                     "maxOutputNodes": 100000, "maxViolations": 100}
        }
        """#
        do {
            return try Policy.load(json: Array(document.utf8), name: "fuzz-strict")
        } catch {
            fatalError("the fuzz policy does not load: \(error)")
        }
    }()
}

/// The input libFuzzer hands over, copied once into the array the core reads.
public func fuzzInput(_ start: UnsafeRawPointer?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: count))
}
