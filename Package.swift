// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "calport",
    products: [
        .executable(name: "calport", targets: ["calport"]),
        .library(name: "CalendarModel", targets: ["CalendarModel"]),
        .library(name: "ICalendar", targets: ["ICalendar"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(name: "CalendarModel"),
        .target(name: "ICalendar", dependencies: ["CalendarModel", "CLibical"]),
        .executableTarget(name: "calport", dependencies: ["CalendarModel", "ICalendar"]),
        .testTarget(name: "CalendarModelTests", dependencies: ["CalendarModel"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "CalendarModel"]),
        .testTarget(name: "calportTests", dependencies: ["calport"]),
    ]
)
