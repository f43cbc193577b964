/// LocalAgreement-n commitment for re-decoding streams (the Whisper streaming policy): each
/// decode of the growing buffer yields a hypothesis; the words on which the last `n` hypotheses
/// agree, from the start of the uncommitted part, become committed and never change again.
///
/// Pure: words in, commits out. Times are seconds on the stream's clock.
public struct LocalAgreement: Sendable, Equatable {
    public struct Word: Sendable, Hashable {
        public var text: String
        public var start: Double
        public var end: Double

        public init(_ text: String, start: Double, end: Double) {
            self.text = text
            self.start = start
            self.end = end
        }
    }

    /// How many consecutive hypotheses must agree (2 in whisper_streaming).
    public let agreement: Int
    /// Words that end this long before the last committed word's end are taken as already committed.
    public let overlapTolerance: Double

    public private(set) var committed: [Word] = []
    /// The last hypotheses' uncommitted tails, oldest first.
    private var recent: [[Word]] = []

    public init(agreement: Int = 2, overlapTolerance: Double = 0.1) {
        precondition(agreement >= 1, "agreement needs at least one hypothesis")
        self.agreement = agreement
        self.overlapTolerance = overlapTolerance
    }

    /// The end of committed audio: the buffer may be trimmed up to here.
    public var committedEnd: Double { committed.last?.end ?? 0 }

    /// The latest hypothesis beyond what is committed (the unconfirmed text).
    public var unconfirmed: [Word] { recent.last ?? [] }

    /// Takes one decode's words (of the buffer, in stream time) and returns the newly committed words.
    public mutating func ingest(_ hypothesis: [Word]) -> [Word] {
        recent.append(tail(of: hypothesis))
        if recent.count > agreement { recent.removeFirst(recent.count - agreement) }
        guard recent.count == agreement else { return [] }
        var agreed = 0
        while recent.allSatisfy({ $0.count > agreed }), Set(recent.map { Self.key($0[agreed].text) }).count == 1 { agreed += 1 }
        guard agreed > 0 else { return [] }
        // The newest decode's times: it saw the most audio.
        let newly = Array(recent[recent.count - 1].prefix(agreed))
        committed += newly
        recent = recent.map { Array($0.dropFirst(agreed)) }
        return newly
    }

    /// End of stream: whatever the last hypothesis says beyond the commits is committed too.
    public mutating func flush() -> [Word] {
        let rest = unconfirmed
        committed += rest
        recent = []
        return rest
    }

    /// The hypothesis without the words already committed: those ending before the committed end,
    /// and a leading run that repeats the committed tail (a decode that starts before the trim point).
    func tail(of hypothesis: [Word]) -> [Word] {
        var words = hypothesis.filter { $0.end > committedEnd + overlapTolerance || committed.isEmpty }
        for n in stride(from: min(5, committed.count, words.count), through: 1, by: -1) {
            let committedTail = committed.suffix(n).map { Self.key($0.text) }
            if words.prefix(n).map({ Self.key($0.text) }) == committedTail {
                words.removeFirst(n)
                break
            }
        }
        return words
    }

    /// Words compare without case or surrounding punctuation ("Nine," agrees with "nine").
    static func key(_ text: String) -> String {
        text.lowercased().trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
    }
}

import Foundation
