extension String {
    /// The directory a file path names its file in, as POSIX `dirname` gives it: what comes before
    /// the last `/` (trailing ones aside), `/` for a name at the root, `.` for a bare name.
    /// Foundation's `NSString.deletingLastPathComponent` traps on a one-character name (`-o x`
    /// crashed calport, swift-corelibs-foundation 6.3).
    package var parentDirectory: String {
        let (utf8, _, slash) = lastSlash
        guard let slash else { return "." }
        var directoryEnd = slash
        while directoryEnd > 0 && utf8[directoryEnd - 1] == UInt8(ascii: "/") { directoryEnd -= 1 }
        return directoryEnd == 0 ? "/" : String(decoding: utf8[..<directoryEnd], as: UTF8.self)
    }

    /// The last name of a file path, as POSIX `basename` gives it (trailing `/` aside).
    package var lastPathName: String {
        guard !isEmpty else { return "" }
        let (utf8, end, slash) = lastSlash
        let start = slash.map { $0 + 1 } ?? 0
        return start >= end ? "/" : String(decoding: utf8[start..<end], as: UTF8.self)
    }

    /// The path's UTF-8, where it ends once trailing `/` are set aside (a lone `/` is kept), and
    /// the last `/` before that end: what `dirname` and `basename` both split at.
    private var lastSlash: (utf8: [UInt8], end: Int, slash: Int?) {
        let utf8 = Array(self.utf8)
        var end = utf8.count
        while end > 1 && utf8[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return (utf8, end, utf8[..<end].lastIndex(of: UInt8(ascii: "/")))
    }
}
