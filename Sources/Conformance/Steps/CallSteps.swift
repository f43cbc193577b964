/// Steps about calls started with `"async": true`.

/// Waits for the call started as `ref` and checks how it ended.
struct AwaitStep: StepAction {
    static let name = "await"
    enum CodingKeys: String, ExpectationKeys, CaseIterable { case ref, expect, exact }
    var ref: String
    var expect: Expectation?

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        ref = try fields.decode(String.self, forKey: .ref)
        expect = try fields.expectation(of: Self.name, .call)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        await run.awaitCall(ref, expect: expect, at: place)
    }
}

/// The call started as `ref` must still be waiting once the analyzer has done all it can.
struct CheckPendingStep: RefStep {
    static let name = "checkPending"
    var ref: String

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        await run.checkPending(ref, index: place.index)
    }
}

/// Cancels the task of the call started as `ref`.
struct CancelTaskStep: RefStep {
    static let name = "cancelTask"
    var ref: String

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        guard let entry = run.pending[ref] else {
            return run.problems.append("step \(place.index): nothing pending as '\(ref)'")
        }
        entry.task.cancel()
    }
}
