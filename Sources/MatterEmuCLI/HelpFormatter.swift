import MatterClusters
import MatterCore

/// Renders `--help` text for the tool and for each command.
enum HelpFormatter {
    static func commandHelp(_ command: CommandSpec) -> String {
        var lines: [String] = []
        let positionals = command.positionals.map { $0.optional ? "[<\($0.name)>]" : "<\($0.name)>" }
        lines.append(
            "usage: matter-emu \(command.pathString) [options]"
                + (positionals.isEmpty ? "" : " " + positionals.joined(separator: " ")))
        lines.append("")
        lines.append(command.summary)
        if !command.positionals.isEmpty {
            lines.append("")
            lines.append("arguments:")
            for p in command.positionals { lines.append(row("<\(p.name)>", p.help)) }
        }
        lines.append("")
        lines.append("options:")
        for o in command.options + GlobalOptions.specs {
            lines.append(row("--\(o.name)" + (o.valueName.map { " \($0)" } ?? ""), o.help))
        }
        if !command.discussion.isEmpty {
            lines.append("")
            lines.append(command.discussion)
        }
        return lines.joined(separator: "\n")
    }

    static func groupHelp(prefix: [String], commands: [CommandSpec]) -> String {
        var lines: [String] = []
        if prefix.isEmpty {
            lines.append("matter-emu: emulated Matter devices and a Matter commissioner over UDP")
            lines.append("")
            lines.append("usage: matter-emu <command> [options] [arguments]")
        } else {
            lines.append("usage: matter-emu \(prefix.joined(separator: " ")) <command> [options] [arguments]")
        }
        lines.append("")
        lines.append("commands:")
        var shownGroups: Set<String> = []
        for c in commands {
            // At the top, the commands of a cluster are one line: `onoff ...`.
            if prefix.isEmpty, let group = c.group {
                if shownGroups.insert(group).inserted { lines.append(row("\(group) ...", Self.groupSummary(group))) }
                continue
            }
            lines.append(row(c.pathString, c.summary))
        }
        lines.append("")
        lines.append("Every command takes --json and --help. 'matter-emu <command> --help' shows its options.")
        if prefix.isEmpty { lines.append("'matter-emu --version' (with --json too) prints the version.") }
        if prefix.isEmpty {
            lines.append("")
            lines.append("exit codes:")
            for code in ExitCode.allCases { lines.append(row(String(code.rawValue), code.meaning)) }
        }
        return lines.joined(separator: "\n")
    }

    /// The line a cluster's group gets at the top level: `the OnOff cluster (0x0006)`.
    static func groupSummary(_ group: String) -> String {
        guard let cluster = ClusterRegistry.standard.cluster(named: group) else { return "commands of \(group)" }
        return
            "the \(cluster.name) cluster (\(ModelCommands.hex(cluster.id.rawValue))): read, write, subscribe, events, commands"
    }

    private static func row(_ left: String, _ right: String) -> String {
        let pad = 30
        let head = "  " + left
        return head.count < pad ? head + String(repeating: " ", count: pad - head.count) + right : head + "  " + right
    }
}
