import MatterCore
import MatterDiscovery

/// `--flag value` options of the probe, parsed strictly: an unknown flag or a bad number is an error.
struct ProbeOptions {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var positional: [String] = []

    static let booleanFlags: Set<String> = ["--cm-open", "--probe"]

    init(_ arguments: ArraySlice<String>, allowed: Set<String>) throws(ProbeError) {
        var rest = arguments[...]
        while let arg = rest.popFirst() {
            guard arg.hasPrefix("--") else {
                positional.append(arg)
                continue
            }
            guard allowed.contains(arg) else { throw ProbeError("unknown option \(arg)") }
            if ProbeOptions.booleanFlags.contains(arg) {
                flags.insert(arg)
            } else {
                guard let value = rest.popFirst() else { throw ProbeError("\(arg) needs a value") }
                values[arg] = value
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) || values[flag] != nil }
    func string(_ name: String) -> String? { values[name] }

    /// Decimal, or hex with 0x.
    func number<T: FixedWidthInteger>(_ name: String) throws(ProbeError) -> T? {
        guard let text = values[name] else { return nil }
        let value = text.hasPrefix("0x") ? T(text.dropFirst(2), radix: 16) : T(text)
        guard let value else { throw ProbeError("\(name) '\(text)' is not a valid number") }
        return value
    }

    func seconds(_ name: String, default fallback: Double) throws(ProbeError) -> Duration {
        guard let text = values[name] else { return .milliseconds(Int(fallback * 1000)) }
        guard let s = Double(text), s >= 0 else { throw ProbeError("\(name) '\(text)' is not a number of seconds") }
        return .milliseconds(Int(s * 1000))
    }

    /// `CFID-NODE` in hex, e.g. 87E1B004E235A130-8FC7772401CD0696.
    func operationalIDs(_ name: String) throws(ProbeError) -> (UInt64, NodeID)? {
        guard let text = values[name] else { return nil }
        do {
            let ids = try MatterInstanceName.parseOperational(text)
            return (ids.compressedFabricID, ids.nodeID)
        } catch {
            throw ProbeError("\(name): \(error)")
        }
    }
}

struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
