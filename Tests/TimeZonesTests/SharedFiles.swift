import Foundation

/// Files outside the package that some tests read: `../shared` next to the package root, and the
/// system's tzdata. Tests that need them skip, saying so, when they are absent.
enum SharedFiles {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// CLDR windowsZones.xml in ../shared/cldr, when present.
    static var windowsZonesXML: URL? {
        existing(packageRoot.deletingLastPathComponent().appendingPathComponent("shared/cldr/windowsZones.xml"))
    }

    /// The system's tzdata.zi (compiled tzdata source, with its link lines), when present.
    static var tzdataZi: URL? { existing(URL(fileURLWithPath: "/usr/share/zoneinfo/tzdata.zi")) }

    /// The tzdata links in tzdata.zi (alias → target), read independently of calport's table.
    static func tzdataLinks() throws -> [String: String]? {
        guard let url = tzdataZi else { return nil }
        var links: [String: String] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where line.hasPrefix("L ") {
            let fields = line.split(separator: " ")
            if fields.count == 3 { links[String(fields[2])] = String(fields[1]) }
        }
        return links
    }

    /// Prints why a test is skipped and returns nil when `url` is nil.
    static func require(_ url: URL?, _ what: String) -> URL? {
        if url == nil { print("SKIPPED: \(what) is not available") }
        return url
    }

    private static func existing(_ url: URL) -> URL? {
        FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// One `<mapZone>` row of CLDR windowsZones.xml, read by the tests themselves.
struct CLDRRow {
    let windowsID: String
    let territory: String
    let ianaIdentifiers: [String]

    /// The rows of the XML file, in order.
    static func read(_ url: URL) throws -> [CLDRRow] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let row = /<mapZone\s+other="([^"]*)"\s+territory="([^"]*)"\s+type="([^"]*)"\s*\/>/
        return text.matches(of: row).map { match in
            CLDRRow(
                windowsID: String(match.1), territory: String(match.2),
                ianaIdentifiers: match.3.split(whereSeparator: \.isWhitespace).map(String.init))
        }
    }
}
