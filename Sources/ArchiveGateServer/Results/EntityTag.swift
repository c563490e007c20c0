import Foundation

/// `If-None-Match` evaluation (RFC 9110 §13.1.2): weak comparison, `*` matches any current
/// representation, and a list is matched if any of its tags is.
enum EntityTag {
    /// Whether `ifNoneMatch` (the header's value, possibly several comma-separated tags) matches
    /// `etag` (a quoted strong tag such as `"abc"`), in which case a GET answers 304.
    static func ifNoneMatch(_ ifNoneMatch: String, matches etag: String) -> Bool {
        let current = opaqueTag(etag)
        for candidate in ifNoneMatch.split(separator: ",") {
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            if trimmed == "*" { return true }
            if let tag = opaqueTag(trimmed), tag == current { return true }
        }
        return false
    }

    /// `"x"` and `W/"x"` → `x` (weak comparison ignores the weakness flag); anything else → nil.
    private static func opaqueTag(_ text: some StringProtocol) -> Substring? {
        var rest = Substring(text)
        if rest.hasPrefix("W/") { rest = rest.dropFirst(2) }
        guard rest.count >= 2, rest.first == "\"", rest.last == "\"" else { return nil }
        return rest.dropFirst().dropLast()
    }
}
