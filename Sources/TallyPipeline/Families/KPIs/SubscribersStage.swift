import TallyCore
import TallyWire

/// The subscribers' partition stage of a dataflow run: one (app, user)'s
/// counted events, in ``SubscriptionEventOrder`` (time, then load order,
/// then line, as the warehouse reads them), become the family's `.subscriber` partition
/// (``KPIsFamily``), whose events naming an unknown product the family
/// rejects (``UnknownProductRule``).
///
/// The monthly series start at the month of the run's earliest event, a
/// fact of every subscriber's events together. Rather than have each
/// instance read every event first, the stage counts under the earliest
/// first month the run allows (``KPIsFamily/earliestFirstMonth(_:)``) and
/// keeps the earliest event instant it met; the merge takes the earliest
/// of those and narrows the merged summary to that month
/// (``KPIsFamily/Summary/narrowed(to:)``), which gives exactly the counts
/// of `tally run`.
///
/// Each instance folds the subscribers it computes into one summary
/// (``KPIsKeys/Fold``) and sends it to the merge when its input ends
/// (``finish(emit:)``), as a combiner does, rather than one summary per subscriber. The product
/// catalogue is read by each instance from the plan's files
/// (``KPIBroadcast/products(_:)``).
final class SubscribersStage {
    let plan: FlowPlan
    private var counting: KPIsKeys?
    private var fold: KPIsKeys.Fold?
    private var firstEvent: Timestamp?

    init(plan: FlowPlan) { self.plan = plan }

    /// Adds the subscriber of one key (or the few, should ids make two share it) to the instance's summary.
    func run(_ records: [FlowRecord], emit: FlowEmit) throws {
        var folding = try fold ?? keys().fold()
        fold = nil  // the one reference: the fold is changed in place below, not copied
        let events = records.map { record -> EventRow in
            guard case .kpis(.subscriberEvent(let event)) = record else { preconditionFailure("not a subscriber's event: \(record)") }
            return event
        }
        for subscriber in KeyGroups.split(events, key: { KPIKeys.exact($0.record.app, $0.record.userId) }) {
            let ordered = subscriber.sorted { a, b in
                SubscriptionEventOrder.precedes(
                    .init(instant: a.record.event.timestamp, loadOrder: Int64(a.origin.file), line: a.origin.line),
                    .init(instant: b.record.event.timestamp, loadOrder: Int64(b.origin.file), line: b.origin.line))
            }
            let first = ordered[0].record
            folding.add(.subscriber(app: first.app, userId: first.userId, events: ordered.map { row in
                var event = row.record.event
                event.source = SourceRef(file: plan.file(row.origin.file).relativePath, line: row.origin.line)
                return event
            }, ids: ordered.map(\.record.id)))
            firstEvent = min(firstEvent ?? first.event.timestamp, first.event.timestamp)
        }
        fold = folding
    }

    /// Sends the instance's summary, and the earliest event it met, to the merge.
    func finish(emit: FlowEmit) {
        guard var fold else { return }
        emit(.merge, KPIKeys.merge, .kpis(.partial(fold.finish().state, firstEvent: firstEvent)))
        self.fold = nil
        firstEvent = nil
    }

    private func keys() throws -> KPIsKeys {
        if let counting { return counting }
        let made = KPIBroadcast.counting(plan, products: try KPIBroadcast.products(plan))
        counting = made
        return made
    }
}
