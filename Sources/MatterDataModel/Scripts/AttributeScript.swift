package import MatterCore

/// How an attribute's value moves over time (docs/SCRIPTS.md): a sensor that follows a constant, a
/// ramp, a sine, a random walk, steps at given times or a recorded series. Parsed from text such as
/// `sine(min=1800,max=2400,period=10m)`; evaluated against simulated time (which `--time-scale` speeds
/// up), so the same script gives the same values at the same script time.
public struct AttributeScript: Hashable, Sendable, CustomStringConvertible {
    /// A value a script sets: a number or a boolean.
    package enum Value: Hashable, Sendable, CustomStringConvertible {
        case number(Double)
        case boolean(Bool)

        package var description: String {
            switch self {
            case .number(let number):
                number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .boolean(let flag): String(flag)
            }
        }
    }

    /// One value of a series from its time on.
    package struct Step: Hashable, Sendable {
        /// Script time, ms.
        package let at: UInt64
        package let value: Value
    }

    /// The shape of the movement.
    package enum Shape: Hashable, Sendable {
        case constant(Value)
        /// From `from` to `to` over `over` ms; then held, or started again when `repeats`.
        case ramp(from: Double, to: Double, over: UInt64, repeats: Bool)
        /// Between `min` and `max`, starting at the middle and rising, one cycle every `period` ms.
        case sine(min: Double, max: Double, period: UInt64)
        /// From `start`, each update moves by a uniform amount in ±`step`, kept within `min`...`max`.
        case walk(start: Double, step: Double, min: Double, max: Double, seed: UInt64?)
        /// Each value from its time (ms) on; the series starts again after `repeatEvery` ms if given.
        case steps([Step], repeatEvery: UInt64?)
    }

    package let shape: Shape
    /// How often a moving value is updated, ms of script time (sine, ramp, walk).
    package let every: UInt64
    /// Uniform noise added to each number, ±noise (0: none).
    package let noise: Double
    /// The text it was parsed from.
    package let text: String

    public var description: String { text }

    /// Parses a script (`sine(min=1800,max=2400,period=10m)`); `csv` reads `readFile(path)` for its
    /// rows. Throws a message that names what is wrong.
    package init(parsing text: String, readFile: (String) throws -> String = { _ in throw ScriptError("no files") })
        throws(ScriptError)
    {
        self.text = text
        let trimmed = trim(text)
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            throw ScriptError("\"\(text)\" is not NAME(ARGUMENTS): constant, ramp, sine, walk, steps or csv")
        }
        let name = String(trimmed[..<open]).lowercased()
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var arguments = Arguments(name: name, text: String(inner))
        every = try arguments.duration("every", default: 1000)
        guard every >= 10 else { throw ScriptError("\(name): every must be at least 10 ms") }
        noise = try arguments.number("noise", default: 0)
        guard noise >= 0 else { throw ScriptError("\(name): noise must not be negative") }
        switch name {
        case "constant":
            let value = try Self.value(try arguments.positional(0, "a value"), in: name)
            shape = .constant(value)
        case "ramp":
            let over = try arguments.duration("over")
            guard over > 0 else { throw ScriptError("ramp: over must be more than 0") }
            shape = .ramp(
                from: try arguments.number("from"), to: try arguments.number("to"), over: over,
                repeats: try arguments.flag("repeat"))
        case "sine":
            let min = try arguments.number("min")
            let max = try arguments.number("max")
            guard min < max else { throw ScriptError("sine: min must be below max") }
            let period = try arguments.duration("period")
            guard period > 0 else { throw ScriptError("sine: period must be more than 0") }
            shape = .sine(min: min, max: max, period: period)
        case "walk":
            let min = try arguments.number("min")
            let max = try arguments.number("max")
            guard min <= max else { throw ScriptError("walk: min must not be above max") }
            let start = try arguments.number("start", default: (min + max) / 2)
            guard start >= min, start <= max else { throw ScriptError("walk: start must be within min...max") }
            let step = try arguments.number("step")
            guard step > 0 else { throw ScriptError("walk: step must be more than 0") }
            let seed = try arguments.optionalNumber("seed").map { UInt64(Swift.max(0, $0)) }
            shape = .walk(start: start, step: step, min: min, max: max, seed: seed)
        case "steps":
            let repeatEvery = try arguments.optionalDuration("repeat")
            let steps = try arguments.remainingPositional().map { item throws(ScriptError) in
                guard let colon = item.firstIndex(of: ":") else {
                    throw ScriptError("steps: \"\(item)\" is not TIME:VALUE (0:1800, 10m:2100)")
                }
                let at = try Self.duration(String(item[..<colon]), in: name)
                return Step(at: at, value: try Self.value(String(item[item.index(after: colon)...]), in: name))
            }
            shape = .steps(try Self.ordered(steps, repeatEvery: repeatEvery, in: name), repeatEvery: repeatEvery)
        case "csv":
            let path = try arguments.positional(0, "a file")
            let repeatEvery = try arguments.optionalDuration("repeat")
            let content: String
            do {
                content = try readFile(path)
            } catch {
                throw ScriptError("csv: cannot read \(path): \(error)")
            }
            shape = .steps(
                try Self.ordered(try Self.rows(content, path: path), repeatEvery: repeatEvery, in: name),
                repeatEvery: repeatEvery)
        default:
            throw ScriptError("unknown script \"\(name)\": constant, ramp, sine, walk, steps or csv")
        }
        try arguments.finish()
    }

    /// The value at script time `t` (ms since the script started); `random` draws the walk and noise.
    /// `previous` is the value the last update set (the walk moves from it).
    package func value(at t: UInt64, previous: Value?, random: inout SeededRandom) -> Value {
        var base: Value
        switch shape {
        case .constant(let value): base = value
        case .ramp(let from, let to, let over, let repeats):
            let position = repeats ? t % over : min(t, over)
            base = .number(from + (to - from) * Double(position) / Double(over))
        case .sine(let min, let max, let period):
            let phase = Double(t % period) / Double(period) * 2 * Double.pi
            base = .number((min + max) / 2 + (max - min) / 2 * Self.sine(phase))
        case .walk(let start, let step, let min, let max, _):
            guard case .number(let last) = previous ?? .number(start), t > 0 else {
                base = .number(start)
                break
            }
            let move = (Double(random.next() % 2_000_001) / 1_000_000 - 1) * step
            base = .number(Swift.min(max, Swift.max(min, last + move)))
        case .steps(let steps, let repeatEvery):
            let time = repeatEvery.map { t % $0 } ?? t
            base = steps.last { $0.at <= time }?.value ?? steps[0].value
        }
        if noise > 0, case .number(let number) = base {
            base = .number(number + (Double(random.next() % 2_000_001) / 1_000_000 - 1) * noise)
        }
        return base
    }

    /// The script time of the next change after `t`: `t + every` for moving shapes, the next step's
    /// time for steps, nil when nothing changes any more.
    package func nextChange(after t: UInt64) -> UInt64? {
        switch shape {
        case .constant: return noise > 0 ? t + every : nil
        case .ramp(_, _, let over, let repeats):
            return repeats || t < over || noise > 0 ? (repeats || noise > 0 ? t + every : min(t + every, over)) : nil
        case .sine, .walk: return t + every
        case .steps(let steps, let repeatEvery):
            if noise > 0 { return t + every }
            guard let period = repeatEvery else { return steps.first { $0.at > t }?.at }
            let cycle = t / period * period
            let time = t % period
            if let next = steps.first(where: { $0.at > time }) { return cycle + next.at }
            return cycle + period + (steps.first?.at ?? 0)
        }
    }

    /// The lowest and highest numbers it can set (noise included), or nil for booleans only.
    package var range: ClosedRange<Double>? {
        let values: [Double]
        switch shape {
        case .constant(let value): values = value.number.map { [$0] } ?? []
        case .ramp(let from, let to, _, _): values = [from, to]
        case .sine(let min, let max, _), .walk(_, _, let min, let max, _): values = [min, max]
        case .steps(let steps, _): values = steps.compactMap(\.value.number)
        }
        guard let low = values.min(), let high = values.max() else { return nil }
        return (low - noise)...(high + noise)
    }

    /// True when every value it sets is a boolean.
    package var isBoolean: Bool {
        switch shape {
        case .constant(let value): value.number == nil
        case .steps(let steps, _): steps.allSatisfy { $0.value.number == nil }
        default: false
        }
    }

    /// True when it sets both booleans and numbers (refused: an attribute has one type).
    var mixesTypes: Bool {
        guard case .steps(let steps, _) = shape else { return false }
        let booleans = steps.filter { $0.value.number == nil }.count
        return booleans > 0 && booleans < steps.count
    }

    // MARK: - Parsing

    private static func ordered(_ steps: [Step], repeatEvery: UInt64?, in name: String) throws(ScriptError) -> [Step] {
        guard !steps.isEmpty else { throw ScriptError("\(name): at least one TIME:VALUE is needed") }
        for (earlier, later) in zip(steps, steps.dropFirst()) where later.at <= earlier.at {
            throw ScriptError("\(name): times must increase (\(later.at) ms after \(earlier.at) ms)")
        }
        if let repeatEvery, let last = steps.last, repeatEvery <= last.at {
            throw ScriptError("\(name): repeat must be longer than the last time (\(last.at) ms)")
        }
        return steps
    }

    /// `seconds,value` rows; a first row that is not numeric is a header; `#` lines are comments.
    private static func rows(_ content: String, path: String) throws(ScriptError) -> [Step] {
        var rows: [Step] = []
        var seenRow = false
        for (number, raw) in content.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = trim(raw)
            if line.isEmpty || line.hasPrefix("#") { continue }
            defer { seenRow = true }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { trim($0) }
            guard fields.count == 2 else {
                throw ScriptError("csv: \(path) line \(number + 1): expected SECONDS,VALUE, got \"\(line)\"")
            }
            guard let seconds = Double(fields[0]), seconds >= 0, seconds < 1e9 else {
                if !seenRow { continue }  // a header
                throw ScriptError("csv: \(path) line \(number + 1): \"\(fields[0])\" is not a time in seconds")
            }
            guard let value = try? Self.value(fields[1], in: "csv") else {
                throw ScriptError("csv: \(path) line \(number + 1): \"\(fields[1])\" is not a number, true or false")
            }
            rows.append(Step(at: UInt64((seconds * 1000).rounded()), value: value))
        }
        return rows
    }

    static func value(_ text: String, in name: String) throws(ScriptError) -> Value {
        let trimmed = trim(text)
        switch trimmed.lowercased() {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default:
            guard let number = Double(trimmed), number.isFinite else {
                throw ScriptError("\(name): \"\(trimmed)\" is not a number, true or false")
            }
            return .number(number)
        }
    }

    /// `1500ms`, `90`, `90s`, `10m`, `2h` (plain numbers are seconds) as ms.
    static func duration(_ text: String, in name: String) throws(ScriptError) -> UInt64 {
        let trimmed = trim(text).lowercased()
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        var number = trimmed
        var scale = 1000.0
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            number = String(trimmed.dropLast(suffix.count))
            scale = factor
            break
        }
        guard let value = Double(number), value >= 0, value * scale < 1e13 else {
            throw ScriptError("\(name): \"\(text)\" is not a duration (90, 90s, 1500ms, 10m, 2h)")
        }
        return UInt64((value * scale).rounded())
    }

    /// sin on [0, 2π), without Foundation.
    private static func sine(_ x: Double) -> Double {
        // Reduce to [-π, π], then a Taylor series to the 15th power (error below 1e-6 there).
        var y = x
        while y > Double.pi { y -= 2 * Double.pi }
        var term = y
        var sum = y
        for n in stride(from: 3, through: 21, by: 2) {
            term *= -y * y / Double((n - 1) * n)
            sum += term
        }
        return sum
    }
}

extension AttributeScript.Value {
    /// The number, or nil for a boolean.
    package var number: Double? {
        if case .number(let number) = self { number } else { nil }
    }
}

/// `text` without the spaces, tabs and carriage returns around it.
func trim(_ text: some StringProtocol) -> String {
    let blank: Set<Character> = [" ", "\t", "\r"]
    guard let first = text.firstIndex(where: { !blank.contains($0) }),
        let last = text.lastIndex(where: { !blank.contains($0) })
    else { return "" }
    return String(text[first...last])
}

/// Why a script was refused: the message names what is wrong.
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The arguments of a script: `name=value` pairs and positional items, each used once.
private struct Arguments {
    let name: String
    private var named: [String: String] = [:]
    private var positional: [String] = []
    private var used: Set<String> = []
    private var usedPositional = 0

    init(name: String, text: String) {
        self.name = name
        for item in text.split(separator: ",").map({ trim($0) }) where !item.isEmpty {
            if let equals = item.firstIndex(of: "=") {
                named[item[..<equals].lowercased()] = String(item[item.index(after: equals)...])
            } else {
                positional.append(item)
            }
        }
    }

    mutating func positional(_ index: Int, _ what: String) throws(ScriptError) -> String {
        guard index < positional.count else { throw ScriptError("\(name) needs \(what)") }
        usedPositional = max(usedPositional, index + 1)
        return positional[index]
    }

    mutating func remainingPositional() -> [String] {
        defer { usedPositional = positional.count }
        return Array(positional[usedPositional...])
    }

    private mutating func take(_ key: String) -> String? {
        guard let value = named[key] else { return nil }
        used.insert(key)
        return value
    }

    mutating func optionalNumber(_ key: String) throws(ScriptError) -> Double? {
        guard let text = take(key) else { return nil }
        guard let number = Double(trim(text)), number.isFinite else {
            throw ScriptError("\(name): \(key)=\(text) is not a number")
        }
        return number
    }

    mutating func number(_ key: String, default fallback: Double? = nil) throws(ScriptError) -> Double {
        if let number = try optionalNumber(key) { return number }
        guard let fallback else { throw ScriptError("\(name) needs \(key)=NUMBER") }
        return fallback
    }

    mutating func optionalDuration(_ key: String) throws(ScriptError) -> UInt64? {
        guard let text = take(key) else { return nil }
        return try AttributeScript.duration(text, in: "\(name): \(key)")
    }

    mutating func duration(_ key: String, default fallback: UInt64? = nil) throws(ScriptError) -> UInt64 {
        if let duration = try optionalDuration(key) { return duration }
        guard let fallback else { throw ScriptError("\(name) needs \(key)=DURATION (90, 90s, 10m)") }
        return fallback
    }

    mutating func flag(_ key: String) throws(ScriptError) -> Bool {
        if positional.contains(key) {
            positional.removeAll { $0 == key }
            return true
        }
        guard let text = take(key) else { return false }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw ScriptError("\(name): \(key)=\(text) must be true or false")
        }
    }

    func finish() throws(ScriptError) {
        if let unknown = named.keys.sorted().first(where: { !used.contains($0) }) {
            throw ScriptError("\(name) takes no \(unknown)=")
        }
        if usedPositional < positional.count {
            throw ScriptError("\(name): unexpected \"\(positional[usedPositional])\"")
        }
    }
}
