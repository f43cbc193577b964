extension DiscardedInputContinuationRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "the continuation kept, to feed the input and end it",
            ##"""
            import Speech

            func makeInput() -> (AsyncStream<AnalyzerInput>, AsyncStream<AnalyzerInput>.Continuation) {
                let (stream, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                return (stream, continuation)
            }
            """##)
    ]

    static let triggeringExamples: [LintExample] = [
        LintExample(
            "nothing can feed or end this stream",
            ##"""
            import Speech

            func makeInput() -> AsyncStream<AnalyzerInput> {
                let (stream, ↓_) = AsyncStream<AnalyzerInput>.makeStream()
                return stream
            }
            """##)
    ]
}
