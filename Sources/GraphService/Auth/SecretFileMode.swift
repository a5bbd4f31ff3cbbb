import Foundation

/// The permission check made before a token is read from a file, as ssh makes it before using a
/// private key: a file that the group or others may read has perhaps been read already, and a
/// directory they may write to lets them put a file of theirs in its place; either is refused with
/// the command that fixes it. A directory others may only read (a usual 0755 `~/.config/calport`)
/// passes: the file's own mode keeps it closed.
enum SecretFileMode {
    /// Throws when the file at `path` grants its group or others any access, or the directory at
    /// `path` lets them write; a missing file passes (the caller reports that in its own words).
    static func check(_ path: String, what: String) throws(GraphServiceError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let isDirectory = status.st_mode & S_IFMT == S_IFDIR
        let loose = status.st_mode & (isDirectory ? 0o022 : 0o077)
        guard loose == 0 else {
            throw .storage(
                path: path,
                reason: "\(what) is open to \(loose & 0o070 != 0 ? "its group" : "others") (mode "
                    + "\(String(status.st_mode & 0o777, radix: 8))), so the token in it may have been read or replaced; "
                    + "run chmod \(isDirectory ? "700" : "600") \(path), and get a new token if others could read it")
        }
    }
}
