/// Turns an id from an input file into a file name that is safe to create
/// inside the out folder: no path separators, no `..`, no reserved device
/// names, bounded length. Ids that had to change get a short hash of the
/// original, so two different ids never share a file.
public enum SafeFileName {
    /// A safe file name stem for `id` (add the extension yourself).
    public static func stem(for id: String) -> String {
        isSafeAsIs(id) ? id : rewritten(id)
    }

    /// ``stem(for:)`` worked out in full, scalar by scalar (what an id that
    /// is not safe as it is takes).
    static func rewritten(_ id: String) -> String {
        var out = ""
        for scalar in id.unicodeScalars {
            let ok = (scalar.value >= 48 && scalar.value <= 57) || (scalar.value >= 65 && scalar.value <= 90)
                || (scalar.value >= 97 && scalar.value <= 122) || scalar == "-" || scalar == "_" || scalar == "."
            out.unicodeScalars.append(ok ? scalar : "_")
        }
        while out.hasPrefix(".") { out = "_" + out.dropFirst() }
        if out.isEmpty { out = "_" }
        let upperBase = out.split(separator: ".", maxSplits: 1).first.map { $0.uppercased() } ?? ""
        if reserved.contains(upperBase) { out = "_" + out }
        if out.count > 80 { out = String(out.prefix(80)) }
        if out != id { out += "-" + fnv1a(id) }
        return out
    }

    /// Device names Windows reserves, whatever the extension.
    static let reserved = Set(["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    /// Whether `id` is its own stem, decided from its bytes alone: 1 to 80
    /// ASCII letters, digits, `-`, `_` and `.`, not starting with `.`, whose
    /// part before the first `.` is not three or four characters long (the
    /// reserved device names' lengths; such ids take the full path of
    /// ``stem(for:)``). Most ids are.
    private static func isSafeAsIs(_ id: String) -> Bool {
        id.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.isEmpty, bytes.count <= 80, bytes[0] != UInt8(ascii: ".") else { return false }
            var base = bytes.count
            for (i, byte) in bytes.enumerated() {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    continue
                case UInt8(ascii: "."):
                    if base == bytes.count { base = i }
                default:
                    return false
                }
            }
            return base != 3 && base != 4
        } ?? false
    }

    /// 8 hex digits of FNV-1a over the UTF-8 bytes: stable across runs and machines.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
