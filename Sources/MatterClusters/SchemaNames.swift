/// Name conventions shared with chip-tool, so users type what they already know.
public enum SchemaNames {
    /// chip-tool's command and attribute form: a dash between a lower-case letter and an upper-case
    /// one, then everything lower-case. `CurrentLevel` → `current-level`, `VendorID` → `vendor-id`,
    /// `CSRRequest` → `csrrequest`, `NOCs` → `nocs`.
    public static func kebabCase(_ name: String) -> String {
        var out = ""
        var previousWasLower = false
        for character in name {
            if character.isUppercase, previousWasLower { out.append("-") }
            previousWasLower = character.isLowercase
            out.append(contentsOf: character.lowercased())
        }
        return out
    }

    /// chip-tool's cluster form: lower-case, no separators. `LevelControl` → `levelcontrol`.
    public static func clusterName(_ name: String) -> String { name.lowercased() }

    /// chip-tool's JSON field form: the leading run of capitals lower-cased, except the last one when a
    /// lower-case letter follows. `FabricIndex` → `fabricIndex`, `NOCSRElements` → `nocsrElements`,
    /// `ICAC` → `icac`, `VendorID` → `vendorID`.
    public static func camelCase(_ name: String) -> String {
        let characters = Array(name)
        var run = 0
        while run < characters.count, characters[run].isUppercase { run += 1 }
        guard run > 0 else { return name }
        var lowered = run
        if run > 1, run < characters.count, characters[run].isLowercase { lowered = run - 1 }
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// A name reduced for lookups: letters and digits only, lower-case. `move-to-level`,
    /// `MoveToLevel` and `moveToLevel` all become `movetolevel`.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}
