import Foundation
import Records
import SpeechCore
import TestSupport
import Testing

@testable import Conformance
@testable import Reports
@testable import SpeechReference

@Suite("Conformance suite")
struct ConformanceTests {
    /// Its capture scenarios interrupt the one audio session, so it runs apart from other such tests.
    @Test(.exclusiveAudioSession) func everyScenarioPassesOnTheReferenceAndEveryClauseIsCovered() async throws {
        let (suite, errors) = try ConformanceSuite.builtIn()
        #expect(errors.isEmpty)
        #expect(suite.coverageProblems.isEmpty, "\(suite.coverageProblems)")
        #expect(suite.clauses.count >= 57 && suite.scenarios.count >= 150)
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

    #if SPEECH_HARNESS_MUTATIONS
        /// The clause each planted fault breaks: that clause's own scenarios must catch it.
        static let targets: [PlantedFault: String] = [
            .inputEndFinishes: "SA-INPUT-END", .errorReachesOneWaiter: "SA-ERROR-ALL",
            .finalizeReturnsEarly: "SA-FINALIZE-WAIT",
            .volatileStartMovesBack: "SA-VR-RANGE", .disorderAccepted: "SA-INPUT-DISORDER",
            .streamsStayOpenAfterFinish: "SA-FINISH-STREAMS",
            .wrongFormatAccepted: "SA-FORMAT", .finalResultsMislabeled: "RES-ISFINAL",
            .finalizeSkipsEngines: "SA-FINALIZE-WAIT",
            .analyzeReturnsBufferStart: "SA-ANALYZE-RETURNS", .cancelledWaiterFinishesSession: "SA-WAIT-CANCEL",
            .handlerNotReplaced: "SA-VR-HANDLER-REPLACE", .eoiIgnoresReplacement: "SA-EOI-REPLACED",
            .timeAttributeAlwaysSet: "RES-ATTR-TIME",
            .resourceLimitIgnored: "SA-RESOURCES",
            .converterSkipsHandler: "SDK27-CONVERTER",
            .converterDropsTail: "SDK27-CONVERTER",
            .assetReadsOnce: "SDK27-ASSET-PROVIDER",
            .captureEndsAtStop: "SDK27-CAPTURE-PROVIDER",
            .inputBufferNotCopied: "SDK27-INPUT-BUFFER",
            .audioSystemNotChecked: "SDK27-AUDIO-SYSTEM",
            .statusOrderIgnoresRelease: "DEV-OS-RELEASE",
        ]

        /// Mutation check: each planted violation of a rule must make a scenario of that rule's clause fail.
        @Test(.exclusiveAudioSession) func plantedFaultsAreCaught() async throws {
            let (suite, _) = try ConformanceSuite.builtIn()
            var missed: [PlantedFault] = []
            for fault in PlantedFault.allCases {
                let clause = try #require(Self.targets[fault], "no target clause for \(fault)")
                var chosen = suite
                chosen.scenarios = suite.scenarios.filter { $0.clause == clause }
                #expect(!chosen.scenarios.isEmpty)
                // Caught means a scenario of that clause failed its checks: a skip or an error
                // (a scenario that could not run) says nothing about the rule.
                let results = await HarnessContext.$current.withValue(
                    HarnessContext.current.with(\.plantedFault, fault)
                ) { await chosen.run(backends: ["scripted"]) }
                let caught = results.contains {
                    guard case .failed = $0.outcome else { return false }
                    return $0.scenario.clause == clause
                }
                if !caught { missed.append(fault) }
                for result in results {
                    if case .error(let reason) = result.outcome {
                        Issue.record("\(fault): scenario \(result.scenario.id) could not run: \(reason)")
                    }
                }
            }
            let caughtShare = Double(PlantedFault.allCases.count - missed.count) / Double(PlantedFault.allCases.count)
            #expect(caughtShare >= 0.9, "not caught: \(missed)")
            #expect(missed.isEmpty, "not caught: \(missed)")
        }
    #endif

    @Test func junitValidatesAndCountsMatch() async throws {
        let (suite, _) = try ConformanceSuite.builtIn()
        let results = await suite.run(backends: ["scripted"], filter: "finalize")
        var withSkip = results
        withSkip.append(
            ConformanceSuite.Result(
                backend: "scripted", scenario: results[0].scenario, outcome: .skipped("no partials"), seconds: 0))
        withSkip.append(
            ConformanceSuite.Result(
                backend: "scripted", scenario: results[0].scenario, outcome: .failed(["planted <&> \u{0007}"]),
                seconds: 0))
        let dir = try TemporaryDirectory()
        let path = dir.path("conformance.xml")
        try JUnitWriter.write(
            ConformanceReport.junit(withSkip, coverageProblems: ["clause X has no scenario"], clauses: suite.clauses),
            to: path)
        #expect(JUnitWriter.validate(path: path).isEmpty)
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            xml.contains("tests=\"\(withSkip.count + 1)\"") && xml.contains("failures=\"2\"")
                && xml.contains("skipped=\"1\""))
        #expect(xml.contains("classname=\"conformance.scripted.sa-finalize\""))
    }

    @Test func malformedScenariosAreTypedErrorsNamingTheFile() throws {
        let dir = try TemporaryDirectory()
        try dir.write("broken.json", bytes: Array("{ not json".utf8))
        try dir.write(
            "unknown-step.json",
            bytes: Array(
                #"{"id":"x","clause":"SA-VR-NIL","title":"t","modules":[],"steps":[{"do":"teleport"}],"expect":{}}"#
                    .utf8))
        try dir.write(
            "wrong-type.json",
            bytes: Array(
                #"{"id":"x","clause":"SA-VR-NIL","title":"t","modules":[],"steps":[{"do":"feed","seconds":"long"}],"expect":{}}"#
                    .utf8))
        let (scenarios, errors) = ScenarioCatalog.load(directory: dir.url)
        #expect(scenarios.isEmpty)
        #expect(errors.count == 3)
        #expect(
            errors.map(\.description).contains {
                $0.contains("unknown-step.json") && $0.contains("unknown step 'teleport'")
            })
        #expect(
            errors.map(\.description).contains {
                $0.contains("wrong-type.json")
                    && $0.contains("step 1: field 'seconds': expected a number, got a string")
            })
    }

    /// The shapes of a bad value anywhere in a scenario file: an unknown value of a closed set names
    /// the values allowed; a wrong type says what was expected and what the file has.
    @Test(arguments: [
        (
            #""faults":[{"kind":"meteor"}]"#,
            "scenario 'x': field 'faults[0].kind': unknown fault kind 'meteor' (expected one of: throw, stall, failFinalize, slowFinalize, workerCrash, workerHang, workerGarbage, workerError, workerExitAtStart)"
        ),
        (#""steps":{"do":"feed"}"#, "scenario 'x': field 'steps': expected a list, got an object"),
        (#""steps":"feed twice""#, "scenario 'x': field 'steps': expected a list, got a string"),
        (#""title":7"#, "scenario 'x': field 'title': expected a string, got the number 7"),
        (#""latency":true"#, "scenario 'x': field 'latency': expected a number, got true"),
        (
            #""modules":[{"kind":"transcriber","reporting":"volatileResults"}]"#,
            "scenario 'x': field 'modules[0].reporting': expected a list, got a string"
        ),
        (#""clause":null"#, "scenario 'x': field 'clause': expected a string, got null"),
        // Nothing in a scenario falls back to a default or drops a name it does not know.
        (
            #""modules":[{"kind":"transcriber","preset":"verbatim"}]"#,
            "scenario 'x': field 'modules[0].preset': unknown preset 'verbatim' (expected one of: transcription, transcriptionWithAlternatives, timeIndexedTranscriptionWithAlternatives, progressiveTranscription, timeIndexedProgressiveTranscription)"
        ),
        (
            #""modules":[{"kind":"transcriber","reporting":["volatileResults","fastResult"]}]"#,
            "scenario 'x': field 'modules[0].reporting[1]': unknown reporting option 'fastResult' (expected one of: volatileResults, alternativeTranscriptions, fastResults)"
        ),
        (
            #""modules":[{"kind":"transcriber","attributes":["confidence"]}]"#,
            "scenario 'x': field 'modules[0].attributes[0]': unknown attribute option 'confidence' (expected one of: audioTimeRange, transcriptionConfidence)"
        ),
        (
            #""requires":["partialResult"]"#,
            "scenario 'x': field 'requires[0]': unknown requirement 'partialResult' (expected one of: partialResults, wordTimes, alternatives, confidence, recognisedWords)"
        ),
        (
            #""exact":["finalWords"]"#,
            "scenario 'x': field 'exact[0]': unknown exact-only expectation 'finalWords' (expected one of: finalText)"
        ),
        (
            #""expect":{"streams":"closed"}"#,
            "scenario 'x': field 'expect.streams': unknown stream state 'closed' (expected one of: open, ended, failed)"
        ),
        (
            #""requries":["wordTimes"]"#,
            "scenario 'x': field 'requries': unknown field (known fields: capture, captureExpect, clause, device, endpointSilence, exact, expect, faultAt, faults, helper, helperExpect, id, latency, legacy, legacyExpect, modules, requires, requiresAssets, resourceLimit, speech, steps, title, words)"
        ),
        (
            #""modules":[{"kind":"transcriber","prest":"transcription"}]"#,
            "scenario 'x': field 'modules[0].prest': unknown field (known fields: attributes, kind, locale, preset, reporting, transcription)"
        ),
        (
            #""expect":{"finalTxt":"one two"}"#,
            "scenario 'x': field 'expect.finalTxt': unknown field (known fields: finalText, hadVolatileResults, noWaiters, resultRules, streams, volatileRangeMonotonic)"
        ),
    ])
    func badValuesAreNamedWithTheirField(field: String, message: String) throws {
        let dir = try TemporaryDirectory()
        var fields = [
            "id": #""id":"x""#, "clause": #""clause":"SA-VR-NIL""#, "title": #""title":"t""#,
            "modules": #""modules":[]"#, "steps": #""steps":[]"#, "expect": #""expect":{}"#,
        ]
        let name = String(field.dropFirst().prefix { $0 != "\"" })
        fields[name] = field
        let file = try dir.write(
            "bad.json", bytes: Array(("{" + fields.values.sorted().joined(separator: ",") + "}").utf8))
        #expect {
            _ = try ScenarioCatalog.load(path: file)
        } throws: { error in
            "\(error)" == "\(file): invalid scenario: \(message)"
        }
    }

    /// Steps are typed when the file is read: an expectation a step cannot report, a field its kind
    /// does not take, or a check that does not exist fails there, naming scenario, step and field.
    /// Each message is checked whole.
    @Test(arguments: [
        (
            #"{"do":"teleport"}"#,
            "field 'do': unknown step 'teleport' (expected one of: addModule, analyze, await, bestFormat, cancelAndFinishNow, cancelBefore, cancelTask, checkAttributes, checkHandler, checkModuleCount, checkPending, checkReserved, checkResults, checkStreams, checkVolatileRange, downloadProgress, endInput, endPreviousInput, equivalentLocale, feed, feedAsync, finalize, finalizeAndFinish, finish, finishAtEndOfInput, installRequest, isAvailable, markHandler, prepare, release, removeModule, replaceHandler, reserve, setContext, startInput, status, supportedLocales, useModuleElsewhere)"
        ),
        (
            #"{"do":"feed","secnds":1}"#,
            "field 'secnds': 'feed' takes no field 'secnds' (it takes: seconds, start, sampleRate, expect, exact, async, ref)"
        ),
        (#"{"do":"endInput","value":1}"#, "field 'value': 'endInput' takes no field 'value' (it takes none)"),
        (
            #"{"do":"finalize","expect":"fails:notACode"}"#,
            #"field 'expect': unknown outcome "fails:notACode" of 'finalize' (expected one of: "returns", "cancelled", {"fails": {"domain": …}})"#
        ),
        (
            #"{"do":"reserve","expect":"returns"}"#,
            #"field 'expect': unknown outcome "returns" of 'reserve' (expected one of: true, false, {"fails": {"domain": …}})"#
        ),
        (
            #"{"do":"analyze","expect":"returns"}"#,
            #"field 'expect': unknown outcome "returns" of 'analyze' (expected one of: {"time": <seconds or null>}, "cancelled", {"fails": {"domain": …}})"#
        ),
        (
            #"{"do":"release","expect":{"fails":{"domain":"engine"}}}"#,
            #"field 'expect': unknown outcome {"fails": …} of 'release' (expected one of: true, false)"#
        ),
        (
            #"{"do":"finalize","expect":{"fails":{"domain":"SFSpeechError","code":"notACode"}}}"#,
            "field 'expect.fails.code': unknown SFSpeechError code 'notACode' (expected one of: assetLocaleNotAllocated, audioDisordered, audioReadFailed, cannotAllocateUnsupportedLocale, cannotConfigureAudioSystem, incompatibleAudioFormats, insufficientResources, internalServiceError, malformedSupplementalModel, missingParameter, moduleOutputFailed, noModel, timeout, tooManyAssetLocalesAllocated, undefinedTemplateClassName, unexpectedAudioFormat)"
        ),
        (
            #"{"do":"finalize","expect":{"fails":{"domain":"kernel"}}}"#,
            "field 'expect.fails.domain': unknown failure domain 'kernel' (expected one of: SFSpeechError, URLError, CocoaError, engine, usage)"
        ),
        (
            #"{"do":"finalize","expect":{"fails":{"domain":"engine","code":"timeout"}}}"#,
            "field 'expect.fails.code': a failure of domain 'engine' has no code"
        ),
        (#"{"do":"finalize","expect":{"fails":{"domain":"SFSpeechError"}}}"#, "field 'expect.fails.code': missing"),
        (
            #"{"do":"finalize","expect":{"fails":{"domain":"usage"},"time":1}}"#,
            #"field 'expect': an outcome object has one field, "fails" or "time""#
        ),
        (
            #"{"do":"finalize","expect":{"fails":{"domain":"usage","why":"x"}}}"#,
            "field 'expect.fails.why': unknown field (known fields: code, domain)"
        ),
        (#"{"do":"finalize","exact":true}"#, "field 'exact': 'exact' qualifies 'expect', which 'finalize' lacks here"),
        (#"{"do":"finish","ref":"x"}"#, #"field 'ref': a name is given to a call started with "async": true"#),
        (#"{"do":"await"}"#, "field 'ref': missing"),
        (
            #"{"do":"checkHandler","value":"sometimes"}"#,
            #"field 'value': unknown handler check 'sometimes' (expected one of: changedEnd, quietSinceMark, oldQuiet, newCalled, matchesProperty, none, {"changedStart": {"atLeast": <seconds>}})"#
        ),
        (
            #"{"do":"checkHandler","value":2}"#,
            #"field 'value': a handler check is a word such as "changedEnd", or {"changedStart": {"atLeast": <seconds>}}"#
        ),
        (
            #"{"do":"checkVolatileRange","value":"end>=1"}"#,
            #"field 'value': a range check is null, {"start": {"atLeast": <s>}} or {"end": {"atLeast": <s>}}"#
        ),
        (
            #"{"do":"checkVolatileRange","value":{"end":{"atLeast":1,"most":2}}}"#,
            "field 'value.end.most': unknown field (known fields: atLeast)"
        ),
        (
            #"{"do":"checkStreams","value":"closed"}"#,
            "field 'value': unknown stream state 'closed' (expected one of: open, ended, failed)"
        ),
        (
            #"{"do":"checkAttributes","value":"alternatives>1"}"#,
            "field 'value': unknown attribute check 'alternatives>1' (expected one of: time, notime, confidence, noconfidence, timesInRange, severalAlternatives, oneAlternative)"
        ),
        (#"{"do":"checkModuleCount","value":-1}"#, "field 'value': -1 is not a count"),
        (#"{"do":"checkReserved","value":"2"}"#, "field 'value': expected a whole number, got a string"),
        (#"{"do":"feed","seconds":-1}"#, "field 'seconds': must be positive"),
        (#"{"do":"feedAsync","waits":"no"}"#, "field 'waits': expected true or false, got a string"),
        (
            #"{"do":"downloadProgress","expect":"ten steps over 3 s"}"#,
            #"field 'expect': unknown outcome "ten steps over 3 s" of 'downloadProgress' (expected one of: "<n> steps over <s> s to <p>%", "none")"#
        ),
    ])
    func malformedStepsFailWhenTheFileIsRead(step: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let scenario = { (id: String, steps: String) in
            #"{"id":"\#(id)","clause":"SA-VR-NIL","title":"t","modules":[],"steps":[\#(steps)],"expect":{}}"#
        }
        let file = try dir.write(
            "steps.json",
            bytes: Array(
                ("[" + scenario("first", #"{"do":"endInput"}"#) + ","
                    + scenario("second", #"{"do":"endInput"},"# + step) + "]").utf8))
        #expect {
            _ = try ScenarioCatalog.load(path: file)
        } throws: { error in
            "\(error)" == "\(file): invalid scenario: scenario 'second': step 2: \(message)"
        }
    }
}

/// A third-party JUnit reader (junitparser, from PyPI, in the bootstrap environment) reads our
/// files back with the counts, names, failures and skips we wrote.
@Suite("JUnit read back by junitparser")
struct JUnitParserTests {
    static let python = SystemFixture.packageRoot + "/.venv/bin/python"
    static let available = SystemFixture.isCI || FileManager.default.isExecutableFile(atPath: python)

    @Test(.enabled(if: available)) func junitparserSeesWhatWeWrote() async throws {
        let (suite, _) = try ConformanceSuite.builtIn()
        var results = await suite.run(backends: ["scripted"], filter: "cancel")
        results.append(
            ConformanceSuite.Result(
                backend: "scripted", scenario: results[0].scenario, outcome: .skipped("no partial results"),
                seconds: 0.5))
        results.append(
            ConformanceSuite.Result(
                backend: "scripted", scenario: results[1].scenario,
                outcome: .failed(["expected returns, got cancelled"]), seconds: 0.25))
        let dir = try TemporaryDirectory()
        let path = dir.path("c.xml")
        try JUnitWriter.write(ConformanceReport.junit(results, coverageProblems: [], clauses: suite.clauses), to: path)
        let script = """
            import sys
            from junitparser import JUnitXml, Failure, Skipped, Error
            xml = JUnitXml.fromfile(sys.argv[1])
            for s in xml:
                print("suite", s.name, s.tests, s.failures, s.errors, s.skipped)
                for c in s:
                    kind = "pass"
                    for r in c.result:
                        kind = type(r).__name__.lower()
                    print("case", c.classname, c.name, kind)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = ["-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "suite conformance.scripted \(results.count) 1 0 1")
        let cases = lines.filter { $0.hasPrefix("case ") }
        #expect(cases.count == results.count)
        #expect(cases.filter { $0.hasSuffix(" failure") }.count == 1)
        #expect(cases.filter { $0.hasSuffix(" skipped") }.count == 1)
        #expect(cases.contains("case conformance.scripted.sa-cancel cancel-before-drops pass"))
    }
}
