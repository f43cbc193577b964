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
            options: [engine.spec, manifest.spec, split.spec, chunkMS.spec, streamSeconds.spec],
            details: """
                Every call is timed on the calling thread (one utterance at a time), so the figure is the engine's own \
                compute: audio seconds / seconds inside accept and finalize. The digest is a SHA-256 over every final \
                word with its times; two runs of a deterministic engine print the same digest. The build line says \
                whether this binary was compiled for the host CPU (scripts/build-tool) or for baseline x86-64: the \
                speed depends on it, the digest does not.
                """,
            run: { try await run("bench engine", $0, $1) })
    ]

    static let engine = Option.required("engine", value: "E", help: "Engine id (see 'speech-harness engines').")
    static let manifest = Option.texts("manifest", value: "M", help: "Manifest to stream.", required: true)
    static let split = Option.choice("split", Utterance.Split.self, help: "Only utterances of this split.")
    static let chunkMS = Option.integer("chunk-ms", 1...60_000, value: "ms", help: "Chunk duration (default 100).")
    static let streamSeconds = Option.positive(
        "stream-seconds", value: "s",
        help: "Instead: play the utterances back to back, looping, as one session of this many seconds (memory check).")

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let id = arguments[Self.engine]
        let manifests = arguments[Self.manifest]
        let chunkMS = arguments[Self.chunkMS] ?? 100
        let split = arguments[Self.split]
        let streamSeconds = arguments[Self.streamSeconds]
        let engine = try HarnessContext.current.engines.make(id)
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
