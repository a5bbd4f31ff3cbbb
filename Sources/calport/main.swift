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
TemporaryFiles.installSignalHandlers()
exit(CalportCLI.run(Array(CommandLine.arguments.dropFirst())).rawValue)
