import Speech

/// Reads a recording through the SDK 27 asset provider; the project deploys to 27 on both platforms.
final class FileFeed {
    func inputs(_ asset: AVURLAsset, for transcriber: SpeechTranscriber) async throws -> some AsyncSequence {
        let provider = try await AssetInputSequenceProvider.provider(from: asset, compatibleWith: [transcriber])
        return provider.analyzerInputs
    }
}
