extension DangerCatalogue {
    /// The catalogue ArchiveGate ships with. References are short citations of the public record.
    ///
    /// Version 2: class names are matched as Foundation's lookup sees them (`ClassLookupName`) and
    /// along the claimed `$classes` chain, predicate and expression objects are recognised by their
    /// keys (`DangerEntry.keys`, the names Foundation's and GNUstep's `encodeWithCoder:` write),
    /// and NSCustomPredicateOperator (a comparison by an archived selector) joined `danger.predicate`.
    public static let builtIn = DangerCatalogue(version: 2, entries: [
        DangerEntry(
            code: .predicate,
            match: .classes(["NSPredicate", "NSComparisonPredicate", "NSCompoundPredicate", "NSTruePredicate",
                             "NSFalsePredicate", "NSBlockPredicate", "NSCustomPredicateOperator"]),
            keys: ["NSPredicateOperator", "NSLeftExpression", "NSRightExpression", "NSSubpredicates", "NSCompoundPredicateType"],
            reason: "a decoded predicate is an expression program; evaluating it can call arbitrary selectors",
            reference: "FORCEDENTRY; CVE-2023-23530, CVE-2023-23531 (NSPredicate sandbox escapes)"),
        DangerEntry(
            code: .expression,
            match: .classes(["NSExpression", "NSConstantValueExpression", "NSKeyPathExpression", "NSFunctionExpression",
                             "NSSelfExpression", "NSVariableExpression", "NSAggregateExpression",
                             "NSSubqueryExpression", "NSTernaryExpression", "NSBlockExpression",
                             "NSUnionSetExpression", "NSIntersectSetExpression", "NSMinusSetExpression",
                             "NSAnyKeyExpression", "NSKeyPathSpecifierExpression", "NSVariableAssignmentExpression"]),
            keys: ["NSExpressionType", "NSSelectorName", "NSOperand", "NSArguments", "NSConstantValueClassName", "NSKeyPath"],
            reason: "an NSExpression names key paths and functions (FUNCTION(), selectors) run when it is evaluated",
            reference: "CVE-2023-23530, CVE-2023-23531; NSPredicate/NSExpression bug class"),
        DangerEntry(
            code: .sortDescriptor,
            match: .classes(["NSSortDescriptor"]),
            reason: "a sort descriptor carries a key path and a comparison selector invoked on the data it sorts",
            reference: "NSPredicate/NSExpression bug class (selector-carrying Foundation classes)"),
        DangerEntry(
            code: .invocation,
            match: .classes(["NSInvocation", "NSMethodSignature", "NSBlockInvocation"]),
            reason: "an invocation is a target, a selector and arguments: decoding one is a call waiting to happen",
            reference: "Project Zero, \"The Fully Remote Attack Surface of the iPhone\" (2019)"),
        DangerEntry(
            code: .sharedKeyDictionary,
            match: .classes(["NSSharedKeyDictionary", "NSSharedKeySet"]),
            reason: "private dictionary whose initWithCoder: trusted archived index tables (out-of-bounds read)",
            reference: "CVE-2019-8641; Project Zero, \"The Fully Remote Attack Surface of the iPhone\""),
        DangerEntry(
            code: .fileBackedData,
            match: .classes(["_NSDataFileBackedFuture"]),
            reason: "private NSData subclass that maps a file path and length taken from the archive",
            reference: "CVE-2019-8646; Project Zero, \"The Fully Remote Attack Surface of the iPhone\""),
        DangerEntry(
            code: .pfArray,
            match: .classes(["_PFArray"]),
            reason: "private Core Data array that did not retain the objects it decoded (use after free)",
            reference: "CVE-2019-8647; Project Zero, \"The Fully Remote Attack Surface of the iPhone\""),
        DangerEntry(
            code: .knownKeysDictionary,
            match: .classes(["NSKnownKeysDictionary1", "NSKnownKeysMappingStrategy1"]),
            reason: "private Core Data dictionary whose decoded key count was trusted (out-of-bounds read)",
            reference: "CVE-2019-8660; Project Zero, \"The Fully Remote Attack Surface of the iPhone\""),
        DangerEntry(
            code: .bigUTF8String,
            match: .classes(["SGBigUTF8String"]),
            reason: "private string class that trusted an archived length for its UTF-8 buffer",
            reference: "CVE-2019-8663; Project Zero, \"The Fully Remote Attack Surface of the iPhone\""),
        DangerEntry(
            code: .swiftNativeBase,
            match: .classPrefix("__SwiftNativeNS"),
            reason: "Swift runtime bridging base class: never archived by Foundation, not meant to be decoded",
            reference: "swiftlang/swift PR #24394 (__SwiftNativeNS*Base)"),
        DangerEntry(
            code: .urlBookmark,
            match: .shape(.urlBookmark),
            reason: "NSURL carrying NS.minimalBookmarkData: resolving bookmark bytes parses attacker data and touches files",
            reference: "CVE-2019-8661; Project Zero, \"The Fully Remote Attack Surface of the iPhone\""),
        DangerEntry(
            code: .claimedSuperclass,
            match: .shape(.claimedFoundationSuperclass),
            reason: "a non-Foundation class whose $classes claims a Foundation superclass passes isKindOfClass: checks",
            reference: "Project Zero, \"The Fully Remote Attack Surface of the iPhone\" (subclass substitution)"),
        DangerEntry(
            code: .nestedArchive,
            match: .shape(.nestedArchive),
            reason: "NSData holding a property list, keyed archive or typedstream invites a second, unchecked decode",
            reference: "JEP 290 (serialization filters apply to nested streams); CVE-2019-8646"),
    ])
}
