/// One headline figure of a run (`run.json` → `figures`): what a report
/// family says in a number a reader would compare with last month's, and
/// what the next run compares against (``RunChanges``).
///
/// A figure is named by its family, its name and the month it covers; the
/// KPIs also give last month's value of a monthly figure, as a figure of
/// that month. The value is an exact decimal as text, in `unit` (a currency
/// code, `%`, or empty for a count).
///
/// ```swift
/// RunFigure(family: "statements", name: "expenses", month: "2026-10", value: "222", dataset: "expenses")
/// RunFigure(family: "kpis", name: "MRR fisioflow", month: "2026-09", value: "8004.00", unit: "BRL")
/// ```
public struct RunFigure: Codable, Sendable, Equatable {
    public var family: String
    public var name: String
    /// The month the figure covers, `YYYY-MM`.
    public var month: String
    /// An exact decimal: `222`, `8612.66`, `8.7`.
    public var value: String
    /// A currency code, `%`, or empty for a count.
    public var unit: String
    /// The dataset whose rows dated in `month` the figure counts, when it is
    /// one: the volume a run watches (``RunChanges``).
    public var dataset: String?

    public init(family: String, name: String, month: String, value: String, unit: String = "", dataset: String? = nil) {
        self.family = family
        self.name = name
        self.month = month
        self.value = value
        self.unit = unit
        self.dataset = dataset
    }

    /// A count.
    public static func count(_ family: String, _ name: String, _ month: YearMonth, _ n: Int, dataset: String? = nil) -> RunFigure {
        RunFigure(family: family, name: name, month: month.description, value: "\(n)", dataset: dataset)
    }

    /// An amount of `currency` in minor units.
    public static func money(_ family: String, _ name: String, _ month: YearMonth, _ minor: Int64, _ currency: Currency) -> RunFigure {
        RunFigure(family: family, name: name, month: month.description, value: Money.plain(minor, currency), unit: currency.code)
    }

    /// A rate as a percentage with one decimal (exact on its parts), nil over zero.
    public static func rate(_ family: String, _ name: String, _ month: YearMonth, _ rate: KPIRate) -> RunFigure? {
        guard rate.denominator > 0 else { return nil }
        let tenths = Rounding.divideHalfAwayFromZero(Int128(rate.numerator) * 1_000, by: Int128(rate.denominator))
        return RunFigure(family: family, name: name, month: month.description,
                         value: Decimal10.format(Int64(tenths), scale: 1), unit: "%")
    }

    /// What names the figure across runs: family, name and month.
    public var identity: String { "\(family)\u{0}\(name)\u{0}\(month)" }

    /// The value as an exact decimal, nil when it is not one.
    public var decimal: Decimal10? { try? Decimal10.parse(value).get() }

    /// The value with its unit, as the terminal shows it: `222`, `8612.66 BRL`, `8.7%`.
    public var shown: String { unit.isEmpty ? value : (unit == "%" ? value + "%" : "\(value) \(unit)") }
}
