import SpeechReference

/// Steps that check what the analyzer, its modules and the inventory show at that moment.

/// An attribute rule over module `module`'s published results with text; with `"exact": true` it
/// holds on the scripted engine only.
struct CheckAttributesStep: StepAction {
    static let name = "checkAttributes"
    enum CodingKeys: String, CodingKey, CaseIterable { case value, module, exact }
    var check: ScenarioStep.AttributeCheck
    var module: Int
    var exactOnly: Bool

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        check = try fields.decode(ScenarioStep.AttributeCheck.self, forKey: .value)
        module = try fields.decodeIfPresent(Int.self, forKey: .module) ?? 0
        exactOnly = try fields.decodeIfPresent(Bool.self, forKey: .exact) ?? false
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        guard run.exact || !exactOnly, run.transcribers.indices.contains(module) else { return }
        run.checkAttributes(check, of: run.transcribers[module], index: place.index)
    }
}

/// How many modules the analyzer has.
struct CheckModuleCountStep: CountStep {
    static let name = "checkModuleCount"
    var wanted: Int

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let count = await run.analyzer.modules.count
        if count != wanted { run.problems.append("step \(place.index): \(count) modules, expected \(wanted)") }
    }
}

/// How many locales are reserved.
struct CheckReservedStep: CountStep {
    static let name = "checkReserved"
    var wanted: Int

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let count = await AssetInventory.reservedLocales.count
        if count != wanted { run.problems.append("step \(place.index): \(count) reserved locales, expected \(wanted)") }
    }
}

/// The state of module `module`'s results stream: `"open"`, `"ended"` or `"failed"`.
struct CheckStreamsStep: StepAction {
    static let name = "checkStreams"
    enum CodingKeys: String, CodingKey, CaseIterable { case value, module }
    var wanted: ScenarioStep.StreamState
    var module: Int

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        wanted = try fields.decode(ScenarioStep.StreamState.self, forKey: .value)
        module = try fields.decodeIfPresent(Int.self, forKey: .module) ?? 0
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        guard run.transcribers.indices.contains(module) else { return }
        let state = run.streamState(run.transcribers[module])
        if state != wanted {
            run.problems.append(
                "step \(place.index): stream of module \(module) is \(state.rawValue), expected \(wanted.rawValue)")
        }
    }
}

/// Module 0's final text so far (scripted engine only: other engines hear noise).
struct CheckResultsStep: StepAction {
    static let name = "checkResults"
    enum CodingKeys: String, CodingKey, CaseIterable { case value }
    var expected: String

    init(from decoder: any Decoder) throws {
        expected = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .value)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        guard run.exact, let transcriber = run.transcribers.first else { return }
        let text = run.finalText(transcriber)
        if text != expected {
            run.problems.append("step \(place.index): final text \"\(text)\", expected \"\(expected)\"")
        }
    }
}
