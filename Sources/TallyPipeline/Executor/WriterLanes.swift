import Foundation

/// Runs lanes of ingest work on threads of their own while every warehouse
/// write happens on one thread, the writer's (SQLite takes one writer, and
/// the ingest is one transaction on one connection).
///
/// A lane is a sequence of file loads; where it needs the warehouse it calls
/// ``onWriter(_:)``, which runs the work on the writer thread between other
/// lanes' work, and waits for it. The swipes' reading thread keeps a core
/// busy while their writer is idle half that time, and the other datasets'
/// loads are writer-bound with a core to spare: as two lanes, each fills
/// the other's gaps.
///
/// When both lanes wait for the writer, the first lane's work goes first:
/// a lane whose reading thread is the slower part (the swipes) waits behind
/// at most one step of the other.
///
/// A lane that ends hands the memory its loads freed back to the system
/// (``FreedMemory``) before the stages that follow allocate beside it.
///
/// When a step fails, the error ends its lane; the other lanes stop at
/// their next call to ``onWriter(_:)`` and ``serve(_:)`` throws the first
/// error once every lane's thread has ended.
final class WriterLanes: @unchecked Sendable {   // immutable: a hub (itself safe) and a priority
    /// The error a lane sees when another lane failed first.
    struct Stopped: Error {}

    private let hub: Hub
    /// The lane's place in `serve`'s list: lower goes first.
    private let priority: Int

    private init(hub: Hub, priority: Int) {
        self.hub = hub
        self.priority = priority
    }

    /// Runs each of `lanes` on a thread of its own, and on this thread (the
    /// writer) the work they send through ``onWriter(_:)``, until all end.
    static func serve(_ lanes: [(WriterLanes) throws -> Void]) throws {
        let hub = Hub(writer: pthread_self(), lanes: lanes.count)
        for (priority, lane) in lanes.enumerated() {
            let box = LaneBox(lane, WriterLanes(hub: hub, priority: priority))
            let thread = Thread {
                var failure: Error?
                do { try box.lane(box.handle) } catch { failure = error }
                FreedMemory.release()
                box.handle.hub.laneEnded(failure)
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        hub.runJobs()
        if let failure = hub.failure { throw failure }
    }

    /// Runs `body` on the writer thread and returns what it returns (at
    /// once when called there). Throws ``Stopped`` when a lane has failed.
    func onWriter<T>(_ body: () throws -> T) throws -> T {
        if pthread_equal(hub.writer, pthread_self()) != 0 { return try body() }
        var result: Result<T, Error>?
        try withoutActuallyEscaping(body) { body in
            try hub.run(Job(priority: priority) { result = Result { try body() } })
        }
        return try result!.get()
    }
}

private final class Job {
    let priority: Int
    let body: () -> Void
    var done = false
    init(priority: Int, _ body: @escaping () -> Void) {
        self.priority = priority
        self.body = body
    }
}

/// The writer's queue of work, shared by the lanes.
private final class Hub: @unchecked Sendable {   // `writer` is immutable; `jobs`, `lanesRunning`, `failure` and each job's `done` are used with `condition` locked
    let writer: pthread_t
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var lanesRunning: Int
    private(set) var failure: Error?

    init(writer: pthread_t, lanes: Int) {
        self.writer = writer
        lanesRunning = lanes
    }

    /// Queues `job` and waits until the writer ran it.
    func run(_ job: Job) throws {
        condition.lock()
        defer { condition.unlock() }
        if failure != nil { throw WriterLanes.Stopped() }
        jobs.append(job)
        condition.broadcast()
        while !job.done { condition.wait() }
    }

    func runJobs() {
        condition.lock()
        while true {
            while jobs.isEmpty && lanesRunning > 0 { condition.wait() }
            if jobs.isEmpty { break }
            // Each lane waits for its job, so at most one per lane is queued.
            let next = jobs.indices.min { jobs[$0].priority < jobs[$1].priority }!
            let job = jobs.remove(at: next)
            condition.unlock()
            job.body()
            condition.lock()
            job.done = true
            condition.broadcast()
        }
        condition.unlock()
    }

    func laneEnded(_ error: Error?) {
        condition.lock()
        if let error, failure == nil || failure is WriterLanes.Stopped { failure = error }
        lanesRunning -= 1
        condition.broadcast()
        condition.unlock()
    }
}

/// Carries a lane's closure and handle across its thread's start.
private struct LaneBox: @unchecked Sendable {   // the lane's thread alone uses it once started
    let lane: (WriterLanes) throws -> Void
    let handle: WriterLanes
    init(_ lane: @escaping (WriterLanes) throws -> Void, _ handle: WriterLanes) {
        self.lane = lane
        self.handle = handle
    }
}
