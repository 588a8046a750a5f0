import TallyCore
import TallyWire

/// The swipes' partition stage of a dataflow run: one local day's counted
/// swipes and the matches formed that day become the family's
/// `.swipes` and `.matches` partitions, folded by ``KPIsKeys``, whose
/// summary goes to the merge.
///
/// The family counts distinct swipers with numbers (``NumberedSwiperSet``),
/// which `tally run` takes from the warehouse. Here the day's swipers are
/// numbered within the day (their ids in byte order): no other partition
/// adds to that day's counters, so the day's set of numbers is never
/// united with another partition's, and its count is the day's swipers.
/// Two ids that differ in their bytes are two swipers, as in the warehouse.
final class SwipeDaysStage {
    let plan: FlowPlan
    private var counting: KPIsKeys?

    init(plan: FlowPlan) { self.plan = plan }

    func run(_ records: [FlowRecord], emit: FlowEmit) {
        var swipes: [(from: [UInt8], action: SwipeAction, at: Timestamp)] = []
        var matches: [Timestamp] = []
        for record in records {
            switch record {
            case .kpis(.daySwipe(let from, let action, let at)): swipes.append((Array(from.utf8), action, at))
            case .kpis(.match(let at)): matches.append(at)
            default: preconditionFailure("not a day's swipe or match: \(record)")
            }
        }
        let swipers = Set(swipes.map(\.from)).sorted { $0.lexicographicallyPrecedes($1) }
        let number = Dictionary(uniqueKeysWithValues: swipers.enumerated().map { ($1, Int64($0)) })
        var fold = keys().fold()
        fold.add(.swipes(batch: 0, swipes.map { KPIsFamily.Swipe(from: number[$0.from]!, action: $0.action, at: $0.at) }))
        fold.add(.matches(batch: 0, matches))
        emit(.merge, KPIKeys.merge, .kpis(.partial(fold.finish().state, firstEvent: nil)))
    }

    /// The KPIs the stages count with (swipes need no product catalogue).
    private func keys() -> KPIsKeys {
        if let counting { return counting }
        let made = KPIBroadcast.counting(plan, products: [])
        counting = made
        return made
    }
}
