/// How one archive came out, from comparing ArchiveGate with Foundation.
enum Outcome: String, CaseIterable {
    /// Both accept, and ArchiveGate's plain JSON equals Foundation's graph.
    case agreeValid = "agree-valid"
    /// Both refuse (Foundation throws, returns nil or traps).
    case agreeInvalid = "agree-invalid"
    /// ArchiveGate says valid; Foundation refuses or traps. Must be 0.
    case falseValid = "false-valid"
    /// Both accept, but the graphs differ. Must be 0.
    case wrongJSON = "wrong-json"
    /// ArchiveGate refuses what Foundation accepts (counted by ArchiveGate's rule).
    case stricter
    /// A disagreement explained by a known swift-corelibs-foundation bug (`KnownCorelibsBug`).
    case discounted
    /// The oracle itself failed on this archive (its JSON writer trapped). Must be 0; fails the run.
    case harnessError = "harness-error"
}

/// ArchiveGate's verdict on one archive, as `archivegate validate` + `convert` give it.
enum OurVerdict {
    case valid(json: [UInt8])
    /// Refused: the violation or error code (the "rule").
    case invalid(rule: String, detail: String)
}

/// The classified result of one archive.
struct Classification {
    var outcome: Outcome
    /// The stricter rule, the discounted bug, or a short reason.
    var label: String
    var detail: String
}
