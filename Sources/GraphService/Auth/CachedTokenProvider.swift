import Foundation

/// Tokens from the login cache, refreshed with the refresh token when they expire or are refused.
public actor CachedTokenProvider: TokenProvider {
    private let cache: TokenCache
    private let oauth: OAuthClient
    private var tokens: CachedTokens?
    private var refreshing: Task<Result<CachedTokens, GraphServiceError>, Never>?

    /// Seconds before expiry at which a token counts as expired, so it does not lapse mid-request.
    private static let skew: TimeInterval = 300

    /// A provider reading `cache` (written by ``DeviceCodeLogin``) when first asked. It refreshes through
    /// the token endpoint of `endpoints` over `transport`, with the client and tenant the cached tokens
    /// were issued to, and saves the new tokens in `cache`.
    public init(
        cache: TokenCache, endpoints: GraphEndpoints, transport: any HTTPTransport, retry: RetryPolicy = RetryPolicy()
    ) {
        self.cache = cache
        self.oauth = OAuthClient(endpoints: endpoints, transport: transport, retry: retry)
    }

    public func accessToken(refresh: Bool) async throws(GraphServiceError) -> Secret {
        // Requests run four at a time: those that find the token expiring share one refresh,
        // so the refresh token is used once and the cache written once.
        if let refreshing { return try await refreshing.value.get().accessToken }
        if tokens == nil { tokens = try cache.load() }
        guard let current = tokens else {
            throw .notSignedIn("run calport login, or set CALPORT_TOKEN, or pass --token-file")
        }
        if !refresh && current.expiresAt.timeIntervalSinceNow > Self.skew { return current.accessToken }
        let (oauth, cache) = (self.oauth, self.cache)
        let task = Task { await Self.renew(current, oauth: oauth, cache: cache) }
        refreshing = task
        let result = await task.value
        refreshing = nil
        if case .success(let renewed) = result { tokens = renewed }
        return try result.get().accessToken
    }

    /// New tokens for `current` from the token endpoint, saved in the cache.
    private static func renew(_ current: CachedTokens, oauth: OAuthClient, cache: TokenCache) async -> Result<
        CachedTokens, GraphServiceError
    > {
        do throws(GraphServiceError) {
            guard let refreshToken = current.refreshToken else {
                throw .notSignedIn("the cached token expired and there is no refresh token; run calport login")
            }
            var endpoints = oauth.endpoints
            endpoints.clientID = current.clientID
            endpoints.tenant = current.tenant
            let refresher = OAuthClient(endpoints: endpoints, transport: oauth.transport, retry: oauth.retry)
            let answer = try await refresher.post(
                endpoints.tokenURL,
                form: [
                    ("client_id", current.clientID), ("grant_type", "refresh_token"),
                    ("refresh_token", refreshToken.reveal()), ("scope", GraphEndpoints.scopes.joined(separator: " ")),
                ])
            switch answer {
            case .failure(let code, let description):
                throw .notSignedIn(
                    "refreshing the token failed (\(code)\(description.map { ": " + $0 } ?? "")); run calport login")
            case .success(let object):
                let renewed = try refresher.tokens(from: object, previousRefresh: refreshToken)
                try cache.save(renewed)
                return .success(renewed)
            }
        } catch {
            return .failure(error)
        }
    }
}
