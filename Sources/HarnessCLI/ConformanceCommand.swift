import Conformance
import EngineCore
import Foundation
import Reports
import SpeechCore

/// `speech-harness conformance`: the documented rules, as scenarios, against backends.
enum ConformanceCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "conformance",
            summary: "Run the conformance scenarios (one per documented clause or more) against backends.",
            options: [engine.spec, filter.spec, scenarios.spec, junit.spec, coverage.spec, writeAudio.spec, html.spec],
            details:
                "On the scripted engine every expectation is checked; on other engines only those that do not\ndepend on what the engine hears. Missing capabilities are reported as skipped, with the reason.\n\nA real engine is made once per backend and memoized: a sequence of calls on the same audio that\nan earlier scenario made is answered as the engine answered it then (the count is printed at the\nend). Conformance times nothing; benchmarks never memoize.\n\nA replaying backend (replay:DIR) answers only for audio its cassettes hold; a scenario whose audio\nthey do not hold is skipped with that reason (--write-audio writes the audio to record).",
            run: { try await run("conformance", $0, $1) })
    ]

    static let engine = Option.texts(
        "engine", value: "id", help: "Engine behind the reference analyzer, adapters included (default scripted).",
        aliases: ["backend"])
    static let filter = Option.text(
        "filter", value: "text", help: "Only scenarios whose id or clause contains the text.")
    static let scenarios = Option.text(
        "scenarios", value: "dir", help: "Scenario folder (default: the built-in scenarios).")
    static let junit = Option.text("junit", value: "file", help: "Write JUnit XML here.")
    static let coverage = Option.flag("coverage", help: "Print each clause with its scenarios.")
    static let writeAudio = Option.text(
        "write-audio", value: "dir",
        help:
            "Write the audio the scenarios give real engines (16 kHz WAV) here and stop: record it with speech-harness-record to make cassettes for --engine replay:DIR."
    )
    static let html = Option.text(
        "html", value: "file",
        help:
            "Write a clause × backend grid here (pass, skip with reason, fail), linked with the report pages in its folder."
    )

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        var (suite, loadErrors) = try ConformanceSuite.builtIn()
        if let directory = arguments[Self.scenarios] {
            let loaded = ScenarioCatalog.load(directory: URL(fileURLWithPath: directory))
            suite.scenarios = loaded.scenarios
            loadErrors = loaded.errors
        }
        for error in loadErrors { console.err("speech-harness conformance: \(error)") }
        if arguments[Self.coverage] { console.out(suite.coverageTable) }
        if let directory = arguments[Self.writeAudio] {
            for file in try ConformanceAudio.write(to: directory, scenarios: suite.scenarios) { console.out(file) }
            return 0
        }
        let backends = arguments[Self.engine].isEmpty ? ["scripted"] : arguments[Self.engine]
        for id in backends where !HarnessContext.current.engines.knows(id) {
            throw UsageError(
                message:
                    "unknown backend '\(id)'; known: \(HarnessContext.current.engines.knownNames.joined(separator: ", "))",
                command: path)
        }
        let filter = arguments[Self.filter]
        var memoized: [String] = []
        let results = await suite.run(backends: backends, filter: filter) { backend, remembered, made in
            memoized.append("\(backend): \(remembered) engine calls answered from memory, \(made) made")
        }
        var counts: [String: (passed: Int, failed: Int, skipped: Int, errors: Int)] = [:]
        for result in results {
            var c = counts[result.backend] ?? (0, 0, 0, 0)
            switch result.outcome {
            case .passed: c.passed += 1
            case .failed(let problems):
                c.failed += 1
                console.out(
                    "FAIL \(result.backend) \(result.scenario.id) [\(result.scenario.clause)]: \(problems.joined(separator: "; "))"
                )
            case .skipped: c.skipped += 1
            case .error(let message):
                c.errors += 1
                console.out("ERROR \(result.backend) \(result.scenario.id): \(message)")
            }
            counts[result.backend] = c
        }
        // Coverage is a property of the built-in suite; a folder of one's own scenarios need not cover every clause.
        let coverage = filter == nil && arguments[Self.scenarios] == nil ? suite.coverageProblems : []
        for problem in coverage { console.out("COVERAGE \(problem)") }
        for backend in backends {
            let c = counts[backend] ?? (0, 0, 0, 0)
            console.out("\(backend): \(c.passed) passed, \(c.failed) failed, \(c.skipped) skipped, \(c.errors) errors")
        }
        console.out("clauses: \(suite.clauses.count), scenarios: \(suite.scenarios.count)")
        // Scenarios give a real engine the same audio again and again; a call sequence seen before is
        // answered as the engine answered it then (MemoizingEngine): conformance times nothing.
        for line in memoized { console.out(line) }
        if let junit = arguments[Self.junit] {
            try JUnitWriter.write(
                ConformanceReport.junit(results, coverageProblems: coverage, clauses: suite.clauses), to: junit)
            let problems = JUnitWriter.validate(path: junit)
            if !problems.isEmpty { throw ReportError.invalid(path: junit, problems: problems) }
        }
        if let file = arguments[Self.html] {
            let (_, page, links) = ReportLink.placing(file, title: "Conformance")
            try ReportFile.write(
                ConformanceReport.html(
                    results, backends: backends, coverageProblems: coverage, clauses: suite.clauses, links: links,
                    page: page),
                to: file)
        }
        let bad = counts.values.reduce(0) { $0 + $1.failed + $1.errors } + coverage.count + loadErrors.count
        return bad == 0 ? 0 : 1
    }
}
