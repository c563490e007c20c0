/// Why an archive could not be decoded at all (as opposed to decoded and found in breach of a
/// policy, which is a `ValidationReport` with violations).
public enum ArchiveGateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not a well-formed property list (or exceed a reader limit).
    case propertyList(PropertyListError)
    /// The property list is not a well-formed keyed archive (or a walk limit was exceeded).
    case archive(ArchiveError)
    /// The bytes are an `NSArchiver` typedstream that could not be read (or exceed a reader limit).
    case typedStream(TypedStreamError)

    /// A decode error's stable code: the plist reader's or the archive walk's. The codes themselves
    /// are listed once, in `PropertyListError.Code` and `ArchiveError.Code`; a new constant there is
    /// a code here with no edit to this file.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case propertyList(PropertyListError.Code)
            case archive(ArchiveError.Code)
            case typedStream(TypedStreamError.Code)
        }

        private let base: Base

        public init(_ code: PropertyListError.Code) { base = .propertyList(code) }
        public init(_ code: ArchiveError.Code) { base = .archive(code) }
        public init(_ code: TypedStreamError.Code) { base = .typedStream(code) }

        /// The stable identifier, e.g. `plist.truncated`.
        public var rawValue: String {
            switch base {
            case .propertyList(let code): code.rawValue
            case .archive(let code): code.rawValue
            case .typedStream(let code): code.rawValue
            }
        }

        public var description: String { rawValue }

        /// True when a configured limit (size, count, depth, output budget) is what this code reports.
        public var isLimit: Bool {
            switch base {
            case .propertyList(let code):
                [.inputTooLarge, .objectLimitExceeded, .depthLimitExceeded, .stringTooLarge, .dataTooLarge].contains(code)
            case .archive(let code):
                [.depthLimitExceeded, .outputLimitExceeded, .objectLimitExceeded, .timeBudgetExceeded].contains(code)
            case .typedStream(let code):
                code.isLimit
            }
        }

        /// True for `plist.input_too_large`: the input is bigger than the reader may read at all.
        public var isInputTooLarge: Bool { self == Code(PropertyListError.Code.inputTooLarge) }
    }

    /// The stable code, e.g. `plist.truncated` or `archive.dangling_uid`.
    public var code: Code {
        switch self {
        case .propertyList(let error): Code(error.code)
        case .archive(let error): Code(error.code)
        case .typedStream(let error): Code(error.code)
        }
    }

    /// `at byte 12`, `at line 3` or `at /$objects/4/NS.keys`.
    public var location: String {
        switch self {
        case .propertyList(let error): error.location
        case .archive(let error): "at \(error.path.isEmpty ? "/" : error.path)"
        case .typedStream(let error): "at byte \(error.offset)"
        }
    }

    public var message: String {
        switch self {
        case .propertyList(let error): error.message
        case .archive(let error): error.message
        case .typedStream(let error): error.message
        }
    }

    /// True when a configured limit (size, count, depth, output budget) was what stopped the decode.
    public var isLimit: Bool { code.isLimit }

    public var description: String { "\(code) \(location): \(message)" }
}
