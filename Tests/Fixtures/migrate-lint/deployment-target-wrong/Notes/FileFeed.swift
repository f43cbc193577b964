import Speech

/// Reads a recording through the SDK 27 asset provider; the twin: the project deploys to iOS 26.
final class FileFeed {
    func inputs(_ asset: AVURLAsset, for transcriber: SpeechTranscriber) async throws -> some AsyncSequence {
        let provider = try await AssetInputSequenceProvider.provider(from: asset, compatibleWith: [transcriber]) // lint: ungated-sdk27-api
        return provider.analyzerInputs
    }
}
