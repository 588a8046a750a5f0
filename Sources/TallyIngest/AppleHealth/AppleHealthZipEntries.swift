/// Which entry of an `export.zip` holds the export.
///
/// The Health app zips a folder (`apple_health_export/`, localised in some
/// languages) holding `export.xml` (localised too: `exportar.xml`,
/// `exporter.xml`…), `export_cda.xml` (clinical documents, not read), and
/// `workout-routes/*.gpx`, `electrocardiograms/*.csv`. A macOS re-zip adds
/// `__MACOSX/` resource forks (`._export.xml`) and `.DS_Store` files.
public enum AppleHealthZipEntries {
    /// The chosen entry path, or why none can be chosen.
    ///
    /// Candidates are `.xml` files at the top or one folder down, outside
    /// `__MACOSX/`, not a `._` resource fork, not a CDA document (`*_cda.xml`)
    /// and with a safe path (no `..` component, not absolute; tally never
    /// writes entries to disk either way). `export.xml` wins; otherwise the
    /// only candidate (a localised name) does.
    public static func choose(_ paths: [String]) -> Result<String, AppleHealthExportError> {
        var unsafe: [String] = []
        var candidates: [String] = []
        for path in paths {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard let name = parts.last, name.lowercased().hasSuffix(".xml") else { continue }
            if parts.first == "__MACOSX" || name.hasPrefix("._") || name.lowercased().hasSuffix("_cda.xml") { continue }
            if path.hasPrefix("/") || path.hasPrefix("\\") || parts.contains("..") || path.contains("\\..") {
                unsafe.append(path)
                continue
            }
            guard parts.count <= 2 else { continue }
            candidates.append(path)
        }
        if let export = candidates.first(where: { $0.split(separator: "/").last == "export.xml" }) {
            return .success(export)
        }
        if candidates.count == 1 { return .success(candidates[0]) }
        if candidates.isEmpty {
            let why = unsafe.isEmpty ? "" : " (refused unsafe entry paths: \(unsafe.prefix(3).joined(separator: ", ")))"
            return .failure(AppleHealthExportError("no export.xml in the zip\(why)"))
        }
        return .failure(AppleHealthExportError(
            "several XML files could be the export (\(candidates.sorted().prefix(5).joined(separator: ", "))); keep one"))
    }
}
