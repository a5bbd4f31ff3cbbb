import ArgumentParsing
import Foundation
import GraphService

/// `calport login`: signs in with the device code flow and caches the tokens.
enum LoginCommand {
    static let spec = CommandSpec(
        name: "login", abstract: "Sign in to Microsoft Graph (device code flow) and cache the token.",
        options: ServiceOptions.all + [CommonOptions.help])

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let environment = ProcessInfo.processInfo.environment
        let endpoints: GraphEndpoints
        do {
            endpoints = try ServiceOptions.endpoints(arguments, environment: environment)
        } catch {
            return ServiceOptions.report(error, command: "login", terminal: terminal)
        }
        let cache = TokenCache(path: TokenCache.defaultPath(environment: environment))
        CoreDumpProtection.engage()
        let output = SharedOutput(terminal)
        let login = DeviceCodeLogin(endpoints: endpoints, transport: HelperTransport())
        let result = ServiceOptions.wait { () -> GraphServiceError? in
            do throws(GraphServiceError) {
                let tokens = try await login.signIn { prompt in
                    output.errorLine(
                        prompt.message
                            ?? "To sign in, open \(prompt.verificationURL) and enter the code \(prompt.userCode).")
                }
                try cache.save(tokens)
                return nil
            } catch {
                return error
            }
        }
        if let result {
            return ServiceOptions.report(result, command: "login", terminal: terminal)
        }
        terminal.writeErrorLine("Signed in; the token is cached in \(cache.path)")
        return .success
    }
}
