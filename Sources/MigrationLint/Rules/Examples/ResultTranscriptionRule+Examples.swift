extension ResultTranscriptionRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "a result's text",
            ##"""
            import Speech

            func read(_ transcriber: SpeechTranscriber) async throws {
                for try await result in transcriber.results { print(String(result.text.characters)) }
            }
            """##),
        LintExample(
            "an app's own `transcription` property",
            ##"""
            struct Memo { var transcription: String }

            func titles(_ memos: [Memo], results: [Memo]) -> [String] { memos.map { memo in memo.transcription } }
            """##),
    ]

    static let triggeringExamples: [LintExample] = [
        LintExample(
            "the legacy result's property read from a transcriber result",
            ##"""
            import Speech

            func read(_ transcriber: SpeechTranscriber) async throws {
                for try await result in transcriber.results { print(result.↓transcription) }
            }
            """##)
    ]
}
