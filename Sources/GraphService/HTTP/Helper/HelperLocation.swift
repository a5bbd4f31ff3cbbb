import Foundation

/// Where `calport-http` is: the file `CALPORT_HTTP_HELPER` names, else the one beside the running
/// executable (as git finds `git-remote-https`), so that an installed calport and a test bundle in
/// the build directory both find theirs.
public struct HelperLocation: Sendable, Hashable {
    /// The helper's file name, looked for beside the running program.
    public static let programName = "calport-http"
    /// The environment variable that names the helper's path, overriding the search; empty counts as unset.
    public static let environmentVariable = "CALPORT_HTTP_HELPER"

    /// The helper's path, or why there is none, saying what is missing and where it was looked for.
    public let path: Result<String, Missing>

    /// Why no helper was found: its `description` says which path was tried and how to fix it
    /// (install `calport-http` there, or set `CALPORT_HTTP_HELPER`).
    public struct Missing: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Looks in `environment`, then beside `executable` (the running program, from /proc/self/exe).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String? = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    ) {
        let name = Self.programName
        if let override = environment[Self.environmentVariable], !override.isEmpty {
            path =
                Self.isExecutableFile(override)
                ? .success(override)
                : .failure(
                    Missing(
                        description: "\(Self.environmentVariable) names \(override), which is not an executable file"))
        } else if let executable {
            let directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            let candidate = directory.appendingPathComponent(name).path
            path =
                Self.isExecutableFile(candidate)
                ? .success(candidate)
                : .failure(
                    Missing(
                        description:
                            "the HTTP helper \(name) is missing: there is no executable \(candidate); install \(name) beside \(executable), or set \(Self.environmentVariable) to its path"
                    ))
        } else {
            path = .failure(
                Missing(
                    description:
                        "the HTTP helper \(name) cannot be found: /proc/self/exe is unreadable, so the directory of the running program is unknown; set \(Self.environmentVariable) to its path"
                ))
        }
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }
}
