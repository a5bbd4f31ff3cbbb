import Foundation

/// The directory this test process makes its temporary directories in, removed when the process
/// exits: made one by one in the system's, the suite left some 1,400 of them behind a run, and a
/// machine's crowded `/tmp` slowed every later file made there (calport's own scratch files too).
private let testsDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("calport-tests-\(getpid())-\(UUID())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

private let removedAtExit: Void = { atexit { try? FileManager.default.removeItem(at: testsDirectory) } }()

/// A new, empty directory for one test's files, removed with the process's.
public func temporaryDirectory() throws -> URL {
    _ = removedAtExit
    let url = testsDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
