public import MatterTLV

/// StatusIB (structure): an IM status and, for cluster-specific failures, the cluster's own status.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Status | uint8 (IM status) |
/// | 1 | ClusterStatus | uint8, optional |
///
/// Also the error a ``DataModel`` throws to fail one path.
public struct StatusIB: Error, Hashable, Sendable, CustomStringConvertible {
    public var status: IMStatus
    public var clusterStatus: UInt8?

    public init(_ status: IMStatus, clusterStatus: UInt8? = nil) {
        self.status = status
        self.clusterStatus = clusterStatus
    }

    /// SUCCESS without a cluster status.
    public static let success = StatusIB(.success)

    /// A cluster-specific failure: FAILURE with `clusterStatus`.
    public static func cluster(_ clusterStatus: UInt8) -> StatusIB { StatusIB(.failure, clusterStatus: clusterStatus) }

    /// True for SUCCESS.
    public var isSuccess: Bool { status.isSuccess }

    public var description: String {
        clusterStatus.map { "\(status), cluster status \($0)" } ?? status.description
    }
}

extension StatusIB: TLVEncodable, TLVDecodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(status.rawValue, tag: .context(0))
            w.put(clusterStatus, tag: .context(1))
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("StatusIB")
        status = IMStatus(rawValue: try element.required(0, UInt8.self))
        clusterStatus = try element.optional(1)
    }
}
