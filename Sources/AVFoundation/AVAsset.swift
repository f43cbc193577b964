import AVFAudio
import CoreMedia
import Foundation

/// The error domain of AVFoundation's errors.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

/// Timed media, read through its tracks. On Linux an asset is an audio file libsndfile reads (WAV,
/// FLAC, Ogg, AIFF and the other formats it knows), with one audio track.
open class AVAsset: NSObject, @unchecked Sendable {
    let location: URL

    init(location: URL) { self.location = location }

    /// The asset's tracks of `mediaType`: the file's one audio track for `.audio`, none for other
    /// media. Throws when the file cannot be read as audio (an NSError in AVFoundation's domain that
    /// names the file and why), as loading an asset's tracks does on a device.
    open func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        guard mediaType == .audio else { return [] }
        return [AVAssetTrack(asset: self, trackID: 1, file: try openFile())]
    }

    /// The whole asset's length (deprecated on Apple's platforms for `load(.duration)`).
    @available(*, deprecated, message: "Use load(.duration) instead")
    open var duration: CMTime {
        guard let file = try? openFile() else { return .invalid }
        return CMTime(sampleIndex: file.length, sampleRate: file.fileFormat.sampleRate)
    }

    /// The file behind the asset, opened for reading.
    @_spi(Harness) public func openFile() throws -> AVAudioFile {
        do {
            return try AVAudioFile(forReading: location)
        } catch {
            throw NSError(
                domain: AVFoundationErrorDomain, code: -11_828,
                userInfo: [
                    NSLocalizedDescriptionKey: "\(location.path): cannot be read as audio: \(error)",
                    NSUnderlyingErrorKey: error as NSError, NSURLErrorKey: location,
                ])
        }
    }
}

/// An asset at a URL: a local audio file here.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The URL the asset was made with.
    public let url: URL

    /// An asset for `url`; nothing is read until its tracks are loaded. The options (Apple's
    /// loading and network keys) have no effect on a local file.
    public init(url URL: URL, options: [String: Any]? = nil) {
        self.url = URL
        super.init(location: URL)
    }
}

/// One track of an asset: here the audio of an audio file.
open class AVAssetTrack: NSObject, @unchecked Sendable {
    /// The track's number in its asset (the audio track of a file is 1).
    public let trackID: CMPersistentTrackID
    public let mediaType: AVMediaType
    /// The asset the track belongs to.
    public private(set) weak var asset: AVAsset?
    /// The track's audio as read from the file (its native rate and channels).
    @_spi(Harness) public let naturalFormat: AVAudioFormat
    /// How long the track lasts, in frames of its native rate.
    @_spi(Harness) public let frameCount: AVAudioFramePosition

    init(asset: AVAsset, trackID: CMPersistentTrackID, file: AVAudioFile) {
        self.asset = asset
        self.trackID = trackID
        self.mediaType = .audio
        self.naturalFormat = file.processingFormat
        self.frameCount = file.length
    }

    /// Where the track lies on its asset's timeline (deprecated on Apple's platforms for
    /// `load(.timeRange)`).
    @available(*, deprecated, message: "Use load(.timeRange) instead")
    open var timeRange: CMTimeRange {
        CMTimeRange(start: .zero, duration: CMTime(sampleIndex: frameCount, sampleRate: naturalFormat.sampleRate))
    }
}
