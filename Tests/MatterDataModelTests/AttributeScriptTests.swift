import MatterClusters
import MatterCore
import MatterDataModel
import MatterTLV
import Testing

/// Attribute scripts (docs/SCRIPTS.md): the grammar, the values at given script times, and scripts
/// running on a data model in simulated time.
@Suite("Attribute scripts")
struct AttributeScriptTests {
    static func values(_ text: String, at times: [UInt64], seed: UInt64 = 1) throws -> [AttributeScript.Value] {
        let script = try AttributeScript(parsing: text)
        var random = SeededRandom(seed: seed)
        var last: AttributeScript.Value?
        return times.map { time in
            let value = script.value(at: time, previous: last, random: &random)
            last = value
            return value
        }
    }

    @Test("each shape gives its values at script times")
    func shapes() throws {
        #expect(try Self.values("constant(2150)", at: [0, 60_000]) == [.number(2150), .number(2150)])
        #expect(
            try Self.values("ramp(from=1000,to=2000,over=10s)", at: [0, 5000, 10_000, 20_000])
                == [.number(1000), .number(1500), .number(2000), .number(2000)])
        #expect(
            try Self.values("ramp(from=0,to=100,over=10,repeat)", at: [5000, 10_000, 15_000])
                == [.number(50), .number(0), .number(50)])
        let sine = try Self.values("sine(min=1800,max=2400,period=4m)", at: [0, 60_000, 120_000, 180_000])
        let rounded = sine.compactMap { $0.number.map { $0.rounded() } }
        #expect(rounded == [2100, 2400, 2100, 1800])
        #expect(
            try Self.values("steps(0:1800,1m:2000,90s:false)", at: [0, 59_999, 60_000, 90_000])
                == [.number(1800), .number(1800), .number(2000), .boolean(false)])
        #expect(
            try Self.values("steps(0:true,10:false,repeat=20)", at: [5000, 15_000, 25_000])
                == [.boolean(true), .boolean(false), .boolean(true)])
    }

    @Test("a walk stays within its bounds, moves at most a step at a time, and a seed repeats it")
    func walk() throws {
        let times = (0..<500).map { UInt64($0) * 1000 }
        let walk = try Self.values("walk(min=0,max=100,step=5,seed=9)", at: times)
        let numbers = walk.compactMap(\.number)
        #expect(numbers.first == 50)
        #expect(numbers.allSatisfy { (0...100).contains($0) })
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { abs($1 - $0) <= 5 })
        #expect(Set(numbers.map { $0.rounded() }).count > 10)
        #expect(try Self.values("walk(min=0,max=100,step=5,seed=9)", at: times) == walk)
    }

    @Test("a recorded series: seconds,value rows with a header and comments; its next change is the next row")
    func csv() throws {
        let file = "seconds,celsius\n# a comment\n0,1800\n30,1900\n90.5,2100\n"
        let script = try AttributeScript(parsing: "csv(room.csv)") { path in
            #expect(path == "room.csv")
            return file
        }
        var random = SeededRandom(seed: 1)
        #expect(script.value(at: 45_000, previous: nil, random: &random) == .number(1900))
        #expect(script.nextChange(after: 0) == 30_000)
        #expect(script.nextChange(after: 30_000) == 90_500)
        #expect(script.nextChange(after: 90_500) == nil)
        #expect(script.range == 1800...2100)
    }

    @Test(
        "a bad script is refused with a message that names what is wrong",
        arguments: [
            ("sin(min=1)", "unknown script \"sin\""),
            ("sine(min=1,max=2)", "sine needs period=DURATION"),
            ("sine(min=3,max=2,period=1)", "min must be below max"),
            ("ramp(from=1,to=2,over=x)", "\"x\" is not a duration"),
            ("walk(min=0,max=10,step=1,start=20)", "start must be within"),
            ("steps(0:1,0:2)", "times must increase"),
            ("steps(10:1,repeat=5)", "repeat must be longer"),
            ("steps(0:hot)", "\"hot\" is not a number, true or false"),
            ("constant(1,color=red)", "takes no color="),
            ("constant()", "constant needs a value"),
            ("sine min=1", "is not NAME(ARGUMENTS)"),
            ("sine(min=1,max=2,period=1,every=1ms)", "every must be at least 10 ms"),
        ])
    func refusals(text: String, message: String) {
        #expect {
            _ = try AttributeScript(parsing: text)
        } throws: { error in
            (error as? ScriptError)?.message.contains(message) == true
        }
    }

    @Test("a csv file with a bad row names the row")
    func csvRefusal() {
        #expect {
            _ = try AttributeScript(parsing: "csv(x.csv)") { _ in "0,1\n10,warm\n" }
        } throws: { error in
            (error as? ScriptError)?.message == "csv: x.csv line 2: \"warm\" is not a number, true or false"
        }
    }

    static let measured = AttributeScripts.Target(
        endpoint: EndpointID(1), cluster: .temperatureMeasurement, attribute: .TemperatureMeasurement.measuredValue)

    @Test("a script moves its attribute in simulated time, with reports, and sleeps between steps")
    func running() throws {
        let bench = try Bench(try DevicePreset(cliName: "temperature-sensor"))
        try bench.model.scripts.start(
            try AttributeScript(parsing: "steps(0:1800,10s:1900,20s:2000)"), on: Self.measured)
        #expect(bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue) == .signed(1800))
        #expect(bench.model.nextTimerDeadline == 10_000 + 10_000)  // asleep until the next step
        bench.advance(9_999)
        #expect(bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue) == .signed(1800))
        bench.advance(1)
        #expect(bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue) == .signed(1900))
        bench.advance(10_000)
        #expect(bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue) == .signed(2000))
        #expect(bench.model.scripts.all.isEmpty)  // done: nothing changes any more
        #expect(bench.model.nextTimerDeadline == nil)
        #expect(bench.log.filter { $0.contains("measured-value") }.count == 3)
    }

    @Test("--time-scale: a script and a covering's motion run faster; the root's timers keep real time")
    func timeScale() throws {
        let bench = try Bench(try DevicePreset(cliName: "temperature-sensor"), timeScale: 10)
        try bench.model.scripts.start(try AttributeScript(parsing: "ramp(from=0,to=1000,over=100s)"), on: Self.measured)
        bench.advance(5_000)  // 50 s of script time
        #expect(bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue) == .signed(500))
        bench.advance(5_000)
        #expect(bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue) == .signed(1000))

        let covering = try Bench(try DevicePreset(cliName: "window-covering"), timeScale: 10)
        let target = try #require(covering.model.cluster(.windowCovering, on: EndpointID(1)))
        _ = try target.invoke(
            .WindowCovering.goToLiftPercentage,
            fields: CommandFields(fields([0: .unsigned(10_000)])), context: .caseSubject())
        covering.advance(1_000)  // 10 s at 10 %/s: the whole way
        #expect(
            covering.value(1, .windowCovering, .WindowCovering.currentPositionLiftPercent100ths) == .unsigned(10_000))

        // A timer of the data model's own (the root node's fail-safe and windows) keeps real time.
        let fired = Flag()
        let rootTimer = covering.model.makeTimer { fired.set() }
        rootTimer.start(after: 1_000)
        covering.advance(999)
        #expect(!fired.isSet)
        covering.advance(1)
        #expect(fired.isSet)
    }

    final class Flag {
        private(set) var isSet = false
        func set() { isSet = true }
    }

    @Test("a script that does not fit its attribute is refused and nothing changes")
    func misfits() throws {
        let bench = try Bench(try DevicePreset(cliName: "temperature-sensor"))
        let before = bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue)
        let cases: [(AttributeScripts.Target, String, String)] = [
            (Self.measured, "sine(min=0,max=40000,period=1m)", "above its maximum 32767"),
            (Self.measured, "steps(0:true)", "the script sets true or false"),
            (
                AttributeScripts.Target(endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff),
                "constant(true)", "endpoint 1 has no OnOff cluster"
            ),
            (
                AttributeScripts.Target(
                    endpoint: EndpointID(1), cluster: .temperatureMeasurement, attribute: AttributeID(0x4242)),
                "constant(1)", "is not an attribute of the endpoint"
            ),
        ]
        for (target, text, message) in cases {
            #expect {
                try bench.model.scripts.start(try AttributeScript(parsing: text), on: target)
            } throws: { error in
                (error as? ScriptError)?.message.contains(message) == true
            }
        }
        #expect(bench.value(1, .temperatureMeasurement, .TemperatureMeasurement.measuredValue) == before)
        #expect(bench.model.scripts.all.isEmpty)
    }
}
