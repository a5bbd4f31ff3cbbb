import CalendarModel
import Foundation

/// What ends a run early, and how its temporary files are removed then.
extension TemporaryFiles {
    /// The signals that end a run with its temporary files removed and exit status 128 + the signal.
    static let interruptions = [SIGINT, SIGTERM, SIGHUP]

    /// Ignores SIGPIPE, so that a closed reader shows as EPIPE and the run can remove its temporary
    /// files before dying of SIGPIPE as it would have. Blocks the `interruptions` in this thread, and
    /// so in every thread started after it, and starts one thread that waits for them in sigwait(3),
    /// removes the temporary files and exits: a signal handler may not take a lock or unlink a set
    /// of paths, and a DispatchSource's handler never ran while the main thread was busy converting.
    /// To be called first in `main`, before any other thread starts (a thread started earlier would
    /// have the signals unblocked and could take one, which would then end the run the default way).
    static func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in interruptions {
            // A signal ignored when calport started (nohup, a non-interactive shell's `&`) stays ignored.
            var current = sigaction()
            sigaction(signal, nil, &current)
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(SIG_IGN, to: Int.self)
            {
                continue
            }
            sigaddset(&blocked, signal)
        }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let waited = blocked
        let waiter = Thread {
            var signals = waited
            var caught: Int32 = 0
            while sigwait(&signals, &caught) != 0 {}
            removeAll()
            // _exit: other threads may still be converting; nothing of theirs is worth flushing now.
            _exit(128 + caught)
        }
        waiter.name = "calport-signals"
        waiter.start()
    }
}
