import TallyCore
import TallyIngest
import TallyWire

/// The KPI tables' part of the `rows` stage: the rows of one key are judged
/// by their table's row rule (``WhichRowsCount``), and the outcomes routed.
///
/// - Swipes, by id: ``SwipeVersionRule``. A counted swipe of the window
///   (``KPIsFamily/swipeWindow(_:_:)``) goes to the day it was made on
///   (``SwipeDaysStage``); a counted like, super like or report, whenever
///   made, goes to its pair of users (``SwipePairsStage``): a pass never
///   makes or unmakes a match.
/// - Subscription events, by id (Subscriber reports' rows too):
///   ``SubscriptionEventVersionRule``; a counted event goes to its
///   subscriber (``SubscribersStage``), a repeat within one file is a
///   reject of that file, worded and named as its kind of file says.
///
/// The reference tables (swipe users, products, connections) are judged
/// with every dataset's (``RowsStage``).
///
/// A superseded row is counted against its file, a rejected one becomes a
/// reject of its file.
struct KPIRowsStage {
    let plan: FlowPlan
    /// The swipes' window (``KPIsFamily/swipeWindow(_:_:)``).
    private let window: Range<Timestamp>

    init(plan: FlowPlan) {
        self.plan = plan
        window = KPIsFamily.swipeWindow(plan.period, plan.timezone)
    }

    /// Judges the rows of one key (all of one table).
    func run(_ records: [FlowRecord], emit: FlowEmit) {
        switch records[0] {
        case .kpis(.swipe):
            swipes(records.map { record in
                guard case .kpis(.swipe(let r)) = record else { preconditionFailure("a key of mixed kinds") }
                return r
            }, emit: emit)
        case .kpis(.event):
            events(records.map { record in
                guard case .kpis(.event(let r)) = record else { preconditionFailure("a key of mixed kinds") }
                return r
            }, emit: emit)
        default:
            preconditionFailure("not a row: \(records[0])")
        }
    }

    private func swipes(_ rows: [SwipeRow], emit: FlowEmit) {
        let outcomes = WhichRowsCount.sort(rows, by: SwipeVersionRule()) { i, r in
            SwipeVersionRule.Row(loadSeq: Int64(r.origin.file), line: Int64(r.origin.line), row: Int64(i))
        }
        precondition(outcomes.rejected.isEmpty, "SwipeVersionRule rejects nothing")
        for row in outcomes.counted {
            if window.contains(row.at) {
                emit(.swipeDays, KPIKeys.day(plan.timezone.localDate(of: row.at)),
                     .kpis(.daySwipe(from: row.from, action: row.action, at: row.at)))
            }
            if MatchRule.changesMatches(row.action) {
                let (first, second, forward) = MatchRule.pair(from: row.from, to: row.to)
                emit(.swipePairs, KPIKeys.pair(first, second), .kpis(.pairSwipe(
                    first: first, second: second, MatchRule.PairSwipe(forward: forward, action: row.action, timestamp: row.at))))
            }
        }
        for row in outcomes.superseded { plan.emitSuperseded(row.origin, emit) }
    }

    private func events(_ rows: [EventRow], emit: FlowEmit) {
        let outcomes = WhichRowsCount.sort(rows, by: SubscriptionEventVersionRule()) { i, r in
            SubscriptionEventVersionRule.Row(file: Int64(r.origin.file), loadSeq: Int64(r.origin.file), line: Int64(r.origin.line),
                                             row: Int64(i), source: Self.source(r))
        }
        for row in outcomes.counted {
            emit(.subscribers, KPIKeys.subscriber(app: row.record.app, user: row.record.userId), .kpis(.subscriberEvent(row)))
        }
        for row in outcomes.superseded { plan.emitSuperseded(row.origin, emit) }
        for (row, reason) in outcomes.rejected {
            plan.emitReject(row.origin, id: Self.source(row).rejectNamesUser ? row.record.userId : row.record.id,
                            reason: reason, emit)
        }
    }

    private static func source(_ row: EventRow) -> SubscriptionEventVersionRule.Source {
        row.fromSubscriberReport ? .subscriberReport : .eventLog
    }
}
