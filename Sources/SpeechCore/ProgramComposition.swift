import CHarnessComposition

/// The program's composition point: the module that registers every engine and adapter and the
/// corpus reader the virtual microphone uses (`HarnessComposition`). Libraries below it (the
/// reference analyzer, the virtual device) know only the protocols; the first registry or
/// microphone lookup runs the composition once, when the module is linked into the program.
public enum ProgramComposition {
    /// Whether the program has a composition point; runs it the first time.
    @discardableResult
    public static func load() -> Bool { loaded }

    private static let loaded: Bool = speech_harness_compose() != 0
}
