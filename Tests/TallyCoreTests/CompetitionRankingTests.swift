import Testing
@testable import TallyCore

/// The one ranking every board uses (leaderboards, activity).
@Suite("Competition ranking")
struct CompetitionRankingTests {
    @Test("ties share a rank and the next rank skips their places; ties list by id in byte order")
    func standardCompetitionRanks() {
        let scores = ["b": 5, "a": 7, "c": 5, "d": 1, "B": 5]
        let ranked = CompetitionRanking.rank(Array(scores.keys), ahead: { scores[$0]! > scores[$1]! }, id: { $0 })
        #expect(ranked.map { "\($0.rank) \($0.item)" } == ["1 a", "2 B", "2 b", "2 c", "5 d"])
        #expect(CompetitionRanking.rank([String](), ahead: { _, _ in false }, id: { $0 }).isEmpty)
    }

    @Test("for random scores: each rank is 1 + the items strictly ahead, the order is by score then id, whatever the input order")
    func ranksCountTheItemsAhead() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let items = (0..<Int.random(in: 0...12, using: &rng)).map { i in
                (id: "u\(i)", points: Int.random(in: 0...3, using: &rng), minutes: Int.random(in: 0...2, using: &rng))
            }
            func ahead(_ a: (id: String, points: Int, minutes: Int), _ b: (id: String, points: Int, minutes: Int)) -> Bool {
                (a.points, a.minutes) > (b.points, b.minutes)
            }
            let ranked = CompetitionRanking.rank(items, ahead: ahead, id: \.id)
            let shuffled = CompetitionRanking.rank(items.shuffled(using: &rng), ahead: ahead, id: \.id)
            #expect(ranked.map(\.item.id) == shuffled.map(\.item.id))
            #expect(ranked.count == items.count)
            for r in ranked {
                #expect(r.rank == 1 + items.filter { ahead($0, r.item) }.count)
            }
            for (a, b) in zip(ranked, ranked.dropFirst()) {
                #expect(ahead(a.item, b.item) || (!ahead(b.item, a.item) && ByteOrder.precedes(a.item.id, b.item.id)))
            }
        }
    }
}
