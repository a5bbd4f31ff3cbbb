import CalendarModel
import Foundation
import GraphEvents

/// How an app proves who it is in app-only sign-in (the OAuth 2.0 client credentials grant).
public enum ClientCredential: Sendable {
    /// A client secret (from a file or an environment variable, never a command-line argument).
    case secret(Secret)
    /// A certificate registered with the app, and its private key, which signs a client assertion.
    case certificate(ClientCertificate)
}

/// App-only tokens (client credentials): from the cache while they have more than five minutes
/// left, else new ones from the token endpoint, cached per tenant and client (0600).
public actor AppTokenProvider: TokenProvider {
    private let credential: ClientCredential
    private let oauth: OAuthClient
    private let cache: TokenCache
    private var tokens: CachedTokens?
    private var signingIn: Task<Result<CachedTokens, GraphServiceError>, Never>?

    /// Seconds before expiry at which a token is renewed, so it does not lapse mid-request.
    private static let skew: TimeInterval = 300

    /// App-only sign-in needs a tenant of its own: `common` and `organizations` name no directory.
    public init(
        credential: ClientCredential, endpoints: GraphEndpoints, cache: TokenCache, transport: any HTTPTransport,
        retry: RetryPolicy = RetryPolicy()
    ) throws(GraphServiceError) {
        guard !["common", "organizations", "consumers"].contains(endpoints.tenant.lowercased()) else {
            throw .invalidConfiguration(
                "app-only sign-in needs --tenant (or CALPORT_TENANT): the directory's id or domain, not '\(endpoints.tenant)'"
            )
        }
        self.credential = credential
        self.oauth = OAuthClient(endpoints: endpoints, transport: transport, retry: retry)
        self.cache = cache
    }

    public func accessToken(refresh: Bool) async throws(GraphServiceError) -> Secret {
        if tokens == nil, let cached = try? cache.load(), cached.clientID == oauth.endpoints.clientID,
            cached.tenant == oauth.endpoints.tenant
        {
            tokens = cached
        }
        if !refresh, let current = tokens, current.expiresAt.timeIntervalSinceNow > Self.skew {
            return current.accessToken
        }
        // Requests run four at a time: those that find the token expiring share one sign-in.
        if let signingIn { return try await signingIn.value.get().accessToken }
        let task = Task { await self.renew() }
        signingIn = task
        let result = await task.value
        signingIn = nil
        return try result.get().accessToken
    }

    /// A new token, cached.
    private func renew() async -> Result<CachedTokens, GraphServiceError> {
        do throws(GraphServiceError) {
            let renewed = try await signIn()
            try cache.save(renewed)
            tokens = renewed
            return .success(renewed)
        } catch {
            return .failure(error)
        }
    }

    /// New tokens from the token endpoint; a refusal is explained in one line (see ``AADSTSError``).
    private func signIn() async throws(GraphServiceError) -> CachedTokens {
        let endpoints = oauth.endpoints
        var form = [
            ("client_id", endpoints.clientID), ("grant_type", "client_credentials"),
            ("scope", endpoints.appScope),
        ]
        switch credential {
        case .secret(let secret):
            form.append(("client_secret", secret.reveal()))
        case .certificate(let certificate):
            let assertion = try certificate.assertion(clientID: endpoints.clientID, tokenURL: endpoints.tokenURL)
            form += [
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                ("client_assertion", assertion.reveal()),
            ]
        }
        switch try await oauth.post(endpoints.tokenURL, form: form) {
        case .failure(let code, let description):
            throw .login(
                AADSTSError.explain(code: code, description: description)
                    + " (app \(endpoints.clientID), tenant \(endpoints.tenant))")
        case .success(let object):
            return try oauth.tokens(from: object)
        }
    }
}

/// The identity platform's refusals in words: the AADSTS code and what to do about it.
public enum AADSTSError {
    /// What each code the identity platform answers app-only sign-in with means, and what to do.
    static let meanings: [(code: String, meaning: String)] = [
        (
            "AADSTS7000215",
            "wrong client secret: give the secret's value (not its id) from the app's Certificates & secrets"
        ),
        ("AADSTS7000222", "the client secret has expired: create a new one in the app's Certificates & secrets"),
        (
            "AADSTS7000218",
            "no credential: give --client-secret-file, CALPORT_CLIENT_SECRET, or --certificate and --private-key"
        ),
        (
            "AADSTS700027",
            "the client assertion is refused: the certificate is not registered with the app, or the key is not its key"
        ),
        ("AADSTS700024", "the client assertion has expired or is not yet valid: check this machine's clock"),
        ("AADSTS65001", "admin consent missing: an administrator must grant the app's application permissions"),
        ("AADSTS700016", "no such app in this tenant: check --client-id and --tenant"),
        ("AADSTS90002", "no such tenant: check --tenant"),
        ("AADSTS1002012", "the scope must end in /.default for app-only sign-in"),
    ]

    /// One line: the AADSTS code in the description (or the OAuth error code) and what it means,
    /// else the description as the service wrote its first line.
    public static func explain(code: String, description: String?) -> String {
        let text = description ?? ""
        if let found = meanings.first(where: { text.hasPrefix($0.code + ":") || text.contains(" " + $0.code + ":") }) {
            return "\(found.code) \(found.meaning)"
        }
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init)
        return code + (firstLine.map { ": " + $0 } ?? "")
    }
}

extension GraphEndpoints {
    /// The app-only scope: Graph's own resource with `/.default` (the permissions an admin granted).
    var appScope: String {
        var components = URLComponents()
        components.scheme = graphURL.scheme
        components.host = graphURL.host
        components.port = graphURL.port
        return (components.string ?? "https://graph.microsoft.com") + "/.default"
    }
}

extension TokenCache {
    /// `…/calport/app-tokens/{tenant}.{client id}.json` beside the login cache: one per tenant and app.
    public static func appPath(
        endpoints: GraphEndpoints, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let directory = defaultPath(environment: environment).parentDirectory
        let name = [endpoints.tenant, endpoints.clientID].map { $0.urlComponentEncoded }.joined(separator: ".")
        return directory + "/app-tokens/" + name + ".json"
    }
}

extension StaticTokenProvider {
    /// A secret from a file (a token, a client secret), surrounding white space removed; `what`
    /// names the file in errors. A file its group or others may read is refused, as ssh refuses
    /// such a private key.
    public static func secret(file path: String, what: String = "secret file") throws(GraphServiceError) -> Secret {
        try SecretFileMode.check(path, what: "the \(what)")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .storage(path: path, reason: "cannot read the \(what)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .storage(path: path, reason: "the \(what) is empty") }
        return Secret(text)
    }
}
