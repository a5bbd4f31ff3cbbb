import Foundation
import Testing

@testable import GraphService

/// The frames calport and calport-http exchange: their bytes, round trips and what is refused.
@Suite struct HelperFrameTests {
    /// "calport-http", then the version byte 1.
    let prefix: [UInt8] = [0x63, 0x61, 0x6C, 0x70, 0x6F, 0x72, 0x74, 0x2D, 0x68, 0x74, 0x74, 0x70, 0x01]

    @Test func aRequestFrameIsLaidOutFieldByField() throws {
        let request = HelperRequest(
            request: HTTPRequest(
                method: "GET", url: URL(string: "http://h/x")!, headers: ["A": "b:c"], body: [0x00, 0x0D, 0x0A]),
            timeout: 1.5)
        let expected: [UInt8] =
            prefix + [0x51]  // "Q"
            + [0, 0, 0, 3] + Array("GET".utf8)
            + [0, 0, 0, 10] + Array("http://h/x".utf8)
            + [0, 0, 0, 8] + [0, 0, 0, 0, 0, 0, 0x05, 0xDC]  // 1,500 ms
            + [0, 0, 0, 12] + [0, 0, 0, 1] + Array("A".utf8) + [0, 0, 0, 3] + Array("b:c".utf8)
            + [0, 0, 0, 3] + [0x00, 0x0D, 0x0A]
        #expect(try request.frame() == expected)
        #expect(try HelperRequest(frame: expected) == request)
    }

    @Test func aFailureFrameCarriesItsReason() throws {
        let expected = prefix + [0x46] + [0, 0, 0, 2] + Array("no".utf8)
        #expect(try HelperReply.failure("no").frame() == expected)
        #expect(try HelperReply(frame: expected) == .failure("no"))
        // "U": no connection could be made, which the transport does not retry.
        let unreachable = prefix + [0x55] + [0, 0, 0, 2] + Array("no".utf8)
        #expect(try HelperReply.unreachable("no").frame() == unreachable)
        #expect(try HelperReply(frame: unreachable) == .unreachable("no"))
    }

    @Test func aBinaryBodyAndManyHeadersComeBackUnchanged() throws {
        let body: [UInt8] = Array(0...255) + [0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x0A]
        var headers: [String: String] = [:]
        for index in 0..<200 { headers["X-Header-\(index)"] = "value: \(index); url=https://h:443/p?q=\(index)" }
        let response = HTTPResponse(status: 207, headers: headers, body: body)
        #expect(try HelperReply(frame: HelperReply.response(response).frame()) == .response(response))

        let request = HelperRequest(
            request: HTTPRequest(
                method: "POST", url: URL(string: "https://graph.example/v1.0/$batch?a=b%20c")!, headers: headers,
                body: body),
            timeout: 60)
        #expect(try HelperRequest(frame: request.frame()) == request)
    }

    @Test func anEmptyBodyAndNoHeadersComeBackEmpty() throws {
        let response = HTTPResponse(status: 204)
        let frame = try HelperReply.response(response).frame()
        // Status field (4 + 8), an empty headers field (4) and an empty body field (4).
        #expect(frame.count == prefix.count + 1 + 12 + 4 + 4)
        #expect(try HelperReply(frame: frame) == .response(response))
    }

    @Test func everyCutShortFrameIsRefused() throws {
        let frame = try HelperReply.response(
            HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
        ).frame()
        for length in 0..<frame.count {
            #expect(throws: HelperFrameError.truncated, "cut at \(length)") {
                try HelperReply(frame: Array(frame.prefix(length)))
            }
        }
    }

    @Test func aFrameFromElsewhereIsRefused() throws {
        let frame = try HelperReply.failure("x").frame()
        #expect(throws: HelperFrameError.notAFrame) { try HelperReply(frame: Array("HTTP/1.1 200 OK\r\n".utf8)) }
        var otherVersion = frame
        otherVersion[12] = 2
        #expect(throws: HelperFrameError.unsupportedVersion(2)) { try HelperReply(frame: otherVersion) }
        #expect(throws: HelperFrameError.trailingBytes) { try HelperReply(frame: frame + [0]) }
        let request = try HelperRequest(request: HTTPRequest(method: "GET", url: URL(string: "http://h/")!), timeout: 1)
            .frame()
        #expect(throws: HelperFrameError.unexpectedKind(0x51)) { try HelperReply(frame: request) }
        #expect(throws: HelperFrameError.unexpectedKind(0x46)) { try HelperRequest(frame: frame) }
    }

    @Test func aHeaderThatCouldSplitIntoTwoIsRefusedBothWays() throws {
        for headers in [["X-A": "b\r\nX-Injected: 1"], ["X-A": "b\nc"], ["X-A": "b\u{0}"], ["X:A": "b"], ["": "b"]] {
            let request = HelperRequest(
                request: HTTPRequest(method: "GET", url: URL(string: "http://h/")!, headers: headers), timeout: 1)
            #expect(throws: HelperFrameError.invalidHeader(headers.keys.first!)) { try request.frame() }
        }
        // The same refusal when a frame arrives with one (a value "b\nc" written by hand).
        let frame =
            prefix + [0x52] + [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 200]
            + [0, 0, 0, 14] + [0, 0, 0, 3] + Array("X-A".utf8) + [0, 0, 0, 3] + Array("b\nc".utf8)
            + [0, 0, 0, 0]
        #expect(throws: HelperFrameError.invalidHeader("X-A")) { try HelperReply(frame: frame) }
    }
}
