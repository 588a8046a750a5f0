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
}

/// Where a figure stands against its target.
public enum TargetStatus: String, Sendable {
    case below, within, above
    /// No figure (a rate over zero).
    case unknown = ""

    /// `value` against the range `min...max` (either bound may be absent).
    public static func of(_ value: Double?, min: Double?, max: Double? = nil) -> TargetStatus {
        guard let value else { return .unknown }
        if let min, value < min { return .below }
        if let max, value > max { return .above }
        return .within
    }
}
