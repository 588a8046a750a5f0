import Foundation
import TallyCore

/// Reads an App Store Connect report (tab-separated, Apple's headers): the
/// Subscriber report becomes per-user subscription events, the Subscription
/// Event report daily event counts. Which report it is shows in the header
/// (``AppStoreReportKind/detect(_:)``); columns are found by alias
/// (``AppStoreReportKind/Column/aliases``), the others are ignored.
///
/// Subscriber report, one row per subscriber transaction:
/// - `Refund` = `Yes` (or a negative `Customer Price`) → `refunded`;
/// - `Subscription Offer Type` = `Free Trial` → `trial_started`;
/// - any other transaction → `subscribed` (a purchase or a renewal: paid
///   access from then on; the first one is the user's first `subscribed`).
///
/// The user is the `Subscriber ID`, the app the `App Name`, the product the
/// `Subscription Name`; the day (`Event Date`, `YYYY-MM-DD` or `MM/DD/YYYY`)
/// becomes 12:00 UTC of that day, the same calendar day from UTC−11 to
/// UTC+11. A row's id is made from what identifies the transaction (app,
/// subscriber, product, day and event; ``subscriberEventID(app:user:product:day:kind:)``),
/// so the same transaction delivered again (an overlapping report, in another
/// folder or file) is the same event, and two months' reports of the same
/// name are different events.
public final class AppStoreConnectReader {
    public let url: URL
    /// The path shown in ids and messages (relative to the data folder).
    public let displayPath: String
    public let kind: AppStoreReportKind
    /// Header names that are none of the columns tally reads.
    public private(set) var ignoredColumns: [String] = []
    /// Data lines seen so far (blank lines and the header excluded).
    public private(set) var recordsRead = 0

    private let lines: TabSeparatedLines
    private var columnIndex: [AppStoreReportKind.Column: Int] = [:]
    private var headerCount = 0

    /// What a data line of the report is.
    public enum Row {
        case event(SubscriptionEventRecord)
        case count(AppStoreEventCount, line: Int)
        case malformed(line: Int, id: String, reason: RejectReason)
    }

    /// Opens the report and reads its header. Throws when the file cannot be
    /// read, or the header is neither report's or lacks a column.
    public init(url: URL, displayPath: String) throws {
        self.url = url
        self.displayPath = displayPath
        lines = try TabSeparatedLines(url: url)
        guard let (line, content) = try lines.next(), case .fields(let header) = content else {
            throw ReaderError(.badHeader, file: url, reason: "no header row: an App Store Connect report starts with its column names")
        }
        var byKey: [String: AppStoreReportKind.Column] = [:]
        var found: [AppStoreReportKind.Column: Int] = [:]
        var ignored: [String] = []
        for column in AppStoreReportKind.Column.allCases {
            for alias in column.aliases { byKey[AppStoreReportKind.Column.key(alias)] = byKey[AppStoreReportKind.Column.key(alias)] ?? column }
        }
        for (i, name) in header.enumerated() {
            if let column = byKey[AppStoreReportKind.Column.key(name)], found[column] == nil {
                found[column] = i
            } else {
                ignored.append(name)
            }
        }
        headerCount = header.count
        guard let kind = AppStoreReportKind.detect(Set(found.keys)) else {
            throw ReaderError(.badHeader, file: url, reason: "header (line \(line)) is neither a Subscriber report's (no 'Subscriber ID' column) nor a Subscription Event report's ('Event' and 'Quantity' columns)")
        }
        let missing = kind.required.filter { found[$0] == nil }
        guard missing.isEmpty else {
            throw ReaderError(.badHeader, file: url, reason: "the \(kind == .subscriber ? "Subscriber" : "Subscription Event") report has no column \(missing.map { "'\($0.appleName)'" }.joined(separator: ", "))")
        }
        self.kind = kind
        columnIndex = found
        ignoredColumns = ignored
    }

    /// Reads every data line, in order.
    public func read(_ body: (Row) throws -> Void) throws {
        while let (line, content) = try lines.next() {
            recordsRead += 1
            switch content {
            case .malformed(let reason):
                try body(.malformed(line: line, id: "", reason: reason))
            case .fields(let fields):
                guard fields.count == headerCount else {
                    try body(.malformed(line: line, id: "", reason: .fieldCount(fields.count, header: headerCount)))
                    continue
                }
                do {
                    try body(kind == .subscriber ? .event(try subscriberEvent(fields, line: line))
                                                 : .count(try eventCount(fields), line: line))
                } catch let error as FieldError {
                    let id = kind == .subscriber ? value(fields, .subscriberID) ?? "" : ""
                    try body(.malformed(line: line, id: id, reason: error.why))
                }
            }
        }
    }

    private func value(_ fields: [String], _ column: AppStoreReportKind.Column) -> String? {
        guard let i = columnIndex[column] else { return nil }
        let text = FieldName.trimmed(fields[i])
        return text.isEmpty ? nil : text
    }

    private func required(_ fields: [String], _ column: AppStoreReportKind.Column) throws(FieldError) -> String {
        guard let text = value(fields, column) else { throw FieldError(.empty(column.appleName)) }
        return text
    }

    private func date(_ fields: [String]) throws(FieldError) -> LocalDate {
        let text = try required(fields, .eventDate)
        if let date = LocalDate.parse(text) { return date }
        let parts = text.split(separator: "/")
        if parts.count == 3, let m = Int(parts[0]), let d = Int(parts[1]), let y = Int(parts[2]), parts[2].count == 4,
           let date = LocalDate(year: y, month: m, day: d) { return date }
        throw FieldError(.dateInvalid(field: "Event Date", value: String(text.prefix(40)), form: "YYYY-MM-DD or MM/DD/YYYY"))
    }

    private func subscriberEvent(_ fields: [String], line: Int) throws(FieldError) -> SubscriptionEventRecord {
        let day = try date(fields)
        let user = try required(fields, .subscriberID)
        let app = try required(fields, .appName)
        let product = try required(fields, .subscriptionName)
        var refund = value(fields, .refund).map { $0.lowercased() == "yes" } ?? false
        if let price = value(fields, .customerPrice) {
            guard case .success(let amount) = Decimal10.parse(price) else {
                throw FieldError(.numberInvalid(field: "Customer Price", value: String(price.prefix(40))))
            }
            if amount.mantissa < 0 { refund = true }
        }
        let trial = value(fields, .offerType).map { $0.lowercased() == "free trial" } ?? false
        let kind: SubscriptionEventKind = refund ? .refunded : trial ? .trialStarted : .subscribed
        let at = Timestamp(seconds: day.daysSinceEpoch * 86_400 + 12 * 3600)
        return SubscriptionEventRecord(
            id: Self.subscriberEventID(app: app, user: user, product: product, day: day, kind: kind), app: app, userId: user,
            event: SubscriptionEvent(kind: kind, timestamp: at, productId: product, source: SourceRef(file: displayPath, line: line)))
    }

    /// The id of a Subscriber report row: `appstore`, then the app,
    /// subscriber, product, day and event, separated by TABs (which no field
    /// of a tab-separated report holds, so two rows share an id only when
    /// all five are equal).
    ///
    /// ```swift
    /// AppStoreConnectReader.subscriberEventID(app: "LovU", user: "sub-1", product: "lovu.premium.monthly",
    ///                                         day: LocalDate.parse("2026-10-03")!, kind: .subscribed)
    /// // "appstore\tLovU\tsub-1\tlovu.premium.monthly\t2026-10-03\tsubscribed"
    /// ```
    public static func subscriberEventID(app: String, user: String, product: String, day: LocalDate,
                                         kind: SubscriptionEventKind) -> String {
        ["appstore", app, user, product, day.description, kind.rawValue].joined(separator: "\t")
    }

    private func eventCount(_ fields: [String]) throws(FieldError) -> AppStoreEventCount {
        let day = try date(fields)
        let name = try required(fields, .event)
        guard let kind = AppStoreEventNames.kind(of: name, offerType: value(fields, .offerType)) else {
            throw FieldError(.notOneOf(field: "event", value: String(name.prefix(60)), choices: AppStoreEventNames.known))
        }
        guard let subscription = value(fields, .subscriptionName) ?? value(fields, .subscriptionAppleID) else {
            throw FieldError(.empty("Subscription Name"))
        }
        let quantityText = try required(fields, .quantity)
        guard let quantity = Int64(quantityText) else {
            throw FieldError(.numberNotWhole(field: "Quantity", value: String(quantityText.prefix(40))))
        }
        guard quantity >= 0 else { throw FieldError(.negative(field: "Quantity", value: quantityText)) }
        return AppStoreEventCount(date: day, app: try required(fields, .appName), subscription: subscription,
                                  appleEvent: name, event: kind, quantity: quantity)
    }
}
