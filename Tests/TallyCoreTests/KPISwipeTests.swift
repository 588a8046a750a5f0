import PropertyBased
import Testing
@testable import TallyCore

@Suite("KPIs: the match rule and swipes_daily")
struct KPISwipeTests {
    typealias S = MatchRule.PairSwipe

    @Test("a like each way matches at the later of the two first likes; super_like counts as a like")
    func mutualLikes() {
        let swipes = [S(forward: true, action: .like, timestamp: ts("2026-10-01T10:00:00Z")),
                      S(forward: false, action: .superLike, timestamp: ts("2026-10-03T09:00:00Z")),
                      S(forward: true, action: .like, timestamp: ts("2026-10-04T09:00:00Z"))]
        #expect(MatchRule.matchedAt(swipes) == ts("2026-10-03T09:00:00Z"))
        #expect(MatchRule.matchedAt([S(forward: true, action: .superLike, timestamp: ts("2026-10-01T10:00:00Z")),
                                     S(forward: false, action: .superLike, timestamp: ts("2026-10-01T09:00:00Z"))])
                == ts("2026-10-01T10:00:00Z"))
    }

    @Test("a like one way only, or a like answered by a pass, is no match")
    func oneWay() {
        #expect(MatchRule.matchedAt([S(forward: true, action: .like, timestamp: ts("2026-10-01T10:00:00Z"))]) == nil)
        #expect(MatchRule.matchedAt([S(forward: true, action: .like, timestamp: ts("2026-10-01T10:00:00Z")),
                                     S(forward: false, action: .pass, timestamp: ts("2026-10-02T10:00:00Z"))]) == nil)
    }

    @Test("a report either way, before or after the likes, blocks the pair")
    func reportBlocks() {
        let likes = [S(forward: true, action: .like, timestamp: ts("2026-10-01T10:00:00Z")),
                     S(forward: false, action: .like, timestamp: ts("2026-10-02T10:00:00Z"))]
        #expect(MatchRule.matchedAt(likes) != nil)
        #expect(MatchRule.matchedAt(likes + [S(forward: true, action: .report, timestamp: ts("2026-12-01T10:00:00Z"))]) == nil)
        #expect(MatchRule.matchedAt([S(forward: false, action: .report, timestamp: ts("2026-09-01T10:00:00Z"))] + likes) == nil)
    }

    @Test("a later pass does not undo a like; repeated likes keep the first")
    func laterPassAndRepeats() {
        let swipes = [S(forward: true, action: .like, timestamp: ts("2026-10-01T10:00:00Z")),
                      S(forward: true, action: .pass, timestamp: ts("2026-10-05T10:00:00Z")),
                      S(forward: false, action: .like, timestamp: ts("2026-10-02T10:00:00Z")),
                      S(forward: false, action: .like, timestamp: ts("2026-10-09T10:00:00Z"))]
        #expect(MatchRule.matchedAt(swipes) == ts("2026-10-02T10:00:00Z"))
    }

    @Test("the rule's match actions are exactly those that can change a pair: likes, super likes, reports")
    func matchActionsAreThoseThatChangeAPair() {
        #expect(MatchRule.matchActions == [.like, .superLike, .report])
        let t = ts("2026-10-01T10:00:00Z"), later = ts("2026-10-02T10:00:00Z")
        var liked = MatchRule.PairState()
        liked.add(S(forward: true, action: .like, timestamp: later))
        var matched = liked
        matched.add(S(forward: false, action: .like, timestamp: later))
        let states = [MatchRule.PairState(), liked, matched]
        for action in SwipeAction.allCases {
            // Whether a swipe of the action, either way, changes any of the states.
            let changes = states.contains { state in
                [true, false].contains { forward in
                    var next = state
                    next.add(S(forward: forward, action: action, timestamp: t))
                    return next != state
                }
            }
            #expect(changes == MatchRule.matchActions.contains(action), "\(action)")
            #expect(MatchRule.changesMatches(action) == MatchRule.matchActions.contains(action), "\(action)")
        }
    }

    @Test("partial pair states merge to the state of all the swipes")
    func pairStatesMerge() {
        var a = MatchRule.PairState()
        a.add(S(forward: true, action: .like, timestamp: ts("2026-10-01T10:00:00Z")))
        var b = MatchRule.PairState()
        b.add(S(forward: false, action: .like, timestamp: ts("2026-10-02T10:00:00Z")))
        a.merge(b)
        #expect(a.matchedAt == ts("2026-10-02T10:00:00Z"))
        var c = MatchRule.PairState()
        c.add(S(forward: false, action: .report, timestamp: ts("2026-10-03T10:00:00Z")))
        a.merge(c)
        #expect(a.matchedAt == nil)
    }

    @Test("the pair key orders users by bytes")
    func pairKey() {
        #expect(MatchRule.pair(from: "b", to: "a") == ("a", "b", false))
        #expect(MatchRule.pair(from: "Z", to: "a") == ("Z", "a", true))
    }

    @Test("swipes_daily lists every day: zeros and empty rates on a day without swipes")
    func daily() {
        var acc = SwipesDailyAccumulator<HashedSwiperSet<String>>(month: YearMonth("2026-02")!)
        let d = LocalDate(year: 2026, month: 2, day: 3)!
        acc.addSwipe(on: d, from: "u1", action: .like)
        acc.addSwipe(on: d, from: "u1", action: .superLike)
        acc.addSwipe(on: d, from: "u2", action: .pass)
        acc.addSwipe(on: d, from: "u3", action: .report)
        acc.addMatch(on: d)
        acc.addSwipe(on: LocalDate(year: 2026, month: 3, day: 1)!, from: "u9", action: .like)   // another month: ignored
        let days = acc.result
        #expect(days.count == 28)
        let third = days[2]
        #expect([third.swipes, third.swipers, third.likes, third.superLikes, third.passes, third.reports, third.matches]
                == [4, 3, 1, 1, 1, 1, 1])
        #expect(third.likeRate.csv == "0.5000")
        #expect(third.matchRate.csv == "0.5000")
        let empty = days[0]
        #expect(empty.swipes == 0 && empty.matches == 0)
        #expect(empty.likeRate.csv == "" && empty.matchRate.csv == "")
    }

    @Test("rates: 4 decimals rounded half away from zero, empty over zero; percentages with 1 decimal")
    func rates() {
        #expect(KPIRate(1, of: 3).csv == "0.3333")
        #expect(KPIRate(2, of: 3).csv == "0.6667")
        #expect(KPIRate(1, of: 8).csv == "0.1250")
        #expect(KPIRate(1, of: 20_000).csv == "0.0001")   // 0.00005 rounds up
        #expect(KPIRate(0, of: 0).csv == "")
        #expect(KPIRate(0, of: 0).value == nil)
        #expect(KPIRate(3, of: 20).percent == "15.0%")
    }

    @Test("actions and events are matched exactly as the contract spells them")
    func spellings() {
        #expect(SwipeAction(contract: "super_like") == .superLike)
        #expect(SwipeAction(contract: "superlike") == nil)
        #expect(SwipeAction(utf8: Array("report".utf8)) == .report)
        // The bytes read from files and the warehouse: every spelling, and what only looks like one.
        for action in SwipeAction.allCases { #expect(SwipeAction(utf8: Array(action.rawValue.utf8)) == action) }
        for near in ["lime", "post", "super_lik", "super_likes", "super-like", "Super_like", "repost", "Like", "", "l", "liked"] {
            #expect(SwipeAction(utf8: Array(near.utf8)) == nil, "\(near)")
        }
        #expect(SubscriptionEventKind(contract: "paywall_shown") == .paywallShown)
        #expect(SubscriptionEventKind(contract: "billing_issue") == nil)
    }
}

@Suite("Swiper sets: numbered users as bits count like a set")
struct SwiperSetTests {
    @Test func numberedSetsCountAndUniteLikeSets() async {
        await propertyCheck(count: 200, input: Gen.uint64(), Gen.int(in: 0...3_000)) { seed, size in
            var rng = SplitMix64(seed: seed)
            var bits = NumberedSwiperSet(), other = NumberedSwiperSet()
            var set = Set<Int64>(), otherSet = Set<Int64>()
            for _ in 0..<size {
                let user = Int64.random(in: 1...5_000, using: &rng)
                if Bool.random(using: &rng) { bits.insert(user); set.insert(user) } else { other.insert(user); otherSet.insert(user) }
            }
            #expect(bits.count == set.count && other.count == otherSet.count)
            bits.formUnion(other)
            #expect(bits.count == set.union(otherSet).count)
        }
    }
}
