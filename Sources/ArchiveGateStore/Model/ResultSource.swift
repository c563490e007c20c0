/// Where a stored archive came from.
public enum ResultSource: Hashable, Sendable, CustomStringConvertible {
    /// The request body of `POST /v1/archives`.
    case upload
    /// The URL that `POST /v1/fetch` retrieved (http or https, so never the text `upload`).
    case url(String)

    /// The stored spelling: `upload`, or the URL itself.
    public var description: String {
        switch self {
        case .upload: "upload"
        case .url(let url): url
        }
    }

    /// Reads the stored spelling back.
    public init(storedText: String) {
        self = storedText == "upload" ? .upload : .url(storedText)
    }
}
