import TallyCore

/// Numbers as CSV reports write them.
public enum CSVNumber {
    /// `value` with at most `maxDecimals` decimals (rounded half away from
    /// zero) and no trailing zeros, so a measure keeps the precision its
    /// input had: 307.04 kcal stays `307.04`, 3.425 km stays `3.425`, a
    /// whole 307 is `307`, and a day sum of doubles (`0.1 + 0.2`) is
    /// written as the decimal sum of its parts (`0.3`).
    ///
    /// ```swift
    /// CSVNumber.trimmed(307.04)   // "307.04"
    /// CSVNumber.trimmed(3.4250000000000003)   // "3.425"
    /// CSVNumber.trimmed(12.0)   // "12"
    /// ```
    public static func trimmed(_ value: Double, maxDecimals: Int = 3) -> String {
        var text = ActivityScore.format(value, decimals: maxDecimals)
        guard maxDecimals > 0 else { return text }
        while text.last == "0" { text.removeLast() }
        if text.last == "." { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
