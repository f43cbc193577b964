import Benchmark
import Corpus
import Foundation
import Metrics
import Records
import Reports
import SpeechCore
import Workers

/// `speech-harness bench long-stream`: one stream of many minutes through each engine, to see
/// whether latency, compute or memory drift over a session.
enum LongStreamCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "bench long-stream",
            summary: "Stream many minutes of joined recordings through each engine; report drift minute by minute.",
            options: [
                engine.spec, minutes.spec, manifest.spec, gap.spec, jobs.spec, out.spec, resume.spec,
                BenchRunCommand.Bench.normalizer.spec, BenchRunCommand.Bench.equivalence.spec,
                BenchRunCommand.Bench.pacing.spec,
            ] + BenchRunCommand.whisperSettings.map { Option.setting($0).spec },
            details: """
                The stream takes recordings in turn from each manifest (default: the corpus's real-digits-en-joined, \
                whose words have times, and real-en's prompts), with a gap of silence after each, starting a manifest \
                over when it runs out, up to the length asked. Each engine hears it as one SpeechAnalyzer session. \
                Per minute: WER, per-word latency (shown and final, P50/P90, over words with times), engine CPU per \
                audio second and the highest resident memory of the tool and of the engine's workers. Writes \
                DIR/stream.wav, DIR/engines/ENGINE.json as each engine finishes (--resume keeps them), and over every \
                engine there: DIR/long-stream.json, DIR/summary.md and DIR/long-stream.html (a latency chart per \
                engine). Exit status: 0 when every engine ran, 1 when one failed, 2 usage error.
                """,
            validate: { arguments throws(UsageError) in
                guard !arguments[engine].isEmpty else { throw arguments.usage("give at least one --engine") }
            },
            run: run)
    ]

    static let engine = Option.texts(
        "engine", value: "id", help: "Engine to run (repeatable; see 'speech-harness engines').")
    static let minutes = Option.positive("minutes", value: "m", help: "Length of the stream (default 20).")
    static let manifest = Option.texts(
        "manifest", value: "file",
        help:
            "Recordings to join (repeatable); default Corpus/build/real-digits-en-joined and Corpus/build/real-en.")
    static let gap = Option.number(
        "gap", 0...10, value: "s", help: "Silence after each recording (default 0.5).")
    static let jobs = Option.integer("jobs", 1...16, value: "n", help: "Engines run at once (default 1).")
    static let out = Option.text("out", value: "dir", help: "Output folder (default Reports/long-stream).")
    static let resume = Option.flag(
        "resume", help: "Keep the engines already measured in the output folder (same stream) and run only the rest.")

    static let defaultManifests = [
        "Corpus/build/real-digits-en-joined/manifest.jsonl", "Corpus/build/real-en/manifest.jsonl",
    ]

    static func run(_ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let settings = try BenchRunCommand.whisperSettings(arguments, command: "bench long-stream")
        return try await HarnessContext.$current.withValue(HarnessContext.current.with(\.whisperSettings, settings)) {
            try await measure(arguments, console)
        }
    }

    static func measure(_ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let command = "bench long-stream"
        let ids = arguments[engine]
        for id in ids where !HarnessContext.current.engines.knows(id) {
            throw arguments.usage(
                "unknown engine '\(id)'; known: \(HarnessContext.current.engines.knownNames.joined(separator: ", "))")
        }
        let manifests = arguments[manifest].isEmpty ? defaultManifests : arguments[manifest]
        let policy = ScoringPolicy(
            normalizer: arguments[BenchRunCommand.Bench.normalizer] ?? .english,
            equivalences: try BenchRunCommand.equivalences(
                arguments[BenchRunCommand.Bench.equivalence] ?? EquivalenceMap.ohIsZero.name, command: command))
        let out = arguments[out] ?? "Reports/long-stream"
        let seconds = (arguments[minutes] ?? 20) * 60
        var lists: [[LongStream.Source]] = []
        for path in manifests {
            guard FileManager.default.fileExists(atPath: path) else {
                throw arguments.usage(
                    "--manifest \(path): no such file"
                        + (arguments[manifest].isEmpty ? " (build the corpus first: speech-harness corpus build)" : ""))
            }
            let load = ManifestReader.load(path: path)
            load.issues.forEach { console.err("speech-harness \(command): \($0)") }
            lists.append(
                load.utterances.map {
                    LongStream.Source(utterance: $0, audioPath: ManifestValidator.resolve($0.audio, root: load.root))
                })
        }
        try FileManager.default.createDirectory(atPath: out + "/engines", withIntermediateDirectories: true)
        let stream = try LongStream.build(
            from: lists, seconds: seconds, gap: arguments[gap] ?? 0.5, policy: policy, to: out + "/stream.wav")
        stream.problems.forEach { console.err("speech-harness \(command): skipped \($0)") }
        console.err(
            String(
                format: "%@: %.1f min, %d recordings, %d words (%d with times)", stream.path, stream.audioSeconds / 60,
                stream.pieces.count, stream.pieces.reduce(0) { $0 + $1.words.count },
                stream.pieces.reduce(0) { $0 + ($1.wordEnds?.count ?? 0) }))

        let pacing = arguments[BenchRunCommand.Bench.pacing] ?? .simulated
        let kept = arguments[resume] ? stored(in: out, matching: stream) : [:]
        let pending = try Self.pending(ids, kept: kept)
        var failed = false
        try await withThrowingTaskGroup(of: LongStreamRun.Outcome.self) { group in
            var queue = pending[...]
            func start() throws {
                guard let id = queue.popFirst() else { return }
                let engine = try HarnessContext.current.engines.make(id)
                console.err("\(engine.name): streaming \(Int(stream.audioSeconds)) s")
                group.addTask {
                    let outcome = await LongStreamRun(engine: engine, pacing: pacing, policy: policy).run(stream)
                    await engine.shutdown()
                    return outcome
                }
            }
            for _ in 0..<(arguments[jobs] ?? 1) { try start() }
            while let outcome = try await group.next() {
                let record = outcome.record
                try save(outcome, in: out)
                if let error = record.error {
                    failed = true
                    console.err("\(record.engine): failed: \(error)")
                } else {
                    console.err(
                        String(
                            format: "%@: WER %.1f%%, CPU %.1f s (%.3f per audio second)", record.engine,
                            record.wer * 100, record.computeSeconds, record.cpuPerAudioSecond))
                }
                try start()
            }
        }
        let records = stored(in: out, matching: stream).values.sorted { $0.engine < $1.engine }
        try write(records, to: out)
        console.out(LongStreamReport.markdown(records))
        console.out("reports written to \(out)/ (long-stream.json, summary.md, long-stream.html)")
        return failed ? 1 : 0
    }

    /// The engines still to run: records are kept under the engine's name (its settings in
    /// brackets), which the id on the command line does not spell.
    static func pending(_ ids: [String], kept: [String: LongStreamRecord]) throws -> [String] {
        try ids.filter { kept[try HarnessContext.current.engines.make($0).name] == nil }
    }

    /// The records already in `out/engines` of a stream like this one (same length and recordings).
    static func stored(in out: String, matching stream: LongStream) -> [String: LongStreamRecord] {
        let folder = out + "/engines"
        var records: [String: LongStreamRecord] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where file.hasSuffix(".json") && !file.hasSuffix(".trace.json") {
            guard let data = FileManager.default.contents(atPath: folder + "/" + file),
                let record = try? JSONDecoder().decode(LongStreamRecord.self, from: data),
                record.audioSeconds == stream.audioSeconds, record.pieces == stream.pieces.count
            else { continue }
            records[record.engine] = record
        }
        return records
    }

    /// The record as ENGINE.json, and what it was computed from as ENGINE.trace.json.
    static func save(_ outcome: LongStreamRun.Outcome, in out: String) throws {
        let stem = out + "/engines/" + BenchReports.safeName(outcome.record.engine)
        if let trace = outcome.trace { try ReportFile.write(try encoded(trace), to: stem + ".trace.json") }
        try ReportFile.write(try encoded(outcome.record), to: stem + ".json")
    }

    static func write(_ records: [LongStreamRecord], to out: String) throws {
        try ReportFile.write(try encoded(records), to: out + "/long-stream.json")
        try ReportFile.write(LongStreamReport.markdown(records), to: out + "/summary.md")
        let page = ReportLink.placing(out + "/long-stream.html", title: "Long streams")
        try ReportFile.write(
            LongStreamReport.html(records, links: page.links, current: page.page), to: out + "/long-stream.html")
    }

    static func encoded(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(value)
    }
}
