import AudioIO
import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import DSP

/// The recogniser on real speech: templates enrolled from Asterisk's isolated digits (one
/// speaker), strings assembled from the same recordings so every word's time is known.
@Suite("Template recogniser on real digits")
struct TemplateRecognizerTests {
    static let digits = SystemFixture.asteriskDigits
    static let available = SystemFixture.available(digits + "/1.g722")
    static let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    static func clip(_ digit: Int) throws -> [Float] {
        let samples = try G722Decoder.decodeFile(path: "\(digits)/\(digit).g722")
        var extractor = FeatureExtractor(sampleRate: 16_000)
        let span = TemplateEnroller.speechSpan(extractor.process(samples))!
        let hop = extractor.hop
        return Array(samples[max(0, span.lowerBound * hop)..<min(samples.count, (span.upperBound + 2) * hop)])
    }

    static let templates: TemplateSet = {
        let exemplars = (0..<10).map { d in
            TemplateEnroller.Exemplar(
                samples: try! clip(d), sampleRate: 16_000, text: words[d], task: "digits", group: "allison",
                source: "\(d)")
        }
        return try! TemplateEnroller.enroll(exemplars, locale: "en-US", vocabulary: words)
    }()

    /// The set keeps the voices it was enrolled from, as the exemplars name them, whatever the
    /// vocal-tract warps added to their groups; a file written and read again keeps them too.
    @Test(.enabled(if: available)) func aSetKeepsTheVoicesItWasEnrolledFrom() throws {
        let exemplars = try (0..<3).flatMap { d in
            try ["allison", "june"].map { voice in
                TemplateEnroller.Exemplar(
                    samples: try Self.clip(d), sampleRate: 16_000, text: Self.words[d], task: "digits", group: voice,
                    source: "\(voice)-\(d)")
            }
        }
        let set = try TemplateEnroller.enroll(
            exemplars, locale: "en-US", vocabulary: Array(Self.words.prefix(3)), warps: [0.92, 1.0, 1.08])
        #expect(set.speakers == ["allison", "june"])
        #expect(try TemplateSet.decode(try set.encoded(), name: "t.shdt").speakers == ["allison", "june"])
    }

    /// `digits` with `gap` seconds between them and 0.3 s before and after; the true word spans.
    static func string(_ digits: [Int], gap: Double = 0.2) throws -> ([Float], [(String, Double, Double)]) {
        var samples = [Float](repeating: 0, count: 4_800)
        var truth: [(String, Double, Double)] = []
        for (i, d) in digits.enumerated() {
            if i > 0 { samples += [Float](repeating: 0, count: Int(gap * 16_000)) }
            let start = Double(samples.count) / 16_000
            samples += try clip(d)
            truth.append((words[d], start, Double(samples.count) / 16_000))
        }
        samples += [Float](repeating: 0, count: 4_800)
        return (samples, truth)
    }

    static func decode(
        _ samples: [Float], chunk: Int, options: TemplateRecognizer.Options = .init()
    ) -> (finals: [HypothesisSegment], updates: [HypothesisUpdate]) {
        var recognizer = TemplateRecognizer(templates: templates, sampleRate: 16_000, options: options)
        var updates: [HypothesisUpdate] = []
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + chunk)
            updates.append(
                recognizer.accept(
                    Array(samples[offset..<end]), at: MediaTime(sampleIndex: Int64(offset), sampleRate: 16_000)))
            offset = end
        }
        updates.append(recognizer.finalize())
        return (updates.flatMap(\.finalized), updates)
    }

    @Test(.enabled(if: available)) func recognisesAStringWithWordTimes() throws {
        let (samples, truth) = try Self.string([4, 0, 7, 2, 9])
        let words = Self.decode(samples, chunk: 1_600).finals.flatMap(\.words)
        #expect(words.map(\.text) == truth.map(\.0))
        for (word, expected) in zip(words, truth) {
            #expect(
                abs(word.range.start.seconds - expected.1) < 0.1 && abs(word.range.end.seconds - expected.2) < 0.1,
                "\(expected.0): \(word.range.start.seconds)–\(word.range.end.seconds), expected \(expected.1)–\(expected.2)"
            )
            #expect((0...1).contains(word.confidence ?? -1))
        }
    }

    @Test(.enabled(if: available)) func streamingEqualsBatchWhateverTheChunks() throws {
        let (samples, _) = try Self.string([1, 8, 3, 3, 6, 5], gap: 0.5)
        let batch = Self.decode(samples, chunk: samples.count).finals
        #expect(!batch.isEmpty)
        for chunk in [160, 1_600, 593] {
            #expect(Self.decode(samples, chunk: chunk).finals == batch, "chunk \(chunk)")
        }
    }

    @Test(.enabled(if: available)) func audioThatOpensWithSpeechKeepsItsFirstWord() throws {
        let (samples, truth) = try Self.string([8, 5, 3])
        let opensWithSpeech = Array(samples[4_800...])
        #expect(Self.decode(opensWithSpeech, chunk: 1_600).finals.flatMap(\.words).map(\.text) == truth.map(\.0))
        // Without the opening window the first word is taken for the noise floor and lost.
        var unprimed = TemplateRecognizer.Options()
        unprimed.openingSeconds = 0
        #expect(
            Self.decode(opensWithSpeech, chunk: 1_600, options: unprimed).finals.flatMap(\.words).first?.text != "eight"
        )
    }

    @Test(.enabled(if: available)) func partialsComeBeforeTheFinalWords() throws {
        let (samples, _) = try Self.string([5, 1])
        let updates = Self.decode(samples, chunk: 1_600).updates
        let firstVolatile = try #require(updates.firstIndex { $0.volatile != nil })
        let firstFinal = try #require(updates.firstIndex { !$0.finalized.isEmpty })
        #expect(firstVolatile < firstFinal)
        // Finalised time never moves back.
        let marks = updates.compactMap(\.finalizedThrough)
        #expect(marks == marks.sorted())
    }

    @Test(.enabled(if: available)) func skippedAudioEndsTheSegmentInProgress() throws {
        let (samples, _) = try Self.string([2, 6])
        var recognizer = TemplateRecognizer(templates: Self.templates, sampleRate: 16_000)
        let firstHalf = Array(samples[..<(samples.count / 2)])
        _ = recognizer.accept(firstHalf, at: .zero)
        // The next audio starts 10 s later: what was heard so far becomes final at once.
        let update = recognizer.accept(
            Array(samples[(samples.count / 2)...]), at: MediaTime(seconds: 10, preferredTimescale: 16_000))
        #expect(update.finalized.flatMap(\.words).first?.text == "two")
    }
}
