import Foundation

/// An input to a batch run: where to read it and the path to mirror under `--out-dir`.
public struct BatchInput: Sendable, Equatable {
    /// Where the input is read from.
    public var path: String
    /// Its path under the directory named (its name, for a file named alone), mirrored under the output directory.
    public var relativePath: String

    /// An input at `path`, mirrored as `relativePath`.
    public init(path: String, relativePath: String) {
        self.path = path
        self.relativePath = relativePath
    }

    /// Where its output goes under `directory`: the relative path with the output's extension.
    public func outputPath(under directory: String, extension fileExtension: String) -> String {
        (directory as NSString).appendingPathComponent(
            ((relativePath as NSString).deletingPathExtension as NSString).appendingPathExtension(fileExtension)
                ?? relativePath)
    }
}

/// Expands directories into the calendar files under them, keeping paths relative to the directory named.
public enum InputDiscovery {
    /// The file name extensions of calendar files, lower case, without the dot.
    public static let extensions: Set<String> = ["ics", "ical", "ifb", "json", "ndjson"]

    /// The files named, and the calendar files under the directories named (sorted), in the order named.
    public static func expand(_ paths: [String]) -> [BatchInput] {
        var inputs: [BatchInput] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                inputs.append(BatchInput(path: path, relativePath: (path as NSString).lastPathComponent))
                continue
            }
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
            for relative in found {
                inputs.append(
                    BatchInput(path: (path as NSString).appendingPathComponent(relative), relativePath: relative))
            }
        }
        return inputs
    }
}
