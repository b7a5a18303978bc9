import MatterClusters
import MatterCore
import MatterDataModel
import MatterTransport

/// The control plane's switch requests (docs/CONTROL.md): a finger on the device's push button or latch,
/// played on its Switch cluster with the pauses of a real press.
extension VirtualDevice {
    /// How long a short press holds the button down, the gap between the presses of a series, the wait for
    /// the multi-press window to close, and the long-press threshold (milliseconds).
    static let switchTiming = (down: UInt64(100), gap: UInt64(200), window: UInt64(500), long: UInt64(1000))

    /// `press` (one short press), `multi-press` (`count` presses, 2 by default, at most MultiPressMax),
    /// `long-press` (held `seconds`, 2 by default, 1...60), `switch` (a latching switch to `position`).
    /// Answers the numbers of the events recorded, in order.
    func switchAction(_ op: String, _ request: [String: Any]) async throws(ControlFailure) -> String {
        let endpoint = request["endpoint"] == nil ? EndpointID(1) : try Self.endpoint(request)
        let timing = Self.switchTiming
        var steps: [(step: SwitchStep, pause: UInt64)] = []
        switch op {
        case "press", "multi-press":
            var count = op == "press" ? 1 : 2
            if op == "multi-press", request["count"] != nil {
                guard let number = Self.integer(request["count"]), number >= 1, number <= 255 else {
                    throw ControlFailure("\"count\" must be a number of presses (1...255)")
                }
                count = number
            }
            let most = try await switchServer(endpoint) { $0.multiPressMax }
            guard count <= most else {
                throw ControlFailure("this switch counts at most \(most) presses in a series (MultiPressMax)")
            }
            for press in 1...count {
                steps.append((.press(pressesSoFar: press), timing.down))
                steps.append((.release(long: false), press < count ? timing.gap : timing.window))
            }
            steps.append((.seriesComplete(presses: count), 0))
        case "long-press":
            var held = 2000.0
            if let value = request["seconds"] {
                guard let seconds = (value as? Double) ?? Self.integer(value).map(Double.init), seconds >= 1,
                    seconds <= 60
                else {
                    throw ControlFailure("\"seconds\" must be how long the button is held (1...60)")
                }
                held = seconds * 1000
            }
            steps.append((.press(pressesSoFar: 1), timing.long))
            steps.append((.held, UInt64(held) - timing.long))
            steps.append((.release(long: true), 0))
        default:
            guard let position = Self.integer(request["position"]) else {
                throw ControlFailure("\"position\" must be the latching switch's new position")
            }
            steps.append((.latch(position: position), 0))
        }
        var numbers: [UInt64] = []
        var ringing: Task<[BindingDelivery], Never>?
        for (step, pause) in steps {
            numbers += try await switchServer(endpoint) { server throws(ControlFailure) in
                do {
                    return try server.switchStep(step)
                } catch {
                    throw ControlFailure("\(error)")
                }
            }
            if case .press(pressesSoFar: 1) = step, ringing == nil, await ringsChimes(endpoint) {
                // A doorbell's button rings the chimes its Binding names as it goes down.
                ringing = Task {
                    (try? await sendToBindings(
                        endpoint: endpoint, cluster: .chime, command: .Chime.playChimeSound, fields: [])) ?? []
                }
            }
            if pause > 0 { try? await Task.sleep(for: .milliseconds(Int64(pause))) }
        }
        guard let deliveries = await ringing?.value, !deliveries.isEmpty else {
            return Self.answer(["eventNumbers": numbers])
        }
        return Self.answer(["eventNumbers": numbers, "sent": Self.deliveries(deliveries)])
    }

    /// True when the button on `endpoint` rings chimes: its device is a client of Chime with a Binding cluster.
    private func ringsChimes(_ endpoint: EndpointID) async -> Bool {
        let boundDataModel = self.dataModel
        return await node.run { node in
            let model = boundDataModel.value(in: node)
            return model.cluster(.binding, on: endpoint) != nil
                && model.endpoint(endpoint)?.clientClusters.contains(.chime) == true
        }
    }

    /// Runs `body` on the node's queue with the Switch server of `endpoint`.
    private func switchServer<T: Sendable>(
        _ endpoint: EndpointID, _ body: @escaping @Sendable (GenericClusterServer) throws(ControlFailure) -> T
    ) async throws(ControlFailure) -> T {
        let boundDataModel = self.dataModel
        let result: Result<T, ControlFailure> = await node.run { node in
            guard let server = boundDataModel.value(in: node).cluster(.switch, on: endpoint) as? GenericClusterServer
            else {
                return .failure(ControlFailure("endpoint \(endpoint.rawValue) has no Switch cluster"))
            }
            do throws(ControlFailure) {
                return .success(try body(server))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
