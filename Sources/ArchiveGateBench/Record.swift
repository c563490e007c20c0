import Foundation

/// The dense shape of issue 18: a small record of many short values, ~11 archive objects of ~96
/// bytes each (strings, a date, data, a URL, a UUID, a tag list and a nested dictionary), the
/// kind of archive an app's model layer writes by the tens of thousands.
final class Record: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let email: String
    let created: Date
    let payload: Data
    let homepage: URL
    let identifier: UUID
    let tags: IdentityArray
    let attributes: IdentityDictionary

    init(name: String, email: String, created: Date, payload: Data, homepage: URL, identifier: UUID,
         tags: [String], attributes: IdentityDictionary) {
        self.name = name
        self.email = email
        self.created = created
        self.payload = payload
        self.homepage = homepage
        self.identifier = identifier
        self.tags = IdentityArray(strings: tags)
        self.attributes = attributes
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(email as NSString, forKey: "email")
        coder.encode(created as NSDate, forKey: "created")
        coder.encode(payload as NSData, forKey: "payload")
        coder.encode(homepage as NSURL, forKey: "homepage")
        coder.encode(identifier as NSUUID, forKey: "id")
        coder.encode(tags, forKey: "tags")
        coder.encode(attributes, forKey: "attributes")
    }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
              let email = coder.decodeObject(of: NSString.self, forKey: "email"),
              let created = coder.decodeObject(of: NSDate.self, forKey: "created"),
              let payload = coder.decodeObject(of: NSData.self, forKey: "payload"),
              let homepage = coder.decodeObject(of: NSURL.self, forKey: "homepage"),
              let identifier = coder.decodeObject(of: NSUUID.self, forKey: "id"),
              let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? NSArray,
              let attributes = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self],
                                                  forKey: "attributes") as? NSDictionary else { return nil }
        self.name = name as String
        self.email = email as String
        self.created = created as Date
        self.payload = payload as Data
        self.homepage = homepage as URL
        self.identifier = identifier as UUID
        self.tags = IdentityArray(strings: tags.compactMap { $0 as? String })
        var pairs: [(NSString, AnyObject)] = []
        for case let (key as String, value) in attributes { pairs.append((key as NSString, value as AnyObject)) }
        self.attributes = IdentityDictionary(pairs: pairs.sorted { ($0.0 as String) < ($1.0 as String) })
    }
}
