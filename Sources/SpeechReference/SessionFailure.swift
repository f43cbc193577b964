/// The error a session failed with, as a value the machine keeps and its actions carry.
struct SessionFailure: @unchecked Sendable {
    let error: any Error
    init(_ error: any Error) { self.error = error }
}

#if SPEECH_HARNESS_MUTATIONS
    /// The rules an analysis session follows: Apple's documented ones, or one of them broken on purpose so
    /// the conformance suite can show that it notices (the mutation check; see ``Mutations``).
    struct SessionRules: Equatable, Sendable {
        /// A buffer starting before the end of earlier input is `audioDisordered`; broken, it is
        /// taken as continuing from that end.
        var rejectsOverlappingInput = true
        /// The end of an input sequence leaves the session running; broken, it finishes it.
        var inputEndKeepsSessionOpen = true
        /// Only the current input sequence's end counts; broken, a replaced sequence's end does too.
        var onlyCurrentInputEnds = true
        /// An error reaches every waiter; broken, only the first, and the others return normally.
        var errorReachesEveryWaiter = true
        /// The volatile range's start never moves back; broken, each start change is preceded by a
        /// report of a range from zero.
        var volatileStartOnlyMovesForward = true
        /// A buffer must be in a format every module accepts; broken, any PCM buffer is analysed.
        var rejectsUnacceptedFormats = true
        /// Past the limit on engine configurations, starting analysis fails; broken, the limit is
        /// not checked.
        var enforcesResourceLimit = true
        /// A new volatile range handler replaces the old one; broken, both are called.
        var replacesVolatileHandler = true
        /// `analyzeSequence` returns where its last buffer ends; broken, where that buffer starts.
        var analyzeReturnsLastBufferEnd = true
        /// Cancelling a waiting call's task cancels that call only; broken, it finishes the session.
        var cancellingAWaiterCancelsOnlyIt = true

        static let documented = SessionRules()
    }
#else
    /// The documented rules as constants: a release build has no way to break them, and the
    /// checks on them fold away.
    struct SessionRules: Equatable, Sendable {
        var rejectsOverlappingInput: Bool { true }
        var inputEndKeepsSessionOpen: Bool { true }
        var onlyCurrentInputEnds: Bool { true }
        var errorReachesEveryWaiter: Bool { true }
        var volatileStartOnlyMovesForward: Bool { true }
        var rejectsUnacceptedFormats: Bool { true }
        var enforcesResourceLimit: Bool { true }
        var replacesVolatileHandler: Bool { true }
        var analyzeReturnsLastBufferEnd: Bool { true }
        var cancellingAWaiterCancelsOnlyIt: Bool { true }

        static let documented = SessionRules()
    }
#endif

// Comparable actions, for the machine's table tests (with plain values for what waits).
extension SessionFailure: Equatable {
    static func == (a: SessionFailure, b: SessionFailure) -> Bool {
        String(reflecting: a.error) == String(reflecting: b.error)
    }
}
