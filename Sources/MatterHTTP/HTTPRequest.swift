/// One HTTP request as the server hands it to its handler: the method, the path (without the query,
/// percent-decoded by the server), the query arguments, the headers (names in lower case) and the body.
package struct HTTPRequest: Sendable {
    package var method: String
    package var path: String
    package var query: [String: String]
    package var headers: [String: String]
    package var body: [UInt8]

    package init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A header by name, in any case.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The path's segments between slashes, empty ones left out (`/api/devices/3` → api, devices, 3).
    package var segments: [String] { path.split(separator: "/").map(String.init) }
}
