import ArchiveGateCore
import Foundation

/// Archives on which the ArchiveGate core under test traps, recognised before it is called so a
/// long run survives them (a trap cannot be caught in-process). Each is a reported finding; each
/// such archive counts as `ours-trapped`, a failure.
enum KnownCoreTrap {
    /// `KeyedArchive.absoluteURLString(relatives:)` (verdicts 786e05e) bridges every NSURL of a base
    /// chain to `URL` with `as`; an NSURL that `URL` cannot hold (corelibs' `NSURL(string: "")`)
    /// traps there. True when some NSURL in the archive has such a base.
    static func nsurlBaseThatCannotBridge(_ model: ArchiveModel) -> Bool {
        for uid in model.objects.indices where model.className(of: uid) == "NSURL" {
            var relatives: [String] = []
            var current = uid
            while current != 0, relatives.count < 64, model.className(of: current) == "NSURL" {
                guard case .uid(let text)? = model.objects[current][field: "NS.relative"],
                      model.objects.indices.contains(Int(text)), case .string(let relative) = model.objects[Int(text)] else { break }
                relatives.append(relative)
                guard case .uid(let base)? = model.objects[current][field: "NS.base"], model.objects.indices.contains(Int(base)) else { break }
                current = Int(base)
            }
            var resolved: URL?
            for (position, relative) in relatives.reversed().enumerated() {
                guard let url = NSURL(string: relative, relativeTo: resolved) else { break }
                let isBase = position < relatives.count - 1
                guard let bridged = URL(string: url.absoluteString ?? "") else {
                    if isBase { return true }
                    break
                }
                resolved = bridged
            }
        }
        return false
    }
}
