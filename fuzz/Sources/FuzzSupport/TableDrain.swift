import Foundation
import TallyIngest

/// Reads a table file to the end and checks what ``TableReader`` promises of
/// every record, trapping (which libFuzzer reports as a crash) when a promise
/// is broken:
///
/// - every field's bytes are well-formed UTF-8 without NUL;
/// - every record or malformed record starts on a later line than the one
///   before (a line read alone after an unbalanced quote included);
/// - `recordsRead` equals the records plus malformed records delivered;
/// - a malformed record has a reason.
///
/// `inspect` sees each well-formed record (decoders run there).
public enum TableDrain {
    @discardableResult
    public static func read(_ url: URL, fields: [String], maxRecordBytes: Int,
                            inspect: (RecordView) -> Void = { _ in }) -> Int {
        let reader: TableReader
        do {
            reader = try TableReader(url: url, fields: fields, maxRecordBytes: maxRecordBytes)
        } catch {
            precondition(!error.reason.isEmpty, "a reader error without a reason")
            return 0
        }
        var delivered = 0
        var lastLine = 0
        do {
            try reader.read { event in
                delivered += 1
                switch event {
                case .record(let view):
                    precondition(view.line > lastLine, "line \(view.line) after line \(lastLine)")
                    lastLine = view.line
                    for index in 0..<fields.count {
                        guard let bytes = view.bytes(index) else { continue }
                        precondition(!bytes.contains(0), "a NUL byte in field \(fields[index]) on line \(view.line)")
                        precondition(String(validating: bytes, as: UTF8.self) != nil,
                                     "invalid UTF-8 in field \(fields[index]) on line \(view.line)")
                    }
                    inspect(view)
                case .malformed(let line, let reason):
                    precondition(line > lastLine, "line \(line) after line \(lastLine)")
                    precondition(!reason.isEmpty, "a malformed record without a reason")
                    lastLine = line
                }
            }
        } catch let error as ReaderError {
            precondition(!error.reason.isEmpty, "a reader error without a reason")
        } catch {
            preconditionFailure("read threw an unexpected error: \(error)")
        }
        precondition(reader.recordsRead == delivered, "recordsRead \(reader.recordsRead), delivered \(delivered)")
        return delivered
    }

    /// A record size limit chosen by the input's first byte, so the fuzzer
    /// reaches the over-the-limit paths with small inputs too: 16 B to 4 KiB,
    /// or the reader's default for a first byte of 255.
    public static func recordLimit(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = bytes.first, first != 255 else { return 64 << 20 }
        return 16 + Int(first) * 16
    }
}
