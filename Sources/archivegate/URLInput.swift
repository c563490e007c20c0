import ArchiveGateCore
import ArchiveGateFetch
import ArgumentParser

/// How an input is fetched from a URL: the server's SSRF-safe fetcher (`ArchiveFetcher`, the rules
/// of `POST /v1/fetch`) with the CLI's two knobs. Shared by `validate --url`, `convert --url` and
/// the `fetch` alias.
struct FetchSwitches: ParsableArguments {
    static let defaultTimeout = 30

    @Option(name: .customLong("allow-range"),
            help: ArgumentHelp("With a URL: allow an address range the deny list refuses, e.g. 127.0.0.0/8 (repeatable).", valueName: "CIDR"))
    var allowRanges: [String] = []

    @Option(name: .long, help: ArgumentHelp("With a URL: seconds allowed for the whole fetch (default 30).", valueName: "seconds"))
    var timeout: Int?

    /// True when a switch was given (they mean something only with a URL).
    var isSet: Bool { !allowRanges.isEmpty || timeout != nil }

    func validate() throws {
        for range in allowRanges where IPAddressRange(range) == nil {
            throw ValidationError("--allow-range takes a CIDR range such as 127.0.0.0/8 or fd00::/8; got '\(range)'")
        }
        if let timeout, timeout <= 0 { throw ValidationError("--timeout is a positive number of seconds") }
    }

    /// The body at `url`, at most `maxBytes` (the policy's `maxInputBytes`). A failed fetch prints
    /// one line `fetch.<code>: message` and exits 2: there is no input to give a verdict on.
    func fetch(_ url: String, maxBytes: Int) async throws -> ByteStorage {
        let policy = FetchPolicy(allowedRanges: allowRanges.compactMap(IPAddressRange.init), maxBytes: maxBytes,
                                 totalTimeout: .seconds(timeout ?? Self.defaultTimeout))
        do {
            return ByteStorage(try await ArchiveFetcher(userAgent: "archivegate-cli/1").fetch(url, policy: policy).bytes)
        } catch {
            Terminal.error("\(error.code.rawValue): \(error.status.map { "HTTP \($0): " } ?? "")\(error.message)")
            throw CLIExit.malformed
        }
    }
}

/// `--url URL` and its switches: an input source of `validate` and `convert` beside files.
struct URLInput: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Fetch the input from this http(s) URL instead of reading a file (the rules of POST /v1/fetch).",
                                            valueName: "url"))
    var url: String?

    @OptionGroup var fetching: FetchSwitches

    /// Checks that a URL is the only input and that fetch switches come with one.
    func check(files: [String], batch: BatchOptions) throws {
        if url == nil, fetching.isSet { throw ValidationError("--allow-range and --timeout apply to --url") }
        guard url != nil else {
            if files.isEmpty { throw ValidationError("give a file ('-' for stdin), a folder, or --url URL") }
            return
        }
        if !files.isEmpty { throw ValidationError("--url is the input: give no file with it") }
        if batch.requested { throw ValidationError("--url is one input, not a batch: --jobs, --out and --recursive take files and folders") }
    }
}

/// Where one input comes from, as it names the input on stderr and in its record (`"file"` or `"url"`).
enum InputSource {
    case file(String)
    case url(String)

    /// The file path or URL.
    var name: String {
        switch self {
        case .file(let path): path
        case .url(let url): url
        }
    }

    /// The record's origin member.
    var origin: KeyValuePairs<String, BatchRecord.OriginValue> {
        switch self {
        case .file(let path): ["file": .text(path)]
        case .url(let url): ["url": .text(url)]
        }
    }

    /// The input's bytes: a file read (mapped where it can be) or a URL fetched, at most `limit` + 1.
    func load(limit: Int, fetching: FetchSwitches) async throws -> ByteStorage {
        switch self {
        case .file(let path): try InputReader.load(path, limit: limit)
        case .url(let url): try await fetching.fetch(url, maxBytes: limit)
        }
    }
}
