import Foundation

/// Milliseconds since 1970 (UTC), the stored form of every instant.
enum Timestamp {
    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        return value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int64(value)
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
