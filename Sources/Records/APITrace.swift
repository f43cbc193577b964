import Metrics

/// What one API showed an app for one utterance, placed on the audio timeline: the events in the
/// order the app saw them and the final words with their times. Both APIs are traced into this
/// one shape so they can be compared.
public struct APITrace: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable {
        /// A provisional transcript (legacy partial result; analyzer volatile result).
        case partial
        /// Text the API will not change again (legacy final result; analyzer final result).
        case final
        /// The request or session failed.
        case error
        /// No more events will come.
        case end
    }

    public struct Event: Codable, Sendable, Hashable {
        public var kind: Kind
        /// Seconds of audio the engine had processed when the event was made.
        public var audioTime: Double
        /// The whole transcript an app following the API's documented pattern would display after
        /// this event (legacy: the cumulative best transcription; analyzer: finals so far plus the
        /// current volatile text).
        public var shown: [String]
        /// For errors: what failed (for legacy errors, the domain and code).
        public var detail: String?

        public init(kind: Kind, audioTime: Double, shown: [String], detail: String? = nil) {
            self.kind = kind
            self.audioTime = audioTime
            self.shown = shown
            self.detail = detail
        }
    }

    /// A final word and its span in the audio (seconds).
    public typealias TimedWord = StreamingTimeline.TimedWord

    /// `legacy` or `analyzer`.
    public var api: String
    public var events: [Event]
    /// The final transcript, word by word, with times.
    public var finalWords: [TimedWord]
    /// Seconds of audio supplied.
    public var audioSeconds: Double
    /// Behaviours particular to this API on this utterance, e.g. the emulated server limit.
    public var notes: [String]

    public init(api: String, events: [Event], finalWords: [TimedWord], audioSeconds: Double, notes: [String] = []) {
        self.api = api
        self.events = events
        self.finalWords = finalWords
        self.audioSeconds = audioSeconds
        self.notes = notes
    }

    public var finalText: String { finalWords.map(\.word).joined(separator: " ") }
    public var error: String? { events.first { $0.kind == .error }?.detail }

    /// Updates of the displayed transcript while audio was still arriving.
    public var displayUpdates: [Event] {
        var previous: [String] = []
        var updates: [Event] = []
        for event in events where event.kind == .partial || event.kind == .final {
            if event.shown != previous { updates.append(event) }
            previous = event.shown
        }
        return updates
    }

    /// Display updates that changed or removed a word already shown (not a pure extension).
    public var revisions: Int {
        var previous: [String] = []
        var count = 0
        for update in displayUpdates {
            if !update.shown.starts(with: previous) { count += 1 }
            previous = update.shown
        }
        return count
    }

    /// Mean audio seconds between display updates; nil with fewer than two.
    public var meanUpdateInterval: Double? {
        let times = displayUpdates.map(\.audioTime)
        guard times.count >= 2 else { return nil }
        return (times.last! - times.first!) / Double(times.count - 1)
    }

    /// The event sequence with runs collapsed: `partial×4 final partial×2 final end`.
    public var eventOrder: String {
        var parts: [(Kind, Int)] = []
        for event in events {
            if let last = parts.last, last.0 == event.kind {
                parts[parts.count - 1].1 += 1
            } else {
                parts.append((event.kind, 1))
            }
        }
        return parts.map { $0.1 == 1 ? $0.0.rawValue : "\($0.0.rawValue)×\($0.1)" }.joined(separator: " ")
    }

    /// Seconds of audio processed when the last final result came; nil without one.
    public var lastFinalAudioTime: Double? { events.last { $0.kind == .final }?.audioTime }

    /// Final events made before the last of the audio had been processed.
    public var finalsBeforeEndOfAudio: Int {
        events.filter { $0.kind == .final && $0.audioTime < audioSeconds - 1e-6 }.count
    }
}
