import Foundation

extension GraphClient {
    /// A client for a program that already holds an access token for Graph (from its own sign-in, MSAL,
    /// or `az account get-access-token`): it signs every request with `accessToken`, never refreshes it
    /// and never reads calport's token cache.
    ///
    /// `graphURL` is Graph's root (a national cloud's, or a local emulator's). `transport` sends the
    /// requests; the default runs the `calport-http` helper program, found beside the running program
    /// or through `CALPORT_HTTP_HELPER`. A program that links FoundationNetworking itself can pass its
    /// own ``HTTPTransport`` instead.
    public init(
        accessToken: String, graphURL: URL = GraphEndpoints.defaultGraphURL,
        transport: any HTTPTransport = HelperTransport()
    ) {
        self.init(
            endpoints: GraphEndpoints(graphURL: graphURL), tokens: StaticTokenProvider(token: Secret(accessToken)),
            transport: transport)
    }
}
