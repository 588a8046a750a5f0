import Foundation
import TallyCore
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#endif

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
/// The package is written again entry by entry, in the same order, with a
/// fixed modification date, so the same workbook gives the same bytes.
///
/// ```swift
/// try book.close()
/// try XLSXExactNumbers.rewrite(path: "out/c1.xlsx", date: period.firstDay)
/// ```
public enum XLSXExactNumbers {
    /// Rewrites the workbook at `path` in place (through a temporary file beside it).
    /// `date` is the entries' modification date (00:00 UTC).
    /// - Throws: ``XLSXError/invalidArgument(file:reason:)`` when the package cannot be read or written.
    public static func rewrite(path: String, date: LocalDate) throws {
        let url = URL(fileURLWithPath: path)
        // Named as a temporary file (``AtomicFile``), so a run killed meanwhile has it swept by the next.
        let rewritten = url.deletingLastPathComponent()
            .appendingPathComponent("." + url.lastPathComponent + ".exact" + AtomicFile.marker + "\(getpid())")
        try? FileManager.default.removeItem(at: rewritten)
        defer { try? FileManager.default.removeItem(at: rewritten) }
        let modified = Date(timeIntervalSince1970: TimeInterval(date.daysSinceEpoch * 86_400))
        do {
            let source = try Archive(url: url, accessMode: .read)
            let target = try Archive(url: rewritten, accessMode: .create)
            for entry in source {
                var data = Data()
                data.reserveCapacity(Int(entry.uncompressedSize))
                _ = try source.extract(entry, consumer: { data.append($0) })
                if entry.path.hasPrefix("xl/worksheets/sheet") && entry.path.hasSuffix(".xml") {
                    data = shortestNumbers(in: data)
                }
                let bytes = data
                try target.addEntry(with: entry.path, type: .file, uncompressedSize: Int64(bytes.count),
                                    modificationDate: modified, permissions: 0o644, compressionMethod: .deflate) { position, size in
                    bytes.subdata(in: Int(position)..<(Int(position) + size))
                }
            }
        } catch {
            throw XLSXError.invalidArgument(file: path, reason: "cannot rewrite the numbers of the package: \(error)")
        }
        guard rename(rewritten.path, path) == 0 else {
            throw XLSXError.invalidArgument(file: path, reason: "cannot move the rewritten package into place: \(String(cString: strerror(errno)))")
        }
    }

    /// `xml` with the text of every `<v>` holding a decimal fraction replaced by its shortest round-trip form.
    static func shortestNumbers(in xml: Data) -> Data {
        let open = Array("<v>".utf8), close = UInt8(ascii: "<")
        var out = Data()
        out.reserveCapacity(xml.count)
        xml.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var copied = 0
            var i = 0
            while i + open.count <= bytes.count {
                guard bytes[i] == open[0], bytes[i + 1] == open[1], bytes[i + 2] == open[2] else { i += 1; continue }
                let start = i + open.count
                var end = start
                while end < bytes.count, bytes[end] != close { end += 1 }
                if let shorter = shortest(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                    out.append(contentsOf: shorter)
                    copied = end
                }
                i = end
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
        }
        return out
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
        let written = String(decoding: text, as: UTF8.self)
        guard let value = Double(written), value.isFinite else { return nil }
        var spelled = Array(value.description.utf8)
        guard !spelled.contains(UInt8(ascii: "e")) else { return nil }
        // Swift writes whole numbers as `12.0`; Excel's own spelling is `12`.
        if spelled.count > 2, spelled[spelled.count - 2] == UInt8(ascii: "."), spelled.last == UInt8(ascii: "0") {
            spelled.removeLast(2)
        }
        return spelled.elementsEqual(text) ? nil : spelled
    }
}
