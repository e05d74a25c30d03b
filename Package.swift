// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "notifytop",
    products: [
        .library(name: "NotifyKit", targets: ["NotifyKit"]),
        .library(name: "NotifyEvents", targets: ["NotifyEvents"]),
        .library(name: "NotifyTrace", targets: ["NotifyTrace"]),
        .library(name: "NotifyModel", targets: ["NotifyModel"]),
        .executable(name: "notify-bench", targets: ["notify-bench"]),
        .executable(name: "notify-demo", targets: ["notify-demo"]),
        .library(name: "NotifyTUI", targets: ["NotifyTUI"]),
        .executable(name: "notifytop", targets: ["notifytop"]),
    ],
    dependencies: [
        // Command lines of notifytop and notify-demo.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        // The notification center: Foundation's semantics, instrumented through probes.
        .target(name: "NotifyKit", dependencies: ["CNotifyTicks"]),
        // The CPU tick counter, which times probed deliveries for a third of a vDSO clock read.
        .target(name: "CNotifyTicks"),

        // Trace events and their JSON Lines codec: pure (bytes in, bytes out), no NotifyKit, no Foundation.
        .target(name: "NotifyEvents"),

        // The app side (inspector, socket, exporter) and the viewer side (client, recording, replay).
        .target(name: "NotifyTrace", dependencies: ["NotifyKit", "NotifyEvents"]),

        // The inspector model: a pure fold of trace events into tables and leak findings.
        .target(name: "NotifyModel", dependencies: ["NotifyEvents"]),

        // Counts heap allocations for the benchmark by overriding malloc in its executable.
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter"),
        .executableTarget(
            name: "notify-bench",
            dependencies: ["NotifyKit", "NotifyEvents", "NotifyTrace", "NotifyModel", "NotifySession", "NotifyTUI",
                           "NotifyDemo", "CAllocationCounter"],
            path: "Sources/notify-bench"
        ),

        // notifytop's screen: canvas, widgets, keymap and views, with no curses (so frames are testable).
        .target(name: "NotifyTUI", dependencies: ["NotifyModel", "NotifyEvents"]),
        // ncursesw, seen only by NotifyCurses.
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        // The real terminal backend: the only target that imports CNcurses.
        .target(name: "NotifyCurses", dependencies: ["NotifyTUI", "CNcurses"]),
        // notifytop's run loop: reader thread, replay clock, recording, demo child, batch output.
        .target(
            name: "NotifySession",
            dependencies: ["NotifyTUI", "NotifyCurses", "NotifyTrace", "NotifyModel", "NotifyEvents"]
        ),
        // notifytop: the thin command line.
        .executableTarget(
            name: "notifytop",
            dependencies: [
                "NotifySession", "NotifyTUI", "NotifyModel",
                // Not linked: listed so `swift run notifytop --demo` builds the demo it starts.
                "notify-demo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The demo app's workload, scenarios and planted bugs (all logic, so tests can drive it).
        .target(name: "NotifyDemo", dependencies: ["NotifyKit", "NotifyTrace"], path: "Demo/NotifyDemo"),
        // notify-demo: the demo's thin command line.
        .executableTarget(
            name: "notify-demo",
            dependencies: ["NotifyDemo", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Demo/notify-demo"
        ),

        .testTarget(name: "NotifyKitTests", dependencies: ["NotifyKit"]),
        .testTarget(name: "NotifyEventsTests", dependencies: ["NotifyEvents"]),
        .testTarget(name: "NotifyTraceTests", dependencies: ["NotifyTrace", "NotifyEvents", "NotifyKit"]),
        .testTarget(name: "NotifyModelTests", dependencies: ["NotifyModel", "NotifyEvents", "NotifyTrace", "NotifyKit"]),
        .testTarget(
            name: "NotifyTUITests",
            dependencies: ["NotifyTUI", "NotifySession", "NotifyCurses", "NotifyModel", "NotifyEvents"],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "NotifyDemoTests", dependencies: ["NotifyDemo", "NotifyKit", "NotifyTrace", "NotifyEvents", "NotifyModel",
                                                   "NotifySession", "NotifyTUI"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    guard target.name != "CAllocationCounter" else { continue }
    var settings = target.swiftSettings ?? []
    // Every existential is spelled `any`, so its cost is visible where it is paid.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // A file sees only the modules it imports itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
