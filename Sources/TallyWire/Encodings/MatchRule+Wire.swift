import TallyCore

extension MatchRule.PairPartial: WireRecord {
    public static let wireKind = "pair-state"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 2

    /// `pair-state.v1  first  second  firstForwardLike  firstBackwardLike  reported`
    /// (instants `\N` when there was no like that way).
    public func encode(into writer: inout WireWriter) {
        writer.string(first)
        writer.string(second)
        writer.timestamp(state.firstForwardLike)
        writer.timestamp(state.firstBackwardLike)
        writer.bool(state.reported)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let first = try fields.string("first")
        let second = try fields.string("second")
        var state = MatchRule.PairState()
        state.firstForwardLike = try fields.optionalTimestamp("firstForwardLike")
        state.firstBackwardLike = try fields.optionalTimestamp("firstBackwardLike")
        state.reported = try fields.bool("reported")
        self.init(first: first, second: second, state: state)
    }
}
