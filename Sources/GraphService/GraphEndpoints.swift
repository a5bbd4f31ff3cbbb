import Foundation

/// Where calport talks to: the Graph API root and the sign-in authority, with the app it signs in as.
public struct GraphEndpoints: Sendable, Hashable {
    /// Microsoft Graph v1.0, the default API root.
    public static let defaultGraphURL = URL(string: "https://graph.microsoft.com/v1.0")!
    /// The Microsoft identity platform, the default authority.
    public static let defaultAuthorityURL = URL(string: "https://login.microsoftonline.com")!
    /// Work, school and personal accounts alike.
    public static let defaultTenant = "common"
    /// "Microsoft Graph Command Line Tools", Microsoft's public client for delegated Graph access
    /// from terminals; organisations that block it register their own app and pass its id.
    public static let defaultClientID = "14d82eec-204b-4c2f-b7e8-296a70dab67e"
    /// The delegated permissions calport asks for.
    public static let scopes = ["Calendars.ReadWrite", "User.Read", "MailboxSettings.Read", "offline_access"]

    /// The Graph API root requests are made under (``defaultGraphURL``; a national cloud's root, such as
    /// `https://graph.microsoft.us/v1.0`, or a test server's).
    public var graphURL: URL
    /// The sign-in authority the OAuth endpoints are under (``defaultAuthorityURL``).
    public var authorityURL: URL
    /// The tenant to sign in to: ``defaultTenant`` (`common`, any account), `organizations`,
    /// `consumers`, a domain or a tenant id.
    public var tenant: String
    /// The application (client) id signed in as; ``defaultClientID`` unless an organisation registered its own.
    public var clientID: String
    /// Whose mailbox every request goes to: nil for the signed-in user's (`/me`), else a user's id or
    /// userPrincipalName (`/users/{id}`), which an app-only token needs and a delegated one may use
    /// for a mailbox shared with the user.
    public var user: String?

    /// Endpoints with the defaults for whatever is not given: Graph v1.0, the Microsoft identity platform, `common`.
    public init(
        graphURL: URL = defaultGraphURL, authorityURL: URL = defaultAuthorityURL, tenant: String = defaultTenant,
        clientID: String = defaultClientID, user: String? = nil
    ) {
        self.graphURL = graphURL
        self.authorityURL = authorityURL
        self.tenant = tenant
        self.clientID = clientID
        self.user = user
    }

    /// `/me`, or `/users/{user}` (percent-encoded): the one place a mailbox's path is made.
    public var mailboxPath: String { user.map { "/users/" + $0.urlComponentEncoded } ?? "/me" }

    /// The Graph URL for `rest` (starting with `/`, or empty for the user itself) under ``mailboxPath``.
    public func mailbox(_ rest: String, query: String? = nil) -> URL { graph(mailboxPath + rest, query: query) }

    /// `{authority}/{tenant}/oauth2/v2.0/devicecode`.
    public var deviceCodeURL: URL { oauthURL("devicecode") }
    /// `{authority}/{tenant}/oauth2/v2.0/token`.
    public var tokenURL: URL { oauthURL("token") }

    /// The Graph URL for `path` (starting with `/`) and an already-encoded `query`.
    public func graph(_ path: String, query: String? = nil) -> URL {
        URL(string: graphURL.absoluteString.trimmingTrailingSlash + path + (query.map { "?" + $0 } ?? ""))!
    }

    private func oauthURL(_ name: String) -> URL {
        authorityURL.appendingPathComponent(tenant).appendingPathComponent("oauth2/v2.0").appendingPathComponent(name)
    }

    /// A URL from a flag or variable, which must be absolute https, or http to a loopback host (an
    /// emulator or a local proxy): a bearer token or refresh token sent in clear text to any other
    /// host could be read on the way, so such a URL is refused before anything is sent.
    public static func parseURL(_ text: String, option: String) throws(GraphServiceError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host
        else { throw .invalidConfiguration("\(option): expected an absolute http(s) URL, found '\(text)'") }
        guard scheme == "https" || isLoopback(host) else {
            throw .invalidConfiguration(
                "\(option): \(text) is plain http to \(host), which is not this machine; use https "
                    + "(http is allowed only for localhost, 127.0.0.0/8 and ::1)")
        }
        return url
    }

    /// Whether `host` names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

extension String {
    var trimmingTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }

    /// Percent-encoded for a query value or path segment: unreserved characters only (RFC 3986 §2.3).
    var urlComponentEncoded: String {
        addingPercentEncoding(
            withAllowedCharacters: .init(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? self
    }
}
