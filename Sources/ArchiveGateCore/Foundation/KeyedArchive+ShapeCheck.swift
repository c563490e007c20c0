import Foundation

/// Whether a Foundation object's fields match what its class's `initWithCoder:` decodes. The policy
/// walk runs this on every object of a Foundation class it reaches, so that `valid` means
/// Foundation decodes the archive to the graph the plain JSON shows.
extension KeyedArchive {
    /// The most problems reported for one object: a collection of a million `$null`s is one
    /// finding, not a million (the object is refused or nulled as a whole either way).
    static let maxProblemsPerObject = 16

    /// Every way object `uid` (of Foundation shape `shape`, by its class name) differs from its
    /// class's encoding; empty when it matches. With `referencesCheckedByWalk` (the object is read
    /// with its shape, so the walk follows its reference fields and checks their classes), a
    /// reference to a class the field does not accept is left to that check.
    public func shapeProblems(of uid: Int, as shape: FoundationShape, referencesCheckedByWalk: Bool = false) -> [ShapeProblem] {
        var layouts = LayoutMemo()
        return shapeProblems(of: uid, as: shape, referencesCheckedByWalk: referencesCheckedByWalk, layouts: &layouts)
    }

    /// `shapeProblems(of:as:referencesCheckedByWalk:)`, reading collection and dictionary layouts
    /// through `layouts` (the walk's `ShapeMemo.layouts`, which its shape decision just filled).
    func shapeProblems(of uid: Int, as shape: FoundationShape, referencesCheckedByWalk: Bool,
                       layouts: inout LayoutMemo) -> [ShapeProblem] {
        var problems = [ShapeProblem]()
        let className = classIndex(of: uid).map { classes[$0].name } ?? "object"
        for field in shape.fields {
            if let kind = field.kind,
               let problem = check(field, kind: kind, of: uid, className: className, referencesCheckedByWalk: referencesCheckedByWalk) {
                problems.append(problem)
            }
        }
        // The class's own rules, named by its definition (`FoundationShape.Definition.check`).
        guard let rule = FoundationShape.rulesByOrdinal[shape.ordinal] else { return problems }
        var object = ShapeCheckObject(uid: uid, shape: shape, className: className, layouts: layouts, problems: problems)
        rule(self, &object)
        layouts = object.layouts
        return object.problems
    }

    // The rules of the classes without a file of their own (NSNull, NSUUID … have none: their
    // fields say it all).

    /// NSValue: a geometry or range value (`NS.special`), or an ObjC-typed one.
    func checkValue(_ object: inout ShapeCheckObject) {
        let (uid, className) = (object.uid, object.className)
        // Without NS.special it is an ObjC-typed value (`$0` type string, `$1` bytes), which
        // Foundation decodes and the JSON shows as `{"$class":"NSValue",…}`, like any class.
        if field(uid, "NS.special") == nil {
            if fieldTarget(uid, "$0").flatMap({ stringValue(ofObject: $0) }) == nil || field(uid, "$1") == nil {
                object.report(ShapeProblem(.missingField, key: "NS.special", "\(className) has neither NS.special nor an ObjC type ($0) and its value ($1)"))
            } else {
                object.report(scalarValueProblem(uid, className: className))
            }
        } else if valueContents(uid) == nil {
            object.report(ShapeProblem(.invalidValue, key: "NS.special", "\(className) is not a point, size, rect, range or edge-insets value with readable fields"))
        } else {
            object.report(checkRangeLayout(uid, className: className))
        }
    }

    /// NSDecimalNumber: its exponent, length and mantissa read (`decimalString`).
    func checkDecimalNumber(_ object: inout ShapeCheckObject) {
        if decimalString(object.uid) == nil {
            object.report(ShapeProblem(.invalidValue, key: nil, "\(object.className) has no readable NS.exponent, NS.length and NS.mantissa"))
        }
    }

    /// NSIndexSet: its ranges read (`indexRanges`).
    func checkIndexSet(_ object: inout ShapeCheckObject) {
        if indexRanges(object.uid) == nil {
            object.report(ShapeProblem(.invalidValue, key: nil, "\(object.className) has no readable NSRangeCount and ranges"))
        }
    }

    /// NSMeasurement: a unit, not `$null`.
    func checkMeasurement(_ object: inout ShapeCheckObject) {
        if fieldTarget(object.uid, "NS.unit") == 0 {
            object.report(ShapeProblem(.missingField, key: "NS.unit", "\(object.className) NS.unit is $null"))
        }
    }

    /// NSAttributedString: its attribute dictionaries, its runs, and no attribute dictionary unused.
    func checkAttributedString(_ object: inout ShapeCheckObject) {
        let (uid, className) = (object.uid, object.className)
        object.report(checkAttributes(uid, className: className))
        // A field the table's check already faulted (NSString not a string) is reported once.
        switch attributedRuns(uid) {
        case .failure(let problem) where !object.problems.contains(where: { $0.key == problem.key }):
            object.report(problem)
        case .success(_, let runs):
            object.report(checkUnusedAttributes(uid, runs: runs, className: className))
        default:
            break
        }
    }

    /// NSDate: a time the plain JSON can write (`checkDateRange`).
    func checkDate(_ object: inout ShapeCheckObject) {
        object.report(checkDateRange(object.uid, "NS.time", className: object.className))
    }

    private func check(_ spec: FoundationShape.Field, kind: FoundationShape.FieldKind, of uid: Int, className: String,
                       referencesCheckedByWalk: Bool) -> ShapeProblem? {
        guard let value = field(uid, spec.key) else {
            let key = spec.key.description
            return spec.required ? ShapeProblem(.missingField, key: key, "\(className) has no \(key)") : nil
        }
        guard let problem = fieldProblem(spec, kind: kind, value: value, className: className) else { return nil }
        // A reference to a class Foundation does not accept here is the walk's class check
        // (`policy.class_mismatch`), reported once, there. Asked only once a problem is found, so
        // a well-formed object costs no class-name hashing.
        if referencesCheckedByWalk, let target = referencedUID(value), target != 0, let accepts = spec.accepts,
           let found = archiveClass(of: target), !accepts.contains(found.name) {
            return nil
        }
        return problem
    }

    /// What is wrong with field value `value` against `spec`, before the walk's class check.
    private func fieldProblem(_ spec: FoundationShape.Field, kind: FoundationShape.FieldKind, value: Int,
                              className: String) -> ShapeProblem? {
        // Built only for a problem: a long key (NS.minimalBookmarkData) is a heap-allocated String.
        var key: String { spec.key.description }
        func mismatch(_ expected: String) -> ShapeProblem {
            ShapeProblem(.shapeMismatch, key: key, "\(className) \(key) must be \(expected), found \(describe(value))")
        }
        switch kind {
        case .stringReference:
            guard let target = referencedUID(value) else { return mismatch("a reference to a string") }
            if target == 0 { return spec.required ? ShapeProblem(.missingField, key: key, "\(className) \(key) is $null") : nil }
            return hasStringValue(ofObject: target) ? nil : mismatch("a reference to a string")
        case .inlineData:
            return plist.kind(of: value) == .data ? nil : mismatch("inline data")
        case .data(let bytes):
            // Read raw (decodeBytes): a reference there is no data to Foundation.
            guard let data = plist.data(at: value) else { return mismatch("inline data") }
            if let bytes, data.count != bytes {
                return ShapeProblem(.lengthMismatch, key: key, "\(className) \(key) must be \(bytes) bytes, found \(data.count)")
            }
            return nil
        case .integer:
            // decodeInteger reads the value in place: a UID there decodes as 0.
            guard plist.kind(of: value) == .integer, plist.int64(at: value) != nil else { return mismatch("an inline 64-bit integer") }
            return nil
        case .finiteNumber:
            // decodeDouble reads the value in place: a UID there decodes as 0.
            // An integer beyond 64 bits is no NSNumber decodeDouble can read either.
            guard plist.kind(of: value) == .real || (plist.kind(of: value) == .integer && plist.int64(at: value) != nil),
                  plist.double(at: value)?.isFinite == true else { return mismatch("an inline finite number") }
            return nil
        case .reference:
            return referencedUID(value) == nil ? mismatch("a reference") : nil
        case .dataReference:
            // `$null` is what Foundation writes for a time zone without data.
            guard let target = referencedUID(value), target == 0 || dataIndex(value) != nil else { return mismatch("a reference to data") }
            return nil
        }
    }

    /// NSString/NSMutableString: `NS.string` an inline string, or (without it) `NS.bytes` inline
    /// UTF-8 data. Foundation reads both raw (`decodeObject` is not asked): a reference there is no
    /// string to corelibs, GNUstep or Apportable (corelibs traps), and Apple writes them inline.
    func checkString(_ object: inout ShapeCheckObject) {
        object.report(stringProblem(object.uid, className: object.className))
    }

    private func stringProblem(_ uid: Int, className: String) -> ShapeProblem? {
        if let value = field(uid, "NS.string") {
            guard plist[value].isString else {
                return ShapeProblem(.shapeMismatch, key: "NS.string", "\(className) NS.string must be an inline string, found \(describe(value))")
            }
            return nil
        }
        if let value = field(uid, "NS.bytes") {
            guard let data = plist.data(at: value), String(validating: data, as: UTF8.self) != nil else {
                return ShapeProblem(.shapeMismatch, key: "NS.bytes", "\(className) NS.bytes must be inline UTF-8 data, found \(describe(value))")
            }
            return nil
        }
        return ShapeProblem(.missingField, key: "NS.string", "\(className) has neither NS.string nor NS.bytes")
    }

    /// A date field (seconds since 2001) within the years the plain JSON carries as ISO 8601, the
    /// range the plist reader holds inline dates to (`PropertyList.representableDates`): docs/JSON.md
    /// promises such dates are refused, not rendered as bare numbers. Kinds are the table's check.
    private func checkDateRange(_ uid: Int, _ key: StaticString, className: String) -> ShapeProblem? {
        guard let value = field(uid, key), plist.kind(of: value) != .bool, let seconds = plist.double(at: value), seconds.isFinite,
              !PropertyList.representableDates.contains(seconds) else { return nil }
        return ShapeProblem(.invalidValue, key: key.description,
                            "\(className) \(key) \(seconds) s from 2001 is outside the years 0001…9999 that ISO 8601 JSON carries")
    }

    /// NSDateInterval: both ends are NSDates (the walk checks classes), neither `$null` (Foundation
    /// has no interval without one: corelibs traps, Apple raises), the end not before the start
    /// (`NSDateInterval(start:end:)` refuses it).
    func checkDateInterval(_ object: inout ShapeCheckObject) {
        object.report(dateIntervalProblem(object.uid, className: object.className))
    }

    private func dateIntervalProblem(_ uid: Int, className: String) -> ShapeProblem? {
        var seconds: [Double] = []
        for key: StaticString in ["NS.startDate", "NS.endDate"] {
            guard let target = fieldTarget(uid, key) else { return nil }
            if target == 0 { return ShapeProblem(.missingField, key: key.description, "\(className) \(key) is $null") }
            guard classShape(of: target) == .date, let time = field(target, "NS.time"), plist.kind(of: time) != .bool,
                  let value = plist.double(at: time) else { return nil }
            seconds.append(value)
        }
        guard seconds[1] < seconds[0] else { return nil }
        return ShapeProblem(.invalidValue, key: "NS.endDate", "\(className) ends before it starts")
    }

    /// NSArray/NSSet/NSOrderedSet: `NS.objects` (or corelibs' `NS.object.N`) of UIDs, none `$null`;
    /// set members distinct.
    func checkCollection(_ object: inout ShapeCheckObject) {
        checkCollection(object.uid, as: object.shape, className: object.className, layouts: &object.layouts, into: &object.problems)
    }

    private func checkCollection(_ uid: Int, as shape: FoundationShape, className: String, layouts: inout LayoutMemo,
                                 into problems: inout [ShapeProblem]) {
        if let value = field(uid, "NS.objects") {
            guard plist.kind(of: value) == .array else {
                problems.append(ShapeProblem(.shapeMismatch, key: "NS.objects", "\(className) NS.objects must be an array of references, found \(describe(value))"))
                return
            }
            for (position, element) in plist.children(of: value).enumerated() where plist.kind(of: Int(element)) != .uid {
                problems.append(ShapeProblem(.shapeMismatch, key: "NS.objects", element: position,
                                             "\(className) NS.objects[\(position)] must be a reference, found \(describe(Int(element)))"))
                return
            }
        } else if classShape(of: uid) != .orderedSet, hasNumberedObjects(uid) {
            problems.append(ShapeProblem(.shapeMismatch, key: nil, "\(className) has NS.object.N fields, which only NSOrderedSet reads; Foundation decodes it empty"))
            return
        } else if layouts.collection(uid, in: self) == nil {
            problems.append(ShapeProblem(.shapeMismatch, key: nil, "\(className) has neither NS.objects nor consecutive NS.object.N references"))
            return
        }
        // Read in place: arrays can hold millions of elements and this runs for every one of them.
        let distinct = shape != .array
        var elements = edges(of: uid, shape: shape, layouts: &layouts)
        var seen = MemberSet(count: distinct ? elements.count : 0)
        while problems.count < Self.maxProblemsPerObject, let event = elements.next() {
            guard case .edge(let element) = event, element.kind == .element else { continue }
            let position = Int(element.position)
            if element.target == 0 {
                problems.append(ShapeProblem(.nullElement, key: "NS.objects", element: position, "\(className) element \(position) is $null"))
            } else if distinct, !seen.insert(element.target, in: self) {
                problems.append(ShapeProblem(.duplicateMember, key: "NS.objects", element: position,
                                             "\(className) element \(position) equals an earlier member; Foundation keeps one"))
            }
        }
    }

    /// NSDictionary: `NS.keys` and `NS.objects` arrays of UIDs of equal length, none `$null`, keys distinct.
    func checkDictionary(_ object: inout ShapeCheckObject) {
        checkDictionary(object.uid, className: object.className, layouts: &object.layouts, into: &object.problems)
    }

    private func checkDictionary(_ uid: Int, className: String, layouts: inout LayoutMemo, into problems: inout [ShapeProblem]) {
        var arrays = [ArraySlice<UInt32>]()
        for key: StaticString in ["NS.keys", "NS.objects"] {
            guard let value = field(uid, key) else {
                problems.append(ShapeProblem(.missingField, key: key.description, "\(className) has no \(key)"))
                continue
            }
            guard let references = uidArray(uid, key) else {
                problems.append(ShapeProblem(.shapeMismatch, key: key.description, "\(className) \(key) must be an array of references, found \(describe(value))"))
                continue
            }
            arrays.append(references)
        }
        guard arrays.count == 2 else { return }
        let (keys, values) = (arrays[0], arrays[1])
        guard keys.count == values.count else {
            problems.append(ShapeProblem(.lengthMismatch, key: "NS.keys", "\(className) NS.keys has \(keys.count) entries but NS.objects has \(values.count)"))
            return
        }
        var entries = edges(of: uid, shape: .dictionary, layouts: &layouts)
        var seen = MemberSet(count: entries.count)
        while problems.count < Self.maxProblemsPerObject, let event = entries.next() {
            guard case .entry(let key, let value) = event else { continue }
            let position = Int(key.position)
            let keyUID = key.target
            if keyUID == 0 || value.target == 0 {
                problems.append(ShapeProblem(.nullElement, key: keyUID == 0 ? "NS.keys" : "NS.objects", element: position,
                                             "\(className) entry \(position) has a $null \(keyUID == 0 ? "key" : "value")"))
            } else if let keyShape = classShape(of: keyUID), keyShape.isCollection || keyShape == .dictionary {
                // corelibs traps reading a dictionary keyed by a collection (oracle --seed 3 --only 19456, 27125).
                problems.append(ShapeProblem(.shapeMismatch, key: "NS.keys", element: position,
                                             "\(className) key \(position) is a collection"))
            } else if !seen.insert(keyUID, in: self) {
                problems.append(ShapeProblem(.duplicateMember, key: "NS.keys", element: position,
                                             "\(className) key \(position) equals an earlier key; Foundation keeps one entry"))
            }
        }
    }

    /// An NSValue range's two numbers are references to NSNumber objects: corelibs reads them with
    /// `decodeObject` (an inline number is refused), and the real-device archives we hold (iLEAPP's
    /// `e76acf34957f6d2e.bplist`) are written that way too. An inline number (oracle --seed 5
    /// --only 8996) is a shape mismatch; stricter than any reader that would take an inline
    /// integer, by evidence of what Apple writes.
    private func checkRangeLayout(_ uid: Int, className: String) -> ShapeProblem? {
        for key: StaticString in ["NS.rangeval.location", "NS.rangeval.length"] {
            if let value = field(uid, key), referencedUID(value) == nil {
                return ShapeProblem(.shapeMismatch, key: "\(key)", "\(className) \(key) is inline; Foundation reads a reference to an NSNumber")
            }
        }
        return nil
    }

    /// NSAttributedString's `NSAttributes`: one dictionary, or an array of dictionaries (one per run).
    private func checkAttributes(_ uid: Int, className: String) -> ShapeProblem? {
        guard let target = fieldTarget(uid, "NSAttributes"), target != 0 else { return nil }
        let dictionaries: [Int]
        if classShape(of: target)?.isCollection == true, let elements = collectionElements(target) {
            for (position, element) in elements.enumerated() where classShape(of: element.target) != .dictionary {
                return ShapeProblem(.shapeMismatch, key: "NSAttributes", element: position,
                                    "\(className) NSAttributes[\(position)] must be an attribute dictionary, found \(archiveClass(of: element.target)?.name ?? "$null")")
            }
            dictionaries = elements.map(\.target)
        } else {
            dictionaries = [target]
        }
        // Attribute names are strings.
        for dictionary in dictionaries where classShape(of: dictionary) == .dictionary {
            guard let keys = uidArray(dictionary, "NS.keys") else { continue }
            for key in keys where !isStringObject(plist.uidValue(ofReference: key)) {
                return ShapeProblem(.shapeMismatch, key: "NSAttributes", "\(className) has an attribute whose name is not a string")
            }
        }
        return nil
    }

    /// Foundation decodes every dictionary of an `NSAttributes` array, used by a run or not; the JSON
    /// shows only the runs' (a cycle through an unused one crashed corelibs: oracle --seed 36 --only 19614).
    private func checkUnusedAttributes(_ uid: Int, runs: [AttributeRun], className: String) -> ShapeProblem? {
        guard let target = fieldTarget(uid, "NSAttributes"), target != 0, classShape(of: target)?.isCollection == true,
              let elements = collectionElements(target) else { return nil }
        let used = Set(runs.map(\.attributes.target))
        guard let position = elements.firstIndex(where: { !used.contains($0.target) }) else { return nil }
        return ShapeProblem(.shapeMismatch, key: "NSAttributes", element: position,
                            "\(className) NSAttributes[\(position)] is used by no run; Foundation decodes it all the same")
    }

    /// Whether an object has `NS.object.N` fields (the layout corelibs writes for ordered sets).
    private func hasNumberedObjects(_ uid: Int) -> Bool {
        let index = plistIndex(of: uid)
        for pair in 0 ..< plist.count(of: index) where !isClassPair(uid, pair: pair) {
            if plist.string(at: plist.dictionaryKey(index, pair: pair))?.hasPrefix("NS.object.") == true { return true }
        }
        return false
    }

    /// The classes NSError's `initWithCoder:` (swift-corelibs-foundation) lets stand anywhere inside
    /// `NSUserInfo`, subclasses included; anything else makes the whole decode fail.
    static let userInfoClasses: Set<String> = [
        "NSSet", "NSMutableSet", "NSDictionary", "NSMutableDictionary", "NSArray", "NSMutableArray",
        "NSString", "NSMutableString", "NSNumber", "NSData", "NSMutableData", "NSURL",
    ]

    /// Every object reachable from an NSError's `NSUserInfo` must be of `userInfoClasses`. Walked
    /// with an explicit stack and a visited set: linear in the objects, no recursion.
    func checkUserInfo(_ object: inout ShapeCheckObject) {
        object.report(userInfoProblem(object.uid, className: object.className))
    }

    private func userInfoProblem(_ uid: Int, className: String) -> ShapeProblem? {
        guard let root = fieldTarget(uid, "NSUserInfo"), root != 0 else { return nil }
        // userInfo is `[String: Any]`: corelibs drops an entry with another key (oracle --seed 3 --only 16491).
        if classShape(of: root) == .dictionary, let keys = uidArray(root, "NS.keys"),
           keys.contains(where: { !isStringObject(plist.uidValue(ofReference: $0)) }) {
            return ShapeProblem(.shapeMismatch, key: "NSUserInfo", "\(className) NSUserInfo has a key that is not a string")
        }
        var visited = Set<Int>([root])
        var pending = [root]
        while let current = pending.popLast() {
            guard let found = archiveClass(of: current) else { continue }
            guard Self.userInfoClasses.contains(found.name) else {
                return ShapeProblem(.shapeMismatch, key: "NSUserInfo",
                                    "\(className) NSUserInfo holds a \(found.name) (UID \(current)); NSError decodes only \(Self.userInfoClasses.sorted().joined(separator: ", ")) there")
            }
            guard !found.isInline else { continue }
            let index = plistIndex(of: current)
            for pair in 0 ..< plist.count(of: index) where !isClassPair(current, pair: pair) {
                let value = plist.dictionaryValue(index, pair: pair)
                let targets: [Int] = plist.kind(of: value) == .uid ? [plist.uid(at: value)!]
                    : plist[value].isContainer ? plist.children(of: value).compactMap { plist.uid(at: Int($0)) } : []
                for target in targets where target != 0 && visited.insert(target).inserted { pending.append(target) }
            }
        }
        return nil
    }

    /// `a string`, `UID 4`, `an integer` — for messages.
    private func describe(_ value: Int) -> String {
        if let target = plist.uid(at: value) { return target == 0 ? "$null" : "a reference to \(archiveClass(of: target)?.name ?? "an object")" }
        return "a \(plist.kind(of: value))"
    }
}

/// An object under its class's own rules (`FoundationShape.Definition.check`): what the rules read
/// and where they report.
struct ShapeCheckObject {
    let uid: Int
    let shape: FoundationShape
    /// The object's class name, for messages.
    let className: String
    /// The layouts the shape decision just read (the walk's `ShapeMemo.layouts`).
    var layouts: LayoutMemo
    /// The problems found so far, the fields' first.
    var problems: [ShapeProblem]

    mutating func report(_ problem: ShapeProblem?) {
        if let problem { problems.append(problem) }
    }
}
