import FuzzSupport
import TallyCore
import TallyIngest

/// CSV reader + expense decoders: the input is an `expenses/expenses.csv`
/// file (header row included). Every record is decoded as an expense version,
/// which exercises the money, date, timestamp and split parsers on what the
/// reader hands out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let url = ScratchFile.write(data, size, name: "input.csv")
    let fields = TableID.expenses.fields
    TableDrain.read(url, fields: fields, maxRecordBytes: TableDrain.recordLimit(data, size)) { view in
        _ = try? ExpenseDecoders.expenseVersion(FieldDecoder(view: view, fields: fields))
    }
    return 0
}
