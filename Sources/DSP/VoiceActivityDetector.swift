/// Speech/non-speech decisions per frame from energy and spectral flatness, against a noise floor
/// that adapts (falls at once, rises slowly), with an onset count and a hangover.
public struct VoiceActivityDetector: Sendable {
    public struct Configuration: Sendable, Hashable, Codable {
        /// A frame is speech-like when its energy is this far above the floor…
        public var marginDB: Float = 12
        /// …and its spectrum is peakier than this, or its energy is `loudMarginDB` above the floor.
        public var maximumFlatness: Float = 0.6
        public var loudMarginDB: Float = 25
        /// Below this level nothing is speech (dBFS).
        public var minimumSpeechDB: Float = -55
        /// The floor never goes below this (digital silence would make any noise speech).
        public var floorMinimumDB: Float = -80
        /// dB the floor rises per frame while the signal stays above it.
        public var floorRiseDB: Float = 0.02
        /// Consecutive speech-like frames that start speech.
        public var onsetFrames = 3
        /// Consecutive non-speech frames that end speech.
        public var hangoverFrames = 30

        public init() {}
    }

    public enum Event: Sendable, Hashable {
        /// Speech began at this frame (reported `onsetFrames - 1` frames later).
        case started(frame: Int)
        /// Speech ended before this frame (reported `hangoverFrames - 1` frames later).
        case ended(frame: Int)
    }

    public let configuration: Configuration
    public private(set) var floorDB: Float?
    public private(set) var inSpeech = false
    /// Whether the last frame fed was speech-like (before onset and hangover smoothing).
    public private(set) var lastFrameSpeechLike = false
    private var run = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds frame number `frame`: its energy (dB) and flatness; returns a state change, if any.
    public mutating func feed(energyDB: Float, flatness: Float, frame: Int) -> Event? {
        let c = configuration
        let level = max(energyDB, c.floorMinimumDB)
        var floor = floorDB ?? level
        if level < floor { floor = level } else { floor = min(level, floor + c.floorRiseDB) }
        floorDB = floor
        let above = energyDB - floor
        let speechLike = isLoud(energyDB) && (flatness <= c.maximumFlatness || above >= c.loudMarginDB)
        lastFrameSpeechLike = speechLike
        if inSpeech {
            run = speechLike ? 0 : run + 1
            if run >= c.hangoverFrames {
                inSpeech = false
                run = 0
                return .ended(frame: frame - c.hangoverFrames + 1)
            }
        } else {
            run = speechLike ? run + 1 : 0
            if run >= c.onsetFrames {
                inSpeech = true
                run = 0
                return .started(frame: frame - c.onsetFrames + 1)
            }
        }
        return nil
    }

    /// Whether a frame of this energy is loud enough for speech: above the absolute minimum and
    /// the margin over the current floor (the level half of the speech-like test).
    public func isLoud(_ energyDB: Float) -> Bool {
        let floor = floorDB ?? energyDB
        return energyDB >= configuration.minimumSpeechDB && energyDB - floor >= configuration.marginDB
    }

    /// Sets the floor to `levelDB` before the first frame is fed (the quietest level of the
    /// opening audio): audio that opens with speech would otherwise make that speech the floor.
    public mutating func primeFloor(levelDB: Float) {
        floorDB = max(levelDB, configuration.floorMinimumDB)
    }

    /// Forgets the speech state (after skipped audio); the floor is kept.
    public mutating func resetSpeechState() {
        inSpeech = false
        run = 0
    }
}
