import Foundation
import SpeechCore

/// Whether two files hold the same audio: the same rate, channel count and sample encoding, and
/// the same samples frame for frame. What else a container keeps (chunks, tags, the header's
/// layout) is not compared, so a file's metadata never makes two recordings differ.
public enum AudioComparison {
    /// The first way two files differ.
    public enum Difference: Sendable, Equatable, CustomStringConvertible {
        /// Rate, channels or encoding differ (each side described).
        case format(first: String, second: String)
        /// The same format, but one file is longer.
        case length(first: Int64, second: Int64)
        /// The first frame and channel whose samples differ.
        case sample(frame: Int64, channel: Int, first: Float, second: Float)

        public var description: String {
            switch self {
            case .format(let first, let second): return "formats differ: \(first) against \(second)"
            case .length(let first, let second): return "lengths differ: \(first) frames against \(second)"
            case .sample(let frame, let channel, let first, let second):
                return "samples differ first at frame \(frame), channel \(channel): \(first) against \(second)"
            }
        }
    }

    /// The first difference between the files at `first` and `second`, or nil when they hold the
    /// same audio. Throws ``AudioIOError`` when either cannot be read.
    public static func difference(between first: String, and second: String) throws -> Difference? {
        let a = try AudioFileReader(path: first)
        let b = try AudioFileReader(path: second)
        let formats = (describe(a.info), describe(b.info))
        guard formats.0 == formats.1 else { return .format(first: formats.0, second: formats.1) }
        var frame: Int64 = 0
        while true {
            let left = try a.read(maxFrames: 8_192)
            let right = try b.read(maxFrames: left?.frameCount ?? 8_192)
            guard let left, let right else {
                if left == nil && right == nil { return nil }
                return .length(first: a.info.frameCount, second: b.info.frameCount)
            }
            if let found = firstDifference(left, right) {
                return .sample(
                    frame: frame + Int64(found.frame), channel: found.channel, first: found.0, second: found.1)
            }
            guard left.frameCount == right.frameCount else {
                return .length(first: a.info.frameCount, second: b.info.frameCount)
            }
            frame += Int64(left.frameCount)
        }
    }

    private static func describe(_ info: AudioFileInfo) -> String {
        "\(Int(info.format.sampleRate)) Hz, \(info.format.channelCount) ch, \(info.encoding)"
    }

    /// Compared by bit pattern, so that two NaNs of the same payload are the same and -0 is not 0.
    private static func firstDifference(_ a: PCMBuffer, _ b: PCMBuffer) -> (Float, Float, frame: Int, channel: Int)? {
        let (x, y) = (a.floatChannels, b.floatChannels)
        for i in 0..<min(a.frameCount, b.frameCount) {
            for c in x.indices where x[c][i].bitPattern != y[c][i].bitPattern {
                return (x[c][i], y[c][i], frame: i, channel: c)
            }
        }
        return nil
    }
}
