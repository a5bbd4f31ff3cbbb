import Foundation
import TestSupport
import Testing

/// Every public symbol of the library products has a doc comment, read from the symbol graphs of the
/// modules the test build made (swift-symbolgraph-extract, as scripts/docs does). There are no
/// exceptions: the list of symbols allowed to lack one, kept while the comments were written, is gone.
@Suite struct LibraryDocumentationTests {
    static let libraries = [
        "CalendarModel", "Digests", "TimeZones", "ICalendar", "GraphEvents", "GraphService", "CalendarConversion",
    ]

    /// Libraries with fewer public symbols than most, and how many more than which they have.
    static let smallLibraries = ["Digests": 5]

    /// A public symbol without a doc comment: `Module Path.to.symbol`, and where it is declared.
    struct Undocumented {
        var key: String
        var place: String
    }

    /// The build's `Modules` directory, beside the test bundle.
    func modulesDirectory() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("CalendarModel.swiftmodule").path)
            {
                return modules
            }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Modules/CalendarModel.swiftmodule"])
    }

    /// Where the package's C libraries' module maps are (the `.systemLibrary` targets), and libical's headers.
    var systemModuleFlags: [String] {
        ["CLibical", "CCrypto", "CLZ4"].flatMap { ["-I", packageRoot.appendingPathComponent("Sources/\($0)").path] }
            + ["-Xcc", "-I/usr/include/libical"]
    }

    /// The symbol graphs of `library`, extracted into `directory`.
    func extract(_ library: String, modules: URL, into directory: URL) async throws -> [URL] {
        let output = directory.appendingPathComponent(library)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swift-symbolgraph-extract", "-module-name", library, "-I", modules.path,
            ] + systemModuleFlags + [
                "-target", "x86_64-unknown-linux-gnu", "-minimum-access-level", "public", "-output-dir", output.path,
            ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(process.terminationStatus == 0, "swift-symbolgraph-extract failed for \(library)")
        return try FileManager.default.contentsOfDirectory(at: output, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".symbols.json") }
    }

    /// The symbols of a graph file.
    func symbols(in graph: URL) throws -> [[String: Any]] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: graph)) as? [String: Any]
        return root?["symbols"] as? [[String: Any]] ?? []
    }

    /// Symbols declared in the sources (not synthesised or inherited without a comment) that have none.
    func undocumented(_ symbols: [[String: Any]], library: String) -> [Undocumented] {
        symbols.compactMap { symbol in
            guard symbol["docComment"] == nil, let location = symbol["location"] as? [String: Any],
                let uri = location["uri"] as? String, let path = symbol["pathComponents"] as? [String]
            else { return nil }
            let line = ((location["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
            let file = (URL(string: uri)?.path ?? uri).replacingOccurrences(of: packageRoot.path + "/", with: "")
            return Undocumented(key: "\(library) \(path.joined(separator: "."))", place: "\(file):\(line)")
        }
    }

    @Test(.timeLimit(.minutes(3))) func everyPublicSymbolHasADocComment() async throws {
        let modules = try modulesDirectory()
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var found: [Undocumented] = []
        for library in Self.libraries {
            var declared: [[String: Any]] = []
            for graph in try await extract(library, modules: modules, into: scratch) {
                declared += try symbols(in: graph)
            }
            // A graph that lost its symbols (a wrong target, a module not found) would pass the check
            // below with nothing checked; every library has dozens of documented ones.
            let floor = Self.smallLibraries[library] ?? 20
            #expect(declared.count > floor, "\(library): only \(declared.count) public symbols in its symbol graphs")
            found += undocumented(declared, library: library)
        }
        #expect(
            found.isEmpty,
            Comment(
                rawValue: "public symbols without a doc comment (add a /// line saying what each is for):\n"
                    + found.map { "\($0.place): \($0.key)" }.joined(separator: "\n")))
    }

    /// What an article's code takes as given, declared before it: the token and events a program has.
    static let articlePreludes = [
        "GraphService": "import CalendarModel\nlet token = \"eyJ0eXAi\"\nlet events: [Event] = []\n"
    ]

    /// The Swift code blocks of `markdown`, in order.
    static func swiftBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Each library's getting-started article, its code blocks put together as one program, type-checks
    /// against the modules the test build made: an article naming an API that was renamed or removed
    /// fails here, not in a reader's editor.
    @Test(.timeLimit(.minutes(3))) func everyGettingStartedArticleCompiles() async throws {
        let modules = try modulesDirectory()
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for library in Self.libraries {
            let article = packageRoot.appendingPathComponent("Sources/\(library)/\(library).docc/GettingStarted.md")
            let blocks = Self.swiftBlocks(of: try String(contentsOf: article, encoding: .utf8))
            #expect(!blocks.isEmpty, "\(library)'s GettingStarted.md has no Swift code")
            // One main.swift per article: its blocks continue one another (a later one uses `parsed`).
            let directory = scratch.appendingPathComponent(library)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let code = (Self.articlePreludes[library] ?? "") + blocks.joined(separator: "\n") + "\n"
            let complaints = try await typecheck(code, in: directory, modules: modules)
            #expect(
                complaints.isEmpty,
                Comment(
                    rawValue: "\(library)'s GettingStarted.md does not compile:\n" + complaints.joined(separator: "\n"))
            )
        }
    }

    /// The README's streaming example (the NextWeek one is a sample that SwiftSampleTests builds and runs)
    /// type-checks against the modules the test build made.
    @Test(.timeLimit(.minutes(3))) func theReadmeStreamingExampleCompiles() async throws {
        let modules = try modulesDirectory()
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(of: readme).filter { $0.contains("import CalendarConversion") }
        #expect(blocks.count == 1)
        for block in blocks {
            let complaints = try await typecheck(block + "\n", in: scratch, modules: modules)
            #expect(complaints.isEmpty, Comment(rawValue: complaints.joined(separator: "\n")))
        }
    }

    /// The compiler's errors for `code` as a main.swift in `directory`; none when it type-checks.
    func typecheck(_ code: String, in directory: URL, modules: URL) async throws -> [String] {
        let program = directory.appendingPathComponent("main.swift")
        try Data(code.utf8).write(to: program)
        let errors = directory.appendingPathComponent("errors")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swiftc", "-typecheck", "-I", modules.path,
            ] + systemModuleFlags + [program.path]
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        let complaints = try String(contentsOf: errors, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("error:") }.map(String.init)
        return process.terminationStatus == 0 && complaints.isEmpty ? [] : complaints + ["swiftc failed"]
    }
}
