internal import CMicroHTTPD
import Dispatch
import Glibc
import MatterCore
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd, the one place the library is called. One thread per connection
/// (at most ``Limits/maxConnections``): a request's handler is async and the connection's thread waits
/// for its answer, and an event stream's thread waits for its next message. Every request passes the
/// ``HTTPAccessPolicy`` before its body is read; a body over ``Limits/maxBodyBytes`` is refused with 413
/// without reaching the handler; more than ``Limits/requestsPerSecond`` (over a one-second burst) get 429.
package final class HTTPServer: Sendable {
    /// How much the server takes at once.
    package struct Limits: Sendable {
        /// The largest request body; a larger one is answered 413 and never handled.
        package var maxBodyBytes = 64 * 1024
        /// Connections at once (each has a thread); more are refused by the library.
        package var maxConnections: UInt32 = 64
        /// A connection silent this long is closed (an event stream sends a comment every 15 s).
        package var idleTimeoutSeconds: UInt32 = 60
        /// Requests per second over the whole server, with a burst of as many; more are answered 429.
        package var requestsPerSecond = 1000

        package init() {}
    }

    /// The address the server listens on (with the port the kernel picked for port 0).
    package let address: HTTPListenAddress
    private let daemon: Daemon
    private let context: Context

    /// Starts listening on `address`; every request that `policy` lets through goes to `handler`.
    /// Event streams come from `hub`, whose subscriptions end when the server stops.
    package init(
        address: HTTPListenAddress, policy: HTTPAccessPolicy, limits: Limits = Limits(), hub: HTTPEventHub,
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) throws(HTTPError) {
        let context = Context(policy: policy, limits: limits, hub: hub, handler: handler)
        // poll(), not select(): a fleet of a thousand devices holds more than FD_SETSIZE (1024) descriptors,
        // and select() cannot watch a socket numbered past it (the server then could not listen, and dropped
        // such connections unanswered: seen as resets in full test runs).
        var flags = UInt32(
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue)
        if address.isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        let started = address.withSocketAddress { socketAddress in
            matter_mhd_start(
                flags, socketAddress, accessHandler, opaque, requestCompleted, opaque, limits.maxConnections,
                limits.idleTimeoutSeconds, 64 * 1024)
        }
        guard let started else {
            throw HTTPError("--http \(address): cannot listen there (\(String(cString: strerror(errno))))")
        }
        daemon = Daemon(started)
        self.context = context
        self.address = address.with(port: matter_mhd_bound_port(started))
    }

    /// Ends the event streams, then stops listening and waits for the connections' threads.
    package func stop() {
        context.hub.close()
        daemon.stop()
    }

    deinit { stop() }

    /// The daemon handle, stopped once.
    // The pointer is only handed to MHD_stop_daemon, once, under `lock`.
    private final class Daemon: @unchecked Sendable {
        private var pointer: OpaquePointer?
        private let lock = Mutex(())

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        func stop() {
            lock.withLock { _ in
                if let pointer { MHD_stop_daemon(pointer) }
                pointer = nil
            }
        }
    }

    /// What the C callbacks reach through their context pointer; lives as long as the server.
    final class Context: Sendable {
        let policy: HTTPAccessPolicy
        let limits: Limits
        let hub: HTTPEventHub
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse
        /// Runs the handlers (not on the shared concurrency pool).
        let executor = DispatchTaskExecutor(label: "matter-emu.http.handlers")
        private let bucket: Mutex<(tokens: Double, at: DispatchTime)>

        init(
            policy: HTTPAccessPolicy, limits: Limits, hub: HTTPEventHub,
            handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
        ) {
            self.policy = policy
            self.limits = limits
            self.hub = hub
            self.handler = handler
            bucket = Mutex((Double(limits.requestsPerSecond), DispatchTime.now()))
        }

        /// Takes one request from the token bucket; false when the server is over its rate.
        func admit() -> Bool {
            bucket.withLock { bucket in
                let now = DispatchTime.now()
                let elapsed = Double(now.uptimeNanoseconds &- bucket.at.uptimeNanoseconds) / 1e9
                let rate = Double(limits.requestsPerSecond)
                bucket.tokens = min(rate, bucket.tokens + elapsed * rate)
                bucket.at = now
                guard bucket.tokens >= 1 else { return false }
                bucket.tokens -= 1
                return true
            }
        }

        /// Runs the async handler from the connection's thread, which waits for the answer.
        func answer(_ request: HTTPRequest) -> HTTPResponse {
            let done = DispatchSemaphore(value: 0)
            let handler = self.handler
            let shared = ResponseBox()
            Task(executorPreference: executor) {
                let response = await handler(request)
                shared.value.withLock { $0 = response }
                done.signal()
            }
            done.wait()
            return shared.value.withLock { $0 } ?? .error(500, "no answer")
        }
    }

    private final class ResponseBox: Sendable {
        let value = Mutex<HTTPResponse?>(nil)
    }
}

/// One request being received, owned by its connection's thread between the library's calls.
private final class PendingRequest {
    var request: HTTPRequest
    var answered = false
    var tooLarge = false

    init(_ request: HTTPRequest) { self.request = request }
}

/// Collects a connection's headers or query arguments through MHD_get_connection_values.
private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercaseKeys: Bool
    init(lowercaseKeys: Bool) { self.lowercaseKeys = lowercaseKeys }
}

private func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercaseKeys: Bool) -> [String: String] {
    let collector = ValueCollector(lowercaseKeys: lowercaseKeys)
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(
            connection, kind,
            { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
                let name = String(cString: key)
                collector.values[collector.lowercaseKeys ? name.lowercased() : name] =
                    value.map { String(cString: $0) } ?? ""
                return MHD_Result.YES
            }, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.values
}

/// Queues `response` on `connection` (the library copies the bytes), with the headers every answer carries.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let created: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        created = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
    case .eventStream(let subscription):
        let reader = Unmanaged.passRetained(StreamReader(subscription)).toOpaque()
        created = MHD_create_response_from_callback(UInt64.max, 4096, streamRead, reader, streamFree)
        if created == nil { Unmanaged<StreamReader>.fromOpaque(reader).release() }
    }
    guard let created else { return MHD_Result.NO }
    defer { MHD_destroy_response(created) }
    var headers = response.headers
    headers.append(("X-Content-Type-Options", "nosniff"))
    headers.append(("Cache-Control", "no-store"))
    headers.append(("Referrer-Policy", "no-referrer"))
    headers.append(("X-Frame-Options", "DENY"))
    for (name, value) in headers { _ = MHD_add_response_header(created, name, value) }
    return MHD_queue_response(connection, UInt32(response.status), created)
}

// The access handler: called once with the headers, then with each piece of the body, then once with
// none left (then the request is answered).
private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, state in
    guard let cls, let connection, let state, let uploadSize else { return MHD_Result.NO }
    let context = Unmanaged<HTTPServer.Context>.fromOpaque(cls).takeUnretainedValue()
    guard let existing = state.pointee else {
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
            query: collect(connection, MHD_ValueKind.GET_ARGUMENT_KIND, lowercaseKeys: false),
            headers: collect(connection, MHD_ValueKind.HEADER_KIND, lowercaseKeys: true))
        let pending = PendingRequest(request)
        state.pointee = Unmanaged.passRetained(pending).toOpaque()
        var refusal = context.policy.refusal(request)
        if refusal == nil, !context.admit() { refusal = .error(429, "too many requests: slow down") }
        if refusal == nil, let length = request.header("content-length").flatMap({ Int($0) }),
            length > context.limits.maxBodyBytes
        {
            refusal = .error(413, "a body of \(length) bytes is over the \(context.limits.maxBodyBytes)-byte limit")
        }
        if let refusal {
            pending.answered = true
            return queue(refusal, on: connection)
        }
        return MHD_Result.YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        guard !pending.answered, !pending.tooLarge else { return MHD_Result.YES }
        if pending.request.body.count + count > context.limits.maxBodyBytes {
            pending.tooLarge = true
            pending.request.body = []
        } else if let upload {
            upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                pending.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        return MHD_Result.YES
    }
    guard !pending.answered else { return MHD_Result.YES }
    pending.answered = true
    if pending.tooLarge {
        return queue(.error(413, "the body is over the \(context.limits.maxBodyBytes)-byte limit"), on: connection)
    }
    return queue(context.answer(pending.request), on: connection)
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let pending = state.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pending).release()
    state.pointee = nil
}

/// An event stream's reader: what the library pulls the stream's bytes from, on the connection's thread.
private final class StreamReader {
    let subscription: HTTPEventSubscription
    var pending: [UInt8] = Array(": subscribed\n\n".utf8)

    init(_ subscription: HTTPEventSubscription) { self.subscription = subscription }
}

private let streamRead: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer, max > 0 else { return matter_mhd_end_with_error() }
    let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue()
    if reader.pending.isEmpty {
        switch reader.subscription.next(timeout: .seconds(15)) {
        case .message(let bytes): reader.pending = bytes
        case .idle: reader.pending = Array(": keep-alive\n\n".utf8)
        case .ended: return matter_mhd_end_of_stream()
        }
    }
    let count = min(max, reader.pending.count)
    reader.pending.withUnsafeBytes { raw in
        if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: count) }
    }
    reader.pending.removeFirst(count)
    return count
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeRetainedValue()
    reader.subscription.end()
}
