import CoreMedia
import SpeechReference

/// Steps that finalize, finish or cancel the analysis.

/// `finalize(through:)`; without `time`, through the end of the audio taken so far.
struct FinalizeStep: TimedCallStep {
    static let name = "finalize"
    var time: Double?
    var call: ScenarioStep.Call

    static func invoke(_ analyzer: SpeechAnalyzer, _ time: CMTime?) async throws {
        try await analyzer.finalize(through: time)
    }
}

/// `finish(after:)` (time 0 when none is given).
struct FinishStep: TimedCallStep {
    static let name = "finish"
    var time: Double?
    var call: ScenarioStep.Call

    static func invoke(_ analyzer: SpeechAnalyzer, _ time: CMTime?) async throws {
        try await analyzer.finish(after: time ?? .zero)
    }
}

/// `finalizeAndFinish(through:)` (time 0 when none is given).
struct FinalizeAndFinishStep: TimedCallStep {
    static let name = "finalizeAndFinish"
    var time: Double?
    var call: ScenarioStep.Call

    static func invoke(_ analyzer: SpeechAnalyzer, _ time: CMTime?) async throws {
        try await analyzer.finalizeAndFinish(through: time ?? .zero)
    }
}

/// `finalizeAndFinishThroughEndOfInput()`.
struct FinishAtEndOfInputStep: CallOnlyStep {
    static let name = "finishAtEndOfInput"
    var call: ScenarioStep.Call

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let analyzer = run.analyzer
        await run.call(call, at: place) { try await analyzer.finalizeAndFinishThroughEndOfInput() }
    }
}

/// `cancelAnalysis(before:)` (time 0 when none is given).
struct CancelBeforeStep: StepAction {
    static let name = "cancelBefore"
    enum CodingKeys: String, CodingKey, CaseIterable { case time }
    var before: Double?

    init(from decoder: any Decoder) throws {
        before = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Double.self, forKey: .time)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        await run.analyzer.cancelAnalysis(before: ScenarioExecution.time(before) ?? .zero)
    }
}

/// `cancelAndFinishNow()`.
struct CancelAndFinishNowStep: FieldlessStep {
    static let name = "cancelAndFinishNow"

    func perform(in run: ScenarioExecution, at place: StepPlace) async { await run.analyzer.cancelAndFinishNow() }
}
