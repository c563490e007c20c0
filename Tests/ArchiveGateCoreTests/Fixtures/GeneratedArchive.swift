import ArchiveGateCore
import ArchiveGateSeededRandom

/// Seeded archives of every value kind the renderers write: custom objects with null, shared and
/// nested references, strings that need escaping (quotes, backslashes, control characters,
/// non-ASCII, `$`-keys), integers, reals, booleans, dates, data, UUIDs, arrays, sets and dictionaries.
enum GeneratedArchive {
    static func make(seed: UInt64, objects: Int) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var builder = KeyedArchiveBuilder(capacity: objects * 4)
        let item = builder.classRecord("App.Item", chain: ["App.Item", "NSObject"])
        let texts = ["plain", "quote \" and \\ backslash", "tab\tnew\nline\u{1}", "Grüße 🌍", "$class", "{\"$ref\":\"/x\"}", ""]
        var made: [UInt32] = []
        for index in 0 ..< objects {
            let title = builder.add(.string(texts[Int(random.next() % UInt64(texts.count))] + String(index)))
            let date = builder.object(class: builder.classRecord("NSDate", chain: ["NSDate", "NSObject"]),
                                      fields: ["NS.time": .real(Double(random.next() % 1_000_000_000) / 7)])
            let data = builder.object(class: builder.classRecord("NSData", chain: ["NSData", "NSObject"]),
                                      fields: ["NS.bytes": .data((0 ..< Int(random.next() % 40)).map { UInt8(truncatingIfNeeded: $0 * 37) })])
            var tags: [UInt32] = []
            for _ in 0 ..< Int(random.next() % 4) { tags.append(builder.add(.string("tag\(random.next() % 100)"))) }
            let list = builder.array(of: tags)
            let shared = made.isEmpty ? KeyedArchiveBuilder.null : made[Int(random.next() % UInt64(made.count))]
            let keyA = builder.add("k\"ey"), keyB = builder.add("$$dollar")
            let valueA = builder.add(.integer(Int128(random.next() % 1000) - 500)), valueB = builder.add(.real(0.1 * Double(index)))
            let dictionary = builder.dictionary(keys: [keyA, keyB], values: [valueA, valueB])
            let object = builder.object(class: item, fields: [
                "title": .uid(title), "missing": .uid(KeyedArchiveBuilder.null), "count": .integer(Int128(index)),
                "ratio": .real(Double(index) / 3), "flag": .bool(index % 2 == 0), "when": .uid(date), "blob": .uid(data),
                "tags": .uid(list), "link": .uid(index % 3 == 0 ? shared : KeyedArchiveBuilder.null), "map": .uid(dictionary),
                "$$user": .uid(title),
            ])
            made.append(object)
        }
        let roots = stride(from: 0, to: made.count, by: max(1, made.count / 8)).map { made[$0] }
        builder.setTop("root", builder.array(of: roots))
        builder.setTop("all", builder.array(of: made))
        return builder.binary()
    }
}
