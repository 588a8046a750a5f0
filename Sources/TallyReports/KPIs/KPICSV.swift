import TallyCore

/// The KPI family's CSV files, `kpis/*.csv`: the contract's columns first, in
/// its order, then tally's own. Rates are fractions with 4 decimals, empty
/// over zero; money plain decimals in the currency's minor digits; MRR
/// movements signed (churn and contraction negative), as in the workbook
/// and text. Text from the exports (paywall contexts, App Store
/// subscription and event names) is free text, neutralised against
/// formulas (`CSVColumn.text`).
///
/// ```swift
/// for table in KPICSV.tables(report) { … }   // swipes_daily.csv, conversion.csv, …
/// ```
public enum KPICSV {
    /// Every KPI CSV of `report`, in the order they are written.
    public static func tables(_ report: KPIReport) -> [CSVTable] {
        var tables: [CSVTable] = []
        func table(_ name: String, _ columns: [CSVColumn], _ fill: (_ w: (_ row: [String]) -> Void) -> Void) -> CSVTable {
            var rows: [[String]] = []
            fill { rows.append($0) }
            return CSVTable(CSVLayout(name, columns), rows: rows)
        }
        let t = report.targets
        let flag = { (b: Bool) in b ? "true" : "false" }
        let fraction = { (x: Double) in KPIRate(Int((x * 10_000).rounded()), of: 10_000).csv }

        tables.append(table("swipes_daily.csv", ["date", "swipes", "swipers", "likes", "superLikes", "passes", "reports", "matches",
                "likeRate", "matchRate"]) { w in
            for d in report.swipesDaily {
                w([d.date.description, "\(d.swipes)", "\(d.swipers)", "\(d.likes)", "\(d.superLikes)", "\(d.passes)",
                  "\(d.reports)", "\(d.matches)", d.likeRate.csv, d.matchRate.csv])
            }
        })
        tables.append(table("conversion.csv", ["app", "cohort", "signups", "converted", "conversionRate", "windowDays", "complete",
                "targetMin", "targetMax", "vsTarget"]) { w in
            for r in report.conversion {
                w([r.app, r.cohort.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                  "\(t.conversionWindowDays)", flag(r.complete), fraction(t.conversionMin), fraction(t.conversionMax),
                  TargetStatus.of(r.rate.value, min: t.conversionMin, max: t.conversionMax, complete: r.complete).rawValue])
            }
        })
        tables.append(table("paywall.csv", ["app", .text("context"), "shown", "conversions", "usersShown", "period",
                "convertedAfterView", "conversionRate"]) { w in
            for r in report.paywall {
                w([r.app, r.context, "\(r.shown)", "\(r.conversions)", "\(r.users)", report.period.description,
                  "\(r.convertedAfterView)", r.rate.csv])
            }
        })
        tables.append(table("mrr.csv", ["app", "plan", "subscribers", "mrr", "currency", "period"]) { w in
            for r in report.mrr {
                w([r.app, r.plan, "\(r.subscribers)", Money.plain(r.mrr, r.currency), r.currency.code, r.month.description])
            }
        })
        tables.append(table("retention.csv", ["app", "cohort", "subscribers", "retained30d", "retentionRate", "days", "complete",
                "target", "vsTarget"]) { w in
            for r in report.retention {
                w([r.app, r.cohort.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                  "\(t.retentionDays)", flag(r.complete), fraction(t.retention),
                  TargetStatus.of(r.rate.value, min: t.retention, complete: r.complete).rawValue])
            }
        })
        tables.append(table("churn.csv", ["app", "month", "paidAtStart", "churned", "churnRate", "cancellations", "refunds"]) { w in
            for r in report.churn {
                w([r.app, r.month.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                  "\(r.cancellations)", "\(r.refunds)"])
            }
        })
        tables.append(table("mrr_history.csv", ["month", "app", "plan", "subscribers", "mrr", "currency"]) { w in
            for r in report.mrrHistory {
                w([r.month.description, r.app, r.plan, "\(r.subscribers)", Money.plain(r.mrr, r.currency), r.currency.code])
            }
        })
        let buckets = MRRMovement.allCases
        tables.append(table("mrr_movements.csv", ["app", "month", "currency", "startMrr"] + buckets.map { CSVColumn(stringLiteral: $0.rawValue) }
                 + ["endMrr", "netChange"] + buckets.map { CSVColumn(stringLiteral: "\($0.rawValue)Users") }) { w in
            for r in report.movements {
                let c = r.currency
                w([r.app, r.month.description, c.code, Money.plain(r.startMRR, c)]
                  + buckets.map { Money.plain(r.signedAmount($0), c) }
                  + [Money.plain(r.endMRR, c), Money.plain(r.net, c)] + buckets.map { "\(r.count($0))" })
                  }
                  })
                  tables.append(table("mrr_totals.csv", ["month", "currency", "subscribers", "mrr", "reportingCurrency", "rate", "rateDate",
                  "mrrInReportingCurrency", "note"]) { w in
                  let totals = report.mrrTotals
                  let target = totals.reportingCurrency
                  for c in totals.currencies {
                  w([report.period.description, c.currency.code, "\(c.subscribers)", Money.plain(c.mrr, c.currency),
                  target?.code ?? "", c.rate.map { $0.rate.description } ?? "", c.rate.map { $0.date.description } ?? "",
                  target.flatMap { t in c.converted.map { Money.plain($0, t) } } ?? "",
                  target != nil && c.converted == nil ? "no fx rate to \(target!.code)" : ""])
            }
            if let target {
                w([report.period.description, "total", "\(totals.currencies.map(\.subscribers).reduce(0, +))",
                  "", target.code, "", "", totals.studioTotal.map { Money.plain($0, target) } ?? "", totals.note])
            }
        })
        tables.append(table("trials.csv", ["app", "month", "trialsStarted", "converted", "trialConversionRate", "windowDays", "complete"]) { w in
            for r in report.trials {
                w([r.app, r.month.description, "\(r.rate.denominator)", "\(r.rate.numerator)", r.rate.csv,
                  "\(t.conversionWindowDays)", flag(r.complete)])
            }
        })
        tables.append(table("shared_premium.csv", ["app", "month", "payers", "sharedPremiumUsers", "entitledUsers"]) { w in
            for r in report.sharedPremium {
                w([r.app, r.month.description, "\(r.payers)", "\(r.sharedUsers)", "\(r.entitled)"])
            }
        })
        tables.append(table("revenue.csv", ["app", "month", "currency", "revenue", "refunded", "netRevenue", "charges", "refunds",
                "payingUsers", "activeUsers", "arpu", "arppu"]) { w in
            for r in report.revenue {
                let c = r.currency
                w([r.app, r.month.description, c.code, Money.plain(r.revenue, c), Money.plain(r.refunded, c), Money.plain(r.net, c),
                  "\(r.charges)", "\(r.refunds)", "\(r.payingUsers)", "\(r.activeUsers)",
                  r.arpu.map { Money.plain($0, c) } ?? "", r.arppu.map { Money.plain($0, c) } ?? ""])
            }
        })
        tables.append(table("retention_curves.csv", ["app", "cohort", "subscribers", "monthsSince", "month", "active", "activeRate"]) { w in
            for r in report.retentionCurves {
                for (i, active) in r.active.enumerated() {
                    w([r.app, r.cohort.description, "\(r.subscribers)", "\(i + 1)", r.cohort.adding(months: i + 1).description,
                      "\(active)", KPIRate(active, of: r.subscribers).csv])
                }
            }
        })
        tables.append(table("appstore_events.csv", ["date", "app", .text("subscription"), .text("appleEvent"), "event", "quantity"]) { w in
            for r in report.appStoreEvents {
                w([r.date.description, r.app, r.subscription, r.appleEvent, r.event, "\(r.quantity)"])
            }
        })
        return tables
    }
}
