import ArgumentParsing
import Dispatch
import Foundation
import GraphService

/// Options and set-up shared by the commands that talk to Graph: where it is, and how to sign in.
enum ServiceOptions {
    static let graphURL = OptionSpec(
        names: ["--graph-url"], valueName: "URL",
        help: "Graph API root (default $CALPORT_GRAPH_URL, else https://graph.microsoft.com/v1.0)")
    static let authorityURL = OptionSpec(
        names: ["--authority-url"], valueName: "URL",
        help: "Sign-in authority (default $CALPORT_AUTHORITY_URL, else https://login.microsoftonline.com)")
    static let tenant = OptionSpec(
        names: ["--tenant"], valueName: "TENANT",
        help: "Directory (tenant) id or domain (default $CALPORT_TENANT, else common)")
    static let clientID = OptionSpec(
        names: ["--client-id"], valueName: "ID",
        help:
            "Application (client) id to sign in as (default $CALPORT_CLIENT_ID, else Microsoft Graph Command Line Tools)"
    )
    static let tokenFile = OptionSpec(
        names: ["--token-file"], valueName: "FILE", help: "Read the access token from FILE instead of the login cache")
    static let user = OptionSpec(
        names: ["--user"], valueName: "UPN|ID",
        help: "Work on this user's mailbox, /users/{id} (default $CALPORT_USER, else the signed-in user's, /me)")
    static let clientSecretFile = OptionSpec(
        names: ["--client-secret-file"], valueName: "FILE",
        help: "Sign in as the app (client credentials) with the secret in FILE (or $CALPORT_CLIENT_SECRET)")
    static let certificate = OptionSpec(
        names: ["--certificate"], valueName: "FILE",
        help: "Sign in as the app with this certificate (PEM; or $CALPORT_CERTIFICATE), with --private-key")
    static let privateKey = OptionSpec(
        names: ["--private-key"], valueName: "FILE",
        help: "The certificate's RSA private key (PEM, unencrypted; or $CALPORT_PRIVATE_KEY)")

    /// The app-only sign-in options of the commands that read or write a mailbox.
    static let appOnly = [clientSecretFile, certificate, privateKey]

    /// The options every Graph command takes.
    static let all = [graphURL, authorityURL, tenant, clientID]

    /// Endpoints from the options, then the environment, then the defaults.
    static func endpoints(_ arguments: ParsedArguments, environment: [String: String]) throws(GraphServiceError)
        -> GraphEndpoints
    {
        var endpoints = GraphEndpoints()
        if let text = arguments.value(graphURL) ?? environment["CALPORT_GRAPH_URL"] {
            endpoints.graphURL = try GraphEndpoints.parseURL(text, option: "--graph-url")
        }
        if let text = arguments.value(authorityURL) ?? environment["CALPORT_AUTHORITY_URL"] {
            endpoints.authorityURL = try GraphEndpoints.parseURL(text, option: "--authority-url")
        }
        if let value = arguments.value(tenant) ?? environment["CALPORT_TENANT"] { endpoints.tenant = value }
        if let value = arguments.value(clientID) ?? environment["CALPORT_CLIENT_ID"] { endpoints.clientID = value }
        if let value = arguments.value(user) ?? environment["CALPORT_USER"], !value.isEmpty { endpoints.user = value }
        return endpoints
    }

    /// The token source: `--token-file`, else `CALPORT_TOKEN`, else an app-only sign-in when a
    /// client secret or certificate is given, else the login cache.
    static func tokens(
        _ arguments: ParsedArguments, environment: [String: String], endpoints: GraphEndpoints
    ) throws(GraphServiceError) -> any TokenProvider {
        // Whatever the source, a token is about to be held in memory: keep it out of core dumps.
        CoreDumpProtection.engage()
        if let path = arguments.value(tokenFile) { return try StaticTokenProvider(file: path) }
        if let token = environment["CALPORT_TOKEN"], !token.isEmpty { return StaticTokenProvider(token: Secret(token)) }
        if let credential = try appCredential(arguments, environment: environment) {
            guard endpoints.user != nil else {
                throw .invalidConfiguration(
                    "an app signs in for other users' mailboxes: give --user UPN|ID (Graph refuses /me to an app)")
            }
            return try AppTokenProvider(
                credential: credential, endpoints: endpoints,
                cache: TokenCache(path: TokenCache.appPath(endpoints: endpoints, environment: environment)),
                transport: HelperTransport())
        }
        return CachedTokenProvider(
            cache: TokenCache(path: TokenCache.defaultPath(environment: environment)), endpoints: endpoints,
            transport: HelperTransport())
    }

    /// The app's credential from `--client-secret-file` or `CALPORT_CLIENT_SECRET` (never an argument,
    /// which `ps` would show), or `--certificate` and `--private-key`; nil when none is given.
    static func appCredential(_ arguments: ParsedArguments, environment: [String: String]) throws(GraphServiceError)
        -> ClientCredential?
    {
        let given = AppCredentialPaths(arguments, environment: environment)
        if given.certificate != nil || given.privateKey != nil {
            guard let certificatePath = given.certificate, let keyPath = given.privateKey else {
                throw .invalidConfiguration("--certificate and --private-key go together")
            }
            if given.secretFile != nil {
                throw .invalidConfiguration("give a client secret or a certificate, not both")
            }
            return .certificate(try ClientCertificate(certificatePath: certificatePath, privateKeyPath: keyPath))
        }
        if let secretPath = given.secretFile { return .secret(try StaticTokenProvider.secret(file: secretPath)) }
        return given.secret.map { .secret(Secret($0)) }
    }

    /// Whether the options or the environment give an app's credential (a secret or a certificate),
    /// without reading it.
    static func givesAppCredential(_ arguments: ParsedArguments, environment: [String: String]) -> Bool {
        AppCredentialPaths(arguments, environment: environment).isGiven
    }

    /// A client for the command's options, telling `output` of retries unless quiet.
    static func client(_ arguments: ParsedArguments, output: SharedOutput, quiet: Bool = false)
        throws(GraphServiceError)
        -> GraphClient
    {
        let environment = ProcessInfo.processInfo.environment
        let endpoints = try endpoints(arguments, environment: environment)
        let quiet = quiet || arguments.isSet(CommonOptions.quiet)
        return GraphClient(
            endpoints: endpoints, tokens: try tokens(arguments, environment: environment, endpoints: endpoints),
            onRetry: { request, reason, delay in
                if !quiet {
                    output.errorLine("calport: \(request): \(reason); retrying in \(String(format: "%.1f", delay)) s")
                }
            })
    }

    /// The error in words, with what to do about a refusal Graph explains only by its code.
    static func explain(_ error: GraphServiceError) -> String {
        guard case .http(_, 403, let code?, _) = error, code == "ErrorAccessDenied" else { return error.description }
        return error.description
            + " (an app needs the Calendars.ReadWrite application permission with admin consent, and no"
            + " application access policy excluding the mailbox; a signed-in user needs rights to the mailbox)"
    }

    /// Says `error` on standard error as `calport COMMAND: error: …`, one line with its control
    /// characters escaped (a Graph or sign-in message is the server's text), and gives its exit status.
    static func report(_ error: GraphServiceError, command: String, terminal: Terminal) -> ExitStatus {
        terminal.writeErrorLine("calport \(command): error: \(explain(error))")
        return exitStatus(error)
    }

    /// The exit status for a service error: a bad setting is a usage error, anything else an I/O one.
    static func exitStatus(_ error: GraphServiceError) -> ExitStatus {
        if case .invalidConfiguration = error { return .usage }
        return .ioError
    }

    /// Runs async work from the synchronous CLI and waits for its result.
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// Carries a result out of a task; written once before the semaphore is signalled, read after.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var value: T?
}

/// The terminal's streams, usable from concurrent tasks: writes are serialised by a lock.
final class SharedOutput: @unchecked Sendable {
    private let terminal: Terminal
    private let lock = NSLock()

    init(_ terminal: Terminal) {
        self.terminal = terminal
    }

    /// Writes one line to standard error, escaped (`Terminal.writeErrorLine`).
    func errorLine(_ line: String) { lock.withLock { terminal.writeErrorLine(line) } }
    func output(_ bytes: [UInt8]) { lock.withLock { terminal.write(bytes) } }
}

/// Where an app's credential is named: options first, then the environment (an empty variable is
/// unset); read once, so that asking whether one is given and loading it agree.
private struct AppCredentialPaths {
    var certificate: String?
    var privateKey: String?
    var secretFile: String?
    /// The secret itself, from `CALPORT_CLIENT_SECRET`.
    var secret: String?

    init(_ arguments: ParsedArguments, environment: [String: String]) {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        certificate = arguments.value(ServiceOptions.certificate) ?? variable("CALPORT_CERTIFICATE")
        privateKey = arguments.value(ServiceOptions.privateKey) ?? variable("CALPORT_PRIVATE_KEY")
        secretFile = arguments.value(ServiceOptions.clientSecretFile)
        secret = variable("CALPORT_CLIENT_SECRET")
    }

    var isGiven: Bool { certificate != nil || privateKey != nil || secretFile != nil || secret != nil }
}
