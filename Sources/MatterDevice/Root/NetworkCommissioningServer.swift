import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// NetworkCommissioning 0x0031 on endpoint 0, as an Ethernet device has it: one network, always
/// connected, no commands.
final class NetworkCommissioningServer: RootClusterServer {
    typealias A = AttributeID.NetworkCommissioning

    /// FeatureMap: EthernetNetworkInterface.
    static let ethernetFeature: UInt32 = 0x0004

    let interfaceName: String

    init(interfaceName: String) {
        self.interfaceName = interfaceName
        super.init(
            .networkCommissioning,
            attributes: [
                A.maxNetworks, A.networks, A.interfaceEnabled, A.lastNetworkingStatus, A.lastNetworkID,
                A.lastConnectErrorValue,
            ], featureMap: Self.ethernetFeature, commands: false)
    }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case A.maxNetworks: Field.uint(UInt8(1))
        case A.networks:
            .array([
                TLVElement(Field.structure([(0, .bytes(Array(interfaceName.utf8.prefix(32)))), (1, .bool(true))]))
            ])
        case A.interfaceEnabled: .bool(true)
        case A.lastNetworkingStatus, A.lastNetworkID, A.lastConnectErrorValue: .null
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    /// InterfaceEnabled accepts a boolean and stays enabled (the device has no other network).
    override func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext) throws(StatusIB)
    {
        guard attribute == A.interfaceEnabled else { throw StatusIB(.unsupportedWrite) }
        guard case .replace(.bool) = write else { throw StatusIB(.invalidDataType) }
    }
}
