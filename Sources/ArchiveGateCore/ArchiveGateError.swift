/// Why an archive could not be decoded at all (as opposed to decoded and found in breach of a
/// policy, which is a `ValidationReport` with violations).
public enum ArchiveGateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not a well-formed property list (or exceed a reader limit).
    case propertyList(PropertyListError)
    /// The property list is not a well-formed keyed archive (or a walk limit was exceeded).
    case archive(ArchiveError)

    /// The stable code, e.g. `plist.truncated` or `archive.dangling_uid`.
    public var code: String {
        switch self {
        case .propertyList(let error): error.code.rawValue
        case .archive(let error): error.code.rawValue
        }
    }

    /// `at byte 12`, `at line 3` or `at /$objects/4/NS.keys`.
    public var location: String {
        switch self {
        case .propertyList(let error): error.location
        case .archive(let error): "at \(error.path.isEmpty ? "/" : error.path)"
        }
    }

    public var message: String {
        switch self {
        case .propertyList(let error): error.message
        case .archive(let error): error.message
        }
    }

    /// True when a configured limit (size, count, depth, output budget) was what stopped the decode.
    public var isLimit: Bool {
        switch self {
        case .propertyList(let error):
            [.inputTooLarge, .objectLimitExceeded, .depthLimitExceeded, .stringTooLarge, .dataTooLarge].contains(error.code)
        case .archive(let error):
            [.depthLimitExceeded, .outputLimitExceeded, .objectLimitExceeded, .timeBudgetExceeded].contains(error.code)
        }
    }

    public var description: String { "\(code) \(location): \(message)" }
}
