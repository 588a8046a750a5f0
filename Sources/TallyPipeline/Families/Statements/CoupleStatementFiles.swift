import Foundation
import TallyCore
import TallyReports

/// A couple's own statement files in `statements/`: `<coupleId>.txt` and, when
/// asked for, `<coupleId>.xlsx` (``CoupleWorkbook``), each written under a
/// temporary name (``AtomicFile``) for the caller to move into place with
/// the run's other reports. Used by ``StatementsStage`` for every couple and
/// by `tally statement` for one. Their names are appended with
/// `isDirectory: false`: without it, Foundation asks the file system whether
/// the name is a folder, a `stat` per couple.
enum CoupleStatementFiles {
    /// The folder of statement files under `outDirectory`.
    static func folder(in outDirectory: URL) -> URL { outDirectory.appendingPathComponent("statements") }

    /// `statement`'s text (`rendered`, ``StatementText/renderUTF8(_:locale:categories:)``), written to its temporary file; `folderExists`
    /// spares a check of the folder per couple when the caller made it, and
    /// `folderIsNew` (made in this run) the look for an earlier file.
    static func text(_ statement: CoupleStatement, rendered: [UInt8], folder: URL, folderExists: Bool = false,
                     folderIsNew: Bool = false) throws -> AtomicFile {
        let file = try AtomicFile(destination: folder.appendingPathComponent(CoupleFileName.stem(for: statement.couple.id) + ".txt", isDirectory: false),
                                  creatingFolder: !folderExists, destinationAbsent: folderIsNew)
        try file.write(rendered)
        return file
    }

    /// `statement`'s workbook (built with `itemised: true`), its categories named by `categories`, written to its
    /// temporary file (`folderExists` as for ``text(_:rendered:folder:folderExists:folderIsNew:)``).
    static func workbook(_ statement: CoupleStatement, locale: ReportLocale, categories: CategoryLabels, folder: URL,
                         folderExists: Bool = false) throws -> AtomicFile {
        let file = try AtomicFile(destination: folder.appendingPathComponent(CoupleFileName.stem(for: statement.couple.id) + ".xlsx", isDirectory: false),
                                  creatingFolder: !folderExists)
        do {
            try CoupleWorkbook.write(statement, to: file.temporary.path, locale: locale, categories: categories)
        } catch {
            throw OutputError("cannot write \(file.destination.path): \(error)")
        }
        return file
    }
}

extension TallyConfig {
    /// How the statements of a run in `locale` name categories: the configured labels
    /// (`statements.categoryLabels`) before the locale's built-in ones.
    func categoryLabels(_ locale: ReportLocale) -> CategoryLabels {
        CategoryLabels(locale: locale, custom: statements.categoryLabels)
    }
}
