import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// Switch (generic switch, doorbell): a momentary push button that reports its release, long presses and
    /// multi-presses (up to 3). What a finger does to it comes from outside (the control plane's `press`,
    /// `multi-press` and `long-press`), through ``GenericClusterServer/switchStep(_:)``.
    static let `switch` = ClusterBehaviour(features: ["MS", "MSR", "MSL", "MSM"]) { server in
        server.update(.Switch.multiPressMax, .unsigned(3))
    }
}

/// One physical moment of a switch: the control plane plays presses as a sequence of these, with the
/// specification's pauses between them.
package enum SwitchStep: Sendable, Equatable {
    /// The button goes down (InitialPress; MultiPressOngoing from the second press of a series on).
    case press(pressesSoFar: Int)
    /// The button has been held past the long-press threshold (LongPress).
    case held
    /// The button comes up after a short press (ShortRelease) or a long one (LongRelease).
    case release(long: Bool)
    /// The multi-press window closed after `presses` presses (MultiPressComplete).
    case seriesComplete(presses: Int)
    /// A latching switch moves to `position` (SwitchLatched).
    case latch(position: Int)
}

extension GenericClusterServer {
    /// Plays `step` on this Switch server: CurrentPosition and the events the switch's features call for.
    /// Returns the numbers of the events recorded; throws a reason when the switch cannot do it.
    package func switchStep(_ step: SwitchStep) throws(SwitchStepError) -> [UInt64] {
        guard schema.id == .switch else { throw SwitchStepError("not a Switch cluster") }
        func field(_ tag: UInt8, _ value: Int) -> TLVElement {
            TLVElement(tag: .context(tag), .unsigned(UInt64(value)))
        }
        var numbers: [UInt64] = []
        func event(_ id: EventID, _ fields: [TLVElement]) {
            guard events.contains(where: { $0.id == id }), let number = recordEvent(id, fields: .structure(fields))
            else { return }
            numbers.append(number)
        }
        let momentary = features.contains("MS")
        switch step {
        case .press(let pressesSoFar):
            guard momentary else { throw SwitchStepError("this switch is latching: use \"switch\" with a position") }
            update(.Switch.currentPosition, .unsigned(1))
            event(.Switch.initialPress, [field(0, 1)])
            if pressesSoFar > 1 { event(.Switch.multiPressOngoing, [field(0, 1), field(1, pressesSoFar)]) }
        case .held:
            event(.Switch.longPress, [field(0, 1)])
        case .release(let long):
            update(.Switch.currentPosition, .unsigned(0))
            event(long ? .Switch.longRelease : .Switch.shortRelease, [field(0, 1)])
        case .seriesComplete(let presses):
            event(.Switch.multiPressComplete, [field(0, 1), field(1, presses)])
        case .latch(let position):
            guard !momentary else { throw SwitchStepError("this switch is momentary: use \"press\"") }
            let positions = Int(unsignedValue(.Switch.numberOfPositions))
            guard position >= 0, position < positions else {
                throw SwitchStepError("position \(position) is out of range (0...\(positions - 1))")
            }
            update(.Switch.currentPosition, .unsigned(UInt64(position)))
            event(.Switch.switchLatched, [field(0, position)])
        }
        return numbers
    }

    /// The most presses one multi-press series counts (MultiPressMax; 1 without the feature).
    package var multiPressMax: Int { features.contains("MSM") ? Int(unsignedValue(.Switch.multiPressMax)) : 1 }
}

/// Why a switch step was refused.
package struct SwitchStepError: Error, Sendable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
