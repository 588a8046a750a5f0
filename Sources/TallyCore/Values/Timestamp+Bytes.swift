extension Timestamp {
    /// The generic `parse(utf8:)` for bytes in memory (a reader's field), compiled
    /// for them. Callers in other modules otherwise run the generic version
    /// unspecialized, on the loads' path of every timestamp field.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, ParseError> {
        parse(utf8: bytes[...])   // a Slice: the generic version, specialized here
    }
}
