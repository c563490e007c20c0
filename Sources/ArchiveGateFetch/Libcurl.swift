import CCurl

/// libcurl, loaded with `dlopen` the first time a fetch needs it rather than linked.
///
/// Linking it would make every `archivegate` command (and the server) load libcurl's ~30
/// dependencies at start-up, although only fetching uses them (docs/BENCHMARKS.md, "Start-up").
/// `CCurl.h` resolves the functions into an `ag_curl_api` table; this type loads it once per
/// process and runs `curl_global_init` right after, before any handle exists. A machine without
/// libcurl gets `FetchError.Code.unavailable` from every fetch, never a crash.
struct Libcurl: @unchecked Sendable {  // a table of C function pointers, written once, then only read
    /// The resolved functions (`curl_easy_init` is `api.easy_init`, and so on).
    let api: ag_curl_api

    /// Loaded on first access and kept for the life of the process. Swift initializes a static
    /// `let` once, thread-safely, so `dlopen` and `curl_global_init` (which is not thread-safe)
    /// run exactly once even when the first fetches start together.
    private static let loaded: Result<Libcurl, FetchError> = load()

    /// The loaded library, or `FetchError.Code.unavailable` saying how to install it.
    static func shared() throws(FetchError) -> Libcurl { try loaded.get() }

    private static func load() -> Result<Libcurl, FetchError> {
        let table = UnsafeMutablePointer<ag_curl_api>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let reason = ag_curl_load(table) {
            return .failure(FetchError(.unavailable, "fetching needs libcurl (\(AG_CURL_LIBRARY)), which could not be loaded: \(String(cString: reason)); install it (Debian/Ubuntu: apt-get install libcurl4)"))
        }
        let api = table.move()
        let code = api.global_init(Int(CURL_GLOBAL_ALL))
        guard code == CURLE_OK else {
            return .failure(FetchError(.unavailable, "libcurl could not be initialized (curl_global_init: \(String(cString: api.easy_strerror(code))))"))
        }
        return .success(Libcurl(api: api))
    }
}
