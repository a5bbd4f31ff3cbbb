import ArgumentParsing
import Foundation
import GraphService

/// `calport logout`: deletes the cached tokens.
enum LogoutCommand {
    static let spec = CommandSpec(
        name: "logout", abstract: "Delete the cached Microsoft Graph token.", options: [CommonOptions.help])

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let cache = TokenCache(path: TokenCache.defaultPath())
        do {
            let removed = try cache.remove()
            terminal.writeError(removed ? "Signed out; removed \(cache.path)\n" : "Not signed in; nothing to remove\n")
            return .success
        } catch {
            terminal.writeError("calport logout: error: \(error)\n")
            return .ioError
        }
    }
}
