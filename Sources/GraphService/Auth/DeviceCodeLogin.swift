import Foundation

/// What the user is asked to do to sign in: open `verificationURL` and enter `userCode`.
public struct DeviceCodePrompt: Sendable, Hashable {
    /// The short code the user types on the verification page (`user_code`, RFC 8628 §3.2).
    public var userCode: String
    /// The page where the user enters the code (`verification_uri`, e.g. `https://microsoft.com/devicelogin`).
    public var verificationURL: String
    /// The sign-in service's own sentence saying the same, when it sent one.
    public var message: String?
    /// Seconds the code stays valid from now (`expires_in`; 900 when the service does not say).
    public var expiresIn: Double
}

/// OAuth 2.0 device authorization grant (RFC 8628) against the Microsoft identity platform.
public struct DeviceCodeLogin: Sendable {
    private let oauth: OAuthClient
    /// Waits between polls; tests shorten it.
    private let sleep: @Sendable (Double) async -> Void

    /// A sign-in as app `endpoints.clientID` in tenant `endpoints.tenant`, over `transport`; `sleep`
    /// waits the given number of seconds between polls of the token endpoint.
    public init(
        endpoints: GraphEndpoints, transport: any HTTPTransport, retry: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(for: .seconds($0)) }
    ) {
        self.oauth = OAuthClient(endpoints: endpoints, transport: transport, retry: retry)
        self.sleep = sleep
    }

    /// Asks for a device code, shows the prompt through `show`, polls until the user signs in,
    /// and returns the tokens (the caller saves them).
    public func signIn(show: @Sendable (DeviceCodePrompt) -> Void) async throws(GraphServiceError) -> CachedTokens {
        let endpoints = oauth.endpoints
        let start = try await oauth.post(
            endpoints.deviceCodeURL,
            form: [("client_id", endpoints.clientID), ("scope", GraphEndpoints.scopes.joined(separator: " "))])
        guard case .success(let grant) = start, let deviceCode = grant["device_code"]?.stringValue,
            let userCode = grant["user_code"]?.stringValue,
            let verification = grant["verification_uri"]?.stringValue ?? grant["verification_url"]?.stringValue
        else {
            if case .failure(let code, let description) = start {
                throw .login("\(code)\(description.map { ": " + $0 } ?? "")")
            }
            throw .login("the device code answer lacks device_code, user_code or verification_uri")
        }
        let expiresIn = grant["expires_in"]?.numberValue ?? 900
        show(
            DeviceCodePrompt(
                userCode: userCode, verificationURL: verification, message: grant["message"]?.stringValue,
                expiresIn: expiresIn))
        var interval = grant["interval"]?.numberValue ?? 5
        let deadline = Date().addingTimeInterval(expiresIn)
        while Date() < deadline {
            await sleep(interval)
            let answer = try await oauth.post(
                endpoints.tokenURL,
                form: [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("client_id", endpoints.clientID),
                    ("device_code", deviceCode),
                ])
            switch answer {
            case .success(let object):
                return try oauth.tokens(from: object)
            case .failure("authorization_pending", _):
                continue
            case .failure("slow_down", _):
                interval += 5  // RFC 8628 §3.5
            case .failure("authorization_declined", _):
                throw .login("authorization_declined: sign-in was declined; run calport login to try again")
            case .failure("expired_token", _):
                throw .login("expired_token: the code expired before sign-in finished; run calport login again")
            case .failure(let code, let description):
                throw .login("\(code)\(description.map { ": " + $0 } ?? "")")
            }
        }
        throw .login("the code expired before sign-in finished; run calport login again")
    }
}
