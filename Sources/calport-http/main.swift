import Foundation
import GraphService

// calport-http: calport's HTTP helper. It reads one request frame on stdin, sends the request
// with URLSession and writes one reply frame on stdout: the response, or why none arrived. It is
// a program of its own so that calport, which runs it, never loads libcurl and its libraries.

// The request on stdin carries the bearer token: no core dump may hold it.
CoreDumpProtection.engage()
let input = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
let exchange: HelperRequest
do {
    exchange = try HelperRequest(frame: input)
} catch {
    FileHandle.standardError.write(Data("calport-http: the request on stdin is unusable: \(error)\n".utf8))
    exit(2)
}
/// Seconds a TCP connection may take to open; a host that needs more is as good as unreachable.
let connectTimeout: TimeInterval = 4
let reply: HelperReply
var body = Data()
if let unreachable = ConnectionProbe(timeout: min(connectTimeout, exchange.timeout)).failure(for: exchange.request.url)
{
    reply = .unreachable(unreachable)
} else {
    do {
        let exchanged = try await URLSessionTransport(timeout: exchange.timeout).sendKeepingBody(exchange.request)
        reply = .response(exchanged.response)
        body = exchanged.body
    } catch {
        reply = error.isRetryable ? .failure(error.reason) : .unreachable(error.reason)
    }
}
/// Writes all of `bytes` to stdout; a reader that went away gets the rest of nothing.
func writeToStandardOutput(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
// Written in pieces: a downloaded file is held once, as URLSession gave it, not in a frame too.
do {
    try body.withUnsafeBytes { bytes in try reply.write(to: writeToStandardOutput, body: bytes) }
} catch {
    try HelperReply.failure("the response cannot be passed on: \(error)").write(to: writeToStandardOutput)
}
