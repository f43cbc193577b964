import AVFAudio
import CoreMedia
import EngineCore
import Foundation
import SpeechCore
@_exported import TestSupport
import VirtualDevice

@_spi(Harness) @testable import SpeechReference

/// Builders shared by the analyzer tests.
enum Fixture {
    static let rate = 16_000.0
    static let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 1)!

    /// A buffer of `seconds` of a quiet tone at 16 kHz.
    static func buffer(seconds: Double, format: AVAudioFormat = Fixture.format) -> AVAudioPCMBuffer {
        let frames = AVAudioFrameCount((seconds * format.sampleRate).rounded())
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        if let data = buffer.floatChannelData {
            for c in 0..<Int(format.channelCount) {
                for i in 0..<Int(frames) { data[c][i] = 0.01 * Float(sin(Double(i) * 0.2)) }
            }
        }
        return buffer
    }

    /// `count` consecutive inputs of `seconds` each, with explicit start times when `timed`.
    static func inputs(count: Int, seconds: Double = 0.1, timed: Bool = false) -> [AnalyzerInput] {
        (0..<count).map { i in
            AnalyzerInput(
                buffer: buffer(seconds: seconds),
                bufferStartTime: timed
                    ? CMTime(value: Int64(Double(i) * seconds * rate), timescale: CMTimeScale(rate)) : nil)
        }
    }

    static func stream(_ inputs: [AnalyzerInput], finish: Bool = true) -> AsyncStream<AnalyzerInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        for input in inputs { continuation.yield(input) }
        if finish { continuation.finish() }
        return stream
    }

    /// Runs `body` on `device`, with `engine` chosen and an asset store of its own (reservations
    /// and installations are the store's, and other tests make them too).
    static func onDevice<T>(
        _ device: DeviceSettings, engine: ScriptedEngine = Fixture.engine(),
        _ body: (ScriptedEngine) async throws -> T
    ) async rethrows -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("device-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        return try await HarnessContext.$current.withValue(
            HarnessContext.current.with(\.assets, AssetStore(root: root, maximumReservedLocales: 4))
        ) {
            try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
                try await HarnessContext.$current.withValue(HarnessContext.current.with(\.engine, engine)) {
                    try await body(engine)
                }
            }
        }
    }

    static func engine(
        _ text: String = "one two three", latency: Double = 0, endpoint: Double? = 0.6,
        faults: [EngineScript.Fault] = []
    ) -> ScriptedEngine {
        var script = EngineScript.evenlySpaced(text, latency: latency, endpointSilence: endpoint)
        script.faults = faults
        return ScriptedEngine(script: script)
    }

    static func transcriber(
        _ engine: any RecognitionEngine = Fixture.engine(),
        preset: SpeechTranscriber.Preset = .progressiveTranscription
    ) -> SpeechTranscriber {
        SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: preset, engine: engine)
    }

    static func seconds(_ s: Double) -> CMTime { CMTime(seconds: s, preferredTimescale: 16_000) }
}

/// Collects everything a results sequence yields, and how it ended.
func collect<S: AsyncSequence>(_ results: S) async -> (elements: [S.Element], error: (any Error)?) {
    var elements: [S.Element] = []
    do {
        for try await element in results { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}

extension SpeechTranscriber.Result {
    var plain: String { String(text.characters) }
}
