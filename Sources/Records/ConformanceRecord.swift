/// How a scenario went on a backend.
public enum ScenarioOutcome: Sendable, Hashable {
    case passed
    case failed([String])
    case skipped(String)
    case error(String)
}

/// A documented rule a scenario checks.
public struct Clause: Codable, Sendable, Hashable {
    public var id: String
    /// Where the rule is documented (seed file and section, or the interface file).
    public var source: String
    /// The rule in our words.
    public var rule: String

    public init(id: String, source: String, rule: String) {
        self.id = id
        self.source = source
        self.rule = rule
    }
}

/// One scenario's outcome on one backend, as reports need it.
public struct ConformanceRecord: Sendable, Hashable {
    /// The scenario, by what reports show of it.
    public struct Scenario: Sendable, Hashable {
        public var id: String
        public var clause: String
        public var title: String

        public init(id: String, clause: String, title: String) {
            self.id = id
            self.clause = clause
            self.title = title
        }
    }

    public var backend: String
    public var scenario: Scenario
    public var outcome: ScenarioOutcome
    public var seconds: Double

    public init(backend: String, scenario: Scenario, outcome: ScenarioOutcome, seconds: Double) {
        self.backend = backend
        self.scenario = scenario
        self.outcome = outcome
        self.seconds = seconds
    }
}
