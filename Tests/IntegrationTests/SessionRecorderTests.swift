import Foundation
import TestSupport
import Testing

/// `speech-harness-record`: an Apple-style program (public API only) that records analysis
/// sessions as traces; here it records the reference analyzer with the scripted engine and with
/// PocketSphinx, and every line is checked against the documented schema (jsonschema, from PyPI).
@Suite("Session recorder")
struct SessionRecorderTests {
    static let source = SystemFixture.packageRoot + "/Sources/speech-harness-record"
    static let schema = SystemFixture.packageRoot + "/docs/session-trace.schema.json"
    static let python = SystemFixture.packageRoot + "/.venv/bin/python"
    static let digits = SystemFixture.asteriskDigits + "/5.wav"
    /// A 16 kHz recording PocketSphinx's English model hears words in.
    static let cards = "/usr/share/pocketsphinx/test/data/cards/001.wav"
    static let canRun =
        PackageProgram.available("speech-harness-record")
        && (SystemFixture.isCI || FileManager.default.isExecutableFile(atPath: python))
        && SystemFixture.available(digits) && SystemFixture.available(cards)

    /// The same source must build against Apple's framework, so it may import only these.
    @Test func importsOnlyApplesPublicModules() throws {
        let allowed: Set<String> = ["Foundation", "Speech", "AVFoundation", "AVFAudio", "CoreMedia"]
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.source).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 3)
        for file in files {
            let text = try String(contentsOfFile: Self.source + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(allowed.contains(module), "\(file) imports \(module)")
            }
        }
    }

    static func record(
        engine: String, audio: String = digits, extra: [String: String] = [:]
    ) throws -> (
        String, [String]
    ) {
        let dir = try TemporaryDirectory()
        let out = dir.path("traces")
        let run = try PackageProgram.run(
            "speech-harness-record", ["--out", out, audio],
            environment: ["SPEECH_HARNESS_ENGINE": engine].merging(extra) { $1 })
        #expect(run.status == 0, "\(run.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        // Keep the folder alive for the caller by copying the traces out.
        let keep = NSTemporaryDirectory() + "speech-harness-traces-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: out, toPath: keep)
        return (keep, names)
    }

    static func validate(_ folder: String) throws -> String {
        let script = """
            import json, sys, os, jsonschema
            schema = json.load(open(sys.argv[1]))
            validator = jsonschema.Draft202012Validator(schema)
            problems = 0
            for name in sorted(os.listdir(sys.argv[2])):
                lines = [json.loads(l) for l in open(os.path.join(sys.argv[2], name))]
                for number, line in enumerate(lines, 1):
                    for error in validator.iter_errors(line):
                        problems += 1
                        print(f"{name}:{number}: {error.message}")
                kinds = [l["type"] for l in lines]
                if kinds[0] != "session" or kinds[-1] != "end" or kinds.count("session") != 1 or kinds.count("end") != 1:
                    problems += 1
                    print(f"{name}: lines are {kinds}")
                seqs = [l["seq"] for l in lines[1:]]
                if seqs != list(range(len(seqs))):
                    problems += 1
                    print(f"{name}: seq {seqs}")
            print("problems", problems)
            """
        let run = try ExternalProgram.run(Self.python, ["-c", script, Self.schema, folder])
        #expect(run.status == 0, "\(run.errors)")
        return run.output
    }

    @Test(.enabled(if: canRun)) func scriptedTracesFollowTheSchema() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write(
            "script.json",
            bytes: Array(#"{"words":[{"text":"five","start":0.1,"end":0.5}]}"#.utf8))
        let (folder, names) = try Self.record(engine: "scripted", extra: ["SPEECH_HARNESS_SCRIPT": script])
        #expect(names.count == 19)
        let report = try Self.validate(folder)
        #expect(report.hasSuffix("problems 0\n"), "\(report)")
        // The file scenario's final words are the script's, at its times.
        let file = try String(contentsOfFile: folder + "/file--5.jsonl", encoding: .utf8)
        #expect(file.contains(#""runs":[{"duration":0.4,"start":0.1,"text":"five"}]"#), "\(file)")
        // A locale without assets is an error of the call that needed them, not silence.
        let missing = try String(contentsOfFile: folder + "/uninstalled-locale--5.jsonl", encoding: .utf8)
        #expect(missing.contains(#""outcome":"threw""#))
    }

    @Test(.enabled(if: canRun)) func pocketSphinxTracesFollowTheSchema() throws {
        let (folder, names) = try Self.record(engine: "pocketsphinx", audio: Self.cards)
        #expect(names.count == 19)
        let report = try Self.validate(folder)
        #expect(report.hasSuffix("problems 0\n"), "\(report)")
        let stream = try String(contentsOfFile: folder + "/stream--001.jsonl", encoding: .utf8)
        #expect(stream.contains(#""isFinal":true"#), "\(stream)")
        // The volatile scenario shows results before they are final.
        let volatile = try String(contentsOfFile: folder + "/stream-volatile--001.jsonl", encoding: .utf8)
        #expect(volatile.contains(#""isFinal":false"#), "\(volatile)")
    }

    /// Two real engines over the same scenario differ in content (words, cadence) with figures, and
    /// never in semantics: the reference analyzer behaves the same whatever the engine.
    @Test(.enabled(if: canRun && PackageProgram.available("speech-harness")))
    func twoEnginesDifferInContentOnly() throws {
        let dir = try TemporaryDirectory()
        for (engine, folder) in [("pocketsphinx", "a"), ("whisper", "b")] {
            let run = try PackageProgram.run(
                "speech-harness-record",
                ["--out", dir.path(folder), "--scenario", "stream", "--scenario", "stream-volatile", Self.cards],
                environment: ["SPEECH_HARNESS_ENGINE": engine])
            #expect(run.status == 0, "\(run.output)")
        }
        let junit = dir.path("diff.xml")
        let html = dir.path("trace-diff.html")
        let diff = try PackageProgram.run(
            "speech-harness", ["trace", "diff", dir.path("a"), dir.path("b"), "--junit", junit, "--html", html],
            environment: [:])
        #expect(diff.status == 0, "\(diff.output)")
        #expect(diff.output.contains("content results[0].words: WER "), "\(diff.output)")
        #expect(!diff.output.contains("semantics "), "\(diff.output)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 2)
        #expect(!xml.contains("<failure"))
        // The page: both scenarios differ in content only, and it opens cleanly in a browser.
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.components(separatedBy: "content or platform only").count - 1 == 2, "\(page)")
        #expect(page.contains("<code>results[0].words</code>") && !page.contains(">semantic differences<"))
        let check = try ExternalProgram.run(SystemFixture.packageRoot + "/scripts/check-html", [html])
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        // The same recording twice has no differences at all.
        let same = try PackageProgram.run(
            "speech-harness", ["trace", "diff", dir.path("a"), dir.path("a")], environment: [:])
        #expect(same.status == 0 && same.output.contains("stream--001.jsonl: no differences"), "\(same.output)")
    }

    /// The macOS lane (.github/workflows/record-apple.yml) cannot run here; what it calls on Linux
    /// must exist as written: the scripts, the products, the recorder's and trace diff's options.
    @Test func theMacOSLaneCallsWhatExists() throws {
        let root = SystemFixture.packageRoot
        let workflow = try String(contentsOfFile: root + "/.github/workflows/record-apple.yml", encoding: .utf8)
        for script in ["scripts/bootstrap", "scripts/build-corpus"] {
            #expect(workflow.contains(script) && FileManager.default.isExecutableFile(atPath: root + "/" + script))
        }
        let package = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
        for product in ["speech-harness-record", "speech-harness"] {
            #expect(workflow.contains("--product \(product)") && package.contains(#"name: "\#(product)""#))
        }
        let recorder = try String(contentsOfFile: Self.source + "/main.swift", encoding: .utf8)
        for option in ["--install-assets", "--out", "--pacing"] {
            #expect(workflow.contains(option) && recorder.contains(#"case "\#(option)""#), "\(option)")
        }
        #expect(workflow.contains("trace diff traces/reference traces/apple --junit"))
        #expect(workflow.contains("runs-on: macos-26"))
    }

    /// Recorded from the reference with PocketSphinx, replayed through `replay:` and recorded again:
    /// no difference in any scenario (with `--wording`, an error's words name the engine).
    @Test(.enabled(if: canRun && PackageProgram.available("speech-harness")))
    func replayingARecordingGivesItBack() throws {
        let dir = try TemporaryDirectory()
        let recorded = dir.path("recorded"), replayed = dir.path("replayed")
        for (engine, out) in [("pocketsphinx", recorded), ("replay:" + recorded, replayed)] {
            let run = try PackageProgram.run(
                "speech-harness-record", ["--out", out, Self.cards], environment: ["SPEECH_HARNESS_ENGINE": engine])
            #expect(run.status == 0, "\(run.output)")
        }
        let diff = try PackageProgram.run("speech-harness", ["trace", "diff", recorded, replayed], environment: [:])
        #expect(diff.status == 0, "\(diff.output)")
        let lines = diff.output.split(separator: "\n")
        #expect(lines.count == 20 && lines.dropLast().allSatisfy { $0.hasSuffix(": no differences") }, "\(diff.output)")
        // Asked for, the wording of errors that name the engine is all that differs.
        let worded = try PackageProgram.run(
            "speech-harness", ["trace", "diff", recorded, replayed, "--wording"], environment: [:])
        let differences = worded.output.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(differences.allSatisfy { $0.hasPrefix("  platform ") }, "\(worded.output)")
        // Audio the cassettes never heard is an error naming them, not silence.
        let other = try PackageProgram.run(
            "speech-harness-record", ["--out", dir.path("other"), "--scenario", "stream", Self.digits],
            environment: ["SPEECH_HARNESS_ENGINE": "replay:" + recorded])
        #expect(other.status == 0, "\(other.output)")
        let trace = try String(contentsOfFile: dir.path("other") + "/stream--5.jsonl", encoding: .utf8)
        #expect(trace.contains("replay: no recording in \(recorded) of this audio"), "\(trace)")
    }

    /// `bench --engine replay:DIR` over recorded audio scores the recording's own words with no
    /// error, at the recording's times exactly; audio the cassettes never heard is an error of that
    /// utterance naming the folder.
    @Test(.enabled(if: canRun && PackageProgram.available("speech-harness")))
    func benchOverCassettesGivesTheRecordedWords() throws {
        let dir = try TemporaryDirectory()
        let cassettes = dir.path("cassettes")
        let cards = URL(fileURLWithPath: Self.cards).deletingLastPathComponent().path
        let record = try PackageProgram.run(
            "speech-harness-record",
            ["--out", cassettes, "--scenario", "stream", cards + "/001.wav", cards + "/002.wav"],
            environment: ["SPEECH_HARNESS_ENGINE": "pocketsphinx"])
        #expect(record.status == 0, "\(record.output)")
        // References: the recordings' own final words.
        var lines: [String] = []
        for name in ["001", "002", "003"] {
            let text: String
            if let trace = try? String(contentsOfFile: cassettes + "/stream--\(name).jsonl", encoding: .utf8) {
                let finals = trace.split(separator: "\n").compactMap { line -> String? in
                    guard line.contains(#""isFinal":true"#),
                        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    else { return nil }
                    return object["text"] as? String
                }
                text = finals.joined(separator: " ")
            } else {
                text = "seven of clubs"
            }
            lines.append(#"{"id":"\#(name)","audio":"\#(cards)/\#(name).wav","reference":"\#(text)"}"#)
        }
        let manifest = try dir.write("m.jsonl", bytes: Array(lines.joined(separator: "\n").utf8))
        let out = dir.path("bench")
        let bench = try PackageProgram.run(
            "speech-harness",
            [
                "bench", "--engine", "replay:" + cassettes, "--manifest", manifest, "--allow-outside-root",
                "--normalizer", "none", "--word-times", "--out", out,
            ], environment: [:])
        let records = try String(contentsOfFile: out + "/utterances.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(records.count == 3, "\(bench.output)")
        for record in records {
            let id = record["id"] as? String ?? ""
            let counts = record["words"] as? [String: Int] ?? [:]
            if id == "003" {
                #expect(
                    (record["error"] as? String)?.contains("no recording in \(cassettes) of \(cards)/003.wav") == true,
                    "\(record)")
            } else {
                #expect(record["error"] == nil && counts["hits"] ?? 0 > 0, "\(record)")
                #expect(
                    counts["substitutions"] == 0 && counts["deletions"] == 0 && counts["insertions"] == 0, "\(record)")
                // The words' times are the recording's, exactly (to the microsecond the trace keeps).
                let trace = try String(contentsOfFile: cassettes + "/stream--\(id).jsonl", encoding: .utf8)
                let recorded = trace.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }.filter { $0["isFinal"] as? Bool == true }.flatMap { $0["runs"] as? [[String: Any]] ?? [] }
                    .compactMap { run -> (String, Double, Double)? in
                        guard let start = run["start"] as? Double, let duration = run["duration"] as? Double else {
                            return nil
                        }
                        return (run["text"] as? String ?? "", start, start + duration)
                    }
                let replayed = (record["hypothesisWords"] as? [[String: Any]] ?? []).map {
                    ($0["word"] as? String ?? "", $0["start"] as? Double ?? -1, $0["end"] as? Double ?? -1)
                }
                #expect(replayed.count == recorded.count && !recorded.isEmpty, "\(replayed) \(recorded)")
                for (a, b) in zip(replayed, recorded) {
                    #expect(a.0 == b.0 && abs(a.1 - b.1) < 1e-6 && abs(a.2 - b.2) < 1e-6, "\(a) against \(b)")
                }
            }
        }
    }

    /// `conformance --backend replay:DIR` over cassettes of the scenarios' own audio
    /// (`conformance --write-audio`, recorded from PocketSphinx): no scenario fails; one whose
    /// audio the cassettes do not hold is skipped with that reason, never failed or passed.
    @Test(.enabled(if: canRun && PackageProgram.available("speech-harness")))
    func conformanceRunsOverCassettesOfItsAudio() throws {
        let dir = try TemporaryDirectory()
        let audio = dir.path("audio"), cassettes = dir.path("cassettes")
        let written = try PackageProgram.run(
            "speech-harness", ["conformance", "--write-audio", audio], environment: [:])
        #expect(written.status == 0, "\(written.output)")
        let files = written.output.split(separator: "\n").map(String.init)
        #expect(files.contains(audio + "/noise.wav") && files.count >= 2, "\(written.output)")
        let record = try PackageProgram.run(
            "speech-harness-record",
            ["--out", cassettes, "--scenario", "file", "--scenario", "stream", "--scenario", "stream-volatile"] + files,
            environment: ["SPEECH_HARNESS_ENGINE": "pocketsphinx"])
        #expect(record.status == 0, "\(record.output)")
        let junit = dir.path("conformance.xml")
        let run = try PackageProgram.run(
            "speech-harness", ["conformance", "--backend", "replay:" + cassettes, "--junit", junit], environment: [:])
        let summary = run.output.split(separator: "\n").first { $0.hasPrefix("replay:") && $0.contains(" passed, ") }
        #expect(summary?.contains(" 0 failed, ") == true && summary?.contains(" 0 errors") == true, "\(run.output)")
        let passed = summary.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect(passed >= 100, "\(run.output)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(
            xml.contains("replay: no recording in \(cassettes) of this audio"), "no scenario was skipped for its audio")
    }

    /// Recorded with real-time pacing, every result carries when it arrived. How many results
    /// PocketSphinx gives in real time depends on how busy the machine is, so only the form is
    /// checked here; the replay of a recording's latency is checked on a committed one (below).
    @Test(.enabled(if: canRun))
    func aRealTimeRecordingStampsEveryResult() throws {
        let dir = try TemporaryDirectory()
        let cassettes = dir.path("cassettes")
        let record = try PackageProgram.run(
            "speech-harness-record",
            ["--out", cassettes, "--pacing", "realtime", "--scenario", "stream-volatile", Self.cards],
            environment: ["SPEECH_HARNESS_ENGINE": "pocketsphinx"])
        #expect(record.status == 0, "\(record.output)")
        let trace = try String(contentsOfFile: cassettes + "/stream-volatile--001.jsonl", encoding: .utf8)
        let recorded = Self.results(trace)
        #expect(!recorded.isEmpty && recorded.allSatisfy { $0["arrival"] is Double }, "\(trace)")
        let schema = try Self.validate(cassettes)
        #expect(schema.hasSuffix("problems 0\n"), "\(schema)")
    }

    /// A recording of PocketSphinx paced in real time, made once and committed
    /// (Tests/Fixtures/session-traces/pocketsphinx-realtime): `bench` over it (simulated pacing,
    /// 100 ms chunks) gets each result at its recorded arrival, late by less than a chunk (the
    /// audio reaches the buffer that produced it at the next chunk's end). The bench's clock is
    /// virtual, so this holds on any machine, however busy; the live figure is
    /// `scripts/replay-latency`'s.
    @Test(.enabled(if: canRun && PackageProgram.available("speech-harness")))
    func aPacedRecordingKeepsItsLatencyInTheBench() throws {
        let cassettes = SystemFixture.packageRoot + "/Tests/Fixtures/session-traces/pocketsphinx-realtime"
        let trace = try String(contentsOfFile: cassettes + "/stream-volatile--001.jsonl", encoding: .utf8)
        let recorded = Self.results(trace)
        let arrivals = recorded.compactMap { $0["arrival"] as? Double }
        #expect(arrivals.count == recorded.count && arrivals.count >= 3, "\(trace)")
        let schema = try Self.validate(cassettes)
        #expect(schema.hasSuffix("problems 0\n"), "\(schema)")
        let dir = try TemporaryDirectory()
        let manifest = try dir.write(
            "m.jsonl", bytes: Array(#"{"id":"001","audio":"\#(Self.cards)","reference":"ten of clubs"}"#.utf8))
        let out = dir.path("bench")
        let bench = try PackageProgram.run(
            "speech-harness",
            ["bench", "--engine", "replay:" + cassettes, "--manifest", manifest, "--allow-outside-root", "--out", out],
            environment: [:])
        let line = try String(contentsOfFile: out + "/utterances.jsonl", encoding: .utf8)
        let utterance = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let timeline = utterance?["timeline"] as? [String: Any]
        let events = timeline?["events"] as? [[String: Any]] ?? []
        #expect(events.count == arrivals.count, "\(bench.output) \(line)")
        for (event, arrival) in zip(events, arrivals) {
            let time = event["time"] as? Double ?? -1
            #expect(time >= arrival - 0.01 && time < arrival + 0.11, "came at \(time) s, recorded at \(arrival) s")
        }
        #expect(events.map { $0["isFinal"] as? Bool } == recorded.map { $0["isFinal"] as? Bool })
    }

    /// The result lines of a trace, as JSON objects.
    static func results(_ trace: String) -> [[String: Any]] {
        trace.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["type"] as? String == "result" }
    }

    /// Round trip with a planted fault (debug builds, SPEECH_HARNESS_PLANTED_FAULT): the reference
    /// recorded clean (scripted engine), then replayed from that recording with the fault planted
    /// and recorded again; `trace diff` shows a semantic failure under the clause the fault
    /// breaks, for all 15 of the mutation check's faults.
    @Test(
        .enabled(if: canRun && PackageProgram.available("speech-harness")),
        arguments: [
            ("inputEndFinishes", "stream", "semantics calls.finalizeAndFinishThroughEndOfInput()"),
            ("errorReachesOneWaiter", "two-waiters", "semantics calls.finalizeAndFinishThroughEndOfInput()"),
            ("finalizeReturnsEarly", "finalize-mid-stream", "semantics results[0].finality"),
            ("volatileStartMovesBack", "volatile-range", "semantics volatileRange.start"),
            ("disorderAccepted", "overlapping-input", "semantics calls.finalizeAndFinishThroughEndOfInput()"),
            ("streamsStayOpenAfterFinish", "stream", "semantics streams[0]"),
            ("wrongFormatAccepted", "wrong-format", "semantics streams[0]"),
            ("finalResultsMislabeled", "stream", "semantics results[0].finality"),
            ("finalizeSkipsEngines", "stream-volatile", "semantics results[0].finality"),
            ("analyzeReturnsBufferStart", "analyze-sequence", "semantics calls.analyzeSequence(_:).value"),
            (
                "cancelledWaiterFinishesSession", "cancelled-waiter",
                "semantics calls.finalizeAndFinishThroughEndOfInput()"
            ),
            ("handlerNotReplaced", "volatile-range", "semantics volatileRange.handlers"),
            ("eoiIgnoresReplacement", "replaced-input", "semantics results[0].finality"),
            ("timeAttributeAlwaysSet", "detector", "semantics results[1].attributes"),
            ("resourceLimitIgnored", "two-locales", "semantics calls.start(inputSequence:)"),
        ])
    func plantedFaultsShowInTheRoundTrip(fault: String, scenario: String, clause: String) throws {
        let dir = try TemporaryDirectory()
        // Words clear of the scenarios' finalize points (a half, thirds), which cut a scripted word.
        let script = try dir.write(
            "script.json",
            bytes: Array(
                #"{"words":[{"text":"ten","start":0.3,"end":0.5},{"text":"clubs","start":0.8,"end":1.0}]}"#.utf8))
        let clean = dir.path("clean")
        for (folder, engine, planted) in [
            ("clean", "scripted", ""), ("replayed", "replay:" + clean, ""), ("faulty", "replay:" + clean, fault),
        ] {
            // The stream scenario beside it: a recording that heard the words, for replay to answer from.
            let run = try PackageProgram.run(
                "speech-harness-record",
                [
                    "--out", dir.path(folder), "--scenario", scenario, "--scenario", "stream", "--open-after", "1",
                    Self.cards,
                ],
                environment: [
                    "SPEECH_HARNESS_ENGINE": engine, "SPEECH_HARNESS_SCRIPT": script,
                    "SPEECH_HARNESS_PLANTED_FAULT": planted,
                    // A device that holds one engine configuration, for the two-locales scenario.
                    "SPEECH_HARNESS_MAX_ENGINE_INSTANCES": "1",
                ])
            #expect(run.status == 0, "\(run.output)")
        }
        // Without the fault the round trip gives the recording back; with it, the clause fails.
        let same = try PackageProgram.run(
            "speech-harness", ["trace", "diff", clean, dir.path("replayed")], environment: [:])
        #expect(same.status == 0 && !same.output.contains("semantics "), "\(same.output)")
        let diff = try PackageProgram.run(
            "speech-harness", ["trace", "diff", clean, dir.path("faulty")], environment: [:])
        #expect(diff.output.contains("  " + clause), "\(diff.output)")
        #expect(diff.status == 1, "\(diff.output)")
    }
}
