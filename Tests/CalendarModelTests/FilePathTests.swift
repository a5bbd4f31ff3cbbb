import Testing

@testable import CalendarModel

/// POSIX `dirname` and `basename` (XCU, "dirname", "basename") are the oracle: each row is what
/// coreutils' `dirname` and `basename` print for the path.
@Test(arguments: [
    ("x", ".", "x"), (".", ".", "."), ("out.ics", ".", "out.ics"), ("/x", "/", "x"), ("/", "/", "/"),
    ("a/b", "a", "b"), ("a//b", "a", "b"), ("a/b/", "a", "b"), ("/dev//stdout", "/dev", "stdout"),
    ("/dev/./stdout", "/dev/.", "stdout"), ("//dev/stdout", "//dev", "stdout"), ("./x", ".", "x"),
    ("dir/sub/file.ics", "dir/sub", "file.ics"), ("été/é", "été", "é"), ("", ".", ""), ("//", "/", "/"),
    ("x/.", "x", "."),
])
func filePathsSplitAsDirnameAndBasenameSplitThem(path: String, directory: String, name: String) {
    #expect(path.parentDirectory == directory)
    #expect(path.lastPathName == name)
}
