/// Named moments of a commissioning on the controller's side, for crash-consistency tests:
/// ``ControllerConfiguration/checkpoint`` is called at each, and a test hook may end the process there
/// (`kill(getpid(), SIGKILL)`, what an outside `kill -9` at that instant does).
///
/// What the store holds at each point: an interrupted-commissioning record from ``pendingRecorded``
/// until the node row is written (``nodeStored``), never a node row before CommissioningComplete
/// succeeded. ``Controller/resumeInterruptedCommissionings()`` settles a record a crash left behind.
public enum CommissioningCheckpoint: Sendable, Hashable, CustomStringConvertible {
    /// `stage` just succeeded (or was skipped); the next stage has not started.
    case after(CommissioningStage)
    /// The interrupted-commissioning record is written; AddNOC is not sent yet.
    case pendingRecorded
    /// The node row is written; the interrupted-commissioning record is not removed yet.
    case nodeStored

    /// Every checkpoint, in the order a commissioning reaches them.
    public static let allCases: [CommissioningCheckpoint] = CommissioningStage.allCases.flatMap {
        stage -> [CommissioningCheckpoint] in
        switch stage {
        case .addTrustedRootCertificate: [.after(stage), .pendingRecorded]
        case .storeNode: [.nodeStored, .after(stage)]
        default: [.after(stage)]
        }
    }

    /// The checkpoint's name: the stage's (`add-noc`: AddNOC succeeded), `pending-recorded`, `node-stored`.
    public var description: String {
        switch self {
        case .after(let stage): stage.name
        case .pendingRecorded: "pending-recorded"
        case .nodeStored: "node-stored"
        }
    }
}
