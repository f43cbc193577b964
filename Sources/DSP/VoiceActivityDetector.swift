/// Speech/non-speech decisions per frame from energy and spectral flatness, against noise floors
/// that adapt (fall at once, rise slowly), with an onset count and a hangover.
///
/// Two levels are judged, each against its own floor, and either can make a frame speech-like:
/// the broadband pre-emphasised energy, which keeps weak fricatives in quiet audio, and the
/// speech-band level with pre-emphasis undone, which keeps voiced speech in broadband noise (there
/// the pre-emphasis tilt lifts the noise and lowers the vowels).
public struct VoiceActivityDetector: Sendable {
    /// What the detector reads from one frame.
    public struct Measures: Sendable, Hashable {
        /// Broadband energy (dB), the pre-emphasised signal's.
        public var energyDB: Float
        /// Speech-band level (dB) without pre-emphasis.
        public var speechBandDB: Float
        /// Spectral flatness in the speech band, 0…1.
        public var flatness: Float

        public init(energyDB: Float, speechBandDB: Float, flatness: Float) {
            self.energyDB = energyDB
            self.speechBandDB = speechBandDB
            self.flatness = flatness
        }

        public init(_ frame: RawFrame) {
            self.init(energyDB: frame.energyDB, speechBandDB: frame.speechBandDB, flatness: frame.flatness)
        }
    }

    public struct Configuration: Sendable, Hashable, Codable {
        /// A frame is speech-like when its energy is this far above the floor…
        public var marginDB: Float = 12
        /// …and its spectrum is peakier than this, or its energy is `loudMarginDB` above the floor.
        public var maximumFlatness: Float = 0.6
        public var loudMarginDB: Float = 25
        /// Below this level nothing is speech (dBFS).
        public var minimumSpeechDB: Float = -55
        /// The speech-band level counts only from this level up (dBFS): quieter frames that only
        /// it would call speech are mostly the decaying ends of words, which templates (trimmed on
        /// the broadband level) do not hold; in loud noise the voiced speech is above it.
        public var minimumBandSpeechDB: Float = -30
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
    /// Floor of the broadband energy.
    public private(set) var floorDB: Float?
    /// Floor of the speech-band level.
    public private(set) var bandFloorDB: Float?
    public private(set) var inSpeech = false
    /// Whether the last frame fed was speech-like (before onset and hangover smoothing).
    public private(set) var lastFrameSpeechLike = false
    private var run = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds frame number `frame`; returns a state change, if any.
    public mutating func feed(_ measures: Measures, frame: Int) -> Event? {
        let c = configuration
        floorDB = Self.follow(floorDB, measures.energyDB, c)
        bandFloorDB = Self.follow(bandFloorDB, measures.speechBandDB, c)
        let speechLike =
            Self.speechLike(measures.energyDB, floor: floorDB!, flatness: measures.flatness, c)
            || measures.speechBandDB >= c.minimumBandSpeechDB
                && Self.speechLike(measures.speechBandDB, floor: bandFloorDB!, flatness: measures.flatness, c)
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

    /// The floor after a frame at `level`: down at once, up slowly, never below the minimum.
    private static func follow(_ floor: Float?, _ level: Float, _ c: Configuration) -> Float {
        let level = max(level, c.floorMinimumDB)
        let floor = floor ?? level
        return level < floor ? level : min(level, floor + c.floorRiseDB)
    }

    private static func loud(_ level: Float, floor: Float, _ c: Configuration) -> Bool {
        level >= c.minimumSpeechDB && level - floor >= c.marginDB
    }

    private static func speechLike(_ level: Float, floor: Float, flatness: Float, _ c: Configuration) -> Bool {
        loud(level, floor: floor, c) && (flatness <= c.maximumFlatness || level - floor >= c.loudMarginDB)
    }

    /// Whether a frame is loud enough for speech on either level: above the absolute minimum and
    /// the margin over the current floor (the level half of the speech-like test).
    public func isLoud(_ measures: Measures) -> Bool {
        Self.loud(measures.energyDB, floor: floorDB ?? measures.energyDB, configuration)
            || measures.speechBandDB >= configuration.minimumBandSpeechDB
                && Self.loud(measures.speechBandDB, floor: bandFloorDB ?? measures.speechBandDB, configuration)
    }

    /// Lowers the floors to this frame's levels where they are lower (or sets them before the
    /// first frame is fed): audio that opens with speech would otherwise make that speech the floor.
    public mutating func primeFloor(_ measures: Measures) {
        floorDB = max(min(floorDB ?? measures.energyDB, measures.energyDB), configuration.floorMinimumDB)
        bandFloorDB = max(
            min(bandFloorDB ?? measures.speechBandDB, measures.speechBandDB), configuration.floorMinimumDB)
    }

    /// Forgets the speech state (after skipped audio); the floor is kept.
    public mutating func resetSpeechState() {
        inSpeech = false
        run = 0
    }
}
