import Foundation

/// Parses byte sizes written for people: `1048576`, `512`, `1k`, `64KiB`, `16M`, `16MiB`, `2G`, `2GiB`.
///
/// Every suffix is binary (`k` = 1024). `KB`/`MB`/`GB` are refused rather than guessed: whether an
/// operator meant 1000 or 1024 is exactly the ambiguity a limit must not have.
enum ByteSize {
    /// The spellings accepted, for error messages.
    static let accepted = "a byte count such as 1048576, or with a binary suffix: 64k, 64KiB, 16M, 16MiB, 1G, 1GiB"

    /// The number of bytes, or nil when `text` is not a size (or overflows).
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 19, let count = Int(digits) else { return nil }
        let shift: Int
        switch trimmed.dropFirst(digits.count) {
        case "": shift = 0
        case "k", "K", "KiB": shift = 10
        case "m", "M", "MiB": shift = 20
        case "g", "G", "GiB": shift = 30
        default: return nil
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : bytes
    }
}
