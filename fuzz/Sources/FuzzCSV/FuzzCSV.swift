import FuzzSupport
import TallyCore
import TallyIngest

/// CSV reader + expense decoders: the input is an `expenses/expenses.csv`
/// file (header row included). Every record is decoded as an expense version,
/// which exercises the money, date, timestamp and split parsers on what the
/// reader hands out.
@main enum FuzzCSV {
    static func main() { FuzzDriver.run(testOneInput) }
}

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    let url = ScratchFile.write(bytes, name: "input.csv")
    let fields = TableID.expenses.fields
    TableDrain.read(url, fields: fields, maxRecordBytes: TableDrain.recordLimit(bytes)) { view in
        _ = try? ExpenseDecoders.expenseVersion(FieldDecoder(view: view, fields: fields))
    }
    return 0
}
