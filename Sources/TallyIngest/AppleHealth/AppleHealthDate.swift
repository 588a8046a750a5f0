import TallyCore

/// Apple Health's date format, `2014-09-13 10:27:54 +0100`: a local time
/// and its offset, separated by a space. ISO 8601 forms (`…T…+01:00`) are
/// accepted too.
public enum AppleHealthDate {
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        // `yyyy-MM-dd HH:mm:ss ±zzzz`: drop the space before the offset.
        if bytes.count == 25, bytes[19] == UInt8(ascii: " ") {
            var joined = [UInt8](bytes[0..<19])
            joined.append(contentsOf: bytes[20...])
            if case .success(let ts) = Timestamp.parse(utf8: joined) { return ts }
            return nil
        }
        if case .success(let ts) = Timestamp.parse(utf8: Array(bytes)) { return ts }
        return nil
    }

    public static func parse(_ text: String) -> Timestamp? {
        Array(text.utf8).withUnsafeBufferPointer { parse($0) }
    }
}
