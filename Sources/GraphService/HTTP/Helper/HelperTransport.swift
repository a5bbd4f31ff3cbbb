import Foundation

/// The real transport: each request is sent by a `calport-http` process of its own, which links
/// FoundationNetworking and libcurl so that calport does not load them for commands that never
/// touch the network. Concurrent requests run concurrent helpers.
public struct HelperTransport: HTTPTransport {
    /// Seconds a request may take before it counts as dropped.
    public var timeout: TimeInterval
    /// Where the `calport-http` program is, found when the transport is made; without one each request
    /// fails, and is not retried.
    public var helper: HelperLocation

    /// Seconds a helper gets beyond `timeout` to start and to report URLSession's own timeout,
    /// before it is killed as hung.
    static let grace: TimeInterval = 10

    /// A transport giving each request `timeout` seconds, sent by the helper at `helper` (by default the
    /// one beside the running program).
    public init(timeout: TimeInterval = 60, helper: HelperLocation = HelperLocation()) {
        self.timeout = timeout
        self.helper = helper
    }

    /// Sends `request` once; retrying is the client's business. Only a helper's timeout and the
    /// failures it reports from the network may be retried: a missing, broken or mismatched helper
    /// fails the same way every time.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        func failure(_ reason: String, retryable: Bool = false) -> TransportError {
            TransportError(request: request.summary, reason: reason, isRetryable: retryable)
        }
        let path: String
        switch helper.path {
        case .success(let found): path = found
        case .failure(let missing): throw failure(missing.description)
        }
        let frame: [UInt8]
        do {
            frame = try HelperRequest(request: request, timeout: timeout).frame()
        } catch {
            throw failure("not sent: \(error)")
        }
        let name = HelperLocation.programName
        var outcome: ChildProcess.Outcome
        do {
            outcome = try await ChildProcess(executable: path, limit: timeout + Self.grace).run(input: frame)
        } catch {
            throw failure("cannot start \(name) (\(path)): \(error.reason)")
        }
        let complaint = Self.lastLine(outcome.errorOutput).map { ": " + $0 } ?? ""
        switch outcome.ending {
        case .outlived:
            throw failure(
                "\(name) did not answer within \(Int(timeout + Self.grace)) s and was killed", retryable: true)
        case .signalled(let signal):
            throw failure("\(name) (\(path)) crashed with signal \(signal)\(complaint)")
        case .exited(let status) where status != 0:
            throw failure("\(name) (\(path)) failed with exit status \(status)\(complaint)")
        case .exited where outcome.output.isEmpty:
            throw failure("\(name) (\(path)) exited without answering\(complaint)")
        case .exited:
            break
        }
        let reply: HelperReply
        // Taken out of the outcome, so that a response's body can keep the frame's storage.
        let replyFrame = outcome.output
        outcome.output = []
        do {
            reply = try HelperReply(frame: consume replyFrame)
        } catch {
            throw failure("\(name) (\(path)) answered with a malformed reply: \(error)")
        }
        switch reply {
        case .response(let response): return response
        case .failure(let reason): throw failure(reason, retryable: true)
        case .unreachable(let reason): throw failure(reason)
        }
    }

    /// The helper's last non-empty line on stderr: its own message, or the runtime's on a crash.
    private static func lastLine(_ bytes: [UInt8]) -> String? {
        String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init)
    }
}
