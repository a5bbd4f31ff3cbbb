import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// One test per behaviour of the Graph emulator, each pinned to the documentation page or field
/// report its comment in graph_emulator.py cites (docs/graph-service.md has the table). These
/// test the stand-in, not calport: requests are sent as they are, without retries.
@Suite struct EmulatorBehaviourTests {
    static func event(
        _ subject: String, _ start: String, _ end: String, zone: String = "UTC", extra: [(String, JSONValue)] = []
    ) -> JSONValue {
        var object = JSONObject([
            JSONMember("subject", .string(subject)),
            JSONMember("start", ["dateTime": .string(start), "timeZone": .string(zone)]),
            JSONMember("end", ["dateTime": .string(end), "timeZone": .string(zone)]),
        ])
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    static let daily: JSONValue = [
        "pattern": ["type": "daily", "interval": 1],
        "range": ["type": "numbered", "startDate": "2027-01-04", "numberOfOccurrences": 5],
    ]

    /// The emulator, a client that sends each request once, and the client's endpoints.
    func start(_ arguments: [String] = []) throws -> (GraphEmulator, GraphClient) {
        let emulator = try GraphEmulator(arguments)
        return (emulator, emulator.client(retry: RetryPolicy(maximumAttempts: 1)))
    }

    func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    func post(_ client: GraphClient, _ emulator: GraphEmulator, _ body: JSONValue) async throws -> String {
        try #require(
            try await client.json("POST", emulator.endpoints.graph("/me/events"), body: body)["id"]?.stringValue)
    }

    /// The series' instances in January 2027.
    func instances(_ client: GraphClient, _ emulator: GraphEmulator, _ id: String) async throws -> [JSONValue] {
        try await GraphPager(client: client).all(
            emulator.endpoints.graph(
                "/me/events/\(id)/instances",
                query: "startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-01T00:00:00Z"
            ))
    }

    // MARK: v1.0 and beta — event resource, ?view=graph-rest-1.0 versus ?view=graph-rest-beta

    @Test func betaMembersAreServedUnderBetaOnly() async throws {
        let (emulator, client) = try start()
        let id = try await post(
            client, emulator,
            Self.event(
                "Series", "2027-01-04T09:00:00", "2027-01-04T10:00:00", extra: [("recurrence", Self.daily)]))
        let all = try await instances(client, emulator, id)
        _ = try await client.json(
            "PATCH", emulator.endpoints.graph("/me/events/\(all[1]["id"]!.stringValue!)"), body: ["subject": "Moved"])
        _ = try await client.send("DELETE", emulator.endpoints.graph("/me/events/\(all[2]["id"]!.stringValue!)"))

        let expanded = try await client.send(
            "GET", emulator.endpoints.graph("/me/events/\(id)", query: "$expand=exceptionOccurrences"))
        #expect(expanded.status == 400)
        #expect(
            json(expanded)["error"]
                == [
                    "code": "BadRequest",
                    "message":
                        "Could not find a property named 'exceptionOccurrences' on type 'microsoft.graph.event'.",
                ])
        let selected = try await client.send(
            "GET", emulator.endpoints.graph("/me/events/\(id)", query: "$select=subject,cancelledOccurrences"))
        #expect(selected.status == 400)
        let plain = json(try await client.send("GET", emulator.endpoints.graph("/me/events/\(id)")))
        #expect(plain["exceptionOccurrences"] == nil && plain["cancelledOccurrences"] == nil)

        let beta = GraphClient(
            endpoints: GraphEndpoints(graphURL: URL(string: "http://127.0.0.1:\(emulator.port)/beta")!),
            tokens: StaticTokenProvider(token: Secret(GraphEmulator.token)))
        let master = try await beta.json(
            "GET",
            beta.endpoints.graph(
                "/me/events/\(id)", query: "$select=subject,cancelledOccurrences&$expand=exceptionOccurrences"))
        // The third occurrence, 6 January (UTC series), is cancelled; the second is the exception.
        #expect(master["cancelledOccurrences"] == .array([.string("OID.\(id).2027-01-06")]))
        #expect(master["exceptionOccurrences"]?.arrayValue?.map { $0["subject"] } == ["Moved"])
        let unselected = try await beta.json("GET", beta.endpoints.graph("/me/events/\(id)"))
        #expect(unselected["cancelledOccurrences"] == nil, "beta returns cancelledOccurrences only on $select")
    }

    // MARK: transactionId — event resource

    @Test func aRepeatedTransactionIdCreatesNothingAndADifferentBodyIsRefused() async throws {
        let (emulator, client) = try start()
        let url = emulator.endpoints.graph("/me/events")
        let body = Self.event("T", "2027-01-04T10:00:00", "2027-01-04T11:00:00", extra: [("transactionId", "TX-1")])
        let first = try await client.send("POST", url, body: body)
        let again = try await client.send("POST", url, body: body)
        #expect(first.status == 201 && again.status == 201)
        #expect(json(first)["id"] == json(again)["id"])
        let other = try await client.send(
            "POST", url,
            body: Self.event("Other", "2027-01-04T10:00:00", "2027-01-04T11:00:00", extra: [("transactionId", "TX-1")]))
        #expect(other.status == 400)
        #expect(json(other)["error"]?["code"] == "ErrorDuplicateTransactionId")
        #expect(try await emulator.state()["events"]?.arrayValue?.count == 1)
    }

    // MARK: Mailbox concurrency — throttling limits, Outlook service limits and batching

    @Test func moreThanFourOperationsOnTheMailboxAreThrottledInsideTheBatchItem() async throws {
        let (emulator, client) = try start(["--operation-seconds", "0.2", "--retry-after", "2"])
        let batchURL = emulator.endpoints.graph("/$batch")
        func batch(_ count: Int, chained: Bool = false) -> JSONValue {
            [
                "requests": .array(
                    (1...count).map { index in
                        var item = JSONObject([
                            JSONMember("id", .string("\(index)")), JSONMember("method", "GET"),
                            JSONMember("url", "/me"),
                        ])
                        if chained && index > 1 { item["dependsOn"] = [.string("\(index - 1)")] }
                        return .object(item)
                    })
            ]
        }
        // A batch of six runs four at a time: alone on the mailbox, nothing is throttled.
        let alone = try await client.json("POST", batchURL, body: batch(6))
        #expect(alone["responses"]?.arrayValue?.map { $0["status"] } == Array(repeating: 200, count: 6))

        // While a batch of four holds every slot, a request and another batch's items are refused.
        /// Waits until the emulator has `count` operations running (a loaded machine is slow to send).
        /// `required`: the test means nothing unless they do (else a short wait may miss them harmlessly).
        func waitForOperations(_ count: Int, required: Bool = false) async throws {
            let deadline = ContinuousClock.now + .seconds(required ? 60 : 20)
            while try await emulator.state()["operationsInFlight"]?.numberValue != Double(count),
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(20))
            }
            let running = try await emulator.state()["operationsInFlight"]?.numberValue
            try #require(
                !required || running == Double(count), "the batch never had \(count) operations running within a minute"
            )
        }
        // Long enough for the two requests to arrive while it runs, even when the machine is so
        // loaded that starting the HTTP helper takes seconds (the whole suite at a load of 16 on
        // two cores once needed more than 8).
        try await emulator.configure(["operation_seconds": 20])
        async let holder = client.json("POST", batchURL, body: batch(4))
        try await waitForOperations(4, required: true)
        async let request = client.send("GET", emulator.endpoints.graph("/me"))
        async let otherBatch = client.json("POST", batchURL, body: batch(2))
        let (single, other, held) = try await (request, otherBatch, holder)
        #expect(single.status == 429)
        #expect(single.headers["retry-after"] == "2")
        #expect(json(single)["error"]?["code"] == "ApplicationThrottled")
        #expect(
            json(single)["error"]?["message"] == "Application is over its MailboxConcurrency limit.")
        let items = other["responses"]?.arrayValue ?? []
        #expect(items.map { $0["status"] } == [429, 429])
        #expect(items.allSatisfy { $0["headers"]?["Retry-After"] == "2" })
        #expect(held["responses"]?.arrayValue?.map { $0["status"] } == [200, 200, 200, 200])

        // Chained by dependsOn, a batch runs one item at a time and leaves three slots.
        try await emulator.configure(["operation_seconds": 2])
        async let chained = client.json("POST", batchURL, body: batch(3, chained: true))
        try await waitForOperations(1)
        let beside = try await client.json("POST", batchURL, body: batch(3))
        #expect(beside["responses"]?.arrayValue?.map { $0["status"] } == [200, 200, 200])
        _ = try await chained
        let state = try await emulator.state()
        #expect(state["maxOperationsInFlight"] == 4)
        #expect(state["mailboxThrottled"] == 3)
    }

    // MARK: Mail and organizer — create, update and delete event

    @Test func meetingsSendMailPerAttendeeAndTheOwnerOrganisesThem() async throws {
        let (emulator, client) = try start()
        let attendees: JSONValue = [
            ["emailAddress": ["address": "ann@example.org"], "type": "required"],
            ["emailAddress": ["address": "bob@example.org"], "type": "optional"],
        ]
        let created = try await client.json(
            "POST", emulator.endpoints.graph("/me/events"),
            body: Self.event(
                "Meeting", "2027-01-04T09:00:00", "2027-01-04T10:00:00",
                extra: [
                    ("attendees", attendees), ("recurrence", Self.daily),
                    ("organizer", ["emailAddress": ["address": "someone@else.example"]]),
                ]))
        #expect(created["organizer"]?["emailAddress"]?["address"] == "user@example.com")
        let id = try #require(created["id"]?.stringValue)
        let all = try await instances(client, emulator, id)
        _ = try await client.json(
            "PATCH", emulator.endpoints.graph("/me/events/\(all[1]["id"]!.stringValue!)"), body: ["subject": "Moved"])
        _ = try await client.send("DELETE", emulator.endpoints.graph("/me/events/\(all[2]["id"]!.stringValue!)"))
        let mail = try await emulator.state()["mail"]?.arrayValue ?? []
        #expect(
            mail.map { "\($0["kind"]!.stringValue!) \($0["to"]!.stringValue!)" } == [
                "invitation ann@example.org", "invitation bob@example.org", "update ann@example.org",
                "update bob@example.org", "cancellation ann@example.org", "cancellation bob@example.org",
            ])
        #expect(mail[2]["occurrence"] == "2027-01-05T09:00:00Z")
        let single = try await post(client, emulator, Self.event("Alone", "2027-01-04T12:00:00", "2027-01-04T13:00:00"))
        _ = try await client.send("DELETE", emulator.endpoints.graph("/me/events/\(single)"))
        #expect(try await emulator.state()["mail"]?.arrayValue?.count == 6, "no attendees, no mail")
    }

    // MARK: ErrorOccurrenceCrossingBoundary — EWS ResponseCodeType

    @Test func anOccurrenceCannotBeMovedOntoOrPastItsNeighbour() async throws {
        let (emulator, client) = try start()
        let id = try await post(
            client, emulator,
            Self.event("Daily", "2027-01-04T09:00:00", "2027-01-04T10:00:00", extra: [("recurrence", Self.daily)]))
        let second = try #require(try await instances(client, emulator, id)[1]["id"]?.stringValue)
        let url = emulator.endpoints.graph("/me/events/\(second)")
        for day in ["06", "04", "09"] {
            let moved = try await client.send(
                "PATCH", url,
                body: [
                    "start": ["dateTime": .string("2027-01-\(day)T11:00:00"), "timeZone": "UTC"],
                    "end": ["dateTime": .string("2027-01-\(day)T12:00:00"), "timeZone": "UTC"],
                ])
            #expect(moved.status == 400, "onto or past a neighbour: 2027-01-\(day)")
            #expect(json(moved)["error"]?["code"] == "ErrorOccurrenceCrossingBoundary")
        }
        let sameDay = try await client.send(
            "PATCH", url,
            body: [
                "start": ["dateTime": "2027-01-05T15:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2027-01-05T16:00:00", "timeZone": "UTC"],
            ])
        #expect(sameDay.status == 200)
    }

    // MARK: originalStart of all-day occurrences — event resource, field reports

    @Test func anAllDayOccurrencesOriginalStartIsTheMailboxMidnightInUTC() async throws {
        let (emulator, client) = try start(["--mailbox-zone", "Pacific Standard Time"])
        let weekly: JSONValue = [
            "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"]],
            "range": ["type": "numbered", "startDate": "2027-01-04", "numberOfOccurrences": 2],
        ]
        let id = try await post(
            client, emulator,
            Self.event(
                "All day", "2027-01-04T00:00:00", "2027-01-05T00:00:00", zone: "W. Europe Standard Time",
                extra: [("isAllDay", true), ("recurrence", weekly)]))
        // Midnight in Los Angeles in January (UTC-8) is 08:00Z, whatever the event's own zone.
        #expect(
            try await instances(client, emulator, id).map { $0["originalStart"] } == [
                "2027-01-04T08:00:00Z", "2027-01-11T08:00:00Z",
            ])
    }

    // MARK: Paging — Paging Microsoft Graph data, field reports of pages of 10

    @Test func pagesHoldTenUnlessMaxPageSizeIsPreferred() async throws {
        let (emulator, client) = try start()
        for hour in 0..<12 {
            let clock = hour < 10 ? "0\(hour)" : "\(hour)"
            _ = try await post(
                client, emulator, Self.event("E\(hour)", "2027-01-04T\(clock):00:00", "2027-01-04T\(clock):30:00"))
        }
        let url = emulator.endpoints.graph(
            "/me/calendarView", query: "startDateTime=2027-01-04T00:00:00Z&endDateTime=2027-01-05T00:00:00Z")
        let first = try await client.json("GET", url)
        #expect(first["value"]?.arrayValue?.count == 10)
        #expect(first["@odata.nextLink"] != nil)
        let five = try await client.send("GET", url, headers: ["Prefer": "odata.maxpagesize=5"])
        #expect(json(five)["value"]?.arrayValue?.count == 5)
        #expect(five.headers["preference-applied"] == "odata.maxpagesize=5")
        let all = try await GraphPager(client: client).all(url, headers: ["Prefer": "odata.maxpagesize=5"])
        #expect(all.count == 12)
    }

    // MARK: Prefer outlook.timezone and outlook.body-content-type — Get event

    @Test func timesAreUTCAndBodiesHTMLUnlessPreferredOtherwise() async throws {
        let (emulator, client) = try start()
        let id = try await post(
            client, emulator,
            Self.event(
                "Zoned", "2027-01-04T09:00:00", "2027-01-04T10:00:00", zone: "W. Europe Standard Time",
                extra: [("body", ["contentType": "text", "content": "a & b\nnext"])]))
        let url = emulator.endpoints.graph("/me/events/\(id)")
        let plain = try await client.json("GET", url)
        #expect(plain["start"] == ["dateTime": "2027-01-04T08:00:00.0000000", "timeZone": "UTC"])
        #expect(plain["body"]?["contentType"] == "html")
        #expect(plain["body"]?["content"]?.stringValue?.contains("a &amp; b<br>next") == true)
        let preferred = try await client.json(
            "GET", url,
            headers: ["Prefer": #"outlook.timezone="Tokyo Standard Time", outlook.body-content-type="text""#])
        #expect(preferred["start"] == ["dateTime": "2027-01-04T17:00:00.0000000", "timeZone": "Tokyo Standard Time"])
        #expect(preferred["body"] == ["contentType": "text", "content": "a & b\nnext"])
    }

    // MARK: Recurrence members per pattern type — recurrencePattern and recurrenceRange resources

    @Test func recurrenceMembersAreRequiredPerPatternType() async throws {
        let (emulator, client) = try start()
        let refused: [JSONValue] = [
            ["pattern": ["type": "weekly", "interval": 1], "range": ["type": "noEnd", "startDate": "2027-01-04"]],
            [
                "pattern": ["type": "absoluteYearly", "interval": 1, "dayOfMonth": 4],
                "range": ["type": "noEnd", "startDate": "2027-01-04"],
            ],
            [
                "pattern": ["type": "relativeMonthly", "interval": 1],
                "range": ["type": "noEnd", "startDate": "2027-01-04"],
            ],
            ["pattern": ["type": "daily", "interval": 0], "range": ["type": "noEnd", "startDate": "2027-01-04"]],
            ["pattern": ["type": "daily", "interval": 1], "range": ["type": "numbered", "startDate": "2027-01-04"]],
            [
                "pattern": ["type": "daily", "interval": 1],
                "range": ["type": "endDate", "startDate": "2027-01-04", "endDate": "2027-01-01"],
            ],
        ]
        for recurrence in refused {
            let answer = try await client.send(
                "POST", emulator.endpoints.graph("/me/events"),
                body: Self.event("R", "2027-01-04T09:00:00", "2027-01-04T10:00:00", extra: [("recurrence", recurrence)])
            )
            #expect(answer.status == 400, "\(JSONWriter().string(recurrence))")
            #expect(json(answer)["error"]?["code"] == "ErrorInvalidRecurrence")
        }
    }

    @Test func aMonthlySeriesOnThe31stFallsOnTheLastDayOfShorterMonths() async throws {
        let (emulator, client) = try start()
        let monthly: JSONValue = [
            "pattern": ["type": "absoluteMonthly", "interval": 1, "dayOfMonth": 31],
            "range": ["type": "numbered", "startDate": "2027-01-31", "numberOfOccurrences": 3],
        ]
        let id = try await post(
            client, emulator,
            Self.event("Monthly", "2027-01-31T09:00:00", "2027-01-31T10:00:00", extra: [("recurrence", monthly)]))
        let all = try await GraphPager(client: client).all(
            emulator.endpoints.graph(
                "/me/events/\(id)/instances",
                query: "startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-05-01T00:00:00Z"
            ))
        #expect(
            all.map { $0["originalStart"] } == ["2027-01-31T09:00:00Z", "2027-02-28T09:00:00Z", "2027-03-31T09:00:00Z"])
    }

    // MARK: Identity platform — device authorization grant, refresh tokens

    func form(_ emulator: GraphEmulator, _ name: String, _ fields: [(String, String)]) async throws -> JSONValue {
        let body = fields.map { "\($0.0)=\($0.1.urlComponentEncoded)" }.joined(separator: "&")
        let url = name == "devicecode" ? emulator.endpoints.deviceCodeURL : emulator.endpoints.tokenURL
        let response = try await HelperTransport().send(
            HTTPRequest(
                method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array(body.utf8)))
        return json(response)
    }

    @Test func theDeviceCodeFlowAnswersAsTheIdentityPlatformDocuments() async throws {
        let (emulator, _) = try start(["--pending-polls", "1", "--poll-interval", "600"])
        let grant = "urn:ietf:params:oauth:grant-type:device_code"
        let code = try #require(
            try await form(emulator, "devicecode", [("client_id", "c")])["device_code"]?.stringValue)
        let poll = [("client_id", "c"), ("grant_type", grant), ("device_code", code)]
        #expect(try await form(emulator, "token", poll)["error"] == "authorization_pending")
        #expect(try await form(emulator, "token", poll)["error"] == "slow_down", "polled before the interval")
        let unknown = [("client_id", "c"), ("grant_type", grant), ("device_code", "nonsense")]
        #expect(try await form(emulator, "token", unknown)["error"] == "bad_verification_code")

        for (outcome, error) in [("decline", "authorization_declined"), ("expire", "expired_token")] {
            let (other, _) = try start(["--pending-polls", "0", "--device-outcome", outcome])
            let login = DeviceCodeLogin(endpoints: other.endpoints, transport: HelperTransport(), sleep: { _ in })
            await #expect {
                _ = try await login.signIn { _ in }
            } throws: { failure in
                guard case .login(let reason) = failure as? GraphServiceError else { return false }
                return reason.hasPrefix(error) && reason.contains("run calport login")
            }
        }
    }

    @Test func refreshTokensRotateAndCanBeRevoked() async throws {
        let (emulator, _) = try start(["--pending-polls", "0"])
        let login = DeviceCodeLogin(endpoints: emulator.endpoints, transport: HelperTransport(), sleep: { _ in })
        let tokens = try await login.signIn { _ in }
        let first = try #require(tokens.refreshToken?.reveal())
        let refresh = [("client_id", "c"), ("grant_type", "refresh_token")]
        let renewed = try await form(emulator, "token", refresh + [("refresh_token", first)])
        let second = try #require(renewed["refresh_token"]?.stringValue)
        #expect(second != first)
        #expect(
            try await form(emulator, "token", refresh + [("refresh_token", first)])["error"] == "invalid_grant",
            "a used refresh token is replaced")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-revoke-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = TokenCache(path: directory.appendingPathComponent("token.json").path)
        var expiring = tokens
        expiring.refreshToken = Secret(second)
        expiring.expiresAt = Date()
        try cache.save(expiring)
        let request = HTTPRequest(
            method: "POST", url: URL(string: "http://127.0.0.1:\(emulator.port)/_emulator/revoke")!)
        _ = try await HelperTransport().send(request)
        let provider = CachedTokenProvider(cache: cache, endpoints: emulator.endpoints, transport: HelperTransport())
        await #expect {
            _ = try await provider.accessToken(refresh: false)
        } throws: { failure in
            guard case .notSignedIn(let reason) = failure as? GraphServiceError else { return false }
            return reason.contains("invalid_grant") && reason.contains("run calport login")
        }
    }
}

// MARK: Several mailboxes — /users/{id | userPrincipalName}, calendars, who may open which

extension EmulatorBehaviourTests {
    func send(_ emulator: GraphEmulator, _ method: String, _ path: String, token: String, body: JSONValue? = nil)
        async throws -> (Int, JSONValue)
    {
        var request = HTTPRequest(
            method: method, url: emulator.endpoints.graph(path), headers: ["Authorization": "Bearer " + token])
        if let body {
            request.headers["Content-Type"] = "application/json"
            request.body = Array(JSONWriter().string(body).utf8)
        }
        let response = try await HelperTransport().send(request)
        return (response.status, json(response))
    }

    /// Get user and List calendars: /users/{id | userPrincipalName} beside /me, each mailbox with its
    /// own events, calendars (owned by its user) and operation counter.
    @Test func eachMailboxIsItsOwnUnderMeAndUsers() async throws {
        let (emulator, _) = try start(["--mailboxes", "3", "--delegate", "user2@example.com"])
        let token = GraphEmulator.token
        let body = Self.event("Second's", "2027-01-04T09:00:00", "2027-01-04T10:00:00")
        let (created, event) = try await send(
            emulator, "POST", "/users/user2@example.com/events", token: token, body: body)
        #expect(created == 201)
        #expect(event["organizer"]?["emailAddress"]?["address"] == "user2@example.com")
        // The id and the userPrincipalName (without regard to case) name the same user.
        let (_, byID) = try await send(emulator, "GET", "/users/user-2/events", token: token)
        let (_, byName) = try await send(emulator, "GET", "/users/USER2@example.com/events", token: token)
        #expect(byID["value"]?.arrayValue?.count == 1 && byID == byName)
        let (_, mine) = try await send(emulator, "GET", "/me/events", token: token)
        #expect(mine["value"]?.arrayValue?.isEmpty == true, "the signed-in user's mailbox holds none of it")
        let (_, me) = try await send(emulator, "GET", "/me", token: token)
        #expect(me["userPrincipalName"] == "user@example.com" && me["id"] == "user-1")

        let (_, theirs) = try await send(emulator, "GET", "/users/user2@example.com/calendars", token: token)
        let calendars = try #require(theirs["value"]?.arrayValue)
        #expect(calendars.allSatisfy { $0["owner"]?["address"] == "user2@example.com" })
        let (_, own) = try await send(emulator, "GET", "/me/calendars", token: token)
        let ownIDs = Set(own["value"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(ownIDs.isDisjoint(with: calendars.compactMap { $0["id"]?.stringValue }), "ids are per mailbox")

        let second = try await emulator.state(mailbox: "user2@example.com")
        #expect(second["events"]?.arrayValue?.count == 1 && second["maxOperationsInFlight"] == 1)
        #expect(try await emulator.state()["events"]?.arrayValue?.isEmpty == true)
        let (missing, unknown) = try await send(emulator, "GET", "/users/nobody@example.com/events", token: token)
        #expect(missing == 404 && unknown["error"]?["code"] == "ErrorInvalidUser")
    }

    /// calendar resource type and List calendars: id, name, owner, color and hexColor, canEdit,
    /// isDefaultCalendar; Create calendar, a repeated name refused with 409 ErrorFolderExists.
    @Test func calendarsAreListedAndCreatedAsGraphDocuments() async throws {
        let (emulator, _) = try start()
        let token = GraphEmulator.token
        let (_, listed) = try await send(emulator, "GET", "/me/calendars", token: token)
        let first = try #require(listed["value"]?.arrayValue?.first)
        #expect(first["name"] == "Calendar" && first["isDefaultCalendar"] == true && first["canEdit"] == true)
        #expect(first["color"] == "auto" && first["hexColor"] == "")
        #expect(first["owner"] == ["name": "Emulated User", "address": "user@example.com"])
        let (status, made) = try await send(emulator, "POST", "/me/calendars", token: token, body: ["name": "Team"])
        #expect(status == 201 && made["name"] == "Team" && made["isDefaultCalendar"] == false)
        let id = try #require(made["id"]?.stringValue)
        let (posted, _) = try await send(
            emulator, "POST", "/me/calendars/\(id)/events", token: token,
            body: Self.event("In Team", "2027-01-04T09:00:00", "2027-01-04T10:00:00"))
        #expect(posted == 201)
        let (again, refused) = try await send(emulator, "POST", "/me/calendars", token: token, body: ["name": "team"])
        #expect(again == 409 && refused["error"]?["code"] == "ErrorFolderExists")
    }

    /// A delegated token opens another user's mailbox only with rights to it: else 403 ErrorAccessDenied.
    @Test func anotherUsersMailboxWithoutRightsIsAccessDenied() async throws {
        let (emulator, _) = try start(["--mailboxes", "2"])
        let (status, body) = try await send(
            emulator, "GET", "/users/user2@example.com/calendars", token: GraphEmulator.token)
        #expect(status == 403)
        #expect(
            body["error"] == [
                "code": "ErrorAccessDenied", "message": "Access is denied. Check credentials and try again.",
            ])
    }

    /// Client credentials with a secret: AADSTS7000215 for a wrong one; the app's token works on
    /// /users/{id} only (/me is 400), and without the Calendars.ReadWrite role it is 403 ErrorAccessDenied.
    @Test func clientCredentialsWithASecretGiveAnAppToken() async throws {
        let (emulator, _) = try start([
            "--mailboxes", "2", "--app-client-id", "app-1", "--app-secret", "right-secret", "--app-roles", "",
        ])
        var endpoints = emulator.endpoints
        endpoints.tenant = "contoso"
        let base = [
            ("client_id", "app-1"), ("grant_type", "client_credentials"),
            ("scope", "https://graph.microsoft.com/.default"),
        ]
        let wrong = try await tokenForm(endpoints, base + [("client_secret", "wrong")])
        #expect(wrong["error"] == "invalid_client")
        #expect(wrong["error_description"]?.stringValue?.hasPrefix("AADSTS7000215:") == true)
        let answer = try await tokenForm(endpoints, base + [("client_secret", "right-secret")])
        let token = try #require(answer["access_token"]?.stringValue)
        #expect(answer["refresh_token"] == nil && answer["token_type"] == "Bearer")
        let (me, meBody) = try await send(emulator, "GET", "/me/events", token: token)
        #expect(
            me == 400 && meBody["error"]?["message"] == "/me request is only valid with delegated authentication flow.")
        let (denied, deniedBody) = try await send(emulator, "GET", "/users/user2@example.com/events", token: token)
        #expect(denied == 403 && deniedBody["error"]?["code"] == "ErrorAccessDenied", "no role consented")

        try await emulator.configure(["app_roles": "Calendars.ReadWrite"])
        let granted = try #require(
            try await tokenForm(endpoints, base + [("client_secret", "right-secret")])["access_token"]?.stringValue)
        let (allowed, _) = try await send(emulator, "GET", "/users/user2@example.com/events", token: granted)
        #expect(allowed == 200)
    }

    /// Certificate credentials: the assertion's RS256 signature is checked against the registered
    /// certificate (found by x5t), and its expiry, audience, issuer and jti.
    @Test func clientAssertionsAreCheckedAgainstTheCertificate() async throws {
        let registered = try TestCertificate()
        let other = try TestCertificate()
        let (emulator, _) = try start(["--app-client-id", "app-1", "--app-certificate", registered.certificatePath])
        var endpoints = emulator.endpoints
        endpoints.tenant = "contoso"
        func grant(_ assertion: String) async throws -> JSONValue {
            try await tokenForm(
                endpoints,
                [
                    ("client_id", "app-1"), ("grant_type", "client_credentials"),
                    ("scope", "https://graph.microsoft.com/.default"),
                    ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                    ("client_assertion", assertion),
                ])
        }
        let signer = try ClientCertificate(
            certificatePath: registered.certificatePath, privateKeyPath: registered.keyPath)
        let good = try signer.assertion(clientID: "app-1", tokenURL: endpoints.tokenURL).reveal()
        #expect(try await grant(good)["access_token"]?.stringValue != nil)
        #expect(
            try await grant(good)["error_description"]?.stringValue?.hasPrefix("AADSTS700236") == true, "jti reused")

        var tampered = good
        tampered.removeLast(2)
        tampered += tampered.hasSuffix("A") ? "BB" : "AA"
        #expect(try await grant(tampered)["error_description"]?.stringValue?.hasPrefix("AADSTS700027") == true)
        let stranger = try ClientCertificate(certificatePath: other.certificatePath, privateKeyPath: other.keyPath)
        let unknownKey = try stranger.assertion(clientID: "app-1", tokenURL: endpoints.tokenURL).reveal()
        #expect(try await grant(unknownKey)["error_description"]?.stringValue?.hasPrefix("AADSTS700027") == true)
        let wrongAudience = try signer.assertion(clientID: "app-1", tokenURL: URL(string: "https://example.com/token")!)
        #expect(try await grant(wrongAudience.reveal())["error"] == "invalid_client")
        let expired = try signer.assertion(clientID: "app-1", tokenURL: endpoints.tokenURL, now: Date() - 3600).reveal()
        #expect(try await grant(expired)["error_description"]?.stringValue?.hasPrefix("AADSTS700024") == true)
    }

    func tokenForm(_ endpoints: GraphEndpoints, _ fields: [(String, String)]) async throws -> JSONValue {
        let body = fields.map { "\($0.0)=\($0.1.urlComponentEncoded)" }.joined(separator: "&")
        let response = try await HelperTransport().send(
            HTTPRequest(
                method: "POST", url: endpoints.tokenURL,
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(body.utf8)))
        return json(response)
    }
}
