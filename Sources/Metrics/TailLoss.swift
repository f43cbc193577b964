import SpeechCore

/// Reference words at the end of the audio that no final result holds: what a program loses when
/// it stops without finalizing (dropping the analyzer, or cancelling the task), against one that
/// finalizes through the end of its input. Words are placed by the sclite alignment of the
/// reference with every final word.
public struct TailLoss: Sendable, Hashable, Codable {
    /// Seconds before the end of the audio that count as the tail.
    public static let window = 2.0

    /// Reference words that end within the tail.
    public var words: Int
    /// Of those, the ones no final word matches.
    public var lost: Int

    public init(words: Int = 0, lost: Int = 0) {
        self.words = words
        self.lost = lost
    }

    /// `reference` and `finalWords` prepared by the same scoring policy.
    public static func measure(
        reference: [TimedWord], finalWords: [String], audioEnd: Double, window: Double = TailLoss.window
    ) -> TailLoss {
        let matched = Set(
            WordAligner.align(reference: reference.map(\.word), hypothesis: finalWords).matchedPositions.map(
                \.reference))
        var loss = TailLoss()
        for (index, word) in reference.enumerated() where word.end > audioEnd - window {
            loss.words += 1
            if !matched.contains(index) { loss.lost += 1 }
        }
        return loss
    }

    public static func + (a: TailLoss, b: TailLoss) -> TailLoss {
        TailLoss(words: a.words + b.words, lost: a.lost + b.lost)
    }
}
