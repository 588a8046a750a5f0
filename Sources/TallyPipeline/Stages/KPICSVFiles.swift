import Foundation
import TallyCore
import TallyReports

/// The CSV files of the KPI reports: the contract's columns first, in its
/// order, then tally's own. Rates are fractions with 4 decimals, empty over
/// zero; money plain decimals in the currency's minor digits; MRR movements
/// signed (churn and contraction negative), as in the workbook and text.
enum KPICSVFiles {
    /// Writes every CSV under `folder`; `publish` moves them into place with the run's other reports.
    static func write(_ report: KPIReport, to folder: URL, publish: OutputSet) throws -> [RunManifest.Output] {
        var outputs: [RunManifest.Output] = []
        // Text from the exports (paywall contexts, App Store subscription and event
        // names) is free text, neutralised against formulas (`CSVColumn.text`).
        func file(_ name: String, _ columns: [CSVColumn], _ rows: (CSVWriter) throws -> Void) throws {
            let writer = try CSVWriter(url: folder.appendingPathComponent(name), columns: columns)
            try rows(writer)
            try publish.add(writer)
            outputs.append(.init(path: "kpis/\(name)", rows: writer.rowCount))
        }
        let t = report.targets
        let flag = { (b: Bool) in b ? "true" : "false" }
        let fraction = { (x: Double) in KPIRate(Int((x * 10_000).rounded()), of: 10_000).csv }

        try file("swipes_daily.csv", ["date", "swipes", "swipers", "likes", "superLikes", "passes", "reports", "matches",
                                      "likeRate", "matchRate"]) { w in
            for d in report.swipesDaily {
                try w.writeRow([d.date.description, "\(d.swipes)", "\(d.swipers)", "\(d.likes)", "\(d.superLikes)", "\(d.passes)",
                                "\(d.reports)", "\(d.matches)", d.likeRate.csv, d.matchRate.csv])
            }
        }
        try file("conversion.csv", ["app", "cohort", "signups", "converted", "conversionRate", "windowDays", "complete",
                                    "targetMin", "targetMax", "vsTarget"]) { w in
            for r in report.conversion {
                try w.writeRow([r.app, r.cohort.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                                "\(t.conversionWindowDays)", flag(r.complete), fraction(t.conversionMin), fraction(t.conversionMax),
                                TargetStatus.of(r.rate.value, min: t.conversionMin, max: t.conversionMax, complete: r.complete).rawValue])
            }
        }
        try file("paywall.csv", ["app", .text("context"), "shown", "conversions", "usersShown", "period"]) { w in
            for r in report.paywall {
                try w.writeRow([r.app, r.context, "\(r.shown)", "\(r.conversions)", "\(r.users)", report.period.description])
            }
        }
        try file("mrr.csv", ["app", "plan", "subscribers", "mrr", "currency", "period"]) { w in
            for r in report.mrr {
                try w.writeRow([r.app, r.plan, "\(r.subscribers)", Money.plain(r.mrr, r.currency), r.currency.code, r.month.description])
            }
        }
        try file("retention.csv", ["app", "cohort", "subscribers", "retained30d", "retentionRate", "days", "complete",
                                   "target", "vsTarget"]) { w in
            for r in report.retention {
                try w.writeRow([r.app, r.cohort.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                                "\(t.retentionDays)", flag(r.complete), fraction(t.retention),
                                TargetStatus.of(r.rate.value, min: t.retention, complete: r.complete).rawValue])
            }
        }
        try file("churn.csv", ["app", "month", "paidAtStart", "churned", "churnRate", "cancellations", "refunds"]) { w in
            for r in report.churn {
                try w.writeRow([r.app, r.month.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                                "\(r.cancellations)", "\(r.refunds)"])
            }
        }
        try file("mrr_history.csv", ["month", "app", "plan", "subscribers", "mrr", "currency"]) { w in
            for r in report.mrrHistory {
                try w.writeRow([r.month.description, r.app, r.plan, "\(r.subscribers)", Money.plain(r.mrr, r.currency), r.currency.code])
            }
        }
        let buckets = MRRMovement.allCases
        try file("mrr_movements.csv", ["app", "month", "currency", "startMrr"] + buckets.map { CSVColumn(stringLiteral: $0.rawValue) }
                 + ["endMrr", "netChange"] + buckets.map { CSVColumn(stringLiteral: "\($0.rawValue)Users") }) { w in
            for r in report.movements {
                let c = r.currency
                try w.writeRow([r.app, r.month.description, c.code, Money.plain(r.startMRR, c)]
                               + buckets.map { Money.plain(r.signedAmount($0), c) }
                               + [Money.plain(r.endMRR, c), Money.plain(r.net, c)] + buckets.map { "\(r.count($0))" })
            }
        }
        try file("mrr_totals.csv", ["month", "currency", "subscribers", "mrr", "reportingCurrency", "rate", "rateDate",
                                    "mrrInReportingCurrency", "note"]) { w in
            let totals = report.mrrTotals
            let target = totals.reportingCurrency
            for c in totals.currencies {
                try w.writeRow([report.period.description, c.currency.code, "\(c.subscribers)", Money.plain(c.mrr, c.currency),
                                target?.code ?? "", c.rate.map { $0.rate.description } ?? "", c.rate.map { $0.date.description } ?? "",
                                target.flatMap { t in c.converted.map { Money.plain($0, t) } } ?? "",
                                target != nil && c.converted == nil ? "no fx rate to \(target!.code)" : ""])
            }
            if let target {
                try w.writeRow([report.period.description, "total", "\(totals.currencies.map(\.subscribers).reduce(0, +))",
                                "", target.code, "", "", totals.studioTotal.map { Money.plain($0, target) } ?? "", totals.note])
            }
        }
        try file("trials.csv", ["app", "month", "trialsStarted", "converted", "trialConversionRate", "windowDays", "complete"]) { w in
            for r in report.trials {
                try w.writeRow([r.app, r.month.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                                "\(t.conversionWindowDays)", flag(r.complete)])
            }
        }
        try file("shared_premium.csv", ["app", "month", "payers", "sharedPremiumUsers", "entitledUsers"]) { w in
            for r in report.sharedPremium {
                try w.writeRow([r.app, r.month.description, "\(r.payers)", "\(r.sharedUsers)", "\(r.entitled)"])
            }
        }
        try file("appstore_events.csv", ["date", "app", .text("subscription"), .text("appleEvent"), "event", "quantity"]) { w in
            for r in report.appStoreEvents {
                try w.writeRow([r.date.description, r.app, r.subscription, r.appleEvent, r.event, "\(r.quantity)"])
            }
        }
        return outputs
    }
}
