/// What the command line asked for: `notify-bench [--quick] [--filter SUBSTRING] [--markdown] [--list]`.
struct BenchOptions {
    /// Fewer and shorter rounds, for a CI smoke test.
    var quick = false
    /// Only benchmarks whose name contains this (case-insensitive); nil runs everything.
    var filter: String?
    /// Print the report as a Markdown table.
    var markdown = false
    /// Print the benchmark names and exit.
    var list = false

    static let usage = """
        usage: notify-bench [--quick] [--filter SUBSTRING] [--markdown] [--list]
          --quick             fewer, shorter rounds: about 15 s, for CI (a full run takes about 50 s)
          --filter SUBSTRING  run only benchmarks whose name contains SUBSTRING (case-insensitive)
          --markdown          print the table as Markdown, for the README
          --list              print the benchmark names and exit
        """

    enum ParseError: Error, CustomStringConvertible {
        case unknown(String)
        case missingValue(String)
        case help

        var description: String {
            switch self {
            case .unknown(let argument): "unknown argument '\(argument)'"
            case .missingValue(let option): "\(option) needs a value"
            case .help: "help requested"
            }
        }
    }

    /// Parses the arguments after the program name.
    init(arguments: some Sequence<String>) throws(ParseError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--markdown": markdown = true
            case "--list": list = true
            case "--help", "-h": throw .help
            case "--filter":
                guard let value = iterator.next() else { throw .missingValue(argument) }
                filter = value
            case _ where argument.hasPrefix("--filter="):
                filter = String(argument.dropFirst("--filter=".count))
            default:
                throw .unknown(argument)
            }
        }
    }

    /// Whether the benchmark called `name` should run.
    func selects(_ name: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        return name.lowercased().contains(filter.lowercased())
    }
}
