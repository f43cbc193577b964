import AudioIO
import Corpus
import EngineCore
import Foundation
import Metrics
import SpeechCore
import TestSupport
import Testing

@testable import Benchmark

@Suite("Long streams", .isolatedResources)
struct LongStreamTests {
    /// Digit strings (one second, "one two" with times) and prompts (one second, "please wait",
    /// no times) in two lists, as `bench long-stream` takes them from two manifests.
    static func sources(_ dir: TemporaryDirectory) throws -> [[LongStream.Source]] {
        try ["digits", "prompts"].map { list in
            try (0..<2).map { i in
                let path = dir.path("\(list)\(i).wav")
                try AudioFileWriterShim.writeTone(path: path, seconds: 1.0)
                let timed = list == "digits"
                return LongStream.Source(
                    utterance: Utterance(
                        id: "\(list)\(i)", audio: path, reference: timed ? "one two" : "please wait",
                        locale: "en-US", speaker: "s", task: list, duration: 1,
                        words: timed
                            ? [.init(word: "one", start: 0.2, end: 0.4), .init(word: "two", start: 0.5, end: 0.7)]
                            : nil), audioPath: path)
            }
        }
    }

    @Test func theStreamTakesRecordingsInTurnWithGapsAndMakesUpItsLength() throws {
        let dir = try TemporaryDirectory()
        let stream = try LongStream.build(
            from: try Self.sources(dir), seconds: 7, gap: 0.5, policy: ScoringPolicy(normalizer: .english),
            to: dir.path("stream.wav"))
        // digits0 0–1, prompts0 1.5–2.5, digits1 3–4, prompts1 4.5–5.5, digits0 again 6–7 (no gap left).
        #expect(stream.pieces.map(\.id) == ["digits0", "prompts0", "digits1", "prompts1", "digits0"])
        #expect(stream.pieces.map(\.start) == [0, 1.5, 3, 4.5, 6])
        #expect(stream.pieces[2].wordEnds == [3.4, 3.7] && stream.pieces[1].wordEnds == nil)
        let info = try AudioFileReader.info(path: stream.path)
        #expect(info.frameCount == 7 * 16_000 && stream.audioSeconds == 7)
        #expect(!FileManager.default.fileExists(atPath: stream.path + ".partial"))
    }

    @Test func anUnreadableRecordingIsSkippedAndNamed() throws {
        let dir = try TemporaryDirectory()
        var lists = try Self.sources(dir)
        let broken = try dir.write("broken.wav", bytes: Array("RIFF....WAVEfmt ".utf8))
        lists[1][0] = LongStream.Source(utterance: lists[1][0].utterance, audioPath: broken)
        let stream = try LongStream.build(
            from: lists, seconds: 7, policy: ScoringPolicy(normalizer: .english), to: dir.path("stream.wav"))
        #expect(stream.problems.count == 1 && stream.problems[0].audio == broken)
        #expect(!stream.pieces.map(\.id).contains("prompts0"))
        #expect(throws: LongStream.Problem.self) {
            try LongStream.build(
                from: [[lists[1][0]]], seconds: 7, policy: ScoringPolicy(normalizer: .english),
                to: dir.path("none.wav"))
        }
    }

    /// The scripted engine says every word exactly where the stream has it, shows it when its
    /// end arrives and makes it final with the first buffer ending 0.55 s or more after a
    /// string's last word (0.6 s after it, in 100 ms buffers): every latency is known.
    @Test func aScriptedEngineGivesTheLatenciesWorkedOutByHand() async throws {
        let dir = try TemporaryDirectory()
        let stream = try LongStream.build(
            from: try Self.sources(dir), seconds: 90, gap: 0.5, policy: ScoringPolicy(normalizer: .english),
            to: dir.path("stream.wav"))
        let words = stream.pieces.flatMap { piece in
            zip(piece.words, [(0.2, 0.4), (0.5, 0.7)]).map { word, span in
                EngineScript.Word(word, start: piece.start + span.0, end: piece.start + span.1)
            }
        }
        let engine = ScriptedEngine(script: EngineScript(words: words, latency: 0, endpointSilence: 0.55))
        let outcome = await LongStreamRun(engine: engine, policy: ScoringPolicy(normalizer: .english), memoryEvery: 30)
            .run(stream)
        let record = outcome.record
        #expect(record.error == nil)
        #expect(record.minutes.count == 2 && record.wer == 0)
        for minute in record.minutes {
            // Shown as the buffer holding its end arrives; final 0.9 s ("one") and 0.6 s ("two") after.
            #expect(abs(minute.hypothesisP50 ?? 9) < 0.01 && abs(minute.hypothesisP90 ?? 9) < 0.01)
            #expect(abs((minute.confirmedP50 ?? 9) - 0.75) < 0.01)
            #expect(abs((minute.confirmedP90 ?? 9) - 0.9) < 0.01)
            #expect(minute.toolResidentPeak != nil && minute.workerResidentPeak == nil)
            #expect(minute.cpuPerAudioSecond != nil)
        }
        // 30 strings of two timed words, one every 3 s: 40 words in the first minute, 20 in the half-minute after.
        #expect(record.minutes.map(\.hypothesisWords) == [40, 20])
        #expect(record.hypothesisLatency?.words == 60 && record.confirmedLatency?.words == 60)
        #expect(outcome.trace?.figures.minutes == record.minutes)
    }
}
