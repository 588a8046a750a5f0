#if canImport(Glibc)
import Glibc
#endif

extension XLSXWorkbook {
    /// Keeps glibc serving blocks of 128 KiB and more with `mmap`, once per
    /// process, before the first constant-memory workbook is started.
    ///
    /// libxlsxwriter gives every constant-memory worksheet a 128 KiB array
    /// (one pointer per Excel column) that it frees only when the workbook
    /// closes. glibc's mmap threshold starts at 128 KiB but rises to the size
    /// of any mmap'd block freed, after which such arrays come from the heap,
    /// where `calloc` zeroes them and every page stays resident: 128 KiB of
    /// memory (and the time to zero it) per sheet until the workbook closes.
    /// With the threshold fixed at its default they stay mapped and their
    /// untouched pages cost nothing.
    static let keepLargeBlocksMapped: Void = {
        #if canImport(Glibc)
        _ = tally_mallopt(-3 /* M_MMAP_THRESHOLD */, 128 * 1024)
        #endif
    }()
}

#if canImport(Glibc)
/// glibc's `mallopt(3)`, which the Glibc module does not export (malloc.h).
@_silgen_name("mallopt")
private func tally_mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
