/// What one player has been given to play and how far it has got: a value fed render cycles,
/// with no threads or clocks, so that scheduling, gaps and completion order can be tested exactly.
///
/// Audio is held in the format the player renders in (channels of samples). A segment may start
/// at a set frame of the player's timeline (silence fills the gap) or right after the previous one.
public struct PlaybackQueue<Token> {
    private struct Segment {
        var channels: [[Float]]
        /// Player frame where the segment starts; nil: right after what is before it.
        var start: Int64?
        /// Plays again from its start each time it ends, until removed.
        var loops: Bool
        var token: Token
        var frameCount: Int { channels.first?.count ?? 0 }
    }

    public let channelCount: Int
    private var segments: [Segment] = []
    /// Frames of the first segment already rendered.
    private var offset = 0
    /// Frames rendered since the player started (its timeline).
    public private(set) var playerFrame: Int64 = 0

    public init(channelCount: Int) {
        self.channelCount = channelCount
    }

    /// Nothing left to play.
    public var isEmpty: Bool { segments.isEmpty }

    /// Adds audio after what is already scheduled, or at player frame `start`; a looping segment
    /// plays until it is removed, and its token is returned only then.
    public mutating func schedule(_ channels: [[Float]], at start: Int64? = nil, loops: Bool = false, token: Token) {
        segments.append(Segment(channels: channels, start: start, loops: loops, token: token))
    }

    /// One render cycle of `frames` frames: the samples (silence where nothing is scheduled) and
    /// the tokens of the segments whose last frame was rendered in it, in schedule order.
    public mutating func render(frames: Int) -> (channels: [[Float]], finished: [Token]) {
        var out = Array(repeating: [Float](repeating: 0, count: frames), count: channelCount)
        var finished: [Token] = []
        var written = 0
        while written < frames, let segment = segments.first {
            if offset == 0, let start = segment.start, start > playerFrame + Int64(written) {
                // Silence until the segment's start time.
                let gap = Int(min(Int64(frames - written), start - playerFrame - Int64(written)))
                written += gap
                continue
            }
            guard segment.frameCount > 0 else {
                // An empty segment ends as soon as it is reached (a looping one with it).
                finished.append(segment.token)
                segments.removeFirst()
                continue
            }
            let take = min(frames - written, segment.frameCount - offset)
            for channel in 0..<channelCount {
                let source = segment.channels[min(channel, segment.channels.count - 1)]
                out[channel].replaceSubrange(written..<written + take, with: source[offset..<offset + take])
            }
            written += take
            offset += take
            if offset >= segment.frameCount {
                offset = 0
                if segment.loops {
                    segments[0].start = nil
                } else {
                    finished.append(segment.token)
                    segments.removeFirst()
                }
            }
        }
        playerFrame += Int64(frames)
        return (out, finished)
    }

    /// Drops everything scheduled; returns the dropped segments' tokens, whose handlers are still
    /// owed an answer. The timeline restarts at 0 unless `keepingTimeline` (a buffer that
    /// interrupts the others plays on from where they were).
    public mutating func removeAll(keepingTimeline: Bool = false) -> [Token] {
        defer {
            segments = []
            offset = 0
            if !keepingTimeline { playerFrame = 0 }
        }
        return segments.map(\.token)
    }
}
