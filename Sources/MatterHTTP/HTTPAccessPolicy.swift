/// Who may use the server, checked on every request before its body is read or its handler runs:
///
/// - a server on a loopback address answers only requests whose `Host` names a loopback address or
///   `localhost` (a web page on another site that resolves its own name to 127.0.0.1, DNS rebinding,
///   is refused: 403);
/// - a request with an `Origin` (browsers send it with every cross-site request and with same-site
///   POSTs) must come from this server's own origin, `http://` + its `Host` (403 otherwise);
/// - with a token (required on any non-loopback address), `Authorization: Bearer TOKEN` must carry
///   it, or, for a GET (the page's first load and the event stream, which cannot set headers), the
///   `token` query argument (401 otherwise).
package struct HTTPAccessPolicy: Sendable {
    package var token: String?
    package var loopbackOnly: Bool

    package init(token: String?, loopbackOnly: Bool) {
        self.token = token
        self.loopbackOnly = loopbackOnly
    }

    /// The refusal for `request`, or nil when it may go on.
    package func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        let host = request.header("host") ?? ""
        if loopbackOnly, !Self.isLoopbackHost(host) {
            return .error(403, "the Host \(host.isEmpty ? "(none)" : host) is not this machine's loopback address")
        }
        if let origin = request.header("origin"), origin != "http://" + host {
            return .error(403, "cross-site request refused (Origin \(origin))")
        }
        if let token {
            let bearer = request.header("authorization").flatMap { value -> String? in
                value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : nil
            }
            let given = bearer ?? (request.method == "GET" ? request.query["token"] : nil)
            guard let given, Self.constantTimeEqual(given, token) else {
                var response = HTTPResponse.error(401, "a token is required: Authorization: Bearer TOKEN")
                response.headers.append(("WWW-Authenticate", "Bearer"))
                return response
            }
        }
        return nil
    }

    /// `127.x.x.x`, `localhost` or `[::1]`, with or without a port.
    static func isLoopbackHost(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
            return name == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        if name == "localhost" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Compares without stopping at the first difference (the time says nothing of the token).
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
