/// Steps that give the analyzer audio, or start and end its input sequences.

/// A finite input sequence of generated audio, through `analyzeSequence`.
struct FeedStep: StepAction {
    static let name = "feed"
    enum CodingKeys: String, CallKeys, AudioKeys, CaseIterable {
        case seconds, start, sampleRate, expect, exact, async, ref
    }
    var audioFed: ScenarioStep.Audio
    var call: ScenarioStep.Call

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        audioFed = try fields.audio()
        call = try fields.call(of: Self.name)
    }

    var audio: (ScenarioStep.Audio, Expectation?)? { (audioFed, call.expect) }

    func perform(in run: ScenarioExecution, at place: StepPlace) async { await run.feed(audioFed, call, at: place) }
}

/// Audio into the autonomous input sequence (started on first use); unless `waits` is false the
/// step waits until the analyzer has taken it. `expect` is what starting the sequence returns.
struct FeedAsyncStep: StepAction {
    static let name = "feedAsync"
    enum CodingKeys: String, ExpectationKeys, AudioKeys, CaseIterable {
        case seconds, start, sampleRate, waits, expect, exact
    }
    var audioFed: ScenarioStep.Audio
    var waits: Bool
    var startExpect: Expectation?

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        audioFed = try fields.audio()
        waits = try fields.decodeIfPresent(Bool.self, forKey: .waits) ?? true
        startExpect = try fields.expectation(of: Self.name, .call)
    }

    var audio: (ScenarioStep.Audio, Expectation?)? { (audioFed, startExpect) }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        await run.feedAsync(audioFed, waits: waits, expect: startExpect, at: place)
    }
}

/// `analyzeSequence` over generated audio, checked on the time it returns.
struct AnalyzeStep: StepAction {
    static let name = "analyze"
    enum CodingKeys: String, ExpectationKeys, AudioKeys, CaseIterable {
        case seconds, start, sampleRate, expect, exact
    }
    var audioFed: ScenarioStep.Audio
    var expect: Expectation?

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        audioFed = try fields.audio()
        expect = try fields.expectation(of: Self.name, .analyze)
    }

    var audio: (ScenarioStep.Audio, Expectation?)? { (audioFed, expect) }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        await run.analyze(audioFed, expect: expect, at: place)
    }
}

/// A new autonomous input sequence; the one it replaces is kept for `endPreviousInput`.
struct StartInputStep: ExpectingStep {
    static let name = "startInput"
    static let outcomes = OutcomeKinds.call
    var expect: Expectation?

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        await run.startInput(expect: expect, at: place)
    }
}

/// Ends the input sequence `startInput` replaced.
struct EndPreviousInputStep: FieldlessStep {
    static let name = "endPreviousInput"

    func perform(in run: ScenarioExecution, at place: StepPlace) async { run.inputs.end(run.inputs.replaced) }
}

/// Ends the current autonomous input sequence.
struct EndInputStep: FieldlessStep {
    static let name = "endInput"

    func perform(in run: ScenarioExecution, at place: StepPlace) async { run.inputs.end(run.inputs.current) }
}
