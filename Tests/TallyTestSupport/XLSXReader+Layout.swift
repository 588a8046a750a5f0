import Foundation

/// Read-back of what a workbook shows beyond cell values: charts (axes,
/// titles, caches), print setup, defined names, links and conditional formats.
extension XLSXReader {
    /// One chart axis as written.
    public struct Axis: Equatable {
        /// `catAx`, `valAx` or `dateAx`.
        public var kind: String
        /// `minMax`, or `maxMin` when reversed.
        public var orientation: String
        public var title: String
        /// The axis' number format code, nil when linked to the source.
        public var numberFormat: String?
        public var minimum: Double?
        public var maximum: Double?
    }

    /// One series' cached points: categories and values (nil for a point left out, a gap).
    public struct SeriesCache: Equatable {
        public var categories: [String?]
        public var values: [Double?]
        /// Whether the categories are cached as text (`c:strCache`).
        public var textCategories: Bool
    }

    /// A point of a drawing anchor: a cell's column and row (0-based) and the offsets into it (EMU).
    public struct AnchorPoint: Equatable {
        public var column: Int
        public var columnOffset: Int
        public var row: Int
        public var rowOffset: Int
    }

    /// A drawing object's anchor on its sheet (`xdr:twoCellAnchor`): the cell points of its top-left and
    /// bottom-right corners.
    public struct Anchor: Equatable {
        public var from: AnchorPoint
        public var to: AnchorPoint

        /// Whether the two rectangles share any area (touching edges do not count): a (cell, offset)
        /// pair is a position along its axis, compared cell first.
        public func intersects(_ other: Anchor) -> Bool {
            func before(_ a: (Int, Int), _ b: (Int, Int)) -> Bool { a < b }
            let across = before((from.column, from.columnOffset), (other.to.column, other.to.columnOffset))
                && before((other.from.column, other.from.columnOffset), (to.column, to.columnOffset))
            let down = before((from.row, from.rowOffset), (other.to.row, other.to.rowOffset))
                && before((other.from.row, other.from.rowOffset), (to.row, to.rowOffset))
            return across && down
        }
    }

    /// The anchors of the objects (charts) drawn on `sheet`, in the drawing's order.
    public func anchors(onSheet sheet: String) throws -> [Anchor] {
        var anchors: [Anchor] = []
        for drawing in try drawingPaths(onSheet: sheet) {
            let root = try XMLNode.parse(data(drawing))
            for anchor in root.descendants("twoCellAnchor") {
                func point(_ name: String) -> AnchorPoint? {
                    guard let node = anchor.children.first(where: { $0.name == name }) else { return nil }
                    func value(_ child: String) -> Int? {
                        node.children.first { $0.name == child }.flatMap { Int($0.text) }
                    }
                    guard let column = value("col"), let columnOffset = value("colOff"), let row = value("row"),
                          let rowOffset = value("rowOff") else { return nil }
                    return AnchorPoint(column: column, columnOffset: columnOffset, row: row, rowOffset: rowOffset)
                }
                guard let from = point("from"), let to = point("to") else {
                    throw ReadError(description: "\(drawing): an anchor without its from and to cells")
                }
                anchors.append(Anchor(from: from, to: to))
            }
        }
        return anchors
    }

    /// The axes of the chart part at `path`.
    public func axes(ofChart path: String) throws -> [Axis] {
        let root = try XMLNode.parse(data(path))
        var axes: [Axis] = []
        for kind in ["catAx", "valAx", "dateAx"] {
            for node in root.descendants("" + kind) {
                let scaling = node.children.first { $0.name == "scaling" }
                let format = node.children.first { $0.name == "numFmt" }
                axes.append(Axis(kind: kind,
                                 orientation: scaling?.descendants("orientation").first?.attributes["val"] ?? "minMax",
                                 title: node.children.first { $0.name == "title" }?.descendants("t").map(\.text).joined() ?? "",
                                 numberFormat: format?.attributes["sourceLinked"] == "1" ? nil : format?.attributes["formatCode"],
                                 minimum: scaling?.descendants("min").first?.attributes["val"].flatMap(Double.init),
                                 maximum: scaling?.descendants("max").first?.attributes["val"].flatMap(Double.init)))
            }
        }
        return axes
    }

    /// The chart's title text.
    public func title(ofChart path: String) throws -> String {
        let root = try XMLNode.parse(data(path))
        guard let chart = root.descendants("chart").first,
              let title = chart.children.first(where: { $0.name == "title" }) else { return "" }
        return title.descendants("t").map(\.text).joined()
    }

    /// The cached points of each series of the chart at `path` (empty lists when a series has no cache).
    public func seriesCaches(ofChart path: String) throws -> [SeriesCache] {
        let root = try XMLNode.parse(data(path))
        return root.descendants("ser").map { series in
            let cat = series.children.first { $0.name == "cat" }
            let strCache = cat?.descendants("strCache").first
            let catCache = strCache ?? cat?.descendants("numCache").first
            let valCache = series.children.first { $0.name == "val" }?.descendants("numCache").first
            return SeriesCache(categories: Self.points(catCache).map { $0 }, values: Self.points(valCache).map { $0.flatMap(Double.init) },
                               textCategories: strCache != nil)
        }
    }

    /// The `c:pt` values of a cache, by index up to `c:ptCount` (nil where a point is left out).
    private static func points(_ cache: XMLNode?) -> [String?] {
        guard let cache else { return [] }
        let count = cache.descendants("ptCount").first?.attributes["val"].flatMap(Int.init) ?? 0
        var values = [String?](repeating: nil, count: count)
        for point in cache.descendants("pt") {
            if let index = point.attributes["idx"].flatMap(Int.init), index < count {
                values[index] = point.descendants("v").first?.text
            }
        }
        return values
    }

    /// The attributes of the first element named `element` in the sheet's XML (`pageSetup`, `pageSetUpPr`), nil when absent.
    public func sheetElement(_ sheet: String, _ element: String) throws -> [String: String]? {
        try XMLNode.parse(Data(sheetXML(sheet).utf8)).descendants(element).first?.attributes
    }

    /// The rows that start a new printed page by a manual break (0-based).
    public func rowBreaks(_ sheet: String) throws -> [Int] {
        try XMLNode.parse(Data(sheetXML(sheet).utf8)).descendants("brk").compactMap { $0.attributes["id"].flatMap(Int.init) }
    }

    /// The workbook's defined names: name, the sheet index it belongs to, and its formula.
    public func definedNames() throws -> [(name: String, sheet: Int?, formula: String)] {
        try XMLNode.parse(data("xl/workbook.xml")).descendants("definedName").map {
            ($0.attributes["name"] ?? "", $0.attributes["localSheetId"].flatMap(Int.init), $0.text)
        }
    }

    /// The internal links of a sheet: cell reference → target (`'Sheet'!A1`).
    public func links(_ sheet: String) throws -> [String: String] {
        var links: [String: String] = [:]
        for link in try XMLNode.parse(Data(sheetXML(sheet).utf8)).descendants("hyperlink") {
            if let ref = link.attributes["ref"], let location = link.attributes["location"] { links[ref] = location }
        }
        return links
    }

    /// The conditional formatting rules of a sheet: the range and each rule's type.
    public func conditionalFormats(_ sheet: String) throws -> [(range: String, types: [String])] {
        try XMLNode.parse(Data(sheetXML(sheet).utf8)).descendants("conditionalFormatting").map { node in
            (node.attributes["sqref"] ?? "", node.descendants("cfRule").compactMap { $0.attributes["type"] })
        }
    }

    /// The stored text of a cell's value (`<v>`), e.g. `1234.56`, to check numbers are written exactly.
    public func rawValue(_ sheet: String, _ reference: String) throws -> String? {
        try XMLNode.parse(Data(sheetXML(sheet).utf8)).descendants("c")
            .first { $0.attributes["r"] == reference }?.children.first { $0.name == "v" }?.text
    }

    /// Whether a cell is right-aligned by its style.
    public func isRightAligned(_ sheet: String, _ reference: String) throws -> Bool {
        try horizontalAlignment(sheet, reference) == "right"
    }

    /// A cell's horizontal alignment by its style (`left`, `center`, `right`), nil when it has none.
    public func horizontalAlignment(_ sheet: String, _ reference: String) throws -> String? {
        guard let style = try XMLNode.parse(Data(sheetXML(sheet).utf8)).descendants("c")
            .first(where: { $0.attributes["r"] == reference })?.attributes["s"].flatMap(Int.init) else { return nil }
        let xfs = try XMLNode.parse(data("xl/styles.xml")).descendants("cellXfs").first?.children.filter { $0.name == "xf" } ?? []
        guard style < xfs.count else { return nil }
        return xfs[style].descendants("alignment").first?.attributes["horizontal"]
    }

    /// The stored width of each column that has one (0-based column → width in characters of
    /// Excel's unit, the width of a digit of the default font, padding included).
    public func columnWidths(_ sheet: String) throws -> [Int: Double] {
        var widths: [Int: Double] = [:]
        for col in try XMLNode.parse(Data(sheetXML(sheet).utf8)).descendants("col") {
            guard let min = col.attributes["min"].flatMap(Int.init), let max = col.attributes["max"].flatMap(Int.init),
                  let width = col.attributes["width"].flatMap(Double.init) else { continue }
            for column in min...max { widths[column - 1] = width }
        }
        return widths
    }

    /// The paper size of a sheet (`9` A4, `1` US Letter), nil when left to the printer.
    public func paperSize(_ sheet: String) throws -> Int? {
        try sheetElement(sheet, "pageSetup")?["paperSize"].flatMap(Int.init)
    }

    /// The scale (percent) a sheet prints at: its `scale`, or under fit to one page wide the
    /// scale that fits its columns (A to the last written or sized column) into the printable
    /// width: the paper's width (its long side in landscape) less the side margins, at 96
    /// pixels an inch, against the columns' widths at 7 pixels a character (Calibri 11's digit,
    /// Excel's unit; 8.43 for a column without a width). Never above 100.
    public func printScale(_ sheet: String) throws -> Int {
        let setup = try sheetElement(sheet, "pageSetup") ?? [:]
        let fits = try sheetElement(sheet, "pageSetUpPr")?["fitToPage"] == "1"
        guard fits, (setup["fitToWidth"].flatMap(Int.init) ?? 1) >= 1 else {
            return setup["scale"].flatMap(Int.init) ?? 100
        }
        let paper: (width: Double, height: Double) = setup["paperSize"] == "9" ? (8.27, 11.69) : (8.5, 11)
        let across = setup["orientation"] == "landscape" ? paper.height : paper.width
        let margins = try sheetElement(sheet, "pageMargins") ?? [:]
        let printable = (across - (margins["left"].flatMap(Double.init) ?? 0.7) - (margins["right"].flatMap(Double.init) ?? 0.7)) * 96
        let widths = try columnWidths(sheet)
        let lastUsed = try lastColumn(sheet)
        let content = (0...max(lastUsed, widths.keys.max() ?? 0)).map { (widths[$0] ?? 8.43) * 7 }.reduce(0, +)
        return min(100, Int((printable / content * 100).rounded(.down)))
    }

    /// The last column (0-based) of the sheet's used range, from its `dimension`.
    public func lastColumn(_ sheet: String) throws -> Int {
        let ref = try sheetElement(sheet, "dimension")?["ref"] ?? "A1"
        let last = ref.split(separator: ":").last.map(String.init) ?? ref
        var column = 0
        for scalar in last.unicodeScalars where ("A"..."Z").contains(scalar) { column = column * 26 + Int(scalar.value) - 64 }
        return column - 1
    }
}
