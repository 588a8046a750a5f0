import TallyCore
import TallyIngest

/// What every KPI stage instance of a dataflow run shares: the family's
/// settings, and the product catalogue, a small table each instance reads
/// from the plan's files with the same decoding and row rule as the `rows`
/// stage applies (as ``FlowBroadcast/fxRates(_:)`` reads the fx rates).
enum KPIBroadcast {
    /// The KPIs the stages count their partitions with: `tally run`'s
    /// settings (``KPIsKeys/init(config:period:timezone:firstMonth:products:connections:appStoreEvents:fxRates:)``),
    /// with the monthly series starting at the earliest month the run
    /// allows, so every partial summary merges with every other; the merge
    /// narrows the total to the real first month. Connections, App Store
    /// counts and fx rates are the merge's (they are only read when finalising).
    static func counting(_ plan: FlowPlan, products: [ProductCatalog.Entry]) -> KPIsKeys {
        KPIsKeys(config: plan.config, period: plan.period, timezone: plan.timezone,
                 firstMonth: KPIsFamily.earliestFirstMonth(plan.period), products: products, connections: [],
                 appStoreEvents: [], fxRates: [])
    }

    /// The products that count (``ReferenceRowRule`` per productId), by productId.
    static func products(_ plan: FlowPlan) throws -> [ProductCatalog.Entry] {
        try FlowBroadcast.countedRows(plan, of: .products).compactMap { row -> ProductCatalog.Entry? in
            guard case .product(let r) = row.value else { return nil }
            return r.entry
        }.sorted { ByteOrder.precedes($0.productId, $1.productId) }
    }
}
