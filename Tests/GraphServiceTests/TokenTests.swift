import Foundation
import GraphEvents
import Testing

@testable import GraphService

@Suite struct TokenTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-tokens-\(UUID().uuidString)")

    @Test func aTokenFileIsReadWithoutSurroundingWhiteSpace() async throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token")
        try "  eyJ0eXAi.token \n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try await StaticTokenProvider(file: file.path).accessToken(refresh: false).reveal() == "eyJ0eXAi.token")
        try "\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(throws: GraphServiceError.storage(path: file.path, reason: "the token file is empty")) {
            try StaticTokenProvider(file: file.path)
        }
    }

    @Test func aDamagedCacheSaysHowToRecover() throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = TokenCache(path: directory.appendingPathComponent("token.json").path)
        try #"{"accessToken": 1"#.write(toFile: cache.path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: cache.path)
        let expected = GraphServiceError.storage(
            path: cache.path, reason: "the token cache is damaged; run calport logout, then login")
        #expect(throws: expected) { try cache.load() }
    }

    @Test func aTokenFileOrCacheOthersMayReadIsRefused() throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token")
        try "eyJ0eXAi.token".write(to: file, atomically: true, encoding: .utf8)
        for mode in [0o644, 0o640, 0o604] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
            #expect(throws: GraphServiceError.self, "mode \(String(mode, radix: 8))") {
                try StaticTokenProvider(file: file.path)
            }
        }
        let cache = TokenCache(path: directory.appendingPathComponent("cache/token.json").path)
        try cache.save(
            CachedTokens(
                accessToken: Secret("a"), refreshToken: nil, expiresAt: Date(), clientID: "client", tenant: "t"))
        #expect(try cache.load()?.accessToken.reveal() == "a")
        let cacheDirectory = directory.appendingPathComponent("cache").path
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: cacheDirectory)
        do {
            _ = try cache.load()
            Issue.record("a 0777 cache directory was used")
        } catch {
            guard case .storage(let path, let reason) = error else { throw error }
            #expect(path == cacheDirectory)
            #expect(reason.contains("run chmod 700 \(cacheDirectory)"))
        }
        // A directory others may read but not write, as ~/.config usually is, cannot hand them the token.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cacheDirectory)
        #expect(try cache.load()?.accessToken.reveal() == "a")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: cacheDirectory)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cache.path)
        #expect(throws: GraphServiceError.self) { try cache.load() }
    }

    @Test func holdingATokenMakesTheProcessNonDumpable() {
        // What ssh-agent does; /proc/PID/mem, ptrace and core files are then closed to the user.
        #expect(CoreDumpProtection.engage())
        #expect(CoreDumpProtection.isDumpable == false)
    }

    @Test func theCacheLivesInTheUsersConfigDirectory() {
        #expect(
            TokenCache.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"])
                == "/x/config/calport/token.json")
        #expect(TokenCache.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.config/calport/token.json")
    }

    @Test func concurrentRequestsShareOneRefresh() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = TokenCache(path: directory.appendingPathComponent("token.json").path)
        try cache.save(
            CachedTokens(
                accessToken: Secret("old"), refreshToken: Secret("refresh-1"), expiresAt: Date().addingTimeInterval(10),
                clientID: "client", tenant: "contoso"))
        let transport = FakeTransport([
            jsonResponse(200, #"{"access_token":"new","refresh_token":"refresh-2","expires_in":3600}"#)
        ])
        let provider = CachedTokenProvider(
            cache: cache, endpoints: GraphEndpoints(authorityURL: URL(string: "http://127.0.0.1:9")!),
            transport: transport, retry: RetryPolicy(maximumAttempts: 1))
        let tokens = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { try? await provider.accessToken(refresh: false).reveal() } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(tokens == Array(repeating: "new", count: 8))
        let requests = await transport.requests
        #expect(requests.count == 1)
        #expect(requests.first?.url.absoluteString == "http://127.0.0.1:9/contoso/oauth2/v2.0/token")
        let form = String(decoding: requests.first?.body ?? [], as: UTF8.self)
        #expect(form.contains("grant_type=refresh_token") && form.contains("refresh_token=refresh-1"))
        #expect(try cache.load()?.refreshToken == Secret("refresh-2"))
    }

    @Test func deviceCodeLoginPollsSlowerWhenAskedAndStopsWhenDeclined() async throws {
        let grant =
            #"{"device_code":"D","user_code":"U-1","verification_uri":"https://microsoft.com/devicelogin","interval":2}"#
        let transport = FakeTransport([
            jsonResponse(200, grant),
            jsonResponse(400, #"{"error":"authorization_pending"}"#),
            jsonResponse(400, #"{"error":"slow_down"}"#),
            jsonResponse(200, #"{"access_token":"A","refresh_token":"R","expires_in":3600}"#),
            jsonResponse(200, grant),
            jsonResponse(400, #"{"error":"access_denied","error_description":"the user declined"}"#),
        ])
        let sleeps = LockedList<Double>()
        let login = DeviceCodeLogin(
            endpoints: GraphEndpoints(authorityURL: URL(string: "http://127.0.0.1:9")!), transport: transport,
            sleep: { sleeps.append($0) })
        let tokens = try await login.signIn { _ in }
        #expect(tokens.accessToken == Secret("A") && tokens.refreshToken == Secret("R"))
        // RFC 8628 §3.5: slow_down adds 5 seconds to the interval.
        #expect(sleeps.all == [2, 2, 7])
        await #expect(throws: GraphServiceError.login("access_denied: the user declined")) {
            try await login.signIn { _ in }
        }
        let first = await transport.requests[0]
        #expect(first.url.absoluteString == "http://127.0.0.1:9/common/oauth2/v2.0/devicecode")
        let form = String(decoding: first.body, as: UTF8.self)
        #expect(
            form
                == "client_id=14d82eec-204b-4c2f-b7e8-296a70dab67e&scope=Calendars.ReadWrite%20User.Read%20MailboxSettings.Read%20offline_access"
        )
    }

    @Test func aRefusedCachedTokenIsRefreshedOnceAndTheRequestSentAgain() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = TokenCache(path: directory.appendingPathComponent("token.json").path)
        try cache.save(
            CachedTokens(
                accessToken: Secret("old"), refreshToken: Secret("refresh-1"),
                expiresAt: Date().addingTimeInterval(3600), clientID: "client", tenant: "common"))
        let transport = FakeTransport([
            jsonResponse(401, #"{"error":{"code":"InvalidAuthenticationToken"}}"#),
            jsonResponse(200, #"{"access_token":"new","expires_in":3600}"#),
            jsonResponse(200, #"{"displayName":"Ann"}"#),
        ])
        let endpoints = GraphEndpoints(
            graphURL: URL(string: "http://127.0.0.1:9/v1.0")!, authorityURL: URL(string: "http://127.0.0.1:9")!)
        let client = GraphClient(
            endpoints: endpoints, tokens: CachedTokenProvider(cache: cache, endpoints: endpoints, transport: transport),
            transport: transport)
        #expect(try await client.json("GET", endpoints.graph("/me"))["displayName"] == "Ann")
        let requests = await transport.requests
        #expect(requests.map(\.url.path) == ["/v1.0/me", "/common/oauth2/v2.0/token", "/v1.0/me"])
        #expect(requests.map { $0.headers["Authorization"] } == ["Bearer old", nil, "Bearer new"])
        // The refresh answer had no new refresh token: the old one is kept.
        #expect(try cache.load()?.refreshToken == Secret("refresh-1"))
    }

    /// The cache is replaced through `NAME.PID.tmp`; a link left at that name (by an earlier
    /// process with this pid, or anyone who could write there) must not be written through, or
    /// the tokens would land in the file it points to.
    @Test func aLinkAtTheTemporaryNameIsNotWrittenThrough() throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim").path
        try "untouched".write(toFile: victim, atomically: true, encoding: .utf8)
        let cache = TokenCache(path: directory.appendingPathComponent("token.json").path)
        try FileManager.default.createSymbolicLink(atPath: cache.path + ".\(getpid()).tmp", withDestinationPath: victim)
        try cache.save(
            CachedTokens(
                accessToken: Secret("a"), refreshToken: Secret("r"), expiresAt: Date(), clientID: "c", tenant: "t"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched")
        #expect(try cache.load()?.refreshToken == Secret("r"))
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }
}
