import MatterTLV
import MatterTestSupport
import Testing

/// Shorthand for an element with a context tag.
func ctx(_ number: UInt8, _ value: TLVValue) -> TLVElement {
    TLVElement(tag: .context(number), value)
}

/// Shorthand for an anonymous element.
func anon(_ value: TLVValue) -> TLVElement {
    TLVElement(value)
}
