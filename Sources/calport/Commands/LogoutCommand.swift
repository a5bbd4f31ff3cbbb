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
            terminal.writeErrorLine(removed ? "Signed out; removed \(cache.path)" : "Not signed in; nothing to remove")
            return .success
        } catch {
            terminal.writeErrorLine("calport logout: error: \(error)")
            return .ioError
        }
    }
}
