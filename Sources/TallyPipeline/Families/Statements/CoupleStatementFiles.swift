import Foundation
import TallyCore
import TallyReports

/// A couple's own statement files in `statements/`: `<coupleId>.txt` and, when
/// asked for, `<coupleId>.xlsx` (``CoupleWorkbook``), each written under a
/// temporary name (``AtomicFile``) for the caller to move into place with
/// the run's other reports. Used by ``StatementsStage`` for every couple and
/// by `tally statement` for one. The folder comes as a path, worked out once
/// by the caller, and each file's path is joined as text: URL arithmetic per
/// couple costs more than writing the couple's text.
enum CoupleStatementFiles {
    /// The folder of statement files under `outDirectory`.
    static func folder(in outDirectory: URL) -> URL { outDirectory.appendingPathComponent("statements") }

    /// `statement`'s text (`rendered`, ``StatementText/renderUTF8(_:locale:categories:)``), written to its temporary file; `folderExists`
    /// spares a check of the folder per couple when the caller made it, and
    /// `folderIsNew` (made in this run) the look for an earlier file.
    static func text(_ statement: CoupleStatement, rendered: [UInt8], folder: String, folderExists: Bool = false,
                     folderIsNew: Bool = false) throws -> AtomicFile {
        let file = try AtomicFile(destinationPath: path(of: statement, in: folder, fileExtension: "txt"),
                                  creatingFolder: !folderExists, destinationAbsent: folderIsNew)
        try file.write(rendered)
        return file
    }

    /// `statement`'s workbook (built with `itemised: true`), its categories named by `categories`, written to its
    /// temporary file (`folderExists` as for ``text(_:rendered:folder:folderExists:folderIsNew:)``).
    static func workbook(_ statement: CoupleStatement, locale: ReportLocale, categories: CategoryLabels, folder: String,
                         folderExists: Bool = false) throws -> AtomicFile {
        let file = try AtomicFile(destinationPath: path(of: statement, in: folder, fileExtension: "xlsx"),
                                  creatingFolder: !folderExists)
        do {
            try CoupleWorkbook.write(statement, to: file.temporary.path, locale: locale, categories: categories)
        } catch {
            throw OutputError("cannot write \(file.destinationPath): \(error)")
        }
        return file
    }

    /// `<folder>/<couple's file name stem>.<fileExtension>`.
    private static func path(of statement: CoupleStatement, in folder: String, fileExtension: String) -> String {
        let stem = CoupleFileName.stem(for: statement.couple.id)
        return folder.hasSuffix("/") ? "\(folder)\(stem).\(fileExtension)" : "\(folder)/\(stem).\(fileExtension)"
    }
}

extension TallyConfig {
    /// How the statements of a run in `locale` name categories: the configured labels
    /// (`statements.categoryLabels`) before the locale's built-in ones.
    func categoryLabels(_ locale: ReportLocale) -> CategoryLabels {
        CategoryLabels(locale: locale, custom: statements.categoryLabels)
    }
}
