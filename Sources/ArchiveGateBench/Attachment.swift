import Foundation

/// The large-values shape: a few objects, each carrying one long string and one large blob, so
/// the time goes into bytes (scanning, escaping, base64) rather than into objects.
final class Attachment: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let text: String
    let bytes: Data

    init(name: String, text: String, bytes: Data) {
        self.name = name
        self.text = text
        self.bytes = bytes
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(text as NSString, forKey: "text")
        coder.encode(bytes as NSData, forKey: "bytes")
    }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
              let text = coder.decodeObject(of: NSString.self, forKey: "text"),
              let bytes = coder.decodeObject(of: NSData.self, forKey: "bytes") else { return nil }
        self.name = name as String
        self.text = text as String
        self.bytes = bytes as Data
    }
}
