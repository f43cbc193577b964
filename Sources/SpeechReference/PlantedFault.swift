/// Deliberate rule violations the reference can be made to commit, one at a time, so that the
/// conformance suite can show it catches them (mutation checking). Test-only: nothing sets this
/// outside tests, and an analyzer reads it once, when created.
public enum PlantedFault: String, Sendable, CaseIterable {
    /// The end of an input sequence finishes the session.
    case inputEndFinishes
    /// An error reaches only the first waiting call; the others return normally.
    case errorReachesOneWaiter
    /// finalize(through:) returns before the final results are published.
    case finalizeReturnsEarly
    /// The volatile range handler sees the start move backwards.
    case volatileStartMovesBack
    /// Overlapping input is accepted instead of failing with audioDisordered.
    case disorderAccepted
    /// Result streams stay open after a normal finish.
    case streamsStayOpenAfterFinish
    /// Buffers in a format the modules cannot use are accepted.
    case wrongFormatAccepted
    /// Final results are published with a finalisation time before their end.
    case finalResultsMislabeled
    /// finalize(through:) does not ask the engines to finalise.
    case finalizeSkipsEngines
    /// analyzeSequence returns where its last buffer starts, not where it ends.
    case analyzeReturnsBufferStart
    /// Cancelling one waiting call's task finishes the whole session.
    case cancelledWaiterFinishesSession
    /// A new volatile range handler is added beside the old one instead of replacing it.
    case handlerNotReplaced
    /// The end of a replaced input sequence counts as the end of input.
    case eoiIgnoresReplacement
    /// Word runs get time ranges whether or not audioTimeRange was asked for.
    case timeAttributeAlwaysSet
    /// The bound on distinct engine configurations is not enforced.
    case resourceLimitIgnored

    @TaskLocal public static var current: PlantedFault?
}
