/// NSArray, NSSet and NSDictionary (`TypedStreamLayout.array`, `.dictionary`).
extension TypedStreamLowerer {
    /// A count (`i` for NSArray, `I` for NSSet), then that many `@` elements → `NS.objects`.
    mutating func array(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard let count = cursor.integer(), let elements = cursor.restObjects(), Int64(elements.count) == count else { return nil }
        return [PropertyListValue.Entry(key: "NS.objects", value: .array(elements.map { .uid(uid($0)) }))]
    }

    /// `i` count, then `@` key, `@` value per entry → `NS.keys`, `NS.objects`.
    mutating func dictionary(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard let count = cursor.integer(), let objects = cursor.restObjects(), Int64(objects.count) == 2 * count else { return nil }
        var keys = [PropertyListValue]()
        var values = [PropertyListValue]()
        for (position, object) in objects.enumerated() {
            if position.isMultiple(of: 2) { keys.append(.uid(uid(object))) } else { values.append(.uid(uid(object))) }
        }
        return [PropertyListValue.Entry(key: "NS.keys", value: .array(keys)),
                PropertyListValue.Entry(key: "NS.objects", value: .array(values))]
    }
}
