/// One step of the streaming ``TLVReader``.
public enum TLVToken: Hashable, Sendable {
    /// A primitive element: its tag and value. The value is never one of the container cases of
    /// ``TLVValue``; containers arrive as ``containerStart(tag:type:)``, their members, then
    /// ``containerEnd(type:)``.
    case element(tag: TLVTag, value: TLVValue)
    /// The start of a structure, array or list.
    case containerStart(tag: TLVTag, type: TLVContainerType)
    /// The end of the innermost open container, which was of `type`.
    case containerEnd(type: TLVContainerType)
}
