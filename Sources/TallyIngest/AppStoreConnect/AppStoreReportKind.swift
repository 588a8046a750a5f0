/// The App Store Connect reports tally reads, told apart by their header.
public enum AppStoreReportKind: String, Sendable, Equatable {
    /// The Subscriber report: one row per subscriber transaction, with a `Subscriber ID`.
    case subscriber
    /// The Subscription Event report: aggregated event counts (`Event`, `Quantity`), no user.
    case subscriptionEvent

    /// The columns tally reads from each report, with the header spellings
    /// accepted for each (Apple's own first; matched ignoring case, spaces,
    /// `_` and `-`).
    public enum Column: String, CaseIterable, Sendable {
        case eventDate, appName, subscriptionName, subscriptionAppleID, offerType, customerPrice, subscriberID, refund,
             event, quantity

        public var aliases: [String] {
            switch self {
            case .eventDate: return ["Event Date", "Date", "Begin Date"]
            case .appName: return ["App Name", "App", "Title"]
            case .subscriptionName: return ["Subscription Name", "Subscription", "Product ID", "SKU"]
            case .subscriptionAppleID: return ["Subscription Apple ID", "Subscription ID", "Apple Identifier"]
            case .offerType: return ["Subscription Offer Type", "Offer Type", "Introductory Price Type"]
            case .customerPrice: return ["Customer Price"]
            case .subscriberID: return ["Subscriber ID", "Subscriber Identifier"]
            case .refund: return ["Refund"]
            case .event: return ["Event", "Event Type"]
            case .quantity: return ["Quantity", "Units"]
            }
        }

        /// The name used in messages (Apple's spelling).
        public var appleName: String { aliases[0] }

        static func key(_ header: String) -> String {
            String(FieldName.trimmed(header).lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
        }
    }

    /// The columns a report must have.
    public var required: [Column] {
        switch self {
        case .subscriber: return [.eventDate, .appName, .subscriptionName, .subscriberID]
        case .subscriptionEvent: return [.eventDate, .event, .appName, .subscriptionName, .quantity]
        }
    }

    /// The report a header shows: a `Subscriber ID` column makes it the
    /// Subscriber report; `Event` and `Quantity` the Subscription Event report.
    public static func detect(_ columns: Set<Column>) -> AppStoreReportKind? {
        if columns.contains(.subscriberID) { return .subscriber }
        if columns.contains(.event) && columns.contains(.quantity) { return .subscriptionEvent }
        return nil
    }
}
