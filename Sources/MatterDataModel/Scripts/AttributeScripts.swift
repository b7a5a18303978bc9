import MatterClusters
public import MatterCore
import MatterInteraction
import MatterTLV

/// The scripts running on a data model, at most one per attribute (docs/SCRIPTS.md). Each sets its
/// attribute as the control plane's `set` does (reports, events and persistence follow) on a timer of
/// the attribute's cluster, so it runs in simulated time (`--time-scale`) and stops with the server.
/// Confined to the node's queue, like the data model.
public final class AttributeScripts {
    /// The attribute a script moves.
    public struct Target: Hashable, Sendable, CustomStringConvertible {
        public let endpoint: EndpointID
        public let cluster: ClusterID
        public let attribute: AttributeID

        public init(endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID) {
            self.endpoint = endpoint
            self.cluster = cluster
            self.attribute = attribute
        }

        public var description: String {
            let schema = ClusterRegistry.standard.cluster(cluster)
            let name = schema?.attribute(attribute)?.name ?? "\(attribute)"
            return "\(endpoint.rawValue)/\(schema?.name ?? "\(cluster)").\(name)"
        }
    }

    private final class Running {
        let script: AttributeScript
        let timer: DataModelTimer
        var time: UInt64 = 0
        var random: SeededRandom
        var last: AttributeScript.Value?

        init(script: AttributeScript, timer: DataModelTimer, seed: UInt64?) {
            self.script = script
            self.timer = timer
            random = SeededRandom(seed: seed)
        }
    }

    private weak var model: DeviceDataModel?
    private var running: [Target: Running] = [:]

    init(model: DeviceDataModel) { self.model = model }

    /// The scripts running now, by target.
    package var all: [(target: Target, script: AttributeScript)] {
        running.map { ($0.key, $0.value.script) }.sorted { $0.target.description < $1.target.description }
    }

    /// Starts `script` on `target` (replacing the one running there): sets the value of script time 0
    /// at once. Refused, with nothing changed, when the endpoint does not serve the attribute, its type
    /// is not what the script sets, or a value the script can reach is out of the attribute's range
    /// (its type, its constraint, and for MeasuredValue the cluster's Min/MaxMeasuredValue).
    package func start(_ script: AttributeScript, on target: Target) throws(ScriptError) {
        let server = try check(script, on: target)
        stop(target)
        let seed: UInt64?
        if case .walk(_, _, _, _, let walkSeed) = script.shape { seed = walkSeed } else { seed = nil }
        let run = Running(script: script, timer: server.makeTimer { [weak self] in self?.tick(target) }, seed: seed)
        running[target] = run
        apply(run, to: target)
    }

    /// Checks that `script` could start on `target` (see ``start(_:on:)``) without starting it.
    @discardableResult
    package func check(_ script: AttributeScript, on target: Target) throws(ScriptError) -> ClusterServer {
        guard let model, let server = model.cluster(target.cluster, on: target.endpoint) else {
            let name = ClusterRegistry.standard.cluster(target.cluster)?.name ?? "\(target.cluster)"
            throw ScriptError("endpoint \(target.endpoint.rawValue) has no \(name) cluster")
        }
        guard let schema = ClusterRegistry.standard.cluster(target.cluster),
            let attribute = schema.attribute(target.attribute),
            server.attributes.contains(where: { $0.id == target.attribute })
        else {
            throw ScriptError("\(target) is not an attribute of the endpoint")
        }
        try Self.check(script, fits: attribute, bounds: measuredBounds(server, schema, attribute), target: target)
        return server
    }

    /// Stops the script on `target`; false when none ran.
    @discardableResult
    package func stop(_ target: Target) -> Bool {
        guard let run = running.removeValue(forKey: target) else { return false }
        run.timer.cancel()
        return true
    }

    /// Stops every script.
    package func stopAll() {
        for target in Array(running.keys) { stop(target) }
    }

    private func tick(_ target: Target) {
        guard let run = running[target], let next = run.script.nextChange(after: run.time) else { return }
        run.time = next
        apply(run, to: target)
    }

    /// Sets the value of the script's current time and arms the timer for its next change.
    private func apply(_ run: Running, to target: Target) {
        guard let server = model?.cluster(target.cluster, on: target.endpoint),
            let attribute = ClusterRegistry.standard.cluster(target.cluster)?.attribute(target.attribute)
        else {
            stop(target)
            return
        }
        let value = run.script.value(at: run.time, previous: run.last, random: &run.random)
        run.last = value
        do throws(StatusIB) {
            try server.setLocally(target.attribute, Self.encode(value, as: attribute.type))
        } catch {
            server.note("script on \(target) stopped: \(error)")
            stop(target)
            return
        }
        if let next = run.script.nextChange(after: run.time) {
            run.timer.start(after: max(1, next - run.time))
        } else {
            running[target] = nil  // done: nothing changes any more
        }
    }

    /// MinMeasuredValue and MaxMeasuredValue where the attribute is a MeasuredValue beside them.
    private func measuredBounds(_ server: ClusterServer, _ schema: ClusterSchema, _ attribute: AttributeSchema)
        -> (min: Double?, max: Double?)
    {
        guard attribute.name == "MeasuredValue" else { return (nil, nil) }
        func read(_ name: String) -> Double? {
            guard let id = schema.attribute(named: name)?.id,
                let value = try? server.read(id, context: .local)
            else { return nil }
            return Self.number(value)
        }
        return (read("MinMeasuredValue"), read("MaxMeasuredValue"))
    }

    static func check(
        _ script: AttributeScript, fits attribute: AttributeSchema, bounds: (min: Double?, max: Double?), target: Target
    ) throws(ScriptError) {
        if case .boolean = attribute.type {
            guard script.isBoolean else { throw ScriptError("\(target) takes true or false, the script sets numbers") }
            return
        }
        guard let range = script.range, !script.isBoolean, !script.mixesTypes else {
            throw ScriptError("\(target) takes \(attribute.type), the script sets true or false")
        }
        var low: Double
        var high: Double
        switch attribute.type {
        case .unsigned(let bits), .enumeration(let bits), .bitmap(let bits):
            (low, high) = (0, bits >= 64 ? 1.8e19 : Double((UInt64(1) << UInt64(bits)) - 1))
        case .signed(let bits):
            let limit = bits >= 64 ? 9.2e18 : Double(UInt64(1) << UInt64(bits - 1))
            (low, high) = (-limit, limit - 1)
        case .float, .double: (low, high) = (-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude)
        default: throw ScriptError("\(target) takes \(attribute.type): a script sets numbers or booleans")
        }
        if let constraint = attribute.constraint {
            if let min = constraint.min { low = max(low, Double(min)) }
            if let max = constraint.max { high = min(high, Double(max)) }
        }
        if let min = bounds.min { low = max(low, min) }
        if let max = bounds.max { high = min(high, max) }
        let shown = { (value: Double) in AttributeScript.Value.number(value).description }
        if range.lowerBound < low {
            throw ScriptError(
                "the script on \(target) reaches \(shown(range.lowerBound)), below its minimum \(shown(low))")
        }
        if range.upperBound > high {
            throw ScriptError(
                "the script on \(target) reaches \(shown(range.upperBound)), above its maximum \(shown(high))")
        }
    }

    static func encode(_ value: AttributeScript.Value, as type: ClusterDataType) -> TLVValue {
        switch (value, type) {
        case (.boolean(let flag), _): return .bool(flag)
        case (.number(let number), .signed): return .signed(Int64(number.rounded()))
        case (.number(let number), .float): return .float(Float(number))
        case (.number(let number), .double): return .double(number)
        case (.number(let number), _): return .unsigned(UInt64(max(0, number.rounded())))
        }
    }

    static func number(_ value: TLVValue) -> Double? {
        switch value {
        case .unsigned(let u): Double(u)
        case .signed(let s): Double(s)
        case .float(let f): Double(f)
        case .double(let d): d
        default: nil
        }
    }
}
