import Testing
@testable import TallyCore

/// The one order a subscriber's events apply in, whatever transport brought them.
@Suite("A subscriber's events: by instant, then load order, then line")
struct SubscriptionTimelineOrderTests {
    struct Read: Equatable {
        var name: String
        var at: Int64
        var load: Int64
        var line: Int64
    }

    @Test("ties at one instant go by the file's load order, then by line; the arrival order never matters")
    func ties() {
        let reads = [Read(name: "later file", at: 10, load: 2, line: 1), Read(name: "line 9", at: 10, load: 1, line: 9),
                     Read(name: "line 3", at: 10, load: 1, line: 3), Read(name: "earliest", at: 5, load: 3, line: 50)]
        let expected = ["earliest", "line 3", "line 9", "later file"]
        for shuffled in [reads, reads.reversed(), [reads[2], reads[0], reads[3], reads[1]]] {
            let ordered = SubscriptionTimeline.ordered(shuffled, instant: { Timestamp(microseconds: $0.at) }) {
                SubscriptionTimeline.ReadOrder(load: $0.load, line: $0.line)
            }
            #expect(ordered.map(\.name) == expected)
        }
    }
}
