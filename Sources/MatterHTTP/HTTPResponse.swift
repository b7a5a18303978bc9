/// What a handler answers: a status, headers, and a body (bytes, or an event stream that stays open).
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        /// Server-Sent Events: the subscription's messages as they come, until it or the client ends.
        case eventStream(HTTPEventSubscription)
    }

    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Body

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A text body with its content type.
    package static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    /// A JSON body (already serialized).
    package static func json(_ status: Int, _ json: String) -> HTTPResponse {
        text(status, json, contentType: "application/json")
    }

    /// `{"ok":false,"error":"..."}` with `status`, the control plane's answer shape.
    package static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, #"{"error":"# + HTTPText.jsonString(message) + #","ok":false}"#)
    }
}
