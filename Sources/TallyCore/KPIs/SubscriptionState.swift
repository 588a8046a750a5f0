/// Where one user's subscription to one app stands: the state machine every
/// subscription KPI is derived from.
///
/// | event | from | to |
/// | --- | --- | --- |
/// | `trial_started` | not paid | ``trial(product:)`` (a paid user stays paid) |
/// | `subscribed`, `renewed` | any | ``paid(product:autoRenew:)``, auto-renew on |
/// | `upgraded`, `downgraded` | any | paid on the new product, auto-renew on |
/// | `cancelled` | paid | paid, auto-renew off (access lasts until `expired`) |
/// | `expired` | any | ``none`` |
/// | `refunded` | any | ``none`` (access ends at once) |
/// | `signup`, `paywall_shown` | any | unchanged |
///
/// A `renewed` without a product keeps the current one. "Paid" is exactly
/// the contract's rule: the latest paying event is not followed by an
/// `expired` or `refunded`.
public enum SubscriptionState: Sendable, Equatable, Hashable {
    /// No access: never subscribed, or expired, or refunded.
    case none
    /// In a free trial of `product`.
    case trial(product: String?)
    /// A paid subscriber of `product`; `autoRenew` false after `cancelled`.
    case paid(product: String?, autoRenew: Bool)

    /// Whether the user is a paid subscriber in this state.
    public var isPaid: Bool {
        if case .paid = self { return true }
        return false
    }

    /// The product paid for, when paid.
    public var paidProduct: String? {
        if case .paid(let product, _) = self { return product }
        return nil
    }

    /// The state after `event`.
    public func applying(_ event: SubscriptionEvent) -> SubscriptionState {
        switch event.kind {
        case .signup, .paywallShown:
            return self
        case .trialStarted:
            return isPaid ? self : .trial(product: event.productId)
        case .subscribed, .renewed:
            return .paid(product: event.productId ?? paidProduct, autoRenew: true)
        case .upgraded, .downgraded:
            return .paid(product: event.productId ?? paidProduct, autoRenew: true)
        case .cancelled:
            if case .paid(let product, _) = self { return .paid(product: product, autoRenew: false) }
            return self
        case .expired, .refunded:
            return .none
        }
    }
}
