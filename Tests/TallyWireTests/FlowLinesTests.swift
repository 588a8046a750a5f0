import PropertyBased
import Testing
@testable import TallyCore
@testable import TallyWire

/// Dataflow lines: the key field's spread prefix, the order lines sort in,
/// and a line read back.
@Suite("Wire: dataflow lines")
struct FlowLinesTests {
    static let awkwardBytes = WireEscapingTests.awkwardBytes

    static func line(_ key: [UInt8], file: Int) -> [UInt8] {
        var writer = WireWriter()
        FlowLines.append(key: key, .task(file: file), to: &writer)
        return Array(writer.bytes.dropLast())
    }

    @Test func aKeyFieldIsItsPrefixThenTheKeyEscaped() throws {
        let field = FlowLines.keyField(of: Array("expenses\tE1".utf8))
        #expect(field.count == FlowLines.spreadWidth + "expenses\\tE1".utf8.count)
        #expect(Array(field.dropFirst(FlowLines.spreadWidth)) == Array("expenses\\tE1".utf8))
        let alphabet = Set("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
        #expect(field.prefix(FlowLines.spreadWidth).allSatisfy(alphabet.contains))
        // The same on every machine and every run: a fixed value.
        #expect(String(decoding: FlowLines.keyField(of: Array("file\t1".utf8)), as: UTF8.self) == "t0t-CGhUfile\\t1")
    }

    @Test func anyKeyRoundTripsThroughALine() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...12).array(of: 0...20), Gen.int(in: 1...9999)) { picks, file in
            let key = picks.map { Self.awkwardBytes[$0] }
            withoutThrowing { () throws in
                let line = Self.line(key, file: file)
                let read = try line.withUnsafeBufferPointer { try FlowLines.read($0, number: 1) }
                #expect(read.key == key)
                guard case .task(let back) = read.record else { Issue.record("not a task: \(read.record)"); return }
                #expect(back == file)
                line.withUnsafeBufferPointer { #expect(Array(FlowLines.keyField($0)) == FlowLines.keyField(of: key)) }
            }
        }
    }

    @Test func aLineAnEngineWritesFromALinePrefixReadsBackAsItsRecord() throws {
        let key = Array("file\t7".utf8)
        let columns = FlowLines.linePrefix(key: key, case: FlowRecord.sourceColumnsCase) + "3\tid\tcouple_id\twe\\tird\\\\"
        let row = FlowLines.linePrefix(key: key, case: FlowRecord.sourceRowCase) + "0000000000000000012\t{\"a\":\"x\\\\y\"}"
        let readColumns = try Array(columns.utf8).withUnsafeBufferPointer { try FlowLines.read($0, number: 1) }
        #expect(readColumns.key == key)
        guard case .sourceColumns(let names) = readColumns.record else { Issue.record("\(readColumns.record)"); return }
        #expect(names == ["id", "couple_id", "we\tird\\"])
        let readRow = try Array(row.utf8).withUnsafeBufferPointer { try FlowLines.read($0, number: 2) }
        guard case .sourceRow(let index, let json) = readRow.record else { Issue.record("\(readRow.record)"); return }
        #expect(index == 12)
        #expect(String(decoding: json, as: UTF8.self) == #"{"a":"x\y"}"#)
        // The start of a line is the key field, the record's tag and its case: what the record itself writes.
        var writer = WireWriter()
        FlowLines.append(key: key, .sourceRow(index: 12, json: Array(#"{"a":"x\y"}"#.utf8)), to: &writer)
        #expect(String(decoding: writer.bytes.dropLast(), as: UTF8.self)
                == FlowLines.linePrefix(key: key, case: FlowRecord.sourceRowCase) + "12\t{\"a\":\"x\\\\y\"}")
    }

    @Test func keysOfOneTableSpreadOverTheFirstBytes() {
        // Keys that share their first bytes (one table's ids) differ in their first eight.
        let keys = (0..<10_000).map { Array("swipes\tid-\($0)".utf8) }
        let prefixes = Set(keys.map { Array(FlowLines.keyField(of: $0).prefix(FlowLines.spreadWidth)) })
        #expect(prefixes.count == keys.count)
        // And the first character alone spreads them over the alphabet.
        let firsts = Dictionary(grouping: keys, by: { FlowLines.keyField(of: $0)[0] }).mapValues(\.count)
        #expect(firsts.count == 64)
        #expect(firsts.values.allSatisfy { $0 > 100 && $0 < 250 }, "\(firsts.values.sorted())")
    }

    @Test func linesSortedAsBytesComeInTheKeyFieldsOrderAndKeepEachKeyTogether() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...12).array(of: 0...4).array(of: 1...8), Gen.uint64()) { picks, seed in
            let keys = picks.map { $0.map { Self.awkwardBytes[$0] } }
            var rng = SplitMix64(seed: seed)
            var lines: [(key: [UInt8], line: [UInt8])] = []
            for key in keys {
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    lines.append((key, Self.line(key, file: Int.random(in: 1...99_999, using: &rng))))
                }
            }
            lines.shuffle(using: &rng)
            let sorted = lines.sorted { $0.line.lexicographicallyPrecedes($1.line) }
            let runs = keyRuns(sorted.map(\.key)).map(FlowLines.keyField(of:))
            for (previous, next) in zip(runs, runs.dropFirst()) {
                #expect(FlowLines.keyFieldPrecedes(previous, next))
                #expect(!FlowLines.keyFieldPrecedes(next, previous))
            }
        }
    }

    @Test func theKeyFieldOrderComparesTheTabAfterEachField() {
        let a: [UInt8] = [0x61], aControl: [UInt8] = [0x61, 0x01], ab: [UInt8] = [0x61, 0x62]
        // "a\u{1}<TAB>" sorts before "a<TAB>", which sorts before "ab<TAB>".
        #expect(FlowLines.keyFieldPrecedes(aControl, a))
        #expect(FlowLines.keyFieldPrecedes(a, ab))
        #expect(!FlowLines.keyFieldPrecedes(a, a))
        #expect(!FlowLines.keyFieldPrecedes(ab, a))
    }

    @Test func aLineWhosePrefixIsNotItsKeysIsRefused() throws {
        var line = Self.line(Array("couple\tC1".utf8), file: 3)
        line[0] = line[0] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        #expect(throws: FlowLineError.self) { try line.withUnsafeBufferPointer { try FlowLines.read($0, number: 7) } }
        let short = Array("abc\tflow.v2\ttask\t1".utf8)
        do {
            _ = try short.withUnsafeBufferPointer { try FlowLines.read($0, number: 2) }
            Issue.record("a key field shorter than the prefix was read")
        } catch {
            #expect("\(error)" == "line 2 has a key field shorter than its 8-character prefix")
        }
    }

    /// An output line of `records` of `key` for `dest`, as a worker's batched output writes it.
    static func batchLine(_ dest: String, _ key: [UInt8], _ records: [FlowRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        let field = FlowLines.keyField(of: key)
        field.withUnsafeBufferPointer { FlowLines.appendStart(destination: dest, keyField: $0, records: records.count, to: &bytes) }
        for record in records {
            var writer = WireWriter()
            record.encode(into: &writer)
            bytes += writer.bytes
        }
        return bytes
    }

    @Test func aBatchLineCarriesAKeysRecordsAndOneRecordIsAPlainLine() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...12).array(of: 0...20), Gen.int(in: 1...40)) { picks, count in
            let key = picks.map { Self.awkwardBytes[$0] }
            let records: [FlowRecord] = (0..<count).map { $0 % 2 == 0 ? .superseded(file: $0, rows: 1) : .task(file: $0) }
            withoutThrowing { () throws in
                let line = Self.batchLine("merge", key, records)
                let rest = Array(line.drop { $0 != UInt8(ascii: "\t") }.dropFirst())
                let read = try rest.withUnsafeBufferPointer { try FlowLines.readRecords($0, number: 1) }
                #expect(read.key == key)
                var expected = WireWriter(), back = WireWriter()
                for record in records { record.encode(into: &expected) }
                for record in read.records { record.encode(into: &back) }
                #expect(read.records.count == count && back.bytes == expected.bytes)
                if count == 1 {
                    var plain = WireWriter()
                    FlowLines.append(destination: "merge", key: key, records[0], to: &plain)
                    #expect(line == Array(plain.bytes.dropLast()), "one record: a plain line")
                }
            }
        }
    }

    @Test func aBatchWithMoreOrFewerRecordsThanItsCountIsNamed() throws {
        let key = Array("file\t3".utf8)
        let line = Self.batchLine("merge", key, [.task(file: 1), .task(file: 2)])
        let rest = Array(line.drop { $0 != UInt8(ascii: "\t") }.dropFirst())
        let text = String(decoding: rest, as: UTF8.self)
        for (changed, message) in [(text.replacingOccurrences(of: "\tbatch\t2\t", with: "\tbatch\t3\t"), "is missing"),
                                   (text.replacingOccurrences(of: "\tbatch\t2\t", with: "\tbatch\t1\t"), "fields after its tag")] {
            do {
                _ = try Array(changed.utf8).withUnsafeBufferPointer { try FlowLines.readRecords($0, number: 9) }
                Issue.record("\(changed) was read")
            } catch {
                #expect("\(error)".hasPrefix("line 9: flow.v2"), "\(error)")
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }
}
