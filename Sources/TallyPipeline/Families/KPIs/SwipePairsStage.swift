import TallyCore
import TallyWire

/// The matches' partition stage of a dataflow run: the counted likes, super
/// likes and reports between two users (both directions) are folded by
/// ``MatchRule``; a match formed within the swipes' window
/// (``KPIsFamily/swipeWindow(_:_:)``) goes to the day it formed on
/// (``SwipeDaysStage``).
///
/// The records of one key are grouped again by their users' bytes
/// (``KPIKeys/exact(_:)``), so two pairs never mix whatever their ids hold.
struct SwipePairsStage {
    let plan: FlowPlan
    /// The swipes' window, worked out once: the stage runs once per pair.
    private let window: Range<Timestamp>

    init(plan: FlowPlan) {
        self.plan = plan
        window = KPIsFamily.swipeWindow(plan.period, plan.timezone)
    }

    func run(_ records: [FlowRecord], emit: FlowEmit) {
        let swipes = records.map { record -> (pair: [UInt8], swipe: MatchRule.PairSwipe) in
            guard case .kpis(.pairSwipe(let first, let second, let swipe)) = record else {
                preconditionFailure("not a pair's swipe: \(record)")
            }
            return (KPIKeys.exact(first, second), swipe)
        }
        for pair in KeyGroups.split(swipes, key: \.pair) {
            var state = MatchRule.PairState()
            for (_, swipe) in pair { state.add(swipe) }
            if let formed = state.matchedAt, window.contains(formed) {
                emit(.swipeDays, KPIKeys.day(plan.timezone.localDate(of: formed)), .kpis(.match(at: formed)))
            }
        }
    }
}
