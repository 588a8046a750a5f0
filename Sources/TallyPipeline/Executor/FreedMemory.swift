#if canImport(Glibc)
import Glibc
#endif

/// Hands the pages of memory a finished unit of work freed back to the
/// system, so a run's peak resident memory is what its stages hold at once
/// rather than the sum of what each left behind.
///
/// glibc keeps freed blocks in its arenas (one per thread that allocated)
/// and returns to the system only the free space at the top of each; the
/// ingest's lanes and the stages that follow free hundreds of megabytes in
/// the middle of them, which stays resident while the next stages allocate
/// beside it. `malloc_trim(0)` advises the kernel that every free page of
/// every arena may be dropped. The ``Executor`` calls it after each node,
/// on the node's lane, and ``WriterLanes`` after each ingest lane: a few
/// dozen times a run, milliseconds each.
enum FreedMemory {
    static func release() {
        #if canImport(Glibc)
        _ = tally_malloc_trim(0)
        #endif
    }
}

#if canImport(Glibc)
/// glibc's `malloc_trim(3)`, which the Glibc module does not export (malloc.h).
@_silgen_name("malloc_trim")
private func tally_malloc_trim(_ pad: Int) -> Int32
#endif
