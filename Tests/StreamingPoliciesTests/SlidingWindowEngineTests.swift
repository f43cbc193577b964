import EngineCore
import Foundation
import Metrics
import SpeechCore
import Testing

@testable import StreamingPolicies

/// whisper.cpp `stream`'s sliding window: the window arithmetic worked out by hand, then the
/// adapter over the scripted engine (which hears a word only when its audio is whole in a window).
@Suite("whisper.cpp stream's sliding window")
struct SlidingWindowEngineTests {
    @Test(arguments: [(3.0, 10.0, 2), (1.0, 2.0, 1), (2.0, 5.0, 1), (0.5, 10.0, 19)])
    func decodesPerLine(step: Double, length: Double, steps: Int) {
        #expect(SlidingWindowPolicy(step: step, length: length).stepsPerLine == steps)
    }

    @Test func windowsTakeWhatThePreviousOneKept() throws {
        // At 10 samples a second: a step is 30 samples, the length 100, the keep 2.
        var window = SlidingWindow(parameters: SlidingWindowPolicy(), rate: 10)
        func at(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 10) }
        window.append([Float](repeating: 1, count: 20), at: at(0))
        #expect(!window.isDue)
        window.append([Float](repeating: 1, count: 10), at: at(2))
        let firstWindow = window.nextWindow(final: false)
        let first = try #require(firstWindow)
        #expect(first.samples.count == 30 && first.start == at(0) && !first.commits)  // decode 1 of 2: shown
        window.append([Float](repeating: 2, count: 30), at: at(3))
        let secondWindow = window.nextWindow(final: false)
        let second = try #require(secondWindow)
        #expect(second.samples.count == 60 && second.start == at(0) && second.commits)  // all 30 old + 30 new; a line
        #expect(window.old == [2, 2])  // the last 0.2 s stay
        window.append([Float](repeating: 3, count: 30), at: at(6))
        let thirdWindow = window.nextWindow(final: false)
        let third = try #require(thirdWindow)
        #expect(third.samples.count == 32 && third.start == at(5.8) && !third.commits)
        window.append([Float](repeating: 4, count: 10), at: at(9))
        // Final: the 10 new samples and the 32 of the previous window (up to 102 − 10 may be taken).
        let lastWindow = window.nextWindow(final: true)
        let last = try #require(lastWindow)
        #expect(last.samples.count == 42 && last.start == at(5.8) && last.commits)
        let none = window.nextWindow(final: true)
        #expect(none == nil)
    }

    @Test func theCurrentLineIsShownThenCommitted() async throws {
        let engine = SlidingWindowEngine(base: ScriptedEngine(script: WhisperStyleEngineTests.script))
        let updates = try await streamSilence(engine, seconds: 6.5)
        // At 3 s the window [0, 3) holds "one" … "five" whole: the line is shown, not committed.
        let shown = try #require(updates.first { $0.1.volatile != nil })
        #expect(shown.0 == 3.0)
        #expect(shown.1.volatile?.words.map(\.text) == ["one", "two", "three", "four", "five"])
        // At 6 s the second decode of [0, 6) commits the line: all ten words.
        let committed = try #require(updates.first { !$0.1.finalized.isEmpty })
        #expect(committed.0 == 6.0)
        let finals = updates.flatMap { $0.1.finalized.flatMap(\.words) }.map(\.text)
        #expect(finals == ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])
        let ranges = updates.flatMap { $0.1.finalized.map(\.range) }
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.end <= $1.start })
        #expect(engine.name == "scripted+sliding-window[step3s,len10s,keep0.2s]")
    }

    @Test func theKeptAudioRescuesACutWordAndRepeatsAWholeOne() async throws {
        // "left" is whole in both the committed window [0, 6) and the next one [5.8, 6.5); "right"
        // is cut at 6 s and whole only in the next one. whisper.cpp prints "left" twice.
        let script = EngineScript(
            words: [
                EngineScript.Word("left", start: 5.82, end: 5.95), EngineScript.Word("right", start: 5.97, end: 6.2),
            ],
            endpointSilence: nil)
        let finals = try await streamSilence(SlidingWindowEngine(base: ScriptedEngine(script: script)), seconds: 6.5)
            .flatMap { $0.1.finalized.flatMap(\.words) }
        #expect(finals.map(\.text) == ["left", "left", "right"])
        #expect(zip(finals, finals.dropFirst()).allSatisfy { $0.range.start <= $1.range.start })
    }

    // MARK: VAD mode (--step 0)

    @Test func theEndpointerFiresWhenTheLastSecondIsQuietAgainstTheWindow() {
        let speechThenQuiet = [Float](repeating: 1, count: 10) + [Float](repeating: 0.2, count: 10)
        #expect(VADWindow.endOfSpeech(speechThenQuiet, rate: 10, lastSeconds: 1, threshold: 0.6, cutoff: 0))
        let steady = [Float](repeating: 0.7, count: 20)
        #expect(!VADWindow.endOfSpeech(steady, rate: 10, lastSeconds: 1, threshold: 0.6, cutoff: 0))
        // Relative only: digital silence fires; a window no longer than the last second never does.
        #expect(
            VADWindow.endOfSpeech([Float](repeating: 0, count: 20), rate: 10, lastSeconds: 1, threshold: 0.6, cutoff: 0)
        )
        #expect(
            !VADWindow.endOfSpeech(
                [Float](repeating: 0, count: 10), rate: 10, lastSeconds: 1, threshold: 0.6, cutoff: 0))
        // whisper.cpp's in-place "high-pass" only scales: a constant offset is not removed, so a
        // steady offset still does not fire (a true high-pass would make it silence, and fire).
        #expect(
            !VADWindow.endOfSpeech(
                [Float](repeating: 1, count: 20), rate: 10, lastSeconds: 1, threshold: 0.6, cutoff: 100))
        // 0.7 against a mean of 0.85: quiet enough at a threshold of 0.9, not at 0.6.
        let softer = [Float](repeating: 1, count: 10) + [Float](repeating: 0.7, count: 10)
        #expect(!VADWindow.endOfSpeech(softer, rate: 10, lastSeconds: 1, threshold: 0.6, cutoff: 0))
        #expect(VADWindow.endOfSpeech(softer, rate: 10, lastSeconds: 1, threshold: 0.9, cutoff: 0))
    }

    @Test func vadWindowsComeAfterSpeechEndsAndTakeTheWholeKeptAudio() throws {
        // At 10 samples a second, one sample at a time: 1.5 s of speech, then digital silence.
        var window = VADWindow(parameters: SlidingWindowPolicy(step: 0), rate: 10)
        func at(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 10) }
        var dueAt: [Int] = []
        var windows: [DecodeWindow] = []
        for k in 0..<45 {
            window.append([k < 15 ? 1 : 0], at: at(Double(k) / 10))
            if window.isDue, let next = window.nextWindow(final: false) {
                dueAt.append(k + 1)
                windows.append(next)
            }
        }
        // Not before 2 s have passed; at 2.0 s the last second still holds half the speech (0.5
        // against 0.75); at 2.1 s it fires. Two seconds later, silence against silence fires again,
        // and that window repeats the first one's audio, as whisper.cpp's does.
        #expect(dueAt == [21, 41])
        #expect(windows.map(\.samples.count) == [21, 41])
        #expect(windows.map(\.start) == [at(0), at(0)])
        #expect(windows.allSatisfy { $0.commits && $0.shownUntil == nil })
        // At the end of the stream, all the kept audio once more, for the words after the last window.
        let last = window.nextWindow(final: true)
        let rest = try #require(last)
        #expect(rest.samples.count == 45 && rest.start == at(0) && rest.shownUntil == at(4.1))
        let none = window.nextWindow(final: true)
        #expect(none == nil)
    }

    /// The VAD mode over the scripted engine saying `words`.
    static func vadEngine(_ words: [EngineScript.Word]) -> SlidingWindowEngine {
        SlidingWindowEngine(
            base: ScriptedEngine(script: EngineScript(words: words, endpointSilence: nil)), policy: .init(step: 0))
    }

    /// The `k`th 100 ms chunk at 16 kHz: a tone when `voiced`, else digital silence.
    static func chunk(_ k: Int, voiced: Bool) -> (PCMBuffer, MediaTime) {
        let samples = (0..<1_600).map { i in voiced ? Float(0.3 * sin(Double(k * 1_600 + i) * 0.05)) : 0 }
        return (
            PCMBuffer(mono: samples, sampleRate: 16_000), MediaTime(sampleIndex: Int64(k * 1_600), sampleRate: 16_000)
        )
    }

    @Test func vadModeShowsNothingUntilSpeechEnds() async throws {
        let engine = Self.vadEngine([
            EngineScript.Word("one", start: 0.2, end: 0.4), EngineScript.Word("two", start: 0.6, end: 0.9),
        ])
        #expect(engine.name == "scripted+sliding-window[vad,len10s,vth0.6,fth100]")
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        var updates: [(Double, HypothesisUpdate)] = []
        for k in 0..<30 {  // 1.5 s of a tone, then silence
            let (audio, start) = Self.chunk(k, voiced: k < 15)
            updates.append((Double(k + 1) / 10, try await session.accept(audio, at: start)))
        }
        updates.append((3.0, try await session.finalize(through: MediaTime(seconds: 3, preferredTimescale: 16_000))))
        await session.close()
        #expect(updates.allSatisfy { $0.1.volatile == nil })
        let first = try #require(updates.first { !$0.1.finalized.isEmpty })
        #expect(first.0 == 2.1)
        #expect(updates.flatMap { $0.1.finalized.flatMap(\.words) }.map(\.text) == ["one", "two"])
    }

    @Test func vadModeEndsAStreamWithTheWordsAfterTheLastBlock() async throws {
        let engine = Self.vadEngine([
            EngineScript.Word("one", start: 0.2, end: 0.4), EngineScript.Word("two", start: 0.6, end: 0.9),
            EngineScript.Word("three", start: 3.3, end: 3.6),
        ])
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        var finals: [[String]] = []
        for k in 0..<40 {  // a tone for 1.5 s, silence, a tone from 3.2 to 3.8 s, silence
            let (audio, start) = Self.chunk(k, voiced: k < 15 || (32..<38).contains(k))
            let update = try await session.accept(audio, at: start)
            finals += update.finalized.map { $0.words.map(\.text) }
        }
        // The block at 2.1 s said "one two"; at 4 s the next poll is still 0.1 s away, so the end of
        // the stream decodes the last 4 s again and keeps what comes after 2.1 s: "three" alone.
        let last = try await session.finalize(through: MediaTime(seconds: 4, preferredTimescale: 16_000))
        finals += last.finalized.map { $0.words.map(\.text) }
        await session.close()
        #expect(finals == [["one", "two"], ["three"]])
    }

    /// Two endpoints within the 10 s length: whisper.cpp transcribes the last 10 s each time, so
    /// the second block says the first block's words again (held-out digit strings: "1, 9, 6." then
    /// "1, 9, 6, 4, 9, 4, 6"); read as one transcript, the second block shows what follows.
    @Test(arguments: [
        (SlidingWindowPolicy.BlockOverlap.shown, [["one", "two"], ["one", "two", "three"]]),
        (.continued, [["one", "two"], ["three"]]),
    ])
    func vadBlocksWithinTheLengthOverlap(overlap: SlidingWindowPolicy.BlockOverlap, expected: [[String]]) async throws {
        let engine = SlidingWindowEngine(
            base: ScriptedEngine(
                script: EngineScript(
                    words: [
                        EngineScript.Word("one", start: 0.2, end: 0.4), EngineScript.Word("two", start: 0.6, end: 0.9),
                        EngineScript.Word("three", start: 3.3, end: 3.6),
                    ], endpointSilence: nil)),
            policy: SlidingWindowPolicy(step: 0, blockOverlap: overlap))
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        var finals: [[String]] = []
        for k in 0..<60 {  // tones at 0–1.5 s and 3.2–3.8 s; the endpointer fires at 2.1 s and again later
            let (audio, start) = Self.chunk(k, voiced: k < 15 || (32..<38).contains(k))
            finals += try await session.accept(audio, at: start).finalized.map { $0.words.map(\.text) }
        }
        await session.close()
        #expect(finals == expected)
    }

    /// The held-out strings' shape end to end: the block after the first pause writes "4739." as
    /// one token; the end-of-stream decode of the same audio writes the words out, with times spread
    /// over the window as re-decoded times drift, so "nine" ends up after the block. Only what
    /// follows the block is new.
    @Test func vadModeDoesNotRepeatABlockThatTheLastDecodeWritesInWords() async throws {
        let script = EngineScript(
            words: [
                .init("four", start: 0.2, end: 0.4), .init("seven", start: 0.5, end: 0.7),
                .init("three", start: 0.8, end: 1.0), .init("nine", start: 1.1, end: 1.4),
                .init("one", start: 3.3, end: 3.5), .init("two", start: 3.55, end: 3.75),
            ], endpointSilence: nil)
        let base = RewritingEngine(base: ScriptedEngine(script: script)) { decode, words, window in
            guard decode > 0 else {
                let numerals = words.map { String(HeardAgainTests.digitNames.firstIndex(of: $0.text)!) }.joined()
                return [
                    RecognizedWord(
                        text: numerals + ".", range: TimeRange(start: words[0].range.start, end: words.last!.range.end))
                ]
            }
            let share = (window.end - window.start).seconds / Double(words.count)
            return words.enumerated().map { index, word in
                let start = window.start.seconds + share * Double(index)
                return RecognizedWord(
                    text: word.text,
                    range: TimeRange(
                        start: MediaTime(seconds: start, preferredTimescale: 1000),
                        end: MediaTime(seconds: start + share, preferredTimescale: 1000)))
            }
        }
        let engine = SlidingWindowEngine(base: base, policy: .init(step: 0))
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        var finals: [[String]] = []
        for k in 0..<40 {
            let (audio, start) = Self.chunk(k, voiced: k < 15 || (32..<38).contains(k))
            finals += try await session.accept(audio, at: start).finalized.map { $0.words.map(\.text) }
        }
        let last = try await session.finalize(through: MediaTime(seconds: 4, preferredTimescale: 16_000))
        finals += last.finalized.map { $0.words.map(\.text) }
        await session.close()
        #expect(finals == [["4739."], ["one", "two"]])
    }

    /// The end-of-stream decode in VAD mode, as in real-digits-en-000: the block at 3.2 s cut
    /// "seven" (2.57–3.28 s) and said "5, 5, 6"; decoding the same audio again to the end hears all four.
    @Test func theEndOfStreamDecodeShowsWhatFollowsTheLastBlock() {
        func word(_ text: String, _ start: Double, _ end: Double) -> RecognizedWord {
            RecognizedWord(
                text: text,
                range: TimeRange(
                    start: MediaTime(seconds: start, preferredTimescale: 1000),
                    end: MediaTime(seconds: end, preferredTimescale: 1000)))
        }
        let zero = MediaTime.zero
        let decode = [word("5", 0.25, 0.9), word("5", 1.0, 1.7), word("6", 1.8, 2.4), word("7", 2.6, 3.3)]
        let window = DecodeWindow(
            samples: [], start: zero, commits: true, shownUntil: MediaTime(seconds: 3.2, preferredTimescale: 1000))
        // It starts with the block's words (punctuation aside): the rest is new, though "7" mostly
        // lies before 3.2 s.
        #expect(
            SlidingWindowSession.unshown(decode, of: window, after: (zero, ["5,", "5,", "6"])).map(\.text) == ["7"])
        // The block's audio started elsewhere, or the decode heard it differently: by time, and
        // "7"'s middle (2.95 s) is before the block's end, so it is lost.
        let elsewhere = MediaTime(seconds: 0.5, preferredTimescale: 1000)
        #expect(SlidingWindowSession.unshown(decode, of: window, after: (elsewhere, ["5,", "5,", "6"])).isEmpty)
        #expect(
            SlidingWindowSession.unshown(decode, of: window, after: (zero, ["5", "9"])).isEmpty)
        // A window that shows everything.
        var whole = window
        whole.shownUntil = nil
        #expect(SlidingWindowSession.unshown(decode, of: whole, after: (zero, ["5"])).count == 4)
    }

    /// The held-out string "eight six six six oh one": the block said "8, 6, 6", and the decode of
    /// the same audio to the end wrote it again with the rest as one number, "866-6-0-1". Only
    /// "6-0-1" is new, so the line reads 8 6 6 6 0 1 (it used to read "8, 6, 6 866-6-0-1").
    @Test func aDecodeThatWritesTheBlockAndTheRestAsOneNumberShowsOnlyTheRest() {
        let zero = MediaTime.zero
        let token = RecognizedWord(
            text: "866-6-0-1",
            range: TimeRange(
                start: MediaTime(seconds: 0.3, preferredTimescale: 1000),
                end: MediaTime(seconds: 4.1, preferredTimescale: 1000)))
        let window = DecodeWindow(
            samples: [], start: zero, commits: true, shownUntil: MediaTime(seconds: 2.4, preferredTimescale: 1000))
        let shown = SlidingWindowSession.unshown([token], of: window, after: (zero, ["8,", "6,", "6"]))
        #expect(shown.map(\.text) == ["6-0-1"])
        #expect(shown.first?.range == token.range)
        let line = ["8,", "6,", "6"] + shown.map(\.text)
        #expect(DigitTranscript.words(line.joined(separator: " ")) == ["eight", "six", "six", "six", "zero", "one"])
    }
}

/// Words heard again, whatever the decode writes them as.
@Suite("Heard again")
struct HeardAgainTests {
    static let digitNames = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    @Test(arguments: [
        (["5,", "5,", "6"], ["5", "5", "6", "7"], 3),
        (["Eight,", "zero."], ["8", "0", "1"], 2),
        // One decode writes a digit string as one token, the next as words, or the other way.
        (["4739"], ["four", "seven", "three", "nine", "one", "two"], 4),
        (["4-7-3-9."], ["Four,", "seven,", "three,", "nine,", "one"], 4),
        (["four", "seven", "three", "nine"], ["4739", "12"], 1),
        (["one", "two"], ["1", "2"], 2),
    ])
    func theDecodeStartsWithTheEarlierWords(earlier: [String], decode: [String], heard: Int) {
        #expect(HeardAgain.prefix(earlier, of: decode) == heard)
    }

    static let splits: [(earlier: [String], decode: [String], whole: Int, rest: String?)] = [
        (["8,", "6,", "6"], ["866-6-0-1"], 0, "6-0-1"),
        (["8,", "6,", "6"], ["8", "66", "6-0-1"], 2, nil),
        (["four", "seven"], ["4739"], 0, "39"),
        (["4", "7"], ["4-7.", "3"], 1, nil),
    ]

    @Test(arguments: 0..<splits.count)
    func theEarlierWordsMayEndInsideAToken(case number: Int) {
        let (earlier, decode, whole, rest) = Self.splits[number]
        let split = HeardAgain.split(earlier, of: decode)
        #expect(split?.whole == whole && split?.rest == rest, "\(earlier) in \(decode)")
    }

    @Test func aSplitInsideASpelledOutWordOrAnotherNumberIsNone() {
        #expect(HeardAgain.split(["eigh"], of: ["eight"]) == nil)
        #expect(HeardAgain.split(["8", "6"], of: ["857"]) == nil)
    }

    @Test func aDecodeThatDoesNotStartWithThemIsNotAPrefix() {
        #expect(HeardAgain.prefix(["4739"], of: ["four", "seven", "three"]) == nil)
        #expect(HeardAgain.prefix(["4739"], of: ["47", "38"]) == nil)
        #expect(HeardAgain.prefix(["one", "two"], of: ["one", "three"]) == nil)
        #expect(HeardAgain.prefix([], of: ["one"]) == 0)
    }

    /// The shape of the held-out strings: the last block wrote "4739" and the end-of-stream decode
    /// of the same audio writes it in words with what follows; only what follows is new.
    @Test func theEndOfStreamDecodeDoesNotRepeatABlockWrittenAsNumerals() {
        func word(_ text: String, _ start: Double) -> RecognizedWord {
            RecognizedWord(
                text: text,
                range: TimeRange(
                    start: MediaTime(seconds: start, preferredTimescale: 1000),
                    end: MediaTime(seconds: start + 0.3, preferredTimescale: 1000)))
        }
        let decode = ["four", "seven", "three", "nine", "one", "two", "six"].enumerated().map {
            word($0.element, 0.2 + 0.5 * Double($0.offset))
        }
        // Whisper's re-decoded times put the repeated words after the block's end, so time alone
        // would keep all seven.
        let window = DecodeWindow(
            samples: [], start: .zero, commits: true, shownUntil: MediaTime(seconds: 1.0, preferredTimescale: 1000))
        let unshown = SlidingWindowSession.unshown(decode, of: window, after: (.zero, ["4739."]))
        #expect(unshown.map(\.text) == ["one", "two", "six"])
    }
}
