/// The part of a `DangerMatcher` that depends on the catalogue alone, arranged for matching and
/// built once per catalogue (`builtIn`): every archive the walk checks (every HTTP request, every
/// file of a batch) shares it and resolves only its own classes (the matcher's set-up was 3 % of an
/// HTTP validate's CPU, this part rebuilt per archive among it).
struct DangerRules: Sendable {
    let catalogue: DangerCatalogue
    /// The entries that also recognise an object by its field keys (`DangerEntry.keys`).
    let keyEntries: [DangerEntry]
    let urlEntry: DangerEntry?
    let nestedEntry: DangerEntry?
    let claimedEntry: DangerEntry?
    /// The keys of `keyEntries` that can match a key object, in entry order (within one entry, no
    /// two keys equal the same key object, so the order among them is moot): only keys of more
    /// than 2 bytes starting with `N` are kept, the filter `DangerMatcher.keyMatch` applies to the
    /// archive's key first (equal keys agree on both).
    let keys: [Key]
    /// The longest of `keys` in bytes: a longer key object matches none.
    let longestKey: Int

    /// One key of a key entry: the entry (index in `keyEntries`), the key and its UTF-8 bytes.
    struct Key: Sendable {
        var entry: Int
        var name: String
        var utf8: [UInt8]
    }

    /// The rules of the built-in catalogue, built on first use.
    static let builtIn = DangerRules(catalogue: .builtIn)

    init(catalogue: DangerCatalogue) {
        self.catalogue = catalogue
        keyEntries = catalogue.keyEntries
        urlEntry = catalogue.shapeEntry(.urlBookmark)
        nestedEntry = catalogue.shapeEntry(.nestedArchive)
        claimedEntry = catalogue.shapeEntry(.claimedFoundationSuperclass)
        var keys: [Key] = []
        for (index, entry) in keyEntries.enumerated() {
            for name in entry.keys.sorted() where name.utf8.count > 2 && name.utf8.first == UInt8(ascii: "N") {
                keys.append(Key(entry: index, name: name, utf8: Array(name.utf8)))
            }
        }
        self.keys = keys
        longestKey = keys.map(\.utf8.count).max() ?? 0
    }
}
