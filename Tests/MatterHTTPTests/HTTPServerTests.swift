import Foundation
import MatterHTTP
import MatterTestSupport
import Synchronization
import Testing

/// The server over real HTTP on 127.0.0.1: the access policy, the body limit and event streams, each
/// refusal checked to leave the handler uncalled.
@Suite struct HTTPServerTests {
    /// A server whose handler counts its calls and echoes the body it got.
    final class Echo: Sendable {
        final class Counter: Sendable {
            let value = Mutex(0)
        }
        let calls = Counter()
        let hub = HTTPEventHub()
        let server: HTTPServer

        init(token: String? = nil, limits: HTTPServer.Limits = HTTPServer.Limits()) throws {
            let calls = self.calls
            let hub = self.hub
            server = try HTTPServer(
                address: HTTPListenAddress(parsing: "127.0.0.1:0"),
                policy: HTTPAccessPolicy(token: token, loopbackOnly: true), limits: limits, hub: hub
            ) { request in
                calls.value.withLock { $0 += 1 }
                if request.path == "/events", let subscription = hub.subscribe() {
                    return HTTPResponse(
                        status: 200, headers: [("Content-Type", "text/event-stream")], body: .eventStream(subscription))
                }
                if request.path == "/missing" { return .error(404, "no such page") }
                return .text(200, "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))")
            }
        }

        var port: UInt16 { server.address.port }
        var callCount: Int { calls.value.withLock { $0 } }
        deinit { server.stop() }
    }

    @Test("a request reaches the handler with its method, path and body; port 0 picks a port")
    func echoes() async throws {
        let echo = try Echo()
        #expect(echo.port != 0)
        let answer = try await HTTPTestClient.request(port: echo.port, "POST", "/a/b", body: #"{"x":1}"#)
        #expect(answer.status == 200)
        #expect(answer.body == #"POST /a/b {"x":1}"#)
        #expect(answer.headers["x-content-type-options"] == "nosniff")
        #expect(try await HTTPTestClient.request(port: echo.port, "GET", "/missing").status == 404)
    }

    @Test("a body over the limit is answered 413 and never handled, by its length or as it arrives")
    func bodyLimit() async throws {
        var limits = HTTPServer.Limits()
        limits.maxBodyBytes = 100
        let echo = try Echo(limits: limits)
        let big = String(repeating: "x", count: 101)
        #expect(try await HTTPTestClient.request(port: echo.port, "POST", "/", body: big).status == 413)
        // Chunked: no length up front, the limit is found while reading.
        let client = try HTTPTestClient(port: echo.port)
        let chunk = String(repeating: "y", count: 60)
        let request =
            "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(echo.port)\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "3c\r\n\(chunk)\r\n3c\r\n\(chunk)\r\n0\r\n\r\n"
        try client.send(Array(request.utf8))
        #expect(try await client.response().status == 413)
        #expect(echo.callCount == 0)
        #expect(try await HTTPTestClient.request(port: echo.port, "POST", "/", body: "ok").status == 200)
        #expect(echo.callCount == 1)
    }

    @Test("a foreign Origin or a Host that is not loopback (DNS rebinding) is refused 403, unhandled")
    func originAndHost() async throws {
        let echo = try Echo()
        let port = echo.port
        let foreign = try await HTTPTestClient.request(
            port: port, "POST", "/", headers: ["Origin": "http://evil.example"], body: "{}")
        #expect(foreign.status == 403)
        let rebound = try await HTTPTestClient.request(
            port: port, "GET", "/", headers: ["Host": "evil.example:\(port)"])
        #expect(rebound.status == 403)
        let nullOrigin = try await HTTPTestClient.request(port: port, "GET", "/", headers: ["Origin": "null"])
        #expect(nullOrigin.status == 403)
        #expect(echo.callCount == 0)
        let same = try await HTTPTestClient.request(
            port: port, "POST", "/", headers: ["Origin": "http://127.0.0.1:\(port)"], body: "{}")
        #expect(same.status == 200)
        let named = try await HTTPTestClient.request(port: port, "GET", "/", headers: ["Host": "localhost:\(port)"])
        #expect(named.status == 200)
        #expect(echo.callCount == 2)
    }

    @Test("with a token: missing or wrong is 401 and unhandled; Bearer works, and ?token= on GET only")
    func token() async throws {
        let echo = try Echo(token: "s3cret")
        let port = echo.port
        #expect(try await HTTPTestClient.request(port: port, "GET", "/").status == 401)
        let wrong = try await HTTPTestClient.request(port: port, "GET", "/", headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 401)
        #expect(wrong.headers["www-authenticate"] == "Bearer")
        #expect(try await HTTPTestClient.request(port: port, "POST", "/?token=s3cret", body: "{}").status == 401)
        #expect(echo.callCount == 0)
        let bearer = try await HTTPTestClient.request(
            port: port, "POST", "/", headers: ["Authorization": "Bearer s3cret"], body: "{}")
        #expect(bearer.status == 200)
        #expect(try await HTTPTestClient.request(port: port, "GET", "/?token=s3cret").status == 200)
        #expect(echo.callCount == 2)
    }

    @Test("an event stream delivers what is published after it subscribed, in order, and ends on stop")
    func eventStream() async throws {
        let echo = try Echo()
        let client = try HTTPTestClient(port: echo.port)
        try client.send(Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(echo.port)\r\n\r\n".utf8))
        let head = try await client.head()
        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/event-stream")
        #expect(echo.hub.subscriberCount == 1)
        echo.hub.publish(#"{"n":1}"#)
        echo.hub.publish(#"{"n":2}"#)
        #expect(try await client.nextEvent() == #"{"n":1}"#)
        #expect(try await client.nextEvent() == #"{"n":2}"#)
        echo.server.stop()
        #expect(echo.hub.subscriberCount == 0)
        #expect(echo.hub.subscribe() == nil)
    }

    @Test("listen addresses: [ADDR:]PORT, loopback by default, bad ones named")
    func addresses() throws {
        #expect(try HTTPListenAddress(parsing: "8080").description == "127.0.0.1:8080")
        #expect(try HTTPListenAddress(parsing: "8080").isLoopback)
        #expect(try HTTPListenAddress(parsing: "localhost:1").isLoopback)
        #expect(try !HTTPListenAddress(parsing: "0.0.0.0:8080").isLoopback)
        #expect(try HTTPListenAddress(parsing: "[::1]:9").isLoopback)
        #expect(try HTTPListenAddress(parsing: "[::1]:9").url == "http://[::1]:9")
        for bad in ["", "x:1", "127.0.0.1:99999", "[::1]9", "example.com:80", "127.0.0.1:"] {
            #expect(throws: HTTPError.self) { try HTTPListenAddress(parsing: bad) }
        }
    }

    @Test("JSON and HTML escaping of supplied text")
    func escaping() {
        #expect(
            HTTPText.html(#"<img src=x onerror="a('b')">&"#)
                == "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;")
        #expect(HTTPText.jsonString("a\"b\\c\n</script>\u{1}") == #""a\"b\\c\n\u003c/script>\u0001""#)
    }
}

/// The server in a process that holds more descriptors than select() can watch (FD_SETSIZE, 1024): a fleet of a
/// thousand devices does. The connection's socket is then numbered past 1024.
@Suite struct HTTPServerManyDescriptorsTests {
    @Test("a request is answered when its socket is numbered past FD_SETSIZE")
    func answersPastFDSetSize() async throws {
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        if limit.rlim_cur < 2048, limit.rlim_max >= 2048 {
            limit.rlim_cur = 2048
            try #require(setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        }
        try #require(limit.rlim_cur >= 2048, "RLIMIT_NOFILE is \(limit.rlim_cur)")
        // Fill the low numbers so that the next sockets land above 1024.
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        while held.last.map({ $0 < 1100 }) ?? true {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0)
            held.append(fd)
        }
        let hub = HTTPEventHub()
        let server = try HTTPServer(
            address: HTTPListenAddress(parsing: "127.0.0.1:0"),
            policy: HTTPAccessPolicy(token: nil, loopbackOnly: true), hub: hub
        ) { _ in .text(200, "ok") }
        defer { server.stop() }
        let answer = try await HTTPTestClient.request(port: server.address.port, "GET", "/")
        #expect(answer.status == 200)
        #expect(answer.body == "ok")
    }
}
