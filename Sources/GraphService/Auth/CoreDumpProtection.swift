import Foundation

/// Keeps a token out of core dumps and away from other processes of the same user: the process
/// is made non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`, as ssh-agent and gpg-agent do), so no core
/// file is written and ptrace and /proc/PID/mem are refused to anyone but root.
public enum CoreDumpProtection {
    /// Makes this process non-dumpable for the rest of its life; true when the kernel agreed.
    @discardableResult
    public static func engage() -> Bool {
        #if os(Linux)
            return prctl(setDumpable, 0) == 0
        #else
            return false
        #endif
    }

    /// Whether this process may be dumped now (`PR_GET_DUMPABLE`); nil where that cannot be asked.
    public static var isDumpable: Bool? {
        #if os(Linux)
            return prctl(getDumpable, 0).map { $0 != 0 }
        #else
            return nil
        #endif
    }

    #if os(Linux)
        /// `PR_GET_DUMPABLE` and `PR_SET_DUMPABLE` from <linux/prctl.h>, which Glibc does not export to Swift.
        private static let (getDumpable, setDumpable): (Int32, Int32) = (3, 4)

        /// prctl(2) with one argument. It is variadic, which Swift does not import; on Linux
        /// (x86-64 and AArch64 alike) a variadic function's integer arguments travel as a fixed
        /// signature's do, so it is called through one found with dlsym.
        private static func prctl(_ option: Int32, _ argument: UInt) -> Int32? {
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "prctl") else { return nil }
            return unsafeBitCast(symbol, to: Prctl.self)(option, argument, 0, 0, 0)
        }
    #endif
}
