import Testing
@testable import TallyCore

/// The one "date then id" order of listed rows, and its ties.
@Suite("DateThenId: the order of dated rows")
struct DateThenIdTests {
    typealias Key = DateThenId<LocalDate>

    @Test("date first; on one day id by UTF-8 bytes (e10 before e9, Z before a, é after z); undated last")
    func dateThenIdBytes() {
        let keys = [Key(day("2026-10-03"), id: "a"), Key(nil, id: "b"), Key(day("2026-10-02"), id: "e9"),
                    Key(day("2026-10-02"), id: "é"), Key(day("2026-10-02"), id: "z"), Key(nil, id: "a"),
                    Key(day("2026-10-02"), id: "e10"), Key(day("2026-10-02"), id: "Z")]
        let sorted = DateThenId.sorted(keys) { $0 }
        #expect(sorted.map { "\($0.when.map(String.init(describing:)) ?? "-") \($0.id)" } == [
            "2026-10-02 Z", "2026-10-02 e10", "2026-10-02 e9", "2026-10-02 z", "2026-10-02 é",
            "2026-10-03 a", "- a", "- b"])
    }

    @Test("same date and id: the file's path by bytes, then the line; a row without a source first; equal keys keep the order given")
    func tiesGoToTheSource() {
        let d = day("2026-10-02")
        let b9 = Key(d, id: "x", source: SourceRef(file: "b.csv", line: 9))
        let a12 = Key(d, id: "x", source: SourceRef(file: "a.csv", line: 12))
        let a3 = Key(d, id: "x", source: SourceRef(file: "a.csv", line: 3))
        let bare = Key(d, id: "x")
        #expect(DateThenId.sorted([b9, a12, a3]) { $0 }.map(\.source!.line) == [3, 12, 9])
        #expect(DateThenId.order(a3, a3) == nil)
        #expect(DateThenId.order(bare, bare) == nil)
        #expect(DateThenId.order(bare, a3) == true && DateThenId.order(a3, bare) == false)
        // Equal keys keep the order given, whatever it is.
        let tagged = [(a12, 1), (bare, 2), (a3, 3), (bare, 4), (Key(d, id: "w"), 5)]
        #expect(DateThenId.sorted(tagged) { $0.0 }.map(\.1) == [5, 2, 4, 3, 1])
        #expect(DateThenId.sorted(tagged.reversed()) { $0.0 }.map(\.1) == [5, 4, 2, 3, 1])
        // The date and id come before the source.
        let early = Key(day("2026-10-01"), id: "y", source: SourceRef(file: "z.csv", line: 99))
        #expect(DateThenId.precedes(early, a3) && DateThenId.precedes(Key(d, id: "w", source: SourceRef(file: "z.csv", line: 1)), a3))
    }

    @Test("the instant form orders check-ins by createdAt, id, then file and line")
    func instants() {
        let t = ts("2026-10-02T10:00:00Z")
        let keys = [DateThenId(t, id: "k2", source: SourceRef(file: "c.csv", line: 1)),
                    DateThenId(t, id: "k1", source: SourceRef(file: "c.csv", line: 7)),
                    DateThenId(t, id: "k1", source: SourceRef(file: "c.csv", line: 2)),
                    DateThenId(ts("2026-10-01T23:59:59Z"), id: "k9", source: nil)]
        #expect(DateThenId.sorted(keys) { $0 }.map { "\($0.id):\($0.source?.line ?? 0)" } == ["k9:0", "k1:2", "k1:7", "k2:1"])
    }

    @Test("a strict weak order: irreflexive, asymmetric, transitive, equal keys transitive, over random keys")
    func strictWeakOrder() {
        var rng = SplitMix64(seed: 11)
        let dates: [LocalDate?] = [nil, day("2026-10-01"), day("2026-10-02")]
        let ids = ["a", "B", "é", "a1"]
        let sources: [SourceRef?] = [nil, SourceRef(file: "a", line: 1), SourceRef(file: "a", line: 2), SourceRef(file: "b", line: 1)]
        let keys = (0..<60).map { _ in
            Key(dates.randomElement(using: &rng)!, id: ids.randomElement(using: &rng)!, source: sources.randomElement(using: &rng)!)
        }
        for a in keys {
            #expect(!DateThenId.precedes(a, a))
            for b in keys {
                #expect(!(DateThenId.precedes(a, b) && DateThenId.precedes(b, a)))
                for c in keys.prefix(15) {
                    if DateThenId.precedes(a, b) && DateThenId.precedes(b, c) { #expect(DateThenId.precedes(a, c)) }
                    // Equal keys are equal to the same keys (incomparability is transitive).
                    if DateThenId.order(a, b) == nil && DateThenId.order(b, c) == nil { #expect(DateThenId.order(a, c) == nil) }
                }
            }
        }
    }

    @Test("sorted equals a stable sort of the keys, for rows in any order and for rows already in order")
    func sortedIsAStableSort() {
        var rng = SplitMix64(seed: 29)
        let dates: [LocalDate?] = [nil, day("2026-10-01"), day("2026-10-02"), day("2026-10-03")]
        let ids = ["a", "B", "é", "a1", "e10", "e9"]
        let sources: [SourceRef?] = [nil, SourceRef(file: "a", line: 1), SourceRef(file: "b", line: 1)]
        for round in 0..<200 {
            let rows = (0..<Int.random(in: 0...12, using: &rng)).map { i in
                (Key(dates.randomElement(using: &rng)!, id: ids.randomElement(using: &rng)!,
                     source: sources.randomElement(using: &rng)!), i)
            }
            var reference = rows
            reference.sort { DateThenId.precedes($0.0, $1.0) }   // Swift's sort is stable
            #expect(DateThenId.sorted(rows) { $0.0 }.map(\.1) == reference.map(\.1), "round \(round)")
            #expect(DateThenId.sorted(reference) { $0.0 }.map(\.1) == reference.map(\.1), "already in order, round \(round)")
        }
    }

    @Test("ByteOrder.compare and precedes order the UTF-8 bytes, on ids that share prefixes, leave ASCII or are long")
    func threeWayComparison() {
        let long = String(repeating: "x", count: 40)
        let ids = ["", "a", "a1", "a10", "a9", "B", "é", "e\u{301}", "日本", "Z", "ab", "a\u{0}", long, long + "a", long + "b", "\u{FF}"]
        for a in ids {
            for b in ids {
                let (x, y) = (Array(a.utf8), Array(b.utf8))
                let expected = x.lexicographicallyPrecedes(y) ? -1 : (y.lexicographicallyPrecedes(x) ? 1 : 0)
                #expect(ByteOrder.compare(a, b) == expected, "\(a) vs \(b)")
                #expect(ByteOrder.precedes(a, b) == (expected < 0), "\(a) vs \(b)")
            }
        }
    }
}
