extension NonexistentResultTypeRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "the shipped result type, nested in its module",
            ##"""
            import Speech

            func show(_ result: SpeechTranscriber.Result) { print(result.text) }
            """##),
        LintExample(
            "the project declares a type of that name itself",
            files: [
                (
                    "Show.swift",
                    ##"""
                    import Speech

                    func show(_ result: SpeechTranscriptionResult) { print(result.words) }
                    """##
                ),
                ("Result.swift", "struct SpeechTranscriptionResult { var words: [String] }"),
            ]),
    ]

    static let triggeringExamples: [LintExample] = [
        LintExample(
            "a name that never shipped",
            ##"""
            import Speech

            func show(_ result: ↓SpeechTranscriptionResult) { print(result) }
            """##)
    ]
}
