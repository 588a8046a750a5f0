import Foundation
import Testing
@testable import TallyPipeline
import TallyWire

/// What a decode worker sends on leaves a line per stage and key: a batch
/// of the key's records, split where a line would grow past its size.
@Suite("Dataflow: batched output")
struct BatchedOutputTests {
    static func written(_ out: BatchedOutput, in work: URL) throws -> Data {
        let url = work.appendingPathComponent("out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try out.write(to: handle)
        try handle.close()
        return try Data(contentsOf: url)
    }

    @Test("a key's records leave as batch lines no longer than the limit, a lone record as a plain line, nothing lost")
    func recordsLeaveInBatches() throws {
        let work = try temporaryFolder("batched-output")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = BatchedOutput(base: work.appendingPathComponent("held"), lineBytes: 200)
        defer { out.discard() }
        let many = Array("file\t1".utf8), lone = Array("file\t2".utf8)
        for i in 0..<100 { out.add(.merge, many, .superseded(file: i, rows: 1)) }
        out.add(.merge, lone, .superseded(file: 7, rows: 2))
        out.add(.couples, many, .task(file: 3))
        let data = try Self.written(out, in: work)
        let lines = DataflowProcessTests.lines(data).map { String(decoding: $0, as: UTF8.self) }
        let records = try DataflowProcessTests.recordLines(data)
        #expect(records.count == 102)
        #expect(records.filter { $0.hasPrefix("merge\t") && $0.hasSuffix("\tsuperseded\t7\t2") }.count == 1)
        let batches = lines.filter { $0.contains("\tflow.v2\tbatch\t") }
        #expect(batches.count > 1, "100 records of one key pass 200 bytes: more than one line")
        #expect(lines.count == batches.count + 2, "the lone record and the couples' one record are plain lines")
        for line in batches {
            let header = line.components(separatedBy: "\tbatch\t")[0].utf8.count + "\tbatch\tNN".utf8.count
            #expect(line.utf8.count <= header + 200, "\(line.utf8.count) bytes")
        }
        #expect(try Self.written(out, in: work).isEmpty, "written once: the held records are gone")
    }

    @Test("what a refused file added is taken back, on disk or in memory")
    func takenBackRecordsNeverLeave() throws {
        let work = try temporaryFolder("batched-takeback")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = BatchedOutput(base: work.appendingPathComponent("held"))
        defer { out.discard() }
        out.add(.merge, Array("file\t1".utf8), .superseded(file: 1, rows: 1))
        let mark = out.mark()
        for i in 0..<20_000 { out.add(.couples, Array("c\(i % 50)".utf8), .superseded(file: 2, rows: i)) }
        out.takeBack(to: mark)
        let records = try DataflowProcessTests.recordLines(try Self.written(out, in: work))
        #expect(records.count == 1)
        #expect(records.first?.hasSuffix("\tsuperseded\t1\t1") == true)
    }
}
