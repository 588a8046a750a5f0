import Foundation

/// Runs a throwing body on a thread of its own (16 MiB of stack, as the main
/// thread has) and hands back its value or its error: a report lane beside
/// the calling thread's (``ReportLanes``), the derived tables' rebuild beside
/// the reports (``ReportsBesideDerivations``).
final class BackgroundRun<Value>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var result: Result<Value, Error>?

    /// Starts `body` at once. Whatever it captures is used by its thread
    /// alone until ``wait()`` returns.
    init(_ body: @escaping () throws -> Value) {
        let box = BodyBox(body: body)
        let thread = Thread { [self] in
            result = Result { try box.body() }
            finished.signal()
        }
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// Waits for the body to end (call once) and returns its outcome.
    func wait() -> Result<Value, Error> {
        finished.wait()
        return result!
    }
}

/// Carries the body across the thread start.
private struct BodyBox<Value>: @unchecked Sendable {
    let body: () throws -> Value
}
