/// The characters a name or a label never holds, wherever it comes from (a command line, a
/// configuration file, the control plane, a controller's write): C0 and C1 controls, the line and
/// paragraph separators, and the invisible format characters (general category Cf: the bidi embeddings,
/// overrides and isolates U+202A...U+202E and U+2066...U+2069, the zero-width space, non-joiner and
/// joiner U+200B...U+200D, the word joiner U+2060, the byte order mark U+FEFF...). Controls are what a
/// terminal acts on when the name is printed; format characters make a name read as another (a bidi
/// override reverses what follows it, a zero-width space makes two equal-looking names differ).
package enum NameCharacters {
    /// Whether `scalar` is one of them.
    package static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .format: true
        default: false
        }
    }

    /// The first of them in `text`, nil when there is none.
    package static func firstForbidden(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isForbidden)
    }

    /// Why `text` is refused, naming the first such character (`U+202E`), nil when it has none.
    package static func problem(in text: String) -> String? {
        guard let scalar = firstForbidden(in: text) else { return nil }
        let code = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        let kind =
            scalar.properties.generalCategory == .format ? "an invisible format character" : "a control character"
        return
            "contains \(kind) (U+\(padded)); control characters, bidi overrides and zero-width characters are refused"
    }
}
