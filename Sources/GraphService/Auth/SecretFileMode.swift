import Foundation

/// The permission check made before a token is read from a file, as ssh makes it before using a
/// private key: a file (or the directory holding the login cache) that the group or others may
/// read has perhaps been read already, so it is refused with the command that fixes it.
enum SecretFileMode {
    /// Throws when `path` grants its group or others any access; a missing file passes (the
    /// caller reports that in its own words).
    static func check(_ path: String, what: String) throws(GraphServiceError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let loose = status.st_mode & 0o077
        guard loose == 0 else {
            let isDirectory = status.st_mode & S_IFMT == S_IFDIR
            throw .storage(
                path: path,
                reason: "\(what) is open to \(loose & 0o070 != 0 ? "its group" : "others") (mode "
                    + "\(String(status.st_mode & 0o777, radix: 8))), so the token in it may have been read; "
                    + "run chmod \(isDirectory ? "700" : "600") \(path), and get a new token if others could read it")
        }
    }
}
