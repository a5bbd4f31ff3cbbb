// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "calport",
    products: [
        .executable(name: "calport", targets: ["calport"]),
        .executable(name: "calport-http", targets: ["calport-http"]),
        .library(name: "CalendarModel", targets: ["CalendarModel"]),
        .library(name: "ArgumentParsing", targets: ["ArgumentParsing"]),
        .library(name: "TimeZones", targets: ["TimeZones"]),
        .library(name: "ICalendar", targets: ["ICalendar"]),
        .library(name: "GraphEvents", targets: ["GraphEvents"]),
        .library(name: "GraphService", targets: ["GraphService"]),
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(name: "CalendarModel"),
        .target(name: "ArgumentParsing"),
        .target(name: "TimeZones", dependencies: ["CalendarModel"]),
        .target(name: "ICalendar", dependencies: ["CalendarModel", "TimeZones", "CLibical"]),
        .target(name: "GraphEvents", dependencies: ["CalendarModel", "TimeZones"]),
        .target(name: "GraphService", dependencies: ["GraphEvents", "CalendarModel"]),
        .target(name: "FuzzTargets", dependencies: ["ArgumentParsing", "ICalendar", "GraphEvents", "TimeZones"]),
        .executableTarget(
            name: "calport",
            dependencies: ["ArgumentParsing", "CalendarModel", "TimeZones", "ICalendar", "GraphEvents", "GraphService"]
        ),
        // Sends calport's HTTP requests, so that only this program loads FoundationNetworking and libcurl.
        .executableTarget(name: "calport-http", dependencies: ["GraphService"]),
        .testTarget(name: "CalendarModelTests", dependencies: ["CalendarModel"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        .testTarget(name: "TimeZonesTests", dependencies: ["TimeZones", "CalendarModel"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "CalendarModel", "TimeZones"]),
        .testTarget(name: "GraphEventsTests", dependencies: ["GraphEvents", "CalendarModel", "TimeZones"]),
        .testTarget(
            name: "GraphServiceTests",
            dependencies: ["GraphService", "GraphEvents", "CalendarModel", "ICalendar"],
            exclude: ["Emulator"]
        ),
        .testTarget(name: "calportTests", dependencies: ["calport", "ICalendar", "GraphEvents", "CalendarModel"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
    ]
)
