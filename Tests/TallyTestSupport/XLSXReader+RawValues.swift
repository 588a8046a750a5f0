import Foundation

extension XLSXReader {
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
