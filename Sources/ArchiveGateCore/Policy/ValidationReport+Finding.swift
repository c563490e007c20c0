extension ValidationReport {
    /// A match of the danger catalogue: a known-dangerous class or shape in the archive.
    public struct Finding: Hashable, Sendable, Codable {
        /// The catalogue entry's code, such as `danger.predicate`.
        public var code: DangerCode
        /// The class of the object found.
        public var className: String
        /// JSON pointer into the plain JSON rendering (`/$objects/<uid>` for an object no `$top`
        /// entry reaches).
        public var path: String
        public var reason: String
        public var reference: String
        /// True when the policy acknowledges the class by name (`acknowledge`).
        public var acknowledged: Bool

        enum CodingKeys: String, CodingKey {
            case code, path, reason, reference, acknowledged
            case className = "class"
        }
    }

    /// Findings the policy does not acknowledge.
    public var unacknowledgedFindings: [Finding] { findings.filter { !$0.acknowledged } }
}
