import Foundation

/// Result identifiers: 128 random bits from the system CSPRNG (`getrandom` on Linux), written as
/// 22 characters of unpadded base64url, so they are unguessable and safe in a URL path as they are.
public enum ResultID {
    /// The length of every identifier this store issues.
    public static let length = 22

    /// A fresh identifier.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            withUnsafeBytes(of: word) { bytes.append(contentsOf: $0) }
        }
        return Base64URL.encode(bytes)
    }

    /// Whether `text` has the shape of an identifier this store issues. Anything else cannot name a
    /// stored result, so lookups answer "not found" without touching the database.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy(Base64URL.isAlphabetByte)
    }
}

/// Unpadded base64url (RFC 4648 §5), used for identifiers and cursors.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes, or nil when `text` is not canonical unpadded base64url.
    static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy(isAlphabetByte), text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        // Reject non-canonical spellings (stray low bits) so one value has one encoding.
        return encode(bytes) == text ? bytes : nil
    }

    static func isAlphabetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
