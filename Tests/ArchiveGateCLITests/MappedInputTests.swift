import Foundation
import Testing

/// `validate` and `convert` map a regular file instead of reading it (InputReader.load): the
/// mapped path must answer exactly as the read path (stdin) does, limits and errors included.
@Suite struct MappedInputTests {
    static func archive(_ object: Any) throws -> [UInt8] {
        Array(try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true))
    }

    static func xmlArchive(_ object: Any) throws -> [UInt8] {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.outputFormat = .xml
        archiver.encode(object, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return Array(archiver.encodedData)
    }

    static var sample: NSDictionary {
        ["name": "ü and ascii", "blob": Data((0 ..< 200).map { UInt8($0) }) as NSData,
         "list": ["a", 2, 3.5, Date(timeIntervalSince1970: 1_000_000)] as NSArray]
    }

    @Test(arguments: ["binary", "xml"])
    func mappedFileAndStandardInputGiveTheSameAnswer(format: String) throws {
        let bytes = format == "xml" ? try Self.xmlArchive(Self.sample) : try Self.archive(Self.sample)
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(bytes, named: "sample.archive", in: directory)
        for command in [["convert"], ["convert", "--mode", "typed"], ["validate"]] {
            let mapped = try CLIRunner.run(command + [file])
            let piped = try CLIRunner.run(command + ["-"], stdin: Data(bytes))
            #expect(mapped.status == 0)
            #expect(!mapped.stdout.isEmpty)
            #expect(mapped.stdout == piped.stdout.replacingOccurrences(of: "\"file\":\"-\"", with: "\"file\":\"\(file)\""))
            #expect(mapped.stderr.isEmpty)
        }
    }

    /// A mapping of 8 MiB or more is given back every 5 ms while it is read (MappedFile.Trimmer,
    /// peak RSS): the passes fault its pages back in, and the answer is the read path's.
    @Test func aTrimmedMappingGivesTheSameAnswerAsStandardInput() throws {
        let strings = (0 ..< 60_000).map { "string \($0) " + String(repeating: "abcdefghij", count: 14) } as NSArray
        let bytes = try Self.archive(strings)
        #expect(bytes.count >= 8 << 20, "the archive must be large enough to be trimmed")
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(bytes, named: "large.archive", in: directory)
        for command in [["convert"], ["validate"]] {
            let mapped = try CLIRunner.run(command + [file])
            let piped = try CLIRunner.run(command + ["-"], stdin: Data(bytes))
            #expect(mapped.status == 0)
            if command == ["convert"] { #expect(mapped.stdout.contains("string 59999 abcdefghij")) }
            #expect(mapped.stdout == piped.stdout.replacingOccurrences(of: "\"file\":\"-\"", with: "\"file\":\"\(file)\""))
            #expect(mapped.stderr.isEmpty)
        }
    }

    @Test func mappedFileOverTheInputLimitFailsAtTheLimit() throws {
        let bytes = try Self.archive(Self.sample)
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(bytes, named: "big.archive", in: directory)
        let limit = bytes.count - 1
        let result = try CLIRunner.run(["validate", "--limit", "maxInputBytes=\(limit)", file])
        #expect(result.status == 3, "a limit is inconclusive")
        #expect(result.stdout.contains(#""verdict":"inconclusive","verdictReason":"plist.input_too_large""#))
        #expect(result.stderr.contains("plist.input_too_large at byte \(limit)"))
        let atLimit = try CLIRunner.run(["validate", "--limit", "maxInputBytes=\(bytes.count)", file])
        #expect(atLimit.status == 0)
    }

    @Test func emptyAndTruncatedFilesAreTypedErrors() throws {
        let bytes = try Self.archive(Self.sample)
        let directory = try CLIRunner.temporaryDirectory()
        let empty = try CLIRunner.write([], named: "empty.archive", in: directory)
        let truncated = try CLIRunner.write(Array(bytes.prefix(bytes.count / 2)), named: "half.archive", in: directory)
        let emptyResult = try CLIRunner.run(["convert", empty])
        #expect(emptyResult.status == 2)
        #expect(emptyResult.stderr.contains("plist.not_a_property_list"))
        let truncatedResult = try CLIRunner.run(["convert", truncated])
        #expect(truncatedResult.status == 2)
        #expect(truncatedResult.stdout.isEmpty)
        #expect(truncatedResult.stderr.contains("malformed: plist."))
    }
}
