import Foundation
import MatterHTTP

/// JSON in and out of the HTTP API: request bodies read as the control plane reads its lines, answers
/// serialized as it writes them, and a control-plane error mapped to its HTTP status.
enum ControlJSON {
    static func serialize(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return #"{"error":"the answer could not be encoded","ok":false}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A request body as a JSON object (an empty body is `{}`), or the 400 that says why not.
    static func object(_ body: [UInt8]) -> Result<[String: Any], HTTPResponseError> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success([:]) }
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(body)) else {
            return .failure(HTTPResponseError(.error(400, "malformed JSON")))
        }
        guard let object = parsed as? [String: Any] else {
            return .failure(HTTPResponseError(.error(400, "the body must be one JSON object")))
        }
        return .success(object)
    }

    /// A control-plane answer as an HTTP response: 200 with the answer, or the error's status with it.
    static func response(_ answer: String) -> HTTPResponse {
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
            return .error(500, "the control plane answered no JSON object")
        }
        if object["ok"] as? Bool == true { return .json(200, answer) }
        return .json(status(forError: object["error"] as? String ?? ""), answer)
    }

    /// The HTTP status of a control-plane error (docs/HTTP.md): 404 for a device, cluster, attribute or
    /// event or command the request names and the device lacks; 409 for a state that refuses the action
    /// now (a window already open or none to close: BUSY, WINDOW_NOT_OPEN; a command: INVALID_IN_STATE); 503 while the device is down;
    /// 500 when a restart failed; 400 for everything else the request got wrong (types, ranges, read-only
    /// attributes, missing fields). The control plane's messages are the contract: CONTROL.md lists them.
    static func status(forError message: String) -> Int {
        if message.hasPrefix("the device is down") { return 503 }
        if message.hasPrefix("reboot failed") || message.hasPrefix("factory-reset failed") { return 500 }
        if message.contains("BUSY") || message.contains("WINDOW_NOT_OPEN") || message.contains("INVALID_IN_STATE") {
            return 409
        }
        let missing = [
            "unknown cluster", " has no attribute ", " has no cluster", "the fleet has no device", " defines no event ",
            " defines no command ", " does not accept ",
        ]
        if missing.contains(where: message.contains) { return 404 }
        if message.hasPrefix("endpoint "), message.contains(" has no ") { return 404 }
        return 400
    }
}

/// An HTTP response carried as an error (a refused body).
struct HTTPResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
