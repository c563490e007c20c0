import Foundation

/// The command line. Parent mode measures inputs; child mode (`--ours-case`/`--foundation-case`)
/// measures one case and is only ever started by the parent.
struct BenchOptions {
    enum Mode {
        case parent
        case child(CaseChild.Request)
        /// `--prepare-inputs a,b`: generate (or find) the inputs, print `name<TAB>path<TAB>bytes` lines.
        case prepareInputs([String])
        /// `--foundation-convert FILE`: the whole-process Foundation peer, JSON on stdout.
        case foundationConvert(String)
        case help
    }

    var mode = Mode.parent
    var quick = false
    var caseNames: [String]?
    var markdownPath: String?
    var inputsDirectory = ".build-bench-inputs"
    var timeoutSeconds = 900.0
    var plan: SamplingPlan?

    static let usage = """
    usage: archivegate-bench [--quick] [--cases NAME,...] [--markdown PATH]
                             [--budget SECONDS] [--min-runs N] [--inputs-dir DIR] [--timeout SECONDS]

      --quick          1kb and 2mb only, few runs (CI smoke; well under a minute)
      --cases a,b      inputs to measure: \(BenchInput.all.map(\.name).joined(separator: ", "))
      --markdown PATH  also write the tables to PATH
      --budget S       seconds of runs per case (default 1.5; --quick 0.2); N is adaptive
      --min-runs N     fewest runs per case (default 3; --quick 1)
      --inputs-dir D   where generated archives are cached (default .build-bench-inputs)
      --timeout S      kill a case's child process after S seconds (default 900)

    Used by scripts/lib-bench/whole.py (whole-process figures):
      --prepare-inputs a,b       generate/cache the inputs; print name, path and size per line
      --foundation-convert FILE  NSKeyedUnarchiver + JSONSerialization of FILE, JSON on stdout
    """

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var childEngine: Engine?
        var childInput: String?
        var childFile: String?
        var budget: Double?
        var minRuns: Int?
        var maxRuns: Int?
        var iterator = arguments.makeIterator()

        func value(_ flag: String) throws -> String {
            guard let value = iterator.next() else { throw BenchError.usage("\(flag) needs a value") }
            return value
        }
        func number<T: LosslessStringConvertible>(_ flag: String) throws -> T {
            let text = try value(flag)
            guard let parsed = T(text) else { throw BenchError.usage("\(flag): '\(text)' is not a number") }
            return parsed
        }

        while let argument = iterator.next() {
            switch argument {
            case "--quick": options.quick = true
            case "--cases":
                let names = try value(argument).split(separator: ",").map(String.init)
                for name in names where BenchInput.named(name) == nil {
                    throw BenchError.usage("unknown case '\(name)'; known: \(BenchInput.all.map(\.name).joined(separator: ", "))")
                }
                options.caseNames = names
            case "--markdown": options.markdownPath = try value(argument)
            case "--inputs-dir": options.inputsDirectory = try value(argument)
            case "--timeout": options.timeoutSeconds = try number(argument)
            case "--budget": budget = try number(argument)
            case "--min-runs": minRuns = try number(argument)
            case "--max-runs": maxRuns = try number(argument)
            case "--foundation-case":
                childEngine = .foundation
                childInput = try value(argument)
            case "--ours-case": childInput = try value(argument)
            case "--mode":
                let text = try value(argument)
                guard let engine = Engine(rawValue: text), engine != .foundation else {
                    throw BenchError.usage("--mode is validate, plain or typed")
                }
                childEngine = engine
            case "--input-file": childFile = try value(argument)
            case "--prepare-inputs":
                let names = try value(argument).split(separator: ",").map(String.init)
                for name in names where BenchInput.named(name) == nil {
                    throw BenchError.usage("unknown case '\(name)'; known: \(BenchInput.all.map(\.name).joined(separator: ", "))")
                }
                options.mode = .prepareInputs(names)
            case "--foundation-convert": options.mode = .foundationConvert(try value(argument))
            case "-h", "--help": options.mode = .help
            default: throw BenchError.usage("unknown argument '\(argument)'")
            }
        }

        let base = options.quick ? SamplingPlan.quick : SamplingPlan.standard
        if budget != nil || minRuns != nil || maxRuns != nil {
            options.plan = SamplingPlan(budgetSeconds: budget ?? base.budgetSeconds, minRuns: max(1, minRuns ?? base.minRuns),
                                        maxRuns: max(1, maxRuns ?? base.maxRuns))
        }
        if let childInput {
            guard let childEngine, let childFile else {
                throw BenchError.usage("a child case needs --mode (for --ours-case) and --input-file")
            }
            options.mode = .child(CaseChild.Request(engine: childEngine, input: childInput, inputFile: childFile,
                                                   plan: options.plan ?? base))
        }
        return options
    }

    /// The inputs this run measures, in table order.
    var inputs: [BenchInput] {
        let names = caseNames ?? (quick ? BenchInput.quickNames : BenchInput.all.map(\.name))
        return BenchInput.all.filter { names.contains($0.name) }
    }

    var samplingPlan: SamplingPlan {
        plan ?? (quick ? .quick : .standard)
    }
}
