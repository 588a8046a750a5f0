/// What moved since the last published run, what it published that now
/// reads differently, and what looks wrong before anyone opens a report:
/// `run.json` → `changes` and the terminal summary's `changes` lines.
///
/// The rule compares this run's figures (``RunFigure``) with those of the
/// previous run published from the same warehouse:
///
/// - **moved**: a figure of this period whose value differs from the same
///   figure of the previous run's period, when that period is earlier (last
///   month's run, as a rule): `statements couples 20 (+1)`.
/// - **restated**: a figure of a month the previous run also gave (its own
///   period, or last month's value the KPIs give) whose value differs now:
///   late or edited rows changed a month already published.
/// - **flags**: a dataset with no rows dated in the period (a missing
///   export, or one older than the period), and a dataset whose rows dated in
///   the period moved by more than ``Thresholds/volumeChange`` against the
///   month before (this run's own figure of that month when it gives one,
///   else the previous run's), when either side has at least
///   ``Thresholds/minimumRows``.
///
/// Empty when there is nothing to say; without a previous run, only the
/// flags this run's figures raise on their own.
///
/// ```swift
/// let changes = RunChanges.between(figures, period: YearMonth("2026-10")!,
///                                  previous: (YearMonth("2026-09")!, lastFigures), thresholds: .init())
/// changes.flags.first?.message
/// // "swipes: 1888 rows dated in 2026-10 against 4102 in 2026-09 (-54.0%, beyond ±50%)"
/// ```
public struct RunChanges: Codable, Sendable, Equatable {
    /// The period of the run compared against, nil without one.
    public var against: String?
    public var moved: [Moved]
    public var restated: [Restated]
    public var flags: [Flag]

    /// A figure of this period against the previous run's.
    public struct Moved: Codable, Sendable, Equatable {
        public var family: String
        public var name: String
        public var unit: String
        public var previous: String
        public var current: String
        /// The signed difference, in `unit`: `+1`, `-12.50`.
        public var change: String
        /// The change as a share of `previous`, `+5.3%`; nil when `previous` is zero or the unit is `%`.
        public var percent: String?
    }

    /// A month's figure that the previous run published with another value.
    public struct Restated: Codable, Sendable, Equatable {
        public var family: String
        public var name: String
        public var month: String
        public var unit: String
        public var published: String
        public var now: String
        public var change: String
        /// The key the figure belongs to (a couple id), nil for a family's own figure.
        public var key: String?

        public init(family: String, name: String, month: String, unit: String, published: String, now: String, change: String,
                    key: String? = nil) {
            self.family = family
            self.name = name
            self.month = month
            self.unit = unit
            self.published = published
            self.now = now
            self.change = change
            self.key = key
        }
    }

    /// Something worth a look before the reports go out.
    public struct Flag: Codable, Sendable, Equatable {
        public enum Kind: String, Codable, Sendable { case empty, volume }
        public var kind: Kind
        public var dataset: String
        public var month: String
        public var message: String
    }

    /// When a dataset's volume is worth a flag (`tally.yml` → `changes`).
    public struct Thresholds: Sendable, Equatable {
        /// The share by which a dataset's rows in the period may move against the month before.
        public var volumeChange = 0.5
        /// Volumes below this many rows on both sides are not judged.
        public var minimumRows = 100
        public init(volumeChange: Double = 0.5, minimumRows: Int = 100) {
            self.volumeChange = volumeChange
            self.minimumRows = minimumRows
        }
    }

    public init(against: String? = nil, moved: [Moved] = [], restated: [Restated] = [], flags: [Flag] = []) {
        self.against = against
        self.moved = moved
        self.restated = restated
        self.flags = flags
    }

    /// Nothing moved, nothing restated, nothing flagged.
    public var isEmpty: Bool { moved.isEmpty && restated.isEmpty && flags.isEmpty }

    /// The changes of a run of `period` with `figures`, against `previous`.
    public static func between(_ figures: [RunFigure], period: YearMonth,
                               previous: (period: YearMonth, figures: [RunFigure])?, thresholds: Thresholds) -> RunChanges {
        var changes = RunChanges(against: previous?.period.description)
        let before = period.adding(months: -1)
        var published: [String: RunFigure] = [:]
        for figure in previous?.figures ?? [] { published[figure.identity] = figure }
        var own: [String: RunFigure] = [:]
        for figure in figures { own[figure.identity] = figure }

        for figure in figures {
            if let old = published[figure.identity], let delta = difference(figure, old) {
                changes.restated.append(Restated(family: figure.family, name: figure.name, month: figure.month, unit: figure.unit,
                                                 published: old.value, now: figure.value, change: delta.text))
            }
            guard figure.month == period.description else { continue }
            if let previous, previous.period < period,
               let old = published[RunFigure(family: figure.family, name: figure.name, month: previous.period.description, value: "").identity],
               let delta = difference(figure, old) {
                changes.moved.append(Moved(family: figure.family, name: figure.name, unit: figure.unit, previous: old.value,
                                           current: figure.value, change: delta.text, percent: delta.percent))
            }
            guard let dataset = figure.dataset, let rows = figure.decimal?.rescaled(to: 0) else { continue }
            if rows == 0 {
                changes.flags.append(Flag(kind: .empty, dataset: dataset, month: figure.month,
                    message: "\(dataset): no rows dated in \(period) (\(figure.family) \(figure.name) 0): is the month's export missing, or older than the period?"))
                continue
            }
            let key = RunFigure(family: figure.family, name: figure.name, month: before.description, value: "").identity
            guard let base = (own[key] ?? published[key])?.decimal?.rescaled(to: 0), base > 0,
                  max(rows, base) >= Int64(thresholds.minimumRows) else { continue }
            let share = Double(rows - base) / Double(base)
            if abs(share) > thresholds.volumeChange {
                changes.flags.append(Flag(kind: .volume, dataset: dataset, month: figure.month,
                    message: "\(dataset): \(rows) rows dated in \(period) against \(base) in \(before) "
                        + "(\(percentText(share)), beyond ±\(percentText(thresholds.volumeChange, signed: false)))"))
            }
        }
        return changes
    }

    /// `new − old` as text in the figures' unit with its sign, and as a share
    /// of `old`; nil when the two are equal, of different units, or not decimals.
    static func difference(_ new: RunFigure, _ old: RunFigure) -> (text: String, percent: String?)? {
        guard new.unit == old.unit, let a = new.decimal, let b = old.decimal else { return nil }
        let scale = max(a.scale, b.scale)
        guard let x = a.rescaled(to: scale), let y = b.rescaled(to: scale), x != y else { return nil }
        let (delta, overflow) = x.subtractingReportingOverflow(y)
        guard !overflow else { return nil }
        let text = (delta > 0 ? "+" : "") + Decimal10.format(delta, scale: scale) + (new.unit == "%" ? " pp" : "")
        let percent = (y == 0 || new.unit == "%") ? nil : percentText(Double(delta) / Double(y))
        return (text, percent)
    }

    /// A share as a signed percentage with one decimal: `+5.3%`, `-46.2%`.
    static func percentText(_ share: Double, signed: Bool = true) -> String {
        let tenths = Int64((share * 1000).rounded())
        return (signed && tenths > 0 ? "+" : "") + Decimal10.format(tenths, scale: 1) + "%"
    }
}
