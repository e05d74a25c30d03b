/// A call site as the trace names it: `File.swift` and line, or a function's name with line 0.
package struct ProbeSite: Sendable, Hashable {
    package var file: String
    package var line: UInt

    package init(file: String, line: UInt) {
        self.file = file
        self.line = line
    }

    /// No symbol and no line: the address was outside any file the symbolizer could read.
    package static let unknown = ProbeSite(file: "unknown", line: 0)

    /// A registration made before the probes attached: its call was not seen, only its deliveries.
    package static let beforeAttach = ProbeSite(file: "not seen: registered before attach", line: 0)

    /// A typed message's observer: its add does not pass the probed entry, only its runs do.
    package static let typedObserver = ProbeSite(file: "not seen: typed message observer", line: 0)
}
