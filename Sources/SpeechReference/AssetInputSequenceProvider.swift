@_spi(Harness) import AVFoundation
import CoreMedia
import Foundation
import SpeechCore

/// SDK 27: an asset's audio track as analyzer input, converted to a format the modules take.
///
/// Each read of ``analyzerInputs`` is a new sequence over the whole track, which ends at the
/// track's end; the provider may be let go of once the sequence is taken. Ending the input does
/// not finish the analysis: a finish method still does.
public final class AssetInputSequenceProvider {
    private let asset: AVAsset
    private let track: AVAssetTrack
    private let analyzerFormat: AVAudioFormat
    /// Apple's reading runs in a task of this priority; here the audio is read as the sequence is
    /// iterated, in the iterating task.
    private let priority: TaskPriority?

    /// A provider of `track` (of `asset`) in `analyzerFormat`, which should be one the modules take.
    /// Nothing is read yet: a file that cannot be read fails the sequence.
    public init(asset: AVAsset, track: AVAssetTrack, analyzerFormat: AVAudioFormat, priority: TaskPriority? = nil) {
        self.asset = asset
        self.track = track
        self.analyzerFormat = analyzerFormat
        self.priority = priority
    }

    /// A provider of the asset's first audio track, in the best format the modules share for it.
    /// Throws when the asset cannot be read or has no audio track (`audioReadFailed`), and as
    /// ``AnalyzerInputConverter/converter(compatibleWith:)`` does for the modules.
    public static func provider(
        from asset: AVAsset, compatibleWith modules: [any SpeechModule], priority: TaskPriority? = nil
    ) async throws -> AssetInputSequenceProvider {
        guard let track = try await asset.loadTracks(withMediaType: .audio).first else {
            throw SFSpeechError(.audioReadFailed, "the asset has no audio track")
        }
        return try await provider(from: asset, track: track, compatibleWith: modules, priority: priority)
    }

    /// A provider of `track`, in the best format the modules share for it.
    public static func provider(
        from asset: AVAsset, track: AVAssetTrack, compatibleWith modules: [any SpeechModule],
        priority: TaskPriority? = nil
    ) async throws -> AssetInputSequenceProvider {
        let format = try await AnalyzerInputConverter.bestFormat(for: modules, considering: track.naturalFormat)
        return AssetInputSequenceProvider(asset: asset, track: track, analyzerFormat: format, priority: priority)
    }

    /// The whole track as timed inputs, from its first sample.
    public var analyzerInputs: some Sendable & AsyncSequence<AnalyzerInput, any Error> {
        reads.withLock { $0 += 1 }
        let empty = HelperFaults.planted("assetReadsOnce") && reads.withLock { $0 } > 1
        return AssetInputSequence(asset: asset, format: analyzerFormat, empty: empty)
    }
    private let reads = Locked(0)
}

/// The track's audio, opened when first iterated (the provider's initializer reads nothing).
struct AssetInputSequence: AsyncSequence, Sendable {
    typealias Element = AnalyzerInput
    let asset: AVAsset
    let format: AVAudioFormat
    /// A planted fault's: the sequence carries nothing.
    var empty = false

    struct AsyncIterator: AsyncIteratorProtocol {
        let asset: AVAsset
        let format: AVAudioFormat
        let empty: Bool
        var reading: AudioFileInputSequence.AsyncIterator?

        mutating func next() async throws -> AnalyzerInput? {
            if empty { return nil }
            if reading == nil {
                reading = try AudioFileInputSequence(file: asset.openFile(), format: format).makeAsyncIterator()
            }
            return try await reading?.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(asset: asset, format: format, empty: empty) }
}
