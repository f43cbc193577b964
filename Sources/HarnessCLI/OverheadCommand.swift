import Benchmark
import Corpus
import Foundation
import Metrics
import SpeechCore

/// `speech-harness bench overhead`: what SpeechAnalyzer + SpeechTranscriber add to an engine's own
/// decoding time, each utterance decoded alone and through the harness back to back.
enum OverheadCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "bench overhead",
            summary: "Time an engine through the analyzer against the same engine alone, utterance by utterance.",
            options: [engine.spec, alone.spec, manifest.spec, limit.spec, rounds.spec, chunkMS.spec],
            details: """
                Each utterance is decoded by the engine alone (in its own process) and through the harness \
                (SpeechAnalyzer + SpeechTranscriber, simulated pacing, one at a time) back to back; which side goes \
                first alternates from one utterance to the next and from one round to the next. Both sides time \
                wall seconds in decoding, model load apart; the harness side is the wall time of its analyzer \
                calls. A pair takes a fraction of a second, so a machine whose speed drifts slows both of its sides \
                alike. A round's overhead is its harness total over its alone total; the figure is the median of \
                the rounds', with their range and the quartiles of single pairs. The last line is tab-separated for \
                scripts: OVERHEAD, engine, median, lowest, highest round, audio seconds per round.
                """,
            run: { try await run("bench overhead", $0, $1) })
    ]

    static let engine = Option.required("engine", value: "E", help: "Engine id, as `bench` runs it.")
    static let alone = Option.required(
        "alone", value: "COMMAND",
        help:
            "The engine alone: a program (and its arguments, split at spaces) that reads a path per line and answers `seconds<TAB>transcript`."
    )
    static let manifest = Option.texts("manifest", value: "M", help: "Manifest to decode.", required: true)
    static let limit = Option.integer(
        "limit", 1...Int.max, value: "N", help: "The first N utterances of each manifest.")
    static let rounds = Option.integer(
        "rounds", 1...1_000, value: "R", help: "Times each utterance is decoded on each side (default 5).")
    static let chunkMS = Option.integer(
        "chunk-ms", 1...60_000, value: "ms", help: "Chunk duration on the harness side (default 100).")

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let id = arguments[Self.engine], manifests = arguments[Self.manifest]
        let aloneCommand = arguments[Self.alone].split(separator: " ").map(String.init)
        let limit = arguments[Self.limit] ?? Int.max
        let rounds = arguments[Self.rounds] ?? 5
        let chunkMS = arguments[Self.chunkMS] ?? 100

        var work: [OverheadMeasurement.Item] = []
        for manifest in manifests {
            let load = ManifestReader.load(path: manifest)
            load.issues.forEach { console.err("\($0)") }
            for u in load.utterances.prefix(limit) {
                work.append(
                    .init(utterance: u, audio: ManifestValidator.resolve(u.audio, root: load.root), manifest: manifest))
            }
        }
        guard !work.isEmpty else {
            console.err("speech-harness \(path): no utterances")
            return 1
        }
        let engine = try HarnessContext.current.engines.make(id)
        let alone = try AloneDecoderProcess(arguments: aloneCommand)
        defer { alone.close() }
        let measurement = OverheadMeasurement(rounds: rounds, chunkMilliseconds: chunkMS)
        let (comparison, stop) = await measurement.run(work, engine: engine, alone: alone)
        await engine.shutdown()
        let audio = work.reduce(0) { $0 + $1.utterance.duration }
        console.out(report(comparison, engine: engine.name, alone: alone.command, utterances: work.count, audio: audio))
        if let stop {
            console.err("speech-harness \(path): stopped: \(stop)")
            return 1
        }
        return 0
    }

    static func report(
        _ comparison: OverheadComparison, engine: String, alone: String, utterances: Int, audio: Double
    ) -> String {
        func percent(_ x: Double) -> String { String(format: "%+.1f%%", x * 100) }
        var lines = [
            "engine: \(engine)", "alone: \(alone)",
            "utterances: \(utterances), \(String(format: "%.1f", audio)) s of audio; pairs: \(comparison.pairs.count)",
        ]
        for round in comparison.rounds {
            lines.append(
                String(
                    format: "round %d: alone %.3f s, harness %.3f s (engine CPU in it %.3f s), overhead %@",
                    round.number + 1, round.aloneSeconds, round.harnessSeconds, round.harnessEngineSeconds,
                    percent(round.overhead)))
        }
        guard let overhead = comparison.overhead, let quartiles = comparison.pairQuartiles else {
            return (lines + ["no pairs measured"]).joined(separator: "\n")
        }
        let rounds = comparison.roundOverheads
        lines.append(
            "overhead: \(percent(overhead)) (median of \(rounds.count) rounds, range \(percent(rounds.min()!)) to \(percent(rounds.max()!))); "
                + "single pairs: median \(percent(quartiles.median)), quartiles \(percent(quartiles.low)) to \(percent(quartiles.high))"
        )
        lines.append(
            "transcripts: the same in \(comparison.pairs.count - comparison.differingTranscripts) of \(comparison.pairs.count) pairs"
        )
        lines.append(
            ["OVERHEAD", engine, String(overhead), String(rounds.min()!), String(rounds.max()!), String(audio)]
                .joined(separator: "\t"))
        return lines.joined(separator: "\n")
    }
}
