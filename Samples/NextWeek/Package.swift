// swift-tools-version:6.0
// The README's "Use it from Swift" example as a package of its own, depending on this checkout by path.
// Run it from the checkout with: swift run --package-path Samples/NextWeek --scratch-path .build/NextWeek \
//   NextWeek Samples/team-week.ics (a .build under Samples would be read by `calport validate Samples`).
import PackageDescription

// A path dependency's identity is its directory's name, which differs between checkouts.
let calport = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "calport")

let package = Package(
    name: "NextWeek",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "NextWeek",
            dependencies: [
                .product(name: "ICalendar", package: calport), .product(name: "GraphEvents", package: calport),
            ])
    ]
)
