/// The `<node|group> [<endpoint>]` that ends a cluster command, after `leading` value arguments.
struct TargetArguments {
    static let positionals: [PositionalSpec] = [
        .required("node|group", "node ID or name, or a group name"),
        .optional("endpoint", "endpoint (default 1; not with a group, whose members carry theirs)"),
    ]

    let runner: TargetRunner
    let target: String
    let endpoint: String?
    /// The value arguments before the target.
    let values: [String]

    init(_ arguments: ParsedArguments, _ context: CLIContext, command: String, label: String, leading: Int = 0) throws {
        let positionals = arguments.positionals
        values = Array(positionals.prefix(leading))
        target = positionals[leading]
        endpoint = positionals.count > leading + 1 ? positionals[leading + 1] : nil
        runner = TargetRunner(
            context: try ControllerContext(arguments, command: command), output: context, label: label)
    }

    /// Value argument `index` as an unsigned integer of type `T`, named `name` in errors.
    func value<T: FixedWidthInteger & UnsignedInteger>(_ index: Int, _ name: String, command: String) throws(UsageError)
        -> T
    {
        try ParsedArguments.parseUnsigned(values[index], what: "<\(name)>", command: command)
    }
}
