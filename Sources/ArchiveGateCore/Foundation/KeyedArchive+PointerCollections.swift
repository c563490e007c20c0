/// NSHashTable, NSMapTable and NSPointerArray in Apple's keyed layout. corelibs has none of these
/// classes; the layout is that of Apple's Foundation (`-[NSConcreteHashTable encodeWithCoder:]`,
/// `-[NSConcreteMapTable encodeWithCoder:]`, `-[NSConcretePointerArray encodeWithCoder:]` and their
/// `initWithCoder:`, iOS 18 Foundation decompiled), where every value is written without a key, so
/// NSKeyedArchiver numbers them `$0`, `$1`, …:
///
/// - NSHashTable: `$0` the options (`encodeValueOfObjCType:"i"`), `$1`…`$n` the members, `$n+1`
///   `$null` (the `encodeObject:nil` end marker), `NS.count` = n. The decoder reads `NS.count`
///   members when it is present (each must exist; `$null` only for weak memory), else members up
///   to the first `$null`.
/// - NSMapTable: `$0` key options, `$1` value options, then key and value alternately from `$2`,
///   the `$null` end marker, `NS.count` = the number of pairs.
/// - NSPointerArray: `$0` options, `$1` the count (an int, no `NS.count`), `$2`… the pointers
///   (`$null` is a NULL pointer, which the array keeps), then the `$null` end marker.
///
/// ArchiveGate also requires the end marker Apple always writes and refuses a numbered field past
/// it, so the JSON shows every field a reader could take for a member.
extension KeyedArchive {
    /// A pointer collection's members as Foundation decodes them.
    struct PointerCollection {
        /// Hash table, pointer array: the members, in archive order (a weak hash table's `$null`s,
        /// which Foundation skips, left out). Map table: the keys.
        var members: [CollectionElement] = []
        /// Map table: the value of each key in `members` (a pair with a weak `$null` side, which
        /// Foundation skips, left out).
        var values: [CollectionElement] = []
        /// The numbered fields before the members: options (and the map table's value options or
        /// the pointer array's count), as plist indexes of their inline integers.
        var header: [Int] = []
        /// Whether `NS.count` was present (sanitize writes it back only then).
        var hasCount = false
    }

    /// A pointer collection read, or the first thing about it Foundation would refuse.
    enum PointerCollectionReading {
        case success(PointerCollection)
        case failure(ShapeProblem)
    }

    /// The NSPointerFunctionsOptions Apple's coder can write: strong (0) or weak (5) memory,
    /// object (0) or object-pointer (0x200) personality, optionally copy-in (0x10000). Opaque,
    /// C-string, struct and integer personalities hold no objects and are never archived.
    static func isCodableOptions(_ options: Int64) -> Bool {
        let memory = options & 0xFF, personality = options & 0xFF00, rest = options & ~0x1FFFF
        return (memory == 0 || memory == 5) && (personality == 0 || personality == 0x200) && rest == 0
    }

    /// Whether object `uid` reads as a pointer collection of `shape` (its shape decision).
    func hasPointerCollection(_ uid: Int, as shape: FoundationShape) -> Bool {
        if case .success = pointerCollection(uid, as: shape) { return true }
        return false
    }

    /// The pointer collections' rule: what `pointerCollection` refuses.
    func checkPointerCollection(_ object: inout ShapeCheckObject) {
        if case .failure(let problem) = pointerCollection(object.uid, as: object.shape) { object.report(problem) }
    }

    /// Reads object `uid` as a pointer collection of `shape`, or says what Foundation would refuse.
    func pointerCollection(_ uid: Int, as shape: FoundationShape) -> PointerCollectionReading {
        let className = archiveClass(of: uid)?.name ?? "object"
        func problem(_ code: ShapeProblem.Code, _ key: String?, _ message: String) -> PointerCollectionReading {
            .failure(ShapeProblem(code, key: key, "\(className) \(message)"))
        }
        let index = plistIndex(of: uid)
        var numbered = [Int: Int]()  // `$N` position → field pair
        var countValue: Int?
        for pair in 0 ..< plist.count(of: index) where !isClassPair(uid, pair: pair) {
            guard let key = plist.string(at: plist.dictionaryKey(index, pair: pair)) else { continue }
            if key == "NS.count" { countValue = plist.dictionaryValue(index, pair: pair); continue }
            guard let position = Self.sequentialPosition(key) else { continue }
            numbered[position] = pair
        }
        var collection = PointerCollection()
        let headerCount = shape == .hashTable ? 1 : 2
        var options = [Int64]()
        for position in 0 ..< headerCount {
            guard let pair = numbered[position] else {
                return problem(.missingField, "$\(position)", "has no $\(position) (\(Self.headerName(shape, position)))")
            }
            let value = plist.dictionaryValue(index, pair: pair)
            guard plist.kind(of: value) == .integer, let number = plist.int64(at: value), number >= Int64(Int32.min), number <= Int64(Int32.max) else {
                return problem(.shapeMismatch, "$\(position)", "$\(position) (\(Self.headerName(shape, position))) must be an inline 32-bit integer")
            }
            collection.header.append(value)
            options.append(number)
        }
        let optionPositions = shape == .pointerArray ? [0] : Array(0 ..< headerCount)
        for position in optionPositions where !Self.isCodableOptions(options[position]) {
            return problem(.invalidValue, "$\(position)", "$\(position) options 0x\(String(options[position], radix: 16)) are not options Foundation archives objects with")
        }
        let width = shape == .mapTable ? 2 : 1
        let start = headerCount
        // The number of members Foundation reads: the pointer array's `$1`, else NS.count, else up
        // to the first `$null` (nil when unknown yet).
        var count: Int?
        if shape == .pointerArray {
            guard options[1] >= 0 else { return problem(.invalidValue, "$1", "count $1 is negative") }
            count = Int(options[1])
        } else if let countValue {
            guard plist.kind(of: countValue) == .integer, let number = plist.int64(at: countValue) else {
                return problem(.shapeMismatch, "NS.count", "NS.count must be an inline integer")
            }
            guard number >= 0 else { return problem(.invalidValue, "NS.count", "NS.count is negative") }
            count = Int(number)
            collection.hasCount = true
        }
        // Checked before anything is read: a huge count cannot be backed by fields the object lacks.
        let available = numbered.count - headerCount
        if let count, count > available / width {
            return problem(.lengthMismatch, countValue == nil ? "$1" : "NS.count",
                           "says \(count) \(width == 2 ? "pairs" : "members") but has \(max(available, 0)) numbered fields after the header")
        }
        let memoryWeak = options.prefix(shape == .pointerArray ? 1 : headerCount).map { $0 & 0xFF == 5 }
        var slot = 0
        while count.map({ slot < $0 * width }) ?? true {
            let position = start + slot
            guard let pair = numbered[position] else {
                return problem(.missingField, "$\(position)", count == nil
                    ? "has no $null end marker after its \(slot / width) \(width == 2 ? "pairs" : "members")"
                    : "has no $\(position): its members must be $\(start)…$\(start + count! * width - 1) without gaps")
            }
            guard let target = referencedUID(plist.dictionaryValue(index, pair: pair)) else {
                return problem(.shapeMismatch, "$\(position)", "$\(position) must be a reference")
            }
            let element = CollectionElement(target: target, site: ReferenceSite(uid: uid, pair: pair))
            if count == nil, target == 0, slot % width == 0 { break }  // the end marker
            if shape == .mapTable {
                if slot % 2 == 0 {
                    collection.members.append(element)
                } else {
                    let key = collection.members.removeLast()
                    if key.target == 0 || target == 0 {
                        // Dropped when the nil side is weak; else Foundation fails the decode.
                        guard (key.target != 0 || memoryWeak[0]) && (target != 0 || memoryWeak[1]) else {
                            return .failure(ShapeProblem(.nullElement, key: "$\(target == 0 ? position : position - 1)",
                                                         "\(className) pair \(slot / 2) has a $null \(target == 0 ? "value" : "key") and that side is not weak"))
                        }
                    } else {
                        collection.members.append(key)
                        collection.values.append(element)
                    }
                }
            } else if target != 0 || shape == .pointerArray {
                collection.members.append(element)
            } else if !memoryWeak[0] {
                return .failure(ShapeProblem(.nullElement, key: "$\(position)", "\(className) member \(slot) is $null and its memory is not weak"))
            }
            slot += 1
        }
        let end = start + slot
        guard let endPair = numbered[end] else {
            return problem(.missingField, "$\(end)", "has no $null end marker ($\(end)) after its members")
        }
        guard referencedUID(plist.dictionaryValue(index, pair: endPair)) == 0 else {
            return problem(.shapeMismatch, "$\(end)", "$\(end) must be the $null end marker")
        }
        if let extra = numbered.keys.filter({ $0 > end }).min() {
            return problem(.shapeMismatch, "$\(extra)", "has a numbered field $\(extra) after its $null end marker $\(end)")
        }
        if let duplicate = firstDuplicate(collection.members, objectPersonality: options[0] & 0xFF00 == 0, distinct: shape != .pointerArray) {
            return .failure(ShapeProblem(.duplicateMember, key: "$\(start + duplicate * width)",
                                         "\(className) \(shape == .mapTable ? "key" : "member") \(duplicate) equals an earlier one; Foundation keeps one"))
        }
        return .success(collection)
    }

    /// The position of the first member equal to an earlier one (`isEqual:` for the object
    /// personality, identity for object-pointer), or nil.
    private func firstDuplicate(_ members: [CollectionElement], objectPersonality: Bool, distinct: Bool) -> Int? {
        guard distinct else { return nil }
        if objectPersonality {
            var seen = MemberSet(count: members.count)
            return members.firstIndex { !seen.insert($0.target, in: self) }
        }
        var seen = Set<Int>()
        return members.firstIndex { !seen.insert($0.target).inserted }
    }

    /// `$0` → 0, `$17` → 17; nil for anything else (a user key `$$x`, a leading zero, > 9 digits).
    static func sequentialPosition(_ key: String) -> Int? {
        let digits = key.utf8.dropFirst()
        guard key.utf8.first == UInt8(ascii: "$"), !digits.isEmpty, digits.count <= 9,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func headerName(_ shape: FoundationShape, _ position: Int) -> String {
        switch (shape, position) {
        case (.mapTable, 0): "key options"
        case (.mapTable, _): "value options"
        case (.pointerArray, 1): "count"
        default: "options"
        }
    }
}
