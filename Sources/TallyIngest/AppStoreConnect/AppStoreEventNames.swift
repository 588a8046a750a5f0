import TallyCore

/// Apple's subscription event names (the `Event` column of the Subscription
/// Event report) and the contract events they stand for.
///
/// Matched case-insensitively, surrounding spaces ignored; names of the form
/// "Upgrade from A to B" match by their leading words. A name not listed is
/// rejected: it has no equivalent among the contract's events.
public enum AppStoreEventNames {
    /// Whole names.
    static let exact: [String: SubscriptionEventKind] = [
        "subscribe": .subscribed,
        "start introductory price": .subscribed,
        "start promotional offer": .subscribed,
        "paid subscription from introductory price": .subscribed,
        "paid subscription from free trial": .subscribed,
        "reactivate": .subscribed,
        "start free trial": .trialStarted,
        "free trial": .trialStarted,
        "renew": .renewed,
        "renewal": .renewed,
        "upgrade": .upgraded,
        "crossgrade": .upgraded,
        "downgrade": .downgraded,
        "cancel": .cancelled,
        "canceled": .cancelled,
        "cancelled": .cancelled,
        "expire": .expired,
        "expired": .expired,
        "refund": .refunded,
    ]

    /// Leading words of longer names ("Crossgrade from Monthly to Yearly").
    static let prefixes: [(String, SubscriptionEventKind)] = [
        ("upgrade from ", .upgraded),
        ("downgrade from ", .downgraded),
        ("crossgrade from ", .upgraded),
        ("renewal from ", .renewed),
        ("reactivate with ", .subscribed),
    ]

    /// The contract event Apple's `name` stands for, or nil when it has none.
    public static func kind(of name: String) -> SubscriptionEventKind? {
        let key = FieldName.trimmed(name).lowercased()
        if let kind = exact[key] { return kind }
        return prefixes.first { key.hasPrefix($0.0) }?.1
    }

    /// The names understood, for messages.
    static var known: String {
        ["Subscribe", "Renew", "Upgrade from …", "Downgrade from …", "Crossgrade from …", "Cancel", "Refund", "…"]
            .joined(separator: ", ")
    }
}
