import AVFAudio
import AudioIO
import CoreMedia
import Foundation
@_spi(Harness) import LegacySpeech
import Metrics
import Records
import SpeechCore
@_spi(Harness) import SpeechReference

/// Runs one audio file through the legacy SFSpeechRecognizer API and through SpeechAnalyzer with
/// SpeechTranscriber, on the same engine and the same buffers, and traces what each shows an app.
/// Both sides are driven chunk by chunk, so the traces are deterministic for a deterministic engine.
public struct MigrationRun: Sendable {
    public var engine: any RecognitionEngine
    public var chunkMilliseconds: Int
    /// Legacy requests as server requests (`requiresOnDeviceRecognition = false`), which the
    /// emulation cuts off after one minute of audio; off: on-device requests, no limit.
    public var serverRequests: Bool
    /// The analyzer side asks for `.fastResults` too (volatile results as often as the engine has them).
    public var fastResults: Bool

    public init(
        engine: any RecognitionEngine, chunkMilliseconds: Int = 100, serverRequests: Bool = false,
        fastResults: Bool = false
    ) {
        self.engine = engine
        self.chunkMilliseconds = chunkMilliseconds
        self.serverRequests = serverRequests
        self.fastResults = fastResults
    }

    /// Why an utterance could not be diffed at all.
    public enum RunError: Error, CustomStringConvertible, Sendable {
        case noFormat(engine: String)

        public var description: String {
            switch self {
            case .noFormat(let engine): return "engine '\(engine)' declares no audio format"
            }
        }
    }

    public func run(
        id: String, audioPath: String, locale: String, timeTolerance: Double = 0.05, reference: [TimedWord] = [],
        policy: ScoringPolicy = ScoringPolicy(normalizer: .english)
    ) async throws -> UtteranceDiff {
        guard let format = engine.capabilities.formats.first else { throw RunError.noFormat(engine: engine.id) }
        let buffers = try Self.buffers(audioPath, sampleRate: format.sampleRate, chunkMilliseconds: chunkMilliseconds)
        let legacy = await legacyTrace(buffers, locale: locale)
        let analyzer = await analyzerTrace(buffers, locale: locale, sampleRate: format.sampleRate)
        return MigrationComparison.compare(
            id: id, legacy: legacy, analyzer: analyzer, timeTolerance: timeTolerance, reference: reference,
            policy: policy)
    }

    /// The file as the buffers both sides receive: mono, at the engine's rate, `chunk` ms each.
    static func buffers(_ path: String, sampleRate: Double, chunkMilliseconds: Int) throws -> [AVAudioPCMBuffer] {
        let chunker = try AudioChunker(
            path: path, chunkMilliseconds: chunkMilliseconds, sampleRate: sampleRate, quality: .medium)
        let format = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: 1)!
        var buffers: [AVAudioPCMBuffer] = []
        while let chunk = try chunker.next() {
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(chunk.samples.count))!
            try buffer.replaceFrames(with: chunk.buffer, at: 0)
            buffers.append(buffer)
        }
        return buffers
    }

    static func seconds(_ buffers: [AVAudioPCMBuffer]) -> Double {
        guard let rate = buffers.first?.format.sampleRate else { return 0 }
        return Double(buffers.reduce(0) { $0 + Int($1.frameLength) }) / rate
    }

    // MARK: Legacy side

    /// A buffer request with partial results and a result handler, as the common samples write it.
    func legacyTrace(_ buffers: [AVAudioPCMBuffer], locale: String) async -> APITrace {
        let recognizer = SFSpeechRecognizer(locale: Locale(identifier: locale), engine: engine)
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = true
        request.requiresOnDeviceRecognition = !serverRequests
        let log = Locked((events: [APITrace.Event](), finalWords: [APITrace.TimedWord]()))
        let task = recognizer.recognitionTask(with: request) { result, error in
            if let result {
                let words = result.bestTranscription.segments.map {
                    APITrace.TimedWord(word: $0.substring, start: $0.timestamp, end: $0.timestamp + $0.duration)
                }
                log.withLock { log in
                    log.events.append(
                        APITrace.Event(
                            kind: result.isFinal ? .final : .partial, audioTime: result.processedAudioDuration,
                            shown: words.map(\.word)))
                    if result.isFinal { log.finalWords = words }
                }
            }
            if let error = error as NSError? {
                log.withLock { log in
                    log.events.append(
                        APITrace.Event(
                            kind: .error, audioTime: -1, shown: log.events.last?.shown ?? [],
                            detail: LegacyRecognitionError.describe(error)))
                }
            }
        }
        for buffer in buffers { request.append(buffer) }
        request.endAudio()
        await task.waitUntilCompleted()
        let audio = Self.seconds(buffers)
        let (logged, finalWords) = log.withLock { ($0.events, $0.finalWords) }
        var events = logged.map { event -> APITrace.Event in
            var event = event
            if event.audioTime < 0 { event.audioTime = audio }
            return event
        }
        events.append(APITrace.Event(kind: .end, audioTime: audio, shown: events.last?.shown ?? []))
        var notes: [String] = []
        if task.reachedServerAudioLimit {
            notes.append(
                "stopped listening at the \(Int(SFSpeechRecognizer.serverAudioLimit)) s server-request limit; \(MigrationComparison.format(audio - SFSpeechRecognizer.serverAudioLimit)) s of audio not recognised"
            )
        }
        return APITrace(api: "legacy", events: events, finalWords: finalWords, audioSeconds: audio, notes: notes)
    }

    // MARK: SpeechAnalyzer side

    /// SpeechTranscriber with volatile results and time ranges; each buffer is analysed before the
    /// next arrives, then `finalizeAndFinishThroughEndOfInput()`.
    func analyzerTrace(_ buffers: [AVAudioPCMBuffer], locale: String, sampleRate: Double) async -> APITrace {
        let transcriber = SpeechTranscriber(
            locale: Locale(identifier: locale), transcriptionOptions: [],
            reportingOptions: !engine.capabilities.partialResults
                ? [] : fastResults ? [.volatileResults, .fastResults] : [.volatileResults],
            attributeOptions: [.audioTimeRange], engine: engine)
        let analyzer = SpeechAnalyzer(
            modules: [transcriber],
            options: .init(priority: .medium, modelRetention: .whileInUse, ignoresResourceLimits: true))
        var events: [APITrace.Event] = []
        var finals: [APITrace.TimedWord] = []
        var volatile: [APITrace.TimedWord] = []
        var seen = 0
        var processed = 0.0
        func collect() {
            let published = transcriber.publishedResults
            for result in published[seen...] {
                let words = result.text.timedWords()
                if result.isFinal {
                    finals += words
                    volatile = []
                } else {
                    volatile = words
                }
                events.append(
                    APITrace.Event(
                        kind: result.isFinal ? .final : .partial, audioTime: processed,
                        shown: (finals + volatile).map(\.word)))
            }
            seen = published.count
        }
        do {
            try await analyzer.prepareToAnalyze(
                in: AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: 1))
            var time = CMTime.zero
            for buffer in buffers {
                let (input, builder) = AsyncStream<AnalyzerInput>.makeStream()
                builder.yield(AnalyzerInput(buffer: buffer, bufferStartTime: time))
                builder.finish()
                _ = try await analyzer.analyzeSequence(input)
                time = time + CMTime(value: CMTimeValue(buffer.frameLength), timescale: CMTimeScale(sampleRate))
                processed = time.seconds
                collect()
            }
            try await analyzer.finalizeAndFinishThroughEndOfInput()
            collect()
        } catch {
            collect()
            events.append(
                APITrace.Event(
                    kind: .error, audioTime: processed, shown: (finals + volatile).map(\.word), detail: "\(error)"))
        }
        events.append(APITrace.Event(kind: .end, audioTime: Self.seconds(buffers), shown: events.last?.shown ?? []))
        return APITrace(api: "analyzer", events: events, finalWords: finals, audioSeconds: Self.seconds(buffers))
    }

}
