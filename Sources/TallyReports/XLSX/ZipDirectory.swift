/// The entries of a plain zip package (a workbook as libxlsxwriter writes
/// it), read from its end record, its central directory and each entry's
/// local header; nil for a package this does not understand (zip64,
/// encrypted or spanned) or one cut short. The bytes are read through a
/// function, so a large package can be read in place (mapped) and only the
/// headers are copied.
///
/// ```swift
/// let directory = ZipDirectory(package)
/// for entry in directory?.entries ?? [] where entry.name == "docProps/core.xml" { use(package[entry.data]) }
/// ```
struct ZipDirectory {
    /// One entry: where its records and bytes lie in the package.
    struct Entry {
        var name: String
        /// The general-purpose flags (bit 3: a data descriptor follows the data).
        var flags: UInt16
        /// The compression method (8: deflate).
        var method: UInt16
        /// Its central directory record.
        var record: Range<Int>
        /// Where its local header starts, and how long the header's name is.
        var local: Int
        var localNameLength: Int
        /// Its compressed bytes.
        var data: Range<Int>
    }

    var entries: [Entry]
    /// Where the end-of-central-directory record starts.
    var end: Int

    /// The directory of a package of `count` bytes, `bytes(range)` giving any range of them.
    init?(count: Int, bytes: (Range<Int>) -> [UInt8]) {
        let tailStart = max(0, count - 22 - 0xFFFF)
        let tail = bytes(tailStart..<count)
        guard let endInTail = Self.endOfCentralDirectory(tail), tail.u16(endInTail + 4) == 0 else { return nil }
        end = tailStart + endInTail
        let entryCount = Int(tail.u16(endInTail + 10))
        let centralSize = Int(tail.u32(endInTail + 12)), centralOffset = Int(tail.u32(endInTail + 16))
        guard entryCount != 0xFFFF, centralSize != 0xFFFF_FFFF, centralOffset != 0xFFFF_FFFF,
              centralOffset + centralSize <= end else { return nil }
        let central = bytes(centralOffset..<(centralOffset + centralSize))
        entries = []
        entries.reserveCapacity(entryCount)
        var at = 0
        for _ in 0..<entryCount {
            guard at + 46 <= central.count, central.u32(at) == 0x0201_4B50 else { return nil }
            let flags = central.u16(at + 8)
            let compressedSize = Int(central.u32(at + 20)), size = Int(central.u32(at + 24))
            let nameLength = Int(central.u16(at + 28))
            let recordLength = 46 + nameLength + Int(central.u16(at + 30)) + Int(central.u16(at + 32))
            let local = Int(central.u32(at + 42))
            guard flags & 0x0001 == 0, compressedSize != 0xFFFF_FFFF, size != 0xFFFF_FFFF, local != 0xFFFF_FFFF,
                  at + recordLength <= central.count, local + 30 <= count else { return nil }
            let header = bytes(local..<(local + 30))
            guard header.u32(0) == 0x0403_4B50 else { return nil }
            let localNameLength = Int(header.u16(26))
            let dataStart = local + 30 + localNameLength + Int(header.u16(28))
            guard dataStart + compressedSize <= count else { return nil }
            entries.append(Entry(name: String(decoding: central[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
                                 flags: flags, method: central.u16(at + 10),
                                 record: (centralOffset + at)..<(centralOffset + at + recordLength),
                                 local: local, localNameLength: localNameLength,
                                 data: dataStart..<(dataStart + compressedSize)))
            at += recordLength
        }
    }

    /// The directory of `zip`.
    init?(_ zip: [UInt8]) {
        self.init(count: zip.count) { Array(zip[$0]) }
    }

    /// The offset of the end-of-central-directory record in `zip` (searched from the end, past any comment).
    static func endOfCentralDirectory(_ zip: [UInt8]) -> Int? {
        guard zip.count >= 22 else { return nil }
        var offset = zip.count - 22
        let lowest = max(0, zip.count - 22 - 0xFFFF)
        while offset >= lowest {
            if zip.u32(offset) == 0x0605_4B50 { return offset }
            offset -= 1
        }
        return nil
    }
}
