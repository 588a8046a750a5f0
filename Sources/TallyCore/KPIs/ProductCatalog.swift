/// The products subscriptions are priced from: `subscriptions/products`
/// rows, falling back on the configuration's catalogue.
public struct ProductCatalog: Sendable {
    /// A product's plan and price.
    public struct Entry: Sendable, Equatable {
        public var productId: String
        public var app: String
        public var plan: String
        public var yearly: Bool
        /// The price per period, in `currency` minor units.
        public var price: Int64
        public var currency: Currency

        public init(productId: String, app: String, plan: String, yearly: Bool, price: Int64, currency: Currency) {
            self.productId = productId
            self.app = app
            self.plan = plan
            self.yearly = yearly
            self.price = price
            self.currency = currency
        }

        /// The monthly price: the price of a monthly product; a yearly
        /// price / 12 in minor units, rounded half away from zero.
        public var monthlyPrice: Int64 {
            yearly ? Int64(Rounding.divideHalfAwayFromZero(Int128(price), by: 12)) : price
        }
    }

    private var entries: [String: Entry] = [:]

    /// `primary` entries win over `fallback` ones with the same product id.
    public init(primary: [Entry], fallback: [Entry] = []) {
        for entry in fallback { entries[entry.productId] = entry }
        for entry in primary { entries[entry.productId] = entry }
    }

    /// The product with `productId`, if known.
    public subscript(productId: String) -> Entry? { entries[productId] }

    public var count: Int { entries.count }

    /// Every product, by product id (byte order).
    public var all: [Entry] { entries.values.sorted { ByteOrder.precedes($0.productId, $1.productId) } }
}

extension ProductCatalog.Entry {
    /// A product of the configuration's catalogue.
    public init(_ product: TallyConfig.Product) {
        self.init(productId: product.productId, app: product.app, plan: product.plan, yearly: product.period == "yearly",
                  price: product.price, currency: product.currency)
    }
}
