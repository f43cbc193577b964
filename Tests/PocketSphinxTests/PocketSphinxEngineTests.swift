import Foundation
import SpeechCore
import Testing

@testable import PocketSphinx

/// PocketSphinx for real, on the pocketsphinx test clips (Debian's pocketsphinx-testdata).
@Suite("PocketSphinx engine")
struct PocketSphinxEngineTests {
    static let cards = "/usr/share/pocketsphinx/test/data/cards"
    static let available =
        ProcessInfo.processInfo.environment["CI"] == "true"
        || (FileManager.default.fileExists(atPath: cards) && PocketSphinxEngine().isInstalled(locale: "en-US"))

    /// 16 kHz int16 samples of a test clip.
    func clip(_ name: String) throws -> PCMBuffer {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(Self.cards)/\(name).wav"))
        let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return PCMBuffer(
            format: AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .int16), channels: [samples])
    }

    func decode(
        _ engine: PocketSphinxEngine, _ buffer: PCMBuffer, chunk: Int? = nil
    ) async throws -> (words: [RecognizedWord], partials: Int) {
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US", maximumAlternatives: 2))
        var words: [RecognizedWord] = []
        var partials = 0
        let step = chunk ?? buffer.frameCount
        var offset = 0
        while offset < buffer.frameCount {
            let end = min(buffer.frameCount, offset + step)
            let update = try await session.accept(
                buffer.slice(offset..<end), at: MediaTime(value: Int64(offset), timescale: 16_000))
            words += update.finalized.flatMap(\.words)
            if update.volatile != nil { partials += 1 }
            offset = end
        }
        let last = try await session.finalize(through: MediaTime(value: Int64(buffer.frameCount), timescale: 16_000))
        words += last.finalized.flatMap(\.words)
        await session.close()
        return (words, partials)
    }

    @Test(.enabled(if: available)) func wholeUtteranceDecodingOfACardsClip() async throws {
        let (words, _) = try await decode(
            PocketSphinxEngine(search: .languageModel, decoding: .wholeUtterance), try clip("005"))
        let text = words.map(\.text).joined(separator: " ")
        // Reference: "eight of spades four of clubs seven of hearts"; the n-gram model gets most of it.
        let reference = "eight of spades four of clubs seven of hearts".split(separator: " ").map(String.init)
        let hits = Set(words.map(\.text)).intersection(reference).count
        #expect(hits >= 4, "decoded: \(text)")
        // Word times are inside the clip, ordered, non-overlapping; markers like <sil> are gone.
        for (a, b) in zip(words, words.dropFirst()) { #expect(a.range.end <= b.range.start) }
        #expect(words.allSatisfy { !$0.text.hasPrefix("<") && !$0.text.contains("(") })
        let buffer = try clip("005")
        #expect((words.last?.range.end ?? .positiveInfinity) <= buffer.duration)
        #expect(words.allSatisfy { ($0.confidence ?? -1) >= 0 && ($0.confidence ?? 2) <= 1 })
    }

    @Test(.enabled(if: available)) func streamingGivesPartialsAndFinalWords() async throws {
        let (words, partials) = try await decode(
            PocketSphinxEngine(search: .languageModel, decoding: .streaming), try clip("005"), chunk: 1_600)
        #expect(partials > 0)
        #expect(!words.isEmpty)
    }

    @Test(.enabled(if: available)) func digitsGrammarOnlyProducesDigitWords() async throws {
        let (words, _) = try await decode(
            PocketSphinxEngine(search: .digits, decoding: .wholeUtterance), try clip("004"))
        let digits: Set<String> = [
            "zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        ]
        #expect(!words.isEmpty && words.allSatisfy { digits.contains($0.text) })
        // "five five" is in the grammar: expect to hear it.
        #expect(words.map(\.text) == ["five", "five"])
    }

    @Test(.enabled(if: available)) func wholeUtteranceAudioAfterAGapEndsTheUtteranceBeforeIt() async throws {
        // Clip 004 ("five five") at 0 s, then again at 10 s: the first is decoded and final when
        // the audio after the gap arrives, the second when the session is finalised.
        let engine = PocketSphinxEngine(search: .digits, decoding: .wholeUtterance)
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        let buffer = try clip("004")
        let second = MediaTime(value: 10, timescale: 1)
        #expect(try await session.accept(buffer, at: .zero).finalized.isEmpty)
        let atGap = try await session.accept(buffer, at: second)
        #expect(atGap.finalized.flatMap(\.words).map(\.text) == ["five", "five"])
        #expect(atGap.finalized.flatMap(\.words).allSatisfy { $0.range.end <= buffer.duration })
        let last = try await session.finalize(through: second + buffer.duration)
        #expect(last.finalized.flatMap(\.words).map(\.text) == ["five", "five"])
        #expect(last.finalized.flatMap(\.words).allSatisfy { $0.range.start >= second })
        await session.close()
    }

    @Test(.enabled(if: available)) func subsetDictionaryKeepsEveryPronunciationOfItsWordsOnly() throws {
        let full = PocketSphinxConfiguration.modelRoot + "/cmudict-en-us.dict"
        let path = try PocketSphinxConfiguration.subsetDictionary(of: full, words: ["zero", "two"])
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["two T UW", "zero Z IH R OW", "zero(2) Z IY R OW"])
        // The same word set is made once per process; another set gets its own file.
        #expect(try PocketSphinxConfiguration.subsetDictionary(of: full, words: ["two", "zero"]) == path)
        #expect(try PocketSphinxConfiguration.subsetDictionary(of: full, words: ["two"]) != path)
    }

    @Test func markersAreCleaned() {
        #expect(PocketSphinxDecoder.clean("<sil>") == nil)
        #expect(PocketSphinxDecoder.clean("[NOISE]") == nil)
        #expect(PocketSphinxDecoder.clean("++BREATH++") == nil)
        #expect(PocketSphinxDecoder.clean("read(2)") == "read")
        #expect(PocketSphinxDecoder.clean("clubs") == "clubs")
        #expect(PocketSphinxDecoder.clean("(NULL)") == nil)
    }
}
