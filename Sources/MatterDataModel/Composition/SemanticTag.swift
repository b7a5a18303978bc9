package import MatterTLV

/// A semantic tag of a Descriptor's TagList (Matter Core 9.5.5.6, SemanticTagStruct): a tag of a standard
/// namespace that tells an endpoint apart from its siblings (a battery's Power Source from the grid's).
///
/// The data model file holds no namespaces, so the few tags a composed device type of the catalogue gives its
/// parts are named here, with the namespace's number from the Matter Standard Namespaces document.
package struct SemanticTag: Hashable, Sendable {
    /// The namespace (Standard Namespaces: Electrical Measurement 0x0A, Power Source 0x0F...).
    package let namespace: UInt8
    /// The tag within the namespace.
    package let tag: UInt8
    /// The tag's label, also sent as the struct's Label.
    package let label: String

    package init(namespace: UInt8, tag: UInt8, label: String) {
        self.namespace = namespace
        self.tag = tag
        self.label = label
    }

    /// Electrical Measurement namespace (0x0A): values measured for a DC load.
    package static let directCurrent = SemanticTag(namespace: 0x0A, tag: 0x00, label: "DC")
    /// Electrical Measurement namespace (0x0A): values measured for a single-phase AC load.
    package static let alternatingCurrent = SemanticTag(namespace: 0x0A, tag: 0x01, label: "AC")
    /// Power Source namespace (0x0F): power from the electrical grid.
    package static let grid = SemanticTag(namespace: 0x0F, tag: 0x01, label: "Grid")
    /// Power Source namespace (0x0F): power from a solar panel array.
    package static let solar = SemanticTag(namespace: 0x0F, tag: 0x02, label: "Solar")
    /// Power Source namespace (0x0F): power from a battery.
    package static let battery = SemanticTag(namespace: 0x0F, tag: 0x03, label: "Battery")

    /// The SemanticTagStruct: MfgCode null (a standard namespace), NamespaceID, Tag, Label.
    package var tlv: TLVValue {
        .structure([
            TLVElement(tag: .context(0), .null),
            TLVElement(tag: .context(1), .unsigned(UInt64(namespace))),
            TLVElement(tag: .context(2), .unsigned(UInt64(tag))),
            TLVElement(tag: .context(3), .utf8(label)),
        ])
    }
}
