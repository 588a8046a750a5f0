/// The file name stem of a couple's own files in `statements/` (`<stem>.txt`,
/// `<stem>.xlsx`): ``SafeFileName/stem(for:)``, except that a couple whose
/// stem is that of a studio-wide file (`statements`, whose `.xlsx` is the
/// overview) gets a hash suffix too, so it never overwrites that file.
///
/// `CoupleFileName.stem(for: "cpl-1")` is `cpl-1`;
/// `CoupleFileName.stem(for: "statements")` is `statements-<8 hex digits>`.
public enum CoupleFileName {
    /// Stems (compared without case, as some file systems do) that studio-wide files use.
    static let reserved: Set<String> = ["statements"]

    public static func stem(for coupleId: String) -> String {
        let stem = SafeFileName.stem(for: coupleId)
        let mayBeReserved = reserved.contains { $0.utf8.count == stem.utf8.count }
        return mayBeReserved && reserved.contains(stem.lowercased()) ? stem + "-" + SafeFileName.fnv1a(coupleId) : stem
    }
}
