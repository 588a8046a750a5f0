import Foundation
import Testing
import TallyIngest
@testable import TallyPipeline

/// Ingest lanes (WriterLanes): lanes on threads of their own, warehouse work on the writer's.
@Suite("Ingest lanes and their one writer")
struct WriterLanesTests {
    struct Boom: Error {}

    /// What ran on the writer, in order, and whether two jobs ever overlapped.
    final class Journal: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        private var inside = 0
        private(set) var overlapped = false
        private(set) var offWriter = false
        let writer = pthread_self()

        func run(_ entry: String) {
            lock.lock()
            inside += 1
            if inside > 1 { overlapped = true }
            if pthread_equal(writer, pthread_self()) == 0 { offWriter = true }
            entries.append(entry)
            lock.unlock()
            usleep(200)
            lock.lock()
            inside -= 1
            lock.unlock()
        }

        var all: [String] { lock.lock(); defer { lock.unlock() }; return entries }
    }

    @Test func everyLanesWorkRunsOnTheWriterThreadOneJobAtATimeInLaneOrder() throws {
        let journal = Journal()
        try WriterLanes.serve((0..<2).map { lane in { writer in
            for step in 0..<50 {
                let echoed = try writer.onWriter { () -> Int in
                    journal.run("\(lane).\(step)")
                    return step
                }
                #expect(echoed == step)
            }
        } })
        #expect(!journal.overlapped)
        #expect(!journal.offWriter)
        #expect(journal.all.count == 100)
        for lane in 0..<2 {
            #expect(journal.all.filter { $0.hasPrefix("\(lane).") } == (0..<50).map { "\(lane).\($0)" })
        }
    }

    @Test func workSentFromTheWriterThreadRunsAtOnce() throws {
        let journal = Journal()
        try WriterLanes.serve([{ writer in
            try writer.onWriter {
                journal.run("outer")
                try writer.onWriter { journal.run("inner") }
            }
        }])
        #expect(journal.all == ["outer", "inner"])
        #expect(!journal.offWriter)
    }

    @Test func aFailingLaneStopsTheOthersAndItsErrorIsThrown() throws {
        let journal = Journal()
        let otherEnded = Journal()
        #expect(throws: Boom.self) {
            try WriterLanes.serve([
                { writer in
                    defer { otherEnded.run("ended") }
                    // Keeps sending work until it is told to stop.
                    for step in 0..<1_000_000 { try writer.onWriter { journal.run("a\(step)") } }
                },
                { writer in
                    try writer.onWriter { journal.run("b0") }
                    throw Boom()
                },
            ])
        }
        // serve returned only after the other lane's thread had ended.
        #expect(otherEnded.all == ["ended"])
        #expect(journal.all.count < 1_000_001)
    }

    @Test func aFailureOnTheWriterEndsItsLaneWithThatError() throws {
        #expect(throws: Boom.self) {
            try WriterLanes.serve([{ writer in
                try writer.onWriter { throw Boom() }
                Issue.record("the lane went on after its work failed")
            }])
        }
    }

    @Test func theEventsThenTheSwipesLoadBesideEveryOtherTableEachTableInItsOrder() {
        func table(_ t: TableID, _ name: String) -> InputFile {
            InputFile(url: URL(fileURLWithPath: "/d/\(name)"), relativePath: name, kind: .table(t))
        }
        let files = [table(.expenses, "expenses/a.csv"), table(.swipeUsers, "swipes/users.jsonl"),
                     table(.swipes, "swipes/1.ndjson"), table(.swipes, "swipes/2.ndjson"), table(.checkins, "checkins/c.ndjson"),
                     table(.events, "subscriptions/e1.csv"), table(.events, "subscriptions/e2.csv"),
                     table(.products, "subscriptions/products.csv")]
        let lanes = IngestStage.lanes(files).map { $0.map { files[$0].relativePath } }
        #expect(lanes == [["subscriptions/e1.csv", "subscriptions/e2.csv", "swipes/users.jsonl", "swipes/1.ndjson", "swipes/2.ndjson"],
                          ["expenses/a.csv", "checkins/c.ndjson", "subscriptions/products.csv"]])
        #expect(IngestStage.lanes([files[0]]) == [[0]])   // no empty lane
    }

    @Test func noLanesIsNothingToDo() throws {
        try WriterLanes.serve([])
    }
}
