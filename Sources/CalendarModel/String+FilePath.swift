extension String {
    /// The directory a file path names its file in, as POSIX `dirname` gives it: what comes before
    /// the last `/` (trailing ones aside), `/` for a name at the root, `.` for a bare name.
    /// Foundation's `NSString.deletingLastPathComponent` traps on a one-character name (`-o x`
    /// crashed calport, swift-corelibs-foundation 6.3).
    package var parentDirectory: String {
        let utf8 = Array(self.utf8)
        var end = utf8.count
        while end > 1 && utf8[end - 1] == UInt8(ascii: "/") { end -= 1 }
        guard let slash = utf8[..<end].lastIndex(of: UInt8(ascii: "/")) else { return "." }
        var directoryEnd = slash
        while directoryEnd > 0 && utf8[directoryEnd - 1] == UInt8(ascii: "/") { directoryEnd -= 1 }
        return directoryEnd == 0 ? "/" : String(decoding: utf8[..<directoryEnd], as: UTF8.self)
    }

    /// The last name of a file path, as POSIX `basename` gives it (trailing `/` aside).
    package var lastPathName: String {
        guard !isEmpty else { return "" }
        let utf8 = Array(self.utf8)
        var end = utf8.count
        while end > 1 && utf8[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let start = utf8[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return start >= end ? "/" : String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
