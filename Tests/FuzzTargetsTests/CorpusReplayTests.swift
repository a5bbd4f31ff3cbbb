import Foundation
import FuzzTargets
import Testing

/// The saved fuzz corpora (`Fuzz/corpus/<target>/`), every file fed through the same entry point
/// libFuzzer calls, so that every crash the fuzzers found stays fixed.
@Test(arguments: FuzzTarget.allCases)
func replaysTheSavedCorpus(_ target: FuzzTarget) throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/\(target.rawValue)")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(!names.isEmpty, "the \(target.rawValue) corpus is part of the repository")
    for name in names {
        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
        #expect(throws: Never.self, "\(target.rawValue)/\(name)") { try target.run(bytes) }
    }
}
