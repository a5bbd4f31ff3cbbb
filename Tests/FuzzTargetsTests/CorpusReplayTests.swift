import Foundation
import FuzzTargets
import Testing

/// The saved fuzz corpora (`Fuzz/corpus/<target>/`) and the inputs of every crash found
/// (`Fuzz/regressions/<target>/`), each file fed through the entry point libFuzzer calls.
@Test(arguments: FuzzTarget.allCases)
func replaysTheSavedCorpus(_ target: FuzzTarget) throws {
    let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")
    let corpus = try files(in: fuzz.appendingPathComponent("corpus/\(target.rawValue)"))
    #expect(!corpus.isEmpty, "the \(target.rawValue) corpus is part of the repository")
    for file in try corpus + files(in: fuzz.appendingPathComponent("regressions/\(target.rawValue)")) {
        let bytes = try [UInt8](Data(contentsOf: file))
        #expect(throws: Never.self, "\(file.path)") { try target.run(bytes) }
    }
}

/// The files of a directory, none when it does not exist.
private func files(in directory: URL) throws -> [URL] {
    guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
    return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
        directory.appendingPathComponent($0)
    }
}
