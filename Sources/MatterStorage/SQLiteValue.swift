/// One SQLite value, as bound to a statement parameter or read from a result column.
package enum SQLiteValue: Hashable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// SQLite's name for the storage class, for error messages.
    package var typeName: String {
        switch self {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        case .null: "NULL"
        }
    }
}

extension SQLiteValue {
    /// A 64-bit unsigned value (a node or fabric ID) stored by bit pattern: SQLite integers are signed,
    /// so IDs above `Int64.max` read back negative in the `sqlite3` shell but round-trip exactly.
    package static func bits(_ value: UInt64) -> SQLiteValue { .integer(Int64(bitPattern: value)) }

    /// `.text(value)`, or `.null` for nil.
    package static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}
