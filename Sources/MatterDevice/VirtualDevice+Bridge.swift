import Foundation
import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTransport

/// The control plane's bridge requests (docs/BRIDGES.md): `bridge-add`, `bridge-remove`, `reachable`.
extension VirtualDevice {
    /// `bridge-add`: a bridged device of `type` (with `label`) on the next free endpoint; its PartsLists
    /// report it. Answers `{"endpoint":N}`.
    func bridgeAdd(_ request: [String: Any]) async throws(ControlFailure) -> String {
        guard let type = request["type"] as? String else { throw ControlFailure("\"type\" must be a device type") }
        let preset: DevicePreset
        do {
            preset = try DevicePreset(cliName: type)
        } catch {
            throw ControlFailure("\(error)")
        }
        if request["label"] != nil, !(request["label"] is String) {
            throw ControlFailure("\"label\" must be a string")
        }
        let label = request["label"] as? String
        if let label, let problem = BasicInformationServer.nodeLabelProblem(label) {
            throw ControlFailure("\"label\": the label \(problem)")
        }
        let boundDataModel = self.dataModel
        let result: Result<EndpointID, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard dataModel.endpoint(EndpointID(1))?.isAggregator == true else {
                return .failure(ControlFailure("the device is not a bridge (--type aggregator)"))
            }
            let bridged = dataModel.allEndpoints.filter(\.isBridgedNode).count
            guard bridged < Self.maxBridged else {
                return .failure(ControlFailure("the bridge holds \(Self.maxBridged) bridged devices already"))
            }
            let next = UInt32(dataModel.highestEndpointID.rawValue) + 1
            guard let number = UInt16(exactly: next), number < 0xFFFF else {
                return .failure(ControlFailure("no endpoint number is left"))
            }
            let id = EndpointID(number)
            let bridge = dataModel.cluster(BasicInformationServer.self, on: .root)?.uniqueID ?? "bridge"
            do throws(DataModelError) {
                let endpoint = try preset.makeBridgedEndpoint(
                    id, label: label ?? "\(preset.productName) \(id.rawValue)",
                    uniqueID: Self.bridgedUniqueID(bridge, id))
                try dataModel.add(endpoint)
            } catch {
                return .failure(ControlFailure("\(error)"))
            }
            dataModel.cluster(.descriptor, on: EndpointID(1))?.note(
                "bridge: \(preset.cliName) added on endpoint \(id.rawValue)")
            return .success(id)
        }
        return Self.answer(["endpoint": Int(try result.get().rawValue)])
    }

    /// `bridge-remove`: removes the bridged device on `endpoint`; its PartsLists report it.
    func bridgeRemove(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let endpoint = try Self.endpoint(request)
        let boundDataModel = self.dataModel
        let result: Result<Void, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard dataModel.endpoint(endpoint)?.isBridgedNode == true else {
                return .failure(ControlFailure("endpoint \(endpoint.rawValue) is not a bridged device"))
            }
            dataModel.remove(endpoint)
            dataModel.cluster(.descriptor, on: EndpointID(1))?.note(
                "bridge: endpoint \(endpoint.rawValue) removed")
            return .success(())
        }
        try result.get()
        return Self.answer(["endpoint": Int(endpoint.rawValue), "removed": true])
    }

    /// `reachable`: the bridge reaches the device on `endpoint` or not (`"reachable": false`): Reachable and
    /// a ReachableChanged event.
    func setReachable(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let endpoint = try Self.endpoint(request)
        guard let reachable = request["reachable"] as? Bool, Self.integer(request["reachable"]) == nil else {
            throw ControlFailure("\"reachable\" must be true or false")
        }
        let boundDataModel = self.dataModel
        let result: Result<Void, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard dataModel.endpoint(endpoint)?.isBridgedNode == true,
                let information = dataModel.cluster(.bridgedDeviceBasicInformation, on: endpoint)
            else {
                return .failure(ControlFailure("endpoint \(endpoint.rawValue) is not a bridged device"))
            }
            do throws(StatusIB) {
                try information.setLocally(.BridgedDeviceBasicInformation.reachable, .bool(reachable))
            } catch {
                return .failure(ControlFailure("Reachable: \(error)"))
            }
            return .success(())
        }
        try result.get()
        return Self.answer(["endpoint": Int(endpoint.rawValue), "reachable": reachable])
    }
}
