import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport

@testable import MatterDevice

extension VirtualDevice {
    /// An attribute as the device itself holds it (read from its data model on its queue, not over
    /// the network): the device side of a test.
    func deviceValue(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) async -> TLVValue? {
        let model = dataModel
        return await node.perform { node in
            try? model.value(in: node).readAttribute(
                ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute),
                context: InteractionContext(
                    subject: SubjectDescriptor(authMode: .pase, fabricIndex: 0, subject: 0),
                    session: .secure(localSessionID: 0)))
        }
    }
}
