/// Builds RFC 6901 JSON pointers from path components without intermediate arrays of strings.
public enum JSONPointer {
    /// One reference token, escaped (`~` → `~0`, `/` → `~1`).
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingAll("~", with: "~0").replacingAll("/", with: "~1")
    }

    /// `base` extended by one token.
    public static func appending(_ base: String, _ token: String) -> String {
        base + "/" + escape(token)
    }

    /// `base` extended by one array index.
    public static func appending(_ base: String, _ index: Int) -> String {
        base + "/" + String(index)
    }
}

extension String {
    /// Replaces every occurrence of a one-character string; Foundation-free so the core stays lean.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
