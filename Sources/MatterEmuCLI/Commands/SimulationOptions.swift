import MatterDataModel
import MatterDevice

/// `--script` and `--time-scale` of `device` and `fleet` (docs/SCRIPTS.md): attribute scripts started
/// with each device, and how much faster than real time its simulated processes run.
struct SimulationOptions {
    let scripts: [ScriptAssignment]
    let timeScale: Double

    static let options: [OptionSpec] = [
        .value(
            "script", "[EP/]CLUSTER.ATTRIBUTE=SCRIPT",
            "move an attribute over time: constant(V), ramp(from=,to=,over=), sine(min=,max=,period=), walk(min=,max=,step=), steps(T:V,...), csv(FILE); options every=, noise=, repeat (docs/SCRIPTS.md)",
            repeatable: true),
        .value(
            "time-scale", "N",
            "run transitions, cycles, coverings, rooms and scripts N times faster than real time (0.1...1000; the protocol's timers keep real time)"
        ),
    ]

    /// Reads the options; a script that cannot be parsed, or a bad scale, is a usage error that names it.
    init(arguments: ParsedArguments, command: String) throws(UsageError) {
        var scripts: [ScriptAssignment] = []
        for text in arguments.allValues("script") {
            do throws(ScriptError) {
                scripts.append(try ScriptAssignment(parsing: text, readFile: ScriptAssignment.readFile))
            } catch {
                throw UsageError("--script \(text): \(error.message)", command: command)
            }
        }
        let targets = scripts.map(\.target)
        if let twice = targets.first(where: { target in targets.filter { $0 == target }.count > 1 }) {
            throw UsageError("--script: two scripts move \(twice)", command: command)
        }
        self.scripts = scripts
        if let text = arguments.value("time-scale") {
            guard let scale = Double(text), scale.isFinite, (0.1...1000).contains(scale) else {
                throw UsageError("--time-scale must be a number 0.1...1000, got '\(text)'", command: command)
            }
            timeScale = scale
        } else {
            timeScale = 1
        }
    }

    func apply(to configuration: inout VirtualDeviceConfiguration) {
        configuration.scripts = scripts
        configuration.timeScale = timeScale
    }
}
