import Foundation
import Testing
import TestSupport
@testable import Conformance
@testable import Reports
@testable import SpeechReference

@Suite("Conformance suite")
struct ConformanceTests {
    @Test func everyScenarioPassesOnTheReferenceAndEveryClauseIsCovered() async throws {
        let (suite, errors) = try ConformanceSuite.builtIn()
        #expect(errors.isEmpty)
        #expect(suite.coverageProblems.isEmpty, "\(suite.coverageProblems)")
        #expect(suite.clauses.count >= 40 && suite.scenarios.count >= 50)
        let results = await suite.run(backends: ["scripted"])
        let failed = results.compactMap { result -> String? in
            switch result.outcome {
            case .passed: return nil
            case .failed(let problems): return "\(result.scenario.id): \(problems.joined(separator: "; "))"
            case .skipped(let reason): return "\(result.scenario.id) skipped: \(reason)"
            case .error(let message): return "\(result.scenario.id) error: \(message)"
            }
        }
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))")
    }

    /// Mutation check: each planted violation of a rule must make at least one scenario fail.
    @Test func plantedFaultsAreCaught() async throws {
        let (suite, _) = try ConformanceSuite.builtIn()
        var missed: [PlantedFault] = []
        for fault in PlantedFault.allCases {
            if ProcessInfo.processInfo.environment["CONFORMANCE_TRACE"] != nil { FileHandle.standardError.write(Data("fault \(fault)\n".utf8)) }
            let results = await PlantedFault.$current.withValue(fault) { await suite.run(backends: ["scripted"]) }
            let caught = results.contains { if case .passed = $0.outcome { return false }; return true }
            if !caught { missed.append(fault) }
        }
        let caughtShare = Double(PlantedFault.allCases.count - missed.count) / Double(PlantedFault.allCases.count)
        #expect(caughtShare >= 0.9, "not caught: \(missed)")
        #expect(missed.isEmpty, "not caught: \(missed)")
    }

    @Test func junitValidatesAndCountsMatch() async throws {
        let (suite, _) = try ConformanceSuite.builtIn()
        let results = await suite.run(backends: ["scripted"], filter: "finalize")
        var withSkip = results
        withSkip.append(ConformanceSuite.Result(backend: "scripted", scenario: results[0].scenario, outcome: .skipped("no partials"), seconds: 0))
        withSkip.append(ConformanceSuite.Result(backend: "scripted", scenario: results[0].scenario, outcome: .failed(["planted <&> \u{0007}"]), seconds: 0))
        let dir = try TemporaryDirectory()
        let path = dir.path("conformance.xml")
        try JUnitWriter.write(ConformanceReport.junit(withSkip, coverageProblems: ["clause X has no scenario"], clauses: suite.clauses), to: path)
        #expect(JUnitWriter.validate(path: path).isEmpty)
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        #expect(xml.contains("tests=\"\(withSkip.count + 1)\"") && xml.contains("failures=\"2\"") && xml.contains("skipped=\"1\""))
        #expect(xml.contains("classname=\"conformance.scripted.sa-finalize\""))
    }

    @Test func malformedScenariosAreTypedErrorsNamingTheFile() throws {
        let dir = try TemporaryDirectory()
        try dir.write("broken.json", bytes: Array("{ not json".utf8))
        try dir.write("unknown-step.json", bytes: Array(#"{"id":"x","clause":"SA-VR-NIL","title":"t","modules":[],"steps":[{"do":"teleport"}],"expect":{}}"#.utf8))
        try dir.write("wrong-type.json", bytes: Array(#"{"id":"x","clause":"SA-VR-NIL","title":"t","modules":[],"steps":[{"do":"feed","seconds":"long"}],"expect":{}}"#.utf8))
        let (scenarios, errors) = ScenarioCatalog.load(directory: dir.url)
        #expect(scenarios.isEmpty)
        #expect(errors.count == 3)
        #expect(errors.map(\.description).contains { $0.contains("unknown-step.json") && $0.contains("unknown step 'teleport'") })
        #expect(errors.map(\.description).contains { $0.contains("wrong-type.json") && $0.contains("wrong type") })
    }
}
