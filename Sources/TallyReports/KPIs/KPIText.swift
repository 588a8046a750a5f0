import TallyCore

/// The KPI story as text (`kpis/kpis.txt`) and as terminal summary lines:
/// headlines against last month and targets, sparklines of daily swipes
/// and matches, MRR by plan as bars, conversion and retention cohort tables
/// with bars, churn and MRR movements (churn and contraction negative, as in
/// every KPI output), MRR totals per currency and for the studio. English
/// labels (the product team's internal report); columns line up by display
/// width.
public enum KPIText {
    /// Every line of `kpis.txt`.
    ///
    /// `restated`: the KPI figures of months already published that read
    /// differently now (``RunChanges``), listed under the headlines.
    public static func render(_ report: KPIReport, restated: [RunChanges.Restated] = []) -> [String] {
        var out = ["tally — product KPIs, \(report.period)", ""]
        out += headlines(report)
        if !restated.isEmpty {
            out += ["", "Restated since the last run (months already published whose figures changed; the reports use the current values)"]
            let width = restated.map { DisplayWidth.of($0.name) }.max() ?? 0
            for r in restated {
                let unit = r.unit.isEmpty || r.unit == "%" ? "" : " \(r.unit)"
                out.append("  \(TextChart.pad(r.name, width)) \(r.month): published \(r.published)\(r.unit == "%" ? "%" : "")\(unit), "
                           + "now \(r.now)\(r.unit == "%" ? "%" : "")\(unit) (\(r.change))")
            }
        }
        out += ["", "Swipes and matches per day (\(report.period))"] + swipes(report)
        out += ["", "MRR by plan at end of \(report.period)"] + mrr(report)
        out += ["", "MRR totals at end of \(report.period)"] + totals(report)
        out += ["", "Free→paid conversion by signup cohort (\(report.targets.conversionWindowDays)-day window; target "
                + "\(KPIHeadline.percent(report.targets.conversionMin))–\(KPIHeadline.percent(report.targets.conversionMax)))"]
        out += cohortTable(report.conversion.map { ($0.app, $0.cohort, $0.rate, $0.complete) }, unit: "signups")
        out += ["", "\(report.targets.retentionDays)-day subscriber retention by first-subscribed cohort (target ≥ "
                + "\(KPIHeadline.percent(report.targets.retention)))"]
        out += cohortTable(report.retention.map { ($0.app, $0.cohort, $0.rate, $0.complete) }, unit: "subscribers")
        out += ["", "Retention curves: share of each first-subscribed cohort paid at the end of M1…M\(SubscriptionKPIs.curveMonths) "
                + "(months after the cohort month; a member who comes back counts again)"] + curves(report)
        out += ["", "Churn per month (paid at the start, not at the end)"]
        for app in report.apps {
            let rows = report.churn.filter { $0.app == app }.suffix(12)
            guard !rows.isEmpty else { continue }
            out.append("  \(TextChart.pad(app, 10)) \(TextChart.sparkline(rows.map { $0.rate.value ?? 0 }))  "
                       + rows.map { "\($0.month): \($0.rate.percent) (\($0.rate.numerator)/\($0.rate.denominator))" }.last!)
        }
        out += ["", "MRR movements in \(report.period) (start + movements = end; churn and contraction are negative)"] + movements(report)
        out += ["", "Revenue in \(report.period) (catalogue prices of the charges; ARPU per active user, ARPPU per paying user)"]
        out += revenue(report)
        out += ["", "Paywall contexts in \(report.period) (shown → first subscriptions credited; rate: users shown it who "
                + "converted after a view in the month)"]
        for row in report.paywall {
            out.append("  \(TextChart.pad(row.app, 10)) \(TextChart.pad(row.context, 22)) shown \(TextChart.padLeft("\(row.shown)", 6))"
                       + "  conversions \(TextChart.padLeft("\(row.conversions)", 5))"
                       + (row.users > 0 ? "  rate \(TextChart.padLeft(row.rate.percent, 6)) (\(row.rate.numerator)/\(row.rate.denominator))" : ""))
        }
        out += ["", "Trials (conversion within \(report.targets.conversionWindowDays) days of the trial start)"]
        out += cohortTable(report.trials.map { ($0.app, $0.month, $0.rate, $0.complete) }, unit: "trials")
        if let shared = report.sharedPremium.last {
            out += ["", "Shared premium (\(shared.app)) at end of \(shared.month): \(shared.payers) payers + "
                    + "\(shared.sharedUsers) partners sharing = \(shared.entitled) entitled users (sharing partners are never payers or MRR)"]
        }
        let reconciliation = AppStoreReconciliation.rows(report)
        if !reconciliation.isEmpty {
            out += ["", "App Store Connect against tally in \(report.period) (the Subscription Event report has no users)"]
            out += reconcile(reconciliation)
        }
        return out
    }

    static func revenue(_ report: KPIReport) -> [String] {
        report.revenue.filter { $0.month == report.period }.map { r in
            let c = r.currency
            return "  \(TextChart.pad(r.app, 10)) \(c.code)  revenue \(TextChart.padLeft(Money.plain(r.revenue, c), 10))"
                + "  refunded \(TextChart.padLeft(Money.plain(r.refunded, c), 8))  net \(TextChart.padLeft(Money.plain(r.net, c), 10))"
                + "  ARPU \(r.arpu.map { Money.plain($0, c) } ?? "—") (\(r.activeUsers) active)"
                + "  ARPPU \(r.arppu.map { Money.plain($0, c) } ?? "—") (\(r.payingUsers) paying)"
        }
    }

    static func curves(_ report: KPIReport) -> [String] {
        var out: [String] = []
        let months = SubscriptionKPIs.curveMonths
        for app in report.apps {
            let rows = report.retentionCurves.filter { $0.app == app }
            guard !rows.isEmpty else { continue }
            out.append("  \(app)")
            out.append("    cohort   subs " + (1...months).map { TextChart.padLeft("M\($0)", 7) }.joined())
            for r in rows {
                out.append("    \(r.cohort) \(TextChart.padLeft("\(r.subscribers)", 5)) "
                           + (1...months).map { TextChart.padLeft(r.share($0)?.percent ?? "", 7) }.joined())
            }
        }
        return out.map { $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
    }

    static func reconcile(_ rows: [AppStoreReconciliation]) -> [String] {
        rows.flatMap { r -> [String] in
            let line = "  \(TextChart.pad(r.app, 10)) \(TextChart.pad(r.figure.rawValue, 18)) App Store \(TextChart.padLeft("\(r.apple)", 4))"
                + "  tally \(TextChart.padLeft("\(r.tally)", 4))  \(r.agrees ? "same" : "differ:")"
            return [line] + (r.agrees ? [] : XLSXWorksheet.lines(r.note, width: 96).map { "      " + $0 })
        }
    }

    /// The terminal summary: three lines (swipes and matches, MRR, targets
    /// missed); the details are in `kpis/`.
    public static func summary(_ report: KPIReport) -> [String] {
        let headlines = KPIHeadline.of(report)
        func figure(_ metric: String) -> String {
            guard let h = headlines.first(where: { $0.metric == metric }) else { return "0" }
            return show(h.current) + (h.change.map { " (\($0.text))" } ?? "")
        }
        var out = ["kpis: \(figure("Swipes")) swipes, \(figure("Matches")) matches in \(report.period)"]
        let totals = report.mrrTotals
        var mrr = totals.currencies.map { "\(Money.plain($0.mrr, $0.currency)) \($0.currency.code)" }.joined(separator: " + ")
        if let target = totals.reportingCurrency {
            mrr += totals.studioTotal.map { " = \(Money.plain($0, target)) \(target.code)" } ?? " (no studio total: no fx rate for "
                + totals.missingRates.map(\.code).joined(separator: ", ") + ")"
        }
        out.append("kpis: MRR \(mrr.isEmpty ? "0" : mrr) at end of \(report.period), \(totals.currencies.map(\.subscribers).reduce(0, +)) paid subscribers")
        let below = headlines.filter { $0.status == .below }.map { "\($0.metric.lowercased()) \($0.app) \(show($0.current))" }
        out.append("kpis: " + (below.isEmpty ? "every judged cohort meets its target" : "below target: " + below.joined(separator: ", ")))
        return out
    }

    static func headlines(_ report: KPIReport) -> [String] {
        let all = KPIHeadline.of(report)
        let appWidth = all.map { DisplayWidth.of($0.app) }.max() ?? 0
        return all.map { h in
            var line = "  \(TextChart.pad(h.metric, 22)) \(TextChart.pad(h.app, appWidth)) \(TextChart.padLeft(show(h.current), 14))"
            if let previous = h.previous { line += "  (last month \(show(previous)), \(h.change?.text ?? "—"))" }
            if let target = h.target, let status = h.status, status != .unknown { line += "  target \(target): \(status.rawValue)" }
            return line + "  — \(h.scope)"
        }
    }

    /// MRR per currency, then the studio total in the reporting currency or why there is none.
    static func totals(_ report: KPIReport) -> [String] {
        let totals = report.mrrTotals
        guard !totals.currencies.isEmpty else { return ["  (no paid subscribers)"] }
        var out = totals.currencies.map { c in
            var line = "  \(c.currency.code) \(TextChart.padLeft(Money.plain(c.mrr, c.currency), 12))  \(TextChart.padLeft(subscribers(c.subscribers), 15))"
            if let target = totals.reportingCurrency, c.currency != target {
                line += c.converted.map { "  = \(Money.plain($0, target)) \(target.code)" } ?? "  (no rate to \(target.code))"
            }
            return line
        }
        if let target = totals.reportingCurrency, let total = totals.studioTotal {
            out.append("  studio total \(Money.plain(total, target)) \(target.code)")
        }
        out.append("  " + totals.note)
        return out
    }

    static func show(_ value: KPIHeadline.Value) -> String {
        switch value {
        case .count(let n): return "\(n)"
        case .money(let minor, let currency): return "\(Money.plain(minor, currency)) \(currency.code)"
        case .rate(let rate): return "\(rate.percent) (\(rate.numerator)/\(rate.denominator))"
        }
    }

    static func swipes(_ report: KPIReport) -> [String] {
        let days = report.swipesDaily
        let total = { (k: KeyPath<SwipesDay, Int>) in days.map { $0[keyPath: k] }.reduce(0, +) }
        return ["  swipes  \(TextChart.sparkline(days.map { Double($0.swipes) }))  \(total(\.swipes)) in the month",
                "  matches \(TextChart.sparkline(days.map { Double($0.matches) }))  \(total(\.matches)) in the month"]
    }

    static func mrr(_ report: KPIReport) -> [String] {
        let rows = report.mrr
        guard !rows.isEmpty else { return ["  (no paid subscribers)"] }
        let countWidth = rows.map { String($0.subscribers).count }.max() ?? 1
        return TextChart.bars(rows.map {
            TextChart.Bar(label: "\($0.app) \($0.plan) \($0.currency.code)", value: Double($0.mrr),
                          shown: "\(Money.plain($0.mrr, $0.currency)) · \(TextChart.padLeft(String($0.subscribers), countWidth)) paid")
        }, width: 30).map { "  " + $0 }
    }

    /// `1 subscriber`, `37 subscribers`.
    static func subscribers(_ n: Int) -> String { n == 1 ? "1 subscriber" : "\(n) subscribers" }

    static func movements(_ report: KPIReport) -> [String] {
        report.movements.filter { $0.month == report.period }.map { m in
            let c = m.currency
            let parts = MRRMovement.allCases.map { b in
                let amount = m.signedAmount(b)
                return "\(b.rawValue) \(amount > 0 ? "+" : "")\(Money.plain(amount, c))"
            }
            return "  \(TextChart.pad(m.app, 10)) \(c.code) start \(Money.plain(m.startMRR, c)) · " + parts.joined(separator: " · ")
                + " · end \(Money.plain(m.endMRR, c))"
        }
    }

    /// The last 12 cohorts per app: month, parts, rate, a bar, and `*` for incomplete cohorts.
    static func cohortTable(_ rows: [(app: String, cohort: YearMonth, rate: KPIRate, complete: Bool)], unit: String) -> [String] {
        var out: [String] = []
        var incomplete = false
        if !rows.isEmpty { out.append("    cohort     hits/\(unit)") }
        for app in Set(rows.map(\.app)).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let recent = rows.filter { $0.app == app }.suffix(12)
            out.append("  \(app)")
            for r in recent {
                let bar = TextRuns.run(of: "█", count: Int(((r.rate.value ?? 0) * 40).rounded()))
                if !r.complete { incomplete = true }
                out.append("    \(r.cohort)\(r.complete ? " " : "*") \(TextChart.padLeft("\(r.rate.numerator)", 6))/"
                           + "\(TextChart.pad("\(r.rate.denominator)", 6)) \(TextChart.padLeft(r.rate.percent, 6)) │\(bar)")
            }
        }
        if out.isEmpty { return ["  (no cohorts)"] }
        if incomplete { out.append("    * still inside its window: may still change") }
        return out
    }
}
