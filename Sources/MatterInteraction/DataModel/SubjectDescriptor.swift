import MatterCore
package import MatterTransport

/// Who is asking (spec 6.6.2.1, "Incoming Subject Descriptor"): how the session was authenticated,
/// the accessing fabric, and the subject identifiers the access-control check matches against.
package struct SubjectDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// How the subject authenticated (the ACL's AuthMode values).
    package enum AuthMode: UInt8, Hashable, Sendable {
        /// A passcode session (commissioning): implicit Administer while commissioning.
        case pase = 1
        /// An operational certificate session.
        case `case` = 2
        /// A group message.
        case group = 3
    }

    package var authMode: AuthMode
    /// The accessing fabric's index; 0 when there is none (a PASE session before AddNOC).
    package var fabricIndex: UInt8
    /// CASE: the peer's operational node ID; group: the group ID; PASE: the passcode ID (0).
    package var subject: UInt64
    /// CASE Authenticated Tags from the peer's NOC (`0xTTTT_VVVV`: identifier and version).
    package var cats: [UInt32]

    package init(authMode: AuthMode, fabricIndex: UInt8, subject: UInt64, cats: [UInt32] = []) {
        self.authMode = authMode
        self.fabricIndex = fabricIndex
        self.subject = subject
        self.cats = cats
    }

    /// True when there is an accessing fabric.
    package var hasFabric: Bool { fabricIndex != 0 }

    /// The descriptor a secure session implies: PASE without a fabric, or CASE with the peer's fabric,
    /// node ID and CATs. A device that binds a PASE session to the fabric AddNOC created overrides
    /// this with ``InteractionServer/subjectResolver``.
    package init(session kind: SecureSessionKind) {
        switch kind {
        case .pase:
            self.init(authMode: .pase, fabricIndex: 0, subject: 0)
        case .case(let fabricIndex, _, let peerNodeID, let peerCATs):
            self.init(authMode: .case, fabricIndex: fabricIndex, subject: peerNodeID.rawValue, cats: peerCATs)
        }
    }

    package var description: String {
        let mode =
            switch authMode {
            case .pase: "PASE"
            case .case: "CASE"
            case .group: "group"
            }
        return "\(mode) subject 0x\(String(subject, radix: 16, uppercase: true)) fabric \(fabricIndex)"
    }
}

/// What the data model is told about each operation: who asks, on which session, and how.
public struct InteractionContext: Sendable {
    package var subject: SubjectDescriptor
    package var session: SessionID
    /// Reads: the request's IsFabricFiltered flag (fabric-scoped lists show only the accessing fabric's
    /// entries). Writes and invokes: false.
    package var isFabricFiltered: Bool
    /// True inside a timed interaction.
    package var isTimed: Bool

    package init(subject: SubjectDescriptor, session: SessionID, isFabricFiltered: Bool = false, isTimed: Bool = false)
    {
        self.subject = subject
        self.session = session
        self.isFabricFiltered = isFabricFiltered
        self.isTimed = isTimed
    }
}
