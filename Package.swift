// swift-tools-version:6.0
import PackageDescription

// The libraries a Swift program may depend on. ArgumentParsing (the CLI's option parser) and
// FuzzTargets stay internal; FuzzTargets is a product only for the libFuzzer drivers in Fuzz/,
// which scripts/fuzz builds with CALPORT_FUZZ=1 (a package can use another's targets only as products).
var products: [Product] = [
    .executable(name: "calport", targets: ["calport"]),
    // calport's export, import and login send their HTTP requests through it; installed beside calport.
    .executable(name: "calport-http", targets: ["calport-http"]),
    .library(name: "CalendarModel", targets: ["CalendarModel"]),
    .library(name: "Digests", targets: ["Digests"]),
    .library(name: "TimeZones", targets: ["TimeZones"]),
    .library(name: "ICalendar", targets: ["ICalendar"]),
    .library(name: "GraphEvents", targets: ["GraphEvents"]),
    .library(name: "GraphService", targets: ["GraphService"]),
    .library(name: "CalendarConversion", targets: ["CalendarConversion"]),
]
if Context.environment["CALPORT_FUZZ"] == "1" {
    products.append(.library(name: "FuzzTargets", targets: ["FuzzTargets"]))
}

let package = Package(
    name: "calport",
    products: products,
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        // OpenSSL's libcrypto: SHA-256 for identifiers derived from content, and the RS256 signature
        // of app-only sign-in's client assertion.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // LZ4: the compressed runs of the external sort a streamed expansion spills to.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        .target(name: "CalendarModel"),
        // Digests and the identifiers derived from them, through libcrypto.
        .target(name: "Digests", dependencies: ["CCrypto"]),
        .target(name: "ArgumentParsing"),
        .target(name: "TimeZones", dependencies: ["CalendarModel"]),
        .target(name: "ICalendar", dependencies: ["CalendarModel", "TimeZones", "Digests", "CLibical"]),
        .target(name: "GraphEvents", dependencies: ["CalendarModel", "TimeZones", "Digests"]),
        .target(name: "GraphService", dependencies: ["GraphEvents", "CalendarModel", "Digests", "CCrypto"]),
        // What the CLI does that a program wants too: streaming a calendar of any size with its series
        // assembled, calport's NDJSON event form, atomic output files.
        .target(
            name: "CalendarConversion",
            dependencies: ["CalendarModel", "TimeZones", "ICalendar", "GraphEvents", "CLZ4"]),
        .target(name: "FuzzTargets", dependencies: ["ArgumentParsing", "ICalendar", "GraphEvents", "TimeZones"]),
        .executableTarget(
            name: "calport",
            dependencies: [
                "ArgumentParsing", "CalendarModel", "TimeZones", "ICalendar", "GraphEvents", "GraphService",
                "CalendarConversion",
            ]
        ),
        // The README's "Use it from Swift" example, built with the package so that CI compiles it and
        // SwiftSampleTests runs it; Samples/NextWeek/Package.swift builds the same file on its own (under
        // another name: a package may not depend on one with a target of the same name).
        .executableTarget(
            name: "ReadmeExample", dependencies: ["ICalendar", "GraphEvents"],
            path: "Samples/NextWeek/Sources/NextWeek"),
        // Sends calport's HTTP requests, so that only this program loads FoundationNetworking and libcurl.
        .executableTarget(name: "calport-http", dependencies: ["GraphService"]),
        // What more than one test target needs: a temporary directory removed with the test process.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CalendarModelTests", dependencies: ["CalendarModel"]),
        .testTarget(name: "DigestsTests", dependencies: ["Digests"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        .testTarget(name: "TimeZonesTests", dependencies: ["TimeZones", "CalendarModel"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "CalendarModel", "TimeZones"]),
        .testTarget(name: "GraphEventsTests", dependencies: ["GraphEvents", "CalendarModel", "TimeZones"]),
        .testTarget(
            name: "GraphServiceTests",
            dependencies: ["GraphService", "GraphEvents", "CalendarModel", "ICalendar"],
            exclude: ["Emulator"]
        ),
        .testTarget(
            name: "CalendarConversionTests",
            dependencies: ["CalendarConversion", "ICalendar", "GraphEvents", "CalendarModel", "TestSupport"]),
        .testTarget(
            name: "calportTests",
            dependencies: [
                "calport", "CalendarConversion", "ICalendar", "GraphEvents", "CalendarModel", "TestSupport",
            ]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
    ]
)
