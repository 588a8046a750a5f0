import TallyCore

/// Apple's subscription event names (the `Event` column of the Subscription
/// Event report) and the contract events they stand for: today's names
/// (App Store Connect Help, "Subscription events": Start Introductory Offer,
/// Opt-In, Start Offer Code, Paid Subscription from Introductory Offer,
/// Canceled from Billing Retry, Reactivation to Offer Code with Downgrade, …)
/// and the older spellings (Start Introductory Price, Paid Subscription from
/// Free Trial, Renewal, Canceled, …).
///
/// Matched case-insensitively, surrounding spaces ignored; names of the form
/// "Upgrade from A to B" match by their leading words. A name not listed is
/// rejected: it has no equivalent among the contract's events (the billing
/// retry and grace period events, a renewal extension).
///
/// ```swift
/// AppStoreEventNames.kind(of: "Paid Subscription from Introductory Offer")  // .subscribed
/// AppStoreEventNames.kind(of: "Start Introductory Offer", offerType: "Free Trial")  // .trialStarted
/// AppStoreEventNames.kind(of: "Billing Retry from Paid Subscription")  // nil
/// ```
public enum AppStoreEventNames {
    /// Whole names.
    static let exact: [String: SubscriptionEventKind] = [
        // Activations
        "subscribe": .subscribed,
        "start introductory offer": .subscribed,
        "start introductory price": .subscribed,
        "opt-in": .subscribed,
        "start offer code": .subscribed,
        "start promotional offer": .subscribed,
        "reactivate": .subscribed,
        "start free trial": .trialStarted,
        "free trial": .trialStarted,
        // Renewals
        "renew": .renewed,
        "renewal": .renewed,
        // Plan changes
        "upgrade": .upgraded,
        "crossgrade": .upgraded,
        "downgrade": .downgraded,
        // Endings
        "cancel": .cancelled,
        "canceled": .cancelled,
        "cancelled": .cancelled,
        "expire": .expired,
        "expired": .expired,
        "refund": .refunded,
    ]

    /// Leading words of longer names ("Crossgrade from Monthly to Yearly",
    /// "Paid Subscription from Opt-In", "Canceled from Billing Grace Period").
    static let prefixes: [(String, SubscriptionEventKind)] = [
        ("paid subscription from ", .subscribed),
        ("reactivate with ", .subscribed),
        ("reactivation ", .subscribed),
        ("upgrade from ", .upgraded),
        ("downgrade from ", .downgraded),
        ("crossgrade from ", .upgraded),
        ("renewal from ", .renewed),
        ("canceled from ", .cancelled),
        ("canceled after ", .cancelled),
        ("cancelled from ", .cancelled),
        ("cancelled after ", .cancelled),
    ]

    /// The contract event Apple's `name` stands for, or nil when it has none.
    /// An introductory offer whose `offerType` (the Subscription Offer Type
    /// column) is Free Trial starts a trial.
    public static func kind(of name: String, offerType: String? = nil) -> SubscriptionEventKind? {
        let key = FieldName.trimmed(name).lowercased()
        guard let kind = exact[key] ?? prefixes.first(where: { key.hasPrefix($0.0) })?.1 else { return nil }
        if kind == .subscribed, key.hasPrefix("start introductory"),
           let offer = offerType, FieldName.trimmed(offer).lowercased() == "free trial" {
            return .trialStarted
        }
        return kind
    }

    /// The names understood, for messages.
    static var known: String {
        ["Subscribe", "Start Introductory Offer", "Paid Subscription from …", "Renew", "Upgrade from …",
         "Downgrade from …", "Crossgrade from …", "Cancel", "Canceled from …", "Refund", "…"]
            .joined(separator: ", ")
    }
}
