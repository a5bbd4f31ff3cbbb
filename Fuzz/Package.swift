// swift-tools-version:6.0
// libFuzzer drivers for calport, one executable per target; the targets themselves live in the root
// package's FuzzTargets module. Build and run with ../scripts/fuzz.
import PackageDescription

let targets = ["icalendar", "graph", "rrule", "timezone", "arguments"]
// A path dependency's identity is its directory's name, which differs between checkouts.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "calport")

let package = Package(
    name: "calport-fuzz",
    dependencies: [.package(path: "..")],
    targets: [.systemLibrary(name: "LibFuzzer")]
        + targets.map { name in
            .executableTarget(
                name: "fuzz-\(name)", dependencies: ["LibFuzzer", .product(name: "FuzzTargets", package: root)])
        }
)
