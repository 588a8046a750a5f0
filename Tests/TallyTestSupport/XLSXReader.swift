import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ZIPFoundation

/// A small XLSX reader for tests: opens the zip with ZIPFoundation and parses
/// the parts tests look at with Foundation's `XMLParser`: sheet names, cell
/// values (shared and inline strings, numbers, booleans), cell number formats,
/// and chart parts.
public final class XLSXReader {
    /// A cell's value as stored.
    public enum Cell: Equatable, CustomStringConvertible {
        case string(String)
        case number(Double)
        case bool(Bool)

        public var description: String {
            switch self {
            case .string(let s): return "\"\(s)\""
            case .number(let n): return "\(n)"
            case .bool(let b): return "\(b)"
            }
        }

        public var string: String? { if case .string(let s) = self { return s } else { return nil } }
        public var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    }

    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
    }

    private let archive: Archive
    /// Sheet names in workbook order.
    public let sheetNames: [String]
    private let sheetPaths: [String: String]
    private let sharedStrings: [String]
    private let styleFormats: [String]
    /// The indent level of each cell format, by style index.
    private let styleIndents: [Int]
    private var parsedSheets: [String: (values: [String: Cell], styles: [String: Int])] = [:]

    public init(url: URL) throws {
        archive = try Archive(url: url, accessMode: .read)
        let workbook = try XMLNode.parse(Self.data(archive, "xl/workbook.xml"))
        let rels = try XMLNode.parse(Self.data(archive, "xl/_rels/workbook.xml.rels"))
        var targets: [String: String] = [:]
        for rel in rels.descendants("Relationship") {
            targets[rel.attributes["Id"] ?? ""] = rel.attributes["Target"]
        }
        var names: [String] = []
        var paths: [String: String] = [:]
        for sheet in workbook.descendants("sheet") {
            let name = sheet.attributes["name"] ?? ""
            names.append(name)
            if let target = targets[sheet.attributes["r:id"] ?? ""] {
                paths[name] = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
            }
        }
        sheetNames = names
        sheetPaths = paths
        if archive["xl/sharedStrings.xml"] != nil {
            let shared = try XMLNode.parse(Self.data(archive, "xl/sharedStrings.xml"))
            sharedStrings = shared.children.filter { $0.name == "si" }.map { $0.descendants("t").map(\.text).joined() }
        } else {
            sharedStrings = []
        }
        let styles = try XMLNode.parse(Self.data(archive, "xl/styles.xml"))
        var custom: [Int: String] = [:]
        for format in styles.descendants("numFmt") {
            if let id = Int(format.attributes["numFmtId"] ?? ""), let code = format.attributes["formatCode"] { custom[id] = code }
        }
        let builtIn: [Int: String] = [0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 14: "m/d/yyyy"]
        styleFormats = (styles.descendants("cellXfs").first?.children.filter { $0.name == "xf" } ?? []).map { xf in
            let id = Int(xf.attributes["numFmtId"] ?? "0") ?? 0
            return custom[id] ?? builtIn[id] ?? "builtin:\(id)"
        }
        styleIndents = (styles.descendants("cellXfs").first?.children.filter { $0.name == "xf" } ?? []).map { xf in
            Int(xf.children.first { $0.name == "alignment" }?.attributes["indent"] ?? "0") ?? 0
        }
    }

    public convenience init(path: String) throws { try self.init(url: URL(fileURLWithPath: path)) }

    /// The bytes of any part of the package (`docProps/core.xml`).
    public func data(_ path: String) throws -> Data { try Self.data(archive, path) }

    /// The text of any part of the package.
    public func text(_ path: String) throws -> String { String(decoding: try data(path), as: UTF8.self) }

    /// Every part's path, in zip order.
    public var entryPaths: [String] { archive.map(\.path) }

    /// The chart parts (`xl/charts/chart1.xml`, …).
    public var chartPaths: [String] {
        entryPaths.filter { $0.hasPrefix("xl/charts/chart") && $0.hasSuffix(".xml") }.sorted()
    }

    /// The chart parts drawn on `sheet` (through its drawing).
    public func chartPaths(onSheet sheet: String) throws -> [String] {
        guard let sheetPath = sheetPaths[sheet] else { throw ReadError(description: "no sheet '\(sheet)'") }
        var charts: [String] = []
        for drawing in try relatedParts(of: sheetPath) where drawing.contains("/drawings/") {
            charts += try relatedParts(of: drawing).filter { $0.contains("/charts/") }
        }
        return charts.sorted()
    }

    /// The drawing parts of `sheet` (`xl/drawings/drawing1.xml`).
    public func drawingPaths(onSheet sheet: String) throws -> [String] {
        guard let sheetPath = sheetPaths[sheet] else { throw ReadError(description: "no sheet '\(sheet)'") }
        return try relatedParts(of: sheetPath).filter { $0.contains("/drawings/") }.sorted()
    }

    /// The raw XML of a sheet.
    public func sheetXML(_ sheet: String) throws -> String {
        guard let path = sheetPaths[sheet] else { throw ReadError(description: "no sheet '\(sheet)'") }
        return try text(path)
    }

    /// The value of the cell at an A1 reference (`B3`), nil when empty.
    public func cell(_ sheet: String, _ reference: String) throws -> Cell? {
        try parsed(sheet).values[reference]
    }

    /// The number format code of the cell at `reference` (`General` when it has none).
    public func numberFormat(_ sheet: String, _ reference: String) throws -> String? {
        guard let style = try parsed(sheet).styles[reference] else { return "General" }
        return style < styleFormats.count ? styleFormats[style] : nil
    }

    /// The indent level of the cell at `reference` (0 when it has none).
    public func indent(_ sheet: String, _ reference: String) throws -> Int {
        guard let style = try parsed(sheet).styles[reference], style < styleIndents.count else { return 0 }
        return styleIndents[style]
    }

    /// The values of a 1-based row from column A to the last non-empty cell.
    public func row(_ sheet: String, _ row: Int) throws -> [Cell?] {
        let values = try parsed(sheet).values
        var cells: [Cell?] = []
        var lastFilled = -1
        for column in 0..<64 {
            let cell = values[Self.columnName(column) + String(row)]
            cells.append(cell)
            if cell != nil { lastFilled = column }
        }
        return Array(cells.prefix(lastFilled + 1))
    }

    /// The strings of a row (nil for non-string or empty cells).
    public func strings(_ sheet: String, _ rowNumber: Int) throws -> [String?] {
        try row(sheet, rowNumber).map { $0?.string }
    }

    /// The number of rows that hold at least one value.
    public func rowCount(_ sheet: String) throws -> Int {
        Set(try parsed(sheet).values.keys.map { $0.drop(while: { $0.isLetter }) }).count
    }

    public static func columnName(_ column: Int) -> String {
        var name = ""
        var n = column + 1
        while n > 0 {
            let rem = (n - 1) % 26
            name = String(UnicodeScalar(UInt8(65 + rem))) + name
            n = (n - 1) / 26
        }
        return name
    }

    private func parsed(_ sheet: String) throws -> (values: [String: Cell], styles: [String: Int]) {
        if let cached = parsedSheets[sheet] { return cached }
        guard let path = sheetPaths[sheet] else { throw ReadError(description: "no sheet '\(sheet)'") }
        let root = try XMLNode.parse(data(path))
        var values: [String: Cell] = [:]
        var styles: [String: Int] = [:]
        for c in root.descendants("c") {
            guard let reference = c.attributes["r"] else { continue }
            if let s = c.attributes["s"], let index = Int(s) { styles[reference] = index }
            let v = c.children.first { $0.name == "v" }?.text
            switch c.attributes["t"] {
            case "s":
                if let v, let index = Int(v), index < sharedStrings.count { values[reference] = .string(sharedStrings[index]) }
            case "inlineStr":
                values[reference] = .string(c.descendants("t").map(\.text).joined())
            case "str":
                if let v { values[reference] = .string(v) }
            case "b":
                if let v { values[reference] = .bool(v == "1") }
            default:
                if let v, let number = Double(v) { values[reference] = .number(number) }
            }
        }
        parsedSheets[sheet] = (values, styles)
        return (values, styles)
    }

    /// The parts a part's relationships point to, as package paths.
    private func relatedParts(of part: String) throws -> [String] {
        let folder = (part as NSString).deletingLastPathComponent
        let file = (part as NSString).lastPathComponent
        let relsPath = folder + "/_rels/" + file + ".rels"
        guard archive[relsPath] != nil else { return [] }
        let rels = try XMLNode.parse(data(relsPath))
        return rels.descendants("Relationship").compactMap { $0.attributes["Target"] }.map { target in
            var parts = folder.split(separator: "/").map(String.init)
            for piece in target.split(separator: "/") {
                if piece == ".." { parts.removeLast() } else { parts.append(String(piece)) }
            }
            return parts.joined(separator: "/")
        }
    }

    private static func data(_ archive: Archive, _ path: String) throws -> Data {
        guard let entry = archive[path] else { throw ReadError(description: "no part '\(path)' in the package") }
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        // Checked here too: ZIPFoundation lets a stored CRC of 0 pass.
        guard data.crc32(checksum: 0) == entry.checksum else {
            throw ReadError(description: "part '\(path)': its CRC-32 does not match its data")
        }
        return data
    }
}

/// A parsed XML element: local name (prefix dropped), attributes (qualified names kept), children, text.
public final class XMLNode {
    public let name: String
    public let attributes: [String: String]
    public var children: [XMLNode] = []
    public var text = ""

    public init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Every element below this one named `name`, in document order.
    public func descendants(_ name: String) -> [XMLNode] {
        var found: [XMLNode] = []
        for child in children {
            if child.name == name { found.append(child) }
            found += child.descendants(name)
        }
        return found
    }

    public static func parse(_ data: Data) throws -> XMLNode {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw XLSXReader.ReadError(description: "XML parse error: \(parser.parserError.map { "\($0)" } ?? "no root")")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLNode] = []
        var root: XMLNode?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let node = XMLNode(name: local, attributes: attributes)
            if let parent = stack.last { parent.children.append(node) } else { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
