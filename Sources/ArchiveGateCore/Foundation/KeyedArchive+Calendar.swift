/// NSDateComponents' and NSCalendar's rules the definitions table cannot say.
extension KeyedArchive {
    /// The calendar identifiers Foundation's `Calendar.Identifier` knows (CLDR names). An unknown
    /// one makes NSCalendar's decoder fail.
    static let calendarIdentifiers: Set<String> = [
        "gregorian", "buddhist", "chinese", "coptic", "ethiopic", "ethiopic-amete-alem", "hebrew", "iso8601", "indian",
        "islamic", "islamic-civil", "japanese", "persian", "republic-of-china", "islamic-tbla", "islamic-umalqura",
    ]

    /// NSDateComponents: `NS.isLeapMonth` an inline boolean (read with decodeBool).
    func checkDateComponents(_ object: inout ShapeCheckObject) {
        let className = object.className
        guard let value = field(object.uid, "NS.isLeapMonth") else {
            return object.report(ShapeProblem(.missingField, key: "NS.isLeapMonth", "\(className) has no NS.isLeapMonth"))
        }
        if plist.kind(of: value) != .bool {
            object.report(ShapeProblem(.shapeMismatch, key: "NS.isLeapMonth", "\(className) NS.isLeapMonth must be an inline boolean"))
        }
    }

    /// NSCalendar: a known identifier, a non-null locale, and first weekday and minimum days in the
    /// first week 1…7.
    func checkCalendar(_ object: inout ShapeCheckObject) {
        object.report(calendarProblem(object.uid, className: object.className))
    }

    private func calendarProblem(_ uid: Int, className: String) -> ShapeProblem? {
        if let identifier = referencedString(uid, "NS.identifier"), !Self.calendarIdentifiers.contains(identifier) {
            return ShapeProblem(.invalidValue, key: "NS.identifier", "\(className) NS.identifier '\(identifier)' is not a calendar Foundation knows")
        }
        if fieldTarget(uid, "NS.locale") == 0 {
            return ShapeProblem(.missingField, key: "NS.locale", "\(className) NS.locale is $null")
        }
        for key: StaticString in ["NS.firstwkdy", "NS.mindays"] {
            if let index = field(uid, key), plist.kind(of: index) == .integer, let value = plist.int64(at: index), !(1 ... 7).contains(value) {
                return ShapeProblem(.invalidValue, key: key.description, "\(className) \(key) must be 1 to 7, found \(value)")
            }
        }
        return nil
    }
}
