import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Foundation side of the oracle, run as `ArchiveGateOracle --worker` in a child process,
/// because swift-corelibs-foundation's `NSKeyedUnarchiver` traps (`fatalError`, stack overflow) on
/// bad input instead of throwing.
///
/// It is a fork server: the worker warms Foundation up once, then forks a child that answers
/// requests until it dies; the parent reports the death as a `crashed` answer and forks again, so a
/// trap costs a `fork()` (about a millisecond), not a process start. Protocol on stdin/stdout:
/// request = 4-byte little-endian length + archive bytes; answer = 1 status byte
/// (`WorkerStatus`) + 4-byte length + payload (the decoded graph as `FoundationJSON`, or a message).
enum FoundationWorker {
    /// Shared with the decoding child (see `run`).
    nonisolated(unsafe) static var decodedFlag = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    /// The classes passed to `unarchivedObject(ofClasses:from:)`: ArchiveGate's `foundation` group.
    static let allowedClasses: [AnyClass] = [
        NSString.self, NSMutableString.self, NSNumber.self, NSData.self, NSMutableData.self, NSDate.self,
        NSArray.self, NSMutableArray.self, NSDictionary.self, NSMutableDictionary.self,
        NSNull.self, NSSet.self, NSMutableSet.self, NSOrderedSet.self, NSMutableOrderedSet.self, NSURL.self, NSUUID.self,
        NSValue.self, NSAttributedString.self, NSMutableAttributedString.self, NSDecimalNumber.self,
        NSIndexSet.self, NSMutableIndexSet.self, NSError.self, NSLocale.self, NSTimeZone.self,
        NSPersonNameComponents.self, NSDateInterval.self, NSIndexPath.self,
        NSMeasurement.self, Unit.self, UnitAcceleration.self, UnitAngle.self, UnitArea.self, UnitDispersion.self,
        UnitDuration.self, UnitElectricCharge.self, UnitElectricCurrent.self, UnitElectricPotentialDifference.self,
        UnitElectricResistance.self, UnitEnergy.self, UnitFrequency.self, UnitIlluminance.self, UnitLength.self,
        UnitMass.self, UnitPower.self, UnitPressure.self, UnitSpeed.self, UnitTemperature.self, UnitVolume.self,
        UnitConverterLinear.self, NSAffineTransform.self, NSDateComponents.self, NSCalendar.self,
    ]

    /// The children's stack limit; ORACLE_CHILD_STACK_KIB overrides it (for checking that a verdict
    /// does not depend on it).
    static var childStackKiB: Int {
        getenv("ORACLE_CHILD_STACK_KIB").flatMap { Int(String(cString: $0)) } ?? 256
    }

    static func run() -> Never {
        signal(SIGPIPE, SIG_IGN)
        // Own process group, so the driver can kill the server and a stuck child together.
        setpgid(0, 0)
        // A trap must not cost a core dump.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        // Lazy initialisation happens before the fork, once, instead of in every child.
        if let warm = try? NSKeyedArchiver.archivedData(withRootObject: ["w": [1, "x"]] as NSDictionary, requiringSecureCoding: true) {
            _ = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: allowedClasses, from: warm)
        }
        // Cycles make corelibs recurse until the stack overflows; a 256 KiB stack (checked by the kernel
        // as the main thread's stack grows, so it binds the children) makes that ~30x cheaper.
        var stack = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &stack)
        stack.rlim_cur = rlim_t(childStackKiB) << 10
        setrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &stack)
        // One shared byte: 0 while NSKeyedUnarchiver runs, 1 while the oracle writes the decoded graph,
        // 2 while Foundation enumerates a decoded collection for it. A trap at 1 is the oracle's own
        // (`writerCrashed`); at 0 or 2 it is Foundation's.
        let shared = mmap(nil, 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)!
        decodedFlag = shared.assumingMemoryBound(to: UInt8.self)
        while true {
            decodedFlag.pointee = 0
            let child = fork()
            if child == 0 {
                serve()
            }
            if child < 0 { exit(70) }
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            // The child exits 0 only at end of input.
            if status == 0 { exit(0) }
            let signalNumber = status & 0x7F
            let message = signalNumber != 0 ? "signal \(signalNumber)" : "exit \((status >> 8) & 0xFF)"
            writeAnswer(decodedFlag.pointee == 1 ? .writerCrashed : .crashed, Array(message.utf8))
        }
    }

    /// Answers requests until end of input.
    private static func serve() -> Never {
        while let request = readRequest() {
            let data = Data(request)
            do {
                decodedFlag.pointee = 0
                // A `$null` root (UID 0, or a string "$null" elsewhere) decodes to nil without an
                // error: Foundation's graph is nil, ArchiveGate's `{"root": null}`.
                guard let root = try NSKeyedUnarchiver.unarchivedObject(ofClasses: allowedClasses, from: data) else {
                    writeAnswer(.decoded, Array((topMembers(request, root: NSNull()) ?? Array("null".utf8))))
                    continue
                }
                decodedFlag.pointee = 1
                if let top = topMembers(request, root: root) {
                    writeAnswer(.decoded, top)
                } else {
                    var writer = FoundationJSON()
                    writer.write(root)
                    writeAnswer(.decoded, writer.bytes)
                }
                decodedFlag.pointee = 0
            } catch {
                writeAnswer(.refused, Array(String(describing: error).prefix(400).utf8))
            }
        }
        exit(0)
    }

    private static func readRequest() -> [UInt8]? {
        var header = [UInt8](repeating: 0, count: 4)
        guard readFully(&header) else { return nil }
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        var body = [UInt8](repeating: 0, count: length)
        guard readFully(&body) else { return nil }
        return body
    }

    private static func readFully(_ buffer: inout [UInt8]) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            done += count
        }
        return true
    }

    private static func writeAnswer(_ status: WorkerStatus, _ payload: [UInt8]) {
        var message = [status.rawValue]
        let length = UInt32(payload.count)
        message += [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)]
        message += payload
        var done = 0
        while done < message.count {
            let count = message.withUnsafeBytes { write(1, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { exit(0) }
            done += count
        }
    }
}

/// What the worker says about one archive.
enum WorkerStatus: UInt8 {
    /// Foundation decoded it; the payload is the graph as JSON.
    case decoded = 0
    /// Foundation threw or returned nil; the payload is the message.
    case refused = 1
    /// The decoding child died (trap, stack overflow); the payload names the signal.
    case crashed = 2
    /// The driver gave up waiting (set by the driver, never sent).
    case timedOut = 3
    /// Foundation decoded the archive, then the oracle's own JSON writing trapped: a harness bug,
    /// reported as such (never as a Foundation refusal).
    case writerCrashed = 4
}
