import ArchiveGateCore
import ArgumentParser

/// `--class-names keep|drop` and `--nulls keep|drop` for plain JSON (see `PlainJSONFilter`).
struct OutputSwitches: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case keep, drop
    }

    @Option(name: .customLong("class-names"), help: "keep or drop the \"$class\" member of custom objects (plain mode).")
    var classNames: Choice = .keep

    @Option(name: .long, help: "keep or drop object members whose value is null (plain mode; array elements stay).")
    var nulls: Choice = .keep

    var filter: PlainJSONFilter { PlainJSONFilter(dropsClassNames: classNames == .drop, dropsNulls: nulls == .drop) }

    /// Throws when a switch is used with typed mode, where `$class` and nulls are the archive itself.
    func check(mode: OutputMode) throws {
        if mode == .typed, !filter.isIdentity { throw ValidationError("--class-names and --nulls apply to plain mode only") }
    }
}
