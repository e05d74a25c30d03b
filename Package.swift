// swift-tools-version:6.1
// notifytop is Linux only: Glibc, Unix sockets and ncursesw (a build elsewhere stops with an error).
import PackageDescription

let package = Package(
    name: "notifytop",
    products: [
        .library(name: "NotifyKit", targets: ["NotifyKit"]),
        .library(name: "NotifyWire", targets: ["NotifyWire"]),
        .library(name: "NotifyTraceApp", targets: ["NotifyTraceApp"]),
        .library(name: "NotifyTraceViewer", targets: ["NotifyTraceViewer"]),
        .library(name: "NotifyModel", targets: ["NotifyModel"]),
        .executable(name: "notify-bench", targets: ["notify-bench"]),
        .executable(name: "notify-demo", targets: ["notify-demo"]),
        .executable(name: "notifytop", targets: ["notifytop"]),
        .library(name: "NotifyMetrics", targets: ["NotifyMetrics"]),
        // What the app side and the viewer side both name: the socket directory and trace errors
        // (NotifyTraceApp and NotifyTraceViewer re-export it).
        .library(name: "NotifySystem", targets: ["NotifySystem"]),
        // notifytop's leak rules run in a test process: LeakCheck.run(on:) { … } (notifytop does not link it).
        // Its baseline of known findings is notifytop's `--baseline` file, read by both.
        .library(name: "NotifyLeakCheck", targets: ["NotifyLeakCheck", "NotifyLeakBaseline"]),
        // The inspector as a swift-service-lifecycle Service, started and stopped in a ServiceGroup.
        .library(name: "NotifyInspectorService", targets: ["NotifyInspectorService"]),
        // A span per post and per handler in the app's traces: a context probe on swift-distributed-tracing.
        .library(name: "NotifyTracing", targets: ["NotifyTracing"]),
    ],
    dependencies: [
        // Command lines of notifytop and notify-demo.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // NotifyMetrics' facade: the app picks the backend (Prometheus, OpenTelemetry, StatsD).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The inspector's own events (viewers attached, refused, cut off) in the app's logs.
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // NotifyInspectorService: the inspector ordered with the app's other services.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // NotifyTracing's facade: the app picks the tracer (swift-otel, …); its InMemoryTracing in tests.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        // `swift package generate-documentation`: CI builds every DocC catalog (a plugin, never linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Tests only: NotifyMetrics' labels and buckets read back from a real Prometheus registry.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
    ],
    targets: [
        // The Linux base both sides share: the lock, Unix sockets, the socket directory, trace errors.
        .target(name: "NotifySystem"),

        // The notification center: Foundation's semantics, instrumented through probes.
        .target(name: "NotifyKit", dependencies: ["CNotifyTicks", "NotifySystem"]),
        // NotifyKit's counters, timers and gauges through swift-metrics: a probe, in its own product.
        .target(
            name: "NotifyMetrics",
            dependencies: ["NotifyKit", "NotifySystem", .product(name: "Metrics", package: "swift-metrics")]
        ),
        // Posts and handlers as spans of the poster's trace, the handler inside its own span: a context probe.
        .target(
            name: "NotifyTracing",
            dependencies: ["NotifyKit", .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        // The CPU tick counter, which times probed deliveries for a third of a vDSO clock read.
        .target(name: "CNotifyTicks"),

        // Trace events and their JSON Lines codec: pure (bytes in, bytes out), no NotifyKit, no Foundation.
        .target(name: "NotifyWire"),

        // The app side: the inspector, its socket and the exporter turning probe events into trace lines.
        .target(
            name: "NotifyTraceApp",
            dependencies: ["NotifyKit", "NotifyWire", "NotifySystem", .product(name: "Logging", package: "swift-log")]
        ),
        // The inspector as a Service: its own product, so apps without swift-service-lifecycle do not link it.
        .target(
            name: "NotifyInspectorService",
            dependencies: [
                "NotifyTraceApp", "NotifyKit", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The viewer side: the client reading a stream, recordings and replay. No NotifyKit.
        .target(name: "NotifyTraceViewer", dependencies: ["NotifyWire", "NotifySystem"]),

        // Foundation's own NotificationCenter in a running process, seen through bpftrace's probes and
        // turned into trace lines: the viewer side of `notifytop --foundation`. No NotifyKit.
        .target(name: "NotifyFoundationProbe", dependencies: ["NotifyWire", "NotifySystem"]),

        // The inspector model: a pure fold of trace events into tables and leak findings.
        .target(name: "NotifyModel", dependencies: ["NotifyWire", "NotifySystem"]),

        // Leak checks in tests: a probe on the center for a block, folded through NotifyModel's rules.
        // NotifyTraceApp turns probe events into trace lines exactly as notifytop receives them.
        .target(
            name: "NotifyLeakCheck",
            dependencies: ["NotifyKit", "NotifyModel", "NotifyTraceApp", "NotifyWire", "NotifyLeakBaseline"]
        ),
        // The known findings' file (`notifytop baseline`, `--baseline`, `newFindings(against:)`): the
        // model's signatures read and written with Foundation, which NotifyModel does not import.
        .target(name: "NotifyLeakBaseline", dependencies: ["NotifyModel"]),

        // The codec's and the model's benchmarks and their workloads, called by notify-bench and tests.
        .target(name: "NotifyBenchmarks", dependencies: ["NotifyWire", "NotifyModel"]),

        // Counts heap allocations for the benchmark by overriding malloc in its executable.
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter"),
        .executableTarget(
            name: "notify-bench",
            dependencies: [
                "NotifyKit", "NotifyWire", "NotifyTraceApp", "NotifyTraceViewer", "NotifySystem", "NotifyModel",
                "NotifyBenchmarks", "NotifySession", "NotifyTUI", "NotifyCurses", "NotifyDemo", "CAllocationCounter",
                "CNotifyTicks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "NotifyMetrics", .product(name: "Metrics", package: "swift-metrics"), "NotifyFoundationProbe",
                "NotifyTracing", .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Sources/notify-bench"
        ),

        // notifytop's screen: canvas, widgets, keymap and views, with no curses (so frames are testable).
        .target(name: "NotifyTUI", dependencies: ["NotifyModel", "NotifyWire", "NotifySystem", "CDisplayWidth"]),
        // The C library's character widths in a UTF-8 locale: the cells ncursesw and the terminal count.
        .target(name: "CDisplayWidth"),
        // ncursesw, seen only by NotifyCurses.
        // No pkgConfig: its flags draw a warning, and libncursesw.so already pulls in libtinfo (.ci/setup installs it).
        .systemLibrary(name: "CNcurses"),
        // The real terminal backend: the only target that imports CNcurses.
        .target(name: "NotifyCurses", dependencies: ["NotifyTUI", "CNcurses"]),
        // notifytop's run loop: reader thread, replay clock, recording, demo child, reports, batch output.
        // It draws on any TerminalBackend and links no curses.
        .target(
            name: "NotifySession",
            dependencies: [
                "NotifyTUI", "NotifyTraceViewer", "NotifySystem", "NotifyModel", "NotifyWire", "NotifyFoundationProbe",
                "NotifyLeakBaseline",
            ]
        ),
        // notifytop's command line and start-up: the commands and their options, opening the source, the
        // terminal (NotifyCurses) and the session. A library, so tests parse and run it.
        .target(
            name: "NotifyCommandLine",
            dependencies: [
                "NotifySession", "NotifyCurses", "NotifyTUI", "NotifyTraceViewer", "NotifySystem", "NotifyModel",
                "NotifyWire", "NotifyFoundationProbe", "NotifyLeakBaseline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // notifytop: only calls NotifyCommandLine's root command. `--demo` starts the notify-demo binary
        // built beside it.
        .executableTarget(
            name: "notifytop",
            dependencies: ["NotifyCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // The demo app's workload, scenarios and planted bugs (all logic, so tests can drive it).
        .target(
            name: "NotifyDemo", dependencies: ["NotifyKit", "NotifyTraceApp", "NotifySystem"], path: "Demo/NotifyDemo"),
        // notify-demo: the demo's thin command line.
        .executableTarget(
            name: "notify-demo",
            dependencies: ["NotifyDemo", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Demo/notify-demo"
        ),

        // The tests' shared vocabulary: waits with a deadline, temporary paths, a trace builder (the seeded
        // generator is NotifySystem's SplitMix64). Generic: it sees NotifyWire only, so the model's tests
        // link no app side.
        .target(
            name: "NotifyTestSupport", dependencies: ["NotifyWire", "NotifySystem"], path: "Tests/NotifyTestSupport"),
        // The viewer's test fixture: a small trace with every view's content, folded into frame data.
        .target(
            name: "NotifyTUITestSupport", dependencies: ["NotifyTUI", "NotifyModel", "NotifyWire"],
            path: "Tests/NotifyTUITestSupport"),

        // One test target per module; each declares exactly the modules its files import.
        .testTarget(name: "NotifySystemTests", dependencies: ["NotifySystem", "NotifyTestSupport"]),
        .testTarget(name: "NotifyKitTests", dependencies: ["NotifyKit", "NotifySystem", "NotifyTestSupport"]),
        .testTarget(
            name: "NotifyMetricsTests",
            dependencies: [
                "NotifyMetrics", "NotifyKit", .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "NotifyTracingTests",
            dependencies: [
                "NotifyTracing", "NotifyKit", "NotifyTestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "NotifyWireTests",
            dependencies: ["NotifyWire", "NotifyBenchmarks", "NotifySystem", "NotifyTestSupport"]
        ),
        .testTarget(
            name: "NotifyFoundationProbeTests",
            dependencies: ["NotifyFoundationProbe", "NotifyWire", "NotifySystem", "NotifyTestSupport"]),
        .testTarget(
            name: "NotifyTraceTests",
            dependencies: [
                "NotifyTraceApp", "NotifyTraceViewer", "NotifySystem", "NotifyWire", "NotifyKit", "NotifyModel",
                "NotifyTestSupport", "NotifyInspectorService", .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        // The pure fold's tests: no app side, no sockets.
        .testTarget(
            name: "NotifyModelTests",
            dependencies: ["NotifyModel", "NotifyWire", "NotifyBenchmarks", "NotifySystem", "NotifyTestSupport"]
        ),
        // End to end: a NotifyKit center or the demo through the inspector's socket into the model and a
        // session, against the truth the app kept, live and replayed.
        .testTarget(
            name: "NotifyFidelityTests",
            dependencies: [
                "NotifyKit", "NotifyDemo", "NotifyTraceApp", "NotifyTraceViewer", "NotifySystem", "NotifyModel",
                "NotifyWire", "NotifySession", "NotifyTUI", "NotifyTestSupport",
            ]
        ),
        .testTarget(
            name: "NotifyLeakCheckTests",
            dependencies: [
                "NotifyLeakCheck", "NotifyKit", "NotifyModel", "NotifyTraceApp", "NotifyTraceViewer", "NotifySession",
                "NotifyDemo", "NotifyTestSupport", "NotifyLeakBaseline",
            ]
        ),
        .testTarget(
            name: "NotifyTUITests",
            dependencies: [
                "NotifyTUI", "NotifyCurses", "NotifyModel", "NotifyWire", "NotifyTUITestSupport", "NotifyTestSupport",
            ],
            exclude: ["Snapshots"]
        ),
        // NotifySession's tests, and NotifyCommandLine's: the commands parsed, and runs through NotifyTopRunner.
        .testTarget(
            name: "NotifySessionTests",
            dependencies: [
                "NotifySession", "NotifyCommandLine", "NotifyTUI", "NotifyCurses", "NotifyModel", "NotifyWire",
                "NotifyTraceViewer", "NotifyTraceApp", "NotifySystem", "NotifyKit", "NotifyTUITestSupport",
                "NotifyTestSupport", "NotifyLeakBaseline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The demo's workload, scenarios and planted bugs, seen by a probe in the demo's own process.
        .testTarget(
            name: "NotifyDemoTests", dependencies: ["NotifyDemo", "NotifyKit", "NotifySystem", "NotifyTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-otel's OTLP exporter end to end, to a receiver on loopback: opt in with NOTIFYTOP_OTLP_TESTS=1, as
// swift-otel and what it builds on (swift-nio, async-http-client, swift-protobuf) take minutes to build.
if Context.environment["NOTIFYTOP_OTLP_TESTS"] == "1" {
    package.dependencies.append(
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]))
    package.targets.append(
        .testTarget(
            name: "NotifyTracingOTLPTests",
            dependencies: [
                "NotifyTracing", "NotifyKit", "NotifySystem", "NotifyTestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ))
}

for target in package.targets where target.type != .system {
    guard target.name != "CAllocationCounter" else { continue }
    var settings = target.swiftSettings ?? []
    // Every existential is spelled `any`, so its cost is visible where it is paid.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // A file sees only the modules it imports itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // An import is internal unless it says `public import` or `package import`, so API that leaks
    // another module's types is visible where the import is.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
