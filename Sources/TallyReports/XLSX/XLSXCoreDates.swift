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

    /// The core part's compression method and where its compressed bytes lie in `package` (its
    /// directory read in place, ``ZipDirectory``); nil when the package is not a plain zip or
    /// has no such part.
    static func coreEntry(_ package: Data) -> (method: UInt16, data: Range<Int>)? {
        let base = package.startIndex
        let directory = ZipDirectory(count: package.count) { Array(package[(base + $0.lowerBound)..<(base + $0.upperBound)]) }
        guard let entry = directory?.entries.first(where: { $0.name == part }) else { return nil }
        return (entry.method, (base + entry.data.lowerBound)..<(base + entry.data.upperBound))
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
