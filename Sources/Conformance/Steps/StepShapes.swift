import CoreMedia
import SpeechReference

/// The shapes many steps share, each decoding its fields once: a step that takes nothing, a call
/// with or without a time, an expectation alone, a `ref`, a count.

/// A step with no fields besides `do`.
protocol FieldlessStep: StepAction where CodingKeys == NoFields {
    init()
}

enum NoFields: CodingKey, CaseIterable {}

extension FieldlessStep {
    init(from decoder: any Decoder) throws { self.init() }
}

/// A call with an optional time argument in seconds (`finalize`, `finish`, …).
protocol TimedCallStep: StepAction where CodingKeys == TimedCallKeys {
    init(time: Double?, call: ScenarioStep.Call)
    var time: Double? { get }
    var call: ScenarioStep.Call { get }
    /// The analyzer's call with the step's time (nil: the file gave none).
    static func invoke(_ analyzer: SpeechAnalyzer, _ time: CMTime?) async throws
}

enum TimedCallKeys: String, CallKeys, CaseIterable { case time, expect, exact, async, ref }

extension TimedCallStep {
    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(time: try fields.decodeIfPresent(Double.self, forKey: .time), call: try fields.call(of: Self.name))
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let analyzer = run.analyzer, time = ScenarioExecution.time(time)
        await run.call(call, at: place) { try await Self.invoke(analyzer, time) }
    }
}

/// A call with no argument.
protocol CallOnlyStep: StepAction where CodingKeys == CallOnlyKeys {
    init(call: ScenarioStep.Call)
}

enum CallOnlyKeys: String, CallKeys, CaseIterable { case expect, exact, async, ref }

extension CallOnlyStep {
    init(from decoder: any Decoder) throws {
        self.init(call: try decoder.container(keyedBy: CodingKeys.self).call(of: Self.name))
    }
}

/// A call or query checked on its expectation alone.
protocol ExpectingStep: StepAction where CodingKeys == ExpectOnlyKeys {
    /// What the step can report.
    static var outcomes: OutcomeKinds { get }
    init(expect: Expectation?)
}

enum ExpectOnlyKeys: String, ExpectationKeys, CaseIterable { case expect, exact }

extension ExpectingStep {
    init(from decoder: any Decoder) throws {
        self.init(expect: try decoder.container(keyedBy: CodingKeys.self).expectation(of: Self.name, Self.outcomes))
    }
}

/// A step about a call started with `"async": true`, named by its `ref`.
protocol RefStep: StepAction where CodingKeys == RefKeys {
    init(ref: String)
}

enum RefKeys: String, CodingKey, CaseIterable { case ref }

extension RefStep {
    init(from decoder: any Decoder) throws {
        self.init(ref: try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .ref))
    }
}

/// A check of a count.
protocol CountStep: StepAction where CodingKeys == ValueKeys {
    init(wanted: Int)
}

enum ValueKeys: String, CodingKey, CaseIterable { case value }

extension CountStep {
    init(from decoder: any Decoder) throws {
        self.init(wanted: try decoder.container(keyedBy: CodingKeys.self).count(.value))
    }
}

/// An asset call on a locale (default en-US), checked on its answer.
protocol LocaleStep: StepAction where CodingKeys == LocaleKeys {
    static var outcomes: OutcomeKinds { get }
    init(named: String, expect: Expectation?)
}

enum LocaleKeys: String, ExpectationKeys, CaseIterable { case locale, expect, exact }

extension LocaleStep {
    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            named: try fields.decodeIfPresent(String.self, forKey: .locale) ?? "en-US",
            expect: try fields.expectation(of: Self.name, Self.outcomes))
    }
}
