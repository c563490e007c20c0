import ArchiveGateCore

/// What a request is charged against the memory budget (`MemoryBudget`) before and while its work
/// runs: the one place these factors are stated (docs/MEMORY.md explains them; `/readyz`
/// and the start-up log show what they allow).
///
///     body      the upload as it is read (the gzip's inflated archive as it grows)   ArchiveBody
///     decode    the archive's bytes once more + `bytesPerObject` × its plist objects  up front
///               (a binary plist states its object count in its trailer; XML: one per
///               `xmlBytesPerObject` bytes), at most the policy's `maxObjects`
///     typed     `bytesPerTypedJSONByte` × the JSON (encode's value tree)              up front
///     output    as it is written, in 64 KiB steps: 1 × JSON; `writtenArchiveBytesPerByte` × a
///               written archive (it is read back: encode checks it, sanitize cascades)  BudgetedOutput
///
/// The decode and typed estimates are given back when the work ends; the output stays reserved
/// until the response has been sent. Measured: validating a 59 MiB binary archive of 4,000,023
/// objects peaks 298 MiB (the process, input included): about 60 bytes per object beside the input.
enum DecodeEstimate {
    /// Decode working set per plist object: its entry in the object table, the archive's entry
    /// table, the walk's per-object memos and report state.
    static let bytesPerObject = 64
    /// An XML plist spends at least this many bytes per object (`<string></string>` and a line).
    static let xmlBytesPerObject = 8

    /// Reserved up front to decode `archive` under a `maxObjects` limit.
    static func decode(_ archive: [UInt8], maxObjects: Int) -> Int {
        let objects = min(objectCount(archive), maxObjects)
        let (perObject, overflow) = objects.multipliedReportingOverflow(by: bytesPerObject)
        return overflow ? .max : archive.count.addingReportingOverflow(perObject).partialValue
    }

    /// The objects a binary plist's trailer declares (the reader refuses a file that lies), or the
    /// most an XML plist of this size can hold.
    static func objectCount(_ archive: [UInt8]) -> Int {
        guard archive.count >= 40, archive.starts(with: Array("bplist".utf8)) else { return archive.count / xmlBytesPerObject }
        // Trailer: 6 unused bytes, offset size, reference size, then the object count (8 bytes, big endian).
        let count = archive[(archive.count - 24)..<(archive.count - 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(clamping: count)
    }

    /// encode's working set per typed-JSON byte: the `PropertyListValue` tree read from the JSON,
    /// the binary writer's object table and the read-back of the archive. An 11-byte `{"$uid":0}`
    /// is a boxed tree node, an object-table entry and a decoded object: about 150 bytes
    /// (scripts/robustness (j) peaked past its margin at 4 ×).
    static let bytesPerTypedJSONByte = 16
    /// A written archive is held and then decoded again (encode's check, sanitize's next round):
    /// itself, its bytes in the decode, and about as much again for its objects.
    static let writtenArchiveBytesPerByte = 3

    /// Reserved up front to read `jsonBytes` of typed JSON.
    static func typedJSON(jsonBytes: Int) -> Int {
        jsonBytes.multipliedReportingOverflow(by: bytesPerTypedJSONByte).overflow ? .max : jsonBytes * bytesPerTypedJSONByte
    }

    /// What `/readyz` and the start-up log show: the budget, a tenant's share, the factors and
    /// the largest archive of large values a tenant can convert.
    static func summary(_ limits: MemoryBudget.Limits) -> String {
        #"{"budgetBytes":\#(limits.totalBytes),"decodeBytesPerObject":\#(bytesPerObject),"#
            + #""largestConvertibleArchiveBytes":\#(largestConvertible(within: min(limits.tenantBytes, limits.totalBytes))),"#
            + #""tenantBytes":\#(limits.tenantBytes)}"#
    }

    /// The largest archive of large values (few objects) a convert can carry within `bytes` of
    /// budget when its JSON is as large as the archive: body + decode + JSON, one output step of rounding.
    static func largestConvertible(within bytes: Int) -> Int {
        max(0, (bytes - OutputBound.step) / 3)
    }
}
