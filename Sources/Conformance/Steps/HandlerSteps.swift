/// Steps about the volatile range: its handler and the analyzer's property.

/// Remembers how many times the handler has been called, for `quietSinceMark`.
struct MarkHandlerStep: FieldlessStep {
    static let name = "markHandler"

    func perform(in run: ScenarioExecution, at place: StepPlace) async { run.handler.mark = run.ranges.calls.count }
}

/// Installs a new handler in place of the current one.
struct ReplaceHandlerStep: FieldlessStep {
    static let name = "replaceHandler"

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        run.handler.generation += 1
        run.handler.replacedAt = run.ranges.calls.count
        await run.installHandler()
    }
}

/// What the handler must have seen: `"changedEnd"`, `"quietSinceMark"`, `"oldQuiet"`,
/// `"newCalled"`, `"matchesProperty"`, `"none"`, or `{"changedStart": {"atLeast": <seconds>}}`.
struct CheckHandlerStep: StepAction {
    static let name = "checkHandler"
    enum CodingKeys: String, CodingKey, CaseIterable { case value }
    enum Bound: String, CodingKey { case changedStart }
    var check: ScenarioStep.HandlerCheck

    static let words: [String: ScenarioStep.HandlerCheck] = [
        "changedEnd": .changedEnd, "quietSinceMark": .quietSinceMark, "oldQuiet": .oldQuiet,
        "newCalled": .newCalled, "matchesProperty": .matchesProperty, "none": ScenarioStep.HandlerCheck.none,
    ]

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        if let word = try? fields.decode(String.self, forKey: .value) {
            guard let check = Self.words[word] else {
                throw DecodingError.dataCorruptedError(
                    forKey: .value, in: fields,
                    debugDescription:
                        #"unknown handler check '\#(word)' (expected one of: changedEnd, quietSinceMark, oldQuiet, newCalled, matchesProperty, none, {"changedStart": {"atLeast": <seconds>}})"#
                )
            }
            self.check = check
        } else if let bound = try? fields.nestedContainer(keyedBy: Bound.self, forKey: .value) {
            check = .changedStartAtLeast(try bound.decode(AtLeast.self, forKey: .changedStart).atLeast)
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .value, in: fields,
                debugDescription:
                    #"a handler check is a word such as "changedEnd", or {"changedStart": {"atLeast": <seconds>}}"#)
        }
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        run.checkHandler(check, index: place.index, property: await run.analyzer.volatileRange)
    }
}

/// The analyzer's `volatileRange`: `null`, or `{"start": {"atLeast": <s>}}` / `{"end": {"atLeast": <s>}}`.
struct CheckVolatileRangeStep: StepAction {
    static let name = "checkVolatileRange"
    enum CodingKeys: String, CodingKey, CaseIterable { case value }
    enum Bound: String, CodingKey, CaseIterable { case start, end }
    var check: ScenarioStep.RangeCheck

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        if try fields.decodeNil(forKey: .value) {
            check = .none
            return
        }
        let wrong = DecodingError.dataCorruptedError(
            forKey: .value, in: fields,
            debugDescription: #"a range check is null, {"start": {"atLeast": <s>}} or {"end": {"atLeast": <s>}}"#)
        guard let bound = try? fields.nestedContainer(keyedBy: Bound.self, forKey: .value),
            bound.allKeys.count == 1, let side = bound.allKeys.first
        else { throw wrong }
        let least = try bound.decode(AtLeast.self, forKey: side).atLeast
        check = side == .start ? .startAtLeast(least) : .endAtLeast(least)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        run.checkVolatileRange(check, range: await run.analyzer.volatileRange, index: place.index)
    }
}
