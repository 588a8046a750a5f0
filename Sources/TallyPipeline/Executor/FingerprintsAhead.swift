import Foundation
import TallyIngest
#if canImport(Glibc)
import Glibc
#endif

/// The size and sha256 of the input files that need them before they load
/// (``FileFingerprint``), computed in order on a thread of its own while
/// earlier files load.
///
/// Hashing is a pass over every byte of those files (about a second of one
/// core per 1.6 GB) that the loads would otherwise wait for, file after file. The thread
/// runs at the lowest priority: while a load keeps both cores busy (a
/// reading thread and the writer), hashing ahead would only slow it down.
/// So that a load never waits for that thread while the cores are busy
/// elsewhere (the other ingest lane), a file the thread has not started yet
/// is hashed by the caller that needs it.
///
/// Only files whose fingerprint decides whether they load need it first
/// (a path the warehouse already holds, unchanged or not). A new table file
/// is hashed by its reader as it loads (``TallyIngest/TableReader/fingerprint``):
/// hashing it ahead would read every input byte twice, the second read's
/// kernel copying on cores the loads keep busy.
final class FingerprintsAhead: @unchecked Sendable {   // `urls` is immutable; `results`, `claimed`, `cancelled` are used with `condition` locked
    typealias Fingerprint = (bytes: Int64, sha256: String)
    private let urls: [URL?]
    private var results: [Result<Fingerprint, ReaderError>?]
    /// Files whose hashing has started (by the thread or a caller), or that need none.
    private var claimed: [Bool]
    private var cancelled = false
    private let condition = NSCondition()

    /// Starts hashing `urls`, in order; a nil is a file not hashed ahead
    /// (whose ``fingerprint(_:)`` must not be asked).
    init(_ urls: [URL?]) {
        self.urls = urls
        results = Array(repeating: nil, count: urls.count)
        claimed = urls.map { $0 == nil }
        let thread = Thread { [self] in hashAll() }
        thread.start()
    }

    /// The fingerprint of `urls[index]`: hashed here when the thread has not
    /// started it, else waited for.
    func fingerprint(_ index: Int) throws(ReaderError) -> Fingerprint {
        precondition(urls[index] != nil, "a file not hashed ahead has no fingerprint here")
        condition.lock()
        if !claimed[index] {
            claimed[index] = true
            condition.unlock()
            hash(index)
            condition.lock()
        }
        while results[index] == nil { condition.wait() }
        let result = results[index]!
        condition.unlock()
        return try result.get()
    }

    private func hash(_ index: Int) {
        let result = Result { () throws(ReaderError) in try FileFingerprint.of(url: urls[index]!) }
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    /// Stops hashing after the current file (the ingest ended early).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.unlock()
    }

    private func hashAll() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tally_gettid()), 19)
        #endif
        for index in urls.indices {
            condition.lock()
            let stop = cancelled, taken = claimed[index]
            claimed[index] = true
            condition.unlock()
            if stop { return }
            if !taken { hash(index) }
        }
    }
}

#if os(Linux)
/// glibc's `gettid(2)`, which the Glibc module does not export (it needs _GNU_SOURCE).
@_silgen_name("gettid")
private func tally_gettid() -> Int32
#endif
