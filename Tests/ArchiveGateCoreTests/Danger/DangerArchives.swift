import ArchiveGateCore

/// Hand-written archives holding each danger catalogue entry, in the shapes Foundation (or an
/// attacker imitating it) writes: the dangerous object is element 0 of a root NSArray, so its
/// plain-JSON path is `/root/0`.
enum DangerArchives {
    /// The path of the dangerous object in `archive(for:)`.
    static let path = "/root/0"

    /// Every catalogue code with the class its sample object has.
    static let samples: [(code: String, className: String)] = [
        ("danger.predicate", "NSComparisonPredicate"),
        ("danger.expression", "NSKeyPathExpression"),
        ("danger.sort_descriptor", "NSSortDescriptor"),
        ("danger.invocation", "NSInvocation"),
        ("danger.shared_key_dictionary", "NSSharedKeyDictionary"),
        ("danger.file_backed_data", "_NSDataFileBackedFuture"),
        ("danger.pf_array", "_PFArray"),
        ("danger.known_keys_dictionary", "NSKnownKeysDictionary1"),
        ("danger.big_utf8_string", "SGBigUTF8String"),
        ("danger.swift_native_base", "__SwiftNativeNSArrayBase"),
        ("danger.url_bookmark", "NSURL"),
        ("danger.claimed_superclass", "Evil.Array"),
        ("danger.nested_archive", "NSData"),
    ]

    /// `[sample]` under `$top["root"]`.
    static func archive(for code: String) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let sample = add(code, to: &builder)
        builder.setTop("root", builder.array(of: [sample]))
        return builder.binary()
    }

    /// `bytes` wrapped `levels` times: each level is an archive whose root NSArray holds one NSData
    /// with the level below, so the innermost object is at `nestedPath(levels)`.
    static func nested(_ bytes: [UInt8], levels: Int) -> [UInt8] {
        var current = bytes
        for _ in 0 ..< levels {
            var builder = KeyedArchiveBuilder()
            let data = builder.add(.data(current))
            builder.setTop("root", builder.array(of: [data]))
            current = builder.binary()
        }
        return current
    }

    static func nestedPath(_ levels: Int) -> String {
        String(repeating: "\(path)/$archive", count: levels) + path
    }

    /// An NSComparisonPredicate `name == "x"` as Foundation archives it.
    static func predicate(in builder: inout KeyedArchiveBuilder) -> UInt32 {
        let keyPath = keyPathExpression(in: &builder)
        let constantClass = builder.classRecord("NSConstantValueExpression", chain: ["NSConstantValueExpression", "NSExpression", "NSObject"])
        let constant = builder.object(class: constantClass, fields: ["NSExpressionType": 0, "NSConstantValue": .uid(builder.add("x"))])
        let operatorClass = builder.classRecord("NSPredicateOperator", chain: ["NSPredicateOperator", "NSObject"])
        let comparison = builder.object(class: operatorClass, fields: ["NSOperatorType": 4, "NSModifier": 0, "NSOptions": 0])
        let predicateClass = builder.classRecord("NSComparisonPredicate", chain: ["NSComparisonPredicate", "NSPredicate", "NSObject"])
        return builder.object(class: predicateClass, fields: ["NSPredicateOperator": .uid(comparison),
                                                              "NSLeftExpression": .uid(keyPath),
                                                              "NSRightExpression": .uid(constant)])
    }

    static func keyPathExpression(in builder: inout KeyedArchiveBuilder) -> UInt32 {
        let keyPathClass = builder.classRecord("NSKeyPathExpression", chain: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"])
        return builder.object(class: keyPathClass, fields: ["NSExpressionType": 3, "NSKeyPath": .uid(builder.add("name"))])
    }

    // swiftlint:disable:next function_body_length
    static func add(_ code: String, to builder: inout KeyedArchiveBuilder) -> UInt32 {
        func object(_ name: String, _ chain: [String], _ fields: KeyValuePairs<String, PropertyListValue>) -> UInt32 {
            builder.object(class: builder.classRecord(name, chain: chain), fields: fields)
        }
        switch code {
        case "danger.predicate":
            return predicate(in: &builder)
        case "danger.expression":
            return keyPathExpression(in: &builder)
        case "danger.sort_descriptor":
            let key = builder.add("name")
            let selector = builder.add("compare:")
            return object("NSSortDescriptor", ["NSSortDescriptor", "NSObject"],
                          ["NSKey": .uid(key), "NSAscending": true, "NSSelector": .uid(selector)])
        case "danger.invocation":
            let selector = builder.add("performSelector:")
            return object("NSInvocation", ["NSInvocation", "NSObject"], ["NSSelector": .uid(selector)])
        case "danger.shared_key_dictionary":
            let keySet = object("NSSharedKeySet", ["NSSharedKeySet", "NSObject"],
                                ["NS.algorithmType": 1, "NS.factor": 3, "NS.g": .data([0]), "NS.M": 1, "NS.numKey": 1,
                                 "NS.rankTable": .data([0, 0, 0, 0]), "NS.seed": 0, "NS.select": 0, "NS.keys": .array([])])
            return object("NSSharedKeyDictionary", ["NSSharedKeyDictionary", "NSMutableDictionary", "NSDictionary", "NSObject"],
                          ["NS.skkeyset": .uid(keySet), "NS.count": 0])
        case "danger.file_backed_data":
            let url = builder.add("file:///etc/passwd")
            return object("_NSDataFileBackedFuture", ["_NSDataFileBackedFuture", "NSData", "NSObject"],
                          ["NS.length": 4096, "NS.fileURL": .uid(url)])
        case "danger.pf_array":
            let element = builder.add("x")
            return object("_PFArray", ["_PFArray", "NSArray", "NSObject"], ["NS.objects": .array([.uid(element)])])
        case "danger.known_keys_dictionary":
            return object("NSKnownKeysDictionary1", ["NSKnownKeysDictionary1", "NSDictionary", "NSObject"],
                          ["NS.keys": .array([]), "NS.objects": .array([])])
        case "danger.big_utf8_string":
            return object("SGBigUTF8String", ["SGBigUTF8String", "NSString", "NSObject"],
                          ["NS.length": 1_073_741_824, "NS.bytes": .data(Array("hi".utf8))])
        case "danger.swift_native_base":
            return object("__SwiftNativeNSArrayBase", ["__SwiftNativeNSArrayBase", "NSArray", "NSObject"], ["NS.objects": .array([])])
        case "danger.url_bookmark":
            let relative = builder.add("file:///Users/victim/")
            let bookmark = builder.add(.data(Array("book\u{0}\u{0}\u{0}\u{0}mark".utf8)))
            return object("NSURL", ["NSURL", "NSObject"], ["NS.base": .uid(KeyedArchiveBuilder.null),
                                                           "NS.relative": .uid(relative),
                                                           "NS.minimalBookmarkData": .uid(bookmark)])
        case "danger.claimed_superclass":
            let element = builder.add("x")
            return object("Evil.Array", ["Evil.Array", "NSArray", "NSObject"], ["NS.objects": .array([.uid(element)])])
        case "danger.nested_archive":
            return builder.add(.data(BinaryPropertyListWriter.write(["a", "b"])))
        default:
            preconditionFailure("no sample for \(code): add one to DangerArchives")
        }
    }
}
