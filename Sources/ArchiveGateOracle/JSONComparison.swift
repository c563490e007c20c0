import Foundation

/// Whether ArchiveGate's plain JSON for a value equals what Foundation decoded (tagged by
/// `FoundationJSON`). Deliberate looseness, each documented in docs/RELIABILITY.md: numbers compare
/// by value (`1` = `1.0`); a bool equals the integers 0/1 (corelibs' NSNumber cannot say it was a
/// bool); sets and non-string-keyed dictionaries compare as multisets; attributed-string runs compare
/// after adjacent equal runs are merged; NSError's absent `userInfo` (null) equals `{}`; a Foundation
/// object shown with the fields Foundation does not read compares by its `$value`.
enum JSONComparison {
    static func equal(_ ours: JSONValue, _ foundation: JSONValue) -> Bool {
        // Fields Foundation does not decode are shown beside the value (`{"$unread", "$value"}`):
        // the decoded graph is the `$value`.
        if case .object(let pairs) = ours, pairs.count == 2, pairs[0].key == "$unread", pairs[1].key == "$value" {
            return equal(pairs[1].value, foundation)
        }
        if case .object(let pairs) = foundation, pairs.count == 1, FoundationJSON.isTag(pairs[0].key) {
            return equalTagged(ours, tag: String(pairs[0].key.dropFirst()), pairs[0].value)
        }
        switch (ours, foundation) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return numbersEqual(a, b)
        case (.bool(let flag), .number(let text)): return numbersEqual(flag ? "1" : "0", text)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count, Set(a.map(\.key)).count == a.count else { return false }
            for pair in b {
                guard let mine = ours[FoundationJSON.unescapedKey(pair.key)], equal(mine, pair.value) else { return false }
            }
            return true
        default: return false
        }
    }

    private static func equalTagged(_ ours: JSONValue, tag: String, _ payload: JSONValue) -> Bool {
        switch tag {
        case "set":
            guard case .array(let mine) = ours, case .array(let theirs) = payload else { return false }
            return multisetEqual(mine, theirs)
        case "dict":
            guard case .array(let mine) = ours, case .array(let theirs) = payload else { return false }
            return multisetEqual(mine, theirs)
        case "date":
            guard case .number(let seconds) = payload, let value = Double(seconds) else { return false }
            return dateEqual(ours, sinceReferenceDate: value)
        case "decimal":
            guard let mine = ours.text, let theirs = payload.text else { return false }
            if mine == "NaN" || theirs == "NaN" { return mine == theirs }
            guard let a = Decimal(string: mine, locale: Locale(identifier: "en_US_POSIX")),
                  let b = Decimal(string: theirs, locale: Locale(identifier: "en_US_POSIX")) else { return false }
            return a == b
        case "error":
            guard let domain = ours["domain"], let code = ours["code"], let userInfo = ours["userInfo"] else { return false }
            guard equal(domain, payload["domain"]!), equal(code, payload["code"]!) else { return false }
            if userInfo == .null, case .object(let theirs) = payload["userInfo"]!, theirs.isEmpty { return true }
            return equal(userInfo, payload["userInfo"]!)
        case "attributed":
            return attributedEqual(ours, payload)
        case "cycle":
            return ours["$ref"] != nil
        default:
            return false
        }
    }

    private static func multisetEqual(_ mine: [JSONValue], _ theirs: [JSONValue]) -> Bool {
        guard mine.count == theirs.count else { return false }
        var unused = Array(mine.indices)
        for element in theirs {
            guard let match = unused.firstIndex(where: { equal(mine[$0], element) }) else { return false }
            unused.remove(at: match)
        }
        return true
    }

    private static func numbersEqual(_ a: String, _ b: String) -> Bool {
        let integral = { (text: String) in !text.contains(where: { ".eE".contains($0) }) }
        if integral(a), integral(b), let x = Int128(a), let y = Int128(b) { return x == y }
        guard let x = Double(a), let y = Double(b) else { return a == b }
        return x == y
    }

    /// NSAttributedString: ArchiveGate gives its runs, `[{"text","attributes"}]`; both sides become
    /// `(location, length, attributes)` runs (UTF-16 units), empty runs dropped and adjacent equal
    /// runs merged, and the texts must join to Foundation's string.
    private static func attributedEqual(_ ours: JSONValue, _ payload: JSONValue) -> Bool {
        guard case .array(let ourRuns) = ours, let theirText = payload["string"], case .array(let theirRuns)? = payload["runs"] else { return false }
        var mine: [(Int, Int, JSONValue)] = []
        var joined = ""
        for run in ourRuns {
            guard let text = run["text"]?.text, let attributes = run["attributes"] else { return false }
            mine.append((joined.utf16.count, text.utf16.count, attributes))
            joined += text
        }
        guard theirText.text == joined else { return false }
        var theirs: [(Int, Int, JSONValue)] = []
        for run in theirRuns {
            guard case .number(let l)? = run["location"], case .number(let n)? = run["length"], let location = Int(l), let length = Int(n),
                  let attributes = run["attributes"] else { return false }
            theirs.append((location, length, attributes))
        }
        let a = merged(mine), b = merged(theirs)
        return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && equal($0.2, $1.2) }
    }

    private static func merged(_ runs: [(Int, Int, JSONValue)]) -> [(Int, Int, JSONValue)] {
        var result: [(Int, Int, JSONValue)] = []
        for run in runs where run.1 > 0 {
            if let last = result.last, last.2 == run.2, last.0 + last.1 == run.0 {
                result[result.count - 1].1 += run.1
            } else {
                result.append(run)
            }
        }
        return result
    }

    /// ArchiveGate's date form (docs/JSON.md): UTC ISO 8601 inside years 1–9999 whose fraction (at least
    /// three digits) read as an exact decimal gives back the double; else the seconds as a number.
    static func dateEqual(_ ours: JSONValue, sinceReferenceDate seconds: Double) -> Bool {
        let unixMilliseconds = ((seconds + 978_307_200) * 1000).rounded(.down)
        guard unixMilliseconds.isFinite, unixMilliseconds >= -62_135_596_800_000, unixMilliseconds <= 253_402_300_799_999 else {
            if seconds.isNaN { return ours.text == "NaN" }
            if seconds.isInfinite { return ours.text == (seconds < 0 ? "-Infinity" : "Infinity") }
            guard case .number(let text) = ours else { return false }
            return Double(text) == seconds
        }
        guard let text = ours.text, let parsed = parseTimestamp(text) else { return false }
        // Exact decimal arithmetic (Foundation's Decimal holds 38 digits), then one rounding to Double.
        guard let fraction = Decimal(string: "0." + parsed.fraction, locale: Locale(identifier: "en_US_POSIX")) else { return false }
        let sinceReference = Decimal(parsed.unixSeconds - 978_307_200) + fraction
        return Double(sinceReference.description) == seconds
    }

    /// `YYYY-MM-DDTHH:MM:SS.f…Z` (three or more fraction digits) as Unix seconds and fraction digits.
    private static func parseTimestamp(_ text: String) -> (unixSeconds: Int64, fraction: String)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes.last == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? { Int64(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0 ..< 4), let month = number(5 ..< 7), let day = number(8 ..< 10), let hour = number(11 ..< 13),
              let minute = number(14 ..< 16), let second = number(17 ..< 19) else { return nil }
        let fraction = String(decoding: bytes[20 ..< bytes.count - 1], as: UTF8.self)
        guard fraction.count >= 3, fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return (days * 86_400 + hour * 3600 + minute * 60 + second, fraction)
    }
}
