import ArchiveGateCore

/// Rewrites the marker arrays `GraphGenerator` archives in place of NSDecimalNumber and NSError
/// (corelibs cannot archive either) into Apple's keyed encoding of those classes.
extension ArchiveModel {
    mutating func replacePlaceholders() {
        var decimalClass: UInt32?
        var errorClass: UInt32?
        for uid in objects.indices {
            guard case .array(let elements)? = objects[uid][field: "NS.objects"], let first = elements.first,
                  case .uid(let markerUID) = first, case .string(let marker) = objects[Int(markerUID)] else { continue }
            let values = elements.dropFirst().map { element -> PropertyListValue in
                if case .uid(let target) = element { return objects[Int(target)] }
                return element
            }
            if marker == "\u{1}DEC", values.count == 3, case .integer(let mantissa) = values[0], case .integer(let exponent) = values[1] {
                let classUID = decimalClass ?? addClassRecord(["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"])
                decimalClass = classUID
                var words: [UInt8] = []
                var rest = UInt64(mantissa)
                var length = 0
                for word in 0 ..< 8 {
                    words += [UInt8(rest & 0xFF), UInt8(rest >> 8 & 0xFF)]
                    rest >>= 16
                    if rest == 0, length == 0, mantissa != 0 { length = word + 1 }
                }
                let negative: Bool = if case .bool(let flag) = values[2] { flag } else { false }
                objects[uid] = .dictionary([
                    "$class": .uid(classUID), "NS.exponent": .integer(exponent), "NS.length": .integer(Int128(length)),
                    "NS.negative": .bool(negative && mantissa != 0), "NS.compact": .bool(true), "NS.mantissa.bo": 1, "NS.mantissa": .data(words),
                ])
            } else if marker == "\u{1}ERR", values.count >= 2, case .uid(let domain) = elements[1], case .integer(let code) = values[1] {
                let classUID = errorClass ?? addClassRecord(["NSError", "NSObject"])
                errorClass = classUID
                var fields: [PropertyListValue.Entry] = [.init(key: "$class", value: .uid(classUID)), .init(key: "NSCode", value: .integer(code)),
                                                         .init(key: "NSDomain", value: .uid(domain))]
                if elements.count > 3 { fields.append(.init(key: "NSUserInfo", value: elements[3])) }
                objects[uid] = .dictionary(fields)
            }
        }
    }
}
