import Foundation

/// Whether ArchiveGate's plain JSON for a value equals what Foundation decoded (tagged by
/// `FoundationJSON`). Deliberate looseness, each documented in docs/RELIABILITY.md: numbers compare
/// by value (`1` = `1.0`); a bool equals the integers 0/1 (corelibs' NSNumber cannot say it was a
/// bool); sets and non-string-keyed dictionaries compare as multisets; attributed-string runs compare
/// after adjacent equal runs are merged; NSError's absent `userInfo` (null) equals `{}`.
enum JSONComparison {
    static func equal(_ ours: JSONValue, _ foundation: JSONValue) -> Bool {
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
            return ours == isoDate(sinceReferenceDate: value)
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

    /// ArchiveGate's date form (README): UTC ISO 8601 with milliseconds (rounded down) inside years
    /// 1–9999, else the seconds as a number.
    static func isoDate(sinceReferenceDate seconds: Double) -> JSONValue {
        let unixMilliseconds = ((seconds + 978_307_200) * 1000).rounded(.down)
        guard unixMilliseconds.isFinite, unixMilliseconds >= -62_135_596_800_000, unixMilliseconds <= 253_402_300_799_999 else {
            if seconds.isNaN { return .string(Array("NaN".unicodeScalars)) }
            if seconds.isInfinite { return .string(Array((seconds < 0 ? "-Infinity" : "Infinity").unicodeScalars)) }
            return .number(seconds.description)
        }
        let total = Int64(unixMilliseconds)
        var days = total / 86_400_000
        var milliseconds = total % 86_400_000
        if milliseconds < 0 { milliseconds += 86_400_000; days -= 1 }
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(milliseconds / 3_600_000, 2)):\(pad(milliseconds / 60_000 % 60, 2)):\(pad(milliseconds / 1000 % 60, 2)).\(pad(milliseconds % 1000, 3))Z"
        return .string(Array(text.unicodeScalars))
    }
}
