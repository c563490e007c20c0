/// When two members of an NSSet, or two keys of an NSDictionary, are the same member for Foundation
/// (`isEqual:` on strings, numbers, data, dates and arrays of those; identity for other objects).
extension KeyedArchive {
    /// The distinct members of one set or dictionary so far. Small ones (nearly all) compare
    /// pairwise, ASCII strings by their bytes, without building an identity, a set or a string;
    /// larger ones hash `MemberIdentity`s as before. Same answers either way.
    struct MemberSet {
        private static let pairwiseLimit = 16
        private var members: [Int] = []
        private var identities: Set<MemberIdentity>?

        init(count: Int) {
            if count > Self.pairwiseLimit { identities = Set(minimumCapacity: count) }
        }

        /// Adds member `uid`; false when an equal member is already in the set.
        mutating func insert(_ uid: Int, in archive: KeyedArchive) -> Bool {
            if identities != nil { return identities!.insert(archive.memberIdentity(uid)).inserted }
            for earlier in members where archive.sameMember(earlier, uid) { return false }
            if members.isEmpty { members.reserveCapacity(Self.pairwiseLimit) }
            members.append(uid)
            return true
        }
    }

    /// Whether two members have the same `MemberIdentity`; two inline ASCII strings are compared
    /// by their bytes (their UTF-16 code units are those bytes).
    func sameMember(_ lhs: Int, _ rhs: Int) -> Bool {
        if lhs == rhs { return true }
        if let left = inlineASCII(lhs), let right = inlineASCII(rhs) {
            guard left.count == right.count else { return false }
            if left.count == 0 { return true }
            return plist.bytes.withUnsafeBufferPointer { buffer in
                memoryEquals(buffer.baseAddress! + left.start, buffer.baseAddress! + right.start, left.count)
            }
        }
        return memberIdentity(lhs) == memberIdentity(rhs)
    }

    /// The bytes of an inline ASCII string object, or nil for anything else.
    private func inlineASCII(_ uid: Int) -> (start: Int, count: Int)? {
        guard uid != 0, let classIndex = classIndex(of: uid), classes[classIndex].isInline else { return nil }
        let object = plist[plistIndex(of: uid)]
        guard object.kind == .asciiString else { return nil }
        return (Int(object.first), Int(object.second))
    }

    /// What Foundation's `isEqual:` compares for the values ArchiveGate can judge: strings by
    /// their UTF-16 units, numbers by value (true == 1 == 1.0), data by bytes, NSArrays element by
    /// element (a set holding two distinct but equal arrays keeps one: oracle --seed 7 --only
    /// 510744); other objects by UID.
    indirect enum MemberIdentity: Hashable {
        case text([UInt16])
        case integer(Int128)
        case real(UInt64)
        case data([UInt8])
        case date(UInt64)
        case array([MemberIdentity])
        case object(Int)
    }

    /// How far an array's content is compared: deeper or larger arrays count as distinct by UID
    /// (a set holding two equal arrays beyond these bounds is not flagged), which keeps the work
    /// per member bounded whatever the archive's nesting or sharing.
    private static let memberIdentityDepth = 8
    private static let memberIdentityElements = 4096

    func memberIdentity(_ uid: Int) -> MemberIdentity {
        var budget = Self.memberIdentityElements
        return memberIdentity(uid, depth: 0, budget: &budget)
    }

    private func memberIdentity(_ uid: Int, depth: Int, budget: inout Int) -> MemberIdentity {
        if let text = stringValue(ofObject: uid) { return .text(Array(text.utf16)) }
        if archiveClass(of: uid)?.shape == .array, depth < Self.memberIdentityDepth, let layout = collectionLayout(uid), layout.count <= budget {
            budget -= layout.count
            var elements: [MemberIdentity] = []
            elements.reserveCapacity(layout.count)
            for position in 0 ..< layout.count {
                let target = layout.target(at: position, in: self)
                guard target != 0, budget >= 0 else { return .object(uid) }
                elements.append(memberIdentity(target, depth: depth + 1, budget: &budget))
            }
            return .array(elements)
        }
        guard let archiveClass = archiveClass(of: uid), archiveClass.isInline else { return .object(uid) }
        let index = plistIndex(of: uid)
        let object = plist[index]
        switch object.kind {
        case .integer: return .integer(plist.integer128(object))
        case .bool: return .integer(plist.boolValue(at: index) ? 1 : 0)
        case .real:
            let value = plist.realValue(at: index)
            if value.isFinite, value.rounded() == value, abs(value) < 1e30 { return .integer(Int128(value)) }
            return .real(value.bitPattern)
        case .data: return .data(plist.data(at: index).map { Array($0) } ?? [])
        case .date: return .date(plist.realBits(at: index))
        default: return .object(uid)
        }
    }
}
