import AVFAudio
import AudioIO
import CoreMedia
import Corpus
import DSP
import DSPRecognizer
import Foundation
import PocketSphinx
import SpeechCore
import TestSupport
import Testing
import Workers

@_spi(Harness) @testable import SpeechReference

/// Real engines behind SpeechTranscriber, on a digit string assembled from Asterisk's real
/// recordings of single digits, so every word's true time is known.
@Suite("Real engines through SpeechAnalyzer", .isolatedResources)
struct RealEnginesThroughAnalyzerTests {
    static let digits = "/usr/share/asterisk/sounds/en_US_f_Allison/digits"
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let ci = ProcessInfo.processInfo.environment["CI"] == "true"
    static let haveDigits = ci || FileManager.default.fileExists(atPath: digits + "/1.g722")
    static let haveWhisper = ci || FileManager.default.isExecutableFile(atPath: root + "/.venv/bin/python")

    /// "three one four nine" with 0.25 s gaps, and where each word is.
    static func digitString() throws -> (AVAudioPCMBuffer, [Utterance.AlignedWord]) {
        let spoken = [("three", 3), ("one", 1), ("four", 4), ("nine", 9)]
        let clips = try spoken.map { word, digit -> (word: String, samples: [Float]) in
            let samples = try G722Decoder.decodeFile(path: "\(digits)/\(digit).g722")
            return (word, Array(samples[CorpusSignals.trimmedRange(samples, sampleRate: 16_000)]))
        }
        let composition = CorpusSignals.compose(clips, gaps: [0.25, 0.25, 0.25], lead: 0.3, sampleRate: 16_000)
        let buffer = try #require(AVAudioPCMBuffer(PCMBuffer(mono: composition.samples, sampleRate: 16_000)))
        return (buffer, composition.words)
    }

    func transcribe(
        _ engine: any RecognitionEngine, _ buffer: AVAudioPCMBuffer
    ) async throws -> [SpeechTranscriber.Result] {
        let transcriber = SpeechTranscriber(
            locale: Locale(identifier: "en-US"), transcriptionOptions: [], reportingOptions: [.volatileResults],
            attributeOptions: [.audioTimeRange], engine: engine, engineProblem: nil)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let converter = AnalyzerInputConverter(
            analyzerFormat: try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)))
        // 100 ms pieces, as a live source would deliver them.
        var inputs: [AnalyzerInput] = []
        var offset = 0
        let all = try #require(buffer.pcmBuffer)
        while offset < all.frameCount {
            let end = min(all.frameCount, offset + 1_600)
            inputs += try converter.convert(try #require(AVAudioPCMBuffer(all.slice(offset..<end))), at: nil)
            offset = end
        }
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        inputs.forEach { continuation.yield($0) }
        continuation.finish()
        let last = try await analyzer.analyzeSequence(stream)
        try await analyzer.finalizeAndFinish(through: #require(last))
        return try await collectResults(transcriber.results)
    }

    func collectResults(_ results: ModuleResults<SpeechTranscriber.Result>) async throws -> [SpeechTranscriber.Result] {
        var out: [SpeechTranscriber.Result] = []
        for try await result in results { out.append(result) }
        return out
    }

    /// Final words with their time attributes.
    func finalWords(_ results: [SpeechTranscriber.Result]) -> [(String, CMTimeRange)] {
        results.filter(\.isFinal).flatMap { result in
            result.text.runs.compactMap { run -> (String, CMTimeRange)? in
                guard let range = run.audioTimeRange else { return nil }
                return (String(result.text[run.range].characters), range)
            }
        }
    }

    @Test(.enabled(if: haveDigits)) func pocketSphinxDigitsGrammar() async throws {
        let (buffer, truth) = try Self.digitString()
        let words = finalWords(
            try await transcribe(PocketSphinxEngine(search: .digits, decoding: .wholeUtterance), buffer))
        #expect(words.map(\.0) == truth.map(\.word))
        // Word boundaries within 0.15 s of where the recordings were placed (PocketSphinx: 10 ms frames).
        for ((_, range), expected) in zip(words, truth) {
            #expect(
                abs(range.start.seconds - expected.start) < 0.15 && abs(range.end.seconds - expected.end) < 0.15,
                "\(expected.word): \(range.start.seconds)–\(range.end.seconds), expected \(expected.start)–\(expected.end)"
            )
        }
    }

    @Test(.enabled(if: haveDigits)) func pocketSphinxStreamingGivesVolatileThenFinal() async throws {
        let (buffer, truth) = try Self.digitString()
        let results = try await transcribe(PocketSphinxEngine(search: .digits, decoding: .streaming), buffer)
        #expect(results.contains { !$0.isFinal })
        let words = finalWords(results).map(\.0)
        // Streaming starts with cold normalisation; allow one error: at least three of the four
        // words in order (longest common subsequence).
        #expect(Self.commonSubsequence(words, truth.map(\.word)) >= 3, "streaming decoded \(words)")
    }

    @Test(.enabled(if: haveDigits && haveWhisper)) func whisperWorker() async throws {
        let (buffer, truth) = try Self.digitString()
        let engine = WhisperWorker.engine(root: Self.root)
        let results = try await transcribe(engine, buffer)
        await engine.shutdown()
        let words = finalWords(results)
        // Whisper writes digits as numerals ("3, 1, 4, 9." or "3149"); compare digit characters.
        let said = words.map(\.0).joined().filter(\.isNumber)
        #expect(said == "3149", "whisper said \(words.map(\.0))")
        // Its word timestamps are coarse: each recognised word overlaps the recording span ±0.5 s.
        let span = TimeRange(
            start: CMTime(seconds: truth[0].start - 0.5, preferredTimescale: 1000),
            end: CMTime(seconds: truth[3].end + 0.5, preferredTimescale: 1000))
        #expect(words.allSatisfy { span.contains($0.1) })
    }

    /// The DSP engine with templates enrolled from the same speaker's digits, installed through
    /// AssetInventory like any asset: volatile results first, then final words at their true times.
    @Test(.enabled(if: haveDigits)) func dspEngineInstalledThroughAssetInventory() async throws {
        let (buffer, truth) = try Self.digitString()
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        let exemplars = try (0..<10).map { d in
            let samples = try G722Decoder.decodeFile(path: "\(Self.digits)/\(d).g722")
            return TemplateEnroller.Exemplar(
                samples: Array(samples[CorpusSignals.trimmedRange(samples, sampleRate: 16_000)]), sampleRate: 16_000,
                text: words[d], task: "digits", group: "allison", source: "\(d)")
        }
        let folder = try TemporaryDirectory()
        let templates = try TemplateEnroller.enroll(exemplars, locale: "en-US", vocabulary: words, codebookSize: 256)
        try Data(try templates.encoded()).write(to: URL(fileURLWithPath: folder.path("en-US.shdt")))
        let engine = DSPEngine(task: .digits, templateDirectory: folder.path(""))
        let store = AssetStore(root: folder.url.appendingPathComponent("assets"))
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.assets, store)) {
            let transcriber = SpeechTranscriber(
                locale: Locale(identifier: "en-US"), transcriptionOptions: [], reportingOptions: [.volatileResults],
                attributeOptions: [.audioTimeRange], engine: engine, engineProblem: nil)
            #expect(await AssetInventory.status(forModules: [transcriber]) == .supported)
            let request = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
            try await request.downloadAndInstall()
            #expect(await AssetInventory.status(forModules: [transcriber]) == .installed)
            // The file keeps whose voice the templates came from: figures on it are speaker-dependent.
            #expect(engine.enrolledSpeakers(locale: "en-US") == ["allison"])
            let results = try await transcribe(engine, buffer)
            #expect(results.contains { !$0.isFinal && !$0.text.characters.isEmpty })
            let final = finalWords(results)
            #expect(final.map(\.0) == truth.map(\.word))
            for ((_, range), expected) in zip(final, truth) {
                #expect(
                    abs(range.start.seconds - expected.start) < 0.1 && abs(range.end.seconds - expected.end) < 0.1,
                    "\(expected.word): \(range.start.seconds)–\(range.end.seconds), expected \(expected.start)–\(expected.end)"
                )
            }
        }
    }

    static func commonSubsequence(_ a: [String], _ b: [String]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 1...max(1, a.count) where i <= a.count {
            for j in 1...max(1, b.count) where j <= b.count {
                table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : max(table[i - 1][j], table[i][j - 1])
            }
        }
        return table[a.count][b.count]
    }

    /// A worker killed mid-utterance: the error reaches the waiting caller and the result stream.
    @Test func workerCrashReachesEveryWaiterAndStream() async throws {
        let engine = FaultWorker.engine(mode: "crash-mid", after: 3, root: Self.root)
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription, engine: engine)
        let (stream, input) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [transcriber])
        let waiting = Task { try await analyzer.finalize(through: CMTime(value: 2, timescale: 1)) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        for _ in 0..<10 {
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1_600)!
            buffer.frameLength = 1_600
            input.yield(AnalyzerInput(buffer: buffer))
        }
        input.finish()
        let error = await #expect(throws: EngineError.self) { try await waiting.value }
        #expect(error.map { "\($0)".contains("crashing mid-utterance") } == true)
        var streamError: (any Error)?
        do { for try await _ in transcriber.results {} } catch { streamError = error }
        #expect((streamError as? EngineError) == error)
        await engine.shutdown()
    }
}
