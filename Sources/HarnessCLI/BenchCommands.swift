import AVFAudio
import AudioIO
import Benchmark
import CoreMedia
import Foundation
import Metrics
import SpeechCore
import SpeechReference

/// `speech-harness bench …`: measurements that are goals, not tests.
enum BenchCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "bench stream-io",
            summary: "Stream a file from disk in fixed chunks; report throughput and peak memory.",
            options: [StreamIOOptions.chunkMS.spec, StreamIOOptions.rate.spec, StreamIOOptions.quality.spec],
            arguments: [ArgumentSpec(name: "file")],
            details: "Peak RSS is the process's high-water mark (VmHWM), so it includes the tool itself.",
            run: streamIO),
        CommandSpec(
            path: "bench scoring",
            summary: "Time WER scoring of line-paired texts (for comparison with other scorers).",
            options: [], arguments: [ArgumentSpec(name: "references.txt"), ArgumentSpec(name: "hypotheses.txt")],
            details: "Texts are scored as given (no normaliser). Prints the pooled WER and the time it took.",
            run: scoring),
        CommandSpec(
            path: "bench analyzer",
            summary: "Push synthetic audio through SpeechAnalyzer + SpeechTranscriber on the scripted engine.",
            options: [AnalyzerOptions.seconds.spec, AnalyzerOptions.chunkMS.spec, AnalyzerOptions.preset.spec],
            details:
                "The script has a word every 0.5 s, so results flow the whole time; the figure is the\nanalyzer's own overhead (the scripted engine does no signal processing).",
            run: analyzer),
        CommandSpec(
            path: "bench soak",
            summary: "Run many short analyzer sessions in one process; report memory, open files and leaked objects.",
            options: [SoakOptions.sessions.spec, SoakOptions.every.spec, SoakOptions.maxGrowthMB.spec],
            details:
                "Each session: 2 s of audio through SpeechTranscriber on the scripted engine, results read in a\nchild task, finalizeAndFinish. Exit status 1 when memory grows past the bound after warm-up, open file\ndescriptors keep growing after warm-up, an analyzer or module outlives its session, or a session's words are wrong.",
            run: soak),
        CommandSpec(
            path: "bench capture-soak",
            summary: "Capture from the virtual microphone in fast pacing for minutes of audio; report memory.",
            options: [
                CaptureSoakOptions.minutes.spec, CaptureSoakOptions.engine.spec, CaptureSoakOptions.microphone.spec,
                CaptureSoakOptions.every.spec, CaptureSoakOptions.maxSpread.spec,
            ],
            details:
                "Apple's sample pattern (a tap into the app's own stream, converted into AnalyzerInput) with the\ndefault end: after its recording the microphone goes on with silence. Fast pacing keeps capture\nwithin a second of recognition, so memory stays flat. Exit status 1 when resident memory spreads\nover more than the bound after the first minute, or the program ever held more unconsumed audio than\nthe clock lead (10 s).",
            run: captureSoak),
    ]

    /// The options of `bench stream-io`.
    enum StreamIOOptions {
        static let chunkMS = Option.integer("chunk-ms", 1...60_000, value: "ms", help: "Chunk duration (default 100).")
        static let rate = Option.positive("rate", value: "Hz", help: "Resample to this rate while streaming.")
        static let quality = Option.choice(
            "quality", SampleRateConverter.Quality.self, help: "Resampler (default medium).")
    }

    /// The options of `bench analyzer`.
    enum AnalyzerOptions {
        static let seconds = Option.integer(
            "seconds", 1...360_000, value: "s", help: "Audio to analyse (default 3600).")
        static let chunkMS = Option.integer("chunk-ms", 1...60_000, value: "ms", help: "Buffer duration (default 100).")
        static let preset = Option.choice(
            "preset", AnalyzerPreset.self,
            help: "transcription or progressive (default progressive: volatile results on).")
    }

    /// The options of `bench soak`.
    enum SoakOptions {
        static let sessions = Option.integer(
            "sessions", 1...10_000_000, value: "n", help: "Sessions to run (default 10000).")
        static let every = Option.integer(
            "every", 1...10_000_000, value: "n", help: "Sessions between memory checkpoints (default 1000).")
        static let maxGrowthMB = Option.positive(
            "max-growth-mb", value: "MB", help: "Allowed resident growth after the first checkpoint (default 16).")
    }

    /// The options of `bench capture-soak`.
    enum CaptureSoakOptions {
        static let minutes = Option.positive("minutes", value: "m", help: "Audio to capture (default 10).")
        static let engine = Option.text(
            "engine", value: "id", help: "The recogniser behind the analyzer (default pocketsphinx).")
        static let microphone = Option.text(
            "microphone", value: "file",
            help: "What the microphone plays before its silence (default pocketsphinx-testdata's LibriVox clip).")
        static let every = Option.positive(
            "every", value: "s", help: "Seconds of audio between memory readings (default 30).")
        static let maxSpread = Option.positive(
            "max-spread", value: "percent",
            help: "Allowed spread of resident memory after the first minute (default 10).")
    }

    /// The transcriber presets `bench analyzer` runs.
    enum AnalyzerPreset: String, CaseIterable, Sendable {
        case progressive, transcription
    }

    static func streamIO(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let chunkMS = arguments[StreamIOOptions.chunkMS] ?? 100
        let rate = arguments[StreamIOOptions.rate]
        let quality = arguments[StreamIOOptions.quality] ?? .medium
        let file = arguments.positionals[0]
        let clock = ContinuousClock()
        let started = clock.now
        let chunker = try AudioChunker(path: file, chunkMilliseconds: chunkMS, sampleRate: rate, quality: quality)
        var chunks = 0, frames: Int64 = 0
        var energy = 0.0
        while let chunk = try chunker.next() {
            chunks += 1
            frames += Int64(chunk.samples.count)
            for x in chunk.samples { energy += Double(x * x) }
        }
        let elapsed = started.duration(to: clock.now)
        let seconds = elapsed.seconds
        let audioSeconds = Double(frames) / chunker.outputRate
        console.out(
            String(
                format:
                    "file: %@\naudio: %.1f s at %d Hz in %d chunks of %d ms\nwall: %.3f s (%.0fx real time)\npeak RSS: %.1f MB\nrms: %.6f",
                file, audioSeconds, Int(chunker.outputRate), chunks, chunkMS, seconds,
                audioSeconds / max(seconds, 1e-9), Double(ProcessMemory.peakResidentBytes() ?? 0) / 1_048_576,
                (energy / Double(max(frames, 1))).squareRoot()))
        return 0
    }
}

extension BenchCommands {
    static func analyzer(_ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let seconds = arguments[AnalyzerOptions.seconds] ?? 3600
        let chunkMS = arguments[AnalyzerOptions.chunkMS] ?? 100
        let presetName = arguments[AnalyzerOptions.preset] ?? .progressive
        let preset: SpeechTranscriber.Preset =
            switch presetName {
            case .progressive: .progressiveTranscription
            case .transcription: .transcription
            }
        let report = try await AnalyzerBenchmark.run(
            seconds: Double(seconds), chunkMilliseconds: chunkMS, preset: preset)
        console.out(
            String(
                format:
                    "audio: %d s in %d buffers of %d ms (%@)\nwall: %.3f s (%.0fx real time)\nresults: %d (%d final), final words %d\npeak RSS: %.1f MB",
                seconds, report.buffers, chunkMS, presetName.rawValue, report.wallSeconds,
                Double(seconds) / max(report.wallSeconds, 1e-9),
                report.results, report.finals, report.finalWords,
                Double(ProcessMemory.peakResidentBytes() ?? 0) / 1_048_576))
        return 0
    }
}

extension BenchCommands {
    static func soak(_ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let sessions = arguments[SoakOptions.sessions] ?? 10_000
        let every = arguments[SoakOptions.every] ?? 1_000
        let bound = arguments[SoakOptions.maxGrowthMB] ?? 16
        let soak = AnalyzerSoak(sessions: sessions, checkpointEvery: every) {
            (ProcessMemory.residentBytes() ?? 0, ProcessMemory.openFileCount() ?? 0)
        }
        let report = await soak.run()
        for point in report.checkpoints {
            console.out(
                String(
                    format: "sessions %7d  RSS %7.1f MB  open files %d", point.sessions,
                    Double(point.residentBytes) / 1_048_576, point.openFiles))
        }
        // Growth after warm-up: from the first checkpoint after session 0 to the last.
        let warm = report.checkpoints.count > 1 ? report.checkpoints[1] : report.checkpoints[0]
        let last = report.checkpoints.last!
        let growth = Double(last.residentBytes - warm.residentBytes) / 1_048_576
        // Files opened once and kept (a lazily created descriptor) show up in the warm-up; a leak keeps growing.
        let fdDelta = last.openFiles - warm.openFiles
        console.out(
            String(
                format:
                    "%d sessions in %.1f s; after warm-up: RSS growth %.1f MB (bound %.0f MB), open files %+d; leaked objects %d; wrong results %d",
                sessions, report.seconds, growth, bound, fdDelta, report.leakedObjects, report.wrongResults))
        return growth <= bound && fdDelta <= 0 && report.leakedObjects == 0 && report.wrongResults == 0 ? 0 : 1
    }
}

extension BenchCommands {
    static func scoring(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let files = try arguments.positionals.map { path -> [String] in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError(message: "cannot read '\(path)'", command: "bench scoring")
            }
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
                text.hasSuffix("\n") ? 1 : 0
            ).map { $0 }
        }
        guard files[0].count == files[1].count else {
            throw UsageError(
                message: "the files have \(files[0].count) and \(files[1].count) lines", command: "bench scoring")
        }
        let clock = ContinuousClock()
        let start = clock.now
        var total = ErrorCounts()
        for (reference, hypothesis) in zip(files[0], files[1]) {
            total += WordAligner.alignWords(reference: reference, hypothesis: hypothesis).counts
        }
        let elapsed = start.duration(to: clock.now)
        let seconds = elapsed.seconds
        console.out(String(format: "pairs %d\nwer %.6f\nseconds %.4f", files[0].count, total.errorRate, seconds))
        return 0
    }
}

extension BenchCommands {
    static let librivoxClip =
        "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav"

    static func captureSoak(_ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let path = "bench capture-soak"
        let minutes = arguments[CaptureSoakOptions.minutes] ?? 10
        let every = arguments[CaptureSoakOptions.every] ?? 30
        let bound = arguments[CaptureSoakOptions.maxSpread] ?? 10
        guard minutes > 0, every > 0 else {
            throw UsageError(message: "--minutes and --every must be positive", command: path)
        }
        let engine = try HarnessContext.current.engines.make(arguments[CaptureSoakOptions.engine] ?? "pocketsphinx")
        let soak = CaptureSoak(
            recording: arguments[CaptureSoakOptions.microphone] ?? librivoxClip, engine: engine,
            audioSeconds: minutes * 60,
            checkpointSeconds: every, measure: { ProcessMemory.residentBytes() ?? 0 })
        let report = try await soak.run()
        for point in report.checkpoints {
            console.out(
                String(
                    format: "audio %7.1f s  RSS %7.1f MB  unconsumed %.2f s", point.audioSeconds,
                    Double(point.residentBytes) / 1_048_576, point.pendingSeconds))
        }
        let warm = report.checkpoints.filter { $0.audioSeconds >= 60 }.map { Double($0.residentBytes) }
        let spread = warm.isEmpty ? 0 : (warm.max()! - warm.min()!) / warm.min()! * 100
        let audio = report.checkpoints.last?.audioSeconds ?? 0
        console.out(
            String(
                format:
                    "%.0f s of audio in %.1f s (%@); after the first minute RSS spreads %.1f%% (bound %.0f%%); most unconsumed audio %.2f s, %.2f s once paced (bound %.2f s)\nfinal: %@",
                audio, report.wallSeconds, engine.name, spread, bound, report.peakPendingSeconds,
                report.peakPacedSeconds, report.leadSeconds, report.finalText))
        return spread <= bound && report.peakPacedSeconds <= report.leadSeconds + 1e-6 ? 0 : 1
    }
}
