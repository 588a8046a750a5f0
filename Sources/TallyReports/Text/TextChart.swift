/// Text charts for terminals and `.txt` reports: horizontal bars with labels
/// and values, and sparklines. Widths are display widths (``DisplayWidth``),
/// so labels with accents, emoji, flags and CJK names line up.
public enum TextChart {
    /// One bar of a bar chart.
    public struct Bar: Sendable {
        public var label: String
        public var value: Double
        /// The value as shown at the end of the bar.
        public var shown: String

        public init(label: String, value: Double, shown: String) {
            self.label = label
            self.value = value
            self.shown = shown
        }
    }

    /// Horizontal bars scaled to the largest absolute value, `width` cells at most.
    /// Negative values draw with `░` so refunds stand out.
    public static func bars(_ bars: [Bar], width: Int = 30) -> [String] {
        guard !bars.isEmpty else { return [] }
        let labelWidth = min(bars.map { DisplayWidth.of($0.label) }.max() ?? 0, 28)
        let valueWidth = bars.map { DisplayWidth.of($0.shown) }.max() ?? 0
        let largest = bars.map { abs($0.value) }.max() ?? 0
        return bars.map { bar in
            var line = TextBuffer(capacity: 128)
            let label = truncate(bar.label, labelWidth)
            line.append(label)
            line.append(spaces: labelWidth - DisplayWidth.of(label))
            line.append(" │")
            let cells = largest > 0 ? Int((abs(bar.value) / largest * Double(width)).rounded()) : 0
            let drawn = max(cells, bar.value != 0 ? 1 : 0)
            line.append(run: bar.value < 0 ? "░" : "█", count: drawn)
            line.append(spaces: width - drawn)
            line.append(" ")
            line.append(spaces: valueWidth - DisplayWidth.of(bar.shown))
            line.append(bar.shown)
            return line.text
        }
    }

    /// A one-line sparkline of `values` with the eight block heights (▁ to █).
    /// All-equal values draw as a flat middle line, all zeros (or less) as the lowest
    /// line, so a dead series never looks like steady activity; an empty series is empty.
    public static func sparkline(_ values: [Double]) -> String {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        guard let low = values.min(), let high = values.max() else { return "" }
        guard high > low else { return String(repeating: blocks[high > 0 ? 3 : 0], count: values.count) }
        return String(values.map { value in
            let index = Int(((value - low) / (high - low) * 7).rounded())
            return blocks[min(max(index, 0), 7)]
        })
    }

    /// A sparkline on a fixed scale: `range.lowerBound` draws `▁`, `range.upperBound` `█`,
    /// so lines for different series compare.
    public static func sparkline(_ values: [Double], range: ClosedRange<Double>) -> String {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let span = range.upperBound - range.lowerBound
        return String(values.map { value in
            let fraction = span > 0 ? (min(max(value, range.lowerBound), range.upperBound) - range.lowerBound) / span : 0
            return blocks[min(max(Int((fraction * 7).rounded()), 0), 7)]
        })
    }

    /// A sparkline on a fixed scale where nil (a day without data) draws as the gap mark `·`,
    /// never as a low value.
    public static func sparkline(_ values: [Double?], range: ClosedRange<Double>) -> String {
        String(values.map { value in value.map { Character(sparkline([$0], range: range)) } ?? gap })
    }

    /// What a sparkline draws for a missing value.
    public static let gap: Character = "·"

    /// A histogram of `values` in `bins` equal bins over `range` (values
    /// outside it go to the first or last bin; the last bin includes its upper
    /// bound), one bar per bin labelled `low–high` with its count.
    public static func histogram(_ values: [Double], bins: Int, range: ClosedRange<Double>, width: Int = 30) -> [String] {
        guard bins > 0, range.upperBound > range.lowerBound else { return [] }
        var counts = [Int](repeating: 0, count: bins)
        let size = (range.upperBound - range.lowerBound) / Double(bins)
        for value in values {
            let index = Int(((value - range.lowerBound) / size).rounded(.down))
            counts[min(max(index, 0), bins - 1)] += 1
        }
        func edge(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        return bars((0..<bins).map { i in
            let low = range.lowerBound + Double(i) * size
            return Bar(label: "\(edge(low))–\(edge(low + size))", value: Double(counts[i]), shown: String(counts[i]))
        }, width: width)
    }

    /// `text` padded with spaces on the right to `width` display columns.
    public static func pad(_ text: String, _ width: Int) -> String { DisplayWidth.pad(text, to: width) }

    /// `text` padded with spaces on the left to `width` display columns.
    public static func padLeft(_ text: String, _ width: Int) -> String { DisplayWidth.padLeft(text, to: width) }

    /// `text` cut to `width` display columns, ending in `…` when cut.
    public static func truncate(_ text: String, _ width: Int) -> String { DisplayWidth.truncate(text, to: width) }
}
