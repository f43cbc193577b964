import Foundation
import SpeechCore

// The mutation check's faults and where each reaches the reference. They exist only in builds with
// SPEECH_HARNESS_MUTATIONS (debug builds, where the tests run). A release build has none of them:
// the session's and the channels' rules are constants there. The analyzer actor has no fault
// branch in either build: a broken rule changes only what the state machine tells it to do.

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
        /// SDK 27: AnalyzerInputConverter never calls its configuration handler.
        case converterSkipsHandler
        /// SDK 27: AnalyzerInputConverter's flush() drops what it held back.
        case converterDropsTail
        /// SDK 27: a second read of an asset provider's analyzerInputs carries nothing.
        case assetReadsOnce
        /// SDK 27: capture sequences end when the session stops running.
        case captureEndsAtStop
        /// SDK 27: AnalyzerInput.buffer gives the stored buffer, not a copy, on a 27 device.
        case inputBufferNotCopied
        /// SDK 27: providerWithSession sets up capture though the audio system cannot be configured.
        case audioSystemNotChecked
        /// AssetInventory.Status sorts in 27's order on a 26 device too.
        case statusOrderIgnoresRelease

        /// The running task's planted fault (`HarnessContext.plantedFault`).
        @available(*, deprecated, message: "set HarnessContext.plantedFault and run under HarnessContext.$current")
        public static var current: PlantedFault? { HarnessContext.current.plantedFault }

        /// The fault `SPEECH_HARNESS_PLANTED_FAULT` names, so that a separate Apple-style program
        /// (the session recorder) can be run with a fault planted; a name of no fault is the
        /// setting's problem, which the analyzer's first throwing call reports.
        private static let fromEnvironment: Result<PlantedFault?, SettingError> = {
            let setting = HarnessSettings.plantedFault
            guard let name = setting.text(in: HarnessEnvironment.process.variables) else { return .success(nil) }
            guard let fault = PlantedFault(rawValue: name) else {
                return .failure(
                    SettingError(
                        variable: setting.variable, value: name,
                        expected: "one of " + PlantedFault.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            return .success(fault)
        }()

        /// The fault in force: the task's, else the environment's.
        static var active: PlantedFault? {
            HarnessContext.current.plantedFault ?? (try? fromEnvironment.get()) ?? nil
        }

        /// The environment's fault setting when it names no fault.
        static var settingProblem: SettingError? {
            if case .failure(let problem) = fromEnvironment { return problem }
            return nil
        }
    }

    extension HarnessContext {
        private enum PlantedFaultKey: HarnessContextKey {
            static let defaultValue: PlantedFault? = nil
        }

        /// The rule violation the reference commits under this context, for the mutation check.
        public var plantedFault: PlantedFault? {
            get { self[PlantedFaultKey.self] }
            set { self[PlantedFaultKey.self] = newValue }
        }
    }
#endif

/// Whether a fault of the SDK 27 helpers is planted (always false without SPEECH_HARNESS_MUTATIONS).
enum HelperFaults {
    static func planted(_ name: String) -> Bool {
        #if SPEECH_HARNESS_MUTATIONS
            assert(PlantedFault(rawValue: name) != nil, "no planted fault is called \(name)")
            return PlantedFault.active?.rawValue == name
        #else
            return false
        #endif
    }
}

/// Where a planted fault reaches the reference: other rules for the analyzer's state machine or
/// for a channel's result publishing, or a faulty wrapper around a module's channel. Without
/// SPEECH_HARNESS_MUTATIONS every answer is the documented behaviour and no wrapper exists.
enum FaultPlan {
    /// The state machine's rules for an analyzer created now.
    static var sessionRules: SessionRules {
        #if SPEECH_HARNESS_MUTATIONS
            var rules = SessionRules.documented
            switch PlantedFault.active {
            case .inputEndFinishes: rules.inputEndKeepsSessionOpen = false
            case .errorReachesOneWaiter: rules.errorReachesEveryWaiter = false
            case .volatileStartMovesBack: rules.volatileStartOnlyMovesForward = false
            case .disorderAccepted: rules.rejectsOverlappingInput = false
            case .eoiIgnoresReplacement: rules.onlyCurrentInputEnds = false
            case .wrongFormatAccepted: rules.rejectsUnacceptedFormats = false
            case .analyzeReturnsBufferStart: rules.analyzeReturnsLastBufferEnd = false
            case .cancelledWaiterFinishesSession: rules.cancellingAWaiterCancelsOnlyIt = false
            case .handlerNotReplaced: rules.replacesVolatileHandler = false
            case .resourceLimitIgnored: rules.enforcesResourceLimit = false
            case nil, .finalizeReturnsEarly, .finalizeSkipsEngines, .streamsStayOpenAfterFinish,
                .finalResultsMislabeled, .timeAttributeAlwaysSet, .converterSkipsHandler, .converterDropsTail,
                .assetReadsOnce, .captureEndsAtStop, .inputBufferNotCopied, .audioSystemNotChecked,
                .statusOrderIgnoresRelease:
                break
            }
            return rules
        #else
            return .documented
        #endif
    }

    /// The publishing rules for a transcriber's channel created now.
    static var publishingRules: PublishingRules {
        #if SPEECH_HARNESS_MUTATIONS
            var rules = PublishingRules.documented
            switch PlantedFault.active {
            case .finalResultsMislabeled: rules.finalResultsCarryTheirEnd = false
            case .timeAttributeAlwaysSet: rules.timesOnlyWhenAsked = false
            default: break
            }
            return rules
        #else
            return .documented
        #endif
    }

    /// The channel a module created now gives the analyzer: its own, or a faulty wrapper of it.
    static func channel(_ channel: any ModuleChannel) -> any ModuleChannel {
        #if SPEECH_HARNESS_MUTATIONS
            if let fault = PlantedFault.active.flatMap(FaultyModuleChannel.Fault.init) {
                return FaultyModuleChannel(channel, fault: fault)
            }
        #endif
        return channel
    }
}
