import Foundation
import TallyCore
import TallyIngest
import TallyWire

/// The KPIs' inputs as a dataflow run decodes them, with TallyIngest's
/// decoders and readers (as `tally run` loads them: ``KPILoaders``,
/// ``AppStoreConnectLoader``), each row keyed for its row rule in the
/// `rows` stage (``KPIRowsStage``): a swipe by its id, an event by its id
/// (events of Subscriber reports share the namespace, as in the
/// warehouse's log), a reference row by its table's upsert key.
enum KPITables {
    /// Decodes one row of a KPI `table`: the key that groups it for its row rule, and the record.
    static func decode(_ table: TableID, _ f: FieldDecoder, origin: RowOrigin,
                       rawId: String) throws(FieldError) -> (FlowStageName, [UInt8], FlowRecord) {
        func reference(_ value: ReferenceRow.Value, _ key: String...) -> (FlowStageName, [UInt8], FlowRecord) {
            (.rows, FlowKeys.row(table, key), .reference(ReferenceRow(table: table, value: value, origin: origin, rawId: rawId)))
        }
        switch table {
        case .swipeUsers:
            let r = try KPIDecoders.swipeUser(f)
            return reference(.swipeUser(r), r.id)
        case .products:
            let r = try KPIDecoders.product(f)
            return reference(.product(r), r.entry.productId)
        case .connections:
            let r = try KPIDecoders.connection(f)
            let c = r.connection
            return reference(.connection(r), c.userId, c.partnerId, String(c.connectedAt.microseconds))
        case .swipes:
            let s = try KPIDecoders.swipe(f)
            func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
            let row = SwipeRow(id: text(s.id), from: text(s.fromUserId), to: text(s.toUserId), action: s.action, at: s.timestamp,
                               origin: origin)
            return (.rows, FlowKeys.row(.swipes, [row.id]), .kpis(.swipe(row)))
        case .events:
            let record = try KPIDecoders.event(f)
            return (.rows, eventKey(record.id), .kpis(.event(EventRow(record: record, origin: origin, fromSubscriberReport: false))))
        default:
            preconditionFailure("\(table.qualifiedName) is not a KPI table")
        }
    }

    /// The `rows` key of a subscription event: its id, whichever file it comes from.
    static func eventKey(_ id: String) -> [UInt8] { FlowKeys.row(.events, [id]) }

    /// Reads App Store Connect report `file` (sequence number `seq`) as
    /// ``AppStoreConnectLoader`` loads it: a Subscriber report's rows go to
    /// the events' row rule, a Subscription Event report's daily counts to
    /// the merge, a malformed line is a reject of the file; a header that
    /// is neither report's refuses the file.
    static func readAppStoreReport(_ file: InputFile, seq: Int, emit: FlowEmit) throws -> FileRead {
        var outcome = FileRead(file: seq, rowsRead: 0, bytes: 0, sha256: "", unknownFields: [], refusal: nil)
        do {
            let reader = try AppStoreConnectReader(url: file.url, displayPath: file.relativePath)
            try reader.read { row in
                switch row {
                case .event(let record):
                    let origin = RowOrigin(file: seq, line: record.event.source?.line ?? 0)
                    emit(.rows, eventKey(record.id), .kpis(.event(EventRow(record: record, origin: origin, fromSubscriberReport: true))))
                case .count(let count, _):
                    emit(.merge, KPIKeys.merge, .kpis(.appStoreCount(count)))
                case .malformed(let line, let id, let reason):
                    emit(.merge, FlowKeys.file(seq), .reject(Reject(dataset: file.dataset, file: file.relativePath, line: line,
                                                                    id: id, reason: reason)))
                }
            }
            outcome.rowsRead = reader.recordsRead
        } catch {
            guard let reason = FileRefusal.reason(for: error, path: file.relativePath) else { throw error }
            outcome.refusal = reason
            outcome.bytes = DecodeStage.size(of: file.url)
            return outcome
        }
        let fingerprint = try FileFingerprint.of(url: file.url)
        outcome.bytes = fingerprint.bytes
        outcome.sha256 = fingerprint.sha256
        return outcome
    }
}

/// The keys the KPI stages route by, as bytes (see ``FlowKeys``).
enum KPIKeys {
    /// What goes to the merge: one key for the whole family.
    static let merge = Array("kpis".utf8)

    /// A pair of users (first, second in byte order), for ``SwipePairsStage``.
    static func pair(_ first: String, _ second: String) -> [UInt8] { Array("\(first)\t\(second)".utf8) }

    /// A local day of the report time zone, for ``SwipeDaysStage``.
    static func day(_ date: LocalDate) -> [UInt8] { Array(date.description.utf8) }

    /// A subscriber (app, user), for ``SubscribersStage``.
    static func subscriber(app: String, user: String) -> [UInt8] { Array("\(app)\t\(user)".utf8) }

    /// Fields as bytes that tell every tuple apart whatever its fields
    /// hold (each field's length, then its bytes): what a stage groups the
    /// records of one routing key by, since a TAB inside an id could make
    /// two tuples share a routing key.
    static func exact(_ fields: String...) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            bytes += Array(String(field.utf8.count).utf8) + [0x3A]
            bytes += Array(field.utf8)
        }
        return bytes
    }
}
