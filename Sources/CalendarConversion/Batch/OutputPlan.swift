import Foundation

/// Where each input of an `--out-dir` run goes, decided before anything is written, so that no
/// output lands on another input and no two inputs write one output (whichever finished last would
/// win). An input refused here is a failure of the run, named with the input it clashes with.
public struct OutputPlan: Sendable {
    /// One input's destination, or why it has none.
    public enum Entry: Sendable, Equatable {
        /// Write the output to this path.
        case write(String)
        /// Write nothing, for this reason (it names the input clashed with).
        case refused(String)
    }

    /// Each input's destination, in input order.
    public let entries: [Entry]

    /// Plans `inputs` under `directory` with the output format's extension.
    public init(_ inputs: [BatchInput], under directory: String, extension fileExtension: String) {
        let paths = inputs.map { $0.outputPath(under: directory, extension: fileExtension) }
        // Files are the same when device and inode are (as cp(1) compares them): a symlink, a hard
        // link or `./` cannot hide a clash. An output not yet on disk is known by its resolved path.
        let inputIdentities = inputs.map { FileIdentity(path: $0.path) }
        var inputByIdentity: [FileIdentity: Int] = [:]
        for (index, identity) in inputIdentities.enumerated() {
            if let identity, inputByIdentity[identity] == nil { inputByIdentity[identity] = index }
        }
        var sharing: [OutputKey: [Int]] = [:]
        for (index, path) in paths.enumerated() { sharing[OutputKey(path: path), default: []].append(index) }
        entries = paths.enumerated().map { index, path in
            let others = sharing[OutputKey(path: path)]!.filter { $0 != index }
            if let other = others.first {
                return .refused("\(path) would also be written from \(inputs[other].path); nothing was written")
            }
            // Writing an input's output onto that same input is safe (it is read whole, or held
            // open, before the rename); onto another input it would destroy what is still to be read.
            if let identity = FileIdentity(path: path), let owner = inputByIdentity[identity], owner != index,
                inputIdentities[index] != identity
            {
                return .refused("\(path) is the input \(inputs[owner].path); nothing was written")
            }
            return .write(path)
        }
    }
}

/// A file's device and inode, the identity `cp` and `mv` compare.
public struct FileIdentity: Hashable, Sendable {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode on that device.
    public var inode: UInt64

    /// The identity of the file at `path` (symlinks followed), or nil when there is none.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// What makes two output paths one file: the identity of an existing file, else the path with its
/// directory's symlinks resolved.
private enum OutputKey: Hashable {
    case existing(FileIdentity)
    case planned(String)

    init(path: String) {
        if let identity = FileIdentity(path: path) {
            self = .existing(identity)
        } else {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL
            let directory = absolute.deletingLastPathComponent().resolvingSymlinksInPath()
            self = .planned(directory.appendingPathComponent(absolute.lastPathComponent).path)
        }
    }
}
