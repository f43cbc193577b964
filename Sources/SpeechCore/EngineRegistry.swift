import Foundation

/// Names engines and picks the one Apple-style code gets when it does not choose: set
/// `SPEECH_HARNESS_ENGINE` (an engine id such as `scripted`) or write `{"engine": "…"}` to
/// `.speech-harness.json` in the working directory; otherwise the first registered engine that has
/// assets for the locale. Tests choose programmatically with ``EngineSelection/$override``.
///
/// The registry itself knows no engine: ``shared`` is filled by the program's composition point
/// (the `HarnessComposition` module, which the `Speech`, `SpeechHarnessTesting` and command-line
/// products link) the first time it is read, so every program sees the same engine ids.
public final class EngineRegistry: Sendable {
    public typealias Factory = @Sendable () throws -> any RecognitionEngine

    public struct Entry: Sendable {
        public var id: String
        public var summary: String
        /// Lower is preferred when no engine is named.
        public var preference: Int
        public var make: Factory

        public init(id: String, summary: String, preference: Int, make: @escaping Factory) {
            self.id = id
            self.summary = summary
            self.preference = preference
            self.make = make
        }
    }

    private let entries = Locked<[String: Entry]>([:])
    private let isProgramRegistry: Bool

    /// An empty registry (for tests that want only their own engines).
    public convenience init() { self.init(isProgramRegistry: false) }

    private init(isProgramRegistry: Bool) { self.isProgramRegistry = isProgramRegistry }

    /// The program's registry: every engine the composition point registers, and any added later.
    public static let shared = EngineRegistry(isProgramRegistry: true)

    /// Adds or replaces the engine `entry.id`.
    public func register(_ entry: Entry) {
        entries.withLock { $0[entry.id] = entry }
    }

    /// Every id, most preferred first.
    public var ids: [String] {
        composeProgram()
        return entries.withLock {
            $0.values.sorted { ($0.preference, $0.id) < ($1.preference, $1.id) }.map(\.id)
        }
    }

    public func entry(_ id: String) -> Entry? {
        composeProgram()
        return entries.withLock { $0[id] }
    }

    private func composeProgram() {
        if isProgramRegistry { _ = ProgramComposition.load() }
    }

    /// A new instance of the engine called `id`.
    public func make(_ id: String) throws -> any RecognitionEngine {
        guard let entry = entry(id) else { throw EngineError.unknownEngine(id, known: ids) }
        return try entry.make()
    }

    /// The engine named by the environment or configuration file, if any. A configuration file
    /// that cannot be read as `{"engine": "<id>"}` is an error naming the file and the field.
    public static func configuredEngineID(
        environment: [String: String] = HarnessEnvironment.current.variables,
        directory: String = FileManager.default.currentDirectoryPath
    ) throws(EngineError) -> String? {
        if let id = environment["SPEECH_HARNESS_ENGINE"], !id.isEmpty { return id }
        struct Configuration: Decodable { var engine: String? }
        let file = directory + "/.speech-harness.json"
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        do {
            return try DecodingProblem.decode(Configuration.self, from: data).engine
        } catch {
            throw .invalidConfiguration(path: file, reason: error.description)
        }
    }

    /// The engine to use for `locale`: the override, else the configured one, else the preferred
    /// registered engine that has assets for the locale.
    public func defaultEngine(for locale: String) throws -> any RecognitionEngine {
        if let override = EngineSelection.override { return override }
        if let id = try Self.configuredEngineID() { return try make(id) }
        for id in ids {
            if let engine = try? make(id), engine.isInstalled(locale: locale) { return engine }
        }
        throw EngineError.unsupportedLocale(engine: "any", locale: locale)
    }
}

/// Programmatic engine choice for code that builds Apple-style modules (tests, the benchmark):
/// `try await EngineSelection.$override.withValue(engine) { … }`.
public enum EngineSelection {
    @TaskLocal public static var override: (any RecognitionEngine)?
}
