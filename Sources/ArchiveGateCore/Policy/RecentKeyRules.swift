/// A small direct-mapped cache of the key rules `DangerScan` recorded last, matched by the key's
/// bytes rather than its plist index.
///
/// An archive may hold a separate key string object per instance (50,000 records, each with its own
/// "name" and "email" keys): the rule set would then get one entry per key object, hashed on insert
/// and decoded to a `String` each when the report is made, though every one of them reads
/// "key:Record.name". A rule whose class, owner class and key bytes equal a cached one is already in
/// the set (as far as the report can tell), so it is not inserted again. A miss only costs the set
/// insertion the walk made before; the report is the same either way.
struct RecentKeyRules {
    private static let slotCount = 256
    private var slots: [DangerScan.KeyRule] = []

    /// True when a rule with the same classes and key bytes as `rule` is cached; otherwise caches
    /// `rule` (UTF-16 keys are never cached: their bytes are not their text's UTF-8).
    mutating func containsOrRemembers(_ rule: DangerScan.KeyRule, in plist: PropertyList) -> Bool {
        let keyIndex = Int(rule.keyIndex)
        let kind = plist.kind(of: keyIndex)
        guard kind == .asciiString || kind == .utf8String else { return false }
        let (start, length) = plist.stringStorage(at: keyIndex)
        if slots.isEmpty { slots = Array(repeating: DangerScan.KeyRule(classIndex: -1, ownerClass: -1, keyIndex: -1), count: Self.slotCount) }
        let slot = plist.bytes.withUnsafeBufferPointer { buffer -> Int in
            let first = length > 0 ? Int(buffer[start]) : 0
            let last = length > 0 ? Int(buffer[start + length - 1]) : 0
            // The top bits of the product depend on every bit of `packed` (class and owner class);
            // a collection's element rule and the collection's own rule share owner and key.
            let classes = Int(truncatingIfNeeded: (rule.packed &* 0x9E37_79B9_7F4A_7C15) >> 40)
            let mixed = classes ^ length &* 31 ^ first &* 7 ^ last
            return mixed & (Self.slotCount - 1)
        }
        let cached = slots[slot]
        if cached.classIndex == rule.classIndex, cached.ownerClass == rule.ownerClass, cached.keyIndex >= 0 {
            let cachedKey = Int(cached.keyIndex)
            let cachedKind = plist.kind(of: cachedKey)
            if cachedKind == .asciiString || cachedKind == .utf8String {
                let (cachedStart, cachedLength) = plist.stringStorage(at: cachedKey)
                if cachedLength == length {
                    let equal = length == 0 || plist.bytes.withUnsafeBufferPointer { buffer in
                        memoryEquals(buffer.baseAddress! + start, buffer.baseAddress! + cachedStart, length)
                    }
                    if equal { return true }
                }
            }
        }
        slots[slot] = rule
        return false
    }
}
