/// NSAttributedString's attribute runs, as Apple's Foundation and swift-corelibs-foundation write
/// them: the text in `NSString`; with one run, `NSAttributes` is that run's attribute dictionary and
/// `NSAttributeInfo` is absent; with several, `NSAttributes` is an array of dictionaries and
/// `NSAttributeInfo` data of varint pairs (run length in UTF-16 units, index into that array).
/// Foundation leaves `NSAttributes` out only for the empty string, which has no runs.
extension KeyedArchive {
    /// One attribute run: UTF-16 units `start ..< start + length` of the text and its attribute
    /// dictionary, with the site that references it (the `NSAttributes` field or array element).
    struct AttributeRun {
        let start: Int
        let length: Int
        let attributes: CollectionElement
    }

    /// An attributed string's text (UTF-16) and runs, or the first thing Foundation would refuse.
    enum AttributedRunsReading {
        case success(units: [UInt16], runs: [AttributeRun])
        case failure(ShapeProblem)
    }

    /// The classes `NSAttributes` may be: one dictionary, or an array of them.
    private static let attributeDictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]
    private static let attributeArrayClasses: Set<String> = ["NSArray", "NSMutableArray"]

    /// Whether object `uid`'s runs read (its shape decision).
    func hasAttributedRuns(_ uid: Int) -> Bool {
        if case .success = attributedRuns(uid) { return true }
        return false
    }

    /// Splits object `uid`'s text into its attribute runs. A run table that does not cover the text
    /// exactly, runs past it, names a dictionary that is not there, or splits a surrogate pair is
    /// refused: Foundation would fail or show other text than the JSON.
    func attributedRuns(_ uid: Int) -> AttributedRunsReading {
        let className = archiveClass(of: uid)?.name ?? "object"
        func problem(_ code: ShapeProblem.Code, _ key: String, _ message: String) -> AttributedRunsReading {
            .failure(ShapeProblem(code, key: key, "\(className) \(message)"))
        }
        guard let text = referencedString(uid, "NSString") else {
            return problem(.shapeMismatch, "NSString", "NSString must be a reference to a string")
        }
        let units = Array(text.utf16)
        let index = plistIndex(of: uid)
        guard let attributesPair = plist.dictionaryPairIndex(index, forKey: "NSAttributes"),
              let attributesUID = referencedUID(plist.dictionaryValue(index, pair: attributesPair)), attributesUID != 0 else {
            if field(uid, "NSAttributeInfo") != nil {
                return problem(.missingField, "NSAttributes", "has an NSAttributeInfo run table but no NSAttributes")
            }
            return units.isEmpty ? .success(units: units, runs: [])
                : problem(.missingField, "NSAttributes", "has a non-empty string but no NSAttributes")
        }
        // Each run's dictionary, by the index NSAttributeInfo gives.
        let dictionaries: [CollectionElement]
        let attributesClass = archiveClass(of: attributesUID)?.name ?? "$null"
        if Self.attributeDictionaryClasses.contains(attributesClass) {
            dictionaries = [CollectionElement(target: attributesUID, site: ReferenceSite(uid: uid, pair: attributesPair))]
        } else if Self.attributeArrayClasses.contains(attributesClass), let elements = collectionElements(attributesUID) {
            for (position, element) in elements.enumerated()
            where !Self.attributeDictionaryClasses.contains(archiveClass(of: element.target)?.name ?? "$null") {
                return .failure(ShapeProblem(.shapeMismatch, key: "NSAttributes", element: position,
                                             "\(className) NSAttributes[\(position)] must be an attribute dictionary, found \(archiveClass(of: element.target)?.name ?? "$null")"))
            }
            dictionaries = elements
        } else {
            return problem(.shapeMismatch, "NSAttributes", "NSAttributes must be a dictionary or an array of dictionaries, found \(attributesClass)")
        }
        guard let infoValue = field(uid, "NSAttributeInfo") else {
            guard Self.attributeDictionaryClasses.contains(attributesClass) else {
                return problem(.missingField, "NSAttributeInfo", "has an NSAttributes array but no NSAttributeInfo")
            }
            return .success(units: units, runs: units.isEmpty ? [] : [AttributeRun(start: 0, length: units.count, attributes: dictionaries[0])])
        }
        guard let info = dataIndex(infoValue), let data = plist.data(at: info) else {
            return problem(.shapeMismatch, "NSAttributeInfo", "NSAttributeInfo must be data")
        }
        var reader = VarintReader(data)
        var runs = [AttributeRun]()
        var start = 0
        while let length = reader.next() {
            guard let position = reader.next(), position < UInt64(dictionaries.count) else {
                return problem(.invalidValue, "NSAttributeInfo", "NSAttributeInfo run \(runs.count) names an attribute dictionary it does not have")
            }
            // Compared before adding: lengths near 2^64 must not wrap around to a plausible total.
            guard length <= UInt64(units.count - start) else {
                return problem(.invalidValue, "NSAttributeInfo",
                               "NSAttributeInfo run \(runs.count) (\(length) units from \(start)) runs past the \(units.count)-unit string")
            }
            let end = start + Int(length)
            if end < units.count, UTF16.isTrailSurrogate(units[end]), end > 0, UTF16.isLeadSurrogate(units[end - 1]) {
                return problem(.invalidValue, "NSAttributeInfo", "NSAttributeInfo run \(runs.count) ends inside a surrogate pair (unit \(end))")
            }
            runs.append(AttributeRun(start: start, length: Int(length), attributes: dictionaries[Int(position)]))
            start = end
        }
        guard start == units.count else {
            return problem(.invalidValue, "NSAttributeInfo", "NSAttributeInfo runs cover \(start) units of \(units.count)")
        }
        return .success(units: units, runs: runs)
    }
}
