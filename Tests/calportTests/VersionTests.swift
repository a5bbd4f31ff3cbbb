import CalendarModel
import Foundation
import Testing

/// The version is written once (CalportVersion.current); what else names it must agree.
@Suite struct VersionTests {
    @Test func versionPrintsTheOneVersion() {
        #expect(runCalport(["--version"]).output == "calport \(CalportVersion.current)\n")
    }

    @Test func manPageAndChangelogNameTheSameVersion() throws {
        let man = try String(contentsOf: packageRoot.appendingPathComponent("man/calport.1"), encoding: .utf8)
        #expect(man.split(separator: "\n").first?.contains("\"calport \(CalportVersion.current)\"") == true)
        let changelog = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest?.hasPrefix("## \(CalportVersion.current) ") == true)
    }
}
