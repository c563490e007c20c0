import Foundation

/// The peer being measured: what a Swift service on Linux would write to turn an archive into
/// JSON with Foundation. All three steps are timed together:
///
/// 1. `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)` — instantiates the classes;
/// 2. `plainValue(_:)` — the decoded graph as JSON-compatible dictionaries/arrays (our plain
///    mode's shape; dates as Unix seconds, a cheaper choice than our ISO-8601 strings);
/// 3. `JSONSerialization.data(withJSONObject:)`.
enum FoundationPeer {
    static func decodeToJSON(_ data: Data) throws -> Data {
        guard let root = try NSKeyedUnarchiver.unarchivedObject(ofClasses: SampleModel.foundationClasses, from: data) else {
            throw BenchError.foundation("NSKeyedUnarchiver returned nil")
        }
        return try JSONSerialization.data(withJSONObject: plainValue(root))
    }

    static func plainValue(_ object: Any) -> Any {
        switch object {
        case let post as Post:
            return [
                "$class": "Post", "title": post.title, "body": post.body, "likes": post.likes,
                "score": post.score, "tags": post.tags.map(plainValue), "author": plainValue(post.author),
                "created": post.created.timeIntervalSince1970,
            ] as [String: Any]
        case let person as Person:
            return ["$class": "Person", "name": person.name, "email": person.email]
        case let node as ChainNode:
            var fields: [String: Any] = ["$class": "ChainNode", "level": node.level]
            if let child = node.child { fields["child"] = plainValue(child) }
            return fields
        case let record as Record:
            return [
                "$class": "Record", "name": record.name, "email": record.email,
                "created": record.created.timeIntervalSince1970, "payload": record.payload.base64EncodedString(),
                "homepage": record.homepage.absoluteString, "id": record.identifier.uuidString,
                "tags": record.tags.map(plainValue), "attributes": plainValue(record.attributes),
            ] as [String: Any]
        case let attachment as Attachment:
            return ["$class": "Attachment", "name": attachment.name, "text": attachment.text,
                    "bytes": attachment.bytes.base64EncodedString()]
        case let string as String:
            return string
        case let array as NSArray:
            return array.map(plainValue)
        case let dictionary as NSDictionary:
            var fields: [String: Any] = [:]
            for case let (key as String, value) in dictionary { fields[key] = plainValue(value) }
            return fields
        case let date as Date:
            return date.timeIntervalSince1970
        case let number as NSNumber:
            return number
        default:
            return String(describing: type(of: object))
        }
    }
}
