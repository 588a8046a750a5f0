import CGzip
import CIsal
import Foundation
import TallyCore

/// Rewrites the numbers of a finished workbook's sheets as the shortest
/// decimal that reads back as the same double: `936.43`, not `936.4299999999999`.
///
/// libxlsxwriter writes every number with C's `%.16G`. A money amount
/// converted once from integer minor units is the double nearest its decimal
/// (`93643 / 100` is the nearest double to 936.43), and 16 significant digits
/// always read back as that double, but often not as the decimal itself:
/// the cell text shows binary-float noise to anyone who reads the XML or
/// prints the raw value. The shortest round-trip form (Swift's own
/// `Double.description`) is the same double, so no value changes: only its
/// spelling. Shared-string indices and other integer values have no `.` and
/// are left as they are; so are numbers whose shortest form needs an exponent.
///
/// Charts' cached points (`xl/charts/chart*.xml`, `<c:v>`) are respelled the
/// same way, and each cache takes the number format of its axis (libxlsxwriter
/// writes `General`): the cells' format, which ``XLSXWorkbook/close()`` gives
/// an axis the chart left without one; so a viewer showing the cache shows
/// `R$ 728,93`, not `728.9299999999999`.
///
/// Only the sheets (`xl/worksheets/sheet*.xml`) and charts are inflated,
/// respelled and deflated again, a sheet a chunk at a time (a sheet is never
/// held whole, a chart is: its cache holds at most 65,535 points); every
/// other part of the package is copied as it is, and
/// each entry keeps its name, date and attributes, so the same workbook gives
/// the same bytes. The file is rewritten in place: write it to a temporary
/// file first (``AtomicFile``), as every report is. A package this does not
/// understand (zip64, encrypted or spanned) is left as libxlsxwriter wrote it.
///
/// ```swift
/// try book.close()
/// try XLSXExactNumbers.rewrite(path: "out/.c1.xlsx.tmp-42")
/// ```
public enum XLSXExactNumbers {
    /// Rewrites the workbook at `path` in place.
    /// - Throws: ``XLSXError/invalidArgument(file:reason:)`` when the file cannot be read, inflated or written.
    public static func rewrite(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let package: [UInt8]
        do { package = Array(try Data(contentsOf: url)) } catch {
            throw XLSXError.invalidArgument(file: path, reason: "cannot read the package to respell its numbers: \(error)")
        }
        guard let rewritten = try respelled(package, file: path) else { return }
        do { try Data(rewritten).write(to: url) } catch {
            throw XLSXError.invalidArgument(file: path, reason: "cannot write the respelled package: \(error)")
        }
    }

    /// The package with its sheets' numbers respelled, or nil when nothing changed or it is not a plain zip.
    static func respelled(_ zip: [UInt8], file: String) throws -> [UInt8]? {
        try rewritten(zip, file: file) { name in
            guard name.hasSuffix(".xml") else { return nil }
            if name.hasPrefix("xl/worksheets/sheet") { return .streamed(whole: false, respell: shortestNumbers(in:)) }
            if name.hasPrefix("xl/charts/chart") { return .streamed(whole: true, respell: chartCaches(in:)) }
            return nil
        }
    }

    /// How one deflated part of a package is rewritten: `respell` gives its
    /// text rewritten, or nil when it stays as it is.
    enum PartRewrite {
        /// Inflated and deflated again with ISA-L at its level 2
        /// (``respellSheet(_:into:file:whole:respell:)``), `respell` seeing the
        /// part a chunk at a time (cut before a `<`: a sheet) or `whole` (a chart).
        case streamed(whole: Bool, respell: (UnsafeBufferPointer<UInt8>) -> [UInt8]?)
        /// Inflated whole and deflated with zlib's default settings, as
        /// libxlsxwriter deflates every part: a text rewritten to what
        /// libxlsxwriter would have written gives the bytes it would have
        /// written (``rezipped(_:into:file:respell:)``). For small parts.
        case asWritten(respell: (UnsafeBufferPointer<UInt8>) -> [UInt8]?)
    }

    /// The package with the deflated parts `part` names rewritten (nil for
    /// the others, which are copied as they are), or nil when nothing
    /// changed or it is not a plain zip (zip64, encrypted or spanned).
    static func rewritten(_ zip: [UInt8], file: String, part: (String) -> PartRewrite?) throws -> [UInt8]? {
        guard let directory = ZipDirectory(zip) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(zip.count)
        var central: [UInt8] = []
        var changed = false
        for entry in directory.entries {
            var record = Array(zip[entry.record])
            record.setU32(UInt32(out.count), at: 42)
            if entry.method == 8, let rewrite = part(entry.name) {
                // A fresh local header, its CRC and sizes filled in once the part is written: no data descriptor (flag bit 3).
                let headerAt = out.count
                var header = Array(zip[entry.local..<(entry.local + 30)])
                header.setU16(entry.flags & ~0x0008, at: 6)
                header.setU16(0, at: 28)   // no extra field
                out += header
                out += zip[(entry.local + 30)..<(entry.local + 30 + entry.localNameLength)]
                let dataAt = out.count
                let compressed = zip[entry.data]
                let written = switch rewrite {
                case let .streamed(whole, respell): try respellSheet(compressed, into: &out, file: file, whole: whole, respell: respell)
                case let .asWritten(respell): try rezipped(compressed, into: &out, file: file, respell: respell)
                }
                if written.changed {
                    changed = true
                    out.setU32(written.crc, at: headerAt + 14)
                    out.setU32(UInt32(out.count - dataAt), at: headerAt + 18)
                    out.setU32(UInt32(written.size), at: headerAt + 22)
                    record.setU16(entry.flags & ~0x0008, at: 8)
                    record.setU32(written.crc, at: 16)
                    record.setU32(UInt32(out.count - dataAt), at: 20)
                    record.setU32(UInt32(written.size), at: 24)
                    central += record
                    continue
                }
                out.removeSubrange(headerAt...)   // nothing to rewrite: copied as it is
            }
            // Copied as it is, with its data descriptor when it has one (with or without its signature).
            var dataEnd = entry.data.upperBound
            if entry.flags & 0x0008 != 0 {
                dataEnd += dataEnd + 4 <= zip.count && zip.u32(dataEnd) == 0x0807_4B50 ? 16 : 12
                guard dataEnd <= zip.count else { return nil }
            }
            out += zip[entry.local..<dataEnd]
            central += record
        }
        guard changed else { return nil }
        var trailer = Array(zip[directory.end..<zip.count])
        trailer.setU32(UInt32(central.count), at: 12)
        trailer.setU32(UInt32(out.count), at: 16)
        return out + central + trailer
    }

    /// Inflates a small part's raw deflate data whole, respells it, and
    /// deflates the result onto `out` with zlib at its default level, window
    /// and memory (minizip's settings, with which libxlsxwriter deflates every
    /// part): the same text gives the bytes libxlsxwriter gives it.
    /// - Returns: the CRC-32 and size of the respelled text, and whether it changed (when it did not,
    ///   nothing is added to `out`).
    static func rezipped(_ compressed: ArraySlice<UInt8>, into out: inout [UInt8], file: String,
                         respell: (UnsafeBufferPointer<UInt8>) -> [UInt8]?) throws -> (crc: UInt32, size: Int, changed: Bool) {
        func failure(_ what: String, _ status: Int32) -> XLSXError {
            XLSXError.invalidArgument(file: file, reason: "cannot rewrite a part of the package: zlib \(what) (status \(status))")
        }
        var stream = z_stream()
        var status = inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw failure("inflateInit2", status) }
        var text: [UInt8] = []
        status = pump(&stream, Array(compressed), into: &text) { inflate(&$0, Z_NO_FLUSH) }
        inflateEnd(&stream)
        guard status == Z_STREAM_END else { throw failure("inflate", status) }
        guard let respelled = text.withUnsafeBufferPointer(respell) else {
            return (0, text.count, false)
        }
        stream = z_stream()
        status = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                               ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw failure("deflateInit2", status) }
        status = pump(&stream, respelled, into: &out) { deflate(&$0, Z_FINISH) }
        deflateEnd(&stream)
        guard status == Z_STREAM_END else { throw failure("deflate", status) }
        let crc = respelled.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        return (crc, respelled.count, true)
    }

    /// Feeds `input` to zlib's `step` (an inflate or a deflate of `stream`)
    /// until it stops (end of stream or an error), appending what it gives to
    /// `output`; returns its last status.
    private static func pump(_ stream: inout z_stream, _ input: [UInt8], into output: inout [UInt8],
                             _ step: (inout z_stream) -> Int32) -> Int32 {
        var input = input
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        return input.withUnsafeMutableBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(input.count)
            var result = Z_OK
            while result == Z_OK {
                result = buffer.withUnsafeMutableBufferPointer { room in
                    stream.next_out = room.baseAddress
                    stream.avail_out = uInt(room.count)
                    return step(&stream)
                }
                output += buffer[0..<(buffer.count - Int(stream.avail_out))]
                // No room was the only reason to stop: the next round gives more.
                if result == Z_BUF_ERROR && stream.avail_in > 0 { result = Z_OK }
            }
            return result
        }
    }

    /// Inflates a sheet's raw deflate data a chunk at a time, respells its
    /// numbers (``shortestNumbers(in:)``) and deflates the result onto `out`, so
    /// memory holds a chunk, never the whole sheet. A chunk is respelled up to
    /// its last `<`, so a `<v>` value is never cut in two.
    ///
    /// Inflates and deflates with Intel's ISA-L, deflating at its level 2:
    /// on a statements overview's sheets that is ~15 times faster than
    /// zlib's default level, for a package ~20% larger (docs/performance.md).
    /// The same sheet gives the same bytes: the chunks are cut where the
    /// inflated text says, not where a read happened to end.
    /// - Returns: the CRC-32 and size of the respelled XML, and whether any number changed.
    /// `whole`: `respell` sees the part whole, not a chunk at a time (a chart); `respell` gives the text
    /// respelled, or nil when nothing changes (``shortestNumbers(in:)`` by default).
    static func respellSheet(_ compressed: ArraySlice<UInt8>, into out: inout [UInt8], file: String, whole: Bool = false,
                             respell: (UnsafeBufferPointer<UInt8>) -> [UInt8]? = shortestNumbers(in:)) throws
        -> (crc: UInt32, size: Int, changed: Bool)
    {
        func failure(_ what: String, _ status: Int32) -> XLSXError {
            XLSXError.invalidArgument(file: file, reason: "cannot respell a sheet's numbers: ISA-L \(what) (status \(status))")
        }
        let inflater = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
        defer { inflater.deallocate() }
        isal_inflate_init(inflater)
        inflater.pointee.crc_flag = UInt32(ISAL_DEFLATE)
        let deflater = UnsafeMutablePointer<isal_zstream>.allocate(capacity: 1)
        defer { deflater.deallocate() }
        isal_deflate_init(deflater)
        let levelBuffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Int(compressed.count < 1 << 16 ? tally_isal_level2_buffer_min() : tally_isal_level2_buffer_default()),
            alignment: 16)
        defer { levelBuffer.deallocate() }
        deflater.pointee.level = 2
        deflater.pointee.level_buf = levelBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        deflater.pointee.level_buf_size = UInt32(levelBuffer.count)
        deflater.pointee.gzip_flag = UInt16(IGZIP_DEFLATE)
        deflater.pointee.flush = UInt16(NO_FLUSH)

        var crc = UInt32(crc32(0, nil, 0))
        var size = 0
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 1 << 18)

        /// Deflates `bytes` onto `out` (all of it; `finish` ends the stream).
        func emit(_ bytes: UnsafeBufferPointer<UInt8>, finish: Bool) throws {
            if !bytes.isEmpty {   // a nil buffer would make crc32 return its initial value
                crc = UInt32(crc32(uLong(crc), bytes.baseAddress, uInt(bytes.count)))
                size += bytes.count
            }
            deflater.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
            deflater.pointee.avail_in = UInt32(bytes.count)
            deflater.pointee.end_of_stream = finish ? 1 : 0
            while true {
                let status = buffer.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                    deflater.pointee.next_out = outBuf.baseAddress
                    deflater.pointee.avail_out = UInt32(outBuf.count)
                    return isal_deflate(deflater)
                }
                guard status == COMP_OK else { throw failure("deflate", status) }
                out += buffer[0..<(buffer.count - Int(deflater.pointee.avail_out))]
                let done = finish ? deflater.pointee.internal_state.state == ZSTATE_END : deflater.pointee.avail_in == 0
                if done { break }
            }
        }

        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        var source = Array(compressed)
        try source.withUnsafeMutableBufferPointer { inBuf in
            inflater.pointee.next_in = inBuf.baseAddress
            inflater.pointee.avail_in = UInt32(inBuf.count)
            var finished = false
            while !finished {
                var produced = 0
                let status = chunk.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                    inflater.pointee.next_out = outBuf.baseAddress
                    inflater.pointee.avail_out = UInt32(outBuf.count)
                    let result = isal_inflate(inflater)
                    produced = outBuf.count - Int(inflater.pointee.avail_out)
                    return result
                }
                guard status >= 0 else { throw failure("inflate", status) }
                finished = inflater.pointee.block_state == ISAL_BLOCK_FINISH
                guard produced > 0 || finished || inflater.pointee.avail_in > 0 else {
                    throw failure("inflate (truncated data)", status)
                }
                pending += chunk[0..<produced]
                let cut = finished ? pending.count : whole ? 0 : (pending.lastIndex(of: UInt8(ascii: "<")) ?? 0)
                guard cut > 0 else { continue }
                try pending.withUnsafeBufferPointer { text in
                    let part = UnsafeBufferPointer(rebasing: text[0..<cut])
                    if let respelled = respell(part) {
                        changed = true
                        try respelled.withUnsafeBufferPointer { try emit($0, finish: false) }
                    } else {
                        try emit(part, finish: false)
                    }
                }
                pending.removeFirst(cut)
            }
        }
        try emit(UnsafeBufferPointer(start: nil, count: 0), finish: true)
        return (crc, size, changed)
    }

    /// A chart part with its cached numbers respelled (``shortestNumbers(in:open:)`` of `<c:v>`) and each
    /// cache's `General` format replaced by its axis' format, when the axis has one of its own: the value
    /// caches take the value axis', numeric categories (dates) the category or date axis'; nil when
    /// nothing changes.
    ///
    /// `<c:val><c:numRef>…<c:numCache><c:formatCode>General</c:formatCode>…<c:v>728.9299999999999</c:v>`
    /// with `<c:valAx>…<c:numFmt formatCode="0.00" sourceLinked="0"/>` becomes
    /// `…<c:formatCode>0.00</c:formatCode>…<c:v>728.93</c:v>`.
    static func chartCaches(in xml: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var text = Array(xml)
        var changed = false
        let categoryFormat = axisFormat("catAx", in: text) ?? axisFormat("dateAx", in: text)
        for (element, code) in [("val", axisFormat("valAx", in: text)), ("cat", categoryFormat)] {
            guard let code, let replaced = formatCodes(in: text, within: element, code) else { continue }
            text = replaced
            changed = true
        }
        if let respelled = text.withUnsafeBufferPointer({ shortestNumbers(in: $0, open: Array("<c:v>".utf8)) }) {
            text = respelled
            changed = true
        }
        return changed ? text : nil
    }

    /// `xml` with every `<c:formatCode>General</c:formatCode>` inside `<c:element>` elements replaced
    /// by `code`, or nil when there is none.
    static func formatCodes(in xml: [UInt8], within element: String, _ code: [UInt8]) -> [UInt8]? {
        let general = Array("<c:formatCode>General</c:formatCode>".utf8)
        let replacement = Array("<c:formatCode>".utf8) + code + Array("</c:formatCode>".utf8)
        let open = Array("<c:\(element)>".utf8), close = Array("</c:\(element)>".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(xml.count)
        var i = 0
        var inside = false
        var changed = false
        while i < xml.count {
            if xml[i] == UInt8(ascii: "<") {
                if xml.starts(with: open, at: i) {
                    inside = true
                } else if xml.starts(with: close, at: i) {
                    inside = false
                } else if inside, xml.starts(with: general, at: i) {
                    result += replacement
                    i += general.count
                    changed = true
                    continue
                }
            }
            result.append(xml[i])
            i += 1
        }
        return changed ? result : nil
    }

    /// The number format of a chart's first `axis` element (`valAx`, `catAx`, `dateAx`): its
    /// `formatCode` attribute as escaped in the XML; nil when the axis has none of its own
    /// (`sourceLinked="1"`) or the chart no such axis.
    static func axisFormat(_ axis: String, in xml: [UInt8]) -> [UInt8]? {
        let open = Array("<c:\(axis)>".utf8), close = Array("</c:\(axis)>".utf8)
        let format = Array("<c:numFmt formatCode=\"".utf8)
        guard let openAt = xml.firstOffset(of: open, in: 0..<xml.count),
              let end = xml.firstOffset(of: close, in: (openAt + open.count)..<xml.count),
              let found = xml.firstOffset(of: format, in: (openAt + open.count)..<end) else { return nil }
        let codeStart = found + format.count
        guard let codeEnd = xml[codeStart..<end].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        guard !xml[codeEnd..<end].starts(with: Array("\" sourceLinked=\"1\"".utf8)) else { return nil }
        return Array(xml[codeStart..<codeEnd])
    }

    /// `xml` with the text of every `<v>` holding a decimal fraction replaced
    /// by its shortest round-trip form, or nil when no number's spelling changes.
    static func shortestNumbers(in xml: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        shortestNumbers(in: xml, open: Array("<v>".utf8))
    }

    /// ``shortestNumbers(in:)`` of the elements opened by `open` (`<v>`, a chart's `<c:v>`).
    static func shortestNumbers(in xml: UnsafeBufferPointer<UInt8>, open: [UInt8]) -> [UInt8]? {
        let close = UInt8(ascii: "<")
        var out: [UInt8] = []
        var copied = 0
        var i = 0
        while i + open.count <= xml.count {
            guard xml[i] == open[0], UnsafeBufferPointer(rebasing: xml[i..<(i + open.count)]).elementsEqual(open) else {
                i += 1
                continue
            }
            let start = i + open.count
            var end = start
            while end < xml.count, xml[end] != close { end += 1 }
            if let shorter = shortest(UnsafeBufferPointer(rebasing: xml[start..<end])) {
                if out.isEmpty { out.reserveCapacity(xml.count) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: xml[copied..<start]))
                out.append(contentsOf: shorter)
                copied = end
            }
            i = end
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: xml[copied..<xml.count]))
        return out
    }

    /// ``shortestNumbers(in:)`` of an array: the text itself when no spelling changes.
    static func shortestNumbers(in xml: [UInt8]) -> [UInt8] {
        xml.withUnsafeBufferPointer { shortestNumbers(in: $0) } ?? xml
    }

    /// The shortest spelling of a plain decimal (`-12.3400000000001`-like text), when it differs.
    static func shortest(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var points = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): continue
            default: return nil
            }
        }
        guard points == 1, text.count > 2 else { return nil }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        var spelled = Array(value.description.utf8)
        guard !spelled.contains(UInt8(ascii: "e")) else { return nil }
        // Swift writes whole numbers as `12.0`; Excel's own spelling is `12`.
        if spelled.count > 2, spelled[spelled.count - 2] == UInt8(ascii: "."), spelled.last == UInt8(ascii: "0") {
            spelled.removeLast(2)
        }
        return spelled.elementsEqual(text) ? nil : spelled
    }
}

extension Array where Element == UInt8 {
    /// Whether `prefix` starts at `offset`.
    func starts(with prefix: [UInt8], at offset: Int) -> Bool {
        guard offset + prefix.count <= count else { return false }
        return withUnsafeBufferPointer { bytes in
            prefix.withUnsafeBufferPointer { memcmp(bytes.baseAddress! + offset, $0.baseAddress!, prefix.count) == 0 }
        }
    }

    /// The offset of the first occurrence of `needle` wholly inside `range`, or nil (a byte search:
    /// a chart's XML holds its whole cache, which the generic collection search walks far more slowly).
    func firstOffset(of needle: [UInt8], in range: Range<Int>) -> Int? {
        guard !needle.isEmpty, range.count >= needle.count else { return nil }
        return withUnsafeBufferPointer { bytes in
            needle.withUnsafeBufferPointer { pattern in
                guard let base = bytes.baseAddress, let pattern = pattern.baseAddress else { return nil }
                let last = range.upperBound - needle.count
                var from = range.lowerBound
                while from <= last, let hit = memchr(base + from, Int32(pattern.pointee), last - from + 1) {
                    let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + at, pattern, needle.count) == 0 { return at }
                    from = at + 1
                }
                return nil
            }
        }
    }

    func u16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    func u32(_ offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }
    mutating func setU16(_ value: UInt16, at offset: Int) {
        self[offset] = UInt8(value & 0xFF); self[offset + 1] = UInt8(value >> 8)
    }
    mutating func setU32(_ value: UInt32, at offset: Int) {
        for k in 0..<4 { self[offset + k] = UInt8((value >> UInt32(8 * k)) & 0xFF) }
    }
}
