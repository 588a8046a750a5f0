import TallyIngest

extension IngestStage {
    /// The ingest's lanes (indices into `files`, each in load order): the
    /// subscription events, then the swipes; and every other table. The
    /// swipes' reading thread keeps a core busy while their writer idles half
    /// the time; the other datasets' loads keep the writer busy and leave a
    /// core idle: side by side (``WriterLanes``) each fills the other's gaps.
    /// The events balance the lanes: the swipes' lane alone ends well
    /// before the other, and with the whole subscriptions dataset well
    /// after it; with the events alone they end about together. The events
    /// go first: loaded last, their writes (like the check-ins', the other
    /// lane's last) would leave the writer the only busy thread for the
    /// loads' last seconds; the swipes, mostly reading, end beside the
    /// check-ins. Figures in docs/performance.md. A table's files all go to
    /// one lane, in their order, so load order (`load_seq`) decides between
    /// two files of a table as it would in one sequence.
    static func lanes(_ files: [InputFile]) -> [[Int]] {
        let events = files.indices.filter { files[$0].table == .events }
        let swipes = files.indices.filter { files[$0].dataset == "swipes" }
        let others = files.indices.filter { files[$0].table != .events && files[$0].dataset != "swipes" }
        return [events + swipes, others].filter { !$0.isEmpty }
    }
}
