import Foundation
import MatterClusters
import MatterCore
import MatterDataModel
import MatterDevice
import MatterHTTP
import MatterOnboarding

/// The routes of `--http` (docs/HTTP.md, docs/openapi.yaml): the dashboard, the JSON API that mirrors
/// the control plane, the event stream and `/metrics`. Every change goes through the control plane.
struct WebAPI: Sendable {
    let nodes: WebNodes
    let hub: HTTPEventHub
    let log: WebEventLog

    /// Actions `POST /api/devices/{device}/actions/{op}` takes: the control plane's ops that are not
    /// `get`, `set` or `event` (which have routes of their own).
    static let actions: Set<String> = [
        "reboot", "factory-reset", "offline", "online", "open-window", "close-window", "identify", "jam",
        "hardware-fault", "press", "multi-press", "long-press", "switch", "script", "scripts",
    ]

    /// The most devices one page of `GET /api/devices` lists.
    static let maxPageSize = 500

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.segments
        switch (request.method, path) {
        case ("GET", []): return Self.asset(DashboardAssets.html, "text/html; charset=utf-8")
        case ("GET", ["dashboard.js"]): return Self.asset(DashboardAssets.script, "text/javascript; charset=utf-8")
        case ("GET", ["dashboard.css"]): return Self.asset(DashboardAssets.style, "text/css; charset=utf-8")
        case ("GET", ["metrics"]):
            return .text(200, await WebMetrics.render(nodes, hub: hub), contentType: "text/plain; version=0.0.4")
        case ("GET", ["api", "devices"]): return await list(request.query)
        case ("GET", ["api", "types"]):
            var counts: [String: Int] = [:]
            for host in nodes.hosts { counts[host.device.configuration.deviceType, default: 0] += 1 }
            let types = counts.keys.sorted().map { ["type": $0, "count": counts[$0] ?? 0] as [String: Any] }
            return .json(200, ControlJSON.serialize(["ok": true, "types": types]))
        case ("GET", ["api", "events"]):
            guard let subscription = hub.subscribe() else {
                return .error(503, "\(hub.maxSubscribers) event streams are open: close one")
            }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/event-stream")], body: .eventStream(subscription))
        case ("GET", ["api", "qr.svg"]):
            guard let payload = request.query["payload"], payload.hasPrefix("MT:"), payload.utf8.count <= 256,
                (try? OnboardingPayloadParser.parse(payload)) != nil
            else {
                return .error(400, "\"payload\" must be a Matter QR code payload (MT:...)")
            }
            return Self.svg(payload)
        default: break
        }
        guard path.count >= 3, path[0] == "api", path[1] == "devices" else {
            return .error(404, "no such path: \(request.path)")
        }
        guard let index = Int(path[2]), nodes.hosts.indices.contains(index) else {
            return .error(404, "no device \(path[2]) (devices 0...\(nodes.hosts.count - 1))")
        }
        let rest = Array(path.dropFirst(3))
        let body: [String: Any]
        switch ControlJSON.object(request.body) {
        case .success(let object): body = object
        case .failure(let refusal): return refusal.response
        }
        let method = request.method
        if rest.isEmpty {
            guard method == "GET" else { return Self.notAllowed(request) }
            return .json(200, ControlJSON.serialize(await summary(index)))
        }
        if rest == ["qr.svg"] {
            guard method == "GET" else { return Self.notAllowed(request) }
            let device = nodes.hosts[index].device
            guard await device.isBasicWindowOpen(), let qr = try? SetupQRCode.encode(device.setupPayload) else {
                return .error(404, "device \(index) has no basic commissioning window open")
            }
            return Self.svg(qr)
        }
        if rest.count == 6, rest[0] == "endpoints", rest[2] == "clusters", rest[4] == "attributes" {
            guard method == "GET" || method == "PUT" else { return Self.notAllowed(request) }
            guard let endpoint = Int(rest[1]) else { return .error(404, "no endpoint \(rest[1])") }
            var control: [String: Any] = ["op": "get", "endpoint": endpoint, "cluster": rest[3], "attribute": rest[5]]
            if method == "PUT" {
                guard let value = body["value"], body.count == 1 else {
                    return .error(400, #"the body must be {"value": ...}"#)
                }
                control["op"] = "set"
                control["value"] = value
            }
            return ControlJSON.response(await nodes.control(device: index, control))
        }
        if rest == ["log"] {
            guard method == "GET" else { return Self.notAllowed(request) }
            let limit = request.query["limit"].map { Int($0) } ?? log.capacity
            guard let limit, (1...log.capacity).contains(limit) else {
                return .error(400, "limit must be 1...\(log.capacity)")
            }
            return .json(200, ControlJSON.serialize(["ok": true, "events": log.entries(device: index, limit: limit)]))
        }
        if rest.count == 6, rest[0] == "endpoints", rest[2] == "clusters", rest[4] == "commands" {
            guard method == "POST" else { return Self.notAllowed(request) }
            guard let endpoint = Int(rest[1]) else { return .error(404, "no endpoint \(rest[1])") }
            guard body.keys.allSatisfy({ $0 == "fields" }) else {
                return .error(400, #"the body must be {"fields": {...}} or empty"#)
            }
            var control: [String: Any] = [
                "op": "invoke", "endpoint": endpoint, "cluster": rest[3], "command": rest[5],
            ]
            control["fields"] = body["fields"]
            return ControlJSON.response(await nodes.control(device: index, control))
        }
        if rest.count == 6, rest[0] == "endpoints", rest[2] == "clusters", rest[4] == "events" {
            guard method == "POST" else { return Self.notAllowed(request) }
            guard let endpoint = Int(rest[1]) else { return .error(404, "no endpoint \(rest[1])") }
            guard body.keys.allSatisfy({ $0 == "fields" }) else {
                return .error(400, #"the body must be {"fields": {...}} or empty"#)
            }
            var control: [String: Any] = ["op": "event", "endpoint": endpoint, "cluster": rest[3], "event": rest[5]]
            control["fields"] = body["fields"]
            return ControlJSON.response(await nodes.control(device: index, control))
        }
        if rest.count == 2, rest[0] == "actions" {
            guard Self.actions.contains(rest[1]) else { return .error(404, "no action \(rest[1])") }
            guard method == "POST" else { return Self.notAllowed(request) }
            guard body["op"] == nil, body["device"] == nil else {
                return .error(400, "the action and the device are named by the path, not the body")
            }
            // A csv script reads a file of the device's host: given on the command line or through
            // `matter-emu ctl` (the owner's socket), never by a web client.
            if let script = body["script"] as? String, script.lowercased().contains("csv") {
                return .error(400, "csv scripts are given with --script or matter-emu ctl, not over HTTP")
            }
            var control = body
            control["op"] = rest[1]
            return ControlJSON.response(await nodes.control(device: index, control))
        }
        return .error(404, "no such path: \(request.path)")
    }

    private static func notAllowed(_ request: HTTPRequest) -> HTTPResponse {
        .error(405, "\(request.method) is not allowed on \(request.path)")
    }

    /// `GET /api/devices?q=&type=&online=&offset=&limit=`: the devices that match, one page of them.
    private func list(_ query: [String: String]) async -> HTTPResponse {
        let offset = query["offset"].map { Int($0) } ?? 0
        let limit = query["limit"].map { Int($0) } ?? 50
        guard let offset, let limit, offset >= 0, (1...Self.maxPageSize).contains(limit) else {
            return .error(400, "offset must be 0 or more and limit 1...\(Self.maxPageSize)")
        }
        let online: Bool?
        switch query["online"] {
        case nil, "": online = nil
        case "true": online = true
        case "false": online = false
        default: return .error(400, "online must be true or false")
        }
        let text = (query["q"] ?? "").lowercased()
        let type = query["type"] ?? ""
        var matching: [Int] = []
        for (index, host) in nodes.hosts.enumerated() {
            let device = host.device
            if !type.isEmpty, device.configuration.deviceType != type { continue }
            if let online, device.isOnline != online { continue }
            if !text.isEmpty {
                let label = await device.nodeLabel().lowercased()
                guard String(index) == text || label.contains(text) || device.configuration.deviceType.contains(text)
                else { continue }
            }
            matching.append(index)
        }
        var page: [[String: Any]] = []
        for index in matching.dropFirst(offset).prefix(limit) { page.append(await summary(index)) }
        return .json(
            200,
            ControlJSON.serialize([
                "ok": true, "total": matching.count, "offset": offset, "limit": limit, "devices": page,
            ]))
    }

    /// One device as the dashboard shows it: type, label, online, fabrics, window, codes while its basic
    /// window is open, endpoint 1's live attributes by cluster (read through the control plane), the
    /// controls that fit its clusters (``WebControls``) and its last 10 log entries.
    func summary(_ index: Int) async -> [String: Any] {
        let device = nodes.hosts[index].device
        let type = device.configuration.deviceType
        var summary: [String: Any] = [
            "device": index, "type": type, "port": Int(device.port), "label": await device.nodeLabel(),
            "online": device.isOnline, "commissionable": await device.isCommissionable(),
            "fabrics": await device.fabrics().map { Int($0.index) },
        ]
        if await device.isBasicWindowOpen() {
            summary["qrCode"] = try? SetupQRCode.encode(device.setupPayload)
            summary["manualCode"] = try? ManualPairingCode.encode(device.setupPayload)
        }
        let (shown, controls) = WebControls.compose(await device.servedClusters(on: EndpointID(1)))
        var attributes: [String: [String: Any]] = [:]
        for item in shown {
            let answer = await nodes.control(
                device: index,
                ["op": "get", "endpoint": 1, "cluster": item.cluster.name, "attribute": item.attribute.name])
            if let object = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
                object["ok"] as? Bool == true
            {
                attributes[item.cluster.name, default: [:]][item.attribute.name] = object["value"] ?? NSNull()
            }
        }
        summary["attributes"] = attributes
        summary["controls"] = controls
        summary["log"] = log.entries(device: index, limit: 10)
        return summary
    }

    private static func asset(_ text: String, _ type: String) -> HTTPResponse {
        var response = HTTPResponse.text(200, text, contentType: type)
        response.headers.append(
            (
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
                    + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
            ))
        return response
    }

    private static func svg(_ payload: String) -> HTTPResponse {
        guard let svg = QRCodeRenderer.svg(payload) else { return .error(500, "the QR code could not be drawn") }
        return .text(200, svg, contentType: "image/svg+xml")
    }
}
