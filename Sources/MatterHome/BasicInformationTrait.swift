import MatterClusters
import MatterCore
import MatterTLV

extension Matter {
    /// The BasicInformation cluster (0x0028) of a device's root endpoint (``RootNodeDeviceType``).
    public struct BasicInformationTrait: Trait {
        public static let clusterID: UInt32 = 0x0028
        public let part: DevicePart
        private static let cluster = ClusterID.basicInformation

        public init(part: DevicePart) { self.part = part }

        /// The trait's attributes, with their live values.
        public struct Attributes: Sendable {
            @TraitAttribute<String> public var vendorName: String?
            @TraitAttribute<UInt16> public var vendorID: UInt16?
            @TraitAttribute<String> public var productName: String?
            @TraitAttribute<UInt16> public var productID: UInt16?
            @TraitAttribute<String> public var nodeLabel: String?
            @TraitAttribute<String> public var location: String?
            @TraitAttribute<UInt16> public var hardwareVersion: UInt16?
            @TraitAttribute<UInt32> public var softwareVersion: UInt32?
            @TraitAttribute<String> public var softwareVersionString: String?
            @TraitAttribute<String> public var serialNumber: String?
            @TraitAttribute<String> public var uniqueID: String?

            init(_ part: DevicePart) {
                let c = BasicInformationTrait.cluster
                typealias A = AttributeID.BasicInformation
                _vendorName = TraitAttribute(part, c, A.vendorName, merge: .common, decode: Decode.string)
                _vendorID = TraitAttribute(part, c, A.vendorID, merge: .common, decode: Decode.unsigned)
                _productName = TraitAttribute(part, c, A.productName, merge: .common, decode: Decode.string)
                _productID = TraitAttribute(part, c, A.productID, merge: .common, decode: Decode.unsigned)
                _nodeLabel = TraitAttribute(part, c, A.nodeLabel, merge: .common, decode: Decode.string)
                _location = TraitAttribute(part, c, A.location, merge: .common, decode: Decode.string)
                _hardwareVersion = TraitAttribute(part, c, A.hardwareVersion, merge: .common, decode: Decode.unsigned)
                _softwareVersion = TraitAttribute(part, c, A.softwareVersion, merge: .common, decode: Decode.unsigned)
                _softwareVersionString = TraitAttribute(
                    part, c, A.softwareVersionString, merge: .common, decode: Decode.string)
                _serialNumber = TraitAttribute(part, c, A.serialNumber, merge: .common, decode: Decode.string)
                _uniqueID = TraitAttribute(part, c, A.uniqueID, merge: .common, decode: Decode.string)
            }
        }

        /// The attributes' live values.
        public var attributes: Attributes { Attributes(part) }

        /// The writable attributes, set in ``update(_:)``.
        public struct Mutator: Sendable {
            var writes: [(AttributeID, TLVValue)] = []

            public mutating func setNodeLabel(_ value: String) {
                writes.append((AttributeID.BasicInformation.nodeLabel, .utf8(value)))
            }
            public mutating func setLocation(_ value: String) {
                writes.append((AttributeID.BasicInformation.location, .utf8(value)))
            }
        }

        /// Writes the attributes `body` sets; returns the trait with the values read back.
        @discardableResult
        public func update(_ body: (inout Mutator) -> Void) async throws(HomeError) -> BasicInformationTrait {
            var mutator = Mutator()
            body(&mutator)
            try await part.write(Self.cluster, mutator.writes)
            return self
        }
    }
}
