/// LocalAgreement-n as whisper_streaming (Macháček et al., 2023) commits words from a buffer that
/// is decoded again and again: a word is committed once `n` consecutive decodes agree on it and on
/// everything before it, and never changes after.
///
/// Each decode's words are first cut to what is new, by whisper_streaming's two rules: words that
/// start before the last committed word's end (less 0.1 s) were heard already; and when the first
/// remaining word starts within 1 s of that end, the shortest run of one to five words that repeats
/// the committed words still in the buffer is dropped (a re-decode of the same audio with shifted
/// times). A word said twice a second or more apart is therefore kept, but one said again sooner is
/// lost: on digit strings that is most of whisper_streaming's errors. ``RepeatRule/aligned`` is the
/// harness's repair. Words agree when their text is the same, as the decoder wrote it.
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

    /// When a new decode's first words are taken for committed words heard again.
    public enum RepeatRule: String, Sendable, Hashable {
        /// whisper_streaming's: they start within 1 s of the last committed end and repeat the
        /// committed tail, so a digit said again quickly is lost.
        case withinASecond
        /// The harness's repair: when the decode starts with the committed words still in the
        /// buffer (compared without case or punctuation, digits spelled out), those are what it heard again and every
        /// word after them is new, whatever its time, so a digit said again is counted, not
        /// matched. Otherwise (the decode heard committed audio differently) whisper_streaming's
        /// rules apply as they are.
        case aligned
    }

    /// How many consecutive decodes must agree (2 in whisper_streaming).
    public let agreement: Int
    public let repeatRule: RepeatRule
    /// A new word must start after the last committed end less this (0.1 s in whisper_streaming).
    public static let startTolerance = 0.1
    /// Repeats of committed words are looked for only when the new text starts this close to the
    /// last committed end (1 s in whisper_streaming)…
    public static let repeatWindow = 1.0
    /// …and only this many words long at most (5).
    public static let longestRepeat = 5

    /// Every committed word, in order.
    public private(set) var committed: [Word] = []
    /// The committed words whose audio is still in the decoder's buffer (see ``trimmed(through:)``).
    public private(set) var committedInBuffer: [Word] = []
    /// The end of the last committed word: where new text starts.
    public private(set) var lastCommittedTime: Double
    /// The last decodes' uncommitted words, oldest first.
    private var recent: [[Word]] = []

    public init(agreement: Int = 2, startTime: Double = 0, repeatRule: RepeatRule = .withinASecond) {
        precondition(agreement >= 1, "agreement needs at least one hypothesis")
        self.agreement = agreement
        self.repeatRule = repeatRule
        lastCommittedTime = startTime
    }

    /// The latest decode's words beyond what is committed (the unconfirmed text).
    public var unconfirmed: [Word] { recent.last ?? [] }

    /// Takes one decode's words (in stream time) and returns the newly committed words: the
    /// longest prefix the last `agreement` decodes share.
    public mutating func ingest(_ hypothesis: [Word]) -> [Word] {
        recent.append(newWords(in: hypothesis))
        if recent.count > agreement { recent.removeFirst(recent.count - agreement) }
        guard recent.count == agreement else { return [] }
        var agreed = 0
        while recent.allSatisfy({ $0.count > agreed }), Set(recent.map { $0[agreed].text }).count == 1 { agreed += 1 }
        // The newest decode's times: it heard the most audio.
        let newly = Array(recent[recent.count - 1].prefix(agreed))
        if let last = newly.last { lastCommittedTime = last.end }
        committed += newly
        committedInBuffer += newly
        recent = recent.map { Array($0.dropFirst(agreed)) }
        return newly
    }

    /// End of stream: the latest decode's unconfirmed words are committed as they are.
    public mutating func flush() -> [Word] {
        let rest = unconfirmed
        committed += rest
        committedInBuffer += rest
        if let last = rest.last { lastCommittedTime = last.end }
        recent = []
        return rest
    }

    /// The decoder's buffer now starts at `time`: committed words ending by then leave it.
    public mutating func trimmed(through time: Double) {
        committedInBuffer.removeFirst(committedInBuffer.prefix { $0.end <= time }.count)
    }

    /// Up to `characters` of committed text whose audio has left the buffer (it starts at
    /// `bufferStart`): what whisper_streaming gives the decoder as its prompt.
    public func prompt(bufferStart: Double, characters: Int = 200) -> String {
        // The last committed word never goes in; before it, those that end by the buffer start.
        var outside = max(0, committed.count - 1)
        while outside > 0 && committed[outside - 1].end > bufferStart { outside -= 1 }
        var words: [String] = []
        var length = 0
        while outside > 0 && length < characters {
            outside -= 1
            words.append(committed[outside].text)
            length += committed[outside].text.count + 1
        }
        return words.reversed().joined(separator: " ")
    }

    /// whisper_streaming's insert: the decode's words less those already heard.
    func newWords(in hypothesis: [Word]) -> [Word] {
        if repeatRule == .aligned, !committedInBuffer.isEmpty,
            let heard = HeardAgain.prefix(committedInBuffer.map(\.text), of: hypothesis.map(\.text))
        {
            return Array(hypothesis.dropFirst(heard))
        }
        var words = hypothesis.filter { $0.start > lastCommittedTime - Self.startTolerance }
        guard let first = words.first, abs(first.start - lastCommittedTime) < Self.repeatWindow else { return words }
        for n in stride(from: 1, through: min(committedInBuffer.count, words.count, Self.longestRepeat), by: 1)
        where committedInBuffer.suffix(n).map(\.text) == words.prefix(n).map(\.text) {
            words.removeFirst(n)
            break
        }
        return words
    }
}
