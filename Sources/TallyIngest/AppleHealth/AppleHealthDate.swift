import TallyCore

/// Apple Health's date format, `2014-09-13 10:27:54 +0100`: a local time
/// and its offset, separated by a space. The compact form of iOS 8 exports
/// (`20150701161900+0100`: date and time digits, then the offset) and ISO
/// 8601 forms (`…T…+01:00`) are accepted too.
public enum AppleHealthDate {
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        // iOS 8: `yyyyMMddHHmmss±zzzz`, read as `yyyy-MM-dd HH:mm:ss±zzzz`.
        if bytes.count == 19, bytes[14] == UInt8(ascii: "+") || bytes[14] == UInt8(ascii: "-"),
           bytes[0..<14].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            var spelled = [UInt8]()
            spelled.reserveCapacity(24)
            for (i, byte) in bytes[0..<14].enumerated() {
                switch i {
                case 4, 6: spelled.append(UInt8(ascii: "-"))
                case 8: spelled.append(UInt8(ascii: " "))
                case 10, 12: spelled.append(UInt8(ascii: ":"))
                default: break
                }
                spelled.append(byte)
            }
            spelled.append(contentsOf: bytes[14...])
            if case .success(let ts) = Timestamp.parse(utf8: spelled) { return ts }
            return nil
        }
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
