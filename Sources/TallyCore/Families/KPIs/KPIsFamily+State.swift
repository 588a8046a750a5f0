extension KPIsFamily.Summary {
    /// What the summary holds, with the subscription KPIs as their
    /// ``SubscriptionKPIs/State`` (restored with the family's settings by
    /// ``KPIsFamily/summary(from:)``).
    public var state: KPIsFamily.SummaryState {
        KPIsFamily.SummaryState(subscriptions: subscriptions.state, swipes: swipes, previousSwipes: previousSwipes,
                                rejects: rejects)
    }
}

extension KPIsFamily {
    /// What a KPI summary holds, with the subscription KPIs as their
    /// ``SubscriptionKPIs/State``: the family's partial result as it travels
    /// between processes (restored by ``summary(from:)``). Two states are
    /// equal when their counts and rejects are, whatever order the rejects came in.
    public struct SummaryState: Equatable, Sendable {
        public var subscriptions: SubscriptionKPIs.State
        public var swipes: SwipesDailyAccumulator<NumberedSwiperSet>
        public var previousSwipes: SwipesDailyAccumulator<NumberedSwiperSet>
        public var rejects: RejectList

        public init(subscriptions: SubscriptionKPIs.State, swipes: SwipesDailyAccumulator<NumberedSwiperSet>,
                    previousSwipes: SwipesDailyAccumulator<NumberedSwiperSet>, rejects: RejectList) {
            self.subscriptions = subscriptions
            self.swipes = swipes
            self.previousSwipes = previousSwipes
            self.rejects = rejects
        }

        public static func == (a: Self, b: Self) -> Bool {
            a.subscriptions == b.subscriptions && a.swipes == b.swipes && a.previousSwipes == b.previousSwipes
                && a.rejects.sorted == b.rejects.sorted
        }
    }

    /// The summary `state` describes, or nil when it was counted under other
    /// settings (another period, time zone or window) or for other months.
    public func summary(from state: SummaryState) -> Summary? {
        guard let subscriptions = SubscriptionKPIs(settings: settings.subscriptions, catalog: settings.catalog,
                                                   state: state.subscriptions),
              state.swipes.month == settings.period, state.previousSwipes.month == settings.period.adding(months: -1)
        else { return nil }
        return Summary(subscriptions: subscriptions, swipes: state.swipes, previousSwipes: state.previousSwipes,
                       rejects: state.rejects)
    }
}
