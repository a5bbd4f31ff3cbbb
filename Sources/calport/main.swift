import CalendarModel
import Foundation

// A closed standard stream gets a placeholder open for reading only, so that no file opened
// later takes its number (and receives output meant for it) and a write to it fails with EBADF.
for stream in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(stream, F_GETFD) < 0 && errno == EBADF {
    let placeholder = open("/dev/null", O_RDONLY)
    if placeholder >= 0 && placeholder != stream {
        dup2(placeholder, stream)
        close(placeholder)
    }
}
// A streamed expansion keeps every sorted run open until it merges them: about 1,100 for a
// 1M-event calendar, past the soft limit of 1,024 descriptors many systems start processes with.
// The hard limit is the system's; the soft one is ours to raise to it.
var openFiles = rlimit()
if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &openFiles) == 0 && openFiles.rlim_cur < openFiles.rlim_max {
    openFiles.rlim_cur = openFiles.rlim_max
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &openFiles)
}
TemporaryFiles.installSignalHandlers()
exit(CalportCLI.run(Array(CommandLine.arguments.dropFirst())).rawValue)
