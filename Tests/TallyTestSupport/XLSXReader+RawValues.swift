import Foundation

extension XLSXReader {
    /// The text stored in a cell's `<v>` element, exactly as written (`936.43`),
    /// nil when the cell has none. For asserting what other readers will parse.
    public func rawValue(_ sheet: String, _ reference: String) throws -> String? {
        let xml = try sheetXML(sheet)
        guard let start = xml.range(of: "<c r=\"\(reference)\"") else { return nil }
        let rest = xml[start.upperBound...]
        guard let close = rest.range(of: "</c>"), let selfClosed = rest.range(of: "/>"),
              selfClosed.lowerBound > close.lowerBound || !rest[..<selfClosed.lowerBound].contains(">") else { return nil }
        let cell = rest[..<close.lowerBound]
        guard let open = cell.range(of: "<v>"), let end = cell.range(of: "</v>") else { return nil }
        return String(cell[open.upperBound..<end.lowerBound])
    }

    /// The `<definedName>`s of the workbook (print titles, print areas), by name and sheet.
    public func definedNames() throws -> [String] {
        let xml = try text("xl/workbook.xml")
        var names: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<definedName "), let end = rest.range(of: "</definedName>", range: open.upperBound..<rest.endIndex) {
            names.append(String(rest[open.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return names
    }
}
