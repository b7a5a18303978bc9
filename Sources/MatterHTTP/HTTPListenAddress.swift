import Glibc

/// Where the server listens, parsed from `[ADDR:]PORT`: `8080` (127.0.0.1), `127.0.0.1:8080`,
/// `0.0.0.0:8080`, `[::1]:8080`, `localhost:8080`. Port 0 lets the kernel pick one.
package struct HTTPListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The numeric address (IPv4 dotted or IPv6 without brackets).
    package let host: String
    package let port: UInt16
    package let isIPv6: Bool

    /// Parses `[ADDR:]PORT`; a clear error for anything else.
    package init(parsing text: String) throws(HTTPError) {
        var hostPart = "127.0.0.1"
        var portPart = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw HTTPError("--http \(text): an IPv6 address is written [ADDR]:PORT")
            }
            hostPart = String(text[text.index(after: text.startIndex)..<close])
            portPart = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            hostPart = String(text[..<colon])
            portPart = text[text.index(after: colon)...]
        }
        if hostPart == "localhost" { hostPart = "127.0.0.1" }
        guard let port = UInt16(portPart) else {
            throw HTTPError("--http \(text): the port must be a number 0...65535")
        }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, hostPart, &v4) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, hostPart, &v6) == 1 {
            isIPv6 = true
        } else {
            throw HTTPError("--http \(text): \"\(hostPart)\" is not an IPv4 or IPv6 address (or localhost)")
        }
        host = hostPart
        self.port = port
    }

    /// The same address on another port (the one the kernel picked for port 0).
    package func with(port: UInt16) -> HTTPListenAddress {
        HTTPListenAddress(host: host, port: port, isIPv6: isIPv6)
    }

    private init(host: String, port: UInt16, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// 127.0.0.0/8 or ::1: only this machine can connect.
    package var isLoopback: Bool { isIPv6 ? host == "::1" || host == "0:0:0:0:0:0:0:1" : host.hasPrefix("127.") }

    /// `http://HOST:PORT` (IPv6 in brackets).
    package var url: String { "http://\(isIPv6 ? "[\(host)]" : host):\(port)" }

    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with the address as a `sockaddr` (sockaddr_in or sockaddr_in6).
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
