import ArgumentParser

/// How `validate` and `scan-db` report: JSON Lines records as each input is done (the default), or
/// one SARIF 2.1.0 log for code-scanning dashboards, written once every input is done.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case jsonl
    case sarif

    static let help = ArgumentHelp("jsonl (one JSON record per input, the default) or sarif (one SARIF 2.1.0 log on stdout; docs/GATES.md).",
                                   valueName: "format")
}
