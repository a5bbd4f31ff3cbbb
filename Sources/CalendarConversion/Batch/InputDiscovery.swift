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

/// The calendar files found under the paths named, and what was not read on the way there.
public struct Discovery: Sendable {
    /// The files named, and the calendar files under the directories named (sorted), in the order named.
    public var inputs: [BatchInput] = []
    /// One warning line each (`PATH: warning: …`): a directory reached again through a symbolic
    /// link (a loop, or a second link to it), a directory that cannot be read.
    public var warnings: [String] = []
}

/// Expands directories into the calendar files under them, keeping paths relative to the directory
/// named. Symbolic links are followed, each directory once: a link back to a directory already on
/// the way (a loop) or already read is reported and not followed again.
public enum InputDiscovery {
    /// The file name extensions of calendar files, lower case, without the dot.
    public static let extensions: Set<String> = ["ics", "ical", "ifb", "json", "ndjson"]

    /// A directory as the kernel knows it, whatever path leads to it (as find(1) detects loops).
    private struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// The files named, and the calendar files under the directories named (sorted), in the order named.
    public static func expand(_ paths: [String]) -> [BatchInput] {
        discover(paths).inputs
    }

    /// The inputs `expand` gives, with the warnings of the walk.
    public static func discover(_ paths: [String]) -> Discovery {
        var discovery = Discovery()
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                discovery.inputs.append(BatchInput(path: path, relativePath: (path as NSString).lastPathComponent))
                continue
            }
            var walk = Walk(root: path)
            walk.visit(path, relative: "", status)
            discovery.inputs += walk.found.sorted().map {
                BatchInput(path: (path as NSString).appendingPathComponent($0), relativePath: $0)
            }
            discovery.warnings += walk.warnings
        }
        return discovery
    }

    /// One named directory's walk: the directories read so far, by identity, with the path they were read by.
    private struct Walk {
        var root: String
        var read: [DirectoryIdentity: String] = [:]
        var found: [String] = []
        var warnings: [String] = []

        mutating func visit(_ directory: String, relative: String, _ status: stat) {
            let identity = DirectoryIdentity(status)
            if let earlier = read[identity] {
                warnings.append(
                    "\(directory): warning: a link to the directory \(earlier), already read; not followed again")
                return
            }
            read[identity] = relative.isEmpty ? root : (root as NSString).appendingPathComponent(relative)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                warnings.append("\(directory): warning: cannot read the directory; nothing under it was read")
                return
            }
            for name in names {
                let path = (directory as NSString).appendingPathComponent(name)
                let entryRelative = relative.isEmpty ? name : (relative as NSString).appendingPathComponent(name)
                var entry = stat()
                // stat, not lstat: a link is followed to what it names; a dangling one is no input.
                guard stat(path, &entry) == 0 else { continue }
                if entry.st_mode & S_IFMT == S_IFDIR {
                    visit(path, relative: entryRelative, entry)
                } else if InputDiscovery.extensions.contains((name as NSString).pathExtension.lowercased()) {
                    found.append(entryRelative)
                }
            }
        }
    }
}
