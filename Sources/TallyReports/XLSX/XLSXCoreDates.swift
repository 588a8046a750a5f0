import Foundation
import TallyCore

/// Keeps a finished workbook's document dates at the date it was given
/// (``XLSXWorkbook/Options/created``), whatever else the process is doing.
///
/// libxlsxwriter spells `dcterms:created` and `dcterms:modified` in
/// `docProps/core.xml` through C's `gmtime`, whose result lives in one
/// buffer shared by every thread: a workbook closing on one thread while
/// another thread closes a workbook of another date can take the other's
/// date (September's statements workbook dated 2026-09-30, the
/// leaderboards' as-of day, when the two families close their workbooks
/// at once). So every ``XLSXWorkbook/close()`` reads the part back, its
/// entry alone (the end of the package, its central directory, the part),
/// and in the rare case a date is not the workbook's, rewrites the package
/// with that part corrected and deflated as libxlsxwriter deflates it, every
/// other entry copied as it is: the bytes the workbook has when no other
/// workbook closes beside it.
///
/// ```swift
/// let code = workbook_close(workbook)
/// try XLSXCoreDates.repair(path: "out/.c1.xlsx.tmp-42", created: LocalDate(year: 2026, month: 9, day: 1)!)
/// ```
enum XLSXCoreDates {
    /// The package's part holding the document dates.
    static let part = "docProps/core.xml"

    /// Sets both document dates of the package at `path` to `created` (00:00 UTC) when either differs.
    /// Returns whether the package was rewritten. A package this cannot read as a plain zip, or
    /// without the part, is left as it is.
    /// - Throws: ``XLSXError/invalidArgument(file:reason:)`` when the file cannot be read or written.
    @discardableResult
    static func repair(path: String, created: LocalDate) throws -> Bool {
        let url = URL(fileURLWithPath: path)
        let date = Array("\(created)T00:00:00Z".utf8)
        let package: Data
        do { package = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw XLSXError.invalidArgument(file: path, reason: "cannot read the workbook back to check its dates: \(error)")
        }
        guard let entry = coreEntry(package), entry.method == 8 else { return false }
        var scratch: [UInt8] = []
        let check = try XLSXExactNumbers.rezipped(ArraySlice(package[entry.data]), into: &scratch, file: path,
                                                  respell: { corrected($0, date: date) })
        guard check.changed else { return false }
        let fixed = try XLSXExactNumbers.rewritten(Array(package), file: path) { name in
            name == part ? .asWritten(respell: { corrected($0, date: date) }) : nil
        }
        guard let fixed else { return false }
        do { try Data(fixed).write(to: url) } catch {
            throw XLSXError.invalidArgument(file: path, reason: "cannot write the workbook with its dates corrected: \(error)")
        }
        return true
    }

    /// The core part's compression method and where its compressed bytes lie in `package`, read from
    /// the package's end record and central directory; nil when the package is not a plain zip or
    /// has no such part.
    static func coreEntry(_ package: Data) -> (method: UInt16, data: Range<Int>)? {
        let base = package.startIndex
        func bytes(_ range: Range<Int>) -> [UInt8]? {
            range.lowerBound >= 0 && range.upperBound <= package.count
                ? Array(package[(base + range.lowerBound)..<(base + range.upperBound)]) : nil
        }
        let tailStart = max(0, package.count - 22 - 0xFFFF)
        guard let tail = bytes(tailStart..<package.count), let endInTail = XLSXExactNumbers.endOfCentralDirectory(tail),
              tail.u16(endInTail + 4) == 0 else { return nil }
        let count = Int(tail.u16(endInTail + 10))
        let centralSize = Int(tail.u32(endInTail + 12)), centralOffset = Int(tail.u32(endInTail + 16))
        guard count != 0xFFFF, centralOffset != 0xFFFF_FFFF,
              let central = bytes(centralOffset..<(centralOffset + centralSize)) else { return nil }
        let wanted = Array(part.utf8)
        var record = 0
        for _ in 0..<count {
            guard record + 46 <= central.count, central.u32(record) == 0x0201_4B50 else { return nil }
            let nameLength = Int(central.u16(record + 28))
            let next = record + 46 + nameLength + Int(central.u16(record + 30)) + Int(central.u16(record + 32))
            guard next <= central.count else { return nil }
            if central[(record + 46)..<(record + 46 + nameLength)].elementsEqual(wanted) {
                let local = Int(central.u32(record + 42)), compressedSize = Int(central.u32(record + 20))
                guard central.u16(record + 8) & 0x0001 == 0, compressedSize != 0xFFFF_FFFF,
                      let header = bytes(local..<(local + 30)), header.u32(0) == 0x0403_4B50 else { return nil }
                let start = local + 30 + Int(header.u16(26)) + Int(header.u16(28))
                guard start + compressedSize <= package.count else { return nil }
                return (central.u16(record + 10), (base + start)..<(base + start + compressedSize))
            }
            record = next
        }
        return nil
    }

    /// `xml` (a core properties part) with the text of its `dcterms:created` and `dcterms:modified`
    /// elements set to `date`, or nil when both already hold it (or the part has neither).
    static func corrected(_ xml: UnsafeBufferPointer<UInt8>, date: [UInt8]) -> [UInt8]? {
        var text = Array(xml)
        var changed = false
        for element in ["dcterms:created", "dcterms:modified"] {
            let open = Array("<\(element)".utf8), close = Array("</\(element)>".utf8)
            guard let openAt = text.firstOffset(of: open, in: 0..<text.count),
                  let valueStart = text[openAt...].firstIndex(of: UInt8(ascii: ">")).map({ $0 + 1 }),
                  let valueEnd = text.firstOffset(of: close, in: valueStart..<text.count) else { continue }
            guard !text[valueStart..<valueEnd].elementsEqual(date) else { continue }
            text.replaceSubrange(valueStart..<valueEnd, with: date)
            changed = true
        }
        return changed ? text : nil
    }
}
