/// The stable codes of policy violations (as opposed to errors: a violation is a finding about a
/// well-formed archive).
public enum ViolationCode: String, Hashable, Sendable, CaseIterable {
    /// An object's class is not in the policy's `allow` set where no key schema names classes.
    case classNotAllowed = "policy.class_not_allowed"
    /// A key (or root, or collection element) expects other classes than the object has.
    case classMismatch = "policy.class_mismatch"
    /// An inline scalar where a different inline kind or a referenced object was expected
    /// (NSString, NSNumber and NSData are not interchangeable).
    case inlineTypeMismatch = "policy.inline_type_mismatch"
    /// A key the class schema does not name, under `unknownKeys: reject`.
    case unknownKey = "policy.unknown_key"
    /// A `required` key is absent or nil.
    case missingRequiredKey = "policy.missing_required_key"
}
