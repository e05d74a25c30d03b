import ArgumentParser
import NotifyCommandLine
import NotifyModel
import NotifySession
import NotifyTUI
import Testing

/// notifytop's typed option values: what each accepts, what it refuses, and the error a refused
/// value gets from ArgumentParser.
struct CommandLineValueTests {
    /// The dashboard's options as notifytop declares them, without the command around them.
    typealias Options = NotifyTopOptions

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

    @Test func durationsTakeThePromptSpellings() {
        #expect(CommandDuration(argument: "1.5s")?.nanoseconds == 1_500_000_000)
        #expect(CommandDuration(argument: "250ms")?.nanoseconds == 250_000_000)
        #expect(CommandDuration(argument: "250MS")?.milliseconds == 250)
        #expect(CommandDuration(argument: "2m")?.nanoseconds == 120_000_000_000)
        #expect(CommandDuration(argument: "3")?.nanoseconds == 3_000_000_000)
        #expect(CommandDuration(argument: "2S")?.milliseconds == 2000)
        #expect(CommandDuration(argument: "0")?.nanoseconds == 0)
        #expect(CommandDuration(argument: "2s")! < CommandDuration(argument: "2500ms")!)
        #expect(CommandDuration(argument: "2") == CommandDuration(argument: "2000ms"))
        #expect(CommandDuration(milliseconds: 500).text == "500ms")
        for bad in ["", "-1s", "1x", "s", "ms", "1h", "2 s", "2days", "1.2.3", "."] {
            #expect(CommandDuration(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func hostileDurationsAreRefusedNotTrapped() {
        // Past about 146 years of nanoseconds, and at 2^64-1 and beyond, in every unit.
        #expect(CommandDuration(argument: "9000000000s")?.nanoseconds == 9_000_000_000_000_000_000)
        for huge in [
            "18446744073709551615", "18446744073709551615ms", "18446744073709551616s", "10000000000s",
            "300000000m", String(repeating: "9", count: 400), String(repeating: "9", count: 400) + "ms",
        ] {
            #expect(CommandDuration(argument: huge) == nil, "\(huge.prefix(40))")
        }
        // Signs, exponents and what Double would read as not-a-number or infinity.
        for bad in ["-0", "+2", "-2ms", "1e3", "1E3ms", "nan", "NaN", "nans", "inf", "infs", "Infinity", "0x10"] {
            #expect(CommandDuration(argument: bad) == nil, "\(bad)")
        }
        // Digits of other scripts, superscripts, fractions, full-width and bidi controls.
        for bad in ["٣", "٣s", "३ms", "３", "²", "½s", "\u{202E}2s", "2\u{200B}s", "2s\u{202C}"] {
            #expect(CommandDuration(argument: bad) == nil, "\(bad.unicodeScalars.map(\.value))")
        }
    }

    @Test func oneDurationForEveryTimeOption() throws {
        let options = try Options.parse(["--replay", "r", "-d", "2", "--from", "2", "--to", "1m"])
        #expect(options.delay.milliseconds == 2000)
        #expect(options.from?.nanoseconds == 2_000_000_000)
        #expect(options.to?.nanoseconds == 60_000_000_000)
        #expect(try Options.parse(["--delay", "250ms"]).delay.milliseconds == 250)
        let capture = try Options.parse(["--pid", "1", "--record", "r", "--timeout", "500ms"])
        #expect(capture.timeout?.nanoseconds == 500_000_000)
        // A redraw delay is from 1ms to a day: the value parses, the range is the option's.
        for bad in ["0", "0.5ms", "86401s"] {
            #expect(
                Self.error(["-d", bad]) == "-d takes a redraw delay from 1ms to a day, such as 250ms or 2", "\(bad)")
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
            "--view", "names,leaks", "--batch", "-d", "2s", "--replay", "r", "--from", "1.5s", "--sort", "posts:asc",
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
                == "The value 'fatal' is invalid for '--fail-on <severity>'. Please provide one of 'info', 'warning' or 'error'."
        )
        #expect(Self.error(["--view", "names,bogus"]) == "The value 'names,bogus' is invalid for '--view <view>'")
        #expect(Self.error(["-d", "200x"]) == "The value '200x' is invalid for '-d <seconds>'")
        #expect(Self.error(["--from", "soon"]) == "The value 'soon' is invalid for '--from <seconds>'")
        #expect(Self.error(["--sort", "posts:up"]) == "The value 'posts:up' is invalid for '--sort <column>'")
        #expect(Self.error(["--size", "wide"]) == "The value 'wide' is invalid for '--size <size>'")
    }
}
