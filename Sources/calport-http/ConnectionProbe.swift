import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Opens (and closes) a TCP connection to a URL's host before URLSession sends to it, giving up after
/// `timeout` seconds. FoundationNetworking on Linux has no connect timeout apart from its idle
/// timeout (a minute, which a slow `$batch` answer needs), so an unreachable host would hold every
/// attempt for that minute; a refused port or an unknown host is known at once either way.
struct ConnectionProbe {
    var timeout: TimeInterval

    /// Why no connection can be made to `url`'s host, naming it; nil when one was made.
    func failure(for url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return "the URL \(url.absoluteString) names no host" }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let place = "\(host) port \(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host.trimmingCharacters(in: ["[", "]"]), String(port), &hints, &found)
        guard lookup == 0, let first = found else {
            return "cannot find the host \(host): \(String(cString: gai_strerror(lookup)))"
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = address {
            switch connect(candidate.pointee) {
            case nil: return nil
            case let failure?: reason = failure
            }
            address = candidate.pointee.ai_next
        }
        return "cannot connect to \(place): \(reason)"
    }

    /// Connects to one address within the timeout; nil on success, else why not.
    private func connect(_ address: addrinfo) -> String? {
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { return String(cString: strerror(errno)) }
        defer { close(socket) }
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var waiting = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&waiting, 1, Int32(timeout * 1000))
        guard ready > 0 else {
            return ready == 0 ? "no answer within \(Int(timeout)) s" : String(cString: strerror(errno))
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : String(cString: strerror(error))
    }
}
