import Foundation

/// An `NSDictionary` hashed and compared by identity, archived as a plain `NSDictionary`, with
/// its keys in insertion order (so the archive bytes are stable).
///
/// Same reason as `IdentityArray`: corelibs' archiver looks written objects up by `hash`/`isEqual`,
/// and `NSDictionary.hash` is its count, so thousands of equal-sized dictionaries make archiving
/// quadratic and merge equal ones. `classForKeyedArchiver` keeps the `$classname` `NSDictionary`.
final class IdentityDictionary: NSDictionary {
    private let orderedKeys: [NSString]
    private let values: [NSString: AnyObject]

    init(pairs: [(NSString, AnyObject)]) {
        orderedKeys = pairs.map(\.0)
        values = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        // `NSDictionary.init()` is not exported by corelibs; its designated initializer with no
        // pairs leaves the (unused) inherited storage empty.
        super.init(objects: nil, forKeys: nil, count: 0)
    }

    required init(objects: UnsafePointer<AnyObject>!, forKeys keys: UnsafePointer<NSObject>!, count: Int) {
        var pairs: [(NSString, AnyObject)] = []
        for index in 0 ..< count {
            if let key = keys[index] as? NSString { pairs.append((key, objects[index])) }
        }
        orderedKeys = pairs.map(\.0)
        values = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        super.init(objects: nil, forKeys: nil, count: 0)
    }

    required init?(coder: NSCoder) {
        nil
    }

    required convenience init(dictionaryLiteral elements: (Any, Any)...) {
        self.init(pairs: elements.compactMap { key, value in (key as? String).map { ($0 as NSString, value as AnyObject) } })
    }

    override var count: Int { orderedKeys.count }

    override func object(forKey aKey: Any) -> Any? {
        guard let key = aKey as? NSString else { return nil }
        return values[key]
    }

    override func keyEnumerator() -> NSEnumerator {
        NSArray(array: orderedKeys).objectEnumerator()
    }

    override var hash: Int { ObjectIdentifier(self).hashValue }

    override func isEqual(_ object: Any?) -> Bool {
        (object as AnyObject?) === self
    }

    override var classForKeyedArchiver: AnyClass? { NSDictionary.self }
}
