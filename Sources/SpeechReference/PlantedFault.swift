// The mutation check's one seam: planted faults exist only in builds with SPEECH_HARNESS_MUTATIONS
// (debug builds, where the tests run). Release builds always get the documented behaviour.

#if SPEECH_HARNESS_MUTATIONS
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
#endif

/// What the mutation check may change in an analyzer: the state machine's rules, and the few
/// deviations that live in the actor or its module channels rather than in the rules.
struct Mutations: Sendable {
    var rules = AnalyzerStateMachine.Rules.documented
    var finalizeReturnsEarly = false
    var finalizeSkipsEngines = false
    var streamsStayOpenAfterFinish = false
    var wrongFormatAccepted = false
    var analyzeReturnsBufferStart = false
    var cancelledWaiterFinishesSession = false
    var handlerNotReplaced = false
    var resourceLimitIgnored = false
    var finalResultsMislabeled = false
    var timeAttributeAlwaysSet = false

    /// The documented behaviour, or the fault planted for the current task.
    static var current: Mutations {
        var mutations = Mutations()
        #if SPEECH_HARNESS_MUTATIONS
            switch PlantedFault.current {
            case nil: break
            case .inputEndFinishes: mutations.rules.inputEndKeepsSessionOpen = false
            case .errorReachesOneWaiter: mutations.rules.errorReachesEveryWaiter = false
            case .volatileStartMovesBack: mutations.rules.volatileStartOnlyMovesForward = false
            case .disorderAccepted: mutations.rules.rejectsOverlappingInput = false
            case .eoiIgnoresReplacement: mutations.rules.onlyCurrentInputEnds = false
            case .finalizeReturnsEarly: mutations.finalizeReturnsEarly = true
            case .finalizeSkipsEngines: mutations.finalizeSkipsEngines = true
            case .streamsStayOpenAfterFinish: mutations.streamsStayOpenAfterFinish = true
            case .wrongFormatAccepted: mutations.wrongFormatAccepted = true
            case .analyzeReturnsBufferStart: mutations.analyzeReturnsBufferStart = true
            case .cancelledWaiterFinishesSession: mutations.cancelledWaiterFinishesSession = true
            case .handlerNotReplaced: mutations.handlerNotReplaced = true
            case .resourceLimitIgnored: mutations.resourceLimitIgnored = true
            case .finalResultsMislabeled: mutations.finalResultsMislabeled = true
            case .timeAttributeAlwaysSet: mutations.timeAttributeAlwaysSet = true
            }
        #endif
        return mutations
    }
}
