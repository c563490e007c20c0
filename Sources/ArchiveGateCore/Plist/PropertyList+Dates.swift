extension PropertyList {
    /// Seconds from 2001-01-01 that an ISO 8601 date with a four-digit year can carry: from
    /// `NSDate.distantPast` (-63,114,076,800) up to 10000-01-01T00:00:00Z, excluded. The binary
    /// reader refuses other dates, and the encoder refuses to write them.
    static let representableDates: Range<Double> = -63_114_076_800 ..< 252_423_993_600
}
