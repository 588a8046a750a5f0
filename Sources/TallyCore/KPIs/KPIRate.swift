/// A rate that always shows its parts: numerator over denominator, with
/// the window it was measured over. A rate over zero has no value.
public struct KPIRate: Sendable, Equatable {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, of denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The fraction, or nil when the denominator is zero.
    public var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }

    /// The fraction with 4 decimals (`0.1532`), empty over zero: the CSV form.
    ///
    /// Rounded half away from zero on exact integers (no binary floating point).
    public var csv: String {
        guard denominator > 0 else { return "" }
        let scaled = Rounding.divideHalfAwayFromZero(Int128(numerator) * 10_000, by: Int128(denominator))
        return Decimal10.format(Int64(scaled), scale: 4)
    }

    /// As a percentage with one decimal (`15.3%`), `—` over zero: the text form.
    public var percent: String {
        guard denominator > 0 else { return "—" }
        let scaled = Rounding.divideHalfAwayFromZero(Int128(numerator) * 1_000, by: Int128(denominator))
        return Decimal10.format(Int64(scaled), scale: 1) + "%"
    }

    /// The change from `earlier` to `self` in tenths of a percentage point,
    /// exact on the parts and rounded half away from zero; nil when either
    /// rate is over zero. 13/29 (44.8%) against 7/31 (22.6%) is 222 (+22.2 pp).
    public func pointChange(from earlier: KPIRate) -> Int64? {
        guard denominator > 0, earlier.denominator > 0 else { return nil }
        let difference = Int128(numerator) * Int128(earlier.denominator) - Int128(earlier.numerator) * Int128(denominator)
        return Int64(Rounding.divideHalfAwayFromZero(difference * 1_000, by: Int128(denominator) * Int128(earlier.denominator)))
    }

    /// A change in tenths of a percentage point as text with its sign: `+22.2 pp`, `-3.0 pp`, `0.0 pp`.
    public static func points(_ tenths: Int64) -> String {
        (tenths > 0 ? "+" : "") + Decimal10.format(tenths, scale: 1) + " pp"
    }
}

/// Where a figure stands against its target.
public enum TargetStatus: String, Sendable {
    case below, within, above
    /// A cohort still inside its window: not judged yet (its rate may still change).
    case pending
    /// No figure (a rate over zero).
    case unknown = ""

    /// `value` against the range `min...max` (either bound may be absent);
    /// `.pending` when the figure's window is still open (`complete` false).
    public static func of(_ value: Double?, min: Double?, max: Double? = nil, complete: Bool = true) -> TargetStatus {
        guard complete else { return .pending }
        guard let value else { return .unknown }
        if let min, value < min { return .below }
        if let max, value > max { return .above }
        return .within
    }
}
