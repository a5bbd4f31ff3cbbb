import CalendarModel
import Foundation
import GraphEvents

/// Tokens from a sign-in, as kept in the cache file.
public struct CachedTokens: Sendable, Hashable {
    /// The bearer token sent on Graph requests (OAuth 2.0 `access_token`).
    public var accessToken: Secret
    /// The token that gets a new access token without signing in again (`refresh_token`, given for the
    /// `offline_access` scope); nil when the sign-in service gave none, and then an expired access token
    /// means signing in again.
    public var refreshToken: Secret?
    /// When the access token stops working.
    public var expiresAt: Date
    /// The app and tenant the tokens belong to, so a refresh uses the same.
    public var clientID: String
    /// The tenant (directory) signed in to: `common`, `organizations`, a domain or a tenant id.
    public var tenant: String

    /// Tokens as the token endpoint gave them for app `clientID` in `tenant`, valid until `expiresAt`.
    public init(accessToken: Secret, refreshToken: Secret?, expiresAt: Date, clientID: String, tenant: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.clientID = clientID
        self.tenant = tenant
    }
}

/// The login cache: one JSON file in the user's config directory, created 0600 in a 0700 directory,
/// replaced atomically.
public struct TokenCache: Sendable, Hashable {
    /// The cache file's path.
    public var path: String

    /// The cache at `path`; nothing is read or created until ``load()`` or ``save(_:)``. The usual
    /// path is ``defaultPath(environment:)``.
    public init(path: String) {
        self.path = path
    }

    /// `$XDG_CONFIG_HOME/calport/token.json`, or `~/.config/calport/token.json`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/calport/token.json"
    }

    /// The cached tokens, or nil when there is no cache.
    /// A cache the group or others may read, or a directory they may write to, is refused.
    public func load() throws(GraphServiceError) -> CachedTokens? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        try SecretFileMode.check(path.parentDirectory, what: "the login cache's directory")
        try SecretFileMode.check(path, what: "the login cache")
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let value = try? JSONParser.parse([UInt8](data)),
            let access = value["accessToken"]?.stringValue, let expiry = value["expiresAt"]?.numberValue,
            let clientID = value["clientId"]?.stringValue, let tenant = value["tenant"]?.stringValue
        else { throw .storage(path: path, reason: "the token cache is damaged; run calport logout, then login") }
        return CachedTokens(
            accessToken: Secret(access), refreshToken: value["refreshToken"]?.stringValue.map(Secret.init),
            expiresAt: Date(timeIntervalSince1970: expiry), clientID: clientID, tenant: tenant)
    }

    /// Writes `tokens`, readable by the user alone.
    public func save(_ tokens: CachedTokens) throws(GraphServiceError) {
        var object = JSONObject([
            JSONMember("accessToken", .string(tokens.accessToken.reveal())),
            JSONMember("expiresAt", .number(tokens.expiresAt.timeIntervalSince1970.rounded())),
            JSONMember("clientId", .string(tokens.clientID)), JSONMember("tenant", .string(tokens.tenant)),
        ])
        object["refreshToken"] = tokens.refreshToken.map { .string($0.reveal()) }
        let directory = path.parentDirectory
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage(path: directory, reason: "cannot create the directory")
        }
        do {
            try DurableFile.replace(
                path, with: Array(JSONWriter(pretty: true).string(.object(object)).utf8), mode: 0o600)
        } catch {
            throw .storage(path: path, reason: error.reason)
        }
    }

    /// Deletes the cache; true when there was one.
    public func remove() throws(GraphServiceError) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        guard unlink(path) == 0 else { throw .storage(path: path, reason: String(cString: strerror(errno))) }
        return true
    }
}
