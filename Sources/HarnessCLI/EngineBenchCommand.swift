import AudioIO
import Benchmark
import Corpus
import Foundation
import Metrics
import SpeechCore

/// `speech-harness bench engine`: an engine alone, without the analyzer, on one thread — its own
/// speed, memory and determinism.
enum EngineBenchCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "bench engine",
            summary:
                "Stream utterances straight into one engine; report its compute speed, memory and a digest of its output.",
            options: [
                OptionSpec(
                    name: "engine", value: "E", help: "Engine id (see 'speech-harness engines').", required: true),
                OptionSpec(name: "manifest", value: "M", help: "Manifest to stream.", repeatable: true, required: true),
                .choice("split", Utterance.Split.self, help: "Only utterances of this split."),
                OptionSpec(name: "chunk-ms", kind: .integer("ms", 1...60_000), help: "Chunk duration (default 100)."),
                OptionSpec(
                    name: "stream-seconds", kind: .positive("s"),
                    help:
                        "Instead: play the utterances back to back, looping, as one session of this many seconds (memory check)."
                ),
            ],
            details: """
                Every call is timed on the calling thread (one utterance at a time), so the figure is the engine's own \
                compute: audio seconds / seconds inside accept and finalize. The digest is a SHA-256 over every final \
                word with its times; two runs of a deterministic engine print the same digest. The build line says \
                whether this binary was compiled for the host CPU (scripts/build-tool) or for baseline x86-64: the \
                speed depends on it, the digest does not.
                """,
            run: { try await run("bench engine", $0, $1) })
    ]

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let id = arguments.value("engine")!
        let manifests = arguments.all("manifest")
        let chunkMS = (arguments.integer("chunk-ms") ?? 100)
        let split: Utterance.Split? = arguments.choice("split")
        let streamSeconds = arguments.number("stream-seconds")
        let engine = try EngineRegistry.shared.make(id)
        guard let rate = engine.capabilities.formats.first?.sampleRate else {
            throw EngineError.unsupportedFormat(engine: id, format: "none declared")
        }
        var files: [(path: String, locale: String)] = []
        for manifest in manifests {
            let load = ManifestReader.load(path: manifest)
            load.issues.forEach { console.err("\($0)") }
            for u in load.utterances where split == nil || u.split == split {
                files.append((ManifestValidator.resolve(u.audio, root: load.root), u.locale))
            }
        }
        guard let locale = files.first?.locale else {
            console.err("speech-harness \(path): no utterances")
            return 1
        }
        let paths = files.map(\.path)
        let report = try await EngineMeasurement.measure(
            engine: engine, files: paths, locale: locale, rate: rate, chunkMS: chunkMS, streamSeconds: streamSeconds)
        console.out(
            String(
                format:
                    "engine: %@\nbuild: %@\nutterances: %d\naudio: %.1f s\nengine CPU: %.3f s (%.0fx real time, one thread)\nwall time in calls: %.3f s (%.0fx)\nfinal words: %d\npeak RSS: %.1f MB\ndigest: %@",
                engine.name, BuildInfo.description, report.sessions, report.audioSeconds, report.reportedSeconds,
                report.audioSeconds / max(report.reportedSeconds, 1e-9), report.callSeconds,
                report.audioSeconds / max(report.callSeconds, 1e-9),
                report.words, Double(ProcessMemory.peakResidentBytes() ?? 0) / 1_048_576, report.digest))
        return 0
    }
}
