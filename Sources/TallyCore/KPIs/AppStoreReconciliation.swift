/// Where the period's App Store Connect Subscription Event report and
/// tally's per-user figures count the same thing differently, per app: the
/// two figures side by side, and when they differ, why.
///
/// The Subscription Event report counts App Store events by day and
/// subscription, with no user, so it cannot be joined to the per-user
/// figures; it is compared with them month-wide:
/// - **cancels**: Apple's `cancelled` events (auto-renew turned off) against
///   the `cancelled` events of the subscription export; Churn is neither, as
///   a cancel is not a churn until access ends (`expired`) — the note gives
///   the churned count beside them;
/// - **refunds**: Apple's `refunded` events against the export's;
/// - **new subscriptions**: Apple's `subscribed` events (first purchases,
///   re-subscriptions, offer conversions) against the users whose *first*
///   `subscribed` falls in the month (the paywall conversions).
///
/// ```swift
/// AppStoreReconciliation.rows(report).first { $0.app == "FypMatch" && $0.figure == .cancels }
/// // apple 2, tally 1, note: "… a cancel is not a churn until the period ends …"
/// ```
public struct AppStoreReconciliation: Sendable, Equatable {
    /// The figures compared.
    public enum Figure: String, Sendable, CaseIterable {
        case cancels, refunds, newSubscriptions = "new subscriptions"
    }

    public var app: String
    public var figure: Figure
    /// The App Store's count in the period, and tally's.
    public var apple: Int64
    public var tally: Int64
    /// Why the two differ; empty when they agree.
    public var note: String

    public var agrees: Bool { apple == tally }

    /// The comparison for every app with App Store events in the period, apps in byte order, figures in ``Figure`` order.
    public static func rows(_ report: KPIReport) -> [AppStoreReconciliation] {
        let apps = Array(Set(report.appStoreEvents.map(\.app))).sorted { ByteOrder.precedes($0, $1) }
        return apps.flatMap { app -> [AppStoreReconciliation] in
            let apple = { (event: String) in report.appStoreEvents.filter { $0.app == app && $0.event == event }.map(\.quantity).reduce(0, +) }
            let churn = report.churn.first { $0.app == app && $0.month == report.period }
            let firsts = report.paywall.filter { $0.app == app }.map(\.conversions).reduce(0, +)
            return Figure.allCases.map { figure in
                var row: AppStoreReconciliation
                switch figure {
                case .cancels:
                    row = .init(app: app, figure: figure, apple: apple("cancelled"), tally: Int64(churn?.cancellations ?? 0), note: "")
                    if !row.agrees {
                        row.note = "Apple counts every cancel (auto-renew off) of an App Store subscriber on its day; tally counts the "
                            + "cancelled events of the subscription export. Neither is churn: a cancel is not a churn until access "
                            + "ends (expired), so Churn counts \(churn?.rate.numerator ?? 0) for \(report.period)."
                    }
                case .refunds:
                    row = .init(app: app, figure: figure, apple: apple("refunded"), tally: Int64(churn?.refunds ?? 0), note: "")
                    if !row.agrees {
                        row.note = "Apple counts refunds of App Store purchases on the day Apple grants them; tally counts the refunded "
                            + "events of the subscription export, every store, on their own instant."
                    }
                case .newSubscriptions:
                    row = .init(app: app, figure: figure, apple: apple("subscribed"), tally: Int64(firsts), note: "")
                    if !row.agrees {
                        row.note = "Apple's Subscribe events include re-subscriptions and offer conversions of App Store users; tally "
                            + "counts users whose first subscribed is in \(report.period), from every store."
                    }
                }
                return row
            }
        }
    }
}
