import AVFAudio
import SpeechReference

/// Steps that change the analyzer's modules or prepare it.

/// `setModules` with one more module of `kind` (default a transcriber) in `locale`.
struct AddModuleStep: StepAction {
    static let name = "addModule"
    enum CodingKeys: String, CallKeys, CaseIterable { case kind, locale, expect, exact, async, ref }
    var kind: ScenarioStep.ModuleKind
    var locale: String?
    var call: ScenarioStep.Call

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        kind = try fields.decodeIfPresent(ScenarioStep.ModuleKind.self, forKey: .kind) ?? .transcriber
        locale = try fields.decodeIfPresent(String.self, forKey: .locale)
        call = try fields.call(of: Self.name)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        await run.addModule(kind, locale: locale, call, at: place)
    }
}

/// `setModules` without the module at `module` (all of them kept when there is none there).
struct RemoveModuleStep: StepAction {
    static let name = "removeModule"
    enum CodingKeys: String, CallKeys, CaseIterable { case module, expect, exact, async, ref }
    var module: Int?
    var call: ScenarioStep.Call

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        module = try fields.decodeIfPresent(Int.self, forKey: .module)
        call = try fields.call(of: Self.name)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        var all = run.modules
        if let module, all.indices.contains(module) { all.remove(at: module) }
        let analyzer = run.analyzer, kept = all
        await run.call(call, at: place) { try await analyzer.setModules(kept) }
    }
}

/// Module `module` handed to a second analyzer while the first still has it.
struct UseModuleElsewhereStep: StepAction {
    static let name = "useModuleElsewhere"
    enum CodingKeys: String, CallKeys, CaseIterable { case module, expect, exact, async, ref }
    var module: Int
    var call: ScenarioStep.Call

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        module = try fields.decodeIfPresent(Int.self, forKey: .module) ?? 0
        call = try fields.call(of: Self.name)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        guard run.modules.indices.contains(module) else {
            return run.problems.append("step \(place.index): no module \(module)")
        }
        let used = run.modules[module], other = SpeechAnalyzer(modules: [])
        await run.call(call, at: place) { try await other.setModules([used]) }
        await other.cancelAndFinishNow()
    }
}

/// `setContext` with a context that names one contextual string.
struct SetContextStep: CallOnlyStep {
    static let name = "setContext"
    var call: ScenarioStep.Call

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let analyzer = run.analyzer, context = AnalysisContext()
        context.contextualStrings[.general] = ["harness"]
        await run.call(call, at: place) { try await analyzer.setContext(context) }
    }
}

/// `prepareToAnalyze(in:)` with 16 kHz mono audio.
struct PrepareStep: CallOnlyStep {
    static let name = "prepare"
    var call: ScenarioStep.Call

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let analyzer = run.analyzer
        await run.call(call, at: place) { try await analyzer.prepareToAnalyze(in: ScenarioExecution.format) }
    }
}

/// `bestAvailableAudioFormat(compatibleWith:)` over the modules: `"format"` or `null`.
struct BestFormatStep: ExpectingStep {
    static let name = "bestFormat"
    static let outcomes = OutcomeKinds.answers([#""format""#, "null"], failures: false)
    var expect: Expectation?

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: run.modules)
        run.check(expect, .answer(format == nil ? "nil" : "format"), at: place)
    }
}
