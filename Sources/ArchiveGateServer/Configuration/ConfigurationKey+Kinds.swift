import Foundation
import Logging

/// The kinds of value a key can hold; each checks JSON and text (environment, flags) strictly.
extension ConfigurationKey where Value == Int {
    /// A whole number in `range` (ports, seconds, counts). JSON: an integer, never a string or bool.
    static func integer(_ name: String, _ defaultValue: Int, in range: ClosedRange<Int>) -> Self {
        .init(name: name, defaultValue: defaultValue, documentedDefault: .value(.integer(defaultValue))) { raw in
            let value: Int
            switch raw {
            case .json(.integer(let number)): value = number
            case .text(let text):
                guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
                    return .failure(.init("\(raw.shown) is not a whole number"))
                }
                value = number
            case .json(let other): return .failure(.init("expected an integer, got \(other.typeName)"))
            }
            guard range.contains(value) else {
                return .failure(.init("\(value) is outside \(range.lowerBound)…\(range.upperBound)"))
            }
            return .success(value)
        }
    }

    /// A byte count of at least 1: an integer, or a string/variable such as `64k` or `16MiB`.
    static func size(_ name: String, _ defaultValue: Int, documented: DocumentedDefault? = nil) -> Self {
        .init(name: name, defaultValue: defaultValue, documentedDefault: documented ?? .value(.integer(defaultValue))) { raw in
            let parsed: Int?
            switch raw {
            case .json(.integer(let number)): parsed = number
            case .json(.string(let text)), .text(let text): parsed = ByteSize.parse(text)
            case .json(let other): return .failure(.init("expected a size (\(ByteSize.accepted)), got \(other.typeName)"))
            }
            guard let bytes = parsed else { return .failure(.init("\(raw.shown) is not \(ByteSize.accepted)")) }
            guard bytes >= 1 else { return .failure(.init("must be at least 1 byte")) }
            return .success(bytes)
        }
    }

}

extension ConfigurationKey where Value == Int? {
    /// `"auto"` (nil: the server works it out) or a size as for `size`.
    static func sizeOrAuto(_ name: String) -> Self {
        let size = ConfigurationKey<Int>.size(name, 1)
        return .init(name: name, defaultValue: nil, documentedDefault: .value(.string("auto"))) { raw in
            switch raw {
            case .json(.string("auto")), .text("auto"): .success(nil)
            default: size.parse(raw).map { $0 }.mapError { ConfigurationProblem("\($0.message), or \"auto\"") }
            }
        }
    }
}

extension ConfigurationKey where Value == Double {
    /// A fraction from 0.001 to 1 (shares of the memory budget):
    /// a share of 1e-300 is a budget of 0 bytes, a mistake rather than a setting.
    static func fraction(_ name: String, _ defaultValue: Double) -> Self {
        number(name, defaultValue, in: 0.001...1)
    }

    /// A finite number in `range` (rates, fractions). Range-checked here, at load, so that no
    /// arithmetic downstream meets 1e-300 or 1e308.
    static func number(_ name: String, _ defaultValue: Double, in range: ClosedRange<Double>) -> Self {
        let shown: ConfigurationJSON = Double(Int(defaultValue)) == defaultValue ? .integer(Int(defaultValue)) : .number(defaultValue)
        return .init(name: name, defaultValue: defaultValue, documentedDefault: .value(shown)) { raw in
            let value: Double
            switch raw {
            case .json(.integer(let number)): value = Double(number)
            case .json(.number(let number)): value = number
            case .text(let text):
                guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else {
                    return .failure(.init("\(raw.shown) is not a number"))
                }
                value = number
            case .json(let other): return .failure(.init("expected a number, got \(other.typeName)"))
            }
            guard range.contains(value) else {
                return .failure(.init("\(raw.shown) is outside \(range.lowerBound)…\(range.upperBound)"))
            }
            return .success(value)
        }
    }
}

extension ConfigurationKey where Value == Bool {
    /// `true` or `false`; nothing else (not `1`, not `"yes"`).
    static func boolean(_ name: String, _ defaultValue: Bool) -> Self {
        .init(name: name, defaultValue: defaultValue, documentedDefault: .value(.boolean(defaultValue))) { raw in
            switch raw {
            case .json(.boolean(let value)): .success(value)
            case .text("true"): .success(true)
            case .text("false"): .success(false)
            case .text: .failure(.init("\(raw.shown) is not true or false"))
            case .json(let other): .failure(.init("expected true or false, got \(other.typeName)"))
            }
        }
    }

}

extension ConfigurationKey where Value == String {
    /// A non-empty string.
    static func string(_ name: String, _ defaultValue: String) -> Self {
        .init(name: name, defaultValue: defaultValue, documentedDefault: .value(.string(defaultValue))) { raw in
            switch raw {
            case .json(.string(let text)), .text(let text):
                text.isEmpty ? .failure(.init("must not be empty")) : .success(text)
            case .json(let other): .failure(.init("expected a string, got \(other.typeName)"))
            }
        }
    }

}

extension ConfigurationKey where Value == String? {
    /// A string with no default. JSON `null`, or an empty variable, leaves it unset. `entry`
    /// checks a value (nil when fine) and must not quote it when the key is secret.
    static func optionalString(
        _ name: String, secret: Bool = false, environmentOnly: Bool = false,
        entry: @escaping @Sendable (String) -> String? = { _ in nil }
    ) -> Self {
        .init(name: name, defaultValue: nil, documentedDefault: .none, isSecret: secret, isEnvironmentOnly: environmentOnly) { raw in
            switch raw {
            case .json(.null): return .success(nil)
            case .json(.string(let text)), .text(let text):
                if text.isEmpty { return .success(nil) }
                if let message = entry(text) { return .failure(.init(message)) }
                return .success(text)
            case .json(let other): return .failure(.init("expected a string or null, got \(other.typeName)"))
            }
        }
    }
}

extension ConfigurationKey where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of a fixed set of names (`store.kind`: sqlite or postgres), exactly as written.
    static func choice(_ name: String, _ defaultValue: Value) -> Self {
        let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
        return .init(name: name, defaultValue: defaultValue, documentedDefault: .value(.string(defaultValue.rawValue))) { raw in
            switch raw {
            case .json(.string(let text)), .text(let text):
                if let value = Value(rawValue: text) { return .success(value) }
                return .failure(.init("\(raw.shown) is not one of \(names)"))
            case .json(let other): return .failure(.init("expected one of \(names), got \(other.typeName)"))
            }
        }
    }
}

extension ConfigurationKey where Value == [String] {
    /// A list of strings: a JSON array, or comma-separated text (`a,b`). Each entry is checked by
    /// `entry`, which returns an error message or nil.
    static func stringList(_ name: String, entry: @escaping @Sendable (String) -> String?) -> Self {
        .init(name: name, defaultValue: [], documentedDefault: .value(.array([]))) { raw in
            var list: [String] = []
            switch raw {
            case .json(.array(let items)):
                for item in items {
                    guard case .string(let text) = item else {
                        return .failure(.init("expected an array of strings, found \(item.typeName) in it"))
                    }
                    list.append(text)
                }
            case .text(let text):
                list = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            case .json(let other): return .failure(.init("expected an array of strings, got \(other.typeName)"))
            }
            for text in list { if let message = entry(text) { return .failure(.init(message)) } }
            return .success(list)
        }
    }

}

extension ConfigurationKey where Value == Logger.Level {
    /// One of swift-log's levels, case-insensitive.
    static func logLevel(_ name: String, _ defaultValue: Logger.Level) -> Self {
        .init(name: name, defaultValue: defaultValue, documentedDefault: .value(.string(defaultValue.rawValue))) { raw in
            switch raw {
            case .json(.string(let text)), .text(let text):
                if let level = Logger.Level(rawValue: text.lowercased()) { return .success(level) }
                return .failure(.init("\(raw.shown) is not one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"))
            case .json(let other): return .failure(.init("expected a level name, got \(other.typeName)"))
            }
        }
    }
}
