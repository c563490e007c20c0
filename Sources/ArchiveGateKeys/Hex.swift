/// Lower-case hexadecimal, the one spelling of digests (SHA-256 of archives, API keys and policies)
/// in the server and the CLI.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lower-case digits per byte.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
