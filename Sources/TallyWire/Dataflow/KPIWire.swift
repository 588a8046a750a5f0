import TallyCore
import TallyIngest

/// The KPIs family's dataflow records on the wire (inside `flow.v2` lines,
/// after the case `kpis`): the record's own case, then its fields.
extension KPIRecord {
    public func encode(into w: inout WireWriter) {
        switch self {
        case .swipe(let s):
            w.string("swipe"); w.string(s.id); w.string(s.from); w.string(s.to); w.enumeration(s.action); w.timestamp(s.at)
            s.origin.encode(into: &w)
        case .event(let e):
            w.string("event"); e.encode(into: &w)
        case .pairSwipe(let first, let second, let swipe):
            w.string("pair-swipe"); w.string(first); w.string(second)
            w.bool(swipe.forward); w.enumeration(swipe.action); w.timestamp(swipe.timestamp)
        case .daySwipe(let from, let action, let at):
            w.string("day-swipe"); w.string(from); w.enumeration(action); w.timestamp(at)
        case .match(let at):
            w.string("match"); w.timestamp(at)
        case .subscriberEvent(let e):
            w.string("subscriber-event"); e.encode(into: &w)
        case .appStoreCount(let c):
            w.string("app-store-count"); w.date(c.date); w.string(c.app); w.string(c.subscription); w.string(c.appleEvent)
            w.enumeration(c.event); w.int(c.quantity)
        case .connection(let c):
            w.string("connection"); c.encode(into: &w)
        case .partial(let state, let firstEvent):
            w.string("partial"); state.encode(into: &w); w.timestamp(firstEvent)
        }
    }

    public init(fields f: inout WireFields) throws(WireError) {
        let kind = try f.string("kpis.case")
        switch kind {
        case "swipe":
            self = .swipe(SwipeRow(id: try f.string("id"), from: try f.string("from"), to: try f.string("to"),
                                   action: try f.enumeration("action", SwipeAction.self), at: try f.timestamp("at"),
                                   origin: try RowOrigin(fields: &f)))
        case "event": self = .event(try EventRow(fields: &f))
        case "pair-swipe":
            self = .pairSwipe(first: try f.string("first"), second: try f.string("second"),
                              MatchRule.PairSwipe(forward: try f.bool("forward"), action: try f.enumeration("action", SwipeAction.self),
                                                  timestamp: try f.timestamp("timestamp")))
        case "day-swipe":
            self = .daySwipe(from: try f.string("from"), action: try f.enumeration("action", SwipeAction.self), at: try f.timestamp("at"))
        case "match": self = .match(at: try f.timestamp("at"))
        case "subscriber-event": self = .subscriberEvent(try EventRow(fields: &f))
        case "app-store-count":
            self = .appStoreCount(AppStoreEventCount(
                date: try f.date("date"), app: try f.string("app"), subscription: try f.string("subscription"),
                appleEvent: try f.string("appleEvent"), event: try f.enumeration("event", SubscriptionEventKind.self),
                quantity: try f.int64("quantity")))
        case "connection": self = .connection(try PartnerConnection(fields: &f))
        case "partial":
            self = .partial(try KPIsFamily.SummaryState(fields: &f), firstEvent: try f.optionalTimestamp("firstEvent"))
        default: throw f.error("'\(kind.prefix(40))' is not a KPI dataflow record")
        }
    }
}

extension EventRow {
    /// `(subscription-event fields)  id  (origin)  fromSubscriberReport`.
    public func encode(into w: inout WireWriter) {
        UserSubscriptionEvent(app: record.app, userId: record.userId, event: record.event).encode(into: &w)
        w.string(record.id)
        origin.encode(into: &w)
        w.bool(fromSubscriberReport)
    }

    public init(fields f: inout WireFields) throws(WireError) {
        let event = try UserSubscriptionEvent(fields: &f)
        record = SubscriptionEventRecord(id: try f.string("id"), app: event.app, userId: event.userId, event: event.event)
        origin = try RowOrigin(fields: &f)
        fromSubscriberReport = try f.bool("fromSubscriberReport")
    }
}
