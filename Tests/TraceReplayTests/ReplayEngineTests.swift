import Foundation
import Records
import SpeechCore
import TestSupport
import Testing

@testable import TraceReplay

@Suite("Replay engine")
struct ReplayEngineTests {
    static func tone(_ frequency: Double) -> [Float] {
        (0..<24_000).map { Float(0.25 * sin(Double($0) * frequency)) }
    }

    /// The head digests of `samples`, as the recorder writes them.
    static func digests(_ samples: [Float]) -> (String, [String]) {
        let bytes = samples.prefix(16_000).flatMap { sample -> [UInt8] in
            let value = Int16(clamping: Int((Double(sample) * 32_768).rounded()))
            return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        func hex(_ part: ArraySlice<UInt8>) -> String {
            var digest = SHA256()
            digest.update(Array(part))
            return digest.finalizeHex()
        }
        return (hex(bytes[...]), stride(from: 3_200, through: bytes.count, by: 3_200).map { hex(bytes[..<$0]) })
    }

    @Test func recordedAudioGetsItsWordsAndOtherAudioAnError() async throws {
        let samples = Self.tone(0.05)
        let (head, prefixes) = Self.digests(samples)
        let dir = try TemporaryDirectory()
        let session =
            #"{"audio":{"channels":1,"frames":24000,"headPrefixSHA256":[\#(prefixes.map { "\"\($0)\"" }.joined(separator: ","))],"headSHA256":"\#(head)","name":"t.wav","sampleRate":16000,"sha256":"\#(String(repeating: "0", count: 64))"},"bufferFrames":4096,"input":"stream","modules":[{"index":0,"kind":"SpeechTranscriber","locale":"en-US","options":{"reporting":[]}}],"platform":{"speech":"apple","system":"macOS","version":"26.0.0"},"scenario":"stream","type":"session","version":1}"#
        let lines = [
            session,
            #"{"duration":1.5,"finalizedThrough":1.5,"isFinal":true,"module":0,"runs":[{"duration":0.4,"start":0.2,"text":"hello"}],"seq":0,"start":0,"text":"hello","type":"result"}"#,
            #"{"results":1,"seq":1,"streams":["finished"],"type":"end"}"#,
        ]
        _ = try dir.write("stream--t.jsonl", bytes: Array(lines.joined(separator: "\n").utf8))
        let engine = try ReplayEngine(directory: dir.url.path)
        #expect(engine.isInstalled(locale: "en-US") && !engine.isInstalled(locale: "fr-FR"))
        let configuration = EngineSessionConfiguration(locale: "en-US", reportsPartialResults: false)

        let replay = try await engine.makeSession(configuration)
        var words: [RecognizedWord] = []
        for start in stride(from: 0, to: samples.count, by: 4_000) {
            let chunk = Array(samples[start..<min(samples.count, start + 4_000)])
            let update = try await replay.accept(
                PCMBuffer(mono: chunk, sampleRate: 16_000), at: MediaTime(sampleIndex: Int64(start), sampleRate: 16_000)
            )
            words += update.finalized.flatMap(\.words)
        }
        words += try await replay.finalize(through: MediaTime(seconds: 1.5, preferredTimescale: 16_000)).finalized
            .flatMap(\.words)
        #expect(words.map(\.text) == ["hello"])
        #expect(
            words.first.map { abs($0.range.start.seconds - 0.2) < 1e-6 && abs($0.range.end.seconds - 0.6) < 1e-6 }
                == true)

        let other = try await engine.makeSession(configuration)
        do {
            _ = try await other.accept(PCMBuffer(mono: Self.tone(0.09), sampleRate: 16_000), at: .zero)
            Issue.record("audio without a recording was answered")
        } catch let error as EngineError {
            guard case .noRecording(let directory, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(directory == dir.url.path)
        }
    }

    /// A recording paced in real time gives each result once the audio that had been given when
    /// it arrived is heard, and reports the time it took after that audio as compute, so that
    /// simulated pacing replays its latency.
    @Test func aPacedRecordingReplaysItsLatency() async throws {
        let samples = Self.tone(0.05)
        let (head, prefixes) = Self.digests(samples)
        let dir = try TemporaryDirectory()
        let session =
            #"{"audio":{"channels":1,"frames":24000,"headPrefixSHA256":[\#(prefixes.map { "\"\($0)\"" }.joined(separator: ","))],"headSHA256":"\#(head)","name":"t.wav","sampleRate":16000,"sha256":"\#(String(repeating: "0", count: 64))"},"bufferFrames":4000,"input":"stream","modules":[{"index":0,"kind":"SpeechTranscriber","locale":"en-US","options":{"reporting":["volatileResults"]}}],"pacing":"realtime","platform":{"speech":"apple","system":"macOS","version":"26.0.0"},"scenario":"stream-volatile","type":"session","version":1}"#
        let lines = [
            session,
            #"{"arrival":0.56,"duration":0.5,"finalizedThrough":0,"inputSeconds":0.5,"isFinal":false,"module":0,"seq":0,"start":0,"text":"hello","type":"result"}"#,
            #"{"arrival":1.3,"duration":1.0,"finalizedThrough":0,"inputSeconds":1.25,"isFinal":false,"module":0,"seq":1,"start":0,"text":"hello there","type":"result"}"#,
            #"{"arrival":1.62,"duration":1.5,"finalizedThrough":1.5,"inputSeconds":1.5,"isFinal":true,"module":0,"seq":2,"start":0,"text":"hello there","type":"result"}"#,
            #"{"results":3,"seq":3,"streams":["finished"],"type":"end"}"#,
        ]
        _ = try dir.write("stream-volatile--t.jsonl", bytes: Array(lines.joined(separator: "\n").utf8))
        let engine = try ReplayEngine(directory: dir.url.path)
        let replay = try await engine.makeSession(
            EngineSessionConfiguration(locale: "en-US", reportsPartialResults: true))
        // Quarter-second chunks: (what the chunk ending there gives, the compute it reports).
        var given: [(end: Double, words: [String], compute: Double)] = []
        for start in stride(from: 0, to: samples.count, by: 4_000) {
            let chunk = Array(samples[start..<min(samples.count, start + 4_000)])
            let update = try await replay.accept(
                PCMBuffer(mono: chunk, sampleRate: 16_000), at: MediaTime(sampleIndex: Int64(start), sampleRate: 16_000)
            )
            given.append(
                (
                    Double(start + chunk.count) / 16_000, update.volatile?.words.map(\.text) ?? [],
                    update.computeSeconds ?? 0
                ))
        }
        let final = try await replay.finalize(through: MediaTime(seconds: 1.5, preferredTimescale: 16_000))
        // "hello" at 0.5 s with 0.06 s of compute; "hello there" not at 1.0 s, where its range
        // ends, but at 1.25 s, where the recording had given that much audio, with 0.05 s.
        #expect(given.map(\.words) == [[], ["hello"], ["hello"], ["hello"], ["hello", "there"], ["hello", "there"]])
        #expect(abs(given[1].compute - 0.06) < 1e-9 && abs(given[4].compute - 0.05) < 1e-9)
        #expect(given[2].compute == 0 && given[3].compute == 0)
        #expect(final.finalized.flatMap(\.words).map(\.text) == ["hello", "there"])
        #expect(abs((final.computeSeconds ?? 0) - 0.12) < 1e-9)
    }
}
