// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "notifytop",
    products: [
        .library(name: "NotifyKit", targets: ["NotifyKit"]),
        .library(name: "NotifyEvents", targets: ["NotifyEvents"]),
        .library(name: "NotifyTrace", targets: ["NotifyTrace"]),
        .executable(name: "notify-bench", targets: ["notify-bench"]),
    ],
    dependencies: [
        // Command lines of notifytop and notify-demo.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        // The notification center: Foundation's semantics, instrumented through probes.
        .target(name: "NotifyKit"),

        // Trace events and their JSON Lines codec: pure (bytes in, bytes out), no NotifyKit, no Foundation.
        .target(name: "NotifyEvents"),

        // The app side (inspector, socket, exporter) and the viewer side (client, recording, replay).
        .target(name: "NotifyTrace", dependencies: ["NotifyKit", "NotifyEvents"]),

        // Counts heap allocations for the benchmark by overriding malloc in its executable.
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter"),
        .executableTarget(
            name: "notify-bench",
            dependencies: ["NotifyKit", "CAllocationCounter"],
            path: "Sources/notify-bench"
        ),

        .testTarget(name: "NotifyKitTests", dependencies: ["NotifyKit"]),
        .testTarget(name: "NotifyEventsTests", dependencies: ["NotifyEvents"]),
        .testTarget(name: "NotifyTraceTests", dependencies: ["NotifyTrace", "NotifyEvents", "NotifyKit"]),
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
