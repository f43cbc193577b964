import AudioIO
import Corpus
import Foundation
import Metrics
import SpeechCore

/// One stream of many minutes made of corpus recordings with known words, joined with silence
/// between them: what `speech-harness bench long-stream` feeds each engine.
public struct LongStream: Sendable {
    /// A recording to place, with its file.
    public struct Source: Sendable {
        public var utterance: Utterance
        public var audioPath: String

        public init(utterance: Utterance, audioPath: String) {
            self.utterance = utterance
            self.audioPath = audioPath
        }
    }

    /// A recording that could not be placed, and why.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var audio: String
        public var reason: String
        public var description: String { "\(audio): \(reason)" }
    }

    public var path: String
    public var pieces: [LongStreamPiece]
    public var audioSeconds: Double
    public var locale: String
    /// Recordings skipped while building (unreadable audio, segments with an offset).
    public var problems: [Problem]

    /// The stream as one utterance (no word times: the pieces hold them).
    public var utterance: Utterance {
        Utterance(
            id: "long-stream", audio: path, reference: pieces.flatMap(\.words).joined(separator: " "),
            locale: locale, speaker: "mixed", task: "long-stream", duration: audioSeconds, tier: "long-stream")
    }

    /// Writes `seconds` of audio to `path` at `sampleRate`: recordings taken in turn from each
    /// list (the first of each, then the second of each, …, starting over when a list runs out),
    /// with `gap` seconds of silence after each, and silence at the end to make up the length.
    /// Reference words are prepared by `policy`; a recording's word times are kept when its words
    /// prepare to one word each.
    public static func build(
        from lists: [[Source]], seconds: Double, gap: Double = 0.5, sampleRate: Double = 16_000,
        policy: ScoringPolicy, to path: String
    ) throws -> LongStream {
        let lists = lists.filter { !$0.isEmpty }
        guard let locale = lists.first?.first?.utterance.locale else {
            throw Problem(audio: path, reason: "no recordings to build a stream from")
        }
        // Written beside its place and renamed into it, so that a run already reading a stream
        // at `path` keeps reading the file it opened.
        let partial = path + ".partial"
        let writer = try AudioFileWriter(path: partial, format: .speech(sampleRate: sampleRate))
        defer {
            writer.close()
            try? FileManager.default.removeItem(atPath: partial)
        }
        let total = Int64((seconds * sampleRate).rounded())
        let gapFrames = Int64((gap * sampleRate).rounded())
        var written: Int64 = 0
        var pieces: [LongStreamPiece] = []
        var problems: [Problem] = []
        var round = 0
        var placedInRound = true
        fill: while written < total && placedInRound {
            placedInRound = false
            for list in lists {
                let source = list[round % list.count]
                guard let samples = read(source, rate: sampleRate, problems: &problems) else { continue }
                guard written + Int64(samples.count) <= total else { break fill }
                let start = Double(written) / sampleRate
                try writer.write(mono: samples)
                written += Int64(samples.count)
                pieces.append(piece(source, start: start, end: Double(written) / sampleRate, policy: policy))
                placedInRound = true
                let silence = min(gapFrames, total - written)
                try writer.write(mono: [Float](repeating: 0, count: Int(silence)))
                written += silence
            }
            round += 1
        }
        guard !pieces.isEmpty else {
            throw Problem(
                audio: path, reason: "no recording could be read: \(problems.first?.description ?? "none fits")")
        }
        while written < total {
            let silence = Int(min(total - written, Int64(sampleRate)))
            try writer.write(mono: [Float](repeating: 0, count: silence))
            written += Int64(silence)
        }
        writer.close()
        guard rename(partial, path) == 0 else {
            throw Problem(audio: path, reason: "cannot move the stream into place: \(String(cString: strerror(errno)))")
        }
        return LongStream(
            path: path, pieces: pieces, audioSeconds: Double(written) / sampleRate, locale: locale,
            problems: problems)
    }

    private static func read(_ source: Source, rate: Double, problems: inout [Problem]) -> [Float]? {
        guard !problems.contains(where: { $0.audio == source.audioPath }) else { return nil }
        if let offset = source.utterance.offset, offset > 0 {
            problems.append(Problem(audio: source.audioPath, reason: "a segment at \(offset) s is not taken whole"))
            return nil
        }
        do {
            let chunker = try AudioChunker(
                path: source.audioPath, chunkMilliseconds: 1_000, sampleRate: rate, quality: .medium)
            var samples: [Float] = []
            while let chunk = try chunker.next() { samples += chunk.samples }
            return samples
        } catch {
            problems.append(Problem(audio: source.audioPath, reason: "\(error)"))
            return nil
        }
    }

    private static func piece(_ source: Source, start: Double, end: Double, policy: ScoringPolicy) -> LongStreamPiece {
        let utterance = source.utterance
        let words = WordAligner.tokens(policy.prepare(utterance.reference))
        var ends: [Double]?
        if let timed = utterance.words {
            let prepared = timed.map { WordAligner.tokens(policy.prepare($0.word)) }
            if prepared.allSatisfy({ $0.count == 1 }), prepared.map({ $0[0] }) == words {
                ends = timed.map { start + $0.end }
            }
        }
        return LongStreamPiece(id: utterance.id, start: start, end: end, words: words, wordEnds: ends)
    }
}
