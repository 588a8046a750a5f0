/// Whether a subscription event names a product nobody priced: its
/// `productId` is in neither `subscriptions/products` nor tally.yml's
/// products. Such an event is a reject (its price, plan and currency are
/// unknown); signups and paywall views carry no product that matters and
/// always count.
///
/// ```swift
/// UnknownProductRule.reason(event, catalog: catalog)
/// // "productId 'pro_weekly' is in neither subscriptions/products nor the products of tally.yml"
/// ```
public enum UnknownProductRule {
    /// Why `event` is rejected, or nil when it counts.
    public static func reason(_ event: SubscriptionEvent, catalog: ProductCatalog) -> RejectReason? {
        guard let product = event.productId, event.kind != .signup, event.kind != .paywallShown,
              catalog[product] == nil else { return nil }
        return .unknownProduct(product)
    }
}
