import ArgumentParser
import NotifyModel
import NotifySession
import NotifyTUI
import Testing

/// notifytop's typed option values: what each accepts, what it refuses, and the error a refused
/// value gets from ArgumentParser.
struct CommandLineValueTests {
    /// The options as notifytop declares them, without the command around them.
    struct Options: ParsableArguments {
        @Option var view = ViewList(.names)
        @Option(name: [.customShort("d"), .long]) var delay = RedrawDelay(milliseconds: 500)
        @Option var from: ReplayTime?
        @Option var sort: SortOption?
        @Option(name: .customLong("fail-on")) var failOn: LeakSeverity?
        @Option var theme = Theme.standard
        @Option var size: Size?
    }

    /// The message ArgumentParser prints for `arguments`, or nil when they parse.
    static func error(_ arguments: [String]) -> String? {
        do {
            _ = try Options.parse(arguments)
            return nil
        } catch {
            #expect(Options.exitCode(for: error) == .validationFailure, "\(arguments) exits 64")
            return Options.message(for: error)
        }
    }

    @Test func viewListsKeepOrderAndDropRepeats() throws {
        #expect(ViewList(argument: "names")?.views == [.names])
        #expect(ViewList(argument: "Leaks")?.views == [.leaks])
        #expect(ViewList(argument: "names, threads,leaks")?.views == [.names, .threads, .leaks])
        #expect(ViewList(argument: "3,names,3")?.views == [.threads, .names])
        let list = try #require(ViewList(argument: "4,1"))
        #expect(list.first == .leaks)
        #expect(list.rest == [.names])
        for bad in ["", ",", "names,", "bogus", "names,bogus", "7", "0"] {
            #expect(ViewList(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func replayTimesTakeThePromptSpellings() {
        #expect(ReplayTime(argument: "1.5s")?.nanoseconds == 1_500_000_000)
        #expect(ReplayTime(argument: "250ms")?.nanoseconds == 250_000_000)
        #expect(ReplayTime(argument: "2m")?.nanoseconds == 120_000_000_000)
        #expect(ReplayTime(argument: "3")?.nanoseconds == 3_000_000_000)
        #expect(ReplayTime(argument: "0")?.nanoseconds == 0)
        #expect(ReplayTime(argument: "2s")! < ReplayTime(argument: "2500ms")!)
        for bad in ["", "-1s", "1x", "s", "1h"] {
            #expect(ReplayTime(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func redrawDelaysNeedAUnit() {
        #expect(RedrawDelay(argument: "250ms")?.milliseconds == 250)
        #expect(RedrawDelay(argument: "1.5s")?.milliseconds == 1500)
        #expect(RedrawDelay(argument: "2S")?.milliseconds == 2000)
        for bad in ["200", "", "ms", "0ms", "0.5ms", "-1s", "infs", "nans", "1e3ms", "2 s", "2days"] {
            #expect(RedrawDelay(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func sortOptionsTakeAColumnAndADirection() {
        #expect(SortOption(argument: "posts") == SortOption(argument: "posts"))
        #expect(SortOption(argument: "posts")?.column == "posts")
        #expect(SortOption(argument: "posts")?.descending == nil)
        #expect(SortOption(argument: "deliv:ASC")?.descending == false)
        #expect(SortOption(argument: "posts:desc")?.descending == true)
        for bad in ["", ":asc", "posts:up", "posts:asc:desc"] {
            #expect(SortOption(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func replaySpeedsStayInTheKeysRange() {
        #expect(ReplaySpeed(argument: "0")?.factor == 0)
        #expect(ReplaySpeed(argument: "0.25")?.factor == 0.25)
        #expect(ReplaySpeed(argument: "64")?.factor == 64)
        for bad in ["", "0.1", "65", "100", "-1", "nan", "inf", "1e1", "2x"] {
            #expect(ReplaySpeed(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func themesSeveritiesAndSizesParseTheirNames() {
        #expect(Theme(argument: "LIGHT") == .light)
        #expect(Theme(argument: "default") == .standard)
        #expect(Theme(argument: "standard") == nil)
        #expect(LeakSeverity(argument: "Warning") == .warning)
        #expect(LeakSeverity(argument: "2") == nil, "not the raw value")
        #expect(Size(argument: "120x40") == Size(width: 120, height: 40))
        #expect(Size(argument: "80X24") == Size(width: 80, height: 24))
        for bad in ["", "120", "120x", "x40", "0x40", "120x0", "+1x2", "-5x3", "120x40x2", "10000x10"] {
            #expect(Size(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func goodValuesParseIntoTypes() throws {
        let options = try Options.parse([
            "--view", "names,leaks", "-d", "2s", "--from", "1.5s", "--sort", "posts:asc",
            "--fail-on", "warning", "--theme", "mono", "--size", "100x30",
        ])
        #expect(options.view.views == [.names, .leaks])
        #expect(options.delay.milliseconds == 2000)
        #expect(options.from?.nanoseconds == 1_500_000_000)
        #expect(options.sort?.column == "posts")
        #expect(options.failOn == .warning)
        #expect(options.theme == .mono)
        #expect(options.size == Size(width: 100, height: 30))
        let defaults = try Options.parse([])
        #expect(defaults.view.views == [.names])
        #expect(defaults.delay.milliseconds == 500)
        #expect(defaults.theme == .standard)
    }

    @Test func badValuesGetArgumentParsersError() {
        #expect(
            Self.error(["--theme", "pink"])
                == "The value 'pink' is invalid for '--theme <theme>'. Please provide one of 'default', 'light' or 'mono'."
        )
        #expect(
            Self.error(["--fail-on", "fatal"])
                == "The value 'fatal' is invalid for '--fail-on <fail-on>'. Please provide one of 'info', 'warning' or 'error'."
        )
        #expect(Self.error(["--view", "names,bogus"]) == "The value 'names,bogus' is invalid for '--view <view>'")
        #expect(Self.error(["-d", "200"]) == "The value '200' is invalid for '-d <delay>'")
        #expect(Self.error(["--from", "soon"]) == "The value 'soon' is invalid for '--from <from>'")
        #expect(Self.error(["--sort", "posts:up"]) == "The value 'posts:up' is invalid for '--sort <sort>'")
        #expect(Self.error(["--size", "wide"]) == "The value 'wide' is invalid for '--size <size>'")
    }
}
